//! `--to cwl` (`run.md` §3): a packed CWL v1.2 document that CWL engines
//! (cwltool, Toil) run unchanged. One `CommandLineTool` per step, whose
//! inputs are the pieces of the step's command line (`run.md` §2) in order,
//! each at a position of its own: the literal pieces as data (a step
//! input's `default`, never text the engine evaluates), the files as links
//! from the workflow's inputs or other steps' outputs. A swept step scatters
//! over its swept parameters with `flat_crossproduct`, in the order they
//! are written, so its instances run in the order of `exports.md`.
//!
//! CWL has no pure control edge: a dependency that no file on the command
//! line carries (`after`, a reference inside an index) is a link from the
//! predecessor's standard output into an input that is not on the command
//! line.
//!
//! [`refusals`] says why a flow cannot be written; [`write`] writes any
//! workflow [`refusals`] accepts.

use std::io::{self, Write};

use easyflow_db::ExpandedWorkflow;
use easyflow_db::workflow::{ParamBinding, RefTarget, WorkflowParam, WorkflowStep};
use easyflow_syntax::value::{LiteralValue, Reference, Value};
use serde::{Serialize, Serializer};

use crate::{Concat, Seq, write_json};

/// Why the flow cannot be written as CWL (`run.md` §3, "Refused"): every
/// reason, each naming what it is about; empty when it can.
pub fn refusals(workflow: &ExpandedWorkflow) -> Vec<String> {
    let mut reasons = Vec::new();
    if !workflow.has_catalog {
        reasons.push(
            "no package catalog: running a flow needs each package's `[package.run]` (see docs/run.md)"
                .to_string(),
        );
    }
    for step in &workflow.steps {
        if workflow.has_catalog && step.run.is_none() {
            reasons.push(format!(
                "step `{}`: its package `{}` has no `[package.run]` in the catalog, so it cannot run",
                step.name, step.package
            ));
        }
        if step.has_code {
            reasons.push(format!(
                "step `{}` has a `pre` or `post` code block, which CWL cannot run",
                step.name
            ));
        }
        for param in &step.params {
            let mut references = param.value.references();
            references.dedup_by(|a, b| a.text == b.text);
            for reference in references {
                match workflow.target(reference) {
                    RefTarget::Step(_) if !reference.indexed => reasons.push(format!(
                        "step `{}`, parameter `{}`: `{}` names no single output; name one with an index (`{}.outs[\"FILE\"]`)",
                        step.name, param.name, reference.text, reference.head
                    )),
                    RefTarget::Other => reasons.push(format!(
                        "step `{}`, parameter `{}`: `{}` names a package, which a command line cannot take",
                        step.name, param.name, reference.text
                    )),
                    _ => {}
                }
            }
            if param.swept && sweep_kind(workflow, &param.value).is_none() {
                reasons.push(format!(
                    "step `{}`, parameter `{}`: a sweep whose elements mix values and references, or hold lists of references, cannot be written without expressions; sweep over plain values or over single references",
                    step.name, param.name
                ));
            }
        }
        let outputs = tool_outputs(step);
        for (i, (name, id, _)) in outputs.iter().enumerate() {
            if name == STDOUT {
                reasons.push(format!(
                    "step `{}`: an output named `stdout` collides with the step's standard output",
                    step.name
                ));
            } else if let Some((first, _, _)) =
                outputs[..i].iter().find(|(_, other, _)| other == id)
            {
                reasons.push(format!(
                    "step `{}`: the outputs `{first}` and `{name}` both become `{}.{id}`; rename one of them",
                    step.name, step.name
                ));
            }
        }
    }
    reasons
}

