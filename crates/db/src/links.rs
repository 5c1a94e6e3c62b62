//! Layer 5, position-free: what each chunk's names denote, kept up to date
//! per edit at the cost of the edit rather than of the file.
//!
//! A step is identified by its chunk and its index in it ([`StepKey`]), which
//! no edit elsewhere changes (a [`StepId`] is a position: deleting a step
//! renumbers every later one). [`links`] gives, per chunk, what its
//! references and `after`/`on` entries name ([`ChunkLinks`], by name: "the
//! step first defined as `X`", not where that step is), which of its steps
//! repeat a name defined before, where its edges from the same or a later
//! step reach, and the diagnostics of the names rules for its steps
//! (`rules/names.rs`, anchored by [`StepKey`], so they hold wherever the
//! chunk moves).
//!
//! [`links`] runs after every edit that changes the chunks, but does the work
//! of the edit only: the name tables of the previous run are kept beside the
//! database ([`LinkStates`], `beside.rs`) and updated with the chunks that
//! left and the chunks that came, and only the chunks that came, or that
//! read or define a name those define, are linked again.
//!
//! Cycles: when every edge goes from a step to a later one (no chunk has
//! `backward` edges), the graph has no cycle and no step depends on itself;
//! otherwise a search over the steps between the first a backward edge goes
//! into and the last one comes from tells ([`FileLinks::cyclic`]), and
//! only when there is one does the keystroke path build the whole
//! [`crate::graph::dependency_graph`] for E0301 and E0302.

use std::sync::{Arc, OnceLock};

use easyflow_diagnostics::suggest::{NameIndex, Probe};
use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};
use smallvec::SmallVec;
use smol_str::SmolStr;

use crate::anchor::KeyedDiagnostic;
use crate::beside::FileStates;
pub use crate::denotation::{ChunkToken, Link, RequireStatus, RequiredNames, StepKey};
use crate::items::{FileOutline, StepId, StepSummary, file_outline, item_index};
use crate::resolve::PerStep;
use crate::rules::names::StepLinks;
use crate::{Db, SourceFile};

fn token_of(summaries: &Arc<[StepSummary]>) -> ChunkToken {
    Arc::as_ptr(summaries) as *const () as usize
}

/// What one chunk's names denote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkLinks {
    /// The chunk's steps (the item index's).
    pub summaries: Arc<[StepSummary]>,
    /// Per step, per reference of its summary.
    pub references: PerStep<Link>,
    /// Per step, per `after`/`on` entry (a step or unresolved).
    pub dependencies: PerStep<Link>,
    /// The steps (indices in the chunk, in order) whose name another step
    /// defines first, with that step (few: a valid flow has none).
    pub repeated_names: Box<[(u32, StepKey)]>,
    /// Edges into the chunk's steps from the same or a later step (only
    /// such an edge can close a cycle).
    pub backward: Option<Backward>,
    /// How many references resolve to each `require` entry, for those with any.
    pub file_uses: Vec<(u32, u32)>,
    /// The names rules' diagnostics of the chunk's steps, in order.
    pub diagnostics: Vec<KeyedDiagnostic>,
}

/// Where a chunk's backward edges reach: any cycle through them lies
/// between the first step they go into and the last they come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backward {
    /// The index in the chunk of the first step with an edge from itself or
    /// a later step.
    pub first_dependent: u32,
    /// The last step such an edge comes from.
    pub last_source: StepKey,
}

/// [`links`]' result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileLinks {
    /// In text order, one per chunk of the outline (an unchanged chunk's
    /// are the same allocation, so comparing costs a pointer).
    pub chunks: Vec<Arc<ChunkLinks>>,
    /// Some steps depend on each other in a cycle, or a step on itself.
    pub cyclic: bool,
    /// Per `require` entry.
    pub requires: Vec<RequireStatus>,
    /// Each chunk's place in the outline.
    ranks: FxHashMap<ChunkToken, u32>,
}

impl ChunkLinks {
    /// The first definition of the name of the chunk's step `index`, when
    /// that is another step.
    pub fn first_definition(&self, index: u32) -> Option<StepKey> {
        self.repeated_names
            .binary_search_by_key(&index, |(step, _)| *step)
            .ok()
            .map(|at| self.repeated_names[at].1)
    }
}

