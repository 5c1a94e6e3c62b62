//! Layer 5b: the dependency graph (`language.md` §3.2): control, data and
//! stream edges, cycles, levels and instance counts.

use std::collections::VecDeque;

use crate::items::{StepId, StepSummary, item_index};
use crate::levels::forward_levels;
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
    pub const ALL: [EdgeKind; 3] = [EdgeKind::Control, EdgeKind::Data, EdgeKind::Stream];

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
    /// Per step, where its edges start in `edges` (and their end last).
    into_starts: Vec<u32>,
}

/// Where a step stands in the parallel waves, and the one wording of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// Its wave.
    At(u32),
    /// On a cycle (or depends on itself): no level.
    InCycle,
    /// Downstream of a cycle: no level either.
    AfterCycle,
}

impl Level {
    /// `level 2`, `in a cycle`, or `level —` (a code lens, a label).
    pub fn label(self) -> String {
        match self {
            Level::At(level) => format!("level {level}"),
            Level::InCycle => "in a cycle".to_string(),
            Level::AfterCycle => "level —".to_string(),
        }
    }

    /// As [`Level::label`], saying why a step after a cycle has none.
    pub fn explained(self) -> String {
        match self {
            Level::AfterCycle => format!("{} (downstream of a cycle)", self.label()),
            _ => self.label(),
        }
    }
}

impl DependencyGraph {
    /// Where step `step` stands in the waves.
    pub fn level(&self, step: StepId) -> Level {
        match self.levels[step.index()] {
            Some(level) => Level::At(level),
            None if self.in_cycle[step.index()] => Level::InCycle,
            None => Level::AfterCycle,
        }
    }

    pub fn is_self_edge(edge: &Edge) -> bool {
        edge.from == edge.to
    }

    /// The edges into `step` (what it depends on), in source order.
    pub fn edges_into(&self, step: StepId) -> &[Edge] {
        match self.into_starts.get(step.index()..=step.index() + 1) {
            Some(&[start, end]) => &self.edges[start as usize..end as usize],
            _ => &[],
        }
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
    let per_step = index
        .steps
        .iter()
        .zip(resolution.dependencies.iter())
        .zip(resolution.references.iter());
    for (i, ((step, dependencies), references)) in per_step.enumerate() {
        edges.extend(edges_into_step(
            StepId(i as u32),
            step,
            dependencies,
            references,
        ));
    }

    // Successors (dependents) of each step, without self edges, in one
    // allocation (compressed rows): the graph of a large file is rebuilt
    // after every edit that changes a name or a reference.
    let mut in_cycle = vec![false; count];
    let mut starts = vec![0u32; count + 1];
    for edge in &edges {
        if edge.from == edge.to {
            in_cycle[edge.from.index()] = true;
        } else {
            starts[edge.from.index() + 1] += 1;
        }
    }
    for i in 0..count {
        starts[i + 1] += starts[i];
    }
    let mut fill = starts.clone();
    let mut successors = vec![0u32; starts[count] as usize];
    for edge in edges.iter().filter(|e| e.from != e.to) {
        let at = &mut fill[edge.from.index()];
        successors[*at as usize] = edge.to.0;
        *at += 1;
    }
    let successors = Successors {
        starts: &starts,
        targets: &successors,
    };
    // Where each step's edges start (they are ordered by dependent step).
    let mut into_starts: Vec<u32> = Vec::with_capacity(count + 1);
    let mut at = 0;
    for step in 0..=count {
        while at < edges.len() && edges[at].to.index() < step {
            at += 1;
        }
        into_starts.push(at as u32);
    }
    // Components come dependents first; walk them dependencies first.
    let components = strongly_connected_components(&successors);
    let mut cycles = Vec::new();
    let mut levels: Vec<Option<u32>> = vec![None; count];
    let mut poisoned = vec![false; count];
    for component in components.iter().rev() {
        if component.len() > 1 {
            let mut members: Vec<StepId> = component.iter().map(|&n| StepId(n)).collect();
            members.sort();
            for member in &members {
                in_cycle[member.index()] = true;
                poisoned[member.index()] = true;
            }
            cycles.push(members);
            continue;
        }
        let step = component[0] as usize;
        let mut level = 0;
        poisoned[step] |= in_cycle[step];
        let into = &edges[into_starts[step] as usize..into_starts[step + 1] as usize];
        for dependency in into.iter().map(|e| e.from.index()).filter(|&d| d != step) {
            poisoned[step] |= poisoned[dependency];
            level = level.max(levels[dependency].map_or(0, |l| l + 1));
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
        into_starts,
    }
}

/// The edges into step `to` (its summary `step`, and what its `after`/`on`
/// entries and references resolve to), in source order: the one place that
/// makes edges, for the graph and for the facts of one step.
fn edges_into_step<'a>(
    to: StepId,
    step: &'a StepSummary,
    dependencies: &'a [Option<StepId>],
    references: &'a [Target],
) -> impl Iterator<Item = Edge> + 'a {
    let control = dependencies
        .iter()
        .enumerate()
        .filter_map(move |(n, target)| {
            Some(Edge {
                from: (*target)?,
                to,
                kind: EdgeKind::Control,
                source: EdgeSource::Dependency(n as u32),
            })
        });
    let data = references
        .iter()
        .enumerate()
        .filter_map(move |(n, target)| {
            let Target::Step(from) = target else {
                return None;
            };
            Some(Edge {
                from: *from,
                to,
                kind: if step.references[n].stream_source {
                    EdgeKind::Stream
                } else {
                    EdgeKind::Data
                },
                source: EdgeSource::Reference(n as u32),
            })
        });
    control.chain(data)
}