/// What runs differently than the flow says: each stream parameter runs as
/// a data dependency (`run.md` §3, "Streams").
pub fn notes(workflow: &ExpandedWorkflow) -> Vec<String> {
    let mut notes = Vec::new();
    for step in &workflow.steps {
        for param in step.params.iter().filter(|p| p.stream) {
            notes.push(format!(
                "stream `{}.{} <- {}` runs as a data dependency",
                step.name,
                param.name,
                param.value.text()
            ));
        }
    }
    notes
}

const STDOUT: &str = "stdout";

/// The document, serialized as it is built: each step's [`StepPlan`] is
/// made once, then the workflow and the tools are written from the plans
/// straight into `out` (no JSON tree: a 10k-step flow's document is tens
/// of megabytes).
pub(crate) fn write(workflow: &ExpandedWorkflow, out: &mut dyn Write) -> io::Result<()> {
    let plans: Vec<StepPlan> = workflow
        .steps
        .iter()
        .map(|step| plan(workflow, step))
        .collect();
    let document = Document {
        cwl_version: "v1.2",
        graph: Seq(|| {
            std::iter::once(GraphEntry::Main(main(workflow, &plans)))
                .chain(plans.iter().map(GraphEntry::Tool))
        }),
    };
    write_json(&document, out)
}

#[derive(Serialize)]
struct Document<G> {
    #[serde(rename = "cwlVersion")]
    cwl_version: &'static str,
    #[serde(rename = "$graph")]
    graph: G,
}

#[derive(Serialize)]
#[serde(untagged)]
enum GraphEntry<'a, M> {
    Main(M),
    Tool(&'a StepPlan<'a>),
}

/// An object `{"class": CLASS}`.
#[derive(Serialize)]
struct Class {
    class: &'static str,
}

/// The workflow `#main`.
fn main<'a>(workflow: &'a ExpandedWorkflow, plans: &'a [StepPlan<'a>]) -> impl Serialize + 'a {
    #[derive(Serialize)]
    struct Main<'a, I, O, S> {
        class: &'static str,
        id: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        label: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        doc: Option<&'a str>,
        requirements: [Class; 2],
        inputs: I,
        outputs: O,
        steps: S,
    }
    #[derive(Serialize)]
    struct Input<'a> {
        id: Concat<'a, 2>,
        #[serde(rename = "type")]
        ty: CwlType,
    }
    #[derive(Serialize)]
    struct Output<'a> {
        id: Concat<'a, 4>,
        #[serde(rename = "type")]
        ty: CwlType,
        #[serde(rename = "outputSource")]
        output_source: Concat<'a, 4>,
    }
    Main {
        class: "Workflow",
        id: "#main",
        label: workflow.name.as_deref(),
        doc: workflow.description.as_deref(),
        requirements: [
            Class {
                class: "ScatterFeatureRequirement",
            },
            Class {
                class: "MultipleInputFeatureRequirement",
            },
        ],
        inputs: Seq(|| {
            workflow.required_files.iter().map(|name| Input {
                id: Concat(["#main/", name]),
                ty: CwlType::File,
            })
        }),
        outputs: Seq(|| {
            plans.iter().flat_map(|plan| {
                let name = plan.step.name.as_str();
                let ty = if plan.scattered {
                    CwlType::FileArray
                } else {
                    CwlType::File
                };
                let declared = plan.step.run.as_ref().map_or(0, |run| run.outputs.len());
                plan.outputs
                    .iter()
                    .take(declared)
                    .map(|(_, id, _)| id.as_str())
                    .chain([STDOUT])
                    .map(move |id| Output {
                        id: Concat(["#main/", name, ".", id]),
                        ty,
                        output_source: Concat(["#main/", name, "/", id]),
                    })
            })
        }),
        steps: Seq(|| plans.iter().map(WorkflowStepEntry)),
    }
}

/// The types the document uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CwlType {
    File,
    Stdout,
    FileArray,
    StringArray,
    /// A swept input whose elements are single files for some instances
    /// and the files of a swept producer for others.
    FileOrFileArray,
}

