//! Lexes and parses arbitrary bytes: no panic, lossless tokens and tree.
//! The check is `easyflow_fuzz::parse` (crates/fuzz), also replayed on stable.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| easyflow_fuzz::parse(data));
