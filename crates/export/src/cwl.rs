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

use easyflow_db::ExpandedWorkflow;
use easyflow_db::workflow::{
    Expr, LiteralValue, ParamBinding, RefTarget, Reference, WorkflowParam, WorkflowStep,
};
use serde_json::{Value, json};

use crate::json_text;

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

pub(crate) fn write(workflow: &ExpandedWorkflow) -> String {
    let mut main = serde_json::Map::new();
    main.insert("class".into(), json!("Workflow"));
    main.insert("id".into(), json!("#main"));
    if let Some(name) = &workflow.name {
        main.insert("label".into(), json!(name));
    }
    if let Some(description) = &workflow.description {
        main.insert("doc".into(), json!(description));
    }
    main.insert(
        "requirements".into(),
        json!([
            {"class": "ScatterFeatureRequirement"},
            {"class": "MultipleInputFeatureRequirement"},
        ]),
    );
    let inputs: Vec<Value> = workflow
        .required_files
        .iter()
        .map(|name| json!({"id": format!("#main/{name}"), "type": "File"}))
        .collect();
    main.insert("inputs".into(), Value::Array(inputs));

    let mut outputs = Vec::new();
    let mut steps = Vec::with_capacity(workflow.steps.len());
    let mut tools = Vec::with_capacity(workflow.steps.len());
    for step in &workflow.steps {
        let scattered = is_scattered(step);
        let file_type = || {
            if scattered {
                file_array()
            } else {
                json!("File")
            }
        };
        let declared = step.run.as_ref().map_or(0, |run| run.outputs.len());
        for (_, id, _) in tool_outputs(step).iter().take(declared) {
            outputs.push(json!({
                "id": format!("#main/{}.{id}", step.name),
                "type": file_type(),
                "outputSource": format!("#main/{}/{id}", step.name),
            }));
        }
        outputs.push(json!({
            "id": format!("#main/{}.{STDOUT}", step.name),
            "type": file_type(),
            "outputSource": format!("#main/{}/{STDOUT}", step.name),
        }));
        let (step_json, tool_json) = step_and_tool(workflow, step);
        steps.push(step_json);
        tools.push(tool_json);
    }
    main.insert("outputs".into(), Value::Array(outputs));
    main.insert("steps".into(), Value::Array(steps));

    let mut graph = vec![Value::Object(main)];
    graph.extend(tools);
    json_text(&json!({
        "cwlVersion": "v1.2",
        "$graph": graph,
    }))
}

/// A step runs as a scatter unless it has exactly one instance (an empty
/// sweep scatters over nothing).
fn is_scattered(step: &WorkflowStep) -> bool {
    step.instances.len() != 1
}

fn file_array() -> Value {
    json!({"type": "array", "items": "File"})
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

/// A tool input: a run of pieces at one position.
enum Slot {
    /// Arguments given as data; when swept, one list per element.
    Texts(Value),
    /// Files linked from their sources, one argument each, in order.
    Files(Vec<String>),
    /// A swept parameter over single references: each instance gets its
    /// element's files (a File, or the Files of a swept producer).
    SweptFiles { sources: Vec<String>, ty: Value },
}

/// How a swept parameter can be written: over plain values, or over single
/// references; `None` when neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SweepKind {
    Values,
    References,
}

fn sweep_kind(workflow: &ExpandedWorkflow, value: &Expr) -> Option<SweepKind> {
    let Expr::List(elements) = value else {
        return Some(SweepKind::Values);
    };
    if elements.iter().all(Expr::is_literal) {
        return Some(SweepKind::Values);
    }
    elements
        .iter()
        .all(|e| {
            matches!(e, Expr::Ref(r) if matches!(workflow.target(r), RefTarget::File | RefTarget::Step(_)))
        })
        .then_some(SweepKind::References)
}

