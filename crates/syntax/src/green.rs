//! Reading a green tree without building red nodes: [`GreenRef`] is a node
//! with its absolute offset. rowan's `SyntaxNode` allocates for every node and
//! token it visits; walks over whole large files (the analysis summaries) use
//! this view instead, directly or through the typed AST ([`TreeNode`]).

use rowan::{GreenNodeData, NodeOrToken};

use crate::tree::{TreeNode, TreeToken};
use crate::{SyntaxKind, TextRange, TextSize};

/// A green node and where it starts.
#[derive(Debug, Clone, Copy)]
pub struct GreenRef<'a> {
    node: &'a GreenNodeData,
    offset: TextSize,
}

/// A green token and its range.
#[derive(Debug, Clone, Copy)]
pub struct GreenTokenRef<'a> {
    pub kind: SyntaxKind,
    pub text: &'a str,
    pub range: TextRange,
}

pub type GreenElementRef<'a> = NodeOrToken<GreenRef<'a>, GreenTokenRef<'a>>;

/// A child's length. A token's comes from its text without rowan's check
/// that it fits in a `TextSize`: every part of a tree is shorter than the
/// tree, whose length is one.
#[inline]
fn child_len(child: NodeOrToken<&GreenNodeData, &rowan::GreenTokenData>) -> TextSize {
    match child {
        NodeOrToken::Node(node) => node.text_len(),
        NodeOrToken::Token(token) => TextSize::new(token.text().len() as u32),
    }
}

#[inline]
fn kind_of(raw: rowan::SyntaxKind) -> SyntaxKind {
    SyntaxKind::from_raw(raw.0).unwrap_or(SyntaxKind::ERROR_NODE)
}

impl<'a> GreenRef<'a> {
    /// The tree rooted at `node`, starting at offset 0.
    #[inline]
    pub fn root(node: &'a GreenNodeData) -> Self {
        GreenRef {
            node,
            offset: 0.into(),
        }
    }

    /// The child node at `index`, which starts `offset` after this node
    /// (known to the caller, say from a chunk's items): no walk over the
    /// children before it.
    pub fn child_node(self, index: usize, offset: TextSize) -> Option<GreenRef<'a>> {
        let node = self.node.children().nth(index)?.into_node()?;
        Some(GreenRef {
            node,
            offset: self.offset + offset,
        })
    }

    #[inline]
    pub fn kind(self) -> SyntaxKind {
        kind_of(self.node.kind())
    }

    #[inline]
    pub fn range(self) -> TextRange {
        TextRange::at(self.offset, self.node.text_len())
    }

    #[inline]
    pub fn green(self) -> &'a GreenNodeData {
        self.node
    }

    /// Child nodes and tokens, in order, with their ranges.
    #[inline]
    pub fn children(self) -> GreenChildren<'a> {
        GreenChildren {
            children: self.node.children(),
            offset: self.offset,
        }
    }

    #[inline]
    pub fn child_nodes(self) -> GreenChildNodes<'a> {
        GreenChildNodes(self.children())
    }

    /// Of a root, the top-level items and the trivia between them, in
    /// order: the children of its chunks.
    pub fn top_level_children(self) -> impl Iterator<Item = GreenElementRef<'a>> + use<'a> {
        self.child_nodes().flat_map(GreenRef::children)
    }

    /// The first child token of `kind`.
    #[inline]
    pub fn child_token(self, kind: SyntaxKind) -> Option<GreenTokenRef<'a>> {
        // Compared raw, and a token built only once found: the typed AST's
        // token accessors run this for every step of a cold check.
        let raw = rowan::SyntaxKind::from(kind);
        let mut offset = self.offset;
        for child in self.node.children() {
            match child {
                NodeOrToken::Token(token) if token.kind() == raw => {
                    return Some(GreenTokenRef {
                        kind,
                        text: token.text(),
                        range: TextRange::at(offset, child_len(child)),
                    });
                }
                _ => offset += child_len(child),
            }
        }
        None
    }

    pub fn child_tokens(self) -> impl Iterator<Item = GreenTokenRef<'a>> {
        self.children().filter_map(NodeOrToken::into_token)
    }

    /// The first direct child token (e.g. a name node's identifier).
    pub fn first_child_token(self) -> Option<GreenTokenRef<'a>> {
        self.child_tokens().next()
    }
}

/// The children of a [`GreenRef`], nodes and tokens.
#[derive(Debug, Clone)]
pub struct GreenChildren<'a> {
    children: rowan::Children<'a>,
    /// Where the next child starts.
    offset: TextSize,
}

impl<'a> Iterator for GreenChildren<'a> {
    type Item = GreenElementRef<'a>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let child = self.children.next()?;
        let start = self.offset;
        let len = child_len(child);
        self.offset += len;
        Some(match child {
            NodeOrToken::Node(node) => NodeOrToken::Node(GreenRef {
                node,
                offset: start,
            }),
            NodeOrToken::Token(token) => NodeOrToken::Token(GreenTokenRef {
                kind: kind_of(token.kind()),
                text: token.text(),
                range: TextRange::at(start, len),
            }),
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.children.size_hint()
    }
}

/// The child nodes of a [`GreenRef`].
#[derive(Debug, Clone)]
pub struct GreenChildNodes<'a>(GreenChildren<'a>);

impl<'a> Iterator for GreenChildNodes<'a> {
    type Item = GreenRef<'a>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        // Tokens only move the offset: no token is built.
        let children = &mut self.0;
        for child in children.children.by_ref() {
            let start = children.offset;
            children.offset += child_len(child);
            if let NodeOrToken::Node(node) = child {
                return Some(GreenRef {
                    node,
                    offset: start,
                });
            }
        }
        None
    }
}

impl<'a> TreeNode for GreenRef<'a> {
    type Token = GreenTokenRef<'a>;
    type ChildNodes = GreenChildNodes<'a>;
    type ChildElements = GreenChildren<'a>;

    #[inline]
    fn kind(&self) -> SyntaxKind {
        GreenRef::kind(*self)
    }

    #[inline]
    fn text_range(&self) -> TextRange {
        self.range()
    }

    #[inline]
    fn child_nodes(&self) -> Self::ChildNodes {
        GreenRef::child_nodes(*self)
    }

    #[inline]
    fn child_elements(&self) -> Self::ChildElements {
        self.children()
    }

    #[inline]
    fn child_token(&self, kind: SyntaxKind) -> Option<Self::Token> {
        GreenRef::child_token(*self, kind)
    }
}

impl TreeToken for GreenTokenRef<'_> {
    #[inline]
    fn kind(&self) -> SyntaxKind {
        self.kind
    }

    #[inline]
    fn text(&self) -> &str {
        self.text
    }

    #[inline]
    fn text_range(&self) -> TextRange {
        self.range
    }
}
