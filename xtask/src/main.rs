//! Project automation: `cargo xtask <task>`.
//!
//! - `test`: every test of the project (what `.ci/run` runs).
//! - `genflow N [--seed S] [--topology FILE | --runnable CATALOG]`: prints a
//!   generated flow of N steps (the benchmark workload, shaped like
//!   `shared/tools/genflow.py`); with `--runnable`, one without code blocks
//!   and, into CATALOG, a catalog under which it runs (`export --to cwl`).
//! - `codegen [--check]`: the syntax crate's node kinds and typed AST from
//!   `crates/syntax/easyflow.ungram` (see `codegen.rs`).
//! - `dist`: the release server packaged in the VS Code extension, as
//!   `target/dist/easyflow-linux-x64-VERSION.vsix` (needs Node.js and npm).
//!   `test` packages the same VSIX with the debug server for the VS Code
//!   end-to-end test (with the release server, what users install, when
//!   `EASYFLOW_E2E_SERVER=release`: a release build more, minutes on CI,
//!   for the graph view's times as users see them).
//! - `book`: the documentation site in `target/book` (needs mdBook; see
//!   `book.rs`), its links checked.

mod book;
mod codegen;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("genflow") => genflow(&args[1..]),
        Some("dist") => dist(),
        Some("codegen") => codegen::codegen(&args[1..]),
        Some("book") => site().map(drop),
        _ => Err(
            "usage: cargo xtask <test | genflow N [--seed S] [--topology FILE | --runnable CATALOG] | dist | codegen [--check] | book>".to_string(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(program: &str, args: &[&str]) -> Result<(), String> {
    run_in(Path::new("."), program, args)
}

fn run_in(dir: &Path, program: &str, args: &[&str]) -> Result<(), String> {
    let status = status_of(dir, program, args)?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{program} {} failed: {status}", args.join(" ")))
    }
}

fn status_of(dir: &Path, program: &str, args: &[&str]) -> Result<ExitStatus, String> {
    eprintln!("xtask: running {program} {}", args.join(" "));
    Command::new(program)
        .current_dir(dir)
        .args(args)
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"))
}

fn test() -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    // Builds the binaries the end-to-end tests spawn, then runs every test
    // (unit, data-driven, property and end-to-end) of every crate.
    run(&cargo, &["test", "--workspace", "--locked"])?;
    // The benchmarks must keep compiling even though tests never time them.
    run(&cargo, &["check", "--workspace", "--benches", "--locked"])?;
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .map_err(|e| format!("the workspace root: {e}"))?;
    // The fuzz targets are outside the workspace (cargo-fuzz builds them with
    // libFuzzer); they, and their lock file, must keep compiling too. Their
    // checks run on stable through `crates/fuzz`'s replay test.
    let fuzz = root.join("fuzz/Cargo.toml");
    let fuzz = fuzz.to_str().ok_or("a non-UTF-8 checkout path")?;
    run(
        &cargo,
        &["check", "--manifest-path", fuzz, "--bins", "--locked"],
    )?;
    let target = target_dir(&root);
    installation(&root, &target)?;
    // The documentation site: built and its links checked where mdBook is.
    let in_ci = std::env::var_os("CI").is_some();
    match mdbook() {
        Ok(mdbook) => {
            book::build(&root, &target, &mdbook)?;
        }
        Err(missing) if in_ci => return Err(missing),
        Err(missing) => eprintln!("xtask: SKIPPED the documentation site: {missing}"),
    }
    let server = target.join("debug/easyflow-ls");
    let server = server.to_str().ok_or("a non-UTF-8 target path")?;
    // Editor tests need tools outside cargo; CI (`.ci/run`) installs them.
    // Each is given the debug server, but the VS Code end-to-end test, given
    // the VSIX (packaged with it).
    let editor_tests: [(&str, &[&str], &str); 7] = [
        ("tests/nvim/run.sh", &["nvim"], "apt-get install neovim"),
        // This test and the tree-sitter one also need Neovim 0.11: when the
        // nvim on PATH is older, editors/nvim/test/nvim-0.11.sh installs it
        // from PyPI (this one then runs under both).
        (
            "editors/nvim/test/run.sh",
            &["nvim"],
            "apt-get install neovim",
        ),
        (
            "editors/tree-sitter/test/nvim/run.sh",
            &["nvim", "cc"],
            "apt-get install neovim gcc",
        ),
        (
            "editors/emacs/test/run.sh",
            &["emacs"],
            "apt-get install emacs-nox elpa-eglot",
        ),
        ("syntaxes/test.sh", &["npm"], "apt-get install nodejs npm"),
        (
            "editors/vscode/scripts/test.sh",
            &["npm", "chromium"],
            "apt-get install nodejs npm chromium",
        ),
        (
            VSCODE_E2E,
            &["npm", "chromium"],
            "apt-get install nodejs npm chromium",
        ),
    ];
    for (script, tools, install) in editor_tests {
        if !root.join(script).exists() {
            continue;
        }
        let missing: Vec<&str> = tools
            .iter()
            .copied()
            .filter(|tool| !on_path(tool))
            .collect();
        if !missing.is_empty() {
            let message = format!("{script} needs {} ({install})", missing.join(", "));
            if in_ci {
                return Err(message);
            }
            eprintln!("xtask: SKIPPED {message}");
            continue;
        }
        if script != VSCODE_E2E {
            run_in(&root, "bash", &[script, server])?;
            continue;
        }
        let build = match std::env::var("EASYFLOW_E2E_SERVER").as_deref() {
            Ok("release") => ServerBuild::Release,
            Ok("debug") | Err(_) => ServerBuild::Debug,
            Ok(other) => {
                return Err(format!(
                    "EASYFLOW_E2E_SERVER={other}: `release` or `debug` (the default)"
                ));
            }
        };
        let vsix = package_extension(build)?;
        let vsix = vsix.to_str().ok_or("a non-UTF-8 target path")?;
        // The large flow whose graph view the end-to-end test opens and times.
        let large = target.join("tmp/e2e-large.flow");
        std::fs::create_dir_all(target.join("tmp")).map_err(|e| format!("{e}"))?;
        std::fs::write(&large, easyflow_genflow::generate(LARGE_FLOW_STEPS, 7))
            .map_err(|e| format!("{}: {e}", large.display()))?;
        let large = large.to_str().ok_or("a non-UTF-8 target path")?;
        if run_status(&root, "bash", &[script, vsix, large])? == SKIPPED_EXIT_CODE {
            // The script said what it lacks (code-server cannot be installed).
            let message = format!("{script} cannot run here (exit {SKIPPED_EXIT_CODE})");
            if in_ci {
                return Err(message);
            }
            eprintln!("xtask: SKIPPED {message}");
        }
    }
    Ok(())
}

