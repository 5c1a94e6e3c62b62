//! Work nobody is waiting for (indexing the workspace's flows) runs on
//! threads of its own at the lowest CPU priority: it takes only what the
//! open documents' analysis leaves idle. Indexing parses every flow of the
//! workspace, a large one on every core; on the shared pool it would slow
//! down the first diagnostics of a document opened meanwhile severalfold.

use std::sync::OnceLock;

/// Runs `work` (and the parallel iterators inside it) on the background
/// threads, and returns its result.
pub fn run<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    match pool() {
        Some(pool) => {
            let result = pool.install(work);
            // Each background thread's heap keeps what indexing freed
            // (`memory.rs`): give it back once the work is done.
            pool.broadcast(|_| crate::memory::collect_thread());
            result
        }
        None => work(),
    }
}

/// The background threads, as many as the cores; `None` if they cannot be
/// started (the work then runs on the caller's thread).
fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("easyflow-background-{i}"))
            .start_handler(|_| lower_priority())
            .build()
            .inspect_err(|error| tracing::warn!("no background threads: {error}"))
            .ok()
    })
    .as_ref()
}

/// Gives the calling thread the lowest CPU priority (on Linux the nice value
/// is per thread).
#[cfg(target_os = "linux")]
fn lower_priority() {
    // SAFETY: setpriority has no memory effects; `0` names the calling thread.
    let result = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 19) };
    if result != 0 {
        tracing::debug!(
            "background thread keeps its priority: {}",
            std::io::Error::last_os_error()
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

#[cfg(test)]
mod tests {
    use rayon::prelude::*;

    #[test]
    fn runs_parallel_work_and_returns_its_result() {
        let sum: u64 = super::run(|| (1..=1000u64).into_par_iter().sum());
        assert_eq!(sum, 500_500);
        assert!(
            super::run(rayon::current_thread_index).is_some(),
            "the work runs on the background threads"
        );
    }
}
