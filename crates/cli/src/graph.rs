//! `easyflow graph FILE --format json|dot|mermaid|svg`: the dependency graph of
//! one flow, drawn from the same model the language server serves.

use std::fmt::Write;
use std::path::Path;

use clap::ValueEnum;
use easyflow_db::{Database, EdgeKind, GraphView, SourceFile, graph_view};
use easyflow_project::FileKind;

use crate::{exit, input};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GraphFormat {
    /// `{nodes, edges, unresolved, levels}` as in cli.md.
    Json,
    /// Graphviz.
    Dot,
    /// A Mermaid flowchart (renders in Markdown on most forges).
    Mermaid,
    /// A laid-out, self-contained SVG picture.
    Svg,
}

pub fn run(path: &Path, format: GraphFormat) -> u8 {
    let text = match input::read_one(path, FileKind::Flow) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::FAILURE;
        }
    };
    let db = Database::default();
    let file = SourceFile::new(&db, path.to_path_buf(), text.into());
    let view = graph_view(&db, file);
    let rendered = match format {
        GraphFormat::Json => {
            let mut text = serde_json::to_string_pretty(&easyflow_ide::graph::to_json(view))
                .expect("JSON values serialize");
            text.push('\n');
            text
        }
        GraphFormat::Dot => to_dot(view),
        GraphFormat::Mermaid => to_mermaid(view),
        GraphFormat::Svg => easyflow_picture::svg(view, easyflow_picture::Document::Standalone),
    };
    print!("{rendered}");
    exit::OK
}

/// A quoted DOT identifier or label.
fn dot_quote(text: &str) -> String {
    format!(
        "\"{}\"",
        text.replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n")
    )
}

fn node_label(node: &easyflow_db::GraphNode) -> String {
    let mut label = node.id.clone();
    if let Some(package) = &node.package {
        let _ = write!(label, "\n{package}");
    }
    if let Some(badge) = easyflow_picture::instances_badge(node.instances) {
        let _ = write!(label, "\n{badge}");
    }
    label
}

pub fn to_dot(view: &GraphView) -> String {
    let mut out =
        String::from("digraph flow {\n  rankdir=LR;\n  node [shape=box, style=rounded];\n");
    for node in &view.nodes {
        let mut attributes = vec![format!("label={}", dot_quote(&node_label(node)))];
        if node.long_running {
            attributes.push("peripheries=2".to_string());
        }
        if node.in_cycle {
            attributes.push("color=red".to_string());
        }
        let _ = writeln!(
            out,
            "  {} [{}];",
            dot_quote(&node.id),
            attributes.join(", ")
        );
    }
    for edge in &view.edges {
        let mut attributes = vec![
            match edge.kind {
                EdgeKind::Control => "style=dashed",
                EdgeKind::Data => "style=solid",
                EdgeKind::Stream => "style=bold",
            }
            .to_string(),
        ];
        if edge.in_cycle {
            attributes.push("color=red".to_string());
        }
        let _ = writeln!(
            out,
            "  {} -> {} [{}];",
            dot_quote(&edge.from),
            dot_quote(&edge.to),
            attributes.join(", ")
        );
    }
    for (i, unresolved) in view.unresolved.iter().enumerate() {
        let id = format!("unresolved {i}");
        let _ = writeln!(
            out,
            "  {} [label={}, color=red, fontcolor=red, style=dotted];",
            dot_quote(&id),
            dot_quote(&format!("{}?", unresolved.name))
        );
        let _ = writeln!(
            out,
            "  {} -> {} [color=red, style=dotted];",
            dot_quote(&id),
            dot_quote(&unresolved.from)
        );
    }
    for level in &view.levels {
        let members: Vec<String> = level.iter().map(|id| dot_quote(id)).collect();
        let _ = writeln!(out, "  {{ rank=same; {} }}", members.join("; "));
    }
    out.push_str("}\n");
    out
}

/// Mermaid node text: quoted, with `"` escaped as an entity.
fn mermaid_text(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "#quot;").replace('\n', "<br/>"))
}

pub fn to_mermaid(view: &GraphView) -> String {
    let mut out = String::from("flowchart LR\n");
    let index_of = |id: &str| view.nodes.iter().position(|n| n.id == id).unwrap_or(0);
    for (i, node) in view.nodes.iter().enumerate() {
        let (open, close) = if node.long_running {
            ("([", "])")
        } else {
            ("[", "]")
        };
        let _ = writeln!(
            out,
            "  n{i}{open}{}{close}",
            mermaid_text(&node_label(node))
        );
    }
    let mut red_links = Vec::new();
    let mut link = 0;
    for edge in &view.edges {
        let arrow = match edge.kind {
            EdgeKind::Control => "-.->",
            EdgeKind::Data => "-->",
            EdgeKind::Stream => "==>",
        };
        let _ = writeln!(
            out,
            "  n{} {arrow} n{}",
            index_of(&edge.from),
            index_of(&edge.to)
        );
        if edge.in_cycle {
            red_links.push(link);
        }
        link += 1;
    }
    for (i, unresolved) in view.unresolved.iter().enumerate() {
        let label = mermaid_text(&format!("{}?", unresolved.name));
        let _ = writeln!(out, "  u{i}[{label}]:::unresolved");
        let _ = writeln!(out, "  u{i} -.-> n{}", index_of(&unresolved.from));
        red_links.push(link);
        link += 1;
    }
    let cycle_nodes: Vec<String> = view
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.in_cycle)
        .map(|(i, _)| format!("n{i}"))
        .collect();
    if !cycle_nodes.is_empty() {
        let _ = writeln!(out, "  class {} cycle", cycle_nodes.join(","));
    }
    out.push_str("  classDef cycle stroke:#d00,stroke-width:2px\n");
    out.push_str("  classDef unresolved stroke:#d00,stroke-dasharray:3 3,color:#d00\n");
    if !red_links.is_empty() {
        let links: Vec<String> = red_links.iter().map(|l| l.to_string()).collect();
        let _ = writeln!(out, "  linkStyle {} stroke:#d00", links.join(","));
    }
    out
}
