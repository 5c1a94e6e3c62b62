//! Code lenses: above each step, "level N · depends on K · M dependents".

use easyflow_db::{Db, SourceFile, StepId, dependency_graph, file_outline};
use easyflow_diagnostics::TextRange;

/// One lens, on a step's name (the line it is shown above).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CodeLens {
    pub range: TextRange,
    pub title: String,
    pub step: StepId,
}

/// A lens for every named step, in text order. Counts are of distinct
/// steps (a step that depends on itself counts itself); the level is worded
/// by [`easyflow_db::graph::Level::label`] ("in a cycle" for a step on a
/// cycle, "level —" downstream of one).
pub fn code_lenses(db: &dyn Db, file: SourceFile) -> Vec<CodeLens> {
    let outline = file_outline(db, file);
    let graph = dependency_graph(db, file);
    let count = outline.step_count();
    let mut depends_on = vec![0u32; count];
    let mut dependents = vec![0u32; count];
    // Edges come grouped by dependent step: a pair (from, to) is new when
    // `from` was last seen with another `to`.
    let mut last_seen_with = vec![u32::MAX; count];
    for edge in &graph.edges {
        let (from, to) = (edge.from.index(), edge.to.index());
        if last_seen_with[from] != edge.to.0 {
            last_seen_with[from] = edge.to.0;
            depends_on[to] += 1;
            dependents[from] += 1;
        }
    }
    let mut lenses = Vec::with_capacity(count);
    for (id, step) in outline.steps(db) {
        let i = id.index();
        let Some(name) = step.analysis(db).anchors.name else {
            continue;
        };
        let title = format!(
            "{} · depends on {} · {} {}",
            graph.level(id).label(),
            depends_on[i],
            dependents[i],
            if dependents[i] == 1 {
                "dependent"
            } else {
                "dependents"
            }
        );
        lenses.push(CodeLens {
            range: name + step.offset,
            title,
            step: StepId(i as u32),
        });
    }
    lenses
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
                format!(
                    "{} ({:?}): {}\n",
                    &f.text[lens.range], lens.step, lens.title
                )
            })
            .collect()
    }

    #[test]
    fn levels_and_distinct_counts() {
        expect![[r#"
            Load (StepId(0)): level 0 · depends on 0 · 2 dependents
            Init (StepId(1)): level 0 · depends on 0 · 1 dependent
            Comp (StepId(2)): level 1 · depends on 2 · 1 dependent
            Sum (StepId(3)): level 2 · depends on 2 · 0 dependents
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
    fn cycles_and_unnamed_steps() {
        expect![[r#"
            A (StepId(0)): in a cycle · depends on 1 · 2 dependents
            B (StepId(1)): in a cycle · depends on 1 · 1 dependent
            C (StepId(2)): level — · depends on 1 · 0 dependents
            Self (StepId(3)): in a cycle · depends on 1 · 1 dependent
            E (StepId(5)): level 0 · depends on 0 · 0 dependents
        "#]]
        .assert_eq(&render(
            "step A runs P (x = B);\nstep B runs P after A ();\nstep C runs P (x = A);\nstep Self runs P (x = Self);\nstep runs P ();\nstep E runs P (x = Unknown);\n",
        ));
    }
}
