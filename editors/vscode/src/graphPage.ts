// The graph page: used by the extension (webview URIs) and by the tests (a
// file page with a stub `acquireVsCodeApi` in `prelude`). No DOM code here.

export interface PageOptions {
  /** URI of the bundled `graph.js`. */
  script: string;
  /** URI of `graph.css`. */
  style: string;
  /** The webview's `cspSource` (the origin its resources are loaded from). */
  cspSource: string;
  nonce: string;
  /** An extra inline script run before `graph.js` (the tests' stub). */
  prelude?: string;
}

export function graphPage(o: PageOptions): string {
  const csp = [
    "default-src 'none'",
    `img-src ${o.cspSource} data:`,
    `style-src ${o.cspSource}`,
    `font-src ${o.cspSource}`,
    `script-src 'nonce-${o.nonce}'`,
  ].join("; ");
  const prelude = o.prelude ? `<script nonce="${o.nonce}">${o.prelude}</script>\n` : "";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${o.style}">
<title>Workflow graph</title>
</head>
<body>
<header>
  <span id="title"></span>
  <span id="summary"></span>
  <span id="error" role="alert"></span>
  <button id="fit" type="button" title="Fit the graph to the view">Fit</button>
</header>
<main id="canvas" tabindex="-1"><p id="empty">Waiting for the graph…</p></main>
<footer id="legend" aria-label="Legend">
  <span><svg width="28" height="8" aria-hidden="true"><line class="edge control" x1="0" y1="4" x2="28" y2="4"/></svg>control (after)</span>
  <span><svg width="28" height="8" aria-hidden="true"><line class="edge data" x1="0" y1="4" x2="28" y2="4"/></svg>data</span>
  <span><svg width="28" height="8" aria-hidden="true"><line class="edge stream" x1="0" y1="4" x2="28" y2="4"/></svg>stream</span>
  <span><svg width="28" height="8" aria-hidden="true"><line class="edge data bad" x1="0" y1="4" x2="28" y2="4"/></svg>cycle / unresolved</span>
</footer>
${prelude}<script nonce="${o.nonce}" src="${o.script}"></script>
</body>
</html>
`;
}

export function nonce(): string {
  const bytes = new Uint8Array(18);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
