//! The expanded workflow (`exports.md`): the flow as the exports see it,
//! built once from the graph the analysis already has. Sweeps are expanded
//! into instances (first swept parameter varying slowest), references are
//! resolved to the model's steps and files, and each step carries its
//! placement (`fit::step_placement`). The writers of `easyflow-export` are
//! views of this model and resolve nothing themselves.
//!
//! Step order is the output order of every export: topological (levels
//! first, then source order), so every reference names a step already
//! written.

use std::sync::Arc;

use easyflow_syntax::ast;
use easyflow_syntax::green::GreenRef;
use easyflow_syntax::value::{LiteralValue, Reference, Value, exact};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use smol_str::SmolStr;

use easyflow_catalog::{Catalog, Package};
use easyflow_topology::Topology;

use crate::catalog::{catalog_of, package_of};
use crate::fit::{StepPlacement, step_placement};
use crate::graph::{DependencyGraph, EdgeKind, EdgeSource, dependency_graph};
use crate::items::{ItemIndex, StepChunk, StepId, StepSummary, Sweep, file_outline, item_index};
use crate::resolve::name_resolution;
use crate::{Db, SourceFile, parse_topology};

/// The values of one step's parameters and attributes, position-free.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StepValues {
    /// In the order of its summary's parameters.
    pub params: Vec<Value>,
    /// In the order of its summary's attributes (those with a key).
    pub attributes: Vec<Value>,
    /// It has a `pre` or `post` code block.
    pub has_code: bool,
}

/// The values of a chunk's steps. Per chunk, so an edit re-reads only the
/// edited chunk.
#[salsa::tracked(returns(ref))]
pub fn chunk_values<'db>(db: &'db dyn Db, chunk: StepChunk<'db>) -> Vec<Arc<StepValues>> {
    chunk
        .syntax(db)
        .steps()
        .map(|step| step_values(step.green))
        .collect()
}

/// One step's values, from its tree.
fn step_values(green: &easyflow_syntax::GreenNodeData) -> Arc<StepValues> {
    let Some(root) = <ast::Step<GreenRef<'_>> as ast::AstNode>::cast(GreenRef::root(green)) else {
        return Arc::default();
    };
    let params = exact(
        root.param_block()
            .iter()
            .flat_map(|block| block.sections())
            .flat_map(|section| section.params())
            .map(|param| Value::of(param.value()))
            .collect(),
    );
    let attributes = exact(
        root.attributes()
            .filter(|attribute| attribute.key().is_some())
            .map(|attribute| Value::of(attribute.value()))
            .collect(),
    );
    Arc::new(StepValues {
        params,
        attributes,
        has_code: root.code_sections().next().is_some(),
    })
}

/// The flow, expanded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExpandedWorkflow {
    /// In output order (topological, then source order).
    pub steps: Vec<WorkflowStep>,
    /// The required files, each name once, in order.
    pub required_files: Vec<String>,
    /// The graph's edges between steps (positions in `steps`), ordered by
    /// dependent step (output order), then source order.
    pub edges: Vec<WorkflowEdge>,
    /// The worker types of the flow's topology (none without one).
    pub hosts: Vec<ComputeHost>,
    /// Instance ids equal to another step's name: the flow cannot be
    /// exported.
    pub collisions: Vec<IdCollision>,
    /// The flow's `name` and `description` attributes (a string's content;
    /// the last one written wins).
    pub name: Option<String>,
    pub description: Option<String>,
    /// The flow has a usable package catalog.
    pub has_catalog: bool,
    /// What each name a reference can start with names.
    names: FxHashMap<SmolStr, RefTarget>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkflowStep {
    /// Shared with the item index (no copy per step).
    pub name: SmolStr,
    /// `Package.Method`.
    pub package: SmolStr,
    pub long_running: bool,
    pub params: Vec<WorkflowParam>,
    /// One per instance, in instance order: `Step` alone, or `Step_0` … .
    pub instances: Vec<Instance>,
    /// The distinct output names other steps read, in order of first read.
    pub outputs_read: Vec<String>,
    /// Attribute keys with their values, in order.
    pub attributes: Vec<(String, Value)>,
    pub placement: StepPlacement,
    /// The distinct steps it depends on (positions in
    /// [`ExpandedWorkflow::steps`]), in the order of its first edge to each.
    pub depends_on: Vec<u32>,
    /// It has a `pre` or `post` code block.
    pub has_code: bool,
    /// How its package runs (`run.md` §1), when the catalog says so.
    pub run: Option<StepRun>,
}

