//! The package catalog through the real binary (lsp.md, catalog.md): its
//! diagnostics in flows, completion, signature help and hover from it, the
//! `easyflow.catalog` setting, and the live re-check of open flows when the
//! catalog changes (on disk, or as an open document with its own E0810).

mod support;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use support::{Server, apply_edits, full_client, repo_root};

fn workspace() -> PathBuf {
    repo_root().join("tests/data/lsp/catalog-workspace")
}

fn codes(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

/// A server on the catalog workspace with `optimize.flow` open, for a
/// client that reads Markdown (and states every other capability).
fn session() -> (Server, String) {
    let mut server = Server::start();
    let result = server.initialize(&workspace(), full_client(), json!({}));
    assert_eq!(
        result["capabilities"]["signatureHelpProvider"]["triggerCharacters"],
        json!(["(", ","])
    );
    let path = workspace().join("optimize.flow");
    let uri = server.open(&path, &std::fs::read_to_string(&path).unwrap());
    (server, uri)
}

#[test]
fn diagnostics_completion_signature_help_and_hover() {
    let (mut server, uri) = session();
    let diagnostics = server.diagnostics(&uri, 0);
    assert_eq!(codes(&diagnostics), ["E0802", "E0805"]);
    assert_eq!(
        diagnostics[0]["message"],
        "package `ORCA.DFT` has no parameter `metod` (did you mean `method`?)"
    );

    // Packages after `runs` (line 1: `step Optimize runs ORCA.DFT (`).
    let completion = server.request("textDocument/completion", at(&uri, 1, 19));
    let labels: Vec<&str> = completion["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        ["ORCA.DFT", "ScienceVis.ThreeDGraph.Mesh", "Sim.Run"]
    );
    assert_eq!(completion["items"][0]["kind"], 9, "a module");
    // The package's documentation comes with `completionItem/resolve`.
    assert_eq!(completion["items"][0].get("documentation"), None);
    let resolved = server.request("completionItem/resolve", completion["items"][0].clone());
    let markdown = resolved["documentation"]["value"].as_str().unwrap();
    assert!(markdown.starts_with("**package** `ORCA.DFT`"), "{markdown}");

    // Parameters after `(`: those given (`input`, `charge`) left out.
    let completion = server.request("textDocument/completion", at(&uri, 1, 29));
    let items = completion["items"].as_array().unwrap();
    let labels: Vec<&str> = items.iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["method", "basis", "tolerance", "verbose", "atoms"]);
    let tolerance = items.iter().find(|i| i["label"] == "tolerance").unwrap();
    assert_eq!(tolerance["detail"], "Double (0..=1)");
    let resolved = server.request("completionItem/resolve", tolerance.clone());
    let markdown = resolved["documentation"]["value"].as_str().unwrap();
    assert!(markdown.contains("tolerance"), "{markdown}");

    // Signature help inside the parentheses, on `charge`.
    let help = server.request("textDocument/signatureHelp", at(&uri, 1, 65));
    let signature = &help["signatures"][0];
    assert!(
        signature["label"]
            .as_str()
            .unwrap()
            .starts_with("ORCA.DFT(input: File, method: Enum")
    );
    let active = help["activeParameter"].as_u64().unwrap() as usize;
    assert_eq!(
        signature["parameters"][active]["label"],
        "charge: Int (-10..=10)"
    );

    // Hover on the package.
    let hover = server.request("textDocument/hover", at(&uri, 1, 22));
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(markdown.starts_with("**package** `ORCA.DFT`"), "{markdown}");
    assert!(markdown.contains("defaults: requires `compute+CPU`, memory `1GiB`"));
    assert_eq!(server.stop().code(), Some(0));
}

/// The label of the active parameter of the signature help at the end of
/// `before` (in a flow `before` + `after` of the catalog workspace).
fn active_parameter_at_end_of(before: &str, after: &str) -> Option<String> {
    let mut server = Server::start();
    server.initialize(&workspace(), full_client(), json!({}));
    let path = workspace().join("typing.flow");
    let uri = server.open(&path, &format!("{before}{after}"));
    let line = before.lines().count() as u32 - 1;
    let character = before.lines().last().unwrap().len() as u32;
    let help = server.request("textDocument/signatureHelp", at(&uri, line, character));
    assert_eq!(server.stop().code(), Some(0));
    let signature = &help["signatures"][0];
    assert!(
        signature["label"]
            .as_str()
            .unwrap()
            .starts_with("ORCA.DFT(")
    );
    assert_eq!(help["activeParameter"], signature["activeParameter"]);
    let active = help["activeParameter"].as_u64()? as usize;
    Some(
        signature["parameters"][active]["label"]
            .as_str()?
            .to_string(),
    )
}

