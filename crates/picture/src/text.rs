//! How wide a text is drawn, estimated per character: the picture is laid
//! out where no font can be measured (the CLI, the server), in whatever
//! sans-serif font the viewer has (`system-ui`, Segoe UI, DejaVu Sans). The
//! estimates follow DejaVu Sans, the widest of the usual ones, so a label
//! fits its box in each of them.

/// The width in pixels of `text` at `size` pixels.
pub fn width(text: &str, size: f64, bold: bool) -> f64 {
    let ems: f64 = text.chars().map(em).sum();
    ems * size * if bold { 1.07 } else { 1.0 }
}

/// A character's advance, in ems.
fn em(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | 'I' | '.' | ',' | ':' | ';' | '\'' | '!' | '|' | ' ' => 0.32,
        'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '{' | '}' | '-' | '"' | '/' => 0.42,
        'm' | 'w' | 'M' | 'W' | '@' | '%' => 0.94,
        'A'..='Z' => 0.72,
        '0'..='9' => 0.64,
        c if c.is_ascii() => 0.61,
        // CJK, Hangul, full-width forms: square.
        '\u{1100}'..='\u{115f}' | '\u{2e80}'..='\u{a4cf}' | '\u{ac00}'..='\u{d7a3}' => 1.0,
        '\u{f900}'..='\u{faff}' | '\u{fe30}'..='\u{fe4f}' | '\u{ff00}'..='\u{ff60}' => 1.0,
        _ => 0.68,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_letters_take_more_room_than_narrow_ones() {
        assert!(width("WWW", 13.0, false) > 2.0 * width("iii", 13.0, false));
        assert!(width("S1", 13.0, true) > width("S1", 13.0, false));
        assert_eq!(width("", 13.0, true), 0.0);
    }
}
