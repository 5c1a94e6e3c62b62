//! Every IDE feature on arbitrary text at an offset the input chooses.
//! The check is `easyflow_fuzz::ide` (crates/fuzz), also replayed on stable.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| easyflow_fuzz::ide(data));
