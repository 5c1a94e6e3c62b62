//! Incrementality: what re-runs after an edit (salsa's execution events), and
//! that incremental results always equal a fresh check of the final text.

use easyflow_db::diagnostics::semantic_diagnostics;
use easyflow_db::fit::fit_diagnostics;
use easyflow_db::links::links;
use easyflow_db::resolve::{chunk_resolution, names};
use easyflow_db::silence::chunk_allow_comments;
use easyflow_db::workflow::chunk_values;
use easyflow_db::{
    Database, Diagnostic, Executed, SourceFile, chunk_analysis, dependency_graph,
    expanded_workflow, file_diagnostics, file_outline, item_index, name_resolution, parse,
    parse_topology, query,
};
use proptest::prelude::*;
use salsa::Setter;

fn fresh_check(text: &str) -> Vec<Diagnostic> {
    let db = Database::default();
    let file = SourceFile::new(&db, "fresh.flow".into(), text.into());
    file_diagnostics(&db, file).clone()
}

/// A flow with an unresolved name and an unused file, so the checks below
/// compare non-empty diagnostics.
/// Large enough for several chunks (about 64 steps each).
fn flow_with_problems() -> String {
    let mut text = easyflow_genflow::generate(600, 3);
    text.push_str("require unusedFile;\nstep Broken runs P (x = S1.outs[\"a\"], y = Missing);\n");
    text
}

#[test]
fn editing_a_string_literal_reruns_neither_resolution_nor_graph() {
    let (mut db, log) = Database::with_execution_log();
    let before = flow_with_problems();
    let file = SourceFile::new(&db, "a.flow".into(), before.as_str().into());
    assert!(!file_diagnostics(&db, file).is_empty());
    log.take();

    // Longer text inside one step's string: every later offset moves.
    let after = before.replacen("\"chunk 5 — этап\"", "\"chunk 5 — этап, edited\"", 1);
    assert_ne!(after, before);
    file.set_text(&mut db).to(after.as_str().into());
    let diagnostics = file_diagnostics(&db, file).clone();
    let executed = log.take();

    // `name_resolution` re-runs (it reads the outline's chunks) but only
    // the edited chunks are resolved again, and it is backdated: nothing
    // after it re-runs.
    assert!(
        executed.count(query!(chunk_resolution)) <= 2,
        "{executed:?}"
    );
    executed.assert_not_executed(&[
        query!(names),
        query!(dependency_graph),
        query!(semantic_diagnostics),
    ]);
    executed.assert_executed(&[
        query!(parse),
        query!(file_outline),
        query!(item_index),
        query!(file_diagnostics),
    ]);
    // One chunk, or two when the edited step ended a chunk and no longer
    // does (or the reverse): chunks end after a step whose hash says so.
    let chunks_analysed = executed.count(query!(chunk_analysis));
    assert!(
        (1..=2).contains(&chunks_analysed),
        "only the edited step's chunk is analysed again: {executed:?}"
    );
    assert_eq!(diagnostics, fresh_check(&after));
}

#[test]
fn renaming_a_reference_relinks_its_chunk_only() {
    let (mut db, log) = Database::with_execution_log();
    let before = flow_with_problems();
    let file = SourceFile::new(&db, "a.flow".into(), before.as_str().into());
    file_diagnostics(&db, file);
    log.take();

    let after = before.replacen("y = Missing", "y = S2", 1);
    file.set_text(&mut db).to(after.as_str().into());
    let diagnostics = file_diagnostics(&db, file).clone();
    let executed = log.take();
    assert!(executed.ran(query!(links)), "{executed:?}");
    // The positional maps (for the IDE's requests and the exports) are not
    // built, nor the graph: every edge still goes to a later step.
    executed.assert_not_executed(&[
        query!(names),
        query!(name_resolution),
        query!(chunk_resolution),
        query!(dependency_graph),
    ]);
    // Only the edited step's chunk is linked, and its names checked, again.
    let linked = easyflow_db::links::chunks_linked(&db, file).unwrap();
    assert!((1..=2).contains(&linked), "{linked} chunks linked");
    assert_eq!(diagnostics, fresh_check(&after));

    // Renaming a step: its chunk, and those that read the old or the new
    // name.
    let renamed = after.replacen("step S7 ", "step S7x ", 1);
    file.set_text(&mut db).to(renamed.as_str().into());
    let diagnostics = file_diagnostics(&db, file).clone();
    let executed = log.take();
    assert!(executed.ran(query!(links)), "{executed:?}");
    executed.assert_not_executed(&[query!(names), query!(name_resolution)]);
    assert_eq!(diagnostics, fresh_check(&renamed));
}

