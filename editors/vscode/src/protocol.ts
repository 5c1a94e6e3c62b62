// What the extension and the graph webview exchange. The server's types are
// generated from its Rust types (lsp.generated.ts). Shared by both sides:
// type imports only.

import type { Range } from "./lsp.generated";

export type {
  EdgeKind,
  ExperimentalCapabilities,
  ExportFormat,
  ExportParams,
  ExportResult,
  Graph,
  GraphEdge,
  GraphNode,
  GraphParams,
  Position,
  Range,
  ShowDependentsArguments,
  Unresolved,
} from "./lsp.generated";

/** Extension → webview. */
export type ToWebview = {
  type: "graph";
  /** The document the graph is of (shown in the header). */
  title: string;
  /** Changes when the view shows another document: the view is then fitted anew. */
  uri: string;
  /** The graph with its `picture`, packed (`packGraph` in graphPacking.ts). */
  graph: Uint8Array<ArrayBuffer> | null;
  /** Why there is no (new) graph, e.g. the server is not running. */
  error?: string;
};

/** Webview → extension. */
export type FromWebview = { type: "ready" } | { type: "reveal"; range: Range };