impl Serialize for CwlType {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Array {
            #[serde(rename = "type")]
            ty: &'static str,
            items: &'static str,
        }
        let array = |items| Array { ty: "array", items };
        match self {
            CwlType::File => serializer.serialize_str("File"),
            CwlType::Stdout => serializer.serialize_str(STDOUT),
            CwlType::FileArray => array("File").serialize(serializer),
            CwlType::StringArray => array("string").serialize(serializer),
            CwlType::FileOrFileArray => ("File", array("File")).serialize(serializer),
        }
    }
}

/// A step of `#main`: its inputs, each linked to its slot's data or
/// sources, or to a predecessor's standard output; its outputs; its
/// scatter.
struct WorkflowStepEntry<'a>(&'a StepPlan<'a>);

impl Serialize for WorkflowStepEntry<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Step<'a, I, O, C> {
            id: Concat<'a, 2>,
            run: Concat<'a, 3>,
            #[serde(rename = "in")]
            inputs: I,
            out: O,
            #[serde(skip_serializing_if = "Option::is_none")]
            scatter: Option<C>,
            #[serde(rename = "scatterMethod", skip_serializing_if = "Option::is_none")]
            scatter_method: Option<&'static str>,
        }
        #[derive(Serialize)]
        struct Default<'a, T> {
            id: Concat<'a, 4>,
            default: T,
        }
        #[derive(Serialize)]
        struct Sources<'a> {
            id: Concat<'a, 4>,
            source: &'a [String],
            #[serde(rename = "linkMerge")]
            link_merge: &'static str,
        }
        #[derive(Serialize)]
        struct After<'a> {
            id: Concat<'a, 4>,
            source: Concat<'a, 4>,
        }
        #[derive(Serialize)]
        #[serde(untagged)]
        enum In<'a> {
            Flat(Default<'a, &'a [String]>),
            PerElement(Default<'a, &'a [Vec<String>]>),
            Sources(Sources<'a>),
            After(After<'a>),
        }
        let plan = self.0;
        let name = plan.step.name.as_str();
        let slot_inputs = plan.slots.iter().map(move |(id, slot)| {
            let id = Concat(["#main/", name, "/", id]);
            match slot {
                Slot::Texts(texts) => In::Flat(Default { id, default: texts }),
                Slot::SweptTexts(texts) => In::PerElement(Default { id, default: texts }),
                Slot::Files(sources) => In::Sources(Sources {
                    id,
                    source: sources,
                    link_merge: "merge_flattened",
                }),
                Slot::SweptFiles { sources, .. } => In::Sources(Sources {
                    id,
                    source: sources,
                    link_merge: "merge_nested",
                }),
            }
        });
        let after_inputs = plan.after.iter().map(move |producer| {
            In::After(After {
                id: Concat(["#main/", name, "/after-", &producer.name]),
                source: Concat(["#main/", &producer.name, "/", STDOUT]),
            })
        });
        let scattered = plan.scattered;
        Step {
            id: Concat(["#main/", name]),
            run: Concat(["#", name, ".tool"]),
            inputs: Seq(|| slot_inputs.clone().chain(after_inputs.clone())),
            out: Seq(|| {
                plan.outputs
                    .iter()
                    .map(|(_, id, _)| id.as_str())
                    .chain([STDOUT])
                    .map(move |id| Concat(["#main/", name, "/", id]))
            }),
            scatter: scattered.then_some(Seq(move || {
                plan.scatter
                    .iter()
                    .map(move |id| Concat(["#main/", name, "/", id]))
            })),
            scatter_method: scattered.then_some("flat_crossproduct"),
        }
        .serialize(serializer)
    }
}

