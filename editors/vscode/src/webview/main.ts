// The graph page: receives the server's pictures of a flow's graph from the
// extension (the drawing of `easyflow graph --format svg`, laid out once by
// the server, styled here by graph.css), shows them, pans and zooms, and
// asks the extension to reveal a clicked step. Only the part of the picture
// in view is in the page, and a large one zoomed far out is painted on a
// canvas (scene.ts): a flow of thousands of steps opens and pans fast.

import type { FromWebview, PackedPicture, ToWebview } from "../protocol";
import { type Area, Scene } from "./scene";

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

/** Under the picture: its boxes and wires, when painted rather than in the page. */
const far = document.createElement("canvas");
far.id = "far";
const svg = document.createElementNS(SVG, "svg");
svg.id = "graph";
const viewport = document.createElementNS(SVG, "g");
svg.append(viewport);
canvas.append(far, svg);

/** What is drawn, its size, and how it is panned and zoomed. */
let current: { uri: string; picture: Picture; width: number; height: number; scene: Scene } | undefined;
let view = { x: 0, y: 0, scale: 1 };
let selected: string | undefined;
/** The view is as `fit` left it (the user has not panned or zoomed since). */
let fitted = true;
/** The frame a redraw is asked for, if any. */
let redrawing: number | undefined;

/** An `easyflow/graphPicture` result, its SVG unpacked. */
type Picture = Omit<PackedPicture, "svgGzip"> & { svg: string };

/** The number of the last message: a picture still unpacked when a newer one comes is not shown. */
let latest = 0;

window.addEventListener("message", (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (message?.type !== "graph") {
    return;
  }
  const number = ++latest;
  void unpack(message.picture).then((picture) => {
    if (number === latest) {
      show(message, picture);
    }
  });
});

/** The picture the extension passed on (graphPacking.ts), its SVG decompressed. */
async function unpack(packed: PackedPicture | null): Promise<Picture | null> {
  if (!packed) {
    return null;
  }
  const { svgGzip, ...rest } = packed;
  const svg = new Blob([svgGzip]).stream().pipeThrough(new DecompressionStream("gzip"));
  return { ...rest, svg: await new Response(svg).text() };
}

function show(message: ToWebview, picture: Picture | null): void {
  title.textContent = message.title;
  errorLine.textContent = message.error ?? "";
  if (!picture) {
    if (!current || current.uri !== message.uri) {
      showEmpty(message.error ?? "No graph for this file.");
    }
    return;
  }
  const refit = !current || current.uri !== message.uri;
  summary.textContent = describe(picture);
  if (picture.steps === 0) {
    current = { uri: message.uri, picture, width: 0, height: 0, scene: new Scene("") };
    showEmpty("No steps in this flow.");
    return;
  }
  // Measured before the picture is in: measuring after would lay it out
  // before its zoom (and so its level of detail) is known.
  empty.hidden = true;
  svg.style.display = "";
  const box = svg.getBoundingClientRect();
  // The server's <svg>, as it drew it; its texts are escaped by the server.
  // Only its frame goes in now, its boxes and wires as they come in view.
  const scene = new Scene(picture.svg);
  viewport.innerHTML = scene.frame;
  scene.place(viewport.querySelector(".edges"), viewport.querySelector(".nodes"));
  current = { uri: message.uri, picture, width: scene.width, height: scene.height, scene };
  if (selected) {
    scene.node(selected)?.classList.add("selected");
  }
  if (refit || fitted) {
    fit(box);
  } else {
    apply();
  }
  draw(box);
  document.body.dataset.nodes = String(scene.nodes.length);
  document.body.dataset.edges = String(scene.wires.length);
  document.body.dataset.state = "drawn";
}

function showEmpty(text: string): void {
  viewport.replaceChildren();
  svg.style.display = "none";
  far.style.display = "none";
  empty.textContent = text;
  empty.hidden = false;
  document.body.dataset.nodes = "0";
  document.body.dataset.edges = "0";
  document.body.dataset.state = "empty";
}

