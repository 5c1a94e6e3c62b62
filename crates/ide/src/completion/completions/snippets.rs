//! The top-level snippets: `step`, `~step`, `require`, `[flow:`, and `pre`
//! and `post` after a parameter list.

use easyflow_diagnostics::{TextRange, TextSize};
use easyflow_syntax::SyntaxKind;

use super::super::context::CompletionContext;
use super::super::{CompletionItem, CompletionKind, Insert};
use crate::docs::keyword_doc;

/// The top-level snippets: label, snippet, the keyword documenting it.
const TOP_LEVEL: [(&str, &str, SyntaxKind); 4] = [
    (
        "step",
        "step ${1:Name} runs ${2:Package} ($0);",
        SyntaxKind::STEP_KW,
    ),
    (
        "~step",
        "~step ${1:Name} runs ${2:Package} ($0);",
        SyntaxKind::TILDE,
    ),
    ("require", "require ${1:file};", SyntaxKind::REQUIRE_KW),
    ("[flow:", "[flow:${1:name} = $0]", SyntaxKind::FLOW_KW),
];

const CODE_SECTIONS: [(&str, &str, SyntaxKind); 2] = [
    (
        "pre",
        "pre code ${1:python}\n$0\ncode end",
        SyntaxKind::PRE_KW,
    ),
    (
        "post",
        "post code ${1:python}\n$0\ncode end",
        SyntaxKind::POST_KW,
    ),
];

fn snippet(
    ctx: &CompletionContext<'_>,
    (label, snippet, kind): (&str, &str, SyntaxKind),
) -> CompletionItem {
    ctx.item(
        label,
        CompletionKind::Snippet,
        Insert::Snippet(snippet.to_string()),
    )
    .documentation(keyword_doc(kind).map(|(_, doc)| doc.to_string()))
}

/// Between top-level items (`after_params`: right after a parameter list).
pub(crate) fn top_level(ctx: &CompletionContext<'_>, after_params: bool) -> Vec<CompletionItem> {
    let code_sections: &[_] = if after_params { &CODE_SECTIONS } else { &[] };
    TOP_LEVEL
        .into_iter()
        .chain(code_sections.iter().copied())
        .map(|entry| snippet(ctx, entry))
        .collect()
}

/// After a step attribute: only a step may follow.
pub(crate) fn after_attribute(ctx: &CompletionContext<'_>) -> Vec<CompletionItem> {
    TOP_LEVEL[..2]
        .iter()
        .map(|&entry| snippet(ctx, entry))
        .collect()
}

/// After `~` at top level: `~step`, replacing from the `~` (at `start`).
pub(crate) fn tilde(ctx: &CompletionContext<'_>, start: TextSize) -> Vec<CompletionItem> {
    let mut item = snippet(ctx, TOP_LEVEL[1]);
    item.replace = TextRange::new(start, ctx.replace.end());
    vec![item]
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::super::tests::{check, render};

    #[test]
    fn top_level_snippets() {
        let expected = expect![[r#"
            Snippet step => snippet "step ${1:Name} runs ${2:Package} ($0);"
            Snippet ~step => snippet "~step ${1:Name} runs ${2:Package} ($0);"
            Snippet require => snippet "require ${1:file};"
            Snippet [flow: => snippet "[flow:${1:name} = $0]"
        "#]];
        expected.assert_eq(&render("$0", None));
        expected.assert_eq(&render(
            "[flow:name = \"x\"]\nrequire a;\n// comment\n$0\n",
            None,
        ));
        check(
            "step A runs P ();\nst$0",
            expect![[r#"
                Snippet step => snippet "step ${1:Name} runs ${2:Package} ($0);" ‹st›
                Snippet ~step => snippet "~step ${1:Name} runs ${2:Package} ($0);" ‹st›
                Snippet require => snippet "require ${1:file};" ‹st›
                Snippet [flow: => snippet "[flow:${1:name} = $0]" ‹st›
            "#]],
        );
        // Between steps, and after a parameter list without `;`.
        check(
            "step A runs P (x = 1)\n$0\nstep B runs Q ();",
            expect![[r#"
                Snippet step => snippet "step ${1:Name} runs ${2:Package} ($0);"
                Snippet ~step => snippet "~step ${1:Name} runs ${2:Package} ($0);"
                Snippet require => snippet "require ${1:file};"
                Snippet [flow: => snippet "[flow:${1:name} = $0]"
                Snippet pre => snippet "pre code ${1:python}\n$0\ncode end"
                Snippet post => snippet "post code ${1:python}\n$0\ncode end"
            "#]],
        );
        check(
            "[priority = @high]\nst$0\nstep B runs Q ();",
            expect![[r#"
                Snippet step => snippet "step ${1:Name} runs ${2:Package} ($0);" ‹st›
                Snippet ~step => snippet "~step ${1:Name} runs ${2:Package} ($0);" ‹st›
            "#]],
        );
        check(
            "step A runs P ();\n~st$0",
            expect![[r#"
                Snippet ~step => snippet "~step ${1:Name} runs ${2:Package} ($0);" ‹~st›
            "#]],
        );
        check(
            "step A runs P () post code ruby\n  x\ncode end\n$0",
            expect![[r#"
                Snippet step => snippet "step ${1:Name} runs ${2:Package} ($0);"
                Snippet ~step => snippet "~step ${1:Name} runs ${2:Package} ($0);"
                Snippet require => snippet "require ${1:file};"
                Snippet [flow: => snippet "[flow:${1:name} = $0]"
            "#]],
        );
    }
}
