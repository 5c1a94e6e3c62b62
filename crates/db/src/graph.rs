//! Layer 5b: the dependency graph (`language.md` §3.2): control, data and
//! stream edges, cycles, levels and instance counts.

use std::collections::VecDeque;

use petgraph::graph::{DiGraph, NodeIndex};

use crate::items::{StepId, item_index};
use crate::resolve::{Target, name_resolution};
use crate::{Db, SourceFile};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// `after`/`on`.
    Control,
    /// A reference in a parameter.
    Data,
    /// A `<-` parameter's source.
    Stream,
}

impl EdgeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Control => "control",
            EdgeKind::Data => "data",
            EdgeKind::Stream => "stream",
        }
    }
}

/// Where in the dependent step an edge comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdgeSource {
    /// The n-th `after`/`on` entry.
    Dependency(u32),
    /// The n-th reference.
    Reference(u32),
}

/// `to` depends on `from`: data flows from `from` to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Edge {
    pub from: StepId,
    pub to: StepId,
    pub kind: EdgeKind,
    pub source: EdgeSource,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DependencyGraph {
    /// One edge per source occurrence, ordered by dependent step, then source.
    pub edges: Vec<Edge>,
    /// Strongly connected components of two or more steps, each in text
    /// order, ordered by their first step.
    pub cycles: Vec<Vec<StepId>>,
    /// Per step: in a cycle (or depends on itself).
    pub in_cycle: Vec<bool>,
    /// Per step: its parallel wave; `None` on or downstream of a cycle.
    pub levels: Vec<Option<u32>>,
    /// Per step: how many instances it runs.
    pub instances: Vec<u64>,
}

impl DependencyGraph {
    pub fn is_self_edge(edge: &Edge) -> bool {
        edge.from == edge.to
    }

    /// The edges into `step` (what it depends on), in source order. Edges
    /// are stored ordered by dependent step, so this is a binary search.
    pub fn edges_into(&self, step: StepId) -> &[Edge] {
        let start = self.edges.partition_point(|e| e.to < step);
        let end = self.edges.partition_point(|e| e.to <= step);
        &self.edges[start..end]
    }

    /// A shortest cycle through `start` within its component (sorted), as the
    /// steps along it: the first is `start`, and the path returns to it.
    pub fn cycle_through(&self, start: StepId, component: &[StepId]) -> Vec<StepId> {
        let local = |s: StepId| component.binary_search(&s).ok();
        // Successors by position in `component`.
        let mut successors: Vec<Vec<usize>> = vec![Vec::new(); component.len()];
        for (to, &step) in component.iter().enumerate() {
            for edge in self.edges_into(step) {
                if let Some(from) = local(edge.from).filter(|&from| from != to) {
                    successors[from].push(to);
                }
            }
        }
        let Some(origin) = local(start) else {
            return vec![start];
        };
        let mut previous: Vec<Option<usize>> = vec![None; component.len()];
        let mut queue = VecDeque::from([origin]);
        while let Some(at) = queue.pop_front() {
            for &next in &successors[at] {
                if next == origin {
                    let mut path = vec![at];
                    while let Some(p) = previous[path[path.len() - 1]] {
                        path.push(p);
                    }
                    path.reverse();
                    return path.into_iter().map(|i| component[i]).collect();
                }
                if previous[next].is_none() {
                    previous[next] = Some(at);
                    queue.push_back(next);
                }
            }
        }
        vec![start]
    }
}

#[salsa::tracked(returns(ref))]
pub fn dependency_graph(db: &dyn Db, file: SourceFile) -> DependencyGraph {
    let index = item_index(db, file);
    let resolution = name_resolution(db, file);
    let count = index.steps.len();
    let mut edges = Vec::new();
    for (i, step) in index.steps.iter().enumerate() {
        let to = StepId(i as u32);
        for (n, target) in resolution.dependencies[i].iter().enumerate() {
            if let Some(from) = target {
                edges.push(Edge {
                    from: *from,
                    to,
                    kind: EdgeKind::Control,
                    source: EdgeSource::Dependency(n as u32),
                });
            }
        }
        for (n, target) in resolution.references[i].iter().enumerate() {
            if let Target::Step(from) = target {
                let kind = if step.references[n].stream_source {
                    EdgeKind::Stream
                } else {
                    EdgeKind::Data
                };
                edges.push(Edge {
                    from: *from,
                    to,
                    kind,
                    source: EdgeSource::Reference(n as u32),
                });
            }
        }
    }

    let mut graph = DiGraph::<(), ()>::with_capacity(count, edges.len());
    for _ in 0..count {
        graph.add_node(());
    }
    let mut in_cycle = vec![false; count];
    for edge in &edges {
        if edge.from == edge.to {
            in_cycle[edge.from.index()] = true;
        } else {
            graph.update_edge(
                NodeIndex::new(edge.from.index()),
                NodeIndex::new(edge.to.index()),
                (),
            );
        }
    }
    // Components come dependents first; walk them dependencies first.
    let mut components = petgraph::algo::kosaraju_scc(&graph);
    components.reverse();
    let mut cycles = Vec::new();
    let mut levels: Vec<Option<u32>> = vec![None; count];
    let mut poisoned = vec![false; count];
    for component in &components {
        if component.len() > 1 {
            let mut members: Vec<StepId> =
                component.iter().map(|n| StepId(n.index() as u32)).collect();
            members.sort();
            for member in &members {
                in_cycle[member.index()] = true;
                poisoned[member.index()] = true;
            }
            cycles.push(members);
            continue;
        }
        let node = component[0];
        let step = node.index();
        let mut level = 0;
        poisoned[step] |= in_cycle[step];
        for dependency in graph.neighbors_directed(node, petgraph::Direction::Incoming) {
            poisoned[step] |= poisoned[dependency.index()];
            level = level.max(levels[dependency.index()].map_or(0, |l| l + 1));
        }
        levels[step] = (!poisoned[step]).then_some(level);
    }
    cycles.sort();
    DependencyGraph {
        edges,
        cycles,
        in_cycle,
        levels,
        instances: index.steps.iter().map(|s| s.instances).collect(),
    }
}
