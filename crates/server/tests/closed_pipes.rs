//! A closed stdout or stderr: the end of the output, never a panic. A
//! closed stdout (the protocol) ends the session; a closed stderr costs only
//! the log; `--version`, `--help` and a usage error end quietly.

mod support;

use std::io::Write;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Instant;

use serde_json::json;
use support::{Server, TIMEOUT, repo_root};

/// A pipe whose reader is gone: every write to it fails.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    writer.into()
}

fn wait(child: &mut std::process::Child) -> ExitStatus {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "easyflow-ls did not exit");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn a_closed_stdout_ends_the_session_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_easyflow-ls"))
        .arg("--stdio")
        .env("EASYFLOW_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"capabilities": {}}})
    .to_string();
    let mut stdin = child.stdin.take().unwrap();
    write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    stdin.flush().unwrap();
    // Stdin stays open: the server ends because nobody reads its answers.
    let status = wait(&mut child);
    drop(stdin);
    let log = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    assert_eq!(status.code(), Some(1), "no shutdown came; log: {log}");
    assert!(log.contains("the output is closed"), "{log}");
    assert!(!log.contains("panicked"), "{log}");
}

#[test]
fn a_closed_stderr_costs_only_the_log() {
    let mut server = Server::start_with(&[("EASYFLOW_LOG", "trace")], Some(closed_pipe()));
    let dir = repo_root().join("tests/data/lsp/catalog-workspace");
    server.initialize(&dir, json!({}), json!({}));
    let uri = server.open(&dir.join("typing.flow"), "step A runs P (x = y);\n");
    let codes: Vec<_> = server
        .diagnostics(&uri, 0)
        .iter()
        .map(|d| d["code"].clone())
        .collect();
    assert_eq!(codes, [json!("E0801"), json!("E0201")]);
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn version_help_and_a_usage_error_end_quietly() {
    for (arg, closed_stdout, expected) in [
        ("--version", true, 0),
        ("--help", true, 0),
        ("--no-such-flag", false, 2),
    ] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_easyflow-ls"));
        command.arg(arg).stdin(Stdio::null());
        if closed_stdout {
            command.stdout(closed_pipe()).stderr(Stdio::piped());
        } else {
            command.stdout(Stdio::piped()).stderr(closed_pipe());
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(expected), "{arg}: {output:?}");
        assert!(
            output.stderr.is_empty() && output.stdout.is_empty(),
            "{arg}: {output:?}"
        );
    }
}
