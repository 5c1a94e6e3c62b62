//! Incremental reparsing, for any edit: only a run of top-level items around
//! the edit is lexed and parsed again, and its items are spliced into the
//! previous root in place of the old ones, the way rust-analyzer reparses a
//! block and tree-sitter an edited range. The run begins right after an
//! item that ends with its own `;` (nothing after it can change how it or
//! anything before it parses) and ends before an item that begins one
//! whatever precedes it; it grows until the reparsed text ends cleanly there
//! (its last item ends with its own `;`, no unterminated string, comment or
//! code block, no error at its end), which is where a parse of the whole
//! text resynchronises too. The result is always the tree and errors a full
//! parse gives (property tests); when the run cannot be closed within a
//! bounded distance, [`reparse`] says `None` and the caller parses the
//! whole text.

use easyflow_diagnostics::{Diagnostic, TextRange, TextSize};
use rowan::{GreenNode, GreenNodeData, NodeOrToken};

use crate::chunk::{ChunkCutter, ChunkItems};
use crate::{Parse, ParsedItems, SourceText, SyntaxKind, SyntaxNode, parse_items, threads_for};

/// How many times the run grows before the whole text is parsed instead
/// (each time by twice as many items to the right, and past one more
/// anchor to the left).
const MAX_ATTEMPTS: u32 = 6;
/// How far (in top-level children) a run's end is looked for.
const MAX_DISTANCE: usize = 256;

/// The parse of `new_text`, which is the text of `old` with `deleted`
/// replaced by `inserted`, made by reparsing only the items around the
/// edit; `None` when that cannot be done within a bounded distance.
pub fn reparse(
    old: &Parse,
    deleted: TextRange,
    inserted: &str,
    new_text: &SourceText,
) -> Option<Parse> {
    let root = old.green();
    let old_len = root.text_len();
    if deleted.end() > old_len || new_text.len() != old_len - deleted.len() + TextSize::of(inserted)
    {
        return None;
    }
    let children = Children::new(root);
    // The children the edit touches, and the one before when the edit
    // starts where it ends (a token there may join what is inserted).
    let first = children.child_at(deleted.start().checked_sub(1.into()).unwrap_or_default());
    let last = children.child_at(deleted.end());
    let mut anchor = children.anchor_before(first, old.errors())?;
    let mut end = children.resync_after(last, old.errors())?;
    let edit = Edit {
        deleted,
        inserted,
        new_text,
    };
    for attempt in 0..MAX_ATTEMPTS {
        match reparse_run(old, &children, anchor, end, &edit) {
            Run::Done(parse) => return Some(parse),
            Run::Never => return None,
            Run::Grow => {}
        }
        if children.is_end(end) && anchor.is_none() {
            return None;
        }
        for _ in 0..(1usize << attempt) {
            if children.is_end(end) {
                break;
            }
            end = children.resync_after(end, old.errors())?;
        }
        if let Some(child) = anchor {
            anchor = children.anchor_before(child, old.errors())?;
        }
    }
    None
}

struct Edit<'a> {
    deleted: TextRange,
    inserted: &'a str,
    new_text: &'a SourceText,
}

impl Edit<'_> {
    /// Where `offset` of the old text, at or after the deleted range, is now.
    fn moved(&self, offset: TextSize) -> TextSize {
        debug_assert!(offset >= self.deleted.end());
        offset - self.deleted.len() + TextSize::of(self.inserted)
    }
}

enum Run {
    Done(Parse),
    /// The run does not end cleanly: a longer one may.
    Grow,
    /// No run can: the edit changes the rest of the text (an unterminated
    /// string, comment or code block swallows it).
    Never,
}

/// Reparses the text between the end of `anchor` (or the start of the text)
/// and the start of `end` (old offsets), if that is what a full parse gives.
fn reparse_run(
    old: &Parse,
    children: &Children<'_>,
    anchor: Option<Child>,
    end: Child,
    edit: &Edit<'_>,
) -> Run {
    let start = anchor.map_or(TextSize::from(0), |a| a.end(children));
    let (old_start, old_end) = (start, end.start);
    let new_end = edit.moved(old_end);
    let Some(text) = edit.new_text.get(TextRange::new(start, new_end)) else {
        return Run::Never;
    };
    let text = &*text;
    let reparsed = parse_items(text, threads_for(text));
    if !children.is_end(end) {
        if reparsed.errors.iter().any(crate::lexer::is_unterminated) {
            return Run::Never;
        }
        if !ends_cleanly(&reparsed, text) {
            return Run::Grow;
        }
    }
    // The old errors: before the run they stay, after it they move, inside
    // it they are replaced by the run's; one that crosses either end (or
    // sits right at the run's end, where it may belong to either side)
    // leaves the edit to a full parse.
    let new_start_of_rest = new_end;
    let mut errors = Vec::with_capacity(old.errors().len() + reparsed.errors.len());
    for error in old.errors() {
        let ranges = || std::iter::once(&error.range).chain(error.related.iter().map(|r| &r.range));
        if ranges().all(|r| r.end() <= old_start && r.start() < old_start) {
            errors.push(error.clone());
        } else if ranges().all(|r| r.start() > old_end) {
            errors.push(error.clone().moved(|r| r - old_end + new_start_of_rest));
        } else if ranges()
            .all(|r| old_start <= r.start() && r.end() <= old_end && r.start() < old_end)
        {
            // Replaced by the run's own.
        } else {
            return Run::Grow;
        }
    }
    errors.extend(
        reparsed
            .errors
            .iter()
            .map(|error| error.clone().moved(|r| r + start)),
    );
    easyflow_diagnostics::sort(&mut errors);
    let first = anchor.map_or_else(|| children.first(), |a| children.next(a));
    let (green, chunks) = splice(old, children, first, end, reparsed);
    Run::Done(Parse::from_parts(green, errors, chunks))
}

