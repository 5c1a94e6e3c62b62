//! The catalog reader never panics, and every diagnostic range lies on
//! character boundaries of the text, whatever the input.

use easyflow_catalog::{parse, parse_bytes};
use proptest::prelude::*;

const SAMPLE: &str = include_str!("../../../tests/data/catalog/ok-spec-example.toml");

fn check(text: &str) {
    let catalog = parse(text);
    for d in &catalog.diagnostics {
        let range = usize::from(d.range.start())..usize::from(d.range.end());
        assert!(text.get(range).is_some(), "{d:?} in {text:?}");
    }
    for package in &catalog.packages {
        assert!(catalog.package(&package.name).is_some());
    }
}

proptest! {
    #[test]
    fn arbitrary_text(text in "\\PC{0,200}") {
        check(&text);
    }

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        parse_bytes(&bytes);
    }

    /// The sample with a slice cut out and something put in its place.
    #[test]
    fn broken_sample(start in 0usize..SAMPLE.len(), len in 0usize..40, insert in "[\\[\\]=\"a-z0-9 .\n#-]{0,8}") {
        let mut start = start;
        while !SAMPLE.is_char_boundary(start) { start -= 1; }
        let mut end = (start + len).min(SAMPLE.len());
        while !SAMPLE.is_char_boundary(end) { end -= 1; }
        let text = format!("{}{}{}", &SAMPLE[..start], insert, &SAMPLE[end..]);
        check(&text);
    }
}
