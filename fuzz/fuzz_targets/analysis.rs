//! Checks arbitrary text as a flow: no panic, diagnostics inside the text, sorted.
//! The check is `easyflow_fuzz::analysis` (crates/fuzz), also replayed on stable.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| easyflow_fuzz::analysis(data));
