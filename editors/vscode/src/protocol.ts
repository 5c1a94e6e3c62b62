// What the extension and the graph webview exchange, and the shape of the
// server's `easyflow/graph` result (the JSON of `easyflow graph --format json`,
// with each node's `range`). Shared by both sides: no imports.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type EdgeKind = "control" | "data" | "stream";

export interface GraphNode {
  id: string;
  package: string;
  instances: number;
  /** `null` for steps on or downstream of a cycle. */
  level: number | null;
  long_running: boolean;
  in_cycle: boolean;
  /** The step name's range; absent in the CLI's output. */
  range?: Range | null;
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  in_cycle: boolean;
}

/** A name in `after`/`on` lists or a reference of step `from` that resolves to nothing. */
export interface Unresolved {
  from: string;
  name: string;
  kind: EdgeKind;
}

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  unresolved: Unresolved[];
  levels: string[][];
}

/** Extension → webview. */
export type ToWebview = {
  type: "graph";
  /** The document the graph is of (shown in the header). */
  title: string;
  /** Changes when the view shows another document: the view is then fitted anew. */
  uri: string;
  graph: Graph | null;
  /** Why there is no (new) graph, e.g. the server is not running. */
  error?: string;
};

/** Webview → extension. */
export type FromWebview =
  | { type: "ready" }
  | { type: "reveal"; range: Range };

/** `easyflow/export`: the formats of docs/exports.md, and CWL (docs/run.md). */
export type ExportFormat = "diet" | "workload" | "model" | "cwl";

export interface ExportResult {
  /** The export, the same bytes as `easyflow export --to FORMAT`. */
  text: string;
}
