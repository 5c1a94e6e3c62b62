//! The quick fixes of allow comments (`config.md`, "Silencing and promoting
//! diagnostics"): "Allow CODE on this line" on every warning and
//! information note, which adds the code to the allow comment that applies
//! to the diagnostic's line or writes one; and W0905's, which removes a
//! code that silences nothing from its comment (the whole comment when it
//! is the last). The comments are the analysis's
//! ([`easyflow_db::silence::allow_comments`]), written as
//! `easyflow_diagnostics::allow` reads them.

use easyflow_db::silence::{AllowComment, allow_comments};
use easyflow_db::{Db, SourceFile, parse};
use easyflow_diagnostics::allow::{can_be_silenced, directive_text};
use easyflow_diagnostics::{Code, Diagnostic, TextRange, TextSize};
use easyflow_syntax::{SyntaxKind, SyntaxToken};

use crate::TextEdit;

/// "Allow CODE on this line" for a warning or an information note (not
/// W0905, which only `easyflow.toml` can allow): the code added to the
/// allow comment that applies to its line, else a comment at the line's
/// end when code ends it, else a comment on a line of its own above it.
/// `None` when the line neither ends nor starts outside a token that spans
/// lines (a string or a code block).
pub(crate) fn allow_on_its_line(
    db: &dyn Db,
    file: SourceFile,
    diagnostic: &Diagnostic,
) -> Option<(String, Vec<TextEdit>)> {
    let code = diagnostic.code;
    if !can_be_silenced(code) || code == Code::W0905 {
        return None;
    }
    let title = format!("Allow {code} on this line");
    let start = diagnostic.range.start();
    let comments = allow_comments(db, file);
    if let Some(comment) = comments.iter().find(|c| c.applies_at(start)) {
        return Some((title, vec![add_code(comment, code)]));
    }
    let root = parse(db, file).syntax();
    let token = root.token_at_offset(start).right_biased()?;
    let edit = match free_line_end(&token) {
        Some((from, to)) => TextEdit {
            range: TextRange::new(from, to),
            insert: format!(" {}", directive_text(code)),
        },
        None => {
            let (line_start, indent, newline) = clean_line_start(&token, start)?;
            TextEdit {
                range: TextRange::empty(line_start),
                insert: format!("{indent}{}{newline}", directive_text(code)),
            }
        }
    };
    Some((title, vec![edit]))
}

/// The edit that adds `code` to `comment`'s list.
fn add_code(comment: &AllowComment, code: Code) -> TextEdit {
    let insert = match comment.codes.is_empty() {
        true => code.to_string(),
        false => format!(", {code}"),
    };
    TextEdit {
        range: TextRange::empty(comment.insert_at),
        insert,
    }
}

/// Where a comment can end the line `token` is on: from the end of its last
/// code (or block comment) to the line's end, when no line comment ends the
/// line and it does not end inside a token that spans lines.
fn free_line_end(token: &SyntaxToken) -> Option<(TextSize, TextSize)> {
    let mut last: Option<SyntaxToken> = None;
    let mut next = Some(token.clone());
    while let Some(candidate) = next {
        let ends_line = candidate.text().contains(['\n', '\r']);
        match candidate.kind() {
            SyntaxKind::NEWLINE => break,
            // The line ends inside a string, a code block or a comment.
            _ if ends_line => return None,
            SyntaxKind::WHITESPACE => {}
            SyntaxKind::LINE_COMMENT => return None,
            _ => last = Some(candidate.clone()),
        }
        next = candidate.next_token();
    }
    let last = last?;
    let end = last.text_range().end();
    let mut line_end = end;
    let mut next = last.next_token();
    while let Some(space) = next.filter(|t| t.kind() == SyntaxKind::WHITESPACE) {
        line_end = space.text_range().end();
        next = space.next_token();
    }
    Some((end, line_end))
}

