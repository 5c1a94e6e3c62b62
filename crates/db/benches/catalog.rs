//! The package catalog's cost (`cargo bench -p easyflow-db --bench catalog`),
//! on a 10k-step generated flow and a 500-package catalog: the re-check
//! after editing one parameter's value (the edit and the re-parse untimed),
//! and after editing the catalog (its parse timed: it is part of the
//! re-check), and a cold check with the catalog.

use divan::Bencher;
use easyflow_db::{CatalogFile, Database, SourceFile, file_diagnostics, parse};
use salsa::Setter;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

const STEPS: usize = 10_000;
const PACKAGES: usize = 500;

fn project() -> (String, String) {
    (
        easyflow_genflow::generate(STEPS, 7),
        easyflow_genflow::catalog(PACKAGES),
    )
}

/// A database that has checked `text` against `catalog`.
fn checked(text: &str, catalog: &str) -> (Database, SourceFile, CatalogFile) {
    let db = Database::default();
    let catalog = CatalogFile::new(&db, "easyflow-packages.toml".into(), catalog.into());
    let file = SourceFile::builder("bench.flow".into(), text.into())
        .catalog(Some(catalog))
        .new(&db);
    db.check(file);
    (db, file, catalog)
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn cold_check_with_catalog(bencher: Bencher) {
    let (text, catalog) = project();
    bencher
        .with_inputs(|| (text.clone(), catalog.clone()))
        .bench_local_values(|(text, catalog)| {
            let db = Database::default();
            let catalog = CatalogFile::new(&db, "p.toml".into(), catalog.into_bytes());
            let file = SourceFile::builder("bench.flow".into(), text.into())
                .catalog(Some(catalog))
                .new(&db);
            let count = db.check(file).len();
            (db, count)
        });
}

/// `threshold` of step 5000 gets another value (still in range).
#[divan::bench(sample_count = 20, sample_size = 1)]
fn recheck_after_editing_one_parameter(bencher: Bencher) {
    let (text, catalog) = project();
    let step = text.find("step S5000 ").expect("step 5000");
    let at = step + text[step..].find("threshold = ").unwrap() + "threshold = ".len();
    let mut edited = text.clone();
    edited.replace_range(at..at + 6, "0.4242");
    bencher
        .with_inputs(|| {
            let (mut db, file, _) = checked(&text, &catalog);
            file.set_text(&mut db).to(edited.as_str().into());
            parse(&db, file);
            (db, file)
        })
        .bench_local_refs(|(db, file)| file_diagnostics(db, *file).len());
}

/// `threshold`'s `max` of every generated package goes from 1 to 0.5: the
/// catalog is parsed again and every step re-checked against it.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn recheck_after_editing_the_catalog(bencher: Bencher) {
    let (text, catalog) = project();
    let edited = catalog.replace("  max = 1\n", "  max = 0.5\n");
    assert_ne!(edited, catalog);
    bencher
        .with_inputs(|| {
            let (mut db, file, catalog_file) = checked(&text, &catalog);
            catalog_file
                .set_bytes(&mut db)
                .to(edited.clone().into_bytes());
            (db, file)
        })
        .bench_local_refs(|(db, file)| file_diagnostics(db, *file).len());
}
