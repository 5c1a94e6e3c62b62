//! Layer 5a: what every name in the file refers to (`language.md` §3.1).

use std::sync::Arc;

use rustc_hash::FxHashMap;
use smol_str::SmolStr;

use crate::items::{StepChunk, StepId, StepSummary, chunk_analysis, file_outline, item_index};
use crate::{Db, SourceFile};

/// What a reference's first segment names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    Step(StepId),
    /// A required file, by the index of its first `require` entry.
    File(u32),
    Unresolved,
}

/// What the file's names denote: built only when the names it defines
/// change ([`defined_names`]), not after an edit that changes a reference.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Names {
    /// Each step name's first definition. (Fx: names are the file's own, and
    /// hashing every name of a large file with SipHash shows in a check.)
    pub steps_by_name: FxHashMap<SmolStr, StepId>,
    /// Per step: it is the first definition of its name (it has one).
    pub first_definition: Vec<bool>,
    /// Each required name's first entry.
    pub files_by_name: FxHashMap<String, u32>,
}

impl Names {
    pub fn resolve(&self, name: &str) -> Target {
        if let Some(&step) = self.steps_by_name.get(name) {
            Target::Step(step)
        } else if let Some(&file) = self.files_by_name.get(name) {
            Target::File(file)
        } else {
            Target::Unresolved
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resolution {
    /// Shared with [`names`] (compared by pointer first).
    pub names: Arc<Names>,
    /// Per step, per reference of its summary.
    pub references: Chunked<Target>,
    /// Per step, per `after`/`on` entry: the step it names.
    pub dependencies: Chunked<Option<StepId>>,
    /// Per `require` entry: how many references resolve to it.
    pub file_uses: Vec<u32>,
}

impl Resolution {
    pub fn resolve(&self, name: &str) -> Target {
        self.names.resolve(name)
    }
}

/// The names the file defines, in order: each step's name (read from the
/// summaries shared per chunk with the item index, so building and
/// comparing this after an edit costs one pointer per unchanged chunk) and
/// the required names.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DefinedNames {
    steps: Vec<StepNames>,
    step_count: usize,
    requires: Vec<String>,
    unparsed_requires: Vec<String>,
}

impl DefinedNames {
    /// Every step's name, in text order.
    pub fn step_names(&self) -> impl Iterator<Item = &str> + Clone {
        self.steps
            .iter()
            .flat_map(|chunk| chunk.names().filter_map(|name| name.as_deref()))
    }

    /// Every required name, in order.
    pub fn requires(&self) -> impl Iterator<Item = &str> + Clone {
        self.requires.iter().map(String::as_str)
    }

    /// See `FileOutline::unparsed_requires`.
    pub fn unparsed_requires(&self) -> &[String] {
        &self.unparsed_requires
    }
}

/// A chunk's step names: equal to another's when its first step and its
/// steps' names are (whatever else of the steps differs).
#[derive(Debug, Clone, Eq)]
struct StepNames {
    first: u32,
    summaries: Arc<[StepSummary]>,
}

impl StepNames {
    fn names(&self) -> impl Iterator<Item = &Option<SmolStr>> + Clone {
        self.summaries.iter().map(|step| &step.name)
    }
}

impl PartialEq for StepNames {
    fn eq(&self, other: &Self) -> bool {
        self.first == other.first
            && (Arc::ptr_eq(&self.summaries, &other.summaries) || self.names().eq(other.names()))
    }
}

/// The names defined, from the item index: equal (and backdated) after an
/// edit that changes no step's name, no step's place and no `require`, so
/// that [`names`] is not rebuilt and the names rules of unedited chunks do
/// not run again.
#[salsa::tracked(returns(ref))]
pub fn defined_names(db: &dyn Db, file: SourceFile) -> DefinedNames {
    let index = item_index(db, file);
    DefinedNames {
        steps: index
            .steps
            .chunks()
            .map(|(first, summaries)| StepNames {
                first,
                summaries: summaries.clone(),
            })
            .collect(),
        step_count: index.steps.len(),
        requires: index.requires.clone(),
        unparsed_requires: index.unparsed_requires.clone(),
    }
}

/// What the names denote. It changes whenever the defined names do, so it
/// is not compared (`no_eq`): comparing maps of every name would cost as
/// much as building them.
#[salsa::tracked(returns(ref), no_eq)]
pub fn names(db: &dyn Db, file: SourceFile) -> Arc<Names> {
    let defined = defined_names(db, file);
    let count = defined.step_count;
    let mut names = Names {
        steps_by_name: FxHashMap::with_capacity_and_hasher(count, Default::default()),
        first_definition: Vec::with_capacity(count),
        files_by_name: FxHashMap::default(),
    };
    let step_names = defined.steps.iter().flat_map(|chunk| chunk.names());
    for (i, name) in step_names.enumerate() {
        let mut first = false;
        if let Some(name) = name {
            names.steps_by_name.entry(name.clone()).or_insert_with(|| {
                first = true;
                StepId(i as u32)
            });
        }
        names.first_definition.push(first);
    }
    for (i, name) in defined.requires.iter().enumerate() {
        names.files_by_name.entry(name.clone()).or_insert(i as u32);
    }
    Arc::new(names)
}

/// A list of values per step (`list[step]` is a slice), in one allocation
/// rather than one per step: resolving a large file builds two of these
/// after each edit that changes a name or reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerStep<T> {
    values: Vec<T>,
    /// Where each step's values start in `values`, and their end last.
    starts: Vec<u32>,
}

impl<T> Default for PerStep<T> {
    fn default() -> Self {
        PerStep {
            values: Vec::new(),
            starts: vec![0],
        }
    }
}

impl<T> PerStep<T> {
    /// Room for the values of `steps`, `len` of each: exactly, as a cold
    /// check keeps one per step of the file.
    pub(crate) fn sized_for(steps: &[StepSummary], len: impl Fn(&StepSummary) -> usize) -> Self {
        let mut starts = Vec::with_capacity(steps.len() + 1);
        starts.push(0);
        PerStep {
            values: Vec::with_capacity(steps.iter().map(len).sum()),
            starts,
        }
    }