/// Where step `step` stands in the waves: [`DependencyGraph::level`],
/// from [`forward_levels`] when every edge goes forward.
pub fn step_level(db: &dyn Db, file: SourceFile, step: StepId) -> Level {
    let forward = forward_levels(db, file).as_ref();
    match forward.and_then(|levels| levels.level(step)) {
        Some(level) => Level::At(level),
        None => dependency_graph(db, file).level(step),
    }
}

/// The edges into `step` (what it depends on), in source order:
/// [`DependencyGraph::edges_into`], from the step's own names.
pub fn step_edges_into(db: &dyn Db, file: SourceFile, step: StepId) -> Vec<Edge> {
    let index = item_index(db, file);
    let resolution = name_resolution(db, file);
    let Some(summary) = index.steps.get(step.index()) else {
        return Vec::new();
    };
    let i = step.index();
    edges_into_step(
        step,
        summary,
        &resolution.dependencies[i],
        &resolution.references[i],
    )
    .collect()
}

/// The edges out of `step` (into what depends on it), in the graph's order
/// (by dependent step, then source): the graph's edges from `step`, found
/// by a look at what each step's names resolve to, without the graph.
pub fn step_edges_from(db: &dyn Db, file: SourceFile, step: StepId) -> Vec<Edge> {
    let index = item_index(db, file);
    let resolution = name_resolution(db, file);
    let chunks = resolution
        .dependencies
        .chunks()
        .zip(resolution.references.chunks());
    let mut edges = Vec::new();
    for ((first, dependencies), (_, references)) in chunks {
        // Most chunks name `step` nowhere: one look at all their values.
        let names_it = |dependencies: &[Option<StepId>], references: &[Target]| {
            dependencies.contains(&Some(step)) || references.contains(&Target::Step(step))
        };
        if !names_it(dependencies.values(), references.values()) {
            continue;
        }
        for local in 0..dependencies.len() {
            let (dependencies, references) = (&dependencies[local], &references[local]);
            let Some(summary) = index.steps.get(first + local) else {
                continue;
            };
            if names_it(dependencies, references) {
                let to = StepId((first + local) as u32);
                edges.extend(
                    edges_into_step(to, summary, dependencies, references)
                        .filter(|edge| edge.from == step),
                );
            }
        }
    }
    edges
}

/// The dependents of each step (compressed rows).
struct Successors<'a> {
    starts: &'a [u32],
    targets: &'a [u32],
}

impl Successors<'_> {
    fn count(&self) -> usize {
        self.starts.len() - 1
    }

    fn of(&self, node: u32) -> &[u32] {
        &self.targets[self.starts[node as usize] as usize..self.starts[node as usize + 1] as usize]
    }
}

