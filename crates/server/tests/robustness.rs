//! The server never exits or stops answering because of what a client sends
//! (lsp.md "Robustness"), changes apply in order, and the exit status
//! follows the protocol. Through the real binary over stdio.

mod support;

use serde_json::{Value, json};
use support::{Server, repo_root, uri};

fn started() -> (Server, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start();
    server.initialize(dir.path(), json!({}), json!({}));
    (server, dir)
}

/// The server still answers: a hover on an open document.
fn still_answers(server: &mut Server, dir: &std::path::Path) {
    let path = dir.join("alive.flow");
    let uri = server.open(&path, "step Alive runs P ();\n");
    server.diagnostics(&uri, 0);
    let result = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 6}}),
    );
    assert!(result.to_string().contains("Alive"), "{result}");
}

#[test]
fn shutdown_then_exit_is_status_0_and_exit_alone_is_1() {
    let (server, _dir) = started();
    assert_eq!(server.stop().code(), Some(0));
    let (mut server, _dir) = started();
    server.notify("exit", Value::Null);
    assert_eq!(server.wait().code(), Some(1));
    // `exit` right behind `shutdown`, without waiting for its reply.
    let (mut server, _dir) = started();
    server.send_request("shutdown", Value::Null);
    server.notify("exit", Value::Null);
    assert_eq!(server.wait().code(), Some(0));
}

#[test]
fn version_flag() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_easyflow-ls"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("easyflow-ls "));
}

#[test]
fn unknown_methods_answer_method_not_found() {
    let (mut server, dir) = started();
    let id = server.send_request("easyflow/doesNotExist", json!({}));
    let response = server.response(id);
    assert_eq!(response["error"]["code"], -32601, "{response}");
    still_answers(&mut server, dir.path());
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn malformed_json_and_bad_framing_do_not_kill_the_server() {
    let (mut server, dir) = started();
    server.send_raw(b"Content-Length: 12\r\n\r\n{not json!!}");
    server.send_raw(b"Content-Length: 5\r\n\r\n[1,2]");
    still_answers(&mut server, dir.path());
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn requests_for_unopened_documents_read_the_disk() {
    let (mut server, dir) = started();
    let path = dir.path().join("closed.flow");
    std::fs::write(&path, "step OnDisk runs P ();\n").unwrap();
    let result = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&path)}, "position": {"line": 0, "character": 7}}),
    );
    assert!(result.to_string().contains("OnDisk"), "{result}");
    // A document that does not exist: an empty result, not an error.
    let missing = dir.path().join("missing.flow");
    let result = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&missing)}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(result, Value::Null);
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn positions_and_change_ranges_beyond_the_document_are_clamped() {
    let (mut server, dir) = started();
    let uri = server.open(&dir.path().join("a.flow"), "step A runs P ();\n");
    server.diagnostics(&uri, 0);
    for position in [
        json!({"line": 0, "character": 999}),
        json!({"line": 99, "character": 0}),
    ] {
        let id = server.send_request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": position}),
        );
        let response = server.response(id);
        assert!(response.get("error").is_none(), "{response}");
    }
    server.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 1},
            "contentChanges": [{"range": {"start": {"line": 50, "character": 0}, "end": {"line": 60, "character": 3}}, "text": "step B runs Q ();\n"}]
        }),
    );
    assert!(server.diagnostics(&uri, 1).is_empty());
    let symbols = server.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(symbols.as_array().map(Vec::len), Some(2), "{symbols}");
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn a_50_mb_document() {
    let (mut server, dir) = started();
    let mut text = easyflow_genflow::generate(30_000, 9);
    while text.len() < 50 * 1024 * 1024 {
        text.push_str(
            "// padding comment to make the document large ............................\n",
        );
    }
    let uri = server.open(&dir.path().join("huge.flow"), &text);
    assert!(server.diagnostics(&uri, 0).is_empty());
    still_answers(&mut server, dir.path());
    assert_eq!(server.stop().code(), Some(0));
}

