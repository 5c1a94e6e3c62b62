//! Data-driven analysis tests through the real binary: every
//! `tests/data/{analysis,fit}/X.flow` is checked with `easyflow check X.flow
//! --format json`, and the report must equal `X.json` beside it. Flows under
//! `fit/` find the `easyflow.topology` there by discovery.
//! Regenerate with `UPDATE_EXPECT=1 cargo test -p easyflow-cli --test analysis`.
//!
//! Naming: `e0201-...` cases must report that code; `e0201-ok-...` cases (near
//! misses) must not. Other names (`corpus-...`, `ordering-...`) only compare.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

#[test]
fn analysis_cases() {
    run_cases("analysis");
}

#[test]
fn topology_fit_cases() {
    run_cases("fit");
}

fn run_cases(dir: &str) {
    let root = repo_root();
    let dir = root.join("tests/data").join(dir);
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "flow"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for case in &cases {
        let relative = case.strip_prefix(&root).unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_easyflow"))
            .args(["check", relative.to_str().unwrap(), "--format", "json"])
            .current_dir(&root)
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "{}: {}",
            case.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let codes: Vec<String> = report["files"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_string())
            .collect();
        let stem = case.file_stem().unwrap().to_str().unwrap();
        let is_code = |c: &&str| {
            c.len() == 5
                && c.starts_with(['e', 'w', 'i'])
                && c[1..].bytes().all(|b| b.is_ascii_digit())
        };
        if let Some(code) = stem.split('-').next().filter(is_code) {
            let code = code.to_ascii_uppercase();
            let near_miss = stem.split('-').nth(1) == Some("ok");
            assert_eq!(
                codes.contains(&code),
                !near_miss,
                "{}: expected {code} {}; got {codes:?}",
                case.display(),
                if near_miss {
                    "not to be reported"
                } else {
                    "to be reported"
                }
            );
        }
        let expected = case.with_extension("json");
        let outcome = std::panic::catch_unwind(|| {
            expect_test::expect_file![expected.clone()].assert_eq(&stdout);
        });
        if outcome.is_err() {
            failures.push(expected.display().to_string());
        }
    }
    assert!(
        failures.is_empty(),
        "mismatched (UPDATE_EXPECT=1 to regenerate):\n{}",
        failures.join("\n")
    );
}
