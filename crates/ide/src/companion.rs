//! The documents around a flow (`lsp.md`, "Beyond the flow file"): the
//! outline of a package catalog and of a topology, and hover in them. Pure
//! functions over the parsed file: these documents are small, and an
//! editor may open one that no flow uses.

use std::fmt::Write;

use easyflow_catalog::Catalog;
use easyflow_diagnostics::TextSize;
use easyflow_topology::{Topology, WorkerType, format_bytes};

use crate::catalog::{package_markdown, param_hover_markdown};
use crate::hover::HoverResult;
use crate::render::plural;
use crate::symbols::{DocumentSymbol, SymbolKind};

/// The outline of a catalog: its packages, each with its parameters and
/// outputs as children, in the order of the file.
pub fn catalog_symbols(catalog: &Catalog) -> Vec<DocumentSymbol> {
    catalog
        .packages
        .iter()
        .map(|package| {
            let params = package.params.iter().map(|param| DocumentSymbol {
                name: param.name.clone(),
                detail: Some(param.type_name().to_string()),
                kind: SymbolKind::Parameter,
                range: param.range,
                selection_range: param.name_range,
                children: Vec::new(),
            });
            let outputs = package.outputs.iter().map(|output| DocumentSymbol {
                name: output.name.clone(),
                detail: Some("output".to_string()),
                kind: SymbolKind::Output,
                range: output.range,
                selection_range: output.name_range,
                children: Vec::new(),
            });
            let mut children: Vec<DocumentSymbol> = params.chain(outputs).collect();
            children.sort_by_key(|c| c.range.start());
            DocumentSymbol {
                name: package.name.clone(),
                detail: package.description.clone(),
                kind: SymbolKind::Package,
                range: package.range,
                selection_range: package.name_range,
                children,
            }
        })
        .collect()
}

/// Hover on a package's or a parameter's `name` in a catalog: what hover
/// on it shows in a flow.
pub fn catalog_hover(catalog: &Catalog, offset: TextSize) -> Option<HoverResult> {
    for package in &catalog.packages {
        if package.name_range.contains_inclusive(offset) {
            return Some(HoverResult {
                range: package.name_range,
                markdown: package_markdown(package),
            });
        }
        if let Some(param) = package
            .params
            .iter()
            .find(|p| p.name_range.contains_inclusive(offset))
        {
            return Some(HoverResult {
                range: param.name_range,
                markdown: param_hover_markdown(package, param),
            });
        }
    }
    None
}

/// The outline of a topology: one symbol per worker type, named by its
/// capability set.
pub fn topology_symbols(topology: &Topology) -> Vec<DocumentSymbol> {
    topology
        .workers
        .iter()
        .map(|worker| DocumentSymbol {
            name: worker.name().to_string(),
            detail: Some(worker.text.clone()),
            kind: SymbolKind::WorkerType,
            range: worker.range,
            selection_range: worker.capabilities_range,
            children: Vec::new(),
        })
        .collect()
}

/// Hover on a worker description of a topology: its fields in plain words.
pub fn topology_hover(topology: &Topology, offset: TextSize) -> Option<HoverResult> {
    let worker = topology
        .workers
        .iter()
        .find(|w| w.range.contains_inclusive(offset))?;
    Some(HoverResult {
        range: worker.range,
        markdown: worker_markdown(worker),
    })
}

