//! Edit sequences: incremental reparse, analysis and IDE answers equal fresh ones.
//! The check is `easyflow_fuzz::edits` (crates/fuzz), also replayed on stable;
//! half the mutations are libFuzzer's, half `easyflow_fuzz::mutate_edits`
//! (one more edit typing a piece of a flow).

#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

fuzz_target!(|data: &[u8]| easyflow_fuzz::edits(data));

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    easyflow_fuzz::fuzz_mutate(
        easyflow_fuzz::mutate_edits,
        data,
        size,
        max_size,
        seed,
        fuzzer_mutate,
    )
});
