//! The dependency graph as the data of `easyflow graph --format json`
//! (`cli.md`), shared by the CLI and the server's `easyflow/graph` (which
//! adds each node's range, see [`graph`]); its picture, as the editors'
//! graph views get it ([`picture`], [`packed_picture`]).

use std::io::Write;

use easyflow_db::diagnostics::Anchor;
use easyflow_db::{Db, GraphView, SourceFile, graph_view};
use easyflow_diagnostics::TextRange;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::defs;

/// `{nodes, edges, unresolved, levels}`, in the order of `cli.md`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub unresolved: Vec<Unresolved>,
    /// Node ids by level; nodes on or after a cycle have no level.
    pub levels: Vec<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Node {
    /// The step's name; a repeated definition gets `#2`, `#3`, … appended.
    pub id: String,
    pub package: Option<String>,
    pub instances: u64,
    /// `None` on or after a cycle.
    pub level: Option<u32>,
    pub long_running: bool,
    pub in_cycle: bool,
    /// The range of the step's name. Not part of the CLI's JSON: the server
    /// sends it converted to lines and columns.
    #[serde(skip)]
    pub range: Option<TextRange>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "GraphEdge")]
pub struct Edge {
    pub from: String,
    pub to: String,
    /// `control`, `data` or `stream`.
    #[ts(type = "EdgeKind")]
    pub kind: String,
    pub in_cycle: bool,
}

/// A name in an `after` list or a reference that names no step or file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Unresolved {
    pub from: String,
    pub name: String,
    /// `control`, `data` or `stream`.
    #[ts(type = "EdgeKind")]
    pub kind: String,
}

impl Graph {
    /// The graph of a view, without ranges.
    pub fn of(view: &GraphView) -> Graph {
        Graph {
            nodes: view
                .nodes
                .iter()
                .map(|n| Node {
                    id: n.id.clone(),
                    package: n.package.clone(),
                    instances: n.instances,
                    level: n.level,
                    long_running: n.long_running,
                    in_cycle: n.in_cycle,
                    range: None,
                })
                .collect(),
            edges: view
                .edges
                .iter()
                .map(|e| Edge {
                    from: e.from.clone(),
                    to: e.to.clone(),
                    kind: e.kind.as_str().to_string(),
                    in_cycle: e.in_cycle,
                })
                .collect(),
            unresolved: view
                .unresolved
                .iter()
                .map(|u| Unresolved {
                    from: u.from.clone(),
                    name: u.name.clone(),
                    kind: u.kind.as_str().to_string(),
                })
                .collect(),
            levels: view.levels.clone(),
        }
    }
}

/// The graph of `file`, with the range of each node's step name.
pub fn graph(db: &dyn Db, file: SourceFile) -> Graph {
    let mut graph = Graph::of(graph_view(db, file));
    for (node, range) in graph.nodes.iter_mut().zip(name_ranges(db, file)) {
        node.range = range;
    }
    graph
}

/// The range of each node's step name, in the order of the nodes.
fn name_ranges(db: &dyn Db, file: SourceFile) -> Vec<Option<TextRange>> {
    graph_view(db, file)
        .nodes
        .iter()
        .map(|node| defs::range_of(db, file, Anchor::StepName(node.step)))
        .collect()
}

/// What a graph view needs to show `file`'s graph, and no more
/// (`easyflow/graphPicture`): its picture packed, what to reveal for each
/// box, and the numbers of its header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PictureForView {
    /// [`packed_picture`].
    pub packed: String,
    /// The range of each step's name, in the order of the nodes, which is
    /// that of the picture's first boxes, the steps' (`Picture::boxes`).
    pub name_ranges: Vec<Option<TextRange>>,
    pub edges: usize,
    /// Names that resolve to nothing (each reference counts).
    pub unresolved: usize,
    pub steps_in_cycle: usize,
}

pub fn picture_for_view(db: &dyn Db, file: SourceFile) -> PictureForView {
    let view = graph_view(db, file);
    PictureForView {
        packed: packed_picture(db, file).clone(),
        name_ranges: name_ranges(db, file),
        edges: view.edges.len(),
        unresolved: view.unresolved.len(),
        steps_in_cycle: view.nodes.iter().filter(|n| n.in_cycle).count(),
    }
}

