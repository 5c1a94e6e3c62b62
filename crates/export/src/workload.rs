//! `--to workload`: the formal workload description's structure as JSON
//! (`exports.md`): one TASK per step with its cardinality, one RELATION per
//! dependency edge.

use easyflow_db::ExpandedWorkflow;
use easyflow_db::graph::EdgeKind;
use easyflow_db::workflow::{RefTarget, WorkflowStep};
use easyflow_syntax::value::{self, LiteralValue};
use serde_json::{Map, Value, json};

use crate::{json_text, plain_text};

pub(crate) fn write(workflow: &ExpandedWorkflow) -> String {
    let tasks: Vec<Value> = workflow.steps.iter().map(|s| task(workflow, s)).collect();
    let relations: Vec<Value> = workflow
        .edges
        .iter()
        .map(|edge| {
            let tail = &workflow.steps[edge.from as usize].name;
            let head = &workflow.steps[edge.to as usize].name;
            let (time, space) = match edge.kind {
                EdgeKind::Control => ("SEQUENTIAL_END", "NONE"),
                EdgeKind::Data => ("SEQUENTIAL_END", "INPUT-OUTPUT"),
                EdgeKind::Stream => ("CONCURRENT", "COMMUNICATION"),
            };
            let mut relation = Map::new();
            relation.insert("tail".into(), json!(tail));
            if let Some((output, _)) = &edge.ports {
                relation.insert("tail_port".into(), json!(output));
            }
            relation.insert("head".into(), json!(head));
            if let Some((_, param)) = &edge.ports {
                relation.insert("head_port".into(), json!(param));
            }
            relation.insert("relation_time".into(), json!(time));
            relation.insert("relation_space".into(), json!(space));
            relation.insert("properties".into(), json!({}));
            Value::Object(relation)
        })
        .collect();
    json_text(&json!({"tasks": tasks, "relations": relations}))
}

fn task(workflow: &ExpandedWorkflow, step: &WorkflowStep) -> Value {
    let input_ports: Vec<Value> = step
        .params
        .iter()
        .map(|param| {
            json!({
                "name": param.name,
                "type": port_type(workflow, &param.value, param.swept),
                "value": param.value.text(),
            })
        })
        .collect();
    let output_ports: Vec<Value> = step
        .outputs_read
        .iter()
        .map(|output| json!({"name": output, "type": "URI"}))
        .collect();
    let arguments: Vec<String> = step
        .params
        .iter()
        .filter(|param| param.value.is_literal())
        .map(|param| format!("{}={}", param.name, param.value.text()))
        .collect();
    let mut properties = Map::new();
    properties.insert("EXECUTABLE".into(), json!(step.package));
    properties.insert("ARGUMENTS".into(), json!(arguments.join(" ")));
    for (key, value) in &step.attributes {
        properties.insert(key.clone(), json!(plain_text(value)));
    }
    json!({
        "id": step.name,
        "cardinality": step.instances.len(),
        "relation_time": "NONE",
        "relation_space": "NONE",
        "input_ports": input_ports,
        "output_ports": output_ports,
        "properties": properties,
    })
}

/// `URI` for required files and step outputs, `INTEGER` for Int (a swept
/// list of Ints too: each instance gets an Int), `STRING` otherwise.
fn port_type(workflow: &ExpandedWorkflow, value: &value::Value, swept: bool) -> &'static str {
    let is_int = |e: &value::Value| {
        matches!(
            e,
            value::Value::Literal(literal) if matches!(literal.kind, LiteralValue::Int(_))
        )
    };
    let reads_a_file = value
        .references()
        .iter()
        .any(|r| workflow.target(r) != RefTarget::Other);
    if reads_a_file {
        "URI"
    } else if is_int(value) {
        "INTEGER"
    } else if let (true, value::Value::List(elements)) = (swept, value)
        && !elements.is_empty()
        && elements.iter().all(is_int)
    {
        "INTEGER"
    } else {
        "STRING"
    }
}