/// Deleting a step, undoing it, pasting 50 steps and undoing that: steps are
/// named by their chunk and their place in it, not by their position in the
/// file, so each edit checks the names of the few chunks it touches (and of
/// those that read a name it adds or removes), not of every chunk; the
/// positional name maps and the graph are not built at all.
#[test]
fn adding_or_removing_steps_rechecks_the_names_of_a_few_chunks() {
    let (mut db, log) = Database::with_execution_log();
    let mut text = easyflow_genflow::generate(6_000, 8);
    let file = SourceFile::new(&db, "a.flow".into(), text.as_str().into());
    file_diagnostics(&db, file);
    let chunks = file_outline(&db, file).chunks.len();
    assert!(chunks > 60, "{chunks} chunks");
    log.take();

    let step = text.find("\nstep S3000 ").unwrap();
    let blank = text[..step].rfind("\n\n").unwrap() + 1;
    let next = text[step + 1..].find("\n\n").unwrap() + step + 2;
    let block = text[blank..next].to_string();
    let pasted: String = (0..50)
        .map(|i| block.replacen("step S3000 ", &format!("step P{i} "), 1))
        .collect();
    let edits: [(&str, usize, &str); 4] = [
        ("delete", block.len(), ""),
        ("undo the delete", 0, &block),
        ("paste", 0, &pasted),
        ("undo the paste", pasted.len(), ""),
    ];
    for (what, deleted, inserted) in edits {
        edit_with_reparse(&mut db, file, &mut text, blank..blank + deleted, inserted);
        let diagnostics = file_diagnostics(&db, file).clone();
        let executed = log.take();
        assert_eq!(diagnostics, fresh_check(&text), "after the {what}");
        assert_eq!(executed.count(query!(links)), 1, "{what}: {executed:?}");
        let linked = easyflow_db::links::chunks_linked(&db, file).unwrap();
        assert!(
            (1..=8).contains(&linked),
            "{what}: {linked} of {chunks} chunks linked again"
        );
        executed.assert_not_executed(&[
            query!(names),
            query!(name_resolution),
            query!(chunk_resolution),
            query!(dependency_graph),
        ]);
    }
}

/// Edits of whole steps on a flow of many chunks: deleting, duplicating,
/// moving and renaming steps, making duplicates and cycles; after each, the
/// diagnostics equal a fresh check (the links' tables are kept between
/// edits, so this is what tests their updates).
fn step_edit() -> impl Strategy<Value = (u8, usize, usize, usize)> {
    (0u8..6, 0usize..400, 1usize..30, 0usize..400)
}

/// A database holding `text` as a flow, checked once, so that the checks
/// after edits are incremental.
fn checked_flow(text: &str) -> (Database, SourceFile) {
    let db = Database::default();
    let file = SourceFile::new(&db, "a.flow".into(), text.into());
    file_diagnostics(&db, file);
    (db, file)
}

