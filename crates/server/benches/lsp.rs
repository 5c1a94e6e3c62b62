//! Latency of the real `easyflow-ls` binary over stdio on a generated
//! 10k-step document (`cargo bench -p easyflow-ls`): `initialize` reply
//! time, keystroke (`didChange` of one character) → `publishDiagnostics`,
//! and hover, completion and definition. Prints p50/p99; asserts nothing.

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::Server;

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    let index = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[index]
}

fn report(name: &str, samples: &mut [Duration]) {
    println!(
        "{name:<40} n={:<4} p50 {:>8.2} ms   p99 {:>8.2} ms   max {:>8.2} ms",
        samples.len(),
        percentile(samples, 0.5).as_secs_f64() * 1e3,
        percentile(samples, 0.99).as_secs_f64() * 1e3,
        percentile(samples, 1.0).as_secs_f64() * 1e3,
    );
}

/// Types and deletes a character at byte `at` of `text` 200 times (versions
/// from `first_version`), timing each change until its diagnostics arrive.
fn keystrokes(
    server: &mut Server,
    uri: &str,
    text: &str,
    at: usize,
    first_version: i64,
) -> Vec<Duration> {
    let line = text[..at].matches('\n').count() as u32;
    let character = (at - text[..at].rfind('\n').map_or(0, |i| i + 1)) as u32;
    let start = json!({"line": line, "character": character});
    let mut samples = Vec::new();
    for version in first_version..first_version + 200 {
        let typed = (version - first_version) % 2 == 0;
        let (end, insert) = if typed {
            (start.clone(), " ")
        } else {
            (json!({"line": line, "character": character + 1}), "")
        };
        let started = Instant::now();
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": {"start": start, "end": end}, "text": insert}]}),
        );
        server.diagnostics(uri, version);
        samples.push(started.elapsed());
    }
    samples
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters nothing here.
    let dir = std::env::temp_dir().join(format!("easyflow-ls-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = easyflow_genflow::generate(10_000, 7);
    let path = dir.join("bench.flow");
    std::fs::write(&path, &text).unwrap();

    let mut initialize = Vec::new();
    for _ in 0..10 {
        let started = Instant::now();
        let mut server = Server::start();
        server.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        );
        initialize.push(started.elapsed());
        server.stop();
    }
    report("initialize reply after start", &mut initialize);

    let mut server = Server::start();
    server.initialize(&dir, json!({}), json!({}));
    let uri = server.open(&path, &text);
    server.diagnostics(&uri, 0);

    // Keystrokes: type and delete a character inside a string in the middle
    // (the step is reparsed alone), then in the blank line before a step
    // (outside any step: the whole file is reparsed).
    let in_string = text.find("\"chunk 5000 ").unwrap() + 1;
    let mut samples = keystrokes(&mut server, &uri, &text, in_string, 1);
    report("keystroke -> publishDiagnostics", &mut samples);
    let step = text.find("\nstep S5000 ").unwrap();
    let between_steps = text[..step].rfind("\n\n").unwrap() + 1;
    let mut samples = keystrokes(&mut server, &uri, &text, between_steps, 201);
    report("keystroke -> publishDiagnostics (full)", &mut samples);

    // Requests at a reference `S4990.outs`.
    let reference = text.find("= S4990.outs").unwrap() + 3;
    let ref_line = text[..reference].matches('\n').count() as u32;
    let ref_character = (reference - text[..reference].rfind('\n').map_or(0, |i| i + 1)) as u32;
    let position = json!({"textDocument": {"uri": uri}, "position": {"line": ref_line, "character": ref_character}});
    for method in [
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
    ] {
        let mut samples = Vec::new();
        for _ in 0..200 {
            let started = Instant::now();
            server.request(method, position.clone());
            samples.push(started.elapsed());
        }
        report(method, &mut samples);
    }
    let status = server.stop();
    assert!(status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
