// The graph as the extension sends it to its webview: JSON, gzip-compressed.
// A large flow's graph and picture are megabytes of JSON and SVG (10 MB for
// 10 000 steps) that compress ten to one; bytes cross to the webview as
// they are, where a string would be copied and re-encoded at every hop
// (the extension host, VS Code's window, code-server's websocket). The
// webview unpacks it with DecompressionStream (webview/main.ts).

import { gzipSync } from "node:zlib";

import type { Graph } from "./protocol";

export function packGraph(graph: Graph): Uint8Array<ArrayBuffer> {
  // Level 1: a tenth of the time of the default for most of its gain.
  return Uint8Array.from(gzipSync(JSON.stringify(graph), { level: 1 }));
}
