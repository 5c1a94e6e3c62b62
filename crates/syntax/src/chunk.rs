//! The root's chunks: the root of a tree holds `ITEM_CHUNK` nodes, each a
//! run of consecutive top-level items and the trivia between them, so that
//! an edit rebuilds the chunks it touches and a root of a few thousand
//! chunks, not a root of every item (and the analysis takes one chunk as
//! one unit). Where a chunk ends depends only on its items' texts
//! ([`ends_chunk`]), so inserting or deleting an item changes its own chunk
//! (two when it ends one) and not how the rest of the file is cut; a full
//! parse and any sequence of incremental reparses cut a text the same way.

use std::sync::Arc;

use rowan::{GreenNode, GreenToken, NodeOrToken};

use crate::{SyntaxKind, TextSize};

/// An owned child of a green node.
pub(crate) type GreenElement = NodeOrToken<GreenNode, GreenToken>;

/// Items per chunk, on average: a chunk ends after an item whose text hash
/// is a multiple of this.
pub const CHUNK_ITEMS: u32 = 64;
/// A chunk ends after this many items whatever their hashes, so that no
/// text (many copies of one step) makes a chunk as long as the file.
pub const MAX_CHUNK_ITEMS: usize = 4 * CHUNK_ITEMS as usize;

/// Whether a chunk ends after an item with text hash `item_hash` that is
/// its `items`-th item (counting from 1).
#[inline]
pub fn ends_chunk(item_hash: u128, items: usize) -> bool {
    (item_hash as u32).is_multiple_of(CHUNK_ITEMS) || items >= MAX_CHUNK_ITEMS
}

/// What the analysis reads of a chunk without walking it: its items (the
/// node children: steps, requires, flow attributes, error nodes) with
/// their text hashes, and one hash that identifies it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkItems {
    hash: u128,
    /// The steps, in order.
    steps: Box<[ChunkItem]>,
    /// The other items (requires, flow attributes, error nodes), in order.
    others: Box<[ChunkItem]>,
}

/// An item of a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkItem {
    /// The hash of its text ([`crate::item_hash`]): made when it is parsed,
    /// and kept by the incremental reparse for items it does not reparse,
    /// so that no edit rehashes the file.
    pub hash: u128,
    /// Where it starts, relative to the chunk's start.
    pub offset: TextSize,
    /// Its index among the chunk node's children.
    pub index: u32,
    pub kind: SyntaxKind,
}

impl ChunkItems {
    /// One hash of the items' text hashes and their places relative to the
    /// first item: the same texts at the same places give the same hash.
    pub fn hash(&self) -> u128 {
        self.hash
    }

    pub fn steps(&self) -> &[ChunkItem] {
        &self.steps
    }

    /// The items that are not steps.
    pub fn others(&self) -> &[ChunkItem] {
        &self.others
    }

    /// The text hash of every child of the chunk (0 for a token), in order.
    pub(crate) fn child_hashes(&self, child_count: usize) -> Vec<u128> {
        let mut hashes = vec![0; child_count];
        for item in self.steps.iter().chain(self.others.iter()) {
            hashes[item.index as usize] = item.hash;
        }
        hashes
    }
}

/// Cuts children of the root (with the text hash of each, 0 for a token)
/// into chunks one child at a time.
pub(crate) struct ChunkCutter {
    children: Vec<GreenElement>,
    /// The text hashes of the items among `children`.
    item_hashes: Vec<u128>,
    done: Vec<(GreenNode, Arc<ChunkItems>)>,
}

impl ChunkCutter {
    pub(crate) fn new() -> Self {
        ChunkCutter {
            children: Vec::new(),
            item_hashes: Vec::new(),
            done: Vec::new(),
        }
    }

    /// Adds the next child; `true` when a chunk ends after it.
    pub(crate) fn push(&mut self, child: GreenElement, hash: u128) -> bool {
        let is_item = child.as_node().is_some();
        self.children.push(child);
        if !is_item {
            return false;
        }
        self.item_hashes.push(hash);
        if ends_chunk(hash, self.item_hashes.len()) {
            self.cut();
            return true;
        }
        false
    }

    /// Whether a chunk is begun and not ended.
    pub(crate) fn is_open(&self) -> bool {
        !self.children.is_empty()
    }

    fn cut(&mut self) {
        if self.children.is_empty() {
            return;
        }
        let children = std::mem::take(&mut self.children);
        self.done.push(chunk(children, &self.item_hashes));
        self.item_hashes.clear();
    }

    /// The chunks, the last one ended wherever the children stop.
    pub(crate) fn finish(mut self) -> Vec<(GreenNode, Arc<ChunkItems>)> {
        self.cut();
        self.done
    }
}

