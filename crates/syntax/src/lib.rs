//! The EasyFlow syntax layer: [`lex`] (logos), [`parse`] (an error-resilient,
//! recursive descent parser that builds the tree as it goes) into a lossless rowan tree, and the
//! typed [`ast`] over it, generic over the [`tree`] it reads; a flow's text
//! ([`SourceText`]) and its positions in lines and columns ([`line_index`]).
//! Knows nothing of salsa, the LSP or files.
//!
//! Parsing never fails: every input, garbage included, gives a tree that
//! covers every byte of it, plus the lexical and syntax diagnostics (E01xx).

pub mod ast;
mod builder;
mod chunk;
mod grammar;
pub mod green;
mod lexer;
pub mod line_index;
mod parser;
mod reparse;
mod step_member;
mod string_literal;
mod syntax_kind;
mod text;
pub mod tree;
pub mod value;

use std::fmt::Write;
use std::sync::Arc;

use easyflow_diagnostics::Diagnostic;
pub use easyflow_diagnostics::{TextRange, TextSize};
pub use rowan::{GreenNode, GreenNodeData, NodeOrToken, WalkEvent};

pub use crate::chunk::{CHUNK_ITEMS, ChunkItem, ChunkItems, MAX_CHUNK_ITEMS, ends_chunk};
use crate::chunk::{GreenElement, chunked_root, chunked_root_of_pieces};
pub use crate::lexer::{Lexed, lex};
pub use crate::reparse::reparse;
pub use crate::step_member::StepMember;
pub use crate::string_literal::unescape;
pub use crate::syntax_kind::{
    EasyFlowLanguage, SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken,
};
pub use crate::text::SourceText;

/// The result of parsing one text: a green tree (cheap to clone, `Send`,
/// storable in a database) whose root holds the top-level items in chunks
/// (`ITEM_CHUNK`, [`chunk`](crate::ChunkItems)), the lexical and syntax
/// errors, sorted, and each chunk's items with their text hashes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parse {
    green: GreenNode,
    errors: Vec<Diagnostic>,
    /// Per chunk (child of the root), its items: their 128-bit text hashes
    /// are an item's identity for the analysis, made once when the item is
    /// parsed and kept for unchanged items by [`reparse`], so that an edit
    /// does not rehash the whole file; shared, so that an edit copies one
    /// pointer per chunk.
    chunks: Arc<[Arc<ChunkItems>]>,
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

    /// The top-level items that are not steps (requires, flow attributes,
    /// error nodes), in order, found through the chunks' lists of items:
    /// no walk over the steps.
    pub fn non_step_items(&self) -> impl Iterator<Item = green::GreenRef<'_>> {
        let chunks = green::GreenRef::root(&self.green).child_nodes();
        chunks.zip(self.chunks.iter()).flat_map(|(chunk, items)| {
            items
                .others()
                .iter()
                .filter_map(move |item| chunk.child_node(item.index as usize, item.offset))
        })
    }

    /// The items of each chunk, the root's children, in order.
    pub fn chunks(&self) -> &[Arc<ChunkItems>] {
        &self.chunks
    }

    pub(crate) fn from_parts(
        green: GreenNode,
        errors: Vec<Diagnostic>,
        chunks: Arc<[Arc<ChunkItems>]>,
    ) -> Parse {
        debug_assert_eq!(chunks.len(), green.children().len());
        Parse {
            green,
            errors,
            chunks,
        }
    }
}

/// The hash that identifies an item's text (xxh3, 128 bits: collisions
/// are negligible among any file's items).
pub fn item_hash(text: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(text.as_bytes())
}

