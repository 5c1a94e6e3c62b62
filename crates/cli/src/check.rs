//! `easyflow check`: finds the files, analyses them, reports.

use std::path::{Path, PathBuf};

use easyflow_db::{Database, SourceFile, file_diagnostics};
use easyflow_diagnostics::{Diagnostic, Severity};

use crate::{Format, exit, report};

/// One checked file: its path as the user should see it, its text and what was found.
pub struct CheckedFile {
    pub path: PathBuf,
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn run(paths: &[PathBuf], format: Format, deny_warnings: bool) -> u8 {
    let mut failed = false;
    let mut files = Vec::new();
    let db = Database::default();
    for path in discover(paths, &mut failed) {
        match read_source(&path) {
            Ok(text) => {
                let file = SourceFile::new(&db, path.clone(), text.clone());
                let diagnostics = file_diagnostics(&db, file).clone();
                files.push(CheckedFile {
                    path,
                    text,
                    diagnostics,
                });
            }
            Err(message) => {
                eprintln!("error: {message}");
                failed = true;
            }
        }
    }
    let written = match format {
        Format::Human => report::human(&files),
        Format::Json => report::json(&files),
        Format::Sarif => report::sarif(&files),
    };
    if let Err(error) = written {
        // A closed pipe (e.g. `| head`) is not worth a message.
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write the report: {error}");
        }
        return exit::FAILURE;
    }
    let counts = report::Counts::of(&files);
    if failed {
        exit::FAILURE
    } else if counts.errors > 0 || (deny_warnings && counts.warnings > 0) {
        exit::PROBLEMS
    } else {
        exit::OK
    }
}

/// The `.flow` files named or found under `paths`, each directory's files in
/// sorted order. Reports paths that do not exist and sets `failed`.
fn discover(paths: &[PathBuf], failed: &mut bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut in_dir: Vec<PathBuf> = ignore::WalkBuilder::new(path)
                .sort_by_file_path(|a, b| a.cmp(b))
                .build()
                .filter_map(|entry| match entry {
                    Ok(entry) => Some(entry.into_path()),
                    Err(error) => {
                        eprintln!("error: {error}");
                        *failed = true;
                        None
                    }
                })
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "flow"))
                .map(|p| p.strip_prefix("./").map(Path::to_path_buf).unwrap_or(p))
                .collect();
            in_dir.sort();
            found.extend(in_dir);
        } else if path.exists() {
            found.push(path.clone());
        } else {
            eprintln!("error: {}: no such file or directory", path.display());
            *failed = true;
        }
    }
    found
}

/// Reads a flow, from standard input for `-`. Errors name the file.
pub fn read_source(path: &Path) -> Result<String, String> {
    let bytes = if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .map(|_| bytes)
            .map_err(|e| format!("<stdin>: cannot read: {e}"))?
    } else {
        std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?
    };
    if u32::try_from(bytes.len()).is_err() {
        return Err(format!(
            "{}: files over 4 GiB are not supported",
            path.display()
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not valid UTF-8 (invalid byte at offset {}); EasyFlow files are UTF-8 text",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

impl CheckedFile {
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity() == severity)
            .count()
    }
}
