//! Small text helpers shared by the topology parser and the requirement values.

use easyflow_diagnostics::{TextRange, TextSize};

/// A byte range; offsets past `u32::MAX` saturate instead of panicking (the
/// CLI refuses such files anyway).
pub(crate) fn range(start: usize, end: usize) -> TextRange {
    let size = |offset: usize| TextSize::from(u32::try_from(offset).unwrap_or(u32::MAX));
    TextRange::new(size(start), size(end.max(start)))
}

pub(crate) fn is_identifier_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_'
}

pub(crate) fn is_identifier_continue(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// The end of the run of bytes from `start` (before `end`) that satisfy `accept`.
pub(crate) fn run_end(bytes: &[u8], start: usize, end: usize, accept: fn(u8) -> bool) -> usize {
    bytes[start..end]
        .iter()
        .position(|&b| !accept(b))
        .map_or(end, |length| start + length)
}

/// What stands at `pos` in `text[..end]`, for "expected …, found …" messages:
/// its range and its description. A name or a number is shown whole, any
/// other character alone; invisible characters by their code point.
/// `at_end` describes the empty rest (e.g. "the end of the string").
pub(crate) fn found(text: &str, pos: usize, end: usize, at_end: &str) -> (TextRange, String) {
    let bytes = text.as_bytes();
    if pos >= end {
        return (range(pos, pos), at_end.to_string());
    }
    let token_end = if is_identifier_start(bytes[pos]) {
        run_end(bytes, pos, end, is_identifier_continue)
    } else if bytes[pos].is_ascii_digit() {
        run_end(bytes, pos, end, |b| b.is_ascii_digit())
    } else {
        let width = text[pos..].chars().next().map_or(1, char::len_utf8);
        (pos + width).min(end)
    };
    let token = &text[pos..token_end];
    let shown = match token.chars().next() {
        Some(c) if token.len() == c.len_utf8() && is_hard_to_see(c) => {
            format!("the character U+{:04X}", u32::from(c))
        }
        _ => format!("`{token}`"),
    };
    (range(pos, token_end), shown)
}

/// Characters that would be invisible or confusing between backticks.
fn is_hard_to_see(c: char) -> bool {
    c.is_control()
        || c.is_whitespace()
        || c == '`'
        || matches!(u32::from(c), 0x200B..=0x200F | 0x2060..=0x2064 | 0xFEFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn found_shows_whole_names_and_numbers_and_single_characters() {
        let text = "two,1 12x ß\u{a0}`";
        assert_eq!(found(text, 0, 3, "the end").1, "`two`");
        assert_eq!(found(text, 0, text.len(), "the end").0, range(0, 3));
        assert_eq!(found(text, 3, text.len(), "the end").1, "`,`");
        assert_eq!(found(text, 6, text.len(), "the end").1, "`12`");
        assert_eq!(found(text, 10, text.len(), "the end").1, "`ß`");
        assert_eq!(found(text, 10, text.len(), "the end").0, range(10, 12));
        assert_eq!(
            found(text, 12, text.len(), "the end").1,
            "the character U+00A0"
        );
        assert_eq!(
            found(text, 14, text.len(), "the end").1,
            "the character U+0060"
        );
        assert_eq!(
            found(text, 3, 3, "the end"),
            (range(3, 3), "the end".into())
        );
    }
}
