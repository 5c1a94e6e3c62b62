//! Documentation comments (`lsp.md`, "Beyond the flow file"): the run of
//! own-line `//` comments directly above a step (its first attribute, or
//! its `step` keyword when it has none) or a `require` line, with no blank
//! line between, is that item's documentation; allow directives
//! (`// easyflow: allow(…)`) are left out of it. Hover and completion read
//! it here, the one place that knows the rule.
//!
//! It is read from the current parse's tree on demand, a few tokens back
//! from the item's first token, and kept nowhere: nothing of it is in the
//! analysis, so an edit of a comment re-runs nothing but the parse. (The
//! steps' chunks would be the wrong source: a chunk is identified by its
//! items' texts, not the comments between them, so it may keep an older
//! comment's text.)

use easyflow_db::{Db, SourceFile, StepId, file_outline, parse};
use easyflow_diagnostics::allow::parse_directive;
use easyflow_syntax::{SyntaxKind, SyntaxToken};

/// The documentation of step `step`, as Markdown.
pub fn step_documentation(db: &dyn Db, file: SourceFile, step: StepId) -> Option<String> {
    let start = file_outline(db, file).step(db, step)?.offset;
    let root = parse(db, file).syntax();
    let first = root.token_at_offset(start).right_biased()?;
    documentation_above(&first)
}

/// The documentation of the `require` line of the `entry`-th required name
/// (the index of the outline's and the item index's `requires`): every
/// name of a line shares the line's.
pub fn require_documentation(db: &dyn Db, file: SourceFile, entry: u32) -> Option<String> {
    let name = file_outline(db, file).requires.get(entry as usize)?;
    let root = parse(db, file).syntax();
    let token = root.token_at_offset(name.range.start()).right_biased()?;
    let require = token
        .parent_ancestors()
        .find(|n| n.kind() == SyntaxKind::REQUIRE)?;
    documentation_above(&require.first_token()?)
}

/// The documentation comment run ending on the line above `first` (an
/// item's first token), its lines in order, each without its `//` and the
/// one space after it.
fn documentation_above(first: &SyntaxToken) -> Option<String> {
    let mut lines: Vec<&str> = Vec::new();
    // Every comment kept, so that the lines borrow from them.
    let mut comments: Vec<SyntaxToken> = Vec::new();
    let mut below = first.clone();
    loop {
        // Between the item (or the comment below) and the line above:
        // spaces, one line break, spaces.
        let Some(line_break) = skip_spaces(below.prev_token()) else {
            break;
        };
        if !is_one_line_break(&line_break) {
            break;
        }
        let Some(comment) =
            skip_spaces(line_break.prev_token()).filter(|t| t.kind() == SyntaxKind::LINE_COMMENT)
        else {
            break;
        };
        // On a line of its own: after a line break, or at the file's start.
        if skip_spaces(comment.prev_token()).is_some_and(|t| t.kind() != SyntaxKind::NEWLINE) {
            break;
        }
        below = comment.clone();
        comments.push(comment);
    }
    for comment in comments.iter().rev() {
        let text = comment.text();
        if parse_directive(text).is_some() {
            continue;
        }
        let line = text.trim_start_matches('/');
        lines.push(line.strip_prefix(' ').unwrap_or(line).trim_end());
    }
    let documentation = lines.join("\n");
    let documentation = documentation.trim_matches('\n');
    (!documentation.is_empty()).then(|| documentation.to_string())
}

/// `token`, or the first token before it that is not a run of spaces.
fn skip_spaces(mut token: Option<SyntaxToken>) -> Option<SyntaxToken> {
    while let Some(t) = token
        .as_ref()
        .filter(|t| t.kind() == SyntaxKind::WHITESPACE)
    {
        token = t.prev_token();
    }
    token
}

/// A line break that leaves no blank line (the lexer makes one token of a
/// run of line breaks).
fn is_one_line_break(token: &SyntaxToken) -> bool {
    token.kind() == SyntaxKind::NEWLINE && matches!(token.text(), "\n" | "\r\n" | "\r")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::fixture;

    fn step_docs(text: &str, step: u32) -> Option<String> {
        let f = fixture(text);
        step_documentation(&f.db, f.file, StepId(step))
    }

    fn require_docs(text: &str, entry: u32) -> Option<String> {
        let f = fixture(text);
        require_documentation(&f.db, f.file, entry)
    }

    #[test]
    fn the_comment_run_directly_above_a_step() {
        let text = "// Loads the samples.\n//\n//   from disk\nstep Load runs P ();\n";
        assert_eq!(
            step_docs(text, 0).as_deref(),
            Some("Loads the samples.\n\n  from disk")
        );
        // Above its first attribute, not between the attribute and `step`.
        let text = "// Fast.\n[priority = @high]\n// not this\nstep A runs P ();\n";
        assert_eq!(step_docs(text, 0).as_deref(), Some("Fast."));
        // Indented comments, CRLF line ends.
        let text = "  // One.\r\n  // Two.\r\n  step A runs P ();\r\n";
        assert_eq!(step_docs(text, 0).as_deref(), Some("One.\nTwo."));
        // The first line of the file.
        assert_eq!(
            step_docs("// Top.\nstep A runs P ();", 0).as_deref(),
            Some("Top.")
        );
    }

    #[test]
    fn a_blank_line_ends_the_run_and_allow_directives_are_left_out() {
        let text = "// Not this.\n\n// This.\n// easyflow: allow(W0206)\n// And this.\nstep A runs P ();\n";
        assert_eq!(step_docs(text, 0).as_deref(), Some("This.\nAnd this."));
        let text = "// About the file.\n\nstep A runs P ();\n";
        assert_eq!(step_docs(text, 0), None);
        let text = "// easyflow: allow(W0206)\nstep A runs P ();\n";
        assert_eq!(step_docs(text, 0), None);
    }

    #[test]
    fn only_own_line_line_comments() {
        // A comment after code belongs to that line.
        let text = "step A runs P (); // about A\nstep B runs P ();\n";
        assert_eq!(step_docs(text, 1), None);
        let text = "// About B?\nstep A runs P (); step B runs P ();\n";
        assert_eq!(step_docs(text, 0).as_deref(), Some("About B?"));
        assert_eq!(step_docs(text, 1), None);
        // A block comment is no documentation, and ends the run.
        let text = "// a\n/* b */\nstep A runs P ();\n";
        assert_eq!(step_docs(text, 0), None);
        // Comments inside the step above are not above this one.
        let text = "step A runs P (\n  x = 1\n  // inside\n);\nstep B runs P ();\n";
        assert_eq!(step_docs(text, 1), None);
    }

    #[test]
    fn a_require_line_documents_each_of_its_names() {
        let text = "// The inputs.\nrequire a, b;\n// Unused.\n\nrequire c;\nstep A runs P (x = a, y = b, z = c);\n";
        assert_eq!(require_docs(text, 0).as_deref(), Some("The inputs."));
        assert_eq!(require_docs(text, 1).as_deref(), Some("The inputs."));
        assert_eq!(require_docs(text, 2), None);
        assert_eq!(require_docs(text, 3), None);
    }

    /// Steps in every chunk of a long flow, and the comments between
    /// chunks.
    #[test]
    fn across_chunks() {
        let mut text = String::new();
        for i in 0..600 {
            text.push_str(&format!("// Step {i}.\nstep S{i} runs P ();\n"));
        }
        let f = fixture(&text);
        for i in [0u32, 1, 63, 64, 65, 255, 256, 257, 599] {
            assert_eq!(
                step_documentation(&f.db, f.file, StepId(i)),
                Some(format!("Step {i}.")),
            );
        }
    }
}
