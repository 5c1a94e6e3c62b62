//! Property tests of the syntax layer: on any text, lexing and parsing never
//! panic, are lossless (token texts and the tree give back the text), and
//! report diagnostics only at ranges inside the text, on char boundaries.
//!
//! Two generators: arbitrary strings, and strings glued from EasyFlow-ish
//! fragments (keywords, punctuation, names, strings, escapes, code blocks,
//! comments, Cyrillic, CRLF), which reach far deeper into the grammar.
//! Every text is also parsed with its tree built on several threads, which
//! must give the same tree. The case counts are set explicitly so that the suite stays fast in CI.

use easyflow_syntax::{
    TextRange, lex, parse, parse_keeping_tokens, parse_on_threads, syntax_errors,
};
use proptest::prelude::*;

/// Checks every property on `text`.
fn check(text: &str) -> Result<(), TestCaseError> {
    let lexed = lex(text);
    let mut joined = String::with_capacity(text.len());
    let mut end = 0.into();
    for i in 0..lexed.len() {
        let range = lexed.range(i);
        prop_assert_eq!(
            range.start(),
            end,
            "token {} does not follow token {}",
            i,
            i.wrapping_sub(1)
        );
        prop_assert!(!range.is_empty(), "token {} is empty", i);
        check_range(text, range, "token")?;
        joined.push_str(lexed.text(text, i));
        end = range.end();
    }
    prop_assert_eq!(&joined, text, "the tokens are not the text");
    for error in &lexed.errors {
        check_range(text, error.range, &error.message)?;
    }

    let parse = parse(text);
    prop_assert_eq!(parse.syntax().to_string(), text, "the tree is not the text");
    // Building the top-level items on several threads gives the same tree.
    for threads in [2, 3] {
        prop_assert_eq!(
            &parse_on_threads(text, threads),
            &parse,
            "on {} threads",
            threads
        );
    }
    // The parse without a tree finds the same errors.
    prop_assert_eq!(
        syntax_errors(text, &lexed),
        parse.errors(),
        "the errors of a parse without a tree"
    );
    for error in parse.errors() {
        check_range(text, error.range, &error.message)?;
        for related in &error.related {
            check_range(text, related.range, &related.message)?;
        }
    }
    Ok(())
}

fn check_range(text: &str, range: TextRange, what: &str) -> Result<(), TestCaseError> {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    prop_assert!(
        end <= text.len(),
        "{}: {:?} ends past the text ({} bytes)",
        what,
        range,
        text.len()
    );
    prop_assert!(
        text.is_char_boundary(start) && text.is_char_boundary(end),
        "{}: {:?} is not on char boundaries",
        what,
        range
    );
    Ok(())
}

/// Pieces of EasyFlow text, valid and not, to glue together.
const FRAGMENTS: &[&str] = &[
    // Keywords and contextual words.
    "flow",
    "require",
    "step",
    "sweep",
    "runs",
    "after",
    "on",
    "true",
    "false",
    "pre",
    "post",
    "app",
    "exec",
    "code",
    "end",
    "code end",
    "\ncode end",
    "\n  code end\n",
    // Punctuation.
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "=",
    ";",
    ":",
    ".",
    ",",
    "~",
    "<-",
    "<",
    "-",
    "+",
    "@",
    "/",
    "*",
    "\\",
    "\"",
    "'",
    "$",
    "#",
    // Names, constants and numbers.
    "S1",
    "S2",
    "Step_3",
    "_x",
    "input0",
    "Package.Method",
    "@high",
    "@normal",
    "0",
    "42",
    "-7",
    "+3",
    "3.14",
    ".5",
    "1e5",
    "1.5e-3",
    "5.",
    "9223372036854775808",
    "99999999999999999999999",
    "1e",
    "1.e5.3",
    // Strings, escapes.
    "\"text\"",
    "\"part1.dat\"",
    "\"a\\\"b\"",
    "\"\\u00e9\"",
    "\"\\u12\"",
    "\"\\q\"",
    "\"\\101\"",
    "\"open",
    "\"two\nlines\"",
    "\"\\",
    "\"этап\"",
    // Comments.
    "// comment",
    "// комментарий\n",
    "/* block */",
    "/* open",
    "*/",
    "/* a\r\nb */",
    // Code blocks.
    "pre code ruby\n  x = 1\ncode end",
    "post code python\r\n  print(1)\r\ncode end",
    "post code\n",
    "pre /* c */ code\n code endless\n",
    // Whole phrases.
    "step S runs P ();",
    "step A runs B.C after S1, S2\n(\n  x = 1,\n  y = S1.outs[\"f\"]\n);",
    "[flow:name = \"n\"]",
    "[priority = @high]",
    "require f1, f2;",
    "x = sweep [1, 2, 3]",
    "[1, [2, [3]]]",
    "app: a = 1, exec: nodes = 2",
    "in <- S.Result.outs",
    "on S1",
    // Cyrillic and other non-ASCII text.
    "шаг",
    "этап1",
    "stepшаг",
    "—",
    "é",
    "😀",
    "\u{0}",
    "\u{feff}",
    // Trivia.
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\n\n",
];

