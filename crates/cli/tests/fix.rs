//! `easyflow check --fix` through the binary: every `tests/data/fix/X.flow`
//! is copied into a scratch folder (with the folder's package catalog) and
//! fixed there with `easyflow check --fix X.flow`. The file it leaves must
//! equal `X.fixed` (a carriage return shown as `␍`), and the exit status, report and what it said it fixed
//! `X.out`. Then:
//!
//! - a second run changes nothing and fixes nothing (idempotent);
//! - the fixed file has no error the original did not have, and none of the
//!   codes it said it fixed, unless the original had more of them;
//! - a file left with syntax errors is byte for byte the original.
//!
//! Regenerate with `UPDATE_EXPECT=1`.

mod common;

use std::collections::HashMap;
use std::path::Path;

use common::{easyflow, stderr, stdout};
use easyflow_test_harness::{Case, Failed, Harness, Outputs};
use serde_json::Value;

/// The catalog the cases' flows are checked with.
const CATALOG: &str = "tests/data/fix/easyflow-packages.toml";

/// `easyflow check --format json FILE` in `dir`: each diagnostic's
/// severity, code and message, and how many times each comes.
fn diagnostics(dir: &Path, file: &str) -> HashMap<(String, String, String), usize> {
    let output = easyflow(&["check", "--format", "json", file], dir);
    let report: Value = serde_json::from_str(&stdout(&output)).expect("a JSON report");
    let mut counts = HashMap::new();
    let flow = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == file)
        .expect("the flow is reported");
    for d in flow["diagnostics"].as_array().unwrap() {
        let key = |k: &str| d[k].as_str().unwrap_or_default().to_string();
        *counts
            .entry((key("severity"), key("code"), key("message")))
            .or_default() += 1;
    }
    counts
}

fn run(case: &Case) -> Result<Outputs, Failed> {
    let dir = tempfile::tempdir()?;
    let name = case
        .path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or("a case file name")?;
    let original = std::fs::read_to_string(&case.path)?;
    std::fs::write(dir.path().join(name), &original)?;
    std::fs::copy(CATALOG, dir.path().join("easyflow-packages.toml"))?;
    let before = diagnostics(dir.path(), name);

    let output = easyflow(&["check", "--fix", name], dir.path());
    let said = stderr(&output);
    let report = format!(
        "exit status {}\n--- stdout\n{}--- stderr\n{said}",
        output
            .status
            .code()
            .map_or("none".to_string(), |c| c.to_string()),
        stdout(&output),
    );
    let fixed = std::fs::read_to_string(dir.path().join(name))?;

    // Idempotent: nothing more to fix, nothing changed.
    let again = easyflow(&["check", "--fix", name], dir.path());
    let said_again = stderr(&again);
    if !said_again.ends_with("fixed 0 problems in 0 files\n") {
        return Err(format!("a second run fixed more:\n{said_again}").into());
    }
    if std::fs::read_to_string(dir.path().join(name))? != fixed {
        return Err("a second run changed the file".into());
    }
    if said.contains(": left as it was:") && fixed != original {
        return Err("a file left with syntax errors was written".into());
    }

    // No new error; no fixed code left, unless the original had more.
    let after = diagnostics(dir.path(), name);
    for ((severity, code, message), count) in &after {
        let had = before
            .get(&(severity.clone(), code.clone(), message.clone()))
            .copied()
            .unwrap_or(0);
        if severity == "error" && *count > had {
            return Err(format!("a new error: {code} {message}").into());
        }
    }
    for line in said.lines() {
        let Some((_, rest)) = line.split_once(": fixed ") else {
            continue;
        };
        let code = &rest[..5];
        let count = |of: &HashMap<(String, String, String), usize>| -> usize {
            of.iter().filter(|(k, _)| k.1 == code).map(|(_, n)| n).sum()
        };
        // A code the fixes brought and fixed (a second pass's) had none.
        if count(&after) > count(&before).saturating_sub(1) {
            return Err(format!("{code} was fixed but is still reported as often").into());
        }
    }
    // A carriage return shown, as the formatter's cases show it.
    Ok(vec![("fixed", fixed.replace('\r', "␍")), ("out", report)])
}

/// Standard input cannot be fixed in place: bad usage, and nothing read.
fn standard_input_is_refused() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let output = common::easyflow_with_stdin(&["check", "--fix", "-"], "require a;\n", dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "error: --fix fixes files in place: it cannot fix standard input (`-`)\n"
    );
    assert_eq!(stdout(&output), "");
    Ok(())
}

fn main() {
    Harness::new()
        .folder("fix", "flow", run)
        .test("standard input is refused", standard_input_is_refused)
        .run();
}
