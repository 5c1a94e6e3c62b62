//! Latency of navigation beyond the flow file through the real
//! `easyflow-ls` over a large workspace (`cargo bench -p easyflow-ls
//! --bench beyond`): go to definition from a step's package name (into the
//! catalog) and from a capability of its `requires` (into the topology),
//! in an open flow; and references of a package from the open catalog,
//! which finds the steps that run it in every flow of the workspace, the
//! closed ones from the index. Prints p50/p99; asserts nothing but that
//! the answers are there.
//!
//! `EASYFLOW_BENCH_FLOWS` flows (default 10000) of `EASYFLOW_BENCH_STEPS`
//! steps (default 100), in 100 folders under one `easyflow.toml`;
//! `EASYFLOW_BENCH_SAMPLES` requests of each kind (default 100 for
//! definitions, a fifth of it for references).

mod latency;
#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use latency::{position, report};
use serde_json::{Value, json};
use support::Server;

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn time(server: &mut Server, method: &str, params: &Value, count: usize) -> (Vec<Duration>, Value) {
    let mut last = Value::Null;
    let samples = (0..count)
        .map(|_| {
            let started = Instant::now();
            last = server.request(method, params.clone());
            started.elapsed()
        })
        .collect();
    (samples, last)
}

fn main() {
    let flows = env_number("EASYFLOW_BENCH_FLOWS", 10_000);
    let steps = env_number("EASYFLOW_BENCH_STEPS", 100);
    let samples = env_number("EASYFLOW_BENCH_SAMPLES", 100);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(
        root.join("easyflow.toml"),
        "topology = \"site.topology\"\ncatalog = \"packages.toml\"\n",
    )
    .unwrap();
    std::fs::write(root.join("site.topology"), easyflow_genflow::TOPOLOGY).unwrap();
    let catalog = easyflow_genflow::catalog(50);
    std::fs::write(root.join("packages.toml"), &catalog).unwrap();
    let generated = Instant::now();
    for i in 0..flows {
        let folder = root.join(format!("w{}", i % 100));
        std::fs::create_dir_all(&folder).unwrap();
        let text = easyflow_genflow::generate_with_topology(steps, i as u64);
        std::fs::write(folder.join(format!("flow{i}.flow")), text).unwrap();
    }
    println!(
        "--- {flows} flows of {steps} steps (written in {:.1?})",
        generated.elapsed()
    );

    // The server's own info lines say when the workspace is indexed.
    let mut server = Server::start_with_env(&[("EASYFLOW_LOG", "warn,easyflow_ls=info")]);
    let started = Instant::now();
    // A client that takes links, and asks nothing the bench would have to
    // answer while it waits for the index (watchers, progress, settings).
    let mut client = support::full_client();
    client["workspace"]["didChangeWatchedFiles"] = json!({});
    client["workspace"]["configuration"] = json!(false);
    client["window"]["workDoneProgress"] = json!(false);
    server.initialize(&root, client, json!({}));
    while !server.log().contains("indexed ") {
        std::thread::sleep(Duration::from_millis(20));
    }
    println!(
        "{:<48} {:>8.2} s",
        "workspace indexed",
        started.elapsed().as_secs_f64()
    );

    // An open flow: definitions into the catalog and the topology.
    let flow = root.join("w0/flow0.flow");
    let text = std::fs::read_to_string(&flow).unwrap();
    let uri = server.open(&flow, &text);
    server.diagnostics(&uri, 0);
    let package = text.find(" runs ORCA.DFT").unwrap() + " runs ORCA".len();
    let params = json!({"textDocument": {"uri": uri}, "position": position(&text, package)});
    let (mut latencies, answer) = time(&mut server, "textDocument/definition", &params, samples);
    assert!(
        answer[0]["targetUri"]
            .as_str()
            .unwrap()
            .ends_with("packages.toml"),
        "{answer}"
    );
    report("definition: package -> catalog", &mut latencies);
    let capability = text.find("[requires = \"compute").unwrap() + "[requires = \"com".len();
    let params = json!({"textDocument": {"uri": uri}, "position": position(&text, capability)});
    let (mut latencies, answer) = time(&mut server, "textDocument/definition", &params, samples);
    assert!(answer.as_array().is_some_and(|a| !a.is_empty()), "{answer}");
    report("definition: capability -> topology", &mut latencies);

    // The open catalog: the steps of every flow that run ORCA.DFT.
    let catalog_path = root.join("packages.toml");
    let catalog_uri = server.open(&catalog_path, &catalog);
    let name = catalog.find("\"ORCA.DFT\"").unwrap() + 3;
    let params = json!({
        "textDocument": {"uri": catalog_uri},
        "position": position(&catalog, name),
        "context": {"includeDeclaration": false},
    });
    let (mut latencies, answer) = time(
        &mut server,
        "textDocument/references",
        &params,
        (samples / 5).max(1),
    );
    let found = answer.as_array().map_or(0, Vec::len);
    assert!(found >= flows, "{found} references");
    report(
        &format!("references: package -> {found} steps"),
        &mut latencies,
    );
    assert_eq!(server.stop().code(), Some(0));
}
