//! Work nobody is waiting for (indexing the workspace's flows, checking
//! the closed ones) runs on threads of its own at the lowest CPU priority:
//! it takes only what the open documents' analysis leaves idle. Indexing
//! parses every flow of the workspace, a large one on every core; on the
//! shared pool it would slow down the first diagnostics of a document
//! opened meanwhile severalfold.
//!
//! A low priority is not enough on a busy machine: Linux shares the CPU
//! between sessions first (autogroups) and only then between the threads
//! of one by their priority, so background threads that never stop spend
//! the server's whole share, and a keystroke's computation waits for the
//! session's next turn (tens of milliseconds behind other programs). The
//! background work therefore also pauses between its units while the
//! client is busy with the server ([`yield_to_foreground`]), and a unit
//! under way when a message comes is cancelled, to be run again after the
//! pause ([`preemptible`]).

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use easyflow_ide::{CancellationToken, Cancelled};

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

/// How long background work stays paused after the client's last message
/// or the end of the last foreground computation: the requests that follow
/// an edit come in a burst, each answered by a computation of its own.
const QUIET: Duration = Duration::from_millis(20);

/// The longest a background thread pauses at once: a client that never
/// stops sending slows the background work down but does not stop it.
const MAX_PAUSE: Duration = Duration::from_millis(200);

/// How many times a unit of background work is cancelled by the
/// foreground before it runs to its end regardless: a client that never
/// stops sending must not keep a large unit from ever finishing.
const MAX_PREEMPTIONS: usize = 4;

/// Foreground computations under way.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// When the last message came or foreground computation ended, in
/// nanoseconds after [`epoch`] plus one (0: never).
static LAST_ACTIVE: AtomicU64 = AtomicU64::new(0);

/// The background units under way, each with the token that cancels it.
/// The foreground only ever tries this lock: it never waits for a
/// background thread, which may not get a core for a while.
static UNITS: Mutex<Vec<(u64, CancellationToken)>> = Mutex::new(Vec::new());
static NEXT_UNIT: AtomicU64 = AtomicU64::new(0);

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn last_active() -> Option<Instant> {
    match LAST_ACTIVE.load(Ordering::Acquire) {
        0 => None,
        nanos => Some(epoch() + Duration::from_nanos(nanos - 1)),
    }
}

/// The foreground is busy now: background work pauses, and the units
/// under way are cancelled (one registering just now may be missed: it
/// then runs to its end).
fn foreground_active() {
    let nanos = u64::try_from(epoch().elapsed().as_nanos()).unwrap_or(u64::MAX - 1);
    LAST_ACTIVE.store(nanos + 1, Ordering::Release);
    if let Ok(mut units) = UNITS.try_lock() {
        for (_, token) in units.drain(..) {
            token.cancel();
        }
    }
}

/// A message from the client arrived: background work pauses for a while.
pub fn client_spoke() {
    foreground_active();
}

/// A foreground computation (a request's, an open document's diagnostics)
/// under way: background work pauses until it ends, and a while after.
pub struct Foreground(());

impl Foreground {
    pub fn start() -> Foreground {
        RUNNING.fetch_add(1, Ordering::AcqRel);
        foreground_active();
        Foreground(())
    }
}