/// The `CommandLineTool` a step runs: an input per slot, at its position;
/// an input per predecessor carried by its standard output, on no
/// position; its files, and its standard output as `STEP.stdout`.
impl Serialize for StepPlan<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Tool<'a, I, O> {
            class: &'static str,
            id: Concat<'a, 3>,
            label: &'a str,
            #[serde(rename = "baseCommand")]
            base_command: &'a [String],
            inputs: I,
            outputs: O,
            stdout: Concat<'a, 3>,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            hints: Vec<Hint<'a>>,
        }
        #[derive(Serialize)]
        struct Position {
            position: usize,
        }
        #[derive(Serialize)]
        struct Input<'a> {
            id: Concat<'a, 4>,
            #[serde(rename = "type")]
            ty: CwlType,
            #[serde(rename = "inputBinding", skip_serializing_if = "Option::is_none")]
            input_binding: Option<Position>,
        }
        #[derive(Serialize)]
        struct Glob<'a> {
            glob: &'a str,
        }
        #[derive(Serialize)]
        struct Output<'a> {
            id: Concat<'a, 4>,
            #[serde(rename = "type")]
            ty: CwlType,
            #[serde(rename = "outputBinding", skip_serializing_if = "Option::is_none")]
            output_binding: Option<Glob<'a>>,
        }
        #[derive(Serialize)]
        #[serde(tag = "class")]
        enum Hint<'a> {
            ResourceRequirement {
                #[serde(rename = "coresMin", skip_serializing_if = "Option::is_none")]
                cores_min: Option<u64>,
                #[serde(rename = "ramMin", skip_serializing_if = "Option::is_none")]
                ram_min: Option<u64>,
            },
            DockerRequirement {
                #[serde(rename = "dockerPull")]
                docker_pull: &'a str,
            },
        }
        let step = self.step;
        let name = step.name.as_str();
        let run = step.run.as_ref();
        let mut hints = Vec::new();
        let cores_min = run.and_then(|run| run.cores);
        let ram_min = step
            .placement
            .memory_bytes
            .map(|bytes| bytes.div_ceil(1024 * 1024));
        if cores_min.is_some() || ram_min.is_some() {
            hints.push(Hint::ResourceRequirement { cores_min, ram_min });
        }
        if let Some(container) = run.and_then(|run| run.container.as_deref()) {
            hints.push(Hint::DockerRequirement {
                docker_pull: container,
            });
        }
        Tool {
            class: "CommandLineTool",
            id: Concat(["#", name, ".tool"]),
            label: &step.package,
            base_command: run.map_or(&[], |run| &run.command),
            inputs: Seq(|| {
                let slots = self.slots.iter().enumerate().map(|(n, (id, slot))| Input {
                    id: Concat(["#", name, ".tool/", id]),
                    ty: slot.cwl_type(),
                    input_binding: Some(Position { position: n + 1 }),
                });
                let after = self.after.iter().map(|producer| Input {
                    id: Concat(["#", name, ".tool/after-", &producer.name]),
                    ty: if is_scattered(producer) {
                        CwlType::FileArray
                    } else {
                        CwlType::File
                    },
                    input_binding: None,
                });
                slots.chain(after)
            }),
            outputs: Seq(|| {
                let files = self.outputs.iter().map(|(_, id, glob)| Output {
                    id: Concat(["#", name, ".tool/", id]),
                    ty: CwlType::File,
                    output_binding: Some(Glob { glob }),
                });
                files.chain([Output {
                    id: Concat(["#", name, ".tool/", STDOUT]),
                    ty: CwlType::Stdout,
                    output_binding: None,
                }])
            }),
            stdout: Concat([name, ".", STDOUT]),
            hints,
        }
        .serialize(serializer)
    }
}

/// A step runs as a scatter unless it has exactly one instance (an empty
/// sweep scatters over nothing).
fn is_scattered(step: &WorkflowStep) -> bool {
    step.instances.len() != 1
}

