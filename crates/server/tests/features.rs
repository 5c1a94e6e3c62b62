//! Every feature of the LSP contract (lsp.md), end to end through the real
//! binary, on `tests/data/lsp/workspace`. Each response is checked in under
//! `tests/data/lsp/expected/` (regenerate with `UPDATE_EXPECT=1`); URIs of
//! the workspace are written as `$WORKSPACE`.

mod support;

use std::path::PathBuf;

use serde_json::{Value, json};
use support::{Server, apply_edits, full_client, repo_root, uri};

fn workspace() -> PathBuf {
    repo_root().join("tests/data/lsp/workspace")
}

fn expect(name: &str, value: &Value) {
    let text = serde_json::to_string_pretty(value)
        .unwrap()
        .replace(&uri(&workspace()), "$WORKSPACE");
    expect_test::expect_file![
        repo_root()
            .join("tests/data/lsp/expected")
            .join(format!("{name}.json"))
    ]
    .assert_eq(&format!("{text}\n"));
}

struct Session {
    server: Server,
    uri: String,
}

/// A server on the test workspace with `pipeline.flow` open.
fn session(capabilities: Value) -> Session {
    let mut server = Server::start();
    let result = server.initialize(
        &workspace(),
        capabilities,
        json!({"inlayHints": {"instances": true}}),
    );
    assert!(
        result["capabilities"]["hoverProvider"]
            .as_bool()
            .unwrap_or(false)
            || result["capabilities"]["hoverProvider"].is_object()
    );
    let path = workspace().join("pipeline.flow");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = server.open(&path, &text);
    Session { server, uri }
}

impl Session {
    fn at(&self, line: u32, character: u32) -> Value {
        json!({"textDocument": {"uri": self.uri}, "position": {"line": line, "character": character}})
    }

    fn document(&self) -> Value {
        json!({"textDocument": {"uri": self.uri}})
    }
}

