//! The package catalog reader on arbitrary bytes.
//! The check is `easyflow_fuzz::catalog` (crates/fuzz), also replayed on stable.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| easyflow_fuzz::catalog(data));