/// Tarjan's strongly connected components, without recursion (a chain of
/// 100,000 steps must not overflow the stack): each component once, a
/// component after every component it reaches (dependents first). Written
/// here because petgraph's Tarjan recurses and its Kosaraju (used before)
/// makes two passes through visitor maps, which dominated the cost of a
/// large file's graph; `tests/graph.rs` compares it with petgraph's.
fn strongly_connected_components(graph: &Successors<'_>) -> Components {
    const UNVISITED: u32 = u32::MAX;
    let count = graph.count();
    let mut index = vec![UNVISITED; count];
    let mut low = vec![0u32; count];
    let mut on_stack = vec![false; count];
    let mut stack: Vec<u32> = Vec::new();
    // The DFS: a node and how many of its successors were visited.
    let mut calls: Vec<(u32, usize)> = Vec::new();
    let mut next_index = 0u32;
    let mut components = Components {
        members: Vec::with_capacity(count),
        ends: Vec::new(),
    };
    for root in 0..count as u32 {
        if index[root as usize] != UNVISITED {
            continue;
        }
        calls.push((root, 0));
        while let Some(&mut (node, ref mut visited)) = calls.last_mut() {
            let n = node as usize;
            if *visited == 0 && index[n] == UNVISITED {
                index[n] = next_index;
                low[n] = next_index;
                next_index += 1;
                stack.push(node);
                on_stack[n] = true;
            }
            let successors = graph.of(node);
            if let Some(&next) = successors.get(*visited) {
                *visited += 1;
                let m = next as usize;
                if index[m] == UNVISITED {
                    calls.push((next, 0));
                } else if on_stack[m] {
                    low[n] = low[n].min(index[m]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent as usize] = low[parent as usize].min(low[n]);
            }
            if low[n] == index[n] {
                loop {
                    let member = stack.pop().expect("the node is on the stack");
                    on_stack[member as usize] = false;
                    components.members.push(member);
                    if member == node {
                        break;
                    }
                }
                components.ends.push(components.members.len() as u32);
            }
        }
    }
    components
}

/// Strongly connected components, in the order found, in one allocation.
struct Components {
    members: Vec<u32>,
    /// Where each component ends in `members`.
    ends: Vec<u32>,
}

impl Components {
    fn iter(&self) -> impl DoubleEndedIterator<Item = &[u32]> + '_ {
        self.ends.iter().enumerate().map(|(i, &end)| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] };
            &self.members[start as usize..end as usize]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn components_of(count: usize, edges: &[(u32, u32)]) -> Vec<Vec<u32>> {
        let mut starts = vec![0u32; count + 1];
        let mut sorted = edges.to_vec();
        sorted.sort();
        for &(from, _) in &sorted {
            starts[from as usize + 1] += 1;
        }
        for i in 0..count {
            starts[i + 1] += starts[i];
        }
        let targets: Vec<u32> = sorted.iter().map(|&(_, to)| to).collect();
        let graph = Successors {
            starts: &starts,
            targets: &targets,
        };
        strongly_connected_components(&graph)
            .iter()
            .map(<[u32]>::to_vec)
            .collect()
    }

    #[test]
    fn a_long_chain_does_not_overflow_the_stack() {
        let count = 200_000;
        let edges: Vec<(u32, u32)> = (1..count as u32).map(|i| (i - 1, i)).collect();
        let components = components_of(count, &edges);
        assert_eq!(components.len(), count);
        // Dependents first: the chain's end comes first.
        assert_eq!(components[0], [count as u32 - 1]);
    }

    proptest! {
        /// The same components as petgraph's Kosaraju, each after every
        /// component it reaches.
        #[test]
        fn tarjan_agrees_with_petgraph(
            count in 1usize..40,
            raw in proptest::collection::vec((0u32..40, 0u32..40), 0..80),
        ) {
            let edges: Vec<(u32, u32)> = raw
                .into_iter()
                .map(|(a, b)| (a % count as u32, b % count as u32))
                .collect();
            let components = components_of(count, &edges);
            let mut graph = petgraph::graph::DiGraph::<(), ()>::new();
            for _ in 0..count {
                graph.add_node(());
            }
            for &(from, to) in &edges {
                graph.add_edge(
                    petgraph::graph::NodeIndex::new(from as usize),
                    petgraph::graph::NodeIndex::new(to as usize),
                    (),
                );
            }
            let normalise = |mut components: Vec<Vec<u32>>| {
                for c in &mut components {
                    c.sort();
                }
                components.sort();
                components
            };
            let expected: Vec<Vec<u32>> = petgraph::algo::kosaraju_scc(&graph)
                .into_iter()
                .map(|c| c.into_iter().map(|n| n.index() as u32).collect())
                .collect();
            prop_assert_eq!(normalise(components.clone()), normalise(expected));
            let mut position = vec![0usize; count];
            for (i, component) in components.iter().enumerate() {
                for &member in component {
                    position[member as usize] = i;
                }
            }
            for &(from, to) in &edges {
                prop_assert!(position[to as usize] <= position[from as usize]);
            }
        }
    }
}
