//! The topology-fit check of every step (`topology.md` §4): E0701, E0702,
//! E0703 and I0705. Reads the item index and the flow's topology (and its
//! catalog, for the packages' default requirements), so editing the
//! topology re-runs this and nothing of the flow's own analysis.

use std::borrow::Cow;

use easyflow_catalog::Package;
use easyflow_diagnostics::Code;
use easyflow_topology::{Fit, Requirement, Topology, check_fit};

use crate::anchor::{Anchor, AnchoredDiagnostic};
use crate::catalog::{catalog_of, package_of};
use crate::items::{StepId, StepRequirement, StepSummary, item_index};
use crate::{Db, SourceFile, parse_topology};

/// What a step asks of the topology: its own `requires` and `memory`, each
/// falling back separately to its package's default (`topology.md` §3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectiveRequirement<'a> {
    pub requirement: Cow<'a, StepRequirement>,
    /// The capabilities are the package's default.
    pub capabilities_from_package: bool,
    /// The memory is the package's default.
    pub memory_from_package: bool,
}

/// The one place that applies a package's default `requires`/`memory` to a
/// step: a step's own attribute wins, each attribute separately.
pub fn effective_requirement<'a>(
    step: &'a StepSummary,
    package: Option<&Package>,
) -> EffectiveRequirement<'a> {
    let own = |key: &str| step.attributes.iter().any(|(k, _)| k == key);
    let capabilities_default = package
        .and_then(|p| p.requires.as_ref())
        .filter(|_| !own("requires"));
    let memory_default = package
        .and_then(|p| p.memory.as_ref())
        .filter(|_| !own("memory"));
    let requirement = if capabilities_default.is_none() && memory_default.is_none() {
        Cow::Borrowed(step.requirement())
    } else {
        let mut requirement = step.requirement().clone();
        if let Some(requires) = capabilities_default {
            requirement.capabilities = requires.value.clone();
        }
        if let Some(memory) = memory_default {
            requirement.memory = memory.value;
            requirement.memory_text = Some(memory.text.clone());
        }
        Cow::Owned(requirement)
    };
    EffectiveRequirement {
        requirement,
        capabilities_from_package: capabilities_default.is_some(),
        memory_from_package: memory_default.is_some(),
    }
}

/// The fit check of one step (its requirement with its package's defaults,
/// and its instance count).
pub fn step_fit(topology: &Topology, step: &StepSummary, package: Option<&Package>) -> Fit {
    let effective = effective_requirement(step, package);
    let requirement = &effective.requirement;
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
    /// when the step or its package's default sets `requires`.
    pub requires: Option<String>,
    /// Working memory per instance, when the step or its package's default
    /// sets `memory`.
    pub memory_bytes: Option<u64>,
    /// The worker type the fit check chose (the first that fits, by its
    /// capability set as written); `None` without a topology or a fit.
    pub host: Option<String>,
}

/// The one place that decides a step's requirement and worker type for the
/// exports: the requirement [`effective_requirement`] gives (the step's own
/// attributes, else its package's defaults) and the first worker type the
/// fit check accepts, so the model and the diagnostics never disagree.
pub fn step_placement(
    topology: Option<&Topology>,
    step: &StepSummary,
    package: Option<&Package>,
) -> StepPlacement {
    let own = |key: &str| step.attributes.iter().any(|(k, _)| k == key);
    let effective = effective_requirement(step, package);
    let requirement = &effective.requirement;
    let host = topology
        .filter(|_| !requirement.malformed)
        .and_then(|topology| {
            let fit = step_fit(topology, step, package);
            let chosen = *fit.fitting_workers().first()?;
            Some(topology.workers[chosen].name().to_string())
        });
    StepPlacement {
        requires: (own("requires") || effective.capabilities_from_package)
            .then(|| requirement.capabilities.join("+")),
        memory_bytes: (own("memory") || effective.memory_from_package)
            .then_some(requirement.memory),
        host,
    }
}

#[salsa::tracked(returns(ref))]
pub fn fit_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<AnchoredDiagnostic> {
    let Some(topology_file) = file.topology(db) else {
        return Vec::new();
    };
    let topology = parse_topology(db, topology_file);
    let catalog = catalog_of(db, file);
    let index = item_index(db, file);
    let mut out = Vec::new();
    for (i, step) in index.steps.iter().enumerate() {
        let id = StepId(i as u32);
        if step.requirement().malformed {
            continue;
        }
        let package = package_of(catalog, step);
        let effective = effective_requirement(step, package);
        // A requirement from the package has no value in the flow: its
        // diagnostics go on the package name (`topology.md` §4).
        let capabilities_anchor = |anchor| {
            if effective.capabilities_from_package {
                Anchor::Package(id)
            } else {
                anchor
            }
        };
        match step_fit(topology, step, package) {
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
                        capabilities_anchor(Anchor::Capability(id, capability.index as u32)),
                        capability.message,
                    ));
                }
            }
            Fit::NoWorkerType { message, .. } => {
                out.push(AnchoredDiagnostic::new(
                    Code::E0701,
                    capabilities_anchor(Anchor::RequiresValue(id)),
                    message,
                ));
            }
            Fit::NotEnoughMemory { message, .. } => {
                let anchor = if effective.memory_from_package {
                    Anchor::Package(id)
                } else {
                    Anchor::MemoryValue(id)
                };
                out.push(AnchoredDiagnostic::new(Code::E0703, anchor, message));
            }
        }
    }
    out
}