fn step_bounds(text: &str, n: usize) -> Option<std::ops::Range<usize>> {
    let starts: Vec<usize> = text.match_indices("\nstep ").map(|(i, _)| i + 1).collect();
    let start = *starts.get(n % starts.len().max(1))?;
    let end = text[start..]
        .find("\nstep ")
        .map_or(text.len(), |e| start + e + 1);
    Some(start..end)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn step_edits_equal_fresh(edits in proptest::collection::vec(step_edit(), 1..10)) {
        let mut text = easyflow_genflow::generate(400, 11);
        let (mut db, file) = checked_flow(&text);
        for (kind, a, len, b) in edits {
            let Some(first) = step_bounds(&text, a) else { continue };
            let Some(last) = step_bounds(&text, a + len) else { continue };
            let block = first.start..last.end.max(first.end);
            let Some(target) = step_bounds(&text, b) else { continue };
            match kind {
                // Delete a run of steps.
                0 => text.replace_range(block, ""),
                // Paste a copy of them elsewhere (duplicate names).
                1 => {
                    let copy = text[block].to_string();
                    text.insert_str(target.start, &copy);
                }
                // Move them.
                2 if !block.contains(&target.start) => {
                    let moved = text[block.clone()].to_string();
                    if target.start > block.start {
                        text.insert_str(target.start, &moved);
                        text.replace_range(block, "");
                    } else {
                        text.replace_range(block, "");
                        text.insert_str(target.start, &moved);
                    }
                }
                // Rename one step, maybe to another's name.
                3 => {
                    let name_at = first.start + "step ".len();
                    let end = text[name_at..].find(' ').map_or(name_at, |e| name_at + e);
                    text.replace_range(name_at..end, &format!("S{b}"));
                }
                // Make a step read a later one (a cycle, or a step reading
                // itself).
                4 => {
                    let at = first.end.saturating_sub(1).min(text.len());
                    let at = text[..at].rfind(')').unwrap_or(at);
                    text.insert_str(at, &format!(", back = S{}.outs", a + len));
                }
                // A `require` of a step's name.
                _ => text.insert_str(0, &format!("require S{b};\n")),
            }
            file.set_text(&mut db).to(text.as_str().into());
            prop_assert_eq!(file_diagnostics(&db, file), &fresh_check(&text));
        }
    }
}

/// Edits that matter to the analysis: names, references, dependencies,
/// punctuation, whole steps.
fn edit() -> impl Strategy<Value = (usize, usize, String)> {
    let replacement = prop_oneof![
        Just(String::new()),
        Just("S1".to_string()),
        Just("after S0".to_string()),
        Just(" = S3.outs[\"x\"]".to_string()),
        Just(";\nstep S1 runs P (a = S2);\n".to_string()),
        Just("(".to_string()),
        Just("~".to_string()),
        Just("\"".to_string()),
        "[a-zA-Z0-9_ ,.=\\[\\]();]{0,6}",
    ];
    (0usize..10_000, 0usize..12, replacement)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn incremental_equals_fresh(edits in proptest::collection::vec(edit(), 1..6)) {
        let mut text = easyflow_genflow::generate(12, 5);
        let (mut db, file) = checked_flow(&text);
        for (at, removed, inserted) in edits {
            easyflow_genflow::edit(&mut text, at, removed, &inserted);
            file.set_text(&mut db).to(text.as_str().into());
            prop_assert_eq!(file_diagnostics(&db, file), &fresh_check(&text));
        }
    }
}

/// Typing an allow comment character by character, then deleting it: each
/// keystroke searches for allow comments in the one chunk it touches (two
/// when it moves a chunk's end), as it analyses that chunk's steps again
/// and no other's, and runs no file-wide rule again; the diagnostics always
/// equal a fresh check.
#[test]
fn typing_an_allow_comment_searches_one_chunk() {
    let (mut db, log) = Database::with_execution_log();
    let mut text = flow_with_problems();
    let file = SourceFile::new(&db, "a.flow".into(), text.as_str().into());
    let codes = |db: &Database| -> Vec<&'static str> {
        file_diagnostics(db, file)
            .iter()
            .map(|d| d.code.as_str())
            .collect()
    };
    assert!(codes(&db).contains(&"W0206"));
    log.take();
    let at = text.find("require unusedFile;").unwrap() + "require unusedFile;".len();
    let comment = " // easyflow: allow(W0206)";
    for (i, c) in comment.char_indices() {
        edit_with_reparse(&mut db, file, &mut text, at + i..at + i, &c.to_string());
        let diagnostics = file_diagnostics(&db, file).clone();
        let executed = log.take();
        assert_eq!(diagnostics, fresh_check(&text), "{text}");
        for query in [query!(chunk_allow_comments), query!(chunk_analysis)] {
            assert!(executed.count(query) <= 2, "{executed:?}");
        }
        executed.assert_not_executed(&[
            query!(semantic_diagnostics),
            query!(names),
            query!(dependency_graph),
        ]);
    }
    assert!(!codes(&db).contains(&"W0206"), "{:?}", codes(&db));
    edit_with_reparse(&mut db, file, &mut text, at..at + comment.len(), "");
    assert_eq!(file_diagnostics(&db, file), &fresh_check(&text));
    assert!(codes(&db).contains(&"W0206"));
}

