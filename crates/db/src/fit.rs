//! The topology-fit check of every step (`topology.md` §4): E0701, E0702,
//! E0703 and I0705. Reads the item index and the flow's topology, so editing
//! the topology re-runs this and nothing of the flow's own analysis.

use easyflow_diagnostics::Code;
use easyflow_topology::{Fit, Requirement, Topology, check_fit};

use crate::anchor::{Anchor, AnchoredDiagnostic};
use crate::items::{StepId, StepSummary, item_index};
use crate::{Db, SourceFile, parse_topology};

/// The fit check of one step (its `requires`, `memory` and instance count).
pub fn step_fit(topology: &Topology, step: &StepSummary) -> Fit {
    let requirement = &step.requirement;
    check_fit(
        topology,
        &Requirement {
            capabilities: requirement
                .capabilities
                .iter()
                .map(String::as_str)
                .collect(),
            memory: requirement.memory,
            memory_text: requirement.memory_text.as_deref(),
            instances: step.instances,
        },
    )
}

/// Where one step runs, as the exports write it: what it requires and the
/// worker type that runs it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StepPlacement {
    /// The required capability set in the topology's syntax (`compute+GPU`),
    /// when the step has a `requires` attribute.
    pub requires: Option<String>,
    /// Working memory per instance, when the step has a `memory` attribute.
    pub memory_bytes: Option<u64>,
    /// The worker type the fit check chose (the first that fits, by its
    /// capability set as written); `None` without a topology or a fit.
    pub host: Option<String>,
}

/// The one place that decides a step's requirement and worker type for the
/// exports, from the step's attributes and the fit check, so the model and
/// the diagnostics never disagree.
pub fn step_placement(topology: Option<&Topology>, step: &StepSummary) -> StepPlacement {
    let has = |key: &str| step.attributes.iter().any(|(k, _)| k == key);
    let requirement = &step.requirement;
    let host = topology
        .filter(|_| !requirement.malformed)
        .and_then(|topology| {
            let fit = step_fit(topology, step);
            let chosen = *fit.fitting_workers().first()?;
            Some(topology.workers[chosen].name().to_string())
        });
    StepPlacement {
        requires: has("requires").then(|| requirement.capabilities.join("+")),
        memory_bytes: has("memory").then_some(requirement.memory),
        host,
    }
}

#[salsa::tracked(returns(ref))]
pub fn fit_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<AnchoredDiagnostic> {
    let Some(topology_file) = file.topology(db) else {
        return Vec::new();
    };
    let topology = parse_topology(db, topology_file);
    let index = item_index(db, file);
    let mut out = Vec::new();
    for (i, step) in index.steps.iter().enumerate() {
        let id = StepId(i as u32);
        if step.requirement.malformed {
            continue;
        }
        match step_fit(topology, step) {
            Fit::Fits {
                waves: Some(waves), ..
            } => {
                out.push(AnchoredDiagnostic::new(
                    Code::I0705,
                    Anchor::StepName(id),
                    waves.message,
                ));
            }
            Fit::Fits { waves: None, .. } => {}
            Fit::UnknownCapabilities(unknown) => {
                for capability in unknown {
                    out.push(AnchoredDiagnostic::new(
                        Code::E0702,
                        Anchor::Capability(id, capability.index as u32),
                        capability.message,
                    ));
                }
            }
            Fit::NoWorkerType { message, .. } => {
                out.push(AnchoredDiagnostic::new(
                    Code::E0701,
                    Anchor::RequiresValue(id),
                    message,
                ));
            }
            Fit::NotEnoughMemory { message, .. } => {
                out.push(AnchoredDiagnostic::new(
                    Code::E0703,
                    Anchor::MemoryValue(id),
                    message,
                ));
            }
        }
    }
    out
}
