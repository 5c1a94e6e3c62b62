// Lays the graph out as a layered DAG, left to right, one column per level:
// ELK's layered algorithm with a partition per level, so steps of one level
// share a column. Steps without a level (on or after a cycle) come last, and
// an unresolved name is a node of its own just before the steps naming it.

import ELK from "elkjs/lib/elk.bundled.js";
import type { ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api";

import type { EdgeKind, Graph, GraphNode } from "../protocol";

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  id: string;
  /** The step's name, or the unresolved name. */
  label: string;
  /** `undefined` for an unresolved name. */
  step?: GraphNode;
  /** For an unresolved name: the steps that name it. */
  namedBy: string[];
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Wire {
  from: string;
  to: string;
  kind: EdgeKind;
  /** On a cycle, or from an unresolved name. */
  bad: boolean;
  points: Point[];
}

/** The band of one level (or of the steps without a level). */
export interface Column {
  label: string;
  x: number;
  width: number;
}

export interface Layout {
  boxes: Box[];
  wires: Wire[];
  columns: Column[];
  width: number;
  height: number;
}

/** Text widths in pixels, measured by the page. */
export interface Measure {
  name(text: string): number;
  detail(text: string): number;
}

/** Above this many nodes ELK takes seconds: the columns are stacked instead. */
export const ELK_LIMIT = 1000;

const NODE_HEIGHT = 44;
const PAD_X = 12;
const MIN_WIDTH = 72;
const LAYER_GAP = 64;
const NODE_GAP = 18;
const MARGIN = 24;
/** Room above the nodes for the column labels. */
const HEADER = 28;

const elk = new ELK();

/** The unresolved name's node id (one node per name, shared by every step naming it). */
export function unresolvedId(name: string): string {
  return `?${name}`;
}

export function instancesLabel(node: GraphNode): string {
  return node.instances > 1 ? `× ${node.instances}` : "";
}

export async function layout(graph: Graph, measure: Measure): Promise<Layout> {
  const model = buildModel(graph, measure);
  if (model.boxes.length <= ELK_LIMIT) {
    try {
      return await elkLayout(model);
    } catch (error) {
      console.error("ELK layout failed, stacking columns instead", error);
    }
  }
  return stackedLayout(model);
}

interface Model {
  boxes: (Box & { partition: number })[];
  wires: Omit<Wire, "points">[];
  columnLabels: Map<number, string>;
}

function buildModel(graph: Graph, measure: Measure): Model {
  const levels = graph.nodes.map((n) => n.level).filter((l): l is number => l !== null);
  const last = levels.length > 0 ? Math.max(...levels) + 1 : 0;
  const partitionOf = new Map<string, number>();
  const columnLabels = new Map<number, string>();
  const boxes: Model["boxes"] = [];
  for (const step of graph.nodes) {
    if (partitionOf.has(step.id)) {
      continue; // A repeated definition: the graph names the first.
    }
    const partition = step.level ?? last;
    partitionOf.set(step.id, partition);
    columnLabels.set(partition, step.level === null ? "no level (cycle)" : `level ${step.level}`);
    const badge = instancesLabel(step);
    const width = Math.max(
      MIN_WIDTH,
      measure.name(step.id) + (badge ? measure.detail(badge) + 10 : 0),
      measure.detail(step.package),
    );
    boxes.push({ id: step.id, label: step.id, step, namedBy: [], partition, x: 0, y: 0, width: width + 2 * PAD_X, height: NODE_HEIGHT });
  }
  const wires: Model["wires"] = graph.edges
    .filter((e) => partitionOf.has(e.from) && partitionOf.has(e.to))
    .map((e) => ({ from: e.from, to: e.to, kind: e.kind, bad: e.in_cycle }));
  const ghosts = new Map<string, Model["boxes"][number]>();
  for (const u of graph.unresolved) {
    const target = partitionOf.get(u.from);
    if (target === undefined) {
      continue;
    }
    const id = unresolvedId(u.name);
    let ghost = ghosts.get(id);
    if (!ghost) {
      const width = Math.max(MIN_WIDTH, measure.name(u.name), measure.detail("unresolved"));
      ghost = { id, label: u.name, namedBy: [], partition: target, x: 0, y: 0, width: width + 2 * PAD_X, height: NODE_HEIGHT };
      ghosts.set(id, ghost);
      boxes.push(ghost);
    }
    ghost.partition = Math.min(ghost.partition, target);
    if (!ghost.namedBy.includes(u.from)) {
      ghost.namedBy.push(u.from);
    }
    wires.push({ from: id, to: u.from, kind: u.kind, bad: true });
  }
  return { boxes, wires, columnLabels };
}

async function elkLayout(model: Model): Promise<Layout> {
  const root: ElkNode = {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.partitioning.activate": "true",
      "elk.edgeRouting": "ORTHOGONAL",
      "elk.layered.spacing.nodeNodeBetweenLayers": String(LAYER_GAP),
      "elk.spacing.nodeNode": String(NODE_GAP),
      "elk.spacing.edgeNode": "12",
      "elk.spacing.edgeEdge": "8",
      "elk.layered.nodePlacement.strategy": "NETWORK_SIMPLEX",
      // Keep the file's order where it costs no crossings: the picture stays
      // put while the user types.
      "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES",
      "elk.padding": `[top=${MARGIN + HEADER},left=${MARGIN},bottom=${MARGIN},right=${MARGIN}]`,
    },
    children: model.boxes.map((b) => ({
      id: b.id,
      width: b.width,
      height: b.height,
      layoutOptions: { "elk.partitioning.partition": String(b.partition) },
    })),
    edges: model.wires.map((w, i): ElkExtendedEdge => ({ id: `e${i}`, sources: [w.from], targets: [w.to] })),
  };
  const result = await elk.layout(root);
  const placed = new Map((result.children ?? []).map((c) => [c.id, c]));
  const boxes = model.boxes.map((b) => {
    const c = placed.get(b.id);
    return { ...b, x: c?.x ?? 0, y: c?.y ?? 0 };
  });
  const byId = new Map(boxes.map((b) => [b.id, b]));
  const routed = new Map((result.edges ?? []).map((e) => [e.id, e]));
  const wires = model.wires.map((w, i) => {
    const section = routed.get(`e${i}`)?.sections?.[0];
    const points = section ? [section.startPoint, ...(section.bendPoints ?? []), section.endPoint] : [];
    return { ...w, points: points.length > 0 ? points : straight(byId, w) };
  });
  return finish(boxes, wires, model.columnLabels, result.width ?? 0, result.height ?? 0);
}

