//! Building green nodes directly, sharing what repeats ([`TreeBuilder`]).
//!
//! rowan's `GreenNodeBuilder` deduplicates every token and small node
//! through a hash map of owned keys; here only what often repeats is
//! shared: tokens whose text is fixed by their kind, short whitespace,
//! names and short literals (`outs`, `"part4.dat"`), and nodes of at most
//! [`MAX_SHARED_CHILDREN`] children that are all shared (a parameter's
//! `NAME`, a reference's `SEGMENT`, a `LITERAL`), through a small
//! direct-mapped cache. A shared token or node is one allocation however
//! often it appears, which saves memory, the time to allocate it, and the
//! time to free it.
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

/// A child on the builder's stack.
enum Child {
    /// Built for this place only.
    Node(GreenNode),
    Token(GreenToken),
    /// One of [`TreeBuilder::tokens`], by index.
    SharedToken(u32),
    /// One of [`TreeBuilder::nodes`], by index.
    SharedNode(u32),
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
const MAX_SHARED_CHILDREN: usize = 5;

/// Literals longer than this are not shared: they seldom repeat.
const MAX_SHARED_LITERAL_LEN: usize = 24;

/// Whitespace longer than this is not shared: it seldom repeats.
const MAX_SHARED_SPACING_LEN: usize = 16;

/// No element: an empty slot of the node cache, an unused child of its
/// key, a fixed token not yet made.
const NONE: u32 = u32::MAX;

/// Marks a node's index in a [`NodeKey`], so that it differs from every
/// token's.
const NODE_BIT: u32 = 1 << 31;

/// A small node's kind and its children: indices in
/// [`TreeBuilder::tokens`], or with [`NODE_BIT`] in [`TreeBuilder::nodes`]
/// ([`NONE`] after the last).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct NodeKey {
    kind: u16,
    children: [u32; MAX_SHARED_CHILDREN],
}

/// A slot of the node cache: a key and the node's index in
/// [`TreeBuilder::nodes`], [`NONE`] when empty.
#[derive(Clone, Copy)]
struct NodeSlot {
    key: NodeKey,
    node: u32,
}

const EMPTY_SLOT: NodeSlot = NodeSlot {
    key: NodeKey {
        kind: 0,
        children: [NONE; MAX_SHARED_CHILDREN],
    },
    node: NONE,
};

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
    /// Open nodes: the index of their first child in `children`.
    parents: Vec<usize>,
    /// Every shared token, each holding one reference to it.
    tokens: Vec<GreenToken>,
    /// Shared nodes, each holding one reference to it, until there are
    /// [`MAX_KEPT_NODES`].
    nodes: Vec<GreenNode>,
    /// Per kind with a fixed text, its token's index in `tokens`.
    fixed_tokens: Vec<u32>,
    /// The tokens of one space and of one line feed, the most frequent
    /// spacing, found without hashing their text.
    space: Option<u32>,
    line_feed: Option<u32>,
    /// Tokens shared by text (names, short literals, short spacing): their
    /// indices in `tokens`, by kind and text.
    token_table: hashbrown::HashTable<u32>,
    /// Small nodes of shared children, by kind and children: a
    /// direct-mapped cache of [`NODE_CACHE_SLOTS`], so that the nodes it
    /// keeps are those that repeat often (still in the processor's cache
    /// when they are shared again); rarely repeated ones are not worth a
    /// lookup in a table of every node, which misses the cache each time.
    node_cache: Box<[NodeSlot]>,
    /// The length of `node_cache` once allocated: a power of two.
    node_slots: usize,
    /// [`MAX_KEPT_NODES`], but in tests.
    max_kept_nodes: usize,
    /// Nothing is built: only the open nodes are counted (for a parser
    /// that only reports errors).
    discard: bool,
}

