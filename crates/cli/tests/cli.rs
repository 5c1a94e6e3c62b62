//! End-to-end tests of the `easyflow` binary: real processes, real files.
//! Expected outputs live in `tests/data/cli/`; regenerate with `UPDATE_EXPECT=1`.

mod common;

use common::{easyflow, expect_output, repo_root, stderr, stdout};

#[test]
fn check_corpus_json() {
    let output = easyflow(
        &["check", "tests/data/parser/corpus", "--format", "json"],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        report["files"].as_array().unwrap().len(),
        9,
        "every corpus file is listed, and the catalog they use"
    );
    expect_output("check-corpus.json", &stdout(&output));
}

#[test]
fn check_human_report() {
    let output = easyflow(
        &["check", "tests/data/parser/corpus/sweep-missing-comma.flow"],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(1));
    expect_output("check-human.txt", &stdout(&output));
}

#[test]
fn clean_file_exits_zero() {
    let output = easyflow(
        &["check", "tests/data/parser/corpus/control-deps.flow"],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn unreadable_and_non_utf8_files_are_named_and_others_still_checked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a-bad.flow"),
        b"step A runs P (x = \"\xff\xfe\");",
    )
    .unwrap();
    std::fs::write(dir.path().join("b-good.flow"), "step B runs P ();\n").unwrap();
    let output = easyflow(
        &["check", ".", "missing.flow", "--format", "json"],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(2));
    let errors = stderr(&output);
    assert!(errors.contains("a-bad.flow: not valid UTF-8"), "{errors}");
    assert!(errors.contains("missing.flow"), "{errors}");
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let paths: Vec<_> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].clone())
        .collect();
    assert_eq!(paths, ["b-good.flow"]);
}

#[test]
fn json_positions_are_utf16() {
    let dir = tempfile::tempdir().unwrap();
    // `😀` is two UTF-16 units and four bytes; `шаг` three units and six bytes.
    std::fs::write(
        dir.path().join("a.flow"),
        "// 😀\nstep A runs P (x = \"😀\", шаг = 1);\n",
    )
    .unwrap();
    let output = easyflow(&["check", "a.flow", "--format", "json"], dir.path());
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let diagnostic = &report["files"][0]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "E0106");
    assert_eq!(
        diagnostic["range"]["start"],
        serde_json::json!({"line": 1, "character": 25})
    );
    assert_eq!(
        diagnostic["range"]["end"],
        serde_json::json!({"line": 1, "character": 28})
    );
}

#[test]
fn bad_usage_exits_two() {
    let output = easyflow(&["check", "--format", "yaml"], &repo_root());
    assert_eq!(output.status.code(), Some(2));
}

/// Token texts of `easyflow parse` output, concatenated.
fn concatenated_tokens(tree: &str) -> String {
    tree.lines()
        .filter_map(|line| line.find(" \"").map(|i| &line[i + 1..]))
        .map(|quoted| serde_json::from_str::<String>(quoted).unwrap())
        .collect()
}

#[test]
fn parse_prints_a_lossless_tree_for_garbage() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = [
        "",
        "step",
        "]]]][[[ (((\"\\q",
        "~ step A runs (x <- sweep [1,,] post code ruby\n code endless",
        "шаг $$ 😀 \r\n\r /* open",
        "[flow: = ] [x=1] require ; ; step B runs P.Q after , on ( app: exec: exec: a = 1 b = 2 ) pre pre",
        "\u{0}\u{1}\t\"multi\nline\"\n@ @x 12345678901234567890 1.e5 .5 -.5e-3",
    ];
    for (i, input) in inputs.iter().enumerate() {
        let path = dir.path().join(format!("{i}.flow"));
        std::fs::write(&path, input).unwrap();
        let output = easyflow(&["parse", path.to_str().unwrap()], dir.path());
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "{input:?}: {}",
            stderr(&output)
        );
        assert_eq!(
            concatenated_tokens(&stdout(&output)),
            *input,
            "tokens of {input:?}"
        );
    }
}

#[test]
fn parse_tree_format() {
    let output = easyflow(
        &["parse", "tests/data/parser/corpus/control-deps.flow"],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(0));
    expect_output("parse-control-deps.txt", &stdout(&output));
}

