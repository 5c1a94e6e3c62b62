//! What the picture of a flow's dependency graph shows, and where: a box
//! per step (its name, its package, `× N` when it does not run exactly
//! once, a double border when long-running, red on a cycle), a dashed red
//! box per name that resolves to nothing, a wire per edge (solid data,
//! dashed control, thick stream, red on a cycle or from an unresolved
//! name), and a labelled band per level. The one model behind `easyflow
//! graph --format svg` and the editors' graph views.
//!
//! Columns: one per level, left to right; steps without a level (on or
//! after a cycle) in a last one; an unresolved name in a column of its own
//! just before the first step naming it.

use std::collections::HashMap;

use easyflow_db::{EdgeKind, GraphNode, GraphView};

use crate::layout::{self, Path, Point, Rect, Spacing};
use crate::text;

pub const NODE_HEIGHT: f64 = 44.0;
/// Between a box's side and its texts.
pub const PAD_X: f64 = 12.0;
const MIN_TEXT_WIDTH: f64 = 72.0;
const NAME_SIZE: f64 = 13.0;
const DETAIL_SIZE: f64 = 11.0;
/// Between the name and the badge.
const BADGE_GAP: f64 = 10.0;
pub const MARGIN: f64 = 24.0;
/// Room above the boxes for the column labels.
pub const HEADER: f64 = 28.0;
const SPACING: Spacing = Spacing {
    origin: Point {
        x: MARGIN,
        y: MARGIN + HEADER,
    },
    node_gap: 18.0,
    edge_gap: 8.0,
    layer_gap: 64.0,
    bulge: 36.0,
};

