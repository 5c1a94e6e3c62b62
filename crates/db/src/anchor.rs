//! Places in a file named without offsets, so the diagnostics of the
//! file-wide rules survive edits elsewhere unchanged (salsa backdates them),
//! and [`anchor_range`], which finds where an anchor is now.

use easyflow_diagnostics::{Diagnostic, TextRange};

use crate::Db;
use crate::graph::EdgeSource;
use crate::items::{FileOutline, StepId};

/// A part of the file, named without offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Anchor {
    StepName(StepId),
    /// The n-th `after`/`on` entry of a step.
    Dependency(StepId, u32),
    /// The first segment of a step's n-th reference.
    ReferenceHead(StepId, u32),
    /// A step's n-th reference, whole.
    Reference(StepId, u32),
    /// The m-th member segment (after the head) of a step's n-th reference.
    Member(StepId, u32, u32),
    /// The n-th required name.
    Require(u32),
    /// The n-th required capability, inside a step's `requires` value.
    Capability(StepId, u32),
    /// A step's `requires` value; its name when it has none.
    RequiresValue(StepId),
    /// A step's `memory` value.
    MemoryValue(StepId),
    /// A step's compound package name after `runs`.
    Package(StepId),
    /// The index string of `outs["x"]` in a step's n-th reference.
    OutputIndex(StepId, u32),
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
    let anchors = &outline_step.analysis(db).anchors;
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