/// Each format of two broken flows: a cycle and unresolved names
/// (`broken.flow`); a step without a package and one that never runs
/// (`no-package.flow`).
#[test]
fn graph_formats_of_broken_flows() {
    for flow in ["broken", "no-package"] {
        for (format, extension) in [
            ("json", "json"),
            ("dot", "dot"),
            ("mermaid", "mmd"),
            ("svg", "svg"),
        ] {
            let output = easyflow(
                &[
                    "graph",
                    &format!("tests/data/cli/graph/{flow}.flow"),
                    "--format",
                    format,
                ],
                &repo_root(),
            );
            assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
            expect_output(&format!("graph/{flow}.{extension}"), &stdout(&output));
        }
    }
    let output = easyflow(
        &["graph", "tests/data/parser/corpus/data-deps.flow"],
        &repo_root(),
    );
    let graph: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    // The example of cli.md.
    assert_eq!(
        graph["levels"],
        serde_json::json!([["A1", "A2"], ["B", "C"], ["D"]])
    );
}

#[test]
fn sarif_is_valid_sarif_2_1_0() {
    let output = easyflow(
        &[
            "check",
            "tests/data/parser/corpus",
            "tests/data/cli/graph",
            "--format",
            "sarif",
        ],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let sarif: serde_sarif::sarif::Sarif = serde_json::from_str(&text).expect("SARIF 2.1.0 shape");
    assert_eq!(serde_json::to_value(&sarif.version).unwrap(), "2.1.0");
    let results = sarif.runs[0].results.as_ref().unwrap();
    let json_report: serde_json::Value = serde_json::from_str(&stdout(&easyflow(
        &[
            "check",
            "tests/data/parser/corpus",
            "tests/data/cli/graph",
            "--format",
            "json",
        ],
        &repo_root(),
    )))
    .unwrap();
    let diagnostics: usize = json_report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["diagnostics"].as_array().unwrap().len())
        .sum();
    assert_eq!(
        results.len(),
        diagnostics,
        "one SARIF result per diagnostic"
    );
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cycle = value["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "E0301")
        .expect("the cycle is reported");
    assert!(
        cycle["relatedLocations"]
            .as_array()
            .is_some_and(|r| !r.is_empty())
    );
    assert_eq!(
        cycle["locations"][0]["physicalLocation"]["region"]["startLine"],
        5
    );
}

#[test]
fn directories_are_searched_recursively_and_warnings_can_fail() {
    let output = easyflow(
        &["check", "tests/data/cli/tree", "--format", "json"],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(0), "warnings alone pass");
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let paths: Vec<_> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].clone())
        .collect();
    assert_eq!(
        paths,
        [
            "tests/data/cli/tree/nested/deeper/deep.flow",
            "tests/data/cli/tree/warning.flow"
        ]
    );
    let output = easyflow(
        &["check", "tests/data/cli/tree", "--deny-warnings"],
        &repo_root(),
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "--deny-warnings fails on the W0206"
    );
}

#[test]
fn default_path_is_the_current_directory() {
    let output = easyflow(
        &["check", "--format", "json"],
        &repo_root().join("tests/data/cli/tree"),
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let paths: Vec<_> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].clone())
        .collect();
    assert_eq!(paths, ["nested/deeper/deep.flow", "warning.flow"]);
}

#[test]
fn topology_discovery_prefers_the_config_over_a_closer_decoy() {
    let flow = "tests/data/cli/discovery/a/b/train.flow";
    let output = easyflow(&["check", flow, "--format", "json"], &repo_root());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let files = report["files"].as_array().unwrap();
    assert_eq!(
        files[0]["diagnostics"][0]["code"], "E0702",
        "the config's CPU-only topology is used"
    );
    assert_eq!(
        files[1]["path"], "tests/data/cli/discovery/easyflow.toml",
        "the config is reported"
    );

    // The flag wins over both.
    let decoy = "tests/data/cli/discovery/a/b/easyflow.topology";
    let output = easyflow(&["check", flow, "--topology", decoy], &repo_root());
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));

    let output = easyflow(
        &["check", flow, "--topology", "no/such.topology"],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no/such.topology"));
}

