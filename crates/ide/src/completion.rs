//! Completion, from the tokens left of the cursor: the parser recovers from
//! the incomplete code being typed, and the tokens are there whatever tree
//! it made of them.
//!
//! - top level: `step`, `~step`, `require`, `[flow:` snippets (and `pre`,
//!   `post` after a parameter list);
//! - after `after`, `on`, or `,` in such a list: step names, not the current
//!   step nor those already listed;
//! - in expression position (after `=`, `<-`, `sweep`, in lists and
//!   indexers): step names (not the current step) and required files;
//! - after `Step.`: `outs`, `Result`; after `Step.Result.`: `outs`;
//! - inside a step attribute's `[`: its keys (and `flow:`); after `[flow:`:
//!   the flow keys; after `priority =` or `mode =` in an attribute: the
//!   constants;
//! - inside a `requires` string: the topology's capability names;
//! - in a step header: `runs` after the name, `after` after the package;
//! - with a package catalog: the packages after `runs` (the compound name,
//!   with its description), the package's parameters inside the parentheses
//!   (required first, those given left out, with type and range), an Enum
//!   parameter's values after `param =`.

use std::borrow::Cow;
use std::collections::HashSet;

use easyflow_db::attributes::{FLOW_ATTRIBUTES, STEP_ATTRIBUTES};
use easyflow_db::{Db, SourceFile, StepId, item_index, name_resolution, parse, parse_topology};
use easyflow_diagnostics::{TextRange, TextSize};
use easyflow_syntax::ast::{self, AstNode};
use easyflow_syntax::{SourceText, StepMember, SyntaxKind, SyntaxNode, SyntaxToken};

use crate::defs;
use crate::docs::{constants_of, flow_attribute_doc, keyword_doc, member_doc, step_attribute_doc};
use crate::render::providers;
use crate::tokens::{token_at, token_left_of, word_range_in_string};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    /// A short line beside the label (a step's package, a key's form).
    pub detail: Option<String>,
    /// Markdown.
    pub documentation: Option<String>,
    pub insert: Insert,
    /// The partial word being completed, replaced by `insert` (empty at the
    /// cursor when nothing is typed yet).
    pub replace: TextRange,
    /// The order clients sort by, when it is not the label's (a package's
    /// required parameters first).
    pub sort_text: Option<String>,
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

/// Where the cursor stands, from the tokens before it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Context {
    /// Between top-level items.
    TopLevel {
        /// After a parameter list's `)` (`pre`/`post` may follow).
        after_params: bool,
    },
    /// After a step attribute: only a step may follow.
    AfterAttribute,
    /// After `~` at top level: `~step`, replacing from the `~`.
    Tilde(TextSize),
    /// An `after`/`on` list.
    AfterList,
    /// A parameter value.
    Expression,
    /// After `Step.` or `Step.Result.`: the members that may stand there.
    Member(&'static [StepMember]),
    StepAttributeKey,
    FlowAttributeKey,
    /// The value of an attribute with this key.
    AttributeValue(String),
    /// One keyword of a step header.
    Keyword(SyntaxKind),
    /// The compound package name after `runs`, written from this offset
    /// (`None`: the word at the cursor is all of it).
    Package(Option<TextSize>),
    /// A parameter name in a step's application parameters.
    ParamName,
    Nothing,
}

/// The completions at `offset`.
pub fn completions(db: &dyn Db, file: SourceFile, offset: TextSize) -> Vec<CompletionItem> {
    collect(db, file, offset).items
}

