//! `easyflow graph --format svg`: the dependency graph as a self-contained,
//! laid-out SVG, in the visual language of the VS Code graph view (solid
//! data edges, dashed control edges, thick stream edges, `× N` for swept
//! steps, a double border for long-running steps, red cycles and dashed red
//! boxes for unresolved names, one band per level).
//!
//! The layout is a small layered (Sugiyama-style) one over the levels the
//! database computes: one column per level, left to right (steps without a
//! level, on or after a cycle, last; an unresolved name in a column of its
//! own just before the first step naming it); long edges pass through dummy
//! points in the columns they cross; the order within each column comes
//! from barycenter sweeps, keeping the order with the fewest crossings, so
//! crossings that a simple ordering avoids are avoided. Written with
//! quick-xml, so every text is escaped by the writer. Deterministic.

use std::collections::HashMap;

use easyflow_db::{EdgeKind, GraphView};
use quick_xml::Writer;
use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event};

const NODE_HEIGHT: f64 = 44.0;
const DUMMY_HEIGHT: f64 = 8.0;
const NODE_GAP: f64 = 18.0;
const LAYER_GAP: f64 = 64.0;
const MARGIN: f64 = 24.0;
/// Room above the nodes for the column labels.
const HEADER: f64 = 28.0;
const PAD_X: f64 = 12.0;
const MIN_WIDTH: f64 = 72.0;
/// Barycenter sweeps (each one down and back).
const SWEEPS: usize = 12;
/// How far an edge within a column bulges out to the right.
const BULGE: f64 = 36.0;