#[test]
fn initialize_negotiates_the_position_encoding() {
    let mut server = Server::start();
    let mut client = full_client();
    client["general"]["positionEncodings"] = json!(["utf-8", "utf-16"]);
    let result = server.initialize(&workspace(), client, json!({}));
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-8");
    expect("initialize", &result);
    assert_eq!(server.stop().code(), Some(0));
    let mut server = Server::start();
    let result = server.initialize(&workspace(), json!({}), json!({}));
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn diagnostics_with_codes_links_related_information_tags_and_version() {
    let mut s = session(full_client());
    let diagnostics = s.server.diagnostics(&s.uri.clone(), 0);
    let codes: Vec<&str> = diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    for code in ["W0502", "W0206", "I0209", "E0201", "E0408", "E0100"] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
    assert!(diagnostics.iter().all(|d| {
        d["codeDescription"]["href"]
            .as_str()
            .is_some_and(|h| h.contains("diagnostics.md#"))
    }));
    let unused = diagnostics.iter().find(|d| d["code"] == "W0206").unwrap();
    assert_eq!(unused["tags"], json!([1]), "W0206 is unnecessary");
    let mut without_links = diagnostics.clone();
    for d in &mut without_links {
        d.as_object_mut().unwrap().remove("codeDescription");
    }
    expect("diagnostics", &json!(without_links));
    assert_eq!(s.server.stop().code(), Some(0));
}

#[test]
fn hover_definition_references_highlights() {
    let mut s = session(full_client());
    // `Load` in `data = Load.outs["chunk"]` (line 12, 0-based 11).
    let hover = s.server.request("textDocument/hover", s.at(11, 10));
    expect("hover-reference", &hover);
    let definition = s.server.request("textDocument/definition", s.at(11, 10));
    expect("definition", &definition);
    let references = s.server.request(
        "textDocument/references",
        json!({"textDocument": {"uri": s.uri}, "position": {"line": 11, "character": 10}, "context": {"includeDeclaration": true}}),
    );
    expect("references", &references);
    let highlights = s
        .server
        .request("textDocument/documentHighlight", s.at(11, 10));
    expect("highlights", &highlights);
    // A required file, and a capability inside `requires`.
    expect(
        "hover-file",
        &s.server.request("textDocument/hover", s.at(3, 10)),
    );
    expect(
        "hover-capability",
        &s.server.request("textDocument/hover", s.at(8, 24)),
    );
    assert_eq!(s.server.stop().code(), Some(0));
}

#[test]
fn completion_in_several_places() {
    let mut s = session(full_client());
    let labels = |result: &Value| -> Vec<String> {
        let items = result
            .as_array()
            .cloned()
            .unwrap_or_else(|| result["items"].as_array().cloned().unwrap_or_default());
        items
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    // After `Load.` (line 12: `  data = Load.outs`, cursor after the dot).
    let members = labels(&s.server.request("textDocument/completion", s.at(11, 14)));
    assert!(
        members.contains(&"outs".to_string()) && members.contains(&"Result".to_string()),
        "{members:?}"
    );
    // In an `after` list: step names, not the current one nor those listed.
    let steps = labels(&s.server.request("textDocument/completion", s.at(9, 35)));
    assert!(
        steps.contains(&"Reduce".to_string()) && !steps.contains(&"Compute".to_string()),
        "{steps:?}"
    );
    // Inside the `requires` string: the topology's capabilities.
    let capabilities = labels(&s.server.request("textDocument/completion", s.at(8, 21)));
    assert!(
        capabilities.contains(&"GPU".to_string()),
        "{capabilities:?}"
    );
    assert_eq!(s.server.stop().code(), Some(0));
}

#[test]
fn rename_and_its_refusals() {
    let mut s = session(full_client());
    let prepared = s.server.request("textDocument/prepareRename", s.at(6, 6));
    expect("prepare-rename", &prepared);
    let edit = s.server.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": s.uri}, "position": {"line": 6, "character": 6}, "newName": "Fetch"}),
    );
    expect("rename", &edit);
    for bad in ["step", "2fast", "Compute"] {
        let id = s.server.send_request(
            "textDocument/rename",
            json!({"textDocument": {"uri": s.uri}, "position": {"line": 6, "character": 6}, "newName": bad}),
        );
        let response = s.server.response(id);
        assert!(
            response["error"]["message"].is_string(),
            "{bad}: {response}"
        );
    }
    assert_eq!(s.server.stop().code(), Some(0));
}

#[test]
fn symbols_tokens_folding_selection() {
    let mut s = session(full_client());
    expect(
        "document-symbols",
        &s.server
            .request("textDocument/documentSymbol", s.document()),
    );
    let symbols = s
        .server
        .request("workspace/symbol", json!({"query": "oth"}));
    assert!(
        symbols.to_string().contains("Other"),
        "indexed from disk: {symbols}"
    );
    let tokens = s
        .server
        .request("textDocument/semanticTokens/full", s.document());
    assert!(tokens["data"].as_array().unwrap().len() > 100);
    expect("semantic-tokens", &tokens);
    let range = s.server.request(
        "textDocument/semanticTokens/range",
        json!({"textDocument": {"uri": s.uri}, "range": {"start": {"line": 6, "character": 0}, "end": {"line": 7, "character": 0}}}),
    );
    assert!(!range["data"].as_array().unwrap().is_empty());
    expect(
        "folding",
        &s.server.request("textDocument/foldingRange", s.document()),
    );
    expect(
        "selection",
        &s.server.request(
            "textDocument/selectionRange",
            json!({"textDocument": {"uri": s.uri}, "positions": [{"line": 12, "character": 18}]}),
        ),
    );
    assert_eq!(s.server.stop().code(), Some(0));
}

#[test]
fn code_actions_hints_lenses_call_hierarchy_graph() {
    let mut s = session(full_client());
    // The missing comma after `width = 100` (line 21, 0-based 20).
    let actions = s.server.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": s.uri},
            "range": {"start": {"line": 20, "character": 13}, "end": {"line": 20, "character": 13}},
            "context": {"diagnostics": []}
        }),
    );
    assert!(
        actions.to_string().contains("\",\""),
        "inserts the comma: {actions}"
    );
    expect("code-actions-comma", &actions);
    let all = s.server.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": s.uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 30, "character": 0}},
            "context": {"diagnostics": []}
        }),
    );
    expect("code-actions-all", &all);
    expect(
        "inlay-hints",
        &s.server.request(
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": s.uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 30, "character": 0}}}),
        ),
    );
    expect(
        "code-lens",
        &s.server.request("textDocument/codeLens", s.document()),
    );
    let items = s
        .server
        .request("textDocument/prepareCallHierarchy", s.at(9, 6));
    expect("call-hierarchy-prepare", &items);
    let item = items[0].clone();
    expect(
        "call-hierarchy-incoming",
        &s.server
            .request("callHierarchy/incomingCalls", json!({"item": item})),
    );
    expect(
        "call-hierarchy-outgoing",
        &s.server
            .request("callHierarchy/outgoingCalls", json!({"item": item})),
    );
    expect("graph", &s.server.request("easyflow/graph", s.document()));
    assert_eq!(s.server.stop().code(), Some(0));
}

