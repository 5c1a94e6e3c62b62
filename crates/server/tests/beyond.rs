//! Beyond the flow file (lsp.md), through the real binary: definition from
//! a flow into its catalog and topology, references of a catalog's package
//! in every flow of the workspace (closed ones included, a flow of another
//! catalog left out), the links of `easyflow.toml`, and the outline and
//! hover of catalog and topology documents.

mod support;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use support::{Server, full_client, repo_root, uri};

fn workspace() -> PathBuf {
    repo_root().join("tests/data/lsp/beyond-workspace")
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The text at an LSP range of `text` (ASCII: characters are bytes).
fn text_at(text: &str, range: &Value) -> String {
    let offset = |position: &Value| {
        let line = position["line"].as_u64().unwrap() as usize;
        let character = position["character"].as_u64().unwrap() as usize;
        text.split_inclusive('\n')
            .take(line)
            .map(str::len)
            .sum::<usize>()
            + character
    };
    text[offset(&range["start"])..offset(&range["end"])].to_string()
}

/// A server on the workspace for `capabilities`, with `path` open.
fn session(capabilities: Value, path: &Path) -> (Server, String) {
    let mut server = Server::start();
    server.initialize(&workspace(), capabilities, json!({}));
    let uri = server.open(path, &read(path));
    (server, uri)
}

/// Each target of a definition as `file: text at the focus`.
fn targets(response: &Value) -> Vec<String> {
    let links = match response {
        Value::Array(links) => links.clone(),
        Value::Null => Vec::new(),
        single => vec![single.clone()],
    };
    links
        .iter()
        .map(|link| {
            let (target, range) = match link.get("targetUri") {
                Some(target) => (target, &link["targetSelectionRange"]),
                None => (&link["uri"], &link["range"]),
            };
            let path = workspace().join(
                target
                    .as_str()
                    .unwrap()
                    .rsplit_once("beyond-workspace/")
                    .unwrap()
                    .1,
            );
            let name = path
                .strip_prefix(workspace())
                .unwrap()
                .display()
                .to_string();
            format!("{name}: {}", text_at(&read(&path), range))
        })
        .collect()
}

#[test]
fn definition_of_packages_parameters_outputs_and_capabilities() {
    let main = workspace().join("main.flow");
    for client in [full_client(), json!({})] {
        let (mut server, uri) = session(client, &main);
        let definition = |server: &mut Server, line, character| {
            targets(&server.request("textDocument/definition", at(&uri, line, character)))
        };
        // `step Optimize runs ORCA.DFT (input = molecule, charge = 1);`
        assert_eq!(
            definition(&mut server, 2, 22),
            ["packages.toml: \"ORCA.DFT\""]
        );
        assert_eq!(
            definition(&mut server, 2, 49),
            ["packages.toml: \"charge\""]
        );
        // `step Plot runs Vis.Mesh (data = Optimize.outs["geometry.xyz"]);`
        assert_eq!(
            definition(&mut server, 3, 50),
            ["packages.toml: \"geometry.xyz\""]
        );
        // `[requires = "compute+GPU"]`: `compute` in both worker types.
        assert_eq!(
            definition(&mut server, 1, 14),
            [
                "cluster/site.topology: compute",
                "cluster/site.topology: compute"
            ]
        );
        assert_eq!(
            definition(&mut server, 1, 22),
            ["cluster/site.topology: GPU"]
        );
        // A step's name still leads to the step.
        let step = server.request("textDocument/definition", at(&uri, 3, 35));
        assert_eq!(targets(&step), ["main.flow: Optimize"]);
        assert_eq!(server.stop().code(), Some(0));
    }
}

#[test]
fn references_of_a_package_in_every_flow_that_uses_the_catalog() {
    let catalog = workspace().join("packages.toml");
    let (mut server, catalog_uri) = session(full_client(), &catalog);
    // The open flow, with an unsaved step that runs the package too.
    let main = workspace().join("main.flow");
    let text = format!(
        "{}step New runs ORCA.DFT (input = molecule);\n",
        read(&main)
    );
    let main_uri = server.open(&main, &text);
    let found = |server: &mut Server, include: bool| -> Vec<String> {
        let mut params = at(&catalog_uri, 1, 10);
        params["context"] = json!({"includeDeclaration": include});
        let locations = server.request("textDocument/references", params);
        locations
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                let uri = l["uri"].as_str().unwrap();
                let name = uri.rsplit_once("beyond-workspace/").unwrap().1;
                let text = match uri == main_uri {
                    true => text.clone(),
                    false => read(&workspace().join(name)),
                };
                format!(
                    "{name}:{}: {}",
                    l["range"]["start"]["line"],
                    text_at(&text, &l["range"])
                )
            })
            .collect()
    };
    let mut without = found(&mut server, false);
    without.sort();
    assert_eq!(
        without,
        [
            "closed/more.flow:1: ORCA.DFT",
            "closed/more.flow:3: ORCA.DFT",
            "main.flow:2: ORCA.DFT",
            "main.flow:4: ORCA.DFT",
        ],
        "other/elsewhere.flow uses its own catalog"
    );
    let with = found(&mut server, true);
    assert_eq!(with[0], "packages.toml:1: \"ORCA.DFT\"");
    assert_eq!(with.len(), 5);
    // Off a package's name: nothing.
    let mut params = at(&catalog_uri, 2, 3);
    params["context"] = json!({"includeDeclaration": true});
    assert_eq!(
        server.request("textDocument/references", params),
        Value::Null
    );
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn links_of_easyflow_toml() {
    let config = workspace().join("easyflow.toml");
    let (mut server, config_uri) = session(full_client(), &config);
    let links = server.request(
        "textDocument/documentLink",
        json!({"textDocument": {"uri": config_uri}}),
    );
    let links: Vec<(String, String)> = links
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                text_at(&read(&config), &l["range"]),
                l["target"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        links,
        [
            (
                "\"cluster/site.topology\"".to_string(),
                uri(&workspace().join("cluster/site.topology"))
            ),
            (
                "\"packages.toml\"".to_string(),
                uri(&workspace().join("packages.toml"))
            ),
        ]
    );
    // A flow has no links.
    let main = server.open(
        &workspace().join("main.flow"),
        &read(&workspace().join("main.flow")),
    );
    let none = server.request(
        "textDocument/documentLink",
        json!({"textDocument": {"uri": main}}),
    );
    assert_eq!(none, Value::Null);
    assert_eq!(server.stop().code(), Some(0));
}