impl FileLinks {
    /// Where a step is now.
    pub fn step_id(&self, outline: &FileOutline<'_>, key: StepKey) -> Option<StepId> {
        let rank = *self.ranks.get(&key.chunk)?;
        let chunk = outline.chunks.get(rank as usize)?;
        Some(StepId(chunk.first + key.index))
    }
}

#[salsa::tracked(returns(ref))]
pub fn required_names(db: &dyn Db, file: SourceFile) -> RequiredNames {
    let outline = file_outline(db, file);
    RequiredNames {
        names: outline.requires.iter().map(|r| r.name.clone()).collect(),
        unparsed: outline.unparsed_requires.clone(),
    }
}

/// The name tables of each file's last [`links`].
pub type LinkStates = FileStates<LinkState>;

/// How many chunks the last [`links`] of a file linked (for tests: an edit
/// should link a few, whatever the size of the file).
pub fn chunks_linked(db: &dyn Db, file: SourceFile) -> Option<usize> {
    db.link_states()?.read(file, |state| state.linked)
}

/// From this many chunks to link on, [`LinkState::relink`] links them on
/// every core (a cold check links every chunk; an edit, a few, for which
/// waking threads costs more than it saves).
const PARALLEL_MIN_CHUNKS: usize = 32;

/// A chunk as [`LinkState`] knows it.
struct ChunkEntry {
    id: ChunkToken,
    summaries: Arc<[StepSummary]>,
    links: Arc<ChunkLinks>,
}

impl ChunkEntry {
    fn same_as(&self, summaries: &Arc<[StepSummary]>) -> bool {
        Arc::ptr_eq(&self.summaries, summaries)
    }
}

/// The names of a file, with the chunks that define and read each.
#[derive(Default)]
pub struct LinkState {
    chunks: Vec<ChunkEntry>,
    requires: RequiredNames,
    /// How many chunks the last update linked.
    linked: usize,
    /// Each required name's first entry.
    files: FxHashMap<String, u32>,
    /// Each name a step defines or reads: one table for both, as most step
    /// names are read too (one key per name, not two). Only an edit needs
    /// the readers (and `unresolved`): they are learnt before the first
    /// update after the first run ([`LinkState::learn_readers`]), so a cold
    /// check records none.
    names: FxHashMap<SmolStr, NameUses>,
    /// Whether the readers and `unresolved` hold the chunks.
    readers_learnt: bool,
    /// The step and required names, for suggestions: built when a name
    /// first denotes nothing (a valid flow never needs it), then kept in
    /// step with the definitions and `files`.
    suggestions: OnceLock<NameIndex<FxBuildHasher>>,
    /// The names read that denote nothing, each with what decides which
    /// names may be suggested for it.
    unresolved: FxHashMap<SmolStr, Probe>,
}

/// Where a name is defined and which chunks read it (one or the other may
/// be empty, not both).
#[derive(Default)]
struct NameUses {
    /// The steps that define it, in text order (most names have one: kept
    /// inline, 100,000 names would cost 100,000 allocations).
    definitions: SmallVec<[StepKey; 1]>,
    /// The chunks that read it (a reference's head or an `after`/`on`
    /// entry), each once.
    readers: SmallVec<[ChunkToken; 2]>,
}

impl NameUses {
    fn unused(&self) -> bool {
        self.definitions.is_empty() && self.readers.is_empty()
    }
}

/// The names whose definitions an update changes: those of the chunks that
/// go and of those that come, each with its first definition and number of
/// definitions before the update.
#[derive(Default)]
struct DefinitionChanges {
    touched: FxHashSet<SmolStr>,
    before: FxHashMap<SmolStr, (Option<StepKey>, usize)>,
}

impl DefinitionChanges {
    /// Records `name`'s definitions before the update, the first time it
    /// is seen.
    fn record(&mut self, name: &SmolStr, definitions: Option<&SmallVec<[StepKey; 1]>>) {
        self.before.entry(name.clone()).or_insert_with(|| {
            (
                definitions.and_then(|d| d.first().copied()),
                definitions.map_or(0, |d| d.len()),
            )
        });
    }
}

