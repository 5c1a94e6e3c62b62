//! The lexer: logos for the regular tokens, plus a small driver for what a
//! regular language cannot say (code blocks that close at the start of a
//! line, merged runs of bad characters, escape and overflow checks).
//!
//! Every byte of the input ends up in exactly one token, trivia included.

use easyflow_diagnostics::{Code, Diagnostic, TextRange, TextSize};
use logos::Logos;

use crate::SyntaxKind::{self, *};
use crate::string_literal::escape_len;

/// The tokens of one text: kinds and start offsets, plus lexical errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lexed {
    kinds: Vec<SyntaxKind>,
    /// `starts[i]` is where token `i` begins; one extra entry holds the text length.
    starts: Vec<u32>,
    pub errors: Vec<Diagnostic>,
}

impl Lexed {
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    pub fn kind(&self, index: usize) -> SyntaxKind {
        self.kinds[index]
    }

    pub fn kinds(&self) -> &[SyntaxKind] {
        &self.kinds
    }

    /// Where each token begins, and after them the text's length.
    pub(crate) fn starts(&self) -> &[u32] {
        &self.starts
    }

    pub fn range(&self, index: usize) -> TextRange {
        TextRange::new(self.starts[index].into(), self.starts[index + 1].into())
    }

    pub fn text<'a>(&self, source: &'a str, index: usize) -> &'a str {
        &source[self.range(index)]
    }
}

/// Whether `error` is an unterminated string, comment or code block: the
/// token ran to the end of the text, swallowing whatever followed.
pub(crate) fn is_unterminated(error: &Diagnostic) -> bool {
    matches!(error.code, Code::E0102 | Code::E0104 | Code::E0105)
}

/// Errors found inside tokens by logos callbacks.
#[derive(Default)]
pub struct LexExtras {
    errors: Vec<Diagnostic>,
}

/// Splits `text` into tokens. Never fails: what begins no token becomes an
/// `ERROR` token with a diagnostic.
pub fn lex(text: &str) -> Lexed {
    lex_tokens::<false>(text).0
}

/// A non-trivia token: what the parser looks at.
#[derive(Clone, Copy)]
pub(crate) struct SignificantToken {
    pub(crate) kind: SyntaxKind,
    /// Its index in the [`Lexed`] tokens.
    pub(crate) index: u32,
}

/// [`lex`], and the non-trivia tokens for the parser, found as they are
/// lexed.
pub(crate) fn lex_for_parser(text: &str) -> (Lexed, Vec<SignificantToken>) {
    lex_tokens::<true>(text)
}

/// The non-trivia tokens of `lexed`.
pub(crate) fn significant_tokens(lexed: &Lexed) -> Vec<SignificantToken> {
    let mut tokens = Vec::with_capacity(lexed.len());
    for (index, &kind) in lexed.kinds.iter().enumerate() {
        if !kind.is_trivia() {
            tokens.push(SignificantToken {
                kind,
                index: index as u32,
            });
        }
    }
    tokens
}

/// The tokens of one text as they are found: with `SIGNIFICANT`, the
/// non-trivia ones on their own too.
struct TokenSink<const SIGNIFICANT: bool> {
    kinds: Vec<SyntaxKind>,
    starts: Vec<u32>,
    significant: Vec<SignificantToken>,
}

impl<const SIGNIFICANT: bool> TokenSink<SIGNIFICANT> {
    #[inline(always)]
    fn push(&mut self, kind: SyntaxKind, start: u32) {
        if SIGNIFICANT && !kind.is_trivia() {
            self.significant.push(SignificantToken {
                kind,
                index: self.kinds.len() as u32,
            });
        }
        self.kinds.push(kind);
        self.starts.push(start);
    }
}

