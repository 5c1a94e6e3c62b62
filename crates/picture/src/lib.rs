//! The picture of a flow's dependency graph, computed once for every
//! viewer: `easyflow graph --format svg` writes it as a file, the language
//! server sends it to the editors' graph views (`easyflow/graph` with
//! `picture`), so the two cannot disagree.
//!
//! - [`model`]: what is drawn (boxes, badges, unresolved names, wires,
//!   columns) from the database's [`GraphView`](easyflow_db::GraphView);
//! - [`layout`]: where, by a layered layout that knows nothing of EasyFlow;
//! - [`svg`](to_svg): how, as SVG text.

pub mod layout;
mod model;
mod svg;
mod text;

pub use model::{BoxKind, Column, NodeBox, Picture, Wire, instances_badge, picture};
pub use svg::{Document, to_svg};

/// The picture of `view` as SVG.
pub fn svg(view: &easyflow_db::GraphView, document: Document) -> String {
    to_svg(&picture(view), document)
}
