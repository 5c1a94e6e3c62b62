// The picture as the extension sends it to its webview. The server sends
// the SVG gzip-compressed, in base64 (`easyflow/graphPicture`): a large
// flow's picture is megabytes (10 MB for 10 000 steps) that compress seven
// to one. The extension passes the compressed bytes on as they are: bytes
// cross to the webview as they are, where a string would be copied and
// re-encoded at every hop (the extension host, VS Code's window,
// code-server's websocket). The webview unpacks them with
// DecompressionStream (webview/main.ts). The steps' ranges stay with the
// extension, which reveals a step the webview names by its place.

import type { GraphPicture, PackedPicture } from "./protocol";

export function packPicture({ svgGzip, ranges, ...numbers }: GraphPicture): PackedPicture {
  return { ...numbers, svgGzip: Uint8Array.from(Buffer.from(svgGzip, "base64")), steps: ranges.length };
}
