// The types of easyflow-ls's LSP extensions (docs/lsp-extensions.md),
// generated from crates/server/src/lsp_ext.rs by its test: do not edit.
// UPDATE_EXPECT=1 cargo test -p easyflow-ls --bin easyflow-ls lsp_ext

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface TextDocumentIdentifier {
  uri: string;
}

export interface Location {
  uri: string;
  range: Range;
}

export type EdgeKind = "control" | "data" | "stream";

export type GraphParams = { textDocument: TextDocumentIdentifier, 
/**
 * Also send the picture (`GraphResult::picture`).
 */
picture?: boolean, };

export type Graph = { nodes: Array<GraphNode>, edges: Array<GraphEdge>, unresolved: Array<Unresolved>, levels: Array<Array<string>>, 
/**
 * Asked for with `picture: true`: the graph laid out and drawn as
 * `easyflow graph --format svg` draws it, as an `<svg>` element for a
 * page whose stylesheet styles its classes.
 */
picture?: string, };

export type GraphNode = { 
/**
 * `null` for a node whose name has no range (it always has one today).
 */
range: Range | null, 
/**
 * The step's name; a repeated definition gets `#2`, `#3`, … appended.
 */
id: string, package: string | null, instances: number, 
/**
 * `None` on or after a cycle.
 */
level: number | null, long_running: boolean, in_cycle: boolean, };

export type GraphPictureParams = { textDocument: TextDocumentIdentifier, };

export type GraphPicture = { 
/**
 * The `picture` of `easyflow/graph`, gzip-compressed, in base64.
 */
svgGzip: string, 
/**
 * The range of each step's name, in the order of the picture's step
 * boxes (its first `g.node`s); a box of an unresolved name reveals the
 * step its `data-step` names.
 */
ranges: Array<Range | null>, edges: number, 
/**
 * Names that resolve to nothing (each reference counts).
 */
unresolved: number, stepsInCycle: number, };

export type GraphEdge = { from: string, to: string, 
/**
 * `control`, `data` or `stream`.
 */
kind: EdgeKind, in_cycle: boolean, };

export type Unresolved = { from: string, name: string, 
/**
 * `control`, `data` or `stream`.
 */
kind: EdgeKind, };

export type ExportParams = { textDocument: TextDocumentIdentifier, 
/**
 * The name of one of the formats the server announces
 * ([`ExperimentalCapabilities`]); another is `InvalidParams`.
 */
to: string, };

export type ExportResult = { text: string, };

export type ExperimentalCapabilities = { 
/**
 * The formats of `easyflow/export`, in the order to offer them.
 */
exportFormats: Array<ExportFormat>, };

export type ExportFormat = { 
/**
 * What `easyflow/export` takes as `to`.
 */
name: string, 
/**
 * Its name in a picker.
 */
label: string, 
/**
 * What it is for, beside the label.
 */
description: string, 
/**
 * The language of the text (`xml`, `json`).
 */
language: string, 
/**
 * Appended to the flow's name without `.flow` when saved beside it
 * (`pipeline.diet.xml`).
 */
suffix: string, };

export type ShowDependentsArguments = [string, Position, Location[]];