/// How many chunks at the start and at the end of `old` and `new` are the
/// same (by their summaries' allocation), the start counted first.
fn common_ends(old: &[ChunkEntry], new: &[(ChunkToken, Arc<[StepSummary]>)]) -> (usize, usize) {
    let prefix = old
        .iter()
        .zip(new)
        .take_while(|(old, (_, new))| old.same_as(new))
        .count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(old, (_, new))| old.same_as(new))
        .count();
    (prefix, suffix)
}

/// The names a step reads.
fn read_names(step: &StepSummary) -> impl Iterator<Item = &SmolStr> {
    step.references
        .iter()
        .map(|r| &r.head)
        .chain(step.dependencies.iter().map(|d| &d.name))
}

/// The definitions of `name`, made when it had none (and then offered
/// among the suggestions, once they are built).
fn define<'a>(
    names: &'a mut FxHashMap<SmolStr, NameUses>,
    suggestions: &mut OnceLock<NameIndex<FxBuildHasher>>,
    name: &SmolStr,
) -> &'a mut SmallVec<[StepKey; 1]> {
    let definitions = &mut names.entry(name.clone()).or_default().definitions;
    if definitions.is_empty()
        && let Some(suggestions) = suggestions.get_mut()
    {
        suggestions.insert(name);
    }
    definitions
}

/// Records that chunk `id` reads `name` (once, as its steps come in order).
fn read(names: &mut FxHashMap<SmolStr, NameUses>, name: &SmolStr, id: ChunkToken) {
    let readers = &mut names.entry(name.clone()).or_default().readers;
    if readers.last() != Some(&id) {
        readers.push(id);
    }
}

impl LinkState {
    fn new(requires: &RequiredNames) -> LinkState {
        let mut files = FxHashMap::default();
        for (i, name) in requires.names.iter().enumerate() {
            files.entry(name.clone()).or_insert(i as u32);
        }
        LinkState {
            requires: requires.clone(),
            files,
            ..LinkState::default()
        }
    }

    /// Brings the state to `chunks` (in text order) and gives their places
    /// in it: the chunks that went and came (between the prefix and the
    /// suffix the old and new lists share) update the name tables, and the
    /// chunks the change may concern are linked again.
    fn update(&mut self, chunks: Vec<Arc<[StepSummary]>>) -> FxHashMap<ChunkToken, u32> {
        let chunks: Vec<(ChunkToken, Arc<[StepSummary]>)> = chunks
            .into_iter()
            .map(|summaries| (token_of(&summaries), summaries))
            .collect();
        let old = std::mem::take(&mut self.chunks);
        let (prefix, suffix) = common_ends(&old, &chunks);
        let removed = &old[prefix..old.len() - suffix];
        let added = &chunks[prefix..chunks.len() - suffix];
        let ranks: FxHashMap<ChunkToken, u32> = chunks
            .iter()
            .enumerate()
            .map(|(i, (id, _))| (*id, i as u32))
            .collect();
        let everything = old.is_empty();
        if everything {
            // No chunk reads anything yet.
            self.readers_learnt = false;
        } else {
            self.learn_readers(&old);
        }
        let mut changes = DefinitionChanges::default();
        self.forget(removed, &mut changes);
        self.learn(added, &ranks, (!everything).then_some(&mut changes));
        let affected = if everything {
            FxHashSet::default()
        } else {
            self.update_unresolved(removed, added, &changes.touched);
            self.affected(&old, removed, added, &changes)
        };
        let kept = |i: usize| {
            if i < prefix {
                Some(i)
            } else if i >= chunks.len() - suffix {
                Some(i + old.len() - chunks.len())
            } else {
                None
            }
        };
        // The chunks kept and not affected keep their links.
        let keep: Vec<Option<Arc<ChunkLinks>>> = (0..chunks.len())
            .map(|i| {
                kept(i)
                    .filter(|_| !everything && !affected.contains(&chunks[i].0))
                    .map(|at| old[at].links.clone())
            })
            .collect();
        self.relink(chunks, keep, &ranks);
        ranks
    }

