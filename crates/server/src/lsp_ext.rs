//! The custom requests of easyflow-ls, typed: each is a
//! [`Request`](lsp::request::Request) with its params and result, routed in
//! `server.rs` (`service`) and documented in `docs/lsp-extensions.md`.

use easyflow_ide::export::{FORMATS, Format};
use easyflow_ide::graph;
use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{self as lsp, request::Request};
use ts_rs::TS;

/// `easyflow/graph`: the dependency graph of a flow, as `easyflow graph
/// --format json` gives it, with each node's range, and when asked, its
/// laid-out picture. `null` for a document the server cannot read as a
/// flow.
pub enum GraphRequest {}

impl Request for GraphRequest {
    type Params = GraphParams;
    type Result = Option<GraphResult>;
    const METHOD: &'static str = "easyflow/graph";
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphParams {
    #[ts(type = "TextDocumentIdentifier")]
    pub text_document: lsp::TextDocumentIdentifier,
    /// Also send the picture (`GraphResult::picture`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional = nullable)]
    pub picture: bool,
}

/// The JSON graph of `cli.md`; the field names are those of the CLI's
/// output, snake case included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "Graph")]
pub struct GraphResult {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<graph::Edge>,
    pub unresolved: Vec<graph::Unresolved>,
    pub levels: Vec<Vec<String>>,
    /// Asked for with `picture: true`: the graph laid out and drawn as
    /// `easyflow graph --format svg` draws it, as an `<svg>` element for a
    /// page whose stylesheet styles its classes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub picture: Option<String>,
}

/// `easyflow/graphPicture`: what a graph view needs to show a flow's
/// graph, and no more: its picture, packed, the range to reveal for each
/// step's box, and the numbers of the view's header. A fifth of the bytes
/// of `easyflow/graph` with `picture: true`. `null` for a document the
/// server cannot read as a flow.
pub enum GraphPictureRequest {}

impl Request for GraphPictureRequest {
    type Params = GraphPictureParams;
    type Result = Option<GraphPicture>;
    const METHOD: &'static str = "easyflow/graphPicture";
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphPictureParams {
    #[ts(type = "TextDocumentIdentifier")]
    pub text_document: lsp::TextDocumentIdentifier,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphPicture {
    /// The `picture` of `easyflow/graph`, gzip-compressed, in base64.
    pub svg_gzip: String,
    /// The range of each step's name, in the order of the picture's step
    /// boxes (its first `g.node`s); a box of an unresolved name reveals the
    /// step its `data-step` names.
    #[ts(type = "Array<Range | null>")]
    pub ranges: Vec<Option<lsp::Range>>,
    #[ts(type = "number")]
    pub edges: usize,
    /// Names that resolve to nothing (each reference counts).
    #[ts(type = "number")]
    pub unresolved: usize,
    #[ts(type = "number")]
    pub steps_in_cycle: usize,
}

/// A node of the CLI's graph, and the range of its step's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GraphNode {
    #[serde(flatten)]
    pub node: graph::Node,
    /// `null` for a node whose name has no range (it always has one today).
    #[ts(type = "Range | null")]
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportParams {
    #[ts(type = "TextDocumentIdentifier")]
    pub text_document: lsp::TextDocumentIdentifier,
    /// The name of one of the formats the server announces
    /// ([`ExperimentalCapabilities`]); another is `InvalidParams`.
    #[serde(with = "format_name")]
    #[ts(type = "string")]
    pub to: &'static Format,
}

/// A format by its name.
mod format_name {
    use easyflow_ide::export::Format;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(format: &&'static Format, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(format.name)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<&'static Format, D::Error> {
        let name = String::deserialize(d)?;
        Format::named(&name).ok_or_else(|| D::Error::custom(format!("no export format `{name}`")))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExportResult {
    pub text: String,
}

/// The command of the "M dependents" code lens: the client shows the
/// locations (VS Code in its references view, Neovim in the quickfix
/// list); a client without a handler of its own sends it to the server
/// (`workspace/executeCommand`), which answers the dependents' locations
/// in the document as it is then.
pub const SHOW_DEPENDENTS_COMMAND: &str = "easyflow.showDependents";

/// The arguments of [`SHOW_DEPENDENTS_COMMAND`], `[uri, position,
/// locations]`: the flow, the start of the step's name, and the
/// dependents' names when the lens was made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ShowDependentsArguments(
    #[ts(type = "string")] pub lsp::Uri,
    #[ts(type = "Position")] pub lsp::Position,
    #[ts(type = "Location[]")]
    #[serde(default)]
    pub Vec<lsp::Location>,
);

/// [`SHOW_DEPENDENTS_COMMAND`] run on the server, as a request of its own
/// for the dispatcher (its method is the command's name, for the log).
pub enum ShowDependentsRequest {}

impl Request for ShowDependentsRequest {
    type Params = ShowDependentsArguments;
    type Result = Option<Vec<lsp::Location>>;
    const METHOD: &'static str = SHOW_DEPENDENTS_COMMAND;
}

/// What the server announces under `experimental` in its `initialize`
/// result, for the editors' own commands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExperimentalCapabilities {
    /// The formats of `easyflow/export`, in the order to offer them.
    pub export_formats: Vec<ExportFormat>,
}

impl Default for ExperimentalCapabilities {
    fn default() -> Self {
        ExperimentalCapabilities {
            export_formats: FORMATS.iter().map(ExportFormat::from).collect(),
        }
    }
}

/// An export format, as editors offer it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct ExportFormat {
    /// What `easyflow/export` takes as `to`.
    pub name: String,
    /// Its name in a picker.
    pub label: String,
    /// What it is for, beside the label.
    pub description: String,
    /// The language of the text (`xml`, `json`).
    pub language: String,
    /// Appended to the flow's name without `.flow` when saved beside it
    /// (`pipeline.diet.xml`).
    pub suffix: String,
}

impl From<&Format> for ExportFormat {
    fn from(format: &Format) -> Self {
        ExportFormat {
            name: format.name.to_string(),
            label: format.label.to_string(),
            description: format.description.to_string(),
            language: format.language.to_string(),
            suffix: format.suffix.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use easyflow_db::EdgeKind;
    use expect_test::expect_file;

    use super::*;

    /// The declarations the VS Code extension reads these types with,
    /// generated from them: `UPDATE_EXPECT=1` rewrites the file, and a type
    /// changed here without it fails this test.
    #[test]
    fn the_typescript_declarations_are_generated_from_these_types() {
        let config = ts_rs::Config::new().with_large_int("number");
        let kinds: Vec<String> = EdgeKind::ALL
            .iter()
            .map(|k| format!("\"{}\"", k.as_str()))
            .collect();
        let mut text = String::from(
            "// The types of easyflow-ls's LSP extensions (docs/lsp-extensions.md),\n\
             // generated from crates/server/src/lsp_ext.rs by its test: do not edit.\n\
             // UPDATE_EXPECT=1 cargo test -p easyflow-ls --bin easyflow-ls lsp_ext\n\n\
             export interface Position {\n  line: number;\n  character: number;\n}\n\n\
             export interface Range {\n  start: Position;\n  end: Position;\n}\n\n\
             export interface TextDocumentIdentifier {\n  uri: string;\n}\n\n\
             export interface Location {\n  uri: string;\n  range: Range;\n}\n\n",
        );
        text.push_str(&format!("export type EdgeKind = {};\n", kinds.join(" | ")));
        for declaration in [
            GraphParams::decl(&config),
            GraphResult::decl(&config),
            GraphNode::decl(&config),
            GraphPictureParams::decl(&config),
            GraphPicture::decl(&config),
            graph::Edge::decl(&config),
            graph::Unresolved::decl(&config),
            ExportParams::decl(&config),
            ExportResult::decl(&config),
            ExperimentalCapabilities::decl(&config),
            ExportFormat::decl(&config),
            ShowDependentsArguments::decl(&config),
        ] {
            text.push_str(&format!("\nexport {declaration}\n"));
        }
        expect_file!["../../../editors/vscode/src/lsp.generated.ts"].assert_eq(&text);
    }
}
