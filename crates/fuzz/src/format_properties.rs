//! The properties of `formatting.md`, checked on one text: the oracle of the
//! `format` fuzz target, and of the formatter's case tests, its property
//! tests over every test flow, and proptest.

use easyflow_db::{Database, SourceFile};
use easyflow_fmt::{
    FormatError, Options, comment_positions, format, format_in_pieces, kept_tokens,
};
use easyflow_syntax::{SyntaxKind, lex, parse};

/// The numbers of pieces a text is cut into for [`format_in_pieces`]
/// (where it can be cut: a large text's pieces are many).
const PIECES: [usize; 3] = [2, 3, 7];

/// Checks every property on `text` and returns its formatted text (or the
/// refusal, for a text with syntax errors).
pub fn check_properties(
    text: &str,
    options: &Options,
) -> Result<Result<String, FormatError>, String> {
    let parsed = parse(text);
    let result = format(text, options);
    // 3. Safe: a text with syntax errors is refused.
    if !parsed.errors().is_empty() {
        if let Some(pieces) = PIECES
            .iter()
            .find(|&&n| format_in_pieces(text, options, n).is_some())
        {
            return Err(format!(
                "a text with syntax errors was formatted in {pieces} pieces"
            ));
        }
        return match result {
            Err(FormatError::Syntax(_)) => Ok(result),
            other => Err(format!(
                "a text with syntax errors was not refused: {other:?}"
            )),
        };
    }
    let out = match &result {
        Ok(out) => out,
        Err(e) => return Err(format!("a clean text was not formatted: {e}")),
    };
    // A large text is formatted in pieces, on every core: the same output
    // wherever the text is cut.
    for pieces in PIECES {
        if let Some(in_pieces) = format_in_pieces(text, options, pieces)
            && in_pieces != *out
        {
            return Err(format!(
                "formatted in {pieces} pieces, the text differs:\n{in_pieces}\n--- vs ---\n{out}"
            ));
        }
    }
    // 1. Idempotent.
    match format(out, options) {
        Ok(again) if again == *out => {}
        Ok(again) => {
            return Err(format!(
                "not idempotent:\n--- first ---\n{out}\n--- second ---\n{again}"
            ));
        }
        Err(e) => return Err(format!("the output does not format again: {e}\n{out}")),
    }
    // 2. Meaning-preserving: tokens and comments, comments' places, diagnostics.
    if !parse(out).errors().is_empty() {
        return Err("the output has syntax errors".into());
    }
    if kept_tokens(text) != kept_tokens(out) {
        return Err("tokens or comments differ".into());
    }
    let (before, after) = (comment_positions(text), comment_positions(out));
    if before != after {
        return Err(format!(
            "a comment moved between its own line and after code: {before:?} → {after:?}"
        ));
    }
    if diagnostics(text) != diagnostics(out) {
        return Err(format!(
            "the diagnostics differ:\n{:?}\n{:?}",
            diagnostics(text),
            diagnostics(out)
        ));
    }
    // Line endings: all of the first line's.
    let newline = easyflow_fmt::line_ending(text);
    if let Some(line) = lines_outside_tokens(out)
        .iter()
        .find(|l| l.ending.is_some_and(|e| e != newline))
    {
        return Err(format!(
            "a line ends in {:?}, not {newline:?}: {:?}",
            line.ending, line.text
        ));
    }
    // 5. Width.
    if let Some(line) = overlong_line(out, options.width) {
        return Err(format!(
            "a line is longer than {} and could be broken: {line:?}",
            options.width
        ));
    }
    let lexed = lex(out);
    if let Some(i) = (0..lexed.len()).find(|&i| {
        lexed.kind(i) == SyntaxKind::WHITESPACE
            && (i + 1 == lexed.len() || lexed.kind(i + 1) == SyntaxKind::NEWLINE)
    }) {
        return Err(format!("trailing whitespace at {:?}", lexed.range(i)));
    }
    // 4. Stable: the same tokens spread differently format the same.
    // (Blank lines between items are kept, so the comparison with `out`
    // needs a text without any.)
    let has_blank_line = out.lines().any(|line| line.trim().is_empty());
    if !has_comments(text) {
        let out = if has_blank_line {
            &format(&respread(text, easyflow_fmt::line_ending(text)), options)
                .map_err(|e| e.to_string())?
        } else {
            out
        };
        let newline = easyflow_fmt::line_ending(text);
        for separator in [" ", newline] {
            let spread = respread(text, separator);
            if easyflow_fmt::line_ending(&spread) != newline {
                continue; // the output's line ending is the first line's
            }
            match format(&spread, options) {
                Ok(other) if other == *out => {}
                other => {
                    return Err(format!(
                        "not stable: tokens separated by {separator:?} format differently:\n{other:?}\n--- vs ---\n{out}"
                    ));
                }
            }
        }
    }
    Ok(result)
}

