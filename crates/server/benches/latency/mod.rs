//! What the latency benchmarks share: percentiles, the report line, and
//! LSP positions.

use std::time::Duration;

use serde_json::{Value, json};

pub fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    let index = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[index]
}

pub fn report(name: &str, samples: &mut [Duration]) {
    println!(
        "{name:<44} n={:<4} p50 {:>8.2} ms   p99 {:>8.2} ms   max {:>8.2} ms",
        samples.len(),
        percentile(samples, 0.5).as_secs_f64() * 1e3,
        percentile(samples, 0.99).as_secs_f64() * 1e3,
        percentile(samples, 1.0).as_secs_f64() * 1e3,
    );
}

/// The LSP position (UTF-16) of byte `at` of `text`.
pub fn position(text: &str, at: usize) -> Value {
    let line = text[..at].matches('\n').count();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let character: usize = text[line_start..at].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": character})
}
