//! Navigation beyond the flow file (`lsp.md`, "Beyond the flow file"):
//! from a name in a flow to where its package catalog or its topology
//! declares it, and from a package of a catalog back to the steps that run
//! it in every flow.
//!
//! Definitions read the flow's analysis (the step anchors) and the parsed
//! catalog and topology the flow uses; package references are pure
//! functions over a flow's analysis or, for a flow that is not analysed (a
//! closed file), over its [`FlowSymbols`].

use easyflow_catalog::Catalog;
use easyflow_db::resolve::Target;
use easyflow_db::{
    CatalogFile, Db, SourceFile, StepId, TopologyFile, file_outline, item_index, name_resolution,
    parse_catalog, parse_topology,
};
use easyflow_diagnostics::{TextRange, TextSize};
use easyflow_syntax::ast::SectionKind;
use easyflow_topology::Topology;

use crate::defs;
use crate::symbols::FlowSymbols;

/// The file a cross-file target is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Companion {
    Catalog(CatalogFile),
    Topology(TopologyFile),
}

/// Where a name of a flow is declared in its catalog or topology.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CompanionTarget {
    pub companion: Companion,
    /// The declaration: the `name` value in the catalog, the worker
    /// description in the topology.
    pub full_range: TextRange,
    /// The name itself, inside `full_range`.
    pub focus_range: TextRange,
    pub name: String,
}

/// From a package name after `runs`: its package's `name`; from a parameter
/// name: the package's `[[package.param]]` `name`; from the index string
/// of `A.outs["x"]`: the `[[package.output]]` `name` of A's package; from a
/// capability name inside a `requires` value: that capability in every
/// worker description of the topology that provides it. Empty elsewhere,
/// and when the catalog or topology does not declare the name.
pub fn definition(db: &dyn Db, file: SourceFile, offset: TextSize) -> Vec<CompanionTarget> {
    definition_in_step(db, file, offset).unwrap_or_default()
}

fn definition_in_step(
    db: &dyn Db,
    file: SourceFile,
    offset: TextSize,
) -> Option<Vec<CompanionTarget>> {
    let step = defs::step_at(db, file, offset)?;
    let outline_step = file_outline(db, file).step(db, step)?;
    let (anchors, summary) = (outline_step.anchors(db), outline_step.summary(db));
    let touches = |range: &TextRange| (*range + outline_step.offset).contains_inclusive(offset);
    let catalog = || {
        let catalog_file = file.catalog(db)?;
        let catalog = parse_catalog(db, catalog_file);
        catalog.is_usable().then_some((catalog_file, catalog))
    };
    let in_catalog = |(catalog_file, _): (CatalogFile, &Catalog), range: TextRange, name: &str| {
        vec![CompanionTarget {
            companion: Companion::Catalog(catalog_file),
            full_range: range,
            focus_range: range,
            name: name.to_string(),
        }]
    };

    if anchors.package.as_ref().is_some_and(touches) {
        let (catalog_file, catalog) = catalog()?;
        let package = catalog.package(summary.package.as_deref()?)?;
        return Some(in_catalog(
            (catalog_file, catalog),
            package.name_range,
            &package.name,
        ));
    }
    for (n, param) in anchors.params.iter().enumerate() {
        if param.name.as_ref().is_some_and(touches) {
            let written = &summary.params[n];
            if written.section != SectionKind::App {
                return None;
            }
            let (catalog_file, catalog) = catalog()?;
            let package = catalog.package(summary.package.as_deref()?)?;
            let declared = package.param(written.name.as_deref()?)?;
            return Some(in_catalog(
                (catalog_file, catalog),
                declared.name_range,
                &declared.name,
            ));
        }
    }
    for (n, reference) in anchors.references.iter().enumerate() {
        if reference.output.as_ref().is_some_and(touches) {
            let Target::Step(source) = name_resolution(db, file).references[step.index()][n] else {
                return None;
            };
            let (catalog_file, catalog) = catalog()?;
            let package_name = item_index(db, file).steps[source.index()]
                .package
                .as_deref()?;
            let package = catalog.package(package_name)?;
            let output_name = summary.references[n].output.as_deref()?;
            let output = package.outputs.iter().find(|o| o.name == output_name)?;
            return Some(in_catalog(
                (catalog_file, catalog),
                output.name_range,
                &output.name,
            ));
        }
    }
    for (n, range) in anchors.capabilities.iter().enumerate() {
        if touches(range) {
            let topology_file = file.topology(db)?;
            let name = &summary.requirement().capabilities[n];
            return Some(
                providers(parse_topology(db, topology_file), name)
                    .map(|(full_range, focus_range)| CompanionTarget {
                        companion: Companion::Topology(topology_file),
                        full_range,
                        focus_range,
                        name: name.clone(),
                    })
                    .collect(),
            );
        }
    }
    None
}

/// The worker descriptions that provide capability `name`: each
/// description's range and that of the capability in it.
pub fn providers<'t>(
    topology: &'t Topology,
    name: &'t str,
) -> impl Iterator<Item = (TextRange, TextRange)> + 't {
    topology.workers.iter().filter_map(move |worker| {
        let capability = worker.capabilities.iter().find(|c| c.name == name)?;
        Some((worker.range, capability.range))
    })
}

