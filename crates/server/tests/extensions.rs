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

/// The documented example of the section `heading`: its flow and its
/// JSON messages (request, response, …), the request's method checked.
fn documented_example(heading: &str, method: &str) -> (String, Vec<Value>) {
    let section = section(heading);
    let flow = blocks(&section, "easyflow").remove(0);
    let messages: Vec<Value> = blocks(&section, "json")
        .iter()
        .map(|json| serde_json::from_str(json).unwrap())
        .collect();
    assert_eq!(messages[0]["method"], method);
    (flow, messages)
}

/// A server with `flow` open as `pipeline.flow`, and the flow's URI.
fn serving(flow: &str) -> (Server, tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start();
    server.initialize(dir.path(), json!({}), json!({}));
    let uri = server.open(&dir.path().join("pipeline.flow"), flow);
    (server, dir, uri)
}

#[test]
fn easyflow_graph_answers_the_documented_example() {
    let (flow, messages) = documented_example("## `easyflow/graph`", "easyflow/graph");
    let (mut server, _dir, uri) = serving(&flow);
    let result = server.request("easyflow/graph", json!({"textDocument": {"uri": uri}}));
    assert_eq!(result, messages[1]["result"]);
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn show_dependents_answers_the_documented_example() {
    let (flow, messages) = documented_example(
        "## The command `easyflow.showDependents`",
        "workspace/executeCommand",
    );
    let (request, response) = (&messages[0], &messages[1]);
    let (mut server, _dir, uri) = serving(&flow);
    let documented = |value: &Value| {
        value
            .to_string()
            .replace("file:///work/pipeline.flow", &uri)
    };
    let params: Value = serde_json::from_str(&documented(&request["params"])).unwrap();
    let result = server.request("workspace/executeCommand", params);
    assert_eq!(result.to_string(), documented(&response["result"]));
    // The same locations as the lens carries.
    let lenses = server.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(lenses[0]["command"]["arguments"][2], result);
    assert_eq!(server.stop().code(), Some(0));
}

/// With `picture: true`, the graph also holds its picture: the drawing of
/// `easyflow graph --format svg`, for a page that styles it.
#[test]
fn easyflow_graph_with_its_picture() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start();
    server.initialize(dir.path(), json!({}), json!({}));
    let text = "step A runs P ();\nstep B runs Q (x = A.outs[\"o\"], n = sweep []);\nstep C runs (y = Nowhere);\n";
    let uri = server.open(&dir.path().join("a.flow"), text);
    let plain = server.request("easyflow/graph", json!({"textDocument": {"uri": uri}}));
    let mut with_picture = server.request(
        "easyflow/graph",
        json!({"textDocument": {"uri": uri}, "picture": true}),
    );
    let picture = with_picture
        .as_object_mut()
        .unwrap()
        .remove("picture")
        .unwrap();
    assert_eq!(with_picture, plain, "the graph itself is the same");
    let picture = picture.as_str().unwrap();
    let standalone = {
        let db = easyflow_db::Database::default();
        let file = easyflow_db::SourceFile::new(&db, "a.flow".into(), text.into());
        easyflow_picture::svg(
            easyflow_db::graph_view(&db, file),
            easyflow_picture::Document::Standalone,
        )
    };
    // The same boxes and wires as the command line's SVG, without its
    // stylesheet.
    let nodes_and_edges = |svg: &str| svg[svg.find("<g class=\"columns\">").unwrap()..].to_string();
    assert_eq!(nodes_and_edges(picture), nodes_and_edges(&standalone));
    assert!(!picture.contains("<style>") && standalone.contains("<style>"));
    assert!(picture.contains("<text class=\"instances\" x=\"") && picture.contains(">× 0</text>"));
    assert!(picture.contains("data-id=\"?Nowhere\" data-step=\"C\""));
    assert_eq!(server.stop().code(), Some(0));
}

