//! Go to definition, find references and document highlights: all three
//! start from the name under the cursor ([`defs::definition_at`]).

use easyflow_db::{Db, SourceFile, parse};
use easyflow_diagnostics::{TextRange, TextSize};
use easyflow_syntax::SyntaxKind;

use crate::defs::{self, Definition, Usage};

/// Where a name is defined.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NavigationTarget {
    /// The whole definition: the step, or the `require` statement.
    pub full_range: TextRange,
    /// The name itself: the step's name, or the `require` entry.
    pub focus_range: TextRange,
    pub name: String,
}

/// From a reference, an `after`/`on` entry or a step name: the step (its
/// first definition when the name is defined twice); from a required-file
/// reference or a `require` entry: the first `require` entry of that name.
pub fn goto_definition(
    db: &dyn Db,
    file: SourceFile,
    offset: TextSize,
) -> Option<NavigationTarget> {
    let (definition, _) = defs::definition_at(db, file, offset)?;
    let focus_range = defs::declaration(db, file, definition)?;
    let name = defs::name_of(db, file, definition)?;
    let full_range = match definition {
        Definition::Step(step) => defs::step_range(db, file, step)?,
        Definition::File(_) => require_statement(db, file, focus_range).unwrap_or(focus_range),
    };
    Some(NavigationTarget {
        full_range,
        focus_range,
        name,
    })
}

/// Every use of the step or required file under the cursor, in text order;
/// its declaration(s) too when `include_declaration`. Empty when the cursor
/// is on no such name.
pub fn references(
    db: &dyn Db,
    file: SourceFile,
    offset: TextSize,
    include_declaration: bool,
) -> Vec<Usage> {
    match defs::definition_at(db, file, offset) {
        Some((definition, _)) => defs::usages(db, file, definition, include_declaration),
        None => Vec::new(),
    }
}

/// The places to highlight for the name under the cursor: its declarations
/// ([`defs::UsageKind::Declaration`], a write) and its uses (reads).
pub fn highlights(db: &dyn Db, file: SourceFile, offset: TextSize) -> Vec<Usage> {
    references(db, file, offset, true)
}

/// The `require` statement holding the entry at `entry`.
fn require_statement(db: &dyn Db, file: SourceFile, entry: TextRange) -> Option<TextRange> {
    parse(db, file)
        .non_step_items()
        .filter(|n| n.kind() == SyntaxKind::REQUIRE)
        .map(|n| n.range())
        .find(|range| range.contains_range(entry))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defs::UsageKind;
    use crate::fixture::fixture;
    use expect_test::{Expect, expect};

    fn check_definition(text: &str, expect: Expect) {
        let f = fixture(text);
        let actual = match goto_definition(&f.db, f.file, f.offset) {
            Some(target) => format!(
                "{} focus {:?} full {:?}",
                target.name, &f.text[target.focus_range], &f.text[target.full_range]
            ),
            None => "none".to_string(),
        };
        expect.assert_eq(&actual);
    }

    #[test]
    fn definition_of_a_step_from_a_reference() {
        check_definition(
            "step Load runs P ();\nstep B runs Q (x = Lo$0ad.outs[\"a\"]);\n",
            expect![[r#"Load focus "Load" full "step Load runs P ();""#]],
        );
    }

    #[test]
    fn definition_of_a_step_from_an_after_entry_and_its_own_name() {
        check_definition(
            "[priority = @high]\nstep Load runs P ();\nstep B runs Q after Load$0 ();\n",
            expect![[r#"Load focus "Load" full "[priority = @high]\nstep Load runs P ();""#]],
        );
        check_definition(
            "step Lo$0ad runs P ();\n",
            expect![[r#"Load focus "Load" full "step Load runs P ();""#]],
        );
    }

    #[test]
    fn definition_of_a_duplicate_step_is_the_first() {
        let f = fixture("step A runs P ();\nstep $0A runs Q ();\n");
        let target = goto_definition(&f.db, f.file, f.offset).unwrap();
        assert_eq!(target.focus_range, TextRange::at(5.into(), 1.into()));
    }

    #[test]
    fn definition_of_a_required_file() {
        check_definition(
            "require other,\n  data;\nstep A runs P (x = da$0ta);\n",
            expect![[r#"data focus "data" full "require other,\n  data;""#]],
        );
        // A repeated entry leads to the first one.
        check_definition(
            "require data;\nrequire da$0ta;\nstep A runs P (x = data);\n",
            expect![[r#"data focus "data" full "require data;""#]],
        );
    }

    #[test]
    fn no_definition_off_names() {
        check_definition("step A runs P (x = Unkn$0own);", expect!["none"]);
        check_definition("step A runs $0P ();", expect!["none"]);
        check_definition("step A runs P after Nope$0 ();", expect!["none"]);
        check_definition("$0", expect!["none"]);
    }

    #[test]
    fn references_with_and_without_the_declaration() {
        let text = "require data;\nstep A runs P (x = data);\nstep B runs P after A (y = A, z = [da$0ta]);\n";
        let f = fixture(text);
        let found = |include| {
            references(&f.db, f.file, f.offset, include)
                .into_iter()
                .map(|u| (u32::from(u.range.start()), u.kind))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            found(true),
            vec![
                (8, UsageKind::Declaration),
                (33, UsageKind::Read),
                (75, UsageKind::Read)
            ]
        );
        assert_eq!(found(false).len(), 2);
        let g = fixture("step A runs P (x = $0\"text\");");
        assert!(references(&g.db, g.file, g.offset, true).is_empty());
    }

    #[test]
    fn highlights_mark_the_declaration() {
        let f = fixture("step A$0 runs P ();\nstep B runs P after A (y = A.outs);\n");
        let kinds: Vec<(String, UsageKind)> = highlights(&f.db, f.file, f.offset)
            .into_iter()
            .map(|u| (f.text[u.range].to_string(), u.kind))
            .collect();
        assert_eq!(
            kinds,
            vec![
                ("A".to_string(), UsageKind::Declaration),
                ("A".to_string(), UsageKind::Dependency),
                ("A".to_string(), UsageKind::Read),
            ]
        );
    }
}
