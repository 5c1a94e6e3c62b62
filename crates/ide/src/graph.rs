//! The dependency graph as JSON (`cli.md`, `easyflow graph --format json`),
//! shared by the CLI and the server's `easyflow/graph` (which adds each
//! node's range).

use easyflow_db::GraphView;
use serde_json::json;

/// `{nodes, edges, unresolved, levels}`; `level` is `null` on or after a cycle.
pub fn to_json(view: &GraphView) -> serde_json::Value {
    json!({
        "nodes": view.nodes.iter().map(|n| json!({
            "id": n.id,
            "package": n.package,
            "instances": n.instances,
            "level": n.level,
            "long_running": n.long_running,
            "in_cycle": n.in_cycle,
        })).collect::<Vec<_>>(),
        "edges": view.edges.iter().map(|e| json!({
            "from": e.from,
            "to": e.to,
            "kind": e.kind.as_str(),
            "in_cycle": e.in_cycle,
        })).collect::<Vec<_>>(),
        "unresolved": view.unresolved.iter().map(|u| json!({
            "from": u.from,
            "name": u.name,
            "kind": u.kind.as_str(),
        })).collect::<Vec<_>>(),
        "levels": view.levels,
    })
}