/// The completions at `offset`, marked incomplete when step names were left
/// out (a large flow's, beyond the best [`MAX_ITEMS`] matches).
fn collect(db: &dyn Db, file: SourceFile, offset: TextSize) -> CompletionList {
    if offset > file.text(db).len() {
        return CompletionList::default();
    }
    let root = parse(db, file).syntax();
    let left = token_left_of(&root, offset);
    if let Some(left) = &left
        && is_inside(left, offset)
    {
        return match left.kind() {
            SyntaxKind::STRING => capabilities(db, file, left, offset).into(),
            _ => CompletionList::default(),
        };
    }
    let word = left.clone().filter(is_word);
    let replace = word
        .as_ref()
        .map_or(TextRange::empty(offset), |w| w.text_range());
    let before = match (&word, &left) {
        (Some(word), _) => previous(word),
        (None, Some(left)) if !left.kind().is_trivia() => Some(left.clone()),
        (None, Some(left)) => previous(left),
        (None, None) => None,
    };
    let context = classify(db, file, before.as_ref());
    let mut items = Vec::new();
    let mut add = |label: &str, kind, detail: Option<String>, documentation, insert| {
        items.push(CompletionItem {
            label: label.to_string(),
            kind,
            detail,
            documentation,
            insert,
            replace,
            sort_text: None,
        })
    };
    match context {
        Context::TopLevel { after_params } => {
            for (label, snippet, kind) in TOP_LEVEL {
                add(
                    label,
                    CompletionKind::Snippet,
                    None,
                    keyword_doc(kind).map(|(_, doc)| doc.to_string()),
                    Insert::Snippet(snippet.to_string()),
                );
            }
            if after_params {
                for (label, snippet, kind) in CODE_SECTIONS {
                    add(
                        label,
                        CompletionKind::Snippet,
                        None,
                        keyword_doc(kind).map(|(_, doc)| doc.to_string()),
                        Insert::Snippet(snippet.to_string()),
                    );
                }
            }
        }
        Context::AfterAttribute => {
            for (label, snippet, kind) in &TOP_LEVEL[..2] {
                add(
                    label,
                    CompletionKind::Snippet,
                    None,
                    keyword_doc(*kind).map(|(_, doc)| doc.to_string()),
                    Insert::Snippet(snippet.to_string()),
                );
            }
        }
        Context::Tilde(start) => {
            let (label, snippet, kind) = TOP_LEVEL[1];
            items.push(CompletionItem {
                label: label.to_string(),
                kind: CompletionKind::Snippet,
                detail: None,
                documentation: keyword_doc(kind).map(|(_, doc)| doc.to_string()),
                insert: Insert::Snippet(snippet.to_string()),
                replace: TextRange::new(start, replace.end()),
                sort_text: None,
            });
        }
        Context::AfterList => {
            let current = current_step(db, file, before.as_ref(), offset);
            let typed = word.as_ref().map(|w| w.text().to_string());
            let prefix = typed_prefix(file.text(db), replace, offset);
            return step_names(db, file, current, Some(typed.as_deref()), replace, &prefix);
        }
        Context::Expression => {
            let current = current_step(db, file, before.as_ref(), offset);
            let prefix = typed_prefix(file.text(db), replace, offset);
            let mut list: CompletionList = before
                .as_ref()
                .map(|b| enum_values(db, file, b, replace))
                .unwrap_or_default()
                .into();
            let steps = step_names(db, file, current, None, replace, &prefix);
            list.items.extend(steps.items);
            list.is_incomplete |= steps.is_incomplete;
            list.items.extend(file_names(db, file, replace));
            return list;
        }
        Context::Package(start) => {
            let start = start.unwrap_or(replace.start());
            return packages(db, file, TextRange::new(start, replace.end())).into();
        }
        Context::ParamName => {
            let Some(before) = &before else {
                return CompletionList::default();
            };
            let has_value = next(word.as_ref(), left.as_ref(), &root, offset)
                .is_some_and(|t| matches!(t.kind(), SyntaxKind::EQ | SyntaxKind::ARROW));
            return param_names(db, file, before, word.as_ref(), has_value, replace).into();
        }
        Context::Member(members) => {
            for &member in members {
                add(
                    member.name(),
                    CompletionKind::Member,
                    Some(member.summary().to_string()),
                    Some(member_doc(member).1.to_string()),
                    Insert::Text(member.name().to_string()),
                );
            }
        }
        Context::StepAttributeKey | Context::FlowAttributeKey => {
            let flow = context == Context::FlowAttributeKey;
            let (keys, doc): (&[&str], Documentation) = if flow {
                (FLOW_ATTRIBUTES, flow_attribute_doc)
            } else {
                (STEP_ATTRIBUTES, step_attribute_doc)
            };
            let has_value = next(word.as_ref(), left.as_ref(), &root, offset)
                .is_some_and(|t| t.kind() == SyntaxKind::EQ);
            for key in keys {
                let (form, documentation) = doc(key).unzip();
                let insert = if has_value {
                    Insert::Text(key.to_string())
                } else {
                    Insert::Snippet(format!("{key} = $0"))
                };
                add(
                    key,
                    CompletionKind::AttributeKey,
                    form.map(str::to_string),
                    documentation.map(str::to_string),
                    insert,
                );
            }
            if !flow {
                add(
                    "flow:",
                    CompletionKind::Keyword,
                    Some("a flow attribute".to_string()),
                    keyword_doc(SyntaxKind::FLOW_KW).map(|(_, doc)| doc.to_string()),
                    Insert::Snippet("flow:${1:name} = $0".to_string()),
                );
            }
        }
        Context::AttributeValue(key) => {
            for (name, doc) in constants_of(&key) {
                add(
                    &format!("@{name}"),
                    CompletionKind::Constant,
                    Some(key.clone()),
                    Some(doc.to_string()),
                    Insert::Text(format!("@{name}")),
                );
            }
        }
        Context::Keyword(kind) => {
            let label = match kind {
                SyntaxKind::RUNS_KW => "runs",
                _ => "after",
            };
            add(
                label,
                CompletionKind::Keyword,
                None,
                keyword_doc(kind).map(|(_, doc)| doc.to_string()),
                Insert::Text(label.to_string()),
            );
        }
        Context::Nothing => {}
    }
    items.into()
}

