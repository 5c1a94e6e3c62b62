// What the extension and the graph webview exchange. The server's types are
// generated from its Rust types (lsp.generated.ts). Shared by both sides:
// type imports only.

import type { GraphPicture } from "./lsp.generated";

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
  /** The picture and the numbers of the header (`packPicture` in graphPacking.ts). */
  picture: PackedPicture | null;
  /** Why there is no (new) graph, e.g. the server is not running. */
  error?: string;
};

/** An `easyflow/graphPicture` result as the webview gets it: the SVG still
 * gzip-compressed, as bytes, and the number of steps for their ranges (the
 * extension keeps those: each byte sent to the webview costs). */
export type PackedPicture = Omit<GraphPicture, "svgGzip" | "ranges"> & { svgGzip: Uint8Array<ArrayBuffer>; steps: number };

/** Webview → extension. */
export type FromWebview = { type: "ready" } | { type: "reveal"; step: number };