/// [`item_hash`] of every one of `children`, whose text is `text`, 0 for a
/// token; on `threads` threads for a large text.
fn item_hashes(text: &str, children: &[GreenElement], threads: usize) -> Vec<u128> {
    let mut offset = 0usize;
    let mut item_range = |child: &GreenElement| {
        let start = offset;
        offset += usize::from(child.text_len());
        child.as_node().map(|_| start..offset)
    };
    let hash =
        |range: Option<std::ops::Range<usize>>| range.map_or(0, |range| item_hash(&text[range]));
    if threads > 1 {
        use rayon::prelude::*;
        let items: Vec<_> = children.iter().map(item_range).collect();
        items.into_par_iter().with_min_len(1024).map(hash).collect()
    } else {
        children
            .iter()
            .map(|child| hash(item_range(child)))
            .collect()
    }
}

/// Texts from this size on are parsed in pieces at once, on every thread;
/// for smaller ones, handing work to another thread costs more than it
/// saves.
const PARALLEL_MIN_LEN: usize = 256 * 1024;

/// About how long a piece is (and at least one per thread): a piece's
/// tokens and its builder's tables stay in the processor's cache while it
/// is parsed, and live only then (100k steps on 2 threads, against one
/// piece per thread: CPU time -8 to -13 %, the parse's peak heap 255 ->
/// 188 MB, the tree 163.3 -> 161.6 MB).
const PIECE_LEN: usize = 64 << 10;

/// How many pieces [`parse`] cuts `text` into on this machine's threads
/// (one below [`PARALLEL_MIN_LEN`]): for whoever works through a large
/// text piece by piece as the parser does (the formatter), see [`pieces`].
pub fn piece_count(text: &str) -> usize {
    piece_count_on(text.len(), threads_for(text))
}

fn piece_count_on(len: usize, threads: usize) -> usize {
    if threads > 1 {
        (len / PIECE_LEN).max(threads)
    } else {
        1
    }
}

/// Lexes and parses `text`.
pub fn parse(text: &str) -> Parse {
    parse_on_threads(text, threads_for(text))
}

/// The errors [`parse`] reports for `text`, lexed as `lexed`, without
/// building its tree: for a caller that only needs to know a text is
/// well-formed (the formatter's check of its output), at a fraction of the
/// time and memory of the tree.
pub fn syntax_errors(text: &str, lexed: &Lexed) -> Vec<Diagnostic> {
    let mut parser = parser::Parser::without_tree(text, lexed);
    grammar::source_file(&mut parser);
    let (_, syntax_errors) = parser.finish();
    let mut errors = lexed.errors.clone();
    errors.extend(syntax_errors);
    easyflow_diagnostics::sort(&mut errors);
    errors
}

pub(crate) fn threads_for(text: &str) -> usize {
    if text.len() >= PARALLEL_MIN_LEN {
        rayon::current_num_threads()
    } else {
        1
    }
}

/// [`parse`] in pieces of about [`PIECE_LEN`] on `threads` threads at the
/// same time when `threads` is more than one (see [`parse_in_pieces`]), its
/// chunks made on every thread too: the same tree either way (tested),
/// exposed for those tests and for benchmarks.
#[doc(hidden)]
pub fn parse_on_threads(text: &str, threads: usize) -> Parse {
    match parse_in_pieces(text, threads) {
        Some(pieces) => {
            let errors = pieces_errors(&pieces);
            let (green, chunks) = chunked_root_of_pieces(
                pieces
                    .into_iter()
                    .map(|piece| (piece.children, piece.hashes))
                    .collect(),
            );
            Parse::from_parts(green, errors, chunks)
        }
        None => {
            let items = parse_whole(text, threads);
            let (green, chunks) = chunked_root(items.children, &items.hashes);
            Parse::from_parts(green, items.errors, chunks)
        }
    }
}

/// The root's children of a text's tree, before they are cut into chunks.
pub(crate) struct ParsedItems {
    pub(crate) children: Vec<GreenElement>,
    /// [`item_hash`] of each child, 0 for a token.
    pub(crate) hashes: Vec<u128>,
    /// Sorted.
    pub(crate) errors: Vec<Diagnostic>,
}