    /// Takes the chunks that went out of the name tables, recording in
    /// `changes` the names they defined.
    fn forget(&mut self, removed: &[ChunkEntry], changes: &mut DefinitionChanges) {
        for chunk in removed {
            for step in chunk.summaries.iter() {
                if let Some(name) = &step.name {
                    changes.record(name, self.definitions(name));
                    if let Some(uses) = self.names.get_mut(name)
                        && !uses.definitions.is_empty()
                    {
                        uses.definitions.retain(|key| key.chunk != chunk.id);
                        if uses.definitions.is_empty() {
                            if uses.unused() {
                                self.names.remove(name);
                            }
                            if !self.files.contains_key(name.as_str())
                                && let Some(suggestions) = self.suggestions.get_mut()
                            {
                                suggestions.remove(name);
                            }
                        }
                    }
                    changes.touched.insert(name.clone());
                }
                for name in read_names(step) {
                    if let Some(uses) = self.names.get_mut(name) {
                        uses.readers.retain(|id| *id != chunk.id);
                        if uses.unused() {
                            self.names.remove(name);
                        }
                    }
                }
            }
        }
    }

    /// Puts the chunks that came into the name tables (definitions in text
    /// order by `ranks`), recording in `changes`, when given (not on the
    /// first run), the names they define.
    fn learn(
        &mut self,
        added: &[(ChunkToken, Arc<[StepSummary]>)],
        ranks: &FxHashMap<ChunkToken, u32>,
        changes: Option<&mut DefinitionChanges>,
    ) {
        let Some(changes) = changes else {
            return self.learn_all(added);
        };
        let position = |key: &StepKey| (ranks.get(&key.chunk).copied(), key.index);
        for (id, summaries) in added {
            for (k, step) in summaries.iter().enumerate() {
                if let Some(name) = &step.name {
                    let key = StepKey {
                        chunk: *id,
                        index: k as u32,
                    };
                    changes.record(name, self.definitions(name));
                    changes.touched.insert(name.clone());
                    let definitions = define(&mut self.names, &mut self.suggestions, name);
                    let at = definitions.partition_point(|other| position(other) < position(&key));
                    definitions.insert(at, key);
                }
                for name in read_names(step) {
                    read(&mut self.names, name, *id);
                }
            }
        }
    }

    /// [`LinkState::learn`] on the first run: every chunk, in text order
    /// (so each definition goes last), into an empty table sized once.
    fn learn_all(&mut self, added: &[(ChunkToken, Arc<[StepSummary]>)]) {
        let steps: usize = added.iter().map(|(_, summaries)| summaries.len()).sum();
        self.names.reserve(steps);
        for (id, summaries) in added {
            for (k, step) in summaries.iter().enumerate() {
                if let Some(name) = &step.name {
                    define(&mut self.names, &mut self.suggestions, name).push(StepKey {
                        chunk: *id,
                        index: k as u32,
                    });
                }
            }
        }
    }

    /// Records the readers of `chunks` (the chunks the tables hold) and
    /// the names that denote nothing, unless they are already.
    fn learn_readers(&mut self, chunks: &[ChunkEntry]) {
        if std::mem::replace(&mut self.readers_learnt, true) {
            return;
        }
        for chunk in chunks {
            for step in chunk.summaries.iter() {
                for name in read_names(step) {
                    read(&mut self.names, name, chunk.id);
                }
            }
        }
        self.find_all_unresolved();
    }

    /// Makes the tables an edit reads and a first run leaves out
    /// ([`LinkState::learn_readers`]).
    fn prepare_for_edits(&mut self) {
        let chunks = std::mem::take(&mut self.chunks);
        self.learn_readers(&chunks);
        self.chunks = chunks;
    }

    /// Every name read that denotes nothing (when the readers are learnt).
    fn find_all_unresolved(&mut self) {
        self.unresolved = self
            .names
            .iter()
            .filter(|(_, uses)| !uses.readers.is_empty())
            .map(|(name, _)| name)
            .filter(|name| self.denotes_nothing(name))
            .map(|name| (name.clone(), Probe::of(name)))
            .collect();
    }

