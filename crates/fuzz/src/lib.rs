//! The checks of every fuzz target, one function per entry point taking
//! arbitrary bytes. The cargo-fuzz targets in `fuzz/` (outside the
//! workspace: libFuzzer needs its own flags) only call these, and
//! `tests/replay.rs` replays the checked-in corpora and regressions through
//! the same functions on stable, with a short mutation smoke run, so CI
//! keeps every finding fixed without libFuzzer.
//!
//! Each check panics on a broken invariant: no panic inside, output ranges
//! inside the text on char boundaries, lossless trees, incremental equals
//! fresh.

pub mod format_properties;
mod ide;
pub mod layout;

use std::path::Path;

use easyflow_diagnostics::{Diagnostic, TextRange, TextSize};
use easyflow_ide::{AnalysisHost, SourceText};
use easyflow_syntax::SyntaxKind;

/// A structure-aware mutation of an input, from a random seed (`None`: none applies).
pub type Mutation = fn(&[u8], u32) -> Option<Vec<u8>>;

/// A target: its name (the `fuzz/fuzz_targets/NAME.rs` and corpus folder)
/// and its check.
pub struct Target {
    pub name: &'static str,
    pub check: fn(&[u8]),
    /// The folders under `tests/data` whose files seed it.
    pub seeds: &'static [&'static str],
    /// Its structure-aware mutation, beside libFuzzer's byte mutations (its
    /// target's `fuzz_mutator!`, and the smoke run of `tests/replay.rs`).
    pub mutate: Option<Mutation>,
}

/// Every target, in `fuzz/campaign.sh`'s order.
pub const TARGETS: &[Target] = &[
    Target {
        name: "parse",
        check: parse,
        seeds: &["parser/corpus", "parser/ok", "parser/err"],
        mutate: Some(layout::mutate),
    },
    Target {
        name: "analysis",
        check: analysis,
        seeds: &["analysis", "fit", "parser/corpus"],
        mutate: Some(layout::mutate),
    },
    Target {
        name: "ide",
        check: ide,
        seeds: &["analysis", "parser/corpus", "lsp/catalog-workspace"],
        mutate: Some(mutate_text_and_trailer),
    },
    Target {
        name: "edits",
        check: edits,
        seeds: &["analysis", "parser/corpus"],
        mutate: Some(mutate_edits),
    },
    Target {
        name: "topology",
        check: topology,
        seeds: &["topology"],
        mutate: None,
    },
    Target {
        name: "config",
        check: config,
        seeds: &["cli/discovery", "catalog-config"],
        mutate: None,
    },
    Target {
        name: "catalog",
        check: catalog,
        seeds: &["catalog"],
        mutate: None,
    },
    Target {
        name: "format",
        check: format,
        seeds: &["fmt", "parser/corpus", "parser/ok"],
        mutate: Some(mutate_text_and_trailer),
    },
];

/// The target named `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

pub(crate) fn assert_range_inside(text: &str, range: TextRange, what: &dyn std::fmt::Debug) {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    assert!(
        start <= end && end <= text.len(),
        "{range:?} outside the text ({} bytes): {what:?}",
        text.len()
    );
    assert!(
        text.is_char_boundary(start) && text.is_char_boundary(end),
        "{range:?} not on char boundaries: {what:?}"
    );
}

fn assert_diagnostics_inside(text: &str, diagnostics: &[Diagnostic]) {
    for diagnostic in diagnostics {
        assert_range_inside(text, diagnostic.range, &diagnostic.message);
        for related in &diagnostic.related {
            if related.range.end() <= TextSize::of(text) {
                assert_range_inside(text, related.range, &related.message);
            }
        }
    }
}

