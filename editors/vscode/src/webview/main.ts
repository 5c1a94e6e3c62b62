// The graph page: receives graphs from the extension, lays them out, draws
// them, pans and zooms, and asks the extension to reveal a clicked step.

import type { FromWebview, Graph, ToWebview } from "../protocol";
import { type Layout, layout } from "./layout";
import { draw } from "./render";

interface VsCodeApi {
  postMessage(message: FromWebview): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const canvas = document.getElementById("canvas")!;
const title = document.getElementById("title")!;
const summary = document.getElementById("summary")!;
const errorLine = document.getElementById("error")!;
const empty = document.getElementById("empty")!;
const SVG = "http://www.w3.org/2000/svg";

const svg = document.createElementNS(SVG, "svg");
svg.id = "graph";
svg.innerHTML = `<defs>
  <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker>
  <marker id="arrow-bad" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker>
</defs>`;
const viewport = document.createElementNS(SVG, "g");
svg.append(viewport);
canvas.append(svg);

/** What is drawn, and how it is panned and zoomed. */
let current: { uri: string; graph: Graph; layout: Layout } | undefined;
let view = { x: 0, y: 0, scale: 1 };
/** Increases with each graph received; a layout finishing after a newer graph arrived is dropped. */
let generation = 0;
let selected: string | undefined;
/** The view is as `fit` left it (the user has not panned or zoomed since). */
let fitted = true;

window.addEventListener("message", (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (message?.type === "graph") {
    void show(message);
  }
});

async function show(message: ToWebview): Promise<void> {
  const mine = ++generation;
  title.textContent = message.title;
  errorLine.textContent = message.error ?? "";
  if (!message.graph) {
    if (!current || current.uri !== message.uri) {
      showEmpty(message.error ?? "No graph for this file.");
    }
    return;
  }
  const graph = message.graph;
  const laidOut = await layout(graph, measure);
  if (mine !== generation) {
    return;
  }
  const refit = !current || current.uri !== message.uri;
  current = { uri: message.uri, graph, layout: laidOut };
  summary.textContent = describe(graph);
  if (graph.nodes.length === 0) {
    showEmpty("No steps in this flow.");
    return;
  }
  empty.hidden = true;
  svg.style.display = "";
  draw(viewport, laidOut);
  if (selected) {
    viewport.querySelector(`[data-id="${CSS.escape(selected)}"]`)?.classList.add("selected");
  }
  if (refit || fitted) {
    fit();
  }
  document.body.dataset.nodes = String(laidOut.boxes.length);
  document.body.dataset.edges = String(laidOut.wires.length);
  document.body.dataset.state = "drawn";
}

function showEmpty(text: string): void {
  viewport.replaceChildren();
  svg.style.display = "none";
  empty.textContent = text;
  empty.hidden = false;
  document.body.dataset.nodes = "0";
  document.body.dataset.edges = "0";
  document.body.dataset.state = "empty";
}

function describe(graph: Graph): string {
  const parts = [plural(graph.nodes.length, "step"), plural(graph.edges.length, "edge")];
  if (graph.unresolved.length > 0) {
    parts.push(`${graph.unresolved.length} unresolved`);
  }
  const cyclic = graph.nodes.filter((n) => n.in_cycle).length;
  if (cyclic > 0) {
    parts.push(`${plural(cyclic, "step")} on a cycle`);
  }
  return parts.join(" · ");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// Text widths for node sizes, in the fonts of graph.css.
const context = document.createElement("canvas").getContext("2d")!;
const family = getComputedStyle(document.body).fontFamily || "sans-serif";
const widthIn = (font: string) => (text: string) => {
  context.font = font;
  return Math.ceil(context.measureText(text).width);
};
const measure = { name: widthIn(`600 13px ${family}`), detail: widthIn(`11px ${family}`) };

// Clicks (and Enter or Space on a focused node) reveal the step in the editor.
let dragged = false;

viewport.addEventListener("click", (event) => {
  if (!dragged) {
    activate(event.target);
  }
});

viewport.addEventListener("keydown", (event) => {
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    activate(event.target);
  }
});

function activate(target: EventTarget | null): void {
  const node = (target as Element | null)?.closest?.<SVGGElement>(".node");
  const id = node?.dataset.id;
  const box = current?.layout.boxes.find((b) => b.id === id);
  if (!node || !box) {
    return;
  }
  viewport.querySelector(".selected")?.classList.remove("selected");
  node.classList.add("selected");
  selected = box.id;
  // An unresolved name has no place of its own: show the first step naming it.
  const step = box.step ?? current?.graph.nodes.find((n) => n.id === box.namedBy[0]);
  if (step?.range) {
    vscode.postMessage({ type: "reveal", range: step.range });
  }
}

// Panning (drag) and zooming (wheel, around the pointer).
function apply(): void {
  viewport.setAttribute("transform", `translate(${view.x},${view.y}) scale(${view.scale})`);
}

function fit(): void {
  if (!current) {
    return;
  }
  const { width, height } = current.layout;
  const box = svg.getBoundingClientRect();
  const scale = Math.min(1, box.width / Math.max(width, 1), box.height / Math.max(height, 1));
  view = { scale, x: (box.width - width * scale) / 2, y: Math.max(0, (box.height - height * scale) / 2) };
  fitted = true;
  apply();
}

document.getElementById("fit")!.addEventListener("click", fit);

svg.addEventListener(
  "wheel",
  (event) => {
    event.preventDefault();
    const box = svg.getBoundingClientRect();
    const px = event.clientX - box.left;
    const py = event.clientY - box.top;
    const scale = Math.min(4, Math.max(0.05, view.scale * Math.exp(-event.deltaY * 0.0015)));
    view = { scale, x: px - ((px - view.x) * scale) / view.scale, y: py - ((py - view.y) * scale) / view.scale };
    fitted = false;
    apply();
  },
  { passive: false },
);

svg.addEventListener("pointerdown", (event) => {
  if (event.button !== 0) {
    return;
  }
  const start = { x: event.clientX, y: event.clientY, viewX: view.x, viewY: view.y };
  dragged = false;
  const move = (e: PointerEvent) => {
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    if (!dragged && Math.hypot(dx, dy) < 4) {
      return;
    }
    if (!dragged) {
      dragged = true;
      svg.setPointerCapture(event.pointerId);
      svg.classList.add("panning");
    }
    view = { ...view, x: start.viewX + dx, y: start.viewY + dy };
    fitted = false;
    apply();
  };
  const up = () => {
    svg.removeEventListener("pointermove", move);
    svg.removeEventListener("pointerup", up);
    svg.removeEventListener("pointercancel", up);
    svg.classList.remove("panning");
  };
  svg.addEventListener("pointermove", move);
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
});

window.addEventListener("resize", () => {
  if (fitted) {
    fit();
  }
});

vscode.postMessage({ type: "ready" });