/// The step being edited: the one holding the token before the word (the
/// cursor may be in whitespace past the end of an incomplete step).
fn current_step(
    db: &dyn Db,
    file: SourceFile,
    before: Option<&SyntaxToken>,
    offset: TextSize,
) -> Option<StepId> {
    before
        .and_then(|t| t.parent_ancestors().find(|n| n.kind() == SyntaxKind::STEP))
        .and_then(|step| defs::step_at(db, file, step.text_range().start()))
        .or_else(|| defs::step_at(db, file, offset))
}

/// The form and documentation of an attribute key.
type Documentation = fn(&str) -> Option<(&'static str, &'static str)>;

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

/// Whether the cursor is inside `token` (which holds the byte before it)
/// so that nothing of the language can be typed there: a string, a
/// comment, a code block, unless the cursor is just past its end.
fn is_inside(token: &SyntaxToken, offset: TextSize) -> bool {
    let text = token.text();
    let at_end = offset == token.text_range().end();
    match token.kind() {
        SyntaxKind::LINE_COMMENT => true,
        SyntaxKind::STRING => !at_end || !string_closed(text),
        SyntaxKind::BLOCK_COMMENT => !at_end || text.len() < 4 || !text.ends_with("*/"),
        SyntaxKind::CODE_BLOCK => {
            let last = text.trim_end().rsplit('\n').next().unwrap_or("");
            !at_end || !text.contains('\n') || !last.split_whitespace().eq(["code", "end"])
        }
        _ => false,
    }
}

/// Whether a string token has its closing quote (an unclosed one runs to
/// the end of the file).
fn string_closed(text: &str) -> bool {
    let Some(body) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) else {
        return false;
    };
    let backslashes = body.bytes().rev().take_while(|b| *b == b'\\').count();
    backslashes % 2 == 0
}

/// Tokens that are (part of) the word being completed.
fn is_word(token: &SyntaxToken) -> bool {
    match token.kind() {
        SyntaxKind::IDENT | SyntaxKind::CONSTANT => true,
        // `@` alone is no token yet.
        SyntaxKind::ERROR => token.text().starts_with('@'),
        kind => kind.is_keyword(),
    }
}

/// The non-trivia token before `token`.
fn previous(token: &SyntaxToken) -> Option<SyntaxToken> {
    let mut at = token.prev_token();
    while let Some(token) = &at {
        if !token.kind().is_trivia() {
            break;
        }
        at = token.prev_token();
    }
    at
}

/// The first non-trivia token after the word (or the cursor).
fn next(
    word: Option<&SyntaxToken>,
    left: Option<&SyntaxToken>,
    root: &SyntaxNode,
    offset: TextSize,
) -> Option<SyntaxToken> {
    let mut at = match word.or(left) {
        Some(token) => token.next_token(),
        None => token_at(root, offset),
    };
    while let Some(token) = &at {
        if !token.kind().is_trivia() {
            break;
        }
        at = token.next_token();
    }
    at
}

fn kind_of(token: Option<&SyntaxToken>) -> Option<SyntaxKind> {
    token.map(SyntaxToken::kind)
}

fn parent_kind(token: &SyntaxToken) -> Option<SyntaxKind> {
    token.parent().map(|p| p.kind())
}