/// The analysis of a text, in process, as LSP diagnostics would show codes
/// and start positions (UTF-16).
fn fresh_check(text: &str) -> Vec<(String, u32, u32)> {
    let db = easyflow_db::Database::default();
    let file = easyflow_db::SourceFile::new(&db, "fresh.flow".into(), text.into());
    let index = line_index::LineIndex::new(text);
    easyflow_db::file_diagnostics(&db, file)
        .iter()
        .map(|d| {
            let start = index.line_col(d.range.start());
            let wide = index
                .to_wide(line_index::WideEncoding::Utf16, start)
                .unwrap();
            (d.code.as_str().to_string(), wide.line, wide.col)
        })
        .collect()
}

#[test]
fn a_burst_of_changes_with_hovers_ends_in_a_fresh_check_of_the_final_text() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start_with_env(&[("EASYFLOW_LOG", "easyflow_ls=debug")]);
    server.initialize(dir.path(), json!({}), json!({}));
    let mut text =
        std::fs::read_to_string(repo_root().join("tests/data/parser/corpus/full-step.flow"))
            .unwrap();
    let uri = server.open(&dir.path().join("burst.flow"), &text);
    server.diagnostics(&uri, 0);
    let mut hovers = Vec::new();
    let inserts = [
        "x",
        "Q",
        "\"",
        "// ☃ comment\n",
        ",",
        ")",
        "step Z runs P (a = Load);\n",
    ];
    for version in 1..=200i64 {
        // Insert at pseudo-random places: names, strings, punctuation break and mend.
        let insert = inserts[version as usize % inserts.len()];
        let mut offset = (version as usize * 7919) % (text.len() + 1);
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let (line, character) = {
            let index = line_index::LineIndex::new(&text);
            let line_col = index.line_col((offset as u32).into());
            let wide = index
                .to_wide(line_index::WideEncoding::Utf16, line_col)
                .unwrap();
            (wide.line, wide.col)
        };
        text.insert_str(offset, insert);
        server.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": {"line": line, "character": character}, "end": {"line": line, "character": character}}, "text": insert}]
            }),
        );
        if version % 3 == 0 {
            hovers.push(server.send_request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 7}}),
            ));
        }
    }
    for id in hovers {
        let response = server.response(id);
        // A stale hover may answer ContentModified; anything else is a bug.
        if let Some(error) = response.get("error") {
            assert_eq!(error["code"], -32801, "{response}");
        }
    }
    let published: Vec<(String, u32, u32)> = server
        .diagnostics(&uri, 200)
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap() as u32,
                d["range"]["start"]["character"].as_u64().unwrap() as u32,
            )
        })
        .collect();
    assert_eq!(published, fresh_check(&text));
    // No diagnostics for an older version arrive after the final ones.
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn logs_go_to_stderr_never_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start_with_env(&[("EASYFLOW_LOG", "trace")]);
    server.initialize(dir.path(), json!({}), json!({}));
    still_answers(&mut server, dir.path());
    // The support client fails on anything on stdout that is not a framed
    // JSON message; with tracing at its most verbose, the log has lines.
    assert_eq!(server.stop().code(), Some(0));
}

/// Found by the session fuzzer: any change to the analysis cancels every
/// computation on it, also the diagnostics of a document that did not
/// change; they must be computed again, not dropped.
#[test]
fn diagnostics_cancelled_by_another_documents_change_still_arrive() {
    let (mut server, dir) = started();
    // Large enough that its first check is still running when the other
    // document changes.
    let text = easyflow_genflow::generate(4_000, 3);
    let slow = server.open(&dir.path().join("slow.flow"), &text);
    let other = server.open(&dir.path().join("other.flow"), "step A runs P ();\n");
    for version in 1..=20 {
        server.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": other, "version": version},
                "contentChanges": [{"text": format!("step A{version} runs P ();\n")}]
            }),
        );
    }
    assert!(server.diagnostics(&slow, 0).is_empty());
    assert!(server.diagnostics(&other, 20).is_empty());
    assert_eq!(server.stop().code(), Some(0));
}

