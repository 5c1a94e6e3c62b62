//! How hover and completion write things in Markdown: counts, cut lists,
//! worker types of a topology.

use std::fmt::Write;

use easyflow_topology::{Topology, WorkerType, format_bytes};

/// How many names a list in a hover shows before "and N more".
pub(crate) const LIST_LIMIT: usize = 12;

/// `` `compute+GPU` (2 per node × 4 nodes, 1 GiB) ``
pub(crate) fn describe_worker(worker: &WorkerType) -> String {
    let mut details = vec![format!("{} per node", worker.per_node)];
    if worker.max_nodes > 0 {
        details[0].push_str(&format!(" × {}", plural(worker.max_nodes, "node", "nodes")));
    }
    if worker.shm > 0 {
        details.push(format_bytes(worker.shm));
    }
    format!("`{}` ({})", worker.name(), details.join(", "))
}

/// The worker types that have capability `name`, described, or "" when none.
pub(crate) fn providers(topology: &Topology, name: &str) -> String {
    limited(
        topology
            .workers
            .iter()
            .filter(|w| w.has_capability(name))
            .map(describe_worker),
        LIST_LIMIT,
    )
}

/// `1 instance`, `6 instances`.
pub(crate) fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// The items joined by ", ", at most `limit` of them and "and N more".
pub(crate) fn limited(items: impl Iterator<Item = String>, limit: usize) -> String {
    let mut shown = Vec::new();
    let mut more = 0usize;
    for item in items {
        if shown.len() < limit {
            shown.push(item);
        } else {
            more += 1;
        }
    }
    let mut out = shown.join(", ");
    if more > 0 {
        let _ = write!(out, " and {more} more");
    }
    out
}

pub(crate) fn quoted_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    quoted.join(", ")
}

/// Text on one line, whitespace runs collapsed, at most 60 characters.
pub(crate) fn one_line(text: &str) -> String {
    const MAX: usize = 60;
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= MAX {
        return collapsed;
    }
    let mut cut: String = collapsed.chars().take(MAX - 1).collect();
    cut.push('…');
    cut
}
