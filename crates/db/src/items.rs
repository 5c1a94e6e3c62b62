//! Layers 2–4, one module each: [`outline`] (the steps in chunks, the
//! required names, the flow attributes), [`analysis`] (each step of a chunk
//! on its own) and [`index`] (the position-free item index: the firewall).

pub mod analysis;
pub mod index;
pub mod outline;

pub use analysis::{
    AttributeAnchors, ChunkAnalysis, DependencySummary, ParamAnchors, ParamSummary,
    ReferenceAnchors, ReferenceSummary, StepAnalysis, StepAnchors, StepRequirement, StepSummary,
    Sweep, analyse_step, chunk_analysis, param_values,
};
pub use index::{ItemIndex, Steps, item_index};
pub use outline::{
    ChunkStep, ChunkSyntax, FileOutline, FlowAttributeEntry, OutlineChunk, OutlineStep,
    RequireEntry, StepChunk, StepId, file_outline,
};