/// Lexes and parses: the tokens and the tree give back the text, the tree's
/// tokens are the lexer's (none merged, split or moved), diagnostics lie
/// inside it, parsing in pieces on several threads gives the same; and a
/// text without syntax errors, laid out otherwise (a
/// comment or whitespace between two tokens, [`layout::relayout`]), parses
/// to the same tree, trivia aside, again without errors.
pub fn parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lexed = easyflow_syntax::lex(text);
    let joined: String = (0..lexed.len()).map(|i| lexed.text(text, i)).collect();
    assert_eq!(joined, text, "the tokens are not the text");
    let parse = easyflow_syntax::parse(text);
    assert_eq!(parse.syntax().to_string(), text, "the tree is not the text");
    let tree_tokens: Vec<TextRange> = parse
        .syntax()
        .descendants_with_tokens()
        .filter_map(|element| element.into_token())
        .map(|token| token.text_range())
        .collect();
    let lexer_tokens: Vec<TextRange> = (0..lexed.len()).map(|i| lexed.range(i)).collect();
    assert_eq!(
        tree_tokens, lexer_tokens,
        "the tree's tokens are not the lexer's"
    );
    assert_diagnostics_inside(text, parse.errors());
    // Parsed in pieces on several threads (as large texts are), the same
    // tree and errors.
    for threads in [2, 3] {
        assert!(
            easyflow_syntax::parse_on_threads(text, threads) == parse,
            "parsed on {threads} threads, {text:?} gives another tree"
        );
    }
    if parse.errors().is_empty()
        && let Some(moved) = layout::relayout(text, hash(data))
    {
        let reparsed = easyflow_syntax::parse(&moved);
        assert_eq!(
            reparsed.errors(),
            &[],
            "laid out otherwise, {text:?} has syntax errors: {moved:?}"
        );
        assert_eq!(
            shape(&reparsed.syntax()),
            shape(&parse.syntax()),
            "laid out otherwise, {text:?} parses differently: {moved:?}"
        );
    }
}

/// A tree without its trivia: each node's kind, and each other token's
/// kind and text, in order (item chunks, a grouping by lines, aside).
fn shape(root: &easyflow_syntax::SyntaxNode) -> String {
    use easyflow_syntax::NodeOrToken;
    let mut out = String::new();
    for event in root.preorder_with_tokens() {
        if let easyflow_syntax::WalkEvent::Enter(element) = event {
            match element {
                // Chunks group items for incremental reparsing, by lines.
                NodeOrToken::Node(node) if node.kind() == SyntaxKind::ITEM_CHUNK => {}
                NodeOrToken::Node(node) => out.push_str(&format!("{:?} (", node.kind())),
                NodeOrToken::Token(token) if !token.kind().is_trivia() => {
                    out.push_str(&format!("{:?} {:?} ", token.kind(), token.text()));
                }
                NodeOrToken::Token(_) => {}
            }
        } else if let easyflow_syntax::WalkEvent::Leave(NodeOrToken::Node(node)) = event
            && node.kind() != SyntaxKind::ITEM_CHUNK
        {
            out.push_str(") ");
        }
    }
    out
}

