//! The custom requests of easyflow-ls, typed: each is a
//! [`Request`](lsp::request::Request) with its params and result, routed in
//! `server.rs` (`service`) and documented in `docs/lsp-extensions.md`.

use easyflow_ide::graph;
use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{self as lsp, request::Request};

/// `easyflow/graph`: the dependency graph of a flow, as `easyflow graph
/// --format json` gives it, with each node's range. `null` for a document
/// the server cannot read as a flow.
pub enum GraphRequest {}

impl Request for GraphRequest {
    type Params = GraphParams;
    type Result = Option<GraphResult>;
    const METHOD: &'static str = "easyflow/graph";
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GraphParams {
    pub text_document: lsp::TextDocumentIdentifier,
}

/// The JSON graph of `cli.md`; the field names are those of the CLI's
/// output, snake case included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphResult {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<graph::Edge>,
    pub unresolved: Vec<graph::Unresolved>,
    pub levels: Vec<Vec<String>>,
}

/// A node of the CLI's graph, and the range of its step's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphNode {
    #[serde(flatten)]
    pub node: graph::Node,
    /// `null` for a node whose name has no range (it always has one today).
    pub range: Option<lsp::Range>,
}

/// `easyflow/export`: a flow without errors in one of the formats of
/// `exports.md`, the same bytes as `easyflow export`. A flow with errors is
/// refused with `RequestFailed`; `null` for a document the server cannot
/// read as a flow.
pub enum ExportRequest {}

impl Request for ExportRequest {
    type Params = ExportParams;
    type Result = Option<ExportResult>;
    const METHOD: &'static str = "easyflow/export";
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportParams {
    pub text_document: lsp::TextDocumentIdentifier,
    pub to: ExportFormat,
}

/// `"diet"`, `"workload"`, `"model"` or `"cwl"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Diet,
    Workload,
    Model,
    Cwl,
}

impl From<ExportFormat> for easyflow_ide::export::Format {
    fn from(format: ExportFormat) -> Self {
        match format {
            ExportFormat::Diet => Self::Diet,
            ExportFormat::Workload => Self::Workload,
            ExportFormat::Model => Self::Model,
            ExportFormat::Cwl => Self::Cwl,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportResult {
    pub text: String,
}
