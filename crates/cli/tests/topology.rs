//! End-to-end tests of `easyflow topology FILE [--gpispace]`. Expected
//! outputs live in `tests/data/cli/topology/`; regenerate with `UPDATE_EXPECT=1`.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{easyflow, expect_output, repo_root, stderr, stdout};

/// The seed's example, with the documented values in readable units.
#[test]
fn table_of_the_corpus_topology() {
    let output = easyflow(
        &["topology", "tests/data/topology/corpus-cluster.topology"],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    expect_output("topology/cluster.txt", &stdout(&output));
}

#[test]
fn diagnostics_then_table() {
    let output = easyflow(
        &["topology", "tests/data/cli/topology/mixed.topology"],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(1), "errors in the file");
    expect_output("topology/mixed.txt", &stdout(&output));
}

#[test]
fn warnings_alone_pass() {
    let output = easyflow(
        &[
            "topology",
            "tests/data/topology/w0605-per-node-zero.topology",
        ],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(0));
    let report = stdout(&output);
    assert!(report.contains("warning[W0605]"), "{report}");
    assert!(
        report.ends_with("3 worker types, 0 errors, 2 warnings\n"),
        "{report}"
    );
}

#[test]
fn gpispace_string_drops_comments() {
    let output = easyflow(
        &[
            "topology",
            "tests/data/topology/comments.topology",
            "--gpispace",
        ],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "compute+CPU:24,1073741824 compute+GPU:2,1073741824 reduce:4\n"
    );
    assert_eq!(stderr(&output), "");
}

#[test]
fn gpispace_string_of_the_seed_example_is_unchanged() {
    let root = repo_root();
    let path = "tests/data/topology/seed-example.topology";
    let output = easyflow(&["topology", path, "--gpispace"], &root);
    assert_eq!(output.status.code(), Some(0));
    let original = std::fs::read_to_string(root.join(path)).unwrap();
    assert_eq!(stdout(&output), original);
}

#[test]
fn gpispace_with_warnings_prints_them_on_stderr() {
    let output = easyflow(
        &[
            "topology",
            "tests/data/topology/w0603-same-set.topology",
            "--gpispace",
        ],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "compute+GPU:2,1073741824 GPU+compute:4,2147483648 reduce:4 reduce:8 reduce+reduce\n"
    );
    assert!(stderr(&output).contains("warning[W0603]"));
}

#[test]
fn gpispace_with_errors_prints_no_string() {
    let output = easyflow(
        &[
            "topology",
            "tests/data/cli/topology/mixed.topology",
            "--gpispace",
        ],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "", "GPI-Space would reject the string");
    expect_output("topology/mixed-gpispace.stderr", &stderr(&output));
}

#[test]
fn empty_topology() {
    let output = easyflow(
        &["topology", "tests/data/topology/only-comments.topology"],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "no worker types\n\nchecked tests/data/topology/only-comments.topology: 0 worker types, 0 errors, 0 warnings\n"
    );
    let output = easyflow(
        &[
            "topology",
            "tests/data/topology/empty.topology",
            "--gpispace",
        ],
        &repo_root(),
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "\n");
}

#[test]
fn standard_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_easyflow"))
        .args(["topology", "-", "--gpispace"])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"a:1 // first\nb:2x3\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "a:1 b:2x3\n");
}

#[test]
fn unreadable_files_exit_two() {
    let dir = tempfile::tempdir().unwrap();
    let output = easyflow(&["topology", "missing.topology"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("missing.topology: cannot read"));
    assert_eq!(stdout(&output), "");

    std::fs::write(dir.path().join("bad.topology"), b"compute:2 \xff\xfe").unwrap();
    let output = easyflow(&["topology", "bad.topology", "--gpispace"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("bad.topology: not valid UTF-8"));
    assert_eq!(stdout(&output), "");
}
