//! The rules the exports must follow, checked on every output of the tests:
//! DIET's DAG reader rules (`exports.md`) and the model's agreement with
//! `easyflow graph --format json`.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use easyflow_cli::export::{Outcome, export};
use easyflow_db::{Database, SourceFile, graph_view};
use easyflow_ide::export::{CWL, FORMATS, Format};
use easyflow_test_harness::Failed;
use serde_json::Value;

const DIET_TYPES: &[&str] = &[
    "DIET_CHAR",
    "DIET_SHORT",
    "DIET_INT",
    "DIET_LONGINT",
    "DIET_FLOAT",
    "DIET_DOUBLE",
    "DIET_STRING",
    "DIET_PARAMSTRING",
    "DIET_FILE",
    "DIET_CONTAINER",
];

/// What DIET's DAG reader accepts: root `<dag>` with only `<node>`
/// children; a node has unique `id` and `path` and only `arg`, `in`,
/// `inOut`, `out`, `prec` children; `arg` has `name` and `value`; ports
/// have `name` and a DIET `type`; an `in`'s `source` is `node#port` naming
/// an `out` of a node already written; `prec` names a node already written.
pub fn check_diet(xml: &str) -> Result<(), Failed> {
    if !xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") {
        return Err("no XML declaration".into());
    }
    let document = roxmltree::Document::parse(xml).map_err(|e| format!("not XML: {e}"))?;
    let dag = document.root_element();
    if dag.tag_name().name() != "dag" {
        return Err(format!("the root is <{}>, not <dag>", dag.tag_name().name()).into());
    }
    // Node id → its output ports.
    let mut written: HashMap<String, HashSet<String>> = HashMap::new();
    for node in dag.children().filter(|n| n.is_element()) {
        if node.tag_name().name() != "node" {
            return Err(format!("<dag> holds <{}>", node.tag_name().name()).into());
        }
        let required = |element: roxmltree::Node<'_, '_>, attribute: &str| {
            element
                .attribute(attribute)
                .map(str::to_string)
                .ok_or_else(|| {
                    format!(
                        "<{}> without `{attribute}` in node {:?}",
                        element.tag_name().name(),
                        node.attribute("id")
                    )
                })
        };
        let id = required(node, "id")?;
        required(node, "path")?;
        if written.contains_key(&id) {
            return Err(format!("node id `{id}` is written twice").into());
        }
        let mut outs = HashSet::new();
        let mut port_names = HashSet::new();
        for child in node.children().filter(|n| n.is_element()) {
            let tag = child.tag_name().name();
            match tag {
                "arg" => {
                    required(child, "value")?;
                }
                "in" | "inOut" | "out" => {
                    let kind = required(child, "type")?;
                    if !DIET_TYPES.contains(&kind.as_str()) {
                        return Err(format!("`{kind}` is no DIET type").into());
                    }
                }
                "prec" => {
                    let before = required(child, "id")?;
                    if !written.contains_key(&before) {
                        return Err(format!(
                            "prec `{before}` in `{id}` names no node written before"
                        )
                        .into());
                    }
                    continue;
                }
                other => return Err(format!("<node> holds <{other}>").into()),
            }
            let name = required(child, "name")?;
            if let Some(kind) = child.attribute("type")
                && !DIET_TYPES.contains(&kind)
            {
                return Err(format!("`{kind}` is no DIET type").into());
            }
            if !port_names.insert(name.clone()) {
                return Err(format!("port `{name}` twice in node `{id}`").into());
            }
            if tag == "out" {
                outs.insert(name);
            } else if tag == "in" {
                let source = required(child, "source")?;
                let (from, port) = source
                    .split_once('#')
                    .ok_or_else(|| format!("source `{source}` is not node#port"))?;
                match written.get(from) {
                    Some(ports) if ports.contains(port) => {}
                    Some(_) => {
                        return Err(
                            format!("source `{source}`: `{from}` has no out `{port}`").into()
                        );
                    }
                    None => {
                        return Err(format!(
                            "source `{source}` names no node written before `{id}`"
                        )
                        .into());
                    }
                }
            }
        }
        written.insert(id, outs);
    }
    Ok(())
}

/// `easyflow graph --format json` of a flow.
pub fn graph_json(path: &Path) -> Result<Value, Failed> {
    let text = std::fs::read_to_string(path)?;
    let db = Database::default();
    let file = SourceFile::new(&db, path.to_path_buf(), text.into());
    Ok(serde_json::to_value(easyflow_ide::graph::to_json(
        graph_view(&db, file),
    ))?)
}

