//! Building green nodes directly, sharing what repeats ([`TreeBuilder`]).
//!
//! rowan's `GreenNodeBuilder` deduplicates every token and small node
//! through a hash map of owned keys; here only what often repeats is
//! shared: tokens whose text is fixed by their kind, short whitespace,
//! names and short literals (`outs`, `"part4.dat"`), and nodes of at most
//! [`MAX_SHARED_CHILDREN`] children that are all shared: a node over one
//! shared element (a parameter's `NAME`, a reference's `SEGMENT`, a
//! `LITERAL`) through that element, which remembers the last nodes made
//! over it, the others through a small direct-mapped cache. A shared token
//! or node is one allocation however often it appears, which saves
//! memory, the time to allocate it, and the time to free it.
//!
//! The builder keeps one reference to each shared token and node it made
//! (two lists, [`TreeBuilder::tokens`] and [`TreeBuilder::nodes`]), and its
//! stack of children names them by their index there: a reference of the
//! tree's own (an atomic increment of the element's count) is taken only
//! when one is put into a node that is built. A small node found in the
//! cache is thus found without touching its children's counts, and a
//! node's identity in the cache is its kind and its children's indices.

use rowan::{GreenNode, GreenToken, NodeOrToken};

use crate::SyntaxKind::{self, *};
use crate::chunk::GreenElement;

/// A child on the builder's stack: a shared token or node, by its index in
/// [`TreeBuilder::tokens`] or [`TreeBuilder::nodes`], or an element built
/// for this place only, the next one of [`TreeBuilder::own`] (which holds
/// them in the stack's order). Its two top bits say which.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Child(u32);

impl Child {
    const INDEX_BITS: u32 = 30;
    /// The most shared tokens, and shared nodes, a builder keeps.
    const MAX_INDEX: usize = (1 << Self::INDEX_BITS) - 1;
    const NODE: u32 = 1 << Self::INDEX_BITS;
    const OWN: Child = Child(2 << Self::INDEX_BITS);

    fn token(index: usize) -> Child {
        debug_assert!(index <= Self::MAX_INDEX);
        Child(index as u32)
    }

    fn node(index: usize) -> Child {
        debug_assert!(index <= Self::MAX_INDEX);
        Child(index as u32 | Self::NODE)
    }

    fn is_own(self) -> bool {
        self.0 & Self::OWN.0 != 0
    }

    fn index(self) -> usize {
        (self.0 & ((1 << Self::INDEX_BITS) - 1)) as usize
    }
}

/// The most slots of [`TreeBuilder::node_cache`]: a large text's builder
/// has these; a small text's (the reparse of one step) has one per four
/// tokens, since allocating and clearing 8192 slots cost more than
/// parsing a step.
const NODE_CACHE_SLOTS: usize = 1 << 13;

/// When [`TreeBuilder::nodes`] holds more than this many nodes and a
/// top-level item is about to begin, it lets go of them (and the cache
/// forgets them): the nodes it keeps are those that may still be shared,
/// not every small node of a large text.
const MAX_KEPT_NODES: usize = 1 << 16;

/// Nodes with more children are not shared: they seldom repeat.
const MAX_SHARED_CHILDREN: usize = 7;

/// Literals longer than this are not shared: they seldom repeat.
const MAX_SHARED_LITERAL_LEN: usize = 24;

/// Whitespace longer than this is not shared: it seldom repeats.
const MAX_SHARED_SPACING_LEN: usize = 16;

/// No element: an empty slot of the node cache, an unused child of its
/// key, a fixed token not yet made.
const NONE: u32 = u32::MAX;

/// A small node's kind and its children ([`Child`], shared; [`NONE`] after
/// the last), two to a word, the kind in the last.
#[derive(Clone, Copy, PartialEq, Eq)]
struct NodeKey([u64; 4]);

impl NodeKey {
    /// The key of a node of `kind` over `children`, if they are few enough
    /// and all shared.
    #[inline]
    fn of(kind: SyntaxKind, children: &[Child]) -> Option<NodeKey> {
        if children.is_empty() || children.len() > MAX_SHARED_CHILDREN {
            return None;
        }
        if children.iter().any(|child| child.is_own()) {
            return None;
        }
        let raw = |index: usize| children.get(index).map_or(NONE, |child| child.0);
        let pair = |low: u32, high: u32| u64::from(low) | (u64::from(high) << 32);
        Some(NodeKey([
            pair(raw(0), raw(1)),
            pair(raw(2), raw(3)),
            pair(raw(4), raw(5)),
            pair(raw(6), u32::from(kind as u16)),
        ]))
    }

