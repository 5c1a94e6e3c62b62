//! The parser: grammar functions ([`crate::grammar`]) walk the non-trivia
//! tokens, opening and completing nodes, and the tree is built as they go
//! (a [`TreeBuilder`] in the parser), trivia included: no list of events
//! is kept and replayed. Parsing never fails and never stops early.

use easyflow_diagnostics::{Code, Diagnostic, Fix, TextRange};

use crate::SyntaxKind::{self, *};
use crate::builder::TreeBuilder;
use crate::chunk::GreenElement;
use crate::lexer::{Lexed, SignificantToken, significant_tokens};

/// Deepest nesting of lists and indexers the parser follows; deeper input is
/// kept flat inside an error node (so no recursion can overflow the stack).
pub(crate) const MAX_DEPTH: u32 = 128;

pub(crate) struct Parser<'t> {
    text: &'t str,
    /// The non-trivia tokens: their kinds and indices into `lexed`.
    tokens: Vec<SignificantToken>,
    lexed: &'t Lexed,
    pos: usize,
    /// The tree so far.
    builder: TreeBuilder,
    /// The index into `lexed` of the first token not yet in the tree: the
    /// trivia from here on goes to the node that is innermost when the next
    /// node opens or the next token is consumed, so nodes never begin or end
    /// with trivia.
    next_token: usize,
    pub(crate) errors: Vec<Diagnostic>,
    pub(crate) depth: u32,
    /// The token position of the last syntax error: a second error there is a
    /// consequence of the first and is not reported (one problem, one diagnostic).
    last_error_pos: Option<usize>,
    /// Whether the text ends inside an unterminated string, comment or code
    /// block (already reported by the lexer): what is missing at the end of the
    /// text was swallowed by that token, so it is not reported again.
    ends_unterminated: bool,
}

impl<'t> Parser<'t> {
    /// A parser of `text`, lexed as `lexed`, whose non-trivia tokens are
    /// `tokens` (from `lexer.rs`).
    pub(crate) fn new(text: &'t str, lexed: &'t Lexed, tokens: Vec<SignificantToken>) -> Self {
        Parser::with_builder(text, lexed, tokens, TreeBuilder::for_tokens(lexed.len()))
    }

    /// A parser that builds no tree: only its errors are wanted
    /// ([`crate::syntax_errors`]).
    pub(crate) fn without_tree(text: &'t str, lexed: &'t Lexed) -> Self {
        let tokens = significant_tokens(lexed);
        Parser::with_builder(text, lexed, tokens, TreeBuilder::discarding())
    }

    pub(crate) fn with_builder(
        text: &'t str,
        lexed: &'t Lexed,
        tokens: Vec<SignificantToken>,
        builder: TreeBuilder,
    ) -> Self {
        Parser {
            text,
            lexed,
            pos: 0,
            builder,
            next_token: 0,
            tokens,
            errors: Vec::new(),
            depth: 0,
            last_error_pos: None,
            ends_unterminated: lexed.errors.iter().any(crate::lexer::is_unterminated),
        }
    }

    /// The children of the root (which the grammar completed), and the
    /// syntax errors. The root itself is built by `lib.rs` over chunks of
    /// them (`chunk.rs`).
    pub(crate) fn finish(self) -> (Vec<GreenElement>, Vec<Diagnostic>) {
        debug_assert_eq!(
            self.next_token,
            self.lexed.len(),
            "every token is in the tree"
        );
        (self.builder.finish(), self.errors)
    }

    /// Adds the trivia before the next non-trivia token to the innermost open node.
    #[inline(always)]
    fn attach_trivia(&mut self) {
        let end = self
            .tokens
            .get(self.pos)
            .map_or(self.lexed.len(), |token| token.index as usize);
        if self.next_token < end {
            self.add_trivia(end);
        }
    }

    /// Adds the tokens from `next_token` up to `end`, trivia, to the
    /// innermost open node.
    #[inline(never)]
    // The index is the token's, for its text too (and this loop measured
    // fewer instructions than one over the kinds zipped with the indices).
    #[allow(clippy::needless_range_loop)]
    fn add_trivia(&mut self, end: usize) {
        let kinds = self.lexed.kinds();
        for token in self.next_token..end {
            let (text, lexed) = (self.text, self.lexed);
            self.builder
                .token(kinds[token], || token_text(text, lexed, token));
        }
        self.next_token = end;
    }

