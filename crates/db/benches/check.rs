//! Analysis benchmarks on generated flows (`cargo bench -p easyflow-db`):
//! a cold check, and the re-check after a one-character edit with parsing
//! excluded (the edit and the re-parse happen in the untimed setup).

use divan::Bencher;
use easyflow_db::{Database, SourceFile, file_diagnostics, parse};
use salsa::Setter;

// As in the binaries that ship the analysis.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

#[divan::bench(args = [10_000, 100_000], sample_count = 10, sample_size = 1)]
fn cold_check(bencher: Bencher, steps: usize) {
    let text = easyflow_genflow::generate(steps, 7);
    bencher.bench_local(|| {
        let db = Database::default();
        let file = SourceFile::new(&db, "bench.flow".into(), text.clone());
        file_diagnostics(&db, file).len()
    });
}

/// Two versions of a 10k-step flow one character apart, inside a string
/// literal in the middle of the file.
fn edited_pair() -> (String, String) {
    let before = easyflow_genflow::generate(10_000, 7);
    let at = before.find("\"chunk 5000 ").expect("step 5000 has a label") + 1;
    let mut after = before.clone();
    after.replace_range(at..at + 1, "C");
    (before, after)
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn recheck_after_one_character_edit(bencher: Bencher) {
    let (before, after) = edited_pair();
    bencher
        .with_inputs(|| {
            let mut db = Database::default();
            let file = SourceFile::new(&db, "bench.flow".into(), before.clone());
            file_diagnostics(&db, file);
            file.set_text(&mut db).to(after.clone());
            parse(&db, file);
            (db, file)
        })
        .bench_local_refs(|(db, file)| file_diagnostics(db, *file).len());
}

/// The same edit where it changes a name: resolution and the graph re-run.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn recheck_after_renaming_a_reference(bencher: Bencher) {
    let before = easyflow_genflow::generate(10_000, 7);
    let at = before.find("= S4990.outs").expect("a reference to S4990") + 2;
    let mut after = before.clone();
    after.replace_range(at..at + 5, "S4991");
    bencher
        .with_inputs(|| {
            let mut db = Database::default();
            let file = SourceFile::new(&db, "bench.flow".into(), before.clone());
            file_diagnostics(&db, file);
            file.set_text(&mut db).to(after.clone());
            parse(&db, file);
            (db, file)
        })
        .bench_local_refs(|(db, file)| file_diagnostics(db, *file).len());
}