/// What can be typed after `before`, the last non-trivia token before the
/// word (`None` at the start of the file).
fn classify(db: &dyn Db, file: SourceFile, before: Option<&SyntaxToken>) -> Context {
    if let Some(context) = top_level(before) {
        return context;
    }
    let Some(before) = before else {
        return Context::Nothing;
    };
    match before.kind() {
        SyntaxKind::TILDE if top_level(previous(before).as_ref()).is_some() => {
            Context::Tilde(before.text_range().start())
        }
        SyntaxKind::AFTER_KW | SyntaxKind::ON_KW => Context::AfterList,
        SyntaxKind::COMMA => match parent_kind(before) {
            Some(SyntaxKind::AFTER_CLAUSE | SyntaxKind::ON_CLAUSE) => Context::AfterList,
            Some(SyntaxKind::LIST_EXPR) => expression(before),
            Some(SyntaxKind::PARAM_SECTION | SyntaxKind::PARAM_BLOCK) => Context::ParamName,
            _ if in_after_list(before) => Context::AfterList,
            _ => Context::Nothing,
        },
        SyntaxKind::ARROW | SyntaxKind::SWEEP_KW => expression(before),
        SyntaxKind::EQ => {
            let key = previous(before);
            let opener = key.as_ref().and_then(previous);
            match (kind_of(key.as_ref()), kind_of(opener.as_ref())) {
                (Some(SyntaxKind::IDENT), Some(SyntaxKind::L_BRACK)) => {
                    Context::AttributeValue(key.map(|k| k.text().to_string()).unwrap_or_default())
                }
                (Some(SyntaxKind::IDENT), Some(SyntaxKind::COLON))
                    if kind_of(opener.as_ref().and_then(previous).as_ref())
                        == Some(SyntaxKind::FLOW_KW) =>
                {
                    Context::AttributeValue(key.map(|k| k.text().to_string()).unwrap_or_default())
                }
                _ => expression(before),
            }
        }
        SyntaxKind::L_BRACK => match parent_kind(before) {
            Some(SyntaxKind::LIST_EXPR | SyntaxKind::INDEXER) => expression(before),
            Some(SyntaxKind::ATTRIBUTE | SyntaxKind::FLOW_ATTRIBUTE) => Context::StepAttributeKey,
            // In recovered code: an attribute where a top-level item may
            // start, else a list or an indexer.
            _ => match top_level(previous(before).as_ref()) {
                Some(_) => Context::StepAttributeKey,
                None => expression(before),
            },
        },
        SyntaxKind::COLON if kind_of(previous(before).as_ref()) == Some(SyntaxKind::FLOW_KW) => {
            Context::FlowAttributeKey
        }
        SyntaxKind::RUNS_KW => Context::Package(None),
        SyntaxKind::DOT if parent_kind(before) == Some(SyntaxKind::PACKAGE_PATH) => {
            Context::Package(Some(package_start(before)))
        }
        SyntaxKind::L_PAREN if parent_kind(before) == Some(SyntaxKind::PARAM_BLOCK) => {
            Context::ParamName
        }
        SyntaxKind::COLON if kind_of(previous(before).as_ref()) == Some(SyntaxKind::APP_KW) => {
            Context::ParamName
        }
        SyntaxKind::DOT => member(db, file, before),
        SyntaxKind::IDENT => match (
            parent_kind(before),
            before.parent().and_then(|p| p.parent()),
        ) {
            (Some(SyntaxKind::NAME), Some(step)) if step.kind() == SyntaxKind::STEP => {
                Context::Keyword(SyntaxKind::RUNS_KW)
            }
            (Some(SyntaxKind::PACKAGE_PATH), _) => Context::Keyword(SyntaxKind::AFTER_KW),
            _ => Context::Nothing,
        },
        _ => Context::Nothing,
    }
}

/// The top-level context when `before` ends a top-level item (or is the
/// start of the file).
fn top_level(before: Option<&SyntaxToken>) -> Option<Context> {
    let Some(before) = before else {
        return Some(Context::TopLevel {
            after_params: false,
        });
    };
    match before.kind() {
        SyntaxKind::SEMICOLON | SyntaxKind::CODE_BLOCK => Some(Context::TopLevel {
            after_params: false,
        }),
        SyntaxKind::R_PAREN if parent_kind(before) == Some(SyntaxKind::PARAM_BLOCK) => {
            Some(Context::TopLevel { after_params: true })
        }
        SyntaxKind::R_BRACK => match parent_kind(before) {
            Some(SyntaxKind::FLOW_ATTRIBUTE) => Some(Context::TopLevel {
                after_params: false,
            }),
            Some(SyntaxKind::ATTRIBUTE) => Some(Context::AfterAttribute),
            _ => None,
        },
        _ => None,
    }
}

/// A `,` in an `after`/`on` list the parser did not keep as one: the
/// tokens before it alternate names and commas back to `after`/`on`.
fn in_after_list(comma: &SyntaxToken) -> bool {
    let mut at = previous(comma);
    loop {
        match kind_of(at.as_ref()) {
            Some(SyntaxKind::IDENT) => {}
            _ => return false,
        }
        at = at.as_ref().and_then(previous);
        match kind_of(at.as_ref()) {
            Some(SyntaxKind::COMMA) => at = at.as_ref().and_then(previous),
            Some(SyntaxKind::AFTER_KW | SyntaxKind::ON_KW) => return true,
            _ => return false,
        }
    }
}

/// An expression position, unless it is inside an attribute's value (where
/// steps and files mean nothing).
fn expression(before: &SyntaxToken) -> Context {
    let in_attribute = before
        .parent_ancestors()
        .take_while(|n| !matches!(n.kind(), SyntaxKind::PARAM | SyntaxKind::STEP))
        .any(|n| matches!(n.kind(), SyntaxKind::ATTRIBUTE | SyntaxKind::FLOW_ATTRIBUTE));
    if in_attribute {
        Context::Nothing
    } else {
        Context::Expression
    }
}

/// After a `.`: the members of a step reference.
fn member(db: &dyn Db, file: SourceFile, dot: &SyntaxToken) -> Context {
    let Some(name) = previous(dot).filter(|t| t.kind() == SyntaxKind::IDENT) else {
        return Context::Nothing;
    };
    if parent_kind(&name) != Some(SyntaxKind::NAME_REF) {
        return Context::Nothing;
    }
    if kind_of(previous(&name).as_ref()) == Some(SyntaxKind::DOT) {
        return match StepMember::from_name(name.text()).and_then(StepMember::followers) {
            Some(followers) => Context::Member(followers),
            None => Context::Nothing,
        };
    }
    if name_resolution(db, file)
        .names
        .steps_by_name
        .contains_key(name.text())
    {
        Context::Member(StepMember::AFTER_STEP)
    } else {
        Context::Nothing
    }
}

