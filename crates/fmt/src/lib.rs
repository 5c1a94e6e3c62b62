//! The EasyFlow formatter (`formatting.md`): the canonical layout of a flow,
//! changing only whitespace, plus a `;` after every step and a trailing comma
//! after the last parameter of a multi-line parameter list (none after that
//! of a one-line list).
//!
//! Three stages, each knowing nothing of the next:
//! 1. [`comments`]: every comment is attached to a token, as leading (on its
//!    own line, or before code at a line start) or trailing (after code on
//!    its line), with where the line breaks and blank lines were;
//! 2. [`walk`]: the lossless tree, which must have no syntax error, becomes
//!    a small document IR (groups, indents, soft, normal and hard lines,
//!    texts; [`doc`]) in which every layout decision is made;
//! 3. [`doc::Printer`]: a Wadler/Prettier printer fits each group to the
//!    width, flat or broken, one top-level item after another.
//!
//! [`format`] then checks its own output (it parses without errors, and has
//! the same tokens and comments modulo the two normalisations) and returns
//! an error rather than a text that fails the check.

mod comments;
mod doc;
mod walk;

use easyflow_syntax::{Lexed, Parse, SyntaxKind, parse};

pub use easyflow_diagnostics::Diagnostic;

/// The `[format]` settings of `easyflow.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The maximum line width, in characters (Unicode scalar values).
    pub width: usize,
    /// Spaces per indentation level.
    pub indent: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            width: 100,
            indent: 2,
        }
    }
}

/// Why a text was not formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// The text has syntax errors (E01xx): it is never formatted.
    Syntax(Vec<Diagnostic>),
    /// The formatter's output failed its own check: a bug in the formatter,
    /// reported instead of writing a text that might differ in meaning.
    Internal(String),
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Syntax(errors) => write!(
                f,
                "not formatted: {} syntax error{}",
                errors.len(),
                if errors.len() == 1 { "" } else { "s" }
            ),
            FormatError::Internal(why) => {
                write!(f, "not formatted: internal formatter error: {why}")
            }
        }
    }
}

impl std::error::Error for FormatError {}

/// Formats `text`, or says why not. The output is checked (see the crate's
/// documentation) before it is returned.
pub fn format(text: &str, options: &Options) -> Result<String, FormatError> {
    let parse = parse(text);
    let formatted = format_unchecked(text, &parse, options)?;
    // The input's tree is freed before the output's is built for the
    // check: a large flow's trees are many times its size.
    drop(parse);
    check_output(text, &formatted)?;
    Ok(formatted)
}

/// [`format`] for a text already parsed (`parse` must be the parse of `text`).
pub fn format_parsed(text: &str, parse: &Parse, options: &Options) -> Result<String, FormatError> {
    let formatted = format_unchecked(text, parse, options)?;
    check_output(text, &formatted)?;
    Ok(formatted)
}

/// The formatter without the check of its output: for benchmarks, and for
/// the tests that check the same properties more thoroughly.
#[doc(hidden)]
pub fn format_unchecked(
    text: &str,
    parse: &Parse,
    options: &Options,
) -> Result<String, FormatError> {
    if !parse.errors().is_empty() {
        return Err(FormatError::Syntax(parse.errors().to_vec()));
    }
    let tokens = comments::attach(text);
    let printer = doc::Printer::new(
        options.width.max(1),
        options.indent,
        tokens.line_ending,
        text.len() + text.len() / 8,
    );
    let mut walker = walk::Walker::new(text, tokens, printer);
    walker
        .source_file(&easyflow_syntax::green::GreenRef::root(parse.green()))
        .map_err(|e| FormatError::Internal(e.0))?;
    Ok(walker.finish())
}

/// The line ending of the output: that of the input's first line break
/// outside tokens (one inside a block comment, string or code block is
/// part of that token), `\n` when there is none. (The first line break of
/// the text would not do: formatting can move a multi-line comment to the
/// first line, and the next formatting would then pick another ending.)
pub fn line_ending(text: &str) -> &'static str {
    comments::attach(text).line_ending
}

/// The tokens and comments of a text that the formatter must keep, in order:
/// every non-trivia token and comment except `;` (the parser checks where
/// they stand) and a `,` whose next token (comments aside) is `)` (the
/// normalised trailing comma). A `,` that follows comments is listed before
/// them: the formatter writes `x = 1, // c` for `x = 1 // c` then `, y`.
pub fn kept_tokens(text: &str) -> Vec<&str> {
    kept_tokens_of(text, &easyflow_syntax::lex(text))
}

/// [`kept_tokens`] of a text already lexed.
fn kept_tokens_of<'t>(text: &'t str, lexed: &Lexed) -> Vec<&'t str> {
    let mut kept: Vec<&str> = Vec::with_capacity(lexed.len() / 2);
    // Where the last `,` stands in `kept`, while only comments follow it.
    let mut last_comma: Option<usize> = None;
    // Where the current run of comments begins in `kept`.
    let mut comments_from: Option<usize> = None;
    for index in 0..lexed.len() {
        let kind = lexed.kind(index);
        let token = lexed.text(text, index);
        match kind {
            SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE | SyntaxKind::SEMICOLON => {}
            SyntaxKind::LINE_COMMENT | SyntaxKind::BLOCK_COMMENT => {
                comments_from.get_or_insert(kept.len());
                kept.push(token);
            }
            SyntaxKind::COMMA => {
                let at = comments_from.take().unwrap_or(kept.len());
                kept.insert(at, token);
                last_comma = Some(at);
            }
            _ => {
                if kind == SyntaxKind::R_PAREN
                    && let Some(at) = last_comma
                {
                    kept.remove(at);
                }
                last_comma = None;
                comments_from = None;
                kept.push(token);
            }
        }
    }
    kept
}

/// For each comment of `text`, in order, whether it stands at the start of
/// its line (`false`: after code on its line). The formatter keeps this.
#[doc(hidden)]
pub fn comment_positions(text: &str) -> Vec<bool> {
    let tokens = comments::attach(text);
    tokens
        .all_comments()
        .iter()
        .map(|c| c.newline_before)
        .collect()
}

/// The check [`format`] makes of its output: its parse has no error (no
/// tree is built for it) and it keeps the input's tokens. The input's
/// tokens are listed on another core while the output is lexed and parsed.
fn check_output(input: &str, output: &str) -> Result<(), FormatError> {
    let (input_kept, (first_error, output_kept)) = rayon::join(
        || kept_tokens(input),
        || {
            let lexed = easyflow_syntax::lex(output);
            let first_error = easyflow_syntax::syntax_errors(output, &lexed)
                .into_iter()
                .next();
            (first_error, kept_tokens_of(output, &lexed))
        },
    );
    if let Some(error) = first_error {
        return Err(FormatError::Internal(format!(
            "the output has a syntax error: {} {}",
            error.code, error.message
        )));
    }
    if input_kept != output_kept {
        return Err(FormatError::Internal(
            "the output's tokens or comments differ from the input's".into(),
        ));
    }
    Ok(())
}
