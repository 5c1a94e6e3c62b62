//! The two answers to "what does this name denote" agree: [`links`] (the
//! keystroke path's, by name and position-free, kept up to date per edit)
//! and [`name_resolution`] (by position, for the IDE and the exports), on
//! random flows whose names repeat, collide with required files or name
//! nothing, and after each of random edits of them (so the links' tables
//! are updated, not rebuilt).

use easyflow_db::links::{FileLinks, Link, links};
use easyflow_db::resolve::{Resolution, Target};
use easyflow_db::{
    Database, FileOutline, SourceFile, StepId, file_diagnostics, file_outline, item_index,
    name_resolution,
};
use proptest::prelude::*;
use salsa::Setter;

/// Names that steps repeat, read, and share with required files (`f`,
/// `g`); `Nobody` is never defined.
const COMMON: &[&str] = &["A", "B", "C", "D", "E", "F", "f", "g", "Nobody"];

/// Names defined by few steps, so that the first definition of a name may
/// lie in any chunk, and move far when it goes.
const RARE: &[&str] = &[
    "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y",
    "Z", "A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "I1", "J1",
];

fn name() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        2 => prop::sample::select(COMMON),
        1 => prop::sample::select(RARE),
    ]
}

/// One step: maybe long-running, its name, an `after` or `on` list, and
/// parameters reading names (as files, step outputs or results).
fn step() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        name(),
        prop::collection::vec(name(), 0..3),
        any::<bool>(),
        prop::collection::vec((name(), 0u8..3), 0..3),
    )
        .prop_map(|(long, name, dependencies, on, params)| {
            let mut text = format!("{}step {name} runs P.Q", if long { "~" } else { "" });
            if !dependencies.is_empty() {
                let keyword = if on { "on" } else { "after" };
                text.push_str(&format!(" {keyword} {}", dependencies.join(", ")));
            }
            let params: Vec<String> = params
                .iter()
                .enumerate()
                .map(|(i, (head, form))| match form {
                    0 => format!("x{i} = {head}"),
                    1 => format!("x{i} = {head}.outs[\"o\"]"),
                    _ => format!("x{i} = [{head}.Result, 1]"),
                })
                .collect();
            text.push_str(&format!(" ({});\n", params.join(", ")));
            text
        })
}

/// A flow: its `require`s and its steps (up to a few chunks of them).
fn flow() -> impl Strategy<Value = (Vec<&'static str>, Vec<String>)> {
    (
        prop::collection::vec(name(), 0..4),
        prop::collection::vec(step(), 1..300),
    )
}

/// An edit of the steps: replace, delete or insert one, or move a run.
#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, String),
    Delete(usize),
    Insert(usize, String),
    Move(usize, usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), step()).prop_map(|(at, step)| Edit::Replace(at, step)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), step()).prop_map(|(at, step)| Edit::Insert(at, step)),
        (any::<usize>(), 1usize..100, any::<usize>())
            .prop_map(|(from, len, to)| Edit::Move(from, len, to)),
    ]
}

fn apply(steps: &mut Vec<String>, edit: Edit) {
    let at = |i: usize, len: usize| i % (len + 1);
    match edit {
        Edit::Replace(i, step) if !steps.is_empty() => {
            let i = i % steps.len();
            steps[i] = step;
        }
        Edit::Delete(i) if !steps.is_empty() => {
            steps.remove(i % steps.len());
        }
        Edit::Move(from, len, to) if !steps.is_empty() => {
            let from = from % steps.len();
            let moved: Vec<String> = steps.drain(from..(from + len).min(steps.len())).collect();
            let to = at(to, steps.len());
            steps.splice(to..to, moved);
        }
        Edit::Insert(i, step) | Edit::Replace(i, step) => {
            let i = at(i, steps.len());
            steps.insert(i, step);
        }
        Edit::Delete(_) | Edit::Move(..) => {}
    }
}

fn text(requires: &[&str], steps: &[String]) -> String {
    let mut text = String::new();
    if !requires.is_empty() {
        text.push_str(&format!("require {};\n", requires.join(", ")));
    }
    for step in steps {
        text.push_str(step);
    }
    text
}

/// What `target` (of a name read by step `reader`) is as a link.
fn as_link(target: Target, reader: StepId) -> Link {
    match target {
        Target::Step(step) => Link::Step {
            itself: step == reader,
        },
        Target::File(file) => Link::File(file),
        Target::Unresolved => Link::Unresolved,
    }
}

