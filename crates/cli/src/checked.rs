//! The checked-file model: what `check` produces and every report format reads.

use std::path::PathBuf;
use std::sync::Arc;

use easyflow_diagnostics::{Diagnostic, Severity};

/// One checked file: its path as the user should see it, its text and what was found.
pub struct CheckedFile {
    pub path: PathBuf,
    /// Shared with the analysis's input (a large file is held once).
    pub text: Arc<str>,
    pub diagnostics: Vec<Diagnostic>,
}

impl CheckedFile {
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity() == severity)
            .count()
    }
}

/// The diagnostics of a run by severity: the reports' summary and the exit status.
#[derive(Default)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub information: usize,
}

impl Counts {
    pub fn of(files: &[CheckedFile]) -> Counts {
        let mut counts = Counts::default();
        for file in files {
            counts.errors += file.count(Severity::Error);
            counts.warnings += file.count(Severity::Warning);
            counts.information += file.count(Severity::Information);
        }
        counts
    }
}
