//! Data-driven topology tests: every `tests/data/topology/X.topology` has its
//! parsed worker types, GPI-Space string and diagnostics in `X.txt` beside it.
//! Regenerate with `UPDATE_EXPECT=1 cargo test -p easyflow-topology --test cases`.
//!
//! Naming: `e0601-...` cases must report that code; `e0601-ok-...` cases (near
//! misses) must not. `corpus-...` cases must be clean.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use easyflow_topology::{TextRange, Topology, WorkerType, parse};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/topology")
}

fn span(range: TextRange) -> String {
    format!("{}..{}", u32::from(range.start()), u32::from(range.end()))
}

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
    if !topology.diagnostics.is_empty() {
        out.push_str("--- diagnostics ---\n");
        for d in &topology.diagnostics {
            writeln!(out, "{}@{} {:?}", d.code, span(d.range), d.message).unwrap();
            for related in &d.related {
                writeln!(
                    out,
                    "  related@{} {:?}",
                    span(related.range),
                    related.message
                )
                .unwrap();
            }
        }
    }
    out
}

/// `e0601` from `e0601-ok-name`, and whether it is a near miss.
fn code_of_case(stem: &str) -> Option<(String, bool)> {
    let mut parts = stem.split('-');
    let code = parts.next()?;
    let is_code = code.len() == 5
        && code.starts_with(['e', 'w', 'i'])
        && code[1..].bytes().all(|b| b.is_ascii_digit());
    is_code.then(|| (code.to_ascii_uppercase(), parts.next() == Some("ok")))
}

#[test]
fn topology_cases() {
    let dir = data_dir();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "topology"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no cases in {}", dir.display());
    let mut failures = Vec::new();
    for case in &cases {
        let text = std::fs::read_to_string(case).unwrap();
        let topology = parse(&text);
        let stem = case.file_stem().unwrap().to_str().unwrap();
        let codes: Vec<&str> = topology
            .diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        if let Some((code, near_miss)) = code_of_case(stem) {
            assert_eq!(
                codes.contains(&code.as_str()),
                !near_miss,
                "{}: {code} {} (got {codes:?})",
                case.display(),
                if near_miss {
                    "must not be reported"
                } else {
                    "must be reported"
                }
            );
        }
        if stem.starts_with("corpus-") {
            assert_eq!(
                codes,
                [] as [&str; 0],
                "{}: corpus files are clean",
                case.display()
            );
        }
        for d in &topology.diagnostics {
            for range in std::iter::once(d.range).chain(d.related.iter().map(|r| r.range)) {
                assert!(
                    text.get(usize::from(range.start())..usize::from(range.end()))
                        .is_some(),
                    "{}: {} range {range:?} is not on char boundaries",
                    case.display(),
                    d.code
                );
            }
        }
        let expected_file = case.with_extension("txt");
        let actual = render(&topology);
        let outcome = std::panic::catch_unwind(|| {
            expect_test::expect_file![expected_file.clone()].assert_eq(&actual);
        });
        if outcome.is_err() {
            failures.push(expected_file.display().to_string());
        }
    }
    assert!(
        failures.is_empty(),
        "mismatched expectations (UPDATE_EXPECT=1 to regenerate):\n{}",
        failures.join("\n")
    );
}

/// The shared corpus's topology is the seed's example: six worker types with
/// the documented values, and no diagnostics.
#[test]
fn corpus_topology_is_the_seed_example() {
    let text = std::fs::read_to_string(data_dir().join("corpus-cluster.topology")).unwrap();
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
}