/// The diagnostics that matter for meaning: code, severity, message, in order.
/// The rules' diagnostics, before allow comments silence any: those
/// comments apply to lines, which formatting may join or break (a trailing
/// comment then ends another line), while the flow's meaning stays.
fn diagnostics(text: &str) -> Vec<String> {
    let db = Database::default();
    let file = SourceFile::new(&db, "a.flow".into(), text.into());
    easyflow_db::diagnostics::rule_diagnostics(&db, file)
        .iter()
        .map(|d| format!("{} {:?} {}", d.code, d.code.severity(), d.message))
        .collect()
}

fn has_comments(text: &str) -> bool {
    let lexed = lex(text);
    lexed
        .kinds()
        .iter()
        .any(|k| matches!(k, SyntaxKind::LINE_COMMENT | SyntaxKind::BLOCK_COMMENT))
}

/// The non-trivia tokens of `text` joined by `separator` (`~` stays glued to
/// `step`: the parser requires it).
fn respread(text: &str, separator: &str) -> String {
    let lexed = lex(text);
    let mut out = String::new();
    let mut glue = true;
    for i in 0..lexed.len() {
        if lexed.kind(i).is_trivia() {
            continue;
        }
        if !glue {
            out.push_str(separator);
        }
        out.push_str(lexed.text(text, i));
        glue = lexed.kind(i) == SyntaxKind::TILDE;
    }
    out
}

struct Line<'a> {
    text: &'a str,
    ending: Option<&'a str>,
}

/// The lines of `out` whose line break is not inside a token (string,
/// comment, code block).
fn lines_outside_tokens(out: &str) -> Vec<Line<'_>> {
    let lexed = lex(out);
    let mut lines = Vec::new();
    let mut start = 0;
    for i in 0..lexed.len() {
        if lexed.kind(i) == SyntaxKind::NEWLINE {
            let range = lexed.range(i);
            let text = &out[start..usize::from(range.start())];
            let breaks = lexed.text(out, i);
            let ending = if breaks.starts_with("\r\n") {
                "\r\n"
            } else if breaks.starts_with('\n') {
                "\n"
            } else {
                "\r"
            };
            lines.push(Line {
                text,
                ending: Some(ending),
            });
            start = usize::from(range.end());
        }
    }
    lines
}

