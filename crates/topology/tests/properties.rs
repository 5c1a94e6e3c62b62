//! Property tests: on any text, parsing a topology and reading requirement
//! values never panic, every range lies inside the text on char boundaries,
//! and the GPI-Space string of a topology parses back to the same worker
//! types. Two generators: arbitrary strings, and strings glued from
//! topology fragments, which reach every branch of the grammar.

use easyflow_topology::{
    Requirement, TextRange, check_fit, parse, parse_capability_set, parse_memory,
};
use proptest::prelude::*;

fn check_range(text: &str, range: TextRange, what: &str) -> Result<(), TestCaseError> {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    prop_assert!(
        text.get(start..end).is_some(),
        "{} range {:?} is not inside the text on char boundaries",
        what,
        range
    );
    Ok(())
}

fn check_topology(text: &str) -> Result<(), TestCaseError> {
    let topology = parse(text);
    for d in &topology.diagnostics {
        check_range(text, d.range, &d.message)?;
        for related in &d.related {
            check_range(text, related.range, &related.message)?;
        }
    }
    for w in &topology.workers {
        check_range(text, w.range, "worker")?;
        prop_assert_eq!(&text[w.range], w.text.as_str());
        prop_assert!(w.capabilities_range.start() == w.range.start());
        for c in &w.capabilities {
            check_range(text, c.range, &c.name)?;
            prop_assert_eq!(&text[c.range], c.name.as_str());
        }
        let f = w.field_ranges;
        for range in [f.socket, f.per_node, f.max_nodes, f.shm, f.port]
            .into_iter()
            .flatten()
        {
            check_range(text, range, "field")?;
            prop_assert!(text[range].bytes().all(|b| b.is_ascii_digit()));
        }
    }

    // The GPI-Space string holds the same worker types, and nothing else.
    let gpispace = topology.to_gpispace();
    prop_assert!(!gpispace.contains("//") && !gpispace.contains('\n'));
    let again = parse(&gpispace);
    let values = |t: &easyflow_topology::Topology| -> Vec<_> {
        t.workers
            .iter()
            .map(|w| {
                (
                    w.text.clone(),
                    w.capability_set()
                        .into_iter()
                        .map(str::to_string)
                        .collect::<Vec<_>>(),
                    w.socket,
                    w.per_node,
                    w.max_nodes,
                    w.shm,
                    w.port,
                )
            })
            .collect()
    };
    prop_assert_eq!(values(&again), values(&topology));
    prop_assert!(
        !again
            .diagnostics
            .iter()
            .any(|d| matches!(d.code.as_str(), "E0601" | "E0602")),
        "the GPI-Space string has syntax errors: {:?}",
        again.diagnostics
    );

    // The fit check takes any names and sizes.
    let names = topology.capability_names();
    let requirement = Requirement {
        capabilities: names.iter().copied().chain(["nowhere"]).take(3).collect(),
        memory: text.len() as u64,
        memory_text: Some(text),
        instances: u64::MAX,
    };
    let _ = check_fit(&topology, &requirement);
    let _ = check_fit(&topology, &Requirement::default());
    Ok(())
}

fn check_values(text: &str) -> Result<(), TestCaseError> {
    match parse_capability_set(text) {
        Ok(capabilities) => {
            prop_assert!(!capabilities.is_empty());
            for c in capabilities {
                check_range(text, c.range, &c.name)?;
                prop_assert_eq!(&text[c.range], c.name.as_str());
            }
        }
        Err(error) => check_range(text, error.range, &error.message)?,
    }
    if let Err(error) = parse_memory(text) {
        check_range(text, error.range, &error.message)?;
    }
    Ok(())
}

/// Strings glued from topology fragments, valid and not.
fn topology_like() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        Just("compute".to_string()),
        Just("GPU".to_string()),
        Just("x".to_string()),
        Just("_a1".to_string()),
        Just("+".to_string()),
        Just("#".to_string()),
        Just(":".to_string()),
        Just(",".to_string()),
        Just("/".to_string()),
        Just("//".to_string()),
        Just(" ".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("\t".to_string()),
        Just("0".to_string()),
        Just("65535".to_string()),
        Just("18446744073709551616".to_string()),
        Just("\u{feff}".to_string()),
        Just("шаг".to_string()),
        Just("😀".to_string()),
        (0u64..100_000).prop_map(|n| n.to_string()),
        "[a-zA-Z_][a-zA-Z0-9_]{0,6}",
        "[0-9]{1,25}",
        "[ -~]",
        "\\PC",
    ];
    proptest::collection::vec(fragment, 0..40).prop_map(|parts| parts.concat())
}

/// Well-formed descriptions, so that the checks between worker types run.
fn valid_topology() -> impl Strategy<Value = String> {
    let description = (
        proptest::collection::vec(prop_oneof![Just("a"), Just("b"), Just("c")], 1..3),
        proptest::option::of(0u8..3),
        proptest::option::of((
            0u32..70_000,
            proptest::option::of(0u8..4),
            proptest::option::of(0u64..1 << 33),
            proptest::option::of(65_000u32..65_600),
        )),
    )
        .prop_map(|(names, socket, instances)| {
            let mut text = names.join("+");
            if let Some(socket) = socket {
                text += &format!("#{socket}");
            }
            if let Some((per_node, max_nodes, shm, port)) = instances {
                text += &format!(":{per_node}");
                if let Some(max_nodes) = max_nodes {
                    text += &format!("x{max_nodes}");
                }
                if let Some(shm) = shm {
                    text += &format!(",{shm}");
                }
                if let Some(port) = port {
                    text += &format!("/{port}");
                }
            }
            text
        });
    proptest::collection::vec(description, 0..8).prop_map(|d| d.join(" // c\n"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arbitrary_strings(text in "\\PC*") {
        check_topology(&text)?;
        check_values(&text)?;
    }

    #[test]
    fn topology_like_strings(text in topology_like()) {
        check_topology(&text)?;
        check_values(&text)?;
    }

    #[test]
    fn valid_topologies(text in valid_topology()) {
        check_topology(&text)?;
    }
}
