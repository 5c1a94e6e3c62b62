//! `--to workload`: the formal workload description's structure as JSON
//! (`exports.md`): one TASK per step with its cardinality, one RELATION per
//! dependency edge.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

use easyflow_db::ExpandedWorkflow;
use easyflow_db::graph::EdgeKind;
use easyflow_db::workflow::{RefTarget, WorkflowEdge, WorkflowStep};
use easyflow_syntax::value::{self, LiteralValue};
use serde::{Serialize, Serializer};

use crate::{Entries, JsonDocument, Seq, Text, plain_text};

pub(crate) fn write(workflow: &ExpandedWorkflow, out: &mut dyn Write) -> io::Result<()> {
    let mut document = JsonDocument::new(out)?;
    document.array("tasks", |tasks| {
        tasks.extend(&workflow.steps, |step, elements| {
            elements.push(&Task { workflow, step })
        })
    })?;
    document.array("relations", |relations| {
        relations.extend(&workflow.edges, |edge, elements| {
            elements.push(&Relation { workflow, edge })
        })
    })?;
    document.end()
}

/// A TASK: one step.
struct Task<'a> {
    workflow: &'a ExpandedWorkflow,
    step: &'a WorkflowStep,
}

impl Serialize for Task<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Task<'a, I, O> {
            id: &'a str,
            cardinality: usize,
            relation_time: &'static str,
            relation_space: &'static str,
            input_ports: I,
            output_ports: O,
            properties: Entries<'a, Cow<'a, str>>,
        }
        #[derive(Serialize)]
        struct InputPort<'a> {
            name: &'a str,
            #[serde(rename = "type")]
            ty: &'static str,
            value: Text<'a>,
        }
        #[derive(Serialize)]
        struct OutputPort<'a> {
            name: &'a str,
            #[serde(rename = "type")]
            ty: &'static str,
        }
        let (workflow, step) = (self.workflow, self.step);
        // `NAME=VALUE` of each literal parameter, separated by spaces.
        let mut arguments = String::new();
        for param in step.params.iter().filter(|param| param.value.is_literal()) {
            let separator = if arguments.is_empty() { "" } else { " " };
            let _ = write!(arguments, "{separator}{}={}", param.name, *param.value);
        }
        let mut properties = Entries(Vec::with_capacity(2 + step.attributes.len()));
        properties.insert("EXECUTABLE", Cow::Borrowed(step.package.as_str()));
        properties.insert("ARGUMENTS", Cow::Owned(arguments));
        for (key, value) in &step.attributes {
            properties.insert(key, Cow::Owned(plain_text(value)));
        }
        Task {
            id: &step.name,
            cardinality: step.instances.len(),
            relation_time: "NONE",
            relation_space: "NONE",
            input_ports: Seq(|| {
                step.params.iter().map(|param| InputPort {
                    name: &param.name,
                    ty: port_type(workflow, &param.value, param.swept),
                    value: Text(&param.value),
                })
            }),
            output_ports: Seq(|| {
                step.outputs_read.iter().map(|output| OutputPort {
                    name: output,
                    ty: "URI",
                })
            }),
            properties,
        }
        .serialize(serializer)
    }
}

/// A RELATION: one dependency edge.
struct Relation<'a> {
    workflow: &'a ExpandedWorkflow,
    edge: &'a WorkflowEdge,
}

impl Serialize for Relation<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Relation<'a> {
            tail: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            tail_port: Option<&'a str>,
            head: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            head_port: Option<&'a str>,
            relation_time: &'static str,
            relation_space: &'static str,
            properties: Entries<'a, ()>,
        }
        let (workflow, edge) = (self.workflow, self.edge);
        let (relation_time, relation_space) = match edge.kind {
            EdgeKind::Control => ("SEQUENTIAL_END", "NONE"),
            EdgeKind::Data => ("SEQUENTIAL_END", "INPUT-OUTPUT"),
            EdgeKind::Stream => ("CONCURRENT", "COMMUNICATION"),
        };
        Relation {
            tail: &workflow.steps[edge.from as usize].name,
            tail_port: edge.ports.as_ref().map(|(output, _)| output.as_str()),
            head: &workflow.steps[edge.to as usize].name,
            head_port: edge.ports.as_ref().map(|(_, param)| param.as_str()),
            relation_time,
            relation_space,
            properties: Entries(Vec::new()),
        }
        .serialize(serializer)
    }
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
