//! Code lenses: above each step, "level N · depends on K · M dependents",
//! which opens the M dependents (the server gives the lens its command).

use easyflow_db::diagnostics::Anchor;
use easyflow_db::graph::DependencyGraph;
use easyflow_db::{Db, SourceFile, StepId, dependency_graph, file_outline};
use easyflow_diagnostics::{TextRange, TextSize};

use crate::defs;

/// One lens, on a step's name (the line it is shown above).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CodeLens {
    pub range: TextRange,
    pub title: String,
    pub step: StepId,
    /// Where the dependents are: each one's name (its start when it has
    /// none), in text order.
    pub dependents: Vec<TextRange>,
}

/// Each step's distinct dependents, in text order, as compressed rows.
struct Dependents {
    /// Step `i`'s dependents are `steps[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    steps: Vec<StepId>,
    /// How many distinct steps each step depends on.
    depends_on: Vec<u32>,
}

impl Dependents {
    fn of(graph: &DependencyGraph, count: usize) -> Dependents {
        let mut depends_on = vec![0u32; count];
        let mut starts = vec![0u32; count + 1];
        // Edges come grouped by dependent step: a pair (from, to) is new
        // when `from` was last seen with another `to`.
        let distinct_pairs = || {
            let mut last_seen_with = vec![u32::MAX; count];
            graph.edges.iter().filter(move |edge| {
                let new = last_seen_with[edge.from.index()] != edge.to.0;
                last_seen_with[edge.from.index()] = edge.to.0;
                new
            })
        };
        for edge in distinct_pairs() {
            depends_on[edge.to.index()] += 1;
            starts[edge.from.index() + 1] += 1;
        }
        for i in 0..count {
            starts[i + 1] += starts[i];
        }
        let mut filled = starts.clone();
        let mut steps = vec![StepId(0); starts[count] as usize];
        for edge in distinct_pairs() {
            let slot = &mut filled[edge.from.index()];
            steps[*slot as usize] = edge.to;
            *slot += 1;
        }
        Dependents {
            starts,
            steps,
            depends_on,
        }
    }

    fn of_step(&self, step: StepId) -> &[StepId] {
        let (start, end) = (self.starts[step.index()], self.starts[step.index() + 1]);
        &self.steps[start as usize..end as usize]
    }
}

/// Where step `step` is shown as a dependent: its name, else its start.
fn place_of(db: &dyn Db, file: SourceFile, step: StepId) -> Option<TextRange> {
    defs::range_of(db, file, Anchor::StepName(step))
        .or_else(|| Some(TextRange::empty(defs::step_range(db, file, step)?.start())))
}

/// A lens for every named step, in text order. Counts are of distinct
/// steps (a step that depends on itself counts itself); the level is worded
/// by [`easyflow_db::graph::Level::label`] ("in a cycle" for a step on a
/// cycle, "level —" downstream of one).
pub fn code_lenses(db: &dyn Db, file: SourceFile) -> Vec<CodeLens> {
    let outline = file_outline(db, file);
    let graph = dependency_graph(db, file);
    let dependents = Dependents::of(graph, outline.step_count());
    let mut lenses = Vec::with_capacity(outline.step_count());
    for (id, step) in outline.steps(db) {
        let Some(name) = step.anchors(db).name else {
            continue;
        };
        let of_step = dependents.of_step(id);
        let title = format!(
            "{} · depends on {} · {} {}",
            graph.level(id).label(),
            dependents.depends_on[id.index()],
            of_step.len(),
            if of_step.len() == 1 {
                "dependent"
            } else {
                "dependents"
            }
        );
        lenses.push(CodeLens {
            range: name + step.offset,
            title,
            step: id,
            dependents: of_step
                .iter()
                .filter_map(|&d| place_of(db, file, d))
                .collect(),
        });
    }
    lenses
}

/// The places of the dependents of the step at `offset` (as a lens lists
/// them), `None` when no step is there.
pub fn dependents_at(db: &dyn Db, file: SourceFile, offset: TextSize) -> Option<Vec<TextRange>> {
    let step = defs::step_at(db, file, offset)?;
    let graph = dependency_graph(db, file);
    let dependents = Dependents::of(graph, file_outline(db, file).step_count());
    Some(
        dependents
            .of_step(step)
            .iter()
            .filter_map(|&d| place_of(db, file, d))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::fixture::fixture;

    fn render(text: &str) -> String {
        let f = fixture(text);
        code_lenses(&f.db, f.file)
            .iter()
            .map(|lens| {
                let dependents: Vec<&str> = lens.dependents.iter().map(|r| &f.text[*r]).collect();
                format!(
                    "{} ({:?}): {} {:?}\n",
                    &f.text[lens.range], lens.step, lens.title, dependents
                )
            })
            .collect()
    }

    #[test]
    fn levels_and_distinct_counts() {
        expect![[r#"
            Load (StepId(0)): level 0 · depends on 0 · 2 dependents ["Comp", "Sum"]
            Init (StepId(1)): level 0 · depends on 0 · 1 dependent ["Comp"]
            Comp (StepId(2)): level 1 · depends on 2 · 1 dependent ["Sum"]
            Sum (StepId(3)): level 2 · depends on 2 · 0 dependents []
        "#]]
        .assert_eq(&render(
            r#"step Load runs P ();
step Init runs P ();
step Comp runs P after Init, Init (a = Load.outs["x"], b = [Load, Load.Result.outs], c = Init);
step Sum runs P after Comp (x = Comp, y = Load);
"#,
        ));
    }

    #[test]
    fn dependents_at_a_step() {
        let f = fixture(
            "step A runs P ();\nstep B runs P (x = A);\nstep runs P (y = A);\nstep C runs P after A, B;\n",
        );
        let at = |offset: u32| {
            dependents_at(&f.db, f.file, TextSize::from(offset)).map(|ranges| {
                ranges
                    .iter()
                    .map(|r| (&f.text[*r], r.start()))
                    .collect::<Vec<_>>()
            })
        };
        // The unnamed step is shown at its start.
        assert_eq!(
            at(5),
            Some(vec![("B", 23.into()), ("", 41.into()), ("C", 67.into())])
        );
        assert_eq!(at(67), Some(vec![]));
        assert_eq!(at(1000), None);
    }

    #[test]
    fn cycles_and_unnamed_steps() {
        expect![[r#"
            A (StepId(0)): in a cycle · depends on 1 · 2 dependents ["B", "C"]
            B (StepId(1)): in a cycle · depends on 1 · 1 dependent ["A"]
            C (StepId(2)): level — · depends on 1 · 0 dependents []
            Self (StepId(3)): in a cycle · depends on 1 · 1 dependent ["Self"]
            E (StepId(5)): level 0 · depends on 0 · 0 dependents []
        "#]]
        .assert_eq(&render(
            "step A runs P (x = B);\nstep B runs P after A ();\nstep C runs P (x = A);\nstep Self runs P (x = Self);\nstep runs P ();\nstep E runs P (x = Unknown);\n",
        ));
    }
}