/// The start of the line that `offset` (in `token`) is on, with its
/// indentation and its line break, when the line starts between tokens
/// (not inside a string or a code block that spans lines).
fn clean_line_start(
    token: &SyntaxToken,
    offset: TextSize,
) -> Option<(TextSize, String, &'static str)> {
    let within = usize::from(offset - token.text_range().start());
    if token.text()[..within].contains('\n') {
        return None;
    }
    let mut previous = token.prev_token();
    let mut indent = String::new();
    let mut line_start = token.text_range().start();
    while let Some(candidate) = previous {
        let text = candidate.text();
        if text.contains('\n') {
            if candidate.kind() != SyntaxKind::NEWLINE {
                return None;
            }
            let newline = if text.ends_with("\r\n") { "\r\n" } else { "\n" };
            return Some((line_start, indent, newline));
        }
        indent = match candidate.kind() {
            SyntaxKind::WHITESPACE => text.to_string(),
            _ => String::new(),
        };
        line_start = candidate.text_range().start();
        previous = candidate.prev_token();
    }
    Some((0.into(), indent, "\n"))
}

/// What W0905's fix removes.
pub(crate) enum UnusedCode {
    /// The code, with one comma: the comment has others.
    Code(TextRange),
    /// The whole comment (its range), whose only code it is.
    Comment(TextRange),
}