impl TreeBuilder {
    /// A builder for a text of `tokens` tokens, its tables sized to hold
    /// what such a text shares without growing (growing rehashes them all).
    /// On generated flows, one token in 45 is a distinct name or literal
    /// and one in 11 a distinct small node.
    pub(crate) fn for_tokens(tokens: usize) -> Self {
        TreeBuilder {
            children: Vec::with_capacity(64),
            token_table: hashbrown::HashTable::with_capacity(tokens / 32),
            tokens: Vec::with_capacity(tokens / 32),
            nodes: Vec::with_capacity((tokens / 8).min(MAX_KEPT_NODES)),
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
        self.parents.push(self.children.len());
    }

    /// Lets go of the shared nodes, when only the root is open: the
    /// root's children that are shared nodes take a reference of their
    /// own, and the cache is emptied.
    #[cold]
    fn forget_nodes(&mut self) {
        let nodes = &self.nodes;
        for child in &mut self.children {
            if let Child::SharedNode(index) = *child {
                *child = Child::Node(nodes[index as usize].clone());
            }
        }
        self.nodes.clear();
        self.node_cache.fill(EMPTY_SLOT);
    }

    pub(crate) fn finish_node(&mut self, kind: SyntaxKind) {
        let first = self.parents.pop().expect("finish matches a start");
        if self.discard {
            return;
        }
        if kind == SOURCE_FILE {
            // The root's children stay for `finish`.
            debug_assert!(first == 0 && self.parents.is_empty());
            return;
        }
        let child = match self.shared_children_key(kind, first) {
            Some(key) => Child::SharedNode(self.shared_node(key, first)),
            None => {
                let (tokens, nodes) = (&self.tokens, &self.nodes);
                let children = self
                    .children
                    .drain(first..)
                    .map(|child| into_element(child, tokens, nodes));
                Child::Node(GreenNode::new(kind.into(), children))
            }
        };
        self.children.truncate(first);
        self.children.push(child);
    }

    /// The cache key of a node of `kind` over `children[first..]` when it
    /// may be shared: at most [`MAX_SHARED_CHILDREN`] children, all shared.
    #[inline]
    fn shared_children_key(&self, kind: SyntaxKind, first: usize) -> Option<NodeKey> {
        let children = &self.children[first..];
        if children.is_empty() || children.len() > MAX_SHARED_CHILDREN {
            return None;
        }
        let mut key = NodeKey {
            kind: kind as u16,
            children: [NONE; MAX_SHARED_CHILDREN],
        };
        for (slot, child) in key.children.iter_mut().zip(children) {
            *slot = match *child {
                Child::SharedToken(index) => index,
                Child::SharedNode(index) => index | NODE_BIT,
                Child::Node(_) | Child::Token(_) => return None,
            };
        }
        Some(key)
    }

    /// The index in `nodes` of the node of `key` over `children[first..]`:
    /// the same as every earlier such node's while the cache keeps it.
    fn shared_node(&mut self, key: NodeKey, first: usize) -> u32 {
        if self.node_cache.is_empty() {
            self.node_slots = self.node_slots.max(1);
            self.node_cache = vec![EMPTY_SLOT; self.node_slots].into_boxed_slice();
        }
        let slot = hash_of(key) as usize & (self.node_slots - 1);
        let cached = self.node_cache[slot];
        if cached.node != NONE && cached.key == key {
            return cached.node;
        }
        let (tokens, nodes) = (&self.tokens, &self.nodes);
        let children = self.children[first..].iter().map(|child| match *child {
            Child::SharedToken(index) => NodeOrToken::Token(tokens[index as usize].clone()),
            Child::SharedNode(index) => NodeOrToken::Node(nodes[index as usize].clone()),
            Child::Node(_) | Child::Token(_) => {
                unreachable!("a shared node's children are shared")
            }
        });
        let node = GreenNode::new(rowan::SyntaxKind(key.kind), children);
        let index = self.nodes.len() as u32;
        self.nodes.push(node);
        self.node_cache[slot] = NodeSlot { key, node: index };
        index
    }

    #[inline]
    pub(crate) fn token(&mut self, kind: SyntaxKind, text: &str) {
        if self.discard {
            return;
        }
        let child = match token_sharing(kind) {
            TokenSharing::Fixed => Child::SharedToken(self.fixed_token(kind, text)),
            TokenSharing::ByText(max_len) if text.len() <= max_len => {
                Child::SharedToken(self.token_by_text(kind, text))
            }
            TokenSharing::ByText(_) | TokenSharing::Never => {
                Child::Token(GreenToken::new(kind.into(), text))
            }
        };
        self.children.push(child);
    }

    /// Adds `token` to the shared ones: its index.
    fn share_token(&mut self, token: GreenToken) -> u32 {
        let index = self.tokens.len() as u32;
        debug_assert!(index < NODE_BIT, "fewer shared tokens than bytes");
        self.tokens.push(token);
        index
    }

    /// The index in `tokens` of the token of `kind`, whose text is `text`
    /// whenever it is of that kind.
    #[inline]
    fn fixed_token(&mut self, kind: SyntaxKind, text: &str) -> u32 {
        let slot = kind as usize;
        if let Some(&index) = self.fixed_tokens.get(slot)
            && index != NONE
        {
            return index;
        }
        if self.fixed_tokens.len() <= slot {
            self.fixed_tokens.resize(slot + 1, NONE);
        }
        let index = self.share_token(GreenToken::new(kind.into(), text));
        self.fixed_tokens[slot] = index;
        index
    }

    /// The index in `tokens` of the token of `kind` and `text`.
    #[inline]
    fn token_by_text(&mut self, kind: SyntaxKind, text: &str) -> u32 {
        match (kind, text) {
            (WHITESPACE, " ") => {
                if let Some(index) = self.space {
                    return index;
                }
                let index = self.interned_token(kind, text);
                self.space = Some(index);
                index
            }
            (NEWLINE, "\n") => {
                if let Some(index) = self.line_feed {
                    return index;
                }
                let index = self.interned_token(kind, text);
                self.line_feed = Some(index);
                index
            }
            _ => self.interned_token(kind, text),
        }
    }

    fn interned_token(&mut self, kind: SyntaxKind, text: &str) -> u32 {
        let raw_kind: rowan::SyntaxKind = kind.into();
        let hash = hash_of((kind as u16, text));
        let tokens = &self.tokens;
        if let Some(&index) = self.token_table.find(hash, |&index| {
            let token = &tokens[index as usize];
            token.kind() == raw_kind && token.text() == text
        }) {
            return index;
        }
        let index = self.share_token(GreenToken::new(raw_kind, text));
        let tokens = &self.tokens;
        self.token_table.insert_unique(hash, index, |&index| {
            let token = &tokens[index as usize];
            hash_of((token.kind().0, token.text()))
        });
        index
    }

    /// The children of the root, which the grammar completed.
    pub(crate) fn finish(self) -> Vec<GreenElement> {
        debug_assert!(self.parents.is_empty(), "the grammar completes the root");
        let (tokens, nodes) = (&self.tokens, &self.nodes);
        self.children
            .into_iter()
            .map(|child| into_element(child, tokens, nodes))
            .collect()
    }
}

/// The element `child` stands for, with its own reference.
#[inline]
fn into_element(child: Child, tokens: &[GreenToken], nodes: &[GreenNode]) -> GreenElement {
    match child {
        Child::Node(node) => NodeOrToken::Node(node),
        Child::Token(token) => NodeOrToken::Token(token),
        Child::SharedToken(index) => NodeOrToken::Token(tokens[index as usize].clone()),
        Child::SharedNode(index) => NodeOrToken::Node(nodes[index as usize].clone()),
    }
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
            let mut parser = Parser::with_builder(&text, &lexed, builder);
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
