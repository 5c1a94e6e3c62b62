//! Every IDE feature on a text at an offset, with a catalog: what each answer promises.
//! The check is `easyflow_fuzz::ide` (crates/fuzz), also replayed on stable;
//! half the mutations are libFuzzer's, half `easyflow_fuzz::mutate_text_and_trailer`
//! (a comment, whitespace or line endings between tokens, or another offset).

#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

fuzz_target!(|data: &[u8]| easyflow_fuzz::ide(data));

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
