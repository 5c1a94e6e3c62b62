//! The typed AST: a zero-cost view over a syntax tree, one type per node kind
//! of `easyflow.ungram`, with accessors that return `None` where the parser
//! recovered from an error.
//!
//! Every type is generic over the tree it reads ([`TreeNode`]): rowan's red
//! [`SyntaxNode`](crate::SyntaxNode) by default (`ast::Step` is
//! `ast::Step<SyntaxNode>`), or a [`GreenRef`](crate::green::GreenRef) for
//! walks that must not allocate.
//! The types and their accessors are generated (`generated.rs`, by `cargo
//! xtask codegen`); `node_ext.rs` adds what the grammar cannot say (section
//! kinds, literal values, the package path as text).

mod generated;
mod node_ext;

use std::marker::PhantomData;

pub use rowan::ast::SyntaxNodePtr;

pub use self::generated::*;
pub use self::node_ext::{CodeSectionKind, LiteralKind, SectionKind};
use crate::SyntaxKind;
pub use crate::tree::{TreeNode, TreeToken};

/// A typed node over a tree of `Self::Node`s.
pub trait AstNode: Sized {
    type Node: TreeNode;

    fn can_cast(kind: SyntaxKind) -> bool;

    /// The typed node, if `node` is of a kind this type stands for.
    fn cast(node: Self::Node) -> Option<Self>;

    fn syntax(&self) -> &Self::Node;
}

/// The children of a node that cast to `C`, in order.
#[derive(Debug, Clone)]
pub struct AstChildren<C: AstNode> {
    children: <C::Node as TreeNode>::ChildNodes,
    cast: PhantomData<C>,
}

impl<C: AstNode> AstChildren<C> {
    fn new(parent: &C::Node) -> Self {
        AstChildren {
            children: parent.child_nodes(),
            cast: PhantomData,
        }
    }
}

impl<C: AstNode> Iterator for AstChildren<C> {
    type Item = C;

    #[inline]
    fn next(&mut self) -> Option<C> {
        self.children.find_map(C::cast)
    }
}

/// What the generated accessors are made of.
mod support {
    use super::{AstChildren, AstNode, TreeNode};
    use crate::SyntaxKind;

    #[inline]
    pub(super) fn child<C: AstNode>(parent: &C::Node) -> Option<C> {
        parent.child_nodes().find_map(C::cast)
    }

    #[inline]
    pub(super) fn children<C: AstNode>(parent: &C::Node) -> AstChildren<C> {
        AstChildren::new(parent)
    }

    #[inline]
    pub(super) fn token<N: TreeNode>(parent: &N, kind: SyntaxKind) -> Option<N::Token> {
        parent.child_token(kind)
    }
}
