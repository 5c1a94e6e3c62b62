//! Giving freed memory back to the system. mimalloc keeps the pages a
//! thread freed in that thread's heap, and empty pages for a while (one
//! second, ten for whole arenas) in case they are wanted again; through a
//! stream of edits and requests computed on the blocking pool's threads it
//! never stops wanting them, so what one burst needed stayed resident.

/// How often memory the allocator keeps unused goes back to the system.
const RETURN_MEMORY_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// Gives the pages this thread's heap holds empty back to the allocator's
/// arenas: after each computation on the blocking pool (cheap: a heap
/// holds a few hundred pages).
pub fn collect_thread() {
    // SAFETY: `mi_collect` only releases what mimalloc holds and no
    // allocation uses; it takes no pointers.
    unsafe { libmimalloc_sys::mi_collect(false) };
}

/// Returns the arenas' empty pages to the system every
/// [`RETURN_MEMORY_EVERY`] (cheap when there are none).
pub async fn return_freed_memory() {
    let mut interval = tokio::time::interval(RETURN_MEMORY_EVERY);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        // SAFETY: as in `collect_thread`.
        unsafe { libmimalloc_sys::mi_collect(true) };
    }
}
