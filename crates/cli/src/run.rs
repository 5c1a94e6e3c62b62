//! `easyflow run FILE` (`run.md` §4): the flow's CWL export and a job file
//! binding its required files, written into a fresh run folder and handed
//! to a CWL engine (cwltool, or Toil's `toil-cwl-runner`), whose progress
//! shows as it comes and whose exit status is ours. We never run packages
//! ourselves.
//!
//! Order of the checks: the flow first (refused: 1, even with no engine),
//! then everything else that would stop the run before it starts (the
//! engine on PATH, each `--input`), all reported at once with status 2.

use std::path::Path;
use std::process::Command;

use clap::ValueEnum;
use easyflow_ide::export::CWL;
use serde_json::{Map, json};

use crate::export::{Outcome, export_opened, print_refusal};
use crate::{check, exit};

/// `--engine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// cwltool, the reference runner (one machine, `--parallel`).
    Cwltool,
    /// Toil (`toil-cwl-runner`): one machine, or a cluster's batch system.
    Toil,
}

impl Engine {
    /// The program run.
    pub fn program(self) -> &'static str {
        match self {
            Engine::Cwltool => "cwltool",
            Engine::Toil => "toil-cwl-runner",
        }
    }

    /// How to install it, for the message when it is missing.
    fn install(self) -> &'static str {
        match self {
            Engine::Cwltool => "pip install cwltool",
            Engine::Toil => "pip install 'toil[cwl]'",
        }
    }
}

/// What `easyflow run` was asked.
pub struct RunOptions<'a> {
    pub file: &'a Path,
    pub engine: Engine,
    /// `--input NAME=PATH`, as given.
    pub inputs: &'a [String],
    pub outdir: Option<&'a Path>,
    pub containers: bool,
    pub topology: Option<&'a Path>,
    pub catalog: Option<&'a Path>,
    /// After `--`: passed to the engine unchanged.
    pub engine_args: &'a [String],
}

pub fn run(options: &RunOptions<'_>) -> u8 {
    let (db, file, text) = match check::open_flow(options.file, options.topology, options.catalog) {
        Ok(opened) => opened,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::FAILURE;
        }
    };
    let document = match export_opened(&db, file, options.file, text, &CWL) {
        Outcome::Exported(exported) => {
            for note in &exported.notes {
                eprintln!("note: {note}");
            }
            exported.text
        }
        Outcome::Refused(checked, refused) => {
            print_refusal(checked, &refused, "run");
            return exit::PROBLEMS;
        }
    };
    let required = &easyflow_db::expanded_workflow(&db, file).required_files;

    let mut problems = Vec::new();
    let engine = match which::which(options.engine.program()) {
        Ok(path) => Some(path),
        Err(_) => {
            problems.push(format!(
                "{} is not on PATH: install it with `{}` (see docs/run.md)",
                options.engine.program(),
                options.engine.install()
            ));
            None
        }
    };
    let job = match job_file(required, options.inputs) {
        Ok(job) => Some(job),
        Err(input_problems) => {
            problems.extend(input_problems);
            None
        }
    };
    let (Some(engine), Some(job), true) = (engine, job, problems.is_empty()) else {
        for problem in &problems {
            eprintln!("error: {problem}");
        }
        eprintln!("error: {} was not run", options.file.display());
        return exit::FAILURE;
    };

    let outdir = options.outdir.map_or_else(
        || Path::new("easyflow-out").join(stem(options.file)),
        Path::to_path_buf,
    );
    let outdir = std::path::absolute(&outdir).unwrap_or(outdir);
    let folder = match write_run_folder(options.file, &document, &job) {
        Ok(folder) => folder,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::FAILURE;
        }
    };
    let args = engine_command(
        options.engine,
        folder.path(),
        &document_name(options.file),
        &outdir,
        options.containers,
        options.engine_args,
    );
    eprintln!(
        "easyflow: running {} {}",
        options.engine.program(),
        args.join(" ")
    );
    let status = match Command::new(&engine).args(&args).status() {
        Ok(status) => status,
        Err(error) => {
            eprintln!("error: cannot run {}: {error}", engine.display());
            return exit::FAILURE;
        }
    };
    let code = exit_code(status);
    if code == exit::OK {
        eprintln!("easyflow: the outputs are in {}", outdir.display());
    } else {
        // Kept for a look, or to run the engine again by hand.
        let kept = folder.keep();
        eprintln!(
            "easyflow: {} failed (exit status {code}); the run folder is kept in {}",
            options.engine.program(),
            kept.display()
        );
    }
    code
}