#[test]
fn editing_the_topology_reruns_only_the_fit_check() {
    use easyflow_db::TopologyFile;
    let (mut db, log) = Database::with_execution_log();
    let topology = TopologyFile::new(
        &db,
        "cluster.topology".into(),
        easyflow_genflow::TOPOLOGY.to_string(),
    );
    let text = easyflow_genflow::generate_with_topology(40, 2);
    let file = SourceFile::builder("a.flow".into(), text.into())
        .topology(Some(topology))
        .new(&db);
    assert!(
        file_diagnostics(&db, file).is_empty(),
        "{:?}",
        file_diagnostics(&db, file)
    );
    log.take();

    // The GPU workers start no instance: the steps that need GPU no longer fit.
    topology
        .set_text(&mut db)
        .to(easyflow_genflow::TOPOLOGY.replace("compute+GPU:2,", "compute+GPU:0,"));
    let diagnostics = file_diagnostics(&db, file).clone();
    let executed = log.take();
    executed.assert_not_executed(&[
        query!(parse),
        query!(file_outline),
        query!(chunk_analysis),
        query!(item_index),
        query!(name_resolution),
        query!(dependency_graph),
        query!(semantic_diagnostics),
    ]);
    executed.assert_executed(&[
        query!(parse_topology),
        query!(fit_diagnostics),
        query!(file_diagnostics),
    ]);
    assert!(!diagnostics.is_empty());
    assert!(
        diagnostics
            .iter()
            .all(|d| d.code == easyflow_db::Code::E0701),
        "{diagnostics:?}"
    );

    // An edit that changes no fit result stops at the fit check.
    topology.set_text(&mut db).to(format!(
        "// a comment\n{}",
        easyflow_genflow::TOPOLOGY.replace("compute+GPU:2,", "compute+GPU:0,")
    ));
    file_diagnostics(&db, file);
    let executed = log.take();
    assert!(executed.ran(query!(fit_diagnostics)), "{executed:?}");
    assert!(!executed.ran(query!(file_diagnostics)), "{executed:?}");
}

/// `Database::check` analyses the steps of a large file on several threads
/// first, beside the search for allow comments: the diagnostics are those
/// of a plain check, before and after an edit that changes a name.
#[test]
fn parallel_check_equals_a_plain_check() {
    let mut text = easyflow_genflow::generate(4_000, 9);
    text.push_str("require unusedFile;\nstep Broken runs P (x = S1.outs[\"a\"], y = Missing);\n");
    // One allow comment that silences (the unused file), one in vain (W0905).
    text.push_str("require silencedFile; // easyflow: allow(W0206)\n// easyflow: allow(W0301)\n");
    text.push_str("step Last runs P (x = S1.outs);\n");
    let mut db = Database::default();
    let file = SourceFile::new(&db, "large.flow".into(), text.as_str().into());
    let diagnostics = db.check(file).to_vec();
    let codes: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert!(
        codes.contains(&"W0206") && codes.contains(&"W0905"),
        "{codes:?}"
    );
    assert!(
        !diagnostics
            .iter()
            .any(|d| d.message.contains("silencedFile")),
        "{diagnostics:?}"
    );
    assert_eq!(diagnostics, fresh_check(&text));

    let edited = text
        .replacen("= S1.outs", "= S2.outs", 1)
        .replace("Missing", "S3999");
    file.set_text(&mut db).to(edited.as_str().into());
    assert_eq!(db.check(file), fresh_check(&edited).as_slice());
}

