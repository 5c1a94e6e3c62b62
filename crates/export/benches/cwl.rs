//! The CWL export's cost (`cargo bench -p easyflow-export --bench cwl`) on
//! a 10k-step generated flow without code blocks under the generated
//! runnable catalog (`easyflow_genflow::generate_runnable`,
//! `runnable_catalog`): from text to document as `easyflow export --to cwl`
//! goes (check, expansion, refusals, writing), and the writer alone on an
//! expanded workflow. `bench/export-cwl.sh` measures the binary on the
//! reference workload.

use divan::Bencher;
use easyflow_db::{CatalogFile, Database, Severity, SourceFile, expanded_workflow};
use easyflow_export::CWL;

// As in the binaries that ship the export.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

const STEPS: usize = 10_000;

/// A fresh database holding the flow and its catalog.
fn project(db: &Database, text: &str, catalog: &str) -> SourceFile {
    let catalog = CatalogFile::new(db, "easyflow-packages.toml".into(), catalog.into());
    SourceFile::builder("bench.flow".into(), text.into())
        .catalog(Some(catalog))
        .new(db)
}

/// From text to document on a fresh database (freeing it untimed).
#[divan::bench(sample_count = 10, sample_size = 1)]
fn cold_export(bencher: Bencher) {
    let text = easyflow_genflow::generate_runnable(STEPS, 7);
    let catalog = easyflow_genflow::runnable_catalog();
    bencher
        .with_inputs(|| (text.clone(), catalog.clone()))
        .bench_local_values(|(text, catalog)| {
            let db = Database::default();
            let file = project(&db, &text, &catalog);
            let errors = db
                .check(file)
                .iter()
                .filter(|d| d.severity() == Severity::Error)
                .count();
            assert_eq!(errors, 0);
            let workflow = expanded_workflow(&db, file);
            assert!(CWL.refusals(workflow).is_empty());
            let document = CWL.write(workflow);
            (db, document)
        });
}

/// The writer alone, on the expanded workflow.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn write_only(bencher: Bencher) {
    let text = easyflow_genflow::generate_runnable(STEPS, 7);
    let catalog = easyflow_genflow::runnable_catalog();
    let db = Database::default();
    let file = project(&db, &text, &catalog);
    let workflow = expanded_workflow(&db, file);
    assert!(CWL.refusals(workflow).is_empty());
    bencher.bench_local(|| CWL.write(workflow));
}
