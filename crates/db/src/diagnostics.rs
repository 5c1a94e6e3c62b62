//! Layer 6: the file's diagnostics. [`semantic_diagnostics`] works on the
//! position-free layers and anchors each diagnostic to a part of a step;
//! [`file_diagnostics`] places everything at byte ranges.

use easyflow_diagnostics::{Code, Diagnostic, Tag, TextRange};
use smol_str::SmolStr;

use crate::attributes::check_flow_attribute;
use crate::graph::{DependencyGraph, EdgeKind, EdgeSource, dependency_graph};
use crate::items::{FileOutline, StepId, file_outline, item_index, step_analysis};
use crate::resolve::{Target, name_resolution};
use crate::{Db, SourceFile, parse};
use easyflow_diagnostics::suggest::{closest, did_you_mean};

/// A part of the file, named without offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Anchor {
    StepName(StepId),
    /// The n-th `after`/`on` entry of a step.
    Dependency(StepId, u32),
    /// The first segment of a step's n-th reference.
    ReferenceHead(StepId, u32),
    /// A step's n-th reference, whole.
    Reference(StepId, u32),
    /// The m-th member segment (after the head) of a step's n-th reference.
    Member(StepId, u32, u32),
    /// The n-th required name.
    Require(u32),
    /// The n-th required capability, inside a step's `requires` value.
    Capability(StepId, u32),
    /// A step's `requires` value; its name when it has none.
    RequiresValue(StepId),
    /// A step's `memory` value.
    MemoryValue(StepId),
}

