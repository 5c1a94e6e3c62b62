//! What the end-to-end tests of the `easyflow` binary share.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Where the human report's links point in the tests: the same in every
/// checkout (the installed documentation's URL holds the checkout's path).
pub const DOCS_URL: &str = "docs/diagnostics.md";

/// Runs `easyflow` with `args` in `dir`, without colors or stdin.
pub fn easyflow(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_easyflow"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env(easyflow_cli::explain::DOCS_URL_VARIABLE, DOCS_URL)
        .stdin(Stdio::null())
        .output()
        .expect("the easyflow binary runs")
}

/// Runs `easyflow` with `args` in `dir`, without colors, with `input` on
/// its standard input.
pub fn easyflow_with_stdin(args: &[&str], input: &str, dir: &Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_easyflow"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env(easyflow_cli::explain::DOCS_URL_VARIABLE, DOCS_URL)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the easyflow binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    // The command may refuse before reading all of it (a closed pipe).
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().expect("the easyflow binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// Compares `actual` with `tests/data/cli/<name>` (`UPDATE_EXPECT=1` rewrites it).
pub fn expect_output(name: &str, actual: &str) {
    let expected = repo_root().join("tests/data/cli").join(name);
    if let Err(mismatch) = easyflow_test_harness::compare_with_file(&expected, actual) {
        panic!("{mismatch}");
    }
}
