//! The dependency graph rules: E0302 (a step depends on itself) and E0301
//! (a cycle). [`check`] finds them in the graph; one function per rule
//! writes its message.

use easyflow_diagnostics::Code;

use crate::anchor::{Anchor, AnchoredDiagnostic};
use crate::graph::{DependencyGraph, EdgeSource};
use crate::items::{ItemIndex, StepId};

/// Components larger than this share one cycle path in their messages
/// instead of a shortest cycle per member (each costs a graph search).
const MAX_COMPONENT_FOR_PER_MEMBER_PATHS: usize = 32;

/// Every self-dependency, then every cycle member.
pub(crate) fn check(index: &ItemIndex, graph: &DependencyGraph, out: &mut Vec<AnchoredDiagnostic>) {
    let step_name = |id: StepId| index.steps[id.index()].name.as_deref().unwrap_or("?");
    for edge in graph
        .edges
        .iter()
        .filter(|e| DependencyGraph::is_self_edge(e))
    {
        let list = match edge.source {
            EdgeSource::Dependency(n) => {
                let dependency = &index.steps[edge.to.index()].dependencies[n as usize];
                Some(if dependency.via_on { "on" } else { "after" })
            }
            EdgeSource::Reference(_) => None,
        };
        out.push(depends_on_itself(
            Anchor::of_edge_source(edge.to, edge.source),
            step_name(edge.to),
            list,
        ));
    }
    for component in &graph.cycles {
        let shared_path = (component.len() > MAX_COMPONENT_FOR_PER_MEMBER_PATHS)
            .then(|| graph.cycle_through(component[0], component));
        for &member in component {
            let path = match &shared_path {
                Some(path) => match path.iter().position(|&s| s == member) {
                    Some(at) => [&path[at..], &path[..at]].concat(),
                    None => path.clone(),
                },
                None => graph.cycle_through(member, component),
            };
            let edges = path.iter().enumerate().filter_map(|(k, &from)| {
                let to = path[(k + 1) % path.len()];
                let edge = graph.edges_into(to).iter().find(|e| e.from == from)?;
                Some((
                    Anchor::of_edge_source(to, edge.source),
                    step_name(to),
                    step_name(from),
                ))
            });
            out.push(dependency_cycle(
                Anchor::StepName(member),
                path.iter().map(|&s| step_name(s)),
                edges,
            ));
        }
    }
}

/// E0302 on the `after`/`on` entry (`list` names its list) or the reference
/// by which a step depends on itself.
fn depends_on_itself(at: Anchor, name: &str, list: Option<&str>) -> AnchoredDiagnostic {
    let fix = match list {
        Some(list) => format!("remove it from its own `{list}` list"),
        None => "a step cannot read its own outputs".to_string(),
    };
    AnchoredDiagnostic::new(
        Code::E0302,
        at,
        format!("step `{name}` depends on itself: {fix}"),
    )
}

/// E0301 on a cycle member's name: the cycle's path from it (back to it), and
/// each edge of the path as (where, dependent step, its dependency).
fn dependency_cycle<'a>(
    at: Anchor,
    path: impl Iterator<Item = &'a str>,
    edges: impl Iterator<Item = (Anchor, &'a str, &'a str)>,
) -> AnchoredDiagnostic {
    let mut names: Vec<&str> = path.collect();
    if let Some(&first) = names.first() {
        names.push(first);
    }
    let mut diagnostic = AnchoredDiagnostic::new(
        Code::E0301,
        at,
        format!("dependency cycle: {}", names.join(" → ")),
    );
    for (edge, to, from) in edges {
        diagnostic = diagnostic.with_related(edge, format!("`{to}` depends on `{from}` here"));
    }
    diagnostic
}
