//! Incremental reparsing: after an edit inside one top-level step, parse only
//! that step's new text and splice it into the previous tree. The result is
//! always the tree a full parse of the new text gives (tested by a property
//! test); when that cannot be guaranteed cheaply, [`reparse`] says `None`
//! and the caller parses the whole text.

use easyflow_diagnostics::{TextRange, TextSize};
use rowan::NodeOrToken;

use crate::{Parse, SyntaxKind, parse};

/// The parse of `new_text`, which is `old_text` (whose parse is `old`) with
/// `deleted` replaced by `inserted`, if the edit lies strictly inside one
/// top-level step that no syntax error touches, and whose new text parses,
/// on its own, to one step that ends with its own `;` and begins with the
/// same three kinds of tokens. The new step may have syntax errors (typing
/// makes them) when the next item is a proper one, where its recovery stops
/// in the file too; not an unterminated string, comment or code block.
/// Errors elsewhere in the file stay, the ones after the step moved by the
/// edit's length.
pub fn reparse(old: &Parse, deleted: TextRange, inserted: &str, new_text: &str) -> Option<Parse> {
    let root = old.green();
    let mut offset = TextSize::from(0);
    for (index, child) in root.children().enumerate() {
        let range = TextRange::at(offset, child.text_len());
        offset += child.text_len();
        // Strictly inside: an edit at a step's edge may join it to a neighbour.
        if !(range.start() < deleted.start() && deleted.end() < range.end()) {
            continue;
        }
        let NodeOrToken::Node(step) = child else {
            return None;
        };
        if SyntaxKind::from_raw(step.kind().0) != Some(SyntaxKind::STEP) {
            return None;
        }
        // An error in or at the edge of the step may be one that a full
        // parse would report differently once the step changes.
        let touches_step = |r: &TextRange| r.start() <= range.end() && range.start() <= r.end();
        if old.errors().iter().any(|error| {
            touches_step(&error.range) || error.related.iter().any(|r| touches_step(&r.range))
        }) {
            return None;
        }
        let new_len = range.len() + TextSize::of(inserted) - deleted.len();
        let new_range = TextRange::at(range.start(), new_len);
        let step_text = new_text.get(std::ops::Range::<usize>::from(new_range))?;
        let reparsed = parse(step_text);
        // A step with errors recovers up to the next item; that must be one
        // that begins a new item for sure (a proper item, not stray text).
        let next_item = root.children().skip(index + 1).find(|next| match next {
            NodeOrToken::Node(_) => true,
            NodeOrToken::Token(token) => {
                !SyntaxKind::from_raw(token.kind().0).is_some_and(SyntaxKind::is_trivia)
            }
        });
        let next_is_an_item = match next_item {
            None => true,
            Some(NodeOrToken::Node(next)) => matches!(
                SyntaxKind::from_raw(next.kind().0),
                Some(SyntaxKind::STEP | SyntaxKind::REQUIRE | SyntaxKind::FLOW_ATTRIBUTE)
            ),
            Some(NodeOrToken::Token(_)) => false,
        };
        if !reparsed.errors().is_empty() && !next_is_an_item {
            return None;
        }
        // An unterminated string, comment or code block swallows what
        // follows it in the file, not just the step.
        if reparsed.errors().iter().any(crate::lexer::is_unterminated) {
            return None;
        }
        // The step must be the whole text on its own, with the same end: a
        // step's extent is decided by its own tokens when it ends with `;`
        // (what follows cannot extend it).
        let mut parts = reparsed.green().children();
        let (Some(NodeOrToken::Node(new_step)), None) = (parts.next(), parts.next()) else {
            return None;
        };
        if SyntaxKind::from_raw(new_step.kind().0) != Some(SyntaxKind::STEP)
            || new_step.text_len() != TextSize::of(step_text)
            || !ends_itself(new_step)
            // Where the step begins was decided (by the item before it, or
            // its recovery) looking at its first three tokens.
            || leading_kinds(step) != leading_kinds(new_step)
        {
            return None;
        }
        let green = root.replace_child(index, NodeOrToken::Node(new_step.to_owned()));
        // The other items parse as before: only what follows the step moves.
        let after_edit = |r: TextRange| {
            if r.start() >= range.end() {
                TextRange::at(r.start() - range.len() + new_len, r.len())
            } else {
                r
            }
        };
        let mut errors: Vec<_> = old
            .errors()
            .iter()
            .map(|error| error.clone().moved(after_edit))
            .collect();
        errors.extend(
            reparsed
                .errors()
                .iter()
                .map(|error| error.clone().moved(|r| r + range.start())),
        );
        easyflow_diagnostics::sort(&mut errors);
        return Some(Parse::from_parts(green, errors));
    }
    None
}

/// The kinds of the first three non-trivia tokens of `node`.
fn leading_kinds(node: &rowan::GreenNodeData) -> Vec<SyntaxKind> {
    crate::SyntaxNode::new_root(node.to_owned())
        .descendants_with_tokens()
        .filter_map(|element| element.into_token())
        .map(|token| token.kind())
        .filter(|kind| !kind.is_trivia())
        .take(3)
        .collect()
}

/// Whether a step ends with a token after which nothing can continue it: its
/// own `;`. (After `)` or a code block, a following `;`, `pre` or `post`
/// would belong to the step, so those ends are left to a full parse.)
fn ends_itself(step: &rowan::GreenNodeData) -> bool {
    matches!(
        step.children().last(),
        Some(NodeOrToken::Token(token))
            if SyntaxKind::from_raw(token.kind().0) == Some(SyntaxKind::SEMICOLON)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(old_text: &str, deleted: std::ops::Range<u32>, inserted: &str) -> bool {
        let old = parse(old_text);
        let deleted = TextRange::new(deleted.start.into(), deleted.end.into());
        let mut new_text = old_text.to_string();
        new_text.replace_range(std::ops::Range::<usize>::from(deleted), inserted);
        let full = parse(&new_text);
        match reparse(&old, deleted, inserted, &new_text) {
            Some(incremental) => {
                assert_eq!(
                    incremental, full,
                    "incremental differs from full for {new_text:?}"
                );
                true
            }
            None => false,
        }
    }

    #[test]
    fn an_edit_inside_a_string_reparses_one_step() {
        let text = "step A runs P (x = \"ab\");\nstep B runs Q (y = A.outs[\"o\"]);\n";
        assert!(check(text, 21..21, "zz"));
        assert!(check(text, 15..16, "w"));
    }

    #[test]
    fn a_step_being_typed_is_reparsed_alone_with_its_errors() {
        let text = "step A runs P (x = 1);\nstep B runs Q (y = 2);\n";
        assert!(
            check(text, 20..20, ", z ="),
            "a parameter without its value"
        );
        assert!(
            !check(
                "step A runs P (x = 1);\nxtep B runs Q ();\n",
                20..20,
                ", z ="
            ),
            "recovery could run into stray text after the step"
        );
    }

    #[test]
    fn edits_that_may_change_the_structure_fall_back() {
        let text = "step A runs P (x = 1);\nstep B runs Q ();\n";
        assert!(
            !check(text, 20..20, "\""),
            "an open string swallows what follows"
        );
        assert!(!check(text, 0..0, "x"), "at a step's edge");
        assert!(!check(text, 21..22, ""), "removing the `;`");
        assert!(
            !check("step A runs P (x = 1)\nstep B runs Q ();\n", 16..16, "z"),
            "no `;`"
        );
    }
}
