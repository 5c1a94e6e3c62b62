//! Scratch projects through the `easyflow` binary: every
//! `tests/data/hostile/X.project` (a scratch project of FIFOs, devices,
//! giants, … see `easyflow_test_harness::project`) is checked with
//! `easyflow check .` from its folder (or the case's `=== cli` command line
//! from the folder above it), and the exit status, stdout and stderr must
//! equal `X.cli.txt`. The server's side of the same cases is
//! `crates/server/tests/hostile.rs`. The cases of `tests/data/cli/projects`
//! (the commands given files of each kind, standard input, paths that
//! yield nothing) run the same way, through the CLI only. Regenerate with
//! `UPDATE_EXPECT=1`.

mod common;

use common::{easyflow, easyflow_with_stdin, stderr, stdout};
use easyflow_test_harness::project::Project;
use easyflow_test_harness::{Case, Failed, Harness, Outputs};

fn run(case: &Case) -> Result<Outputs, Failed> {
    let project = Project::create(&case.text);
    let (args, dir) = match &project.cli {
        Some(args) => (args.clone(), project.scratch().to_path_buf()),
        None => (vec!["check".into(), ".".into()], project.root()),
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = match &project.stdin {
        Some(input) => easyflow_with_stdin(&args, input, &dir),
        None => easyflow(&args, &dir),
    };
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
    Harness::new()
        .folder("hostile", "project", run)
        .folder("cli/projects", "project", run)
        .run();
}
