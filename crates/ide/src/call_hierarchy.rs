//! The call hierarchy over steps (`lsp.md`): the incoming calls of a step
//! are the steps it depends on, its outgoing calls the steps that depend on
//! it. Either way, the ranges are where the dependency is written: in the
//! dependent step (its `after`/`on` entries and the heads of its references).

use easyflow_db::diagnostics::Anchor;
use easyflow_db::graph::{Edge, EdgeSource};
use easyflow_db::{Db, SourceFile, StepId, dependency_graph, item_index};
use easyflow_diagnostics::{TextRange, TextSize};

use crate::defs::{self, Definition};

/// A step as an item of the hierarchy.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CallItem {
    pub step: StepId,
    pub name: String,
    /// The step's package.
    pub detail: Option<String>,
    /// The whole step.
    pub range: TextRange,
    /// The step's name.
    pub selection_range: TextRange,
}

/// The step named under the cursor (by its name, an `after` entry or a
/// reference), or else the step the cursor is in. `None` outside steps (a
/// `require` included) and on a step without a name.
pub fn prepare(db: &dyn Db, file: SourceFile, offset: TextSize) -> Option<CallItem> {
    let step = match defs::definition_at(db, file, offset) {
        Some((Definition::Step(step), _)) => step,
        _ => defs::step_at(db, file, offset)?,
    };
    item(db, file, step)
}

/// The steps `step` depends on, each with the ranges in `step` where the
/// dependency is written, in the order of their first such range.
pub fn incoming(db: &dyn Db, file: SourceFile, step: StepId) -> Vec<(CallItem, Vec<TextRange>)> {
    let graph = dependency_graph(db, file);
    group(db, file, graph.edges_into(step).iter(), |edge| edge.from)
}

/// The steps that depend on `step`, each with the ranges in that step where
/// the dependency is written, in text order.
pub fn outgoing(db: &dyn Db, file: SourceFile, step: StepId) -> Vec<(CallItem, Vec<TextRange>)> {
    let graph = dependency_graph(db, file);
    group(
        db,
        file,
        graph.edges.iter().filter(|edge| edge.from == step),
        |edge| edge.to,
    )
}

/// A step as an item; `None` for a step without a name.
fn item(db: &dyn Db, file: SourceFile, step: StepId) -> Option<CallItem> {
    let summary = item_index(db, file).steps.get(step.index())?;
    Some(CallItem {
        step,
        name: summary.name.as_deref()?.to_string(),
        detail: summary.package.as_deref().map(str::to_string),
        range: defs::step_range(db, file, step)?,
        selection_range: defs::range_of(db, file, Anchor::StepName(step))?,
    })
}

/// Where an edge is written, in its dependent step.
fn edge_range(db: &dyn Db, file: SourceFile, edge: &Edge) -> Option<TextRange> {
    let anchor = match edge.source {
        EdgeSource::Dependency(n) => Anchor::Dependency(edge.to, n),
        EdgeSource::Reference(n) => Anchor::ReferenceHead(edge.to, n),
    };
    defs::range_of(db, file, anchor)
}

