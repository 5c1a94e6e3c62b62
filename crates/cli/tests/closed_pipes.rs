//! A closed standard output or error (`easyflow check m1.flow 2>&1 | head -1`)
//! is the end of the output: every command then ends quietly, as Unix tools
//! do (by SIGPIPE), never with a panic (exit status 101) or an error about
//! the write.

#![cfg(unix)]

mod common;

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus, Stdio};

use common::repo_root;

const SIGPIPE: i32 = 13;

/// Which of the output streams is a pipe whose reader is gone.
#[derive(Clone, Copy, Debug)]
enum Closed {
    Stdout,
    Stderr,
    Both,
}

/// Runs `easyflow args` (from the repository's root, with `input` on its
/// stdin) with `closed` a pipe nobody reads; returns how it ended and what
/// it wrote on the other stream (empty when both are closed).
fn run(args: &[&str], input: &str, closed: Closed) -> (ExitStatus, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut command = Command::new(env!("CARGO_BIN_EXE_easyflow"));
    command
        .args(args)
        .current_dir(repo_root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped());
    match closed {
        Closed::Stdout => command.stdout(writer).stderr(Stdio::piped()),
        Closed::Stderr => command.stdout(Stdio::piped()).stderr(writer),
        Closed::Both => command.stdout(writer.try_clone().unwrap()).stderr(writer),
    };
    let mut child = command.spawn().expect("the easyflow binary runs");
    // The command may end before it reads its input.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let output = child.wait_with_output().unwrap();
    let other = match closed {
        Closed::Stdout => output.stderr,
        Closed::Stderr => output.stdout,
        Closed::Both => Vec::new(),
    };
    (output.status, String::from_utf8_lossy(&other).into_owned())
}

fn assert_ends_quietly(args: &[&str], input: &str, closed: Closed) {
    let (status, other) = run(args, input, closed);
    assert_eq!(
        status.signal(),
        Some(SIGPIPE),
        "`easyflow {}` with {closed:?} closed: {status}, other stream: {other}",
        args.join(" ")
    );
    if matches!(closed, Closed::Stdout) {
        assert_eq!(other, "", "`easyflow {}` wrote on stderr", args.join(" "));
    }
}

const WITH_ERRORS: &str = "tests/data/parser/corpus/sweep-missing-comma.flow";
const CLEAN: &str = "tests/data/parser/corpus/control-deps.flow";

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    for args in [
        &["check", WITH_ERRORS][..],
        &["check", CLEAN],
        &["check", WITH_ERRORS, "--format", "json"],
        &["check", WITH_ERRORS, "--format", "sarif"],
        &["fmt", "-"],
        &["parse", "-"],
        &["graph", CLEAN, "--format", "dot"],
        &["export", CLEAN, "--to", "diet"],
        &["topology", "tests/data/topology/all-fields.topology"],
        &[
            "topology",
            "tests/data/topology/all-fields.topology",
            "--gpispace",
        ],
        &["--help"],
        &["--version"],
    ] {
        assert_ends_quietly(args, "step A runs P ();\n", Closed::Stdout);
    }
}

#[test]
fn a_closed_stdout_and_stderr_end_a_check_quietly() {
    // `easyflow check m1.flow 2>&1 | head -1`, once `head` has its line.
    assert_ends_quietly(&["check", WITH_ERRORS], "", Closed::Both);
    assert_ends_quietly(&["fmt", "-"], "step A runs P (", Closed::Both);
}

#[test]
fn a_closed_stderr_ends_a_command_with_errors_quietly() {
    for args in [
        &["check", "missing.flow"][..],
        &["fmt", "-"],
        &["check", "--no-such-option"],
    ] {
        assert_ends_quietly(args, "step A runs P (", Closed::Stderr);
    }
}
