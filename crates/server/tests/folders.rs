//! Multi-root workspaces through the real binary (lsp.md, "The whole
//! workspace"): folders added and removed (workspace symbols and
//! diagnostics follow, each `easyflow.toml` judged against its own
//! folder), each folder's settings asked with `workspace/configuration`
//! (two folders, two topologies), a `null` answer and a client that
//! answers no configuration (the global settings), and the settings asked
//! again on `workspace/didChangeConfiguration`.

mod support;

use std::path::Path;

use serde_json::{Value, json};
use support::{Server, full_client, uri};

/// A flow whose one step needs a GPU worker: it fits a topology with one
/// (no diagnostic) and not one without (E0702).
const GPU_FLOW: &str = "[requires = \"compute+GPU\"]\nstep Train runs P ();\n";
const GPU_TOPOLOGY: &str = "compute+GPU:2,1073741824\n";
const CPU_TOPOLOGY: &str = "compute+CPU:2,1073741824\n";

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn codes(diagnostics: &Value) -> Vec<String> {
    diagnostics
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Waits for diagnostics of `uri` whose codes are `expected` (earlier
/// publications, of a state since changed, are passed over).
fn wait_for_codes(server: &mut Server, uri: &str, expected: &[&str]) {
    server.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri
            && codes(&m["params"]["diagnostics"]) == expected
    });
}

/// The codes of the diagnostics of `uri` after a change to `version`
/// (the same text): the state as of now, not an earlier publication's.
fn codes_now(server: &mut Server, uri: &str, version: i64) -> Vec<String> {
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version},
               "contentChanges": [{"text": GPU_FLOW}]}),
    );
    codes(&Value::Array(server.diagnostics(uri, version)))
}

/// The names of the workspace symbols matching `query`, sorted.
fn symbols(server: &mut Server, query: &str) -> Vec<String> {
    let result = server.request("workspace/symbol", json!({"query": query}));
    let mut names: Vec<String> = result
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

fn folders_change(added: &[&Path], removed: &[&Path]) -> Value {
    let list = |folders: &[&Path]| -> Vec<Value> {
        folders
            .iter()
            .map(|f| json!({"uri": uri(f), "name": f.file_name().unwrap().to_str().unwrap()}))
            .collect()
    };
    json!({"event": {"added": list(added), "removed": list(removed)}})
}

/// `initialize` with `folders` as the workspace folders, then
/// `initialized`.
fn initialize(server: &mut Server, folders: &[&Path], capabilities: Value, options: Value) {
    let folders: Vec<Value> = folders
        .iter()
        .map(|f| json!({"uri": uri(f), "name": f.file_name().unwrap().to_str().unwrap()}))
        .collect();
    server.request(
        "initialize",
        json!({
            "processId": null,
            "workspaceFolders": folders,
            "capabilities": capabilities,
            "initializationOptions": options,
        }),
    );
    server.notify("initialized", json!({}));
}

#[test]
fn folders_added_and_removed_are_indexed_and_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let a = dir.join("a");
    let b = dir.join("b");
    write(&a.join("one.flow"), "step Alpha runs P ();\n");
    write(&b.join("two.flow"), "step Beta runs P ();\n");
    // b's project names a topology above its own directory: inside the
    // folder b, outside the project's directory.
    write(&b.join("site.topology"), CPU_TOPOLOGY);
    let config = "topology = \"../site.topology\"\n";
    write(&b.join("proj/easyflow.toml"), config);
    write(&b.join("proj/train.flow"), GPU_FLOW);

    let mut server = Server::start();
    initialize(&mut server, &[&a], full_client(), json!({}));
    assert_eq!(symbols(&mut server, "Alpha"), ["Alpha"]);
    assert!(symbols(&mut server, "Beta").is_empty());
    // Outside every folder, an `easyflow.toml` may name only what lies in
    // its own directory: the topology is refused (E0903), no fit check.
    let flow = server.open(&b.join("proj/train.flow"), GPU_FLOW);
    let toml = server.open(&b.join("proj/easyflow.toml"), config);
    wait_for_codes(&mut server, &flow, &[]);
    wait_for_codes(&mut server, &toml, &["E0903"]);

    // b is added: its flows are indexed, its project's topology is inside
    // its folder, so the flow is checked against it.
    server.notify(
        "workspace/didChangeWorkspaceFolders",
        folders_change(&[&b], &[]),
    );
    assert_eq!(symbols(&mut server, "Beta"), ["Beta"]);
    assert_eq!(symbols(&mut server, "Alpha"), ["Alpha"]);
    wait_for_codes(&mut server, &flow, &["E0702"]);
    wait_for_codes(&mut server, &toml, &[]);

    // a is removed: its flows leave the workspace symbols.
    server.notify(
        "workspace/didChangeWorkspaceFolders",
        folders_change(&[], &[&a]),
    );
    assert!(symbols(&mut server, "Alpha").is_empty());
    assert_eq!(symbols(&mut server, "Beta"), ["Beta"]);

    // b is removed too: its closed flow goes, the open one stays (the
    // editor has it), judged again outside every folder.
    server.notify(
        "workspace/didChangeWorkspaceFolders",
        folders_change(&[], &[&b]),
    );
    assert!(symbols(&mut server, "Beta").is_empty());
    assert_eq!(symbols(&mut server, "Train"), ["Train"]);
    wait_for_codes(&mut server, &flow, &[]);
    wait_for_codes(&mut server, &toml, &["E0903"]);
    assert_eq!(server.stop().code(), Some(0));
}

