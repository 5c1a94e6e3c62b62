//! One keyword of a step header: `runs` after the name, `after` after the
//! package.

use easyflow_syntax::SyntaxKind;

use super::super::context::CompletionContext;
use super::super::{CompletionItem, CompletionKind, Insert};
use crate::docs::keyword_doc;

pub(crate) fn complete(ctx: &CompletionContext<'_>, kind: SyntaxKind) -> Vec<CompletionItem> {
    let label = match kind {
        SyntaxKind::RUNS_KW => "runs",
        _ => "after",
    };
    vec![
        ctx.item(
            label,
            CompletionKind::Keyword,
            Insert::Text(label.to_string()),
        )
        .documentation(keyword_doc(kind).map(|(_, doc)| doc.to_string())),
    ]
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::super::tests::check;

    #[test]
    fn step_header_keywords() {
        check(
            "step A $0",
            expect![[r#"
                Keyword runs
            "#]],
        );
        check(
            "step A ru$0 P ();",
            expect![[r#"
                Keyword runs ‹ru›
            "#]],
        );
        check(
            "step A runs Pkg.M af$0",
            expect![[r#"
                Keyword after ‹af›
            "#]],
        );
    }
}