/// The workflow step and its tool.
fn step_and_tool(workflow: &ExpandedWorkflow, step: &WorkflowStep) -> (Value, Value) {
    let name = &step.name;
    let tool_id = format!("#{name}.tool");
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
        .map(|(i, p)| (i, p.binding.clone().unwrap_or_else(|| default_binding(p))))
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
            let elements: &[Expr] = match &param.value {
                Expr::List(elements) => elements,
                _ => &[],
            };
            match sweep_kind(workflow, &param.value) {
                Some(SweepKind::References) => {
                    if let Some(prefix) = &binding.prefix {
                        param_slots.push(Slot::Texts(json!([prefix])));
                    }
                    let mut sources = Vec::new();
                    let mut types = Vec::new();
                    for element in elements {
                        if let Expr::Ref(reference) = element {
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
                        (true, true) => file_array(),
                        (true, false) => json!(["File", file_array()]),
                        _ => json!("File"),
                    };
                    swept_slot = Some(param_slots.len());
                    param_slots.push(Slot::SweptFiles { sources, ty });
                }
                _ => {
                    let per_element: Vec<Value> = elements
                        .iter()
                        .map(|element| {
                            let texts: Vec<String> = pieces(workflow, binding, element)
                                .into_iter()
                                .filter_map(|piece| match piece {
                                    Piece::Text(text) => Some(text),
                                    Piece::Files(..) => None,
                                })
                                .collect();
                            json!(texts)
                        })
                        .collect();
                    swept_slot = Some(param_slots.len());
                    param_slots.push(Slot::Texts(Value::Array(per_element)));
                }
            }
        } else {
            // Unswept (or a step of one instance, whose swept values are
            // that instance's).
            let value = if scattered {
                &param.value
            } else {
                &step.instances[0].values[*i]
            };
            for piece in pieces(workflow, binding, value) {
                if let Piece::Files(_, Some(producer)) = piece
                    && !carried.contains(&producer)
                {
                    carried.push(producer);
                }
                match (piece, param_slots.last_mut()) {
                    (Piece::Text(text), Some(Slot::Texts(Value::Array(texts)))) => {
                        texts.push(json!(text))
                    }
                    (Piece::Text(text), _) => param_slots.push(Slot::Texts(json!([text]))),
                    (Piece::Files(source, _), Some(Slot::Files(sources))) => sources.push(source),
                    (Piece::Files(source, _), _) => param_slots.push(Slot::Files(vec![source])),
                }
            }
        }
        for (n, slot) in param_slots.into_iter().enumerate() {
            let id = if n == 0 {
                param.name.clone()
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

    let mut tool_inputs = Vec::new();
    let mut step_inputs = Vec::new();
    for (n, (id, slot)) in slots.iter().enumerate() {
        let (ty, link) = match slot {
            Slot::Texts(value) => (
                json!({"type": "array", "items": "string"}),
                json!({"default": value}),
            ),
            Slot::Files(sources) => (
                file_array(),
                json!({"source": sources, "linkMerge": "merge_flattened"}),
            ),
            Slot::SweptFiles { sources, ty } => (
                ty.clone(),
                json!({"source": sources, "linkMerge": "merge_nested"}),
            ),
        };
        tool_inputs.push(json!({
            "id": format!("{tool_id}/{id}"),
            "type": ty,
            "inputBinding": {"position": n + 1},
        }));
        let mut input = json!({"id": format!("#main/{name}/{id}")});
        if let (Value::Object(input), Value::Object(link)) = (&mut input, link) {
            input.extend(link);
        }
        step_inputs.push(input);
    }
    for &dependency in &step.depends_on {
        if carried.contains(&dependency) {
            continue;
        }
        let producer = &workflow.steps[dependency as usize];
        let id = format!("after-{}", producer.name);
        let ty = if is_scattered(producer) {
            file_array()
        } else {
            json!("File")
        };
        tool_inputs.push(json!({"id": format!("{tool_id}/{id}"), "type": ty}));
        step_inputs.push(json!({
            "id": format!("#main/{name}/{id}"),
            "source": format!("#main/{}/{STDOUT}", producer.name),
        }));
    }

    let outputs = tool_outputs(step);
    let mut tool_outputs_json: Vec<Value> = outputs
        .iter()
        .map(|(_, id, glob)| {
            json!({
                "id": format!("{tool_id}/{id}"),
                "type": "File",
                "outputBinding": {"glob": glob},
            })
        })
        .collect();
    tool_outputs_json.push(json!({"id": format!("{tool_id}/{STDOUT}"), "type": "stdout"}));

    let mut step_json = serde_json::Map::new();
    step_json.insert("id".into(), json!(format!("#main/{name}")));
    step_json.insert("run".into(), json!(tool_id));
    step_json.insert("in".into(), Value::Array(step_inputs));
    let mut out: Vec<Value> = outputs
        .iter()
        .map(|(_, id, _)| json!(format!("#main/{name}/{id}")))
        .collect();
    out.push(json!(format!("#main/{name}/{STDOUT}")));
    step_json.insert("out".into(), Value::Array(out));
    if scattered {
        let scatter: Vec<String> = scatter
            .iter()
            .map(|(_, id)| format!("#main/{name}/{id}"))
            .collect();
        step_json.insert("scatter".into(), json!(scatter));
        step_json.insert("scatterMethod".into(), json!("flat_crossproduct"));
    }

    let mut tool = serde_json::Map::new();
    tool.insert("class".into(), json!("CommandLineTool"));
    tool.insert("id".into(), json!(tool_id));
    tool.insert("label".into(), json!(step.package));
    let command = step
        .run
        .as_ref()
        .map(|run| run.command.clone())
        .unwrap_or_default();
    tool.insert("baseCommand".into(), json!(command));
    tool.insert("inputs".into(), Value::Array(tool_inputs));
    tool.insert("outputs".into(), Value::Array(tool_outputs_json));
    tool.insert("stdout".into(), json!(format!("{name}.{STDOUT}")));
    let mut hints = Vec::new();
    let cores = step.run.as_ref().and_then(|run| run.cores);
    let ram = step
        .placement
        .memory_bytes
        .map(|bytes| bytes.div_ceil(1024 * 1024));
    if cores.is_some() || ram.is_some() {
        let mut resources = serde_json::Map::new();
        resources.insert("class".into(), json!("ResourceRequirement"));
        if let Some(cores) = cores {
            resources.insert("coresMin".into(), json!(cores));
        }
        if let Some(ram) = ram {
            resources.insert("ramMin".into(), json!(ram));
        }
        hints.push(Value::Object(resources));
    }
    if let Some(container) = step.run.as_ref().and_then(|run| run.container.as_ref()) {
        hints.push(json!({"class": "DockerRequirement", "dockerPull": container}));
    }
    if !hints.is_empty() {
        tool.insert("hints".into(), Value::Array(hints));
    }
    (Value::Object(step_json), Value::Object(tool))
}

/// The pieces one parameter gives for one value (`run.md` §2): a
/// non-positional Bool is its prefix alone when true and nothing when
/// false; anything else its prefix (if any), then its arguments.
fn pieces(workflow: &ExpandedWorkflow, binding: &ParamBinding, value: &Expr) -> Vec<Piece> {
    let mut out = Vec::new();
    if let Expr::Literal(literal) = value
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
fn arguments(workflow: &ExpandedWorkflow, value: &Expr, out: &mut Vec<Piece>) {
    match value {
        Expr::Literal(literal) => out.push(Piece::Text(match &literal.kind {
            LiteralValue::String(content) => content.clone(),
            LiteralValue::Constant(name) => name.clone(),
            _ => literal.text.clone(),
        })),
        Expr::List(elements) => elements.iter().for_each(|e| arguments(workflow, e, out)),
        Expr::Ref(reference) => match workflow.target(reference) {
            RefTarget::File => out.push(Piece::Files(source_of(workflow, reference).0, None)),
            RefTarget::Step(producer) => out.push(Piece::Files(
                source_of(workflow, reference).0,
                Some(producer),
            )),
            RefTarget::Other => {}
        },
        Expr::Invalid => {}
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
