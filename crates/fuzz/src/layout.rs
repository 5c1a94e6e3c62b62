//! Mutations of a text's layout that keep its tokens: a comment, a line
//! break or other whitespace between two tokens, or every line ending
//! switched between `\n` and `\r\n`.
//!
//! Byte mutations seldom give these to a valid flow without breaking it
//! somewhere else (a `//` needs its line break, a `*/` its `/*`), yet they
//! are what a formatter must get right: they turn a valid seed into another
//! valid text, with the same tokens laid out differently. The fuzz targets
//! on flows use them beside libFuzzer's own mutations (`fuzz_mutator!`), and
//! the smoke run of `tests/replay.rs` beside its byte mutations.

use easyflow_syntax::{SyntaxKind, lex};

/// Comments that can stand after any token: line comments (followed by a
/// line break), block comments inline, on their own line or spanning lines.
const COMMENTS: &[&str] = &[
    " // c",
    "// keep me",
    " // a trailing comment longer than the narrow widths, never measured",
    " /* c */ ",
    "/**/",
    " /* a\nb */ ",
];

/// Whitespace that can replace the whitespace between two tokens (none
/// only where the two tokens stay apart).
const GAPS: &[&str] = &[" ", "\n", "\r\n", "\n\n", "\t", "   ", "\n  ", ""];

/// One layout mutation of `data` that `seed` chooses: [`relayout`], or
/// every line ending switched between `\n` and `\r\n`; `None` when the
/// text is not UTF-8 or has no token.
pub fn mutate(data: &[u8], seed: u32) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(data).ok()?;
    if seed % 5 == 4 {
        let switched = if text.contains("\r\n") {
            text.replace("\r\n", "\n")
        } else {
            text.replace('\n', "\r\n")
        };
        return Some(switched.into_bytes());
    }
    relayout(text, seed / 5).map(String::into_bytes)
}

/// `text` with a comment or other whitespace between two of its tokens, as
/// `seed` chooses: the same tokens (comments aside), laid out differently.
/// Never between `~` and `step` (they must touch). `None` without a token.
pub fn relayout(text: &str, seed: u32) -> Option<String> {
    let mut rng = fastrand::Rng::with_seed(u64::from(seed));
    let lexed = lex(text);
    // Where one token ends: a gap, with its whitespace (possibly none).
    let gaps: Vec<(usize, usize)> = (0..lexed.len())
        .filter(|&i| {
            !matches!(
                lexed.kind(i),
                SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE | SyntaxKind::TILDE
            )
        })
        .map(|i| {
            let start = usize::from(lexed.range(i).end());
            let end = (i + 1..lexed.len())
                .take_while(|&j| matches!(lexed.kind(j), SyntaxKind::WHITESPACE))
                .last()
                .map_or(start, |j| usize::from(lexed.range(j).end()));
            (start, end)
        })
        .collect();
    if gaps.is_empty() {
        return None;
    }
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let (start, end) = gaps[rng.usize(..gaps.len())];
    let splice = |at: usize, to: usize, insert: &str| {
        let mut out = String::with_capacity(text.len() + insert.len());
        out.push_str(&text[..at]);
        out.push_str(insert);
        out.push_str(&text[to..]);
        out
    };
    let out = if rng.bool() {
        // A comment after the token (a line comment ends its line).
        let comment = COMMENTS[rng.usize(..COMMENTS.len())];
        let mut inserted = comment.replace('\n', newline);
        if comment.trim_start().starts_with("//") {
            inserted.push_str(newline);
        }
        splice(start, start, &inserted)
    } else {
        splice(start, end, GAPS[rng.usize(..GAPS.len())])
    };
    // A gap made smaller may glue two tokens into one (`- 1`, `/ /`): then
    // a space keeps them apart.
    Some(if same_tokens(text, &out) {
        out
    } else {
        splice(start, end, " ")
    })
}

/// Whether `a` and `b` have the same tokens, comments and whitespace aside.
pub fn same_tokens(a: &str, b: &str) -> bool {
    let tokens = |text: &str| -> Vec<String> {
        let lexed = lex(text);
        (0..lexed.len())
            .filter(|&i| !lexed.kind(i).is_trivia())
            .map(|i| lexed.text(text, i).to_string())
            .collect()
    };
    tokens(a) == tokens(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_keep_the_tokens_of_a_flow() {
        let text = "step A runs P.Q (x = [1, 2]);\nstep B runs P.Q (y = A.x);\n";
        let mut kinds = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let out = String::from_utf8(mutate(text.as_bytes(), seed).unwrap()).unwrap();
            assert!(same_tokens(&out, text), "{out:?}");
            kinds.insert(if out.contains("//") {
                "line comment"
            } else if out.contains("/*") {
                "block comment"
            } else if out.contains("\r\n") {
                "CRLF"
            } else {
                "whitespace"
            });
        }
        assert_eq!(kinds.len(), 4, "{kinds:?}");
    }
}