    /// The names read that denote nothing, again for those the chunks that
    /// went or came define (`touched`) or read.
    fn update_unresolved(
        &mut self,
        removed: &[ChunkEntry],
        added: &[(ChunkToken, Arc<[StepSummary]>)],
        touched: &FxHashSet<SmolStr>,
    ) {
        let mut names: FxHashSet<&SmolStr> = touched.iter().collect();
        for summaries in removed
            .iter()
            .map(|chunk| &chunk.summaries)
            .chain(added.iter().map(|(_, summaries)| summaries))
        {
            names.extend(summaries.iter().flat_map(read_names));
        }
        for name in names {
            if self.readers(name).is_some() && self.denotes_nothing(name) {
                self.unresolved
                    .entry(name.clone())
                    .or_insert_with(|| Probe::of(name));
            } else {
                self.unresolved.remove(name);
            }
        }
    }

    /// The chunks to link again: those that came; those that read a name
    /// whose first definition came or went, or moved past a step that does
    /// not move (the chunks that went and came are at one place: a step
    /// there is before or after a step elsewhere as the step it replaces
    /// was), or that name where their backward edges come from; those that
    /// define a name defined more than once whose definitions changed; and
    /// those that read a name that denotes nothing, for which one of those
    /// names may be suggested.
    fn affected(
        &self,
        old: &[ChunkEntry],
        removed: &[ChunkEntry],
        added: &[(ChunkToken, Arc<[StepSummary]>)],
        changes: &DefinitionChanges,
    ) -> FxHashSet<ChunkToken> {
        let mut affected: FxHashSet<ChunkToken> = FxHashSet::default();
        affected.extend(added.iter().map(|(id, _)| *id));
        let went: FxHashSet<ChunkToken> = removed.iter().map(|chunk| chunk.id).collect();
        let came: FxHashSet<ChunkToken> = added.iter().map(|(id, _)| *id).collect();
        let backward: FxHashSet<ChunkToken> = old
            .iter()
            .filter(|chunk| chunk.links.backward.is_some())
            .map(|chunk| chunk.id)
            .collect();
        for name in &changes.touched {
            let (first_before, count_before) =
                changes.before.get(name).copied().unwrap_or_default();
            let definitions = self.definitions(name);
            let first = definitions.and_then(|d| d.first().copied());
            let moved = match (first_before, first) {
                (None, None) => false,
                (Some(old), Some(new)) => {
                    match (went.contains(&old.chunk), came.contains(&new.chunk)) {
                        (true, true) => false,
                        (false, false) => old != new,
                        _ => true,
                    }
                }
                _ => true,
            };
            if let Some(readers) = self.readers(name) {
                affected.extend(
                    readers
                        .iter()
                        .filter(|reader| moved || backward.contains(reader))
                        .copied(),
                );
            }
            if let Some(definitions) = definitions
                && (count_before > 1 || definitions.len() > 1)
            {
                affected.extend(definitions.iter().map(|key| key.chunk));
            }
        }
        let touched: Vec<Probe> = changes.touched.iter().map(|name| Probe::of(name)).collect();
        for (name, probe) in &self.unresolved {
            if touched.iter().any(|other| probe.may_suggest(other))
                && let Some(readers) = self.readers(name)
            {
                affected.extend(readers.iter().copied());
            }
        }
        affected
    }

    /// The new chunk list: each chunk with its links as `keep` gives them,
    /// or linked again.
    fn relink(
        &mut self,
        chunks: Vec<(ChunkToken, Arc<[StepSummary]>)>,
        keep: Vec<Option<Arc<ChunkLinks>>>,
        ranks: &FxHashMap<ChunkToken, u32>,
    ) {
        self.linked = keep.iter().filter(|kept| kept.is_none()).count();
        // Each chunk is linked from the name tables alone, independently of
        // the others: many (a cold check links every chunk) on every core.
        let this = &*self;
        let link = |(id, summaries): &(ChunkToken, Arc<[StepSummary]>),
                    kept: &Option<Arc<ChunkLinks>>| {
            kept.clone()
                .unwrap_or_else(|| Arc::new(this.link(*id, summaries, ranks)))
        };
        let links: Vec<Arc<ChunkLinks>> = if self.linked >= PARALLEL_MIN_CHUNKS {
            use rayon::prelude::*;
            chunks
                .par_iter()
                .zip(&keep)
                .map(|(chunk, kept)| link(chunk, kept))
                .collect()
        } else {
            chunks
                .iter()
                .zip(&keep)
                .map(|(chunk, kept)| link(chunk, kept))
                .collect()
        };
        self.chunks = chunks
            .into_iter()
            .zip(links)
            .map(|((id, summaries), links)| ChunkEntry {
                id,
                summaries,
                links,
            })
            .collect();
    }

