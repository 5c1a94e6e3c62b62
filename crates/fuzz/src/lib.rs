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
pub mod layout;

use std::path::Path;

use easyflow_diagnostics::{Diagnostic, TextRange, TextSize};
use easyflow_ide::{AnalysisHost, SourceText};

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
        mutate: None,
    },
    Target {
        name: "analysis",
        check: analysis,
        seeds: &["analysis", "fit", "parser/corpus"],
        mutate: None,
    },
    Target {
        name: "ide",
        check: ide,
        seeds: &["analysis", "parser/corpus"],
        mutate: None,
    },
    Target {
        name: "edits",
        check: edits,
        seeds: &["analysis", "parser/corpus"],
        mutate: None,
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
        seeds: &["cli/discovery"],
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
        mutate: Some(mutate_format),
    },
];

/// The target named `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

fn assert_range_inside(text: &str, range: TextRange, what: &dyn std::fmt::Debug) {
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

/// Lexes and parses: the tokens and the tree give back the text, and
/// diagnostics lie inside it.
pub fn parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lexed = easyflow_syntax::lex(text);
    let joined: String = (0..lexed.len()).map(|i| lexed.text(text, i)).collect();
    assert_eq!(joined, text, "the tokens are not the text");
    let parse = easyflow_syntax::parse(text);
    assert_eq!(parse.syntax().to_string(), text, "the tree is not the text");
    assert_diagnostics_inside(text, parse.errors());
}

/// Checks arbitrary text as a flow: no panic, diagnostics inside the text
/// and sorted, and its dependency graph built.
pub fn analysis(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut host = AnalysisHost::new();
    let file = host.add_flow(Path::new("fuzz.flow"), &text);
    let analysis = host.analysis();
    let diagnostics = analysis
        .diagnostics(file)
        .expect("nothing cancels")
        .to_vec();
    assert_diagnostics_inside(&text, &diagnostics);
    assert!(
        diagnostics
            .windows(2)
            .all(|w| (w[0].range.start(), w[0].code) <= (w[1].range.start(), w[1].code)),
        "diagnostics not sorted by start, then code"
    );
    let _ = analysis.graph(file).expect("nothing cancels");
}

/// Every IDE feature on arbitrary text at offsets the input chooses: no
/// panic, and every returned range inside the text. The first two bytes
/// choose the offset; the rest is the text.
pub fn ide(data: &[u8]) {
    let (at, rest) = match data {
        [a, b, rest @ ..] => (u16::from_le_bytes([*a, *b]) as usize, rest),
        _ => return,
    };
    let text = String::from_utf8_lossy(rest);
    let mut offset = at % (text.len() + 1);
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let offset = TextSize::from(offset as u32);
    let whole = TextRange::up_to(TextSize::of(&*text));
    let around = TextRange::new(offset, whole.end());
    let mut host = AnalysisHost::new();
    let file = host.add_flow(Path::new("fuzz.flow"), &text);
    let a = host.analysis();
    let inside = |range: TextRange, what: &str| assert_range_inside(&text, range, &what);
    if let Some(hover) = a.hover(file, offset).unwrap() {
        inside(hover.range, "hover");
    }
    let _ = a.completions(file, offset).unwrap();
    if let Some(target) = a.goto_definition(file, offset).unwrap() {
        inside(target.focus_range, "definition");
    }
    for usage in a.references(file, offset, true).unwrap() {
        inside(usage.range, "reference");
    }
    for usage in a.highlights(file, offset).unwrap() {
        inside(usage.range, "highlight");
    }
    if let Ok((range, _)) = a.prepare_rename(file, offset).unwrap() {
        inside(range, "prepare rename");
    }
    if let Ok(edits) = a.rename(file, offset, "Renamed").unwrap() {
        for edit in edits {
            inside(edit.range, "rename edit");
        }
    }
    let _ = a.document_symbols(file).unwrap();
    let _ = a.workspace_symbols(&[file], "s", 100).unwrap();
    for range in [None, Some(around)] {
        let _ = a.semantic_tokens(file, range).unwrap();
        let _ = a.inlay_hints(file, range).unwrap();
    }
    let _ = a.folding_ranges(file).unwrap();
    for chain in a.selection_ranges(file, &[offset]).unwrap() {
        for range in chain {
            inside(range, "selection range");
        }
    }
    let _ = a.code_actions(file, TextRange::empty(offset)).unwrap();
    let _ = a.code_actions(file, whole).unwrap();
    let _ = a.code_lenses(file).unwrap();
    if let Some(item) = a.call_hierarchy_item(file, offset).unwrap() {
        let _ = a.incoming_calls(file, item.step).unwrap();
        let _ = a.outgoing_calls(file, item.step).unwrap();
    }
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
}

/// The topology reader: no panic, diagnostics inside the text, and the
/// GPI-Space string of what it read reads back to the same worker types.
pub fn topology(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let topology = easyflow_topology::parse(text);
    assert_diagnostics_inside(text, &topology.diagnostics);
    let _ = topology.to_gpispace();
}

/// `easyflow.toml`: no panic, diagnostics inside the text.
pub fn config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let config = easyflow_db::config::parse_config(text);
    assert_diagnostics_inside(text, &config.diagnostics);
    for path in [&config.topology, &config.catalog].into_iter().flatten() {
        assert_range_inside(text, path.range, &path.path);
    }
}

/// The package catalog reader: no panic, diagnostics inside the text.
pub fn catalog(data: &[u8]) {
    let catalog = easyflow_catalog::parse_bytes(data);
    if let Ok(text) = std::str::from_utf8(data) {
        assert_diagnostics_inside(text, &catalog.diagnostics);
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
    match data {
        [text @ .., 0, width, indent] => (
            text,
            Some(easyflow_fmt::Options {
                width: usize::from(*width % 160) + 1,
                indent: usize::from(*indent % 9),
            }),
        ),
        _ => (data, None),
    }
}

/// A mutation of an input of `format` that `seed` chooses: one of its
/// text's layout ([`layout::mutate`]), or other options.
pub fn mutate_format(data: &[u8], seed: u32) -> Option<Vec<u8>> {
    let (text, options) = format_input(data);
    if seed.is_multiple_of(4) {
        let [_, width, indent, _] = seed.to_le_bytes();
        return Some([text, &[0, width, indent]].concat());
    }
    let mut out = layout::mutate(text, seed)?;
    if options.is_some() {
        out.extend_from_slice(&data[text.len()..]);
    }
    Some(out)
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