/// The tool's file outputs: the package's declared outputs (catalog order),
/// then the outputs others read that it does not declare; each as
/// (name, id, glob).
fn tool_outputs(step: &WorkflowStep) -> Vec<(String, String, String)> {
    let mut outputs: Vec<(String, String, String)> = step
        .run
        .iter()
        .flat_map(|run| &run.outputs)
        .map(|output| {
            (
                output.name.clone(),
                output_id(&output.name),
                output.glob.clone(),
            )
        })
        .collect();
    for name in &step.outputs_read {
        if !outputs.iter().any(|(declared, _, _)| declared == name) {
            outputs.push((name.clone(), output_id(name), name.clone()));
        }
    }
    outputs
}

/// An output's name as an id: characters other than letters, digits, `_`,
/// `-` and `.` become `_`.
fn output_id(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// One piece of a command line.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    /// One argument, as data.
    Text(String),
    /// The files of a link (a workflow input or a step's output), one
    /// argument each, and the step that gives them.
    Files(String, Option<u32>),
}

/// How a swept parameter can be written: over plain values, or over single
/// references; `None` when neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SweepKind {
    Values,
    References,
}

fn sweep_kind(workflow: &ExpandedWorkflow, value: &Value) -> Option<SweepKind> {
    let Value::List(elements) = value else {
        return Some(SweepKind::Values);
    };
    if elements.iter().all(Value::is_literal) {
        return Some(SweepKind::Values);
    }
    elements
        .iter()
        .all(|e| {
            matches!(e, Value::Ref(r) if matches!(workflow.target(r), RefTarget::File | RefTarget::Step(_)))
        })
        .then_some(SweepKind::References)
}

/// A tool input: a run of pieces at one position.
enum Slot {
    /// Arguments given as data.
    Texts(Vec<String>),
    /// A swept parameter over values: the arguments of each element.
    SweptTexts(Vec<Vec<String>>),
    /// Files linked from their sources, one argument each, in order.
    Files(Vec<String>),
    /// A swept parameter over single references: each instance gets its
    /// element's files (a File, or the Files of a swept producer).
    SweptFiles { sources: Vec<String>, ty: CwlType },
}

impl Slot {
    /// The type of the tool's input (before scattering).
    fn cwl_type(&self) -> CwlType {
        match self {
            Slot::Texts(_) | Slot::SweptTexts(_) => CwlType::StringArray,
            Slot::Files(_) => CwlType::FileArray,
            Slot::SweptFiles { ty, .. } => *ty,
        }
    }
}

/// What the document says of one step, worked out once: the workflow step
/// and its tool are both written from it.
struct StepPlan<'w> {
    step: &'w WorkflowStep,
    scattered: bool,
    /// The tool's positional inputs, in command-line order, each with its
    /// id (the parameter's name, `NAME-1`, … for its further runs).
    slots: Vec<(String, Slot)>,
    /// The ids of the swept slots, in the order the parameters are written
    /// (the first varies slowest).
    scatter: Vec<String>,
    /// The steps it depends on that no file on its command line carries:
    /// each is carried by its standard output, off the command line.
    after: Vec<&'w WorkflowStep>,
    /// [`tool_outputs`].
    outputs: Vec<(String, String, String)>,
}