    fn kind(self) -> rowan::SyntaxKind {
        rowan::SyntaxKind((self.0[3] >> 32) as u16)
    }

    /// Its slot in a cache of `1 << bits` slots.
    #[inline]
    fn slot(self, bits: u32) -> usize {
        // A multiply-rotate mix of the three words (as in FxHash), whose
        // top bits choose the slot.
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        let [a, b, c, d] = self.0;
        let mut hash = a.wrapping_mul(K);
        hash = (hash.rotate_left(26) ^ b).wrapping_mul(K);
        hash = (hash.rotate_left(26) ^ c).wrapping_mul(K);
        hash = (hash.rotate_left(26) ^ d).wrapping_mul(K);
        (hash >> (64 - bits)) as usize
    }
}

/// A slot of the node cache: a key and the node's index in
/// [`TreeBuilder::nodes`], [`NONE`] when empty.
#[derive(Clone, Copy)]
struct NodeSlot {
    key: NodeKey,
    node: u32,
}

const EMPTY_SLOT: NodeSlot = NodeSlot {
    key: NodeKey([u64::MAX; 4]),
    node: NONE,
};

/// The last two nodes made over one shared element alone, with their
/// kinds: a name is mostly under one or two kinds (`NAME` where it is
/// defined, `NAME_REF` where it is used).
#[derive(Clone, Copy)]
struct Parents([(u16, Child); 2]);

impl Parents {
    const NONE: Parents = Parents([(u16::MAX, Child(NONE)); 2]);

    #[inline]
    fn find(&self, kind: u16) -> Option<Child> {
        self.0
            .iter()
            .find(|(parent_kind, _)| *parent_kind == kind)
            .map(|&(_, node)| node)
    }

    fn remember(&mut self, kind: u16, node: Child) {
        self.0 = [(kind, node), self.0[0]];
    }
}

/// How a token of some kind is made.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TokenSharing {
    /// Every token of the kind has the same text: one token per kind.
    Fixed,
    /// Shared by text up to this length; longer ones are made each time.
    ByText(usize),
    /// Made each time (comments, code blocks, errors).
    Never,
}

fn token_sharing(kind: SyntaxKind) -> TokenSharing {
    match kind {
        L_BRACE | R_BRACE | L_BRACK | R_BRACK | L_PAREN | R_PAREN | EQ | SEMICOLON | COLON
        | DOT | COMMA | TILDE | ARROW => TokenSharing::Fixed,
        kind if kind.is_keyword() => TokenSharing::Fixed,
        WHITESPACE | NEWLINE => TokenSharing::ByText(MAX_SHARED_SPACING_LEN),
        IDENT => TokenSharing::ByText(usize::MAX),
        STRING | INT | DOUBLE => TokenSharing::ByText(MAX_SHARED_LITERAL_LEN),
        _ => TokenSharing::Never,
    }
}

fn hash_of(value: impl std::hash::Hash) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(value)
}

/// Builds the green tree of one text as the grammar opens and completes
/// its nodes (see the module's documentation).
#[derive(Default)]
pub(crate) struct TreeBuilder {
    children: Vec<Child>,
    /// The elements of `children` built for their place only, in order.
    own: Vec<GreenElement>,
    /// Open nodes: the index of their first child in `children`, and of
    /// their first element of `own`.
    parents: Vec<(usize, usize)>,
    /// Every shared token, each holding one reference to it.
    tokens: Vec<GreenToken>,
    /// Shared nodes, each holding one reference to it, until there are
    /// [`MAX_KEPT_NODES`].
    nodes: Vec<GreenNode>,
    /// Per shared token, then per shared node (by index): the last nodes
    /// made over it alone (a `NAME` over a name, a `LITERAL` over a
    /// string, a `SEGMENT` over a `NAME_REF`), found without hashing.
    token_parents: Vec<Parents>,
    node_parents: Vec<Parents>,
    /// Per kind with a fixed text, its token.
    fixed_tokens: Vec<Child>,
    /// The tokens of runs of spaces and of line feeds, by length: the
    /// most frequent spacing, found without hashing their text.
    spaces: [Option<Child>; MAX_SHARED_SPACING_LEN + 1],
    line_feeds: [Option<Child>; MAX_SHARED_SPACING_LEN + 1],
    /// Tokens shared by text (names, short literals, short spacing): their
    /// indices in `tokens`, by kind and text.
    token_table: hashbrown::HashTable<u32>,
    /// Small nodes of shared children, by kind and children: a
    /// direct-mapped cache of [`NODE_CACHE_SLOTS`], so that the nodes it
    /// keeps are those that repeat often (still in the processor's cache
    /// when they are shared again); rarely repeated ones are not worth a
    /// lookup in a table of every node, which misses the cache each time.
    node_cache: Box<[NodeSlot]>,
    /// The length of `node_cache` once allocated: a power of two, `1 <<
    /// node_slot_bits`.
    node_slots: usize,
    node_slot_bits: u32,
    /// [`MAX_KEPT_NODES`], but in tests.
    max_kept_nodes: usize,
    /// Nothing is built: only the open nodes are counted (for a parser
    /// that only reports errors).
    discard: bool,
}

