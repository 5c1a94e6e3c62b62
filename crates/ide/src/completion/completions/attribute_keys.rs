//! Inside a step attribute's `[`: its keys (and `flow:`); after `[flow:`:
//! the flow keys.

use easyflow_db::attributes::{FLOW_ATTRIBUTES, STEP_ATTRIBUTES};
use easyflow_syntax::SyntaxKind;

use super::super::context::CompletionContext;
use super::super::{CompletionItem, CompletionKind, Insert};
use crate::docs::{flow_attribute_doc, keyword_doc, step_attribute_doc};

/// The form and documentation of an attribute key.
type Documentation = fn(&str) -> Option<(&'static str, &'static str)>;

pub(crate) fn complete(ctx: &CompletionContext<'_>, flow: bool) -> Vec<CompletionItem> {
    let (keys, doc): (&[&str], Documentation) = if flow {
        (FLOW_ATTRIBUTES, flow_attribute_doc)
    } else {
        (STEP_ATTRIBUTES, step_attribute_doc)
    };
    let has_value = ctx.next_token().is_some_and(|t| t.kind() == SyntaxKind::EQ);
    let mut items: Vec<CompletionItem> = keys
        .iter()
        .map(|key| {
            let (form, documentation) = doc(key).unzip();
            let insert = if has_value {
                Insert::Text(key.to_string())
            } else {
                Insert::Snippet(format!("{key} = $0"))
            };
            ctx.item(key, CompletionKind::AttributeKey, insert)
                .detail(form.map(str::to_string))
                .documentation(documentation.map(str::to_string))
        })
        .collect();
    if !flow {
        items.push(
            ctx.item(
                "flow:",
                CompletionKind::Keyword,
                Insert::Snippet("flow:${1:name} = $0".to_string()),
            )
            .detail(Some("a flow attribute".to_string()))
            .documentation(keyword_doc(SyntaxKind::FLOW_KW).map(|(_, doc)| doc.to_string())),
        );
    }
    items
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::super::completions;
    use super::super::super::tests::{check, labels};
    use crate::fixture::fixture;

    #[test]
    fn attribute_keys() {
        check(
            "[$0\nstep A runs P ();",
            expect![[r#"
                AttributeKey priority => snippet "priority = $0"
                AttributeKey mode => snippet "mode = $0"
                AttributeKey requires => snippet "requires = $0"
                AttributeKey memory => snippet "memory = $0"
                Keyword flow: => snippet "flow:${1:name} = $0"
            "#]],
        );
        check(
            "step A runs P ();\n[pr$0 = @high]\nstep B runs P ();",
            expect![[r#"
                AttributeKey priority ‹pr›
                AttributeKey mode ‹pr›
                AttributeKey requires ‹pr›
                AttributeKey memory ‹pr›
                Keyword flow: => snippet "flow:${1:name} = $0" ‹pr›
            "#]],
        );
        check(
            "[flow:$0",
            expect![[r#"
                AttributeKey name => snippet "name = $0"
                AttributeKey author => snippet "author = $0"
                AttributeKey description => snippet "description = $0"
                AttributeKey priority => snippet "priority = $0"
                AttributeKey mode => snippet "mode = $0"
                AttributeKey maxDuration => snippet "maxDuration = $0"
            "#]],
        );
        assert_eq!(labels("[flow:ma$0]\nrequire a;").len(), 6);
        assert!(labels("[fl$0").contains(&"flow:".to_string()));
        let f = fixture("[$0");
        let items = completions(&f.db, f.file, f.offset);
        assert_eq!(
            items[2].detail.as_deref(),
            Some("requires = \"compute+GPU\"")
        );
        assert!(
            items[2]
                .documentation
                .as_deref()
                .unwrap()
                .contains("capabilities")
        );
    }
}