fn lex_tokens<const SIGNIFICANT: bool>(text: &str) -> (Lexed, Vec<SignificantToken>) {
    assert!(
        u32::try_from(text.len()).is_ok(),
        "texts over 4 GiB are not supported"
    );
    let mut lexer = SyntaxKind::lexer(text);
    // A typical flow has a token every 3 bytes or so: reserving a little more
    // saves regrowing (copying, page faults) the vectors on large texts.
    let mut tokens = TokenSink::<SIGNIFICANT> {
        kinds: Vec::with_capacity(text.len() / 2 + 1),
        starts: Vec::with_capacity(text.len() / 2 + 2),
        // One token in two or three is trivia.
        significant: Vec::with_capacity(if SIGNIFICANT { text.len() / 4 + 1 } else { 0 }),
    };
    let mut errors = Vec::new();
    // Set after `pre`/`post` (and kept over trivia): the word `code` then opens a block.
    let mut code_block_may_follow = false;
    // The code and start of the current run of bad characters, if any.
    let mut bad_run: Option<(Code, u32)> = None;

    while let Some(result) = lexer.next() {
        let span = lexer.span();
        let start = span.start as u32;
        if bad_run.is_some() && !matches!(result, Ok(ERROR) | Err(_)) {
            finish_bad_run(text, start, &mut bad_run, &mut errors);
        }
        match result {
            Ok(IDENT) if code_block_may_follow && lexer.slice() == "code" => {
                let (len, terminated) = code_block_len(&text[span.start..]);
                lexer.bump(len - "code".len());
                if !terminated {
                    errors.push(Diagnostic::new(
                        Code::E0105,
                        TextRange::at(start.into(), TextSize::of("code")),
                        "unterminated code block: no line starting with `code end`",
                    ));
                }
                tokens.push(CODE_BLOCK, start);
                code_block_may_follow = false;
            }
            Ok(kind) if kind != ERROR => {
                if kind == INT {
                    check_integer(lexer.slice(), start, &mut errors);
                }
                if !kind.is_trivia() {
                    code_block_may_follow = matches!(kind, PRE_KW | POST_KW);
                }
                tokens.push(kind, start);
            }
            bad => {
                // A word with non-ASCII letters (`Ok(ERROR)`) or a character that
                // begins no token (`Err`): adjacent ones form one token, whose
                // code is decided by how the run begins.
                code_block_may_follow = false;
                if bad_run.is_none() {
                    let code = if bad.is_ok() {
                        Code::E0106
                    } else {
                        Code::E0101
                    };
                    tokens.push(ERROR, start);
                    bad_run = Some((code, start));
                }
            }
        }
        // Errors of logos callbacks (strings, comments).
        if !lexer.extras.errors.is_empty() {
            errors.append(&mut lexer.extras.errors);
        }
    }
    finish_bad_run(text, text.len() as u32, &mut bad_run, &mut errors);
    let TokenSink {
        kinds,
        mut starts,
        significant,
    } = tokens;
    starts.push(text.len() as u32);
    errors.sort_by_key(|e| e.range.start());
    let lexed = Lexed {
        kinds,
        starts,
        errors,
    };
    (lexed, significant)
}

/// Reports the run of bad characters that ends at `end`, if one is open.
#[cold]
fn finish_bad_run(
    text: &str,
    end: u32,
    bad_run: &mut Option<(Code, u32)>,
    errors: &mut Vec<Diagnostic>,
) {
    let Some((code, start)) = bad_run.take() else {
        return;
    };
    let range = TextRange::new(start.into(), end.into());
    let message = match code {
        Code::E0106 => {
            format!(
                "`{}`: identifiers must use ASCII letters, digits and `_`",
                &text[range]
            )
        }
        _ => format!("`{}` begins no token", &text[range]),
    };
    errors.push(Diagnostic::new(code, range, message));
}

/// Length of a code block starting at `code`, and whether a `code end` line closes it.
fn code_block_len(rest: &str) -> (usize, bool) {
    let bytes = rest.as_bytes();
    // The first line holds `code` and the language name; closing lines come after it.
    let mut line_start = match bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
        Some(i) => i,
        None => return (rest.len(), false),
    };
    while line_start < bytes.len() {
        // Step over the line break, then check this line.
        while line_start < bytes.len() && (bytes[line_start] == b'\n' || bytes[line_start] == b'\r')
        {
            line_start += 1;
        }
        if let Some(end) = closing_line_end(&bytes[line_start..]) {
            return (line_start + end, true);
        }
        match bytes[line_start..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
        {
            Some(i) => line_start += i,
            None => break,
        }
    }
    (rest.len(), false)
}

