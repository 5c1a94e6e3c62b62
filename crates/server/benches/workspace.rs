//! The whole workspace at scale (issue 28): a workspace of
//! `EASYFLOW_BENCH_FLOWS` (10,000) generated flows of 100 steps, opened by
//! a client that pulls diagnostics (`cargo bench -p easyflow-ls --bench
//! workspace`). Prints the time from `initialized` to the last closed
//! flow's diagnostics (the server's `workspace/diagnostic/refresh`), the
//! server's peak and settled RSS, and the latency of a keystroke in an open
//! flow of 10,000 steps (`didChange` → its `textDocument/diagnostic`
//! answered) while the background check runs and after it. Asserts
//! nothing.

#[path = "../tests/support/mod.rs"]
mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use support::{Server, memory, percentile, pull_client, uri, write_large_workspace};

fn report(name: &str, samples: &mut [Duration]) {
    if samples.is_empty() {
        println!("{name:<52} no samples");
        return;
    }
    println!(
        "{name:<52} n={:<4} p50 {:>8.2} ms   p99 {:>8.2} ms   max {:>8.2} ms",
        samples.len(),
        percentile(samples, 0.5).as_secs_f64() * 1e3,
        percentile(samples, 0.99).as_secs_f64() * 1e3,
        percentile(samples, 1.0).as_secs_f64() * 1e3,
    );
}

fn refreshed(server: &Server) -> bool {
    server
        .notifications
        .iter()
        .any(|m| m["method"] == "workspace/diagnostic/refresh")
}

/// Waits for the refresh that says every closed flow is checked.
fn wait_refresh(server: &mut Server) {
    server
        .try_wait_for(
            |m| m["method"] == "workspace/diagnostic/refresh",
            Duration::from_secs(3600),
        )
        .expect("every closed flow checked");
}

/// A keystroke in the open flow, answered: the change, then the document
/// pull a client sends after it. Odd versions type an `x` on the first
/// line, even ones delete it.
fn keystroke(server: &mut Server, uri: &str, version: i64) -> Duration {
    let (end, text) = if version % 2 == 1 { (2, "x") } else { (3, "") };
    let range = json!({"start": {"line": 0, "character": 2}, "end": {"line": 0, "character": end}});
    let started = Instant::now();
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": range, "text": text}]}),
    );
    let result = server.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(result["kind"], "full");
    started.elapsed()
}

/// A server for a client that pulls, on the workspace at `root`, up to
/// `initialized` (not sent).
fn initialize(root: &Path) -> Server {
    let mut server = Server::start();
    server.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(root),
            "workspaceFolders": [{"uri": uri(root), "name": "root"}],
            "capabilities": pull_client()}),
    );
    server
}

fn main() {
    let flows: usize = std::env::var("EASYFLOW_BENCH_FLOWS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let started = Instant::now();
    write_large_workspace(root, flows, 100);
    let open_flow = root.join("open.flow");
    let open_text = easyflow_genflow::generate(10_000, 7);
    std::fs::write(&open_flow, &open_text).unwrap();
    println!(
        "{flows} flows of 100 steps written in {:.1?}",
        started.elapsed()
    );

    // 1. The background check alone.
    let mut server = initialize(root);
    let initialized = Instant::now();
    server.notify("initialized", json!({}));
    wait_refresh(&mut server);
    let checked = initialized.elapsed();
    let (_, peak) = memory(server.pid());
    let result = server.request("workspace/diagnostic", json!({"previousResultIds": []}));
    let reported = result["items"].as_array().map_or(0, Vec::len);
    std::thread::sleep(Duration::from_secs(5));
    let (settled, _) = memory(server.pid());
    println!(
        "initialized → last closed flow's diagnostics: {:.2} s ({reported} flows reported)",
        checked.as_secs_f64()
    );
    println!("server RSS: peak {peak} MiB, settled {settled} MiB");
    server.stop();

    // 2. Typing in an open flow of 10,000 steps while the check runs,
    // then after it.
    let mut server = initialize(root);
    server.notify("initialized", json!({}));
    let uri = server.open(&open_flow, &open_text);
    server.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    let mut during = Vec::new();
    let mut version = 1;
    while !refreshed(&server) {
        during.push(keystroke(&mut server, &uri, version));
        version += 1;
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut after = Vec::new();
    for _ in 0..100 {
        after.push(keystroke(&mut server, &uri, version));
        version += 1;
    }
    report("keystroke (10k-step flow) during the check", &mut during);
    report("keystroke (10k-step flow) after the check", &mut after);
    server.stop();
}
