//! The picture as SVG: a document on its own (`easyflow graph --format
//! svg`, with its stylesheet), or the same drawing for a page that styles it
//! (the editors' graph views, with their theme's colours). Elements carry
//! classes (`node step in-cycle`, `edge data bad`, …) for the stylesheet,
//! and a box its id (`data-id`) and the step an editor reveals for it
//! (`data-step`). One element per line; every text is escaped.

use std::borrow::Cow;
use std::fmt::Write;

use quick_xml::escape::escape;

use crate::layout::{Path, Point, Segment};
use crate::model::{BoxKind, NODE_HEIGHT, PAD_X, Picture};

/// What the SVG is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Document {
    /// A file of its own: a title, a stylesheet and a background.
    Standalone,
    /// Inserted in a page whose stylesheet styles the classes.
    Embedded,
}

/// The stylesheet of a standalone picture. The editors' graph views style
/// the same classes with their theme's colours
/// (`editors/vscode/src/webview/graph.css`).
const STYLE: &str = "
svg { font-family: system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', sans-serif; }
.background { fill: #ffffff; }
.column rect { fill: rgba(128, 128, 128, 0.1); }
.column text { fill: #6e6e6e; font-size: 11px; letter-spacing: 0.04em; }
.edge { fill: none; stroke: #8a8a8a; stroke-width: 1.5; marker-end: url(#arrow); }
.edge.control { stroke-dasharray: 6 4; }
.edge.stream { stroke-width: 4; }
.edge.bad { stroke: #e51400; marker-end: url(#arrow-bad); }
#arrow path { fill: #8a8a8a; }
#arrow-bad path { fill: #e51400; }
.node rect { fill: #f3f3f3; stroke: #6b6b6b; stroke-width: 1.2; }
.node rect.inner { fill: none; }
.node .name { fill: #1e1e1e; font-size: 13px; font-weight: 600; }
.node .detail { fill: #6e6e6e; font-size: 11px; }
.node .detail.missing { font-style: italic; }
.node .instances { fill: #007fd4; font-size: 11px; font-weight: 600; }
.node.in-cycle rect { stroke: #e51400; stroke-width: 2; }
.node.unresolved rect { fill: #ffffff; stroke: #e51400; stroke-dasharray: 4 3; }
.node.unresolved .name, .node.unresolved .detail { fill: #e51400; }
";

const MARKERS: &str = "<defs>
<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" markerUnits=\"userSpaceOnUse\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\"/></marker>
<marker id=\"arrow-bad\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" markerUnits=\"userSpaceOnUse\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\"/></marker>
</defs>
";

/// The picture as SVG text, ending with a newline.
pub fn to_svg(picture: &Picture, document: Document) -> String {
    let mut out =
        String::with_capacity(1024 + 360 * picture.boxes.len() + 160 * picture.wires.len());
    let (width, height) = (number(picture.width), number(picture.height));
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\">"
    );
    if document == Document::Standalone {
        let steps = picture
            .boxes
            .iter()
            .filter(|b| matches!(b.kind, BoxKind::Step { .. }))
            .count();
        let _ = writeln!(
            out,
            "<title>dependency graph: {steps} step{}</title>",
            if steps == 1 { "" } else { "s" }
        );
        let _ = writeln!(out, "<style>{STYLE}</style>");
    }
    out.push_str(MARKERS);
    if document == Document::Standalone {
        out.push_str("<rect class=\"background\" width=\"100%\" height=\"100%\"/>\n");
    }

    out.push_str("<g class=\"columns\">\n");
    let band_height = number(picture.height - 16.0);
    for column in &picture.columns {
        let _ = writeln!(
            out,
            "<g class=\"column\"><rect x=\"{}\" y=\"8\" width=\"{}\" height=\"{band_height}\" rx=\"6\"/><text x=\"{}\" y=\"26\" text-anchor=\"middle\">{}</text></g>",
            number(column.x - 8.0),
            number(column.width + 16.0),
            number(column.x + column.width / 2.0),
            escape(&column.label),
        );
    }
    out.push_str("</g>\n<g class=\"edges\">\n");
    for wire in &picture.wires {
        let _ = write!(
            out,
            "<path class=\"edge {}{}\" d=\"",
            wire.kind.as_str(),
            if wire.bad { " bad" } else { "" }
        );
        write_path(&mut out, &wire.path);
        let _ = writeln!(out, "\"><title>{}</title></path>", escape(&wire.title));
    }
    out.push_str("</g>\n<g class=\"nodes\">\n");
    for node in &picture.boxes {
        let (class, long_running, missing) = match node.kind {
            BoxKind::Unresolved => (Cow::Borrowed("node unresolved"), false, false),
            BoxKind::Step {
                in_cycle,
                long_running,
                no_package,
            } => {
                let mut class = String::from("node step");
                if in_cycle {
                    class.push_str(" in-cycle");
                }
                if long_running {
                    class.push_str(" long-running");
                }
                (Cow::Owned(class), long_running, no_package)
            }
        };
        let _ = write!(
            out,
            "<g class=\"{class}\" transform=\"translate({},{})\" data-id=\"{}\"",
            number(node.rect.x),
            number(node.rect.y),
            escape(&node.id),
        );
        if node.step != node.id {
            let _ = write!(out, " data-step=\"{}\"", escape(&node.step));
        }
        let width = number(node.rect.width);
        let _ = write!(
            out,
            "><title>{}</title><rect width=\"{width}\" height=\"{}\" rx=\"5\"/>",
            escape(&node.tooltip),
            number(NODE_HEIGHT),
        );
        if long_running {
            let _ = write!(
                out,
                "<rect class=\"inner\" x=\"3\" y=\"3\" width=\"{}\" height=\"{}\" rx=\"3\"/>",
                number(node.rect.width - 6.0),
                number(NODE_HEIGHT - 6.0),
            );
        }
        let _ = write!(
            out,
            "<text class=\"name\" x=\"{PAD_X}\" y=\"18\">{}</text><text class=\"detail{}\" x=\"{PAD_X}\" y=\"34\">{}</text>",
            escape(&node.label),
            if missing { " missing" } else { "" },
            escape(&node.detail),
        );
        if let Some(badge) = &node.badge {
            let _ = write!(
                out,
                "<text class=\"instances\" x=\"{}\" y=\"18\" text-anchor=\"end\">{}</text>",
                number(node.rect.width - 10.0),
                escape(badge),
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// A path in relative commands (`h` along a column, `c` for a curve), on
/// whole pixels: the long paths of a large flow are most of its picture.
fn write_path(out: &mut String, path: &Path) {
    let round = |p: Point| (p.x.round(), p.y.round());
    let (mut x, mut y) = round(path.start);
    let _ = write!(out, "M{},{}", x as i64, y as i64);
    for segment in &path.segments {
        match *segment {
            Segment::Line(to) => {
                let (tx, ty) = round(to);
                if ty == y {
                    let _ = write!(out, "h{}", (tx - x) as i64);
                } else {
                    let _ = write!(out, "l{},{}", (tx - x) as i64, (ty - y) as i64);
                }
                (x, y) = (tx, ty);
            }
            Segment::Curve(a, b, to) => {
                let (ax, ay) = round(a);
                let (bx, by) = round(b);
                let (tx, ty) = round(to);
                let _ = write!(
                    out,
                    "c{},{} {},{} {},{}",
                    (ax - x) as i64,
                    (ay - y) as i64,
                    (bx - x) as i64,
                    (by - y) as i64,
                    (tx - x) as i64,
                    (ty - y) as i64
                );
                (x, y) = (tx, ty);
            }
        }
    }
}

/// A coordinate to a tenth of a pixel, without a trailing `.0`.
fn number(value: f64) -> Number {
    Number(value)
}

struct Number(f64);

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tenths = (self.0 * 10.0).round();
        if tenths % 10.0 == 0.0 {
            write!(f, "{}", (tenths / 10.0) as i64)
        } else {
            write!(f, "{}", tenths / 10.0)
        }
    }
}