impl TreeBuilder {
    /// A builder for a text of `tokens` tokens, its tables sized to hold
    /// what such a text shares without growing (growing rehashes them all).
    /// On generated flows, one token in 23 is a distinct name or literal
    /// (in pieces of 64 KB) and one in 11 a distinct small node.
    pub(crate) fn for_tokens(tokens: usize) -> Self {
        TreeBuilder {
            children: Vec::with_capacity(64),
            own: Vec::with_capacity(64),
            token_table: hashbrown::HashTable::with_capacity(tokens / 16),
            tokens: Vec::with_capacity(tokens / 16),
            token_parents: Vec::with_capacity(tokens / 16),
            nodes: Vec::with_capacity((tokens / 8).min(MAX_KEPT_NODES)),
            node_parents: Vec::with_capacity((tokens / 8).min(MAX_KEPT_NODES)),
            node_slots: (tokens / 4).clamp(64, NODE_CACHE_SLOTS).next_power_of_two(),
            max_kept_nodes: MAX_KEPT_NODES,
            ..TreeBuilder::default()
        }
    }

    /// A builder that builds nothing.
    pub(crate) fn discarding() -> Self {
        TreeBuilder {
            discard: true,
            ..TreeBuilder::default()
        }
    }

    /// How many nodes are open.
    pub(crate) fn open_nodes(&self) -> usize {
        self.parents.len()
    }

    pub(crate) fn start_node(&mut self) {
        if self.parents.len() == 1 && self.nodes.len() > self.max_kept_nodes {
            self.forget_nodes();
        }
        self.parents.push((self.children.len(), self.own.len()));
    }

    /// Lets go of the shared nodes, when only the root is open: the
    /// root's children that are shared nodes take a reference of their
    /// own, and the cache is emptied.
    #[cold]
    fn forget_nodes(&mut self) {
        let mut own = std::mem::take(&mut self.own).into_iter();
        for child in &mut self.children {
            if child.is_own() {
                self.own
                    .push(own.next().expect("an own element per own child"));
            } else if child.0 & Child::NODE != 0 {
                self.own
                    .push(NodeOrToken::Node(self.nodes[child.index()].clone()));
                *child = Child::OWN;
            }
        }
        self.nodes.clear();
        self.node_parents.clear();
        self.node_cache.fill(EMPTY_SLOT);
        for parents in &mut self.token_parents {
            *parents = Parents::NONE;
        }
    }

    pub(crate) fn finish_node(&mut self, kind: SyntaxKind) {
        let (first, first_own) = self.parents.pop().expect("finish matches a start");
        if self.discard {
            return;
        }
        if kind == SOURCE_FILE {
            // The root's children stay for `finish`.
            debug_assert!(first == 0 && self.parents.is_empty());
            return;
        }
        let child = match self.children[first..] {
            [only] if !only.is_own() => self.single_child_node(kind, only),
            _ => match NodeKey::of(kind, &self.children[first..]) {
                Some(key) => self.shared_node(key, first),
                None => self.own_node(kind, first, first_own),
            },
        };
        self.children.truncate(first);
        self.children.push(child);
    }

