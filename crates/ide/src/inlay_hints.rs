//! Inlay hints: after the name of a step that does not run exactly once
//! (a swept step), its instance count, `× 6`.

use easyflow_db::{Db, SourceFile, StepId, file_outline, item_index};
use easyflow_diagnostics::{TextRange, TextSize};

/// A label to show at `offset` (right after a step's name). The label has
/// no leading space: the server asks for padding.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InlayHint {
    pub offset: TextSize,
    pub label: String,
}

/// The hints that fall in `range` (all when `None`), in text order. Only
/// the steps in the range are looked at.
pub fn inlay_hints(db: &dyn Db, file: SourceFile, range: Option<TextRange>) -> Vec<InlayHint> {
    let outline = file_outline(db, file);
    let index = item_index(db, file);
    // Steps are in text order: start at the last one beginning at or
    // before the range (its name may be inside the range).
    let first = range
        .and_then(|r| outline.last_step_at_or_before(db, r.start()))
        .unwrap_or(StepId(0));
    let mut hints = Vec::new();
    for (id, step) in outline.steps_from(db, first) {
        let i = id.index();
        if range.is_some_and(|r| step.offset > r.end()) {
            break;
        }
        let instances = index.steps[i].instances;
        if instances == 1 {
            continue;
        }
        let Some(name) = step.anchors(db).name else {
            continue;
        };
        let name = name + step.offset;
        if range.is_some_and(|r| !r.contains_inclusive(name.end())) {
            continue;
        }
        hints.push(InlayHint {
            offset: name.end(),
            label: format!("× {instances}"),
        });
    }
    hints
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::fixture::fixture;

    /// The text with each hint inserted as `⟨label⟩`.
    fn render(text: &str) -> String {
        let f = fixture(text);
        let hints = inlay_hints(&f.db, f.file, f.range);
        let mut out = f.text.clone();
        for hint in hints.iter().rev() {
            out.insert_str(usize::from(hint.offset), &format!("⟨{}⟩", hint.label));
        }
        out
    }

    const FLOW: &str = r#"step A runs P (x = sweep [1, 2, 3], y = sweep ["a", "b"]);
step B runs P (x = [1, 2, 3]);
step C runs P (x = sweep [1]);
[priority = @high]
step D runs P (x = sweep []);
step E runs P (x = sweep A, y = sweep [A, B]);
"#;

    #[test]
    fn swept_steps_only() {
        expect![[r#"
            step A⟨× 6⟩ runs P (x = sweep [1, 2, 3], y = sweep ["a", "b"]);
            step B runs P (x = [1, 2, 3]);
            step C runs P (x = sweep [1]);
            [priority = @high]
            step D⟨× 0⟩ runs P (x = sweep []);
            step E⟨× 2⟩ runs P (x = sweep A, y = sweep [A, B]);
        "#]]
        .assert_eq(&render(FLOW));
    }

    #[test]
    fn only_names_in_the_range() {
        let ranged = FLOW
            .replacen("step B", "$0step B", 1)
            .replacen("step E", "$0step E", 1);
        expect![[r#"
            step A runs P (x = sweep [1, 2, 3], y = sweep ["a", "b"]);
            step B runs P (x = [1, 2, 3]);
            step C runs P (x = sweep [1]);
            [priority = @high]
            step D⟨× 0⟩ runs P (x = sweep []);
            step E runs P (x = sweep A, y = sweep [A, B]);
        "#]]
        .assert_eq(&render(&ranged));
        // A range inside a step, around its name; and one in its parameters.
        let around = FLOW.replacen("step D", "step $0D$0", 1);
        assert!(render(&around).contains("step D⟨× 0⟩"));
        let inside = FLOW.replacen("(x = sweep []", "(x = $0sweep []$0", 1);
        assert!(!render(&inside).contains('⟨'));
        let empty = fixture("");
        assert!(inlay_hints(&empty.db, empty.file, None).is_empty());
    }
}
