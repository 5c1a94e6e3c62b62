//! Layers 2–4, one module each: [`outline`] (the steps in chunks, the
//! required names, the flow attributes), [`analysis`] (each step of a chunk
//! on its own) and [`index`] (the position-free item index: the firewall).

pub mod analysis;
pub mod index;
pub mod outline;

pub use analysis::{
    AttributeAnchors, ChunkAnalysis, DependencySummary, Members, ParamAnchors, ParamSummary,
    ReferenceAnchors, ReferenceSummary, StepAnchors, StepRequirement, StepSummary, Sweep,
    chunk_analysis, chunk_anchors, param_values, step_anchors,
};
pub use index::{ItemIndex, Steps, item_index};
pub use outline::{
    ChunkStep, ChunkSyntax, FileOutline, FlowAttributeEntry, OutlineChunk, OutlineStep,
    RequireEntry, StepChunk, StepId, file_outline,
};