/// Every reference, dependency, repeated definition, count of file uses
/// and backward edge of the file: the same in both.
fn agree(
    outline: &FileOutline<'_>,
    links: &FileLinks,
    resolution: &Resolution,
    names: &[Option<String>],
) -> Result<(), TestCaseError> {
    prop_assert_eq!(links.chunks.len(), outline.chunks.len());
    let mut file_uses = vec![0; resolution.file_uses.len()];
    for (chunk, placed) in links.chunks.iter().zip(&outline.chunks) {
        for index in 0..chunk.summaries.len() {
            let id = StepId(placed.first + index as u32);
            let references: Vec<Link> = chunk.references[index].to_vec();
            let resolved: Vec<Link> = resolution.references[id.index()]
                .iter()
                .map(|&target| as_link(target, id))
                .collect();
            prop_assert_eq!(references, resolved, "references of step {:?}", id);
            let dependencies: Vec<Link> = chunk.dependencies[index].to_vec();
            let resolved: Vec<Link> = resolution.dependencies[id.index()]
                .iter()
                .map(|step| as_link(step.map_or(Target::Unresolved, Target::Step), id))
                .collect();
            prop_assert_eq!(dependencies, resolved, "dependencies of step {:?}", id);
            let first = chunk
                .first_definition(index as u32)
                .map(|key| links.step_id(outline, key));
            let expected = match &names[id.index()] {
                Some(name) if !resolution.names.first_definition[id.index()] => {
                    Some(resolution.names.steps_by_name.get(name.as_str()).copied())
                }
                _ => None,
            };
            prop_assert_eq!(first, expected, "first definition of step {:?}", id);
        }
        // The chunk's backward edges: from a step at or after the one that
        // reads it.
        let first_id = placed.first as usize;
        let mut backward: Option<(u32, StepId)> = None;
        for index in 0..chunk.summaries.len() {
            let id = StepId((first_id + index) as u32);
            let read = resolution.references[id.index()]
                .iter()
                .filter_map(|t| match t {
                    Target::Step(step) => Some(*step),
                    _ => None,
                });
            let sources = read.chain(
                resolution.dependencies[id.index()]
                    .iter()
                    .flatten()
                    .copied(),
            );
            for source in sources.filter(|&source| source >= id) {
                let (_, last) = backward.get_or_insert((index as u32, source));
                *last = (*last).max(source);
            }
        }
        let linked = chunk
            .backward
            .map(|b| (b.first_dependent, links.step_id(outline, b.last_source)));
        prop_assert_eq!(
            linked,
            backward.map(|(first, last)| (first, Some(last))),
            "backward edges of the chunk of step {}",
            first_id
        );
        for &(file, count) in &chunk.file_uses {
            file_uses[file as usize] += count;
        }
    }
    prop_assert_eq!(file_uses, resolution.file_uses.clone());
    Ok(())
}

fn check(db: &Database, file: SourceFile) -> Result<(), TestCaseError> {
    file_diagnostics(db, file);
    let names: Vec<Option<String>> = item_index(db, file)
        .steps
        .iter()
        .map(|step| step.name.as_deref().map(str::to_string))
        .collect();
    agree(
        file_outline(db, file),
        links(db, file),
        name_resolution(db, file),
        &names,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn links_and_name_resolution_agree(
        (requires, mut steps) in flow(),
        edits in prop::collection::vec(edit(), 0..12),
    ) {
        let mut db = Database::default();
        let file = SourceFile::new(&db, "a.flow".into(), text(&requires, &steps).into());
        check(&db, file)?;
        for edit in edits {
            apply(&mut steps, edit);
            file.set_text(&mut db).to(text(&requires, &steps).into());
            check(&db, file)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4))]

    /// A flow of enough chunks that a cold check links them on every core
    /// (`links.rs`, `PARALLEL_MIN_CHUNKS`): the links agree all the same,
    /// the "did you mean" tables built by whichever thread needs them first.
    #[test]
    fn links_made_on_every_core_agree_with_name_resolution(
        (requires, steps) in (
            prop::collection::vec(name(), 0..4),
            prop::collection::vec(step(), 3_000..3_500),
        ),
    ) {
        let db = Database::default();
        let file = SourceFile::new(&db, "a.flow".into(), text(&requires, &steps).into());
        prop_assert!(links(&db, file).chunks.len() >= 32, "enough chunks to link in parallel");
        check(&db, file)?;
    }
}
