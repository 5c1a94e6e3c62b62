//! `easyflow`: the analysis of easyflow-ls for terminals and CI
//! (`../shared/spec/cli.md`).

mod check;
mod graph;
mod report;
mod topology;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

// Analysis allocates many small tree nodes; mimalloc handles that pattern
// markedly faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// Check `.flow` files (directories are searched recursively).
    Check {
        /// Files or directories to check.
        #[arg(default_value = ".")]
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Make warnings fail the check too (exit status 1).
        #[arg(long)]
        deny_warnings: bool,
        /// Use this topology for every flow (instead of `easyflow.toml` or the
        /// nearest `easyflow.topology`).
        #[arg(long, value_name = "PATH")]
        topology: Option<PathBuf>,
    },
    /// Print the dependency graph of a flow.
    Graph {
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = graph::GraphFormat::Json)]
        format: graph::GraphFormat,
    },
    /// Print the syntax tree of a file (`-` reads standard input).
    Parse { file: PathBuf },
    /// Check a topology file and print its worker types.
    Topology {
        file: PathBuf,
        /// Print the single-line GPI-Space topology string instead (comments dropped).
        #[arg(long)]
        gpispace: bool,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// rustc-style report with source excerpts, colored on a terminal.
    Human,
    /// One JSON document on stdout.
    Json,
    /// SARIF 2.1.0, for code-scanning services.
    Sarif,
}

/// The exit statuses of cli.md.
pub mod exit {
    pub const OK: u8 = 0;
    pub const PROBLEMS: u8 = 1;
    pub const FAILURE: u8 = 2;
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Check {
            paths,
            format,
            deny_warnings,
            topology,
        } => check::run(&paths, topology.as_deref(), format, deny_warnings),
        Command::Graph { file, format } => graph::run(&file, format),
        Command::Parse { file } => parse(&file),
        Command::Topology { file, gpispace } => topology::run(&file, gpispace),
    };
    ExitCode::from(status)
}

fn parse(path: &std::path::Path) -> u8 {
    let text = match check::read_source(path) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::FAILURE;
        }
    };
    let parse = easyflow_syntax::parse(&text);
    let tree = easyflow_syntax::debug_tree(&parse.syntax());
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(tree.as_bytes())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        return exit::FAILURE;
    }
    let index = line_index::LineIndex::new(&text);
    for error in parse.errors() {
        let start = report::position(&index, error.range.start());
        eprintln!(
            "{}:{}:{}: {} {}",
            path.display(),
            start.line + 1,
            start.character + 1,
            error.code,
            error.message
        );
    }
    if parse.errors().is_empty() {
        exit::OK
    } else {
        exit::PROBLEMS
    }
}
