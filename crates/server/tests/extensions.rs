//! The custom requests of `docs/lsp-extensions.md`, through the real binary:
//! the documented example is what the server answers, and the documented
//! results for what is no flow and errors for bad params hold.

mod support;

use serde_json::{Value, json};
use support::{Server, repo_root};

/// The section of `docs/lsp-extensions.md` that starts with `heading`.
fn section(heading: &str) -> String {
    let doc = std::fs::read_to_string(repo_root().join("docs/lsp-extensions.md")).unwrap();
    let start = doc.find(heading).expect("the section is documented");
    let rest = &doc[start + heading.len()..];
    rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
}

/// The fenced code blocks of `text` in `language`, in order.
fn blocks(text: &str, language: &str) -> Vec<String> {
    let fence = format!("```{language}\n");
    text.match_indices(&fence)
        .map(|(at, _)| {
            let body = &text[at + fence.len()..];
            body[..body.find("```").unwrap()].to_string()
        })
        .collect()
}

#[test]
fn easyflow_graph_answers_the_documented_example() {
    let section = section("## `easyflow/graph`");
    let flow = &blocks(&section, "easyflow")[0];
    let json = blocks(&section, "json");
    let request: Value = serde_json::from_str(&json[0]).unwrap();
    let response: Value = serde_json::from_str(&json[1]).unwrap();
    assert_eq!(request["method"], "easyflow/graph");

    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start();
    server.initialize(dir.path(), json!({}), json!({}));
    let uri = server.open(&dir.path().join("pipeline.flow"), flow);
    let result = server.request("easyflow/graph", json!({"textDocument": {"uri": uri}}));
    assert_eq!(result, response["result"]);
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn easyflow_graph_of_no_flow_is_null_and_bad_params_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start();
    server.initialize(dir.path(), json!({}), json!({}));
    // Not open and not on disk; a topology document.
    let missing = support::uri(&dir.path().join("missing.flow"));
    let topology = server.open(&dir.path().join("a.topology"), "compute:2\n");
    for uri in [missing, topology] {
        let result = server.request("easyflow/graph", json!({"textDocument": {"uri": uri}}));
        assert_eq!(result, Value::Null, "{uri}");
    }
    let id = server.send_request("easyflow/graph", json!({"document": "a.flow"}));
    let response = server.response(id);
    assert_eq!(response["error"]["code"], -32602, "{response}");
    assert_eq!(server.stop().code(), Some(0));
}
