//! After `priority =` or `mode =` in an attribute: the constants.

use super::super::context::CompletionContext;
use super::super::{CompletionItem, CompletionKind, Insert};
use crate::docs::constants_of;

/// The constants of the attribute `key`.
pub(crate) fn complete(ctx: &CompletionContext<'_>, key: &str) -> Vec<CompletionItem> {
    constants_of(key)
        .iter()
        .map(|(name, doc)| {
            let constant = format!("@{name}");
            ctx.item(
                &constant,
                CompletionKind::Constant,
                Insert::Text(constant.clone()),
            )
            .detail(Some(key.to_string()))
            .documentation(Some(doc.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::super::tests::{check, labels, render};

    #[test]
    fn constants() {
        let priority = expect![[r#"
            Constant @low
            Constant @normal
            Constant @high
        "#]];
        priority.assert_eq(&render("[priority = $0]\nstep A runs P ();", None));
        priority.assert_eq(&render("[flow:priority = $0", None));
        check(
            "[mode = @u$0]\nstep A runs P ();",
            expect![[r#"
                Constant @urgent ‹@u›
                Constant @normal ‹@u›
            "#]],
        );
        check(
            "[flow:mode = @$0]",
            expect![[r#"
                Constant @urgent ‹@›
                Constant @normal ‹@›
            "#]],
        );
        check(
            "[flow:mode = ur$0]",
            expect![[r#"
                Constant @urgent ‹ur›
                Constant @normal ‹ur›
            "#]],
        );
        // Other attribute values: neither constants nor steps.
        for text in [
            "step X runs P ();\n[memory = $0]\nstep A runs P ();",
            "step X runs P ();\n[requires = [$0]]\nstep A runs P ();",
            "step X runs P ();\n[flow:name = $0]",
        ] {
            assert_eq!(labels(text), Vec::<String>::new(), "{text}");
        }
        // A parameter named `priority` is a parameter.
        assert_eq!(
            labels("step X runs P ();\nstep A runs P (priority = $0);"),
            ["X"]
        );
    }
}
