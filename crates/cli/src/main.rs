//! `easyflow`: the analysis of easyflow-ls for terminals and CI
//! (`../shared/spec/cli.md`). The commands live in the library (`lib.rs`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use easyflow_cli::{check, explain, export, fmt, graph, parse, report, run, topology};

// Analysis allocates many small tree nodes; mimalloc handles that pattern
// markedly faster than the system allocator. Its pages are kept a while
// after they are freed (its default): a command frees much and allocates
// as much again (the lexer's tokens, a piece's tree in `fmt`, the check's
// scratch before an export's model), and pages given back at once are
// faulted in again (100k steps: `check` 0.51-0.53 -> 0.45-0.47 s, for
// 361 -> 369-379 MB peak; `fmt` 0.35 s less system time).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A closed standard output or error (`easyflow check | head -1`) is the
/// end of the output: the process ends there, quietly, as Unix tools do
/// (SIGPIPE's default action). Rust ignores SIGPIPE, which turns such a
/// write into an error: a panic in `println!`, a "cannot write" message.
#[cfg(unix)]
fn end_at_a_closed_pipe() {
    // SAFETY: restores a signal's default action, before any other thread
    // runs and with no handler involved.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[derive(Parser)]
#[command(
    name = "easyflow",
    version,
    about = "Checks EasyFlow workflows before the platform runs them"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check `.flow` files (directories are searched recursively), and the
    /// topologies, catalogs and `easyflow.toml` files named or used.
    Check {
        /// Files or directories to check (default: `.`), or `-`.
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = report::Format::Human)]
        format: report::Format,
        /// Make warnings fail the check too (exit status 1).
        #[arg(long)]
        deny_warnings: bool,
        /// Use this topology for every flow (instead of `easyflow.toml` or the
        /// nearest `easyflow.topology`).
        #[arg(long, value_name = "PATH")]
        topology: Option<PathBuf>,
        /// Use this package catalog for every flow (instead of `easyflow.toml`
        /// or the nearest `easyflow-packages.toml`).
        #[arg(long, value_name = "PATH")]
        catalog: Option<PathBuf>,
        /// Apply the preferred quick fixes to the flows in place (as the
        /// editor's "fix all"), repeated until none applies, then report
        /// what remains; a flow left with syntax errors is not written.
        #[arg(long)]
        fix: bool,
    },
    /// Format `.flow` files in place (directories are searched recursively;
    /// `-` formats standard input to standard output).
    Fmt {
        /// Files or directories to format (default: `.`), or `-`.
        paths: Vec<PathBuf>,
        /// Write nothing: list the files that would change, exit 1 if any would.
        #[arg(long)]
        check: bool,
    },
    /// Print the dependency graph of a flow.
    Graph {
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = graph::GraphFormat::Json)]
        format: graph::GraphFormat,
    },
    /// Translate a flow without errors to another system's format (see
    /// docs/exports.md), or to a CWL workflow that engines run (see
    /// docs/run.md).
    Export {
        file: PathBuf,
        /// The format to write.
        #[arg(long, value_parser = export::format_parser())]
        to: &'static easyflow_ide::export::Format,
        /// Write to this file instead of standard output.
        #[arg(short = 'o', long = "output", value_name = "PATH")]
        output: Option<PathBuf>,
        /// Use this topology (instead of `easyflow.toml` or the nearest
        /// `easyflow.topology`).
        #[arg(long, value_name = "PATH")]
        topology: Option<PathBuf>,
        /// Use this package catalog (instead of `easyflow.toml` or the
        /// nearest `easyflow-packages.toml`).
        #[arg(long, value_name = "PATH")]
        catalog: Option<PathBuf>,
    },
    /// Run a flow on a CWL engine, cwltool or Toil (see docs/run.md).
    Run {
        file: PathBuf,
        /// The workflow engine.
        #[arg(long, value_enum, default_value_t = run::Engine::Cwltool)]
        engine: run::Engine,
        /// A required file of the flow and the file to bind it to (repeat
        /// for each required file).
        #[arg(long = "input", value_name = "NAME=PATH")]
        inputs: Vec<String>,
        /// Where the outputs land (default: easyflow-out/STEM).
        #[arg(long, value_name = "DIR")]
        outdir: Option<PathBuf>,
        /// Run each package in its catalog `container` (the engine needs
        /// Docker, Podman or Singularity); without it, on this machine.
        #[arg(long)]
        containers: bool,
        /// Use this topology (instead of `easyflow.toml` or the nearest
        /// `easyflow.topology`).
        #[arg(long, value_name = "PATH")]
        topology: Option<PathBuf>,
        /// Use this package catalog (instead of `easyflow.toml` or the
        /// nearest `easyflow-packages.toml`).
        #[arg(long, value_name = "PATH")]
        catalog: Option<PathBuf>,
        /// Passed to the engine unchanged (after `--`), e.g. `--batchSystem slurm`.
        #[arg(last = true, value_name = "ENGINE_ARGS")]
        engine_args: Vec<String>,
    },
    /// Print the syntax tree of a file (`-` reads standard input).
    Parse { file: PathBuf },
    /// Print the documentation of a diagnostic code (e.g. `easyflow explain
    /// E0201`): when it is reported, why, and how to fix it.
    Explain {
        /// The code, e.g. `E0201` (any case; `0201` alone too).
        code: String,
    },
    /// Check a topology file and print its worker types.
    Topology {
        file: PathBuf,
        /// Print the single-line GPI-Space topology string instead (comments dropped).
        #[arg(long)]
        gpispace: bool,
    },
}

fn main() -> ExitCode {
    #[cfg(unix)]
    end_at_a_closed_pipe();
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Check {
            paths,
            format,
            deny_warnings,
            topology,
            catalog,
            fix,
        } => check::run(
            &paths,
            topology.as_deref(),
            catalog.as_deref(),
            format,
            deny_warnings,
            fix,
        ),
        Command::Fmt { paths, check } => fmt::run(&paths, check),
        Command::Graph { file, format } => graph::run(&file, format),
        Command::Export {
            file,
            to,
            output,
            topology,
            catalog,
        } => export::run(
            &file,
            topology.as_deref(),
            catalog.as_deref(),
            to,
            output.as_deref(),
        ),
        Command::Run {
            file,
            engine,
            inputs,
            outdir,
            containers,
            topology,
            catalog,
            engine_args,
        } => run::run(&run::RunOptions {
            file: &file,
            engine,
            inputs: &inputs,
            outdir: outdir.as_deref(),
            containers,
            topology: topology.as_deref(),
            catalog: catalog.as_deref(),
            engine_args: &engine_args,
        }),
        Command::Parse { file } => parse::run(&file),
        Command::Topology { file, gpispace } => topology::run(&file, gpispace),
        Command::Explain { code } => explain::run(&code),
    };
    ExitCode::from(status)
}
