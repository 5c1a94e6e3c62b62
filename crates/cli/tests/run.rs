//! `easyflow run` (`run.md` §4) and the CWL it hands the engines, end to
//! end through the binary.
//!
//! - Without an engine: a refused flow (status 1, before looking for the
//!   engine), a missing engine and every problem with `--input` (status 2,
//!   nothing run), the notes on streams, and the command line given to an
//!   engine, through a stub `cwltool`/`toil-cwl-runner` that records its
//!   arguments.
//! - With the engines of `tests/run/install-engines.sh` (pinned cwltool and
//!   Toil in a virtualenv): every expected `.cwl` of `tests/data/export`
//!   validated by `cwltool --validate` in one process, without a warning;
//!   the corpus `tests/data/run/X.flow` run by `cwltool --no-container
//!   --parallel`, its outputs (the engine's output object, each file's
//!   content in order) compared with `X.outputs.txt`; an `after` that waits
//!   for its predecessor's end; the example of the README under cwltool and
//!   Toil's single-machine batch system; a successful run's outputs in the
//!   default outdir; a failing instance failing the run. Outside CI these
//!   are skipped, saying why, when the engines are not installed; in CI
//!   (`CI` set) they must run.
//!
//! Regenerate the expected outputs with
//! `UPDATE_EXPECT=1 cargo test -p easyflow-cli --test run`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{repo_root, stderr};
use easyflow_test_harness::{Case, Failed, Harness, Outputs, compare_with_file};
use serde_json::Value;

/// The engines' virtualenv (`tests/run/install-engines.sh`), or why not.
fn engines() -> Result<Option<PathBuf>, Failed> {
    let venv = std::env::var_os("EASYFLOW_ENGINES").map_or_else(
        || {
            let cache = std::env::var_os("XDG_CACHE_HOME").map_or_else(
                || PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache"),
                PathBuf::from,
            );
            cache.join("easyflow-ls/engines")
        },
        PathBuf::from,
    );
    if venv.join("bin/cwltool").is_file() && venv.join("bin/toil-cwl-runner").is_file() {
        return Ok(Some(venv));
    }
    let message = format!(
        "no CWL engines in {}: run tests/run/install-engines.sh",
        venv.display()
    );
    if std::env::var_os("CI").is_some() {
        return Err(message.into());
    }
    eprintln!("SKIPPED: {message}");
    Ok(None)
}

/// `easyflow ARGS` in `dir`, with `path` as PATH.
fn easyflow_with_path(args: &[&str], dir: &Path, path: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_easyflow"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .expect("the easyflow binary runs")
}