/// The root and chunks of `old` with the children from `first` up to `end`
/// replaced by `reparsed`'s: the chunks from `first`'s to the one where
/// the new cut meets an old chunk boundary again are cut anew (an edit to
/// a chunk's last item can move its end), the others are kept as they are.
fn splice(
    old: &Parse,
    children: &Children<'_>,
    first: Child,
    end: Child,
    reparsed: ParsedItems,
) -> (GreenNode, std::sync::Arc<[std::sync::Arc<ChunkItems>]>) {
    let mut cutter = ChunkCutter::new();
    // The chunk of `first` begins where one was cut by the rule (every
    // chunk but the last ends that way, and `first` is never past the
    // last), so cutting again from its start gives what a full parse gives.
    let from = first.chunk;
    let push_old = |cutter: &mut ChunkCutter, chunk: usize, range: std::ops::Range<usize>| {
        let node = children.chunk(chunk);
        let hashes = old.chunks()[chunk].child_hashes(node.children().len());
        for (child, hash) in node
            .children()
            .zip(hashes)
            .skip(range.start)
            .take(range.len())
        {
            cutter.push(child.to_owned(), hash);
        }
    };
    if !children.is_end(first) {
        push_old(&mut cutter, from, 0..first.index);
    }
    for (child, hash) in reparsed.children.into_iter().zip(reparsed.hashes) {
        cutter.push(child, hash);
    }
    let to = if children.is_end(end) {
        children.chunk_count
    } else if end.index == 0 && !cutter.is_open() {
        end.chunk
    } else {
        push_old(
            &mut cutter,
            end.chunk,
            end.index..children.chunk_len(end.chunk),
        );
        let mut to = end.chunk + 1;
        // Until a cut falls where an old chunk ended: the rest is cut as
        // it was.
        while cutter.is_open() && to < children.chunk_count {
            push_old(&mut cutter, to, 0..children.chunk_len(to));
            to += 1;
        }
        to
    };
    let (nodes, items): (Vec<_>, Vec<_>) = cutter.finish().into_iter().unzip();
    let green = children
        .root
        .splice_children(from..to, nodes.into_iter().map(NodeOrToken::Node));
    let old_chunks = old.chunks();
    let mut chunks = Vec::with_capacity(from + items.len() + old_chunks.len() - to);
    chunks.extend_from_slice(&old_chunks[..from]);
    chunks.extend(items);
    chunks.extend_from_slice(&old_chunks[to..]);
    (green, chunks.into())
}

/// Whether the parse of a run's `text` ends where a full parse resumes as
/// if it had parsed nothing before: after an item that ends with its own
/// `;` and reported no error at its end (where it saw the end of the text,
/// not what follows), then only trivia that the next token cannot extend.
fn ends_cleanly(reparsed: &ParsedItems, text: &str) -> bool {
    if !text.ends_with([' ', '\t', '\n', '\r', ';']) && !text.is_empty() {
        return false;
    }
    // A line comment at the end runs on into whatever follows on its line
    // (found by the session fuzzer: `tests/data/lsp/sessions/`).
    if matches!(
        reparsed.children.last(),
        Some(NodeOrToken::Token(token)) if kind(token.kind()) == SyntaxKind::LINE_COMMENT
    ) {
        return false;
    }
    let last_item = reparsed.children.iter().rev().find(|child| match child {
        NodeOrToken::Node(_) => true,
        NodeOrToken::Token(token) => !kind(token.kind()).is_trivia(),
    });
    let last_item_end = match last_item {
        None => return reparsed.errors.is_empty(),
        Some(NodeOrToken::Token(_)) => return false,
        Some(NodeOrToken::Node(item)) => {
            if !ends_itself(item) {
                return false;
            }
            // After the last item, only trivia tokens.
            let trailing: TextSize = reparsed
                .children
                .iter()
                .rev()
                .map_while(|child| child.as_token().map(|token| token.text_len()))
                .sum();
            TextSize::of(text) - trailing
        }
    };
    reparsed
        .errors
        .iter()
        .all(|error| error.range.end() < last_item_end)
}