#[test]
fn settings_turn_features_off_and_a_topology_change_rechecks_open_flows() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("easyflow.topology"),
        "compute+GPU:2,1073741824\n",
    )
    .unwrap();
    let flow = dir.path().join("a.flow");
    let text = "[requires = \"compute+GPU\"]\nstep A runs P (x = sweep [1, 2]);\n";
    std::fs::write(&flow, text).unwrap();
    let mut server = Server::start();
    server.initialize(
        dir.path(),
        full_client(),
        json!({"codeLens": {"enable": false}}),
    );
    let uri = server.open(&flow, text);
    assert!(server.diagnostics(&uri, 0).is_empty());
    let lenses = server.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(lenses, json!([]));

    // The topology loses its GPU workers: the open flow is re-checked.
    std::fs::write(
        dir.path().join("easyflow.topology"),
        "compute+CPU:2,1073741824\n",
    )
    .unwrap();
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri_of(&dir.path().join("easyflow.topology")), "type": 2}]}),
    );
    let diagnostics = server.diagnostics(&uri, 0);
    assert_eq!(diagnostics[0]["code"], "E0702", "{diagnostics:?}");

    // A setting that names another topology.
    std::fs::write(
        dir.path().join("other.topology"),
        "compute+GPU:1,1073741824\n",
    )
    .unwrap();
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"easyflow": {"topology": dir.path().join("other.topology").to_str().unwrap()}}}),
    );
    let diagnostics = server.diagnostics(&uri, 0);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    assert_eq!(server.stop().code(), Some(0));
}

fn uri_of(path: &std::path::Path) -> String {
    uri(path)
}

#[test]
fn formatting_and_range_formatting() {
    let mut s = session(full_client());
    let options = json!({"tabSize": 8, "insertSpaces": false});
    let none = s.server.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": s.uri}, "options": options}),
    );
    assert!(none.is_null(), "no edits with a syntax error: {none}");

    let text = "step  A runs P (x=1,)\nstep B runs P after A ()\n";
    let uri = s.server.open(&workspace().join("unformatted.flow"), text);
    let edits = s.server.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": options}),
    );
    expect("formatting", &edits);
    assert!(edits.as_array().unwrap().len() > 1, "minimal edits");
    assert_eq!(
        apply_edits(text, &edits),
        "step A runs P (x = 1);\nstep B runs P after A ();\n",
        "the text of `easyflow fmt` (width and indent from easyflow.toml, not the client)"
    );
    let edits = s.server.request(
        "textDocument/rangeFormatting",
        json!({"textDocument": {"uri": uri}, "options": options,
               "range": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 2}}}),
    );
    expect("range-formatting", &edits);
    assert_eq!(
        apply_edits(text, &edits),
        "step  A runs P (x=1,)\nstep B runs P after A ();\n",
        "only the step the range touches"
    );
    assert_eq!(s.server.stop().code(), Some(0));
}

/// The names, containers and ranges of a `workspace/symbol` answer, sorted.
fn symbol_list(server: &mut Server, root: &std::path::Path) -> Vec<String> {
    let answer = server.request("workspace/symbol", json!({"query": ""}));
    let mut symbols: Vec<String> = answer
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let range = &s["location"]["range"];
            format!(
                "{} in {} at {}:{}-{}:{} of {}",
                s["name"].as_str().unwrap(),
                s["containerName"].as_str().unwrap_or("-"),
                range["start"]["line"],
                range["start"]["character"],
                range["end"]["line"],
                range["end"]["character"],
                s["location"]["uri"]
                    .as_str()
                    .unwrap()
                    .replace(&uri(root), "")
            )
        })
        .collect();
    symbols.sort();
    symbols
}

