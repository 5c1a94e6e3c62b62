//! Arbitrary edit sequences: incremental reparse and analysis equal fresh ones.
//! The check is `easyflow_fuzz::edits` (crates/fuzz), also replayed on stable.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| easyflow_fuzz::edits(data));
