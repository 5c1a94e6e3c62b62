//! The catalog checks' incrementality (salsa's execution events): editing
//! one step's parameter re-checks that step's chunk only; editing the catalog
//! re-runs its parse and the catalog checks, nothing of the flow's own
//! analysis; and incremental results equal a fresh check after random edits
//! of the flow and of the catalog.

use easyflow_db::catalog::{chunk_catalog_diagnostics, output_diagnostics};
use easyflow_db::diagnostics::semantic_diagnostics;
use easyflow_db::resolve::{chunk_resolution, names};
use easyflow_db::{
    CatalogFile, Code, Database, Diagnostic, SourceFile, chunk_analysis, dependency_graph,
    file_diagnostics, file_outline, item_index, name_resolution, parse, parse_catalog, query,
};
use proptest::prelude::*;
use salsa::Setter;

fn fresh_check(text: &str, catalog: &[u8]) -> Vec<Diagnostic> {
    let db = Database::default();
    let catalog = CatalogFile::new(&db, "p.toml".into(), catalog.to_vec());
    let file = SourceFile::builder("fresh.flow".into(), text.into())
        .catalog(Some(catalog))
        .new(&db);
    file_diagnostics(&db, file).clone()
}

#[test]
fn the_generated_flows_are_clean_under_the_generated_catalog() {
    let text = easyflow_genflow::generate(300, 4);
    let catalog = easyflow_genflow::catalog(50);
    assert_eq!(fresh_check(&text, catalog.as_bytes()), []);
}

#[test]
fn editing_one_parameter_rechecks_only_its_chunk() {
    let (mut db, log) = Database::with_execution_log();
    // Enough steps for several chunks (about 64 steps each).
    let before = easyflow_genflow::generate(600, 3);
    let catalog_text = easyflow_genflow::catalog(20);
    let catalog = CatalogFile::new(&db, "p.toml".into(), catalog_text.clone().into_bytes());
    let file = SourceFile::builder("a.flow".into(), before.as_str().into())
        .catalog(Some(catalog))
        .new(&db);
    assert_eq!(file_diagnostics(&db, file), &[]);
    let executed = log.take();
    let chunks = easyflow_db::file_outline(&db, file).chunks.len();
    assert!(chunks > 2, "{chunks} chunks");
    assert_eq!(executed.count(query!(chunk_catalog_diagnostics)), chunks);

    // A value out of range in one step: only that step's chunk is analysed
    // and checked again.
    let at = before.find("step S30 ").unwrap();
    let threshold = at + before[at..].find("threshold = ").unwrap() + "threshold = ".len();
    let mut after = before.clone();
    after.replace_range(threshold..threshold + 6, "1.5000");
    file.set_text(&mut db).to(after.as_str().into());
    let diagnostics = file_diagnostics(&db, file).clone();
    let executed = log.take();
    // One chunk, or two when the edited step ended a chunk and no longer
    // does (or the reverse): chunks end after a step whose hash says so.
    assert!(
        (1..=2).contains(&executed.count(query!(chunk_analysis))),
        "{executed:?}"
    );
    assert_eq!(
        executed.count(query!(chunk_catalog_diagnostics)),
        executed.count(query!(chunk_analysis)),
        "{executed:?}"
    );
    // `name_resolution` re-runs (it reads the outline's chunks) but only
    // the edited chunks are resolved again, and it is backdated: nothing
    // after it re-runs.
    assert!(
        executed.count(query!(chunk_resolution)) <= 2,
        "{executed:?}"
    );
    executed.assert_not_executed(&[
        query!(parse_catalog),
        query!(names),
        query!(dependency_graph),
        query!(semantic_diagnostics),
        query!(output_diagnostics),
    ]);
    let codes: Vec<Code> = diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::E0805]);
    assert_eq!(&after[diagnostics[0].range], "1.5000");
    assert_eq!(diagnostics, fresh_check(&after, catalog_text.as_bytes()));
}

