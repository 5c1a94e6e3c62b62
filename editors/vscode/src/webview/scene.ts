// A picture drawn so that a flow of thousands of steps opens and pans fast.
// The server's SVG has one box or wire per line (crates/picture/src/svg.rs);
// it is cut into those lines, not parsed whole, and only what the view shows
// is made into elements and put in the page: the server's own elements,
// clickable, focusable, with their tooltips. Zoomed far out, where graph.css
// would hide texts, arrowheads and dashes anyway, a large picture's boxes and
// wires are painted on a canvas from the same coordinates and path data.

/** A box or wire: its markup, its bounds in picture coordinates, and its
 * element once it has been in view. */
interface Item {
  markup: string;
  /** The `class` attribute. */
  classes: string;
  /** A box's `data-id`; a wire's path data (`d`). */
  key: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
  element?: SVGElement;
}

/** A part of the picture, in picture coordinates. */
export interface Area {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Wires or boxes painted alike. */
interface Stroke {
  path: Path2D;
  colour: string;
  width: number;
}

const SVG = "http://www.w3.org/2000/svg";

export class Scene {
  /** The picture without its boxes and wires: its frame, defs and columns. */
  readonly frame: string;
  readonly width: number;
  readonly height: number;
  readonly nodes: Item[] = [];
  readonly wires: Item[] = [];
  private edgeLayer: Element | undefined;
  private nodeLayer: Element | undefined;
  private readonly shown = new Set<Item>();
  /** The wires' bounds are known: measured when first needed, as a large
   * picture opens painted, which needs none. */
  private wiresMeasured = false;
  /** Built on the first painting: few views of a flow need them. */
  private strokes: { wires: Stroke[]; boxes: Stroke[]; fill: Path2D; unresolvedFill: Path2D } | undefined;

  constructor(picture: string) {
    // An element starts a line; a line of a title's text cannot start with
    // `<`, which the server escapes.
    const frame: string[] = [];
    for (const [index, piece] of picture.split("\n<").entries()) {
      const markup = index === 0 ? piece : `<${piece}`;
      if (markup.startsWith('<path class="edge ')) {
        this.wires.push(wireItem(markup));
      } else if (markup.startsWith('<g class="node ')) {
        this.nodes.push(nodeItem(markup));
      } else {
        frame.push(markup);
      }
    }
    this.frame = frame.join("\n");
    const size = /^<svg[^>]* width="([\d.]+)" height="([\d.]+)"/.exec(this.frame);
    this.width = Number(size?.[1] ?? 0);
    this.height = Number(size?.[2] ?? 0);
  }

  /** The layers of the frame, once it is in the page, that take the wires and boxes. */
  place(edgeLayer: Element | null, nodeLayer: Element | null): void {
    this.edgeLayer = edgeLayer ?? undefined;
    this.nodeLayer = nodeLayer ?? undefined;
  }

  /** The element of the box with this id (`data-id`). */
  node(id: string): SVGElement | undefined {
    const item = this.nodes.find((n) => unescape(n.key) === id);
    return item && this.elements([item])[0];
  }

  /** The place of the box with this id (`data-id`) among the boxes; -1 for none. */
  indexOf(id: string): number {
    return this.nodes.findIndex((n) => unescape(n.key) === id);
  }

  /** The element of the box under a point of the picture. */
  nodeAt(x: number, y: number): SVGElement | undefined {
    const item = this.nodes.find((n) => x >= n.left && x <= n.right && y >= n.top && y <= n.bottom);
    return item && this.elements([item])[0];
  }

  /** Puts the boxes and wires in `area` in the page and takes the others out. */
  show(area: Area | undefined): void {
    if (area && !this.wiresMeasured) {
      this.wires.forEach(measureWire);
      this.wiresMeasured = true;
    }
    const wanted = area ? [...this.wires, ...this.nodes].filter((item) => overlaps(item, area)) : [];
    const keep = new Set(wanted);
    for (const item of this.shown) {
      if (!keep.has(item)) {
        item.element?.remove();
        this.shown.delete(item);
      }
    }
    const added = wanted.filter((item) => !this.shown.has(item));
    const elements = this.elements(added);
    added.forEach((item, i) => {
      (item.classes.startsWith("node") ? this.nodeLayer : this.edgeLayer)?.append(elements[i]);
      this.shown.add(item);
    });
  }

  /** Paints every box and wire on `context`, whose transform maps picture coordinates. */
  paint(context: CanvasRenderingContext2D, selected: string | undefined): void {
    const strokes = (this.strokes ??= this.buildStrokes());
    const style = getComputedStyle(document.documentElement);
    const colour = (name: string) => style.getPropertyValue(name).trim();
    for (const stroke of strokes.wires) {
      context.strokeStyle = colour(stroke.colour);
      context.lineWidth = stroke.width;
      context.stroke(stroke.path);
    }
    context.fillStyle = colour("--node-bg");
    context.fill(strokes.fill);
    context.fillStyle = colour("--bg");
    context.fill(strokes.unresolvedFill);
    for (const stroke of strokes.boxes) {
      context.strokeStyle = colour(stroke.colour);
      context.lineWidth = stroke.width;
      context.stroke(stroke.path);
    }
    const chosen = selected === undefined ? undefined : this.nodes.find((n) => unescape(n.key) === selected);
    if (chosen) {
      context.strokeStyle = colour("--accent");
      context.lineWidth = 2;
      context.strokeRect(chosen.left, chosen.top, chosen.right - chosen.left, chosen.bottom - chosen.top);
    }
  }