impl Drop for Foreground {
    fn drop(&mut self) {
        foreground_active();
        RUNNING.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Called by background work between two of its units (a flow indexed, a
/// closed flow checked): waits while the foreground is busy or was busy
/// less than [`QUIET`] ago, for at most [`MAX_PAUSE`]. Returns whether it
/// stopped waiting for that limit (the foreground never went quiet).
pub fn yield_to_foreground() -> bool {
    let started = Instant::now();
    loop {
        let now = Instant::now();
        let quiet_at = if RUNNING.load(Ordering::Acquire) > 0 {
            now + QUIET
        } else {
            match last_active() {
                Some(last) => last + QUIET,
                None => return false,
            }
        };
        if quiet_at <= now {
            return false;
        }
        let give_up_at = started + MAX_PAUSE;
        if give_up_at <= now {
            return true;
        }
        std::thread::sleep(quiet_at.min(give_up_at) - now);
    }
}

fn units() -> MutexGuard<'static, Vec<(u64, CancellationToken)>> {
    UNITS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `unit`, a unit of background work on a database handle of its own
/// that `token` cancels, after [`yield_to_foreground`]. The foreground
/// cancels it when it becomes busy (its queries unwind): it is then run
/// again after the pause, on the same handle, which keeps the queries that
/// finished. Each unit's result is whole: a cancelled run gives none. A
/// unit that waited [`MAX_PAUSE`] out, or was cancelled
/// [`MAX_PREEMPTIONS`] times, runs to its end: under a client that never
/// pauses, the background work goes slowly but goes.
pub fn preemptible<T>(token: &CancellationToken, mut unit: impl FnMut() -> T) -> T {
    let mut preempted = 0;
    loop {
        let forced = yield_to_foreground() || preempted >= MAX_PREEMPTIONS;
        let id = (!forced).then(|| {
            let id = NEXT_UNIT.fetch_add(1, Ordering::Relaxed);
            units().push((id, token.clone()));
            id
        });
        // Unwind safety: a cancelled unit leaves only finished queries in
        // its database, which the next run reuses. A forced run is caught
        // too: a cancellation that came just after the handle's previous
        // unit ended is seen (once) by its first query.
        let outcome = Cancelled::catch(AssertUnwindSafe(&mut unit));
        if let Some(id) = id {
            units().retain(|(unit, _)| *unit != id);
        }
        match outcome {
            Ok(result) => return result,
            Err(_) => preempted += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use easyflow_ide::{Database, SourceFile, SourceText};
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

    /// The tests below share the foreground's activity and the units under
    /// way (statics): run in parallel, one's messages would pause or force
    /// another's units.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
        ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A flow to check on a database of its own.
    fn flow(db: &Database) -> SourceFile {
        let text = SourceText::from("step A runs P ();\nstep A runs P ();\n".to_string());
        SourceFile::builder(PathBuf::from("/w/a.flow"), text)
            .topology(None)
            .catalog(None)
            .levels(Default::default())
            .new(db)
    }

    /// The flow's diagnostics from a check nothing cancels, on a database
    /// of its own.
    fn uncancelled_check() -> Vec<easyflow_ide::Diagnostic> {
        let db = Database::default();
        db.check(flow(&db)).to_vec()
    }

    /// A unit cancelled in its middle is run again: its result is that of
    /// a whole run. (Its token is cancelled directly: whether a message
    /// reaches it depends on what the other tests of this binary do with
    /// the foreground meanwhile; `a_unit_always_cancelled_…` sends them.)
    #[test]
    fn a_unit_cancelled_in_its_middle_is_run_again_whole() {
        let _serial = one_at_a_time();
        let db = Database::default();
        let file = flow(&db);
        let whole = uncancelled_check();
        let mut runs = 0;
        let token = db.cancellation_token();
        let found = super::preemptible(&db.cancellation_token(), || {
            runs += 1;
            if runs == 1 {
                token.cancel();
            }
            db.check(file).to_vec()
        });
        assert!(runs >= 2, "the first run was cancelled");
        assert_eq!(found, whole);
        assert!(!found.is_empty());
    }

    /// A cancellation that came after the handle's last unit ended cancels
    /// the next one's first run only: it is run again, whole.
    #[test]
    fn a_late_cancellation_costs_one_run() {
        let _serial = one_at_a_time();
        let db = Database::default();
        let file = flow(&db);
        let whole = uncancelled_check();
        db.cancellation_token().cancel();
        let mut runs = 0;
        let found = super::preemptible(&db.cancellation_token(), || {
            runs += 1;
            db.check(file).to_vec()
        });
        assert!(runs >= 2, "the first run was cancelled");
        assert_eq!(found, whole);
    }

    /// A unit cancelled again and again runs to its end at last.
    #[test]
    fn a_unit_always_cancelled_ends_all_the_same() {
        let _serial = one_at_a_time();
        let db = Database::default();
        let file = flow(&db);
        let mut runs = 0;
        let found = super::preemptible(&db.cancellation_token(), || {
            runs += 1;
            super::client_spoke();
            db.check(file).len()
        });
        assert!(
            runs > 1 && runs <= super::MAX_PREEMPTIONS + 1,
            "{runs} runs"
        );
        assert!(found > 0);
    }
}