const STYLE: &str = "
svg { font-family: system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', sans-serif; }
.background { fill: #ffffff; }
.column rect { fill: rgba(128, 128, 128, 0.1); }
.column text { fill: #6e6e6e; font-size: 11px; letter-spacing: 0.04em; }
.edge { fill: none; stroke: #8a8a8a; stroke-width: 1.5; }
.edge.control { stroke-dasharray: 6 4; }
.edge.stream { stroke-width: 4; }
.edge.bad { stroke: #e51400; }
#arrow path { fill: #8a8a8a; }
#arrow-bad path { fill: #e51400; }
.node rect { fill: #f3f3f3; stroke: #6b6b6b; stroke-width: 1.2; }
.node rect.inner { fill: none; }
.node .name { fill: #1e1e1e; font-size: 13px; font-weight: 600; }
.node .detail { fill: #6e6e6e; font-size: 11px; }
.node .instances { fill: #007fd4; font-size: 11px; font-weight: 600; }
.node.in-cycle rect { stroke: #e51400; stroke-width: 2; }
.node.unresolved rect { fill: #ffffff; stroke: #e51400; stroke-dasharray: 4 3; }
.node.unresolved .name, .node.unresolved .detail { fill: #e51400; }
";

/// What one box of the picture is.
#[derive(Debug, Clone, PartialEq)]
struct Box {
    id: String,
    label: String,
    detail: String,
    badge: String,
    kind: BoxKind,
    width: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BoxKind {
    Step {
        in_cycle: bool,
        long_running: bool,
    },
    Unresolved,
    /// A point a long edge passes through.
    Dummy,
}

#[derive(Debug, Clone, PartialEq)]
struct Wire {
    /// Box indices along the wire: source, dummies, target.
    path: Vec<usize>,
    kind: EdgeKind,
    bad: bool,
    title: String,
}

/// The laid-out picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    boxes: Vec<Box>,
    /// Per layer, the box indices in order from top to bottom.
    layers: Vec<Vec<usize>>,
    layer_labels: Vec<Option<String>>,
    wires: Vec<Wire>,
}

/// A rough text width (no font metrics here): enough room for the labels
/// in the usual sans-serif fonts.
fn text_width(text: &str, per_char: f64) -> f64 {
    text.chars().count() as f64 * per_char
}

impl Layout {
    pub fn of(view: &GraphView) -> Layout {
        let mut boxes: Vec<Box> = Vec::new();
        // Layer keys: a step's column is 2·level + 1 (steps without a level
        // after every level); unresolved names sit at 2·column.
        let last_level = view
            .nodes
            .iter()
            .filter_map(|n| n.level)
            .max()
            .map_or(0, |l| l + 1);
        let mut key_of: Vec<u32> = Vec::new();
        let mut index_of: HashMap<&str, usize> = HashMap::new();
        for node in &view.nodes {
            let badge = if node.instances != 1 {
                format!("× {}", node.instances)
            } else {
                String::new()
            };
            let detail = node.package.clone().unwrap_or_default();
            let width = MIN_WIDTH
                .max(
                    text_width(&node.id, 8.0)
                        + if badge.is_empty() {
                            0.0
                        } else {
                            text_width(&badge, 6.5) + 10.0
                        },
                )
                .max(text_width(&detail, 6.5))
                + 2.0 * PAD_X;
            index_of.insert(node.id.as_str(), boxes.len());
            key_of.push(2 * node.level.unwrap_or(last_level) + 1);
            boxes.push(Box {
                id: node.id.clone(),
                label: node.id.clone(),
                detail,
                badge,
                kind: BoxKind::Step {
                    in_cycle: node.in_cycle,
                    long_running: node.long_running,
                },
                width,
            });
        }
        let mut edges: Vec<(usize, usize, EdgeKind, bool, String)> = Vec::new();
        for edge in &view.edges {
            if let (Some(&from), Some(&to)) = (
                index_of.get(edge.from.as_str()),
                index_of.get(edge.to.as_str()),
            ) {
                let title = format!(
                    "{} → {}: {}{}",
                    edge.from,
                    edge.to,
                    edge.kind.as_str(),
                    if edge.in_cycle { " (cycle)" } else { "" }
                );
                edges.push((from, to, edge.kind, edge.in_cycle, title));
            }
        }
        let mut ghosts: HashMap<&str, usize> = HashMap::new();
        for unresolved in &view.unresolved {
            let Some(&target) = index_of.get(unresolved.from.as_str()) else {
                continue;
            };
            let ghost = *ghosts.entry(unresolved.name.as_str()).or_insert_with(|| {
                boxes.push(Box {
                    id: format!("?{}", unresolved.name),
                    label: unresolved.name.clone(),
                    detail: "unresolved".to_string(),
                    badge: String::new(),
                    kind: BoxKind::Unresolved,
                    width: MIN_WIDTH.max(text_width(&unresolved.name, 8.0)) + 2.0 * PAD_X,
                });
                key_of.push(u32::MAX);
                boxes.len() - 1
            });
            key_of[ghost] = key_of[ghost].min(key_of[target] - 1);
            let title = format!(
                "{} → {}: {} (unresolved)",
                unresolved.name,
                unresolved.from,
                unresolved.kind.as_str()
            );
            edges.push((ghost, target, unresolved.kind, true, title));
        }

        // Compress the keys to consecutive layers.
        let mut keys: Vec<u32> = key_of.clone();
        keys.sort_unstable();
        keys.dedup();
        let layer_of: Vec<usize> = key_of
            .iter()
            .map(|k| keys.binary_search(k).unwrap_or(0))
            .collect();
        let mut layers: Vec<Vec<usize>> = vec![Vec::new(); keys.len()];
        for (i, &layer) in layer_of.iter().enumerate() {
            layers[layer].push(i);
        }
        let layer_labels = keys
            .iter()
            .map(|&key| {
                (key % 2 == 1).then(|| {
                    if key / 2 == last_level && view.nodes.iter().any(|n| n.level.is_none()) {
                        "no level (cycle)".to_string()
                    } else {
                        format!("level {}", key / 2)
                    }
                })
            })
            .collect();

        // Long edges pass through a dummy box in every layer between.
        let mut layer_of = layer_of;
        let mut wires = Vec::new();
        for (from, to, kind, bad, title) in edges {
            let mut path = vec![from];
            if layer_of[to] > layer_of[from] + 1 {
                for (layer, members) in layers
                    .iter_mut()
                    .enumerate()
                    .take(layer_of[to])
                    .skip(layer_of[from] + 1)
                {
                    let dummy = boxes.len();
                    boxes.push(Box {
                        id: String::new(),
                        label: String::new(),
                        detail: String::new(),
                        badge: String::new(),
                        kind: BoxKind::Dummy,
                        width: 0.0,
                    });
                    layer_of.push(layer);
                    members.push(dummy);
                    path.push(dummy);
                }
            }
            path.push(to);
            wires.push(Wire {
                path,
                kind,
                bad,
                title,
            });
        }
        let mut layout = Layout {
            boxes,
            layers,
            layer_labels,
            wires,
        };
        layout.order();
        layout
    }

    /// The segments between adjacent layers, as (upper box, lower box)
    /// pairs, for each pair of layers.
    fn segments(&self) -> Vec<Vec<(usize, usize)>> {
        let mut layer_of = vec![0; self.boxes.len()];
        for (l, layer) in self.layers.iter().enumerate() {
            for &b in layer {
                layer_of[b] = l;
            }
        }
        let mut segments = vec![Vec::new(); self.layers.len().saturating_sub(1)];
        for wire in &self.wires {
            for pair in wire.path.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                if layer_of[b] == layer_of[a] + 1 {
                    segments[layer_of[a]].push((a, b));
                }
            }
        }
        segments
    }

    /// Crossings between adjacent layers, counted as inversions (Fenwick
    /// tree), so large graphs stay fast.
    pub fn crossings(&self) -> usize {
        let position = self.positions();
        let mut total = 0;
        for (l, segments) in self.segments().into_iter().enumerate() {
            let mut pairs: Vec<(usize, usize)> = segments
                .iter()
                .map(|&(a, b)| (position[a], position[b]))
                .collect();
            pairs.sort_unstable();
            let size = self.layers[l + 1].len() + 1;
            let mut tree = vec![0usize; size + 1];
            for (seen, &(_, lower)) in pairs.iter().enumerate() {
                // Segments seen so far ending strictly below `lower` cross this one.
                let mut at = lower + 1;
                let mut not_greater = 0;
                while at > 0 {
                    not_greater += tree[at];
                    at &= at - 1;
                }
                total += seen - not_greater;
                let mut at = lower + 1;
                while at <= size {
                    tree[at] += 1;
                    at += at & at.wrapping_neg();
                }
            }
        }
        total
    }

    fn positions(&self) -> Vec<usize> {
        let mut position = vec![0; self.boxes.len()];
        for layer in &self.layers {
            for (p, &b) in layer.iter().enumerate() {
                position[b] = p;
            }
        }
        position
    }

    /// Barycenter sweeps down and up, keeping the best order seen.
    fn order(&mut self) {
        let segments = self.segments();
        let mut best = self.layers.clone();
        let mut best_crossings = self.crossings();
        for sweep in 0..SWEEPS {
            if best_crossings == 0 {
                break;
            }
            let down = sweep % 2 == 0;
            let order: Vec<usize> = if down {
                (1..self.layers.len()).collect()
            } else {
                (0..self.layers.len().saturating_sub(1)).rev().collect()
            };
            for l in order {
                let position = self.positions();
                let mut neighbours: HashMap<usize, (f64, f64)> = HashMap::new();
                let fixed = if down { l - 1 } else { l };
                for &(a, b) in &segments[fixed] {
                    let (moving, anchor) = if down { (b, a) } else { (a, b) };
                    let entry = neighbours.entry(moving).or_insert((0.0, 0.0));
                    entry.0 += position[anchor] as f64;
                    entry.1 += 1.0;
                }
                let layer = l;
                let current = &self.layers[layer];
                let mut keyed: Vec<(f64, usize, usize)> = current
                    .iter()
                    .enumerate()
                    .map(|(p, &b)| {
                        let key = neighbours.get(&b).map_or(p as f64, |(sum, n)| sum / n);
                        (key, p, b)
                    })
                    .collect();
                keyed.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
                self.layers[layer] = keyed.into_iter().map(|(_, _, b)| b).collect();
            }
            let crossings = self.crossings();
            if crossings < best_crossings {
                best_crossings = crossings;
                best = self.layers.clone();
            }
        }
        self.layers = best;
    }

    /// The picture as SVG text.
    pub fn to_svg(&self) -> String {
        // Coordinates: columns left to right, each centred vertically.
        let layer_width: Vec<f64> = self
            .layers
            .iter()
            .map(|layer| {
                layer
                    .iter()
                    .map(|&b| self.boxes[b].width)
                    .fold(0.0, f64::max)
            })
            .collect();
        let height_of = |b: usize| {
            if self.boxes[b].kind == BoxKind::Dummy {
                DUMMY_HEIGHT
            } else {
                NODE_HEIGHT
            }
        };
        let layer_height: Vec<f64> = self
            .layers
            .iter()
            .map(|layer| {
                layer.iter().map(|&b| height_of(b)).sum::<f64>()
                    + NODE_GAP * layer.len().saturating_sub(1) as f64
            })
            .collect();
        let tallest = layer_height.iter().copied().fold(0.0, f64::max);
        let mut x_of = vec![0.0; self.boxes.len()];
        let mut y_of = vec![0.0; self.boxes.len()];
        let mut layer_x = Vec::with_capacity(self.layers.len());
        let mut x = MARGIN;
        for (l, layer) in self.layers.iter().enumerate() {
            layer_x.push(x);
            let mut y = MARGIN + HEADER + (tallest - layer_height[l]) / 2.0;
            for &b in layer {
                x_of[b] = x + (layer_width[l] - self.boxes[b].width) / 2.0;
                y_of[b] = y;
                y += height_of(b) + NODE_GAP;
            }
            x += layer_width[l] + LAYER_GAP;
        }
        // Edges within a column (cycles) bulge out to the right of it.
        let bulges = self.wires.iter().any(|w| {
            self.layers.last().is_some_and(|last| {
                last.contains(&w.path[0]) && last.contains(&w.path[w.path.len() - 1])
            })
        });
        let width =
            (x - LAYER_GAP + MARGIN + if bulges { BULGE + 8.0 } else { 0.0 }).max(2.0 * MARGIN);
        let height = MARGIN + HEADER + tallest + MARGIN;

        let mut xml = Writer::new_with_indent(Vec::new(), b' ', 2);
        let mut write = |event: Event<'_>| xml.write_event(event).expect("writing to memory");
        let number = |v: f64| format!("{}", (v * 10.0).round() / 10.0);
        let mut svg = BytesStart::new("svg");
        svg.push_attribute(("xmlns", "http://www.w3.org/2000/svg"));
        svg.push_attribute(("width", number(width).as_str()));
        svg.push_attribute(("height", number(height).as_str()));
        svg.push_attribute((
            "viewBox",
            format!("0 0 {} {}", number(width), number(height)).as_str(),
        ));
        svg.push_attribute(("role", "img"));
        write(Event::Start(svg));
        write(Event::Start(BytesStart::new("title")));
        let steps = self
            .boxes
            .iter()
            .filter(|b| matches!(b.kind, BoxKind::Step { .. }))
            .count();
        write(Event::Text(BytesText::new(&format!(
            "dependency graph: {steps} step{}",
            if steps == 1 { "" } else { "s" }
        ))));
        write(Event::End(BytesEnd::new("title")));
        write(Event::Start(BytesStart::new("style")));
        write(Event::Text(BytesText::new(STYLE)));
        write(Event::End(BytesEnd::new("style")));
        write(Event::Start(BytesStart::new("defs")));
        for id in ["arrow", "arrow-bad"] {
            let mut marker = BytesStart::new("marker");
            for (key, value) in [
                ("id", id),
                ("viewBox", "0 0 10 10"),
                ("refX", "9"),
                ("refY", "5"),
                ("markerWidth", "7"),
                ("markerHeight", "7"),
                ("markerUnits", "userSpaceOnUse"),
                ("orient", "auto-start-reverse"),
            ] {
                marker.push_attribute((key, value));
            }
            write(Event::Start(marker));
            write(Event::Empty(
                BytesStart::new("path").with_attributes([("d", "M0,0 L10,5 L0,10 z")]),
            ));
            write(Event::End(BytesEnd::new("marker")));
        }
        write(Event::End(BytesEnd::new("defs")));
        write(Event::Empty(BytesStart::new("rect").with_attributes([
            ("class", "background"),
            ("width", "100%"),
            ("height", "100%"),
        ])));

        write(Event::Start(
            BytesStart::new("g").with_attributes([("class", "columns")]),
        ));
        for (l, label) in self.layer_labels.iter().enumerate() {
            let Some(label) = label else { continue };
            write(Event::Start(
                BytesStart::new("g").with_attributes([("class", "column")]),
            ));
            write(Event::Empty(BytesStart::new("rect").with_attributes([
                ("x", number(layer_x[l] - 8.0).as_str()),
                ("y", "8"),
                ("width", number(layer_width[l] + 16.0).as_str()),
                ("height", number(height - 16.0).as_str()),
                ("rx", "6"),
            ])));
            write(Event::Start(BytesStart::new("text").with_attributes([
                ("x", number(layer_x[l] + layer_width[l] / 2.0).as_str()),
                ("y", "26"),
                ("text-anchor", "middle"),
            ])));
            write(Event::Text(BytesText::new(label)));
            write(Event::End(BytesEnd::new("text")));
            write(Event::End(BytesEnd::new("g")));
        }
        write(Event::End(BytesEnd::new("g")));

        write(Event::Start(
            BytesStart::new("g").with_attributes([("class", "edges")]),
        ));
        let layer_of = {
            let mut layer_of = vec![0; self.boxes.len()];
            for (l, layer) in self.layers.iter().enumerate() {
                for &b in layer {
                    layer_of[b] = l;
                }
            }
            layer_of
        };
        for wire in &self.wires {
            let d = self.wire_path(wire, &x_of, &y_of, &layer_of, &height_of, &number);
            let class = format!(
                "edge {}{}",
                wire.kind.as_str(),
                if wire.bad { " bad" } else { "" }
            );
            let marker = if wire.bad {
                "url(#arrow-bad)"
            } else {
                "url(#arrow)"
            };
            write(Event::Start(BytesStart::new("path").with_attributes([
                ("class", class.as_str()),
                ("d", d.as_str()),
                ("marker-end", marker),
            ])));
            write(Event::Start(BytesStart::new("title")));
            write(Event::Text(BytesText::new(&wire.title)));
            write(Event::End(BytesEnd::new("title")));
            write(Event::End(BytesEnd::new("path")));
        }
        write(Event::End(BytesEnd::new("g")));

        write(Event::Start(
            BytesStart::new("g").with_attributes([("class", "nodes")]),
        ));
        for layer in &self.layers {
            for &b in layer {
                let node = &self.boxes[b];
                let (class, in_cycle, long_running) = match node.kind {
                    BoxKind::Dummy => continue,
                    BoxKind::Unresolved => ("node unresolved".to_string(), false, false),
                    BoxKind::Step {
                        in_cycle,
                        long_running,
                    } => {
                        let mut class = "node step".to_string();
                        if in_cycle {
                            class.push_str(" in-cycle");
                        }
                        if long_running {
                            class.push_str(" long-running");
                        }
                        (class, in_cycle, long_running)
                    }
                };
                let transform = format!("translate({},{})", number(x_of[b]), number(y_of[b]));
                write(Event::Start(BytesStart::new("g").with_attributes([
                    ("class", class.as_str()),
                    ("transform", transform.as_str()),
                ])));
                write(Event::Start(BytesStart::new("title")));
                let tooltip = match node.kind {
                    BoxKind::Unresolved => format!("{}: not a step or a required file", node.label),
                    _ => {
                        let mut lines = vec![format!(
                            "{} {} runs {}",
                            if long_running { "~step" } else { "step" },
                            node.label,
                            node.detail
                        )];
                        if !node.badge.is_empty() {
                            lines.push(node.badge.clone());
                        }
                        if in_cycle {
                            lines.push("on a dependency cycle".to_string());
                        }
                        lines.join("\n")
                    }
                };
                write(Event::Text(BytesText::new(&tooltip)));
                write(Event::End(BytesEnd::new("title")));
                write(Event::Empty(BytesStart::new("rect").with_attributes([
                    ("width", number(node.width).as_str()),
                    ("height", number(NODE_HEIGHT).as_str()),
                    ("rx", "5"),
                ])));
                if long_running {
                    write(Event::Empty(BytesStart::new("rect").with_attributes([
                        ("class", "inner"),
                        ("x", "3"),
                        ("y", "3"),
                        ("width", number(node.width - 6.0).as_str()),
                        ("height", number(NODE_HEIGHT - 6.0).as_str()),
                        ("rx", "3"),
                    ])));
                }
                for (class, x, y, text, anchor) in [
                    ("name", PAD_X, 18.0, &node.label, "start"),
                    ("detail", PAD_X, 34.0, &node.detail, "start"),
                    ("instances", node.width - 10.0, 18.0, &node.badge, "end"),
                ] {
                    if text.is_empty() {
                        continue;
                    }
                    write(Event::Start(BytesStart::new("text").with_attributes([
                        ("class", class),
                        ("x", number(x).as_str()),
                        ("y", number(y).as_str()),
                        ("text-anchor", anchor),
                    ])));
                    write(Event::Text(BytesText::new(text)));
                    write(Event::End(BytesEnd::new("text")));
                }
                write(Event::End(BytesEnd::new("g")));
            }
        }
        write(Event::End(BytesEnd::new("g")));
        write(Event::End(BytesEnd::new("svg")));
        let mut text = String::from_utf8(xml.into_inner()).expect("the writer writes UTF-8");
        text.push('\n');
        text
    }

    /// A wire's path: from the right side of its source through its dummy
    /// points to the left side of its target, with smooth horizontal
    /// curves; an edge within one column (a cycle) bulges to the right.
    fn wire_path(
        &self,
        wire: &Wire,
        x_of: &[f64],
        y_of: &[f64],
        layer_of: &[usize],
        height_of: &dyn Fn(usize) -> f64,
        number: &dyn Fn(f64) -> String,
    ) -> String {
        let (from, to) = (wire.path[0], wire.path[wire.path.len() - 1]);
        let middle = |b: usize| y_of[b] + height_of(b) / 2.0;
        if layer_of[from] == layer_of[to] {
            let right = x_of[from] + self.boxes[from].width;
            let target_right = x_of[to] + self.boxes[to].width;
            let bulge = right.max(target_right) + BULGE;
            return format!(
                "M{},{} C{},{} {},{} {},{}",
                number(right),
                number(middle(from)),
                number(bulge),
                number(middle(from)),
                number(bulge),
                number(middle(to)),
                number(target_right),
                number(middle(to))
            );
        }
        let mut points: Vec<(f64, f64)> = Vec::new();
        for (i, &b) in wire.path.iter().enumerate() {
            let y = middle(b);
            if i == 0 {
                points.push((x_of[b] + self.boxes[b].width, y));
            } else if i == wire.path.len() - 1 {
                points.push((x_of[b], y));
            } else {
                // A dummy: enter and leave its column level.
                points.push((x_of[b], y));
                points.push((x_of[b] + self.boxes[b].width, y));
            }
        }
        let mut d = format!("M{},{}", number(points[0].0), number(points[0].1));
        for pair in points.windows(2) {
            let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
            if (y0 - y1).abs() < 0.05 {
                d.push_str(&format!(" L{},{}", number(x1), number(y1)));
            } else {
                let mid = (x0 + x1) / 2.0;
                d.push_str(&format!(
                    " C{},{} {},{} {},{}",
                    number(mid),
                    number(y0),
                    number(mid),
                    number(y1),
                    number(x1),
                    number(y1)
                ));
            }
        }
        d
    }
}

/// The graph as a self-contained SVG document.
pub fn to_svg(view: &GraphView) -> String {
    Layout::of(view).to_svg()
}

#[cfg(test)]
mod tests {
    use easyflow_db::{Database, SourceFile, graph_view};

    use super::*;

    fn layout(text: &str) -> Layout {
        let db = Database::default();
        let file = SourceFile::new(&db, "t.flow".into(), text.into());
        Layout::of(graph_view(&db, file))
    }

    #[test]
    fn ordering_removes_the_crossings_of_source_order() {
        // In source order, A1/A2 feed B2/B1 crosswise; ordering uncrosses.
        let layout = layout(
            "step A1 runs P (); step A2 runs P ();\n\
             step B1 runs P (x = A2.outs[\"o\"]); step B2 runs P (x = A1.outs[\"o\"]);\n\
             step C1 runs P (x = B2.outs[\"o\"]); step C2 runs P (x = B1.outs[\"o\"]);",
        );
        assert_eq!(layout.crossings(), 0);
    }

    #[test]
    fn long_edges_pass_through_dummies_without_needless_crossings() {
        let layout = layout(
            "step A runs P (); step B runs P (x = A.outs[\"o\"]);\n\
             step C runs P (x = B.outs[\"o\"]); step D runs P (x = C.outs[\"o\"], y = A.outs[\"p\"]);\n\
             step E runs P (); step F runs P (x = E.outs[\"o\"]);",
        );
        assert_eq!(layout.crossings(), 0);
        assert!(layout.boxes.iter().any(|b| b.kind == BoxKind::Dummy));
    }

    #[test]
    fn crossings_are_counted() {
        let mut layout = layout(
            "step A runs P (); step B runs P (); step C runs P (x = A); step D runs P (x = B);",
        );
        layout.layers[1].reverse();
        assert_eq!(layout.crossings(), 1);
    }
}