/** Columns side by side, each one's nodes stacked: for graphs too large for ELK. */
function stackedLayout(model: Model): Layout {
  const partitions = [...new Set(model.boxes.map((b) => b.partition))].sort((a, b) => a - b);
  let x = MARGIN;
  let height = 0;
  const boxes: Box[] = [];
  for (const p of partitions) {
    const column = model.boxes.filter((b) => b.partition === p);
    // Unresolved names first, so their wires run left to right.
    column.sort((a, b) => Number(!!a.step) - Number(!!b.step));
    const width = Math.max(...column.map((b) => b.width));
    let y = MARGIN + HEADER;
    for (const b of column) {
      boxes.push({ ...b, x, y });
      y += b.height + NODE_GAP;
    }
    height = Math.max(height, y);
    x += width + LAYER_GAP;
  }
  const byId = new Map(boxes.map((b) => [b.id, b]));
  const wires = model.wires.map((w) => ({ ...w, points: straight(byId, w) }));
  return finish(boxes, wires, model.columnLabels, x - LAYER_GAP + MARGIN, height + MARGIN);
}

function straight(boxes: Map<string, Box>, wire: { from: string; to: string }): Point[] {
  const from = boxes.get(wire.from);
  const to = boxes.get(wire.to);
  if (!from || !to) {
    return [];
  }
  return [
    { x: from.x + from.width, y: from.y + from.height / 2 },
    { x: to.x, y: to.y + to.height / 2 },
  ];
}

function finish(
  boxes: (Box & { partition?: number })[],
  wires: Wire[],
  labels: Map<number, string>,
  width: number,
  height: number,
): Layout {
  const columns: Column[] = [];
  for (const [partition, label] of [...labels].sort((a, b) => a[0] - b[0])) {
    const members = boxes.filter((b) => b.step && b.partition === partition);
    if (members.length === 0) {
      continue;
    }
    const left = Math.min(...members.map((b) => b.x));
    const right = Math.max(...members.map((b) => b.x + b.width));
    columns.push({ label, x: left, width: right - left });
  }
  const clean = boxes.map(({ partition: _, ...b }) => b);
  return { boxes: clean, wires, columns, width, height };
}
