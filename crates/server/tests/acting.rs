//! `lsp.md`, "Beyond the flow file", through the real binary: documentation
//! comments in hover and completion (through `completionItem/resolve`), fix-all applied and checked again, and
//! the dependents lens's command run on the server.

mod support;

use serde_json::{Value, json};
use support::{Server, apply_edits, full_client};

const FLOW: &str = "\
// The molecules to optimise.
require molecules, unused;
// Reads the molecules.
// easyflow: allow(W0208)
[priority = @hihg]
step Load runs Loader.Read (source = molecules);
step Optimise runs ORCA.DFT after Lod (input = Load.outs[\"xyz\"], charge = 0);
step Report runs Vis.Plot on Optimise (data = Optimise, more = Load);
";

fn session() -> (Server, tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start();
    server.initialize(dir.path(), full_client(), json!({}));
    let uri = server.open(&dir.path().join("main.flow"), FLOW);
    (server, dir, uri)
}

fn position(text: &str, needle: &str, within: usize) -> Value {
    let at = text.find(needle).unwrap() + within;
    let line = text[..at].matches('\n').count();
    let character = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": character})
}

fn codes(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} {}",
                d["code"].as_str().unwrap(),
                d["message"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn documentation_comments_in_hover_and_completion() {
    let (mut server, _dir, uri) = session();
    let hover = |server: &mut Server, needle: &str| {
        let result = server.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": position(FLOW, needle, 1)}),
        );
        result["contents"]["value"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    // On the step's name and on a reference to it.
    for needle in ["Load runs", "Load.outs", "Load);"] {
        let markdown = hover(&mut server, needle);
        assert!(
            markdown.contains("---\nReads the molecules.\n\n"),
            "{needle}: {markdown}"
        );
        assert!(!markdown.contains("easyflow: allow"), "{markdown}");
    }
    // On a required file's use; a step without a comment has none.
    let markdown = hover(&mut server, "molecules)");
    assert!(
        markdown.contains("The molecules to optimise."),
        "{markdown}"
    );
    let markdown = hover(&mut server, "Optimise runs");
    assert!(markdown.contains("---\nlevel 1"), "{markdown}");

    // Completion items leave their documentation to
    // `completionItem/resolve`, which the client asks for the item shown.
    let completion = server.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": position(FLOW, "Optimise, more", 0)}),
    );
    let item = |label: &str| {
        completion["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["label"] == label)
            .unwrap_or_else(|| panic!("no item {label} in {completion}"))
            .clone()
    };
    for label in ["Load", "molecules", "Optimise"] {
        assert_eq!(item(label).get("documentation"), None, "{label}");
    }
    let documentation = |server: &mut Server, item: Value| {
        let resolved = server.request("completionItem/resolve", item.clone());
        // Only the documentation is added.
        let mut without = resolved.clone();
        without.as_object_mut().unwrap().remove("documentation");
        assert_eq!(without, item);
        resolved
            .get("documentation")
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(
        documentation(&mut server, item("Load")),
        json!({"kind": "markdown", "value": "Reads the molecules."})
    );
    assert_eq!(
        documentation(&mut server, item("molecules")),
        json!({"kind": "markdown", "value": "The molecules to optimise."})
    );
    assert_eq!(documentation(&mut server, item("Optimise")), Value::Null);

    // The document changed since the list: found again by name, with the
    // comment as it is now; a name no longer defined, an item of a closed
    // document or one the server did not make come back unchanged.
    let edited = FLOW.replace("// Reads the molecules.", "// Reads them all.");
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 1}, "contentChanges": [{"text": edited}]}),
    );
    assert_eq!(
        documentation(&mut server, item("Load")),
        json!({"kind": "markdown", "value": "Reads them all."})
    );
    let renamed = edited.replace("step Load ", "step Loaded ");
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": renamed}]}),
    );
    assert_eq!(documentation(&mut server, item("Load")), Value::Null);
    let mut elsewhere = item("molecules");
    elsewhere["data"]["uri"] = json!(uri.replace("main.flow", "never-opened.flow"));
    assert_eq!(documentation(&mut server, elsewhere), Value::Null);
    let mut without_data = item("molecules");
    without_data.as_object_mut().unwrap().remove("data");
    assert_eq!(documentation(&mut server, without_data), Value::Null);
    for data in [
        json!(5),
        json!({"uri": uri}),
        json!({"uri": uri, "documentation": {"step": 3}}),
        json!({"uri": "not a uri", "documentation": {"file": "molecules"}}),
    ] {
        let mut made_up = item("molecules");
        made_up["data"] = data;
        assert_eq!(documentation(&mut server, made_up), Value::Null);
    }
    assert_eq!(server.stop().code(), Some(0));
}

