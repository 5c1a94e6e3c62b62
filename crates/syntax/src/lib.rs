//! The EasyFlow syntax layer: [`lex`] (logos), [`parse`] (an error-resilient,
//! recursive descent parser that builds the tree as it goes) into a lossless rowan tree, and the
//! typed [`ast`] over it, generic over the [`tree`] it reads. Knows nothing
//! of salsa, the LSP or files.
//!
//! Parsing never fails: every input, garbage included, gives a tree that
//! covers every byte of it, plus the lexical and syntax diagnostics (E01xx).

pub mod ast;
mod grammar;
pub mod green;
mod lexer;
mod parser;
mod reparse;
mod string_literal;
mod syntax_kind;
pub mod tree;

use std::fmt::Write;
use std::sync::Arc;

use easyflow_diagnostics::Diagnostic;
pub use easyflow_diagnostics::{TextRange, TextSize};
pub use rowan::{GreenNode, NodeOrToken, WalkEvent};

pub use crate::lexer::{Lexed, lex};
pub use crate::reparse::reparse;
pub use crate::syntax_kind::{
    EasyFlowLanguage, SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken,
};

/// The result of parsing one text: a green tree (cheap to clone, `Send`,
/// storable in a database), the lexical and syntax errors, sorted, and the
/// hash of each top-level item's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parse {
    green: GreenNode,
    errors: Vec<Diagnostic>,
    /// Per child of the root, the 128-bit hash of its text (0 for a token):
    /// an item's identity for the analysis, made once when the item is
    /// parsed and kept for unchanged items by [`reparse`], so that an edit
    /// does not rehash the whole file.
    item_hashes: Arc<[u128]>,
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

    /// The hash of the text of the root's `index`-th child ([`item_hash`]),
    /// 0 for a token.
    pub fn item_hash(&self, index: usize) -> u128 {
        self.item_hashes[index]
    }

    pub(crate) fn item_hashes(&self) -> &[u128] {
        &self.item_hashes
    }

    pub(crate) fn from_parts(
        green: GreenNode,
        errors: Vec<Diagnostic>,
        item_hashes: Arc<[u128]>,
    ) -> Parse {
        debug_assert_eq!(item_hashes.len(), green.children().len());
        Parse {
            green,
            errors,
            item_hashes,
        }
    }
}

/// The hash that identifies an item's text (xxh3, 128 bits: collisions
/// are negligible among any file's items).
pub fn item_hash(text: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(text.as_bytes())
}

/// [`Parse::item_hash`] of every child of `root`, whose text is `text`;
/// on `threads` threads for a large text.
fn item_hashes(text: &str, root: &GreenNode, threads: usize) -> Arc<[u128]> {
    let mut offset = 0usize;
    let items: Vec<Option<std::ops::Range<usize>>> = root
        .children()
        .map(|child| {
            let start = offset;
            offset += usize::from(match child {
                NodeOrToken::Node(node) => node.text_len(),
                NodeOrToken::Token(token) => token.text_len(),
            });
            child.as_node().map(|_| start..offset)
        })
        .collect();
    let hash = |range: &Option<std::ops::Range<usize>>| {
        range
            .as_ref()
            .map_or(0, |range| item_hash(&text[range.clone()]))
    };
    if threads > 1 {
        use rayon::prelude::*;
        items.par_iter().with_min_len(1024).map(hash).collect()
    } else {
        items.iter().map(hash).collect()
    }
}

/// Texts from this size on are parsed in two halves at once; for smaller
/// ones, handing work to another thread costs more than it saves.
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

/// [`parse`] in two halves at the same time when `threads` is more than one
/// (see [`parse_halves`]): the same tree either way (tested), exposed for
/// those tests and for benchmarks.
#[doc(hidden)]
pub fn parse_on_threads(text: &str, threads: usize) -> Parse {
    let halves = (threads > 1)
        .then(|| split_point(text))
        .flatten()
        .and_then(|middle| parse_halves(text, middle));
    let (green, mut errors) = halves.unwrap_or_else(|| {
        let (green, lexed_errors, syntax_errors, _) = lex_and_parse(text);
        let mut errors = lexed_errors;
        errors.extend(syntax_errors);
        (green, errors)
    });
    easyflow_diagnostics::sort(&mut errors);
    let item_hashes = item_hashes(text, &green, threads);
    Parse::from_parts(green, errors, item_hashes)
}

