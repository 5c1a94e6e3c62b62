//! Hostile project files through the `easyflow-ls` binary: for every
//! `tests/data/hostile/X.project` (a scratch project, see
//! `easyflow_test_harness::project`) the server is started on the project
//! folder, opens each of its text files, and `X.lsp.txt` must hold the
//! diagnostics published for them, the flows indexed from the disk (by
//! workspace symbols), what the server showed the user as skipped
//! (`window/showMessage`) and what it logged. The CLI's
//! side of the same cases is `crates/cli/tests/hostile.rs`.

mod support;

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use easyflow_test_harness::project::Project;
use easyflow_test_harness::{Case, Failed, Harness, Outputs};
use serde_json::json;
use support::{Server, TIMEOUT};

fn session(case: &Case) -> Result<Outputs, Failed> {
    let project = Project::create(&case.text);
    let root = project.root();
    let mut server = Server::start_with_env(&[("EASYFLOW_LOG", "info")]);
    server.initialize(&root, json!({}), json!({}));
    let mut report = String::new();
    for (path, text) in &project.texts {
        let uri = server.open(path, text);
        let name = path.strip_prefix(&root).unwrap().display();
        writeln!(report, "diagnostics of {name}:")?;
        for diagnostic in server.diagnostics(&uri, 0) {
            let range = &diagnostic["range"];
            writeln!(
                report,
                "  {} {}:{}-{}:{} {}",
                diagnostic["code"].as_str().unwrap_or("?"),
                range["start"]["line"],
                range["start"]["character"],
                range["end"]["line"],
                range["end"]["character"],
                diagnostic["message"].as_str().unwrap_or("?"),
            )?;
        }
    }
    // The workspace is indexed in the background: wait for its end.
    let deadline = Instant::now() + TIMEOUT;
    while !server.log().contains("indexed ") {
        assert!(Instant::now() < deadline, "indexing never ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    let symbols = server.request("workspace/symbol", json!({"query": ""}));
    let mut names: Vec<String> = symbols
        .as_array()
        .into_iter()
        .flatten()
        .map(|symbol| {
            let file = symbol["location"]["uri"]
                .as_str()
                .unwrap_or("?")
                .rsplit('/')
                .next()
                .unwrap_or("?")
                .to_string();
            format!("{file}: {}", symbol["name"].as_str().unwrap_or("?"))
        })
        .collect();
    names.sort();
    writeln!(report, "workspace symbols:")?;
    for name in names {
        writeln!(report, "  {name}")?;
    }
    // What the user was shown: each skipped file once, whatever the
    // messages that grouped them.
    let mut shown: Vec<String> = server
        .notifications
        .iter()
        .filter(|m| m["method"] == "window/showMessage")
        .flat_map(|m| {
            assert_eq!(m["params"]["type"], 2, "a warning: {m}");
            let message = m["params"]["message"].as_str().unwrap_or("?");
            match message.split_once(" files:\n- ") {
                Some((_, list)) => list.split("\n- ").map(str::to_string).collect(),
                None => vec![message.trim_start_matches("EasyFlow skipped ").to_string()],
            }
        })
        .collect();
    shown.sort();
    let count = shown.len();
    shown.dedup();
    assert_eq!(count, shown.len(), "a file shown twice: {shown:?}");
    writeln!(report, "shown:")?;
    for line in shown {
        writeln!(report, "  {line}")?;
    }
    let mut skipped: Vec<String> = server
        .log()
        .lines()
        .filter_map(|line| Some(line[line.find("skipped ")?..].to_string()))
        .collect();
    skipped.sort();
    skipped.dedup();
    writeln!(report, "logged:")?;
    for line in skipped {
        writeln!(report, "  {line}")?;
    }
    let status = server.stop();
    assert!(status.success(), "the server exited with {status}");
    Ok(vec![("lsp.txt", project.redact(&report))])
}

fn main() {
    Harness::new().folder("hostile", "project", session).run();
}
