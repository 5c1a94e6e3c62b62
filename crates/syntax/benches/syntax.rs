//! Throughput of the syntax layer on large generated flows (see
//! `easyflow_genflow`, shaped like `shared/tools/genflow.py`).
//!
//! `cargo bench -p easyflow-syntax` reports time and MB/s for:
//! - `lex`: the logos lexer and its driver alone;
//! - `parse`: lex + parse + green tree, everything `easyflow_syntax::parse` does;
//! - `reparse_*`: the incremental reparse of one edit in the middle of the
//!   flow (a character typed in a string, a step pasted between two), which
//!   should cost the same at 10,000 and 100,000 steps: it rebuilds one
//!   chunk and a root of chunks (the drop of the new tree is not timed).
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

/// `flow(steps)`'s parse, and the same text with `inserted` typed at the
/// start of the middle step's first string, or before the middle step.
fn edited(
    steps: usize,
    in_string: bool,
    inserted: &str,
) -> (easyflow_syntax::Parse, easyflow_syntax::SourceText, u32) {
    let text = flow(steps);
    let step = text
        .find(&format!("\nstep S{} ", steps / 2))
        .expect("the middle step")
        + 1;
    let at = if in_string {
        step + text[step..].find('"').expect("a string") + 1
    } else {
        step
    };
    // Edited as the analysis keeps an edited text: a rope.
    let mut new_text = easyflow_syntax::SourceText::from(text);
    new_text.edit(
        easyflow_syntax::TextRange::empty((at as u32).into()),
        inserted,
    );
    (easyflow_syntax::parse(text), new_text, at as u32)
}

fn bench_reparse(bencher: Bencher, steps: usize, in_string: bool, inserted: &str) {
    let (old, new_text, at) = edited(steps, in_string, inserted);
    let deleted = easyflow_syntax::TextRange::empty(at.into());
    bencher.with_inputs(|| ()).bench_local_values(|()| {
        easyflow_syntax::reparse(black_box(&old), deleted, inserted, &new_text)
            .expect("reparsed incrementally")
    });
}

#[divan::bench(args = STEPS, sample_count = 100)]
fn reparse_typing_in_a_string(bencher: Bencher, steps: usize) {
    bench_reparse(bencher, steps, true, "x");
}

#[divan::bench(args = STEPS, sample_count = 100)]
fn reparse_pasting_a_step(bencher: Bencher, steps: usize) {
    bench_reparse(
        bencher,
        steps,
        false,
        "step P runs Tools.Prepare (x = S1.outs);\n\n",
    );
}
