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

use easyflow_syntax::{Lexed, SyntaxKind, TextRange};

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

/// One non-trivia token; its comments are in [`Tokens::comments`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token {
    pub(crate) range: TextRange,
    /// Its leading comments are `comments[leading_from..trailing_from]`,
    /// its trailing ones `comments[trailing_from..trailing_to]`.
    leading_from: u32,
    trailing_from: u32,
    trailing_to: u32,
    /// An empty line comes right before it (after its leading comments).
    pub(crate) blank_before: bool,
    /// It is a `,` or a `;`, which the comment ending the line before may
    /// move after (see [`move_line_ends_to_separators`]).
    pub(crate) is_separator: bool,
}

/// The tokens of a text, and its comments in order (one table for all:
/// most tokens have none); the comments after the last token that are not
/// trailing comments of it belong to the end of the file.
pub(crate) struct Tokens {
    pub(crate) tokens: Vec<Token>,
    comments: Vec<Comment>,
    /// The first line break outside tokens: `\r\n`, or `\n` (also when there is none).
    pub(crate) line_ending: &'static str,
}

impl Tokens {
    pub(crate) fn leading(&self, index: usize) -> &[Comment] {
        let token = &self.tokens[index];
        &self.comments[token.leading_from as usize..token.trailing_from as usize]
    }

    pub(crate) fn trailing(&self, index: usize) -> &[Comment] {
        let token = &self.tokens[index];
        &self.comments[token.trailing_from as usize..token.trailing_to as usize]
    }

    pub(crate) fn end_comments(&self) -> &[Comment] {
        let from = self.tokens.last().map_or(0, |t| t.trailing_to as usize);
        &self.comments[from..]
    }

    pub(crate) fn all_comments(&self) -> &[Comment] {
        &self.comments
    }
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

/// The tokens and comments of `text`, lexed as `lexed`.
pub(crate) fn attach(text: &str, lexed: &Lexed) -> Tokens {
    let mut tokens: Vec<Token> = Vec::with_capacity(lexed.len() / 2 + 1);
    let mut comments: Vec<Comment> = Vec::new();
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
                close_previous(&tokens, &mut comments, breaks);
                comments.push(Comment {
                    range,
                    newline_before,
                    newline_after: false,
                    blank_before: breaks.unwrap_or(0) >= 2,
                });
                match tokens.last_mut() {
                    // On the line of the token before, with nothing but
                    // trailing comments between.
                    Some(token)
                        if !newline_before && token.trailing_to as usize == comments.len() - 1 =>
                    {
                        token.trailing_to += 1;
                    }
                    _ => {}
                }
                breaks = Some(0);
            }
            _ => {
                close_previous(&tokens, &mut comments, breaks);
                let leading_from = tokens.last().map_or(0, |t| t.trailing_to);
                let end = comments.len() as u32;
                tokens.push(Token {
                    range,
                    leading_from,
                    trailing_from: end,
                    trailing_to: end,
                    blank_before: breaks.unwrap_or(0) >= 2,
                    is_separator: matches!(kind, SyntaxKind::COMMA | SyntaxKind::SEMICOLON),
                });
                breaks = Some(0);
            }
        }
    }
    // The end of the file ends the line of the last comment.
    close_previous(&tokens, &mut comments, Some(1));
    move_line_ends_to_separators(&mut tokens, &comments);
    Tokens {
        tokens,
        comments,
        line_ending: line_ending(text, lexed),
    }
}

/// The first line break outside tokens of `text`, lexed as `lexed`: `\r\n`,
/// or `\n` (also when there is none).
pub(crate) fn line_ending(text: &str, lexed: &Lexed) -> &'static str {
    let first = (0..lexed.len()).find(|&index| lexed.kind(index) == SyntaxKind::NEWLINE);
    match first {
        Some(index) if lexed.text(text, index).starts_with("\r\n") => "\r\n",
        _ => "\n",
    }
}

/// The comment that ends the line of a token followed by a `,` or `;` on a
/// later line (`x = 1 // c` then `, y`) becomes a trailing comment of that
/// `,` or `;`, which the formatter writes before it (`x = 1, // c`): it is
/// attached then as it will be once formatted, so that it breaks the same
/// groups on the first formatting as on the next. Not when the `,` or `;`
/// has comments of its own: it then stays after the comment, on its line.
fn move_line_ends_to_separators(tokens: &mut [Token], comments: &[Comment]) {
    for i in 1..tokens.len() {
        let (before, rest) = tokens.split_at_mut(i);
        let (previous, token) = (&mut before[i - 1], &mut rest[0]);
        let has_own_comments = token.leading_from != token.trailing_to;
        let ends_line = previous.trailing_to > previous.trailing_from
            && comments[previous.trailing_to as usize - 1].newline_after;
        if ends_line && !has_own_comments && token.is_separator {
            previous.trailing_to -= 1;
            token.leading_from = previous.trailing_to;
            token.trailing_from = previous.trailing_to;
        }
    }
}

/// Records whether a line break follows the last comment seen (when no
/// token came after it).
fn close_previous(tokens: &[Token], comments: &mut [Comment], breaks: Option<usize>) {
    let after_last_token = tokens
        .last()
        .is_none_or(|t| comments.len() > t.trailing_from as usize);
    if let Some(comment) = comments.last_mut()
        && after_last_token
        && breaks.is_none_or(|b| b > 0)
    {
        comment.newline_after = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(text: &str) -> String {
        let tokens = attach(text, &easyflow_syntax::lex(text));
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
        for (i, token) in tokens.tokens.iter().enumerate() {
            for c in tokens.leading(i) {
                out += &format!("[{}] ", comment(c));
            }
            out += &text[token.range];
            for c in tokens.trailing(i) {
                out += &format!(" <{}>", comment(c));
            }
            out += " ";
        }
        for c in tokens.end_comments() {
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
        // The comment that ends a line goes to the `,` or `;` after it.
        assert_eq!(show("a // c\n, b"), "a , <// c$> b ");
        assert_eq!(show("a /* i */ // c\n;"), "a </* i */> ; <// c$> ");
        assert_eq!(show("a // c\n, // d\nb"), "a <// c$> , <// d$> b ");
    }
}