/// The workspace's target directory.
fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|t| if t.is_relative() { root.join(t) } else { t })
        .unwrap_or_else(|| root.join("target"))
}

/// Installation as `docs/install.md` says: each of its `cargo install
/// --locked --path CRATE` commands, into a scratch root (in the debug
/// profile and the workspace's target directory, so nothing is built
/// twice), then the installed programs run: their versions, the page's
/// first check, and the documentation link they print, which must name
/// `docs/diagnostics.md` of this checkout.
fn installation(root: &Path, target: &Path) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let page = std::fs::read_to_string(root.join("docs/install.md"))
        .map_err(|e| format!("docs/install.md: {e}"))?;
    let commands: Vec<&str> = page
        .lines()
        .filter_map(|line| {
            line.split('#')
                .next()?
                .trim()
                .strip_prefix("cargo install --locked --path ")
        })
        .collect();
    if commands.len() != 2 {
        return Err(format!(
            "docs/install.md: expected the two `cargo install --locked --path CRATE` commands, found {commands:?}"
        ));
    }
    let scratch = target.join("install-test");
    let _ = std::fs::remove_dir_all(&scratch);
    let scratch_arg = scratch.to_str().ok_or("a non-UTF-8 target path")?;
    let target_arg = target.to_str().ok_or("a non-UTF-8 target path")?;
    for crate_path in commands {
        run_in(
            root,
            &cargo,
            &[
                "install",
                "--locked",
                "--path",
                crate_path,
                "--debug",
                "--root",
                scratch_arg,
                "--target-dir",
                target_arg,
                "--quiet",
            ],
        )?;
    }
    let bin = scratch.join("bin");
    let output = |program: &str, args: &[&str], dir: &Path| -> Result<String, String> {
        let output = Command::new(bin.join(program))
            .args(args)
            .current_dir(dir)
            .env_remove("EASYFLOW_DOCS_URL")
            .output()
            .map_err(|e| format!("the installed {program} does not run: {e}"))?;
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    };
    for program in ["easyflow", "easyflow-ls"] {
        let version = output(program, &["--version"], &scratch)?;
        if !version.starts_with(program) {
            return Err(format!(
                "the installed {program} --version printed `{version}`"
            ));
        }
    }
    // The page's first check.
    let first = scratch.join("first");
    std::fs::create_dir_all(&first).map_err(|e| e.to_string())?;
    std::fs::write(
        first.join("optimize.flow"),
        "require molecule;\nstep Optimize runs ORCA.DFT (input = molecule);\n",
    )
    .map_err(|e| e.to_string())?;
    let checked = output("easyflow", &["check"], &first)?;
    let promised = "checked 1 file: 0 errors, 0 warnings, 0 information notes";
    if checked.trim() != promised || !page.contains(promised) {
        return Err(format!(
            "the installed easyflow's first check printed `{checked}`"
        ));
    }
    let explained = output("easyflow", &["explain", "E0201"], &first)?;
    let docs = root
        .join("docs/diagnostics.md")
        .canonicalize()
        .map_err(|e| e.to_string())?;
    if !explained.contains(&format!("file://{}#e0201", docs.display())) {
        return Err(format!(
            "the installed easyflow links elsewhere than {}: {}",
            docs.display(),
            explained.lines().last().unwrap_or("")
        ));
    }
    eprintln!("xtask: installed easyflow and easyflow-ls as docs/install.md says, and ran them");
    Ok(())
}

