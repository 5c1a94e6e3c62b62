//! The event-based parser: grammar functions ([`crate::grammar`]) walk the
//! non-trivia tokens and emit start/token/finish events; [`build_tree`] then
//! replays the events over all tokens, trivia included, into a rowan green
//! tree. Parsing never fails and never stops early.

use easyflow_diagnostics::{Code, Diagnostic, Fix, TextRange};
use rayon::prelude::*;
use rowan::{GreenNode, GreenToken, NodeOrToken};

use crate::SyntaxKind::{self, *};
use crate::lexer::Lexed;

#[derive(Debug, Clone, Copy)]
pub(crate) enum Event {
    Start(SyntaxKind),
    /// Consumes one non-trivia token, possibly remapped to another kind.
    Token(SyntaxKind),
    Finish,
}

/// Deepest nesting of lists and indexers the parser follows; deeper input is
/// kept flat inside an error node (so no recursion can overflow the stack).
pub(crate) const MAX_DEPTH: u32 = 128;

pub(crate) struct Parser<'t> {
    text: &'t str,
    /// Indices into `lexed` of the non-trivia tokens.
    tokens: Vec<u32>,
    lexed: &'t Lexed,
    pos: usize,
    events: Vec<Event>,
    item_starts: Vec<(u32, u32)>,
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
    pub(crate) fn new(text: &'t str, lexed: &'t Lexed) -> Self {
        let tokens: Vec<u32> = (0..lexed.len() as u32)
            .filter(|&i| !lexed.kind(i as usize).is_trivia())
            .collect();
        Parser {
            text,
            lexed,
            pos: 0,
            // About two and a half events per non-trivia token.
            events: Vec::with_capacity(tokens.len() * 5 / 2),
            item_starts: Vec::new(),
            tokens,
            errors: Vec::new(),
            depth: 0,
            last_error_pos: None,
            ends_unterminated: lexed.errors.iter().any(crate::lexer::is_unterminated),
        }
    }

    pub(crate) fn finish(self) -> (Events, Vec<Diagnostic>) {
        let events = Events {
            events: self.events,
            non_trivia: self.tokens,
            item_starts: self.item_starts,
        };
        (events, self.errors)
    }

    /// Records that a top-level item begins here (see [`build_tree`]).
    pub(crate) fn item_starts_here(&mut self) {
        self.item_starts
            .push((self.events.len() as u32, self.pos as u32));
    }

    pub(crate) fn nth(&self, n: usize) -> SyntaxKind {
        self.tokens
            .get(self.pos + n)
            .map_or(EOF, |&i| self.lexed.kind(i as usize))
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
            .map_or("", |&i| self.lexed.text(self.text, i as usize))
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
            Some(&i) => self.lexed.range(i as usize),
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
        self.events.push(Event::Token(kind));
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

    pub(crate) fn start(&mut self) -> Marker {
        self.events.push(Event::Start(ERROR_NODE));
        Marker {
            index: self.events.len() - 1,
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

pub(crate) struct Marker {
    index: usize,
}

impl Marker {
    pub(crate) fn complete(self, p: &mut Parser<'_>, kind: SyntaxKind) {
        p.events[self.index] = Event::Start(kind);
        p.events.push(Event::Finish);
    }
}

/// At most this many threads build one tree.
const MAX_BUILD_THREADS: usize = 8;

/// The events of a parse, with what [`build_tree`] needs to split them.
pub(crate) struct Events {
    pub(crate) events: Vec<Event>,
    /// Indices into `lexed` of the non-trivia tokens, in order.
    pub(crate) non_trivia: Vec<u32>,
    /// Where each top-level item begins: its first event, and how many
    /// non-trivia tokens come before it.
    pub(crate) item_starts: Vec<(u32, u32)>,
}

impl Events {
    /// Appends the events of the text that follows this one, parsed on its
    /// own (`next`, whose first event opens its root and whose token indices
    /// start at 0), as if one parser had gone on: the two roots become one.
    pub(crate) fn append(&mut self, next: Events, tokens_before: u32) {
        let non_trivia_before = self.non_trivia.len() as u32;
        // This root's Finish and the next root's Start go.
        self.events.pop();
        let events_before = self.events.len() as u32 - 1;
        self.events.extend(next.events.into_iter().skip(1));
        self.non_trivia
            .extend(next.non_trivia.into_iter().map(|i| i + tokens_before));
        self.item_starts.extend(
            next.item_starts
                .into_iter()
                .map(|(event, tokens)| (event + events_before, tokens + non_trivia_before)),
        );
    }
}

/// Replays `events` over every token of `lexed` into a green tree. Trivia goes
/// to the outermost node open at its place, so nodes never start or end with
/// whitespace or comments.
///
/// Large trees are built on up to `threads` threads: the root's items are
/// independent subtrees, so each thread builds a run of them (with the trivia
/// between them) and the root is assembled from the runs in order. The tree
/// is the same either way.
pub(crate) fn build_tree(text: &str, lexed: &Lexed, events: &Events, threads: usize) -> GreenNode {
    let all = &events.events;
    let threads = threads.min(MAX_BUILD_THREADS);
    let root_kind = match all.first() {
        Some(Event::Start(kind)) if threads > 1 => *kind,
        _ => {
            let mut builder = TreeBuilder::default();
            let mut next_token = 0;
            replay(&mut builder, text, lexed, all, &mut next_token, 0);
            debug_assert_eq!(next_token, lexed.len(), "every token is in the tree");
            return builder.finish();
        }
    };
    // Runs of whole items of about equal event counts; the root's own Start
    // and Finish stay here.
    let mut runs = Vec::with_capacity(threads);
    let mut run_start = (1, 0);
    for part in 1..threads {
        let target = all.len() * part / threads;
        let at = target.max(run_start.0 + 1);
        let index = events
            .item_starts
            .partition_point(|&(event, _)| (event as usize) < at);
        if let Some(&(event, tokens_before)) = events.item_starts.get(index) {
            let split = (event as usize, tokens_before as usize);
            runs.push((run_start, split.0));
            run_start = split;
        }
    }
    runs.push((run_start, all.len() - 1));
    let build_run = |((first_event, tokens_before), end_event): ((usize, usize), usize)| {
        // The run's first event attaches the trivia after the previous run.
        let mut next_token = match tokens_before.checked_sub(1) {
            Some(last) => events.non_trivia[last] as usize + 1,
            None => 0,
        };
        let mut builder = TreeBuilder::default();
        replay(
            &mut builder,
            text,
            lexed,
            &all[first_event..end_event],
            &mut next_token,
            1,
        );
        (builder, next_token)
    };
    // On rayon's pool (which the analysis shares), not on threads started
    // for each parse.
    let mut built: Vec<_> = runs.into_par_iter().map(build_run).collect();
    let mut builder = TreeBuilder::default();
    builder.start_node(root_kind);
    let mut next_token = built.last().map_or(0, |(_, next)| *next);
    for (run, _) in &mut built {
        builder.children.append(&mut run.children);
    }
    // What the root's Finish does: the trailing trivia goes inside it.
    replay(
        &mut builder,
        text,
        lexed,
        &all[all.len() - 1..],
        &mut next_token,
        1,
    );
    debug_assert_eq!(next_token, lexed.len(), "every token is in the tree");
    builder.finish()
}

/// Replays `events` into `builder` from token `next_token`, `depth` nodes deep.
fn replay(
    builder: &mut TreeBuilder,
    text: &str,
    lexed: &Lexed,
    events: &[Event],
    next_token: &mut usize,
    mut depth: usize,
) {
    let attach_trivia = |builder: &mut TreeBuilder, next_token: &mut usize| {
        while *next_token < lexed.len() && lexed.kind(*next_token).is_trivia() {
            builder.token(lexed.kind(*next_token), lexed.text(text, *next_token));
            *next_token += 1;
        }
    };
    for event in events {
        match *event {
            Event::Start(kind) => {
                if depth > 0 {
                    attach_trivia(builder, next_token);
                }
                depth += 1;
                builder.start_node(kind);
            }
            Event::Token(kind) => {
                attach_trivia(builder, next_token);
                builder.token(kind, lexed.text(text, *next_token));
                *next_token += 1;
            }
            Event::Finish => {
                depth -= 1;
                if depth == 0 {
                    attach_trivia(builder, next_token);
                }
                builder.finish_node();
            }
        }
    }
}

/// Builds green nodes directly. rowan's `GreenNodeBuilder` deduplicates every
/// token and small node through a hash map, which costs more than it saves on
/// large files (most tokens are distinct names, strings and numbers); here
/// only tokens whose text is fixed by their kind, and short whitespace, are
/// shared.
#[derive(Default)]
struct TreeBuilder {
    children: Vec<NodeOrToken<GreenNode, GreenToken>>,
    /// Open nodes: kind and index of their first child in `children`.
    parents: Vec<(SyntaxKind, usize)>,
    /// Tokens shared by kind (punctuation, keywords).
    fixed_tokens: Vec<Option<GreenToken>>,
    /// Whitespace and newline tokens shared by text.
    spacing: Vec<(SyntaxKind, Box<str>, GreenToken)>,
    /// Identifiers shared by text: names repeat (steps, parameters, `outs`),
    /// and one token per name saves memory and the time to free it.
    identifiers: rustc_hash::FxHashMap<Box<str>, GreenToken>,
}

impl TreeBuilder {
    fn start_node(&mut self, kind: SyntaxKind) {
        self.parents.push((kind, self.children.len()));
    }

    fn finish_node(&mut self) {
        let (kind, first) = self.parents.pop().expect("finish matches a start");
        let node = GreenNode::new(kind.into(), self.children.drain(first..));
        self.children.push(NodeOrToken::Node(node));
    }

    fn token(&mut self, kind: SyntaxKind, text: &str) {
        let token = if has_fixed_text(kind) {
            let index = kind as usize;
            if self.fixed_tokens.len() <= index {
                self.fixed_tokens.resize(index + 1, None);
            }
            self.fixed_tokens[index]
                .get_or_insert_with(|| GreenToken::new(kind.into(), text))
                .clone()
        } else if matches!(kind, WHITESPACE | NEWLINE) && text.len() <= 16 {
            match self
                .spacing
                .iter()
                .find(|(k, t, _)| *k == kind && **t == *text)
            {
                Some((_, _, token)) => token.clone(),
                None => {
                    let token = GreenToken::new(kind.into(), text);
                    if self.spacing.len() < 64 {
                        self.spacing.push((kind, text.into(), token.clone()));
                    }
                    token
                }
            }
        } else if kind == IDENT {
            match self.identifiers.get(text) {
                Some(token) => token.clone(),
                None => {
                    let token = GreenToken::new(kind.into(), text);
                    self.identifiers.insert(text.into(), token.clone());
                    token
                }
            }
        } else {
            GreenToken::new(kind.into(), text)
        };
        self.children.push(NodeOrToken::Token(token));
    }

    fn finish(mut self) -> GreenNode {
        match self.children.pop() {
            Some(NodeOrToken::Node(root)) if self.children.is_empty() => root,
            _ => unreachable!("the events build exactly one root node"),
        }
    }
}

/// Kinds whose every token has the same text.
fn has_fixed_text(kind: SyntaxKind) -> bool {
    kind.is_keyword()
        || matches!(
            kind,
            L_BRACE
                | R_BRACE
                | L_BRACK
                | R_BRACK
                | L_PAREN
                | R_PAREN
                | EQ
                | SEMICOLON
                | COLON
                | DOT
                | COMMA
                | TILDE
                | ARROW
        )
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
