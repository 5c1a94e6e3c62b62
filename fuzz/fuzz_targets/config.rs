//! easyflow.toml on arbitrary text.
//! The check is `easyflow_fuzz::config` (crates/fuzz), also replayed on stable.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| easyflow_fuzz::config(data));