function describe(picture: Picture): string {
  const parts = [plural(picture.steps, "step"), plural(picture.edges, "edge")];
  if (picture.unresolved > 0) {
    parts.push(`${picture.unresolved} unresolved`);
  }
  if (picture.stepsInCycle > 0) {
    parts.push(`${plural(picture.stepsInCycle, "step")} on a cycle`);
  }
  return parts.join(" · ");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// Clicks (and Enter or Space on a focused node) reveal the step in the editor.
let dragged = false;

svg.addEventListener("click", (event) => {
  if (dragged) {
    return;
  }
  if (painting() && current) {
    // The boxes are painted: the one under the pointer, by its coordinates.
    const box = svg.getBoundingClientRect();
    activate(current.scene.nodeAt((event.clientX - box.left - view.x) / view.scale, (event.clientY - box.top - view.y) / view.scale) ?? null);
  } else {
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
  if (!node || !id || !current) {
    return;
  }
  if (selected) {
    current.scene.node(selected)?.classList.remove("selected");
  }
  node.classList.add("selected");
  selected = id;
  if (painting()) {
    draw();
  }
  // An unresolved name has no place of its own: the picture names the
  // step to show for it (`data-step`). The steps' boxes come first in the
  // picture, in the order of the steps' ranges, which the extension has.
  const step = current.scene.indexOf(node.dataset.step ?? id);
  if (step >= 0 && step < current.picture.steps) {
    vscode.postMessage({ type: "reveal", step });
  }
}

// Panning (drag) and zooming (wheel, around the pointer).

/** Below this zoom, texts would be specks: graph.css leaves them out, with
 * the arrowheads and dashes, so that a large flow draws and pans fast. */
const FAR = 0.3;
/** A picture with more boxes than this is painted when zoomed out below
 * `FAR`: thousands of elements in the page make it slow to open and pan. */
const PAINTED_ABOVE = 1000;
/** Around the view, the part of the picture kept in the page (in views):
 * a short pan needs no redraw of its edges. */
const BORDER = 0.5;

function apply(): void {
  viewport.setAttribute("transform", `translate(${view.x},${view.y}) scale(${view.scale})`);
  svg.classList.toggle("far", view.scale < FAR);
  redrawing ??= requestAnimationFrame(() => {
    redrawing = undefined;
    draw();
  });
}

/** The boxes and wires are painted on the canvas rather than in the page. */
function painting(): boolean {
  return !!current && current.scene.nodes.length > PAINTED_ABOVE && view.scale < FAR;
}

/** Puts in the page, or paints, what the view shows. A redraw asked for
 * is then done: a large picture opening is painted once, not twice. */
function draw(box = svg.getBoundingClientRect()): void {
  if (redrawing !== undefined) {
    cancelAnimationFrame(redrawing);
    redrawing = undefined;
  }
  if (!current) {
    return;
  }
  const context = far.getContext("2d");
  const ratio = window.devicePixelRatio || 1;
  if (painting() && context) {
    current.scene.show(undefined);
    far.style.display = "";
    far.width = Math.round(box.width * ratio);
    far.height = Math.round(box.height * ratio);
    context.setTransform(ratio * view.scale, 0, 0, ratio * view.scale, ratio * view.x, ratio * view.y);
    current.scene.paint(context, selected);
    return;
  }
  far.style.display = "none";
  const border = { x: (box.width * BORDER) / view.scale, y: (box.height * BORDER) / view.scale };
  const shown: Area = {
    left: -view.x / view.scale - border.x,
    top: -view.y / view.scale - border.y,
    right: (box.width - view.x) / view.scale + border.x,
    bottom: (box.height - view.y) / view.scale + border.y,
  };
  current.scene.show(shown);
}

function fit(box = svg.getBoundingClientRect()): void {
  if (!current) {
    return;
  }
  const { width, height } = current;
  const scale = Math.min(1, box.width / Math.max(width, 1), box.height / Math.max(height, 1));
  view = { scale, x: (box.width - width * scale) / 2, y: Math.max(0, (box.height - height * scale) / 2) };
  fitted = true;
  apply();
}

document.getElementById("fit")!.addEventListener("click", () => fit());

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
  } else {
    apply();
  }
});

vscode.postMessage({ type: "ready" });
