//! The `ide` target's oracle: every IDE feature on one text at one offset,
//! and what each answer promises beyond lying inside the text:
//!
//! - formatting gives `easyflow fmt`'s text, as sorted, disjoint edits;
//!   range formatting, some of those edits;
//! - each quick fix at the offset is sorted, disjoint edits whose result
//!   no longer has the diagnostic it fixes (unless the text has several
//!   syntax errors), no syntax error when the text had none, and, for the
//!   E0803 fix in a text without syntax errors, no diagnostic the text did
//!   not have;
//! - a completion replaces a range around the offset; selection ranges
//!   grow outwards from it; a hover covers it.
//!
//! The flow has a package catalog ([`CATALOG`]) with a required parameter
//! of every type, so the catalog's checks, completions, signature help and
//! fixes are exercised too.

use std::path::Path;

use easyflow_diagnostics::{Code, Diagnostic, TextRange, TextSize};
use easyflow_ide::{AnalysisHost, SourceFile, TextEdit};

use crate::assert_range_inside;

/// Packages with the names the test flows use most (`P`, `Pkg0`), with a
/// required parameter of every type and bounds of every kind.
pub(crate) const CATALOG: &str = r#"
[[package]]
name = "P"
  [[package.param]]
  name = "x"
  type = "Int"
  min = 1
  max = 5
  required = true
  [[package.param]]
  name = "input"
  type = "File"
  required = true
  [[package.param]]
  name = "mode"
  type = "Enum"
  values = ["fast", "exact"]
  default = "exact"
  [[package.output]]
  name = "out.txt"

[[package]]
name = "Pkg0"
  [[package.param]]
  name = "ratio"
  type = "Double"
  min = 0.5
  required = true
  [[package.param]]
  name = "flag"
  type = "Bool"
  required = true
  [[package.param]]
  name = "items"
  type = "List"
  required = true
  [[package.param]]
  name = "label"
  type = "String"
  required = true
  [[package.param]]
  name = "below"
  type = "Int"
  max = -2
"#;

/// A flow `text` and its catalog, analysed.
fn host_of(text: &str) -> (AnalysisHost, SourceFile) {
    let mut host = AnalysisHost::new();
    let file = host.add_flow(Path::new("fuzz.flow"), text);
    let catalog = host.add_catalog(
        Path::new("easyflow-packages.toml"),
        CATALOG.as_bytes().to_vec(),
    );
    host.set_flow_catalog(file, Some(catalog));
    (host, file)
}

fn diagnostics_of(text: &str) -> Vec<Diagnostic> {
    let (host, file) = host_of(text);
    host.analysis().diagnostics(file).unwrap().to_vec()
}

/// Checks `edits` are sorted, disjoint and inside `text`; returns `text`
/// with them applied.
fn apply(text: &str, edits: &[TextEdit], what: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = TextSize::from(0);
    for edit in edits {
        assert_range_inside(text, edit.range, &what);
        assert!(
            at <= edit.range.start(),
            "{what}: edits out of order or overlapping: {edits:?}"
        );
        out.push_str(&text[TextRange::new(at, edit.range.start())]);
        out.push_str(&edit.insert);
        at = edit.range.end();
    }
    out.push_str(&text[usize::from(at)..]);
    out
}

pub(crate) fn check(text: &str, at: usize) {
    let mut offset = at % (text.len() + 1);
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let offset = TextSize::from(offset as u32);
    let whole = TextRange::up_to(TextSize::of(text));
    let around = TextRange::new(offset, whole.end());
    let (host, file) = host_of(text);
    let a = host.analysis();
    let inside = |range: TextRange, what: &str| assert_range_inside(text, range, &what);
    let covers = |range: TextRange, what: &str| {
        inside(range, what);
        assert!(
            range.start() <= offset && offset <= range.end(),
            "{what} {range:?} is not around the offset {offset:?}"
        );
    };
    if let Some(hover) = a.hover(file, offset).unwrap() {
        covers(hover.range, "hover");
    }
    for item in a.completions(file, offset).unwrap().items {
        covers(item.replace, "a completion's replaced range");
    }
    let _ = a.signature_help(file, offset).unwrap();
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
        for token in a.semantic_tokens(file, range).unwrap() {
            inside(token.range, "semantic token");
        }
        let _ = a.inlay_hints(file, range).unwrap();
    }
    for fold in a.folding_ranges(file).unwrap() {
        inside(fold.range, "fold");
    }
    for chain in a.selection_ranges(file, &[offset]).unwrap() {
        let mut previous = TextRange::empty(offset);
        for range in chain {
            inside(range, "selection range");
            assert!(
                range.contains_range(previous),
                "selection ranges do not grow outwards: {previous:?} then {range:?}"
            );
            previous = range;
        }
    }
    formatting(text, &host, file, around);
    quick_fixes(text, &host, file, offset);
    fix_all(text, &host, file);
    let _ = a.code_actions(file, whole).unwrap();
    for lens in a.code_lenses(file).unwrap() {
        for place in lens.dependents {
            inside(place, "a dependent's place");
        }
    }
    if let Some(places) = a.dependents(file, offset).unwrap() {
        for place in places {
            inside(place, "a dependent's place");
        }
    }
    if let Some(item) = a.call_hierarchy_item(file, offset).unwrap() {
        let _ = a.incoming_calls(file, item.step).unwrap();
        let _ = a.outgoing_calls(file, item.step).unwrap();
    }
}