    /// The text of token `index` of `lexed`.
    #[inline]
    fn token_text(&self, index: usize) -> &'t str {
        token_text(self.text, self.lexed, index)
    }

    #[inline]
    pub(crate) fn nth(&self, n: usize) -> SyntaxKind {
        self.tokens
            .get(self.pos + n)
            .map_or(EOF, |token| token.kind)
    }

    pub(crate) fn current(&self) -> SyntaxKind {
        self.nth(0)
    }

    pub(crate) fn at(&self, kind: SyntaxKind) -> bool {
        self.current() == kind
    }

    pub(crate) fn at_eof(&self) -> bool {
        self.pos >= self.tokens.len()
    }

    pub(crate) fn nth_text(&self, n: usize) -> &'t str {
        self.tokens
            .get(self.pos + n)
            .map_or("", |token| self.token_text(token.index as usize))
    }

    /// The contextual keyword `app`/`exec` when the current token is one used as a
    /// section label (followed by `:`).
    pub(crate) fn at_section_label(&self) -> Option<SyntaxKind> {
        if self.current() != IDENT || self.nth(1) != COLON {
            return None;
        }
        match self.nth_text(0) {
            "app" => Some(APP_KW),
            "exec" => Some(EXEC_KW),
            _ => None,
        }
    }

    fn range_of(&self, token: usize) -> TextRange {
        match self.tokens.get(token) {
            Some(token) => self.lexed.range(token.index as usize),
            None => TextRange::empty((self.text.len() as u32).into()),
        }
    }

    pub(crate) fn current_range(&self) -> TextRange {
        self.range_of(self.pos)
    }

    /// Whether trivia separates the current token from the next one.
    pub(crate) fn next_is_adjacent(&self) -> bool {
        self.range_of(self.pos).end() == self.range_of(self.pos + 1).start()
    }

    /// The empty range just after the previous non-trivia token: where a
    /// missing token belongs.
    pub(crate) fn missing_range(&self) -> TextRange {
        match self.pos.checked_sub(1) {
            Some(prev) => TextRange::empty(self.range_of(prev).end()),
            None => TextRange::empty(0.into()),
        }
    }

    pub(crate) fn bump(&mut self) {
        self.bump_as(self.current());
    }

    pub(crate) fn bump_as(&mut self, kind: SyntaxKind) {
        if self.at_eof() {
            return;
        }
        self.attach_trivia();
        let token = self.tokens[self.pos].index as usize;
        debug_assert_eq!(token, self.next_token);
        let (text, lexed) = (self.text, self.lexed);
        self.builder.token(kind, || token_text(text, lexed, token));
        self.next_token = token + 1;
        self.pos += 1;
    }

    pub(crate) fn eat(&mut self, kind: SyntaxKind) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Opens a node; its kind is given when it is completed.
    pub(crate) fn start(&mut self) -> Marker {
        // The file's leading trivia goes inside the root, with its first item.
        if self.builder.open_nodes() > 0 {
            self.attach_trivia();
        }
        self.builder.start_node();
        Marker {
            depth: self.builder.open_nodes(),
        }
    }

    /// A phrase for the current token in "found …".
    pub(crate) fn found(&self) -> String {
        match self.current() {
            IDENT | ERROR => format!("`{}`", self.nth_text(0)),
            kind => kind.describe().to_string(),
        }
    }

    /// Reports a syntax error (E0100), unless it is a consequence of an earlier
    /// one: a second error at the same token, or something missing at the end
    /// of a text that ends inside an unterminated token.
    pub(crate) fn error_at(&mut self, range: TextRange, message: String) {
        self.error_with_fix(range, message, Fix::None);
    }

    fn error_with_fix(&mut self, range: TextRange, message: String, fix: Fix) {
        if self.last_error_pos == Some(self.pos) || (self.at_eof() && self.ends_unterminated) {
            return;
        }
        self.last_error_pos = Some(self.pos);
        self.errors
            .push(Diagnostic::new(Code::E0100, range, message).with_fix(fix));
    }

    /// Reports that `expected` is missing here, without consuming anything,
    /// and returns false. Lexical error tokens at this point already have their
    /// diagnostic: they are consumed silently in place of `expected`, and the
    /// result is true (the caller goes on as if `expected` were there).
    pub(crate) fn error_missing(&mut self, expected: &str) -> bool {
        self.report_missing(expected, &[])
    }

    /// [`Parser::error_missing`] for one of the tokens `kinds`: the error
    /// carries those that its quick fix may insert.
    pub(crate) fn error_missing_token(&mut self, kinds: &[SyntaxKind]) -> bool {
        let expected: Vec<&str> = kinds.iter().map(|kind| kind.describe()).collect();
        self.report_missing(&expected.join(" or "), kinds)
    }

    fn report_missing(&mut self, expected: &str, kinds: &[SyntaxKind]) -> bool {
        if self.eat_error_tokens() {
            return true;
        }
        let message = format!("expected {expected}, found {}", self.found());
        let range = self.missing_range();
        let insertable: Vec<&'static str> = kinds.iter().filter_map(|&k| insertable(k)).collect();
        let fix = if insertable.is_empty() {
            Fix::None
        } else {
            Fix::InsertToken(insertable)
        };
        self.error_with_fix(range, message, fix);
        false
    }

    /// Reports the current token as unexpected and wraps it in an error node.
    pub(crate) fn error_and_bump(&mut self, expected: &str) {
        if self.at(ERROR) {
            self.bump_error_silently();
            return;
        }
        let message = format!("expected {expected}, found {}", self.found());
        let range = self.current_range();
        self.error_at(range, message);
        let m = self.start();
        self.bump();
        m.complete(self, ERROR_NODE);
    }

    /// Wraps the current token in an error node, without a diagnostic.
    pub(crate) fn bump_error_silently(&mut self) {
        let m = self.start();
        self.bump();
        m.complete(self, ERROR_NODE);
    }

    /// Consumes the lexical error tokens here (each has its lexer diagnostic)
    /// and tells whether there were any.
    pub(crate) fn eat_error_tokens(&mut self) -> bool {
        let any = self.at(ERROR);
        while self.at(ERROR) {
            self.bump_error_silently();
        }
        any
    }

    /// Consumes `kind` or reports it missing. Lexical error tokens in its place
    /// are consumed silently, and so is `kind` right after them (`a["x" $$]`).
    pub(crate) fn expect(&mut self, kind: SyntaxKind) -> bool {
        if self.eat(kind) {
            return true;
        }
        if self.eat_error_tokens() {
            self.eat(kind);
            return true;
        }
        self.error_missing_token(&[kind])
    }
}