fn plan<'w>(workflow: &'w ExpandedWorkflow, step: &'w WorkflowStep) -> StepPlan<'w> {
    let scattered = is_scattered(step);

    // The parameters in command-line order: positional ones by position
    // (ties: catalog order), then the others in catalog order.
    let default_binding = |param: &WorkflowParam| ParamBinding {
        position: None,
        prefix: Some(format!("--{}", param.name)),
        catalog_index: u32::MAX,
    };
    let mut order: Vec<(usize, ParamBinding)> = step
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (
                i,
                p.binding
                    .as_deref()
                    .cloned()
                    .unwrap_or_else(|| default_binding(p)),
            )
        })
        .collect();
    order.sort_by_key(|(_, b)| (b.position.is_none(), b.position, b.catalog_index));

    let mut slots: Vec<(String, Slot)> = Vec::new();
    let mut scatter: Vec<(usize, String)> = Vec::new();
    let mut carried: Vec<u32> = Vec::new();
    for (i, binding) in &order {
        let param = &step.params[*i];
        let mut param_slots: Vec<Slot> = Vec::new();
        let mut swept_slot = None;
        if scattered && param.swept {
            let elements: &[Value] = match &*param.value {
                Value::List(elements) => elements,
                _ => &[],
            };
            match sweep_kind(workflow, &param.value) {
                Some(SweepKind::References) => {
                    if let Some(prefix) = &binding.prefix {
                        param_slots.push(Slot::Texts(vec![prefix.clone()]));
                    }
                    let mut sources = Vec::new();
                    let mut types = Vec::new();
                    for element in elements {
                        if let Value::Ref(reference) = element {
                            let (source, many) = source_of(workflow, reference);
                            if let RefTarget::Step(producer) = workflow.target(reference)
                                && !carried.contains(&producer)
                            {
                                carried.push(producer);
                            }
                            sources.push(source);
                            types.push(many);
                        }
                    }
                    let ty = match (types.iter().any(|m| *m), types.iter().all(|m| *m)) {
                        (true, true) => CwlType::FileArray,
                        (true, false) => CwlType::FileOrFileArray,
                        _ => CwlType::File,
                    };
                    swept_slot = Some(param_slots.len());
                    param_slots.push(Slot::SweptFiles { sources, ty });
                }
                _ => {
                    let per_element = elements
                        .iter()
                        .map(|element| {
                            pieces(workflow, binding, element)
                                .into_iter()
                                .filter_map(|piece| match piece {
                                    Piece::Text(text) => Some(text),
                                    Piece::Files(..) => None,
                                })
                                .collect()
                        })
                        .collect();
                    swept_slot = Some(param_slots.len());
                    param_slots.push(Slot::SweptTexts(per_element));
                }
            }
        } else {
            // Unswept (or a step of one instance, whose swept values are
            // that instance's).
            let value = if scattered {
                &param.value
            } else {
                step.values(&step.instances[0])
                    .nth(*i)
                    .expect("a value per parameter")
            };
            for piece in pieces(workflow, binding, value) {
                if let Piece::Files(_, Some(producer)) = piece
                    && !carried.contains(&producer)
                {
                    carried.push(producer);
                }
                match (piece, param_slots.last_mut()) {
                    (Piece::Text(text), Some(Slot::Texts(texts))) => texts.push(text),
                    (Piece::Text(text), _) => param_slots.push(Slot::Texts(vec![text])),
                    (Piece::Files(source, _), Some(Slot::Files(sources))) => sources.push(source),
                    (Piece::Files(source, _), _) => param_slots.push(Slot::Files(vec![source])),
                }
            }
        }
        for (n, slot) in param_slots.into_iter().enumerate() {
            let id = if n == 0 {
                param.name.to_string()
            } else {
                format!("{}-{n}", param.name)
            };
            if swept_slot == Some(n) {
                scatter.push((*i, id.clone()));
            }
            slots.push((id, slot));
        }
    }
    // The swept parameters in the order they are written: the first varies
    // slowest.
    scatter.sort_by_key(|(i, _)| *i);

    let after = step
        .depends_on
        .iter()
        .filter(|dependency| !carried.contains(dependency))
        .map(|&dependency| &workflow.steps[dependency as usize])
        .collect();
    StepPlan {
        step,
        scattered,
        slots,
        scatter: scatter.into_iter().map(|(_, id)| id).collect(),
        after,
        outputs: tool_outputs(step),
    }
}