/// A symbol tree as `name (kind)` lines, children indented.
fn outline(symbols: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for symbol in symbols.as_array().unwrap() {
        out.push(format!(
            "{} ({})",
            symbol["name"].as_str().unwrap(),
            symbol["kind"]
        ));
        for child in symbol["children"].as_array().into_iter().flatten() {
            out.push(format!(
                "  {} ({})",
                child["name"].as_str().unwrap(),
                child["kind"]
            ));
        }
    }
    out
}

#[test]
fn catalog_documents_get_symbols_and_hover() {
    let catalog = workspace().join("packages.toml");
    let (mut server, uri) = session(full_client(), &catalog);
    let symbols = server.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(
        outline(&symbols),
        [
            "ORCA.DFT (2)",
            "  input (13)",
            "  charge (13)",
            "  geometry.xyz (1)",
            "Vis.Mesh (2)",
            "  data (13)"
        ]
    );
    assert_eq!(
        text_at(&read(&catalog), &symbols[0]["selectionRange"]),
        "\"ORCA.DFT\""
    );
    let hover = server.request("textDocument/hover", at(&uri, 1, 10));
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(markdown.starts_with("**package** `ORCA.DFT`"), "{markdown}");
    // `  name = "charge"`
    let hover = server.request("textDocument/hover", at(&uri, 11, 12));
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(markdown.contains("charge: Int (-10..=10)"), "{markdown}");
    assert!(markdown.ends_with("parameter of `ORCA.DFT`"), "{markdown}");
    assert_eq!(
        server.request("textDocument/hover", at(&uri, 2, 2)),
        Value::Null
    );
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn topology_documents_get_symbols_and_hover() {
    let topology = workspace().join("cluster/site.topology");
    let (mut server, uri) = session(full_client(), &topology);
    let symbols = server.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(
        outline(&symbols),
        ["compute+CPU (5)", "compute+GPU (5)", "IO+load (5)"]
    );
    let hover = server.request("textDocument/hover", at(&uri, 2, 4));
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(markdown.contains("**worker type** `IO+load`"), "{markdown}");
    assert!(markdown.contains("- per node: 2 worker instances on each machine"));
    assert!(
        markdown.contains("- memory: 16 MiB per instance"),
        "{markdown}"
    );
    assert!(markdown.contains("- ports: 9000–9001 (one per instance)"));
    assert_eq!(
        text_at(&read(&topology), &hover["range"]),
        "IO+load:2,16777216/9000"
    );
    // On the comment: nothing.
    assert_eq!(
        server.request("textDocument/hover", at(&uri, 0, 4)),
        Value::Null
    );
    // A client without a symbol tree gets them flat.
    let (mut flat, flat_uri) = session(json!({}), &topology);
    let symbols = flat.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": flat_uri}}),
    );
    assert_eq!(symbols[1]["name"], "compute+GPU");
    assert!(symbols[1]["location"]["range"].is_object());
    assert_eq!(flat.stop().code(), Some(0));
    assert_eq!(server.stop().code(), Some(0));
}