    /// Adds the next step's values.
    pub(crate) fn push(&mut self, values: impl IntoIterator<Item = T>) {
        self.values.extend(values);
        self.starts.push(self.values.len() as u32);
    }

    /// The number of steps.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every step's values, one step after another.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// Each step's values, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[T]> + '_ {
        self.starts
            .windows(2)
            .map(|w| &self.values[w[0] as usize..w[1] as usize])
    }
}

impl<T> std::ops::Index<usize> for PerStep<T> {
    type Output = [T];

    fn index(&self, step: usize) -> &[T] {
        &self.values[self.starts[step] as usize..self.starts[step + 1] as usize]
    }
}

/// Values per step (`list[step]` is a slice), kept per chunk of steps as
/// [`chunk_resolution`] makes them: assembling them after an edit copies
/// one pointer per chunk, and comparing them compares pointers except for
/// the edited chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunked<T> {
    /// Each chunk's first step and its steps' values.
    chunks: Vec<(u32, Arc<PerStep<T>>)>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Chunked<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Each step's values, in order.
    pub fn iter(&self) -> impl Iterator<Item = &[T]> + '_ {
        self.chunks.iter().flat_map(|(_, chunk)| chunk.iter())
    }

    /// Each chunk's first step and its steps' values (a pass over every
    /// step costs less chunk by chunk than through [`Chunked::iter`]).
    pub fn chunks(&self) -> impl Iterator<Item = (usize, &PerStep<T>)> + '_ {
        self.chunks
            .iter()
            .map(|(first, chunk)| (*first as usize, &**chunk))
    }

    /// As [`Chunked::chunks`], each chunk's values shared: the same
    /// allocation as long as its resolution is unchanged.
    pub(crate) fn shared_chunks(&self) -> impl Iterator<Item = (u32, &Arc<PerStep<T>>)> + '_ {
        self.chunks.iter().map(|(first, chunk)| (*first, chunk))
    }
}

impl<T> std::ops::Index<usize> for Chunked<T> {
    type Output = [T];

    fn index(&self, step: usize) -> &[T] {
        assert!(step < self.len, "a step index below the step count");
        let after = self
            .chunks
            .partition_point(|(first, _)| *first as usize <= step);
        let (first, chunk) = &self.chunks[after - 1];
        &chunk[step - *first as usize]
    }
}

/// What a chunk's references and dependencies name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkResolution {
    pub references: Arc<PerStep<Target>>,
    pub dependencies: Arc<PerStep<Option<StepId>>>,
    /// How many references resolve to each `require` entry (by index),
    /// for those with any.
    pub file_uses: Vec<(u32, u32)>,
}

/// One chunk's resolution: re-run for the edited chunk, and for every chunk
/// only when the names change ([`names`]).
#[salsa::tracked(returns(ref))]
pub fn chunk_resolution<'db>(
    db: &'db dyn Db,
    file: SourceFile,
    chunk: StepChunk<'db>,
) -> ChunkResolution {
    let names = names(db, file);
    let summaries = &chunk_analysis(db, chunk).summaries;
    let mut references = PerStep::sized_for(summaries, |s| s.references.len());
    let mut dependencies = PerStep::sized_for(summaries, |s| s.dependencies.len());
    let mut file_uses: Vec<(u32, u32)> = Vec::new();
    for step in summaries.iter() {
        references.push(step.references.iter().map(|r| {
            let target = names.resolve(&r.head);
            if let Target::File(file) = target {
                match file_uses.iter_mut().find(|(f, _)| *f == file) {
                    Some((_, count)) => *count += 1,
                    None => file_uses.push((file, 1)),
                }
            }
            target
        }));
        dependencies.push(
            step.dependencies
                .iter()
                .map(|d| names.steps_by_name.get(&d.name).copied()),
        );
    }
    ChunkResolution {
        references: Arc::new(references),
        dependencies: Arc::new(dependencies),
        file_uses,
    }
}

/// What every reference and dependency of the file names, assembled from
/// the chunks' resolutions.
#[salsa::tracked(returns(ref))]
pub fn name_resolution(db: &dyn Db, file: SourceFile) -> Resolution {
    let outline = file_outline(db, file);
    let index = item_index(db, file);
    let names = names(db, file).clone();
    let mut file_uses = vec![0; index.requires.len()];
    let mut references = Chunked {
        chunks: Vec::with_capacity(outline.chunks.len()),
        len: outline.step_count(),
    };
    let mut dependencies = Chunked {
        chunks: Vec::with_capacity(outline.chunks.len()),
        len: outline.step_count(),
    };
    for chunk in &outline.chunks {
        let resolved = chunk_resolution(db, file, chunk.node);
        references
            .chunks
            .push((chunk.first, resolved.references.clone()));
        dependencies
            .chunks
            .push((chunk.first, resolved.dependencies.clone()));
        for &(file, count) in &resolved.file_uses {
            if let Some(uses) = file_uses.get_mut(file as usize) {
                *uses += count;
            }
        }
    }
    Resolution {
        names,
        references,
        dependencies,
        file_uses,
    }
}
