//! The topology-fit check of a step (topology.md §4).

use easyflow_diagnostics::Code;

use crate::model::{Topology, WorkerType};
use easyflow_diagnostics::suggest::closest;

/// What a step asks for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Requirement<'a> {
    /// The required capability names (`requires`; empty when absent), in the
    /// order written. `UnknownCapability::index` points into this list.
    pub capabilities: Vec<&'a str>,
    /// Working memory per instance in bytes (`memory`; 0 when absent).
    pub memory: u64,
    /// The `memory` value as written when it was a string (`2GiB`), to show
    /// it in messages beside the bytes.
    pub memory_text: Option<&'a str>,
    /// The step's instance count (the product of its swept list lengths).
    pub instances: u64,
}

impl Default for Requirement<'_> {
    /// No capabilities, no memory, one instance.
    fn default() -> Self {
        Requirement {
            capabilities: Vec::new(),
            memory: 0,
            memory_text: None,
            instances: 1,
        }
    }
}

/// The outcome of the fit check. Worker types are indices into
/// `Topology::workers`, in file order. Every problem carries its message.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Fit {
    /// These worker types fit; `waves` is I0705 when the instances exceed
    /// their finite total of slots.
    Fits {
        workers: Vec<usize>,
        waves: Option<Waves>,
    },
    /// E0702, one per required capability that no worker type has (on that
    /// capability inside the `requires` value).
    UnknownCapabilities(Vec<UnknownCapability>),
    /// E0701 (on the `requires` value): every capability exists, but no
    /// worker type that starts workers has them all; also for an empty
    /// topology (then `closest` is empty).
    NoWorkerType {
        closest: Vec<NearMiss>,
        message: String,
    },
    /// E0703 (on the `memory` value): `workers` have the capabilities and
    /// start workers, but none has enough working memory.
    NotEnoughMemory {
        workers: Vec<usize>,
        largest_shm: u64,
        message: String,
    },
}

/// A required capability that no worker type has (E0702).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UnknownCapability {
    /// Its position in `Requirement::capabilities` (the first, if repeated).
    pub index: usize,
    pub name: String,
    /// The closest existing capability name, when it is a likely typo.
    pub suggestion: Option<String>,
    pub message: String,
}

/// A worker type that comes closest to a requirement no type meets (E0701):
/// it has the most of the required capabilities.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NearMiss {
    pub worker: usize,
    /// The required capabilities it lacks.
    pub missing: Vec<String>,
    /// False when its PerNode is 0.
    pub starts_workers: bool,
}

/// I0705: more instances than the fitting worker types have slots.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Waves {
    pub instances: u64,
    /// Σ PerNode × MaxNodes over the fitting worker types.
    pub slots: u64,
    /// ⌈instances / slots⌉.
    pub waves: u64,
    pub message: String,
}

impl Fit {
    /// The code to report, if any (I0705 for a fit in waves).
    pub fn code(&self) -> Option<Code> {
        match self {
            Fit::Fits { waves, .. } => waves.as_ref().map(|_| Code::I0705),
            Fit::UnknownCapabilities(_) => Some(Code::E0702),
            Fit::NoWorkerType { .. } => Some(Code::E0701),
            Fit::NotEnoughMemory { .. } => Some(Code::E0703),
        }
    }

    /// The fitting worker types (empty unless it fits).
    pub fn fitting_workers(&self) -> &[usize] {
        match self {
            Fit::Fits { workers, .. } => workers,
            _ => &[],
        }
    }
}

/// How many near misses an E0701 message names.
const NEAR_MISSES_SHOWN: usize = 3;

