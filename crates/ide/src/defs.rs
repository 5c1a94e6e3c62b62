//! What a name in a flow defines or refers to, and where else it appears:
//! the core of go-to-definition, references, highlights, rename, hover and
//! the call hierarchy.

use easyflow_db::diagnostics::{Anchor, anchor_range};
use easyflow_db::resolve::Target;
use easyflow_db::{Db, SourceFile, StepId, file_outline, item_index, name_resolution};
use easyflow_diagnostics::{TextRange, TextSize};

/// Something a name can denote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Definition {
    Step(StepId),
    /// A required file, by the index of its first `require` entry.
    File(u32),
}

/// How a name is used at one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UsageKind {
    /// Where the name is defined (a step's name, a `require` entry).
    Declaration,
    /// A reference in a parameter value.
    Read,
    /// An `after`/`on` entry.
    Dependency,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Usage {
    pub range: TextRange,
    pub kind: UsageKind,
}

/// The step whose text contains `offset`, if any.
pub fn step_at(db: &dyn Db, file: SourceFile, offset: TextSize) -> Option<StepId> {
    let outline = file_outline(db, file);
    let id = outline.last_step_at_or_before(db, offset)?;
    let step = outline.step(db, id)?;
    let end = step.offset + step.green(db).text_len();
    (offset <= end).then_some(id)
}

/// The range of an anchor in the file now.
pub fn range_of(db: &dyn Db, file: SourceFile, anchor: Anchor) -> Option<TextRange> {
    anchor_range(db, file_outline(db, file), anchor)
}

/// The whole text of a step, in the file.
pub fn step_range(db: &dyn Db, file: SourceFile, step: StepId) -> Option<TextRange> {
    let outline_step = file_outline(db, file).step(db, step)?;
    Some(TextRange::at(
        outline_step.offset,
        outline_step.green(db).text_len(),
    ))
}

/// The name under the cursor: what it denotes, and the name's range. The
/// cursor may touch the name's end (as when the user has just typed it).
pub fn definition_at(
    db: &dyn Db,
    file: SourceFile,
    offset: TextSize,
) -> Option<(Definition, TextRange)> {
    let outline = file_outline(db, file);
    let resolution = name_resolution(db, file);
    let touches = |range: TextRange| range.contains_inclusive(offset);
    for (n, entry) in outline.requires.iter().enumerate() {
        if touches(entry.range) {
            let first = resolution
                .names
                .files_by_name
                .get(&entry.name)
                .copied()
                .unwrap_or(n as u32);
            return Some((Definition::File(first), entry.range));
        }
    }
    let step = step_at(db, file, offset)?;
    let outline_step = outline.step(db, step)?;
    let anchors = outline_step.anchors(db);
    let shift = |range: TextRange| range + outline_step.offset;
    if let Some(name) = anchors.name.map(shift).filter(|r| touches(*r)) {
        let index = item_index(db, file);
        let defined = index.steps[step.index()]
            .name
            .as_ref()
            .and_then(|n| resolution.names.steps_by_name.get(n));
        return Some((Definition::Step(*defined.unwrap_or(&step)), name));
    }
    for (n, range) in anchors.dependencies.iter().enumerate() {
        if touches(shift(*range)) {
            let target = resolution.dependencies[step.index()][n]?;
            return Some((Definition::Step(target), shift(*range)));
        }
    }
    for (n, reference) in anchors.references.iter().enumerate() {
        if touches(shift(reference.head)) {
            let definition = match resolution.references[step.index()][n] {
                Target::Step(target) => Definition::Step(target),
                Target::File(first) => Definition::File(first),
                Target::Unresolved => return None,
            };
            return Some((definition, shift(reference.head)));
        }
    }
    None
}

/// The name of a definition.
pub fn name_of(db: &dyn Db, file: SourceFile, definition: Definition) -> Option<String> {
    match definition {
        Definition::Step(step) => item_index(db, file)
            .steps
            .get(step.index())?
            .name
            .as_deref()
            .map(str::to_string),
        Definition::File(n) => item_index(db, file).requires.get(n as usize).cloned(),
    }
}

/// Where a definition is declared: the step's name, or the first `require` entry.
pub fn declaration(db: &dyn Db, file: SourceFile, definition: Definition) -> Option<TextRange> {
    match definition {
        Definition::Step(step) => range_of(db, file, Anchor::StepName(step)),
        Definition::File(n) => range_of(db, file, Anchor::Require(n)),
    }
}

