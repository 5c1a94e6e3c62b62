//! The formatter on arbitrary text, width and indent: idempotent, never an internal error.
//! The check is `easyflow_fuzz::format` (crates/fuzz), also replayed on stable.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| easyflow_fuzz::format(data));
