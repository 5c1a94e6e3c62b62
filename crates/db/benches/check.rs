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

/// From text to diagnostics on a fresh database, as the command line and the
/// server check a file ([`Database::check`]). Freeing the database is left
/// out of the timing (divan drops returned values after the sample): a check
/// is done when its diagnostics are.
#[divan::bench(args = [10_000, 100_000], sample_count = 20, sample_size = 1)]
fn cold_check(bencher: Bencher, steps: usize) {
    let text = easyflow_genflow::generate(steps, 7);
    // One untimed check first: what a process does once (starting the
    // thread pool, its allocator's first memory) is not part of a check.
    let warm = Database::default();
    warm.check(SourceFile::new(
        &warm,
        "warm.flow".into(),
        text.as_str().into(),
    ));
    drop(warm);
    bencher
        .with_inputs(|| text.clone())
        .bench_local_values(|text| {
            let db = Database::default();
            let file = SourceFile::new(&db, "bench.flow".into(), text.into());
            let count = db.check(file).len();
            (db, count)
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
    bench_recheck(bencher, &before, &after);
}

/// Times the diagnostics of `after` on a database that has checked
/// `before`; the edit and the re-parse happen in the untimed setup.
fn bench_recheck(bencher: Bencher, before: &str, after: &str) {
    bencher
        .with_inputs(|| {
            let mut db = Database::default();
            let file = SourceFile::new(&db, "bench.flow".into(), before.into());
            file_diagnostics(&db, file);
            file.set_text(&mut db).to(after.into());
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
    bench_recheck(bencher, &before, &after);
}

/// A topology of `count` worker types: the five of the generated flows'
/// topology, then distinct others.
fn topology_of(count: usize) -> String {
    let mut text = easyflow_genflow::TOPOLOGY.trim_end().to_string();
    for i in 5..count {
        text.push_str(&format!(
            " extra{i}+compute+pool{}:{},{}",
            i % 7,
            1 + i % 4,
            1 << (20 + i % 10)
        ));
    }
    text.push('\n');
    text
}

/// The fit check of a 10k-step flow (every third step `requires`) against a
/// topology of 100 worker types, after an edit of the topology: only the
/// topology's parse and the fit check run (the flow's analysis is reused).
#[divan::bench(sample_count = 20, sample_size = 1)]
fn fit_check_after_topology_edit(bencher: Bencher) {
    use easyflow_db::TopologyFile;
    let text = easyflow_genflow::generate_with_topology(10_000, 7);
    let topology = topology_of(100);
    bencher
        .with_inputs(|| {
            let mut db = Database::default();
            let topology_file = TopologyFile::new(&db, "cluster.topology".into(), topology.clone());
            let file = SourceFile::builder("bench.flow".into(), text.as_str().into())
                .topology(Some(topology_file))
                .new(&db);
            file_diagnostics(&db, file);
            topology_file
                .set_text(&mut db)
                .to(format!("// edited\n{topology}"));
            easyflow_db::parse_topology(&db, topology_file);
            (db, file)
        })
        .bench_local_refs(|(db, file)| easyflow_db::fit::fit_diagnostics(db, *file).len());
}