    /// What one chunk's names denote.
    fn link(
        &self,
        id: ChunkToken,
        summaries: &Arc<[StepSummary]>,
        ranks: &FxHashMap<ChunkToken, u32>,
    ) -> ChunkLinks {
        let rank = ranks[&id];
        let position = |key: StepKey| {
            (
                ranks.get(&key.chunk).copied().unwrap_or(u32::MAX),
                key.index,
            )
        };
        let first = |name: &str| self.first_definition(name);
        let mut references = PerStep::sized_for(summaries, |s| s.references.len());
        let mut dependencies = PerStep::sized_for(summaries, |s| s.dependencies.len());
        let mut repeated_names = Vec::new();
        let mut backward: Option<Backward> = None;
        let mut file_uses: Vec<(u32, u32)> = Vec::new();
        let mut diagnostics = Vec::new();
        for (k, step) in summaries.iter().enumerate() {
            let own = StepKey {
                chunk: id,
                index: k as u32,
            };
            let first_definition = step
                .name
                .as_deref()
                .and_then(first)
                .filter(|&first| first != own);
            if let Some(first) = first_definition {
                repeated_names.push((own.index, first));
            }
            let mut step_link = |target: StepKey| {
                if position(target) >= (rank, own.index) {
                    let backward = backward.get_or_insert(Backward {
                        first_dependent: own.index,
                        last_source: target,
                    });
                    if position(target) > position(backward.last_source) {
                        backward.last_source = target;
                    }
                }
                Link::Step {
                    itself: target == own,
                }
            };
            dependencies.push(step.dependencies.iter().map(|dependency| {
                first(&dependency.name).map_or(Link::Unresolved, &mut step_link)
            }));
            references.push(
                step.references
                    .iter()
                    .map(|reference| match first(&reference.head) {
                        Some(target) => step_link(target),
                        None => match self.files.get(reference.head.as_str()) {
                            Some(&file) => {
                                match file_uses.iter_mut().find(|(f, _)| *f == file) {
                                    Some((_, count)) => *count += 1,
                                    None => file_uses.push((file, 1)),
                                }
                                Link::File(file)
                            }
                            None => Link::Unresolved,
                        },
                    }),
            );
            crate::rules::names::check_step(
                &self.requires,
                own,
                step,
                StepLinks {
                    first_definition,
                    dependencies: &dependencies[k],
                    references: &references[k],
                    suggest: &|name, files| self.suggest(name, step, files, ranks),
                },
                &mut diagnostics,
            );
        }
        ChunkLinks {
            summaries: summaries.clone(),
            references,
            dependencies,
            repeated_names: repeated_names.into(),
            backward,
            file_uses,
            diagnostics,
        }
    }