/// A line longer than `width` that is not excused: lines a multi-line token
/// spans are not measured, nor trailing comments; a line with a block
/// comment is excused (the comment stays where it is, inside its line,
/// before or after code), and so is a line of at most two words (runs of glued tokens, such
/// as `sweep "a long string",` or `A.outs["x"],`), or one with a word that
/// alone does not fit beside the indentation, or one that opens a list (a
/// list stays on the line of its `=`). The formatter never breaks before an
/// empty `()` or `[]`, nor between `=` (and `sweep`) and a list: each counts
/// as part of the word before it ([`unbreakable_words`]).
fn overlong_line(out: &str, width: usize) -> Option<String> {
    let lexed = lex(out);
    let chars = |s: &str| s.chars().count();
    let mut line_start = 0usize;
    let mut measured = 0usize;
    let mut excused = false;
    let mut has_code = false;
    // Words: runs of tokens with no whitespace between them.
    let mut words: Vec<String> = Vec::new();
    let mut glued = false;
    for i in 0..=lexed.len() {
        let (kind, text, start) = if i < lexed.len() {
            (
                lexed.kind(i),
                lexed.text(out, i),
                usize::from(lexed.range(i).start()),
            )
        } else {
            (SyntaxKind::NEWLINE, "", out.len())
        };
        if kind == SyntaxKind::NEWLINE {
            let line = &out[line_start..start];
            let indent = line.len() - line.trim_start().len();
            let units = unbreakable_words(&words);
            let longest = units.iter().map(|w| chars(w)).max().unwrap_or(0);
            // A list opens on the line of its `=`: `name = sweep [` cannot break.
            let opens_list = line.trim_end().ends_with('[');
            if measured > width
                && !excused
                && !opens_list
                && units.len() > 2
                && longest + indent <= width
            {
                return Some(line.to_string());
            }
            line_start = start + text.len();
            (measured, excused, has_code, glued) = (0, false, false, false);
            words.clear();
            continue;
        }
        if kind == SyntaxKind::WHITESPACE {
            glued = false;
            continue;
        }
        if text.contains(['\n', '\r']) {
            excused = true;
        }
        let is_comment = matches!(kind, SyntaxKind::LINE_COMMENT | SyntaxKind::BLOCK_COMMENT);
        if is_comment && has_code {
            let next_is_newline = i + 1 >= lexed.len()
                || lexed.kind(i + 1) == SyntaxKind::NEWLINE
                || (lexed.kind(i + 1) == SyntaxKind::WHITESPACE
                    && (i + 2 >= lexed.len() || lexed.kind(i + 2) == SyntaxKind::NEWLINE));
            if next_is_newline {
                continue; // a trailing comment
            }
        }
        // A block comment stays where it was in its line, before or after code.
        excused |= kind == SyntaxKind::BLOCK_COMMENT;
        has_code |= !is_comment;
        match words.last_mut() {
            Some(word) if glued => word.push_str(text),
            _ => words.push(text.to_string()),
        }
        glued = true;
        measured = chars(&out[line_start..usize::from(lexed.range(i).end())]);
    }
    None
}

/// `words` joined where the formatter cannot break between them: an empty
/// `()` or `[]` and the word before it (also a `(` that ends the line: the
/// list holds only comments), and a list with the `name =` (or
/// `name = sweep`) before it (also a `name = sweep` that ends the line).
fn unbreakable_words(words: &[String]) -> Vec<String> {
    let mut joined: Vec<String> = Vec::with_capacity(words.len());
    for (i, word) in words.iter().enumerate() {
        let mut word = word.clone();
        let last = i + 1 == words.len();
        let empty = word.starts_with("()") || word.starts_with("[]") || (word == "(" && last);
        // A list, or the `sweep` of one whose `[` a comment sent to the next line.
        if word.starts_with('[') || (word == "sweep" && last) {
            // Back over `sweep`, then `=` or `<-`, then the name.
            let mut glue = |joined: &mut Vec<String>, is: &dyn Fn(&str) -> bool| {
                if joined.last().is_some_and(|w| is(w)) {
                    word = format!("{} {word}", joined.pop().unwrap_or_default());
                    true
                } else {
                    false
                }
            };
            glue(&mut joined, &|w| w == "sweep");
            if glue(&mut joined, &|w| w == "=" || w == "<-") {
                glue(&mut joined, &|_| true);
            }
        }
        match joined.last_mut() {
            Some(last) if empty => {
                last.push(' ');
                last.push_str(&word);
            }
            _ => joined.push(word),
        }
    }
    joined
}
