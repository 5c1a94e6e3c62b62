//! The formatter on a text, at the default options and at those the input may
//! end with: every property of formatting.md.
//! The check is `easyflow_fuzz::format` (crates/fuzz), also replayed on stable;
//! half the mutations are libFuzzer's, half `easyflow_fuzz::mutate_text_and_trailer`
//! (a comment, whitespace or line endings between tokens, or other options).

#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

fuzz_target!(|data: &[u8]| easyflow_fuzz::format(data));

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    easyflow_fuzz::fuzz_mutate(
        easyflow_fuzz::mutate_text_and_trailer,
        data,
        size,
        max_size,
        seed,
        fuzzer_mutate,
    )
});
