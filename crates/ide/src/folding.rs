//! Folding ranges: steps, parameter lists, multi-line lists, code blocks,
//! multi-line comments (a block comment, or consecutive `//` lines), and
//! runs of `require` statements or of flow attributes. Only things that
//! span lines fold.
//!
//! One walk over the green tree (no red nodes): it runs on whole files.

use easyflow_db::{Db, SourceFile, parse};
use easyflow_diagnostics::TextRange;
use easyflow_syntax::SourceText;
use easyflow_syntax::SyntaxKind::{self, *};
use easyflow_syntax::green::{GreenElementRef, GreenRef, GreenTokenRef};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FoldKind {
    /// Steps, parameter lists, lists, code blocks, runs of flow attributes.
    Region,
    /// A block comment, or consecutive line comments.
    Comment,
    /// A run of `require` statements.
    Imports,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fold {
    pub range: TextRange,
    pub kind: FoldKind,
}

/// The folds of `file`, sorted by start (an enclosing fold before the folds
/// it contains).
pub fn folding_ranges(db: &dyn Db, file: SourceFile) -> Vec<Fold> {
    let mut folder = Folder {
        text: file.text(db),
        folds: Vec::new(),
        comments: None,
        at_line_start: true,
        line_breaks: 0,
    };
    let mut run: Option<(SyntaxKind, TextRange)> = None;
    for child in GreenRef::root(parse(db, file).green()).top_level_children() {
        match child {
            GreenElementRef::Node(node) => {
                let kind = node.kind();
                run = match run {
                    Some((run_kind, range)) if run_kind == kind => {
                        Some((kind, range.cover(node.range())))
                    }
                    previous => {
                        if let Some(previous) = previous {
                            folder.run(previous);
                        }
                        matches!(kind, REQUIRE | FLOW_ATTRIBUTE).then_some((kind, node.range()))
                    }
                };
                folder.node(node);
            }
            GreenElementRef::Token(token) => {
                if !token.kind.is_trivia()
                    && let Some(previous) = run.take()
                {
                    folder.run(previous);
                }
                folder.token(token);
            }
        }
    }
    if let Some(previous) = run {
        folder.run(previous);
    }
    folder.end_comments();
    let mut folds = folder.folds;
    folds.sort_by_key(|fold| (fold.range.start(), std::cmp::Reverse(fold.range.end())));
    folds
}

struct Folder<'a> {
    text: &'a SourceText,
    folds: Vec<Fold>,
    /// The current run of line comments: the first, the last, how many.
    comments: Option<(TextRange, TextRange, u32)>,
    /// Only whitespace since the last line break (or the start).
    at_line_start: bool,
    /// Line breaks since the last line comment.
    line_breaks: u32,
}

impl Folder<'_> {
    fn add(&mut self, range: TextRange, kind: FoldKind) {
        let mut pieces = self.text.pieces(range).into_iter().flatten();
        if pieces.any(|piece| piece.contains(['\n', '\r'])) {
            self.folds.push(Fold { range, kind });
        }
    }

    /// A run of top-level items of one kind.
    fn run(&mut self, (kind, range): (SyntaxKind, TextRange)) {
        match kind {
            REQUIRE => self.add(range, FoldKind::Imports),
            FLOW_ATTRIBUTE => self.add(range, FoldKind::Region),
            _ => {}
        }
    }

    fn node(&mut self, node: GreenRef<'_>) {
        if matches!(node.kind(), STEP | PARAM_BLOCK | LIST_EXPR) {
            self.add(node.range(), FoldKind::Region);
        }
        for child in node.children() {
            match child {
                GreenElementRef::Node(child) => self.node(child),
                GreenElementRef::Token(token) => self.token(token),
            }
        }
    }

    fn token(&mut self, token: GreenTokenRef<'_>) {
        match token.kind {
            WHITESPACE => return,
            NEWLINE => {
                let breaks = token.text.matches('\n').count() + token.text.matches('\r').count()
                    - token.text.matches("\r\n").count();
                self.line_breaks += breaks as u32;
                self.at_line_start = true;
                return;
            }
            LINE_COMMENT if self.at_line_start => {
                match &mut self.comments {
                    Some((_, last, count)) if self.line_breaks == 1 => {
                        *last = token.range;
                        *count += 1;
                    }
                    _ => {
                        self.end_comments();
                        self.comments = Some((token.range, token.range, 1));
                    }
                }
                self.line_breaks = 0;
            }
            BLOCK_COMMENT => {
                self.end_comments();
                self.add(token.range, FoldKind::Comment);
            }
            CODE_BLOCK => {
                self.end_comments();
                self.add(token.range, FoldKind::Region);
            }
            _ => self.end_comments(),
        }
        self.at_line_start = false;
    }

    fn end_comments(&mut self) {
        if let Some((first, last, count)) = self.comments.take()
            && count > 1
        {
            self.add(first.cover(last), FoldKind::Comment);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use expect_test::{Expect, expect};

    use super::*;
    use crate::fixture::fixture;

    fn check(text: &str, expect: Expect) {
        let f = fixture(text);
        let mut out = String::new();
        for fold in folding_ranges(&f.db, f.file) {
            let _ = writeln!(out, "{:?} {:?}", fold.kind, &f.text[fold.range]);
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn steps_parameter_lists_lists_and_code_blocks() {
        check(
            r#"step One runs P (x = 1);
[priority = @high]
step A runs P (
  x = sweep [1,
             2],
  y = [3, 4]
)
post code ruby
  puts 1
code end;
step B runs P (x = 1)
  pre code
  code end
"#,
            expect![[r#"
                Region "[priority = @high]\nstep A runs P (\n  x = sweep [1,\n             2],\n  y = [3, 4]\n)\npost code ruby\n  puts 1\ncode end;"
                Region "(\n  x = sweep [1,\n             2],\n  y = [3, 4]\n)"
                Region "[1,\n             2]"
                Region "code ruby\n  puts 1\ncode end"
                Region "step B runs P (x = 1)\n  pre code\n  code end"
                Region "code\n  code end"
            "#]],
        );
    }

    #[test]
    fn comments() {
        check(
            r#"// one
// two
//   three

// alone
/* one line */
/* two
   lines */
step A runs P ( // trailing
  // inside one
  // inside two
  x = 1 // trailing
  // next
);
"#,
            expect![[r#"
                Comment "// one\n// two\n//   three"
                Comment "/* two\n   lines */"
                Region "step A runs P ( // trailing\n  // inside one\n  // inside two\n  x = 1 // trailing\n  // next\n);"
                Region "( // trailing\n  // inside one\n  // inside two\n  x = 1 // trailing\n  // next\n)"
                Comment "// inside one\n  // inside two"
            "#]],
        );
    }

    #[test]
    fn runs_of_requires_and_flow_attributes() {
        check(
            r#"[flow:name = "x"]
[flow:author = "me"]
// a comment does not break a run
[flow:mode = @normal]
require a;

require b,
  c;
step A runs P ();
require d;
require e;
[flow:priority = @low]
"#,
            expect![[r#"
                Region "[flow:name = \"x\"]\n[flow:author = \"me\"]\n// a comment does not break a run\n[flow:mode = @normal]"
                Imports "require a;\n\nrequire b,\n  c;"
                Imports "require d;\nrequire e;"
            "#]],
        );
    }

    #[test]
    fn nothing_on_one_line_or_in_an_empty_file() {
        check("", expect![[""]]);
        check(
            "require a; [flow:name = \"n\"] step A runs P (x = [1]) post code",
            expect![[""]],
        );
    }
}
