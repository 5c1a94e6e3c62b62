//! Renaming a step or a required file across its file: declarations,
//! `after`/`on` entries, references and repeated `require` entries.

use easyflow_db::{Db, SourceFile, item_index};
use easyflow_diagnostics::{TextRange, TextSize};

use crate::TextEdit;
use crate::defs::{self, Definition};

/// The reserved words of `language.md` §1 (`app` and `exec` are contextual,
/// so they are valid names).
const KEYWORDS: &[&str] = &[
    "flow", "require", "step", "sweep", "runs", "after", "on", "true", "false", "pre", "post",
];

const NOTHING_TO_RENAME: &str =
    "only a step or a required file can be renamed: place the cursor on its name or a use of it";

/// The range of the name under the cursor and its current text, when it is
/// a step or a required file.
pub fn prepare_rename(
    db: &dyn Db,
    file: SourceFile,
    offset: TextSize,
) -> Result<(TextRange, String), String> {
    let (definition, range) =
        defs::definition_at(db, file, offset).ok_or_else(|| NOTHING_TO_RENAME.to_string())?;
    let name = defs::name_of(db, file, definition).ok_or_else(|| NOTHING_TO_RENAME.to_string())?;
    Ok((range, name))
}

/// The edits that rename the step or required file under the cursor to
/// `new_name` everywhere in its file, or why it cannot be done. Renaming to
/// the current name gives no edits.
pub fn rename(
    db: &dyn Db,
    file: SourceFile,
    offset: TextSize,
    new_name: &str,
) -> Result<Vec<TextEdit>, String> {
    let (definition, _) =
        defs::definition_at(db, file, offset).ok_or_else(|| NOTHING_TO_RENAME.to_string())?;
    let old_name =
        defs::name_of(db, file, definition).ok_or_else(|| NOTHING_TO_RENAME.to_string())?;
    if new_name == old_name {
        return Ok(Vec::new());
    }
    check_new_name(db, file, definition, new_name)?;
    Ok(defs::usages(db, file, definition, true)
        .into_iter()
        .map(|usage| TextEdit {
            range: usage.range,
            insert: new_name.to_string(),
        })
        .collect())
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn check_new_name(
    db: &dyn Db,
    file: SourceFile,
    definition: Definition,
    new_name: &str,
) -> Result<(), String> {
    let what = match definition {
        Definition::Step(_) => "a step",
        Definition::File(_) => "a required file",
    };
    if !is_identifier(new_name) {
        return Err(format!(
            "`{new_name}` is not a valid name for {what}: use ASCII letters, digits and `_`, not starting with a digit"
        ));
    }
    if KEYWORDS.contains(&new_name) {
        return Err(format!("`{new_name}` is a keyword and cannot name {what}"));
    }
    let index = item_index(db, file);
    if index
        .steps
        .iter()
        .any(|s| s.name.as_deref() == Some(new_name))
    {
        return Err(format!(
            "a step named `{new_name}` already exists in this file"
        ));
    }
    if index.requires.iter().any(|r| r == new_name) {
        return Err(format!(
            "a required file named `{new_name}` already exists in this file"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{apply, fixture};

    fn renamed(text: &str, new_name: &str) -> Result<String, String> {
        let f = fixture(text);
        rename(&f.db, f.file, f.offset, new_name).map(|edits| apply(&f.text, &edits))
    }

    #[test]
    fn prepare_gives_the_name_under_the_cursor() {
        let f = fixture("step Load runs P ();\nstep B runs Q after Lo$0ad ();\n");
        let (range, name) = prepare_rename(&f.db, f.file, f.offset).unwrap();
        assert_eq!((&f.text[range], name.as_str()), ("Load", "Load"));
        let f = fixture("require data;\nstep B runs Q (x = data$0);\n");
        let (range, name) = prepare_rename(&f.db, f.file, f.offset).unwrap();
        assert_eq!(
            (range, name.as_str()),
            (TextRange::at(33.into(), 4.into()), "data")
        );
    }

    #[test]
    fn prepare_refuses_other_places() {
        for text in [
            "step A runs P$0 ();",
            "step A runs P (x = \"st$0ring\");",
            "step A runs P (x = Unkn$0own);",
            "$0step A runs P ();",
        ] {
            let f = fixture(text);
            assert_eq!(
                prepare_rename(&f.db, f.file, f.offset),
                Err(NOTHING_TO_RENAME.to_string()),
                "{text}"
            );
        }
    }

    #[test]
    fn a_step_everywhere() {
        let text = "step Lo$0ad runs P ();\n\
                    step B runs Q after Load (x = Load.outs[\"a\"], y = [Load]);\n\
                    step C runs Q on Load ();\n";
        assert_eq!(
            renamed(text, "Fetch").unwrap(),
            "step Fetch runs P ();\n\
             step B runs Q after Fetch (x = Fetch.outs[\"a\"], y = [Fetch]);\n\
             step C runs Q on Fetch ();\n"
        );
        // From a use, to a contextual keyword.
        let from_use = text
            .replace("Lo$0ad", "Load")
            .replace("= [Load]", "= [$0Load]");
        assert_eq!(
            renamed(&from_use, "exec").unwrap(),
            "step exec runs P ();\n\
             step B runs Q after exec (x = exec.outs[\"a\"], y = [exec]);\n\
             step C runs Q on exec ();\n"
        );
    }

    #[test]
    fn a_required_file_with_its_repeats() {
        let text = "require data, other;\nrequire data;\nstep A runs P (x = da$0ta, y = other);\n";
        assert_eq!(
            renamed(text, "input").unwrap(),
            "require input, other;\nrequire input;\nstep A runs P (x = input, y = other);\n"
        );
    }

    #[test]
    fn the_same_name_is_no_edit() {
        let f = fixture("step A$0 runs P ();");
        assert_eq!(rename(&f.db, f.file, f.offset, "A"), Ok(Vec::new()));
    }

    #[test]
    fn invalid_names_are_refused() {
        let text = "require data;\nstep A$0 runs P (x = data);\nstep B runs P after A ();\n";
        let error = |name: &str| renamed(text, name).unwrap_err();
        assert!(error("").contains("not a valid name"));
        assert!(error("9lives").contains("not a valid name"));
        assert!(error("a-b").contains("not a valid name"));
        assert!(error("шаг").contains("not a valid name"));
        assert_eq!(error("runs"), "`runs` is a keyword and cannot name a step");
        assert!(error("false").contains("keyword"));
        assert_eq!(error("B"), "a step named `B` already exists in this file");
        assert_eq!(
            error("data"),
            "a required file named `data` already exists in this file"
        );
        assert!(renamed(text, "_x9").is_ok());
        assert!(renamed(text, "app").is_ok());
    }

    #[test]
    fn a_file_cannot_take_a_step_name() {
        let text = "require da$0ta;\nstep A runs P (x = data);\n";
        assert_eq!(
            renamed(text, "A").unwrap_err(),
            "a step named `A` already exists in this file"
        );
    }
}
