//! The analysis's rules, one module per family. Each rule is one function
//! that writes a diagnostic's message and its fix's data ([`Fix`]) from the
//! same values, so a message and its quick fix cannot disagree.
//!
//! - [`steps`]: what one step's walk finds (`items.rs`), at ranges.
//! - [`names`] and [`graph`]: what needs the whole file, at anchors
//!   (`anchor.rs`), run by `diagnostics::semantic_diagnostics`.
//! - [`catalog`]: a step against the package catalog (E0801–E0805, run per
//!   step by `catalog.rs`), and W0806 at anchors.
//!
//! The attribute rules live with the attribute vocabularies
//! (`attributes.rs`), and the topology fit's with its check (`fit.rs`).
//!
//! [`Fix`]: easyflow_diagnostics::Fix

pub(crate) mod catalog;
pub(crate) mod graph;
pub(crate) mod names;
pub(crate) mod steps;