/// The model agrees with the graph: one job per instance (node count = sum
/// of instance counts), exactly one precedence edge per instance pair of
/// each pair of dependent steps and none elsewhere, jobs in an order where
/// every edge points forward (so acyclic), stage-in edges from known files.
pub fn check_model(model: &str, graph: &Value) -> Result<(), Failed> {
    let model: Value = serde_json::from_str(model)?;
    let jobs = model["jobs"].as_array().ok_or("no jobs")?;
    let instances: u64 = graph["nodes"]
        .as_array()
        .ok_or("no nodes")?
        .iter()
        .map(|n| n["instances"].as_u64().unwrap_or(0))
        .sum();
    if jobs.len() as u64 != instances {
        return Err(format!("{} jobs for {instances} instances", jobs.len()).into());
    }
    let mut position = HashMap::new();
    let mut step_of = HashMap::new();
    let mut jobs_of: HashMap<&str, usize> = HashMap::new();
    for (i, job) in jobs.iter().enumerate() {
        let id = job["id"].as_str().ok_or("job without id")?;
        let step = job["step"].as_str().ok_or("job without step")?;
        if position.insert(id, i).is_some() {
            return Err(format!("job `{id}` twice").into());
        }
        step_of.insert(id, step);
        *jobs_of.entry(step).or_default() += 1;
    }
    let mut files: HashSet<&str> = HashSet::new();
    for file in model["files"].as_array().ok_or("no files")? {
        files.insert(file["id"].as_str().ok_or("file without id")?);
        if let Some(producer) = file.get("producer")
            && !position.contains_key(producer.as_str().unwrap_or_default())
        {
            return Err(format!("producer {producer} is no job").into());
        }
    }
    let dependent: HashSet<(&str, &str)> = graph["edges"]
        .as_array()
        .ok_or("no edges")?
        .iter()
        .map(|e| {
            (
                e["from"].as_str().unwrap_or(""),
                e["to"].as_str().unwrap_or(""),
            )
        })
        .collect();
    let mut pairs: HashMap<(&str, &str), usize> = HashMap::new();
    let mut seen = HashSet::new();
    for edge in model["edges"].as_array().ok_or("no edges")? {
        let from = edge["from"].as_str().ok_or("edge without from")?;
        let to = edge["to"].as_str().ok_or("edge without to")?;
        let &to_at = position
            .get(to)
            .ok_or_else(|| format!("edge to `{to}`, no job"))?;
        if !seen.insert((from, to, edge["kind"].as_str())) {
            return Err(format!("edge {from} → {to} twice").into());
        }
        match edge["kind"].as_str() {
            Some("precedence") => {
                let &from_at = position
                    .get(from)
                    .ok_or_else(|| format!("edge from `{from}`, no job"))?;
                if from_at >= to_at {
                    return Err(format!("precedence {from} → {to} points backwards").into());
                }
                let steps = (step_of[from], step_of[to]);
                if !dependent.contains(&steps) {
                    return Err(format!("precedence {from} → {to}: no such graph edge").into());
                }
                *pairs.entry(steps).or_default() += 1;
            }
            Some("stage_in") => {
                if !files.contains(from) {
                    return Err(format!("stage-in from `{from}`, no file").into());
                }
            }
            other => return Err(format!("edge kind {other:?}").into()),
        }
    }
    for &(from, to) in &dependent {
        let expected =
            jobs_of.get(from).copied().unwrap_or(0) * jobs_of.get(to).copied().unwrap_or(0);
        let found = pairs.get(&(from, to)).copied().unwrap_or(0);
        if found != expected {
            return Err(format!(
                "{from} → {to}: {found} precedence edges, {expected} instance pairs"
            )
            .into());
        }
    }
    Ok(())
}

/// Generated flows of 1000 steps (with and without a topology) export in
/// every format, pass DIET's rules and agree with their graph.
pub fn generated_flows() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    for seed in 1..=3 {
        let with_topology = seed == 3;
        let text = if with_topology {
            std::fs::write(
                dir.path().join("easyflow.topology"),
                easyflow_genflow::TOPOLOGY,
            )?;
            easyflow_genflow::generate_with_topology(1000, seed)
        } else {
            easyflow_genflow::generate(1000, seed)
        };
        let path = dir.path().join(format!("generated-{seed}.flow"));
        std::fs::write(&path, &text)?;
        // Every format exports the flow (but CWL, which needs a catalog that
        // says how packages run: its property test is `runnable_flows`); the
        // rules of three are checked.
        let mut outputs = HashMap::new();
        for format in FORMATS.iter().filter(|f| **f != CWL) {
            match export(&path, None, None, format)? {
                Outcome::Exported(exported) => outputs.insert(format.name, exported.text),
                Outcome::Refused(_, refused) => {
                    return Err(format!("seed {seed} refused: {:?}", refused.errors).into());
                }
            };
        }
        check_diet(&outputs["diet"])
            .map_err(|e| format!("seed {seed}: {}", e.message().unwrap_or("")))?;
        serde_json::from_str::<Value>(&outputs["workload"])?;
        check_model(&outputs["model"], &graph_json(&path)?)
            .map_err(|e| format!("seed {seed}: {}", e.message().unwrap_or("")))?;
        if with_topology {
            let model: Value = serde_json::from_str(&outputs["model"])?;
            let placed = model["jobs"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|j| !j["host"].is_null())
                .count();
            if placed == 0 || model["compute_hosts"].as_array().is_none_or(Vec::is_empty) {
                return Err("with a topology, jobs have hosts".into());
            }
        }
    }
    Ok(())
}