/// The mdBook to build the site with: `mdbook` on the PATH, else the one
/// `.ci/run` installs into the cache (`~/.cache/easyflow-ls/mdbook-VERSION`).
fn mdbook() -> Result<String, String> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .map(|cache| {
            cache.join(format!(
                "easyflow-ls/mdbook-{}/bin/mdbook",
                book::MDBOOK_VERSION
            ))
        });
    let program = match cache.filter(|path| path.is_file()) {
        Some(path) => path.to_str().ok_or("a non-UTF-8 cache path")?.to_string(),
        None if on_path("mdbook") => "mdbook".to_string(),
        None => {
            return Err(format!(
                "mdbook is not installed (cargo install mdbook --version {} --locked --no-default-features --features search)",
                book::MDBOOK_VERSION
            ));
        }
    };
    let version = Command::new(&program)
        .arg("--version")
        .output()
        .map_err(|e| format!("{program} does not run: {e}"))?;
    let version = String::from_utf8_lossy(&version.stdout);
    if !version.contains(book::MDBOOK_VERSION) {
        eprintln!(
            "xtask: warning: {program} is {}, the site is tested with mdbook v{}",
            version.trim(),
            book::MDBOOK_VERSION
        );
    }
    Ok(program)
}

/// `cargo xtask book`: the site, built and checked.
fn site() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("no workspace root")?
        .to_path_buf();
    book::build(&root, &target_dir(&root), &mdbook()?)
}

/// The VS Code end-to-end test: the VSIX in code-server (VS Code 1.139).
const VSCODE_E2E: &str = "editors/vscode/scripts/e2e.sh";

/// The steps of the flow whose graph view the end-to-end test times (the
/// size of the reference workload).
const LARGE_FLOW_STEPS: usize = 10_000;

/// The exit code of a script that cannot run on this machine (as in
/// automake's test harness).
const SKIPPED_EXIT_CODE: i32 = 77;

/// Runs a script whose exit code 77 means "skipped"; any other failure is an error.
fn run_status(dir: &Path, program: &str, args: &[&str]) -> Result<i32, String> {
    let status = status_of(dir, program, args)?;
    match status.code() {
        Some(0) => Ok(0),
        Some(SKIPPED_EXIT_CODE) => Ok(SKIPPED_EXIT_CODE),
        _ => Err(format!("{program} {} failed: {status}", args.join(" "))),
    }
}

/// Whether `tool` is an executable on PATH.
fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()))
}

fn genflow(args: &[String]) -> Result<(), String> {
    let mut steps = None;
    let mut seed = 7;
    let mut topology = None;
    let mut runnable = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seed" => {
                seed = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or("--seed needs a number")?;
            }
            "--topology" => topology = Some(args.next().ok_or("--topology needs a path")?.clone()),
            "--runnable" => runnable = Some(args.next().ok_or("--runnable needs a path")?.clone()),
            n => {
                steps = Some(
                    n.parse::<usize>()
                        .map_err(|_| format!("not a step count: {n}"))?,
                )
            }
        }
    }
    let steps = steps.ok_or("genflow needs a step count")?;
    let write =
        |path: &str, text: &str| std::fs::write(path, text).map_err(|e| format!("{path}: {e}"));
    let flow = match (&topology, &runnable) {
        (Some(_), Some(_)) => return Err("--topology and --runnable do not go together".into()),
        (Some(path), None) => {
            write(path, easyflow_genflow::TOPOLOGY)?;
            easyflow_genflow::generate_with_topology(steps, seed)
        }
        (None, Some(path)) => {
            write(path, &easyflow_genflow::runnable_catalog())?;
            easyflow_genflow::generate_runnable(steps, seed)
        }
        (None, None) => easyflow_genflow::generate(steps, seed),
    };
    print!("{flow}");
    Ok(())
}