/// The chunk node over `children` and its items, whose text hashes are
/// `item_hashes`, in order.
fn chunk(children: Vec<GreenElement>, item_hashes: &[u128]) -> (GreenNode, Arc<ChunkItems>) {
    let mut items = Vec::with_capacity(item_hashes.len());
    let mut offset = TextSize::from(0);
    let mut hashes = item_hashes.iter();
    for (index, child) in children.iter().enumerate() {
        if let NodeOrToken::Node(node) = child {
            items.push(ChunkItem {
                hash: *hashes.next().expect("a hash per item"),
                offset,
                index: index as u32,
                kind: SyntaxKind::from_raw(node.kind().0).unwrap_or(SyntaxKind::ERROR_NODE),
            });
        }
        offset += child.text_len();
    }
    let mut identity = Vec::with_capacity(items.len() * 20);
    let first = items.first().map_or(0.into(), |item| item.offset);
    for item in &items {
        identity.extend_from_slice(&item.hash.to_le_bytes());
        identity.extend_from_slice(&u32::from(item.offset - first).to_le_bytes());
    }
    let (steps, others): (Vec<_>, Vec<_>) = items
        .into_iter()
        .partition(|item| item.kind == SyntaxKind::STEP);
    let items = ChunkItems {
        hash: xxhash_rust::xxh3::xxh3_128(&identity),
        steps: steps.into(),
        others: others.into(),
    };
    let node = GreenNode::new(SyntaxKind::ITEM_CHUNK.into(), children);
    (node, Arc::new(items))
}

/// The root over `children` in chunks, and the chunks' items.
pub(crate) fn chunked_root(
    children: Vec<GreenElement>,
    hashes: &[u128],
) -> (GreenNode, Arc<[Arc<ChunkItems>]>) {
    debug_assert_eq!(children.len(), hashes.len());
    let mut cutter = ChunkCutter::new();
    for (child, &hash) in children.into_iter().zip(hashes) {
        cutter.push(child, hash);
    }
    root(cutter.finish())
}

/// The root over `chunks`.
fn root(chunks: Vec<(GreenNode, Arc<ChunkItems>)>) -> (GreenNode, Arc<[Arc<ChunkItems>]>) {
    let (nodes, items): (Vec<_>, Vec<_>) = chunks.into_iter().unzip();
    let root = GreenNode::new(
        SyntaxKind::SOURCE_FILE.into(),
        nodes.into_iter().map(NodeOrToken::Node),
    );
    (root, items.into())
}

/// [`chunked_root`] of the children of `pieces` one after the other (each
/// piece's children with the text hash of each), its chunks made on every
/// thread: where the chunks end is found first (from the hashes alone),
/// then each chunk is made on its own.
pub(crate) fn chunked_root_of_pieces(
    pieces: Vec<(Vec<GreenElement>, Vec<u128>)>,
) -> (GreenNode, Arc<[Arc<ChunkItems>]>) {
    use rayon::prelude::*;
    // Where each chunk ends: a piece and the index of its child after the
    // chunk's last one.
    let mut ends: Vec<(usize, usize)> = Vec::new();
    let mut items = 0;
    for (piece, (children, hashes)) in pieces.iter().enumerate() {
        for (index, (child, &hash)) in children.iter().zip(hashes).enumerate() {
            if child.as_node().is_some() {
                items += 1;
                if ends_chunk(hash, items) {
                    ends.push((piece, index + 1));
                    items = 0;
                }
            }
        }
    }
    // The chunks' children and hashes, in runs (a chunk across pieces has
    // a run in each), cut from the end of every piece.
    type Run = (Vec<GreenElement>, Vec<u128>);
    let mut chunks: Vec<Vec<Run>> = Vec::with_capacity(ends.len() + 1);
    let mut open: Vec<Run> = Vec::new();
    let mut ends = ends.iter().peekable();
    for (piece, (mut children, mut hashes)) in pieces.into_iter().enumerate() {
        // This piece's cuts, split off from its end.
        let mut cuts = Vec::new();
        while let Some(&&(end_piece, end)) = ends.peek()
            && end_piece == piece
        {
            cuts.push(end);
            ends.next();
        }
        let mut runs: Vec<Run> = Vec::with_capacity(cuts.len() + 1);
        for &cut in cuts.iter().rev() {
            runs.push((children.split_off(cut), hashes.split_off(cut)));
        }
        runs.push((children, hashes));
        runs.reverse();
        // `runs[k]` ends at `cuts[k]`; the last one runs to the piece's end.
        let tail = runs.pop().expect("a run to the piece's end");
        for run in runs {
            open.push(run);
            chunks.push(std::mem::take(&mut open));
        }
        open.push(tail);
    }
    if open.iter().any(|(children, _)| !children.is_empty()) {
        chunks.push(open);
    }
    let chunks: Vec<(GreenNode, Arc<ChunkItems>)> = chunks
        .into_par_iter()
        .map(|runs| {
            let (children, hashes): (Vec<_>, Vec<_>) = match <[Run; 1]>::try_from(runs) {
                Ok([run]) => run,
                Err(runs) => {
                    let len = runs.iter().map(|(children, _)| children.len()).sum();
                    let (mut children, mut hashes) =
                        (Vec::with_capacity(len), Vec::with_capacity(len));
                    for (run_children, run_hashes) in runs {
                        children.extend(run_children);
                        hashes.extend(run_hashes);
                    }
                    (children, hashes)
                }
            };
            let item_hashes: Vec<u128> = children
                .iter()
                .zip(&hashes)
                .filter(|(child, _)| child.as_node().is_some())
                .map(|(_, &hash)| hash)
                .collect();
            chunk(children, &item_hashes)
        })
        .collect();
    root(chunks)
}