/// The job file (JSON) binding each required file to the absolute path of
/// its `--input`, or every problem with the inputs: a malformed one, one
/// that names no required file or a missing file, a required file without
/// one.
pub fn job_file(required: &[String], inputs: &[String]) -> Result<String, Vec<String>> {
    let mut problems = Vec::new();
    let mut bound: Map<String, serde_json::Value> = Map::new();
    for input in inputs {
        let Some((name, path)) = input.split_once('=') else {
            problems.push(format!(
                "`--input {input}`: give it as NAME=PATH, NAME a required file of the flow"
            ));
            continue;
        };
        if !required.iter().any(|r| r == name) {
            problems.push(format!(
                "`--input {input}`: the flow requires no file `{name}` ({})",
                if required.is_empty() {
                    "it requires none".to_string()
                } else {
                    format!("it requires {}", names(required))
                }
            ));
            continue;
        }
        if bound.contains_key(name) {
            problems.push(format!("`--input {input}`: `{name}` is given twice"));
            continue;
        }
        let path = Path::new(path);
        match std::fs::metadata(path) {
            Ok(metadata) if metadata.is_file() => {}
            Ok(_) => {
                problems.push(format!(
                    "`--input {input}`: {} is not a file",
                    path.display()
                ));
                continue;
            }
            Err(_) => {
                problems.push(format!(
                    "`--input {input}`: there is no file {}",
                    path.display()
                ));
                continue;
            }
        }
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        bound.insert(
            name.to_string(),
            json!({"class": "File", "path": absolute.to_string_lossy()}),
        );
    }
    for name in required {
        if !bound.contains_key(name)
            && !inputs
                .iter()
                .any(|i| i.split_once('=').is_some_and(|(n, _)| n == name))
        {
            problems.push(format!(
                "the flow requires the file `{name}`: give it with `--input {name}=PATH`"
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut text =
        serde_json::to_string_pretty(&serde_json::Value::Object(bound)).expect("JSON serializes");
    text.push('\n');
    Ok(text)
}

fn names(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The flow's file name without `.flow`.
fn stem(file: &Path) -> String {
    let name = file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    name.strip_suffix(".flow")
        .map_or(name.clone(), str::to_string)
}

/// The run folder: a fresh directory holding the document (`STEM.cwl`) and
/// the job file (`job.json`); Toil's job store goes there too.
fn write_run_folder(file: &Path, document: &str, job: &str) -> Result<tempfile::TempDir, String> {
    let folder = tempfile::Builder::new()
        .prefix("easyflow-run-")
        .tempdir()
        .map_err(|e| format!("cannot make a run folder: {e}"))?;
    let write = |name: &str, text: &str| {
        let path = folder.path().join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    write(&document_name(file), document)?;
    write(JOB_FILE, job)?;
    Ok(folder)
}

const JOB_FILE: &str = "job.json";

fn document_name(file: &Path) -> String {
    format!("{}.cwl", stem(file))
}

/// The engine's arguments (`run.md` §4): ours, then ENGINE_ARGS unchanged,
/// then the document and the job file. A `--batchSystem` or `--jobStore`
/// among ENGINE_ARGS (`--x y` or `--x=y`) replaces ours.
pub fn engine_command(
    engine: Engine,
    folder: &Path,
    document: &str,
    outdir: &Path,
    containers: bool,
    engine_args: &[String],
) -> Vec<String> {
    let given = |option: &str| {
        engine_args
            .iter()
            .any(|arg| arg == option || arg.starts_with(&format!("{option}=")))
    };
    let mut args: Vec<String> = Vec::new();
    match engine {
        Engine::Cwltool => args.push("--parallel".into()),
        Engine::Toil => {
            if !given("--batchSystem") {
                args.extend(["--batchSystem".into(), "single_machine".into()]);
            }
            if !given("--jobStore") {
                args.extend([
                    "--jobStore".into(),
                    folder.join("jobstore").to_string_lossy().into_owned(),
                ]);
            }
        }
    }
    args.extend(["--outdir".into(), outdir.to_string_lossy().into_owned()]);
    if !containers {
        args.push("--no-container".into());
    }
    args.extend(engine_args.iter().cloned());
    args.push(folder.join(document).to_string_lossy().into_owned());
    args.push(folder.join(JOB_FILE).to_string_lossy().into_owned());
    args
}

/// The engine's exit status as ours (a signal `N` as 128 + N, as shells do).
fn exit_code(status: std::process::ExitStatus) -> u8 {
    if let Some(code) = status.code() {
        return u8::try_from(code).unwrap_or(u8::MAX);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return u8::try_from(128 + signal).unwrap_or(u8::MAX);
        }
    }
    exit::PROBLEMS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn toil_options_given_after_the_double_dash_replace_ours_in_both_forms() {
        let folder = Path::new("/run");
        let outdir = Path::new("/out");
        let ours = engine_command(Engine::Toil, folder, "flow.cwl", outdir, false, &[]);
        assert_eq!(
            ours[..6],
            strings(&[
                "--batchSystem",
                "single_machine",
                "--jobStore",
                "/run/jobstore",
                "--outdir",
                "/out"
            ])
        );
        let spaced = engine_command(
            Engine::Toil,
            folder,
            "flow.cwl",
            outdir,
            false,
            &strings(&["--batchSystem", "slurm", "--jobStore", "/shared/js"]),
        );
        assert!(!spaced.contains(&"single_machine".to_string()));
        assert!(!spaced.contains(&"/run/jobstore".to_string()));
        let joined = engine_command(
            Engine::Toil,
            folder,
            "flow.cwl",
            outdir,
            true,
            &strings(&["--batchSystem=kubernetes", "--jobStore=/shared/js"]),
        );
        assert_eq!(
            joined[..4],
            strings(&[
                "--outdir",
                "/out",
                "--batchSystem=kubernetes",
                "--jobStore=/shared/js"
            ])
        );
        assert!(!joined.contains(&"--no-container".to_string()));
    }

    #[test]
    fn cwltool_runs_in_parallel_without_containers_by_default() {
        let args = engine_command(
            Engine::Cwltool,
            Path::new("/run"),
            "flow.cwl",
            Path::new("/out"),
            false,
            &strings(&["--debug"]),
        );
        assert_eq!(
            args,
            strings(&[
                "--parallel",
                "--outdir",
                "/out",
                "--no-container",
                "--debug",
                "/run/flow.cwl",
                "/run/job.json"
            ])
        );
    }

    #[test]
    fn every_input_problem_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let present = dir.path().join("present.txt");
        std::fs::write(&present, "x").unwrap();
        let required = strings(&["a", "b", "c"]);
        let inputs = [
            format!("a={}", present.display()),
            "b".to_string(),
            format!("b={}", dir.path().display()),
            "zzz=x".to_string(),
            format!("c={}", dir.path().join("missing").display()),
        ];
        let problems = job_file(&required, &inputs).unwrap_err();
        assert_eq!(problems.len(), 4, "{problems:#?}");
        assert!(problems[0].contains("NAME=PATH"));
        assert!(problems[1].contains("is not a file"));
        assert!(problems[2].contains("requires no file `zzz`"));
        assert!(problems[3].contains("there is no file"));
        let missing = job_file(&required, &[]).unwrap_err();
        assert_eq!(missing.len(), 3);
        assert!(missing[0].contains("`--input a=PATH`"));
        let job = job_file(&strings(&["a"]), &[format!("a={}", present.display())]).unwrap();
        let job: serde_json::Value = serde_json::from_str(&job).unwrap();
        assert_eq!(job["a"]["class"], "File");
        assert!(Path::new(job["a"]["path"].as_str().unwrap()).is_absolute());
    }
}
