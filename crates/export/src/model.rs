//! `--to model`: the workflow DAG model (`exports.md`): jobs per instance,
//! fixed and temporary files, compute hosts, precedence and stage-in edges.

use std::io::{self, Write};

use easyflow_db::ExpandedWorkflow;
use easyflow_db::workflow::{Instance, RefTarget, WorkflowStep};
use rustc_hash::FxHashSet;
use serde::Serialize;

use crate::{Concat, Entries, JsonDocument, Text};

pub(crate) fn write(workflow: &ExpandedWorkflow, out: &mut dyn Write) -> io::Result<()> {
    #[derive(Serialize)]
    struct Host<'a> {
        id: &'a str,
        capabilities: &'a [String],
        slots: Option<u64>,
        memory_bytes: u64,
    }
    let mut document = JsonDocument::new(out)?;
    document.array("jobs", |jobs| {
        jobs.extend(&workflow.steps, |step, elements| {
            step.instances
                .iter()
                .enumerate()
                .try_for_each(|(n, instance)| elements.push(&job(step, n, instance)))
        })
    })?;
    document.array("files", |files| {
        files.extend(&workflow.required_files, |name, elements| {
            elements.push(&File {
                id: FileId::Fixed(name),
                kind: "fixed",
                producer: None,
            })
        })?;
        files.extend(&workflow.steps, |step, elements| {
            for instance in &step.instances {
                for output in &step.outputs_read {
                    elements.push(&File {
                        id: FileId::Temporary(Concat([&instance.id, "#", output])),
                        kind: "temporary",
                        producer: Some(&instance.id),
                    })?;
                }
            }
            Ok(())
        })
    })?;
    document.array("compute_hosts", |hosts| {
        hosts.extend(&workflow.hosts, |host, elements| {
            elements.push(&Host {
                id: &host.id,
                capabilities: &host.capabilities,
                slots: host.slots,
                memory_bytes: host.memory_bytes,
            })
        })
    })?;
    document.array("data_hosts", |_| Ok(()))?;
    document.array("edges", |edges| {
        edges.extend(&workflow.steps, |step, elements| {
            step.instances.iter().try_for_each(|instance| {
                edges_into(workflow, step, instance)
                    .iter()
                    .try_for_each(|edge| elements.push(edge))
            })
        })
    })?;
    document.end()
}

#[derive(Serialize)]
struct Job<'a> {
    id: &'a str,
    step: &'a str,
    instance: usize,
    package: &'a str,
    parameters: Entries<'a, Text<'a>>,
    requires: Option<&'a str>,
    memory_bytes: Option<u64>,
    host: Option<&'a str>,
}

fn job<'a>(step: &'a WorkflowStep, n: usize, instance: &'a Instance) -> Job<'a> {
    let mut parameters = Entries(Vec::new());
    for (param, value) in step.params.iter().zip(step.values(instance)) {
        if value.is_literal() {
            parameters.insert(&param.name, Text(value));
        }
    }
    let placement = &step.placement;
    Job {
        id: &instance.id,
        step: &step.name,
        instance: n,
        package: &step.package,
        parameters,
        requires: placement.requires.as_deref(),
        memory_bytes: placement.memory_bytes,
        host: placement.host.as_deref(),
    }
}

#[derive(Serialize)]
struct File<'a> {
    id: FileId<'a>,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    producer: Option<&'a str>,
}

/// A fixed file's name or an instance's id, or a temporary file's
/// `INSTANCE#OUTPUT`.
#[derive(Serialize, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(untagged)]
enum FileId<'a> {
    Fixed(&'a str),
    Temporary(Concat<'a, 3>),
}

#[derive(Serialize)]
struct Edge<'a> {
    from: FileId<'a>,
    to: &'a str,
    kind: &'static str,
}

/// The edges into one instance: a precedence edge from each instance of
/// each step it depends on, then a stage-in edge from each file it reads
/// (each once, in the order first read).
fn edges_into<'a>(
    workflow: &'a ExpandedWorkflow,
    step: &'a WorkflowStep,
    instance: &'a Instance,
) -> Vec<Edge<'a>> {
    let mut edges = Vec::new();
    for &dependency in &step.depends_on {
        for source in &workflow.steps[dependency as usize].instances {
            edges.push(Edge {
                from: FileId::Fixed(&source.id),
                to: &instance.id,
                kind: "precedence",
            });
        }
    }
    // Names have no `#`, so two ids are the same text exactly when their
    // pieces are the same.
    let mut seen = FxHashSet::default();
    for value in step.values(instance) {
        for reference in value.references() {
            let mut stage = |file: FileId<'a>| {
                if seen.insert(file) {
                    edges.push(Edge {
                        from: file,
                        to: &instance.id,
                        kind: "stage_in",
                    });
                }
            };
            match workflow.target(reference) {
                RefTarget::File => stage(FileId::Fixed(&reference.head)),
                RefTarget::Step(producer) => {
                    for source in &workflow.steps[producer as usize].instances {
                        stage(FileId::Temporary(Concat([
                            &source.id,
                            "#",
                            &reference.output,
                        ])));
                    }
                }
                RefTarget::Other => {}
            }
        }
    }
    edges
}
