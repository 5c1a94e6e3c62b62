//! The package catalog (`../shared/spec/catalog.md`): the platform's package
//! knowledge base as a TOML file in the project, so parameter checks work
//! offline and in CI.
//!
//! - [`parse`] (and [`parse_bytes`], for a file that may not be UTF-8) reads
//!   `easyflow-packages.toml` into a [`Catalog`]: every valid package with its
//!   parameters and outputs, and the E0810 diagnostics of the file, at byte
//!   ranges of its text. The valid part is always kept.
//! - [`check`] holds the checks of a step against a package as plain
//!   functions over plain values ([`Value`]): each returns what is wrong with
//!   its message ready (E0801–W0806).
//!
//! This crate knows nothing of flows' syntax, files or editors.

pub mod check;
mod model;
mod parser;

pub use easyflow_diagnostics::{TextRange, TextSize};
pub use model::{Catalog, Number, Output, Package, Param, ParamType, Requirement, Run};
pub use parser::{parse, parse_bytes};

/// The name of the catalog file searched upwards from a flow.
pub const CATALOG_FILE_NAME: &str = "easyflow-packages.toml";

/// A parameter's value in a flow, as the checks see it: no positions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    Int(i64),
    /// As written: doubles have no `Eq`.
    Double(String),
    String(String),
    Bool(bool),
    /// A constant's name without `@`.
    Constant(String),
    /// A reference that is a File: a required file or a step's output, as
    /// written.
    File(String),
    /// Any other reference, as written: its type is unknown, so it is not checked.
    Reference(String),
    List(Vec<Value>),
    /// Missing or unparseable (already reported by the parser).
    Invalid,
}

impl Value {
    /// How the value reads in messages.
    pub fn describe(&self) -> String {
        match self {
            Value::String(s) => format!("the string {s:?}"),
            Value::Int(i) => format!("the integer {i}"),
            Value::Double(d) => format!("the number {d}"),
            Value::Bool(b) => format!("`{b}`"),
            Value::Constant(c) => format!("`@{c}`"),
            Value::File(r) => format!("the file `{r}`"),
            Value::Reference(r) => format!("the reference `{r}`"),
            Value::List(_) => "a list".to_string(),
            Value::Invalid => "an invalid value".to_string(),
        }
    }
}
