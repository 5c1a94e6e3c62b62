//! Inside the parentheses, in the application section, with a catalog:
//! the package's parameters that are not given yet (the word being typed
//! aside), required first, with their type and range.

use std::collections::HashSet;

use easyflow_syntax::ast::{self, AstNode};
use easyflow_syntax::{SyntaxKind, SyntaxToken};

use super::super::context::CompletionContext;
use super::super::{CompletionItem, CompletionKind, DocumentationOf, Insert};

pub(crate) fn complete(ctx: &CompletionContext<'_>) -> Vec<CompletionItem> {
    let Some(before) = &ctx.before else {
        return Vec::new();
    };
    let Some(catalog) = easyflow_db::catalog::catalog_of(ctx.db, ctx.file) else {
        return Vec::new();
    };
    let Some((step, package)) = step_package(catalog, before) else {
        return Vec::new();
    };
    let in_exec = before
        .parent_ancestors()
        .find_map(ast::ParamSection::cast)
        .is_some_and(|s| s.kind() == ast::SectionKind::Exec);
    if in_exec {
        return Vec::new();
    }
    let has_value = ctx
        .next_token()
        .is_some_and(|t| matches!(t.kind(), SyntaxKind::EQ | SyntaxKind::ARROW));
    let typed = ctx.word.as_ref().map(SyntaxToken::text_range);
    let given: HashSet<String> = step
        .param_block()
        .into_iter()
        .flat_map(|block| block.sections())
        .filter(|s| s.kind() == ast::SectionKind::App)
        .flat_map(|s| s.params())
        .filter_map(|p| p.name())
        .filter(|name| Some(name.syntax().text_range()) != typed)
        .map(|name| name.text())
        .collect();
    package
        .params_required_first()
        .filter(|p| !given.contains(&p.name))
        .enumerate()
        .map(|(i, param)| {
            let insert = if has_value {
                Insert::Text(param.name.clone())
            } else {
                Insert::Snippet(format!("{} = $0", param.name))
            };
            ctx.item(&param.name, CompletionKind::Parameter, insert)
                .detail(Some(param_detail(param)))
                .documentation_of(DocumentationOf::Param {
                    package: package.name.clone(),
                    param: param.name.clone(),
                })
                .sort_text(format!("{i:04}"))
        })
        .collect()
}

/// The step whose parameter list holds `token`, and the package it runs.
pub(super) fn step_package<'c>(
    catalog: &'c easyflow_catalog::Catalog,
    token: &SyntaxToken,
) -> Option<(ast::Step, &'c easyflow_catalog::Package)> {
    let step = token.parent_ancestors().find_map(ast::Step::cast)?;
    let package = catalog.package(&step.package()?.syntax().text().to_string())?;
    Some((step, package))
}

/// `Int (-10..=10), required`.
fn param_detail(param: &easyflow_catalog::Param) -> String {
    let mut detail = param.type_name().to_string();
    if let Some(range) = param.range_text() {
        detail.push_str(&format!(" ({range})"));
    }
    if param.is_required() {
        detail.push_str(", required");
    }
    detail
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::with_packages;

    #[test]
    fn parameters_required_first_and_given_ones_left_out() {
        expect_test::expect![[r#"
            [
                "input [File, required] Snippet(\"input = $0\") @",
                "charge [Int (-10..=10), required] Snippet(\"charge = $0\") @",
                "method [Enum (\"B3LYP\" | \"PBE0\")] Snippet(\"method = $0\") @",
            ]
        "#]]
        .assert_debug_eq(&with_packages("step A runs ORCA.DFT ($0);"));
        expect_test::expect![[r#"
            [
                "charge [Int (-10..=10), required] Text(\"charge\") @me",
                "method [Enum (\"B3LYP\" | \"PBE0\")] Text(\"method\") @me",
            ]
        "#]]
        .assert_debug_eq(&with_packages(
            "step A runs ORCA.DFT (input = x, me$0 = 1);",
        ));
        // The platform's section has none of the package's.
        assert_eq!(
            with_packages("step A runs ORCA.DFT (exec: $0);"),
            Vec::<String>::new()
        );
        // No catalog entry: nothing.
        assert_eq!(
            with_packages("step A runs Other.Pkg ($0);"),
            Vec::<String>::new()
        );
    }
}