fn kind(raw: rowan::SyntaxKind) -> SyntaxKind {
    SyntaxKind::from_raw(raw.0).unwrap_or(SyntaxKind::ERROR_NODE)
}

/// Whether an item ends with a token after which nothing can continue it:
/// its own `;`. (After `)` or a code block, a following `;`, `pre` or
/// `post` would belong to it.)
fn ends_itself(item: &GreenNodeData) -> bool {
    matches!(kind(item.kind()), SyntaxKind::STEP | SyntaxKind::REQUIRE)
        && matches!(
            item.children().last(),
            Some(NodeOrToken::Token(token)) if kind(token.kind()) == SyntaxKind::SEMICOLON
        )
}

/// A top-level child (a child of a chunk): its chunk, its index in it, and
/// where it starts in the old text. The end of the text is the position
/// `chunk_count`, 0.
#[derive(Debug, Clone, Copy)]
struct Child {
    chunk: usize,
    index: usize,
    start: TextSize,
}

impl Child {
    fn end(self, children: &Children<'_>) -> TextSize {
        self.start + children.len(self)
    }
}

/// The top-level children of the old tree, through its chunks, reached by
/// index (rowan's children iterator has O(1) `nth`) or by offset (rowan's
/// binary search over child offsets, in the root and then in a chunk).
struct Children<'a> {
    root: &'a GreenNodeData,
    red: SyntaxNode,
    chunk_count: usize,
}

impl<'a> Children<'a> {
    fn new(root: &'a GreenNode) -> Self {
        Children {
            root,
            red: SyntaxNode::new_root(root.clone()),
            chunk_count: root.children().len(),
        }
    }

    fn chunk(&self, chunk: usize) -> &'a GreenNodeData {
        self.root
            .children()
            .nth(chunk)
            .and_then(NodeOrToken::into_node)
            .expect("the root's children are chunk nodes")
    }

    fn chunk_len(&self, chunk: usize) -> usize {
        self.chunk(chunk).children().len()
    }

    fn is_end(&self, child: Child) -> bool {
        child.chunk >= self.chunk_count
    }

    fn end_of_text(&self) -> Child {
        Child {
            chunk: self.chunk_count,
            index: 0,
            start: self.root.text_len(),
        }
    }

    /// The first child (the end of an empty text).
    fn first(&self) -> Child {
        Child {
            chunk: 0,
            index: 0,
            start: 0.into(),
        }
    }

    fn get(&self, child: Child) -> NodeOrToken<&'a GreenNodeData, &'a rowan::GreenTokenData> {
        self.chunk(child.chunk)
            .children()
            .nth(child.index)
            .expect("an index below the chunk's length")
    }

    fn len(&self, child: Child) -> TextSize {
        match self.get(child) {
            NodeOrToken::Node(node) => node.text_len(),
            NodeOrToken::Token(token) => token.text_len(),
        }
    }

    /// The child after `child` (not the end of the text).
    fn next(&self, child: Child) -> Child {
        let start = child.start + self.len(child);
        if child.index + 1 < self.chunk_len(child.chunk) {
            Child {
                chunk: child.chunk,
                index: child.index + 1,
                start,
            }
        } else {
            Child {
                chunk: child.chunk + 1,
                index: 0,
                start,
            }
        }
    }

    /// The child before `child`, `None` at the start of the text.
    fn prev(&self, child: Child) -> Option<Child> {
        let (chunk, index) = if child.index > 0 {
            (child.chunk, child.index - 1)
        } else if child.chunk > 0 {
            (child.chunk - 1, self.chunk_len(child.chunk - 1) - 1)
        } else {
            return None;
        };
        let mut prev = Child {
            chunk,
            index,
            start: child.start,
        };
        prev.start -= self.len(prev);
        Some(prev)
    }

    /// The child that holds byte `offset` (the end of the text past it).
    fn child_at(&self, offset: TextSize) -> Child {
        if offset >= self.root.text_len() {
            return self.end_of_text();
        }
        let range = TextRange::at(offset, 1.into());
        let Some(NodeOrToken::Node(chunk)) = self.red.child_or_token_at_range(range) else {
            return self.end_of_text();
        };
        let (index, start) = match chunk.child_or_token_at_range(range) {
            Some(NodeOrToken::Node(node)) => (node.index(), node.text_range().start()),
            Some(NodeOrToken::Token(token)) => (token.index(), token.text_range().start()),
            None => return self.end_of_text(),
        };
        Child {
            chunk: chunk.index(),
            index,
            start,
        }
    }

    /// The nearest child before `child` that a run can start after: an item
    /// ending with its own `;` that no error touches. `None` for the start
    /// of the text; `Err` (as `None` of the outer option) when none is near.
    #[allow(clippy::option_option)]
    fn anchor_before(&self, child: Child, errors: &[Diagnostic]) -> Option<Option<Child>> {
        let mut current = child;
        for _ in 0..MAX_DISTANCE {
            let Some(prev) = self.prev(current) else {
                return Some(None);
            };
            current = prev;
            if let NodeOrToken::Node(item) = self.get(current)
                && ends_itself(item)
            {
                let range = TextRange::at(current.start, item.text_len());
                if !errors.iter().any(|e| touches(e, range)) {
                    return Some(Some(current));
                }
            }
        }
        None
    }

    /// The nearest child after `child` where a full parse begins an item
    /// whatever came before (an item node of the root, which the root's
    /// loop began) with no error at its start; the end of the text if none
    /// is before it; `None` when none is near.
    fn resync_after(&self, child: Child, errors: &[Diagnostic]) -> Option<Child> {
        let mut current = child;
        for _ in 0..MAX_DISTANCE {
            if self.is_end(current) {
                return Some(current);
            }
            current = self.next(current);
            if self.is_end(current) {
                return Some(current);
            }
            if let NodeOrToken::Node(item) = self.get(current)
                && matches!(
                    kind(item.kind()),
                    SyntaxKind::STEP | SyntaxKind::REQUIRE | SyntaxKind::FLOW_ATTRIBUTE
                )
                && !errors.iter().any(|e| e.range.start() == current.start)
            {
                return Some(current);
            }
        }
        None
    }
}

