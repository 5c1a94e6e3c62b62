//! Reading a green tree without building red nodes: [`GreenRef`] is a node
//! with its absolute offset. rowan's `SyntaxNode` allocates for every node and
//! token it visits; walks over whole large files (the analysis summaries) use
//! this view instead.

use rowan::{GreenNode, GreenNodeData};

use crate::{SyntaxKind, SyntaxNode, TextRange, TextSize};

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

#[derive(Debug, Clone, Copy)]
pub enum GreenElementRef<'a> {
    Node(GreenRef<'a>),
    Token(GreenTokenRef<'a>),
}

fn kind_of(raw: rowan::SyntaxKind) -> SyntaxKind {
    SyntaxKind::from_raw(raw.0).unwrap_or(SyntaxKind::ERROR_NODE)
}

impl<'a> GreenRef<'a> {
    /// The tree rooted at `node`, starting at offset 0.
    pub fn root(node: &'a GreenNode) -> Self {
        GreenRef {
            node,
            offset: 0.into(),
        }
    }

    pub fn kind(self) -> SyntaxKind {
        kind_of(self.node.kind())
    }

    pub fn range(self) -> TextRange {
        TextRange::at(self.offset, self.node.text_len())
    }

    pub fn green(self) -> &'a GreenNodeData {
        self.node
    }

    /// Child nodes and tokens, in order, with their ranges.
    pub fn children(self) -> impl Iterator<Item = GreenElementRef<'a>> {
        let mut offset = self.offset;
        self.node.children().map(move |child| {
            let start = offset;
            offset += child.text_len();
            match child {
                rowan::NodeOrToken::Node(node) => GreenElementRef::Node(GreenRef {
                    node,
                    offset: start,
                }),
                rowan::NodeOrToken::Token(token) => GreenElementRef::Token(GreenTokenRef {
                    kind: kind_of(token.kind()),
                    text: token.text(),
                    range: TextRange::at(start, token.text_len()),
                }),
            }
        })
    }

    pub fn child_nodes(self) -> impl Iterator<Item = GreenRef<'a>> {
        self.children().filter_map(|child| match child {
            GreenElementRef::Node(node) => Some(node),
            GreenElementRef::Token(_) => None,
        })
    }

    pub fn child_tokens(self) -> impl Iterator<Item = GreenTokenRef<'a>> {
        self.children().filter_map(|child| match child {
            GreenElementRef::Token(token) => Some(token),
            GreenElementRef::Node(_) => None,
        })
    }

    /// The first direct child token (e.g. a name node's identifier).
    pub fn first_child_token(self) -> Option<GreenTokenRef<'a>> {
        self.child_tokens().next()
    }

    /// A red tree of this node for typed access; its ranges are relative to
    /// this node's start.
    pub fn to_syntax(self) -> SyntaxNode {
        SyntaxNode::new_root(self.node.to_owned())
    }
}
