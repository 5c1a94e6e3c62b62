//! The catalog checks of a flow (`catalog.md`) against its [`CatalogFile`].
//!
//! E0801–E0805 need nothing but one step and the catalog, so they run per
//! chunk of steps ([`chunk_catalog_diagnostics`], memoized by the chunk's
//! identity and the catalog): editing one step's parameter re-checks its
//! chunk only, and
//! editing the catalog re-runs its parse and these checks, nothing of the
//! flow's own analysis. W0806 needs which step a reference names, so it runs
//! over the item index and the name resolution ([`output_diagnostics`]).

use easyflow_catalog::{Catalog, Package};
use easyflow_diagnostics::Diagnostic;

use crate::anchor::{Anchor, AnchoredDiagnostic};
use crate::items::{StepChunk, StepId, StepSummary, chunk_analysis, file_outline, item_index};
use crate::resolve::{Target, name_resolution};
use crate::rules::catalog as rules;
use crate::{CatalogFile, Db, SourceFile, parse_catalog};

/// The parsed catalog the file uses, if any (and it could be read as TOML).
pub fn catalog_of(db: &dyn Db, file: SourceFile) -> Option<&Catalog> {
    file.catalog(db)
        .map(|catalog| parse_catalog(db, catalog))
        .filter(|catalog| catalog.is_usable())
}

/// The package a step runs, when it has a catalog that knows it.
pub fn package_of<'c>(catalog: Option<&'c Catalog>, step: &StepSummary) -> Option<&'c Package> {
    catalog?.package(step.package.as_deref()?)
}

/// E0801–E0805 of each step of a chunk, at ranges relative to the step's
/// start.
#[salsa::tracked(returns(ref))]
pub fn chunk_catalog_diagnostics<'db>(
    db: &'db dyn Db,
    chunk: StepChunk<'db>,
    catalog: CatalogFile,
) -> Vec<Vec<Diagnostic>> {
    let catalog = parse_catalog(db, catalog);
    let summaries = &chunk_analysis(db, chunk).summaries;
    summaries
        .iter()
        .zip(chunk.syntax(db).steps())
        .map(|(summary, step)| {
            let mut out = Vec::new();
            if catalog.is_usable() {
                rules::check_step(summary, step.green, catalog, &mut out);
            }
            out
        })
        .collect()
}

/// The steps with E0801–E0805 (few), so that placing their diagnostics
/// does not visit every step after each edit. Position-free: salsa
/// backdates it when the same steps have diagnostics.
#[salsa::tracked(returns(ref))]
pub fn steps_with_catalog_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<StepId> {
    let Some(catalog) = file.catalog(db) else {
        return Vec::new();
    };
    let outline = file_outline(db, file);
    let mut steps = Vec::new();
    for chunk in &outline.chunks {
        let diagnostics = chunk_catalog_diagnostics(db, chunk.node, catalog);
        steps.extend(
            (0..diagnostics.len() as u32)
                .filter(|&i| !diagnostics[i as usize].is_empty())
                .map(|i| StepId(chunk.first + i)),
        );
    }
    steps
}

/// W0806: `A.outs["x"]` where A's package declares outputs and `x` is not
/// one of them.
#[salsa::tracked(returns(ref))]
pub fn output_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<AnchoredDiagnostic> {
    let Some(catalog) = catalog_of(db, file) else {
        return Vec::new();
    };
    let index = item_index(db, file);
    let resolution = name_resolution(db, file);
    let mut out = Vec::new();
    for (i, step) in index.steps.iter().enumerate() {
        for (n, reference) in step.references.iter().enumerate() {
            let Some(output) = reference.output.as_deref() else {
                continue;
            };
            let Target::Step(source) = resolution.references[i][n] else {
                continue;
            };
            let Some(package) = package_of(Some(catalog), &index.steps[source.index()]) else {
                continue;
            };
            if let Some((message, suggestion)) =
                easyflow_catalog::check::unknown_output(package, output)
            {
                let anchor = Anchor::OutputIndex(StepId(i as u32), n as u32);
                out.push(rules::unknown_output(anchor, message, suggestion));
            }
        }
    }
    out
}