/// The package of `catalog` whose `name` value the cursor touches.
pub fn package_named_at(catalog: &Catalog, offset: TextSize) -> Option<&easyflow_catalog::Package> {
    catalog
        .packages
        .iter()
        .find(|p| p.name_range.contains_inclusive(offset))
}

/// The compound package names after `runs` of the steps of `file` that run
/// package `name`, in text order.
pub fn package_uses(db: &dyn Db, file: SourceFile, name: &str) -> Vec<TextRange> {
    item_index(db, file)
        .steps
        .iter()
        .enumerate()
        .filter(|(_, step)| step.package.as_deref() == Some(name))
        .filter_map(|(i, _)| {
            defs::range_of(
                db,
                file,
                easyflow_db::diagnostics::Anchor::Package(StepId(i as u32)),
            )
        })
        .collect()
}

/// [`package_uses`] of a flow known by its symbols only (a closed file),
/// with its ranges in whatever form the symbols hold them.
pub fn indexed_package_uses<'a, R>(
    flow: &'a FlowSymbols<R>,
    name: &'a str,
) -> impl Iterator<Item = &'a R> + 'a {
    flow.steps.iter().filter_map(move |step| {
        let (package, range) = step.package.as_ref()?;
        (package == name).then_some(range)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{CATALOG, with_project};

    const TOPOLOGY: &str = "compute+CPU:24,1073741824 compute+GPU:2x4\nIO+load:2\n";

    /// The targets of the definition at `$0`, as `name: text at focus`.
    fn targets(text: &str) -> Vec<String> {
        let f = with_project(text, Some(TOPOLOGY), Some(CATALOG));
        definition(&f.db, f.file, f.offset)
            .into_iter()
            .map(|target| {
                let companion_text = match target.companion {
                    Companion::Catalog(_) => CATALOG,
                    Companion::Topology(_) => TOPOLOGY,
                };
                format!(
                    "{}: {} in {}",
                    target.name,
                    &companion_text[target.focus_range],
                    &companion_text[target.full_range]
                )
            })
            .collect()
    }

    #[test]
    fn a_package_its_parameters_and_its_outputs() {
        assert_eq!(
            targets("require m;\nstep A runs ORCA.D$0FT (input = m, charge = 1);\n"),
            ["ORCA.DFT: \"ORCA.DFT\" in \"ORCA.DFT\""]
        );
        assert_eq!(
            targets("require m;\nstep A runs ORCA.DFT (input = m, char$0ge = 1);\n"),
            ["charge: \"charge\" in \"charge\""]
        );
        assert_eq!(
            targets(
                "require m;\nstep A runs ORCA.DFT (input = m, charge = 1);\nstep B runs Vis.Mesh (data = A.outs[\"geometry$0.xyz\"]);\n"
            ),
            ["geometry.xyz: \"geometry.xyz\" in \"geometry.xyz\""]
        );
    }

    #[test]
    fn a_capability_in_every_worker_description_that_provides_it() {
        assert_eq!(
            targets("[requires = \"comp$0ute+GPU\"]\nstep A runs P ();\n"),
            [
                "compute: compute in compute+CPU:24,1073741824",
                "compute: compute in compute+GPU:2x4"
            ]
        );
        assert_eq!(
            targets("[requires = [\"compute\", \"lo$0ad\"]]\nstep A runs P ();\n"),
            ["load: load in IO+load:2"]
        );
    }

    #[test]
    fn nothing_for_unknown_names_and_other_places() {
        assert!(targets("step A runs No.Su$0ch ();\n").is_empty());
        assert!(targets("step A runs ORCA.DFT (nope$0 = 1);\n").is_empty());
        assert!(targets("step A runs ORCA.DFT (exec: char$0ge = 1);\n").is_empty());
        assert!(targets("[requires = \"Q$0PU\"]\nstep A runs P ();\n").is_empty());
        assert!(targets("step A$0 runs P ();\n").is_empty());
        assert!(targets("step A runs P ();\nstep B runs Q (x = A.outs[\"o$0\"]);\n").is_empty());
    }

    #[test]
    fn the_uses_of_a_package() {
        let f = with_project(
            "step A runs ORCA.DFT ();\nstep B runs Vis.Mesh ();\nstep C runs ORCA.DFT ();\n",
            None,
            None,
        );
        let uses: Vec<u32> = package_uses(&f.db, f.file, "ORCA.DFT")
            .into_iter()
            .map(|r| r.start().into())
            .collect();
        assert_eq!(uses, [12, 62]);
        let symbols = crate::symbols::flow_symbols(&f.db, f.file);
        let indexed: Vec<u32> = indexed_package_uses(&symbols, "ORCA.DFT")
            .map(|r| r.start().into())
            .collect();
        assert_eq!(indexed, uses);
    }

    #[test]
    fn the_package_under_the_cursor_in_a_catalog() {
        let catalog = easyflow_catalog::parse(CATALOG);
        let at = CATALOG.find("Vis.Mesh").unwrap() as u32;
        assert_eq!(
            package_named_at(&catalog, TextSize::from(at)).map(|p| p.name.as_str()),
            Some("Vis.Mesh")
        );
        assert!(package_named_at(&catalog, TextSize::from(0)).is_none());
    }
}
