//! The parser: grammar functions ([`crate::grammar`]) walk the non-trivia
//! tokens, opening and completing nodes, and the tree is built as they go
//! (a [`TreeBuilder`] in the parser), trivia included: no list of events
//! is kept and replayed. Parsing never fails and never stops early.

use easyflow_diagnostics::{Code, Diagnostic, Fix, TextRange};
use rowan::{GreenNode, GreenNodeData, GreenToken, GreenTokenData, NodeOrToken};

use crate::SyntaxKind::{self, *};
use crate::chunk::GreenElement;
use crate::lexer::Lexed;

/// Deepest nesting of lists and indexers the parser follows; deeper input is
/// kept flat inside an error node (so no recursion can overflow the stack).
pub(crate) const MAX_DEPTH: u32 = 128;

pub(crate) struct Parser<'t> {
    text: &'t str,
    /// Indices into `lexed` of the non-trivia tokens.
    tokens: Vec<u32>,
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
    pub(crate) fn new(text: &'t str, lexed: &'t Lexed) -> Self {
        Parser::with_builder(text, lexed, TreeBuilder::for_tokens(lexed.len()))
    }

    /// A parser that builds no tree: only its errors are wanted
    /// ([`crate::syntax_errors`]).
    pub(crate) fn without_tree(text: &'t str, lexed: &'t Lexed) -> Self {
        Parser::with_builder(text, lexed, TreeBuilder::discarding())
    }

    fn with_builder(text: &'t str, lexed: &'t Lexed, builder: TreeBuilder) -> Self {
        let tokens: Vec<u32> = (0..lexed.len() as u32)
            .filter(|&i| !lexed.kind(i as usize).is_trivia())
            .collect();
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
    fn attach_trivia(&mut self) {
        let lexed = self.lexed;
        while self.next_token < lexed.len() && lexed.kind(self.next_token).is_trivia() {
            let token = self.next_token;
            self.builder
                .token(lexed.kind(token), lexed.text(self.text, token));
            self.next_token += 1;
        }
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
        self.attach_trivia();
        let token = self.tokens[self.pos] as usize;
        debug_assert_eq!(token, self.next_token);
        self.builder.token(kind, self.lexed.text(self.text, token));
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
        if !self.builder.parents.is_empty() {
            self.attach_trivia();
        }
        self.builder.start_node();
        Marker {
            depth: self.builder.parents.len(),
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

/// An open node: every node the grammar opens is completed, innermost first.
pub(crate) struct Marker {
    /// How many nodes are open with this one.
    depth: usize,
}

impl Marker {
    pub(crate) fn complete(self, p: &mut Parser<'_>, kind: SyntaxKind) {
        debug_assert_eq!(
            self.depth,
            p.builder.parents.len(),
            "nodes complete innermost first"
        );
        // The root holds the file's trailing trivia.
        if self.depth == 1 {
            p.attach_trivia();
        }
        p.builder.finish_node(kind);
    }
}

/// Builds green nodes directly, sharing what repeats. rowan's
/// `GreenNodeBuilder` deduplicates every token and small node through a hash
/// map of owned keys; here only what often repeats is shared: tokens whose
/// text is fixed by their kind, short whitespace, names and short literals
/// (a table that holds the tokens themselves: names and file names repeat,
/// `outs`, `"part4.dat"`), and nodes of at most [`MAX_SHARED_CHILDREN`]
/// children that are all shared (a parameter's `NAME`, a reference's
/// `SEGMENT`, a `LITERAL`), through a small direct-mapped cache. A shared
/// token or node is one allocation however often it appears, which saves
/// memory, the time to allocate it, and the time to free it.
#[derive(Default)]
struct TreeBuilder {
    children: Vec<NodeOrToken<GreenNode, GreenToken>>,
    /// For each of `children`, whether it is shared (from the tables below).
    shared: Vec<bool>,
    /// Open nodes: the index of their first child in `children`.
    parents: Vec<usize>,
    /// Tokens shared by kind (punctuation, keywords).
    fixed_tokens: Vec<Option<GreenToken>>,
    /// Whitespace and newline tokens shared by text.
    spacing: Vec<(SyntaxKind, Box<str>, GreenToken)>,
    /// Names and short literals, by kind and text.
    tokens: hashbrown::HashTable<GreenToken>,
    /// Small nodes of shared children, by kind and children: a
    /// direct-mapped cache of [`NODE_CACHE_SLOTS`], so that the nodes it
    /// keeps are those that repeat often (still in the processor's cache
    /// when they are shared again); rarely repeated ones are not worth a
    /// lookup in a table of every node, which misses the cache each time.
    nodes: Box<[Option<(NodeKey, GreenNode)>]>,
    /// The length of `nodes` once allocated: a power of two.
    node_slots: usize,
    /// Nothing is built: only the open nodes are counted (for
    /// [`Parser::without_tree`]).
    discard: bool,
}

/// The most slots of [`TreeBuilder::nodes`]: a whole file's builder has
/// these; a small text's (the reparse of one step) has one per four tokens,
/// since allocating, clearing and dropping 8192 slots cost more than
/// parsing a step.
const NODE_CACHE_SLOTS: usize = 1 << 13;

/// A node's kind and the addresses of its shared children.
type NodeKey = (u16, [usize; MAX_SHARED_CHILDREN]);

/// Nodes with more children are not shared: they seldom repeat.
const MAX_SHARED_CHILDREN: usize = 5;

/// Literals longer than this are not shared: they seldom repeat.
const MAX_SHARED_LITERAL_LEN: usize = 24;

fn hash_of(value: impl std::hash::Hash) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(value)
}

/// The identity of a tree element: shared elements are equal when they are
/// the same allocation.
fn element_address(element: NodeOrToken<&GreenNodeData, &GreenTokenData>) -> usize {
    match element {
        NodeOrToken::Node(node) => std::ptr::from_ref(node).addr(),
        NodeOrToken::Token(token) => std::ptr::from_ref(token).addr(),
    }
}

impl TreeBuilder {
    /// A builder for a text of `tokens` tokens, its tables sized to hold
    /// what such a text shares without growing (growing rehashes them all).
    /// On generated flows, one token in 45 is a distinct name or literal
    /// and one in 11 a distinct small node.
    fn for_tokens(tokens: usize) -> Self {
        TreeBuilder {
            tokens: hashbrown::HashTable::with_capacity(tokens / 32),
            node_slots: (tokens / 4).clamp(64, NODE_CACHE_SLOTS).next_power_of_two(),
            ..TreeBuilder::default()
        }
    }

    fn discarding() -> Self {
        TreeBuilder {
            discard: true,
            ..TreeBuilder::default()
        }
    }

    fn start_node(&mut self) {
        self.parents.push(self.children.len());
    }

    fn finish_node(&mut self, kind: SyntaxKind) {
        let first = self.parents.pop().expect("finish matches a start");
        if self.discard {
            return;
        }
        if kind == SOURCE_FILE {
            // The root's children stay for `finish`.
            debug_assert!(first == 0 && self.parents.is_empty());
            return;
        }
        let count = self.children.len() - first;
        let shareable =
            (1..=MAX_SHARED_CHILDREN).contains(&count) && self.shared[first..].iter().all(|&s| s);
        let node = if shareable {
            self.shared_node(kind, first)
        } else {
            GreenNode::new(kind.into(), self.children.drain(first..))
        };
        self.children.truncate(first);
        self.shared.truncate(first);
        self.children.push(NodeOrToken::Node(node));
        self.shared.push(shareable);
    }

    /// The node of `kind` over `children[first..]`, all shared: the same
    /// allocation as every earlier such node.
    fn shared_node(&mut self, kind: SyntaxKind, first: usize) -> GreenNode {
        let children = &self.children[first..];
        let address = |child: &NodeOrToken<GreenNode, GreenToken>| match child {
            NodeOrToken::Node(node) => element_address(NodeOrToken::Node(node)),
            NodeOrToken::Token(token) => element_address(NodeOrToken::Token(token)),
        };
        let mut addresses = [0usize; MAX_SHARED_CHILDREN];
        for (slot, child) in addresses.iter_mut().zip(children) {
            *slot = address(child);
        }
        let key: NodeKey = (kind as u16, addresses);
        if self.nodes.is_empty() {
            self.node_slots = self.node_slots.max(1);
            self.nodes = vec![None; self.node_slots].into_boxed_slice();
        }
        let slot = &mut self.nodes[hash_of(key) as usize % self.node_slots];
        if let Some((cached, node)) = slot
            && *cached == key
        {
            return node.clone();
        }
        let node = GreenNode::new(kind.into(), children.iter().cloned());
        *slot = Some((key, node.clone()));
        node
    }

    fn token(&mut self, kind: SyntaxKind, text: &str) {
        if self.discard {
            return;
        }
        let (token, shared) = if has_fixed_text(kind) {
            let index = kind as usize;
            if self.fixed_tokens.len() <= index {
                self.fixed_tokens.resize(index + 1, None);
            }
            let token = self.fixed_tokens[index]
                .get_or_insert_with(|| GreenToken::new(kind.into(), text))
                .clone();
            (token, true)
        } else if matches!(kind, WHITESPACE | NEWLINE) && text.len() <= 16 {
            match self
                .spacing
                .iter()
                .find(|(k, t, _)| *k == kind && **t == *text)
            {
                Some((_, _, token)) => (token.clone(), true),
                None if self.spacing.len() < 64 => {
                    let token = GreenToken::new(kind.into(), text);
                    self.spacing.push((kind, text.into(), token.clone()));
                    (token, true)
                }
                None => (GreenToken::new(kind.into(), text), false),
            }
        } else if kind == IDENT
            || (matches!(kind, STRING | INT | DOUBLE) && text.len() <= MAX_SHARED_LITERAL_LEN)
        {
            (self.shared_token(kind, text), true)
        } else {
            (GreenToken::new(kind.into(), text), false)
        };
        self.children.push(NodeOrToken::Token(token));
        self.shared.push(shared);
    }

    /// The token of `kind` and `text`: the same allocation as every earlier one.
    fn shared_token(&mut self, kind: SyntaxKind, text: &str) -> GreenToken {
        let raw_kind: rowan::SyntaxKind = kind.into();
        let hash = hash_of((kind as u16, text));
        let found = self.tokens.find(hash, |token| {
            token.kind() == raw_kind && token.text() == text
        });
        if let Some(token) = found {
            return token.clone();
        }
        let token = GreenToken::new(raw_kind, text);
        self.tokens.insert_unique(hash, token.clone(), |token| {
            hash_of((token.kind().0, token.text()))
        });
        token
    }

    fn finish(self) -> Vec<GreenElement> {
        debug_assert!(self.parents.is_empty(), "the grammar completes the root");
        self.children
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
