//! `easyflow export` and `easyflow/export` (`exports.md`): a flow without
//! errors written in one of the seed systems' formats, or the reasons it is
//! refused. The model is the database's [`expanded_workflow`] (tracked, so
//! exporting twice without an edit builds it once); the writers are
//! `easyflow-export`'s.

use easyflow_db::{Database, SourceFile, expanded_workflow};
use easyflow_diagnostics::{Diagnostic, Severity};
pub use easyflow_export::{FORMATS, Format};

/// Why a flow cannot be exported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The flow's errors (warnings and notes do not block an export).
    pub errors: Vec<Diagnostic>,
    /// Instance ids of swept steps that equal another step's name, each
    /// message naming both.
    pub collisions: Vec<String>,
}

/// The flow in `format`, or why not.
pub fn export(db: &Database, file: SourceFile, format: &Format) -> Result<String, Refused> {
    let errors: Vec<Diagnostic> = db
        .check(file)
        .iter()
        .filter(|d| d.severity() == Severity::Error)
        .cloned()
        .collect();
    // With errors the model may be incomplete: say why rather than build it.
    if !errors.is_empty() {
        return Err(Refused {
            errors,
            collisions: Vec::new(),
        });
    }
    let workflow = expanded_workflow(db, file);
    if !workflow.collisions.is_empty() {
        return Err(Refused {
            errors,
            collisions: workflow.collisions.iter().map(|c| c.message()).collect(),
        });
    }
    Ok(format.write(workflow))
}
