//! Where the cursor stands: the tokens around it (the word being typed,
//! the last token before it) and the [`Site`] they make, from which the
//! producers of `completions/` know what to offer.

use std::borrow::Cow;

use easyflow_db::{Db, SourceFile, StepId, name_resolution, parse};
use easyflow_diagnostics::{TextRange, TextSize};
use easyflow_syntax::{StepMember, SyntaxKind, SyntaxNode, SyntaxToken};

use super::list::typed_prefix;
use super::{CompletionItem, CompletionKind, Insert};
use crate::defs;
use crate::tokens::{token_at, token_left_of};

/// What can be typed where the cursor stands, from the tokens before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Site {
    /// Inside a string token (the byte before the cursor is in it).
    InString(SyntaxToken),
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
    /// Inside an attribute's `[` (a step's), or after `[flow:`.
    AttributeKey {
        flow: bool,
    },
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

/// The cursor and the tokens around it.
pub(crate) struct CompletionContext<'a> {
    pub db: &'a dyn Db,
    pub file: SourceFile,
    pub offset: TextSize,
    pub root: SyntaxNode,
    /// The token holding the byte before the cursor.
    pub left: Option<SyntaxToken>,
    /// The word being completed, when the cursor is in or right after one.
    pub word: Option<SyntaxToken>,
    /// The last non-trivia token before the word (`None` at the start of
    /// the file).
    pub before: Option<SyntaxToken>,
    /// What the items replace: the word, or the empty range at the cursor.
    pub replace: TextRange,
    pub site: Site,
}

impl<'a> CompletionContext<'a> {
    /// `None` past the end of the file.
    pub fn new(db: &'a dyn Db, file: SourceFile, offset: TextSize) -> Option<Self> {
        if offset > file.text(db).len() {
            return None;
        }
        let root = parse(db, file).syntax();
        let left = token_left_of(&root, offset);
        let inside = left.as_ref().filter(|left| is_inside(left, offset));
        let word = left.clone().filter(|_| inside.is_none()).filter(is_word);
        let replace = word
            .as_ref()
            .map_or(TextRange::empty(offset), |w| w.text_range());
        let before = match (&word, &left) {
            (Some(word), _) => previous(word),
            (None, Some(left)) if !left.kind().is_trivia() => Some(left.clone()),
            (None, Some(left)) => previous(left),
            (None, None) => None,
        };
        let site = match inside {
            Some(string) if string.kind() == SyntaxKind::STRING => Site::InString(string.clone()),
            Some(_) => Site::Nothing,
            None => classify(db, file, before.as_ref()),
        };
        Some(CompletionContext {
            db,
            file,
            offset,
            root,
            left,
            word,
            before,
            replace,
            site,
        })
    }

    /// An item replacing the word being completed.
    pub fn item(&self, label: &str, kind: CompletionKind, insert: Insert) -> CompletionItem {
        CompletionItem::new(label, kind, insert, self.replace)
    }

    /// The part of the word being completed that is left of the cursor.
    pub fn typed(&self) -> Cow<'a, str> {
        typed_prefix(self.file.text(self.db), self.replace, self.offset)
    }

    /// The first non-trivia token after the word (or the cursor).
    pub fn next_token(&self) -> Option<SyntaxToken> {
        let mut at = match self.word.as_ref().or(self.left.as_ref()) {
            Some(token) => token.next_token(),
            None => token_at(&self.root, self.offset),
        };
        while let Some(token) = &at {
            if !token.kind().is_trivia() {
                break;
            }
            at = token.next_token();
        }
        at
    }

    /// The step being edited: the one holding the token before the word
    /// (the cursor may be in whitespace past the end of an incomplete
    /// step).
    pub fn current_step(&self) -> Option<StepId> {
        self.before
            .as_ref()
            .and_then(|t| t.parent_ancestors().find(|n| n.kind() == SyntaxKind::STEP))
            .and_then(|step| defs::step_at(self.db, self.file, step.text_range().start()))
            .or_else(|| defs::step_at(self.db, self.file, self.offset))
    }
}

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

fn kind_of(token: Option<&SyntaxToken>) -> Option<SyntaxKind> {
    token.map(SyntaxToken::kind)
}

fn parent_kind(token: &SyntaxToken) -> Option<SyntaxKind> {
    token.parent().map(|p| p.kind())
}