/// Texts glued from [`FRAGMENTS`] and a few arbitrary characters.
fn flowish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        8 => prop::sample::select(FRAGMENTS).prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..48).prop_map(|pieces| pieces.concat())
}

/// Deep nesting, to reach the parser's depth limit.
fn nested() -> impl Strategy<Value = String> {
    (
        0..300usize,
        prop::sample::select(&["[", "(", "{", "a["][..]),
        any::<bool>(),
    )
        .prop_map(|(depth, open, close)| {
            let mut text = String::from("step S runs P (x = ");
            text.push_str(&open.repeat(depth));
            if close {
                text.push_str(&"]".repeat(depth));
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arbitrary_text(text in any::<String>()) {
        check(&text)?;
    }

    #[test]
    fn arbitrary_ascii_text(text in "[ -~\t\r\n]{0,200}") {
        check(&text)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn flowish_text(text in flowish()) {
        check(&text)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn deeply_nested_text(text in nested()) {
        check(&text)?;
    }
}

#[test]
fn generated_flow_is_lossless() {
    let text = easyflow_genflow::generate(200, 1);
    check(&text).unwrap();
    assert!(parse(&text).errors().is_empty());
}

/// A flow large enough for `parse` to build on every core gives the tree of
/// a build on one thread, for any number of threads.
#[test]
fn large_flow_builds_the_same_tree_on_any_number_of_threads() {
    let text = easyflow_genflow::generate(3_000, 5);
    assert!(text.len() > 256 * 1024, "large enough to build in parallel");
    let sequential = parse_on_threads(&text, 1);
    assert_eq!(parse(&text), sequential);
    for threads in [2, 5, 8, 64] {
        assert_eq!(
            parse_on_threads(&text, threads),
            sequential,
            "{threads} threads"
        );
    }
}

/// What a user might type anywhere: into a file, these make syntax errors.
const BREAKAGES: &[&str] = &[
    "",
    "x",
    "1",
    "\"",
    "\\",
    ",",
    ";",
    "(",
    ")",
    "[",
    "]",
    "=",
    "<-",
    " ",
    "\n",
    "// c\n",
    "/*",
    "step",
    "sweep [1]",
    "after S1",
    "Я",
    "@high",
    ".outs",
    "code end\n",
    "$",
];

/// Checks that reparsing `old_text` after the edit, when it is possible,
/// gives exactly the tree and errors of a full parse; tells whether it was.
fn check_reparse(
    old_text: &str,
    at: usize,
    removed: usize,
    inserted: &str,
) -> Result<bool, TestCaseError> {
    let mut new_text = old_text.to_string();
    let range = easyflow_genflow::edit(&mut new_text, at, removed, inserted);
    let old = easyflow_syntax::parse(old_text);
    let deleted = TextRange::new((range.start as u32).into(), (range.end as u32).into());
    // Reparsed from the text as the analysis keeps it once edited: a rope.
    let mut edited = easyflow_syntax::SourceText::from(old_text);
    edited.edit(deleted, inserted);
    prop_assert_eq!(&edited, &*new_text);
    match easyflow_syntax::reparse(&old, deleted, inserted, &edited) {
        Some(incremental) => {
            prop_assert_eq!(incremental, easyflow_syntax::parse(&new_text));
            Ok(true)
        }
        None => Ok(false),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Incremental reparsing gives exactly the tree and errors of a full parse.
    #[test]
    fn incremental_reparse_equals_full_parse(
        at in 0usize..4000,
        removed in 0usize..8,
        inserted in prop::sample::select(BREAKAGES),
    ) {
        check_reparse(&easyflow_genflow::generate(20, 3), at, removed, inserted)?;
    }

    /// The same in files that already have syntax errors elsewhere (one to
    /// three breakages typed at random places first).
    #[test]
    fn incremental_reparse_equals_full_parse_with_errors_elsewhere(
        breakages in prop::collection::vec((0usize..4000, 0usize..4, prop::sample::select(BREAKAGES)), 1..4),
        at in 0usize..4000,
        removed in 0usize..8,
        inserted in prop::sample::select(BREAKAGES),
    ) {
        let mut old_text = easyflow_genflow::generate(20, 3);
        for (at, removed, inserted) in breakages {
            easyflow_genflow::edit(&mut old_text, at, removed, inserted);
        }
        check_reparse(&old_text, at, removed, inserted)?;
    }
}

/// What the sequences below type, paste or delete: the breakages, and
/// whole items.
const EDITS: &[&str] = &[
    "",
    "x",
    "\"",
    ";",
    "(",
    ")",
    "\n",
    "\n\n",
    "/*",
    "*/",
    "step",
    "step N runs P (x = S3.outs);\n\n",
    "step M runs P\n(\n  in0 = S2.outs[\"a\"],\n  label = \"m\"\n);\n\n",
    "[priority = @high]\n",
    "post code ruby\n  x = 1\ncode end\n",
    "code end\n",
    "require extra;\n",
    "~step L runs Q ();\n",
];

/// Applies `edits` one after another, each reparsed from the previous
/// incremental parse (a full parse when `reparse` declines), and checks
/// after each that the tree (byte for byte, as `debug_tree` prints it) and
/// the errors are those of a full parse.
fn check_edit_sequence(
    mut text: String,
    edits: Vec<(usize, usize, &str)>,
) -> Result<usize, TestCaseError> {
    let mut parse = easyflow_syntax::parse(&text);
    // The text as the analysis keeps it: a rope, edited in step.
    let mut edited = easyflow_syntax::SourceText::from(text.as_str());
    let mut incremental = 0;
    for (at, removed, inserted) in edits {
        let range = easyflow_genflow::edit(&mut text, at, removed, inserted);
        let deleted = TextRange::new((range.start as u32).into(), (range.end as u32).into());
        edited.edit(deleted, inserted);
        prop_assert_eq!(&edited, &*text);
        let full = easyflow_syntax::parse(&text);
        parse = match easyflow_syntax::reparse(&parse, deleted, inserted, &edited) {
            Some(reparsed) => {
                incremental += 1;
                prop_assert_eq!(
                    easyflow_syntax::debug_tree(&reparsed.syntax()),
                    easyflow_syntax::debug_tree(&full.syntax()),
                    "after {:?} replaced {:?} in {:?}",
                    inserted,
                    range,
                    text
                );
                prop_assert_eq!(reparsed.errors(), full.errors());
                // The chunks too: the same chunk nodes, items and hashes.
                prop_assert_eq!(&reparsed, &full, "the chunks differ");
                reparsed
            }
            None => full,
        };
    }
    Ok(incremental)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Random sequences of edits (typing, deleting and pasting whole
    /// steps, opening and closing strings, comments and code blocks) on a
    /// generated flow: each incremental parse equals a full parse.
    #[test]
    fn incremental_edit_sequences_equal_full_parses(
        edits in prop::collection::vec((0usize..4000, prop::sample::select(vec![0usize, 1, 3, 40, 300]), prop::sample::select(EDITS)), 1..12),
    ) {
        check_edit_sequence(easyflow_genflow::generate(20, 3), edits)?;
    }

    /// The same on flows already broken at random places.
    #[test]
    fn incremental_edit_sequences_equal_full_parses_in_broken_flows(
        breakages in prop::collection::vec((0usize..4000, 0usize..4, prop::sample::select(BREAKAGES)), 1..5),
        edits in prop::collection::vec((0usize..4000, prop::sample::select(vec![0usize, 1, 3, 40, 300]), prop::sample::select(EDITS)), 1..12),
    ) {
        let mut text = easyflow_genflow::generate(20, 3);
        for (at, removed, inserted) in breakages {
            easyflow_genflow::edit(&mut text, at, removed, inserted);
        }
        check_edit_sequence(text, edits)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// Edit sequences over the whole of a flow of many chunks (positions
    /// anywhere in its 70 KB): the incremental chunks equal a full parse's
    /// (checked with the tree and errors in `check_edit_sequence`),
    /// whichever chunk an edit falls in, at its end or across two.
    #[test]
    fn incremental_chunks_equal_full_parses(
        edits in prop::collection::vec((0usize..80_000, prop::sample::select(vec![0usize, 1, 3, 40, 300, 3000]), prop::sample::select(EDITS)), 1..8),
    ) {
        check_edit_sequence(easyflow_genflow::generate(400, 3), edits)?;
    }

    /// The same on a flow broken at random places first.
    #[test]
    fn incremental_chunks_equal_full_parses_in_broken_flows(
        breakages in prop::collection::vec((0usize..80_000, 0usize..4, prop::sample::select(BREAKAGES)), 1..5),
        edits in prop::collection::vec((0usize..80_000, prop::sample::select(vec![0usize, 1, 3, 40, 300, 3000]), prop::sample::select(EDITS)), 1..8),
    ) {
        let mut text = easyflow_genflow::generate(400, 3);
        for (at, removed, inserted) in breakages {
            easyflow_genflow::edit(&mut text, at, removed, inserted);
        }
        check_edit_sequence(text, edits)?;
    }
}

/// Edits to the item that ends a chunk (which may remove its end, or move
/// it) and to a file of identical steps (chunks cut at the maximum length)
/// give the chunks of a full parse, and take the incremental path.
#[test]
fn edits_at_chunk_ends_give_the_chunks_of_a_full_parse() {
    let text = easyflow_genflow::generate(400, 3);
    let parse = easyflow_syntax::parse(&text);
    assert!(parse.green().children().len() > 3, "several chunks");
    let mut offset = 0usize;
    let mut edits = Vec::new();
    for (chunk, items) in parse.green().children().zip(parse.chunks()) {
        let last = items.steps().last().expect("a chunk of steps");
        let start = offset + usize::from(last.offset);
        // Inside the string of the chunk's last step, in its name, and
        // removing it whole.
        let quote = text[start..].find('"').unwrap();
        edits.push(vec![(start + quote + 1, 0, "x")]);
        edits.push(vec![(start + 6, 0, "x")]);
        let len = text[start..].find("\n\n").unwrap() + 2;
        edits.push(vec![(start, len, "")]);
        offset += usize::from(chunk.text_len());
    }
    for sequence in edits {
        assert_eq!(check_edit_sequence(text.clone(), sequence).unwrap(), 1);
    }
    let same = "step S runs P (x = 1);\n".repeat(1000);
    let parse = easyflow_syntax::parse(&same);
    assert_eq!(
        parse.chunks()[0].steps().len(),
        easyflow_syntax::MAX_CHUNK_ITEMS
    );
    let edits = vec![
        (23 * 300 + 20, 0, "2"),
        (23 * 255, 0, "\n"),
        (23 * 256 + 1, 1, ""),
    ];
    assert_eq!(check_edit_sequence(same, edits).unwrap(), 3);
}

/// Typing a step character by character between two steps, deleting a
/// step and pasting fifty take the incremental path at every keystroke.
#[test]
fn everyday_edits_are_reparsed_incrementally() {
    let text = easyflow_genflow::generate(200, 3);
    let blank = text.find("\nstep S100 ").unwrap();
    let blank = text[..blank].rfind("\n\n").unwrap() + 1;
    let typed = "step New runs Tools.Prepare (x = S99.outs);\n\n";
    let edits: Vec<_> = typed
        .char_indices()
        .map(|(i, c)| (blank + i, 0, &typed[i..i + c.len_utf8()]))
        .collect();
    let count = edits.len();
    assert_eq!(check_edit_sequence(text.clone(), edits).unwrap(), count);
    let step = text.find("step S120 ").unwrap();
    let step_len = text[step..].find("\n\n").unwrap() + 2;
    assert_eq!(
        check_edit_sequence(text.clone(), vec![(step, step_len, "")]).unwrap(),
        1
    );
    let pasted = "step P runs Reducer.Sum (x = S1.outs);\n\n".repeat(50);
    assert_eq!(
        check_edit_sequence(text, vec![(step, 0, &pasted)]).unwrap(),
        1
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Lexing and parsing pieces of a text at the same time (one per
    /// thread) gives what one pass gives, in flows broken at random places
    /// (the pieces are joined only when nothing of one runs into the next).
    #[test]
    fn parsing_in_pieces_equals_one_pass(
        breakages in prop::collection::vec((0usize..4000, 0usize..4, prop::sample::select(BREAKAGES)), 0..4),
        threads in 2usize..=6,
    ) {
        let mut text = easyflow_genflow::generate(20, 3);
        for (at, removed, inserted) in breakages {
            easyflow_genflow::edit(&mut text, at, removed, inserted);
        }
        prop_assert_eq!(parse_on_threads(&text, threads), parse_on_threads(&text, 1));
        // The formatter's parse, which keeps the tokens: the same tree and errors.
        let kept = parse_keeping_tokens(&text);
        prop_assert_eq!(kept.parse, parse_on_threads(&text, 1));
        prop_assert_eq!(kept.lexed, lex(&text));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// Flows of hundreds of items cut into pieces: the chunks, made from
    /// the pieces on every thread (chunks across pieces, pieces without a
    /// cut, a cut at a piece's end), are those of one pass.
    #[test]
    fn chunks_made_from_pieces_equal_one_pass(
        steps in 200usize..800,
        seed in 0u64..1_000,
        threads in 2usize..=24,
        breakage in prop::option::of((0usize..100_000, prop::sample::select(BREAKAGES))),
    ) {
        let mut text = easyflow_genflow::generate(steps, seed);
        if let Some((at, inserted)) = breakage {
            easyflow_genflow::edit(&mut text, at, 0, inserted);
        }
        prop_assert_eq!(parse_on_threads(&text, threads), parse_on_threads(&text, 1));
    }
}

/// The incremental path is taken in a file with an error in another step.
#[test]
fn a_file_with_an_error_elsewhere_is_reparsed_incrementally() {
    let text = easyflow_genflow::generate(20, 3).replacen("= S0.outs", "= = S0.outs", 1);
    assert!(!easyflow_syntax::parse(&text).errors().is_empty());
    let at = text.find("\"chunk 15 ").expect("step 15 has a label") + 1;
    assert!(check_reparse(&text, at, 0, "x").unwrap());
}

/// `Parse::non_step_items` (through the chunks' lists of items) finds the
/// top-level items that are not steps, as a walk over every top-level
/// child does, in a flow of many chunks with items and errors among its
/// steps.
#[test]
fn non_step_items_are_those_of_a_walk() {
    let mut text = easyflow_genflow::generate(400, 3);
    for (i, inserted) in ["require extra;\n", "[flow:x = 1]\n", "xtep Q;\n", "]]\n"]
        .iter()
        .enumerate()
    {
        let at = text.find(&format!("\nstep S{} ", 50 + 90 * i)).unwrap() + 1;
        text.insert_str(at, inserted);
    }
    let parse = easyflow_syntax::parse(&text);
    let walked: Vec<_> = easyflow_syntax::top_level_children(&parse.syntax())
        .filter_map(|element| element.into_node())
        .filter(|node| node.kind() != easyflow_syntax::SyntaxKind::STEP)
        .map(|node| (node.kind(), node.text_range()))
        .collect();
    let found: Vec<_> = parse
        .non_step_items()
        .map(|node| (node.kind(), node.range()))
        .collect();
    assert!(walked.len() > 4, "{walked:?}");
    assert_eq!(found, walked);
}