    /// Whether some steps depend on each other in a cycle (or a step on
    /// itself). A cycle's last step in text order depends on an earlier
    /// one (or itself), and its first depends on a later one: it has
    /// backward edges and lies between the first step one goes into and the
    /// last one comes from. So there is none without backward edges, and the
    /// search covers that stretch only (nothing when they are local).
    fn cyclic(&self, ranks: &FxHashMap<ChunkToken, u32>) -> bool {
        let position = |key: StepKey| (ranks.get(&key.chunk).copied(), key.index);
        let mut span: Option<((u32, u32), (u32, u32))> = None;
        for (rank, chunk) in self.chunks.iter().enumerate() {
            let Some(backward) = chunk.links.backward else {
                continue;
            };
            let (Some(source_rank), index) = position(backward.last_source) else {
                continue;
            };
            let first = (rank as u32, backward.first_dependent);
            let last = (source_rank, index);
            span = Some(match span {
                None => (first, last),
                Some((lo, hi)) => (lo.min(first), hi.max(last)),
            });
        }
        let Some((lo, hi)) = span else {
            return false;
        };
        // The steps from `lo` to `hi`, numbered from 0.
        let range_of = |rank: u32| {
            let len = self.chunks[rank as usize].summaries.len() as u32;
            let start = if rank == lo.0 { lo.1 } else { 0 };
            let end = if rank == hi.0 {
                (hi.1 + 1).min(len)
            } else {
                len
            };
            start..end.max(start)
        };
        let mut offsets = Vec::with_capacity((hi.0 - lo.0 + 1) as usize);
        let mut count = 0usize;
        for rank in lo.0..=hi.0 {
            offsets.push(count);
            count += range_of(rank).len();
        }
        let local = |key: StepKey| {
            let rank = *ranks.get(&key.chunk)?;
            if (rank, key.index) < lo || (rank, key.index) > hi {
                return None;
            }
            Some(offsets[(rank - lo.0) as usize] + (key.index - range_of(rank).start) as usize)
        };
        // What each step depends on, within the stretch (compressed rows).
        let mut starts = Vec::with_capacity(count + 1);
        let mut sources: Vec<usize> = Vec::new();
        for rank in lo.0..=hi.0 {
            let summaries = &self.chunks[rank as usize].summaries;
            for k in range_of(rank) {
                starts.push(sources.len());
                let reads = read_names(&summaries[k as usize])
                    .filter_map(|name| local(self.first_definition(name)?));
                sources.extend(reads);
            }
        }
        starts.push(sources.len());
        // A depth-first search for an edge back to a step on the path.
        const NEW: u8 = 0;
        const ON_PATH: u8 = 1;
        const DONE: u8 = 2;
        let mut state = vec![NEW; count];
        let mut path: Vec<(usize, usize)> = Vec::new();
        for root in 0..count {
            if state[root] != NEW {
                continue;
            }
            state[root] = ON_PATH;
            path.push((root, starts[root]));
            while let Some((step, next)) = path.last_mut() {
                if *next < starts[*step + 1] {
                    let source = sources[*next];
                    *next += 1;
                    match state[source] {
                        ON_PATH => return true,
                        NEW => {
                            state[source] = ON_PATH;
                            path.push((source, starts[source]));
                        }
                        _ => {}
                    }
                } else {
                    state[*step] = DONE;
                    path.pop();
                }
            }
        }
        false
    }

    /// The steps that define `name`, in text order, if any.
    fn definitions(&self, name: &str) -> Option<&SmallVec<[StepKey; 1]>> {
        Some(&self.names.get(name)?.definitions).filter(|d| !d.is_empty())
    }

    fn first_definition(&self, name: &str) -> Option<StepKey> {
        self.names.get(name)?.definitions.first().copied()
    }

    /// The chunks that read `name`, if any.
    fn readers(&self, name: &str) -> Option<&SmallVec<[ChunkToken; 2]>> {
        Some(&self.names.get(name)?.readers).filter(|r| !r.is_empty())
    }

    fn denotes_nothing(&self, name: &str) -> bool {
        self.first_definition(name).is_none() && !self.files.contains_key(name)
    }

    /// The name "did you mean" suggests for `name`, read by `step`: a step
    /// name other than the step's own (in text order of their first
    /// definitions), then with `files` a required name (in order), as
    /// [`easyflow_diagnostics::suggest::closest`] would over the same list.
    fn suggest(
        &self,
        name: &str,
        step: &StepSummary,
        files: bool,
        ranks: &FxHashMap<ChunkToken, u32>,
    ) -> Option<SmolStr> {
        let own = step.name.as_deref();
        let order = |candidate: &str| {
            if Some(candidate) != own
                && let Some(first) = self.first_definition(candidate)
            {
                let rank = ranks.get(&first.chunk).copied().unwrap_or(u32::MAX);
                Some((0, rank, first.index))
            } else if files && let Some(&file) = self.files.get(candidate) {
                Some((1, file, 0))
            } else {
                None
            }
        };
        self.suggestions
            .get_or_init(|| {
                let mut suggestions = NameIndex::default();
                for (name, uses) in &self.names {
                    if !uses.definitions.is_empty() {
                        suggestions.insert(name);
                    }
                }
                for name in self.files.keys() {
                    suggestions.insert(name);
                }
                suggestions
            })
            .closest(name, order)
            .map(SmolStr::new)
    }