impl Anchor {
    /// Where an edge comes from: "the `after` entry or the reference"
    /// (`diagnostics.md`, E0302 and E0301), the whole reference.
    fn of_edge_source(step: StepId, source: EdgeSource) -> Anchor {
        match source {
            EdgeSource::Dependency(n) => Anchor::Dependency(step, n),
            EdgeSource::Reference(n) => Anchor::Reference(step, n),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnchoredDiagnostic {
    pub code: Code,
    pub anchor: Anchor,
    pub message: String,
    pub related: Vec<(Anchor, String)>,
    pub tags: Vec<Tag>,
}

impl AnchoredDiagnostic {
    pub(crate) fn new(code: Code, anchor: Anchor, message: String) -> Self {
        AnchoredDiagnostic {
            code,
            anchor,
            message,
            related: Vec::new(),
            tags: Vec::new(),
        }
    }

    fn related(mut self, anchor: Anchor, message: String) -> Self {
        self.related.push((anchor, message));
        self
    }

    fn unnecessary(mut self) -> Self {
        self.tags.push(Tag::Unnecessary);
        self
    }
}

/// Names, dependencies and cycles: E0201–E0205, W0206, I0209, W0210, E0301,
/// E0302, and E0402 for a stream read from a required file.
#[salsa::tracked(returns(ref))]
pub fn semantic_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<AnchoredDiagnostic> {
    let index = item_index(db, file);
    let resolution = name_resolution(db, file);
    let graph = dependency_graph(db, file);
    let mut out = Vec::new();
    let step_name = |id: StepId| index.steps[id.index()].name.as_deref().unwrap_or("?");
    // Suggestions never name the step itself: that would be E0302.
    let other_step_names = |id: StepId| {
        index
            .steps
            .iter()
            .filter_map(|s| s.name.as_deref())
            .filter(move |name| Some(*name) != index.steps[id.index()].name.as_deref())
    };

    for (i, name) in index.requires.iter().enumerate() {
        let anchor = Anchor::Require(i as u32);
        let first = resolution.files_by_name[name];
        if first != i as u32 {
            out.push(
                AnchoredDiagnostic::new(
                    Code::W0204,
                    anchor,
                    format!("file `{name}` is required twice"),
                )
                .related(
                    Anchor::Require(first),
                    format!("`{name}` is first required here"),
                )
                .unnecessary(),
            );
        } else if let Some(&step) = resolution.steps_by_name.get(name.as_str()) {
            out.push(
                AnchoredDiagnostic::new(
                    Code::E0205,
                    anchor,
                    format!("`{name}` is both a required file and a step (references to it mean the step); rename one of them"),
                )
                .related(Anchor::StepName(step), format!("step `{name}` is defined here")),
            );
        } else if resolution.file_uses[i] == 0 {
            out.push(
                AnchoredDiagnostic::new(
                    Code::W0206,
                    anchor,
                    format!("required file `{name}` is never used"),
                )
                .unnecessary(),
            );
        }
    }

    for (i, step) in index.steps.iter().enumerate() {
        let id = StepId(i as u32);
        if let Some(name) = &step.name {
            let first = resolution.steps_by_name[name];
            if first != id {
                out.push(
                    AnchoredDiagnostic::new(
                        Code::E0203,
                        Anchor::StepName(id),
                        format!("duplicate step `{name}`: rename one of the steps"),
                    )
                    .related(
                        Anchor::StepName(first),
                        format!("`{name}` is first defined here"),
                    ),
                );
            }
        }
        for (n, dependency) in step.dependencies.iter().enumerate() {
            let anchor = Anchor::Dependency(id, n as u32);
            let repeated = step.dependencies[..n]
                .iter()
                .any(|d| d.name == dependency.name);
            match resolution.dependencies[i][n] {
                None => {
                    let name = &dependency.name;
                    let message = if resolution.files_by_name.contains_key(name.as_str()) {
                        format!("`{name}` is a required file, not a step of this file")
                    } else {
                        let suggestion = closest(name, other_step_names(id));
                        format!(
                            "`{name}` is not a step of this file{}",
                            did_you_mean(suggestion)
                        )
                    };
                    out.push(AnchoredDiagnostic::new(Code::E0202, anchor, message));
                }
                // An `on` entry already has its E0408; its fix (`after`) may
                // then show this.
                Some(target) if target != id && !repeated && !dependency.via_on => {
                    let data_edge = graph
                        .edges_into(id)
                        .iter()
                        .find(|e| e.from == target && e.kind != EdgeKind::Control);
                    if let Some(edge) = data_edge {
                        out.push(
                            AnchoredDiagnostic::new(
                                Code::I0209,
                                anchor,
                                format!(
                                    "`after {}` is redundant: this step already reads `{}`'s outputs",
                                    dependency.name, dependency.name
                                ),
                            )
                            .related(
                                Anchor::of_edge_source(id, edge.source),
                                format!("`{}` is read here", dependency.name),
                            )
                            .unnecessary(),
                        );
                    }
                }
                Some(_) => {}
            }
        }
        for (n, reference) in step.references.iter().enumerate() {
            match resolution.references[i][n] {
                // The broken `require` already has its syntax error.
                Target::Unresolved
                    if index.unparsed_requires.iter().any(|r| *r == reference.head) => {}
                Target::Unresolved => {
                    let head = &reference.head;
                    let candidates =
                        other_step_names(id).chain(index.requires.iter().map(String::as_str));
                    // Files have no members: `X.outs` can only mean a step.
                    let fix = match closest(head, candidates) {
                        Some(suggestion) => did_you_mean(Some(suggestion)),
                        None if reference.members.is_empty() => {
                            format!("; if it is an input file, add `require {head};`")
                        }
                        None => String::new(),
                    };
                    out.push(AnchoredDiagnostic::new(
                        Code::E0201,
                        Anchor::ReferenceHead(id, n as u32),
                        format!("unresolved name `{head}`: not a step or a required file{fix}"),
                    ));
                }
                Target::File(_) if reference.stream_source => {
                    out.push(AnchoredDiagnostic::new(
                        Code::E0402,
                        Anchor::Reference(id, n as u32),
                        format!(
                            "a stream source must be a step's output, but `{}` is a required file",
                            reference.head
                        ),
                    ));
                }
                Target::File(_) => {}
                Target::Step(_) => {
                    if let Some(problem) = unknown_member(&reference.members) {
                        let (m, member, expected) = problem;
                        let owner = if m == 0 {
                            format!("step `{}`", reference.head)
                        } else {
                            format!("`{}.Result`", reference.head)
                        };
                        out.push(AnchoredDiagnostic::new(
                            Code::W0210,
                            Anchor::Member(id, n as u32, m as u32),
                            format!("unknown member `{member}` of {owner}: expected {expected}"),
                        ));
                    }
                }
            }
        }
    }

    for edge in graph
        .edges
        .iter()
        .filter(|e| DependencyGraph::is_self_edge(e))
    {
        let name = step_name(edge.to);
        let fix = match edge.source {
            EdgeSource::Dependency(n) => {
                let dependency = &index.steps[edge.to.index()].dependencies[n as usize];
                let list = if dependency.via_on { "on" } else { "after" };
                format!("remove it from its own `{list}` list")
            }
            EdgeSource::Reference(_) => "a step cannot read its own outputs".to_string(),
        };
        out.push(AnchoredDiagnostic::new(
            Code::E0302,
            Anchor::of_edge_source(edge.to, edge.source),
            format!("step `{name}` depends on itself: {fix}"),
        ));
    }
    for component in &graph.cycles {
        cycle_diagnostics(graph, component, &step_name, &mut out);
    }
    out
}

/// The first member segment that is not `outs`/`Result` (or `outs` after
/// `Result`): its position, name and what was expected.
fn unknown_member(members: &[SmolStr]) -> Option<(usize, &str, &'static str)> {
    match members.first().map(SmolStr::as_str) {
        None | Some("outs") => None,
        Some("Result") => match members.get(1).map(SmolStr::as_str) {
            None | Some("outs") => None,
            Some(other) => Some((1, other, "`outs`")),
        },
        Some(other) => Some((0, other, "`outs` or `Result`")),
    }
}

/// Components larger than this share one cycle path in their messages
/// instead of a shortest cycle per member (each costs a graph search).
const MAX_COMPONENT_FOR_PER_MEMBER_PATHS: usize = 32;

fn cycle_diagnostics<'a>(
    graph: &DependencyGraph,
    component: &[StepId],
    step_name: &impl Fn(StepId) -> &'a str,
    out: &mut Vec<AnchoredDiagnostic>,
) {
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
        let mut names: Vec<&str> = path.iter().map(|&s| step_name(s)).collect();
        names.push(step_name(path[0]));
        let mut diagnostic = AnchoredDiagnostic::new(
            Code::E0301,
            Anchor::StepName(member),
            format!("dependency cycle: {}", names.join(" → ")),
        );
        for (k, &from) in path.iter().enumerate() {
            let to = path[(k + 1) % path.len()];
            if let Some(edge) = graph.edges_into(to).iter().find(|e| e.from == from) {
                diagnostic = diagnostic.related(
                    Anchor::of_edge_source(to, edge.source),
                    format!("`{}` depends on `{}` here", step_name(to), step_name(from)),
                );
            }
        }
        out.push(diagnostic);
    }
}

/// Flow attributes: W0501, W0502, W0503.
fn flow_attribute_diagnostics(outline: &FileOutline<'_>, out: &mut Vec<Diagnostic>) {
    for (i, attribute) in outline.flow_attributes.iter().enumerate() {
        let Some((key, key_range)) = &attribute.key else {
            continue;
        };
        let first = outline.flow_attributes[..i].iter().find_map(|a| {
            a.key
                .as_ref()
                .filter(|(k, _)| k == key)
                .map(|(_, range)| *range)
        });
        if let Some(first) = first {
            out.push(
                Diagnostic::new(
                    Code::W0503,
                    *key_range,
                    format!("flow attribute `{key}` is set twice; the last value wins"),
                )
                .with_related(first, format!("`{key}` is first set here")),
            );
        }
        if let Some(problem) = check_flow_attribute(key, &attribute.value) {
            let range = if problem.on_value {
                attribute.value_range
            } else {
                Some(*key_range)
            };
            if let Some(range) = range {
                out.push(Diagnostic::new(problem.code, range, problem.message));
            }
        }
    }
}

/// Every diagnostic of the file at byte ranges, in the specification's order.
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    let mut out = parse(db, file).errors().to_vec();
    let outline = file_outline(db, file);
    for id in &item_index(db, file).steps_with_local_diagnostics {
        let Some(step) = outline.steps.get(id.index()) else {
            continue;
        };
        let analysis = step_analysis(db, step.node);
        out.extend(
            analysis
                .local_diagnostics
                .iter()
                .map(|d| d.clone().moved(|range| range + step.offset)),
        );
    }
    flow_attribute_diagnostics(outline, &mut out);
    let semantic = semantic_diagnostics(db, file);
    let fit = crate::fit::fit_diagnostics(db, file);
    if !semantic.is_empty() || !fit.is_empty() {
        let place = |anchor: Anchor| anchor_range(db, outline, anchor);
        for d in semantic.iter().chain(fit) {
            let Some(range) = place(d.anchor) else {
                continue;
            };
            let mut diagnostic = Diagnostic::new(d.code, range, d.message.clone());
            for (anchor, message) in &d.related {
                if let Some(range) = place(*anchor) {
                    diagnostic = diagnostic.with_related(range, message.clone());
                }
            }
            diagnostic.tags.clone_from(&d.tags);
            out.push(diagnostic);
        }
    }
    easyflow_diagnostics::sort(&mut out);
    out
}

