//! The exports of `exports.md`: an [`ExpandedWorkflow`] written as DIET MA
//! DAG XML, the formal workload description's JSON, or the workflow DAG
//! model's JSON. Each writer is a view of the model: the names are resolved,
//! the sweeps expanded and the order fixed by the database
//! (`easyflow_db::workflow`), so the same flow gives the same bytes.
//!
//! Deciding whether a flow may be exported (no errors, no id collision) is
//! the host's business (`easyflow_ide::export`); these functions write any
//! model they are given.

mod diet;
mod model;
mod workload;

use easyflow_db::ExpandedWorkflow;
use easyflow_syntax::value::{LiteralValue, Value};

/// The formats of `easyflow export --to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// DIET's MA DAG XML.
    Diet,
    /// The formal workload description, as JSON.
    Workload,
    /// The workflow DAG model, as JSON.
    Model,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::Diet, Format::Workload, Format::Model];

    /// The name `--to` and `easyflow/export` take.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Diet => "diet",
            Format::Workload => "workload",
            Format::Model => "model",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// The language of the text (`xml` or `json`), for editors.
    pub fn language(self) -> &'static str {
        match self {
            Format::Diet => "xml",
            Format::Workload | Format::Model => "json",
        }
    }

    /// The file name suffix an export is saved with (`.diet.xml`, …).
    pub fn suffix(self) -> &'static str {
        match self {
            Format::Diet => ".diet.xml",
            Format::Workload => ".workload.json",
            Format::Model => ".model.json",
        }
    }
}

/// The workflow in `format`, ending with a newline.
pub fn write(workflow: &ExpandedWorkflow, format: Format) -> String {
    match format {
        Format::Diet => diet::write(workflow),
        Format::Workload => workload::write(workflow),
        Format::Model => model::write(workflow),
    }
}

/// Pretty JSON (two-space indentation) and a final newline.
fn json_text(value: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values serialize");
    text.push('\n');
    text
}

/// A value as it reads outside EasyFlow: a string's content, a constant's
/// name, anything else as EasyFlow text.
fn plain_text(value: &Value) -> String {
    match value {
        Value::Literal(literal) => match &literal.kind {
            LiteralValue::String(content) => content.clone(),
            LiteralValue::Constant(name) => name.clone(),
            _ => literal.text.to_string(),
        },
        other => other.text(),
    }
}
