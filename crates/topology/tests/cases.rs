//! Data-driven topology tests: every `tests/data/topology/X.topology` has its
//! parsed worker types, GPI-Space string and diagnostics in `X.txt` beside it.
//! Regenerate with `UPDATE_EXPECT=1 cargo test -p easyflow-topology --test cases`.
//!
//! Naming: `e0601-...` cases must report that code; `e0601-ok-...` cases (near
//! misses) must not. `corpus-...` cases must be clean.

use std::fmt::Write;

use easyflow_test_harness::{Case, Failed, Harness, Outputs, span};
use easyflow_topology::{TextRange, Topology, WorkerType, parse};

fn field(
    out: &mut String,
    label: &str,
    value: Option<String>,
    range: Option<TextRange>,
    default: &str,
) {
    match (value, range) {
        (Some(value), Some(range)) => writeln!(out, "  {label}: {value} @{}", span(range)),
        _ => writeln!(out, "  {label}: {default} (default)"),
    }
    .unwrap();
}

fn render_worker(out: &mut String, index: usize, w: &WorkerType) {
    writeln!(out, "worker {index} @{} {:?}", span(w.range), w.text).unwrap();
    let capabilities: Vec<String> = w
        .capabilities
        .iter()
        .map(|c| format!("{}@{}", c.name, span(c.range)))
        .collect();
    writeln!(
        out,
        "  capabilities @{}: {}",
        span(w.capabilities_range),
        capabilities.join(", ")
    )
    .unwrap();
    let r = w.field_ranges;
    field(
        out,
        "socket",
        w.socket.map(|s| s.to_string()),
        r.socket,
        "unpinned",
    );
    field(
        out,
        "per node",
        Some(w.per_node.to_string()),
        r.per_node,
        "1",
    );
    field(
        out,
        "max nodes",
        Some(w.max_nodes.to_string()),
        r.max_nodes,
        "0",
    );
    field(out, "shm", Some(w.shm.to_string()), r.shm, "0");
    field(out, "port", w.port.map(|p| p.to_string()), r.port, "none");
}

/// The expected-output text of one case.
fn render(topology: &Topology) -> String {
    let mut out = String::new();
    for (index, worker) in topology.workers.iter().enumerate() {
        render_worker(&mut out, index, worker);
    }
    writeln!(out, "gpispace: {:?}", topology.to_gpispace()).unwrap();
    writeln!(out, "capability names: {:?}", topology.capability_names()).unwrap();
    easyflow_test_harness::render_diagnostics(&mut out, &topology.diagnostics);
    out
}

/// The checks and the expected output of one case.
fn topology_case(case: &Case) -> Result<Outputs, Failed> {
    let topology = parse(&case.text);
    let codes: Vec<&str> = topology
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    case.check_named_code(&codes)?;
    if case.name.starts_with("corpus-") && !codes.is_empty() {
        return Err(format!("corpus files are clean; reported: {codes:?}").into());
    }
    for d in &topology.diagnostics {
        for range in std::iter::once(d.range).chain(d.related.iter().map(|r| r.range)) {
            if case
                .text
                .get(usize::from(range.start())..usize::from(range.end()))
                .is_none()
            {
                return Err(format!("{} range {range:?} is not on char boundaries", d.code).into());
            }
        }
    }
    Ok(vec![("txt", render(&topology))])
}

/// The shared corpus's topology is the seed's example: six worker types with
/// the documented values, and no diagnostics.
fn corpus_topology_is_the_seed_example() -> Result<(), Failed> {
    let text = std::fs::read_to_string("tests/data/topology/corpus-cluster.topology")?;
    let topology = parse(&text);
    assert_eq!(topology.diagnostics, []);
    let values: Vec<(String, u64, u64, u64)> = topology
        .workers
        .iter()
        .map(|w| (w.name().to_string(), w.per_node, w.max_nodes, w.shm))
        .collect();
    let expected = [
        ("compute+CPU", 24, 0, 1 << 30),
        ("compute+GPU", 2, 0, 1 << 30),
        ("reduce", 4, 0, 2 << 30),
        ("IO+load", 2, 0, 16 << 20),
        ("IO+store", 2, 0, 16 << 20),
        ("init", 1, 1, 0),
    ]
    .map(|(name, per_node, max_nodes, shm)| (name.to_string(), per_node, max_nodes, shm));
    assert_eq!(values, expected);
    Ok(())
}

fn main() {
    Harness::new()
        .folder("topology", "topology", topology_case)
        .test(
            "corpus_topology_is_the_seed_example",
            corpus_topology_is_the_seed_example,
        )
        .run();
}
