//! The EasyFlow syntax layer: [`lex`] (logos), [`parse`] (an error-resilient,
//! event-based recursive descent parser) into a lossless rowan tree, and the
//! typed [`ast`] over it. Knows nothing of salsa, the LSP or files.
//!
//! Parsing never fails: every input, garbage included, gives a tree that
//! covers every byte of it, plus the lexical and syntax diagnostics (E01xx).

pub mod ast;
mod grammar;
pub mod green;
mod lexer;
mod parser;
mod reparse;
mod syntax_kind;

use std::fmt::Write;

use easyflow_diagnostics::Diagnostic;
pub use easyflow_diagnostics::{TextRange, TextSize};
pub use rowan::{GreenNode, NodeOrToken, WalkEvent};

pub use crate::lexer::{Lexed, lex};
pub use crate::reparse::reparse;
pub use crate::syntax_kind::{
    EasyFlowLanguage, SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken,
};

/// The result of parsing one text: a green tree (cheap to clone, `Send`,
/// storable in a database) and the lexical and syntax errors, sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parse {
    green: GreenNode,
    errors: Vec<Diagnostic>,
}

impl Parse {
    pub fn green(&self) -> &GreenNode {
        &self.green
    }

    pub fn syntax(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    pub fn tree(&self) -> ast::SourceFile {
        <ast::SourceFile as ast::AstNode>::cast(self.syntax())
            .expect("the root is always a SOURCE_FILE")
    }

    pub fn errors(&self) -> &[Diagnostic] {
        &self.errors
    }

    pub(crate) fn from_parts(green: GreenNode, errors: Vec<Diagnostic>) -> Parse {
        Parse { green, errors }
    }
}

/// Texts from this size on build their tree on every core; for smaller
/// ones, handing work to other threads costs more than it saves.
const PARALLEL_MIN_LEN: usize = 256 * 1024;

/// Lexes and parses `text`.
pub fn parse(text: &str) -> Parse {
    let threads = if text.len() >= PARALLEL_MIN_LEN {
        rayon::current_num_threads()
    } else {
        1
    };
    parse_on_threads(text, threads)
}

/// [`parse`] with the tree built on `threads` threads, each building a run of
/// top-level items: the same tree for any count (tested), exposed for those
/// tests and for benchmarks.
#[doc(hidden)]
pub fn parse_on_threads(text: &str, threads: usize) -> Parse {
    let lexed = lex(text);
    let mut parser = parser::Parser::new(text, &lexed);
    grammar::source_file(&mut parser);
    let (events, syntax_errors) = parser.finish();
    let green = parser::build_tree(text, &lexed, &events, threads);
    let mut errors = lexed.errors;
    errors.extend(syntax_errors);
    easyflow_diagnostics::sort(&mut errors);
    Parse { green, errors }
}

/// The tree as text: one line per node and token, indented two spaces per
/// level; nodes as `KIND@start..end`, tokens as `KIND@start..end "text"`
/// (the text JSON-escaped, offsets in bytes).
pub fn debug_tree(node: &SyntaxNode) -> String {
    let mut out = String::new();
    let mut indent = 0;
    for event in node.preorder_with_tokens() {
        match event {
            WalkEvent::Enter(element) => {
                let range = element.text_range();
                let _ = write!(
                    out,
                    "{:indent$}{:?}@{}..{}",
                    "",
                    element.kind(),
                    u32::from(range.start()),
                    u32::from(range.end()),
                );
                if let NodeOrToken::Token(token) = &element {
                    out.push(' ');
                    json_escape_into(token.text(), &mut out);
                }
                out.push('\n');
                indent += 2;
            }
            WalkEvent::Leave(_) => indent -= 2,
        }
    }
    out
}

/// Writes `text` as a JSON string literal.
pub fn json_escape_into(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
