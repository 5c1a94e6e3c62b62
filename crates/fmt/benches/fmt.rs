//! Throughput of the formatter on large generated flows (`easyflow_genflow`,
//! shaped like `shared/tools/genflow.py`).
//!
//! `cargo bench -p easyflow-fmt` reports time and MB/s for:
//! - `format_only`: comments, walk and printer on an already parsed tree;
//! - `parse_and_format`: [`easyflow_fmt::format`], everything `easyflow fmt`
//!   does for a file: parse, format, and the check of the output (which
//!   parses it again), in pieces on every core for a large text.
//!
//! Goal: ≥ 50 MB/s.

use std::sync::OnceLock;

use divan::counter::BytesCount;
use divan::{Bencher, black_box};
use easyflow_fmt::Options;

/// Steps of the generated flows: about 1.4 MB and 14 MB of text.
const STEPS: &[usize] = &[10_000, 100_000];
const SEED: u64 = 7;

// As in the binaries that format (`easyflow`, `easyflow-ls`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

fn flow(steps: usize) -> &'static str {
    static FLOWS: [OnceLock<String>; 2] = [OnceLock::new(), OnceLock::new()];
    let index = STEPS
        .iter()
        .position(|&s| s == steps)
        .expect("a size of STEPS");
    FLOWS[index].get_or_init(|| easyflow_genflow::generate(steps, SEED))
}

#[divan::bench(args = STEPS, sample_count = 10)]
fn format_only(bencher: Bencher, steps: usize) {
    let text = flow(steps);
    let parse = easyflow_syntax::parse(text);
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| easyflow_fmt::format_unchecked(black_box(text), &parse, &Options::default()));
}

#[divan::bench(args = STEPS, sample_count = 10)]
fn parse_and_format(bencher: Bencher, steps: usize) {
    let text = flow(steps);
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| easyflow_fmt::format(black_box(text), &Options::default()));
}