/// Each listing of `docs/exports.md` preceded by `<!-- from PATH -->` is
/// exactly that file, so the documentation cannot drift from the tests.
pub fn documentation_listings() -> Result<(), Failed> {
    let doc = std::fs::read_to_string("docs/exports.md")?;
    let mut checked = 0;
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let Some(path) = line
            .strip_prefix("<!-- from ")
            .and_then(|rest| rest.strip_suffix(" -->"))
        else {
            continue;
        };
        lines
            .next()
            .filter(|l| l.starts_with("```"))
            .ok_or("a fence after the marker")?;
        let mut listing = String::new();
        for line in lines.by_ref().take_while(|l| *l != "```") {
            listing.push_str(line);
            listing.push('\n');
        }
        if listing != std::fs::read_to_string(path)? {
            return Err(
                format!("docs/exports.md: the listing of {path} differs from the file").into(),
            );
        }
        checked += 1;
    }
    if checked < 4 {
        return Err(format!(
            "docs/exports.md: {checked} listings, expected the flow and three exports"
        )
        .into());
    }
    Ok(())
}

/// Property: for generated flows of any size and seed, the model has one
/// job per instance and a precedence edge between every instance pair of
/// every graph edge (`check_model`), and the DIET output follows DIET's
/// rules. Runs proptest's runner by hand: this target has no `#[test]`s.
pub fn property_generated_flows_agree_with_their_graph() -> Result<(), Failed> {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};

    let dir = tempfile::tempdir()?;
    let path = dir.path().join("generated.flow");
    let mut runner = TestRunner::new(Config {
        cases: 48,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&(1usize..160, any::<u64>()), |(steps, seed)| {
            std::fs::write(&path, easyflow_genflow::generate(steps, seed)).unwrap();
            let exported =
                |name| match export(&path, None, None, Format::named(name).unwrap()).unwrap() {
                    Outcome::Exported(exported) => exported.text,
                    Outcome::Refused(_, refused) => panic!("refused: {:?}", refused.errors),
                };
            let graph = graph_json(&path).unwrap();
            check_model(&exported("model"), &graph)
                .map_err(|e| TestCaseError::fail(e.message().unwrap_or("").to_string()))?;
            check_diet(&exported("diet"))
                .map_err(|e| TestCaseError::fail(e.message().unwrap_or("").to_string()))?;
            Ok(())
        })
        .map_err(|e| format!("{e}"))?;
    Ok(())
}

