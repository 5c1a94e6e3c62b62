//! Throughput of the syntax layer on large generated flows (see
//! `easyflow_genflow`, shaped like `shared/tools/genflow.py`).
//!
//! `cargo bench -p easyflow-syntax` reports time and MB/s for:
//! - `lex`: the logos lexer and its driver alone;
//! - `parse`: lex + parse + green tree, everything `easyflow_syntax::parse` does.
//!
//! Each flow is generated once, outside the timed part. Goals on the reference
//! machine: `lex` ≥ 500 MB/s, `parse` ≥ 50 MB/s.

use std::sync::OnceLock;

use divan::counter::BytesCount;
use divan::{Bencher, black_box};

/// Steps of the generated flows: about 1.4 MB and 14 MB of text.
const STEPS: &[usize] = &[10_000, 100_000];
const SEED: u64 = 7;

// As in the binaries that parse (`easyflow`, `easyflow-ls`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

/// The generated flow of `steps` steps, made on first use and then shared.
fn flow(steps: usize) -> &'static str {
    static FLOWS: [OnceLock<String>; 2] = [OnceLock::new(), OnceLock::new()];
    let index = STEPS
        .iter()
        .position(|&s| s == steps)
        .expect("a size of STEPS");
    FLOWS[index].get_or_init(|| easyflow_genflow::generate(steps, SEED))
}

#[divan::bench(args = STEPS, sample_count = 30)]
fn lex(bencher: Bencher, steps: usize) {
    let text = flow(steps);
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| easyflow_syntax::lex(black_box(text)));
}

#[divan::bench(args = STEPS, sample_count = 30)]
fn parse(bencher: Bencher, steps: usize) {
    let text = flow(steps);
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| easyflow_syntax::parse(black_box(text)));
}
