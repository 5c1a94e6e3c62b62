//! Edits applied through the host (`AnalysisHost::edit_flow`, which
//! reparses only the items around each edit and lets salsa re-analyse only
//! what changed) end in exactly the tree and the diagnostics of a fresh
//! analysis of the final text, after every edit of random sequences.

use std::path::Path;

use easyflow_ide::{AnalysisHost, TextRange};
use proptest::prelude::*;

/// What the sequences type, paste or delete: breakages, and whole items.
const EDITS: &[&str] = &[
    "",
    "x",
    "1",
    "\"",
    ";",
    "(",
    ")",
    "\n",
    "\n\n",
    "/*",
    "*/",
    ".outs",
    "step",
    "step N runs P (x = S3.outs);\n\n",
    "step S4 runs P (x = S2.outs);\n\n",
    "step M runs P\n(\n  in0 = S2.outs[\"a\"],\n  label = \"m\"\n) after S1;\n\n",
    "[priority = @high]\n",
    "post code ruby\n  x = 1\ncode end\n",
    "require extra;\n",
];

fn check_sequence(mut text: String, edits: Vec<(usize, usize, &str)>) -> Result<(), TestCaseError> {
    let mut host = AnalysisHost::new();
    let file = host.add_flow(Path::new("a.flow"), &text);
    let _ = host.analysis().diagnostics(file);
    for (at, removed, inserted) in edits {
        let range = easyflow_genflow::edit(&mut text, at, removed, inserted);
        let deleted = TextRange::new((range.start as u32).into(), (range.end as u32).into());
        host.edit_flow(file, &text, deleted, inserted);
        let mut fresh_host = AnalysisHost::new();
        let fresh_file = fresh_host.add_flow(Path::new("a.flow"), &text);
        let (edited, fresh) = (host.analysis(), fresh_host.analysis());
        prop_assert_eq!(edited.file_text(file).unwrap(), text.as_str());
        prop_assert_eq!(
            edited.syntax_tree(file).unwrap(),
            fresh.syntax_tree(fresh_file).unwrap(),
            "after {:?} replaced {:?}",
            inserted,
            range
        );
        prop_assert_eq!(
            edited.diagnostics(file).unwrap(),
            fresh.diagnostics(fresh_file).unwrap(),
            "after {:?} replaced {:?} in {:?}",
            inserted,
            range,
            text
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn edits_through_the_host_equal_a_fresh_analysis(
        edits in prop::collection::vec((0usize..5000, prop::sample::select(vec![0usize, 1, 3, 40, 300]), prop::sample::select(EDITS)), 1..10),
    ) {
        check_sequence(easyflow_genflow::generate(30, 5), edits)?;
    }

    #[test]
    fn edits_through_the_host_equal_a_fresh_analysis_in_broken_flows(
        breakages in prop::collection::vec((0usize..5000, 0usize..4, prop::sample::select(EDITS)), 1..4),
        edits in prop::collection::vec((0usize..5000, prop::sample::select(vec![0usize, 1, 3, 40, 300]), prop::sample::select(EDITS)), 1..10),
    ) {
        let mut text = easyflow_genflow::generate(30, 5);
        for (at, removed, inserted) in breakages {
            easyflow_genflow::edit(&mut text, at, removed, inserted);
        }
        check_sequence(text, edits)?;
    }
}
