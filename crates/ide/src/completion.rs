//! Completion, from the tokens left of the cursor: the parser recovers from
//! the incomplete code being typed, and the tokens are there whatever tree
//! it made of them. In three parts, as rust-analyzer's `ide-completion`:
//!
//! - `context.rs`: where the cursor stands (its `Site`), from the tokens
//!   before it;
//! - `completions/`: one producer per kind of item, each with its tests:
//!   - `snippets`: at top level, `step`, `~step`, `require`, `[flow:` (and
//!     `pre`, `post` after a parameter list);
//!   - `steps`: after `after`, `on`, or `,` in such a list, step names (not
//!     the current step nor those already listed); in expression position
//!     (after `=`, `<-`, `sweep`, in lists and indexers), step names (not
//!     the current step);
//!   - `files`: in expression position, the required files;
//!   - `members`: after `Step.`, `outs`, `Result`; after `Step.Result.`,
//!     `outs`;
//!   - `attribute_keys`: inside a step attribute's `[`, its keys (and
//!     `flow:`); after `[flow:`, the flow keys;
//!   - `constants`: after `priority =` or `mode =` in an attribute, the
//!     constants;
//!   - `capabilities`: inside a `requires` string, the topology's
//!     capability names;
//!   - `keywords`: in a step header, `runs` after the name, `after` after
//!     the package;
//!   - with a package catalog, `packages` after `runs` (the compound name,
//!     with its description), `params` inside the parentheses (required
//!     first, those given left out, with type and range), and
//!     `enum_values`, an Enum parameter's values after `param =`;
//! - `list.rs`: the list offered ([`CompletionList`]), cut to the best
//!   matches of what is typed;
//! - `resolve.rs`: the documentation left out of the list (of steps,
//!   required files, packages and parameters), for `completionItem/resolve`
//!   ([`DocumentationOf`]).

mod completions;
mod context;
mod list;
mod resolve;

use easyflow_db::{Db, SourceFile};
use easyflow_diagnostics::{TextRange, TextSize};

pub use list::{CompletionList, MAX_ITEMS, completion_list};
pub use resolve::{DocumentationOf, resolve_documentation};

use completions::{
    attribute_keys, capabilities, constants, enum_values, files, keywords, members, packages,
    params, snippets, steps,
};
use context::{CompletionContext, Site};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    /// A short line beside the label (a step's package, a key's form).
    pub detail: Option<String>,
    /// Markdown.
    pub documentation: Option<String>,
    /// Documentation left out of the list, to be computed for the item the
    /// client shows ([`resolve_documentation`]): what finds it again.
    pub documentation_of: Option<DocumentationOf>,
    pub insert: Insert,
    /// The partial word being completed, replaced by `insert` (empty at the
    /// cursor when nothing is typed yet).
    pub replace: TextRange,
    /// The order clients sort by, when it is not the label's (a package's
    /// required parameters first).
    pub sort_text: Option<String>,
}

impl CompletionItem {
    /// An item that replaces `replace` by `insert`, without detail,
    /// documentation or sort text.
    fn new(label: &str, kind: CompletionKind, insert: Insert, replace: TextRange) -> Self {
        CompletionItem {
            label: label.to_string(),
            kind,
            detail: None,
            documentation: None,
            documentation_of: None,
            insert,
            replace,
            sort_text: None,
        }
    }

    fn detail(mut self, detail: Option<String>) -> Self {
        self.detail = detail;
        self
    }

    fn documentation(mut self, documentation: Option<String>) -> Self {
        self.documentation = documentation;
        self
    }

    /// Documentation that [`resolve_documentation`] computes from `of`.
    fn documentation_of(mut self, of: DocumentationOf) -> Self {
        self.documentation_of = Some(of);
        self
    }

    fn sort_text(mut self, sort_text: String) -> Self {
        self.sort_text = Some(sort_text);
        self
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompletionKind {
    Keyword,
    Snippet,
    Step,
    File,
    Member,
    AttributeKey,
    Constant,
    Capability,
    /// A package of the catalog.
    Package,
    /// A parameter of a step's package.
    Parameter,
}

/// What replaces the partial word.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Insert {
    Text(String),
    /// LSP snippet syntax: `$1`, `${1:name}`, `$0`.
    Snippet(String),
}

/// The completions at `offset`.
pub fn completions(db: &dyn Db, file: SourceFile, offset: TextSize) -> Vec<CompletionItem> {
    collect(db, file, offset).items
}

/// The completions at `offset`, marked incomplete when step names were left
/// out (a large flow's, beyond the best [`MAX_ITEMS`] matches): each kind's
/// producer for the site of the cursor.
fn collect(db: &dyn Db, file: SourceFile, offset: TextSize) -> CompletionList {
    let Some(ctx) = CompletionContext::new(db, file, offset) else {
        return CompletionList::default();
    };
    match &ctx.site {
        Site::InString(string) => capabilities::complete(&ctx, string).into(),
        Site::TopLevel { after_params } => snippets::top_level(&ctx, *after_params).into(),
        Site::AfterAttribute => snippets::after_attribute(&ctx).into(),
        Site::Tilde(start) => snippets::tilde(&ctx, *start).into(),
        Site::AfterList => steps::after_list(&ctx),
        Site::Expression => {
            let mut list: CompletionList = enum_values::complete(&ctx).into();
            let steps = steps::in_expression(&ctx);
            list.items.extend(steps.items);
            list.is_incomplete |= steps.is_incomplete;
            list.items.extend(files::complete(&ctx));
            list
        }
        Site::Package(start) => packages::complete(&ctx, *start).into(),
        Site::ParamName => params::complete(&ctx).into(),
        Site::Member(members) => members::complete(&ctx, members).into(),
        Site::AttributeKey { flow } => attribute_keys::complete(&ctx, *flow).into(),
        Site::AttributeValue(key) => constants::complete(&ctx, key).into(),
        Site::Keyword(kind) => keywords::complete(&ctx, *kind).into(),
        Site::Nothing => CompletionList::default(),
    }
}

/// The helpers the producers' tests share.
#[cfg(test)]
pub(crate) mod tests {
    use std::fmt::Write;

