// Draws a laid-out graph as SVG.

import type { Box, Layout, Point, Wire } from "./layout";
import { instancesLabel } from "./layout";

const SVG = "http://www.w3.org/2000/svg";

type Attributes = Record<string, string | number>;

function el<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Attributes = {}, text?: string): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    element.setAttribute(name, String(value));
  }
  if (text !== undefined) {
    element.textContent = text;
  }
  return element;
}

/** The drawing's root `<g>` (panned and zoomed by the page) and its content. */
export function draw(viewport: SVGGElement, layout: Layout): void {
  const columns = el("g", { class: "columns" });
  for (const column of layout.columns) {
    const band = el("g", { class: "column" });
    band.append(
      el("rect", { x: column.x - 8, y: 8, width: column.width + 16, height: Math.max(0, layout.height - 16), rx: 6 }),
      el("text", { x: column.x + column.width / 2, y: 26, "text-anchor": "middle" }, column.label),
    );
    columns.append(band);
  }
  const wires = el("g", { class: "edges" });
  for (const wire of layout.wires) {
    wires.append(drawWire(wire));
  }
  const nodes = el("g", { class: "nodes" });
  for (const box of layout.boxes) {
    nodes.append(drawBox(box));
  }
  viewport.replaceChildren(columns, wires, nodes);
}

function drawWire(wire: Wire): SVGPathElement {
  const path = el("path", {
    class: `edge ${wire.kind}${wire.bad ? " bad" : ""}`,
    d: pathOf(wire.points),
    "marker-end": `url(#${wire.bad ? "arrow-bad" : "arrow"})`,
    "data-from": wire.from,
    "data-to": wire.to,
  });
  path.append(el("title", {}, `${wire.from} → ${wire.to}: ${wire.kind}${wire.bad ? (wire.from.startsWith("?") ? " (unresolved)" : " (cycle)") : ""}`));
  return path;
}

/** A polyline with its corners rounded. */
function pathOf(points: Point[]): string {
  if (points.length === 0) {
    return "";
  }
  const radius = 6;
  let d = `M${points[0].x},${points[0].y}`;
  for (let i = 1; i < points.length; i++) {
    const p = points[i];
    const next = points[i + 1];
    if (!next) {
      d += ` L${p.x},${p.y}`;
      break;
    }
    const prev = points[i - 1];
    const r = Math.min(radius, dist(prev, p) / 2, dist(p, next) / 2);
    const a = towards(p, prev, r);
    const b = towards(p, next, r);
    d += ` L${a.x},${a.y} Q${p.x},${p.y} ${b.x},${b.y}`;
  }
  return d;
}

function dist(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function towards(from: Point, to: Point, length: number): Point {
  const d = dist(from, to) || 1;
  return { x: from.x + ((to.x - from.x) * length) / d, y: from.y + ((to.y - from.y) * length) / d };
}

function drawBox(box: Box): SVGGElement {
  const step = box.step;
  const classes = ["node", step ? "step" : "unresolved"];
  if (step?.in_cycle) classes.push("in-cycle");
  if (step?.long_running) classes.push("long-running");
  const g = el("g", {
    class: classes.join(" "),
    transform: `translate(${box.x},${box.y})`,
    "data-id": box.id,
    tabindex: 0,
    role: "button",
    "aria-label": step ? `step ${step.id}, ${step.package}` : `unresolved name ${box.label}`,
  });
  g.append(el("rect", { width: box.width, height: box.height, rx: 5 }));
  if (step?.long_running) {
    g.append(el("rect", { class: "inner", x: 3, y: 3, width: box.width - 6, height: box.height - 6, rx: 3 }));
  }
  g.append(el("text", { class: "name", x: 12, y: 18 }, box.label));
  g.append(el("text", { class: "detail", x: 12, y: 34 }, step ? step.package : "unresolved"));
  const badge = step ? instancesLabel(step) : "";
  if (badge) {
    g.append(el("text", { class: "instances", x: box.width - 10, y: 18, "text-anchor": "end" }, badge));
  }
  g.append(el("title", {}, tooltip(box)));
  return g;
}

function tooltip(box: Box): string {
  const step = box.step;
  if (!step) {
    return `${box.label}: not a step or a required file\nnamed by ${box.namedBy.join(", ")}`;
  }
  const lines = [
    `${step.long_running ? "~step" : "step"} ${step.id} runs ${step.package}`,
    step.level === null ? "no level (on or after a cycle)" : `level ${step.level}`,
    `${step.instances} instance${step.instances === 1 ? "" : "s"}`,
  ];
  if (step.in_cycle) {
    lines.push("on a dependency cycle");
  }
  return lines.join("\n");
}
