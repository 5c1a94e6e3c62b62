//! `easyflow export` and `easyflow/export` (`exports.md`, `run.md` §3): a
//! flow without errors written in one of the export formats, or the
//! reasons it is refused. The model is the database's [`expanded_workflow`]
//! (tracked, so exporting twice without an edit builds it once); the
//! writers are `easyflow-export`'s.

use std::io;

use easyflow_db::{Database, ExpandedWorkflow, SourceFile, expanded_workflow};
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

/// A flow that `format` can carry, before it is written: a host that
/// writes the document somewhere writes it from here as it is made
/// ([`Exportable::write_to`]) rather than holding all of it.
pub struct Exportable<'a> {
    workflow: &'a ExpandedWorkflow,
    format: &'a Format,
}

impl Exportable<'_> {
    /// The document, into `out` as it is made.
    pub fn write_to(&self, out: &mut dyn io::Write) -> io::Result<()> {
        self.format.write_to(self.workflow, out)
    }

    /// What the export does differently than the flow says.
    pub fn notes(&self) -> Vec<String> {
        self.format.notes(self.workflow)
    }
}

/// The flow in `format`, or why not.
pub fn export(db: &Database, file: SourceFile, format: &Format) -> Result<Exported, Refused> {
    let exportable = exportable(db, file, format)?;
    Ok(Exported {
        text: exportable.format.write(exportable.workflow),
        notes: exportable.notes(),
    })
}

/// The flow ready to be written in `format`, or why it cannot be.
pub fn exportable<'a>(
    db: &'a Database,
    file: SourceFile,
    format: &'a Format,
) -> Result<Exportable<'a>, Refused> {
    let errors: Vec<Diagnostic> = db
        .check_for_export(file)
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
    Ok(Exportable { workflow, format })
}
