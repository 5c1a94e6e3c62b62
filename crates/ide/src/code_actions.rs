//! Quick fixes: the code actions that `diagnostics.md` lists for each code,
//! for the diagnostics of the file that intersect a range. Each is made from
//! the diagnostic's [`Fix`] (its rule's data: the suggested name, the missing
//! token, the entry that can go, …) and the syntax tree, never from its
//! message.

use std::borrow::Cow;
use std::cell::OnceCell;

use easyflow_db::{Db, SourceFile, file_diagnostics, parse};
use easyflow_diagnostics::{Diagnostic, Fix, Removal, TextRange, TextSize};
use easyflow_syntax::ast::{self, AstNode};
use easyflow_syntax::{SyntaxElement, SyntaxKind, SyntaxNode};

use crate::TextEdit;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeActionKind {
    QuickFix,
    /// Every preferred quick fix of the file at once ([`fix_all`]).
    FixAll,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeAction {
    pub title: String,
    pub kind: CodeActionKind,
    /// Non-overlapping edits of the file, in text order.
    pub edits: Vec<TextEdit>,
    /// The one obvious fix of its diagnostic.
    pub is_preferred: bool,
    /// The diagnostic it fixes.
    pub diagnostic: Option<Diagnostic>,
}

/// The quick fixes for every diagnostic of the file that intersects `range`
/// (touching counts, so an empty range at the cursor finds the diagnostic
/// it is in or at), in the diagnostics' order.
pub fn code_actions(db: &dyn Db, file: SourceFile, range: TextRange) -> Vec<CodeAction> {
    let whole_text = OnceCell::new();
    file_diagnostics(db, file)
        .iter()
        .filter(|diagnostic| diagnostic.range.intersect(range).is_some())
        .flat_map(|diagnostic| fixes_of(db, file, &whole_text, diagnostic))
        .collect()
}

/// The preferred quick fixes of the file, in one edit (`lsp.md`, "Fix
/// all"; `easyflow check --fix`): each diagnostic's preferred fix in the
/// diagnostics' (document) order, skipping a fix whose edits overlap or
/// touch those of a fix already taken (two edits at one place would depend
/// on their order). One pass: a fix skipped, or a problem that only the
/// fixed text has, waits for the next.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FixAll {
    /// Non-overlapping edits of the file, in text order.
    pub edits: Vec<TextEdit>,
    /// The fixes taken, in order, each with the diagnostic it fixes.
    pub fixes: Vec<(String, Diagnostic)>,
}

pub fn fix_all(db: &dyn Db, file: SourceFile) -> FixAll {
    let whole_text = OnceCell::new();
    // The taken edits' ranges by start: disjoint, so a new range meets one
    // of them only if it meets the last that starts at or before its end.
    let mut taken: std::collections::BTreeMap<TextSize, TextSize> = Default::default();
    let mut all = FixAll::default();
    for diagnostic in file_diagnostics(db, file).iter() {
        let Some(fix) = fixes_of(db, file, &whole_text, diagnostic)
            .into_iter()
            .find(|action| action.is_preferred)
        else {
            continue;
        };
        let meets_taken = |range: TextRange| {
            taken
                .range(..=range.end())
                .next_back()
                .is_some_and(|(_, &end)| end >= range.start())
        };
        if fix.edits.iter().any(|edit| meets_taken(edit.range)) {
            continue;
        }
        for edit in &fix.edits {
            taken.insert(edit.range.start(), edit.range.end());
        }
        all.edits.extend(fix.edits);
        all.fixes.push((fix.title, diagnostic.clone()));
    }
    all.edits.sort_by_key(|edit| edit.range.start());
    all
}

/// [`fix_all`] as a code action, `None` when there is nothing to fix.
pub fn fix_all_action(db: &dyn Db, file: SourceFile) -> Option<CodeAction> {
    let all = fix_all(db, file);
    let count = all.fixes.len();
    (count > 0).then(|| CodeAction {
        title: format!(
            "Fix all: apply {count} preferred {}",
            if count == 1 { "fix" } else { "fixes" }
        ),
        kind: CodeActionKind::FixAll,
        edits: all.edits,
        is_preferred: false,
        diagnostic: None,
    })
}

/// The quick fixes of one diagnostic of `file`.
fn fixes_of<'a>(
    db: &'a dyn Db,
    file: SourceFile,
    whole_text: &'a OnceCell<Cow<'a, str>>,
    diagnostic: &'a Diagnostic,
) -> Vec<CodeAction> {
    let fixer = Fixer {
        db,
        file,
        whole_text,
        diagnostic,
    };
    let allow =
        crate::allow::allow_on_its_line(db, file, diagnostic).map(|(title, edits)| QuickFix {
            title,
            edits,
            preferred: false,
        });
    fixer
        .quick_fixes()
        .into_iter()
        .chain(allow)
        .map(|fix| {
            let mut edits = fix.edits;
            edits.sort_by_key(|e| e.range.start());
            CodeAction {
                title: fix.title,
                kind: CodeActionKind::QuickFix,
                edits,
                is_preferred: fix.preferred,
                diagnostic: Some(diagnostic.clone()),
            }
        })
        .collect()
}

struct QuickFix {
    title: String,
    edits: Vec<TextEdit>,
    preferred: bool,
}

impl QuickFix {
    fn new(title: String, edits: Vec<TextEdit>) -> QuickFix {
        QuickFix {
            title,
            edits,
            preferred: true,
        }
    }

    fn replace(range: TextRange, with: &str) -> QuickFix {
        QuickFix::new(format!("Replace with `{with}`"), vec![edit(range, with)])
    }

