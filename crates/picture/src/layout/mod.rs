//! A layered layout (Sugiyama's framework) of a graph whose layers are
//! given, drawn left to right: one column per layer. Knows nothing of
//! EasyFlow; [`crate::model`] says what the boxes and layers are.
//!
//! 1. Every edge spanning more than one layer passes through a dummy vertex
//!    in each layer between its ends ([`Layered::new`]); in a huge graph,
//!    the longest go straight instead, over the columns between.
//! 2. The order within each layer: barycenter sweeps and adjacent swaps,
//!    keeping the order with the fewest crossings ([`order`]).
//! 3. The position across the layers (y): short edges, long ones nearly
//!    straight, in a compact picture ([`place`]).
//! 4. Columns side by side, each as wide as its widest box, and the edges'
//!    paths: straight where they stay level, a smooth S-curve where they
//!    change height between two columns; an edge within one column (a
//!    cycle) bulges out to the right of it.
//!
//! Deterministic: the same graph gives the same layout.

mod order;
mod place;

/// A point of the picture, y growing downwards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// What to lay out.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
    /// Each from a layer to the same or a later one.
    pub edges: Vec<Edge>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Node {
    pub layer: usize,
    pub width: f64,
    pub height: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
}

/// The distances of the layout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spacing {
    /// Where the first column's top-left corner goes.
    pub origin: Point,
    /// Between two boxes of a column.
    pub node_gap: f64,
    /// Between two edges passing through a column.
    pub edge_gap: f64,
    /// Between two columns.
    pub layer_gap: f64,
    /// How far an edge within a column reaches out to its right.
    pub bulge: f64,
}

/// A box's place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// A column: its left side and width.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Column {
    pub x: f64,
    pub width: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Segment {
    Line(Point),
    /// A cubic Bézier curve: two control points and the end.
    Curve(Point, Point, Point),
}

/// An edge's path, from the source's side to the target's left side.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    pub start: Point,
    pub segments: Vec<Segment>,
}