/// Formatting is `easyflow fmt`'s text as edits; range formatting, some of
/// those edits.
fn formatting(text: &str, host: &AnalysisHost, file: SourceFile, range: TextRange) {
    let options = easyflow_fmt::Options::default();
    let a = host.analysis();
    let edits = a.formatting(file, &options).unwrap();
    match (&edits, easyflow_fmt::format(text, &options)) {
        (Some(edits), Ok(formatted)) => {
            assert_eq!(
                apply(text, edits, "formatting"),
                formatted,
                "formatting's edits"
            );
        }
        (None, Err(_)) => {}
        (edits, formatted) => panic!("formatting gave {edits:?}, fmt {formatted:?}"),
    }
    if let Some(partial) = a.range_formatting(file, range, &options).unwrap() {
        let all = edits.unwrap_or_default();
        for edit in &partial {
            assert!(
                all.contains(edit),
                "range formatting's {edit:?} is not formatting's"
            );
        }
    }
}

/// Each quick fix at `offset`, applied: the diagnostic it fixes is gone
/// (none with its code and message where it stood) when the text has at
/// most one syntax error; in a text without syntax errors, it breaks no
/// syntax, and E0803's brings no diagnostic.
fn quick_fixes(text: &str, host: &AnalysisHost, file: SourceFile, offset: TextSize) {
    let actions = host
        .analysis()
        .code_actions(file, TextRange::empty(offset))
        .unwrap();
    if actions.is_empty() {
        return;
    }
    let before = host.analysis().diagnostics(file).unwrap().to_vec();
    let syntax_errors = before.iter().filter(|d| crate::is_syntax_error(d)).count();
    let count = |diagnostics: &[Diagnostic], code: Code| {
        diagnostics.iter().filter(|d| d.code == code).count()
    };
    for action in actions {
        let Some(fixed_diagnostic) = &action.diagnostic else {
            continue;
        };
        let fixed = apply(text, &action.edits, &action.title);
        let after = diagnostics_of(&fixed);
        let code = fixed_diagnostic.code;
        let what = format!(
            "the fix {:?} of {code} in {text:?} gives {fixed:?}",
            action.title
        );
        // In a text with more syntax errors than one, the parse around each
        // is a guess: a fix there is a suggestion, not a promise.
        if syntax_errors <= 1 {
            let moved = moved_by(fixed_diagnostic.range.start(), &action.edits);
            let stays = after.iter().any(|d| {
                d.code == code
                    && d.message == fixed_diagnostic.message
                    && Some(d.range.start()) == moved
            });
            assert!(!stays, "{what}: {code} {} stays", fixed_diagnostic.message);
        }
        if syntax_errors == 0 {
            let broken: Vec<_> = after.iter().filter(|d| crate::is_syntax_error(d)).collect();
            assert!(broken.is_empty(), "{what}: a syntax error: {broken:?}");
        }
        if code == Code::E0803 && syntax_errors == 0 {
            for new in &after {
                assert!(
                    count(&after, new.code) <= count(&before, new.code),
                    "{what}: it brings {} {}",
                    new.code,
                    new.message
                );
            }
        }
    }
}

/// Fix-all: its edits are sorted, disjoint and inside the text (`apply`
/// checks), and a text without syntax errors has none once fixed (what
/// `easyflow check --fix` counts on).
fn fix_all(text: &str, host: &AnalysisHost, file: SourceFile) {
    let Some(action) = host.analysis().fix_all(file).unwrap() else {
        return;
    };
    let fixed = apply(text, &action.edits, "fix all");
    let before = host.analysis().diagnostics(file).unwrap().to_vec();
    if !before.iter().any(crate::is_syntax_error) {
        let broken: Vec<Diagnostic> = diagnostics_of(&fixed)
            .into_iter()
            .filter(crate::is_syntax_error)
            .collect();
        assert!(
            broken.is_empty(),
            "fix all of {text:?} gives {fixed:?}, with a syntax error: {broken:?}"
        );
    }
}

/// Where `offset` is once `edits` (sorted) are applied; `None` when an edit
/// replaces the text there (what stood there is gone).
fn moved_by(offset: TextSize, edits: &[TextEdit]) -> Option<TextSize> {
    let mut moved = i64::from(u32::from(offset));
    for edit in edits {
        if edit.range.end() <= offset {
            moved += edit.insert.len() as i64 - i64::from(u32::from(edit.range.len()));
        } else if edit.range.start() <= offset {
            return None;
        }
    }
    u32::try_from(moved).ok().map(TextSize::from)
}