/// If `line` begins with `[ \t]*code[ \t]+end` (a whole word), the length of that prefix.
fn closing_line_end(line: &[u8]) -> Option<usize> {
    let is_blank = |b: &u8| *b == b' ' || *b == b'\t';
    let mut i = line.iter().take_while(|b| is_blank(b)).count();
    if !line[i..].starts_with(b"code") {
        return None;
    }
    i += 4;
    let spaces = line[i..].iter().take_while(|b| is_blank(b)).count();
    if spaces == 0 {
        return None;
    }
    i += spaces;
    if !line[i..].starts_with(b"end") {
        return None;
    }
    i += 3;
    match line.get(i) {
        Some(b) if b.is_ascii_alphanumeric() || *b == b'_' => None,
        _ => Some(i),
    }
}

fn check_integer(text: &str, start: u32, errors: &mut Vec<Diagnostic>) {
    if text.parse::<i64>().is_err() {
        errors.push(Diagnostic::new(
            Code::E0107,
            TextRange::at(start.into(), TextSize::of(text)),
            format!("integer `{text}` does not fit in 64 bits"),
        ));
    }
}

/// Callback after `/*`: runs to `*/` or to the end of the text (E0104).
pub(crate) fn lex_block_comment(lexer: &mut logos::Lexer<SyntaxKind>) {
    let rest = lexer.remainder();
    match rest.find("*/") {
        Some(i) => lexer.bump(i + 2),
        None => {
            lexer.bump(rest.len());
            let start = lexer.span().start as u32;
            lexer.extras.errors.push(Diagnostic::new(
                Code::E0104,
                TextRange::at(start.into(), TextSize::from(2)),
                "unterminated block comment: no closing `*/`",
            ));
        }
    }
}

/// Callback after `"`: runs to the closing quote or to the end of the text
/// (E0102), checking escapes on the way (E0103).
pub(crate) fn lex_string(lexer: &mut logos::Lexer<SyntaxKind>) {
    let rest = lexer.remainder().as_bytes();
    let body_start = lexer.span().end;
    let mut i = 0;
    loop {
        match rest[i..].iter().position(|&b| b == b'"' || b == b'\\') {
            None => {
                lexer.bump(rest.len());
                let start = lexer.span().start as u32;
                lexer.extras.errors.push(Diagnostic::new(
                    Code::E0102,
                    TextRange::at(start.into(), TextSize::from(1)),
                    "unterminated string: no closing `\"`",
                ));
                return;
            }
            Some(j) if rest[i + j] == b'"' => {
                lexer.bump(i + j + 1);
                return;
            }
            Some(j) => {
                let escape = i + j;
                let len = escape_len(&rest[escape + 1..]);
                match len {
                    Ok(len) => i = escape + 1 + len,
                    Err(len) => {
                        if escape + 1 + len > rest.len() || len == 0 {
                            // A backslash at the very end: the string is unterminated anyway.
                            i = rest.len().min(escape + 1);
                            continue;
                        }
                        let len = char_boundary(lexer.remainder(), escape + 1 + len) - escape;
                        let at = (body_start + escape) as u32;
                        let range = TextRange::at(at.into(), TextSize::from(len as u32));
                        let seq = &lexer.remainder()[escape..escape + len];
                        lexer.extras.errors.push(Diagnostic::new(
                            Code::E0103,
                            range,
                            format!(
                                "invalid escape sequence `{seq}`: use \\\" \\\\ \\' \\b \\t \\n \\f \\r, \\uXXXX or an octal escape"
                            ),
                        ));
                        i = escape + len;
                    }
                }
            }
        }
    }
}