/// What can be typed after `before`, the last non-trivia token before the
/// word (`None` at the start of the file).
fn classify(db: &dyn Db, file: SourceFile, before: Option<&SyntaxToken>) -> Site {
    if let Some(site) = top_level(before) {
        return site;
    }
    let Some(before) = before else {
        return Site::Nothing;
    };
    match before.kind() {
        SyntaxKind::TILDE if top_level(previous(before).as_ref()).is_some() => {
            Site::Tilde(before.text_range().start())
        }
        SyntaxKind::AFTER_KW | SyntaxKind::ON_KW => Site::AfterList,
        SyntaxKind::COMMA => match parent_kind(before) {
            Some(SyntaxKind::AFTER_CLAUSE | SyntaxKind::ON_CLAUSE) => Site::AfterList,
            Some(SyntaxKind::LIST_EXPR) => expression(before),
            Some(SyntaxKind::PARAM_SECTION | SyntaxKind::PARAM_BLOCK) => Site::ParamName,
            _ if in_after_list(before) => Site::AfterList,
            _ => Site::Nothing,
        },
        SyntaxKind::ARROW | SyntaxKind::SWEEP_KW => expression(before),
        SyntaxKind::EQ => {
            let key = previous(before);
            let opener = key.as_ref().and_then(previous);
            match (kind_of(key.as_ref()), kind_of(opener.as_ref())) {
                (Some(SyntaxKind::IDENT), Some(SyntaxKind::L_BRACK)) => {
                    Site::AttributeValue(key.map(|k| k.text().to_string()).unwrap_or_default())
                }
                (Some(SyntaxKind::IDENT), Some(SyntaxKind::COLON))
                    if kind_of(opener.as_ref().and_then(previous).as_ref())
                        == Some(SyntaxKind::FLOW_KW) =>
                {
                    Site::AttributeValue(key.map(|k| k.text().to_string()).unwrap_or_default())
                }
                _ => expression(before),
            }
        }
        SyntaxKind::L_BRACK => match parent_kind(before) {
            Some(SyntaxKind::LIST_EXPR | SyntaxKind::INDEXER) => expression(before),
            Some(SyntaxKind::ATTRIBUTE | SyntaxKind::FLOW_ATTRIBUTE) => {
                Site::AttributeKey { flow: false }
            }
            // In recovered code: an attribute where a top-level item may
            // start, else a list or an indexer.
            _ => match top_level(previous(before).as_ref()) {
                Some(_) => Site::AttributeKey { flow: false },
                None => expression(before),
            },
        },
        SyntaxKind::COLON if kind_of(previous(before).as_ref()) == Some(SyntaxKind::FLOW_KW) => {
            Site::AttributeKey { flow: true }
        }
        SyntaxKind::RUNS_KW => Site::Package(None),
        SyntaxKind::DOT if parent_kind(before) == Some(SyntaxKind::PACKAGE_PATH) => {
            Site::Package(Some(package_start(before)))
        }
        SyntaxKind::L_PAREN if parent_kind(before) == Some(SyntaxKind::PARAM_BLOCK) => {
            Site::ParamName
        }
        SyntaxKind::COLON if kind_of(previous(before).as_ref()) == Some(SyntaxKind::APP_KW) => {
            Site::ParamName
        }
        SyntaxKind::DOT => member(db, file, before),
        SyntaxKind::IDENT => match (
            parent_kind(before),
            before.parent().and_then(|p| p.parent()),
        ) {
            (Some(SyntaxKind::NAME), Some(step)) if step.kind() == SyntaxKind::STEP => {
                Site::Keyword(SyntaxKind::RUNS_KW)
            }
            (Some(SyntaxKind::PACKAGE_PATH), _) => Site::Keyword(SyntaxKind::AFTER_KW),
            _ => Site::Nothing,
        },
        _ => Site::Nothing,
    }
}

/// The top-level site when `before` ends a top-level item (or is the start
/// of the file).
fn top_level(before: Option<&SyntaxToken>) -> Option<Site> {
    let Some(before) = before else {
        return Some(Site::TopLevel {
            after_params: false,
        });
    };
    match before.kind() {
        SyntaxKind::SEMICOLON | SyntaxKind::CODE_BLOCK => Some(Site::TopLevel {
            after_params: false,
        }),
        SyntaxKind::R_PAREN if parent_kind(before) == Some(SyntaxKind::PARAM_BLOCK) => {
            Some(Site::TopLevel { after_params: true })
        }
        SyntaxKind::R_BRACK => match parent_kind(before) {
            Some(SyntaxKind::FLOW_ATTRIBUTE) => Some(Site::TopLevel {
                after_params: false,
            }),
            Some(SyntaxKind::ATTRIBUTE) => Some(Site::AfterAttribute),
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
fn expression(before: &SyntaxToken) -> Site {
    let in_attribute = before
        .parent_ancestors()
        .take_while(|n| !matches!(n.kind(), SyntaxKind::PARAM | SyntaxKind::STEP))
        .any(|n| matches!(n.kind(), SyntaxKind::ATTRIBUTE | SyntaxKind::FLOW_ATTRIBUTE));
    if in_attribute {
        Site::Nothing
    } else {
        Site::Expression
    }
}

/// After a `.`: the members of a step reference.
fn member(db: &dyn Db, file: SourceFile, dot: &SyntaxToken) -> Site {
    let Some(name) = previous(dot).filter(|t| t.kind() == SyntaxKind::IDENT) else {
        return Site::Nothing;
    };
    if parent_kind(&name) != Some(SyntaxKind::NAME_REF) {
        return Site::Nothing;
    }
    if kind_of(previous(&name).as_ref()) == Some(SyntaxKind::DOT) {
        return match StepMember::from_name(name.text()).and_then(StepMember::followers) {
            Some(followers) => Site::Member(followers),
            None => Site::Nothing,
        };
    }
    if name_resolution(db, file)
        .names
        .steps_by_name
        .contains_key(name.text())
    {
        Site::Member(StepMember::AFTER_STEP)
    } else {
        Site::Nothing
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

#[cfg(test)]
mod tests {
    use super::super::tests::labels;

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
}
