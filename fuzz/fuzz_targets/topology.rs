//! The topology reader on arbitrary text.
//! The check is `easyflow_fuzz::topology` (crates/fuzz), also replayed on stable.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| easyflow_fuzz::topology(data));