/// Found by the session fuzzer: the selection ranges of a list nested as
/// deep as the parser allows nested deeper than a client's JSON reader
/// takes (serde_json stops at 128 levels): chains are capped.
#[test]
fn selection_ranges_inside_the_deepest_list() {
    let (mut server, dir) = started();
    let depth = 127;
    let text = format!(
        "step Deep runs P (value = {}1{});\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let uri = server.open(&dir.path().join("deep.flow"), &text);
    server.diagnostics(&uri, 0);
    let position = json!({"line": 0, "character": 26 + depth});
    let result = server.request(
        "textDocument/selectionRange",
        json!({"textDocument": {"uri": uri}, "positions": [position]}),
    );
    let mut levels = 0;
    let mut range = &result[0];
    while !range.is_null() {
        levels += 1;
        range = &range["parent"];
    }
    assert!((2..=48).contains(&levels), "{levels} levels");
    assert_eq!(server.stop().code(), Some(0));
}

/// A project folder `p{i}` whose configuration names a folder as its
/// topology (so a new skipped file, and a new warning, for each `i`), with
/// a closed flow of `text`; returns the flow's path.
fn project_skipping_its_topology(
    root: &std::path::Path,
    i: usize,
    text: &str,
) -> std::path::PathBuf {
    let project = root.join(format!("p{i}"));
    std::fs::create_dir_all(project.join("site.topology")).unwrap();
    std::fs::write(
        project.join("easyflow.toml"),
        "topology = \"site.topology\"\n",
    )
    .unwrap();
    let closed = project.join("closed.flow");
    std::fs::write(&closed, text).unwrap();
    closed
}

/// A server on a new workspace with one open flow: its text and URI.
fn started_with_an_open_flow() -> (Server, tempfile::TempDir, String, String) {
    let (mut server, dir) = started();
    let text = "step A runs P ();\n".to_string();
    let open = server.open(&dir.path().join("open.flow"), &text);
    (server, dir, text, open)
}

/// Adds a step to the open flow at `uri`, as its `version`.
fn add_a_step(server: &mut Server, uri: &str, text: &mut String, version: usize) {
    text.push_str("step C runs P ();\n");
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
    );
}

/// Each request is answered, or refused as modified by the edits behind it.
fn assert_answered(server: &mut Server, requests: Vec<i64>) {
    for id in requests {
        let response = server.response(id);
        assert!(
            response.get("result").is_some() || response["error"]["code"] == -32801,
            "{response}"
        );
    }
}

/// A hover on the name of the first step of the flow at `path`.
fn hover_at_step_name(server: &mut Server, path: &std::path::Path) -> i64 {
    server.send_request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(path)}, "position": {"line": 0, "character": 6}}),
    )
}

/// A request on a closed flow whose reading skips a file shows a warning
/// before its answer: an await, during which the message loop (which polls
/// the request) handles the next edit. The request must not hold its
/// snapshot across it: the edit's write waits for every snapshot to go,
/// on the very thread that would have to drop it.
#[test]
fn a_warning_shown_for_a_request_never_holds_up_the_next_edit() {
    let (mut server, dir, mut text, open) = started_with_an_open_flow();
    let mut hovers = Vec::new();
    for version in 1..=100 {
        let closed = project_skipping_its_topology(dir.path(), version, "step B runs P ();\n");
        hovers.push(hover_at_step_name(&mut server, &closed));
        add_a_step(&mut server, &open, &mut text, version);
    }
    assert_answered(&mut server, hovers);
    server.diagnostics(&open, 100);
    let warning = server.wait_for(|m| m["method"] == "window/showMessage");
    assert!(
        warning
            .to_string()
            .contains("site.topology: not a regular file"),
        "{warning}"
    );
    assert_eq!(server.stop().code(), Some(0));
}