/// The rules of a CWL export (`run.md` §3) that need no engine: a packed
/// v1.2 document whose `#main` links only to inputs and to outputs of
/// steps written before, each step running a tool of the document with
/// distinct argument positions and an input for each of its step's; each
/// step's scatter size equals its instance count in the model (one job,
/// unscattered), and each of the model's precedence edges is a link.
pub fn check_cwl(cwl: &str, model: &str) -> Result<(), Failed> {
    let cwl: Value = serde_json::from_str(cwl)?;
    let model: Value = serde_json::from_str(model)?;
    if cwl["cwlVersion"] != "v1.2" {
        return Err("cwlVersion is not v1.2".into());
    }
    let graph = cwl["$graph"].as_array().ok_or("no $graph")?;
    let main = graph
        .first()
        .filter(|m| m["id"] == "#main")
        .ok_or("the first of $graph is not #main")?;
    let tools: HashMap<&str, &Value> = graph[1..]
        .iter()
        .filter_map(|t| Some((t["id"].as_str()?, t)))
        .collect();
    let mut jobs: HashMap<&str, usize> = HashMap::new();
    for job in model["jobs"].as_array().ok_or("no jobs")? {
        *jobs
            .entry(job["step"].as_str().ok_or("a job's step")?)
            .or_default() += 1;
    }
    let mut available: HashSet<String> = main["inputs"]
        .as_array()
        .ok_or("no inputs")?
        .iter()
        .filter_map(|i| i["id"].as_str().map(str::to_string))
        .collect();
    // Step name → the steps it reads from.
    let mut links: HashMap<String, HashSet<String>> = HashMap::new();
    let steps = main["steps"].as_array().ok_or("no steps")?;
    for step in steps {
        let id = step["id"].as_str().ok_or("a step's id")?;
        let name = id.strip_prefix("#main/").ok_or("a step id outside #main")?;
        let tool = tools
            .get(step["run"].as_str().unwrap_or_default())
            .ok_or_else(|| format!("step {name} runs a tool that is not in the document"))?;
        let tool_inputs: HashSet<String> = tool["inputs"]
            .as_array()
            .ok_or("a tool's inputs")?
            .iter()
            .filter_map(|i| i["id"].as_str()?.rsplit('/').next().map(str::to_string))
            .collect();
        let mut positions = HashSet::new();
        for input in tool["inputs"].as_array().into_iter().flatten() {
            if let Some(position) = input["inputBinding"]["position"].as_u64()
                && !positions.insert(position)
            {
                return Err(format!("step {name}: two arguments at position {position}").into());
            }
        }
        let mut sizes: HashMap<String, usize> = HashMap::new();
        for input in step["in"].as_array().ok_or("a step's in")? {
            let input_id = input["id"].as_str().ok_or("an input's id")?;
            let short = input_id.rsplit('/').next().unwrap_or_default().to_string();
            if !tool_inputs.contains(&short) {
                return Err(format!("step {name}: the tool has no input {short}").into());
            }
            let sources: Vec<&str> = match &input["source"] {
                Value::String(s) => vec![s.as_str()],
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            for source in &sources {
                if !available.contains(*source) {
                    return Err(format!(
                        "step {name} reads {source}, which is not written before it"
                    )
                    .into());
                }
                let from = source.trim_start_matches("#main/");
                if let Some((producer, _)) = from.split_once('/') {
                    links
                        .entry(name.to_string())
                        .or_default()
                        .insert(producer.to_string());
                }
            }
            let size = if input.get("source").is_some() {
                sources.len()
            } else {
                input["default"].as_array().map_or(1, Vec::len)
            };
            sizes.insert(input_id.to_string(), size);
        }
        let instances = match step.get("scatter") {
            Some(scatter) => {
                if step["scatterMethod"] != "flat_crossproduct" {
                    return Err(
                        format!("step {name} does not scatter with flat_crossproduct").into(),
                    );
                }
                scatter
                    .as_array()
                    .ok_or("a scatter")?
                    .iter()
                    .map(|s| {
                        sizes
                            .get(s.as_str().unwrap_or_default())
                            .copied()
                            .unwrap_or(0)
                    })
                    .product()
            }
            None => 1,
        };
        let expected = jobs.get(name).copied().unwrap_or(0);
        if instances != expected {
            return Err(format!(
                "step {name} runs {instances} instances, the model has {expected} jobs"
            )
            .into());
        }
        for out in step["out"].as_array().ok_or("a step's out")? {
            available.insert(out.as_str().ok_or("an out")?.to_string());
        }
    }
    let step_of_job: HashMap<&str, &str> = model["jobs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|j| Some((j["id"].as_str()?, j["step"].as_str()?)))
        .collect();
    for edge in model["edges"].as_array().into_iter().flatten() {
        if edge["kind"] != "precedence" {
            continue;
        }
        let (Some(from), Some(to)) = (
            edge["from"].as_str().and_then(|f| step_of_job.get(f)),
            edge["to"].as_str().and_then(|t| step_of_job.get(t)),
        ) else {
            continue;
        };
        if !links.get(*to).is_some_and(|l| l.contains(*from)) {
            return Err(format!("step {to} depends on {from}, but no link carries it").into());
        }
    }
    Ok(())
}

/// Property: for generated flows (without code blocks) under the generated
/// runnable catalog, the CWL export keeps the rules of [`check_cwl`]: each
/// scatter is as large as the model's instances, each dependency a link.
/// (`tests/run` validates such exports with cwltool.)
pub fn property_generated_runnable_flows_scatter_as_the_model() -> Result<(), Failed> {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};

    let dir = tempfile::tempdir()?;
    let path = dir.path().join("generated.flow");
    let catalog = dir.path().join("easyflow-packages.toml");
    std::fs::write(&catalog, easyflow_genflow::runnable_catalog())?;
    let mut runner = TestRunner::new(Config {
        cases: 32,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&(1usize..120, any::<u64>()), |(steps, seed)| {
            std::fs::write(&path, easyflow_genflow::generate_runnable(steps, seed)).unwrap();
            let exported =
                |name| match export(&path, None, None, Format::named(name).unwrap()).unwrap() {
                    Outcome::Exported(exported) => exported.text,
                    Outcome::Refused(_, refused) => {
                        panic!("refused: {:?} {:?}", refused.errors, refused.reasons)
                    }
                };
            check_cwl(&exported("cwl"), &exported("model"))
                .map_err(|e| TestCaseError::fail(e.message().unwrap_or("").to_string()))?;
            Ok(())
        })
        .map_err(|e| format!("{e}"))?;
    Ok(())
}
