//! What the typed AST needs of a tree: [`TreeNode`] and [`TreeToken`],
//! implemented by rowan's red tree (`SyntaxNode`, which the IDE features
//! use: parents, ranges in the file, cheap to keep) and by [`GreenRef`]
//! (a green node with its offset: whole-file walks such as the analysis's
//! step walker, which must not allocate a red node for everything it visits).
//! The AST is generic over it, so both read the tree through the same
//! generated accessors.
//!
//! [`GreenRef`]: crate::green::GreenRef

use std::fmt;

use rowan::NodeOrToken;

use crate::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange};

/// A node of a syntax tree.
pub trait TreeNode: Clone {
    type Token: TreeToken;
    /// The child nodes, in order (not borrowing the node).
    type ChildNodes: Iterator<Item = Self> + Clone + fmt::Debug;
    /// The child nodes and tokens, in order (not borrowing the node).
    type ChildElements: Iterator<Item = NodeOrToken<Self, Self::Token>> + Clone + fmt::Debug;

    fn kind(&self) -> SyntaxKind;

    fn text_range(&self) -> TextRange;

    fn child_nodes(&self) -> Self::ChildNodes;

    fn child_elements(&self) -> Self::ChildElements;

    /// The first child token of `kind`.
    fn child_token(&self, kind: SyntaxKind) -> Option<Self::Token> {
        self.child_elements()
            .find_map(|element| element.into_token().filter(|token| token.kind() == kind))
    }

    /// Calls `f` with every token of the subtree, in order.
    fn for_each_token(&self, f: &mut impl FnMut(&Self::Token)) {
        for element in self.child_elements() {
            match element {
                NodeOrToken::Node(node) => node.for_each_token(f),
                NodeOrToken::Token(token) => f(&token),
            }
        }
    }
}

/// A token of a syntax tree.
pub trait TreeToken: Clone {
    fn kind(&self) -> SyntaxKind;

    fn text(&self) -> &str;

    fn text_range(&self) -> TextRange;
}

impl TreeNode for SyntaxNode {
    type Token = SyntaxToken;
    type ChildNodes = rowan::SyntaxNodeChildren<crate::EasyFlowLanguage>;
    type ChildElements = rowan::SyntaxElementChildren<crate::EasyFlowLanguage>;

    #[inline]
    fn kind(&self) -> SyntaxKind {
        SyntaxNode::kind(self)
    }

    #[inline]
    fn text_range(&self) -> TextRange {
        SyntaxNode::text_range(self)
    }

    #[inline]
    fn child_nodes(&self) -> Self::ChildNodes {
        self.children()
    }

    #[inline]
    fn child_elements(&self) -> Self::ChildElements {
        self.children_with_tokens()
    }
}

impl TreeToken for SyntaxToken {
    #[inline]
    fn kind(&self) -> SyntaxKind {
        SyntaxToken::kind(self)
    }

    #[inline]
    fn text(&self) -> &str {
        SyntaxToken::text(self)
    }

    #[inline]
    fn text_range(&self) -> TextRange {
        SyntaxToken::text_range(self)
    }
}