/// Found by the session fuzzer: a closed flow changed on the disk is read
/// again off the message loop, and it hung when that reload wrote to the
/// analysis from its thread while a request held a snapshot across its
/// skipped-files warning. Closed flows (whose configurations name a folder
/// as their topology) changed on the disk, with requests on them and edits
/// of an open flow between.
#[test]
fn closed_flows_changed_on_the_disk_amid_requests_and_edits() {
    let (mut server, dir, mut text, open) = started_with_an_open_flow();
    let mut requests = Vec::new();
    for version in 1..=100 {
        for (kind, step) in [(1, "B"), (2, "C")] {
            let closed = project_skipping_its_topology(
                dir.path(),
                version,
                &format!("step {step}{version} runs P ();\n"),
            );
            server.notify(
                "workspace/didChangeWatchedFiles",
                json!({"changes": [{"uri": uri(&closed), "type": kind}]}),
            );
            requests.push(hover_at_step_name(&mut server, &closed));
        }
        add_a_step(&mut server, &open, &mut text, version);
        requests.push(server.send_request("workspace/symbol", json!({"query": "B"})));
    }
    assert_answered(&mut server, requests);
    server.diagnostics(&open, 100);
    assert_eq!(server.stop().code(), Some(0));
}

/// Sessions the session fuzzer found wrong, minimised and checked in:
/// each `tests/data/lsp/sessions/X.jsonl` is a document's life, one JSON
/// object a line (`{"open": TEXT}`, then `{"changes": [...]}` as
/// `didChange` sends them), and its final diagnostics must equal a fresh
/// check of its final text.
#[test]
fn recorded_sessions_end_in_a_fresh_check() {
    let dir = repo_root().join("tests/data/lsp/sessions");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty());
    for case in cases {
        let (mut server, scratch) = started();
        let mut uri = String::new();
        let mut text = String::new();
        let mut version = 0;
        for line in std::fs::read_to_string(&case).unwrap().lines() {
            let step: Value = serde_json::from_str(line).unwrap();
            if let Some(open) = step.get("open") {
                text = open.as_str().unwrap().to_string();
                uri = server.open(&scratch.path().join("session.flow"), &text);
                continue;
            }
            version += 1;
            let changes = step["changes"].as_array().unwrap();
            for change in changes {
                let new = change["text"].as_str().unwrap();
                match change.get("range") {
                    None => text = new.to_string(),
                    Some(range) => {
                        let offset = |p: &Value| {
                            let line = p["line"].as_u64().unwrap() as u32;
                            support::offset_of(&text, line, p["character"].as_u64().unwrap() as u32)
                        };
                        let start = offset(&range["start"]);
                        let end = offset(&range["end"]).max(start);
                        text.replace_range(start..end, new);
                    }
                }
            }
            server.notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
            );
        }
        let published: Vec<(String, u32, u32)> = server
            .diagnostics(&uri, version)
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_string(),
                    d["range"]["start"]["line"].as_u64().unwrap() as u32,
                    d["range"]["start"]["character"].as_u64().unwrap() as u32,
                )
            })
            .collect();
        assert_eq!(published, fresh_check(&text), "{}", case.display());
        assert_eq!(server.stop().code(), Some(0));
    }
}

/// The server's threads (`/proc/PID/status`).
fn threads(pid: u32) -> usize {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// A burst of requests (an editor's, with most of them cancelled) is
/// computed by a few threads per core, not by a thread each: every thread
/// keeps an allocator heap, and hundreds of them kept hundreds of MiB
/// (found by the session fuzzer's `bounded_memory` measurement).
#[test]
fn a_burst_of_requests_runs_on_a_few_threads() {
    let (mut server, dir) = started();
    let uri = server.open(
        &dir.path().join("big.flow"),
        &easyflow_genflow::generate(3_000, 5),
    );
    server.diagnostics(&uri, 0);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // The blocking pool (4 a core), tokio's and rayon's workers (1 a core
    // each), and a few more (main, stdin, the runtime's timer).
    let bound = 6 * cores + 8;
    let mut most = threads(server.pid());
    let ids: Vec<i64> = (0..100)
        .map(|_| {
            let id = server.send_request(
                "textDocument/semanticTokens/full",
                json!({"textDocument": {"uri": uri}}),
            );
            // Each one cancelled once it runs: its computation goes on
            // (nothing in it asks the snapshot), the next one starts.
            server.notify("$/cancelRequest", json!({"id": id}));
            id
        })
        .collect();
    for id in ids {
        most = most.max(threads(server.pid()));
        server.response(id);
    }
    assert!(most <= bound, "{most} threads (at most {bound} expected)");
    assert_eq!(server.stop().code(), Some(0));
}