/// How a step's package runs, from its catalog entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepRun {
    pub command: Vec<String>,
    pub container: Option<String>,
    pub cores: Option<u64>,
    /// The outputs the package declares, with the file each collects, in
    /// catalog order.
    pub outputs: Vec<RunOutput>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutput {
    pub name: String,
    /// The file pattern collected from the working directory.
    pub glob: String,
}

/// Where a parameter goes on its package's command line (`run.md` §2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamBinding {
    /// Its place among the positional arguments.
    pub position: Option<u64>,
    /// Written before the value (the default `--NAME` applied).
    pub prefix: Option<String>,
    /// Its index among the package's parameters (the catalog order).
    pub catalog_index: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkflowParam {
    pub name: SmolStr,
    /// Written with `<-`.
    pub stream: bool,
    pub swept: bool,
    /// The value as written (a sweep's whole list).
    pub value: SharedValue,
    /// Its place on the command line, when its package is catalogued and
    /// declares it (boxed: most flows have no catalog, and a step has
    /// several parameters).
    pub binding: Option<Box<ParamBinding>>,
}

/// One of a step's values, shared with the database's reading of the
/// step ([`chunk_values`]) rather than copied: a 100k-step flow's values
/// are a hundred megabytes. Reads as the [`Value`] it stands for.
#[derive(Clone)]
pub struct SharedValue {
    values: Arc<StepValues>,
    param: u32,
}

impl SharedValue {
    /// The value of the `param`-th parameter in `values`.
    fn param(values: &Arc<StepValues>, param: usize) -> SharedValue {
        SharedValue {
            values: values.clone(),
            param: param as u32,
        }
    }
}

impl std::ops::Deref for SharedValue {
    type Target = Value;

    /// [`Value::Invalid`] for a parameter without a value.
    fn deref(&self) -> &Value {
        static INVALID: Value = Value::Invalid;
        self.values
            .params
            .get(self.param as usize)
            .unwrap_or(&INVALID)
    }
}

impl PartialEq for SharedValue {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for SharedValue {}

impl std::fmt::Debug for SharedValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    pub id: String,
    /// Per swept parameter (a list), in parameter order, the index of
    /// this instance's element: the values themselves are the step's
    /// ([`WorkflowStep::values`]), never copied per instance.
    elements: Vec<u32>,
}

impl WorkflowStep {
    /// Per parameter, `instance`'s value (a swept parameter's element).
    pub fn values<'a>(&'a self, instance: &'a Instance) -> impl Iterator<Item = &'a Value> + 'a {
        let mut elements = instance.elements.iter();
        self.params.iter().map(move |param| match &*param.value {
            Value::List(list) if param.swept => {
                let element = elements.next().expect("an element per swept list");
                &list[*element as usize]
            }
            value => value,
        })
    }
}

/// What a reference's first segment names, in the model's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefTarget {
    /// A step, by its position in [`ExpandedWorkflow::steps`].
    Step(u32),
    /// A required file.
    File,
    /// Anything else (unresolved names are errors, so not exported).
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkflowEdge {
    /// The step depended on (position in `steps`).
    pub from: u32,
    pub to: u32,
    pub kind: EdgeKind,
    /// For data and stream edges: the output read and the parameter reading it.
    pub ports: Option<(String, String)>,
}

/// A worker type of the topology, as a compute host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComputeHost {
    /// The capability set as written (`compute+CPU`).
    pub id: String,
    /// Distinct capability names, sorted.
    pub capabilities: Vec<String>,
    /// PerNode × MaxNodes; `None` when started on all machines.
    pub slots: Option<u64>,
    /// Shm.
    pub memory_bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdCollision {
    pub step: String,
    pub id: String,
}

impl IdCollision {
    pub fn message(&self) -> String {
        format!(
            "instance `{}` of the swept step `{}` has the name of the step `{}`: rename one of them to export this flow",
            self.id, self.step, self.id
        )
    }
}

impl ExpandedWorkflow {
    /// What a reference names.
    pub fn target(&self, reference: &Reference) -> RefTarget {
        self.names
            .get(reference.head.as_str())
            .copied()
            .unwrap_or(RefTarget::Other)
    }
}