/// PATH with the engines' `bin` first.
fn path_with(venv: &Path) -> String {
    format!(
        "{}:{}",
        venv.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn status(output: &Output) -> i32 {
    output.status.code().unwrap_or(-1)
}

fn checked(output: &Output, expected: i32) -> Result<(), Failed> {
    if status(output) != expected {
        return Err(format!(
            "exit status {} (expected {expected}); stderr:\n{}",
            status(output),
            stderr(output)
        )
        .into());
    }
    Ok(())
}

/// The engine's output object as text: each output (by id) and each of its
/// files in order, with its content.
fn render_outputs(stdout: &[u8]) -> Result<String, Failed> {
    let outputs: serde_json::Map<String, Value> = serde_json::from_slice(stdout)
        .map_err(|e| format!("the engine printed no output object ({e})"))?;
    let mut ids: Vec<&String> = outputs.keys().collect();
    ids.sort();
    let mut text = String::new();
    for id in ids {
        let files: Vec<&Value> = match &outputs[id] {
            Value::Array(files) => files.iter().collect(),
            file => vec![file],
        };
        for (i, file) in files.iter().enumerate() {
            let path = file["path"].as_str().ok_or("an output without a path")?;
            let content = std::fs::read_to_string(path)?;
            text.push_str(&format!("== {id}[{i}]\n{content}"));
        }
    }
    Ok(text)
}

/// `--input NAME=tests/data/run/NAME.txt` for each required file of the flow.
fn inputs_for(flow: &Path) -> Result<Vec<String>, Failed> {
    let (db, file, _) = easyflow_cli::check::open_flow(flow, None, None)?;
    Ok(easyflow_db::expanded_workflow(&db, file)
        .required_files
        .iter()
        .map(|name| {
            format!(
                "{name}={}",
                flow.with_file_name(format!("{name}.txt")).display()
            )
        })
        .collect())
}

/// Runs `flow` with `engine`; the rendered outputs.
fn run_flow(venv: &Path, flow: &Path, engine: &str, extra: &[&str]) -> Result<String, Failed> {
    let root = repo_root();
    let outdir = tempfile::tempdir()?;
    let mut args: Vec<String> = vec![
        "run".into(),
        flow.display().to_string(),
        "--engine".into(),
        engine.into(),
        "--outdir".into(),
        outdir.path().display().to_string(),
    ];
    for input in inputs_for(flow)? {
        args.extend(["--input".into(), input]);
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = easyflow_with_path(&args, &root, &path_with(venv));
    checked(&output, 0)?;
    render_outputs(&output.stdout)
}

/// A corpus flow under cwltool: its outputs as `X.outputs.txt`.
fn corpus_case(case: &Case) -> Result<Outputs, Failed> {
    let Some(venv) = engines()? else {
        return Ok(Vec::new());
    };
    Ok(vec![(
        "outputs.txt",
        run_flow(&venv, &case.path, "cwltool", &[])?,
    )])
}

/// Every expected `.cwl` of the export cases, and the corpus's and the
/// example's exports, validated by cwltool in one process, no warning.
fn validate_expected_cwl() -> Result<(), Failed> {
    let Some(venv) = engines()? else {
        return Ok(());
    };
    let root = repo_root();
    let scratch = tempfile::tempdir()?;
    let mut documents: Vec<PathBuf> = Vec::new();
    for folder in ["tests/data/export", "tests/data/export/topology"] {
        for entry in std::fs::read_dir(root.join(folder))? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "cwl") {
                documents.push(path);
            }
        }
    }
    let mut flows: Vec<PathBuf> = vec![root.join("examples/greetings/greetings.flow")];
    for entry in std::fs::read_dir(root.join("tests/data/run"))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "flow") {
            flows.push(path);
        }
    }
    for flow in flows {
        let output = common::easyflow(
            &["export", &flow.display().to_string(), "--to", "cwl"],
            &root,
        );
        checked(&output, 0)?;
        let document = scratch
            .path()
            .join(flow.file_name().unwrap())
            .with_extension("cwl");
        std::fs::write(&document, &output.stdout)?;
        documents.push(document);
    }
    documents.sort();
    let output = Command::new(venv.join("bin/python"))
        .arg(root.join("tests/run/validate.py"))
        .args(&documents)
        .output()?;
    if !output.status.success() {
        return Err(format!(
            "cwltool --validate:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    Ok(())
}

/// An `after`-only dependency: the dependent step starts after its
/// predecessor has ended (each prints the time, in nanoseconds).
fn after_waits_for_its_predecessor() -> Result<(), Failed> {
    let Some(venv) = engines()? else {
        return Ok(());
    };
    let flow = repo_root().join("tests/data/run-timing/after.flow");
    let catalog = repo_root().join("tests/data/run/easyflow-packages.toml");
    let catalog = catalog.display().to_string();
    let text = run_flow(&venv, &flow, "cwltool", &["--catalog", &catalog])?;
    let stamp = |id: &str| -> Result<u128, Failed> {
        let header = format!("== {id}[0]\n");
        let at = text
            .find(&header)
            .ok_or_else(|| format!("no output {id}"))?;
        let line = text[at + header.len()..].lines().next().unwrap_or_default();
        Ok(line.trim().parse()?)
    };
    let (ended, started) = (stamp("First.stdout")?, stamp("Second.stdout")?);
    if started < ended {
        return Err(format!("Second started at {started}, before First ended at {ended}").into());
    }
    Ok(())
}

/// The README's example, under cwltool and under Toil's single-machine
/// batch system: the same outputs, those of `examples/greetings`.
fn example_runs_under_both_engines() -> Result<(), Failed> {
    let Some(venv) = engines()? else {
        return Ok(());
    };
    let flow = repo_root().join("examples/greetings/greetings.flow");
    let expected = repo_root().join("tests/data/run/greetings-example.outputs.txt");
    for engine in ["cwltool", "toil"] {
        let text = run_flow(&venv, &flow, engine, &[])?;
        compare_with_file(&expected, &text).map_err(|e| format!("{engine}: {e}"))?;
    }
    Ok(())
}

/// Success: the outputs land in `easyflow-out/STEM` of the working
/// directory, and the status is the engine's 0.
fn success_puts_outputs_in_the_default_outdir() -> Result<(), Failed> {
    let Some(venv) = engines()? else {
        return Ok(());
    };
    let root = repo_root();
    let cwd = tempfile::tempdir()?;
    let output = easyflow_with_path(
        &[
            "run",
            &root
                .join("examples/greetings/greetings.flow")
                .display()
                .to_string(),
            "--input",
            &format!(
                "names={}",
                root.join("examples/greetings/names.txt").display()
            ),
        ],
        cwd.path(),
        &path_with(&venv),
    );
    checked(&output, 0)?;
    let all = std::fs::read_to_string(cwd.path().join("easyflow-out/greetings/all.txt"))?;
    if !all.starts_with("Hello, Ada!\n") || all.lines().count() != 9 {
        return Err(format!("easyflow-out/greetings/all.txt:\n{all}").into());
    }
    Ok(())
}

/// A stub engine on PATH that records its arguments (one per line) and
/// the document and job file it was given, prints a line on each of its
/// standard output and error, then exits with `status`.
fn stub_engine(dir: &Path, program: &str, status: i32) -> Result<(), Failed> {
    let script = format!(
        "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"{dir}/args\"\nfor a in \"$@\"; do last2=$last1; last1=$a; done\ncp \"$last2\" \"{dir}/document.cwl\"\ncp \"$last1\" \"{dir}/job.json\"\necho engine-progress >&2\necho engine-output\nexit {status}\n",
        dir = dir.display()
    );
    let path = dir.join(program);
    std::fs::write(&path, script)?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
    Ok(())
}

/// The engine's command line, the document and the job file; what it
/// prints is passed on; its exit status is ours.
fn engine_gets_the_export_and_the_job_file() -> Result<(), Failed> {
    let root = repo_root();
    let stub = tempfile::tempdir()?;
    stub_engine(stub.path(), "cwltool", 3)?;
    stub_engine(stub.path(), "toil-cwl-runner", 0)?;
    let path = format!("{}:/usr/bin:/bin", stub.path().display());
    let flow = "examples/greetings/greetings.flow";
    let names = "names=examples/greetings/names.txt";
    let output = easyflow_with_path(
        &[
            "run", flow, "--input", names, "--outdir", "out", "--", "--debug",
        ],
        &root,
        &path,
    );
    checked(&output, 3)?;
    // What the engine prints reaches the user, on the same streams.
    if String::from_utf8_lossy(&output.stdout) != "engine-output\n"
        || !stderr(&output).contains("engine-progress\n")
    {
        return Err(format!("the engine's output was not passed on: {output:?}").into());
    }
    let args = std::fs::read_to_string(stub.path().join("args"))?;
    let args: Vec<&str> = args.lines().collect();
    let outdir = root.join("out").display().to_string();
    if args[..5]
        != [
            "--parallel",
            "--outdir",
            &outdir,
            "--no-container",
            "--debug",
        ]
        || args.len() != 7
    {
        return Err(format!("cwltool got {args:?}").into());
    }
    if !args[5].ends_with("/greetings.cwl") || !args[6].ends_with("/job.json") {
        return Err(format!("cwltool got {args:?}").into());
    }
    let exported = common::easyflow(&["export", flow, "--to", "cwl"], &root);
    if std::fs::read(stub.path().join("document.cwl"))? != exported.stdout {
        return Err("the document differs from `easyflow export --to cwl`".into());
    }
    let job: Value = serde_json::from_str(&std::fs::read_to_string(stub.path().join("job.json"))?)?;
    let names_path = root.join("examples/greetings/names.txt");
    if job
        != serde_json::json!({"names": {"class": "File", "path": names_path.display().to_string()}})
    {
        return Err(format!("the job file is {job}").into());
    }
    if !stderr(&output).contains("the run folder is kept") {
        return Err(format!("a failed run keeps its folder: {}", stderr(&output)).into());
    }

    let output = easyflow_with_path(
        &[
            "run",
            flow,
            "--input",
            names,
            "--engine",
            "toil",
            "--containers",
            "--",
            "--batchSystem=slurm",
            "--jobStore",
            "/shared/js",
        ],
        &root,
        &path,
    );
    checked(&output, 0)?;
    let args = std::fs::read_to_string(stub.path().join("args"))?;
    let args: Vec<&str> = args.lines().collect();
    let outdir = root.join("easyflow-out/greetings").display().to_string();
    if args[..5]
        != [
            "--outdir",
            &outdir,
            "--batchSystem=slurm",
            "--jobStore",
            "/shared/js",
        ]
        || args.len() != 7
    {
        return Err(format!("toil-cwl-runner got {args:?}").into());
    }
    let _ = std::fs::remove_dir_all(root.join("easyflow-out"));
    Ok(())
}

/// Status 1 for a refused flow, checked before the engine; status 2, with
/// nothing run, for a missing engine (named, with how to install it) and
/// for each problem with the inputs (each named).
fn refusals_and_usage_problems() -> Result<(), Failed> {
    let root = repo_root();
    let empty = tempfile::tempdir()?;
    let no_engine = empty.path().display().to_string();

    // No catalog: refused, even with no engine on PATH.
    let output = easyflow_with_path(
        &["run", "tests/data/export/diamond.flow"],
        &root,
        &no_engine,
    );
    checked(&output, 1)?;
    if !stderr(&output).contains("no package catalog")
        || !stderr(&output).ends_with("error: tests/data/export/diamond.flow was not run\n")
    {
        return Err(stderr(&output).into());
    }

    let flow = "examples/greetings/greetings.flow";
    let names = "names=examples/greetings/names.txt";
    for (engine, install) in [
        ("cwltool", "pip install cwltool"),
        ("toil", "pip install 'toil[cwl]'"),
    ] {
        let output = easyflow_with_path(
            &["run", flow, "--engine", engine, "--input", names],
            &root,
            &no_engine,
        );
        checked(&output, 2)?;
        if !stderr(&output).contains("is not on PATH") || !stderr(&output).contains(install) {
            return Err(stderr(&output).into());
        }
    }

    let stub = tempfile::tempdir()?;
    stub_engine(stub.path(), "cwltool", 0)?;
    let path = stub.path().display().to_string();
    let cases: [(&[&str], &str); 6] = [
        (
            &[],
            "requires the file `names`: give it with `--input names=PATH`",
        ),
        (
            &["--input", "names=examples/greetings/missing.txt"],
            "there is no file examples/greetings/missing.txt",
        ),
        (
            &["--input", "names=examples/greetings"],
            "examples/greetings is not a file",
        ),
        (
            &["--input", names, "--input", "other=README.md"],
            "the flow requires no file `other` (it requires `names`)",
        ),
        (&["--input", "names"], "give it as NAME=PATH"),
        (
            &["--input", names, "--input", names],
            "`names` is given twice",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["run", flow];
        args.extend(extra);
        let output = easyflow_with_path(&args, &root, &path);
        checked(&output, 2)?;
        if !stderr(&output).contains(message) {
            return Err(format!("{extra:?}: {}", stderr(&output)).into());
        }
        if stub.path().join("args").exists() {
            return Err(format!("{extra:?}: the engine ran").into());
        }
    }
    Ok(())
}

/// Each stream parameter is a note on stderr (`run.md` §3, "Streams"), from
/// `export --to cwl` and from `run` alike, before anything else.
fn streams_are_noted_by_export_and_run() -> Result<(), Failed> {
    let root = repo_root();
    let empty = tempfile::tempdir()?;
    let flow = "tests/data/export/stream.flow";
    let catalog = "tests/data/export/runnable-packages.toml";
    let note =
        "note: stream `Consumer.events <- Producer.outs[\"events\"]` runs as a data dependency\n";
    let exported = common::easyflow(
        &["export", flow, "--to", "cwl", "--catalog", catalog],
        &root,
    );
    checked(&exported, 0)?;
    if stderr(&exported) != note {
        return Err(format!("export printed {:?}", stderr(&exported)).into());
    }
    let run = easyflow_with_path(
        &["run", flow, "--catalog", catalog],
        &root,
        &empty.path().display().to_string(),
    );
    checked(&run, 2)?;
    if !stderr(&run).starts_with(note) {
        return Err(format!("run printed {:?}", stderr(&run)).into());
    }
    Ok(())
}

/// An instance that exits non-zero fails the run (`run.md` §2): the
/// engine's failure status is ours, and the run folder is kept.
fn a_failing_instance_fails_the_run() -> Result<(), Failed> {
    let Some(venv) = engines()? else {
        return Ok(());
    };
    let root = repo_root();
    let outdir = tempfile::tempdir()?;
    let output = easyflow_with_path(
        &[
            "run",
            "tests/data/run-failure/fails.flow",
            "--catalog",
            "tests/data/run/easyflow-packages.toml",
            "--outdir",
            &outdir.path().display().to_string(),
        ],
        &root,
        &path_with(&venv),
    );
    if status(&output) == 0 {
        return Err(format!("a failing run exited 0:\n{}", stderr(&output)).into());
    }
    let text = stderr(&output);
    let Some(kept) = text
        .lines()
        .find_map(|line| line.split_once("the run folder is kept in "))
        .map(|(_, folder)| PathBuf::from(folder))
    else {
        return Err(format!("no kept run folder:\n{text}").into());
    };
    let found = kept.join("fails.cwl").is_file() && kept.join("job.json").is_file();
    let _ = std::fs::remove_dir_all(&kept);
    if !found {
        return Err(format!("{} lacks the document or the job file", kept.display()).into());
    }
    Ok(())
}

fn main() {
    Harness::new()
        .folder("run", "flow", corpus_case)
        .test("run/validate-expected-cwl", validate_expected_cwl)
        .test(
            "run/after-waits-for-its-predecessor",
            after_waits_for_its_predecessor,
        )
        .test(
            "run/example-runs-under-cwltool-and-toil",
            example_runs_under_both_engines,
        )
        .test(
            "run/success-outputs-in-the-default-outdir",
            success_puts_outputs_in_the_default_outdir,
        )
        .test(
            "run/engine-gets-the-export-and-the-job-file",
            engine_gets_the_export_and_the_job_file,
        )
        .test(
            "run/refusals-and-usage-problems",
            refusals_and_usage_problems,
        )
        .test(
            "run/streams-noted-by-export-and-run",
            streams_are_noted_by_export_and_run,
        )
        .test(
            "run/a-failing-instance-fails-the-run",
            a_failing_instance_fails_the_run,
        )
        .run();
}