/// The most items offered at once: a flow may have thousands of steps, and
/// the client asks again as the user types (lists cut to this are marked
/// incomplete).
pub const MAX_ITEMS: usize = 200;

/// The part of the word being completed that is left of the cursor.
fn typed_prefix(text: &SourceText, replace: TextRange, offset: TextSize) -> Cow<'_, str> {
    let end = offset.clamp(replace.start(), replace.end());
    text.get(TextRange::new(replace.start(), end))
        .unwrap_or_default()
}

/// How well a name matches what is typed (ASCII case-insensitive): 0 for a
/// prefix, 1 for a subsequence, `None` for no match.
fn match_rank(name: &str, typed: &str) -> Option<u8> {
    let prefix = name.len() >= typed.len()
        && name.is_char_boundary(typed.len())
        && name[..typed.len()].eq_ignore_ascii_case(typed);
    if prefix {
        return Some(0);
    }
    let mut chars = name.chars();
    typed
        .chars()
        .all(|c| chars.any(|n| n.eq_ignore_ascii_case(&c)))
        .then_some(1)
}

/// The positions of the labels to offer, in order: all of them when there
/// are at most [`MAX_ITEMS`]; otherwise the best [`MAX_ITEMS`] matches of
/// `typed`, prefix matches first, then subsequences, each in their original
/// order.
fn best_matches<'a>(
    labels: impl ExactSizeIterator<Item = &'a str> + Clone,
    typed: &str,
) -> Vec<usize> {
    if labels.len() <= MAX_ITEMS {
        return (0..labels.len()).collect();
    }
    first_best_matches(labels.enumerate(), typed, |&(_, label)| label)
        .into_iter()
        .map(|(i, _)| i)
        .collect()
}

/// The best [`MAX_ITEMS`] of `candidates` as matches of `typed`: prefix
/// matches, then subsequences, each in their order. Stops as soon as it
/// has them: over the steps of a large flow, what is typed usually has more
/// than enough prefix matches among the first names.
fn first_best_matches<T>(
    candidates: impl Iterator<Item = T> + Clone,
    typed: &str,
    label: impl Fn(&T) -> &str,
) -> Vec<T> {
    let mut best: Vec<T> = candidates
        .clone()
        .filter(|c| match_rank(label(c), typed) == Some(0))
        .take(MAX_ITEMS)
        .collect();
    if best.len() < MAX_ITEMS {
        let wanted = MAX_ITEMS - best.len();
        best.extend(
            candidates
                .filter(|c| match_rank(label(c), typed) == Some(1))
                .take(wanted),
        );
    }
    best
}

/// The completions at `offset` as offered to the client: at most
/// [`MAX_ITEMS`], the best matches of the word typed so far.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CompletionList {
    pub items: Vec<CompletionItem>,
    /// Some completions were left out: the client asks again as the user
    /// types.
    pub is_incomplete: bool,
}

impl From<Vec<CompletionItem>> for CompletionList {
    fn from(items: Vec<CompletionItem>) -> Self {
        CompletionList {
            items,
            is_incomplete: false,
        }
    }
}

/// [`completions`], cut to the best [`MAX_ITEMS`] matches of what is typed.
pub fn completion_list(db: &dyn Db, file: SourceFile, offset: TextSize) -> CompletionList {
    let CompletionList {
        items,
        is_incomplete,
    } = collect(db, file, offset);
    if items.len() <= MAX_ITEMS {
        return CompletionList {
            items,
            is_incomplete,
        };
    }
    // Every item replaces the same word.
    let typed = typed_prefix(file.text(db), items[0].replace, offset);
    let best = best_matches(items.iter().map(|i| i.label.as_str()), &typed);
    let mut items: Vec<Option<CompletionItem>> = items.into_iter().map(Some).collect();
    CompletionList {
        items: best.into_iter().filter_map(|i| items[i].take()).collect(),
        is_incomplete: true,
    }
}

