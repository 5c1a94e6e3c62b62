//! Project topologies (`../shared/spec/topology.md`): the worker-description
//! format of GPI-Space, what a step asks for, and whether it fits.
//!
//! - [`parse`] reads a `.topology` file into a [`Topology`]: its worker types
//!   with exact byte ranges, and the E06xx diagnostics of the file.
//! - [`parse_capability_set`] and [`parse_memory`] read the values of a
//!   step's `requires` and `memory` attributes.
//! - [`check_fit`] is the fit check of a step against a topology: a
//!   structured [`Fit`] with ready-made messages for E0701, E0702, E0703 and
//!   I0705.
//!
//! This crate knows nothing of flows, files or editors: offsets are bytes in
//! the text it was given.

mod fit;
mod model;
mod parser;
mod requirement;
mod text;

pub use easyflow_diagnostics::{TextRange, TextSize};
pub use fit::{Fit, NearMiss, Requirement, UnknownCapability, Waves, check_fit};
pub use model::{Capability, FieldRanges, Topology, WorkerType};
pub use parser::parse;
pub use requirement::{
    RequirementError, format_bytes, is_capability_name, parse_capability_set, parse_memory,
};
