//! The facts of one step that hover reads without building the whole
//! dependency graph ([`step_level`], [`step_edges_into`],
//! [`step_edges_from`]) are the graph's, on random flows: most with every
//! edge going forward (where the levels come from one pass in text order),
//! some with an edge back (to the same or an earlier step, where they come
//! from the graph), and after random edits of them.

use easyflow_db::graph::{DependencyGraph, step_edges_from, step_edges_into, step_level};
use easyflow_db::{Database, SourceFile, StepId, dependency_graph, file_diagnostics, item_index};
use proptest::prelude::*;
use salsa::Setter;

/// A step's text: `S{i}` (or a name repeated, `S0`), depending on the
/// steps `reads` by their numbers, through `after`/`on`, a data
/// reference, a stream, or a name nothing defines.
fn step_text(i: usize, repeated: bool, reads: &[(usize, u8)]) -> String {
    let name = if repeated {
        "S0".to_string()
    } else {
        format!("S{i}")
    };
    let mut after = Vec::new();
    let mut params = Vec::new();
    let mut stream = false;
    for (n, &(from, how)) in reads.iter().enumerate() {
        match how {
            0 => after.push(format!("S{from}")),
            1 => params.push(format!("x{n} = S{from}.outs[\"o\"]")),
            2 => params.push(format!("x{n} = [S{from}, 1]")),
            3 => {
                params.push(format!("x{n} <- S{from}"));
                stream = true;
            }
            _ => params.push(format!("x{n} = Nobody{from}")),
        }
    }
    let mut text = format!("{}step {name} runs P.Q", if stream { "~" } else { "" });
    if !after.is_empty() {
        text.push_str(&format!(" after {}", after.join(", ")));
    }
    text.push_str(&format!(" ({});\n", params.join(", ")));
    text
}

/// A flow of `sizes` steps; each reads up to three steps, earlier ones
/// unless `backward` (then any, itself included).
fn flow(
    sizes: std::ops::Range<usize>,
    backward: impl Strategy<Value = bool>,
) -> impl Strategy<Value = Vec<(bool, Vec<(usize, u8)>)>> {
    (sizes, backward).prop_flat_map(|(count, backward)| {
        let step = (
            prop::bool::weighted(0.05),
            prop::collection::vec((0usize..1000, 0u8..5), 0..4),
        );
        prop::collection::vec(step, count).prop_map(move |steps| {
            steps
                .into_iter()
                .enumerate()
                .map(|(i, (repeated, reads))| {
                    let reads = reads
                        .into_iter()
                        .filter_map(|(from, how)| match backward {
                            true => Some((from % count, how)),
                            false => (i > 0).then(|| (from % i, how)),
                        })
                        .collect();
                    (repeated && i > 0, reads)
                })
                .collect()
        })
    })
}

fn text(steps: &[(bool, Vec<(usize, u8)>)]) -> String {
    steps
        .iter()
        .enumerate()
        .map(|(i, (repeated, reads))| step_text(i, *repeated, reads))
        .collect()
}

fn agree(db: &Database, file: SourceFile) -> Result<(), TestCaseError> {
    file_diagnostics(db, file);
    let count = item_index(db, file).steps.len();
    let graph: &DependencyGraph = dependency_graph(db, file);
    for i in 0..count {
        let step = StepId(i as u32);
        prop_assert_eq!(step_level(db, file, step), graph.level(step), "{}", i);
        prop_assert_eq!(
            step_edges_into(db, file, step),
            graph.edges_into(step).to_vec(),
            "{}",
            i
        );
        let from: Vec<_> = graph
            .edges
            .iter()
            .filter(|e| e.from == step)
            .copied()
            .collect();
        prop_assert_eq!(step_edges_from(db, file, step), from, "{}", i);
    }
    Ok(())
}

/// A read added (forward or back), one removed, or a step gone: `how`
/// picks which (0..7).
fn edit(steps: &mut Vec<(bool, Vec<(usize, u8)>)>, at: usize, from: usize, how: u8) {
    let at = at % steps.len();
    match how {
        0 => {
            if steps.len() > 1 {
                steps.remove(at);
            }
        }
        1 => {
            steps[at].1.pop();
        }
        _ => {
            let from = from % steps.len();
            steps[at].1.push((from, how - 2));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn one_step_facts_are_the_graphs(
        mut steps in flow(1..40, any::<bool>()),
        edits in prop::collection::vec((0usize..1000, 0usize..1000, 0u8..7), 0..8),
    ) {
        let mut db = Database::default();
        let file = SourceFile::new(&db, "a.flow".into(), text(&steps).into());
        agree(&db, file)?;
        for (at, from, how) in edits {
            edit(&mut steps, at, from, how);
            file.set_text(&mut db).to(text(&steps).into());
            agree(&db, file)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Flows of several chunks, edited mostly in ways that keep every edge
    /// forward: the levels each run takes over from the last, chunk by
    /// chunk (`levels.rs`), are still the graph's.
    #[test]
    fn levels_kept_per_chunk_are_the_graphs_after_edits(
        mut steps in flow(100..300, prop::bool::weighted(0.1)),
        edits in prop::collection::vec((0usize..1000, 0usize..1000, 0u8..7), 1..12),
    ) {
        let mut db = Database::default();
        let file = SourceFile::new(&db, "a.flow".into(), text(&steps).into());
        agree(&db, file)?;
        for (at, from, how) in edits {
            // A read from a later step only now and then.
            let at = at % steps.len();
            let from = if how >= 2 && from % 8 != 0 { from % (at + 1) } else { from };
            edit(&mut steps, at, from, how);
            file.set_text(&mut db).to(text(&steps).into());
            agree(&db, file)?;
        }
    }
}