  /** The items' elements, made from their markup (all at once) the first time. */
  private elements(items: Item[]): SVGElement[] {
    const unmade = items.filter((item) => !item.element);
    if (unmade.length > 0) {
      const parent = document.createElementNS(SVG, "g");
      parent.innerHTML = unmade.map((item) => item.markup).join("\n");
      const made = [...parent.children] as SVGElement[];
      unmade.forEach((item, i) => {
        item.element = made[i];
        if (item.classes.startsWith("node")) {
          item.element.setAttribute("tabindex", "0");
          item.element.setAttribute("role", "button");
        }
      });
    }
    return items.map((item) => item.element!);
  }

  private buildStrokes(): NonNullable<Scene["strokes"]> {
    const stroke = (colour: string, width: number): Stroke => ({ path: new Path2D(), colour, width });
    // Each kind's path data joined and parsed once: every wire's starts
    // with its own `M`, and one Path2D per wire is many times slower.
    const kinds = { plain: "--edge 1.5", stream: "--edge 4", bad: "--bad 1.5", badStream: "--bad 4" };
    const data: Record<keyof typeof kinds, string[]> = { plain: [], stream: [], bad: [], badStream: [] };
    for (const item of this.wires) {
      const classes = item.classes.split(" ");
      const bad = classes.includes("bad");
      const stream = classes.includes("stream");
      data[bad ? (stream ? "badStream" : "bad") : stream ? "stream" : "plain"].push(item.key);
    }
    const wires = Object.entries(kinds).map(([kind, style]) => {
      const [colour, width] = style.split(" ");
      return { path: new Path2D(data[kind as keyof typeof kinds].join("")), colour, width: Number(width) };
    });
    const boxes = { plain: stroke("--node-border", 1.2), bad: stroke("--bad", 2), unresolved: stroke("--bad", 1.2) };
    const fill = new Path2D();
    const unresolvedFill = new Path2D();
    for (const item of this.nodes) {
      const classes = item.classes.split(" ");
      const unresolved = classes.includes("unresolved");
      const into = unresolved ? boxes.unresolved : classes.includes("in-cycle") ? boxes.bad : boxes.plain;
      const [x, y, w, h] = [item.left, item.top, item.right - item.left, item.bottom - item.top];
      into.path.roundRect(x, y, w, h, 5);
      (unresolved ? unresolvedFill : fill).roundRect(x, y, w, h, 5);
    }
    return { wires, boxes: Object.values(boxes), fill, unresolvedFill };
  }
}

function overlaps(item: Item, area: Area): boolean {
  return item.right >= area.left && item.left <= area.right && item.bottom >= area.top && item.top <= area.bottom;
}

/** A box: `<g class="node …" transform="translate(x,y)" data-id="…">` around its `<rect width height>`. */
function nodeItem(markup: string): Item {
  const head = /^<g class="([^"]*)" transform="translate\(([-\d.]+),([-\d.]+)\)" data-id="([^"]*)"/.exec(markup);
  const size = /<rect width="([\d.]+)" height="([\d.]+)"/.exec(markup);
  const [x, y] = [Number(head?.[2] ?? 0), Number(head?.[3] ?? 0)];
  return {
    markup,
    classes: head?.[1] ?? "node",
    key: head?.[4] ?? "",
    left: x,
    top: y,
    right: x + Number(size?.[1] ?? 0),
    bottom: y + Number(size?.[2] ?? 0),
  };
}

/** A wire, its bounds not yet measured (`measureWire`). */
function wireItem(markup: string): Item {
  const head = /^<path class="([^"]*)" d="([^"]*)"/.exec(markup);
  return { markup, classes: head?.[1] ?? "edge", key: head?.[2] ?? "", left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
}

/** Sets a wire's bounds, those of its path (control points included): the
 * server's `M x,y` followed by relative `h`, `l` and `c` commands. */
function measureWire(item: Item): void {
  const d = item.key;
  const add = (x: number, y: number) => {
    item.left = Math.min(item.left, x);
    item.right = Math.max(item.right, x);
    item.top = Math.min(item.top, y);
    item.bottom = Math.max(item.bottom, y);
  };
  let x = 0;
  let y = 0;
  for (const [, command, args] of d.matchAll(/([Mhlc])([^Mhlc]*)/g)) {
    const n = args.split(/[\s,]+/).filter((s) => s !== "").map(Number);
    if (command === "M") {
      [x, y] = n;
    } else if (command === "h") {
      x += n[0];
    } else if (command === "l") {
      x += n[0];
      y += n[1];
    } else if (command === "c") {
      add(x + n[0], y + n[1]);
      add(x + n[2], y + n[3]);
      x += n[4];
      y += n[5];
    }
    add(x, y);
  }
}

/** An attribute's text as the server escaped it (quick-xml's five entities). */
function unescape(text: string): string {
  if (!text.includes("&")) {
    return text;
  }
  return text.replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" })[name]!);
}