#[test]
fn signature_help_names_the_parameter_whose_value_is_being_typed() {
    let step = "require mol;\nstep B runs ORCA.DFT (charge = 1, input = mol, method = ";
    let method = Some("method: Enum (\"B3LYP\" | \"PBE0\")".to_string());
    // An empty value (a syntax error there), with or without the space.
    assert_eq!(active_parameter_at_end_of(step, ");\n"), method);
    assert_eq!(active_parameter_at_end_of(step.trim_end(), " );\n"), method);
    // A broken value: an enum value typed without its quotes, in two words.
    assert_eq!(
        active_parameter_at_end_of(&format!("{step}B3 LYP"), ");\n"),
        method
    );
    // After the comma: the next parameter is not chosen yet.
    assert_eq!(
        active_parameter_at_end_of(&format!("{step}\"PBE0\", "), ");\n"),
        None
    );
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

const CATALOG: &str = "[[package]]\nname = \"P.Run\"\n\n  [[package.param]]\n  name = \"n\"\n  type = \"Int\"\n  max = 5\n";

#[test]
fn a_changed_catalog_rechecks_open_flows_and_an_open_catalog_gets_e0810() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = dir.path().join("easyflow-packages.toml");
    write(&catalog, CATALOG);
    let flow = dir.path().join("a.flow");
    let text = "step A runs P.Run (n = 4);\n";
    write(&flow, text);
    let mut server = Server::start();
    server.initialize(dir.path(), json!({}), json!({}));
    let uri = server.open(&flow, text);
    assert_eq!(codes(&server.diagnostics(&uri, 0)), Vec::<String>::new());

    // On disk: `max` becomes 3, and the watcher reports it.
    write(&catalog, &CATALOG.replace("max = 5", "max = 3"));
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": support::uri(&catalog), "type": 2}]}),
    );
    assert_eq!(codes(&server.diagnostics(&uri, 0)), ["E0805"]);

    // Opened and edited in the editor: its own E0810, and the flow follows.
    let catalog_uri = server.open(&catalog, &CATALOG.replace("max = 5", "max = 3"));
    assert_eq!(
        codes(&server.diagnostics(&catalog_uri, 0)),
        Vec::<String>::new()
    );
    server.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": catalog_uri, "version": 1},
            "contentChanges": [{"text": CATALOG.replace("\"Int\"", "\"Integer\"")}],
        }),
    );
    let own = server.diagnostics(&catalog_uri, 1);
    assert_eq!(codes(&own), ["E0810"]);
    assert_eq!(own[0]["range"]["start"], json!({"line": 5, "character": 9}));
    // An erroneous parameter takes anything.
    let diagnostics = loop {
        let diagnostics = server.diagnostics(&uri, 0);
        if diagnostics.is_empty() {
            break diagnostics;
        }
    };
    assert!(diagnostics.is_empty());
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn the_catalog_setting_names_another_catalog() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("easyflow-packages.toml"), CATALOG);
    let other = dir.path().join("other-packages.toml");
    write(&other, &CATALOG.replace("P.Run", "Q.Run"));
    let flow = dir.path().join("a.flow");
    let text = "step A runs P.Run (n = 4);\n";
    write(&flow, text);
    let mut server = Server::start();
    server.initialize(
        dir.path(),
        json!({}),
        json!({"easyflow": {"catalog": other.to_str().unwrap()}}),
    );
    let uri = server.open(&flow, text);
    let diagnostics = server.diagnostics(&uri, 0);
    assert_eq!(codes(&diagnostics), ["E0801"]);
    assert_eq!(
        diagnostics[0]["message"],
        "unknown package `P.Run` (did you mean `Q.Run`?)"
    );

    // Back to discovery when the setting is cleared.
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"easyflow": {"catalog": ""}}}),
    );
    let diagnostics = loop {
        let diagnostics = server.diagnostics(&uri, 0);
        if diagnostics.is_empty() {
            break diagnostics;
        }
    };
    assert!(diagnostics.is_empty());
    assert_eq!(server.stop().code(), Some(0));
}

/// The globs of the `workspace/didChangeWatchedFiles` registrations.
fn watched_globs(registration: &Value) -> Vec<String> {
    registration["params"]["registrations"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["registerOptions"]["watchers"].as_array().unwrap().clone())
        .map(|w| w["globPattern"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn catalogs_are_watched_under_any_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("packages")).unwrap();
    let catalog = dir.path().join("packages/main.toml");
    write(&catalog, CATALOG);
    write(
        &dir.path().join("easyflow.toml"),
        "catalog = \"packages/main.toml\"\n",
    );
    let flow = dir.path().join("a.flow");
    let text = "step A runs P.Run (n = 9);\n";
    write(&flow, text);
    let mut server = Server::start();
    server.initialize(
        dir.path(),
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}}),
        json!({}),
    );
    let first = server.wait_for(|m| m["method"] == "client/registerCapability");
    let globs = watched_globs(&first);
    assert!(
        globs.contains(&"**/easyflow-packages.toml".to_string()),
        "{globs:?}"
    );
    let uri = server.open(&flow, text);
    assert_eq!(codes(&server.diagnostics(&uri, 0)), ["E0805"]);
    // The configured catalog, whose name is not easyflow-packages.toml.
    let second = server.wait_for(|m| m["method"] == "client/registerCapability");
    let wanted = catalog.to_string_lossy().replace('\\', "/");
    assert_eq!(watched_globs(&second), [wanted]);
    // An edit of it on disk re-checks the flow.
    write(&catalog, &CATALOG.replace("max = 5", "max = 10"));
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": support::uri(&catalog), "type": 2}]}),
    );
    let diagnostics = loop {
        let diagnostics = server.diagnostics(&uri, 0);
        if diagnostics.is_empty() {
            break diagnostics;
        }
    };
    assert!(diagnostics.is_empty());
    assert_eq!(server.stop().code(), Some(0));
}

