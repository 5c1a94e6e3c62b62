//! The documentation the list leaves out, for `completionItem/resolve`:
//! a step's or required file's comes from the tree (a look a few tokens
//! back from the item, which costs a walk down from the root), a package's
//! or parameter's from the catalog (a Markdown page each). Computed for
//! hundreds of items, it was most of a completion's cost in a large flow;
//! the client asks for it for the one item it shows.
//!
//! An item is found again by name in the file as it is when the client
//! asks, which may have changed since the list: a name no longer defined
//! has no documentation (the client keeps the item as it is).

use easyflow_db::resolve::names;
use easyflow_db::{Db, SourceFile, StepId};
use serde::{Deserialize, Serialize};

use crate::catalog::{package_markdown, param_markdown};
use crate::doc_comments::{require_documentation, step_documentation};

/// Whose documentation an item shows.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DocumentationOf {
    /// The step first defined with this name: its documentation comment.
    Step(String),
    /// The required file: its `require` line's documentation comment.
    File(String),
    /// The catalog's package.
    Package(String),
    /// A parameter of the catalog's package.
    Param { package: String, param: String },
}

/// The documentation of `of` in `file` as it is now, as Markdown; `None`
/// when there is none, or no longer such a name.
pub fn resolve_documentation(
    db: &dyn Db,
    file: SourceFile,
    of: &DocumentationOf,
) -> Option<String> {
    match of {
        DocumentationOf::Step(name) => {
            let step: StepId = *names(db, file).steps_by_name.get(name.as_str())?;
            step_documentation(db, file, step)
        }
        DocumentationOf::File(name) => {
            let entry = *names(db, file).files_by_name.get(name)?;
            require_documentation(db, file, entry)
        }
        DocumentationOf::Package(name) => {
            let catalog = easyflow_db::catalog::catalog_of(db, file)?;
            Some(package_markdown(catalog.package(name)?))
        }
        DocumentationOf::Param { package, param } => {
            let catalog = easyflow_db::catalog::catalog_of(db, file)?;
            let param = catalog
                .package(package)?
                .params_required_first()
                .find(|p| p.name == *param)?;
            Some(param_markdown(param))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CompletionItem, completions};
    use super::*;
    use crate::fixture::{CATALOG, Fixture, fixture, with_catalog};

    /// Each item's label with its documentation once resolved.
    fn resolved(f: &Fixture) -> Vec<(String, Option<String>)> {
        completions(&f.db, f.file, f.offset)
            .into_iter()
            .map(|item: CompletionItem| {
                let documentation = match &item.documentation_of {
                    Some(of) => {
                        assert_eq!(item.documentation, None, "{item:?}: left to resolve");
                        resolve_documentation(&f.db, f.file, of)
                    }
                    None => item.documentation,
                };
                (item.label, documentation)
            })
            .collect()
    }

    /// Step and required-file items get their documentation comments.
    #[test]
    fn documentation_comments() {
        let text = "// The samples.\nrequire data, more;\n// Reads them.\nstep Load runs P ();\nstep Other runs P ();\nstep T runs P (x = $0);\n";
        let some = |s: &str| Some(s.to_string());
        assert_eq!(
            resolved(&fixture(text)),
            vec![
                ("Load".to_string(), some("Reads them.")),
                ("Other".to_string(), None),
                ("data".to_string(), some("The samples.")),
                ("more".to_string(), some("The samples.")),
            ]
        );
        // A repeated name is the first definition's, as in the list.
        let text = "// First.\nstep Load runs P ();\n// Second.\nstep Load runs P ();\nstep T runs P (x = $0);\n";
        assert_eq!(
            resolved(&fixture(text)),
            vec![("Load".to_string(), some("First."))]
        );
    }

    /// Packages and parameters get the Markdown hover shows.
    #[test]
    fn packages_and_parameters() {
        let f = with_catalog("step A runs $0", CATALOG);
        let catalog = easyflow_db::catalog::catalog_of(&f.db, f.file).unwrap();
        for (label, documentation) in resolved(&f) {
            let package = catalog.package(&label).unwrap();
            assert_eq!(documentation, Some(package_markdown(package)), "{label}");
        }
        let f = with_catalog("step A runs ORCA.DFT ($0);", CATALOG);
        let catalog = easyflow_db::catalog::catalog_of(&f.db, f.file).unwrap();
        let package = catalog.package("ORCA.DFT").unwrap();
        let items = resolved(&f);
        assert!(!items.is_empty());
        for (label, documentation) in items {
            let param = package.params.iter().find(|p| p.name == label).unwrap();
            assert_eq!(documentation, Some(param_markdown(param)), "{label}");
        }
    }

    /// What the file no longer defines has no documentation.
    #[test]
    fn names_no_longer_defined() {
        let f = with_catalog(
            "// Doc.\nrequire data;\nstep A runs ORCA.DFT ($0);",
            CATALOG,
        );
        for of in [
            DocumentationOf::Step("Gone".to_string()),
            DocumentationOf::File("gone".to_string()),
            DocumentationOf::Package("No.Such".to_string()),
            DocumentationOf::Param {
                package: "ORCA.DFT".to_string(),
                param: "gone".to_string(),
            },
            DocumentationOf::Param {
                package: "No.Such".to_string(),
                param: "charge".to_string(),
            },
        ] {
            assert_eq!(resolve_documentation(&f.db, f.file, &of), None, "{of:?}");
        }
        // Without a catalog.
        let f = fixture("step A runs P ($0);");
        let of = DocumentationOf::Package("ORCA.DFT".to_string());
        assert_eq!(resolve_documentation(&f.db, f.file, &of), None);
    }
}
