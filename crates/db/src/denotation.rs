//! What a name denotes, position-free: the vocabulary of [`crate::links`]
//! that the anchors and the names rules share (a module of its own, so that
//! neither imports `links`, which calls the rules).

/// A step, named without its position: its chunk and its index in the
/// chunk. A chunk is named by its summaries' allocation (the item index's
/// and the chunk analysis's, alive as long as the chunk is in
/// [`crate::links::LinkStates`]): unique among the chunks of a file, and
/// the same for as long as the chunk is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StepKey {
    pub chunk: ChunkToken,
    pub index: u32,
}

/// See [`StepKey`].
pub type ChunkToken = usize;

/// What a name denotes, without where. Eight bytes: a cold check keeps one
/// per reference and `after`/`on` entry of every step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Link {
    /// The step first defined with the name; `itself` when that is the step
    /// that reads it.
    Step { itself: bool },
    /// A required file, by the index of its first `require` entry.
    File(u32),
    /// Nothing (what "did you mean" suggests instead is in the names
    /// rules' diagnostic).
    Unresolved,
}

/// The names rules of a `require` entry, decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequireStatus {
    Used,
    /// Required before, by this entry.
    Twice(u32),
    /// A step has the same name: this one.
    AlsoAStep(StepKey),
    Unused,
}

/// The required names, for the names rules of steps (backdated: they seldom
/// change).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RequiredNames {
    pub names: Vec<String>,
    /// See [`crate::items::FileOutline::unparsed_requires`].
    pub unparsed: Vec<String>,
}