/// The pieces one parameter gives for one value (`run.md` §2): a
/// non-positional Bool is its prefix alone when true and nothing when
/// false; anything else its prefix (if any), then its arguments.
fn pieces(workflow: &ExpandedWorkflow, binding: &ParamBinding, value: &Value) -> Vec<Piece> {
    let mut out = Vec::new();
    if let Value::Literal(literal) = value
        && let LiteralValue::Bool(flag) = literal.kind
        && binding.position.is_none()
    {
        if let (true, Some(prefix)) = (flag, &binding.prefix) {
            out.push(Piece::Text(prefix.clone()));
        }
        return out;
    }
    if let Some(prefix) = &binding.prefix {
        out.push(Piece::Text(prefix.clone()));
    }
    arguments(workflow, value, &mut out);
    out
}

/// A value's arguments: a literal is one (a string's content, a number as
/// written, a constant without `@`); a list one per element (nested lists
/// flattened); a reference its files.
fn arguments(workflow: &ExpandedWorkflow, value: &Value, out: &mut Vec<Piece>) {
    match value {
        Value::Literal(literal) => out.push(Piece::Text(match &literal.kind {
            LiteralValue::String(content) => content.clone(),
            LiteralValue::Constant(name) => name.clone(),
            _ => literal.text.to_string(),
        })),
        Value::List(elements) => elements.iter().for_each(|e| arguments(workflow, e, out)),
        Value::Ref(reference) => match workflow.target(reference) {
            RefTarget::File => out.push(Piece::Files(source_of(workflow, reference).0, None)),
            RefTarget::Step(producer) => out.push(Piece::Files(
                source_of(workflow, reference).0,
                Some(producer),
            )),
            RefTarget::Other => {}
        },
        Value::Invalid => {}
    }
}

/// The link a reference reads (a workflow input, or a step's output), and
/// whether it holds several files (the output of a swept step).
fn source_of(workflow: &ExpandedWorkflow, reference: &Reference) -> (String, bool) {
    match workflow.target(reference) {
        RefTarget::Step(producer) => {
            let producer = &workflow.steps[producer as usize];
            (
                format!("#main/{}/{}", producer.name, output_id(&reference.output)),
                is_scattered(producer),
            )
        }
        _ => (format!("#main/{}", reference.head), false),
    }
}

#[cfg(test)]
mod tests {
    use easyflow_db::{CatalogFile, Database, SourceFile, expanded_workflow};

    const CATALOG: &str = r#"
[[package]]
name = "Tool.Write"
  [package.run]
  command = ["true"]

  [[package.output]]
  name = "s.txt"

[[package]]
name = "Tool.Read"
  [package.run]
  command = ["true"]

  [[package.param]]
  name = "input"
  type = "File"
"#;

    /// The refusals and notes of `flow` under [`CATALOG`].
    fn refusals_and_notes(flow: &str) -> (Vec<String>, Vec<String>) {
        let db = Database::default();
        let catalog = CatalogFile::new(&db, "easyflow-packages.toml".into(), CATALOG.into());
        let file = SourceFile::builder("test.flow".into(), flow.into())
            .catalog(Some(catalog))
            .new(&db);
        assert_eq!(db.check(file).len(), 0, "{:?}", db.check(file));
        let workflow = expanded_workflow(&db, file);
        (super::refusals(workflow), super::notes(workflow))
    }

    #[test]
    fn a_reference_to_a_catalogued_package_is_refused() {
        let (refusals, _) = refusals_and_notes("step R runs Tool.Read (input = Tool);\n");
        assert_eq!(
            refusals,
            [
                "step `R`, parameter `input`: `Tool` names a package, which a command line cannot take"
            ]
        );
    }

    #[test]
    fn each_stream_parameter_is_a_note_and_no_refusal() {
        let (refusals, notes) = refusals_and_notes(
            "step W runs Tool.Write ();\n~step R runs Tool.Read (input <- W.outs[\"s.txt\"]);\n",
        );
        assert_eq!(refusals, Vec::<String>::new());
        assert_eq!(
            notes,
            ["stream `R.input <- W.outs[\"s.txt\"]` runs as a data dependency"]
        );
    }
}
