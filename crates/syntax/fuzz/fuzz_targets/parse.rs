//! Lexes and parses arbitrary bytes: nothing may panic (overflows and
//! debug assertions included), and for UTF-8 input the tokens and the tree
//! must give back the text exactly, with diagnostics inside it.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };

    let lexed = easyflow_syntax::lex(text);
    let joined: String = (0..lexed.len()).map(|i| lexed.text(text, i)).collect();
    assert_eq!(joined, text, "the tokens are not the text");

    let parse = easyflow_syntax::parse(text);
    assert_eq!(parse.syntax().to_string(), text, "the tree is not the text");
    for error in parse.errors() {
        let (start, end) = (
            usize::from(error.range.start()),
            usize::from(error.range.end()),
        );
        assert!(
            start <= end && end <= text.len(),
            "{:?} outside the text: {}",
            error.range,
            error.message
        );
        assert!(
            text.is_char_boundary(start) && text.is_char_boundary(end),
            "{:?} not on char boundaries: {}",
            error.range,
            error.message
        );
    }
});