/// The expanded workflow of a file, from its item index, name resolution,
/// dependency graph, parameter values and topology. Computed for broken
/// flows too (hosts refuse to export those), without panicking.
#[salsa::tracked(returns(ref))]
pub fn expanded_workflow(db: &dyn Db, file: SourceFile) -> ExpandedWorkflow {
    let index = item_index(db, file);
    let outline = file_outline(db, file);
    let resolution = name_resolution(db, file);
    let graph = dependency_graph(db, file);
    let topology = file.topology(db).map(|t| parse_topology(db, t));
    let catalog = catalog_of(db, file);

    // Output order: levels first (steps on cycles last), then source order.
    let mut order: Vec<StepId> = (0..index.steps.len() as u32).map(StepId).collect();
    order.sort_by_key(|s| (graph.levels[s.index()].unwrap_or(u32::MAX), *s));
    let mut position = vec![0u32; index.steps.len()];
    for (at, step) in order.iter().enumerate() {
        position[step.index()] = at as u32;
    }

    let mut names = FxHashMap::default();
    for name in resolution.names.files_by_name.keys() {
        names.insert(SmolStr::new(name), RefTarget::File);
    }
    for (name, step) in &resolution.names.steps_by_name {
        names.insert(name.clone(), RefTarget::Step(position[step.index()]));
    }

    // The steps' values through the database (memoized per chunk, and read
    // on every core first by `Database::check_for_export`),
    // then each step on its own, on every core.
    let mut values_by_id: Vec<Option<Arc<StepValues>>> = vec![None; index.steps.len()];
    for chunk in &outline.chunks {
        let first = chunk.first as usize;
        for (values, slot) in chunk_values(db, chunk.node)
            .iter()
            .zip(values_by_id.iter_mut().skip(first))
        {
            *slot = Some(values.clone());
        }
    }
    let values: Vec<Arc<StepValues>> = order
        .iter()
        .map(|id| values_by_id[id.index()].take().unwrap_or_default())
        .collect();
    // Each step's edges go to their place in `edges` (the graph's edges in
    // output order), written by the task that builds the step: no second
    // copy of them.
    let count: usize = order.iter().map(|&id| graph.edges_into(id).len()).sum();
    let mut edges: Vec<WorkflowEdge> = (0..count)
        .map(|_| WorkflowEdge {
            from: 0,
            to: 0,
            kind: EdgeKind::Control,
            ports: None,
        })
        .collect();
    let mut edges_of_steps: Vec<&mut [WorkflowEdge]> = Vec::with_capacity(order.len());
    let mut rest = edges.as_mut_slice();
    for &id in &order {
        let (into, after) = std::mem::take(&mut rest).split_at_mut(graph.edges_into(id).len());
        edges_of_steps.push(into);
        rest = after;
    }
    let mut steps: Vec<WorkflowStep> = order
        .par_iter()
        .zip(values.par_iter())
        .zip(edges_of_steps.par_iter_mut())
        .with_min_len(256)
        .map(|((&id, values), edges)| {
            let mut step = workflow_step(&index.steps[id.index()], values, catalog, topology);
            fill_edges_into(&mut step, edges, id, graph, index, &position);
            step
        })
        .collect();

    // What each step's producers read of it, in the order first read.
    for edge in &edges {
        if edge.kind != EdgeKind::Control
            && let Some((output, _)) = &edge.ports
            && edge.from != edge.to
        {
            let producer = &mut steps[edge.from as usize];
            if !producer.outputs_read.contains(output) {
                producer.outputs_read.push(output.clone());
            }
        }
    }
    steps.par_iter_mut().with_min_len(256).for_each(|step| {
        step.outputs_read = exact(std::mem::take(&mut step.outputs_read));
    });

    let mut required_files: Vec<String> = Vec::new();
    for name in &index.requires {
        if !required_files.contains(name) {
            required_files.push(name.clone());
        }
    }

    let hosts = topology
        .map(|topology| {
            topology
                .workers
                .iter()
                .map(|worker| ComputeHost {
                    id: worker.name().to_string(),
                    capabilities: worker
                        .capability_set()
                        .into_iter()
                        .map(str::to_string)
                        .collect(),
                    slots: worker.slots(),
                    memory_bytes: worker.shm,
                })
                .collect()
        })
        .unwrap_or_default();

    let mut collisions = Vec::new();
    for step in &steps {
        if step.instances.len() > 1 {
            for instance in &step.instances {
                if resolution
                    .names
                    .steps_by_name
                    .contains_key(instance.id.as_str())
                {
                    collisions.push(IdCollision {
                        step: step.name.to_string(),
                        id: instance.id.clone(),
                    });
                }
            }
        }
    }

    let mut name = None;
    let mut description = None;
    for attribute in &outline.flow_attributes {
        match (&attribute.key, attribute.value.literal()) {
            (Some((key, _)), Some(LiteralValue::String(text))) if key == "name" => {
                name = Some(text.clone())
            }
            (Some((key, _)), Some(LiteralValue::String(text))) if key == "description" => {
                description = Some(text.clone())
            }
            _ => {}
        }
    }

    ExpandedWorkflow {
        steps,
        required_files,
        edges,
        hosts,
        collisions,
        name,
        description,
        has_catalog: catalog.is_some(),
        names,
    }
}

