//! Which map holds the closed flows' diagnostics (`workspace_diagnostics.rs`):
//! a `Mutex<HashMap>` or a `DashMap`. The background check writes a batch
//! of reports at a time while pull requests read: `workspace/diagnostic`
//! copies every report's `Arc`, `textDocument/diagnostic` looks one up.
//! With 10,000 reports, two reader threads and one writer (inserting
//! without pause, the worst case, and with a pause per batch as a real
//! check takes), prints the readers' latencies for each map.
//! `cargo bench -p easyflow-ls --bench closed_store`; asserts nothing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dashmap::DashMap;

const FLOWS: usize = 10_000;
const BATCH: usize = 32;

/// About the size of a closed flow's report.
struct Report {
    #[allow(dead_code)]
    uri: String,
    #[allow(dead_code)]
    diagnostics: Vec<String>,
}

trait Store: Send + Sync {
    fn insert(&self, path: PathBuf, report: Arc<Report>);
    fn get(&self, path: &Path) -> Option<Arc<Report>>;
    fn all(&self) -> Vec<Arc<Report>>;
}

impl Store for Mutex<HashMap<PathBuf, Arc<Report>>> {
    fn insert(&self, path: PathBuf, report: Arc<Report>) {
        self.lock().unwrap().insert(path, report);
    }
    fn get(&self, path: &Path) -> Option<Arc<Report>> {
        self.lock().unwrap().get(path).cloned()
    }
    fn all(&self) -> Vec<Arc<Report>> {
        self.lock().unwrap().values().cloned().collect()
    }
}

impl Store for DashMap<PathBuf, Arc<Report>> {
    fn insert(&self, path: PathBuf, report: Arc<Report>) {
        DashMap::insert(self, path, report);
    }
    fn get(&self, path: &Path) -> Option<Arc<Report>> {
        DashMap::get(self, path).map(|r| r.value().clone())
    }
    fn all(&self) -> Vec<Arc<Report>> {
        self.iter().map(|r| r.value().clone()).collect()
    }
}

fn path(i: usize) -> PathBuf {
    PathBuf::from(format!("/workspace/d{}/f{i}.flow", i / 100))
}

fn report_of(i: usize) -> Arc<Report> {
    Arc::new(Report {
        uri: format!("file:///workspace/d{}/f{i}.flow", i / 100),
        diagnostics: vec![format!("E0702 at {i}")],
    })
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() as f64 - 1.0) * p).round() as usize]
}

fn line(name: &str, samples: &mut [Duration]) {
    println!(
        "  {name:<40} n={:<7} p50 {:>9.1} µs  p99 {:>9.1} µs",
        samples.len(),
        percentile(samples, 0.5).as_secs_f64() * 1e6,
        percentile(samples, 0.99).as_secs_f64() * 1e6,
    );
}

/// Readers and a writer on `store` for `duration`; the writer pauses
/// `pause` after each batch.
fn run(name: &str, store: Arc<dyn Store>, pause: Duration, duration: Duration) {
    for i in 0..FLOWS {
        store.insert(path(i), report_of(i));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (store, stop) = (store.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut batches = 0usize;
            while !stop.load(Ordering::Relaxed) {
                let reports: Vec<_> = (0..BATCH)
                    .map(|k| (batches * BATCH + k) % FLOWS)
                    .map(|i| (path(i), report_of(i)))
                    .collect();
                for (path, report) in reports {
                    store.insert(path, report);
                }
                batches += 1;
                if !pause.is_zero() {
                    std::thread::sleep(pause);
                }
            }
            batches
        })
    };
    let workspace_reader = {
        let (store, stop) = (store.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut samples = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let started = Instant::now();
                std::hint::black_box(store.all());
                samples.push(started.elapsed());
            }
            samples
        })
    };
    let document_reader = {
        let (store, stop) = (store.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut samples = Vec::new();
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                let path = path(i % FLOWS);
                let started = Instant::now();
                std::hint::black_box(store.get(&path));
                samples.push(started.elapsed());
                i += 7919;
            }
            samples
        })
    };
    std::thread::sleep(duration);
    stop.store(true, Ordering::Relaxed);
    let batches = writer.join().unwrap();
    let mut all = workspace_reader.join().unwrap();
    let mut get = document_reader.join().unwrap();
    println!("{name} (writer: {batches} batches of {BATCH})");
    line("workspace/diagnostic (copy all)", &mut all);
    line("textDocument/diagnostic (get one)", &mut get);
}

fn main() {
    let duration = Duration::from_secs(3);
    for (pause, what) in [
        (Duration::ZERO, "writer without pause"),
        (Duration::from_millis(1), "writer pausing 1 ms per batch"),
    ] {
        println!("-- {what}");
        run(
            "Mutex<HashMap>",
            Arc::new(Mutex::new(HashMap::new())),
            pause,
            duration,
        );
        run("DashMap", Arc::new(DashMap::new()), pause, duration);
    }
}
