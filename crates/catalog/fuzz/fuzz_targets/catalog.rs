//! The catalog reader on arbitrary bytes: no panic, and every diagnostic
//! range on character boundaries of the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let catalog = easyflow_catalog::parse_bytes(data);
    if let Ok(text) = std::str::from_utf8(data) {
        for d in &catalog.diagnostics {
            let range = usize::from(d.range.start())..usize::from(d.range.end());
            assert!(text.get(range).is_some());
        }
    }
});
