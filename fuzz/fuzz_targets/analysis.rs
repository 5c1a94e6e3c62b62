//! Checks arbitrary text as a flow: no panic, diagnostics inside the text,
//! sorted, the same in another layout.
//! The check is `easyflow_fuzz::analysis` (crates/fuzz), also replayed on stable;
//! half the mutations are libFuzzer's, half `easyflow_fuzz::layout::mutate`
//! (a comment, whitespace or line endings between tokens).

#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

fuzz_target!(|data: &[u8]| easyflow_fuzz::analysis(data));

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    easyflow_fuzz::fuzz_mutate(
        easyflow_fuzz::layout::mutate,
        data,
        size,
        max_size,
        seed,
        fuzzer_mutate,
    )
});
