//! `easyflow fmt [PATH ...] [--check]` and `easyflow fmt -` (`cli.md`,
//! `formatting.md`): formats `.flow` files in place, each with the `[format]`
//! settings of the `easyflow.toml` that configures it.
//!
//! A file with syntax errors is never rewritten: it is reported with its
//! errors (exit status 1). Writes are atomic: the new text goes to a
//! temporary file beside the old one, which then replaces it by a rename, so
//! an interrupted run leaves either the old file or the new one.

use std::io::Write;
use std::path::{Path, PathBuf};

use easyflow_fmt::FormatError;
use easyflow_project::discovery::Disk;
use easyflow_project::{FileKind, Loader, Workspace};

use crate::{exit, input, report};

/// What happened to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Unchanged,
    /// Rewritten, or under `--check`, would be.
    Changed,
    /// Not formatted: syntax errors (reported).
    SyntaxErrors,
    /// Not formatted: unreadable, unwritable, or an internal error (reported).
    Failed,
}

/// `easyflow fmt`: formats the files (or lists those that would change,
/// with `check`), and returns the exit status of cli.md.
pub fn run(paths: &[PathBuf], check: bool) -> u8 {
    if paths.iter().any(|p| p == Path::new("-")) {
        if paths.len() > 1 {
            eprintln!("error: `-` (standard input) cannot be combined with other paths");
            return exit::FAILURE;
        }
        return status(&[format_stdin(check, &mut loader())], check);
    }
    let given = !paths.is_empty();
    let paths = match given {
        true => paths.to_vec(),
        false => vec![PathBuf::from(".")],
    };
    let mut failed = false;
    let files = input::find(&paths, &[FileKind::Flow], given, &mut failed);
    let mut loader = loader();
    let mut outcomes: Vec<Outcome> = files
        .iter()
        .map(|path| format_file(path, check, &mut loader))
        .collect();
    if failed {
        outcomes.push(Outcome::Failed);
    }
    let changed = outcomes.iter().filter(|o| **o == Outcome::Changed).count();
    if !check && changed > 0 {
        let unchanged = outcomes
            .iter()
            .filter(|o| **o == Outcome::Unchanged)
            .count();
        eprintln!(
            "formatted {changed} file{}, {unchanged} unchanged",
            if changed == 1 { "" } else { "s" }
        );
    }
    status(&outcomes, check)
}

/// 2 if anything failed, else 1 if a file has syntax errors or (under
/// `--check`) would change, else 0. Without `--check`, a changed file is
/// a success.
fn status(outcomes: &[Outcome], check: bool) -> u8 {
    if outcomes.contains(&Outcome::Failed) {
        exit::FAILURE
    } else if outcomes.contains(&Outcome::SyntaxErrors)
        || (check && outcomes.contains(&Outcome::Changed))
    {
        exit::PROBLEMS
    } else {
        exit::OK
    }
}

/// The project loader, for each flow's `[format]` settings: no workspace
/// boundary applies to them.
fn loader() -> Loader<'static> {
    Loader::new(Workspace::default(), &Disk)
}

/// Formats the flow at `path`; refuses a file whose name says it is of
/// another kind (a topology named on the command line).
fn format_file(path: &Path, check: bool, loader: &mut Loader<'_>) -> Outcome {
    let text = match input::read_one(path, FileKind::Flow) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::Failed;
        }
    };
    let Some(options) = input::format_options(loader, path) else {
        return Outcome::Failed;
    };
    let formatted = match easyflow_fmt::format(&text, &options) {
        Ok(formatted) => formatted,
        Err(error) => return refused(&path.display().to_string(), &text, &error),
    };
    if formatted == text {
        return Outcome::Unchanged;
    }
    if check {
        println!("{}", path.display());
        return Outcome::Changed;
    }
    match write_atomically(path, &formatted) {
        Ok(()) => Outcome::Changed,
        Err(error) => {
            eprintln!("error: {}: cannot write: {error}", path.display());
            Outcome::Failed
        }
    }
}

/// `easyflow fmt -`: standard input to standard output, with the settings
/// of the `easyflow.toml` found from the current directory. A text with
/// syntax errors prints nothing. Under `--check`, prints nothing and only
/// says by its status whether the text would change.
fn format_stdin(check: bool, loader: &mut Loader<'_>) -> Outcome {
    let text = match input::read_source(Path::new("-"), FileKind::Flow) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::Failed;
        }
    };
    let Some(options) = input::format_options(loader, Path::new("-")) else {
        return Outcome::Failed;
    };
    let formatted = match easyflow_fmt::format(&text, &options) {
        Ok(formatted) => formatted,
        Err(error) => return refused("<stdin>", &text, &error),
    };
    if check {
        return if formatted == text {
            Outcome::Unchanged
        } else {
            Outcome::Changed
        };
    }
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(formatted.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Outcome::Unchanged,
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Outcome::Failed,
        Err(error) => {
            eprintln!("error: cannot write to standard output: {error}");
            Outcome::Failed
        }
    }
}

/// Reports a file that was not formatted, with its syntax errors.
fn refused(name: &str, text: &str, error: &FormatError) -> Outcome {
    eprintln!("error: {name}: {error}");
    match error {
        FormatError::Syntax(errors) => {
            let lines = report::TextLines::new(text);
            for error in errors {
                let start = lines.position(error.range.start());
                eprintln!(
                    "{name}:{}:{}: {} {}",
                    start.line + 1,
                    start.character + 1,
                    error.code,
                    error.message
                );
            }
            Outcome::SyntaxErrors
        }
        FormatError::Internal(_) => Outcome::Failed,
    }
}

/// Replaces the file at `path` with `text` by a rename of a temporary file
/// written beside it (same directory, so the rename is atomic), keeping the
/// file's permissions. `check --fix` writes through it too.
pub(crate) fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let permissions = std::fs::metadata(path)?.permissions();
    let mut temporary = tempfile::Builder::new()
        .prefix(".easyflow-fmt-")
        .tempfile_in(dir)?;
    temporary.write_all(text.as_bytes())?;
    temporary.as_file().sync_all()?;
    std::fs::set_permissions(temporary.path(), permissions)?;
    temporary.persist(path).map_err(|e| e.error)?;
    Ok(())
}