/// Fix-all asked for as on save (`only`), applied as the client would,
/// and checked again: none of the fixed diagnostics is left, and no new
/// error came.
#[test]
fn fix_all_applied_and_checked_again() {
    let (mut server, _dir, uri) = session();
    let before = server.diagnostics(&uri, 0);
    let ask = |server: &mut Server, only: Value, trigger: u32| {
        server.request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": uri},
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "context": {"diagnostics": [], "only": only, "triggerKind": trigger}
            }),
        )
    };
    // Asked for by its kind or a kind above it; not for quick fixes, nor
    // for a light bulb's automatic request.
    for only in [
        json!(["source.fixAll.easyflow"]),
        json!(["source.fixAll"]),
        json!(["source"]),
    ] {
        let actions = ask(&mut server, only.clone(), 2);
        assert_eq!(actions.as_array().unwrap().len(), 1, "{only}: {actions}");
        assert_eq!(actions[0]["kind"], "source.fixAll.easyflow");
    }
    assert_eq!(ask(&mut server, json!(["quickfix"]), 1), json!([]));
    assert_eq!(
        ask(&mut server, json!(["source.organizeImports"]), 1),
        json!([])
    );
    let automatic = server.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "triggerKind": 2}
        }),
    );
    assert!(
        automatic
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["kind"] == "quickfix"),
        "{automatic}"
    );

    let fix_all = ask(&mut server, json!(["source.fixAll.easyflow"]), 2)[0].clone();
    assert_eq!(fix_all["title"], "Fix all: apply 5 preferred fixes");
    let edits = &fix_all["edit"]["changes"][uri.as_str()];
    let fixed = apply_edits(FLOW, edits);
    assert_eq!(
        fixed,
        FLOW.replace("@hihg]", "@high]")
            .replace("// easyflow: allow(W0208)\n", "")
            .replace(", unused", "")
            .replace("after Lod", "after Load")
            .replace("on Optimise", "after Optimise")
    );
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 1}, "contentChanges": [{"text": fixed}]}),
    );
    let after = server.diagnostics(&uri, 1);
    let (before, after) = (codes(&before), codes(&after));
    for fixed in ["W0406", "W0206", "E0202", "E0408", "W0905"] {
        assert!(before.iter().any(|d| d.starts_with(fixed)), "{before:?}");
        assert!(!after.iter().any(|d| d.starts_with(fixed)), "{after:?}");
    }
    for error in after.iter().filter(|d| d.starts_with('E')) {
        assert!(before.contains(error), "a new error: {error}");
    }
    // One pass: the `after` entries the fixes made redundant (I0209) are
    // the next pass's; then nothing is left to fix, and none is offered.
    assert_eq!(
        after.iter().filter(|d| d.starts_with("I0209")).count(),
        2,
        "{after:?}"
    );
    let second = ask(&mut server, json!(["source.fixAll"]), 2)[0].clone();
    let fixed = apply_edits(&fixed, &second["edit"]["changes"][uri.as_str()]);
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    assert_eq!(codes(&server.diagnostics(&uri, 2)), Vec::<String>::new());
    assert_eq!(ask(&mut server, json!(["source.fixAll"]), 2), json!([]));
    assert_eq!(server.stop().code(), Some(0));
}

/// The dependents lens carries `easyflow.showDependents` with `[uri,
/// position, locations]`; run on the server, the command answers the
/// dependents' locations in the document as it is then.
#[test]
fn the_dependents_lens_command() {
    let (mut server, _dir, uri) = session();
    let lenses = server.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    let load = lenses
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["range"]["start"] == position(FLOW, "Load runs", 0))
        .unwrap()
        .clone();
    let command = &load["command"];
    assert_eq!(command["title"], "level 0 · depends on 0 · 2 dependents");
    assert_eq!(command["command"], "easyflow.showDependents");
    let name = |needle: &str, len: usize| {
        let start = position(FLOW, needle, 0);
        let mut end = start.clone();
        end["character"] = json!(start["character"].as_u64().unwrap() + len as u64);
        json!({"uri": uri, "range": {"start": start, "end": end}})
    };
    let dependents = json!([name("Optimise runs", 8), name("Report runs", 6)]);
    assert_eq!(
        command["arguments"],
        json!([uri, position(FLOW, "Load runs", 0), dependents])
    );
    let run = |server: &mut Server, arguments: &Value| {
        server.request(
            "workspace/executeCommand",
            json!({"command": "easyflow.showDependents", "arguments": arguments}),
        )
    };
    assert_eq!(run(&mut server, &command["arguments"]), dependents);
    // The document changes: the answer is of the text now.
    let text = format!("{FLOW}step Last runs P (x = Load);\n");
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 1}, "contentChanges": [{"text": text}]}),
    );
    let now = run(&mut server, &command["arguments"]);
    assert_eq!(now.as_array().unwrap().len(), 3, "{now}");
    // No step there: none; bad arguments: InvalidParams.
    assert_eq!(
        run(&mut server, &json!([uri, {"line": 0, "character": 0}, []])),
        json!([])
    );
    let id = server.send_request(
        "workspace/executeCommand",
        json!({"command": "easyflow.showDependents", "arguments": [uri]}),
    );
    let response = server.response(id);
    assert_eq!(response["error"]["code"], -32602, "{response}");
    assert_eq!(server.stop().code(), Some(0));
}
