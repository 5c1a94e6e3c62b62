//! Comment placement: every comment is attached to a token, as rustfmt and
//! ruff place them, from where it stands relative to line breaks.
//!
//! - A comment with no line break between it and the token before it is a
//!   *trailing* comment of that token: it stays after it on its line
//!   (`x = 1, // why`), or inline when code follows it on the line
//!   (`a /* c */ b`).
//! - Any other comment is a *leading* comment of the token after it: on its
//!   own line (`// about the next step`), or at the start of the token's line
//!   when code follows it there (`/* c */ step A …`).
//!
//! Blank lines are remembered only as "one or more blank lines before this
//! comment or token": the formatter keeps at most one, between items.

use easyflow_syntax::{SyntaxKind, TextRange, lex};

/// One comment and where it stands.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Comment {
    pub(crate) range: TextRange,
    /// A line break comes right before it (or it opens the file).
    pub(crate) newline_before: bool,
    /// A line break or the end of the file comes right after it.
    pub(crate) newline_after: bool,
    /// An empty line comes right before it.
    pub(crate) blank_before: bool,
}

/// One non-trivia token with its comments.
#[derive(Debug, Clone, Default)]
pub(crate) struct Token {
    pub(crate) range: TextRange,
    pub(crate) leading: Vec<Comment>,
    pub(crate) trailing: Vec<Comment>,
    /// An empty line comes right before it (after its leading comments).
    pub(crate) blank_before: bool,
}

/// The tokens of a text with their comments; the comments after the last
/// token that are not trailing comments of it belong to the end of the file.
pub(crate) struct Tokens {
    pub(crate) tokens: Vec<Token>,
    pub(crate) end_comments: Vec<Comment>,
}

/// The number of line breaks in a run of `\r` and `\n` (`\r\n` is one).
fn line_breaks(newlines: &str) -> usize {
    let bytes = newlines.as_bytes();
    bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count()
}

pub(crate) fn attach(text: &str) -> Tokens {
    let lexed = lex(text);
    let mut tokens: Vec<Token> = Vec::with_capacity(lexed.len() / 2 + 1);
    // Comments waiting for the next token.
    let mut pending: Vec<Comment> = Vec::new();
    // Line breaks since the last token or comment (`None` at the start of the file).
    let mut breaks: Option<usize> = None;
    for index in 0..lexed.len() {
        let kind = lexed.kind(index);
        let range = lexed.range(index);
        match kind {
            SyntaxKind::WHITESPACE => {}
            SyntaxKind::NEWLINE => {
                *breaks.get_or_insert(0) += line_breaks(&text[range]);
            }
            SyntaxKind::LINE_COMMENT | SyntaxKind::BLOCK_COMMENT => {
                let newline_before = breaks != Some(0);
                let comment = Comment {
                    range,
                    newline_before,
                    newline_after: false,
                    blank_before: breaks.unwrap_or(0) >= 2,
                };
                close_previous(&mut tokens, &mut pending, breaks);
                match tokens.last_mut() {
                    // On the line of the token before, with nothing but trailing comments between.
                    Some(token) if !newline_before && pending.is_empty() => {
                        token.trailing.push(comment)
                    }
                    _ => pending.push(comment),
                }
                breaks = Some(0);
            }
            _ => {
                close_previous(&mut tokens, &mut pending, breaks);
                let blank_before = breaks.unwrap_or(0) >= 2;
                tokens.push(Token {
                    range,
                    leading: std::mem::take(&mut pending),
                    trailing: Vec::new(),
                    blank_before,
                });
                breaks = Some(0);
            }
        }
    }
    // The end of the file ends the line of the last comment.
    close_previous(&mut tokens, &mut pending, Some(1));
    Tokens {
        tokens,
        end_comments: pending,
    }
}

/// Records whether a line break follows the last comment seen.
fn close_previous(tokens: &mut [Token], pending: &mut [Comment], breaks: Option<usize>) {
    let after = breaks.is_none_or(|b| b > 0);
    let last = match pending.last_mut() {
        Some(comment) => Some(comment),
        None => tokens
            .last_mut()
            .and_then(|token| token.trailing.last_mut()),
    };
    if let Some(comment) = last
        && after
    {
        comment.newline_after = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(text: &str) -> String {
        let tokens = attach(text);
        let mut out = String::new();
        let comment = |c: &Comment| {
            format!(
                "{}{}{}{}",
                if c.blank_before { "B" } else { "" },
                if c.newline_before { "^" } else { "" },
                &text[c.range],
                if c.newline_after { "$" } else { "" }
            )
        };
        for token in &tokens.tokens {
            for c in &token.leading {
                out += &format!("[{}] ", comment(c));
            }
            out += &text[token.range];
            for c in &token.trailing {
                out += &format!(" <{}>", comment(c));
            }
            out += " ";
        }
        for c in &tokens.end_comments {
            out += &format!("[{}] ", comment(c));
        }
        out
    }

    #[test]
    fn placement() {
        assert_eq!(show("a // t\nb"), "a <// t$> b ");
        assert_eq!(show("a /* i */ b"), "a </* i */> b ");
        assert_eq!(show("a\n/* l */ b"), "a [^/* l */] b ");
        assert_eq!(show("a\n\n// own\nb // end"), "a [B^// own$] b <// end$> ");
        assert_eq!(show("// first\na\n// last"), "[^// first$] a [^// last$] ");
        assert_eq!(show("a /* x */\n/* y */ b"), "a </* x */$> [^/* y */] b ");
    }
}