#[test]
fn topology_files_under_the_paths_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.topology"),
        "compute:1 compute:2 gpu:x\n",
    )
    .unwrap();
    let output = easyflow(&["check", ".", "--format", "json"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let codes: Vec<_> = report["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].clone())
        .collect();
    assert!(codes.contains(&serde_json::json!("E0601")), "{codes:?}");
    assert!(codes.contains(&serde_json::json!("W0603")), "{codes:?}");
}

/// The one run of the binary on the analysis case folders (the cases
/// themselves run in-process, `tests/analysis.rs`): every flow's entry in
/// the report equals the checked-in report of that case alone.
#[test]
fn check_case_folders_through_the_binary() {
    let root = repo_root();
    let output = easyflow(
        &[
            "check",
            "tests/data/analysis",
            "tests/data/fit",
            "--format",
            "json",
        ],
        &root,
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let mut flows = 0;
    for file in report["files"].as_array().unwrap() {
        let path = std::path::Path::new(file["path"].as_str().unwrap());
        if path.extension().is_some_and(|e| e == "topology") {
            continue;
        }
        let expected = std::fs::read_to_string(root.join(path.with_extension("json")))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let expected: serde_json::Value = serde_json::from_str(&expected).unwrap();
        assert_eq!(
            *file,
            expected["files"][0],
            "{}: the binary reports what the case expects",
            path.display()
        );
        flows += 1;
    }
    let cases = ["tests/data/analysis", "tests/data/fit"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(root.join(dir)).unwrap())
        .filter(|entry| {
            entry
                .as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|e| e == "flow")
        })
        .count();
    assert_eq!(flows, cases, "every case is in the report");
}

#[test]
fn export_through_the_binary() {
    let root = repo_root();
    for format in easyflow_ide::export::FORMATS {
        let mut args = vec![
            "export",
            "tests/data/export/swept-producer-consumer.flow",
            "--to",
            format.name,
        ];
        // The CWL export's catalog says how the packages run (as in
        // tests/export.rs).
        if *format == easyflow_ide::export::CWL {
            args.extend(["--catalog", "tests/data/export/runnable-packages.toml"]);
        }
        let output = easyflow(&args, &root);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_eq!(stderr(&output), "");
        let file = format!("tests/data/export/swept-producer-consumer{}", format.suffix);
        assert_eq!(
            stdout(&output),
            std::fs::read_to_string(root.join(file)).unwrap()
        );
    }

    // -o: the same bytes in the file, nothing on stdout.
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.xml");
    let output = easyflow(
        &[
            "export",
            "tests/data/export/stream.flow",
            "--to",
            "diet",
            "-o",
            target.to_str().unwrap(),
        ],
        &root,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        std::fs::read_to_string(root.join("tests/data/export/stream.diet.xml")).unwrap()
    );

    // A flow with errors: its errors on stderr, nothing on stdout, exit 1.
    let output = easyflow(
        &[
            "export",
            "tests/data/export/refused-unresolved.flow",
            "--to",
            "model",
        ],
        &root,
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        stderr(&output),
        std::fs::read_to_string(root.join("tests/data/export/refused-unresolved.refused.txt"))
            .unwrap()
    );

    // --topology as for check; a missing one is a usage failure.
    let output = easyflow(
        &[
            "export",
            "tests/data/export/stream.flow",
            "--to",
            "model",
            "--topology",
            "tests/data/fit/easyflow.topology",
        ],
        &root,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let model: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(model["jobs"][0]["host"], "compute+CPU");
    let output = easyflow(
        &[
            "export",
            "tests/data/export/stream.flow",
            "--to",
            "model",
            "--topology",
            "nope",
        ],
        &root,
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
}

/// `--catalog PATH` beats discovery, and the catalog is reported under the
/// path as given with its own diagnostics (E0810 at their TOML location),
/// in every format.
#[test]
fn catalog_flag_reports_the_catalog_with_its_diagnostics() {
    let catalog = "tests/data/catalog/e0810-several-errors-valid-part-kept.toml";
    let flow = "tests/data/catalog-flows/e0801-ok-known-packages.flow";
    let args = |format: &'static str| ["check", flow, "--catalog", catalog, "--format", format];
    let output = easyflow(&args("json"), &repo_root());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let files = report["files"].as_array().unwrap();
    let paths: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(paths, [flow, catalog]);
    let codes = |file: &serde_json::Value| -> Vec<String> {
        file["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_string())
            .collect()
    };
    // The flow's packages are not in this catalog.
    assert_eq!(codes(&files[0]), ["E0801", "E0801"]);
    assert_eq!(codes(&files[1]), ["E0810"; 4]);
    expect_output(
        "check-catalog-human.txt",
        &stdout(&easyflow(&args("human"), &repo_root())),
    );
    let sarif: serde_json::Value =
        serde_json::from_str(&stdout(&easyflow(&args("sarif"), &repo_root()))).unwrap();
    let in_catalog = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["ruleId"] == "E0810"
                && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .is_some_and(|uri| uri.ends_with(".toml"))
        })
        .count();
    assert_eq!(in_catalog, 4);

    let missing = easyflow(&["check", flow, "--catalog", "nowhere.toml"], &repo_root());
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("--catalog nowhere.toml: cannot read: no such file"));
}

/// The SVG of a flow: well-formed XML, one labelled shape per step (and per
/// unresolved name), for clean, broken and large flows.
#[test]
fn graph_svg_is_well_formed_with_one_shape_per_step() {
    let dir = tempfile::tempdir().unwrap();
    let generated = dir.path().join("generated.flow");
    std::fs::write(&generated, easyflow_genflow::generate(300, 7)).unwrap();
    for flow in [
        "tests/data/export/worked-example.flow",
        "tests/data/cli/graph/broken.flow",
        "tests/data/parser/corpus/full-step.flow",
        generated.to_str().unwrap(),
    ] {
        let svg = easyflow(&["graph", flow, "--format", "svg"], &repo_root());
        assert_eq!(svg.status.code(), Some(0), "{}", stderr(&svg));
        let json = easyflow(&["graph", flow], &repo_root());
        let graph: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
        let text = stdout(&svg);
        let document = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{flow}: {e}"));
        assert_eq!(document.root_element().tag_name().name(), "svg");
        let shapes: Vec<(String, String)> = document
            .descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("node ")))
            .map(|n| {
                let name = n
                    .children()
                    .find(|c| c.attribute("class") == Some("name"))
                    .and_then(|c| c.text())
                    .unwrap_or_default()
                    .to_string();
                assert!(
                    n.children().any(|c| c.has_tag_name("rect")),
                    "{flow}: {name} has a shape"
                );
                (n.attribute("class").unwrap().to_string(), name)
            })
            .collect();
        let steps: Vec<&str> = shapes
            .iter()
            .filter(|(c, _)| c.starts_with("node step"))
            .map(|(_, n)| n.as_str())
            .collect();
        let nodes: Vec<&str> = graph["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["id"].as_str().unwrap())
            .collect();
        let mut sorted_steps = steps.clone();
        sorted_steps.sort();
        let mut sorted_nodes = nodes.clone();
        sorted_nodes.sort();
        assert_eq!(
            sorted_steps, sorted_nodes,
            "{flow}: one labelled shape per step"
        );
        let mut unresolved: Vec<&str> = graph["unresolved"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["name"].as_str().unwrap())
            .collect();
        unresolved.sort();
        unresolved.dedup();
        assert_eq!(shapes.len(), steps.len() + unresolved.len(), "{flow}");
        // The same input gives the same bytes.
        assert_eq!(
            stdout(&easyflow(&["graph", flow, "--format", "svg"], &repo_root())),
            text
        );
    }
}

/// Renders an SVG into a PNG in headless Chromium, as an artifact of the
/// test run (`target/tmp/graph-*.png`); skipped without Chromium.
#[test]
fn graph_svg_renders_in_headless_chromium() {
    let Some(chromium) = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            std::process::Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
    else {
        eprintln!("skipped: no Chromium on PATH");
        return;
    };
    let artifacts = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (flow, name) in [
        (
            "tests/data/export/worked-example.flow",
            "graph-worked-example",
        ),
        ("tests/data/cli/graph/broken.flow", "graph-broken"),
    ] {
        let svg_path = artifacts.join(format!("{name}.svg"));
        let png_path = artifacts.join(format!("{name}.png"));
        let _ = std::fs::remove_file(&png_path);
        let output = easyflow(&["graph", flow, "--format", "svg"], &repo_root());
        std::fs::write(&svg_path, stdout(&output)).unwrap();
        let profile = tempfile::tempdir().unwrap();
        let status = std::process::Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!("--screenshot={}", png_path.display()))
            .arg("--window-size=900,500")
            .arg(format!("file://{}", svg_path.display()))
            .output()
            .unwrap();
        let png = std::fs::read(&png_path).unwrap_or_else(|e| {
            panic!(
                "{name}: no PNG ({e}): {}",
                String::from_utf8_lossy(&status.stderr)
            )
        });
        assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
        eprintln!("rendered {}", png_path.display());
    }
}

/// `easyflow explain` prints every code's entry (its heading first, its
/// documentation link last) and refuses an unknown code with exit 2.
#[test]
fn explain_prints_every_code_and_refuses_unknown_ones() {
    let root = repo_root();
    for code in easyflow_diagnostics::Code::ALL {
        let output = easyflow(&["explain", code.as_str()], &root);
        assert_eq!(output.status.code(), Some(0), "{code}: {}", stderr(&output));
        let page = stdout(&output);
        assert!(page.starts_with(&format!("# {code}: ")), "{code}: {page}");
        assert!(
            page.ends_with(&format!(
                "Documentation: docs/diagnostics.md#{}\n",
                code.doc_anchor()
            )),
            "{code}: {page}"
        );
    }
    let output = easyflow(&["explain", "w0901"], &root);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        stderr(&output),
        "error: `w0901` is not a diagnostic code of easyflow (did you mean `E0901`?); codes are a letter (E, W or I) and four digits, listed in docs/diagnostics.md\n"
    );
}
