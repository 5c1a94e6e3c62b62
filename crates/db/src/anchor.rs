//! Places in a file named without offsets, so the diagnostics of the
//! file-wide rules survive edits elsewhere unchanged (salsa backdates them),
//! and [`anchor_range`], which finds where an anchor is now.

use easyflow_diagnostics::{Diagnostic, TextRange};

use crate::Db;
use crate::denotation::StepKey;
use crate::graph::EdgeSource;
use crate::items::{FileOutline, StepId};

/// A part of the file, named without offsets; its step by position
/// ([`StepId`]) or, in the names rules' diagnostics, by [`StepKey`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Anchor<S = StepId> {
    StepName(S),
    /// The n-th `after`/`on` entry of a step.
    Dependency(S, u32),
    /// The first segment of a step's n-th reference.
    ReferenceHead(S, u32),
    /// A step's n-th reference, whole.
    Reference(S, u32),
    /// The m-th member segment (after the head) of a step's n-th reference.
    Member(S, u32, u32),
    /// The n-th required name.
    Require(u32),
    /// The n-th required capability, inside a step's `requires` value.
    Capability(S, u32),
    /// A step's `requires` value; its name when it has none.
    RequiresValue(S),
    /// A step's `memory` value.
    MemoryValue(S),
    /// A step's compound package name after `runs`.
    Package(S),
    /// The index string of `outs["x"]` in a step's n-th reference.
    OutputIndex(S, u32),
}

impl<S: Copy> Anchor<S> {
    /// The same part, its step named another way (`None` when it is gone).
    pub fn map_step<T>(self, step: impl FnOnce(S) -> Option<T>) -> Option<Anchor<T>> {
        Some(match self {
            Anchor::StepName(s) => Anchor::StepName(step(s)?),
            Anchor::Dependency(s, n) => Anchor::Dependency(step(s)?, n),
            Anchor::ReferenceHead(s, n) => Anchor::ReferenceHead(step(s)?, n),
            Anchor::Reference(s, n) => Anchor::Reference(step(s)?, n),
            Anchor::Member(s, n, m) => Anchor::Member(step(s)?, n, m),
            Anchor::Require(n) => Anchor::Require(n),
            Anchor::Capability(s, n) => Anchor::Capability(step(s)?, n),
            Anchor::RequiresValue(s) => Anchor::RequiresValue(step(s)?),
            Anchor::MemoryValue(s) => Anchor::MemoryValue(step(s)?),
            Anchor::Package(s) => Anchor::Package(step(s)?),
            Anchor::OutputIndex(s, n) => Anchor::OutputIndex(step(s)?, n),
        })
    }
}

impl Anchor {
    /// Where an edge comes from: "the `after` entry or the reference"
    /// (`diagnostics.md`, E0302 and E0301), the whole reference.
    pub fn of_edge_source(step: StepId, source: EdgeSource) -> Anchor {
        match source {
            EdgeSource::Dependency(n) => Anchor::Dependency(step, n),
            EdgeSource::Reference(n) => Anchor::Reference(step, n),
        }
    }
}

/// A diagnostic of a file-wide rule, before [`anchor_range`] places it.
pub type AnchoredDiagnostic = Diagnostic<Anchor>;

/// A diagnostic of the names rules, its steps named by [`StepKey`] so that it
/// is the same after edits elsewhere.
pub type KeyedDiagnostic = Diagnostic<Anchor<StepKey>>;

/// Where an anchor is in the file now.
pub fn anchor_range(db: &dyn Db, outline: &FileOutline<'_>, anchor: Anchor) -> Option<TextRange> {
    if let Anchor::Require(n) = anchor {
        return outline.requires.get(n as usize).map(|r| r.range);
    }
    let (Anchor::StepName(step)
    | Anchor::Dependency(step, _)
    | Anchor::ReferenceHead(step, _)
    | Anchor::Reference(step, _)
    | Anchor::Member(step, _, _)
    | Anchor::Capability(step, _)
    | Anchor::RequiresValue(step)
    | Anchor::MemoryValue(step)
    | Anchor::Package(step)
    | Anchor::OutputIndex(step, _)) = anchor
    else {
        return None;
    };
    let outline_step = outline.step(db, step)?;
    let anchors = outline_step.anchors(db);
    let relative = match anchor {
        Anchor::StepName(_) => anchors.name?,
        Anchor::Dependency(_, n) => *anchors.dependencies.get(n as usize)?,
        Anchor::ReferenceHead(_, n) => anchors.references.get(n as usize)?.head,
        Anchor::Reference(_, n) => anchors.references.get(n as usize)?.whole,
        Anchor::Member(_, n, m) => *anchors
            .references
            .get(n as usize)?
            .members
            .get(m as usize)?,
        Anchor::Capability(_, n) => *anchors.capabilities.get(n as usize)?,
        Anchor::RequiresValue(_) => anchors.requires_value.or(anchors.name)?,
        Anchor::MemoryValue(_) => anchors.memory_value?,
        Anchor::Package(_) => anchors.package?,
        Anchor::OutputIndex(_, n) => anchors.references.get(n as usize)?.output?,
        Anchor::Require(_) => return None,
    };
    Some(relative + outline_step.offset)
}
