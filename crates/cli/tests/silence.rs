//! Silencing and promoting through the `easyflow` binary: every
//! `tests/data/silence/X.project` (a scratch project, see
//! `easyflow_test_harness::project`: an `easyflow.toml` with its
//! `[diagnostics]`, flows with allow comments) is checked with `easyflow
//! check .` from its folder (or the case's `=== cli` command line from the
//! folder above it) in each report format, and `X.cli.txt` must hold the
//! human report, then each diagnostic of the JSON and the SARIF reports
//! with its severity (SARIF's `level`), each with the exit status: the
//! three always agree. The server's side of the same cases is
//! `crates/server/tests/silence.rs`. Naming: a case `w0905-…` must report
//! W0905, `w0905-ok-…` must not. Regenerate with `UPDATE_EXPECT=1`.

mod common;

use std::fmt::Write as _;

use common::{easyflow, stderr, stdout};
use easyflow_test_harness::project::Project;
use easyflow_test_harness::{Case, Failed, Harness, Outputs};
use serde_json::Value;

fn run(case: &Case) -> Result<Outputs, Failed> {
    let project = Project::create(&case.text);
    let (args, dir) = match &project.cli {
        Some(args) => (args.clone(), project.scratch().to_path_buf()),
        None => (vec!["check".into(), ".".into()], project.root()),
    };
    let mut report = String::new();
    let mut codes = Vec::new();
    for format in ["human", "json", "sarif"] {
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.extend(["--format", format]);
        let output = easyflow(&args, &dir);
        let status = output
            .status
            .code()
            .map_or("none".to_string(), |c| c.to_string());
        writeln!(report, "--- {format}: exit status {status}")?;
        let text = stdout(&output);
        match format {
            "human" => report.push_str(&text),
            "json" => {
                let json: Value = serde_json::from_str(&text)?;
                for file in json["files"].as_array().into_iter().flatten() {
                    for d in file["diagnostics"].as_array().into_iter().flatten() {
                        let start = &d["range"]["start"];
                        codes.push(d["code"].as_str().unwrap_or("?").to_string());
                        writeln!(
                            report,
                            "{} {}:{} {} {} {}",
                            file["path"].as_str().unwrap_or("?"),
                            start["line"],
                            start["character"],
                            d["code"].as_str().unwrap_or("?"),
                            d["severity"].as_str().unwrap_or("?"),
                            d["message"].as_str().unwrap_or("?"),
                        )?;
                    }
                }
                writeln!(report, "summary {}", json["summary"])?;
            }
            _ => {
                let sarif: Value = serde_json::from_str(&text)?;
                for result in sarif["runs"][0]["results"].as_array().into_iter().flatten() {
                    let location = &result["locations"][0]["physicalLocation"];
                    writeln!(
                        report,
                        "{} {}:{} {} {}",
                        location["artifactLocation"]["uri"].as_str().unwrap_or("?"),
                        location["region"]["startLine"],
                        location["region"]["startColumn"],
                        result["ruleId"].as_str().unwrap_or("?"),
                        result["level"].as_str().unwrap_or("?"),
                    )?;
                }
            }
        }
        let errors = stderr(&output);
        if !errors.is_empty() {
            writeln!(report, "--- stderr\n{errors}")?;
        }
    }
    case.check_named_code(&codes)?;
    Ok(vec![("cli.txt", project.redact(&report))])
}

fn main() {
    Harness::new().folder("silence", "project", run).run();
}