/// A hash of the input (FNV-1a): what an oracle derives its own choices
/// from, so that an input always checks the same.
fn hash(data: &[u8]) -> u32 {
    data.iter().fold(0x811c_9dc5_u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// Checks arbitrary text as a flow: no panic, diagnostics inside the text
/// and sorted, and its dependency graph built; and a text without syntax
/// errors, laid out otherwise ([`layout::relayout`]), has the same
/// diagnostics (codes, severities, messages: only their places move).
pub fn analysis(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let diagnostics = checked(&text);
    assert_diagnostics_inside(&text, &diagnostics);
    assert!(
        diagnostics
            .windows(2)
            .all(|w| (w[0].range.start(), w[0].code) <= (w[1].range.start(), w[1].code)),
        "diagnostics not sorted by start, then code"
    );
    let syntax_ok = !diagnostics.iter().any(is_syntax_error);
    if syntax_ok && let Some(moved) = layout::relayout(&text, hash(data)) {
        let what = |diagnostics: &[Diagnostic]| -> Vec<String> {
            diagnostics
                .iter()
                .map(|d| format!("{} {:?} {}", d.code, d.code.severity(), d.message))
                .collect()
        };
        let mut before = what(&diagnostics);
        let mut after = what(&checked(&moved));
        // Sorted by place: moving the text may reorder diagnostics at one place.
        before.sort();
        after.sort();
        assert_eq!(
            after, before,
            "laid out otherwise, {text:?} is judged differently: {moved:?}"
        );
    }
}

/// An E01xx diagnostic: the text does not parse.
pub(crate) fn is_syntax_error(diagnostic: &Diagnostic) -> bool {
    diagnostic.code.as_str().starts_with("E01")
}

/// The diagnostics of `text` as a flow, and its graph built.
fn checked(text: &str) -> Vec<Diagnostic> {
    let mut host = AnalysisHost::new();
    let file = host.add_flow(Path::new("fuzz.flow"), text);
    let analysis = host.analysis();
    let _ = analysis.graph(file).expect("nothing cancels");
    analysis
        .diagnostics(file)
        .expect("nothing cancels")
        .to_vec()
}

/// Every IDE feature on a text at an offset, with a package catalog
/// ([`ide::CATALOG`]): no panic, every range inside the text, and what each
/// answer promises (see `ide.rs`). The input is a text, optionally ending
/// in a zero byte and two bytes of offset; without them, the offset is
/// taken from a hash of the text, so every seed (a test flow) is whole.
pub fn ide(data: &[u8]) {
    let (text, trailer) = split_trailer(data);
    let at = trailer.map_or_else(
        || hash(text) as usize,
        |bytes| u16::from_le_bytes(bytes) as usize,
    );
    ide::check(&String::from_utf8_lossy(text), at);
}

/// An input of `format` or `ide`: a text, and the two bytes after a zero
/// byte that end it, if it ends so.
fn split_trailer(data: &[u8]) -> (&[u8], Option<[u8; 2]>) {
    match data {
        [text @ .., 0, a, b] => (text, Some([*a, *b])),
        _ => (data, None),
    }
}

/// A mutation of an input of `format` or `ide` that `seed` chooses: one of
/// its text's layout ([`layout::mutate`]), or another trailer.
pub fn mutate_text_and_trailer(data: &[u8], seed: u32) -> Option<Vec<u8>> {
    let (text, trailer) = split_trailer(data);
    if seed.is_multiple_of(4) {
        let [_, a, b, _] = seed.to_le_bytes();
        return Some([text, &[0, a, b]].concat());
    }
    let mut out = layout::mutate(text, seed)?;
    if trailer.is_some() {
        out.extend_from_slice(&data[text.len()..]);
    }
    Some(out)
}

/// An edit decoded from the input: replace about `removed` bytes at about
/// `at` (moved to char boundaries) by `inserted`.
struct Edit {
    at: usize,
    removed: usize,
    inserted: String,
}

/// The input of `edits`: segments split at zero bytes, the first the
/// initial text, each other an edit (two bytes of position, one of length,
/// then the inserted text).
fn decode_edits(data: &[u8]) -> (String, Vec<Edit>) {
    let mut segments = data.split(|&b| b == 0);
    let text = String::from_utf8_lossy(segments.next().unwrap_or_default()).into_owned();
    let edits = segments
        .filter_map(|segment| match segment {
            [a, b, removed, inserted @ ..] => Some(Edit {
                at: u16::from_le_bytes([*a, *b]) as usize,
                removed: *removed as usize,
                inserted: String::from_utf8_lossy(inserted).into_owned(),
            }),
            _ => None,
        })
        .collect();
    (text, edits)
}

/// Applies `edit` to `text`; returns the replaced range.
fn apply(text: &mut String, edit: &Edit) -> TextRange {
    let mut start = edit.at % (text.len() + 1);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + edit.removed).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    text.replace_range(start..end, &edit.inserted);
    TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32))
}

/// Arbitrary edit sequences: after each edit, the edited rope holds the
/// edited string, the host's parse (reparsed incrementally from the
/// previous one when it could be) equals a full parse, and its diagnostics
/// (analysed incrementally) equal those of a fresh analysis of the same
/// text. The fresh analysis's own parse is the full parse, so each edit
/// parses the whole text once.
pub fn edits(data: &[u8]) {
    let (mut text, edits) = decode_edits(data);
    let mut host = AnalysisHost::new();
    // The text as an editor's document keeps it: a rope once edited.
    let mut source = SourceText::from(text.as_str());
    let file = host.add_shared_flow(Path::new("fuzz.flow"), source.clone());
    let _ = host.analysis().diagnostics(file).unwrap();
    for edit in edits.iter().take(16) {
        let deleted = apply(&mut text, edit);
        source.edit(deleted, &edit.inserted);
        assert_eq!(source, text, "the rope differs from the string");
        host.edit_shared_flow(file, source.clone(), deleted, &edit.inserted);
        let mut fresh_host = AnalysisHost::new();
        let fresh_file = fresh_host.add_flow(Path::new("fuzz.flow"), &text);
        let (incremental, fresh) = (host.analysis(), fresh_host.analysis());
        assert_eq!(
            incremental.parse(file).unwrap(),
            fresh.parse(fresh_file).unwrap(),
            "the reparse differs from a full parse of {text:?}"
        );
        assert_eq!(
            incremental.diagnostics(file).unwrap(),
            fresh.diagnostics(fresh_file).unwrap(),
            "incremental differs from fresh for {text:?}"
        );
    }
    // What the editor asks of the edited text, computed on the queries the
    // edits left (the graph and symbols from the items, the tokens from the
    // names' resolution), equals what a fresh analysis computes.
    let mut fresh_host = AnalysisHost::new();
    let fresh_file = fresh_host.add_flow(Path::new("fuzz.flow"), &text);
    let (incremental, fresh) = (host.analysis(), fresh_host.analysis());
    assert_eq!(
        incremental.graph(file).unwrap(),
        fresh.graph(fresh_file).unwrap(),
        "the graph differs from a fresh one for {text:?}"
    );
    assert_eq!(
        incremental.document_symbols(file).unwrap(),
        fresh.document_symbols(fresh_file).unwrap(),
        "the symbols differ from fresh ones for {text:?}"
    );
    assert_eq!(
        incremental.semantic_tokens(file, None).unwrap(),
        fresh.semantic_tokens(fresh_file, None).unwrap(),
        "the semantic tokens differ from fresh ones for {text:?}"
    );
    assert_eq!(
        incremental.inlay_hints(file, None).unwrap(),
        fresh.inlay_hints(fresh_file, None).unwrap(),
        "the inlay hints differ from fresh ones for {text:?}"
    );
}

