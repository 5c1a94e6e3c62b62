//! Layer 2: the file outline. One pass over the file's top-level items
//! (not into them): the steps in chunks ([`StepChunk`], the unit of
//! analysis), the required names and the flow attributes, with their
//! offsets.

use std::sync::Arc;

use easyflow_diagnostics::{Diagnostic, TextRange, TextSize};
use easyflow_syntax::ast::{self, AstNode, TreeNode};
use easyflow_syntax::green::GreenRef;
use easyflow_syntax::value::Value;
use easyflow_syntax::{ChunkItem, ChunkItems, GreenNode, GreenNodeData, NodeOrToken, SyntaxKind};

use super::analysis::{StepAnchors, StepSummary, chunk_analysis, chunk_anchors};
use crate::{Db, SourceFile, parse};

/// The steps of one chunk of the tree (an `ITEM_CHUNK` node, cut by
/// content: [`easyflow_syntax::ends_chunk`]), created by [`file_outline`]:
/// the unit of analysis. Its identity is its items' texts and their places
/// relative to its first item, so salsa matches it to the previous
/// revision's chunk with the same text wherever it moved, and an unchanged
/// chunk keeps its [`chunk_analysis`]. Chunks rather than steps: an edit
/// creates one file outline's worth of chunks (a few thousand at 100,000
/// steps), not one tracked struct per step, and verifying the unchanged
/// analyses costs one check per chunk.
#[salsa::tracked(debug)]
pub struct StepChunk<'db> {
    #[returns(ref)]
    pub syntax: ChunkSyntax,
}

/// A chunk's steps, read from the chunk's green node (one pointer, not one
/// per step) through the parse's list of its items. Equal to another (and
/// hashed) by the chunk's hash ([`easyflow_syntax::ChunkItems::hash`]: its
/// items' text hashes, made by the parser, and relative offsets): the same
/// texts at the same places always give the same steps.
#[derive(Debug, Clone)]
pub struct ChunkSyntax {
    green: GreenNode,
    items: Arc<ChunkItems>,
}

/// A step of a chunk.
#[derive(Debug, Clone, Copy)]
pub struct ChunkStep<'a> {
    pub green: &'a GreenNodeData,
    /// Relative to the chunk's first step.
    pub offset: TextSize,
}

impl ChunkSyntax {
    pub fn step_count(&self) -> usize {
        self.items.steps().len()
    }

    pub fn step(&self, index: usize) -> Option<ChunkStep<'_>> {
        let item = self.items.steps().get(index)?;
        Some(self.chunk_step(item))
    }

    /// The steps, in order.
    pub fn steps(&self) -> impl ExactSizeIterator<Item = ChunkStep<'_>> + '_ {
        self.items.steps().iter().map(|item| self.chunk_step(item))
    }

    fn chunk_step(&self, item: &ChunkItem) -> ChunkStep<'_> {
        let green = self
            .green
            .children()
            .nth(item.index as usize)
            .and_then(NodeOrToken::into_node)
            .expect("a chunk's step is a node of it");
        ChunkStep {
            green,
            offset: item.offset - self.first_step_offset(),
        }
    }

    /// Where its first step starts, relative to the chunk's start.
    fn first_step_offset(&self) -> TextSize {
        self.items
            .steps()
            .first()
            .map_or(0.into(), |step| step.offset)
    }
}

impl PartialEq for ChunkSyntax {
    fn eq(&self, other: &Self) -> bool {
        self.items.hash() == other.items.hash()
    }
}

impl Eq for ChunkSyntax {}

impl std::hash::Hash for ChunkSyntax {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.items.hash().hash(state);
    }
}

/// The position of a step among the file's steps (0-based, in text order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StepId(pub u32);

impl StepId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The top-level items of a file, with their offsets.
#[derive(Debug, Clone, PartialEq, Eq, salsa::SalsaValue)]
pub struct FileOutline<'db> {
    /// The steps, in chunks, in text order.
    pub chunks: Vec<OutlineChunk<'db>>,
    step_count: usize,
    /// Every name of every `require`, in order.
    pub requires: Vec<RequireEntry>,
    /// Identifiers in the unparsed rest of a broken `require` (`require a b;`):
    /// probably meant as names, so using them is no second problem.
    pub unparsed_requires: Vec<String>,
    pub flow_attributes: Vec<FlowAttributeEntry>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, salsa::SalsaValue)]
pub struct OutlineChunk<'db> {
    pub node: StepChunk<'db>,
    /// Where its first step starts.
    pub offset: TextSize,
    /// The [`StepId`] of its first step.
    pub first: u32,
}

/// One step of the outline: its chunk, its place in it, and its offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutlineStep<'db> {
    pub chunk: StepChunk<'db>,
    /// Its index in the chunk.
    pub index: u32,
    pub offset: TextSize,
}

