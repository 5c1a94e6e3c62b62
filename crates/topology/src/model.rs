//! The topology model: worker types with their values and where they are written.

use std::collections::BTreeSet;

use easyflow_diagnostics::{Diagnostic, Severity, TextRange, TextSize};

/// A parsed topology file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Topology {
    /// The worker types, in the order of the file. A description with an
    /// error of its own (E0601, E0602) is not a worker type and is left out;
    /// worker types with warnings or overlapping ports (E0604) are kept.
    pub workers: Vec<WorkerType>,
    /// E0601–W0605, sorted by range start, then code.
    pub diagnostics: Vec<Diagnostic>,
}

/// One capability name and where it is written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Capability {
    pub name: String,
    pub range: TextRange,
}

/// Where each field of a worker description is written; `None` for a field
/// that is absent (its value is the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FieldRanges {
    /// The number after `#`.
    pub socket: Option<TextRange>,
    /// The number after `:`.
    pub per_node: Option<TextRange>,
    /// The number after `x`.
    pub max_nodes: Option<TextRange>,
    /// The number after `,`.
    pub shm: Option<TextRange>,
    /// The number after `/`.
    pub port: Option<TextRange>,
}

/// One worker type: a valid worker description, with the defaults of
/// topology.md §2 filled in for absent fields.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WorkerType {
    /// The capabilities as written (a name written twice appears twice).
    pub capabilities: Vec<Capability>,
    /// NUMA socket to pin the workers to; `None`: unpinned.
    pub socket: Option<u64>,
    /// Worker instances per machine (default 1).
    pub per_node: u64,
    /// Machines to start them on; 0 (the default) means all machines.
    pub max_nodes: u64,
    /// Working memory per instance in bytes (default 0).
    pub shm: u64,
    /// Base port: instance *i* uses `port + i`. Always ≤ 65535 together with
    /// the last instance's port.
    pub port: Option<u16>,
    /// The whole description.
    pub range: TextRange,
    /// The capabilities part (`compute+GPU`).
    pub capabilities_range: TextRange,
    pub field_ranges: FieldRanges,
    /// The description exactly as written.
    pub text: String,
}

impl WorkerType {
    /// The capabilities as written, e.g. `compute+GPU`: how messages name
    /// the worker type.
    pub fn name(&self) -> &str {
        let length = usize::from(self.capabilities_range.len());
        self.text.get(..length).unwrap_or(&self.text)
    }

    /// The capability set (order and repetition do not matter).
    pub fn capability_set(&self) -> BTreeSet<&str> {
        self.capabilities.iter().map(|c| c.name.as_str()).collect()
    }

    pub fn has_capability(&self, name: &str) -> bool {
        self.capabilities.iter().any(|c| c.name == name)
    }

    /// Whether it starts any worker (PerNode ≥ 1); a type that does not is
    /// ignored by the fit check.
    pub fn starts_workers(&self) -> bool {
        self.per_node >= 1
    }

    /// The ports its instances use, first and last; `None` without a port or
    /// without instances.
    pub fn port_range(&self) -> Option<(u16, u16)> {
        let first = self.port?;
        let last = u64::from(first).checked_add(self.per_node.checked_sub(1)?)?;
        Some((first, u16::try_from(last).ok()?))
    }

    /// Total worker instances, `PerNode × MaxNodes` (saturating); `None`
    /// when it is started on all machines (MaxNodes 0), i.e. unbounded here.
    pub fn slots(&self) -> Option<u64> {
        (self.max_nodes > 0).then(|| self.per_node.saturating_mul(self.max_nodes))
    }
}

impl Topology {
    /// Every distinct capability name, in order of first appearance.
    pub fn capability_names(&self) -> Vec<&str> {
        let mut seen = BTreeSet::new();
        self.workers
            .iter()
            .flat_map(|w| &w.capabilities)
            .map(|c| c.name.as_str())
            .filter(|name| seen.insert(*name))
            .collect()
    }

    /// The single-line GPI-Space topology string: the worker descriptions as
    /// written, separated by one space, without comments.
    pub fn to_gpispace(&self) -> String {
        let descriptions: Vec<&str> = self.workers.iter().map(|w| w.text.as_str()).collect();
        descriptions.join(" ")
    }

    /// Whether the file has errors (warnings do not count).
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity() == Severity::Error)
    }

    /// The worker type whose description contains `offset` (ends included),
    /// for hovers.
    pub fn worker_at(&self, offset: TextSize) -> Option<&WorkerType> {
        self.workers
            .iter()
            .find(|w| w.range.contains_inclusive(offset))
    }
}