/// Snippets an edit of `edits` inserts ([`mutate_edits`]): what typing in a
/// flow inserts, valid or half-typed.
const TYPED: &[&str] = &[
    "step B runs P (x = 1);\n",
    "step ",
    " runs ",
    "(",
    ")",
    ", ",
    ";",
    "x = A.outs[\"out.txt\"]",
    "= ",
    " after A",
    " on A",
    "require f;\n",
    "[priority = @high]\n",
    "\"",
    "// c\n",
    "/*",
    "*/",
    "\n",
    "~",
    "pre code\n  x\ncode end\n",
    "[1, 2]",
    "sweep ",
    "app: ",
    "exec: ",
];

/// A mutation of an input of `edits` that `seed` chooses: one more edit, at
/// a place of the text, deleting a little and inserting one of [`TYPED`]
/// (no byte of an edit is zero: a zero byte separates them).
pub fn mutate_edits(data: &[u8], seed: u32) -> Option<Vec<u8>> {
    let mut rng = fastrand::Rng::with_seed(u64::from(seed));
    let text_len = data.split(|&b| b == 0).next().map_or(0, <[u8]>::len);
    let [low, high] = (rng.usize(..=text_len) as u16).to_le_bytes();
    let mut out = data.to_vec();
    out.extend_from_slice(&[0, low.max(1), high.max(1), rng.u8(1..8)]);
    out.extend_from_slice(TYPED[rng.usize(..TYPED.len())].as_bytes());
    Some(out)
}

/// The topology reader: no panic, diagnostics inside the text; each worker
/// type's text is the text at its range, and each field's number is the
/// text at the field's range; and the GPI-Space string of what it read
/// reads back to the same worker types (without errors, when the file had
/// none).
pub fn topology(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let topology = easyflow_topology::parse(text);
    assert_diagnostics_inside(text, &topology.diagnostics);
    for worker in &topology.workers {
        assert_range_inside(text, worker.range, &worker.text);
        assert_eq!(&text[worker.range], worker.text, "a worker type's range");
        let fields = worker.field_ranges;
        let number = |range: Option<TextRange>| {
            range.map(|r| {
                assert_range_inside(text, r, &"a field");
                text[r]
                    .parse::<u64>()
                    .unwrap_or_else(|e| panic!("{:?}: {e}", &text[r]))
            })
        };
        assert_eq!(
            number(fields.socket),
            worker.socket,
            "the socket of {:?}",
            worker.text
        );
        for (range, value) in [
            (fields.per_node, worker.per_node),
            (fields.max_nodes, worker.max_nodes),
            (fields.shm, worker.shm),
        ] {
            if let Some(written) = number(range) {
                assert_eq!(written, value, "a field of {:?}", worker.text);
            }
        }
        assert_eq!(
            number(fields.port),
            worker.port.map(u64::from),
            "the port of {:?}",
            worker.text
        );
    }
    let gpispace = topology.to_gpispace();
    let again = easyflow_topology::parse(&gpispace);
    let meaning = |t: &easyflow_topology::Topology| -> Vec<String> {
        t.workers
            .iter()
            .map(|w| {
                let names: Vec<&str> = w.capabilities.iter().map(|c| c.name.as_str()).collect();
                format!(
                    "{names:?} {:?} {} {} {} {:?}",
                    w.socket, w.per_node, w.max_nodes, w.shm, w.port
                )
            })
            .collect()
    };
    assert_eq!(
        meaning(&again),
        meaning(&topology),
        "the GPI-Space string {gpispace:?} of {text:?}"
    );
    if !topology.has_errors() {
        assert!(
            !again.has_errors(),
            "the GPI-Space string {gpispace:?} has errors: {:?}",
            again.diagnostics
        );
    }
}