/// Checks a step's requirement against a topology. A worker type fits when it
/// has every required capability, PerNode ≥ 1 and Shm ≥ the memory.
pub fn check_fit(topology: &Topology, requirement: &Requirement<'_>) -> Fit {
    let workers = &topology.workers;
    if workers.is_empty() {
        return Fit::NoWorkerType {
            closest: Vec::new(),
            message: "the topology has no worker types, so nothing can run this step".to_string(),
        };
    }
    let required = distinct_in_order(&requirement.capabilities);

    let missing: Vec<&(usize, &str)> = required
        .iter()
        .filter(|(_, name)| !workers.iter().any(|w| w.has_capability(name)))
        .collect();
    // Only a missing capability needs the names to suggest from: most steps
    // fit, and this runs for every step of a flow.
    let known_names = if missing.is_empty() {
        Vec::new()
    } else {
        topology.capability_names()
    };
    let unknown: Vec<UnknownCapability> = missing
        .into_iter()
        .map(|&(index, name)| {
            let suggestion = closest(name, known_names.iter().copied()).map(str::to_string);
            let did_you_mean = suggestion
                .as_ref()
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            UnknownCapability {
                index,
                name: name.to_string(),
                message: format!("no worker type has capability `{name}`{did_you_mean}"),
                suggestion,
            }
        })
        .collect();
    if !unknown.is_empty() {
        return Fit::UnknownCapabilities(unknown);
    }

    let has_all = |w: &WorkerType| required.iter().all(|(_, name)| w.has_capability(name));
    let capable: Vec<usize> = (0..workers.len())
        .filter(|&i| workers[i].starts_workers() && has_all(&workers[i]))
        .collect();
    if capable.is_empty() {
        return no_worker_type(topology, requirement, &required);
    }

    let fitting: Vec<usize> = capable
        .iter()
        .copied()
        .filter(|&i| workers[i].shm >= requirement.memory)
        .collect();
    if fitting.is_empty() {
        let largest_shm = capable.iter().map(|&i| workers[i].shm).max().unwrap_or(0);
        let memory = match requirement.memory_text {
            Some(text) if !text.trim().bytes().all(|b| b.is_ascii_digit()) => {
                format!("{} ({} bytes)", text.trim(), requirement.memory)
            }
            _ => format!("{} bytes", requirement.memory),
        };
        let with = if required.is_empty() {
            String::new()
        } else {
            format!(" with `{}`", requirement.capabilities.join("+"))
        };
        return Fit::NotEnoughMemory {
            workers: capable,
            largest_shm,
            message: format!(
                "no worker type{with} has {memory}; the largest has {largest_shm} bytes"
            ),
        };
    }

    let waves = waves(topology, &fitting, requirement.instances);
    Fit::Fits {
        workers: fitting,
        waves,
    }
}

/// The required names without repetitions, with their first index.
fn distinct_in_order<'a>(names: &[&'a str]) -> Vec<(usize, &'a str)> {
    let mut distinct: Vec<(usize, &str)> = Vec::new();
    for (index, &name) in names.iter().enumerate() {
        if !distinct.iter().any(|&(_, seen)| seen == name) {
            distinct.push((index, name));
        }
    }
    distinct
}

/// E0701: the worker types with the most required capabilities.
fn no_worker_type(
    topology: &Topology,
    requirement: &Requirement<'_>,
    required: &[(usize, &str)],
) -> Fit {
    let workers = &topology.workers;
    let missing = |w: &WorkerType| -> Vec<String> {
        required
            .iter()
            .filter(|(_, name)| !w.has_capability(name))
            .map(|(_, name)| name.to_string())
            .collect()
    };
    let fewest_missing = workers.iter().map(|w| missing(w).len()).min().unwrap_or(0);
    let closest: Vec<NearMiss> = workers
        .iter()
        .enumerate()
        .map(|(worker, w)| NearMiss {
            worker,
            missing: missing(w),
            starts_workers: w.starts_workers(),
        })
        .filter(|near| near.missing.len() == fewest_missing)
        .collect();

    let wanted = requirement.capabilities.join("+");
    let message = if required.is_empty() {
        "no worker type starts workers (every PerNode is 0)".to_string()
    } else if fewest_missing == 0 {
        // Types with every capability exist, but none starts workers.
        let names: Vec<String> = closest
            .iter()
            .map(|near| format!("`{}`", workers[near.worker].name()))
            .collect();
        format!(
            "no worker type that starts workers has all of `{wanted}`; {} {} PerNode 0",
            names.join(", "),
            if names.len() == 1 { "has" } else { "have" }
        )
    } else {
        let mut shown: Vec<String> = closest
            .iter()
            .take(NEAR_MISSES_SHOWN)
            .map(|near| {
                let lacks: Vec<String> = near.missing.iter().map(|m| format!("`{m}`")).collect();
                let per_node = if near.starts_workers {
                    ""
                } else {
                    "; PerNode 0"
                };
                format!(
                    "`{}` (lacks {}{per_node})",
                    workers[near.worker].name(),
                    lacks.join(", ")
                )
            })
            .collect();
        if closest.len() > NEAR_MISSES_SHOWN {
            shown.push(format!("and {} more", closest.len() - NEAR_MISSES_SHOWN));
        }
        format!(
            "no worker type has all of `{wanted}`; closest: {}",
            shown.join(", ")
        )
    };
    Fit::NoWorkerType { closest, message }
}

