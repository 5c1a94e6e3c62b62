//! The dependency graph as plain data for pictures: the model behind
//! `easyflow graph` and the server's `easyflow/graph` (`cli.md`). Drawn for
//! broken flows too: cycle members and edges are marked, and names that
//! resolve to nothing are listed as unresolved.

use std::collections::BTreeSet;

use smol_str::SmolStr;

use crate::graph::{EdgeKind, dependency_graph};
use crate::items::{StepId, item_index};
use crate::resolve::{Target, name_resolution};
use crate::{Db, SourceFile};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphNode {
    /// The step's name; a repeated definition gets `#2`, `#3`, … appended.
    pub id: String,
    pub step: StepId,
    pub package: Option<String>,
    pub instances: u64,
    pub level: Option<u32>,
    pub long_running: bool,
    pub in_cycle: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphEdge {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
    pub in_cycle: bool,
}

/// A name in an `after`/`on` list (`control`) or a reference (`data`,
/// `stream`) that names no step or file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnresolvedName {
    pub from: String,
    pub name: String,
    pub kind: EdgeKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GraphView {
    pub nodes: Vec<GraphNode>,
    /// One edge per (from, to, kind), in the order of the dependent steps.
    pub edges: Vec<GraphEdge>,
    pub unresolved: Vec<UnresolvedName>,
    /// Steps by level; steps without a level (on or after a cycle) are left out.
    pub levels: Vec<Vec<String>>,
}

#[salsa::tracked(returns(ref))]
pub fn graph_view(db: &dyn Db, file: SourceFile) -> GraphView {
    let index = item_index(db, file);
    let resolution = name_resolution(db, file);
    let graph = dependency_graph(db, file);
    let mut view = GraphView::default();

    // Node ids: step names, made unique. Steps without a name are not drawn.
    let mut ids: Vec<Option<String>> = Vec::with_capacity(index.steps.len());
    let mut seen = std::collections::HashMap::<&str, u32>::new();
    for step in &index.steps {
        ids.push(step.name.as_deref().map(|name| {
            let count = seen.entry(name).or_insert(0);
            *count += 1;
            if *count == 1 {
                name.to_string()
            } else {
                format!("{name}#{count}")
            }
        }));
    }
    let component_of = {
        let mut component = vec![None; index.steps.len()];
        for (c, members) in graph.cycles.iter().enumerate() {
            for member in members {
                component[member.index()] = Some(c);
            }
        }
        component
    };
    for (i, step) in index.steps.iter().enumerate() {
        let Some(id) = &ids[i] else { continue };
        view.nodes.push(GraphNode {
            id: id.clone(),
            step: StepId(i as u32),
            package: step.package.as_ref().map(SmolStr::to_string),
            instances: step.instances,
            level: graph.levels[i],
            long_running: step.long_running,
            in_cycle: graph.in_cycle[i],
        });
        if let Some(level) = graph.levels[i] {
            let level = level as usize;
            if view.levels.len() <= level {
                view.levels.resize(level + 1, Vec::new());
            }
            view.levels[level].push(id.clone());
        }
    }
    let mut drawn = BTreeSet::new();
    for edge in &graph.edges {
        let (Some(from), Some(to)) = (&ids[edge.from.index()], &ids[edge.to.index()]) else {
            continue;
        };
        if !drawn.insert((edge.from, edge.to, edge.kind as u8)) {
            continue;
        }
        let in_cycle = edge.from == edge.to
            || (component_of[edge.from.index()].is_some()
                && component_of[edge.from.index()] == component_of[edge.to.index()]);
        view.edges.push(GraphEdge {
            from: from.clone(),
            to: to.clone(),
            kind: edge.kind,
            in_cycle,
        });
    }
    for (i, step) in index.steps.iter().enumerate() {
        let Some(from) = &ids[i] else { continue };
        for (n, dependency) in step.dependencies.iter().enumerate() {
            if resolution.dependencies[i][n].is_none() {
                view.unresolved.push(UnresolvedName {
                    from: from.clone(),
                    name: dependency.name.to_string(),
                    kind: EdgeKind::Control,
                });
            }
        }
        for (n, reference) in step.references.iter().enumerate() {
            if resolution.references[i][n] == Target::Unresolved {
                let kind = if reference.stream_source {
                    EdgeKind::Stream
                } else {
                    EdgeKind::Data
                };
                view.unresolved.push(UnresolvedName {
                    from: from.clone(),
                    name: reference.head.to_string(),
                    kind,
                });
            }
        }
    }
    view
}