/// The names of the steps of the file (first definitions), in text order;
/// beyond [`MAX_ITEMS`], only the best matches of `typed` (prefix matches,
/// then the rest, each in text order), marked incomplete; without
/// `current` and, in an `after` list (`after_list` is `Some` of the word
/// being typed, which is not "already listed"), those listed already. This
/// runs over the steps of large flows: it stops as soon as it has the
/// names it offers, and builds items only for them.
fn step_names(
    db: &dyn Db,
    file: SourceFile,
    current: Option<StepId>,
    after_list: Option<Option<&str>>,
    replace: TextRange,
    typed: &str,
) -> CompletionList {
    let index = item_index(db, file);
    let resolution = name_resolution(db, file);
    let mut listed: Vec<&str> = Vec::new();
    if let (Some(current), Some(typed)) = (current, after_list) {
        let step = &index.steps[current.index()];
        listed = step.dependencies.iter().map(|d| d.name.as_str()).collect();
        if let Some(at) = listed.iter().position(|n| Some(*n) == typed) {
            listed.remove(at);
        }
    }
    let listed: HashSet<&str> = listed.into_iter().collect();
    let current_name = current.and_then(|c| index.steps[c.index()].name.as_deref());
    let candidates = index.steps.iter().enumerate().filter_map(|(i, step)| {
        let name = step.name.as_deref()?;
        let first = resolution.names.first_definition[i];
        (first && Some(name) != current_name && !listed.contains(name)).then_some((i, name))
    });
    // Few names: all of them, in text order (the client filters as the user
    // types). Many: the best matches of what is typed.
    let is_incomplete = candidates.clone().nth(MAX_ITEMS).is_some();
    let offered: Vec<(usize, &str)> = if is_incomplete {
        first_best_matches(candidates, typed, |&(_, name)| name)
    } else {
        candidates.collect()
    };
    let items = offered
        .into_iter()
        .map(|(i, name)| CompletionItem {
            label: name.to_string(),
            kind: CompletionKind::Step,
            detail: index.steps[i].package.as_deref().map(str::to_string),
            documentation: None,
            insert: Insert::Text(name.to_string()),
            replace,
            sort_text: None,
        })
        .collect();
    CompletionList {
        items,
        is_incomplete,
    }
}

/// Where the compound package name after `runs` begins: at the first name
/// of the path that `dot` (a `.` in it) is part of.
fn package_start(dot: &SyntaxToken) -> TextSize {
    let mut start = dot.text_range().start();
    let mut at = Some(dot.clone());
    while let Some(token) = at.filter(|t| t.kind() != SyntaxKind::RUNS_KW) {
        if !token.kind().is_trivia() {
            start = token.text_range().start();
        }
        at = token.prev_token();
    }
    start
}

/// After `runs`: every package of the catalog, by compound name, with its
/// description.
fn packages(db: &dyn Db, file: SourceFile, replace: TextRange) -> Vec<CompletionItem> {
    let Some(catalog) = easyflow_db::catalog::catalog_of(db, file) else {
        return Vec::new();
    };
    catalog
        .packages
        .iter()
        .map(|package| CompletionItem {
            label: package.name.clone(),
            kind: CompletionKind::Package,
            detail: package.description.clone(),
            documentation: Some(crate::catalog::package_markdown(package)),
            insert: Insert::Text(package.name.clone()),
            replace,
            sort_text: None,
        })
        .collect()
}

/// The step whose parameter list holds `token`, and the package it runs.
fn step_package<'c>(
    catalog: &'c easyflow_catalog::Catalog,
    token: &SyntaxToken,
) -> Option<(ast::Step, &'c easyflow_catalog::Package)> {
    let step = token.parent_ancestors().find_map(ast::Step::cast)?;
    let package = catalog.package(&step.package()?.syntax().text().to_string())?;
    Some((step, package))
}