/// Lexes and parses `text` (see [`parse_on_threads`]) up to the root's
/// children.
pub(crate) fn parse_items(text: &str, threads: usize) -> ParsedItems {
    let Some(pieces) = parse_in_pieces(text, threads) else {
        return parse_whole(text, threads);
    };
    let errors = pieces_errors(&pieces);
    let (mut children, mut hashes) = (Vec::new(), Vec::new());
    for piece in pieces {
        children.extend(piece.children);
        hashes.extend(piece.hashes);
    }
    ParsedItems {
        children,
        hashes,
        errors,
    }
}

/// Lexes and parses `text` in one pass, hashing its items on `threads`
/// threads.
fn parse_whole(text: &str, threads: usize) -> ParsedItems {
    let (lexed, tokens) = lexer::lex_for_parser(text);
    let (children, syntax_errors) = parse_tokens(text, &lexed, tokens);
    let mut errors = lexed.errors;
    errors.extend(syntax_errors);
    easyflow_diagnostics::sort(&mut errors);
    let hashes = item_hashes(text, &children, threads);
    ParsedItems {
        children,
        hashes,
        errors,
    }
}

/// A piece of a text lexed and parsed on its own: the root's children,
/// their item hashes, and its errors, with where it starts in the text and
/// whether it begins with tokens that begin an item whatever came before
/// it.
struct ParsedPiece {
    start: TextSize,
    children: Vec<GreenElement>,
    /// [`item_hash`] of each child, 0 for a token.
    hashes: Vec<u128>,
    lexed_errors: Vec<Diagnostic>,
    syntax_errors: Vec<Diagnostic>,
    starts_an_item: bool,
}

/// Lexes, parses and hashes the items of the piece `range` of `text`; the
/// tokens are dropped once the tree is built.
fn parse_piece(text: &str, range: std::ops::Range<usize>) -> ParsedPiece {
    let start = TextSize::new(range.start as u32);
    let text = &text[range];
    let (lexed, tokens) = lexer::lex_for_parser(text);
    let (children, syntax_errors) = parse_tokens(text, &lexed, tokens);
    // Hashed here, while the piece's text is in the processor's cache.
    let hashes = item_hashes(text, &children, 1);
    ParsedPiece {
        start,
        starts_an_item: starts_an_item(&lexed),
        children,
        hashes,
        lexed_errors: lexed.errors,
        syntax_errors,
    }
}

/// The errors of `pieces`, moved to their places in the text, sorted.
fn pieces_errors(pieces: &[ParsedPiece]) -> Vec<Diagnostic> {
    let mut errors: Vec<Diagnostic> = pieces
        .iter()
        .flat_map(|piece| {
            piece
                .lexed_errors
                .iter()
                .chain(&piece.syntax_errors)
                .map(|error| error.clone().moved(|range| range + piece.start))
        })
        .collect();
    easyflow_diagnostics::sort(&mut errors);
    errors
}

/// The root's children and the syntax errors of `text`, lexed as `lexed`
/// with the non-trivia `tokens`.
fn parse_tokens(
    text: &str,
    lexed: &Lexed,
    tokens: Vec<lexer::SignificantToken>,
) -> (Vec<GreenElement>, Vec<Diagnostic>) {
    let mut parser = parser::Parser::new(text, lexed, tokens);
    grammar::source_file(&mut parser);
    parser.finish()
}

/// Whether a text, lexed as `lexed`, begins with tokens that the parser
/// takes for the start of an item wherever they stand (also where error
/// recovery in a text before this one would stop): see `grammar.rs`.
pub fn starts_an_item(lexed: &Lexed) -> bool {
    let mut leading = lexed.kinds().iter().filter(|kind| !kind.is_trivia());
    matches!(
        (leading.next(), leading.next(), leading.next()),
        (Some(SyntaxKind::STEP_KW), Some(SyntaxKind::IDENT), _)
            | (Some(SyntaxKind::L_BRACK), Some(SyntaxKind::FLOW_KW), _)
            | (
                Some(SyntaxKind::L_BRACK),
                Some(SyntaxKind::IDENT),
                Some(SyntaxKind::EQ)
            )
    )
}