/// `easyflow.toml`: no panic, diagnostics inside the text; a path's range
/// is its string literal, which spells it (when it has no escape).
pub fn config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let config = easyflow_project::config::parse_config(text);
    assert_diagnostics_inside(text, &config.diagnostics);
    for path in [&config.topology, &config.catalog].into_iter().flatten() {
        assert_range_inside(text, path.range, &path.path);
        let literal = &text[path.range];
        let quote = literal.chars().next();
        assert!(
            matches!(quote, Some('"' | '\'')),
            "the range of {:?} is not a string: {literal:?}",
            path.path
        );
        if !literal.contains('\\')
            && !literal.starts_with("\"\"\"")
            && !literal.starts_with("\'\'\'")
        {
            assert_eq!(
                &literal[1..literal.len() - 1],
                path.path,
                "the range of a path"
            );
        }
    }
}

/// The package catalog reader: no panic, diagnostics inside the text; and
/// every parameter it checks admits a value: its bounds are in order, an
/// Enum has values, a default it keeps is allowed, and the value the E0803
/// quick fix gives it passes its checks (otherwise no flow could satisfy
/// it, and the fix would bring an error).
pub fn catalog(data: &[u8]) {
    let catalog = easyflow_catalog::parse_bytes(data);
    if let Ok(text) = std::str::from_utf8(data) {
        assert_diagnostics_inside(text, &catalog.diagnostics);
    }
    let files = ["file".to_string()];
    for package in &catalog.packages {
        for param in package
            .params
            .iter()
            .filter(|p| p.checked && p.ty.is_some())
        {
            let what = format!("parameter `{}` of `{}`", param.name, package.name);
            if let (Some(min), Some(max)) = (param.min, param.max) {
                assert!(!max.less_than(min), "{what}: its bounds are reversed");
            }
            if param.ty == Some(easyflow_catalog::ParamType::Enum) {
                assert!(!param.values.is_empty(), "{what}: an Enum without values");
            }
            let (text, value) = easyflow_ide::catalog::placeholder_value(param, &files)
                .unwrap_or_else(|| panic!("{what}: no placeholder"));
            let problem = easyflow_catalog::check::check_value(param, &value);
            assert!(
                problem.is_none(),
                "{what}: the placeholder {text}: {problem:?}"
            );
        }
    }
}

/// The formatter on a text: every property of `formatting.md`
/// ([`format_properties`]: idempotent, meaning-preserving, safe, stable,
/// within the width, one line ending, no trailing whitespace) at the
/// default width and indent, and at those of the input's options, if any
/// (see [`format_input`]).
pub fn format(data: &[u8]) {
    let (text, options) = format_input(data);
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    for options in std::iter::once(easyflow_fmt::Options::default()).chain(options) {
        if let Err(why) = format_properties::check_properties(text, &options) {
            panic!("width {}, indent {}: {why}", options.width, options.indent);
        }
    }
}

/// The input of `format`: a text, then optionally a zero byte and two
/// option bytes (the width, 1 to 160, and the indent, 0 to 8). Without
/// them, the whole input is the text, so every seed (a test flow) is a
/// valid flow.
fn format_input(data: &[u8]) -> (&[u8], Option<easyflow_fmt::Options>) {
    let (text, trailer) = split_trailer(data);
    let options = trailer.map(|[width, indent]| easyflow_fmt::Options {
        width: usize::from(width % 160) + 1,
        indent: usize::from(indent % 9),
    });
    (text, options)
}

/// The body of a target's `fuzz_mutator!`: half the time (by `seed`) its
/// structure-aware mutation `mutate` of the input, when it gives one that
/// fits in `max_size`; otherwise libFuzzer's own (`fuzzer_mutate`). Returns
/// the new size, as libFuzzer expects.
pub fn fuzz_mutate(
    mutate: Mutation,
    data: &mut [u8],
    size: usize,
    max_size: usize,
    seed: u32,
    fuzzer_mutate: fn(&mut [u8], usize, usize) -> usize,
) -> usize {
    if seed.is_multiple_of(2)
        && let Some(mutated) = mutate(&data[..size], seed / 2)
        && mutated.len() <= max_size
    {
        data[..mutated.len()].copy_from_slice(&mutated);
        return mutated.len();
    }
    fuzzer_mutate(data, size, max_size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_decode_and_apply_on_char_boundaries() {
        let (text, edits) = decode_edits(b"step A runs P ();\0\x05\x01\x01B\0x");
        assert_eq!(text, "step A runs P ();");
        assert_eq!(edits.len(), 1);
        let mut text = "é".to_string();
        let range = apply(
            &mut text,
            &Edit {
                at: 1,
                removed: 0,
                inserted: "x".into(),
            },
        );
        assert_eq!((text.as_str(), range), ("xé", TextRange::empty(0.into())));
    }
}