/// A text's tree, lexical errors and syntax errors, and whether it begins
/// with tokens that begin an item whatever came before it.
type LexedAndParsed = (GreenNode, Vec<Diagnostic>, Vec<Diagnostic>, bool);

/// Lexes and parses `text`; the tokens are dropped once the tree is built.
fn lex_and_parse(text: &str) -> LexedAndParsed {
    let lexed = lex(text);
    let mut parser = parser::Parser::new(text, &lexed);
    grammar::source_file(&mut parser);
    let (green, syntax_errors) = parser.finish();
    // What the parser takes for the start of an item, wherever it is (also
    // where error recovery in a text before this one would stop): see
    // `grammar.rs`.
    let mut leading = lexed.kinds().iter().filter(|kind| !kind.is_trivia());
    let starts_an_item = matches!(
        (leading.next(), leading.next(), leading.next()),
        (Some(SyntaxKind::STEP_KW), Some(SyntaxKind::IDENT), _)
            | (Some(SyntaxKind::L_BRACK), Some(SyntaxKind::FLOW_KW), _)
            | (
                Some(SyntaxKind::L_BRACK),
                Some(SyntaxKind::IDENT),
                Some(SyntaxKind::EQ)
            )
    );
    (green, lexed.errors, syntax_errors, starts_an_item)
}

/// Where the text can probably be cut in two halves that lex and parse on
/// their own as they do in the whole, near the middle: after a `;` that ends
/// a line, then a blank line, at a line that begins an item (`step ` or `[`).
fn split_point(text: &str) -> Option<usize> {
    let middle = text.len() / 2;
    let from = (0..=middle).rev().find(|&i| text.is_char_boundary(i))?;
    let rest = &text[from..];
    [";\n\nstep ", ";\n\n["]
        .iter()
        .filter_map(|pattern| rest.find(pattern).map(|at| from + at + 3))
        .min()
}

/// Lexes and parses the two halves of `text` cut at `middle` at the same
/// time, and joins their trees' items under one root, when that is sure to
/// give what one pass gives: nothing of the first half runs into the second
/// (its last item ends with its own `;`; no unterminated token; no syntax
/// error at its end, where it saw the end of the text instead of the next
/// item), and the second begins with tokens that begin an item whatever
/// came before. Otherwise `None`. The tree and errors, unsorted.
fn parse_halves(text: &str, middle: usize) -> Option<(GreenNode, Vec<Diagnostic>)> {
    let (first_text, second_text) = text.split_at(middle);
    let (
        (first, mut errors, first_syntax_errors, _),
        (second, second_lexed_errors, second_syntax_errors, second_starts_an_item),
    ) = rayon::join(|| lex_and_parse(first_text), || lex_and_parse(second_text));
    // The first half's last item must have ended with its own `;` (its last
    // token, direct child of an item of the root): an item that had not
    // (say, attributes waiting for their `step`) would go on into the second.
    let is_trivia =
        |kind: rowan::SyntaxKind| SyntaxKind::from_raw(kind.0).is_some_and(SyntaxKind::is_trivia);
    let trailing_trivia: TextSize = first
        .children()
        .rev()
        .take_while(|child| is_trivia(child.kind()))
        .map(|child| child.text_len())
        .sum();
    let last_token_end = first.text_len() - trailing_trivia;
    let ends_with_semicolon = matches!(
        first.children().rev().find(|child| !is_trivia(child.kind())),
        Some(NodeOrToken::Node(item)) if matches!(
            item.children().last(),
            Some(NodeOrToken::Token(token))
                if token.kind() == SyntaxKind::SEMICOLON.into()
        )
    );
    if !second_starts_an_item
        || !ends_with_semicolon
        || errors.iter().any(lexer::is_unterminated)
        || first_syntax_errors
            .iter()
            .any(|error| error.range.end() >= last_token_end)
    {
        return None;
    }
    errors.extend(first_syntax_errors);
    let offset = TextSize::of(first_text);
    errors.extend(
        second_lexed_errors
            .into_iter()
            .chain(second_syntax_errors)
            .map(|error| error.moved(|range| range + offset)),
    );
    let children: Vec<_> = first
        .children()
        .chain(second.children())
        .map(|child| child.to_owned())
        .collect();
    Some((GreenNode::new(first.kind(), children), errors))
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
