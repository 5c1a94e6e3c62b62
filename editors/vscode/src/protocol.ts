// What the extension and the graph webview exchange. The server's types are
// generated from its Rust types (lsp.generated.ts). Shared by both sides:
// type imports only.

import type { GraphPicture, Range } from "./lsp.generated";

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
  GraphPicture,
  GraphPictureParams,
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
  /** The picture and what goes with it (`packPicture` in graphPacking.ts). */
  picture: PackedPicture | null;
  /** Why there is no (new) graph, e.g. the server is not running. */
  error?: string;
};

/** An `easyflow/graphPicture` result as the webview gets it: the SVG still
 * gzip-compressed, as bytes. */
export type PackedPicture = Omit<GraphPicture, "svgGzip"> & { svgGzip: Uint8Array<ArrayBuffer> };

/** Webview → extension. */
export type FromWebview = { type: "ready" } | { type: "reveal"; range: Range };
