//! Layer 4, the firewall: the position-free item index. An edit that
//! changes no name, reference, dependency or attribute leaves it equal, so
//! salsa backdates it and nothing below re-runs.

use std::sync::Arc;

use super::analysis::{StepSummary, chunk_analysis};
use super::outline::{StepId, file_outline};
use crate::{Db, SourceFile};

/// Layer 4, the firewall: position-free summaries of the file's items.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ItemIndex {
    /// Indexed by [`StepId`].
    pub steps: Steps,
    /// Every required name, in order.
    pub requires: Vec<String>,
    /// See [`super::FileOutline::unparsed_requires`].
    pub unparsed_requires: Vec<String>,
    /// The steps with local diagnostics (few), so that placing them does not
    /// visit every step's analysis after each edit. Which steps these are
    /// seldom changes, so the firewall holds all the same.
    pub steps_with_local_diagnostics: Vec<StepId>,
}

/// The steps' summaries, indexed by position (`steps[i]`), kept per chunk
/// as the chunks' analyses share them: building the index after an edit
/// copies one pointer per chunk, and comparing it with the previous one
/// compares pointers except for the edited chunk.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Steps {
    chunks: Vec<SummaryChunk>,
    len: usize,
}

#[derive(Debug, Clone, Eq)]
struct SummaryChunk {
    /// The index of its first step.
    first: u32,
    summaries: Arc<[StepSummary]>,
}

impl PartialEq for SummaryChunk {
    fn eq(&self, other: &Self) -> bool {
        self.first == other.first
            && (Arc::ptr_eq(&self.summaries, &other.summaries) || self.summaries == other.summaries)
    }
}

impl Steps {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, index: usize) -> Option<&StepSummary> {
        if index >= self.len {
            return None;
        }
        let after = self.chunks.partition_point(|c| c.first as usize <= index);
        let chunk = &self.chunks[after - 1];
        chunk.summaries.get(index - chunk.first as usize)
    }

    /// Each chunk's summaries, in order (shared with the chunks' analyses:
    /// an unchanged chunk gives the same pointer).
    pub fn chunk_summaries(&self) -> impl Iterator<Item = &Arc<[StepSummary]>> {
        self.chunks.iter().map(|chunk| &chunk.summaries)
    }

    /// Each chunk's first step and its summaries.
    pub fn chunks(&self) -> impl Iterator<Item = (u32, &Arc<[StepSummary]>)> {
        self.chunks
            .iter()
            .map(|chunk| (chunk.first, &chunk.summaries))
    }

    /// Every step's summary, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &StepSummary> + Clone + '_ {
        self.chunks.iter().flat_map(|chunk| chunk.summaries.iter())
    }
}

impl std::ops::Index<usize> for Steps {
    type Output = StepSummary;

    fn index(&self, index: usize) -> &StepSummary {
        self.get(index).expect("a step index below the step count")
    }
}

#[salsa::tracked(returns(ref))]
pub fn item_index(db: &dyn Db, file: SourceFile) -> ItemIndex {
    let outline = file_outline(db, file);
    let mut chunks = Vec::with_capacity(outline.chunks.len());
    let mut steps_with_local_diagnostics = Vec::new();
    for chunk in &outline.chunks {
        let analysis = chunk_analysis(db, chunk.node);
        chunks.push(SummaryChunk {
            first: chunk.first,
            summaries: analysis.summaries.clone(),
        });
        steps_with_local_diagnostics.extend(
            analysis
                .local_diagnostics
                .iter()
                .map(|(i, _)| StepId(chunk.first + i)),
        );
    }
    ItemIndex {
        steps: Steps {
            chunks,
            len: outline.step_count(),
        },
        requires: outline.requires.iter().map(|r| r.name.clone()).collect(),
        unparsed_requires: outline.unparsed_requires.clone(),
        steps_with_local_diagnostics,
    }
}

impl<'a> IntoIterator for &'a Steps {
    type Item = &'a StepSummary;
    type IntoIter = Box<dyn Iterator<Item = &'a StepSummary> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}