    /// The node of `kind` over the shared `child` alone: the same as the
    /// last such node while its child remembers it.
    #[inline]
    fn single_child_node(&mut self, kind: SyntaxKind, child: Child) -> Child {
        let kind = kind as u16;
        let parents = if child.0 & Child::NODE != 0 {
            &mut self.node_parents[child.index()]
        } else {
            &mut self.token_parents[child.index()]
        };
        if let Some(node) = parents.find(kind) {
            return node;
        }
        let element = if child.0 & Child::NODE != 0 {
            NodeOrToken::Node(self.nodes[child.index()].clone())
        } else {
            NodeOrToken::Token(self.tokens[child.index()].clone())
        };
        let node = GreenNode::new(rowan::SyntaxKind(kind), [element]);
        let Some(node) = self.share_node(node) else {
            return Child::OWN;
        };
        let parents = if child.0 & Child::NODE != 0 {
            &mut self.node_parents[child.index()]
        } else {
            &mut self.token_parents[child.index()]
        };
        parents.remember(kind, node);
        node
    }

    /// Adds `node` to the shared ones, or keeps it for its place only once
    /// the builder shares as many as it can (`None`).
    fn share_node(&mut self, node: GreenNode) -> Option<Child> {
        if self.nodes.len() > Child::MAX_INDEX {
            self.own.push(NodeOrToken::Node(node));
            return None;
        }
        let child = Child::node(self.nodes.len());
        self.nodes.push(node);
        self.node_parents.push(Parents::NONE);
        Some(child)
    }

    /// A node of `kind` over `children[first..]` for its place only.
    #[inline(never)]
    fn own_node(&mut self, kind: SyntaxKind, first: usize, first_own: usize) -> Child {
        let own = self.own.drain(first_own..);
        let node = GreenNode::new(
            kind.into(),
            elements(&self.children[first..], own, &self.tokens, &self.nodes),
        );
        self.own.push(NodeOrToken::Node(node));
        Child::OWN
    }

    /// The node of `key` over `children[first..]`: the same as every
    /// earlier such node while the cache keeps it.
    #[inline]
    fn shared_node(&mut self, key: NodeKey, first: usize) -> Child {
        if self.node_cache.is_empty() {
            self.node_slots = self.node_slots.max(2);
            self.node_slot_bits = self.node_slots.trailing_zeros();
            self.node_cache = vec![EMPTY_SLOT; self.node_slots].into_boxed_slice();
        }
        let slot = key.slot(self.node_slot_bits);
        let cached = self.node_cache[slot];
        if cached.node != NONE && cached.key == key {
            return Child(cached.node);
        }
        self.new_shared_node(key, first, slot)
    }

    /// A node of `key` over `children[first..]` to share from now on, kept
    /// in the cache's `slot`.
    #[inline(never)]
    fn new_shared_node(&mut self, key: NodeKey, first: usize, slot: usize) -> Child {
        let own = self.own.drain(self.own.len()..);
        let node = GreenNode::new(
            key.kind(),
            elements(&self.children[first..], own, &self.tokens, &self.nodes),
        );
        let Some(child) = self.share_node(node) else {
            return Child::OWN;
        };
        self.node_cache[slot] = NodeSlot { key, node: child.0 };
        child
    }

