//! The client's capabilities, honoured, through the real binary: a client
//! that states none gets what the protocol's first versions had (plain
//! text for snippets and Markdown, locations rather than links, flat
//! symbols, the first kinds, commands rather than code action literals, no
//! refresh requests, no related information, tags or code descriptions);
//! `features.rs` checks a client that states them all
//! (`support::full_client`).

mod support;

use std::path::PathBuf;

use serde_json::{Value, json};
use support::{Server, full_client, repo_root};

fn workspace() -> PathBuf {
    repo_root().join("tests/data/lsp/workspace")
}

/// A server on the test workspace with `pipeline.flow` open, for a client
/// stating `capabilities`; its `initialize` result and the document's URI.
fn session(capabilities: Value) -> (Server, Value, String) {
    let mut server = Server::start();
    let result = server.initialize(&workspace(), capabilities, json!({}));
    let path = workspace().join("pipeline.flow");
    let uri = server.open(&path, &std::fs::read_to_string(&path).unwrap());
    (server, result["capabilities"].clone(), uri)
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

fn items_of(completion: &Value) -> Vec<Value> {
    completion["items"].as_array().cloned().unwrap_or_default()
}

fn item<'a>(items: &'a [Value], label: &str) -> &'a Value {
    items
        .iter()
        .find(|i| i["label"] == label)
        .unwrap_or_else(|| panic!("no {label} in {items:?}"))
}

/// The regression of issue 25: a client without `snippetSupport` inserted
/// `step ${1:Name} runs ${2:Package} ($0);` as it is.
#[test]
fn completions_are_plain_text_without_snippet_support() {
    let (mut server, _, uri) = session(json!({}));
    // At the end of the file (line 26, after `code end`): the top-level items.
    let completion = server.request("textDocument/completion", at(&uri, 26, 0));
    let items = items_of(&completion);
    let step = item(&items, "step");
    assert_eq!(step["insertTextFormat"], 1, "{step}");
    assert_eq!(step["textEdit"]["newText"], "step Name runs Package ();");
    assert_eq!(
        item(&items, "[flow:")["textEdit"]["newText"],
        "[flow:name = ]"
    );
    for item in &items {
        let text = item["textEdit"]["newText"].as_str().unwrap();
        assert!(!text.contains('$'), "{item}");
        assert_eq!(item["insertTextFormat"], 1, "{item}");
    }
    // The same items as snippets for a client that takes them.
    let (mut server, _, uri) = session(full_client());
    let completion = server.request("textDocument/completion", at(&uri, 26, 0));
    let step = items_of(&completion)
        .into_iter()
        .find(|i| i["label"] == "step")
        .unwrap();
    assert_eq!(step["insertTextFormat"], 2);
    assert_eq!(
        step["textEdit"]["newText"],
        "step ${1:Name} runs ${2:Package} ($0);"
    );
}

/// Documentation in plain text, and kinds of the first version only.
#[test]
fn plain_text_documentation_and_the_first_kinds() {
    let (mut server, _, uri) = session(json!({}));
    // Hover on `Load` in `data = Load.outs["chunk"]` (line 12).
    let hover = server.request("textDocument/hover", at(&uri, 11, 10));
    assert_eq!(hover["contents"]["kind"], "plaintext", "{hover}");
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("\nstep Load runs Loader.Read")
            && !text.contains("```")
            && !text.contains("**"),
        "{text}"
    );
    // Inside `[flow:priority = @hihg]`: the constants, an enum member in
    // later versions, an enum here; their documentation in plain text.
    let completion = server.request("textDocument/completion", at(&uri, 2, 18));
    let items = items_of(&completion);
    let high = item(&items, "@high");
    assert_eq!(high["kind"], 13, "{high}");
    assert_eq!(high["documentation"]["kind"], "plaintext");
    // A client that lists the kinds it knows gets them, or their stand-ins.
    let mut client = json!({});
    client["textDocument"]["completion"]["completionItemKind"]["valueSet"] = json!([12, 20]);
    let (mut server, _, uri) = session(client);
    let completion = server.request("textDocument/completion", at(&uri, 2, 18));
    assert_eq!(item(&items_of(&completion), "@high")["kind"], 20);
    // After `Load.`: a member is a field, a kind this client does not list,
    // and none of its stand-ins either.
    let completion = server.request("textDocument/completion", at(&uri, 11, 14));
    assert!(item(&items_of(&completion), "outs").get("kind").is_none());
}

/// A location rather than a link; symbols flat with their containers; a
/// long-running step a function rather than an event.
#[test]
fn locations_and_flat_symbols() {
    let (mut server, _, uri) = session(json!({}));
    let definition = server.request("textDocument/definition", at(&uri, 11, 10));
    assert_eq!(definition["uri"], uri.as_str(), "{definition}");
    assert_eq!(
        definition["range"],
        json!({"start": {"line": 6, "character": 5}, "end": {"line": 6, "character": 9}})
    );
    let symbols = server.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let symbols = symbols.as_array().unwrap();
    assert!(symbols.iter().all(|s| s.get("children").is_none()));
    let data = symbols.iter().find(|s| s["name"] == "data").unwrap();
    assert_eq!(data["containerName"], "Compute", "{data}");
    assert_eq!(data["location"]["uri"], uri.as_str());
    let watch = symbols.iter().find(|s| s["name"] == "Watch").unwrap();
    assert_eq!(watch["kind"], 12, "a function: {watch}");
    let found = server.request("workspace/symbol", json!({"query": "Watch"}));
    assert_eq!(found[0]["kind"], 12, "{found}");
    // With the full client: an event.
    let (mut server, _, uri) = session(full_client());
    let symbols = server.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let watch = symbols
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Watch")
        .cloned()
        .unwrap();
    assert_eq!(watch["kind"], 24);
}

