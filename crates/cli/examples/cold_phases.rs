//! The memory of a cold `easyflow check`, phase by phase:
//! `cargo run --release -p easyflow-cli --example cold_phases -- FILE.flow [--check]`
//! (or `scripts/cold-check-memory.sh N`, which generates the flow). With
//! `--check`, it stops after the check's phases (for a heap profiler's
//! view of what the check keeps).
//!
//! Runs the phases of `check` one after the other on one database, as the
//! command does (parse, outline, the step analyses on every core, the item
//! index, names and graph, the file-wide rules, placing the diagnostics,
//! the human report into a sink; then the expanded workflow and each
//! export's writer into a sink, as `easyflow export` adds them), and
//! prints for each: its peak heap (bytes
//! allocated and not yet freed, at the worst moment of the phase), the heap
//! it leaves behind, its allocations, its peak resident set (Linux's VmHWM,
//! reset before each phase through `/proc/self/clear_refs`) and its wall
//! time. The lexer alone is measured first, as an anatomy of the parse.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use easyflow_cli::checked::CheckedFile;
use easyflow_cli::report;
use easyflow_db::{Database, SourceFile};

/// mimalloc, as in the binary, counting what is live; the system allocator
/// when built with `COLD_PHASES_SYSTEM_ALLOCATOR` set, for heap profilers
/// that intercept `malloc` (`valgrind --tool=dhat`, `--tool=massif`).
struct Counting;

const SYSTEM: bool = option_env!("COLD_PHASES_SYSTEM_ALLOCATOR").is_some();

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        if SYSTEM {
            unsafe { std::alloc::System.alloc(layout) }
        } else {
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        if SYSTEM {
            unsafe { std::alloc::System.alloc_zeroed(layout) }
        } else {
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        if SYSTEM {
            unsafe { std::alloc::System.dealloc(ptr, layout) }
        } else {
            unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Relaxed);
        grew(new_size);
        if SYSTEM {
            unsafe { std::alloc::System.realloc(ptr, layout, new_size) }
        } else {
            unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
        }
    }
}

fn grew(size: usize) {
    ALLOCATIONS.fetch_add(1, Relaxed);
    let live = LIVE.fetch_add(size, Relaxed) + size;
    PEAK.fetch_max(live, Relaxed);
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Peak resident set size in kB since the last reset.
fn peak_rss_kb() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

const MB: f64 = 1e6;

fn phase<T>(name: &str, f: impl FnOnce() -> T) -> T {
    let live_before = LIVE.load(Relaxed);
    PEAK.store(live_before, Relaxed);
    let allocations_before = ALLOCATIONS.load(Relaxed);
    reset_peak_rss();
    let started = Instant::now();
    let result = f();
    let elapsed = started.elapsed();
    let live = LIVE.load(Relaxed);
    println!(
        "{name:<28} {:>9.1} {:>+9.1} {:>9.1} {:>11} {:>9.1} {:>8.1}",
        PEAK.load(Relaxed) as f64 / MB,
        (live as f64 - live_before as f64) / MB,
        live as f64 / MB,
        ALLOCATIONS.load(Relaxed) - allocations_before,
        peak_rss_kb() as f64 * 1e3 / MB,
        elapsed.as_secs_f64() * 1e3,
    );
    result
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: cold_phases FILE.flow [--check]");
    let check_only = std::env::args().nth(2).as_deref() == Some("--check");
    // Start rayon's pool first: its threads' stacks are no phase's.
    rayon::broadcast(|_| ());
    println!(
        "{:<28} {:>9} {:>9} {:>9} {:>11} {:>9} {:>8}",
        "phase", "peak MB", "kept MB", "live MB", "allocations", "RSS MB", "ms"
    );
    let text = phase("read", || {
        easyflow_cli::input::read_source(path.as_ref(), easyflow_project::FileKind::Flow)
            .expect("readable")
    });
    let lexed = phase("  (anatomy) lex alone", || easyflow_syntax::lex(&text));
    phase("  (anatomy) drop the tokens", || drop(lexed));
    let db = Database::default();
    let text: std::sync::Arc<str> = phase("input (one copy, shared)", || text.into());
    let file = SourceFile::new(&db, path.clone().into(), text.clone().into());
    phase("parse (lex, parse, tree)", || {
        easyflow_db::parse(&db, file).errors().len()
    });
    phase("outline", || {
        easyflow_db::file_outline(&db, file).step_count()
    });
    phase("step analyses (all cores)", || {
        db.analyse_steps_on_every_core(file)
    });
    phase("item index", || {
        easyflow_db::item_index(&db, file).steps.len()
    });
    phase("names", || {
        easyflow_db::name_resolution(&db, file);
    });
    phase("dependency graph", || {
        easyflow_db::dependency_graph(&db, file);
    });
    phase("file-wide rules", || {
        easyflow_db::diagnostics::semantic_diagnostics(&db, file).len()
    });
    let diagnostics = phase("placed diagnostics", || {
        easyflow_db::file_diagnostics(&db, file).to_vec()
    });
    phase("human report (to a sink)", || {
        let files = [CheckedFile {
            path: path.clone().into(),
            text: text.clone(),
            diagnostics,
        }];
        let mut sink = codespan_reporting::term::termcolor::NoColor::new(std::io::sink());
        report::human(&files, &mut sink).expect("a sink takes anything");
    });
    println!(
        "file {:.1} MB; heap at the end {:.1} MB ({:.1}x the file)",
        text.len() as f64 / MB,
        LIVE.load(Relaxed) as f64 / MB,
        LIVE.load(Relaxed) as f64 / text.len() as f64,
    );
    if check_only {
        std::mem::forget(db);
        return;
    }
    // Then what `easyflow export` adds to the check: the expanded
    // workflow (the steps' values read on every core first), and each
    // format's writer into a sink (the formats the flow can be exported
    // in: CWL needs a catalog).
    phase("values (all cores)", || db.read_values_on_every_core(file));
    let workflow = phase("expanded workflow", || {
        easyflow_db::expanded_workflow(&db, file)
    });
    for format in easyflow_ide::export::FORMATS {
        if format.refusals(workflow).is_empty() {
            phase(&format!("export {} (to a sink)", format.name), || {
                format
                    .write_to(workflow, &mut std::io::sink())
                    .expect("a sink takes anything")
            });
        }
    }
    // As the command does: nothing is freed at exit.
    std::mem::forget(db);
}
