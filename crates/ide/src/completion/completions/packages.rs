//! After `runs`, with a catalog: every package, by compound name, with its
//! description.

use easyflow_diagnostics::{TextRange, TextSize};

use super::super::context::CompletionContext;
use super::super::{CompletionItem, CompletionKind, DocumentationOf, Insert};

/// The compound name written from `start` (`None`: the word at the cursor
/// is all of it) is replaced whole.
pub(crate) fn complete(
    ctx: &CompletionContext<'_>,
    start: Option<TextSize>,
) -> Vec<CompletionItem> {
    let Some(catalog) = easyflow_db::catalog::catalog_of(ctx.db, ctx.file) else {
        return Vec::new();
    };
    let replace = TextRange::new(start.unwrap_or(ctx.replace.start()), ctx.replace.end());
    catalog
        .packages
        .iter()
        .map(|package| {
            CompletionItem::new(
                &package.name,
                CompletionKind::Package,
                Insert::Text(package.name.clone()),
                replace,
            )
            .detail(package.description.clone())
            .documentation_of(DocumentationOf::Package(package.name.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::with_packages;

    #[test]
    fn packages_after_runs() {
        let items = with_packages("step A runs $0");
        assert_eq!(items.len(), 2, "{items:#?}");
        assert!(
            items[0].starts_with("ORCA.DFT [Geometry optimization"),
            "{items:#?}"
        );
        // A compound name half typed is replaced whole.
        let items = with_packages("step A runs ORCA.D$0 ();");
        assert!(items[0].ends_with("@ORCA.D"), "{items:#?}");
    }
}
