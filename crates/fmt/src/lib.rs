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
//! an error rather than a text that fails the check. The text is lexed
//! once, for its tree, its comments and the check.
//!
//! A large text is formatted in pieces of whole items, at once on every
//! core ([`format_in_pieces`]): each piece is parsed, formatted, checked
//! and freed on its own, and the outputs are joined, the same bytes as
//! the whole text formatted at once.

mod comments;
mod doc;
mod walk;

use easyflow_syntax::{Lexed, LexedParse, Parse, SyntaxKind};

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
    // In the pieces the parser cuts a large text into, each small enough
    // that its tokens and tree stay in the cache, and many per thread, so
    // that the threads finish about together and each holds the tree of
    // one piece at a time, not the whole text's.
    let pieces = easyflow_syntax::piece_count(text);
    if pieces > 1
        && let Some(formatted) = format_in_pieces(text, options, pieces)
    {
        return Ok(formatted);
    }
    let LexedParse { lexed, parse } = easyflow_syntax::parse_keeping_tokens(text);
    let formatted = format_tokens(text, &lexed, &parse, options, None)?;
    // The tree is freed before the output is lexed and parsed for the check.
    drop(parse);
    check_output(text, &lexed, &formatted)?;
    Ok(formatted)
}

/// [`format`] for a text already parsed (`parse` must be the parse of `text`).
pub fn format_parsed(text: &str, parse: &Parse, options: &Options) -> Result<String, FormatError> {
    let lexed = easyflow_syntax::lex(text);
    let formatted = format_tokens(text, &lexed, parse, options, None)?;
    check_output(text, &lexed, &formatted)?;
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
    format_tokens(text, &easyflow_syntax::lex(text), parse, options, None)
}

/// [`format`] one piece of `text` after another, on every core, when the
/// text can be cut into `pieces` pieces that stand alone (cut as the
/// parser cuts a large text; each piece without syntax errors, and
/// ending and beginning items: `easyflow_syntax::ends_an_item`), and each
/// piece's output passes the check and stands alone too. Each piece's tree
/// lives only while it is formatted. `None` when the text cannot be cut so
/// (a text with syntax errors among them), or when any piece fails:
/// [`format`] then formats the whole text at once, and says why not.
///
/// A piece begins with an item and the one before it ends with a `;`, then
/// exactly one empty line (`easyflow_syntax::pieces`), where the formatter
/// writes one empty line: the whole text's output is the pieces' outputs,
/// each but the last ending with a line break, joined by one more line
/// break, in the line ending of the whole text.
#[doc(hidden)]
pub fn format_in_pieces(text: &str, options: &Options, pieces: usize) -> Option<String> {
    use rayon::prelude::*;
    let bounds = easyflow_syntax::pieces(text, pieces);
    if bounds.len() < 2 {
        return None;
    }
    // That of the first piece's lexing, checked below; a line break inside
    // a comment or string at the top of a file may make this guess wrong.
    let line_ending = match text.find(['\n', '\r']) {
        Some(at) if text[at..].starts_with("\r\n") => "\r\n",
        _ => "\n",
    };
    let last = bounds.len() - 1;
    let stands_alone = |lexed: &Lexed, k: usize| {
        (k == 0 || easyflow_syntax::starts_an_item(lexed))
            && (k == last || easyflow_syntax::ends_an_item(lexed))
    };
    let outputs: Option<Vec<String>> = bounds
        .par_iter()
        .enumerate()
        .map(|(k, bounds)| {
            let piece = &text[bounds.clone()];
            let LexedParse { lexed, parse } = easyflow_syntax::parse_keeping_tokens(piece);
            if !parse.errors().is_empty()
                || !stands_alone(&lexed, k)
                || (k == 0 && comments::line_ending(piece, &lexed) != line_ending)
            {
                return None;
            }
            let formatted =
                format_tokens(piece, &lexed, &parse, options, Some(line_ending)).ok()?;
            drop(parse);
            let output_lexed = check_output(piece, &lexed, &formatted).ok()?;
            stands_alone(&output_lexed, k).then_some(formatted)
        })
        .collect();
    let outputs = outputs?;
    let len = outputs.iter().map(String::len).sum::<usize>() + last * line_ending.len();
    let mut formatted = String::with_capacity(len);
    for (k, output) in outputs.iter().enumerate() {
        if k > 0 {
            formatted.push_str(line_ending);
        }
        formatted.push_str(output);
    }
    Some(formatted)
}