/// W0905's fix: its title, and the code at the diagnostic's range removed
/// from its allow comment, or the whole comment when it has no other code.
pub(crate) fn unused_code(
    db: &dyn Db,
    file: SourceFile,
    diagnostic: &Diagnostic,
) -> Option<(String, UnusedCode)> {
    let range = diagnostic.range;
    let comment = allow_comments(db, file)
        .iter()
        .find(|c| c.range.contains_range(range))?;
    let index = comment.codes.iter().position(|(r, _)| *r == range)?;
    let name = &comment.codes[index].1;
    let removed = match (comment.codes.get(index + 1), index.checked_sub(1)) {
        (Some((next, _)), _) => TextRange::new(range.start(), next.start()),
        (None, Some(previous)) => TextRange::new(comment.codes[previous].0.end(), range.end()),
        (None, None) => {
            return Some((
                "Remove the allow comment".to_string(),
                UnusedCode::Comment(comment.range),
            ));
        }
    };
    Some((
        format!("Remove `{name}` from the allow comment"),
        UnusedCode::Code(removed),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code_actions::code_actions;
    use crate::fixture::{apply, fixture};
    use easyflow_db::{Setter, file_diagnostics};
    use easyflow_diagnostics::Severity;
    use easyflow_diagnostics::allow::CodeLevels;

    fn reported(text: &str) -> Vec<String> {
        let f = fixture(text);
        file_diagnostics(&f.db, f.file)
            .iter()
            .map(|d| format!("{} {}", d.code, &text[d.range]))
            .collect()
    }

    /// Applies the action titled `title` at the cursor, and checks that
    /// the result is `after` and reports what `left` says.
    fn check_action(before: &str, title: &str, after: &str, left: &[&str]) {
        let f = fixture(before);
        let range = f.range.unwrap_or(TextRange::empty(f.offset));
        let actions = code_actions(&f.db, f.file, range);
        let Some(action) = actions.iter().find(|a| a.title == title) else {
            let titles: Vec<&str> = actions.iter().map(|a| a.title.as_str()).collect();
            panic!("no action {title:?} in {before:?}; got {titles:?}");
        };
        let fixed = apply(&f.text, &action.edits);
        assert_eq!(fixed, after);
        assert_eq!(reported(&fixed), left, "after {title:?}");
    }

    #[test]
    fn allowing_a_warning_writes_a_comment_at_the_lines_end() {
        check_action(
            "require a, b$0;\nstep A runs P (x = a);\n",
            "Allow W0206 on this line",
            "require a, b; // easyflow: allow(W0206)\nstep A runs P (x = a);\n",
            &[],
        );
        // Spaces at the line's end are replaced; a block comment stays.
        check_action(
            "require b$0; /* why */  \r\nstep A runs P ();\r\n",
            "Allow W0206 on this line",
            "require b; /* why */ // easyflow: allow(W0206)\r\nstep A runs P ();\r\n",
            &[],
        );
    }

    #[test]
    fn allowing_a_note_inside_a_step_writes_at_its_line() {
        check_action(
            "step A runs P ();\nstep B runs P after\n  A$0\n(\n  x = A.outs\n);\n",
            "Allow I0209 on this line",
            "step A runs P ();\nstep B runs P after\n  A // easyflow: allow(I0209)\n(\n  x = A.outs\n);\n",
            &[],
        );
    }

    #[test]
    fn a_line_ended_by_a_comment_gets_one_above_it() {
        check_action(
            "step A runs P ();\n  step B runs P after A, A$0 (); // note\n",
            "Allow W0208 on this line",
            "step A runs P ();\n  // easyflow: allow(W0208)\n  step B runs P after A, A (); // note\n",
            &[],
        );
        // A line that ends inside a code block.
        check_action(
            "[prori$0ty = 1] step A runs P () pre code\necho\ncode end\n",
            "Allow W0405 on this line",
            "// easyflow: allow(W0405)\n[prority = 1] step A runs P () pre code\necho\ncode end\n",
            &[],
        );
    }

    #[test]
    fn the_code_joins_the_comment_that_applies_to_the_line() {
        check_action(
            "step A runs P ();\nstep C runs P after A, A$0 (); // easyflow: allow(I0209)\n",
            "Allow W0208 on this line",
            "step A runs P ();\nstep C runs P after A, A (); // easyflow: allow(I0209, W0208)\n",
            &["W0905 I0209"],
        );
        check_action(
            "step A runs P ();\n// easyflow: allow()\n\n// other\nstep C runs P after A, A$0 ();\n",
            "Allow W0208 on this line",
            "step A runs P ();\n// easyflow: allow(W0208)\n\n// other\nstep C runs P after A, A ();\n",
            &[],
        );
    }

    #[test]
    fn errors_and_w0905_cannot_be_allowed() {
        let f = fixture("step A runs P (x = B); // easyflow: allow(W0206)\n");
        let actions = code_actions(
            &f.db,
            f.file,
            TextRange::up_to(TextSize::of(f.text.as_str())),
        );
        let titles: Vec<&str> = actions.iter().map(|a| a.title.as_str()).collect();
        assert!(!titles.iter().any(|t| t.starts_with("Allow")), "{titles:?}");
        assert!(titles.contains(&"Remove the allow comment"), "{titles:?}");
    }

    #[test]
    fn w0905_removes_its_code_or_the_comment() {
        let flow = "require a;\nstep A runs P (x = a); // easyflow: allow(W0206, I0209)\n";
        assert_eq!(reported(flow), ["W0905 W0206", "W0905 I0209"]);
        check_action(
            &flow.replace("I0209", "I0$0209"),
            "Remove `I0209` from the allow comment",
            "require a;\nstep A runs P (x = a); // easyflow: allow(W0206)\n",
            &["W0905 W0206"],
        );
        check_action(
            &flow.replace("W0206", "W0$0206"),
            "Remove `W0206` from the allow comment",
            "require a;\nstep A runs P (x = a); // easyflow: allow(I0209)\n",
            &["W0905 I0209"],
        );
        check_action(
            "require a;\nstep A runs P (x = a); // easyflow: allow(W$00206)\n",
            "Remove the allow comment",
            "require a;\nstep A runs P (x = a);\n",
            &[],
        );
        check_action(
            "require a;\n\n  // easyflow: allow(E0201$0)\nstep A runs P (x = a);\n",
            "Remove the allow comment",
            "require a;\n\nstep A runs P (x = a);\n",
            &[],
        );
    }

    /// A denied warning is an error all the same, and a comment still
    /// silences it; the levels apply to W0905 too.
    #[test]
    fn levels_promote_and_silence_after_the_comments() {
        let f = fixture(
            "require a, b, c; // easyflow: allow(W0206)\nstep B runs P ();\nstep A runs P after B, B (x = a); // easyflow: allow(I0209)\n",
        );
        let report = |f: &crate::fixture::Fixture| -> Vec<(Code, Severity)> {
            file_diagnostics(&f.db, f.file)
                .iter()
                .map(|d| (d.code, d.severity))
                .collect()
        };
        assert_eq!(
            report(&f),
            [
                (Code::W0208, Severity::Warning),
                (Code::W0905, Severity::Warning)
            ]
        );
        let mut f = f;
        f.file
            .set_levels(&mut f.db)
            .to(CodeLevels::new([Code::W0905], [Code::W0208, Code::W0206]));
        assert_eq!(report(&f), [(Code::W0208, Severity::Error)]);
    }
}