/// `easyflow/graphPicture` is `easyflow/graph`'s picture compressed, the
/// ranges of its nodes, and the numbers of its edges, unresolved names and
/// steps on a cycle; `null` for what is no flow.
#[test]
fn easyflow_graph_picture_is_the_graphs_picture_packed() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start();
    server.initialize(dir.path(), json!({}), json!({}));
    let text = "step A runs P after C ();\nstep B runs Q (x = A.outs[\"o\"], y = Nowhere);\nstep C runs R after A (z = Missing);\n";
    let uri = server.open(&dir.path().join("a.flow"), text);
    let graph = server.request(
        "easyflow/graph",
        json!({"textDocument": {"uri": uri}, "picture": true}),
    );
    let picture = server.request(
        "easyflow/graphPicture",
        json!({"textDocument": {"uri": uri}}),
    );
    let gzip = data_encoding::BASE64
        .decode(picture["svgGzip"].as_str().unwrap().as_bytes())
        .unwrap();
    let mut svg = String::new();
    flate2::read::GzDecoder::new(&gzip[..])
        .read_to_string(&mut svg)
        .unwrap();
    assert_eq!(svg, graph["picture"].as_str().unwrap());
    let nodes = graph["nodes"].as_array().unwrap();
    let ranges: Vec<&Value> = nodes.iter().map(|n| &n["range"]).collect();
    assert_eq!(
        picture["ranges"]
            .as_array()
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        ranges
    );
    assert_eq!(picture["edges"], graph["edges"].as_array().unwrap().len());
    assert_eq!(picture["unresolved"], 2);
    // A and C; B, after the cycle, is on none.
    assert_eq!(picture["stepsInCycle"], 2);
    let on_cycle = nodes.iter().filter(|n| n["in_cycle"] == true).count();
    assert_eq!(picture["stepsInCycle"], on_cycle);
    let missing = support::uri(&dir.path().join("missing.flow"));
    let result = server.request(
        "easyflow/graphPicture",
        json!({"textDocument": {"uri": missing}}),
    );
    assert_eq!(result, Value::Null);
    assert_eq!(server.stop().code(), Some(0));
}

/// The `initialize` result announces the export formats, every one of
/// `easyflow-export`'s, for editors to offer.
#[test]
fn the_export_formats_are_announced() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start();
    let result = server.initialize(dir.path(), json!({}), json!({}));
    let announced = &result["capabilities"]["experimental"]["exportFormats"];
    let expected: Vec<Value> = easyflow_ide::export::FORMATS
        .iter()
        .map(|f| {
            json!({"name": f.name, "label": f.label, "description": f.description,
                   "language": f.language, "suffix": f.suffix})
        })
        .collect();
    assert_eq!(announced, &json!(expected));
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

#[test]
fn easyflow_export_answers_the_documented_example() {
    let (flow, messages) = documented_example("## `easyflow/export`", "easyflow/export");
    let (response, refusal) = (&messages[1], &messages[2]);
    let (mut server, _dir, uri) = serving(&flow);
    let result = server.request(
        "easyflow/export",
        json!({"textDocument": {"uri": uri}, "to": "diet"}),
    );
    assert_eq!(result, response["result"]);

    // The documented refusal, after an edit that breaks a name.
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 1},
               "contentChanges": [{"text": flow.replace("Load.outs", "Lod.outs")}]}),
    );
    let id = server.send_request(
        "easyflow/export",
        json!({"textDocument": {"uri": uri}, "to": "diet"}),
    );
    let answer = server.response(id);
    assert_eq!(answer["error"], refusal["error"]);
    assert_eq!(server.stop().code(), Some(0));
}

