//! `easyflow export` and `easyflow/export` (`exports.md`, `run.md` §3): a
//! flow without errors written in one of the export formats, or the
//! reasons it is refused. The model is the database's [`expanded_workflow`]
//! (tracked, so exporting twice without an edit builds it once); the
//! writers are `easyflow-export`'s.

use easyflow_db::{Database, SourceFile, expanded_workflow};
use easyflow_diagnostics::{Diagnostic, Severity};
pub use easyflow_export::{CWL, FORMATS, Format};

/// A flow in an export format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    pub text: String,
    /// What the export does differently than the flow says (CWL: streams
    /// run as data dependencies), one line each for the user.
    pub notes: Vec<String>,
}

/// Why a flow cannot be exported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The flow's errors (warnings and notes do not block an export).
    pub errors: Vec<Diagnostic>,
    /// The other reasons, each a message naming what it is about: instance
    /// ids of swept steps that equal another step's name, and for CWL what
    /// cannot run (`run.md` §3, "Refused").
    pub reasons: Vec<String>,
}

/// The flow in `format`, or why not.
pub fn export(db: &Database, file: SourceFile, format: &Format) -> Result<Exported, Refused> {
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
            reasons: Vec::new(),
        });
    }
    let workflow = expanded_workflow(db, file);
    let mut reasons: Vec<String> = workflow.collisions.iter().map(|c| c.message()).collect();
    reasons.extend(format.refusals(workflow));
    if !reasons.is_empty() {
        return Err(Refused { errors, reasons });
    }
    Ok(Exported {
        text: format.write(workflow),
        notes: format.notes(workflow),
    })
}