/// The edges grouped by the step `other` picks, in the order of first
/// appearance, with their ranges sorted.
fn group<'a>(
    db: &dyn Db,
    file: SourceFile,
    edges: impl Iterator<Item = &'a Edge>,
    other: impl Fn(&Edge) -> StepId,
) -> Vec<(CallItem, Vec<TextRange>)> {
    let mut groups: Vec<(StepId, Vec<TextRange>)> = Vec::new();
    for edge in edges {
        let Some(range) = edge_range(db, file, edge) else {
            continue;
        };
        let step = other(edge);
        match groups.iter_mut().find(|(s, _)| *s == step) {
            Some((_, ranges)) => ranges.push(range),
            None => groups.push((step, vec![range])),
        }
    }
    groups
        .into_iter()
        .filter_map(|(step, mut ranges)| {
            ranges.sort_by_key(|r| r.start());
            Some((item(db, file, step)?, ranges))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, fixture};
    use expect_test::{Expect, expect};

    const FLOW: &str = "\
step Load runs io.Read ();
step Clean runs tools.Clean after Load (x = Load.outs[\"a\"], y = [Load.Result]);
[priority = @high]
step Sum runs Sum after Clean, Load (v = Clean);
step Alone runs P ();
";

    fn show(f: &Fixture, calls: &[(CallItem, Vec<TextRange>)]) -> String {
        calls
            .iter()
            .map(|(item, ranges)| {
                let places: Vec<String> = ranges
                    .iter()
                    .map(|r| format!("{}@{}", &f.text[*r], u32::from(r.start())))
                    .collect();
                format!("{} ({:?}): {}\n", item.name, item.detail, places.join(" "))
            })
            .collect()
    }

    fn check(text: &str, expect_incoming: Expect, expect_outgoing: Expect) {
        let f = fixture(text);
        let item = prepare(&f.db, f.file, f.offset).expect("an item at the cursor");
        expect_incoming.assert_eq(&show(&f, &incoming(&f.db, f.file, item.step)));
        expect_outgoing.assert_eq(&show(&f, &outgoing(&f.db, f.file, item.step)));
    }

    #[test]
    fn prepare_gives_the_step() {
        let f = fixture(&FLOW.replace("v = Clean", "v = Cle$0an"));
        let item = prepare(&f.db, f.file, f.offset).unwrap();
        assert_eq!(item.step, StepId(1));
        assert_eq!(item.name, "Clean");
        assert_eq!(item.detail.as_deref(), Some("tools.Clean"));
        assert!(f.text[item.range].starts_with("step Clean runs"));
        assert!(f.text[item.range].ends_with(");"));
        assert_eq!(&f.text[item.selection_range], "Clean");
        // Anywhere in a step, its attributes included.
        let f = fixture(&FLOW.replace("@high", "@hi$0gh"));
        let item = prepare(&f.db, f.file, f.offset).unwrap();
        assert_eq!(item.name, "Sum");
        assert!(f.text[item.range].starts_with("[priority = @high]\nstep Sum"));
    }

    #[test]
    fn prepare_elsewhere() {
        let f = fixture("require da$0ta;\nstep A runs P (x = data);\n");
        assert_eq!(prepare(&f.db, f.file, f.offset), None);
        // A required file's use: the step around it.
        let f = fixture("require data;\nstep A runs P (x = da$0ta);\n");
        assert_eq!(prepare(&f.db, f.file, f.offset).unwrap().name, "A");
        let f = fixture("step runs P (x = $01);\n");
        assert_eq!(prepare(&f.db, f.file, f.offset), None);
        let f = fixture("step A runs P ();\n\n$0");
        assert_eq!(prepare(&f.db, f.file, f.offset), None);
    }

    #[test]
    fn dependencies_and_dependents() {
        check(
            &FLOW.replace("step Clean", "step $0Clean"),
            expect![[r#"
                Load (Some("io.Read")): Load@61 Load@71 Load@92
            "#]],
            expect![[r#"
                Sum (Some("Sum")): Clean@150 Clean@167
            "#]],
        );
        check(
            &FLOW.replace("step Load", "step $0Load"),
            expect![""],
            expect![[r#"
                Clean (Some("tools.Clean")): Load@61 Load@71 Load@92
                Sum (Some("Sum")): Load@157
            "#]],
        );
        check(
            &FLOW.replace("step Sum", "step $0Sum"),
            expect![[r#"
                Clean (Some("tools.Clean")): Clean@150 Clean@167
                Load (Some("io.Read")): Load@157
            "#]],
            expect![""],
        );
        check(
            &FLOW.replace("step Alone", "step $0Alone"),
            expect![""],
            expect![""],
        );
    }

    #[test]
    fn a_self_dependency_and_a_cycle() {
        check(
            "step $0A runs P after B ();\nstep B runs P (x = A, y = B);\n",
            expect![[r#"
                B (Some("P")): B@20
            "#]],
            expect![[r#"
                B (Some("P")): A@45
            "#]],
        );
        check(
            "step A runs P after B ();\nstep $0B runs P (x = A, y = B);\n",
            expect![[r#"
                A (Some("P")): A@45
                B (Some("P")): B@52
            "#]],
            expect![[r#"
                A (Some("P")): B@20
                B (Some("P")): B@52
            "#]],
        );
    }
}