/// Whether the last token of a text, lexed as `lexed`, is a `;`. In a text
/// without syntax errors, that `;` is the last token of its item (a step or
/// a `require`: anywhere else, a `;` is an error), so nothing of the text
/// runs into a text after it. With [`starts_an_item`] for that next text:
/// texts without errors, each of which ends with a `;` (but the last) and
/// starts an item (but the first), parse joined as they parse apart, with
/// no error either.
pub fn ends_an_item(lexed: &Lexed) -> bool {
    lexed
        .kinds()
        .iter()
        .rev()
        .find(|kind| !kind.is_trivia())
        .is_some_and(|kind| *kind == SyntaxKind::SEMICOLON)
}

/// A text parsed with its tokens kept, for a caller that reads both (the
/// formatter: the tree, the comments, the tokens it must keep).
pub struct LexedParse {
    pub lexed: Lexed,
    pub parse: Parse,
}

/// Lexes and parses `text` on the current thread, keeping the tokens: the
/// same tree and errors as [`parse`].
pub fn parse_keeping_tokens(text: &str) -> LexedParse {
    let (lexed, tokens) = lexer::lex_for_parser(text);
    let (children, syntax_errors) = parse_tokens(text, &lexed, tokens);
    let mut errors = lexed.errors.clone();
    errors.extend(syntax_errors);
    easyflow_diagnostics::sort(&mut errors);
    let hashes = item_hashes(text, &children, 1);
    let (green, chunks) = chunked_root(children, &hashes);
    LexedParse {
        lexed,
        parse: Parse::from_parts(green, errors, chunks),
    }
}

/// Where [`parse`] would cut `text` into `pieces` pieces to parse them on
/// as many threads (see `split_points`): the pieces' ranges, in order,
/// covering the text; one range when it cannot be cut. A caller that
/// works through a large text piece by piece must check, as [`parse`]
/// does, that the pieces stand alone: see [`ends_an_item`].
pub fn pieces(text: &str, pieces: usize) -> Vec<std::ops::Range<usize>> {
    let points = if pieces > 1 {
        split_points(text, pieces)
    } else {
        Vec::new()
    };
    std::iter::once(0)
        .chain(points.iter().copied())
        .zip(points.iter().copied().chain(std::iter::once(text.len())))
        .map(|(start, end)| start..end)
        .collect()
}

/// Where the text can probably be cut into `pieces` pieces of about the
/// same length that lex and parse on their own as they do in the whole:
/// after a `;` that ends a line, then a blank line, at a line that begins
/// an item (`step ` or `[`), at or after each `k/pieces` of the text; in
/// increasing order, without repeats (fewer points when the text has too
/// few such places).
fn split_points(text: &str, pieces: usize) -> Vec<usize> {
    let mut points: Vec<usize> = Vec::with_capacity(pieces - 1);
    for k in 1..pieces {
        let target = text.len() / pieces * k;
        let from = (0..=target)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0)
            .max(points.last().copied().unwrap_or(0));
        let rest = &text[from..];
        let point = [";\n\nstep ", ";\n\n["]
            .iter()
            .filter_map(|pattern| rest.find(pattern).map(|at| from + at + 3))
            .min();
        match point {
            Some(point) if points.last() != Some(&point) => points.push(point),
            Some(_) => {}
            None => break,
        }
    }
    points
}

/// Lexes and parses `text` in pieces (see [`pieces`]) at the same time on
/// `threads` threads, when that is sure to give what one pass gives:
/// nothing of a piece runs into the next (its last item ends with its own
/// `;`; no unterminated token; no syntax error at its end, where it saw
/// the end of the text instead of the next item), and every piece but the
/// first begins with tokens that begin an item whatever came before.
/// Otherwise (or on one thread, or for one piece) `None`.
fn parse_in_pieces(text: &str, threads: usize) -> Option<Vec<ParsedPiece>> {
    if threads < 2 {
        return None;
    }
    parse_pieces(text, pieces(text, piece_count_on(text.len(), threads)))
}