/// Diagnostics without what the client does not read.
#[test]
fn diagnostics_without_related_information_tags_or_links() {
    let (mut server, _, uri) = session(json!({}));
    let diagnostics = server.diagnostics(&uri, 0);
    assert!(!diagnostics.is_empty());
    for d in &diagnostics {
        for absent in ["relatedInformation", "tags", "codeDescription"] {
            assert!(d.get(absent).is_none(), "{absent} in {d}");
        }
    }
    // `unused` is required and never read: W0206, unnecessary for a client
    // that knows the tag.
    let (mut server, _, uri) = session(full_client());
    let diagnostics = server.diagnostics(&uri, 0);
    let unused = diagnostics.iter().find(|d| d["code"] == "W0206").unwrap();
    assert_eq!(unused["tags"], json!([1]));
}

/// What the server offers a client that states nothing.
#[test]
fn the_capabilities_offered_to_a_client_that_states_nothing() {
    let (_, offered, _) = session(json!({}));
    assert_eq!(offered["renameProvider"], true, "no prepareRename options");
    assert!(offered.get("codeActionProvider").is_none(), "{offered}");
    // The dependents lens's command only: fixes need literals or applyEdit.
    assert_eq!(
        offered["executeCommandProvider"]["commands"],
        json!(["easyflow.showDependents"]),
        "{offered}"
    );
    assert!(offered["semanticTokensProvider"].is_object());
    // A client that reads semantic tokens in no format the server writes.
    let mut client = json!({});
    client["textDocument"]["semanticTokens"] = json!({
        "requests": {"full": true}, "tokenTypes": [], "tokenModifiers": [], "formats": []
    });
    let (_, offered, _) = session(client);
    assert!(offered.get("semanticTokensProvider").is_none(), "{offered}");
    let (_, offered, _) = session(full_client());
    assert_eq!(offered["renameProvider"]["prepareProvider"], true);
    assert!(offered["codeActionProvider"].is_object());
    assert_eq!(
        offered["executeCommandProvider"]["commands"],
        json!(["easyflow.showDependents"])
    );
}

/// Without code action literals but with `workspace/applyEdit`: each fix
/// is a command, which the server applies through the client; a fix
/// offered for an older version of the document is refused.
/// The code actions at the missing comma after `width = 100` (line 21).
fn comma_fixes(server: &mut Server, uri: &str) -> Value {
    server.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 20, "character": 13}, "end": {"line": 20, "character": 13}},
            "context": {"diagnostics": []}
        }),
    )
}

#[test]
fn code_actions_as_commands() {
    let (mut server, offered, uri) = session(json!({"workspace": {"applyEdit": true}}));
    assert_eq!(
        offered["executeCommandProvider"]["commands"],
        json!(["easyflow.showDependents", "easyflow-ls.applyFix"])
    );
    let actions = comma_fixes(&mut server, &uri);
    let command = &actions[0];
    assert_eq!(command["command"], "easyflow-ls.applyFix", "{actions}");
    assert!(command.get("edit").is_none() && command.get("kind").is_none());
    let result = server.request(
        "workspace/executeCommand",
        json!({"command": command["command"], "arguments": command["arguments"]}),
    );
    assert_eq!(result, Value::Null);
    let applied = server.wait_for(|m| m["method"] == "workspace/applyEdit");
    let edits = &applied["params"]["edit"]["changes"][uri.as_str()];
    assert_eq!(edits[0]["newText"], ",", "{applied}");
    // The document changes: the same command is refused.
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 1}, "contentChanges": [{
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "text": "// edited\n"
        }]}),
    );
    let id = server.send_request(
        "workspace/executeCommand",
        json!({"command": command["command"], "arguments": command["arguments"]}),
    );
    let response = server.response(id);
    assert!(
        response["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("changed")),
        "{response}"
    );
    // A client that can neither take literals nor apply edits gets none.
    let (mut server, _, uri) = session(json!({}));
    let actions = comma_fixes(&mut server, &uri);
    assert_eq!(actions, json!([]));
}

/// Refresh requests only to a client that accepts them; folding ranges cut
/// to the client's limit.
#[test]
fn refreshes_and_the_folding_limit() {
    let mut client = json!({});
    client["textDocument"]["foldingRange"]["rangeLimit"] = json!(1);
    let (mut server, _, uri) = session(client);
    let folds = server.request(
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(folds.as_array().unwrap().len(), 1, "{folds}");
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"easyflow": {"codeLens": {"enable": false}}}}),
    );
    // A request after the change: its answer comes after any refresh the
    // change sent.
    server.request("textDocument/hover", at(&uri, 11, 10));
    assert!(
        server
            .try_wait_for(
                |m| m["method"] == "workspace/codeLens/refresh"
                    || m["method"] == "workspace/inlayHint/refresh",
                std::time::Duration::from_millis(500),
            )
            .is_none()
    );
    let (mut server, _, uri) = session(full_client());
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"easyflow": {"codeLens": {"enable": false}}}}),
    );
    server.request("textDocument/hover", at(&uri, 11, 10));
    server.wait_for(|m| m["method"] == "workspace/codeLens/refresh");
    server.wait_for(|m| m["method"] == "workspace/inlayHint/refresh");
}
