//! The package catalog (`../shared/spec/catalog.md`): the platform's package
//! knowledge base as a TOML file in the project, so parameter checks work
//! offline and in CI.
//!
//! - [`parse`] (and [`parse_bytes`], for a file that may not be UTF-8) reads
//!   `easyflow-packages.toml` into a [`Catalog`]: every valid package with its
//!   parameters and outputs, and the E0810 diagnostics of the file, at byte
//!   ranges of its text. The valid part is always kept.
//! - [`check`] holds the checks of a step against a package as plain
//!   functions over the flow's position-free values
//!   ([`easyflow_syntax::value::Value`]): each returns what is wrong with
//!   its message ready (E0801–W0806).
//!
//! This crate knows nothing of flows' trees, files or editors.

pub mod check;
mod model;
mod parser;

pub use easyflow_diagnostics::{TextRange, TextSize};
pub use model::{Catalog, Number, Output, Package, Param, ParamType, Requirement, Run};
pub use parser::{parse, parse_bytes};

/// The name of the catalog file searched upwards from a flow.
pub const CATALOG_FILE_NAME: &str = "easyflow-packages.toml";