/// Two folders with a topology each: the same step fits in one folder and
/// not in the other. The global topology (`initializationOptions`) fits
/// in neither, so the flows pass only with their folder's answer.
struct TwoFolders {
    _dir: tempfile::TempDir,
    a: std::path::PathBuf,
    b: std::path::PathBuf,
    global: std::path::PathBuf,
}

fn two_folders() -> TwoFolders {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (a, b) = (root.join("a"), root.join("b"));
    write(&a.join("gpu.topology"), GPU_TOPOLOGY);
    write(&b.join("cpu.topology"), CPU_TOPOLOGY);
    let global = root.join("global.topology");
    write(&global, CPU_TOPOLOGY);
    for folder in [&a, &b] {
        write(&folder.join("train.flow"), GPU_FLOW);
    }
    TwoFolders {
        _dir: dir,
        a,
        b,
        global,
    }
}

impl TwoFolders {
    /// A server on both folders, whose client answers `answers` (a's, b's)
    /// for the folders' settings and states `capabilities`; the global
    /// topology in `initializationOptions`.
    fn server(&self, answers: [Value; 2], capabilities: Value) -> Server {
        let mut server = Server::start();
        for (folder, answer) in [&self.a, &self.b].into_iter().zip(answers) {
            server.folder_settings.insert(uri(folder), answer);
        }
        let options = json!({"easyflow": {"topology": self.global.to_str().unwrap()}});
        initialize(&mut server, &[&self.a, &self.b], capabilities, options);
        server
    }
}

#[test]
fn each_folder_gets_its_own_topology() {
    let w = two_folders();
    // A relative path in a folder's answer is taken from that folder:
    // `cpu.topology` exists only in b. b answers as VS Code does (the
    // whole section, every key with its value for the folder).
    let vscode_answer = json!({
        "server": {"path": ""}, "topology": "cpu.topology", "catalog": "",
        "run": {"engine": "cwltool"}, "inlayHints": {"instances": true},
        "codeLens": {"enable": true}, "trace": {"server": "off"}
    });
    let mut server = w.server(
        [json!({"topology": "gpu.topology"}), vscode_answer],
        full_client(),
    );
    let in_a = server.open(&w.a.join("train.flow"), GPU_FLOW);
    let in_b = server.open(&w.b.join("train.flow"), GPU_FLOW);
    // Both answers apply at once: once a's flow fits, b's is judged by
    // b's answer.
    wait_for_codes(&mut server, &in_a, &[]);
    assert_eq!(codes_now(&mut server, &in_b, 1), ["E0702"]);
    // Asked once for both folders, each by its `scopeUri`.
    let asked = server.wait_for(|m| m["method"] == "workspace/configuration");
    let scopes: Vec<&str> = asked["params"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            assert_eq!(item["section"], "easyflow");
            item["scopeUri"].as_str().unwrap()
        })
        .collect();
    assert_eq!(scopes, [uri(&w.a), uri(&w.b)]);
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn a_null_answer_and_a_client_without_configuration_get_the_global_settings() {
    let w = two_folders();
    let gpu = json!({"topology": "gpu.topology"});
    let mut server = w.server([gpu.clone(), Value::Null], full_client());
    let in_a = server.open(&w.a.join("train.flow"), GPU_FLOW);
    let in_b = server.open(&w.b.join("train.flow"), GPU_FLOW);
    wait_for_codes(&mut server, &in_a, &[]);
    // b answered `null`: the global topology, which has no GPU.
    assert_eq!(codes_now(&mut server, &in_b, 1), ["E0702"]);
    assert_eq!(server.stop().code(), Some(0));

    // A client that does not answer `workspace/configuration` is not
    // asked: every folder has the global settings.
    let mut capabilities = full_client();
    capabilities["workspace"]
        .as_object_mut()
        .unwrap()
        .remove("configuration");
    let mut server = w.server([gpu, json!({})], capabilities);
    let in_a = server.open(&w.a.join("train.flow"), GPU_FLOW);
    wait_for_codes(&mut server, &in_a, &["E0702"]);
    // A round trip after the start: any request to the client came before.
    symbols(&mut server, "Train");
    assert!(
        !server
            .notifications
            .iter()
            .any(|m| m["method"] == "workspace/configuration"),
        "asked a client without workspace/configuration"
    );
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn the_folders_settings_are_asked_again_when_the_configuration_changes() {
    let w = two_folders();
    write(&w.b.join("gpu.topology"), GPU_TOPOLOGY);
    let mut server = w.server(
        [json!({}), json!({"topology": "cpu.topology"})],
        full_client(),
    );
    let in_b = server.open(&w.b.join("train.flow"), GPU_FLOW);
    wait_for_codes(&mut server, &in_b, &["E0702"]);
    server.wait_for(|m| m["method"] == "workspace/configuration");

    // b's settings change (in VS Code: its `.vscode/settings.json`); the
    // client says only that something changed.
    server
        .folder_settings
        .insert(uri(&w.b), json!({"topology": "gpu.topology"}));
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": null}),
    );
    server.wait_for(|m| m["method"] == "workspace/configuration");
    wait_for_codes(&mut server, &in_b, &[]);

    // A folder's setting that names no file is said, with its folder.
    server
        .folder_settings
        .insert(uri(&w.b), json!({"topology": "nowhere.topology"}));
    server.notify("workspace/didChangeConfiguration", json!({"settings": {}}));
    let warning = server.wait_for(|m| m["method"] == "window/showMessage");
    let message = warning["params"]["message"].as_str().unwrap();
    assert!(
        message.contains("`easyflow.topology` of the folder")
            && message.contains("nowhere.topology"),
        "{message}"
    );
    assert_eq!(server.stop().code(), Some(0));
}