/// The text of token `index` of `lexed`, the tokens of `text`.
#[inline]
fn token_text<'t>(text: &'t str, lexed: &Lexed, index: usize) -> &'t str {
    let starts = lexed.starts();
    &text[starts[index] as usize..starts[index + 1] as usize]
}

/// The text of a token that E0100's quick fix inserts where it is missing
/// (`diagnostics.md`: a `,` `;` `)` or `]`).
fn insertable(kind: SyntaxKind) -> Option<&'static str> {
    match kind {
        COMMA => Some(","),
        SEMICOLON => Some(";"),
        R_PAREN => Some(")"),
        R_BRACK => Some("]"),
        _ => None,
    }
}

/// An open node: every node the grammar opens is completed, innermost first.
pub(crate) struct Marker {
    /// How many nodes are open with this one.
    depth: usize,
}

impl Marker {
    pub(crate) fn complete(self, p: &mut Parser<'_>, kind: SyntaxKind) {
        debug_assert_eq!(
            self.depth,
            p.builder.open_nodes(),
            "nodes complete innermost first"
        );
        // The root holds the file's trailing trivia.
        if self.depth == 1 {
            p.attach_trivia();
        }
        p.builder.finish_node(kind);
    }
}

impl Parser<'_> {
    /// Whether a line break separates the current token from the previous one.
    pub(crate) fn at_line_start(&self) -> bool {
        self.nth_at_line_start(0)
    }

    /// Whether a line break separates the `n`th token from here from the one before it.
    pub(crate) fn nth_at_line_start(&self, n: usize) -> bool {
        let Some(prev) = (self.pos + n).checked_sub(1) else {
            return true;
        };
        let gap = TextRange::new(
            self.range_of(prev).end(),
            self.range_of(self.pos + n).start(),
        );
        self.text[gap].contains(['\n', '\r'])
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// The range from the start of token `from` to the end of the last consumed token.
    pub(crate) fn range_since(&self, from: usize) -> TextRange {
        let start = self.range_of(from).start();
        TextRange::new(start, self.missing_range().start().max(start))
    }
}