/// `easyflow/export` gives the bytes of `easyflow export` (the expected
/// files of the export cases), with the topology discovered beside the flow.
#[test]
fn easyflow_export_equals_the_cli_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_root();
    std::fs::copy(
        root.join("tests/data/export/topology/easyflow.topology"),
        dir.path().join("easyflow.topology"),
    )
    .unwrap();
    let mut server = Server::start();
    let initialized = server.initialize(dir.path(), json!({}), json!({}));
    let formats = initialized["capabilities"]["experimental"]["exportFormats"]
        .as_array()
        .unwrap()
        .clone();
    for (case, folder) in [
        ("placement", "tests/data/export/topology"),
        ("corpus-topology-fit", "tests/data/export/topology"),
    ] {
        let text = std::fs::read_to_string(root.join(folder).join(format!("{case}.flow"))).unwrap();
        let uri = server.open(&dir.path().join(format!("{case}.flow")), &text);
        // Every format the server announces but CWL (whose catalog says how
        // packages run: below).
        for format in formats.iter().filter(|f| f["name"] != "cwl") {
            let (to, suffix) = (&format["name"], format["suffix"].as_str().unwrap());
            let result = server.request(
                "easyflow/export",
                json!({"textDocument": {"uri": uri}, "to": to}),
            );
            let expected =
                std::fs::read_to_string(root.join(folder).join(format!("{case}{suffix}"))).unwrap();
            assert_eq!(
                result["text"].as_str(),
                Some(expected.as_str()),
                "{case} --to {to}"
            );
        }
    }
    // Without a topology: a file on disk that is not open.
    let other = tempfile::tempdir().unwrap();
    let mut server2 = Server::start();
    server2.initialize(other.path(), json!({}), json!({}));
    let path = other.path().join("worked.flow");
    std::fs::copy(root.join("tests/data/export/worked-example.flow"), &path).unwrap();
    let result = server2.request(
        "easyflow/export",
        json!({"textDocument": {"uri": support::uri(&path)}, "to": "model"}),
    );
    let expected =
        std::fs::read_to_string(root.join("tests/data/export/worked-example.model.json")).unwrap();
    assert_eq!(result["text"].as_str(), Some(expected.as_str()));
    // CWL, with the runnable catalog the CLI's export cases are given,
    // discovered beside the flow.
    std::fs::copy(
        root.join("tests/data/export/runnable-packages.toml"),
        dir.path().join("easyflow-packages.toml"),
    )
    .unwrap();
    let mut server3 = Server::start();
    server3.initialize(dir.path(), json!({}), json!({}));
    for case in ["placement", "corpus-topology-fit"] {
        let folder = root.join("tests/data/export/topology");
        let path = dir.path().join(format!("{case}.flow"));
        std::fs::copy(folder.join(format!("{case}.flow")), &path).unwrap();
        let result = server3.request(
            "easyflow/export",
            json!({"textDocument": {"uri": support::uri(&path)}, "to": "cwl"}),
        );
        let expected = std::fs::read_to_string(folder.join(format!("{case}.cwl"))).unwrap();
        assert_eq!(
            result["text"].as_str(),
            Some(expected.as_str()),
            "{case} --to cwl"
        );
    }
    assert_eq!(server.stop().code(), Some(0));
    assert_eq!(server2.stop().code(), Some(0));
    assert_eq!(server3.stop().code(), Some(0));
}

#[test]
fn easyflow_export_refusals_and_bad_params() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start();
    server.initialize(dir.path(), json!({}), json!({}));
    // Twelve errors: the message lists ten and counts the rest.
    let broken: String = (0..12)
        .map(|i| format!("step S{i} runs P (x = Missing{i});\n"))
        .collect();
    let uri = server.open(&dir.path().join("broken.flow"), &broken);
    let id = server.send_request(
        "easyflow/export",
        json!({"textDocument": {"uri": uri}, "to": "model"}),
    );
    let error = server.response(id)["error"].clone();
    assert_eq!(error["code"], -32803);
    let message = error["message"].as_str().unwrap();
    assert!(
        message.starts_with("the flow has 12 errors and cannot be exported:\nline 1: E0201"),
        "{message}"
    );
    assert_eq!(
        message.lines().filter(|l| l.starts_with("line ")).count(),
        10,
        "{message}"
    );
    assert!(message.ends_with("… and 2 more"), "{message}");

    // An id collision.
    let collision = server.open(
        &dir.path().join("collision.flow"),
        "step S runs P (n = sweep [1, 2]);\nstep S_1 runs P ();\n",
    );
    let id = server.send_request(
        "easyflow/export",
        json!({"textDocument": {"uri": collision}, "to": "diet"}),
    );
    let error = server.response(id)["error"].clone();
    assert_eq!(error["code"], -32803);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("instance `S_1`"),
        "{error}"
    );

    // No flow: null. An unknown format: InvalidParams.
    let missing = support::uri(&dir.path().join("missing.flow"));
    let result = server.request(
        "easyflow/export",
        json!({"textDocument": {"uri": missing}, "to": "diet"}),
    );
    assert_eq!(result, Value::Null);
    let id = server.send_request(
        "easyflow/export",
        json!({"textDocument": {"uri": uri}, "to": "pdf"}),
    );
    assert_eq!(server.response(id)["error"]["code"], -32602);
    assert_eq!(server.stop().code(), Some(0));
}
