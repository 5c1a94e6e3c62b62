//! What a cold check keeps per step, counted by this binary's allocator:
//! the step analyses and the links are kept for every step of the file, so
//! their bytes and allocations per step are most of the check's memory
//! besides the tree (and a third of its time is the kernel zeroing fresh
//! pages); and the steps' values, which the exports keep besides. Exact
//! counts, not times; one test, so that nothing else allocates meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use easyflow_db::items::{ParamSummary, ReferenceSummary, StepSummary};
use easyflow_db::links::{Link, links};
use easyflow_db::workflow::chunk_values;
use easyflow_db::{
    Database, SourceFile, chunk_analysis, chunk_anchors, file_diagnostics, file_outline, query,
};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Relaxed);
        ALLOCATIONS.fetch_add(1, Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Relaxed);
        LIVE.fetch_add(new_size, Relaxed);
        ALLOCATIONS.fetch_add(1, Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The bytes `phase` leaves allocated and the allocations it makes, per
/// step of a flow of `steps`.
fn per_step(steps: usize, phase: impl FnOnce()) -> (usize, usize) {
    let (live, allocations) = (LIVE.load(Relaxed), ALLOCATIONS.load(Relaxed));
    phase();
    (
        LIVE.load(Relaxed).saturating_sub(live) / steps,
        (ALLOCATIONS.load(Relaxed) - allocations) / steps,
    )
}

#[test]
fn a_cold_check_keeps_few_bytes_and_allocations_per_step() {
    // What is kept once per step, parameter, reference and name read.
    assert_eq!(size_of::<StepSummary>(), 136);
    assert_eq!(size_of::<ParamSummary>(), 32);
    assert_eq!(size_of::<ReferenceSummary>(), 80);
    assert_eq!(size_of::<Link>(), 8);

    const STEPS: usize = 5_000;
    let text = easyflow_genflow::generate(STEPS, 7);
    // The log allocates a name per query run: a few per chunk.
    let (db, log) = Database::with_execution_log();
    let file = SourceFile::new(&db, "a.flow".into(), text.as_str().into());
    let outline = file_outline(&db, file);
    assert_eq!(outline.step_count(), STEPS);

    // Summaries and local diagnostics, no ranges: 470 bytes and 3
    // allocations per step (when they kept the ranges, in lists with room
    // to spare: 1,229 bytes and 21 allocations).
    let (bytes, allocations) = per_step(STEPS, || {
        for chunk in &outline.chunks {
            chunk_analysis(&db, chunk.node);
        }
    });
    assert!(bytes <= 500, "step analyses: {bytes} bytes per step");
    assert!(
        allocations <= 4,
        "step analyses: {allocations} allocations per step"
    );

    // The name tables and each chunk's links: 155 bytes per step, the
    // chunks that read each name not yet learnt (with a table of
    // definitions and one of readers, and 24-byte links in lists with room
    // to spare: 329).
    let (bytes, allocations) = per_step(STEPS, || {
        links(&db, file);
    });
    assert!(bytes <= 200, "links: {bytes} bytes per step");
    assert!(
        allocations <= 1,
        "links: {allocations} allocations per step"
    );

    // The rest of the check of a valid flow keeps next to nothing, and
    // computes no step's ranges.
    log.take();
    let (bytes, _) = per_step(STEPS, || {
        assert!(file_diagnostics(&db, file).is_empty());
    });
    assert!(bytes <= 8, "the rest of the check: {bytes} bytes per step");
    let executed = log.take();
    assert!(!executed.ran(query!(chunk_anchors)), "{executed:?}");

    // The steps' values, which the exports read besides the check: 935
    // bytes and 21 allocations per step, in lists of exactly their length
    // (grown item by item, with room for twice their items and for four
    // at least: 1,494 bytes and 24 allocations).
    let (bytes, allocations) = per_step(STEPS, || {
        for chunk in &outline.chunks {
            chunk_values(&db, chunk.node);
        }
    });
    assert!(bytes <= 1_000, "values: {bytes} bytes per step");
    assert!(
        allocations <= 22,
        "values: {allocations} allocations per step"
    );
}
