//! `easyflow topology FILE [--gpispace]`: checks a topology file and prints
//! its worker types as a table, or as a single GPI-Space topology string.

use std::io::{self, IsTerminal, Write};
use std::path::Path;

use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use easyflow_diagnostics::{Diagnostic, Severity};
use easyflow_project::FileKind;
use easyflow_topology::{Topology, WorkerType, format_bytes};

use crate::report::color_choice;
use crate::{exit, input, report};

pub fn run(path: &Path, gpispace: bool) -> u8 {
    let text = match input::read_one(path, FileKind::Topology) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::FAILURE;
        }
    };
    let topology = easyflow_topology::parse(&text);
    let written = if gpispace {
        write_gpispace(path, &text, &topology)
    } else {
        write_report(path, &text, &topology)
    };
    if let Err(error) = written {
        // A closed pipe (e.g. `| head`) is not worth a message.
        if error.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write the output: {error}");
        }
        return exit::FAILURE;
    }
    if topology.has_errors() {
        exit::PROBLEMS
    } else {
        exit::OK
    }
}

/// The string goes to stdout, so that it can be piped into a GPI-Space
/// bootstrap; diagnostics go to stderr. With errors there is no string:
/// GPI-Space would reject it.
fn write_gpispace(path: &Path, text: &str, topology: &Topology) -> io::Result<()> {
    let mut stderr = termcolor::StandardStream::stderr(color_choice(io::stderr().is_terminal()));
    write_diagnostics(&mut stderr, path, text, &topology.diagnostics)?;
    stderr.flush()?;
    if topology.has_errors() {
        return Ok(());
    }
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{}", topology.to_gpispace())?;
    stdout.flush()
}

/// The diagnostics (in the style of `easyflow check`), the worker types as
/// a table, and a summary line.
fn write_report(path: &Path, text: &str, topology: &Topology) -> io::Result<()> {
    let mut stdout = termcolor::StandardStream::stdout(color_choice(io::stdout().is_terminal()));
    write_diagnostics(&mut stdout, path, text, &topology.diagnostics)?;
    if topology.workers.is_empty() {
        writeln!(stdout, "no worker types")?;
    } else {
        stdout.write_all(table(&topology.workers).as_bytes())?;
    }
    let count = |severity| {
        topology
            .diagnostics
            .iter()
            .filter(|d| d.severity() == severity)
            .count()
    };
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    writeln!(
        stdout,
        "\nchecked {}: {}, {}, {}",
        path.display(),
        plural(topology.workers.len(), "worker type"),
        plural(count(Severity::Error), "error"),
        plural(count(Severity::Warning), "warning"),
    )?;
    stdout.flush()
}

fn write_diagnostics(
    out: &mut dyn termcolor::WriteColor,
    path: &Path,
    text: &str,
    diagnostics: &[Diagnostic],
) -> io::Result<()> {
    let file = SimpleFile::new(path.display().to_string(), text);
    let config = term::Config::default();
    for d in diagnostics {
        term::emit_to_write_style(out, &config, &file, &report::to_codespan(d, ()))
            .map_err(io::Error::other)?;
    }
    Ok(())
}

/// The worker types, one per line, in aligned columns (numbers to the right).
fn table(workers: &[WorkerType]) -> String {
    const HEADER: [&str; 6] = [
        "capabilities",
        "socket",
        "per node",
        "max nodes",
        "memory",
        "ports",
    ];
    const RIGHT_ALIGNED: [bool; 6] = [false, true, true, true, true, false];
    let rows: Vec<[String; 6]> = workers
        .iter()
        .map(|w| {
            [
                w.name().to_string(),
                w.socket.map_or("-".to_string(), |s| s.to_string()),
                w.per_node.to_string(),
                match w.max_nodes {
                    0 => "all".to_string(),
                    n => n.to_string(),
                },
                format_bytes(w.shm),
                match w.port_range() {
                    Some((first, last)) if first == last => first.to_string(),
                    Some((first, last)) => format!("{first}–{last}"),
                    None => "-".to_string(),
                },
            ]
        })
        .collect();
    let header = HEADER.map(str::to_string);
    let mut widths = [0; 6];
    for row in std::iter::once(&header).chain(&rows) {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for (column, cell) in row.iter().enumerate() {
            let padding = " ".repeat(widths[column] - cell.chars().count());
            if column > 0 {
                line.push_str("  ");
            }
            if RIGHT_ALIGNED[column] {
                line.push_str(&padding);
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&padding);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