    use expect_test::{Expect, expect};

    use super::*;
    use crate::fixture::{fixture, with_catalog, with_topology};

    /// One line per item: kind, label, what is inserted (when it differs
    /// from the label) and the replaced text in `‹›`.
    pub(crate) fn render(text: &str, topology: Option<&str>) -> String {
        let f = with_topology(text, topology);
        let items = completions(&f.db, f.file, f.offset);
        let mut out = String::new();
        for item in &items {
            let _ = write!(out, "{:?} {}", item.kind, item.label);
            match &item.insert {
                Insert::Text(t) if *t == item.label => {}
                Insert::Text(t) => {
                    let _ = write!(out, " => {t:?}");
                }
                Insert::Snippet(s) => {
                    let _ = write!(out, " => snippet {s:?}");
                }
            }
            if !item.replace.is_empty() {
                let _ = write!(out, " ‹{}›", &f.text[item.replace]);
            }
            out.push('\n');
        }
        if out.is_empty() {
            out.push_str("nothing\n");
        }
        out
    }

    pub(crate) fn check(text: &str, expect: Expect) {
        expect.assert_eq(&render(text, None));
    }

    pub(crate) fn labels(text: &str) -> Vec<String> {
        let f = fixture(text);
        completions(&f.db, f.file, f.offset)
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    /// With the catalog of `crate::catalog`'s tests: labels with their
    /// detail (and the sort text, when there is one), in the order a client
    /// sorts them.
    pub(crate) fn with_packages(text: &str) -> Vec<String> {
        let f = with_catalog(text, crate::fixture::CATALOG);
        let mut items = completions(&f.db, f.file, f.offset);
        items.sort_by(|a, b| {
            let key = |i: &CompletionItem| i.sort_text.clone().unwrap_or_else(|| i.label.clone());
            key(a).cmp(&key(b))
        });
        items
            .iter()
            .map(|i| {
                format!(
                    "{} [{}] {:?} @{}",
                    i.label,
                    i.detail.as_deref().unwrap_or(""),
                    i.insert,
                    &f.text[i.replace]
                )
            })
            .collect()
    }

    pub(crate) const STEPS: &str =
        "require data, more, data;\nstep Load runs Loader.Read ();\nstep Other runs P ();\n";

    #[test]
    fn expressions() {
        let expected = expect![[r#"
            Step Load
            Step Other
            File data
            File more
        "#]];
        for text in [
            "step Third runs P (x = $0);",
            "step Third runs P (x = L$0);",
            "step Third runs P (x = [Load, $0]);",
            "step Third runs P (x = [$0",
            "step Third runs P (x = sweep $0);",
            "~step Third runs P (x <- $0);",
            "step Third runs P (x = Load.outs[$0]);",
            "step Third runs P (x = 1, y = $0\n",
        ] {
            let f = fixture(&format!("{STEPS}{text}"));
            let rendered: String = completions(&f.db, f.file, f.offset)
                .iter()
                .map(|i| format!("{:?} {}\n", i.kind, i.label))
                .collect();
            expected.assert_eq(&rendered);
        }
        // Details: the package, or "required file".
        let f = fixture(&format!("{STEPS}step Third runs P (x = Lo$0);"));
        let items = completions(&f.db, f.file, f.offset);
        assert_eq!(items[0].detail.as_deref(), Some("Loader.Read"));
        assert_eq!(items[2].detail.as_deref(), Some("required file"));
        assert_eq!(&f.text[items[0].replace], "Lo");
    }

    #[test]
    fn while_typing_in_the_middle_of_a_file() {
        let tail = "\nstep Later runs Q (z = data);\n";
        check(
            &format!("{STEPS}step T runs P (x = $0{tail}"),
            expect![[r#"
                Step Load
                Step Other
                Step Later
                File data
                File more
            "#]],
        );
        check(
            &format!("{STEPS}step T runs P after Other, $0{tail}"),
            expect![[r#"
                Step Load
                Step Later
            "#]],
        );
        check(
            &format!("{STEPS}step T runs P (x = Load.$0{tail}"),
            expect![[r#"
                Member outs
                Member Result
            "#]],
        );
        check(
            &format!("{STEPS}[$0{tail}"),
            expect![[r#"
                AttributeKey priority => snippet "priority = $0"
                AttributeKey mode => snippet "mode = $0"
                AttributeKey requires => snippet "requires = $0"
                AttributeKey memory => snippet "memory = $0"
                Keyword flow: => snippet "flow:${1:name} = $0"
            "#]],
        );
        check(
            &format!("{STEPS}[mode = $0{tail}"),
            expect![[r#"
                Constant @urgent
                Constant @normal
            "#]],
        );
    }

    #[test]
    fn out_of_range_and_empty() {
        let f = fixture("step A runs P ();");
        assert!(completions(&f.db, f.file, TextSize::from(1000)).is_empty());
        assert_eq!(labels("$0").len(), 4);
    }
}