#[test]
fn a_second_export_without_an_edit_recomputes_nothing() {
    let (mut db, log) = Database::with_execution_log();
    // Enough steps for several chunks (about 64 steps each).
    let before = easyflow_genflow::generate(600, 5);
    let file = SourceFile::new(&db, "a.flow".into(), before.as_str().into());
    let first = easyflow_db::expanded_workflow(&db, file).clone();
    let executed = log.take();
    assert!(executed.ran(query!(expanded_workflow)));
    let chunks = easyflow_db::file_outline(&db, file).chunks.len();
    assert!(chunks > 2, "{chunks} chunks");
    assert_eq!(executed.count(query!(chunk_values)), chunks);

    let again = easyflow_db::expanded_workflow(&db, file).clone();
    assert_eq!(log.take(), Executed::default(), "nothing re-runs");
    assert_eq!(first, again);

    // An edit inside one step's string reads that step's chunk's values
    // again, only.
    let after = before.replacen("\"chunk 5 — этап\"", "\"chunk 5 — edited\"", 1);
    file.set_text(&mut db).to(after.as_str().into());
    let edited = easyflow_db::expanded_workflow(&db, file).clone();
    let executed = log.take();
    // One chunk, or two when the edited step ended a chunk and no longer
    // does (or the reverse): chunks end after a step whose hash says so.
    assert!(
        (1..=2).contains(&executed.count(query!(chunk_values))),
        "{executed:?}"
    );
    let fresh = Database::default();
    let fresh_file = SourceFile::new(&fresh, "a.flow".into(), after.into());
    assert_eq!(&edited, easyflow_db::expanded_workflow(&fresh, fresh_file));
}

/// The flow with `inserted` in place of `deleted`, reparsed incrementally
/// as hosts do, and the file's diagnostics after it.
fn edit_with_reparse(
    db: &mut Database,
    file: SourceFile,
    text: &mut String,
    deleted: std::ops::Range<usize>,
    inserted: &str,
) {
    let range =
        easyflow_db::TextRange::new((deleted.start as u32).into(), (deleted.end as u32).into());
    text.replace_range(deleted, inserted);
    // The text edited as hosts keep it: a rope.
    let mut edited = file.text(db).clone();
    edited.edit(range, inserted);
    assert_eq!(edited, *text);
    let old = easyflow_db::parse(db, file).clone();
    let reparsed = easyflow_syntax::reparse(&old, range, inserted, &edited);
    file.set_reparsed(db).to(reparsed);
    file.set_text(db).to(edited);
}

#[test]
fn typing_or_deleting_a_step_reanalyses_one_or_two_chunks() {
    let (mut db, log) = Database::with_execution_log();
    let mut text = easyflow_genflow::generate(2_000, 4);
    let file = SourceFile::new(&db, "a.flow".into(), text.as_str().into());
    file_diagnostics(&db, file);
    assert!(file_outline(&db, file).chunks.len() > 10);
    log.take();

    // A new step typed character by character in a blank line.
    let step = text.find("\nstep S1000 ").unwrap();
    let blank = text[..step].rfind("\n\n").unwrap() + 1;
    let typed = "step New runs Tools.Prepare (x = S999.outs);\n\n";
    for (i, c) in typed.char_indices() {
        edit_with_reparse(
            &mut db,
            file,
            &mut text,
            blank + i..blank + i,
            &c.to_string(),
        );
        let diagnostics = file_diagnostics(&db, file).clone();
        let executed = log.take();
        let chunks = executed.count(query!(chunk_analysis));
        assert!(chunks <= 2, "after {:?}: {executed:?}", &typed[..=i]);
        assert_eq!(diagnostics, fresh_check(&text), "after {:?}", &typed[..=i]);
    }
    // The whole step deleted.
    edit_with_reparse(&mut db, file, &mut text, blank..blank + typed.len(), "");
    let diagnostics = file_diagnostics(&db, file).clone();
    let executed = log.take();
    assert!(executed.count(query!(chunk_analysis)) <= 2, "{executed:?}");
    assert_eq!(diagnostics, fresh_check(&text));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Random edits on a flow of many chunks, each reparsed incrementally
    /// (chunks are cut where the parser's item hashes say): the diagnostics
    /// equal a fresh check of the text every time.
    #[test]
    fn incremental_reparse_equals_fresh(edits in proptest::collection::vec(edit(), 1..8)) {
        let mut text = easyflow_genflow::generate(400, 6);
        let mut db = Database::default();
        let file = SourceFile::new(&db, "a.flow".into(), text.as_str().into());
        file_diagnostics(&db, file);
        for (at, removed, inserted) in edits {
            let at = (at * 7) % (text.len() + 1);
            let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            let end = (at..=(at + removed).min(text.len()))
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(at);
            edit_with_reparse(&mut db, file, &mut text, at..end, &inserted);
            prop_assert_eq!(file_diagnostics(&db, file), &fresh_check(&text));
        }
    }
}

