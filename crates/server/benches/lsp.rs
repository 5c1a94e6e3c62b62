//! Latency of the real `easyflow-ls` binary over stdio on generated
//! documents (`cargo bench -p easyflow-ls`): `initialize` reply time,
//! `didOpen` → first diagnostics, every edit kind of issue 13 (keystroke →
//! `publishDiagnostics`), and hover, completion and definition (alone, and
//! each right after a keystroke). Prints
//! p50/p99; asserts nothing.
//!
//! `EASYFLOW_BENCH_STEPS` picks the sizes (default `10000,100000`) and
//! `EASYFLOW_BENCH_SAMPLES` the edits per kind (default 100).

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Server, percentile};

/// The requests timed at a step reference.
const REQUESTS: [&str; 3] = [
    "textDocument/hover",
    "textDocument/completion",
    "textDocument/definition",
];

/// The latency of `method` at `params`, `count` times, each after
/// `before(server, i)` (not timed).
fn time_request(
    server: &mut Server,
    method: &str,
    params: &Value,
    count: usize,
    mut before: impl FnMut(&mut Server, usize),
) -> Vec<Duration> {
    (0..count)
        .map(|i| {
            before(server, i);
            let started = Instant::now();
            server.request(method, params.clone());
            started.elapsed()
        })
        .collect()
}

fn report(name: &str, samples: &mut [Duration]) {
    println!(
        "{name:<44} n={:<4} p50 {:>8.2} ms   p99 {:>8.2} ms   max {:>8.2} ms",
        samples.len(),
        percentile(samples, 0.5).as_secs_f64() * 1e3,
        percentile(samples, 0.99).as_secs_f64() * 1e3,
        percentile(samples, 1.0).as_secs_f64() * 1e3,
    );
}

/// The LSP position (UTF-16) of byte `at` of `text`.
fn position(text: &str, at: usize) -> Value {
    let line = text[..at].matches('\n').count();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let character: usize = text[line_start..at].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": character})
}

/// The open document: the server's copy of its text, kept in step with the
/// edits sent, and the next version.
struct Document {
    uri: String,
    text: String,
    version: i64,
}

impl Document {
    /// Replaces `start..end` of the text by `insert` and times the change
    /// until its diagnostics arrive.
    fn edit(&mut self, server: &mut Server, start: usize, end: usize, insert: &str) -> Duration {
        let range = json!({"start": position(&self.text, start), "end": position(&self.text, end)});
        self.text.replace_range(start..end, insert);
        self.version += 1;
        let started = Instant::now();
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": self.uri, "version": self.version}, "contentChanges": [{"range": range, "text": insert}]}),
        );
        server.diagnostics(&self.uri, self.version);
        started.elapsed()
    }
}