/// A closed flow keeps only its symbols: workspace symbols answer from the
/// index of the disk's flows, from the editor's text while a flow is open,
/// from the disk's again once it is closed, and follow watched changes; a
/// closed flow read for requests leaves the analysis without leaving them.
#[test]
fn workspace_symbols_of_open_closed_and_changed_flows() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join("b")).unwrap();
    std::fs::write(root.join("a.flow"), "step Alpha runs P ();\n").unwrap();
    std::fs::write(
        root.join("b/b.flow"),
        "[flow:name = \"bee\"]\n/* é😀 */ step Beta runs P ();\n~step Busy runs P ();\n",
    )
    .unwrap();
    let mut server = Server::start();
    server.initialize(&root, full_client(), json!({}));
    let at_start = vec![
        "Alpha in a at 0:5-0:10 of /a.flow",
        "Beta in bee at 1:15-1:19 of /b/b.flow",
        "Busy in bee at 2:6-2:10 of /b/b.flow",
    ];
    assert_eq!(symbol_list(&mut server, &root), at_start);

    let a = server.open(&root.join("a.flow"), "step Alpha runs P ();\n");
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": a, "version": 1}, "contentChanges": [{"text": "\nstep Gamma runs P ();\n"}]}),
    );
    assert_eq!(
        symbol_list(&mut server, &root),
        [
            "Beta in bee at 1:15-1:19 of /b/b.flow",
            "Busy in bee at 2:6-2:10 of /b/b.flow",
            "Gamma in a at 1:5-1:10 of /a.flow",
        ]
    );
    server.notify("textDocument/didClose", json!({"textDocument": {"uri": a}}));
    assert_eq!(symbol_list(&mut server, &root), at_start);

    // A flow outside the workspace, read for a request, then more closed
    // flows asked about than stay in the analysis.
    let outside = tempfile::tempdir().unwrap();
    let omega = outside.path().canonicalize().unwrap().join("o.flow");
    std::fs::write(&omega, "step Omega runs P ();\n").unwrap();
    let hover = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&omega)}, "position": {"line": 0, "character": 6}}),
    );
    assert!(hover.to_string().contains("Omega"), "{hover}");
    for i in 0..12 {
        let path = root.join(format!("c{i}.flow"));
        std::fs::write(&path, format!("step C{i} runs P ();\n")).unwrap();
        server.notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": [{"uri": uri(&path), "type": 1}]}),
        );
        let hover = server.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri(&path)}, "position": {"line": 0, "character": 6}}),
        );
        assert!(hover.to_string().contains("C"), "{hover}");
    }
    std::fs::remove_file(root.join("b/b.flow")).unwrap();
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&root.join("b/b.flow")), "type": 3}]}),
    );
    let mut expected: Vec<String> = (0..12)
        .map(|i| {
            let end = if i < 10 { 7 } else { 8 };
            format!("C{i} in c{i} at 0:5-0:{end} of /c{i}.flow")
        })
        .collect();
    expected.push("Alpha in a at 0:5-0:10 of /a.flow".to_string());
    expected.push(format!("Omega in o at 0:5-0:10 of {}", uri(&omega)));
    expected.sort();
    assert_eq!(symbol_list(&mut server, &root), expected);
    assert_eq!(server.stop().code(), Some(0));
}

/// A closed flow is read again from the disk in the background: a `didOpen`
/// sent right after the `didClose` wins however long that read takes (the
/// editor's text stays in the analysis, its symbols in workspace symbols),
/// and once the flow is closed for good its symbols are the disk's.
#[test]
fn a_did_open_right_after_a_did_close_wins() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let path = root.join("big.flow");
    // Large, so that its reading outlasts the messages after the close.
    std::fs::write(&path, easyflow_genflow::generate(3000, 5)).unwrap();
    let mut server = Server::start();
    server.initialize(&root, full_client(), json!({}));
    let uri = uri(&path);
    let open = |server: &mut Server, version: i64, text: &str| {
        server.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "easyflow", "version": version, "text": text}}),
        );
    };
    let close = |server: &mut Server| {
        server.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        );
    };
    let mine = |server: &mut Server| {
        let symbols = server.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        );
        let names: Vec<&str> = symbols
            .as_array()
            .map(|s| s.iter().filter_map(|s| s["name"].as_str()).collect())
            .unwrap_or_default();
        names.join(" ")
    };
    for round in 0..3 {
        open(&mut server, 2 * round, "step Mine runs P ();\n");
        close(&mut server);
        open(
            &mut server,
            2 * round + 1,
            "step Mine runs P (x = Nowhere.outs);\n",
        );
        let diagnostics = server.diagnostics(&uri, 2 * round + 1);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        // Workspace symbols wait for the reloads under way: after them,
        // the editor's text is still the flow's.
        let symbols = symbol_list(&mut server, &root);
        let some = &symbols[..symbols.len().min(3)];
        assert!(
            symbols.iter().any(|s| s.starts_with("Mine in big")),
            "{some:?}"
        );
        assert_eq!(symbols.len(), 1, "{some:?}");
        assert_eq!(mine(&mut server), "Mine");
        close(&mut server);
    }
    // Closed for good: the disk's symbols, and the flow out of the analysis
    // (a request reads it again).
    let symbols = symbol_list(&mut server, &root);
    assert!(
        symbols[0].starts_with("S0 in Generated"),
        "{:?}",
        &symbols[..3]
    );
    assert!(!symbols.iter().any(|s| s.starts_with("Mine ")));
    let names = mine(&mut server);
    assert!(
        names.contains(" S0 S1 "),
        "{}",
        &names[..names.len().min(200)]
    );
    assert!(server.stop().success());
}
