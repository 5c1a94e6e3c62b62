//! `easyflow export FILE --to FORMAT [-o PATH]` (`exports.md`):
//! the bytes on stdout (or in PATH); a flow with errors is refused with its
//! errors on stderr in `check`'s human format, nothing on stdout, exit 1.

use std::io::{self, IsTerminal, Write};
use std::path::Path;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use codespan_reporting::term::termcolor::{self, WriteColor};
use easyflow_ide::export::{self, Refused};

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
    Exported(String),
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
    Ok(match export::export(&db, file, format) {
        Ok(text) => Outcome::Exported(text),
        Err(refused) => Outcome::Refused(
            CheckedFile {
                path: path.to_path_buf(),
                text: flow_text,
                diagnostics: refused.errors.clone(),
            },
            refused,
        ),
    })
}

/// The refusal as `export` prints it on stderr: the errors as `check`'s
/// human report, then each id collision.
pub fn write_refusal(
    file: CheckedFile,
    refused: &Refused,
    out: &mut dyn WriteColor,
) -> io::Result<()> {
    if !refused.errors.is_empty() {
        report::human(std::slice::from_ref(&file), out)?;
    }
    for collision in &refused.collisions {
        writeln!(out, "error: {}: {collision}", file.path.display())?;
    }
    writeln!(out, "error: {} was not exported", file.path.display())?;
    out.flush()
}

pub fn run(
    path: &Path,
    topology: Option<&Path>,
    catalog: Option<&Path>,
    to: &export::Format,
    output: Option<&Path>,
) -> u8 {
    let outcome = match export(path, topology, catalog, to) {
        Ok(outcome) => outcome,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::FAILURE;
        }
    };
    match outcome {
        Outcome::Exported(text) => {
            let written = match output {
                Some(output) => std::fs::write(output, &text)
                    .map_err(|e| format!("cannot write {}: {e}", output.display())),
                None => io::stdout()
                    .lock()
                    .write_all(text.as_bytes())
                    .or_else(|e| match e.kind() {
                        io::ErrorKind::BrokenPipe => Ok(()),
                        _ => Err(e),
                    })
                    .map_err(|e| format!("cannot write the export: {e}")),
            };
            match written {
                Ok(()) => exit::OK,
                Err(message) => {
                    eprintln!("error: {message}");
                    exit::FAILURE
                }
            }
        }
        Outcome::Refused(file, refused) => {
            let mut stderr =
                termcolor::StandardStream::stderr(report::color_choice(io::stderr().is_terminal()));
            let _ = write_refusal(file, &refused, &mut stderr);
            exit::PROBLEMS
        }
    }
}