/// The picture of `file`'s graph, as SVG for a page that styles it (the
/// editors' graph views; `easyflow graph --format svg` is the same drawing
/// as a document of its own). Tracked: laying out a large flow takes a
/// while, and a view opened again, or another view of the same revision,
/// gets the picture already drawn. Only the last few flows' pictures are
/// kept (megabytes each for thousands of steps).
#[salsa::tracked(returns(ref), lru = 4)]
pub fn picture(db: &dyn Db, file: SourceFile) -> String {
    easyflow_picture::svg(graph_view(db, file), easyflow_picture::Document::Embedded)
}

/// The [`picture`] gzip-compressed, in base64: a fifth of the SVG's bytes
/// (a large flow's wires repeat), so that the server writes, and the
/// editor reads and passes on to its view, little JSON
/// (`docs/lsp-extensions.md`, `easyflow/graphPicture`). Tracked like the
/// picture: a view opened again gets it packed already.
#[salsa::tracked(returns(ref), lru = 4)]
pub fn packed_picture(db: &dyn Db, file: SourceFile) -> String {
    let svg = picture(db, file);
    // Level 2: for 10k steps, 1.4 MB in a seventh of the default level's
    // time (1.1 MB); level 1 is slower here and gives 1.8 MB.
    let mut gzip = flate2::write::GzEncoder::new(
        Vec::with_capacity(svg.len() / 6),
        flate2::Compression::new(2),
    );
    gzip.write_all(svg.as_bytes())
        .expect("writing to memory does not fail");
    let bytes = gzip.finish().expect("writing to memory does not fail");
    data_encoding::BASE64.encode(&bytes)
}

/// The JSON of `easyflow graph --format json`; `level` is `null` on or
/// after a cycle.
pub fn to_json(view: &GraphView) -> serde_json::Value {
    serde_json::to_value(Graph::of(view)).expect("the graph serializes to JSON")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::fixture;

    #[test]
    fn the_picture_is_drawn_once_per_revision() {
        use salsa::Setter;
        let mut f = fixture("step A runs P ();\nstep B runs Q after A ();");
        let first: *const String = picture(&f.db, f.file);
        assert!(std::ptr::eq(first, picture(&f.db, f.file)));
        assert!(picture(&f.db, f.file).contains("data-id=\"B\""));
        let text = "step A runs P ();\nstep C runs Q after A ();";
        f.file.set_text(&mut f.db).to(text.into());
        assert!(picture(&f.db, f.file).contains("data-id=\"C\""));
    }

    #[test]
    fn the_packed_picture_is_the_picture_gzipped_in_base64() {
        use std::io::Read;
        let f = fixture("step A runs P ();\nstep B runs Q after A (x = Nowhere);");
        let bytes = data_encoding::BASE64
            .decode(packed_picture(&f.db, f.file).as_bytes())
            .unwrap();
        let mut svg = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut svg)
            .unwrap();
        assert_eq!(&svg, picture(&f.db, f.file));
        let for_view = picture_for_view(&f.db, f.file);
        let names: Vec<&str> = for_view
            .name_ranges
            .iter()
            .map(|r| &f.text[r.unwrap()])
            .collect();
        assert_eq!(names, ["A", "B"]);
        assert_eq!(
            (for_view.edges, for_view.unresolved, for_view.steps_in_cycle),
            (1, 1, 0)
        );
    }

    #[test]
    fn nodes_carry_the_range_of_their_name_and_the_json_leaves_it_out() {
        let f = fixture("step A runs P ();\nstep B runs Q after A ();\nstep A runs R ();");
        let graph = graph(&f.db, f.file);
        let names: Vec<(&str, &str)> = graph
            .nodes
            .iter()
            .map(|n| (n.id.as_str(), &f.text[n.range.unwrap()]))
            .collect();
        assert_eq!(names, [("A", "A"), ("B", "B"), ("A#2", "A")]);
        let json = to_json(graph_view(&f.db, f.file));
        assert_eq!(
            json["nodes"][1],
            serde_json::json!({"id": "B", "package": "Q", "instances": 1, "level": 1, "long_running": false, "in_cycle": false})
        );
        assert_eq!(json["edges"][0]["kind"], "control");
    }
}