/// I0705: only when every fitting type has MaxNodes > 0 (a finite total).
fn waves(topology: &Topology, fitting: &[usize], instances: u64) -> Option<Waves> {
    let slots = fitting
        .iter()
        .map(|&i| topology.workers[i].slots())
        .try_fold(0u64, |total, slots| Some(total.saturating_add(slots?)))?;
    // Fitting types start workers on at least one machine, so slots ≥ 1.
    if slots == 0 || instances <= slots {
        return None;
    }
    let waves = instances.div_ceil(slots);
    Some(Waves {
        instances,
        slots,
        waves,
        message: format!("{instances} instances on {slots} slots: at least {waves} waves"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    /// The topology of the examples in docs/diagnostics.md.
    const CLUSTER: &str = "compute+CPU:24,1073741824 compute+GPU:2,1073741824 reduce:4,2147483648 IO+load:2,16777216 IO+store:2,16777216 init:1x1";

    fn requires(capabilities: &str) -> Requirement<'_> {
        Requirement {
            capabilities: capabilities.split('+').filter(|c| !c.is_empty()).collect(),
            ..Requirement::default()
        }
    }

    fn message(fit: &Fit) -> String {
        match fit {
            Fit::Fits { waves, .. } => waves.as_ref().map_or(String::new(), |w| w.message.clone()),
            Fit::UnknownCapabilities(unknown) => unknown
                .iter()
                .map(|u| u.message.as_str())
                .collect::<Vec<_>>()
                .join(" | "),
            Fit::NoWorkerType { message, .. } | Fit::NotEnoughMemory { message, .. } => {
                message.clone()
            }
        }
    }

    #[test]
    fn fitting_worker_types() {
        let topology = parse(CLUSTER);
        let fit = check_fit(&topology, &requires("compute+GPU"));
        assert_eq!(
            fit,
            Fit::Fits {
                workers: vec![1],
                waves: None
            }
        );
        assert_eq!(fit.code(), None);
        let fit = check_fit(&topology, &requires("GPU+compute+GPU"));
        assert_eq!(fit.fitting_workers(), [1]);
        let fit = check_fit(&topology, &requires("compute"));
        assert_eq!(fit.fitting_workers(), [0, 1]);
        // No requirement: every type that starts workers.
        let fit = check_fit(&topology, &Requirement::default());
        assert_eq!(fit.fitting_workers(), [0, 1, 2, 3, 4, 5]);
        let memory = Requirement {
            memory: 1 << 30,
            ..Requirement::default()
        };
        assert_eq!(check_fit(&topology, &memory).fitting_workers(), [0, 1, 2]);
    }

    #[test]
    fn e0701_no_single_worker_type() {
        let topology = parse(CLUSTER);
        let fit = check_fit(&topology, &requires("CPU+GPU"));
        assert_eq!(fit.code(), Some(Code::E0701));
        assert_eq!(
            message(&fit),
            "no worker type has all of `CPU+GPU`; closest: `compute+CPU` (lacks `GPU`), `compute+GPU` (lacks `CPU`)"
        );
        let Fit::NoWorkerType { closest, .. } = fit else {
            unreachable!()
        };
        assert_eq!(
            closest,
            [
                NearMiss {
                    worker: 0,
                    missing: vec!["GPU".into()],
                    starts_workers: true
                },
                NearMiss {
                    worker: 1,
                    missing: vec!["CPU".into()],
                    starts_workers: true
                },
            ]
        );
        let fit = check_fit(&topology, &requires("IO+reduce+init+compute"));
        assert_eq!(
            message(&fit),
            "no worker type has all of `IO+reduce+init+compute`; closest: `compute+CPU` (lacks `IO`, `reduce`, `init`), `compute+GPU` (lacks `IO`, `reduce`, `init`), `reduce` (lacks `IO`, `init`, `compute`), and 3 more"
        );
    }

    #[test]
    fn e0701_empty_topology_and_idle_worker_types() {
        let empty = parse("// nothing yet");
        let fit = check_fit(&empty, &Requirement::default());
        assert_eq!(
            fit,
            Fit::NoWorkerType {
                closest: vec![],
                message: "the topology has no worker types, so nothing can run this step".into()
            }
        );
        assert_eq!(
            check_fit(&empty, &requires("GPU")).code(),
            Some(Code::E0701)
        );

        let idle = parse("compute+GPU:0 compute+CPU:4");
        let fit = check_fit(&idle, &requires("GPU"));
        assert_eq!(
            message(&fit),
            "no worker type that starts workers has all of `GPU`; `compute+GPU` has PerNode 0"
        );
        let fit = check_fit(&idle, &requires("GPU+CPU"));
        assert_eq!(
            message(&fit),
            "no worker type has all of `GPU+CPU`; closest: `compute+GPU` (lacks `CPU`; PerNode 0), `compute+CPU` (lacks `GPU`)"
        );
        let all_idle = parse("a:0 b:0");
        assert_eq!(
            message(&check_fit(&all_idle, &Requirement::default())),
            "no worker type starts workers (every PerNode is 0)"
        );
    }

    #[test]
    fn e0702_unknown_capability() {
        let topology = parse(CLUSTER);
        let fit = check_fit(&topology, &requires("compute+GPUS"));
        assert_eq!(fit.code(), Some(Code::E0702));
        assert_eq!(
            fit,
            Fit::UnknownCapabilities(vec![UnknownCapability {
                index: 1,
                name: "GPUS".into(),
                suggestion: Some("GPU".into()),
                message: "no worker type has capability `GPUS` (did you mean `GPU`?)".into(),
            }])
        );
        // Every unknown capability, once, at its first index; no far-fetched suggestion.
        let fit = check_fit(&topology, &requires("fpga+compute+fpga+Load"));
        assert_eq!(
            message(&fit),
            "no worker type has capability `fpga` | no worker type has capability `Load` (did you mean `load`?)"
        );
        let Fit::UnknownCapabilities(unknown) = fit else {
            unreachable!()
        };
        assert_eq!(unknown.iter().map(|u| u.index).collect::<Vec<_>>(), [0, 3]);
        // A capability of an idle worker type exists: E0701, not E0702.
        let idle = parse("GPU:0");
        assert_eq!(check_fit(&idle, &requires("GPU")).code(), Some(Code::E0701));
    }

    #[test]
    fn e0703_not_enough_memory() {
        let topology = parse(CLUSTER);
        let requirement = Requirement {
            memory: 2 << 30,
            memory_text: Some("2GiB"),
            ..requires("compute+GPU")
        };
        let fit = check_fit(&topology, &requirement);
        assert_eq!(fit.code(), Some(Code::E0703));
        assert_eq!(
            message(&fit),
            "no worker type with `compute+GPU` has 2GiB (2147483648 bytes); the largest has 1073741824 bytes"
        );
        let Fit::NotEnoughMemory {
            workers,
            largest_shm,
            ..
        } = fit
        else {
            unreachable!()
        };
        assert_eq!((workers, largest_shm), (vec![1], 1 << 30));
        let plain = Requirement {
            memory: 3 << 30,
            ..Requirement::default()
        };
        assert_eq!(
            message(&check_fit(&topology, &plain)),
            "no worker type has 3221225472 bytes; the largest has 2147483648 bytes"
        );
        // Exactly enough fits.
        let exact = Requirement {
            memory: 1 << 30,
            ..requires("compute+GPU")
        };
        assert_eq!(check_fit(&topology, &exact).fitting_workers(), [1]);
    }

    #[test]
    fn i0705_waves() {
        // The example of docs/diagnostics.md.
        let topology = parse("compute+GPU:2x1,1073741824 IO+load:2,16777216");
        let five = Requirement {
            instances: 5,
            ..requires("compute+GPU")
        };
        let fit = check_fit(&topology, &five);
        assert_eq!(fit.code(), Some(Code::I0705));
        assert_eq!(message(&fit), "5 instances on 2 slots: at least 3 waves");
        assert_eq!(fit.fitting_workers(), [0]);
        let two = Requirement {
            instances: 2,
            ..requires("compute+GPU")
        };
        assert_eq!(check_fit(&topology, &two).code(), None, "exactly the slots");
        let more_machines = parse("compute+GPU:2x3,1073741824 IO+load:2,16777216");
        assert_eq!(check_fit(&more_machines, &five).code(), None);
        // One fitting type on all machines: unbounded, no I0705.
        let unbounded = parse("a+x:1x1 a+y:1");
        let many = Requirement {
            instances: 100,
            ..requires("a")
        };
        assert_eq!(check_fit(&unbounded, &many).code(), None);
        // Slots summed over every fitting type.
        let finite = parse("a+x:2x2 a+y:3x1");
        let fit = check_fit(&finite, &many);
        assert_eq!(message(&fit), "100 instances on 7 slots: at least 15 waves");
        let huge = parse("a:18446744073709551615x2");
        let most = Requirement {
            instances: u64::MAX,
            ..requires("a")
        };
        assert_eq!(check_fit(&huge, &most).code(), None, "saturating slots");
    }
}