/// The `window/showMessage` warnings received so far whose text holds `needle`.
fn warnings_about(server: &Server, needle: &str) -> Vec<String> {
    server
        .notifications
        .iter()
        .filter(|n| n["method"] == "window/showMessage" && n["params"]["type"] == 2)
        .filter_map(|n| n["params"]["message"].as_str())
        .filter(|m| m.contains(needle))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_setting_naming_a_missing_file_is_said_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("cluster")).unwrap();
    write(
        &root.join("cluster/site.topology"),
        "compute+CPU:4,1073741824\n",
    );
    write(&root.join("a.flow"), "step A runs P.Run (n = 4);\n");
    let mut server = Server::start();
    server.initialize(
        root,
        json!({}),
        json!({"topology": "cluster/site.topolgy", "catalog": "pkgs/typo.toml"}),
    );
    for (setting, path) in [
        ("easyflow.topology", "cluster/site.topolgy"),
        ("easyflow.catalog", "pkgs/typo.toml"),
    ] {
        let warning = server.wait_for(|m| {
            m["method"] == "window/showMessage"
                && m["params"]["message"]
                    .as_str()
                    .is_some_and(|t| t.contains(setting))
        });
        assert_eq!(warning["params"]["type"], 2, "a warning");
        let message = warning["params"]["message"].as_str().unwrap();
        assert!(message.contains(path), "{message}");
        assert!(
            message.contains(&root.join(path).display().to_string()),
            "the full path too: {message}"
        );
    }
    // Corrected: the topology is used, and nothing more is said about it.
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"easyflow": {"topology": "cluster/site.topology", "catalog": "pkgs/typo.toml"}}}),
    );
    let uri = server.open(&root.join("a.flow"), "step A runs P.Run (n = 4);\n");
    server.diagnostics(&uri, 0);
    assert_eq!(
        warnings_about(&server, "easyflow.topology"),
        Vec::<String>::new()
    );
    // Wrong again: said again, with the new path.
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"easyflow": {"topology": "/nowhere/x.topology"}}}),
    );
    server.wait_for(|m| {
        m["method"] == "window/showMessage"
            && m["params"]["message"].as_str().is_some_and(|t| {
                t.contains("easyflow.topology") && t.contains("/nowhere/x.topology")
            })
    });
    let log = server.log();
    assert!(
        log.contains("easyflow.topology") && log.contains("cluster/site.topolgy"),
        "{log}"
    );
    assert!(
        log.contains("easyflow.catalog") && log.contains("pkgs/typo.toml"),
        "{log}"
    );
    assert_eq!(server.stop().code(), Some(0));
}

/// Applies the E0803 quick fix of `text` (in the catalog workspace) and
/// returns the fixed text with its diagnostics' codes.
fn apply_missing_parameters_fix(text: &str) -> (String, Vec<String>) {
    let mut server = Server::start();
    server.initialize(&workspace(), full_client(), json!({}));
    let uri = server.open(&workspace().join("fixing.flow"), text);
    let diagnostics = server.diagnostics(&uri, 0);
    let missing = diagnostics
        .iter()
        .find(|d| d["code"] == "E0803")
        .expect("E0803")
        .clone();
    let actions = server.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": missing["range"],
            "context": {"diagnostics": [missing]}
        }),
    );
    let action = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| {
            a["title"]
                .as_str()
                .unwrap()
                .starts_with("Add the missing required parameters")
        })
        .expect("the E0803 fix");
    let fixed = apply_edits(text, &action["edit"]["changes"][uri.as_str()]);
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 1}, "contentChanges": [{"text": fixed}]}),
    );
    let codes = codes(&server.diagnostics(&uri, 1));
    assert_eq!(server.stop().code(), Some(0));
    (fixed, codes)
}

#[test]
fn the_missing_parameters_fix_gives_a_file_parameter_a_file() {
    // No required file: one is required for it (`input = ""` was an E0804).
    let (fixed, codes) =
        apply_missing_parameters_fix("step B runs ORCA.DFT (method = \"PBE0\");\n");
    assert_eq!(
        fixed,
        "require input;\n\nstep B runs ORCA.DFT (method = \"PBE0\", input = input);\n"
    );
    assert_eq!(codes, Vec::<String>::new());
    // A required file of the flow.
    let (fixed, codes) = apply_missing_parameters_fix("require mol;\nstep B runs ORCA.DFT ();\n");
    assert_eq!(fixed, "require mol;\nstep B runs ORCA.DFT (input = mol);\n");
    assert_eq!(codes, Vec::<String>::new());
}