impl<'db> OutlineStep<'db> {
    /// The step's summary ([`chunk_analysis`]).
    pub fn summary(self, db: &'db dyn Db) -> &'db StepSummary {
        &chunk_analysis(db, self.chunk).summaries[self.index as usize]
    }

    /// The step's diagnostics that need nothing outside it, at ranges
    /// relative to its start ([`chunk_analysis`]).
    pub fn local_diagnostics(self, db: &'db dyn Db) -> &'db [Diagnostic] {
        chunk_analysis(db, self.chunk).local_diagnostics_of(self.index)
    }

    /// The ranges of the step's parts, relative to its start
    /// ([`chunk_anchors`]).
    pub fn anchors(self, db: &'db dyn Db) -> &'db StepAnchors {
        &chunk_anchors(db, self.chunk)[self.index as usize]
    }

    /// The step's green tree.
    pub fn green(self, db: &'db dyn Db) -> &'db GreenNodeData {
        self.chunk
            .syntax(db)
            .step(self.index as usize)
            .expect("an outline step is in its chunk")
            .green
    }
}

impl<'db> FileOutline<'db> {
    pub fn step_count(&self) -> usize {
        self.step_count
    }

    /// The chunk that holds step `id`, by binary search.
    fn chunk_of(&self, id: StepId) -> Option<&OutlineChunk<'db>> {
        if id.index() >= self.step_count {
            return None;
        }
        let after = self.chunks.partition_point(|c| c.first <= id.0);
        self.chunks.get(after.checked_sub(1)?)
    }

    pub fn step(&self, db: &'db dyn Db, id: StepId) -> Option<OutlineStep<'db>> {
        let chunk = self.chunk_of(id)?;
        let index = id.0 - chunk.first;
        let step = chunk.node.syntax(db).step(index as usize)?;
        Some(OutlineStep {
            chunk: chunk.node,
            index,
            offset: chunk.offset + step.offset,
        })
    }

    /// Every step from `first` on, in order.
    pub fn steps_from(
        &'db self,
        db: &'db dyn Db,
        first: StepId,
    ) -> impl Iterator<Item = (StepId, OutlineStep<'db>)> + 'db {
        let start = self.chunk_of(first).map_or(self.chunks.len(), |c| {
            self.chunks.partition_point(|other| other.first < c.first)
        });
        self.chunks[start..]
            .iter()
            .flat_map(move |chunk| {
                chunk
                    .node
                    .syntax(db)
                    .steps()
                    .enumerate()
                    .map(move |(i, step)| {
                        (
                            StepId(chunk.first + i as u32),
                            OutlineStep {
                                chunk: chunk.node,
                                index: i as u32,
                                offset: chunk.offset + step.offset,
                            },
                        )
                    })
            })
            .skip_while(move |(id, _)| *id < first)
    }

    /// Every step, in order.
    pub fn steps(
        &'db self,
        db: &'db dyn Db,
    ) -> impl Iterator<Item = (StepId, OutlineStep<'db>)> + 'db {
        self.steps_from(db, StepId(0))
    }

    /// The last step that starts at or before `offset`, if any.
    pub fn last_step_at_or_before(&self, db: &'db dyn Db, offset: TextSize) -> Option<StepId> {
        let after = self.chunks.partition_point(|c| c.offset <= offset);
        let chunk = self.chunks.get(after.checked_sub(1)?)?;
        let syntax = chunk.node.syntax(db);
        let (mut low, mut high) = (0, syntax.step_count());
        while low < high {
            let middle = (low + high) / 2;
            match syntax.step(middle) {
                Some(step) if chunk.offset + step.offset <= offset => low = middle + 1,
                _ => high = middle,
            }
        }
        let within = low;
        Some(StepId(chunk.first + within.checked_sub(1)? as u32))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequireEntry {
    pub name: String,
    pub range: TextRange,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowAttributeEntry {
    /// The key and its range; `None` when the parser found none.
    pub key: Option<(String, TextRange)>,
    pub value: Value,
    pub value_range: Option<TextRange>,
}

/// Layer 2: one pass over the file's top-level items (not into them). Step
/// texts are not read: their hashes come with the parse.
#[salsa::tracked(returns(ref))]
pub fn file_outline<'db>(db: &'db dyn Db, file: SourceFile) -> FileOutline<'db> {
    let parse = parse(db, file);
    let mut outline = FileOutline {
        chunks: Vec::new(),
        step_count: 0,
        requires: Vec::new(),
        unparsed_requires: Vec::new(),
        flow_attributes: Vec::new(),
    };
    let mut first = 0u32;
    // One pass over the root's chunks, not their items: a chunk's steps are
    // read through its list of items when they are needed, and only the
    // items that are not steps (few) are visited here.
    for (chunk, items) in GreenRef::root(parse.green())
        .child_nodes()
        .zip(parse.chunks())
    {
        if let Some(first_step) = items.steps().first() {
            outline.chunks.push(OutlineChunk {
                node: StepChunk::new(
                    db,
                    ChunkSyntax {
                        green: chunk.green().to_owned(),
                        items: items.clone(),
                    },
                ),
                offset: chunk.range().start() + first_step.offset,
                first,
            });
            first += items.steps().len() as u32;
        }
        for item in items.others() {
            let Some(node) = chunk.child_node(item.index as usize, item.offset) else {
                continue;
            };
            match node.kind() {
                SyntaxKind::REQUIRE => {
                    let Some(require) = ast::Require::cast(node) else {
                        continue;
                    };
                    for name in require.names() {
                        outline.requires.push(RequireEntry {
                            name: name.text(),
                            range: name.syntax().text_range(),
                        });
                    }
                    // Identifiers in the unparsed rest (`require a b;`).
                    let unparsed = require
                        .syntax()
                        .child_nodes()
                        .filter(|n| n.kind() == SyntaxKind::ERROR_NODE);
                    for node in unparsed {
                        node.for_each_token(&mut |token| {
                            if token.kind == SyntaxKind::IDENT {
                                outline.unparsed_requires.push(token.text.to_string());
                            }
                        });
                    }
                }
                SyntaxKind::FLOW_ATTRIBUTE => {
                    let Some(attribute) = ast::FlowAttribute::cast(node) else {
                        continue;
                    };
                    let value = attribute.value();
                    outline.flow_attributes.push(FlowAttributeEntry {
                        key: attribute.key().map(|k| (k.text(), k.syntax().text_range())),
                        value_range: value.as_ref().map(|v| v.syntax().text_range()),
                        value: Value::of(value),
                    });
                }
                _ => {}
            }
        }
    }
    outline.step_count = first as usize;
    outline
}
