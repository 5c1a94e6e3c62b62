//! The requests on the documents around the flows (`lsp.md`, "Beyond the
//! flow file"): a package catalog's and a topology's outline and hover,
//! the references of a catalog's package in every flow of the workspace,
//! and the links of an `easyflow.toml`. The answers come from
//! `easyflow_ide::companion` and `easyflow_ide::cross_file`; here they are
//! only read and converted.

use std::collections::HashMap;
use std::path::PathBuf;

use easyflow_ide::companion;
use easyflow_ide::cross_file::{indexed_package_uses, package_named_at};
use easyflow_project::FileKind;
use easyflow_project::config::parse_config;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, Lines};
use crate::dispatch::HandlerResult;
use crate::line_index::LineIndex;
use crate::state::path_of;
use crate::workspace::CompanionSnapshot;

pub fn hover(s: &CompanionSnapshot, params: HoverParams) -> HandlerResult<Option<Hover>> {
    let offset = s
        .lines()
        .offset(params.text_document_position_params.position);
    let text = s.text.to_string();
    let hover = match s.kind {
        FileKind::Catalog => companion::catalog_hover(&easyflow_catalog::parse(&text), offset),
        FileKind::Topology => companion::topology_hover(&easyflow_topology::parse(&text), offset),
        FileKind::Flow | FileKind::Config => None,
    };
    Ok(hover.map(|hover| convert::hover(&s.lines(), &s.client, hover)))
}

pub fn document_symbol(
    s: &CompanionSnapshot,
    _: DocumentSymbolParams,
) -> HandlerResult<Option<DocumentSymbolResponse>> {
    let text = s.text.to_string();
    let symbols = match s.kind {
        FileKind::Catalog => companion::catalog_symbols(&easyflow_catalog::parse(&text)),
        FileKind::Topology => companion::topology_symbols(&easyflow_topology::parse(&text)),
        FileKind::Flow | FileKind::Config => Vec::new(),
    };
    Ok(Some(convert::document_symbols(
        &s.lines(),
        &s.client,
        &s.uri,
        &symbols,
    )))
}

/// From a package's `name` in a catalog: every step, in every flow of the
/// workspace that uses this catalog, that runs the package (the flows in
/// the analysis from their analysis, the others from their index).
pub fn references(
    s: &CompanionSnapshot,
    params: ReferenceParams,
) -> HandlerResult<Option<Vec<Location>>> {
    if s.kind != FileKind::Catalog {
        return Ok(None);
    }
    let offset = s.lines().offset(params.text_document_position.position);
    let catalog = easyflow_catalog::parse(&s.text.to_string());
    let Some(package) = package_named_at(&catalog, offset) else {
        return Ok(None);
    };
    let name = package.name.as_str();
    let mut locations = Vec::new();
    if params.context.include_declaration {
        locations.push(Location::new(
            s.uri.clone(),
            s.lines().range(package.name_range),
        ));
    }
    let analysis = &s.flows.analysis;
    for &file in &s.flows.files {
        if analysis.flow_catalog_path(file)?.as_deref() != Some(s.path.as_path()) {
            continue;
        }
        let uses = analysis.package_uses(file, name)?;
        let Some(uri) = Uri::from_file_path(analysis.file_path(file)?) else {
            continue;
        };
        if uses.is_empty() {
            continue;
        }
        let text = analysis.file_text(file)?.flattened();
        let index = LineIndex::new(&text.whole());
        let lines = Lines {
            index: &index,
            text: &text,
            encoding: s.client.encoding,
        };
        locations.extend(
            uses.into_iter()
                .map(|range| Location::new(uri.clone(), lines.range(range))),
        );
    }
    let mut loader = s.loader();
    // Discovery depends on a flow's folder only: once per folder.
    let mut uses_this_catalog: HashMap<PathBuf, bool> = HashMap::new();
    for flow in &s.flows.indexed {
        let mut uses = indexed_package_uses(&flow.symbols, name).peekable();
        if uses.peek().is_none() {
            continue;
        }
        let Some(path) = path_of(&flow.uri) else {
            continue;
        };
        let folder = path.parent().unwrap_or(&path).to_path_buf();
        let uses_this = *uses_this_catalog.entry(folder).or_insert_with(|| {
            loader
                .flow(&path)
                .catalog
                .is_some_and(|(catalog, _)| catalog == s.path)
        });
        if !uses_this {
            continue;
        }
        locations.extend(uses.map(|range| Location::new(flow.uri.clone(), *range)));
    }
    Ok(Some(locations))
}

/// In an `easyflow.toml`: its `topology` and `catalog` values, each a link
/// to the file it names when that file exists.
pub fn document_link(
    s: &CompanionSnapshot,
    _: DocumentLinkParams,
) -> HandlerResult<Option<Vec<DocumentLink>>> {
    if s.kind != FileKind::Config {
        return Ok(None);
    }
    let config = parse_config(&s.text.to_string());
    let folder = s.path.parent().unwrap_or(&s.path);
    let links = [
        (&config.topology, "the topology"),
        (&config.catalog, "the package catalog"),
    ]
    .into_iter()
    .filter_map(|(written, what)| {
        let written = written.as_ref()?;
        let target = folder.join(&written.path);
        if !target.is_file() {
            return None;
        }
        Some(DocumentLink {
            range: s.lines().range(written.range),
            target: Some(Uri::from_file_path(&target)?),
            tooltip: Some(format!("Open {what}")),
            data: None,
        })
    })
    .collect();
    Ok(Some(links))
}