/// A worker type's fields (`topology.md` §2), one line each.
fn worker_markdown(worker: &WorkerType) -> String {
    let mut out = format!(
        "```text\n{}\n```\n---\n**worker type** `{}`\n",
        worker.text,
        worker.name()
    );
    let capabilities: Vec<String> = worker
        .capabilities
        .iter()
        .map(|c| format!("`{}`", c.name))
        .collect();
    let _ = writeln!(out, "\n- capabilities: {}", capabilities.join(", "));
    let socket = match worker.socket {
        Some(socket) => format!("pinned to NUMA socket {socket}"),
        None => "unpinned".to_string(),
    };
    let _ = writeln!(out, "- socket: {socket}");
    let _ = writeln!(
        out,
        "- per node: {} on each machine",
        plural(worker.per_node, "worker instance", "worker instances")
    );
    let max_nodes = match worker.max_nodes {
        0 => "all machines".to_string(),
        n => plural(n, "machine", "machines"),
    };
    let _ = writeln!(out, "- max nodes: {max_nodes}");
    let memory = match worker.shm {
        0 => "none (cannot read or store IML data)".to_string(),
        bytes => format!("{} per instance ({bytes} bytes)", format_bytes(bytes)),
    };
    let _ = writeln!(out, "- memory: {memory}");
    let ports = match (worker.port, worker.port_range()) {
        (Some(_), Some((first, last))) if first == last => format!("{first}"),
        (Some(_), Some((first, last))) => format!("{first}–{last} (one per instance)"),
        (Some(port), None) => format!("base {port} (no instance started)"),
        (None, _) => "none".to_string(),
    };
    let _ = write!(out, "- ports: {ports}");
    out
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::fixture::CATALOG;

    fn outline(symbols: &[DocumentSymbol], text: &str) -> String {
        let mut out = String::new();
        for symbol in symbols {
            let _ = writeln!(
                out,
                "{:?} {} [{}] {:?}",
                symbol.kind,
                symbol.name,
                &text[symbol.selection_range],
                text[symbol.range].lines().next().unwrap_or("")
            );
            for child in &symbol.children {
                assert!(symbol.range.contains_range(child.range));
                let _ = writeln!(
                    out,
                    "  {:?} {} [{}] {} lines",
                    child.kind,
                    child.name,
                    &text[child.selection_range],
                    text[child.range].lines().count()
                );
            }
        }
        out
    }

    #[test]
    fn a_catalog_outline() {
        let catalog = easyflow_catalog::parse(CATALOG);
        expect![[r#"
            Package ORCA.DFT ["ORCA.DFT"] "[[package]]"
              Parameter input ["input"] 5 lines
              Parameter method ["method"] 5 lines
              Parameter charge ["charge"] 6 lines
              Output geometry.xyz ["geometry.xyz"] 2 lines
            Package Vis.Mesh ["Vis.Mesh"] "[[package]]"
              Parameter data ["data"] 4 lines
        "#]]
        .assert_eq(&outline(&catalog_symbols(&catalog), CATALOG));
    }

    #[test]
    fn hover_in_a_catalog() {
        let catalog = easyflow_catalog::parse(CATALOG);
        let at = |needle: &str| TextSize::from(CATALOG.find(needle).unwrap() as u32 + 2);
        let package = catalog_hover(&catalog, at("\"Vis.Mesh")).unwrap();
        assert!(package.markdown.starts_with("**package** `Vis.Mesh`"));
        let param = catalog_hover(&catalog, at("\"charge")).unwrap();
        assert_eq!(&CATALOG[param.range], "\"charge\"");
        assert!(param.markdown.contains("parameter of `ORCA.DFT`"));
        assert!(catalog_hover(&catalog, at("description")).is_none());
    }

    #[test]
    fn a_topology_outline_and_hover() {
        let text = "// the site\ncompute+GPU#1:2x4,2147483648/9000\nreduce:4\n";
        let topology = easyflow_topology::parse(text);
        expect![[r#"
            WorkerType compute+GPU [compute+GPU] "compute+GPU#1:2x4,2147483648/9000"
            WorkerType reduce [reduce] "reduce:4"
        "#]]
        .assert_eq(&outline(&topology_symbols(&topology), text));
        let hover = topology_hover(&topology, TextSize::from(20)).unwrap();
        expect![[r#"
            ```text
            compute+GPU#1:2x4,2147483648/9000
            ```
            ---
            **worker type** `compute+GPU`

            - capabilities: `compute`, `GPU`
            - socket: pinned to NUMA socket 1
            - per node: 2 worker instances on each machine
            - max nodes: 4 machines
            - memory: 2 GiB per instance (2147483648 bytes)
            - ports: 9000–9001 (one per instance)"#]]
        .assert_eq(&hover.markdown);
        let reduce = topology_hover(&topology, TextSize::from(48)).unwrap();
        assert!(reduce.markdown.contains("- max nodes: all machines"));
        assert!(reduce.markdown.contains("- memory: none"));
        assert!(topology_hover(&topology, TextSize::from(3)).is_none());
    }
}
