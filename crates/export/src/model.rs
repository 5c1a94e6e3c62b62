//! `--to model`: the workflow DAG model (`exports.md`): jobs per instance,
//! fixed and temporary files, compute hosts, precedence and stage-in edges.

use easyflow_db::ExpandedWorkflow;
use easyflow_db::workflow::RefTarget;
use serde_json::{Map, Value, json};

use crate::json_text;

pub(crate) fn write(workflow: &ExpandedWorkflow) -> String {
    let mut jobs = Vec::new();
    let mut edges = Vec::new();
    for step in &workflow.steps {
        for (n, instance) in step.instances.iter().enumerate() {
            let mut parameters = Map::new();
            for (param, value) in step.params.iter().zip(&instance.values) {
                if value.is_literal() {
                    parameters.insert(param.name.clone(), json!(value.text()));
                }
            }
            let placement = &step.placement;
            jobs.push(json!({
                "id": instance.id,
                "step": step.name,
                "instance": n,
                "package": step.package,
                "parameters": parameters,
                "requires": placement.requires,
                "memory_bytes": placement.memory_bytes,
                "host": placement.host,
            }));
            for &dependency in &step.depends_on {
                for source in &workflow.steps[dependency as usize].instances {
                    edges.push(json!({"from": source.id, "to": instance.id, "kind": "precedence"}));
                }
            }
            let mut staged: Vec<String> = Vec::new();
            for value in &instance.values {
                for reference in value.references() {
                    match workflow.target(reference) {
                        RefTarget::File => staged.push(reference.head.to_string()),
                        RefTarget::Step(producer) => {
                            for source in &workflow.steps[producer as usize].instances {
                                staged.push(format!("{}#{}", source.id, reference.output));
                            }
                        }
                        RefTarget::Other => {}
                    }
                }
            }
            let mut seen = std::collections::HashSet::new();
            for file in staged.into_iter().filter(|f| seen.insert(f.clone())) {
                edges.push(json!({"from": file, "to": instance.id, "kind": "stage_in"}));
            }
        }
    }
    let mut files: Vec<Value> = workflow
        .required_files
        .iter()
        .map(|name| json!({"id": name, "kind": "fixed"}))
        .collect();
    for step in &workflow.steps {
        for instance in &step.instances {
            for output in &step.outputs_read {
                files.push(json!({
                    "id": format!("{}#{output}", instance.id),
                    "kind": "temporary",
                    "producer": instance.id,
                }));
            }
        }
    }
    let compute_hosts: Vec<Value> = workflow
        .hosts
        .iter()
        .map(|host| {
            json!({
                "id": host.id,
                "capabilities": host.capabilities,
                "slots": host.slots,
                "memory_bytes": host.memory_bytes,
            })
        })
        .collect();
    json_text(&json!({
        "jobs": jobs,
        "files": files,
        "compute_hosts": compute_hosts,
        "data_hosts": [],
        "edges": edges,
    }))
}