/// Whether `error` (or a place it relates to) touches `range`.
fn touches(error: &Diagnostic, range: TextRange) -> bool {
    std::iter::once(&error.range)
        .chain(error.related.iter().map(|r| &r.range))
        .any(|r| r.start() <= range.end() && range.start() <= r.end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    fn check(old_text: &str, deleted: std::ops::Range<u32>, inserted: &str) -> bool {
        let old = parse(old_text);
        let deleted = TextRange::new(deleted.start.into(), deleted.end.into());
        let mut new_text = old_text.to_string();
        new_text.replace_range(std::ops::Range::<usize>::from(deleted), inserted);
        let full = parse(&new_text);
        let mut edited = SourceText::from(old_text);
        edited.edit(deleted, inserted);
        match reparse(&old, deleted, inserted, &edited) {
            Some(incremental) => {
                assert_eq!(
                    crate::debug_tree(&incremental.syntax()),
                    crate::debug_tree(&full.syntax()),
                    "incremental differs from full for {new_text:?}"
                );
                assert_eq!(incremental, full, "for {new_text:?}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn an_edit_inside_a_string_reparses_one_step() {
        let text = "step A runs P (x = \"ab\");\nstep B runs Q (y = A.outs[\"o\"]);\n";
        assert!(check(text, 21..21, "zz"));
        assert!(check(text, 15..16, "w"));
    }

    #[test]
    fn a_step_being_typed_is_reparsed_with_its_neighbours() {
        let text = "step A runs P (x = 1);\n\nstep B runs Q (y = 2);\n";
        assert!(
            check(text, 20..20, ", z ="),
            "a parameter without its value"
        );
        assert!(check(text, 23..23, "step N"), "a new step between two");
        assert!(check(text, 23..23, "step N runs R (a = A);"));
        assert!(check(
            "step A runs P (x = 1);\nxtep B runs Q ();\n",
            20..20,
            ", z ="
        ));
    }

    #[test]
    fn steps_deleted_joined_or_split_are_reparsed() {
        let text = "step A runs P (x = 1);\n\nstep B runs Q ();\n\nstep C runs R ();\n";
        assert!(check(text, 24..42, ""), "a whole step deleted");
        assert!(check(text, 21..22, ""), "removing the `;` joins two steps");
        assert!(check(text, 0..0, "x"), "at the start of the text");
        assert!(check(text, 61..61, "step D runs S ();\n"), "at its end");
        assert!(
            check(text, 40..40, ";\nstep D runs S ("),
            "a step split in two"
        );
        assert!(check(
            "step A runs P (x = 1)\nstep B runs Q ();\n",
            16..16,
            "z"
        ));
    }

    #[test]
    fn an_opened_string_or_comment_needs_a_full_parse() {
        let text = "step A runs P (x = 1);\nstep B runs Q ();\nstep C runs R ();\n";
        assert!(
            !check(text, 20..20, "\""),
            "an open string swallows what follows"
        );
        assert!(!check(text, 20..20, "/*"), "so does an open comment");
    }
}