    /// Adds a token of `kind` whose text is `text()` (not read for a
    /// punctuation or keyword token already made).
    #[inline(always)]
    pub(crate) fn token<'a>(&mut self, kind: SyntaxKind, text: impl FnOnce() -> &'a str) {
        if self.discard {
            return;
        }
        let child = match token_sharing(kind) {
            TokenSharing::Fixed => self.fixed_token(kind, text),
            TokenSharing::ByText(max_len) => {
                let text = text();
                if text.len() <= max_len {
                    self.token_by_text(kind, text)
                } else {
                    self.own_token(kind, text)
                }
            }
            TokenSharing::Never => self.own_token(kind, text()),
        };
        self.children.push(child);
    }

    /// A token for its place only.
    #[inline(never)]
    fn own_token(&mut self, kind: SyntaxKind, text: &str) -> Child {
        self.own
            .push(NodeOrToken::Token(GreenToken::new(kind.into(), text)));
        Child::OWN
    }

    /// `token` as a shared token, or for its place only once the builder
    /// shares as many as it can.
    fn share_token(&mut self, token: GreenToken) -> Child {
        if self.tokens.len() > Child::MAX_INDEX {
            self.own.push(NodeOrToken::Token(token));
            return Child::OWN;
        }
        let child = Child::token(self.tokens.len());
        self.tokens.push(token);
        self.token_parents.push(Parents::NONE);
        child
    }

    /// The token of `kind`, whose text is `text` whenever it is of that
    /// kind.
    #[inline]
    fn fixed_token<'a>(&mut self, kind: SyntaxKind, text: impl FnOnce() -> &'a str) -> Child {
        let slot = kind as usize;
        if let Some(&child) = self.fixed_tokens.get(slot)
            && child != Child(NONE)
        {
            return child;
        }
        if self.fixed_tokens.len() <= slot {
            self.fixed_tokens.resize(slot + 1, Child(NONE));
        }
        let child = self.share_token(GreenToken::new(kind.into(), text()));
        if !child.is_own() {
            self.fixed_tokens[slot] = child;
        }
        child
    }

    /// The token of `kind` and `text`, shared.
    #[inline(always)]
    fn token_by_text(&mut self, kind: SyntaxKind, text: &str) -> Child {
        let repeated = |byte: u8| text.bytes().all(|b| b == byte);
        let known = match kind {
            WHITESPACE if repeated(b' ') => self.spaces[text.len()],
            NEWLINE if repeated(b'\n') => self.line_feeds[text.len()],
            _ => return self.interned_token(kind, text),
        };
        known.unwrap_or_else(|| self.new_spacing(kind, text))
    }

    /// The first token of a run of spaces or line feeds of its length.
    #[cold]
    fn new_spacing(&mut self, kind: SyntaxKind, text: &str) -> Child {
        let child = self.share_token(GreenToken::new(kind.into(), text));
        if !child.is_own() {
            match kind {
                WHITESPACE => self.spaces[text.len()] = Some(child),
                _ => self.line_feeds[text.len()] = Some(child),
            }
        }
        child
    }

    #[inline(never)]
    fn interned_token(&mut self, kind: SyntaxKind, text: &str) -> Child {
        let raw_kind: rowan::SyntaxKind = kind.into();
        let hash = hash_of((kind as u16, text));
        let tokens = &self.tokens;
        if let Some(&index) = self.token_table.find(hash, |&index| {
            let token = &tokens[index as usize];
            token.kind() == raw_kind && token.text() == text
        }) {
            return Child::token(index as usize);
        }
        let child = self.share_token(GreenToken::new(raw_kind, text));
        if child.is_own() {
            return child;
        }
        let tokens = &self.tokens;
        self.token_table.insert_unique(hash, child.0, |&index| {
            let token = &tokens[index as usize];
            hash_of((token.kind().0, token.text()))
        });
        child
    }

    /// The children of the root, which the grammar completed.
    pub(crate) fn finish(mut self) -> Vec<GreenElement> {
        debug_assert!(self.parents.is_empty(), "the grammar completes the root");
        let own = self.own.drain(..);
        elements(&self.children, own, &self.tokens, &self.nodes).collect()
    }
}

/// The elements `children` stand for, each with its own reference; `own`
/// gives their own elements, in order.
#[inline]
fn elements<'a>(
    children: &'a [Child],
    mut own: impl Iterator<Item = GreenElement> + 'a,
    tokens: &'a [GreenToken],
    nodes: &'a [GreenNode],
) -> impl ExactSizeIterator<Item = GreenElement> + 'a {
    children.iter().map(move |&child| {
        if child.is_own() {
            own.next().expect("an own element per own child")
        } else if child.0 & Child::NODE != 0 {
            NodeOrToken::Node(nodes[child.index()].clone())
        } else {
            NodeOrToken::Token(tokens[child.index()].clone())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::Parser;

    /// A builder that lets go of its shared nodes between items makes the
    /// same tree as one that keeps them all.
    #[test]
    fn letting_go_of_shared_nodes_changes_no_tree() {
        let text = easyflow_genflow::generate(300, 3);
        let lexed = crate::lex(&text);
        let build = |builder: TreeBuilder| {
            let tokens = crate::lexer::significant_tokens(&lexed);
            let mut parser = Parser::with_builder(&text, &lexed, tokens, builder);
            crate::grammar::source_file(&mut parser);
            parser.finish()
        };
        let keeping = TreeBuilder::for_tokens(lexed.len());
        assert!(keeping.max_kept_nodes > lexed.len());
        let mut letting_go = TreeBuilder::for_tokens(lexed.len());
        letting_go.max_kept_nodes = 8;
        assert_eq!(build(letting_go), build(keeping));
    }
}
