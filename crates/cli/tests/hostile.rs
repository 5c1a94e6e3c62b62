//! Hostile project files through the `easyflow` binary: every
//! `tests/data/hostile/X.project` (a scratch project of FIFOs, devices,
//! giants, … see `easyflow_test_harness::project`) is checked with
//! `easyflow check .` from its folder, and the exit status, stdout and
//! stderr must equal `X.cli.txt`. The server's side of the same cases is
//! `crates/server/tests/hostile.rs`. Regenerate with `UPDATE_EXPECT=1`.

mod common;

use common::{easyflow, stderr, stdout};
use easyflow_test_harness::project::Project;
use easyflow_test_harness::{Case, Failed, Harness, Outputs};

fn check(case: &Case) -> Result<Outputs, Failed> {
    let project = Project::create(&case.text);
    let output = easyflow(&["check", "."], &project.root());
    let report = format!(
        "exit status {}\n--- stdout\n{}--- stderr\n{}",
        output
            .status
            .code()
            .map_or("none".to_string(), |c| c.to_string()),
        stdout(&output),
        stderr(&output)
    );
    Ok(vec![("cli.txt", project.redact(&report))])
}

fn main() {
    Harness::new().folder("hostile", "project", check).run();
}
