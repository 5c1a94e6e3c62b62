//! `easyflow export FILE --to FORMAT [-o PATH]` (`exports.md`, `run.md`
//! §3): the bytes on stdout (or in PATH), and the export's notes on stderr;
//! a refused flow has its errors on stderr in `check`'s human format and its
//! other reasons after them, nothing on stdout, exit 1.

use std::io::{self, IsTerminal};
use std::path::Path;
use std::sync::Arc;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use codespan_reporting::term::termcolor::{self, WriteColor};
use easyflow_db::{Database, SourceFile};
use easyflow_ide::export::{self, Exported, Refused};

use crate::checked::CheckedFile;
use crate::{check, exit, report};

/// `--to`: the name of one of [`export::FORMATS`].
pub fn format_parser() -> impl TypedValueParser<Value = &'static export::Format> {
    PossibleValuesParser::new(
        export::FORMATS
            .iter()
            .map(|f| PossibleValue::new(f.name).help(f.label)),
    )
    .map(|name| export::Format::named(&name).expect("one of the possible values"))
}

/// What exporting one flow gave.
pub enum Outcome {
    Exported(Exported),
    /// The flow (its path and text, for the report) and why it was refused.
    Refused(CheckedFile, Refused),
}

/// Exports the flow at `path`, its topology and catalog found as `check`
/// finds them.
pub fn export(
    path: &Path,
    topology: Option<&Path>,
    catalog: Option<&Path>,
    format: &export::Format,
) -> Result<Outcome, String> {
    let (db, file, flow_text) = check::open_flow(path, topology, catalog)?;
    Ok(export_opened(&db, file, path, flow_text, format))
}

/// Exports a flow already opened (`check::open_flow`) from `path`.
pub fn export_opened(
    db: &Database,
    file: SourceFile,
    path: &Path,
    flow_text: Arc<str>,
    format: &export::Format,
) -> Outcome {
    match export::export(db, file, format) {
        Ok(exported) => Outcome::Exported(exported),
        Err(refused) => Outcome::Refused(refused_file(path, flow_text, &refused), refused),
    }
}

/// The refused flow at `path`, with its errors, for [`print_refusal`].
fn refused_file(path: &Path, flow_text: Arc<str>, refused: &Refused) -> CheckedFile {
    CheckedFile {
        path: path.to_path_buf(),
        text: flow_text,
        diagnostics: refused.errors.clone(),
    }
}

/// A refusal on stderr (colored on a terminal), ending with what was not
/// done to the flow (`exported`; `run` by `easyflow run`).
pub fn print_refusal(file: CheckedFile, refused: &Refused, not_done: &str) {
    let mut stderr =
        termcolor::StandardStream::stderr(report::color_choice(io::stderr().is_terminal()));
    let _ = write_refusal_of(file, refused, not_done, &mut stderr);
}

/// The refusal as `export` prints it on stderr: the errors as `check`'s
/// human report, then each other reason.
pub fn write_refusal(
    file: CheckedFile,
    refused: &Refused,
    out: &mut dyn WriteColor,
) -> io::Result<()> {
    write_refusal_of(file, refused, "exported", out)
}

fn write_refusal_of(
    file: CheckedFile,
    refused: &Refused,
    not_done: &str,
    out: &mut dyn WriteColor,
) -> io::Result<()> {
    if !refused.errors.is_empty() {
        report::human(std::slice::from_ref(&file), out)?;
    }
    for reason in &refused.reasons {
        writeln!(out, "error: {}: {reason}", file.path.display())?;
    }
    writeln!(out, "error: {} was not {not_done}", file.path.display())?;
    out.flush()
}

pub fn run(
    path: &Path,
    topology: Option<&Path>,
    catalog: Option<&Path>,
    to: &export::Format,
    output: Option<&Path>,
) -> u8 {
    let (db, file, flow_text) = match check::open_flow(path, topology, catalog) {
        Ok(opened) => opened,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::FAILURE;
        }
    };
    let exportable = match export::exportable(&db, file, to) {
        Ok(exportable) => exportable,
        Err(refused) => {
            print_refusal(
                refused_file(path, flow_text, &refused),
                &refused,
                "exported",
            );
            return exit::PROBLEMS;
        }
    };
    for note in exportable.notes() {
        eprintln!("note: {note}");
    }
    // Written as it is made: the document of a large flow is many times
    // the flow's size, and is never held whole.
    let written = match output {
        Some(output) => std::fs::File::create(output)
            .and_then(|mut document| exportable.write_to(&mut document))
            .map_err(|e| format!("cannot write {}: {e}", output.display())),
        None => exportable
            .write_to(&mut io::stdout().lock())
            .or_else(|e| match e.kind() {
                io::ErrorKind::BrokenPipe => Ok(()),
                _ => Err(e),
            })
            .map_err(|e| format!("cannot write the export: {e}")),
    };
    // The process ends after the export: freeing the flow's tree, analysis
    // and model would only delay the exit (as in `check::run`).
    std::mem::forget(db);
    match written {
        Ok(()) => exit::OK,
        Err(message) => {
            eprintln!("error: {message}");
            exit::FAILURE
        }
    }
}