/// Where an anchor is in the file now.
pub fn anchor_range(db: &dyn Db, outline: &FileOutline<'_>, anchor: Anchor) -> Option<TextRange> {
    if let Anchor::Require(n) = anchor {
        return outline.requires.get(n as usize).map(|r| r.range);
    }
    let (Anchor::StepName(step)
    | Anchor::Dependency(step, _)
    | Anchor::ReferenceHead(step, _)
    | Anchor::Reference(step, _)
    | Anchor::Member(step, _, _)
    | Anchor::Capability(step, _)
    | Anchor::RequiresValue(step)
    | Anchor::MemoryValue(step)) = anchor
    else {
        return None;
    };
    let outline_step = outline.steps.get(step.index())?;
    let anchors = &step_analysis(db, outline_step.node).anchors;
    let relative = match anchor {
        Anchor::StepName(_) => anchors.name?,
        Anchor::Dependency(_, n) => *anchors.dependencies.get(n as usize)?,
        Anchor::ReferenceHead(_, n) => anchors.references.get(n as usize)?.head,
        Anchor::Reference(_, n) => anchors.references.get(n as usize)?.whole,
        Anchor::Member(_, n, m) => *anchors
            .references
            .get(n as usize)?
            .members
            .get(m as usize)?,
        Anchor::Capability(_, n) => *anchors.capabilities.get(n as usize)?,
        Anchor::RequiresValue(_) => anchors.requires_value.or(anchors.name)?,
        Anchor::MemoryValue(_) => anchors.memory_value?,
        Anchor::Require(_) => return None,
    };
    Some(relative + outline_step.offset)
}
