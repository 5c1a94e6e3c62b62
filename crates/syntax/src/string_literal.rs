//! String literal tokens: the escapes of `language.md` §1.1, defined once for
//! the lexer, which reports invalid ones (E0103), and for the AST, which
//! resolves them into values.

use std::borrow::Cow;

/// Length of a valid escape after its backslash (`Ok`), or of the invalid
/// part to report (`Err`, at least one byte when any is left).
pub(crate) fn escape_len(after: &[u8]) -> Result<usize, usize> {
    let Some(&first) = after.first() else {
        return Err(0);
    };
    match first {
        b'"' | b'\\' | b'\'' | b'b' | b't' | b'n' | b'f' | b'r' => Ok(1),
        b'u' => {
            let hex = after[1..]
                .iter()
                .take(4)
                .take_while(|b| b.is_ascii_hexdigit())
                .count();
            if hex == 4 { Ok(5) } else { Err(1 + hex) }
        }
        b'0'..=b'7' => {
            let max = if first <= b'3' { 3 } else { 2 };
            Ok(after
                .iter()
                .take(max)
                .take_while(|b| (b'0'..=b'7').contains(b))
                .count())
        }
        _ => Err(1),
    }
}

/// Resolves the escapes of a string token's text (quotes included). Invalid
/// escapes (already reported by the lexer) are kept as written. Borrowed
/// when there is no escape, as in most strings.
pub fn unescape(quoted: &str) -> Cow<'_, str> {
    let body = quoted.strip_prefix('"').unwrap_or(quoted);
    let body = body.strip_suffix('"').unwrap_or(body);
    if !body.contains('\\') {
        return Cow::Borrowed(body);
    }
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(backslash) = rest.find('\\') {
        out.push_str(&rest[..backslash]);
        let after = &rest[backslash + 1..];
        // A valid escape is ASCII, so `len` is a char boundary.
        let decoded = escape_len(after.as_bytes())
            .ok()
            .and_then(|len| Some((decode(&after[..len])?, len)));
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &after[len..];
            }
            None => {
                out.push('\\');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The character of a valid escape given without its backslash; `None` for
/// a `\u` escape that names no character (a surrogate).
fn decode(escape: &str) -> Option<char> {
    let (first, digits) = escape.split_at(1);
    match first {
        "b" => Some('\u{8}'),
        "t" => Some('\t'),
        "n" => Some('\n'),
        "f" => Some('\u{c}'),
        "r" => Some('\r'),
        "u" => char::from_u32(u32::from_str_radix(digits, 16).ok()?),
        "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" => {
            char::from_u32(u32::from_str_radix(escape, 8).ok()?)
        }
        quote_or_backslash => quote_or_backslash.chars().next(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescape_resolves_every_escape() {
        assert_eq!(
            unescape(r#""a\"b\\c\'\t\u00e9\101\7""#),
            "a\"b\\c'\t\u{e9}A\u{7}"
        );
        assert_eq!(unescape(r#""\b\f\n\r\0\477""#), "\u{8}\u{c}\n\r\0\u{27}7");
    }

    #[test]
    fn unescape_keeps_invalid_escapes_as_written() {
        assert_eq!(unescape(r#""bad \q""#), "bad \\q");
        assert_eq!(unescape(r#""\u12 \ud800 \""#), "\\u12 \\ud800 \\");
        assert_eq!(unescape("\"шаг\\"), "шаг\\");
    }
}