/// The smallest char boundary of `text` at or after `index`.
fn char_boundary(text: &str, mut index: usize) -> usize {
    while index < text.len() && !text.is_char_boundary(index) {
        index += 1;
    }
    index.min(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(SyntaxKind, &str)> {
        let lexed = lex(text);
        (0..lexed.len())
            .map(|i| (lexed.kind(i), lexed.text(text, i)))
            .collect()
    }

    fn codes(text: &str) -> Vec<(Code, &str)> {
        lex(text)
            .errors
            .iter()
            .map(|e| (e.code, &text[e.range]))
            .collect()
    }

    #[test]
    fn keywords_identifiers_and_contextual_words() {
        assert_eq!(
            kinds("step Step app exec"),
            [
                (STEP_KW, "step"),
                (WHITESPACE, " "),
                (IDENT, "Step"),
                (WHITESPACE, " "),
                (IDENT, "app"),
                (WHITESPACE, " "),
                (IDENT, "exec")
            ]
        );
    }

    #[test]
    fn numbers() {
        for double in [
            "1.", "1.5", ".5", "1e5", "1.5e-3", ".34e10", "5.e-14", "-2.5", "+.5",
        ] {
            assert_eq!(kinds(double), [(DOUBLE, double)], "{double}");
        }
        for int in ["0", "-12", "+7", "9223372036854775807"] {
            assert_eq!(kinds(int), [(INT, int)]);
        }
        assert_eq!(
            codes("9223372036854775808"),
            [(Code::E0107, "9223372036854775808")]
        );
        assert_eq!(codes("-9223372036854775808"), []);
    }

    #[test]
    fn strings_and_escapes() {
        assert_eq!(kinds(r#""a\"b""#), [(STRING, r#""a\"b""#)]);
        assert_eq!(kinds("\"two\nlines\""), [(STRING, "\"two\nlines\"")]);
        assert_eq!(codes(r#""ok \u00e9 \101 \7 \n""#), []);
        assert_eq!(
            codes(r#""bad \q \u12 x""#),
            [(Code::E0103, r"\q"), (Code::E0103, r"\u12")]
        );
        assert_eq!(codes("\"bad \\я\""), [(Code::E0103, "\\я")]);
        assert_eq!(codes("x = \"open"), [(Code::E0102, "\"")]);
        assert_eq!(codes("\"ends in \\"), [(Code::E0102, "\"")]);
    }

    #[test]
    fn comments() {
        assert_eq!(
            kinds("// hi\n/* a\nb */"),
            [
                (LINE_COMMENT, "// hi"),
                (NEWLINE, "\n"),
                (BLOCK_COMMENT, "/* a\nb */")
            ]
        );
        assert_eq!(codes("x /* open"), [(Code::E0104, "/*")]);
    }

    #[test]
    fn code_blocks_close_at_line_start() {
        let text = "post code ruby\n  decode end\n  x\n  code end;";
        assert_eq!(
            kinds(text),
            [
                (POST_KW, "post"),
                (WHITESPACE, " "),
                (CODE_BLOCK, "code ruby\n  decode end\n  x\n  code end"),
                (SEMICOLON, ";")
            ]
        );
        assert_eq!(codes("pre code\n code endless\n"), [(Code::E0105, "code")]);
        // `code` elsewhere is an identifier.
        assert_eq!(kinds("code")[0], (IDENT, "code"));
        assert_eq!(kinds("pre /* c */ code\ncode end")[4].0, CODE_BLOCK);
    }

    #[test]
    fn bad_characters_form_runs() {
        assert_eq!(codes("a $$ b"), [(Code::E0101, "$$")]);
        assert_eq!(codes("шаг1 = 2"), [(Code::E0106, "шаг1")]);
        assert_eq!(codes("stepшаг"), [(Code::E0106, "stepшаг")]);
        assert_eq!(codes("$шаг%"), [(Code::E0101, "$шаг%")]);
        assert_eq!(codes("x — y"), [(Code::E0101, "—")]);
        assert_eq!(codes("@ <"), [(Code::E0101, "@"), (Code::E0101, "<")]);
        assert_eq!(kinds("$$"), [(ERROR, "$$")]);
    }

    #[test]
    fn every_byte_is_in_a_token() {
        for text in [
            "",
            "a",
            "\"",
            "/*",
            "pre code",
            "pre code\n",
            "\r\n\r",
            "é",
            "a\u{0}b",
            "1e",
            "1.e5.3",
        ] {
            let lexed = lex(text);
            let joined: String = (0..lexed.len()).map(|i| lexed.text(text, i)).collect();
            assert_eq!(joined, text);
        }
    }
}