    fn remove(title: String, range: TextRange) -> QuickFix {
        QuickFix::new(title, vec![edit(range, "")])
    }
}

fn edit(range: TextRange, insert: &str) -> TextEdit {
    TextEdit {
        range,
        insert: insert.to_string(),
    }
}

struct Fixer<'a> {
    db: &'a dyn Db,
    file: SourceFile,
    /// For the fixes that search lines around their diagnostic or the file's
    /// line breaks; made on the first need in a request, as it copies an
    /// edited text.
    whole_text: &'a OnceCell<Cow<'a, str>>,
    diagnostic: &'a Diagnostic,
}

impl<'a> Fixer<'a> {
    fn text(&self) -> &str {
        self.whole_text
            .get_or_init(|| self.file.text(self.db).whole())
    }

    fn quick_fixes(&self) -> Vec<QuickFix> {
        let d = self.diagnostic;
        let fix = match &d.fix {
            Fix::None => None,
            Fix::InsertToken(tokens) => return self.insert_missing_token(tokens),
            Fix::UnresolvedName {
                suggestion,
                requirable,
            } => return self.unresolved_name(suggestion.as_deref(), *requirable),
            Fix::Replace(with) => Some(QuickFix::replace(d.range, with)),
            Fix::RemoveRequire(why) => self.remove_require_entry(*why),
            Fix::RemoveDependency(why) => self.remove_dependency(*why),
            Fix::MakeLongRunning => self.make_long_running(),
            Fix::WrapInList => Some(QuickFix::new(
                "Wrap the value in `[ ]`".to_string(),
                vec![
                    edit(TextRange::empty(d.range.start()), "["),
                    edit(TextRange::empty(d.range.end()), "]"),
                ],
            )),
            Fix::UseAfter => Some(QuickFix::new(
                "Replace `on` with `after`".to_string(),
                vec![edit(d.range, "after")],
            )),
            Fix::AddParams(names) => self.add_params(names),
            Fix::RemoveAllowed => self.remove_unused_allowed_code(),
        };
        fix.into_iter().collect()
    }

    fn root(&self) -> SyntaxNode {
        parse(self.db, self.file).syntax()
    }