/// Formats `text`, lexed as `lexed` and parsed as `parse`, without the
/// check; with the line ending `line_ending` (that of a whole text of which
/// `text` is a piece), else that of `text`.
fn format_tokens(
    text: &str,
    lexed: &Lexed,
    parse: &Parse,
    options: &Options,
    line_ending: Option<&'static str>,
) -> Result<String, FormatError> {
    if !parse.errors().is_empty() {
        return Err(FormatError::Syntax(parse.errors().to_vec()));
    }
    let tokens = comments::attach(text, lexed);
    let printer = doc::Printer::new(
        options.width.max(1),
        options.indent,
        line_ending.unwrap_or(tokens.line_ending),
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
    comments::line_ending(text, &easyflow_syntax::lex(text))
}

/// The tokens and comments of a text that the formatter must keep, in order:
/// every non-trivia token and comment except `;` (the parser checks where
/// they stand) and a `,` whose next token (comments aside) is `)` (the
/// normalised trailing comma). A `,` that follows comments is listed before
/// them: the formatter writes `x = 1, // c` for `x = 1 // c` then `, y`.
pub fn kept_tokens(text: &str) -> Vec<&str> {
    let mut kept = Vec::new();
    for_each_kept(text, &easyflow_syntax::lex(text), |token| kept.push(token));
    kept
}

/// Calls `keep` with each of the [`kept_tokens`] of `text`, lexed as
/// `lexed`, in order: the check compares the output's with the input's
/// without listing them.
fn for_each_kept<'t>(text: &'t str, lexed: &Lexed, mut keep: impl FnMut(&'t str)) {
    // The last `,` while only comments follow it (a `)` next drops it),
    // and the comments that stood before it (it is listed before them).
    let mut comma: Option<&str> = None;
    let mut after_comma: Vec<&str> = Vec::new();
    // The comments since the last token or `,`: a `,` next goes before them.
    let mut comments: Vec<&str> = Vec::new();
    for index in 0..lexed.len() {
        let kind = lexed.kind(index);
        match kind {
            SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE | SyntaxKind::SEMICOLON => {}
            SyntaxKind::LINE_COMMENT | SyntaxKind::BLOCK_COMMENT => {
                comments.push(lexed.text(text, index));
            }
            SyntaxKind::COMMA => {
                if let Some(previous) = comma.replace(lexed.text(text, index)) {
                    keep(previous);
                }
                after_comma.drain(..).for_each(&mut keep);
                std::mem::swap(&mut after_comma, &mut comments);
            }
            _ => {
                if let Some(previous) = comma.take()
                    && kind != SyntaxKind::R_PAREN
                {
                    keep(previous);
                }
                after_comma.drain(..).for_each(&mut keep);
                comments.drain(..).for_each(&mut keep);
                keep(lexed.text(text, index));
            }
        }
    }
    comma.into_iter().for_each(&mut keep);
    after_comma.into_iter().for_each(&mut keep);
    comments.into_iter().for_each(keep);
}

/// For each comment of `text`, in order, whether it stands at the start of
/// its line (`false`: after code on its line). The formatter keeps this.
#[doc(hidden)]
pub fn comment_positions(text: &str) -> Vec<bool> {
    let tokens = comments::attach(text, &easyflow_syntax::lex(text));
    tokens
        .all_comments()
        .iter()
        .map(|c| c.newline_before)
        .collect()
}

/// The check [`format`] makes of its output: its parse has no error (no
/// tree is built for it) and it keeps the tokens of the input, lexed as
/// `input_lexed`. The output's tokens, for a caller that checks more.
fn check_output(input: &str, input_lexed: &Lexed, output: &str) -> Result<Lexed, FormatError> {
    let lexed = easyflow_syntax::lex(output);
    if let Some(error) = easyflow_syntax::syntax_errors(output, &lexed).first() {
        return Err(FormatError::Internal(format!(
            "the output has a syntax error: {} {}",
            error.code, error.message
        )));
    }
    let mut input_kept = Vec::new();
    for_each_kept(input, input_lexed, |token| input_kept.push(token));
    let mut expected = input_kept.into_iter();
    let mut same = true;
    for_each_kept(output, &lexed, |token| {
        same &= expected.next() == Some(token)
    });
    if !same || expected.next().is_some() {
        return Err(FormatError::Internal(
            "the output's tokens or comments differ from the input's".into(),
        ));
    }
    Ok(lexed)
}