impl Path {
    pub fn end(&self) -> Point {
        match self.segments.last() {
            Some(Segment::Line(end) | Segment::Curve(_, _, end)) => *end,
            None => self.start,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Per node of the graph.
    pub nodes: Vec<Rect>,
    /// Per layer.
    pub columns: Vec<Column>,
    /// Per edge of the graph.
    pub paths: Vec<Path>,
    /// The right and bottom edges of everything drawn.
    pub right: f64,
    pub bottom: f64,
    /// Crossings between the columns (counted on the final order).
    pub crossings: usize,
}

/// The graph with dummy vertices: vertices `0..real` are the graph's nodes,
/// the rest dummies.
pub(crate) struct Layered {
    pub real: usize,
    pub layer_of: Vec<u32>,
    /// Per layer, its vertices from top to bottom.
    pub layers: Vec<Vec<u32>>,
    /// Each vertex's neighbours in the layer before and after its own.
    pub before: Adjacency,
    pub after: Adjacency,
    /// Per edge of the graph, its vertices from source to target (empty for
    /// an edge within one layer; source and target alone for one that goes
    /// straight over the layers between, see [`direct_edges`]).
    pub chains: Vec<Vec<u32>>,
}

/// Dummy vertices at most, beyond which the longest edges go straight to
/// their targets instead, over the columns between: per node and edge, and
/// at least [`MIN_DUMMIES`]. A layered layout needs a dummy in every layer an
/// edge crosses, so a few edges across a huge flow would otherwise cost more
/// than the rest of it (100 000 generated steps: 17 million dummies).
const DUMMIES_PER_ITEM: usize = 4;
const MIN_DUMMIES: usize = 250_000;

/// Which edges (of these spans, in layers) go straight to their targets,
/// without dummies: the longest, until the others need at most `budget`.
fn direct_edges(spans: &[usize], budget: usize) -> Vec<bool> {
    let mut dummies: usize = spans.iter().map(|s| s.saturating_sub(1)).sum();
    let mut direct = vec![false; spans.len()];
    if dummies > budget {
        let mut longest: Vec<usize> = (0..spans.len()).collect();
        longest.sort_by_key(|&e| (std::cmp::Reverse(spans[e]), e));
        for e in longest {
            if dummies <= budget {
                break;
            }
            direct[e] = true;
            dummies -= spans[e] - 1;
        }
    }
    direct
}

/// Neighbour lists in one array (compressed rows).
pub(crate) struct Adjacency {
    start: Vec<u32>,
    targets: Vec<u32>,
}

impl Adjacency {
    fn new(vertices: usize, pairs: &[(u32, u32)]) -> Adjacency {
        let mut start = vec![0u32; vertices + 1];
        for &(from, _) in pairs {
            start[from as usize + 1] += 1;
        }
        for v in 0..vertices {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut targets = vec![0u32; pairs.len()];
        for &(from, to) in pairs {
            targets[fill[from as usize] as usize] = to;
            fill[from as usize] += 1;
        }
        Adjacency { start, targets }
    }

    pub fn of(&self, v: u32) -> &[u32] {
        &self.targets[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }
}

impl Layered {
    pub fn new(graph: &Graph) -> Layered {
        let real = graph.nodes.len();
        let layer_count = graph.nodes.iter().map(|n| n.layer + 1).max().unwrap_or(0);
        let mut layer_of: Vec<u32> = graph.nodes.iter().map(|n| n.layer as u32).collect();
        let mut layers: Vec<Vec<u32>> = vec![Vec::new(); layer_count];
        for (v, node) in graph.nodes.iter().enumerate() {
            layers[node.layer].push(v as u32);
        }
        let spans: Vec<usize> = graph
            .edges
            .iter()
            .map(|edge| {
                let (first, last) = (graph.nodes[edge.from].layer, graph.nodes[edge.to].layer);
                assert!(first <= last, "an edge goes from a layer to a later one");
                last - first
            })
            .collect();
        let budget = MIN_DUMMIES.max(DUMMIES_PER_ITEM * (graph.nodes.len() + graph.edges.len()));
        let direct = direct_edges(&spans, budget);
        let mut segments: Vec<(u32, u32)> = Vec::new();
        let mut chains = Vec::with_capacity(graph.edges.len());
        for ((edge, direct), &span) in graph.edges.iter().zip(direct).zip(&spans) {
            let (from, to) = (edge.from as u32, edge.to as u32);
            let first = layer_of[edge.from];
            match span {
                0 => chains.push(Vec::new()),
                _ if direct => chains.push(vec![from, to]),
                span => {
                    let mut chain = Vec::with_capacity(span + 1);
                    chain.push(from);
                    for layer in first + 1..first + span as u32 {
                        let dummy = layer_of.len() as u32;
                        layer_of.push(layer);
                        layers[layer as usize].push(dummy);
                        chain.push(dummy);
                    }
                    chain.push(to);
                    segments.extend(chain.windows(2).map(|pair| (pair[0], pair[1])));
                    chains.push(chain);
                }
            }
        }
        let vertices = layer_of.len();
        let reversed: Vec<(u32, u32)> = segments.iter().map(|&(a, b)| (b, a)).collect();
        Layered {
            real,
            layer_of,
            layers,
            before: Adjacency::new(vertices, &reversed),
            after: Adjacency::new(vertices, &segments),
            chains,
        }
    }

    pub fn is_dummy(&self, v: u32) -> bool {
        v as usize >= self.real
    }
}

/// Lays `graph` out.
pub fn layout(graph: &Graph, spacing: &Spacing) -> Layout {
    let mut layered = Layered::new(graph);
    let crossings = order::reduce_crossings(&mut layered);

    // Across the layers: each vertex's extent and the room it keeps free
    // around itself (half a gap on each side).
    let half: Vec<f64> = (0..layered.layer_of.len())
        .map(|v| match graph.nodes.get(v) {
            Some(node) => node.height / 2.0 + spacing.node_gap / 2.0,
            None => spacing.edge_gap / 2.0,
        })
        .collect();
    // Whole pixels: crisp lines, and shorter numbers in a large picture.
    let centre: Vec<f64> = place::place(&layered, &half)
        .into_iter()
        .map(f64::round)
        .collect();
    let top = (0..layered.layer_of.len())
        .map(|v| centre[v] - graph.nodes.get(v).map_or(0.0, |n| n.height / 2.0))
        .fold(f64::INFINITY, f64::min);
    let shift = if top.is_finite() {
        spacing.origin.y - top
    } else {
        0.0
    };
    let y_of = |v: u32| centre[v as usize] + shift;

    // Along the layers: columns side by side.
    let mut columns = Vec::with_capacity(layered.layers.len());
    let mut x = spacing.origin.x;
    for layer in &layered.layers {
        let width = layer
            .iter()
            .filter_map(|&v| graph.nodes.get(v as usize))
            .map(|n| n.width)
            .fold(0.0, f64::max);
        columns.push(Column { x, width });
        x += width + spacing.layer_gap;
    }
    let nodes: Vec<Rect> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(v, node)| {
            let column = columns[node.layer];
            Rect {
                x: column.x + (column.width - node.width) / 2.0,
                y: y_of(v as u32) - node.height / 2.0,
                width: node.width,
                height: node.height,
            }
        })
        .collect();

    let paths: Vec<Path> = graph
        .edges
        .iter()
        .zip(&layered.chains)
        .map(|(edge, chain)| {
            if chain.is_empty() {
                within_column(&nodes[edge.from], &nodes[edge.to], spacing.bulge)
            } else {
                through(chain, &layered, &nodes, &columns, &y_of)
            }
        })
        .collect();

    let mut right = columns.last().map_or(spacing.origin.x, |c| c.x + c.width);
    let mut bottom = spacing.origin.y;
    for rect in &nodes {
        bottom = bottom.max(rect.y + rect.height);
    }
    for path in &paths {
        for segment in &path.segments {
            let points: &[Point] = match segment {
                Segment::Line(p) => std::slice::from_ref(p),
                Segment::Curve(a, b, c) => &[*a, *b, *c],
            };
            for p in points {
                right = right.max(p.x);
                bottom = bottom.max(p.y);
            }
        }
    }
    Layout {
        nodes,
        columns,
        paths,
        right,
        bottom,
        crossings,
    }
}

/// A forward edge: out of the source's right side, level through each
/// column it crosses, into the target's left side.
fn through(
    chain: &[u32],
    layered: &Layered,
    nodes: &[Rect],
    columns: &[Column],
    y_of: &dyn Fn(u32) -> f64,
) -> Path {
    let source = nodes[chain[0] as usize];
    let target = nodes[chain[chain.len() - 1] as usize];
    let mut path = Path {
        start: Point {
            x: source.x + source.width,
            y: source.y + source.height / 2.0,
        },
        segments: Vec::with_capacity(chain.len()),
    };
    let mut at = path.start;
    for &dummy in &chain[1..chain.len() - 1] {
        let column = columns[layered.layer_of[dummy as usize] as usize];
        let y = y_of(dummy);
        at = across_gap(&mut path, at, Point { x: column.x, y });
        let leave = Point {
            x: column.x + column.width,
            y,
        };
        level(&mut path, at, leave);
        at = leave;
    }
    across_gap(
        &mut path,
        at,
        Point {
            x: target.x,
            y: target.y + target.height / 2.0,
        },
    );
    path
}

/// From `from` to `to` across the gap between two columns: a line when
/// they are (nearly) level, else an S-curve leaving and arriving
/// horizontally.
fn across_gap(path: &mut Path, from: Point, to: Point) -> Point {
    if from.y == to.y {
        level(path, from, to);
    } else if (from.y - to.y).abs() < 1.5 {
        path.segments.push(Segment::Line(to));
    } else {
        let middle = (from.x + to.x) / 2.0;
        path.segments.push(Segment::Curve(
            Point {
                x: middle,
                y: from.y,
            },
            Point { x: middle, y: to.y },
            to,
        ));
    }
    to
}

/// A level line, merged into the line before it when that one is level at
/// the same height (a long edge running straight is one line).
fn level(path: &mut Path, from: Point, to: Point) {
    let to = Point { x: to.x, y: from.y };
    let previous_start = match path.segments.len() {
        0 => None,
        1 => Some(path.start),
        n => Some(match path.segments[n - 2] {
            Segment::Line(p) | Segment::Curve(_, _, p) => p,
        }),
    };
    if let (Some(Segment::Line(last)), Some(start)) = (path.segments.last_mut(), previous_start)
        && start.y == last.y
        && last.y == to.y
    {
        *last = to;
        return;
    }
    path.segments.push(Segment::Line(to));
}

/// An edge between two boxes of one column: from the source's right side
/// out to the right and back into the target's right side (a loop for an
/// edge from a box to itself).
fn within_column(from: &Rect, to: &Rect, bulge: f64) -> Path {
    let (from_y, to_y) = (from.y + from.height / 2.0, to.y + to.height / 2.0);
    if from == to {
        let right = from.x + from.width;
        let reach = right + bulge * 0.8;
        return Path {
            start: Point {
                x: right,
                y: from_y - 6.0,
            },
            segments: vec![Segment::Curve(
                Point {
                    x: reach,
                    y: from_y - 22.0,
                },
                Point {
                    x: reach,
                    y: from_y + 22.0,
                },
                Point {
                    x: right,
                    y: from_y + 6.0,
                },
            )],
        };
    }
    let (from_right, to_right) = (from.x + from.width, to.x + to.width);
    let reach = from_right.max(to_right) + bulge;
    Path {
        start: Point {
            x: from_right,
            y: from_y,
        },
        segments: vec![Segment::Curve(
            Point {
                x: reach,
                y: from_y,
            },
            Point { x: reach, y: to_y },
            Point {
                x: to_right,
                y: to_y,
            },
        )],
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const SPACING: Spacing = Spacing {
        origin: Point { x: 10.0, y: 20.0 },
        node_gap: 18.0,
        edge_gap: 8.0,
        layer_gap: 64.0,
        bulge: 36.0,
    };

    /// Nodes `(layer, width)` of height 40, edges `(from, to)`.
    fn graph(nodes: &[(usize, f64)], edges: &[(usize, usize)]) -> Graph {
        Graph {
            nodes: nodes
                .iter()
                .map(|&(layer, width)| Node {
                    layer,
                    width,
                    height: 40.0,
                })
                .collect(),
            edges: edges.iter().map(|&(from, to)| Edge { from, to }).collect(),
        }
    }

    #[test]
    fn ordering_removes_the_crossings_of_the_given_order() {
        // A1, A2 feed B2, B1 crosswise; B1, B2 feed C2, C1 crosswise.
        let g = graph(
            &[
                (0, 50.0),
                (0, 50.0),
                (1, 50.0),
                (1, 50.0),
                (2, 50.0),
                (2, 50.0),
            ],
            &[(1, 2), (0, 3), (3, 4), (2, 5)],
        );
        assert_eq!(order::count_of(&Layered::new(&g)), 2);
        assert_eq!(layout(&g, &SPACING).crossings, 0);
    }

    #[test]
    fn a_long_edge_runs_as_one_level_line_where_nothing_is_in_its_way() {
        // A → D past B and C, which are not connected.
        let g = graph(&[(0, 50.0), (1, 80.0), (2, 50.0), (3, 50.0)], &[(0, 3)]);
        let laid = layout(&g, &SPACING);
        let long = &laid.paths[0];
        assert!(
            long.segments.len() <= 2 && long.segments.iter().all(|s| matches!(s, Segment::Line(_))),
            "{long:?}"
        );
    }

    #[test]
    fn an_edge_within_a_column_bulges_to_its_right_and_a_loop_returns_to_its_box() {
        let g = graph(&[(0, 50.0), (0, 50.0)], &[(0, 1), (1, 1)]);
        let laid = layout(&g, &SPACING);
        let right = laid.nodes[0].x + 50.0;
        assert_eq!(laid.paths[0].start.x, right);
        assert_eq!(laid.paths[0].end().x, right);
        assert!(laid.right >= right + SPACING.bulge);
        let (start, end) = (laid.paths[1].start, laid.paths[1].end());
        assert_eq!((start.x, end.x), (right, right));
        assert!(start.y < end.y);
    }

    #[test]
    fn past_the_dummy_budget_the_longest_edges_go_straight() {
        assert_eq!(direct_edges(&[5, 2, 1, 0], 2), [true, false, false, false]);
        assert_eq!(direct_edges(&[5, 2, 1, 0], 5), [false; 4]);
        assert_eq!(direct_edges(&[3, 3, 2], 0), [true, true, true]);
    }

    #[test]
    fn an_empty_graph_has_an_empty_layout() {
        let laid = layout(&Graph::default(), &SPACING);
        assert!(laid.nodes.is_empty() && laid.columns.is_empty() && laid.paths.is_empty());
    }

    /// Random layered graphs: up to 40 nodes in up to 8 layers, edges from a
    /// layer to the same or a later one.
    fn graphs() -> impl Strategy<Value = Graph> {
        (1usize..40)
            .prop_flat_map(|n| {
                (
                    proptest::collection::vec((0usize..8, 40.0f64..200.0), n),
                    proptest::collection::vec((0..n, 0..n), 0..3 * n),
                )
            })
            .prop_map(|(nodes, pairs)| {
                let edges: Vec<(usize, usize)> = pairs
                    .into_iter()
                    .map(|(a, b)| {
                        if nodes[a].0 <= nodes[b].0 {
                            (a, b)
                        } else {
                            (b, a)
                        }
                    })
                    .collect();
                graph(&nodes, &edges)
            })
    }

    proptest! {
        #[test]
        fn layouts_keep_boxes_apart_and_edges_attached(g in graphs()) {
            let laid = layout(&g, &SPACING);
            prop_assert_eq!(&laid, &layout(&g, &SPACING), "deterministic");
            prop_assert!(laid.crossings <= order::count_of(&Layered::new(&g)));
            // Boxes of a column, in its band, apart by at least the gap.
            for (layer, column) in laid.columns.iter().enumerate() {
                let mut rects: Vec<&Rect> = laid.nodes.iter().zip(&g.nodes)
                    .filter(|(_, n)| n.layer == layer).map(|(r, _)| r).collect();
                rects.sort_by(|a, b| a.y.total_cmp(&b.y));
                for pair in rects.windows(2) {
                    prop_assert!(pair[1].y - (pair[0].y + pair[0].height) >= SPACING.node_gap - 1.0);
                }
                for r in rects {
                    prop_assert!(r.x >= column.x && r.x + r.width <= column.x + column.width);
                    prop_assert!(r.y >= SPACING.origin.y && r.y + r.height <= laid.bottom);
                }
            }
            for (edge, path) in g.edges.iter().zip(&laid.paths) {
                let (from, to) = (laid.nodes[edge.from], laid.nodes[edge.to]);
                prop_assert_eq!(path.start.x, from.x + from.width);
                prop_assert!((path.start.y - (from.y + from.height / 2.0)).abs() <= 6.0);
                let end = path.end();
                if g.nodes[edge.from].layer == g.nodes[edge.to].layer {
                    prop_assert_eq!(end.x, to.x + to.width);
                    continue;
                }
                prop_assert_eq!(end, Point { x: to.x, y: to.y + to.height / 2.0 });
                // Left to right all the way.
                let mut x = path.start.x;
                for segment in &path.segments {
                    let (Segment::Line(p) | Segment::Curve(_, _, p)) = segment;
                    prop_assert!(p.x >= x);
                    x = p.x;
                }
                prop_assert!(end.x <= laid.right && end.y <= laid.bottom);
            }
        }
    }
}