    /// The names rules' verdict on each `require` entry.
    fn requires(&self) -> Vec<RequireStatus> {
        let mut uses = vec![0u32; self.requires.names.len()];
        for chunk in &self.chunks {
            for &(file, count) in &chunk.links.file_uses {
                if let Some(n) = uses.get_mut(file as usize) {
                    *n += count;
                }
            }
        }
        self.requires
            .names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let first = self.files[name];
                if first != i as u32 {
                    RequireStatus::Twice(first)
                } else if let Some(step) = self.first_definition(name) {
                    RequireStatus::AlsoAStep(step)
                } else if uses[i] == 0 {
                    RequireStatus::Unused
                } else {
                    RequireStatus::Used
                }
            })
            .collect()
    }
}

/// What [`links`]' first run leaves out and an edit needs (the chunks
/// that read each name, about 40 ms at 100,000 steps), to make ahead of
/// the first edit off the keystroke path (the server, after a flow's first
/// diagnostics: [`crate::Database::edit_preparation`]). It holds no handle
/// on the database, so a write need not wait for it.
pub struct EditPreparation {
    pub(crate) states: Arc<LinkStates>,
    pub(crate) file: SourceFile,
}

impl EditPreparation {
    /// Nothing when [`links`] has not run on the file, or is running; a
    /// run that starts meanwhile waits for it (the first edit, then, at
    /// the cost of the rest of it), rather than linking afresh.
    pub fn run(self) {
        self.states.update(self.file, LinkState::prepare_for_edits);
    }
}

/// The file's chunks with their links (see the module's documentation).
/// It reads the item index, not the outline, so an edit that changes no
/// name, reference or dependency stops before it.
#[salsa::tracked(returns(ref))]
pub fn links(db: &dyn Db, file: SourceFile) -> FileLinks {
    let index = item_index(db, file);
    let requires = required_names(db, file);
    let chunks: Vec<Arc<[StepSummary]>> = index.steps.chunk_summaries().cloned().collect();
    // Taken out while it is updated: if this run is cancelled half-way, the
    // next starts afresh.
    let states = db.link_states();
    let mut state = states
        .and_then(|states| states.take(file))
        .filter(|state| state.requires == *requires)
        .unwrap_or_else(|| LinkState::new(requires));
    let ranks = state.update(chunks);
    let result = FileLinks {
        chunks: state
            .chunks
            .iter()
            .map(|entry| entry.links.clone())
            .collect(),
        cyclic: state.cyclic(&ranks),
        requires: state.requires(),
        ranks,
    };
    if let Some(states) = states {
        states.put(file, state);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Database, Setter};

    fn readers_learnt(db: &Database, file: SourceFile) -> Option<bool> {
        db.link_states()?.read(file, |state| state.readers_learnt)
    }

    /// A cold check learns no readers; an edit after it, with or without
    /// the preparation, links as a fresh database does.
    #[test]
    fn the_readers_are_learnt_for_the_first_edit_only() {
        let before = "step A runs P.Q;\nstep B runs P.Q (x = A.outs);\nstep C runs P.Q after B;\n";
        let after = "step A runs P.Q;\nstep B runs P.Q (x = AA.outs);\nstep C runs P.Q after Bb;\n";
        for prepared in [false, true] {
            let mut db = Database::default();
            let file = SourceFile::new(&db, "a.flow".into(), before.into());
            links(&db, file);
            assert_eq!(readers_learnt(&db, file), Some(false));
            if prepared {
                db.edit_preparation(file).run();
                assert_eq!(readers_learnt(&db, file), Some(true));
            }
            file.set_text(&mut db).to(after.into());
            let edited = crate::file_diagnostics(&db, file).clone();
            assert_eq!(readers_learnt(&db, file), Some(true));
            let fresh = Database::default();
            let fresh_file = SourceFile::new(&fresh, "a.flow".into(), after.into());
            let expected = crate::file_diagnostics(&fresh, fresh_file);
            assert!(!expected.is_empty());
            assert_eq!(edited, *expected, "prepared: {prepared}");
        }
    }
}
