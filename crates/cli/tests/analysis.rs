//! Data-driven analysis tests, in-process: every
//! `tests/data/{analysis,fit,catalog-*}/X.flow` is checked as `easyflow check
//! tests/data/…/X.flow --format json` would from the repository root (the
//! same library code), and the report must equal `X.json` beside it. Flows
//! under `fit/` find the `easyflow.topology` there by discovery, and those
//! under `catalog-*/` their package catalog (the folder's
//! `easyflow-packages.toml`, or in `catalog-config/` the one its
//! `easyflow.toml` names, past a decoy).
//! `crates/cli/tests/cli.rs` checks both folders once through the binary.
//! Regenerate with `UPDATE_EXPECT=1 cargo test -p easyflow-cli --test analysis`.
//!
//! Naming: `e0201-...` cases must report that code; `e0201-ok-...` cases (near
//! misses) must not. Other names (`corpus-...`, `ordering-...`) only compare.

use easyflow_cli::{check, report};
use easyflow_test_harness::{Case, Failed, Harness, Outputs};

fn json_report(case: &Case) -> Result<Outputs, Failed> {
    let check = check::check(std::slice::from_ref(&case.path), None, None)?;
    if check.unreadable {
        return Err("the case could not be read (see stderr)".into());
    }
    let codes: Vec<&str> = check
        .files
        .first()
        .ok_or("nothing was checked")?
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    case.check_named_code(&codes)?;
    let mut json = Vec::new();
    report::json(&check.files, &mut json)?;
    Ok(vec![("json", String::from_utf8(json)?)])
}

fn main() {
    Harness::new()
        .folder("analysis", "flow", json_report)
        .folder("fit", "flow", json_report)
        .folder("catalog-flows", "flow", json_report)
        .folder("catalog-broken", "flow", json_report)
        .folder("catalog-config", "flow", json_report)
        .folder("catalog-fit", "flow", json_report)
        .folder("catalog-not-toml", "flow", json_report)
        .run();
}