/// The laid-out picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    pub width: f64,
    pub height: f64,
    /// The labelled bands behind the steps' columns.
    pub columns: Vec<Column>,
    /// The steps' boxes, in the order of the view's nodes, then the
    /// unresolved names' boxes.
    pub boxes: Vec<NodeBox>,
    pub wires: Vec<Wire>,
    /// Wires crossing between columns.
    pub crossings: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub label: String,
    pub x: f64,
    pub width: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NodeBox {
    /// The node's id, or `?name` for an unresolved name.
    pub id: String,
    pub kind: BoxKind,
    /// The step's name, or the unresolved name.
    pub label: String,
    /// The package, or why there is none.
    pub detail: String,
    /// `× N` for a step that does not run exactly once (`× 0` for a sweep
    /// over an empty list: the step never runs).
    pub badge: Option<String>,
    pub tooltip: String,
    /// The step an editor shows for the box: the step itself, or the first
    /// step naming the unresolved name.
    pub step: String,
    pub rect: Rect,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoxKind {
    Step {
        in_cycle: bool,
        long_running: bool,
        /// The step names no package (a syntax error).
        no_package: bool,
    },
    Unresolved,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Wire {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
    /// On a cycle, or from an unresolved name.
    pub bad: bool,
    pub title: String,
    pub path: Path,
}

/// `× N` for a step that does not run exactly once.
pub fn instances_badge(instances: u64) -> Option<String> {
    (instances != 1).then(|| format!("× {instances}"))
}

/// The picture of `view`.
pub fn picture(view: &GraphView) -> Picture {
    let last_level = view
        .nodes
        .iter()
        .filter_map(|n| n.level)
        .max()
        .map_or(0, |l| l + 1);
    let has_no_level = view.nodes.iter().any(|n| n.level.is_none());
    // Column keys: a step's is 2·level + 1 (steps without a level after
    // every level); an unresolved name's is one less than the smallest of
    // the steps naming it.
    let mut keys: Vec<u32> = Vec::with_capacity(view.nodes.len());
    let mut boxes: Vec<NodeBox> = Vec::with_capacity(view.nodes.len());
    let mut index_of: HashMap<&str, usize> = HashMap::with_capacity(view.nodes.len());
    for node in &view.nodes {
        index_of.insert(node.id.as_str(), boxes.len());
        keys.push(2 * node.level.unwrap_or(last_level) + 1);
        boxes.push(step_box(node));
    }
    let mut edges: Vec<(usize, usize, EdgeKind, bool, String)> =
        Vec::with_capacity(view.edges.len() + view.unresolved.len());
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
    let mut unresolved_box: HashMap<&str, usize> = HashMap::new();
    let mut named_by: Vec<Vec<&str>> = Vec::new();
    for unresolved in &view.unresolved {
        let Some(&target) = index_of.get(unresolved.from.as_str()) else {
            continue;
        };
        let name = unresolved.name.as_str();
        let at = *unresolved_box.entry(name).or_insert_with(|| {
            boxes.push(NodeBox {
                id: format!("?{name}"),
                kind: BoxKind::Unresolved,
                label: name.to_string(),
                detail: "unresolved".to_string(),
                badge: None,
                tooltip: String::new(),
                step: unresolved.from.clone(),
                rect: Rect {
                    x: 0.0,
                    y: 0.0,
                    width: box_width(name, "unresolved", None),
                    height: NODE_HEIGHT,
                },
            });
            keys.push(u32::MAX);
            named_by.push(Vec::new());
            boxes.len() - 1
        });
        keys[at] = keys[at].min(keys[target] - 1);
        let names = &mut named_by[at - view.nodes.len()];
        if !names.contains(&unresolved.from.as_str()) {
            names.push(unresolved.from.as_str());
        }
        let title = format!(
            "{name} → {}: {} (unresolved)",
            unresolved.from,
            unresolved.kind.as_str()
        );
        edges.push((at, target, unresolved.kind, true, title));
    }
    for (unresolved, names) in boxes[view.nodes.len()..].iter_mut().zip(&named_by) {
        unresolved.tooltip = format!(
            "{}: not a step or a required file\nnamed by {}",
            unresolved.label,
            names.join(", ")
        );
    }

    // The keys in use, in order, are the layers.
    let mut layer_keys = keys.clone();
    layer_keys.sort_unstable();
    layer_keys.dedup();
    let graph = layout::Graph {
        nodes: boxes
            .iter()
            .zip(&keys)
            .map(|(b, key)| layout::Node {
                layer: layer_keys.binary_search(key).expect("a key in use"),
                width: b.rect.width,
                height: b.rect.height,
            })
            .collect(),
        edges: edges
            .iter()
            .map(|&(from, to, ..)| layout::Edge { from, to })
            .collect(),
    };
    let laid = layout::layout(&graph, &SPACING);
    for (b, rect) in boxes.iter_mut().zip(&laid.nodes) {
        b.rect = *rect;
    }
    let columns = layer_keys
        .iter()
        .zip(&laid.columns)
        .filter(|(key, _)| *key % 2 == 1)
        .map(|(key, column)| Column {
            label: column_label(key / 2, key / 2 == last_level && has_no_level),
            x: column.x,
            width: column.width,
        })
        .collect();
    let wires = edges
        .into_iter()
        .zip(laid.paths)
        .map(|((from, to, kind, bad, title), path)| Wire {
            from: boxes[from].id.clone(),
            to: boxes[to].id.clone(),
            kind,
            bad,
            title,
            path,
        })
        .collect();
    Picture {
        width: laid.right + MARGIN,
        height: laid.bottom + MARGIN,
        columns,
        boxes,
        wires,
        crossings: laid.crossings,
    }
}

fn column_label(level: u32, without_level: bool) -> String {
    if without_level {
        "no level (cycle)".to_string()
    } else {
        format!("level {level}")
    }
}

fn step_box(node: &GraphNode) -> NodeBox {
    let badge = instances_badge(node.instances);
    let detail = node.package.as_deref().unwrap_or("no package");
    let keyword = if node.long_running { "~step" } else { "step" };
    let mut tooltip = match &node.package {
        Some(package) => format!("{keyword} {} runs {package}", node.id),
        None => format!("{keyword} {}: no package", node.id),
    };
    match node.level {
        Some(level) => tooltip.push_str(&format!("\nlevel {level}")),
        None => tooltip.push_str("\nno level (on or after a cycle)"),
    }
    if node.instances != 1 {
        tooltip.push_str(&format!("\n{} instances", node.instances));
    }
    if node.in_cycle {
        tooltip.push_str("\non a dependency cycle");
    }
    NodeBox {
        id: node.id.clone(),
        kind: BoxKind::Step {
            in_cycle: node.in_cycle,
            long_running: node.long_running,
            no_package: node.package.is_none(),
        },
        label: node.id.clone(),
        detail: detail.to_string(),
        rect: Rect {
            x: 0.0,
            y: 0.0,
            width: box_width(&node.id, detail, badge.as_deref()),
            height: NODE_HEIGHT,
        },
        badge,
        tooltip,
        step: node.id.clone(),
    }
}

/// Room for the name (and badge) on the first line and the detail on the
/// second, in whole pixels.
fn box_width(name: &str, detail: &str, badge: Option<&str>) -> f64 {
    let first = text::width(name, NAME_SIZE, true)
        + badge.map_or(0.0, |b| BADGE_GAP + text::width(b, DETAIL_SIZE, true));
    let second = text::width(detail, DETAIL_SIZE, false);
    (MIN_TEXT_WIDTH.max(first).max(second) + 2.0 * PAD_X).ceil()
}
