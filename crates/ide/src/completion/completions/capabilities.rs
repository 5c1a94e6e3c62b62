//! Inside a string that is a step's `requires` value: the capability names
//! of the topology (not those already in the string).

use std::collections::HashSet;

use easyflow_db::parse_topology;
use easyflow_syntax::ast::{self, AstNode};
use easyflow_syntax::{SyntaxKind, SyntaxToken};

use super::super::context::CompletionContext;
use super::super::{CompletionItem, CompletionKind, Insert};
use crate::render::providers;
use crate::tokens::word_range_in_string;

pub(crate) fn complete(ctx: &CompletionContext<'_>, string: &SyntaxToken) -> Vec<CompletionItem> {
    let Some(literal) = string.parent() else {
        return Vec::new();
    };
    let attribute = literal
        .ancestors()
        .take_while(|n| !matches!(n.kind(), SyntaxKind::STEP | SyntaxKind::SOURCE_FILE))
        .find_map(ast::Attribute::cast);
    let is_requires = attribute
        .and_then(|a| a.key())
        .is_some_and(|key| key.text() == "requires");
    let Some(topology) = ctx.file.topology(ctx.db).filter(|_| is_requires) else {
        return Vec::new();
    };
    let topology = parse_topology(ctx.db, topology);
    let replace = word_range_in_string(string, ctx.offset);
    let start = string.text_range().start();
    let text = string.text();
    let (before, after) = (
        &text[..usize::from(replace.start() - start)],
        &text[usize::from(replace.end() - start)..],
    );
    let written: HashSet<&str> = [before, after]
        .into_iter()
        .flat_map(|part| part.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .filter(|w| !w.is_empty())
        .collect();
    topology
        .capability_names()
        .into_iter()
        .filter(|name| !written.contains(name))
        .map(|name| {
            let workers: Vec<&str> = topology
                .workers
                .iter()
                .filter(|w| w.has_capability(name))
                .map(|w| w.name())
                .collect();
            CompletionItem::new(
                name,
                CompletionKind::Capability,
                Insert::Text(name.to_string()),
                replace,
            )
            .detail(Some(workers.join(", ")))
            .documentation(Some(format!("provided by {}", providers(topology, name))))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::super::super::completions;
    use super::super::super::tests::{labels, render};
    use crate::fixture::with_topology;

    #[test]
    fn capabilities_in_requires() {
        let topology = Some("compute+CPU:24 compute+GPU:2 IO+load:2 // c\n");
        let check = |text: &str, expect: Expect| expect.assert_eq(&render(text, topology));
        check(
            "[requires = \"$0\"]\nstep A runs P ();",
            expect![[r#"
                Capability compute
                Capability CPU
                Capability GPU
                Capability IO
                Capability load
            "#]],
        );
        check(
            "[requires = \"compute+G$0\"]\nstep A runs P ();",
            expect![[r#"
                Capability CPU ‹G›
                Capability GPU ‹G›
                Capability IO ‹G›
                Capability load ‹G›
            "#]],
        );
        check(
            "[requires = [\"compute\", \"$0\"]]\nstep A runs P ();",
            expect![[r#"
                Capability compute
                Capability CPU
                Capability GPU
                Capability IO
                Capability load
            "#]],
        );
        check(
            "[requires = \"compute+$0\"]\nstep A runs P ();",
            expect![[r#"
                Capability CPU
                Capability GPU
                Capability IO
                Capability load
            "#]],
        );
        // Typed while the string is still open (it runs to the end of the file).
        check(
            "[requires = \"GPU+com$0\nstep A runs P ();",
            expect![[r#"
                Capability compute ‹com›
                Capability CPU ‹com›
                Capability IO ‹com›
                Capability load ‹com›
            "#]],
        );
        let f = with_topology("[requires = \"G$0\"]\nstep A runs P ();", topology);
        let items = completions(&f.db, f.file, f.offset);
        let gpu = items.iter().find(|i| i.label == "GPU").unwrap();
        assert_eq!(gpu.detail.as_deref(), Some("compute+GPU"));
        assert_eq!(
            gpu.documentation.as_deref(),
            Some("provided by `compute+GPU` (2 per node)")
        );
        // Not `requires`, or no topology: nothing.
        check(
            "[memory = \"G$0\"]\nstep A runs P ();",
            expect!["nothing\n"],
        );
        assert_eq!(
            labels("[requires = \"G$0\"]\nstep A runs P ();"),
            Vec::<String>::new()
        );
    }
}
