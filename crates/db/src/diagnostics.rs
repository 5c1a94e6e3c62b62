//! Layer 6: the file's diagnostics, assembled from the rule families
//! (`rules/`, `attributes.rs`, `fit.rs`, `catalog.rs`). [`semantic_diagnostics`] runs the
//! file-wide rules on the position-free layers, anchored to parts of steps;
//! [`rule_diagnostics`] places everything at byte ranges, for
//! [`crate::silence::file_diagnostics`] to silence.

use easyflow_diagnostics::{Code, Diagnostic};

use crate::anchor::{AnchoredDiagnostic, KeyedDiagnostic};
use crate::attributes::{check_flow_attribute, flow_attribute_set_twice};
use crate::graph::dependency_graph;
use crate::items::{FileOutline, file_outline, item_index};
use crate::links::{links, required_names};
use crate::rules;
use easyflow_syntax::SourceText;

use crate::{Db, SourceFile, parse};

// The IDE layer and the server name anchors by this path.
pub use crate::anchor::{Anchor, anchor_range};

/// The names rules (`rules/names.rs`), their steps named by
/// [`crate::links::StepKey`]:
/// the `require` entries', then each chunk's (made by [`links`] when it
/// links the chunk, so an edit checks the names of the chunks it links).
#[salsa::tracked(returns(ref))]
pub fn semantic_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<KeyedDiagnostic> {
    let links = links(db, file);
    let mut out = Vec::new();
    rules::names::check_requires(&required_names(db, file).names, &links.requires, &mut out);
    for chunk in &links.chunks {
        out.extend(chunk.diagnostics.iter().cloned());
    }
    out
}

/// The dependency graph rules (`rules/graph.rs`): none when no steps depend
/// on each other in a cycle and none on itself, which the links tell
/// without building the graph.
#[salsa::tracked(returns(ref))]
pub fn graph_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<AnchoredDiagnostic> {
    let mut out = Vec::new();
    if links(db, file).cyclic {
        rules::graph::check(item_index(db, file), dependency_graph(db, file), &mut out);
    }
    out
}

/// Flow attributes: W0501 and W0502 (`attributes.rs`), and W0503 for a key
/// set again.
fn flow_attribute_diagnostics(outline: &FileOutline<'_>, out: &mut Vec<Diagnostic>) {
    for (i, attribute) in outline.flow_attributes.iter().enumerate() {
        let Some((key, key_range)) = &attribute.key else {
            continue;
        };
        let first = outline.flow_attributes[..i].iter().find_map(|a| {
            a.key
                .as_ref()
                .filter(|(k, _)| k == key)
                .map(|(_, range)| *range)
        });
        if let Some(first) = first {
            out.push(flow_attribute_set_twice(*key_range, key, first));
        }
        if let Some(problem) = check_flow_attribute(key, &attribute.value) {
            let range = if problem.on_value {
                attribute.value_range
            } else {
                Some(*key_range)
            };
            if let Some(range) = range {
                out.push(problem.at(range));
            }
        }
    }
}

/// Every diagnostic the rules find in the file, at byte ranges, in the
/// specification's order, before anything is silenced: a part of
/// [`crate::silence::file_diagnostics`] (what hosts report), which owns
/// the list it silences, so nothing is copied.
pub fn rule_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    let mut out = parse(db, file).errors().to_vec();
    let outline = file_outline(db, file);
    for id in &item_index(db, file).steps_with_local_diagnostics {
        let Some(step) = outline.step(db, *id) else {
            continue;
        };
        out.extend(
            step.local_diagnostics(db)
                .iter()
                .map(|d| d.clone().moved(|range| range + step.offset)),
        );
    }
    if let Some(catalog) = file.catalog(db) {
        for id in crate::catalog::steps_with_catalog_diagnostics(db, file) {
            let Some(step) = outline.step(db, *id) else {
                continue;
            };
            let diagnostics = &crate::catalog::chunk_catalog_diagnostics(db, step.chunk, catalog)
                [step.index as usize];
            out.extend(
                diagnostics
                    .iter()
                    .map(|d| d.clone().moved(|range| range + step.offset)),
            );
        }
    }
    flow_attribute_diagnostics(outline, &mut out);
    let links = links(db, file);
    out.extend(semantic_diagnostics(db, file).iter().filter_map(|d| {
        d.place(|anchor| {
            let anchor = anchor.map_step(|key| links.step_id(outline, key))?;
            anchor_range(db, outline, anchor)
        })
    }));
    let graph = graph_diagnostics(db, file);
    let fit = crate::fit::fit_diagnostics(db, file);
    let outputs = crate::catalog::output_diagnostics(db, file);
    out.extend(
        graph
            .iter()
            .chain(fit)
            .chain(outputs)
            .filter_map(|d| d.place(|anchor| anchor_range(db, outline, *anchor))),
    );
    if let Some(catalog) = crate::catalog::catalog_of(db, file) {
        resolve_package_names(file.text(db), catalog, &mut out);
    }
    drop_wrong_types_of_unresolved_names(&mut out);
    easyflow_diagnostics::sort(&mut out);
    out
}

/// With a catalog, a reference whose first segment names a catalogued
/// package (`Pkg1`, or `ORCA` of `ORCA.DFT`) resolves (`language.md` §3.1):
/// no E0201. Done here rather than in the names rules, so that editing the
/// catalog re-runs no name resolution.
fn resolve_package_names(
    text: &SourceText,
    catalog: &easyflow_catalog::Catalog,
    out: &mut Vec<Diagnostic>,
) {
    if !out.iter().any(|d| d.code == Code::E0201) {
        return;
    }
    out.retain(|d| {
        d.code != Code::E0201
            || !text
                .get(d.range)
                .is_some_and(|name| catalog.is_package_head(&name))
    });
}

/// One problem, one diagnostic: a value that is an unresolved name (E0201)
/// has no type, so it is not also of the wrong type (E0804).
fn drop_wrong_types_of_unresolved_names(out: &mut Vec<Diagnostic>) {
    let unresolved: Vec<_> = out
        .iter()
        .filter(|d| d.code == Code::E0201)
        .map(|d| d.range)
        .collect();
    if unresolved.is_empty() {
        return;
    }
    out.retain(|d| {
        d.code != Code::E0804 || !unresolved.iter().any(|name| d.range.contains_range(*name))
    });
}
