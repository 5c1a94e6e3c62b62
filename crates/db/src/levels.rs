//! The steps' levels when every edge goes forward ([`forward_levels`]),
//! kept per chunk and recomputed per edit at the cost of the edit: the
//! previous run's levels are kept beside the database ([`LevelStates`],
//! `beside.rs`), and a chunk's levels are taken over unchanged when its
//! resolution is the same allocation as before and no step it reads from
//! changed level. Which steps changed is kept as one range, and each chunk
//! knows the range of steps it reads from, so most chunks are taken over
//! after one comparison, and hover after an edit in a 100k-step flow costs
//! no pass over every step.

use std::sync::Arc;

use crate::beside::FileStates;
use crate::items::StepId;
use crate::resolve::{PerStep, Target, name_resolution};
use crate::{Db, SourceFile};

/// Every step's level, by chunk of steps: see [`forward_levels`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ForwardLevels {
    /// Each chunk's first step and its steps' levels.
    chunks: Vec<(u32, Arc<[u32]>)>,
}

impl ForwardLevels {
    /// The level of `step`, if the file has it.
    pub fn level(&self, step: StepId) -> Option<u32> {
        let step = step.0;
        let after = self.chunks.partition_point(|(first, _)| *first <= step);
        let (first, levels) = self.chunks.get(after.checked_sub(1)?)?;
        levels.get((step - first) as usize).copied()
    }
}

/// The levels of each file's last [`forward_levels`].
pub type LevelStates = FileStates<Vec<ChunkLevels>>;

/// A chunk's levels, with what they were computed from.
pub struct ChunkLevels {
    first: u32,
    dependencies: Arc<PerStep<Option<StepId>>>,
    references: Arc<PerStep<Target>>,
    /// The lowest and highest step its edges come from (none: no edge).
    reads: Option<(u32, u32)>,
    levels: Arc<[u32]>,
}

/// Steps in `first..=last`, in one range (`None`: none).
type StepRange = Option<(u32, u32)>;

fn widen(range: &mut StepRange, first: u32, last: u32) {
    *range = Some(match *range {
        Some((low, high)) => (low.min(first), high.max(last)),
        None => (first, last),
    });
}

fn overlap(a: StepRange, b: StepRange) -> bool {
    matches!((a, b), (Some((a0, a1)), Some((b0, b1))) if a0 <= b1 && b0 <= a1)
}

/// Every step's level when every edge goes from a step to a later one (the
/// usual flow, each name defined before its uses), without building the
/// graph, so that what reads one step's level after an edit does not cost
/// the graph of the whole flow, nor a pass over every step (see the
/// module's documentation). `None` when an edge goes to the same or an
/// earlier step: then only [`crate::dependency_graph`] tells (cycles, and
/// the steps after them). Equal, and backdated, after an edit that changes
/// no level.
#[salsa::tracked(returns(ref))]
pub fn forward_levels(db: &dyn Db, file: SourceFile) -> Option<ForwardLevels> {
    let resolution = name_resolution(db, file);
    // Taken out while it is updated: if this run is cancelled or finds an
    // edge going back, the next starts afresh.
    let states = db.level_states();
    let mut previous = states
        .and_then(|states| states.take(file))
        .unwrap_or_default()
        .into_iter()
        .peekable();
    let mut chunks: Vec<ChunkLevels> = Vec::with_capacity(resolution.dependencies.len() / 32);
    let mut changed: StepRange = None;
    let shared = resolution
        .dependencies
        .shared_chunks()
        .zip(resolution.references.shared_chunks());
    for ((first, dependencies), (_, references)) in shared {
        while previous.next_if(|old| old.first < first).is_some() {}
        let old = previous.next_if(|old| old.first == first);
        let unchanged = old.as_ref().is_some_and(|old| {
            Arc::ptr_eq(&old.dependencies, dependencies)
                && Arc::ptr_eq(&old.references, references)
                && !overlap(old.reads, changed)
        });
        if unchanged {
            chunks.extend(old);
            continue;
        }
        let (levels, reads) = chunk_levels(&chunks, first, dependencies, references)?;
        match old.filter(|old| old.levels.len() == levels.len()) {
            Some(old) => {
                for (step, (new, old)) in (first..).zip(levels.iter().zip(old.levels.iter())) {
                    if new != old {
                        widen(&mut changed, step, step);
                    }
                }
            }
            None if !levels.is_empty() => {
                widen(&mut changed, first, first + levels.len() as u32 - 1);
            }
            None => {}
        }
        chunks.push(ChunkLevels {
            first,
            dependencies: dependencies.clone(),
            references: references.clone(),
            reads,
            levels: levels.into(),
        });
    }
    let result = ForwardLevels {
        chunks: chunks
            .iter()
            .map(|chunk| (chunk.first, chunk.levels.clone()))
            .collect(),
    };
    if let Some(states) = states {
        states.put(file, chunks);
    }
    Some(result)
}

/// The levels of the chunk whose steps start at `first`, from the levels of
/// the chunks before it, and the range of steps its edges come from;
/// `None` when an edge comes from the same or a later step.
fn chunk_levels(
    before: &[ChunkLevels],
    first: u32,
    dependencies: &PerStep<Option<StepId>>,
    references: &PerStep<Target>,
) -> Option<(Vec<u32>, StepRange)> {
    let mut levels: Vec<u32> = Vec::with_capacity(dependencies.len());
    let mut reads: StepRange = None;
    let level_of = |levels: &[u32], from: StepId| -> Option<u32> {
        let from = from.0;
        if from >= first {
            return levels.get((from - first) as usize).copied();
        }
        let after = before.partition_point(|chunk| chunk.first <= from);
        let chunk = &before[after.checked_sub(1)?];
        chunk.levels.get((from - chunk.first) as usize).copied()
    };
    for (dependencies, references) in dependencies.iter().zip(references.iter()) {
        let steps = dependencies
            .iter()
            .flatten()
            .chain(references.iter().filter_map(|target| match target {
                Target::Step(from) => Some(from),
                _ => None,
            }));
        let mut level = 0;
        for &from in steps {
            // Only a step before this one has a level by now.
            level = level.max(level_of(&levels, from)? + 1);
            widen(&mut reads, from.0, from.0);
        }
        levels.push(level);
    }
    Some((levels, reads))
}