/// [`parse_in_pieces`] in the pieces `bounds` (from [`pieces`]).
fn parse_pieces(text: &str, bounds: Vec<std::ops::Range<usize>>) -> Option<Vec<ParsedPiece>> {
    use rayon::prelude::*;
    if bounds.len() < 2 {
        return None;
    }
    let pieces: Vec<ParsedPiece> = bounds
        .into_par_iter()
        .map(|range| parse_piece(text, range))
        .collect();
    let last = pieces.len() - 1;
    for (k, piece) in pieces.iter().enumerate() {
        let next_starts_an_item = pieces.get(k + 1).is_none_or(|next| next.starts_an_item);
        if !next_starts_an_item || (k < last && !ends_on_its_own(piece)) {
            return None;
        }
    }
    Some(pieces)
}

/// Whether nothing of a piece of text, parsed into `children` with these
/// errors, would run into a text after it: its last item ended with its own
/// `;` (its last token, direct child of an item of the root; an item that
/// had not, say attributes waiting for their `step`, would go on into the
/// next), no token is unterminated, and no syntax error is at its end.
fn ends_on_its_own(piece: &ParsedPiece) -> bool {
    let ParsedPiece {
        children,
        lexed_errors,
        syntax_errors,
        ..
    } = piece;
    let is_trivia =
        |kind: rowan::SyntaxKind| SyntaxKind::from_raw(kind.0).is_some_and(SyntaxKind::is_trivia);
    let trailing_trivia: TextSize = children
        .iter()
        .rev()
        .take_while(|child| is_trivia(child.kind()))
        .map(|child| child.text_len())
        .sum();
    let len: TextSize = children.iter().map(|child| child.text_len()).sum();
    let last_token_end = len - trailing_trivia;
    let ends_with_semicolon = matches!(
        children.iter().rev().find(|child| !is_trivia(child.kind())),
        Some(NodeOrToken::Node(item)) if matches!(
            item.children().last(),
            Some(NodeOrToken::Token(token))
                if token.kind() == SyntaxKind::SEMICOLON.into()
        )
    );
    ends_with_semicolon
        && !lexed_errors.iter().any(lexer::is_unterminated)
        && !syntax_errors
            .iter()
            .any(|error| error.range.end() >= last_token_end)
}

/// The top-level items and the trivia between them, in order: the children
/// of the root's chunks (the chunks are a grouping of the tree, not of the
/// language).
pub fn top_level_children(root: &SyntaxNode) -> impl Iterator<Item = SyntaxElement> + use<> {
    root.children()
        .flat_map(|chunk| chunk.children_with_tokens())
}

/// The tree as text: one line per node and token, indented two spaces per
/// level; nodes as `KIND@start..end`, tokens as `KIND@start..end "text"`
/// (the text JSON-escaped, offsets in bytes).
pub fn debug_tree(node: &SyntaxNode) -> String {
    let mut out = String::new();
    let mut indent = 0;
    // The chunks are a grouping of the tree, not of the language: their
    // items are shown as the root's children.
    let is_chunk = |element: &SyntaxElement| element.kind() == SyntaxKind::ITEM_CHUNK;
    for event in node.preorder_with_tokens() {
        match event {
            WalkEvent::Enter(element) if is_chunk(&element) => {}
            WalkEvent::Leave(element) if is_chunk(&element) => {}
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A large valid flow is cut into the pieces asked for, and the pieces
    /// are joined (the property tests check that the tree is one pass's; this,
    /// that the pieces are not given up for one pass).
    #[test]
    fn a_valid_flow_is_parsed_in_the_pieces_asked_for() {
        let text = easyflow_genflow::generate(2_000, 5);
        for threads in [2, 3, 4, 7] {
            let bounds = pieces(&text, threads);
            assert_eq!(bounds.len(), threads, "{threads} threads");
            let longest = bounds.iter().map(|piece| piece.len()).max().unwrap();
            assert!(
                longest < text.len() / threads * 2,
                "{threads} threads: {longest}"
            );
            assert!(parse_pieces(&text, bounds).is_some(), "{threads} threads");
        }
    }
}