#[test]
fn editing_the_catalog_reruns_only_its_parse_and_the_catalog_checks() {
    let (mut db, log) = Database::with_execution_log();
    let text = easyflow_genflow::generate(60, 3);
    let catalog_text = easyflow_genflow::catalog(20);
    let catalog = CatalogFile::new(&db, "p.toml".into(), catalog_text.clone().into_bytes());
    let file = SourceFile::builder("a.flow".into(), text.as_str().into())
        .catalog(Some(catalog))
        .new(&db);
    assert_eq!(file_diagnostics(&db, file), &[]);
    log.take();

    // `label` (required) is now `title` in `ORCA.DFT`.
    let edited = catalog_text.replacen("name = \"label\"", "name = \"title\"", 1);
    catalog.set_bytes(&mut db).to(edited.clone().into_bytes());
    let diagnostics = file_diagnostics(&db, file).clone();
    let executed = log.take();
    executed.assert_not_executed(&[
        query!(parse),
        query!(file_outline),
        query!(chunk_analysis),
        query!(item_index),
        query!(name_resolution),
        query!(dependency_graph),
        query!(semantic_diagnostics),
    ]);
    executed.assert_executed(&[
        query!(parse_catalog),
        query!(chunk_catalog_diagnostics),
        query!(file_diagnostics),
    ]);
    assert!(!diagnostics.is_empty());
    assert!(
        diagnostics
            .iter()
            .all(|d| d.code == Code::E0802 || d.code == Code::E0803),
        "{diagnostics:?}"
    );
    assert_eq!(diagnostics, fresh_check(&text, edited.as_bytes()));

    // A comment in the catalog changes no package: the checks stop at its parse.
    catalog
        .set_bytes(&mut db)
        .to(format!("# a comment\n{edited}").into_bytes());
    file_diagnostics(&db, file);
    let executed = log.take();
    assert!(executed.count(query!(parse_catalog)) == 1, "{executed:?}");
}

/// Edits of the flow (values, names, punctuation) or of the catalog (types,
/// ranges, names, broken TOML).
#[derive(Debug, Clone)]
enum Edit {
    Flow(usize, usize, String),
    Catalog(usize, usize, String),
}

fn edit() -> impl Strategy<Value = Edit> {
    let flow = prop_oneof![
        Just(String::new()),
        Just("threshold = 7".to_string()),
        Just("label = 3".to_string()),
        Just(" = \"x\"".to_string()),
        Just("metod = 1".to_string()),
        Just(";\nstep S1 runs ORCA.DTF (a = S2);\n".to_string()),
        Just("(".to_string()),
        "[a-zA-Z0-9_ ,.=\\[\\]();\"]{0,6}",
    ];
    let catalog = prop_oneof![
        Just(String::new()),
        Just("\"Int\"".to_string()),
        Just("required = true\n".to_string()),
        Just("max = 0.1\n".to_string()),
        Just("[[package]]\nname = \"ORCA.DFT\"\n".to_string()),
        Just("[".to_string()),
        "[a-zA-Z0-9_ .=\"\\n]{0,6}",
    ];
    prop_oneof![
        (0usize..10_000, 0usize..12, flow).prop_map(|(a, r, s)| Edit::Flow(a, r, s)),
        (0usize..10_000, 0usize..12, catalog).prop_map(|(a, r, s)| Edit::Catalog(a, r, s)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn incremental_equals_fresh(edits in proptest::collection::vec(edit(), 1..6)) {
        let mut text = easyflow_genflow::generate(12, 5);
        let mut catalog_text = easyflow_genflow::catalog(6);
        let mut db = Database::default();
        let catalog = CatalogFile::new(&db, "p.toml".into(), catalog_text.clone().into_bytes());
        let file = SourceFile::builder("a.flow".into(), text.as_str().into())
            .catalog(Some(catalog))
            .new(&db);
        file_diagnostics(&db, file);
        for edit in edits {
            match edit {
                Edit::Flow(at, removed, inserted) => {
                    easyflow_genflow::edit(&mut text, at, removed, &inserted);
                    file.set_text(&mut db).to(text.as_str().into());
                }
                Edit::Catalog(at, removed, inserted) => {
                    easyflow_genflow::edit(&mut catalog_text, at, removed, &inserted);
                    catalog.set_bytes(&mut db).to(catalog_text.clone().into_bytes());
                }
            }
            prop_assert_eq!(
                file_diagnostics(&db, file),
                &fresh_check(&text, catalog_text.as_bytes())
            );
        }
    }
}