    /// The diagnostic's text (a name, for the codes that are on names).
    fn name(&self) -> Cow<'a, str> {
        self.file.text(self.db).slice(self.diagnostic.range)
    }

    /// The innermost node of `kind` around the diagnostic's range.
    fn node(&self, kind: SyntaxKind) -> Option<SyntaxNode> {
        let covering = self.root().covering_element(self.diagnostic.range);
        let node = match covering {
            SyntaxElement::Node(node) => node,
            SyntaxElement::Token(token) => token.parent()?,
        };
        node.ancestors().find(|n| n.kind() == kind)
    }

    /// E0100: one of `tokens` is missing where the (empty) range is: insert
    /// it. When a separator and a closer are both possible, what follows
    /// decides which is preferred.
    fn insert_missing_token(&self, tokens: &[&'static str]) -> Vec<QuickFix> {
        let d = self.diagnostic;
        let preferred = match tokens {
            [only] => Some(*only),
            _ if tokens.contains(&",") => {
                let closer = tokens.iter().copied().find(|t| *t != ",");
                if self.element_follows(d.range.start()) {
                    Some(",")
                } else {
                    closer
                }
            }
            _ => None,
        };
        tokens
            .iter()
            .map(|&token| QuickFix {
                title: format!("Insert `{token}`"),
                edits: vec![edit(d.range, token)],
                preferred: preferred == Some(token),
            })
            .collect()
    }

    /// Whether the first token at or after `offset` can begin a list element
    /// (a name, a parameter, an expression): then a missing `,` is likelier
    /// than a missing closer.
    fn element_follows(&self, offset: TextSize) -> bool {
        let mut token = self.root().token_at_offset(offset).right_biased();
        while let Some(t) = token.as_ref().filter(|t| t.kind().is_trivia()) {
            token = t.next_token();
        }
        token.is_some_and(|t| {
            matches!(
                t.kind(),
                SyntaxKind::IDENT
                    | SyntaxKind::STRING
                    | SyntaxKind::INT
                    | SyntaxKind::DOUBLE
                    | SyntaxKind::CONSTANT
                    | SyntaxKind::L_BRACK
                    | SyntaxKind::TRUE_KW
                    | SyntaxKind::FALSE_KW
                    | SyntaxKind::COLON
            )
        })
    }

    /// E0201: replace with the suggested name; or, when the name could be a
    /// file, require it.
    fn unresolved_name(&self, suggestion: Option<&str>, requirable: bool) -> Vec<QuickFix> {
        let d = self.diagnostic;
        let mut fixes = Vec::new();
        if let Some(name) = suggestion {
            fixes.push(QuickFix::replace(d.range, name));
        }
        if requirable {
            let name = self.name();
            fixes.push(QuickFix {
                title: format!("Add `require {name};`"),
                edits: vec![self.add_require(&name)],
                preferred: suggestion.is_none(),
            });
        }
        fixes
    }

    /// `require NAME;` on a new line after the last `require`, or else after
    /// the leading comments and flow attributes, or else at the top.
    fn add_require(&self, name: &str) -> TextEdit {
        let text = self.text();
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let root = self.root();
        let last_require = parse(self.db, self.file)
            .non_step_items()
            .filter(|n| n.kind() == SyntaxKind::REQUIRE)
            .last();
        let after = match last_require {
            Some(require) => Some(require.range().end()),
            None => {
                let mut header_end = None;
                for element in easyflow_syntax::top_level_children(&root) {
                    match element.kind() {
                        SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE => {}
                        SyntaxKind::LINE_COMMENT
                        | SyntaxKind::BLOCK_COMMENT
                        | SyntaxKind::FLOW_ATTRIBUTE => {
                            header_end = Some(element.text_range().end())
                        }
                        _ => break,
                    }
                }
                header_end
            }
        };
        match after {
            Some(end) => TextEdit {
                range: TextRange::empty(end_of_line_if_free(text, end)),
                insert: format!("{newline}require {name};"),
            },
            None => TextEdit {
                range: TextRange::empty(0.into()),
                insert: if text.starts_with(['\n', '\r']) || text.is_empty() {
                    format!("require {name};{newline}")
                } else {
                    format!("require {name};{newline}{newline}")
                },
            },
        }
    }

    /// "Remove the repeated `a`", "Remove unused `a`", …
    fn removal_title(&self, why: Removal) -> String {
        let name = self.name();
        match why {
            Removal::Repeated => format!("Remove the repeated `{name}`"),
            Removal::Unused => format!("Remove unused `{name}`"),
            Removal::Redundant => format!("Remove the redundant `{name}`"),
        }
    }

    /// W0204, W0206: remove the name from its `require`, or the whole
    /// `require` when it is the only name.
    fn remove_require_entry(&self, why: Removal) -> Option<QuickFix> {
        let name = self.node(SyntaxKind::NAME)?;
        let require = name.parent().filter(|p| p.kind() == SyntaxKind::REQUIRE)?;
        match remove_list_entry(&name) {
            Some(range) => Some(QuickFix::remove(self.removal_title(why), range)),
            None => Some(QuickFix::remove(
                format!("Remove `{}`", require.text()),
                remove_lines(self.text(), require.text_range()),
            )),
        }
    }

    /// W0208, I0209: remove the entry from its `after`/`on` list, or the
    /// whole clause when it is the only entry.
    fn remove_dependency(&self, why: Removal) -> Option<QuickFix> {
        let entry = self.node(SyntaxKind::NAME_REF)?;
        let clause = entry
            .parent()
            .filter(|p| matches!(p.kind(), SyntaxKind::AFTER_CLAUSE | SyntaxKind::ON_CLAUSE))?;
        let name = self.name();
        if let Some(range) = remove_list_entry(&entry) {
            return Some(QuickFix::remove(self.removal_title(why), range));
        }
        // The only entry: the clause goes, with the space before it.
        let start = non_trivia_sibling(SyntaxElement::Node(clause.clone()), Direction::Prev)
            .map_or(clause.text_range().start(), |e| e.text_range().end());
        let keyword = clause
            .first_token()
            .map_or_else(String::new, |t| t.text().to_string());
        Some(QuickFix::remove(
            format!("Remove `{keyword} {name}`"),
            TextRange::new(start, clause.text_range().end()),
        ))
    }

    /// E0803: the missing parameters at the end of the step's application
    /// section, each with a value that its checks accept
    /// ([`crate::catalog::placeholder`]): a File one of the flow's required
    /// files, or, when it has none, a file required for it (`require
    /// input;`, as the E0201 fix adds one), so that the fix leaves no error
    /// behind.
    fn add_params(&self, names: &[String]) -> Option<QuickFix> {
        let step = ast::Step::cast(self.node(SyntaxKind::STEP)?)?;
        let catalog = easyflow_db::catalog::catalog_of(self.db, self.file);
        let package = step
            .package()
            .and_then(|p| catalog?.package(&p.syntax().text().to_string()));
        let (files, taken) = self.required_files_and_names();
        let mut to_require: Vec<String> = Vec::new();
        let params: Vec<String> = names
            .iter()
            .map(|name| {
                let param = package.and_then(|p| p.param(name));
                let value = match param {
                    Some(param) => crate::catalog::placeholder(param, &files),
                    None => Some("\"\"".to_string()),
                };
                let value = value.unwrap_or_else(|| {
                    let file = unused_name(name, &taken, &to_require);
                    to_require.push(file.clone());
                    file
                });
                format!("{name} = {value}")
            })
            .collect();
        let mut fix = self.add_params_edit(&step, names, &params.join(", "))?;
        if !to_require.is_empty() {
            fix.edits
                .insert(0, self.add_require(&to_require.join(", ")));
        }
        Some(fix)
    }

    /// The flow's required files, in order, and every name it defines
    /// (required files and steps).
    fn required_files_and_names(&self) -> (Vec<String>, Vec<String>) {
        let root = self.root();
        let files: Vec<String> = root
            .descendants()
            .filter_map(ast::Require::cast)
            .flat_map(|r| {
                r.names()
                    .map(|n| n.syntax().text().to_string())
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut taken = files.clone();
        taken.extend(
            root.descendants()
                .filter_map(ast::Step::cast)
                .filter_map(|s| s.name().map(|n| n.syntax().text().to_string())),
        );
        (files, taken)
    }

    /// The edit that adds `params` (the text `a = 1, b = 2`) to `step`.
    fn add_params_edit(
        &self,
        step: &ast::Step,
        names: &[String],
        params: &str,
    ) -> Option<QuickFix> {
        let title = format!(
            "Add the missing required parameters: {}",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let Some(block) = step.param_block() else {
            // No parentheses at all: after the header.
            let header_end = step
                .dependency_clauses()
                .last()
                .map(|c| c.syntax().text_range().end())
                .or_else(|| step.package().map(|p| p.syntax().text_range().end()))?;
            return Some(QuickFix::new(
                title,
                vec![edit(TextRange::empty(header_end), &format!(" ({params})"))],
            ));
        };
        let sections: Vec<ast::ParamSection> = block.sections().collect();
        let app = sections.iter().find(|s| s.kind() == ast::SectionKind::App);
        if let Some(last) = app.and_then(|s| s.params().last()) {
            return Some(QuickFix::new(
                title,
                vec![edit(
                    TextRange::empty(last.syntax().text_range().end()),
                    &format!(", {params}"),
                )],
            ));
        }
        // No application parameters yet: first in the parentheses (after an
        // empty `app:` label, if any).
        let (at, before) = match app.and_then(|s| s.syntax().last_token()) {
            Some(label_end) => (label_end.text_range().end(), " "),
            None => (block.l_paren_token()?.text_range().end(), ""),
        };
        let exec_follows = sections.iter().any(|s| s.kind() == ast::SectionKind::Exec);
        let after = if exec_follows { ", " } else { "" };
        Some(QuickFix::new(
            title,
            vec![edit(
                TextRange::empty(at),
                &format!("{before}{params}{after}"),
            )],
        ))
    }

    /// W0905: the code goes from its allow comment, or the whole comment
    /// (its line, when it has one of its own).
    fn remove_unused_allowed_code(&self) -> Option<QuickFix> {
        let (title, removal) = crate::allow::unused_code(self.db, self.file, self.diagnostic)?;
        let range = match removal {
            crate::allow::UnusedCode::Code(range) => range,
            crate::allow::UnusedCode::Comment(range) => remove_lines(self.text(), range),
        };
        Some(QuickFix::remove(title, range))
    }

    /// E0401: `~` before the step's `step` keyword.
    fn make_long_running(&self) -> Option<QuickFix> {
        let step = ast::Step::cast(self.node(SyntaxKind::STEP)?)?;
        let keyword = step.step_token()?;
        Some(QuickFix::new(
            "Make it a `~step`".to_string(),
            vec![edit(TextRange::empty(keyword.text_range().start()), "~")],
        ))
    }
}

/// `name`, or `name_file`, `name_file2`, … when the flow defines it or it
/// is among `also_taken`: a name to require a file under.
fn unused_name(name: &str, taken: &[String], also_taken: &[String]) -> String {
    let free = |n: &String| !taken.contains(n) && !also_taken.contains(n);
    std::iter::once(name.to_string())
        .chain((1..).map(|i| match i {
            1 => format!("{name}_file"),
            i => format!("{name}_file{i}"),
        }))
        .find(free)
        .unwrap_or_default()
}

#[derive(Clone, Copy)]
enum Direction {
    Prev,
    Next,
}

/// The nearest sibling of `element` in `direction` that is not trivia.
fn non_trivia_sibling(element: SyntaxElement, direction: Direction) -> Option<SyntaxElement> {
    let step = |e: &SyntaxElement| match direction {
        Direction::Prev => e.prev_sibling_or_token(),
        Direction::Next => e.next_sibling_or_token(),
    };
    let mut next = step(&element);
    while let Some(e) = next {
        if !e.kind().is_trivia() {
            return Some(e);
        }
        next = step(&e);
    }
    None
}

/// The range that removes `entry` from its comma-separated list with one of
/// its commas: `a, b` → `b` or `a`. `None` when it is the only entry.
fn remove_list_entry(entry: &SyntaxNode) -> Option<TextRange> {
    let range = entry.text_range();
    let element = SyntaxElement::Node(entry.clone());
    if let Some(comma) = non_trivia_sibling(element.clone(), Direction::Next)
        .filter(|e| e.kind() == SyntaxKind::COMMA)
    {
        let end = non_trivia_sibling(comma.clone(), Direction::Next)
            .map_or(comma.text_range().end(), |e| e.text_range().start());
        return Some(TextRange::new(range.start(), end));
    }
    let comma =
        non_trivia_sibling(element, Direction::Prev).filter(|e| e.kind() == SyntaxKind::COMMA)?;
    let start = non_trivia_sibling(comma.clone(), Direction::Prev)
        .map_or(comma.text_range().start(), |e| e.text_range().end());
    Some(TextRange::new(start, range.end()))
}

/// The range that removes a top-level item: its whole line when nothing else
/// is on it (and one of two blank lines it would leave together), otherwise
/// the item and the spaces on one side of it.
fn remove_lines(text: &str, range: TextRange) -> TextRange {
    let start = usize::from(range.start());
    let end = usize::from(range.end());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let alone = text[line_start..start].trim().is_empty() && text[end..line_end].trim().is_empty();
    let to =
        |a: usize, b: usize| TextRange::new(TextSize::from(a as u32), TextSize::from(b as u32));
    if !alone {
        let rest = &text[end..line_end];
        let trailing = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        if rest.trim().is_empty() {
            let before = &text[line_start..start];
            let leading = before.len() - before.trim_end_matches([' ', '\t']).len();
            return to(start - leading, end);
        }
        return to(start, end + trailing);
    }
    if line_end == text.len() {
        // The last line, with no newline after it: take the one before.
        let from = text[..line_start]
            .strip_suffix('\n')
            .map_or(line_start, |t| t.trim_end_matches('\r').len());
        return to(from, line_end);
    }
    let mut until = line_end + 1;
    let blank_before = line_start == 0 || {
        let previous = &text[..line_start - 1];
        let previous_start = previous.rfind('\n').map_or(0, |i| i + 1);
        previous[previous_start..].trim().is_empty()
    };
    let next_end = text[until..].find('\n').map(|i| until + i);
    if let Some(next_end) = next_end
        && blank_before
        && text[until..next_end].trim().is_empty()
    {
        until = next_end + 1;
    }
    to(line_start, until)
}

/// Where to put a new line after `offset`: the end of its line when only
/// spaces or a line comment follow, else `offset` itself.
fn end_of_line_if_free(text: &str, offset: TextSize) -> TextSize {
    let at = usize::from(offset);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let rest = text[at..line_end].trim_end_matches('\r');
    let trimmed = rest.trim();
    if trimmed.is_empty() || trimmed.starts_with("//") {
        TextSize::from((at + rest.len()) as u32)
    } else {
        offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{apply, fixture};
    use easyflow_diagnostics::Code;

    fn codes(text: &str) -> Vec<Code> {
        let f = fixture(text);
        file_diagnostics(&f.db, f.file)
            .iter()
            .map(|d| d.code)
            .collect()
    }

    /// The actions at the cursor (`$0`, or a `$0…$0` range) for `code`.
    fn actions_for(text: &str, code: Code) -> (String, Vec<CodeAction>) {
        let f = fixture(text);
        let range = f.range.unwrap_or(TextRange::empty(f.offset));
        let actions = code_actions(&f.db, f.file, range)
            .into_iter()
            .filter(|a| a.diagnostic.as_ref().map(|d| d.code) == Some(code))
            .collect();
        (f.text, actions)
    }

    /// Applies the action titled `title` for `code` at the cursor, checks the
    /// result and that it has no `code` left.
    fn check_fix(before: &str, code: Code, title: &str, preferred: bool, after: &str) {
        let (text, actions) = actions_for(before, code);
        assert!(
            codes(&text).contains(&code),
            "{code:?} not reported for {text:?}"
        );
        let Some(action) = actions.iter().find(|a| a.title == title) else {
            let titles: Vec<&str> = actions.iter().map(|a| a.title.as_str()).collect();
            panic!("no action {title:?} for {code:?}; got {titles:?}");
        };
        assert_eq!(action.kind, CodeActionKind::QuickFix);
        assert_eq!(action.is_preferred, preferred, "{title}");
        let fixed = apply(&text, &action.edits);
        assert_eq!(fixed, after);
        assert!(
            !codes(&fixed).contains(&code),
            "{code:?} is still reported after the fix: {:?}",
            codes(&fixed)
        );
    }

    /// The titles of the fixes of `code` at the cursor, less "Allow CODE on
    /// this line", which every warning and note has (`allow.rs`).
    fn titles(text: &str, code: Code) -> Vec<(String, bool)> {
        actions_for(text, code)
            .1
            .into_iter()
            .filter(|a| a.title != format!("Allow {code} on this line"))
            .map(|a| (a.title, a.is_preferred))
            .collect()
    }

    #[test]
    fn e0100_inserts_a_missing_comma_or_closer() {
        check_fix(
            "require a$0 b;\nstep A runs P (x = a, y = b);\n",
            Code::E0100,
            "Insert `,`",
            true,
            "require a, b;\nstep A runs P (x = a, y = b);\n",
        );
        assert_eq!(
            titles(
                "require a$0 b;\nstep A runs P (x = a, y = b);\n",
                Code::E0100
            ),
            vec![
                ("Insert `,`".to_string(), true),
                ("Insert `;`".to_string(), false)
            ]
        );
        check_fix(
            "require a$0\nstep A runs P (x = a);\n",
            Code::E0100,
            "Insert `;`",
            true,
            "require a;\nstep A runs P (x = a);\n",
        );
        check_fix(
            "step A runs P (x = 1$0\n  y = 2);\n",
            Code::E0100,
            "Insert `,`",
            true,
            "step A runs P (x = 1,\n  y = 2);\n",
        );
        check_fix(
            "step A runs P (x = [1$0 2]);\n",
            Code::E0100,
            "Insert `,`",
            true,
            "step A runs P (x = [1, 2]);\n",
        );
        check_fix(
            "step A runs P (x = [1, 2$0);\n",
            Code::E0100,
            "Insert `]`",
            true,
            "step A runs P (x = [1, 2]);\n",
        );
        check_fix(
            "step A runs P (x = [1, 2$0,\n  y = 3);\n",
            Code::E0100,
            "Insert `]`",
            true,
            "step A runs P (x = [1, 2],\n  y = 3);\n",
        );
        check_fix(
            "step A runs P (x = 1$0\nstep B runs P ();\n",
            Code::E0100,
            "Insert `)`",
            true,
            "step A runs P (x = 1)\nstep B runs P ();\n",
        );
    }

    #[test]
    fn e0100_other_errors_have_no_fix() {
        // An unexpected token (not a missing one), and a missing `(`.
        assert!(
            actions_for("step A runs P (x = $0= 1);\n", Code::E0100)
                .1
                .is_empty()
        );
        assert!(
            actions_for("step A runs P$0 x = 1);\n", Code::E0100)
                .1
                .is_empty()
        );
    }

    #[test]
    fn e0201_replaces_with_the_suggestion_or_requires_the_name() {
        check_fix(
            "step Load runs P ();\nstep B runs Q (x = Lod$0.outs);\n",
            Code::E0201,
            "Replace with `Load`",
            true,
            "step Load runs P ();\nstep B runs Q (x = Load.outs);\n",
        );
        // A member: only a step fits.
        assert_eq!(
            titles(
                "step Load runs P ();\nstep B runs Q (x = Lod$0.outs);\n",
                Code::E0201
            ),
            vec![("Replace with `Load`".to_string(), true)]
        );
        assert_eq!(
            titles(
                "step Load runs P ();\nstep B runs Q (x = Lod$0);\n",
                Code::E0201
            ),
            vec![
                ("Replace with `Load`".to_string(), true),
                ("Add `require Lod;`".to_string(), false)
            ]
        );
        assert!(titles("step B runs Q (x = Xyz$0.outs);\n", Code::E0201).is_empty());
        // A stream source cannot be a file.
        assert!(titles("~step B runs Q (x <- Xyz$0);\n", Code::E0201).is_empty());
    }

    #[test]
    fn crlf_text_keeps_its_line_ends() {
        check_fix(
            "require a;\r\n\r\nstep A runs P (x = a, y = inp$0ut);\r\n",
            Code::E0201,
            "Add `require input;`",
            true,
            "require a;\r\nrequire input;\r\n\r\nstep A runs P (x = a, y = input);\r\n",
        );
        check_fix(
            "require a;\r\nrequire unused$0;\r\nstep A runs P (x = a);\r\n",
            Code::W0206,
            "Remove `require unused;`",
            true,
            "require a;\r\nstep A runs P (x = a);\r\n",
        );
    }

    #[test]
    fn e0201_adds_a_require_in_the_right_place() {
        // After the last `require`.
        check_fix(
            "require a;\nrequire b; // inputs\n\nstep A runs P (x = a, y = b, z = inp$0ut);\n",
            Code::E0201,
            "Add `require input;`",
            true,
            "require a;\nrequire b; // inputs\nrequire input;\n\nstep A runs P (x = a, y = b, z = input);\n",
        );
        // After the leading comments and flow attributes.
        check_fix(
            "// A flow.\n[flow: name = \"x\"]\n\nstep A runs P (x = inp$0ut);\n",
            Code::E0201,
            "Add `require input;`",
            true,
            "// A flow.\n[flow: name = \"x\"]\nrequire input;\n\nstep A runs P (x = input);\n",
        );
        // At the top.
        check_fix(
            "step A runs P (x = inp$0ut);\n",
            Code::E0201,
            "Add `require input;`",
            true,
            "require input;\n\nstep A runs P (x = input);\n",
        );
    }

    #[test]
    fn e0202_replaces_with_the_suggested_step() {
        check_fix(
            "step Load runs P ();\nstep B runs Q after Lod$0 ();\n",
            Code::E0202,
            "Replace with `Load`",
            true,
            "step Load runs P ();\nstep B runs Q after Load ();\n",
        );
        assert!(titles("step B runs Q after Xyz$0 ();\n", Code::E0202).is_empty());
    }

    #[test]
    fn w0204_removes_the_repeated_name() {
        check_fix(
            "require a, b, a$0;\nstep A runs P (x = a, y = b);\n",
            Code::W0204,
            "Remove the repeated `a`",
            true,
            "require a, b;\nstep A runs P (x = a, y = b);\n",
        );
        check_fix(
            "require b, a;\nrequire a$0, c;\nstep A runs P (x = a, y = b, z = c);\n",
            Code::W0204,
            "Remove the repeated `a`",
            true,
            "require b, a;\nrequire c;\nstep A runs P (x = a, y = b, z = c);\n",
        );
        check_fix(
            "require a;\nrequire a$0;\nstep A runs P (x = a);\n",
            Code::W0204,
            "Remove `require a;`",
            true,
            "require a;\nstep A runs P (x = a);\n",
        );
    }

    #[test]
    fn w0206_removes_the_unused_name() {
        check_fix(
            "require a, unused$0, b;\nstep A runs P (x = a, y = b);\n",
            Code::W0206,
            "Remove unused `unused`",
            true,
            "require a, b;\nstep A runs P (x = a, y = b);\n",
        );
        check_fix(
            "require a,\n        unused$0;\nstep A runs P (x = a);\n",
            Code::W0206,
            "Remove unused `unused`",
            true,
            "require a;\nstep A runs P (x = a);\n",
        );
        check_fix(
            "require a;\nrequire unused$0;\n\nstep A runs P (x = a);\n",
            Code::W0206,
            "Remove `require unused;`",
            true,
            "require a;\n\nstep A runs P (x = a);\n",
        );
        // The only `require` at the top: no blank first line is left.
        check_fix(
            "require unused$0;\n\nstep A runs P ();\n",
            Code::W0206,
            "Remove `require unused;`",
            true,
            "step A runs P ();\n",
        );
        // Sharing its line with a step.
        check_fix(
            "require unused$0; step A runs P ();\n",
            Code::W0206,
            "Remove `require unused;`",
            true,
            "step A runs P ();\n",
        );
        // The last line of the file.
        check_fix(
            "step A runs P ();\nrequire unused$0;",
            Code::W0206,
            "Remove `require unused;`",
            true,
            "step A runs P ();",
        );
    }

    #[test]
    fn w0208_removes_the_repeated_entry() {
        check_fix(
            "step A runs P ();\nstep B runs P ();\nstep C runs P after A, B, A$0 ();\n",
            Code::W0208,
            "Remove the repeated `A`",
            true,
            "step A runs P ();\nstep B runs P ();\nstep C runs P after A, B ();\n",
        );
        check_fix(
            "step A runs P ();\nstep C runs P after A, A$0 ();\n",
            Code::W0208,
            "Remove the repeated `A`",
            true,
            "step A runs P ();\nstep C runs P after A ();\n",
        );
    }

    #[test]
    fn i0209_removes_the_redundant_entry() {
        check_fix(
            "step A runs P ();\nstep B runs P ();\nstep C runs P after A$0, B (x = A.outs);\n",
            Code::I0209,
            "Remove the redundant `A`",
            true,
            "step A runs P ();\nstep B runs P ();\nstep C runs P after B (x = A.outs);\n",
        );
        check_fix(
            "step A runs P ();\nstep C runs P after A$0 (x = A.outs);\n",
            Code::I0209,
            "Remove `after A`",
            true,
            "step A runs P ();\nstep C runs P (x = A.outs);\n",
        );
        check_fix(
            "step A runs P ();\nstep C runs P\n  after A$0\n  (x = A.outs);\n",
            Code::I0209,
            "Remove `after A`",
            true,
            "step A runs P ();\nstep C runs P\n  (x = A.outs);\n",
        );
    }

    #[test]
    fn e0401_makes_a_long_running_step() {
        check_fix(
            "step A runs P ();\n[priority = @high]\nstep B runs P (x <$0- A.outs);\n",
            Code::E0401,
            "Make it a `~step`",
            true,
            "step A runs P ();\n[priority = @high]\n~step B runs P (x <- A.outs);\n",
        );
    }

    #[test]
    fn e0403_wraps_the_value_in_a_list() {
        check_fix(
            "step A runs P (x = sweep 4$02);\n",
            Code::E0403,
            "Wrap the value in `[ ]`",
            true,
            "step A runs P (x = sweep [42]);\n",
        );
    }

    #[test]
    fn w0405_w0406_step_attributes() {
        check_fix(
            "[prori$0ty = @high]\nstep A runs P ();\n",
            Code::W0405,
            "Replace with `priority`",
            true,
            "[priority = @high]\nstep A runs P ();\n",
        );
        check_fix(
            "[priority = @hi$0hg]\nstep A runs P ();\n",
            Code::W0406,
            "Replace with `@high`",
            true,
            "[priority = @high]\nstep A runs P ();\n",
        );
        check_fix(
            "[mode = \"urgent\"$0]\nstep A runs P ();\n",
            Code::W0406,
            "Replace with `@urgent`",
            true,
            "[mode = @urgent]\nstep A runs P ();\n",
        );
        assert!(titles("[colour$0 = 1]\nstep A runs P ();\n", Code::W0405).is_empty());
    }

    #[test]
    fn w0501_w0502_flow_attributes() {
        check_fix(
            "[flow: autor$0 = \"me\"]\nstep A runs P ();\n",
            Code::W0501,
            "Replace with `author`",
            true,
            "[flow: author = \"me\"]\nstep A runs P ();\n",
        );
        check_fix(
            "[flow: priority = @lo$0]\nstep A runs P ();\n",
            Code::W0502,
            "Replace with `@low`",
            true,
            "[flow: priority = @low]\nstep A runs P ();\n",
        );
        assert!(titles("[flow: mode = @raw$0]\nstep A runs P ();\n", Code::W0502).is_empty());
    }

    #[test]
    fn e0408_replaces_on_with_after() {
        check_fix(
            "step A runs P ();\nstep B runs P o$0n A ();\n",
            Code::E0408,
            "Replace `on` with `after`",
            true,
            "step A runs P ();\nstep B runs P after A ();\n",
        );
    }

    #[test]
    fn only_diagnostics_in_the_range() {
        let text = "require unused;\nstep A runs P after Lod ();\nstep Load runs P ();\n";
        let f = fixture(text);
        let whole = TextRange::up_to(TextSize::of(text));
        let all: Vec<Code> = code_actions(&f.db, f.file, whole)
            .iter()
            .filter_map(|a| a.diagnostic.as_ref().map(|d| d.code))
            .collect();
        // W0206's removal, W0206's "Allow W0206 on this line", E0202's.
        assert_eq!(all, vec![Code::W0206, Code::W0206, Code::E0202]);
        let none = code_actions(&f.db, f.file, TextRange::empty(TextSize::of(text)));
        assert!(none.is_empty());
    }

    #[test]
    fn fix_all_takes_every_preferred_fix_that_does_not_meet_another() {
        let text = "require a b;\nrequire unused;\nstep Load runs P ();\nstep A runs P after Lod, Load, Load (x = a, y = b);\nstep B runs P on A (x <- Load.outs);\n";
        let f = fixture(text);
        let all = fix_all(&f.db, f.file);
        let taken: Vec<(Code, &str)> = all
            .fixes
            .iter()
            .map(|(title, d)| (d.code, title.as_str()))
            .collect();
        assert_eq!(
            taken,
            vec![
                (Code::E0100, "Insert `,`"),
                (Code::W0206, "Remove `require unused;`"),
                (Code::E0202, "Replace with `Load`"),
                (Code::W0208, "Remove the repeated `Load`"),
                (Code::E0408, "Replace `on` with `after`"),
                (Code::E0401, "Make it a `~step`"),
            ]
        );
        let fixed = apply(&f.text, &all.edits);
        assert_eq!(
            fixed,
            "require a, b;\nstep Load runs P ();\nstep A runs P after Load, Load (x = a, y = b);\n~step B runs P after A (x <- Load.outs);\n"
        );
        // One pass: the `Load` that `Lod` became is now listed twice, which
        // the next pass removes.
        assert_eq!(codes(&fixed), vec![Code::W0208]);
        let again = fixture(&fixed);
        let second = apply(&again.text, &fix_all(&again.db, again.file).edits);
        assert!(codes(&second).is_empty(), "{second}");
        assert!(
            fix_all(&fixture(&second).db, fixture(&second).file)
                .fixes
                .is_empty()
        );
    }

    #[test]
    fn fix_all_skips_fixes_at_the_same_place_and_the_unpreferred() {
        // Both E0201 fixes add a `require` at the top: the second waits.
        let text = "step A runs P (x = inp, y = other);\n";
        let f = fixture(text);
        let all = fix_all(&f.db, f.file);
        assert_eq!(all.fixes.len(), 1);
        assert_eq!(
            apply(&f.text, &all.edits),
            "require inp;\n\nstep A runs P (x = inp, y = other);\n"
        );
        // No preferred fix (an allow comment is never preferred): nothing.
        let f = fixture("step A runs P (x = sweep 1, y = Xyz.outs);\n");
        assert!(codes(&f.text).contains(&Code::E0201));
        let actions = fix_all_action(&f.db, f.file).expect("the sweep's fix");
        assert_eq!(actions.kind, CodeActionKind::FixAll);
        assert_eq!(actions.title, "Fix all: apply 1 preferred fix");
        let f = fixture("step A runs P (x = Xyz.outs);\n");
        assert_eq!(fix_all_action(&f.db, f.file), None);
    }

    /// The kinds of fix, numbered by an exhaustive match: a new kind does
    /// not compile until it is numbered here, and then
    /// `fixes_never_read_the_message` fails until its list has an example of
    /// it (a number past [`FIX_KINDS`] fails it too).
    fn kind_number(fix: &Fix) -> Option<usize> {
        Some(match fix {
            Fix::None => return None,
            Fix::InsertToken(_) => 0,
            Fix::Replace(_) => 1,
            Fix::UnresolvedName { .. } => 2,
            Fix::RemoveRequire(_) => 3,
            Fix::RemoveDependency(_) => 4,
            Fix::MakeLongRunning => 5,
            Fix::WrapInList => 6,
            Fix::UseAfter => 7,
            Fix::AddParams(_) => 8,
            Fix::RemoveAllowed => 9,
        })
    }

    /// How many kinds of fix [`kind_number`] numbers.
    const FIX_KINDS: usize = 10;

    /// Every kind of fix, with the message of its diagnostic blanked: the
    /// same edits, so nothing is read from the message.
    #[test]
    fn fixes_never_read_the_message() {
        let texts = [
            "require a$0 b;\nstep A runs P (x = a, y = b);\n",
            "step Load runs P ();\nstep B runs Q (x = Lod$0);\n",
            "step B runs Q (x = inp$0ut);\n",
            "step Load runs P ();\nstep B runs Q after Lod$0 ();\n",
            "require a, b, a$0;\nstep A runs P (x = a, y = b);\n",
            "require a;\nrequire unused$0;\nstep A runs P (x = a);\n",
            "step A runs P ();\nstep C runs P after A, A$0 ();\n",
            "step A runs P ();\nstep C runs P after A$0 (x = A.outs);\n",
            "step A runs P ();\nstep B runs P (x <$0- A.outs);\n",
            "step A runs P (x = sweep 4$02);\n",
            "[prori$0ty = @high]\nstep A runs P ();\n",
            "[priority = @hi$0hg]\nstep A runs P ();\n",
            "[flow: autor$0 = \"me\"]\nstep A runs P ();\n",
            "[flow: priority = @lo$0]\nstep A runs P ();\n",
            "step A runs P ();\nstep B runs P o$0n A ();\n",
            "step A runs P (); // easyflow: allow(I0209, W0$0206)\n",
        ];
        // With the catalog of `crate::catalog`'s tests.
        let with_catalog = ["step $0A runs ORCA.DFT (charge = 0);\n"];
        let fixtures =
            texts
                .iter()
                .map(|text| (*text, fixture(text)))
                .chain(with_catalog.iter().map(|text| {
                    (
                        *text,
                        crate::fixture::with_catalog(text, crate::fixture::CATALOG),
                    )
                }));
        let mut covered = [false; FIX_KINDS];
        for (text, f) in fixtures {
            let at = TextRange::empty(f.offset);
            let diagnostics = file_diagnostics(&f.db, f.file);
            let fixed: Vec<&Diagnostic> = diagnostics
                .iter()
                .filter(|d| d.range.intersect(at).is_some() && d.fix != Fix::None)
                .collect();
            assert!(!fixed.is_empty(), "no fix at the cursor in {text:?}");
            for diagnostic in fixed {
                if let Some(kind) = kind_number(&diagnostic.fix) {
                    covered[kind] = true;
                }
                let blank = Diagnostic {
                    message: String::new(),
                    ..diagnostic.clone()
                };
                let edits = |actions: Vec<CodeAction>| -> Vec<(String, Vec<TextEdit>, bool)> {
                    actions
                        .into_iter()
                        .map(|a| (a.title, a.edits, a.is_preferred))
                        .collect()
                };
                let text = OnceCell::new();
                let with_message = edits(fixes_of(&f.db, f.file, &text, diagnostic));
                assert!(!with_message.is_empty(), "{diagnostic:?}");
                assert_eq!(with_message, edits(fixes_of(&f.db, f.file, &text, &blank)));
            }
        }
        let missing: Vec<usize> = (0..FIX_KINDS).filter(|&kind| !covered[kind]).collect();
        assert!(
            missing.is_empty(),
            "no example of the fix kinds {missing:?}"
        );
    }
}
