//! After `param =` of an Enum parameter, with a catalog: its values, as
//! strings.

use easyflow_syntax::SyntaxKind;
use easyflow_syntax::ast::{self, AstNode};

use super::super::context::CompletionContext;
use super::super::{CompletionItem, CompletionKind, Insert};
use super::params::step_package;

pub(crate) fn complete(ctx: &CompletionContext<'_>) -> Vec<CompletionItem> {
    let Some(before) = ctx.before.as_ref().filter(|b| b.kind() == SyntaxKind::EQ) else {
        return Vec::new();
    };
    let Some(catalog) = easyflow_db::catalog::catalog_of(ctx.db, ctx.file) else {
        return Vec::new();
    };
    let Some(param) = before.parent().and_then(ast::Param::cast) else {
        return Vec::new();
    };
    let Some(name) = param.name().map(|n| n.text()) else {
        return Vec::new();
    };
    let Some((_, package)) = step_package(catalog, before) else {
        return Vec::new();
    };
    let Some(declared) = package.param(&name) else {
        return Vec::new();
    };
    declared
        .values
        .iter()
        .enumerate()
        .map(|(i, value)| {
            let quoted = format!("{value:?}");
            ctx.item(
                &quoted,
                CompletionKind::Constant,
                Insert::Text(quoted.clone()),
            )
            .detail(Some(format!("{} of `{}`", declared.type_name(), name)))
            .documentation(declared.description.clone())
            .sort_text(format!("!{i:04}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::with_packages;

    #[test]
    fn enum_values_after_the_parameter() {
        let items = with_packages("step A runs ORCA.DFT (method = $0);");
        assert!(
            items[0].starts_with("\"B3LYP\" [Enum of `method`]"),
            "{items:#?}"
        );
        assert!(items[1].starts_with("\"PBE0\""), "{items:#?}");
    }
}