/// One step of the model, from its summary and values, before its edges.
fn workflow_step(
    summary: &StepSummary,
    values: &Arc<StepValues>,
    catalog: Option<&Catalog>,
    topology: Option<&Topology>,
) -> WorkflowStep {
    let package = package_of(catalog, summary);
    let params: Vec<WorkflowParam> = summary
        .params
        .iter()
        .enumerate()
        .map(|(i, param)| {
            let name = param.name.clone().unwrap_or_default();
            WorkflowParam {
                binding: package.and_then(|package| param_binding(package, &name)),
                name,
                stream: param.stream,
                swept: matches!(param.sweep(), Sweep::List(_)),
                value: SharedValue::param(values, i),
            }
        })
        .collect();
    let name = summary.name.clone().unwrap_or_default();
    WorkflowStep {
        instances: expand(&name, &params),
        name,
        package: summary.package.clone().unwrap_or_default(),
        long_running: summary.long_running,
        params,
        outputs_read: Vec::new(),
        attributes: summary
            .attributes
            .iter()
            .map(|(key, _)| key.clone())
            .zip(values.attributes.iter().cloned())
            .collect(),
        placement: step_placement(topology, summary, package),
        depends_on: Vec::new(),
        has_code: values.has_code,
        run: package.and_then(step_run),
    }
}

/// The graph's edges into `step` (the step `id`) into `edges`, with the
/// output and parameter of each data edge, in the graph's order; fills
/// the steps it depends on.
fn fill_edges_into(
    step: &mut WorkflowStep,
    edges: &mut [WorkflowEdge],
    id: StepId,
    graph: &DependencyGraph,
    index: &ItemIndex,
    position: &[u32],
) {
    let to = position[id.index()];
    for (edge, slot) in graph.edges_into(id).iter().zip(edges) {
        let from = position[edge.from.index()];
        let ports = match edge.source {
            EdgeSource::Dependency(_) => None,
            EdgeSource::Reference(n) => {
                let references = &index.steps[id.index()].references;
                let reference = &references[n as usize];
                // The summary lists references in text order, parameter
                // by parameter, as `Value::references` does.
                let within = references[..n as usize]
                    .iter()
                    .filter(|r| r.param == reference.param)
                    .count();
                let param = &step.params[reference.param as usize];
                let output = param
                    .value
                    .references()
                    .get(within)
                    .map(|r| r.output.clone())
                    .unwrap_or_default();
                Some((output, param.name.to_string()))
            }
        };
        if from != to && !step.depends_on.contains(&from) {
            step.depends_on.push(from);
        }
        *slot = WorkflowEdge {
            from,
            to,
            kind: edge.kind,
            ports,
        };
    }
    step.depends_on = exact(std::mem::take(&mut step.depends_on));
}

/// A declared parameter's place on its package's command line.
fn param_binding(package: &Package, name: &str) -> Option<Box<ParamBinding>> {
    let index = package.params.iter().position(|p| p.name == name)?;
    let param = &package.params[index];
    Some(Box::new(ParamBinding {
        position: param.position,
        prefix: param.command_line_prefix(),
        catalog_index: index as u32,
    }))
}

fn step_run(package: &Package) -> Option<StepRun> {
    let run = package.run.as_ref()?;
    Some(StepRun {
        command: run.command.clone(),
        container: run.container.clone(),
        cores: run.cores,
        outputs: package
            .outputs
            .iter()
            .map(|output| RunOutput {
                name: output.name.clone(),
                glob: output.file_pattern().to_string(),
            })
            .collect(),
    })
}

/// A step's instances: the cartesian product of its swept lists, the first
/// swept parameter varying slowest; ids `Step_i` when there are several.
fn expand(name: &str, params: &[WorkflowParam]) -> Vec<Instance> {
    let swept: Vec<&[Value]> = params
        .iter()
        .filter(|p| p.swept)
        .filter_map(|p| match &*p.value {
            Value::List(elements) => Some(elements.as_slice()),
            _ => None,
        })
        .collect();
    let count: usize = swept.iter().map(|list| list.len()).product();
    let mut instances = Vec::with_capacity(count);
    for n in 0..count {
        // Mixed radix, the last swept parameter the fastest digit.
        let mut elements = vec![0; swept.len()];
        let mut rest = n;
        for (element, list) in elements.iter_mut().zip(&swept).rev() {
            *element = (rest % list.len()) as u32;
            rest /= list.len();
        }
        let id = if count == 1 {
            name.to_string()
        } else {
            format!("{name}_{n}")
        };
        instances.push(Instance { id, elements });
    }
    instances
}
