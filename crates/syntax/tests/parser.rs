//! Data-driven parser tests: every `X.flow` under `tests/data/parser/` has its
//! expected tree and diagnostics in `X.rast` beside it. Regenerate with
//! `UPDATE_EXPECT=1 cargo test -p easyflow-syntax --test parser`.

use std::path::{Path, PathBuf};

use easyflow_syntax::{debug_tree, json_escape_into, parse};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/parser")
}

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "flow"))
        .collect();
    cases.sort();
    cases
}

/// The expected-output text of one case: the tree, then the diagnostics.
fn render(text: &str) -> String {
    let parse = parse(text);
    let mut out = debug_tree(&parse.syntax());
    if !parse.errors().is_empty() {
        out.push_str("--- diagnostics ---\n");
        for error in parse.errors() {
            let (start, end) = (u32::from(error.range.start()), u32::from(error.range.end()));
            out.push_str(&format!("{}@{start}..{end} ", error.code));
            json_escape_into(&error.message, &mut out);
            out.push('\n');
        }
    }
    out
}

fn run_dir(name: &str, expect_errors: Option<bool>) {
    let dir = data_dir().join(name);
    let cases = cases(&dir);
    assert!(!cases.is_empty(), "no cases in {}", dir.display());
    let mut failures = Vec::new();
    for case in &cases {
        let text = std::fs::read_to_string(case).unwrap();
        let parse = parse(&text);
        assert_eq!(
            parse.syntax().to_string(),
            text,
            "{}: the tree is not lossless",
            case.display()
        );
        if let Some(expected) = expect_errors {
            assert_eq!(
                !parse.errors().is_empty(),
                expected,
                "{}: cases under {name}/ {} diagnostics",
                case.display(),
                if expected {
                    "must have"
                } else {
                    "must not have"
                }
            );
        }
        let actual = render(&text);
        let expected_file = case.with_extension("rast");
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

#[test]
fn valid_constructs() {
    run_dir("ok", Some(false));
}

#[test]
fn errors_and_recovery() {
    run_dir("err", Some(true));
}

#[test]
fn corpus() {
    run_dir("corpus", None);
}