fn samples_per_kind() -> usize {
    std::env::var("EASYFLOW_BENCH_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100)
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters nothing here.
    let sizes: Vec<usize> = std::env::var("EASYFLOW_BENCH_STEPS")
        .unwrap_or_else(|_| "10000,100000".to_string())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let dir = std::env::temp_dir().join(format!("easyflow-ls-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

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
    for steps in sizes {
        bench_size(&dir, steps);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn bench_size(dir: &std::path::Path, steps: usize) {
    let n = samples_per_kind();
    println!("--- {steps} steps");
    let text = easyflow_genflow::generate(steps, 7);
    let path = dir.join(format!("bench{steps}.flow"));
    std::fs::write(&path, &text).unwrap();

    let mut server = Server::start();
    // A client that states every capability the server uses (as VS Code):
    // the answers' full shapes are what is timed.
    server.initialize(dir, support::full_client(), json!({}));
    // The message is serialised before the clock starts: what is timed is
    // the server's work, from the first byte sent.
    let uri = support::uri(&path);
    let message = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "easyflow", "version": 0, "text": text}}});
    let body = serde_json::to_vec(&message).unwrap();
    let framed = [
        format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes(),
        body,
    ]
    .concat();
    drop(message);
    let started = Instant::now();
    server.send_raw(&framed);
    server.diagnostics(&uri, 0);
    println!(
        "{:<44} {:>8.2} ms",
        "didOpen -> first diagnostics",
        started.elapsed().as_secs_f64() * 1e3
    );
    let mut doc = Document {
        uri,
        text,
        version: 0,
    };
    let middle = steps / 2;

    // One character typed and deleted inside a string literal.
    let in_string = doc.text.find(&format!("\"chunk {middle} ")).unwrap() + 1;
    let mut samples = Vec::new();
    for i in 0..n {
        samples.push(if i % 2 == 0 {
            doc.edit(&mut server, in_string, in_string, "x")
        } else {
            doc.edit(&mut server, in_string, in_string + 1, "")
        });
    }
    report("char in a string -> diagnostics", &mut samples);

    // One character of a step reference (`S4990.outs` → `S49901.outs`, which
    // names no step) typed and deleted.
    let target = format!("= S{}.outs", middle - 10);
    let reference = doc.text.find(&target).unwrap() + target.len() - ".outs".len();
    let mut samples = Vec::new();
    for i in 0..n {
        samples.push(if i % 2 == 0 {
            doc.edit(&mut server, reference, reference, "1")
        } else {
            doc.edit(&mut server, reference, reference + 1, "")
        });
    }
    report("char of a step reference -> diagnostics", &mut samples);

    // A new step typed character by character in the blank line before a
    // step, then deleted character by character.
    let step = doc.text.find(&format!("\nstep S{middle} ")).unwrap();
    let blank = doc.text[..step].rfind("\n\n").unwrap() + 1;
    let new_step = format!(
        "step New runs Tools.Prepare (x = S{}.outs);\n\n",
        middle - 1
    );
    let mut samples = Vec::new();
    while samples.len() < n {
        for (i, c) in new_step.char_indices() {
            samples.push(doc.edit(&mut server, blank + i, blank + i, &c.to_string()));
        }
        for i in (0..new_step.len()).rev() {
            samples.push(doc.edit(&mut server, blank + i, blank + i + 1, ""));
        }
    }
    report("typing a new step -> diagnostics", &mut samples);

    // A whole step deleted, and put back (undo).
    let start = doc.text.find(&format!("step S{} ", middle + 3)).unwrap();
    let end = start + doc.text[start..].find("\n\n").unwrap() + 2;
    let removed = doc.text[start..end].to_string();
    let mut samples = Vec::new();
    for i in 0..n {
        samples.push(if i % 2 == 0 {
            doc.edit(&mut server, start, end, "")
        } else {
            doc.edit(&mut server, start, start, &removed)
        });
    }
    report("deleting a step (and undo) -> diagnostics", &mut samples);

    // A block of 50 new steps pasted, and removed (undo).
    let block: String = (0..50)
        .map(|i| {
            format!(
                "step Pasted{i} runs Reducer.Sum\n(\n  in0 = S{}.outs[\"part0.dat\"],\n  label = \"pasted {i}\"\n);\n\n",
                middle - 20 + i % 10
            )
        })
        .collect();
    let at = doc.text.find(&format!("\nstep S{} ", middle + 7)).unwrap() + 1;
    let at = doc.text[..at - 1].rfind("\n\n").unwrap() + 2;
    let mut samples = Vec::new();
    for i in 0..n {
        samples.push(if i % 2 == 0 {
            doc.edit(&mut server, at, at, &block)
        } else {
            doc.edit(&mut server, at, at + block.len(), "")
        });
    }
    report("pasting 50 steps (and undo) -> diagnostics", &mut samples);

    // Requests at a reference `S<middle-10>.outs`.
    let reference = doc.text.find(&target).unwrap() + 3;
    let params =
        json!({"textDocument": {"uri": doc.uri}, "position": position(&doc.text, reference)});
    for method in REQUESTS {
        let mut samples = time_request(&mut server, method, &params, n.max(50), |_, _| {});
        report(method, &mut samples);
    }
    // The same requests, each right after a keystroke (a character typed or
    // deleted, its diagnostics awaited): in a string, which changes no
    // step's summary, and in a step reference, after which the dependency
    // graph is built again for the requests that read it (hover's level
    // and instance count).
    let edited_reference = doc.text.find(&target).unwrap() + target.len() - ".outs".len();
    for (edit, at, inserted) in [
        ("a string", in_string, "x"),
        ("a reference", edited_reference, "1"),
    ] {
        for method in REQUESTS {
            let mut samples = time_request(&mut server, method, &params, n.max(50), |server, i| {
                if i % 2 == 0 {
                    doc.edit(server, at, at, inserted);
                } else {
                    doc.edit(server, at, at + 1, "");
                }
            });
            report(&format!("{method} after an edit in {edit}"), &mut samples);
        }
    }
    let status = server.stop();
    assert!(status.success());
}