/// The VS Code platform of the machine: the server built here runs only there.
const VSCODE_TARGET: Option<&str> = if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
    Some("linux-x64")
} else if cfg!(all(target_os = "linux", target_arch = "aarch64")) {
    Some("linux-arm64")
} else if cfg!(all(target_os = "macos", target_arch = "x86_64")) {
    Some("darwin-x64")
} else if cfg!(all(target_os = "macos", target_arch = "aarch64")) {
    Some("darwin-arm64")
} else {
    None
};

fn dist() -> Result<(), String> {
    let vsix = package_extension(ServerBuild::Release)?;
    eprintln!("xtask: packaged {}", vsix.display());
    Ok(())
}

/// The server a VSIX carries: `dist` builds and packages the release server;
/// `test` packages the debug server `cargo test` has just built (the same
/// VSIX otherwise, without a second, optimised build of the server).
#[derive(Clone, Copy, PartialEq)]
enum ServerBuild {
    Release,
    Debug,
}

/// Copies the server into `editors/vscode/server/` and packages the extension
/// with it (`vsce package --target <this platform>`, through the `package`
/// script of its package.json), as `target/dist/easyflow-<platform>-<version>.vsix`
/// (`…-debug.vsix` with the debug server). Returns the VSIX's path.
fn package_extension(build: ServerBuild) -> Result<PathBuf, String> {
    let platform = VSCODE_TARGET.ok_or("dist: no VS Code target for this platform")?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("no workspace root")?
        .to_path_buf();
    let target = target_dir(&root);
    let profile = match build {
        ServerBuild::Release => {
            run_in(
                &root,
                &cargo,
                &[
                    "build",
                    "--release",
                    "--locked",
                    "-p",
                    "easyflow-ls",
                    "-p",
                    "easyflow-cli",
                ],
            )?;
            "release"
        }
        ServerBuild::Debug => "debug",
    };

    let extension = root.join("editors/vscode");
    std::fs::create_dir_all(extension.join("server")).map_err(|e| format!("{e}"))?;
    // The server, and the CLI that "EasyFlow: Run Workflow" runs.
    for binary in ["easyflow-ls", "easyflow"] {
        let server = extension.join("server").join(binary);
        // Remove first: the old file may be the running server of an editor.
        let _ = std::fs::remove_file(&server);
        let built = target.join(profile).join(binary);
        std::fs::copy(&built, &server).map_err(|e| {
            format!(
                "cannot copy {} to {}: {e}",
                built.display(),
                server.display()
            )
        })?;
        // The release profile keeps line tables (for profiling), the debug one
        // all debug info; users need none: stripped, the release server is a
        // seventh of the size, the debug one a sixth.
        let server_arg = server.to_str().ok_or("non-UTF-8 path")?;
        if run("strip", &[server_arg]).is_err() {
            eprintln!("xtask: warning: could not strip {server_arg}; packaging it as it is");
        }
    }

    let dist = target.join("dist");
    std::fs::create_dir_all(&dist).map_err(|e| format!("{}: {e}", dist.display()))?;
    let version = std::fs::read_to_string(extension.join("package.json"))
        .ok()
        .and_then(|text| {
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with("\"version\""))?;
            Some(line.split('"').nth(3)?.to_string())
        })
        .ok_or("no version in editors/vscode/package.json")?;
    let suffix = match build {
        ServerBuild::Release => "",
        ServerBuild::Debug => "-debug",
    };
    let vsix = dist.join(format!("easyflow-{platform}-{version}{suffix}.vsix"));
    let vsix_arg = vsix.to_str().ok_or("non-UTF-8 target directory")?;
    run_in(
        &extension,
        "npm",
        &["ci", "--no-audit", "--no-fund", "--loglevel=error"],
    )?;
    run_in(
        &extension,
        "npm",
        &[
            "run", "--silent", "package", "--", "--target", platform, "--out", vsix_arg,
        ],
    )?;
    Ok(vsix)
}