/// Every place a definition is used in its file, in text order: its
/// declaration(s) (when asked for), `after`/`on` entries and references.
pub fn usages(
    db: &dyn Db,
    file: SourceFile,
    definition: Definition,
    include_declaration: bool,
) -> Vec<Usage> {
    let index = item_index(db, file);
    let resolution = name_resolution(db, file);
    let mut anchors = Vec::new();
    if include_declaration {
        match definition {
            Definition::Step(step) => {
                anchors.push((Anchor::StepName(step), UsageKind::Declaration))
            }
            Definition::File(first) => {
                let name = &index.requires[first as usize];
                for (n, required) in index.requires.iter().enumerate() {
                    if required == name {
                        anchors.push((Anchor::Require(n as u32), UsageKind::Declaration));
                    }
                }
            }
        }
    }
    for (i, _) in index.steps.iter().enumerate() {
        let id = StepId(i as u32);
        if let Definition::Step(target) = definition {
            for (n, dependency) in resolution.dependencies[i].iter().enumerate() {
                if *dependency == Some(target) {
                    anchors.push((Anchor::Dependency(id, n as u32), UsageKind::Dependency));
                }
            }
        }
        for (n, reference) in resolution.references[i].iter().enumerate() {
            let hit = match (definition, reference) {
                (Definition::Step(target), Target::Step(step)) => target == *step,
                (Definition::File(first), Target::File(file)) => first == *file,
                _ => false,
            };
            if hit {
                anchors.push((Anchor::ReferenceHead(id, n as u32), UsageKind::Read));
            }
        }
    }
    let outline = file_outline(db, file);
    let mut found: Vec<Usage> = anchors
        .into_iter()
        .filter_map(|(anchor, kind)| {
            Some(Usage {
                range: anchor_range(db, outline, anchor)?,
                kind,
            })
        })
        .collect();
    found.sort_by_key(|u| u.range.start());
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::fixture;

    fn usages_at(text: &str, include_declaration: bool) -> Vec<(String, UsageKind)> {
        let f = fixture(text);
        let (definition, _) = definition_at(&f.db, f.file, f.offset).expect("a name at the cursor");
        usages(&f.db, f.file, definition, include_declaration)
            .into_iter()
            .map(|u| (f.text[u.range].to_string(), u.kind))
            .collect()
    }

    #[test]
    fn a_step_from_its_name_an_after_entry_or_a_reference() {
        let text = "step Lo$0ad runs P ();\nstep B runs Q after Load (x = Load.outs[\"a\"], y = [Load]);\n";
        let expected = vec![
            ("Load".to_string(), UsageKind::Declaration),
            ("Load".to_string(), UsageKind::Dependency),
            ("Load".to_string(), UsageKind::Read),
            ("Load".to_string(), UsageKind::Read),
        ];
        assert_eq!(usages_at(text, true), expected);
        assert_eq!(
            usages_at(
                &text
                    .replace("Lo$0ad", "Load")
                    .replace("after Load", "after Lo$0ad"),
                true
            ),
            expected
        );
        assert_eq!(
            usages_at(
                &text
                    .replace("Lo$0ad", "Load")
                    .replace("= [Load]", "= [Load$0]"),
                false
            )
            .len(),
            3
        );
    }

    #[test]
    fn a_required_file_and_its_repeats() {
        let text = "require da$0ta, other, data;\nstep A runs P (x = data);\n";
        assert_eq!(
            usages_at(text, true),
            vec![
                ("data".to_string(), UsageKind::Declaration),
                ("data".to_string(), UsageKind::Declaration),
                ("data".to_string(), UsageKind::Read),
            ]
        );
    }

    #[test]
    fn nothing_under_the_cursor() {
        let f = fixture("step A runs P (x = \"te$0xt\");");
        assert_eq!(definition_at(&f.db, f.file, f.offset), None);
        let f = fixture("step A runs P (x = Unkn$0own);");
        assert_eq!(definition_at(&f.db, f.file, f.offset), None);
    }

    #[test]
    fn the_step_around_an_offset() {
        let f = fixture("step A runs P ();\n\nstep B runs $0Q ();\n");
        assert_eq!(step_at(&f.db, f.file, f.offset), Some(StepId(1)));
        let f = fixture("step A runs P ();\n$0\nstep B runs Q ();\n");
        assert_eq!(step_at(&f.db, f.file, f.offset), None);
    }
}