/// A step that reads a later one (allowed: the order of steps is free) puts
/// no cycle in the graph, and the keystroke path still does not build the
/// graph: only the stretch between the two steps is searched. A cycle is
/// found, and reported as a fresh check does.
#[test]
fn a_step_reading_a_later_one_needs_no_graph_until_there_is_a_cycle() {
    let (mut db, log) = Database::with_execution_log();
    let mut text = easyflow_genflow::generate(3_000, 12);
    let at = text.find("\nstep S20 ").unwrap() + 1;
    let paren = at + text[at..].find('(').unwrap() + 1;
    text.insert_str(paren, "late = S30.outs, ");
    let file = SourceFile::new(&db, "a.flow".into(), text.as_str().into());
    assert_eq!(file_diagnostics(&db, file), &fresh_check(&text));
    log.take();

    // An edit far away: no graph.
    let edited = text.replacen("\"chunk 2000 — этап\"", "\"chunk 2000\"", 1);
    let edited = edited.replacen("step S2500 ", "step S2500x ", 1);
    file.set_text(&mut db).to(edited.as_str().into());
    assert_eq!(file_diagnostics(&db, file), &fresh_check(&edited));
    let executed = log.take();
    assert!(executed.ran(query!(links)), "{executed:?}");
    executed.assert_not_executed(&[query!(dependency_graph), query!(names)]);

    // S30 now reads S20 too: a cycle, reported as a fresh check does.
    let at = edited.find("\nstep S30 ").unwrap() + 1;
    let paren = at + edited[at..].find('(').unwrap() + 1;
    let mut cyclic = edited.clone();
    cyclic.insert_str(paren, "back = S20.outs, ");
    file.set_text(&mut db).to(cyclic.as_str().into());
    let diagnostics = file_diagnostics(&db, file).clone();
    assert!(
        diagnostics
            .iter()
            .any(|d| d.code == easyflow_db::Code::E0301),
        "{diagnostics:?}"
    );
    assert_eq!(diagnostics, fresh_check(&cyclic));
}

/// A flow of `reads.len()` steps, step `i` reading the steps `reads[i]`.
fn flow_reading(reads: &[Vec<usize>]) -> String {
    let mut text = String::new();
    for (i, read) in reads.iter().enumerate() {
        let params: Vec<String> = read
            .iter()
            .enumerate()
            .map(|(n, r)| format!("in{n} = S{r}.outs"))
            .collect();
        text.push_str(&format!("step S{i} runs P ({});\n\n", params.join(", ")));
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The links' cycle search agrees with the graph's strongly connected
    /// components (which petgraph checks, `graph.rs`), on random graphs
    /// with edges both ways, after each of a few edits.
    #[test]
    fn the_links_find_a_cycle_when_the_graph_does(
        raw in proptest::collection::vec(proptest::collection::vec(0usize..400, 0..3), 150..300),
        edits in proptest::collection::vec((0usize..300, proptest::collection::vec(0usize..400, 0..3)), 1..5),
    ) {
        let count = raw.len();
        // Mostly earlier steps, as flows are written, some later ones.
        let fold = |i: usize, r: usize| if r.is_multiple_of(50) { r % count } else { i.saturating_sub(1 + r % 60) };
        let mut reads: Vec<Vec<usize>> = raw
            .iter()
            .enumerate()
            .map(|(i, read)| read.iter().map(|&r| fold(i, r)).collect())
            .collect();
        let mut db = Database::default();
        let file = SourceFile::new(&db, "a.flow".into(), flow_reading(&reads).into());
        for edit in std::iter::once(None).chain(edits.into_iter().map(Some)) {
            if let Some((step, read)) = edit {
                let step = step % count;
                reads[step] = read.iter().map(|&r| fold(step, r)).collect();
                file.set_text(&mut db).to(flow_reading(&reads).into());
            }
            let graph = easyflow_db::dependency_graph(&db, file);
            let expected = !graph.cycles.is_empty()
                || graph.edges.iter().any(easyflow_db::DependencyGraph::is_self_edge);
            prop_assert_eq!(easyflow_db::links::links(&db, file).cyclic, expected);
        }
    }
}