/// Inside the parentheses, in the application section: the package's
/// parameters that are not given yet (the word being typed aside), required
/// first, with their type and range.
fn param_names(
    db: &dyn Db,
    file: SourceFile,
    before: &SyntaxToken,
    word: Option<&SyntaxToken>,
    has_value: bool,
    replace: TextRange,
) -> Vec<CompletionItem> {
    let Some(catalog) = easyflow_db::catalog::catalog_of(db, file) else {
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
    let typed = word.map(SyntaxToken::text_range);
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
        .map(|(i, param)| CompletionItem {
            label: param.name.clone(),
            kind: CompletionKind::Parameter,
            detail: Some(param_detail(param)),
            documentation: Some(crate::catalog::param_markdown(param)),
            insert: if has_value {
                Insert::Text(param.name.clone())
            } else {
                Insert::Snippet(format!("{} = $0", param.name))
            },
            replace,
            sort_text: Some(format!("{i:04}")),
        })
        .collect()
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

/// After `param =` of an Enum parameter: its values, as strings.
fn enum_values(
    db: &dyn Db,
    file: SourceFile,
    before: &SyntaxToken,
    replace: TextRange,
) -> Vec<CompletionItem> {
    if before.kind() != SyntaxKind::EQ {
        return Vec::new();
    }
    let Some(catalog) = easyflow_db::catalog::catalog_of(db, file) else {
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
        .map(|(i, value)| CompletionItem {
            label: format!("{value:?}"),
            kind: CompletionKind::Constant,
            detail: Some(format!("{} of `{}`", declared.type_name(), name)),
            documentation: declared.description.clone(),
            insert: Insert::Text(format!("{value:?}")),
            replace,
            sort_text: Some(format!("!{i:04}")),
        })
        .collect()
}

/// The required files (each name once; not those that are also steps).
fn file_names(db: &dyn Db, file: SourceFile, replace: TextRange) -> Vec<CompletionItem> {
    let index = item_index(db, file);
    let resolution = name_resolution(db, file);
    index
        .requires
        .iter()
        .enumerate()
        .filter(|(i, name)| {
            resolution.names.files_by_name.get(*name) == Some(&(*i as u32))
                && !resolution.names.steps_by_name.contains_key(name.as_str())
        })
        .map(|(_, name)| CompletionItem {
            label: name.clone(),
            kind: CompletionKind::File,
            detail: Some("required file".to_string()),
            documentation: None,
            insert: Insert::Text(name.clone()),
            replace,
            sort_text: None,
        })
        .collect()
}

/// Inside a string: the capability names of the topology, when the string
/// is a step's `requires` value (not those already in the string).
fn capabilities(
    db: &dyn Db,
    file: SourceFile,
    string: &SyntaxToken,
    offset: TextSize,
) -> Vec<CompletionItem> {
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
    let Some(topology) = file.topology(db).filter(|_| is_requires) else {
        return Vec::new();
    };
    let topology = parse_topology(db, topology);
    let replace = word_range_in_string(string, offset);
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
            CompletionItem {
                label: name.to_string(),
                kind: CompletionKind::Capability,
                detail: Some(workers.join(", ")),
                documentation: Some(format!("provided by {}", providers(topology, name))),
                insert: Insert::Text(name.to_string()),
                replace,
                sort_text: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use expect_test::{Expect, expect};

    use super::*;
    use crate::fixture::{fixture, with_topology};

    /// One line per item: kind, label, what is inserted (when it differs
    /// from the label) and the replaced text in `‹›`.
    fn render(text: &str, topology: Option<&str>) -> String {
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

    fn check(text: &str, expect: Expect) {
        expect.assert_eq(&render(text, None));
    }

    fn labels(text: &str) -> Vec<String> {
        let f = fixture(text);
        completions(&f.db, f.file, f.offset)
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    const STEPS: &str =
        "require data, more, data;\nstep Load runs Loader.Read ();\nstep Other runs P ();\n";

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

    #[test]
    fn nothing_inside_strings_comments_and_code() {
        for text in [
            "// st$0",
            "/* st$0 */",
            "/* st$0",
            "step A runs P (x = \"st$0\");",
            "step A runs P (x = \"st$0",
            "step A runs P () pre code python\n  st$0\ncode end;",
            "step A runs P () pre code python\n  st$0",
            "step $0",
            "step A runs P (x = 1, $0)",
            "require a, $0",
            "step A runs P (x = 12$0)",
        ] {
            assert_eq!(labels(text), Vec::<String>::new(), "{text}");
        }
        // Just past a closed string or comment, the language again.
        assert_eq!(labels("/* c */$0").len(), 4);
    }

    #[test]
    fn after_lists() {
        let text = format!("{STEPS}step Third runs P after $0 ();\n");
        check(
            &text,
            expect![[r#"
                Step Load
                Step Other
            "#]],
        );
        check(
            &format!("{STEPS}step Third runs P after Load, O$0\n"),
            expect![[r#"
                Step Other ‹O›
            "#]],
        );
        // The word being typed is not "already listed"; the current step never is offered.
        check(
            &format!("{STEPS}step Third runs P after Other, Lo$0ad ();\n"),
            expect![[r#"
                Step Load ‹Load›
            "#]],
        );
        check(
            &format!("{STEPS}step Third runs P on $0"),
            expect![[r#"
                Step Load
                Step Other
            "#]],
        );
    }

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
    fn members() {
        check(
            &format!("{STEPS}step T runs P (x = Load.$0);"),
            expect![[r#"
                Member outs
                Member Result
            "#]],
        );
        check(
            &format!("{STEPS}step T runs P (x = [Load.Res$0]);"),
            expect![[r#"
                Member outs ‹Res›
                Member Result ‹Res›
            "#]],
        );
        check(
            &format!("{STEPS}step T runs P (x = Load.Result.$0"),
            expect![[r#"
                Member outs
            "#]],
        );
        for text in [
            "step T runs P (x = data.$0);",
            "step T runs P (x = Unknown.$0);",
            "step T runs Pkg.$0",
            "step T runs P (x = Load.outs[\"a\"].$0);",
            "step T runs P (x = Load.outs.$0);",
        ] {
            assert_eq!(
                labels(&format!("{STEPS}{text}")),
                Vec::<String>::new(),
                "{text}"
            );
        }
    }

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

    #[test]
    fn out_of_range_and_empty() {
        let f = fixture("step A runs P ();");
        assert!(completions(&f.db, f.file, TextSize::from(1000)).is_empty());
        assert_eq!(labels("$0").len(), 4);
    }
}

#[cfg(test)]
mod large_flow_tests {
    use super::*;
    use crate::fixture::fixture;

    #[test]
    fn many_steps_give_the_best_matches_of_what_is_typed() {
        let mut text = String::new();
        for i in 0..500 {
            text.push_str(&format!("step Step{i} runs P ();\n"));
        }
        text.push_str("step Target runs P ();\nstep Use runs Q (x = Tar$0);\n");
        let f = fixture(&text);
        let items = completions(&f.db, f.file, f.offset);
        let steps: Vec<&str> = items
            .iter()
            .filter(|i| i.kind == CompletionKind::Step)
            .map(|i| i.label.as_str())
            .collect();
        assert_eq!(
            steps.first(),
            Some(&"Target"),
            "the prefix match comes first"
        );
        assert!(steps.len() <= MAX_ITEMS);
    }

    /// More step names than [`MAX_ITEMS`]: the best matches, prefixes first
    /// in text order, then subsequences, and the list is marked incomplete.
    #[test]
    fn many_step_names_are_cut_and_marked_incomplete() {
        let mut text = String::new();
        for i in 0..3 * MAX_ITEMS {
            text.push_str(&format!("step S{i} runs P ();\n"));
        }
        text.push_str("step Xs1 runs P ();\nstep Use runs Q (x = s1$0);\n");
        let f = fixture(&text);
        let list = completion_list(&f.db, f.file, f.offset);
        assert!(list.is_incomplete);
        let labels: Vec<&str> = list.items.iter().map(|i| i.label.as_str()).collect();
        // "S1", "S10".."S19", "S100".."S199": fewer than MAX_ITEMS prefix
        // matches, then the subsequences in text order (the names that do
        // not match are left out).
        let prefixes: Vec<String> = (0..3 * MAX_ITEMS)
            .map(|i| format!("S{i}"))
            .filter(|n| n.starts_with("S1"))
            .collect();
        assert_eq!(labels[..prefixes.len()], prefixes);
        assert_eq!(labels[prefixes.len()..][..3], ["S21", "S31", "S41"]);
        assert_eq!(labels.last(), Some(&"Xs1"));
        assert!(!labels.contains(&"S22"));

        // Nothing matches: nothing offered, still incomplete (the client asks
        // again as the word changes).
        let f = fixture(&text.replace("x = s1$0", "x = zq$0"));
        let list = completion_list(&f.db, f.file, f.offset);
        assert!(list.is_incomplete);
        assert!(list.items.is_empty());

        // Nothing typed: the first MAX_ITEMS names in text order.
        let f = fixture(&text.replace("x = s1$0", "x = $0"));
        let list = completion_list(&f.db, f.file, f.offset);
        assert!(list.is_incomplete);
        assert_eq!(list.items.len(), MAX_ITEMS);
        assert_eq!(
            list.items[MAX_ITEMS - 1].label,
            format!("S{}", MAX_ITEMS - 1)
        );
    }

    /// The early-stopping selection equals ranking every label and keeping
    /// the best.
    #[test]
    fn first_best_matches_equals_a_full_ranking() {
        // A small linear congruential generator: the cases are the same on
        // every run.
        let mut state = 5u64;
        let mut below = |n: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        let letters = ['a', 'b', 'C', 'd'];
        for _ in 0..200 {
            let labels: Vec<String> = (0..below(3 * MAX_ITEMS))
                .map(|_| (0..1 + below(3)).map(|_| letters[below(4)]).collect())
                .collect();
            let typed: String = (0..below(3)).map(|_| letters[below(3)]).collect();
            let mut ranked: Vec<(u8, usize)> = labels
                .iter()
                .enumerate()
                .filter_map(|(i, l)| Some((match_rank(l, &typed)?, i)))
                .collect();
            ranked.sort_unstable();
            ranked.truncate(MAX_ITEMS);
            let expected: Vec<usize> = ranked.into_iter().map(|(_, i)| i).collect();
            let got: Vec<usize> =
                first_best_matches(labels.iter().enumerate(), &typed, |&(_, l)| l.as_str())
                    .into_iter()
                    .map(|(i, _)| i)
                    .collect();
            assert_eq!(got, expected, "{typed:?} over {labels:?}");
        }
    }

    /// More than [`MAX_ITEMS`] steps and files: the list sent is cut to the
    /// best matches of what is typed, prefixes first, and marked incomplete.
    #[test]
    fn long_lists_are_cut_to_the_best_matches() {
        // 199 step names (all offered) and two files.
        let mut text = String::from("require tar_file, other_file;\n");
        for i in 0..MAX_ITEMS - 3 {
            text.push_str(&format!("step Step{i} runs P ();\n"));
        }
        text.push_str(
            "step XtaYr runs P ();\nstep Target runs P ();\nstep Use runs Q (x = ta$0);\n",
        );
        let f = fixture(&text);
        let list = completion_list(&f.db, f.file, f.offset);
        assert!(list.is_incomplete);
        let labels: Vec<&str> = list.items.iter().map(|i| i.label.as_str()).collect();
        // Prefix matches (steps, then files, in their order), then subsequences.
        assert_eq!(labels, ["Target", "tar_file", "XtaYr"]);

        // Few items: all of them, complete, whatever is typed.
        let f = fixture("require data;\nstep A runs P ();\nstep B runs Q (x = zz$0);\n");
        let list = completion_list(&f.db, f.file, f.offset);
        assert!(!list.is_incomplete);
        assert_eq!(list.items, completions(&f.db, f.file, f.offset));
    }
}
