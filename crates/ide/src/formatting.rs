//! Document and range formatting (`formatting.md`, "In the editor"): the
//! text `easyflow fmt` gives, as minimal edits.
//!
//! The edits come from a diff of the tokens and comments of the old and new
//! texts (which are the same but for the two normalisations): between two
//! tokens that correspond, the old whitespace (and any `;` or `,` added or
//! removed) is replaced by the new, trimmed to what differs. So an edit never
//! spans a token that stays, and cursor, folds and undo behave.
//!
//! Range formatting applies only the edits inside the top-level items the
//! range touches (each item with the whitespace and comments before it, and
//! the comments after it on its last line), so every other byte stays.

use easyflow_db::{Db, SourceFile};
use easyflow_fmt::Options;
use easyflow_syntax::{SyntaxKind, TextRange, TextSize, lex};

use crate::TextEdit;

/// The edits that format `file`; `None` when it has syntax errors (or the
/// formatter refused it), an empty list when it is formatted already.
pub fn formatting(db: &dyn Db, file: SourceFile, options: &Options) -> Option<Vec<TextEdit>> {
    formatting_of(
        &file.text(db).whole(),
        easyflow_db::parse(db, file),
        options,
    )
}

/// [`formatting`] of `text`, whose parse is `parse`.
fn formatting_of(
    text: &str,
    parse: &easyflow_syntax::Parse,
    options: &Options,
) -> Option<Vec<TextEdit>> {
    let formatted = easyflow_fmt::format_parsed(text, parse, options).ok()?;
    Some(minimal_edits(text, &formatted))
}

/// The edits that format the top-level items `range` touches.
pub fn range_formatting(
    db: &dyn Db,
    file: SourceFile,
    range: TextRange,
    options: &Options,
) -> Option<Vec<TextEdit>> {
    let text = file.text(db).whole();
    let parse = easyflow_db::parse(db, file);
    let edits = formatting_of(&text, parse, options)?;
    let regions = item_regions(&text, &parse.syntax());
    let touched: Vec<TextRange> = regions
        .into_iter()
        .filter(|region| touches(*region, range))
        .collect();
    Some(
        edits
            .into_iter()
            .filter(|edit| touched.iter().any(|region| belongs(edit.range, *region)))
            .collect(),
    )
}

/// Whether an edit is inside a region; an insertion at the boundary of two
/// belongs to the first (the `;` after a step).
fn belongs(edit: TextRange, region: TextRange) -> bool {
    if edit.is_empty() {
        region.start() < edit.start() && edit.start() <= region.end()
    } else {
        region.contains_range(edit)
    }
}

fn touches(region: TextRange, range: TextRange) -> bool {
    if range.is_empty() {
        region.contains_inclusive(range.start())
    } else {
        region
            .intersect(range)
            .is_some_and(|common| !common.is_empty())
    }
}

/// The region of each top-level item: from the end of the previous item's
/// region (the whitespace and comments before the item) to the end of the
/// item's last line, or the start of the next item on that line. The first
/// starts at 0, the last ends at the end of the text (a text of comments
/// only is one region).
fn item_regions(text: &str, root: &easyflow_syntax::SyntaxNode) -> Vec<TextRange> {
    let items: Vec<TextRange> = easyflow_syntax::top_level_children(root)
        .filter_map(|element| element.into_node())
        .map(|item| item.text_range())
        .collect();
    if items.is_empty() {
        // Comments only: one region.
        return vec![TextRange::up_to(TextSize::of(text))];
    }
    let mut regions = Vec::with_capacity(items.len());
    let mut start = TextSize::from(0);
    for (i, item) in items.iter().enumerate() {
        let end = if i + 1 == items.len() {
            TextSize::of(text)
        } else {
            let line_end = text[usize::from(item.end())..]
                .find(['\n', '\r'])
                .map_or(TextSize::of(text), |at| {
                    item.end() + TextSize::from(at as u32)
                });
            line_end.min(items[i + 1].start())
        };
        regions.push(TextRange::new(start, end));
        start = end;
    }
    regions
}

/// The non-whitespace tokens (comments included) of a text, with their ranges.
fn atoms(text: &str) -> Vec<(TextRange, &str)> {
    let lexed = lex(text);
    (0..lexed.len())
        .filter(|&i| !matches!(lexed.kind(i), SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE))
        .map(|i| (lexed.range(i), lexed.text(text, i)))
        .collect()
}

/// Edits that turn `old` into `new`, each as small as a diff of their
/// tokens allows: whitespace between two tokens that stay, and tokens added
/// or removed there.
pub fn minimal_edits(old: &str, new: &str) -> Vec<TextEdit> {
    if old == new {
        return Vec::new();
    }
    let (old_atoms, new_atoms) = (atoms(old), atoms(new));
    let old_texts: Vec<&str> = old_atoms.iter().map(|(_, t)| *t).collect();
    let new_texts: Vec<&str> = new_atoms.iter().map(|(_, t)| *t).collect();
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &old_texts, &new_texts);
    let mut edits = Vec::new();
    // The ends of the last pair of tokens that stay, and of the last tokens
    // removed and added since.
    let (mut old_from, mut new_from) = (TextSize::from(0), TextSize::from(0));
    let (mut old_mid, mut new_mid): (Option<TextSize>, Option<TextSize>) = (None, None);
    let segment = |old_from: TextSize,
                   new_from: TextSize,
                   old_mid: Option<TextSize>,
                   new_mid: Option<TextSize>,
                   old_to: TextSize,
                   new_to: TextSize,
                   edits: &mut Vec<TextEdit>| {
        // The tokens added or removed right after the token before (a `;`
        // after a step, a `,` after a parameter), then the whitespace.
        let (old_mid, new_mid) = (old_mid.unwrap_or(old_from), new_mid.unwrap_or(new_from));
        for ((old_start, old_end), (new_start, new_end)) in [
            ((old_from, old_mid), (new_from, new_mid)),
            ((old_mid, old_to), (new_mid, new_to)),
        ] {
            push_trimmed(
                &old[TextRange::new(old_start, old_end)],
                old_start,
                &new[TextRange::new(new_start, new_end)],
                edits,
            );
        }
    };
    for op in ops {
        match op {
            similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                for k in 0..len {
                    let (old_range, _) = old_atoms[old_index + k];
                    let (new_range, _) = new_atoms[new_index + k];
                    segment(
                        old_from,
                        new_from,
                        old_mid.take(),
                        new_mid.take(),
                        old_range.start(),
                        new_range.start(),
                        &mut edits,
                    );
                    (old_from, new_from) = (old_range.end(), new_range.end());
                }
            }
            similar::DiffOp::Delete {
                old_index, old_len, ..
            } => old_mid = Some(old_atoms[old_index + old_len - 1].0.end()),
            similar::DiffOp::Insert {
                new_index, new_len, ..
            } => new_mid = Some(new_atoms[new_index + new_len - 1].0.end()),
            similar::DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                old_mid = Some(old_atoms[old_index + old_len - 1].0.end());
                new_mid = Some(new_atoms[new_index + new_len - 1].0.end());
            }
        }
    }
    segment(
        old_from,
        new_from,
        old_mid,
        new_mid,
        TextSize::of(old),
        TextSize::of(new),
        &mut edits,
    );
    edits
}

/// One edit replacing `old` (at `offset`) by `new`, without their common
/// prefix and suffix; none when they are equal.
fn push_trimmed(old: &str, offset: TextSize, new: &str, edits: &mut Vec<TextEdit>) {
    if old == new {
        return;
    }
    let prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let max_suffix = old.len().min(new.len()) - prefix;
    let suffix = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    // Whitespace and ASCII punctuation only differ here, but keep to char
    // boundaries whatever the text.
    let (mut prefix, mut suffix) = (prefix, suffix);
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    while !old.is_char_boundary(old.len() - suffix) || !new.is_char_boundary(new.len() - suffix) {
        suffix -= 1;
    }
    // Nor between the `\r` and the `\n` of a line break: no position of
    // the protocol lies there (`;\r\n` formatted with `\n` replaces the
    // whole `\r\n`, not only its `\r`).
    let splits_line_break = |text: &str, at: usize| {
        text.as_bytes().get(at.wrapping_sub(1)) == Some(&b'\r')
            && text.as_bytes().get(at) == Some(&b'\n')
    };
    if splits_line_break(old, prefix) {
        prefix -= 1;
    }
    if splits_line_break(old, old.len() - suffix) {
        suffix -= 1;
    }
    let start = offset + TextSize::from(prefix as u32);
    let end = offset + TextSize::from((old.len() - suffix) as u32);
    edits.push(TextEdit {
        range: TextRange::new(start, end),
        insert: new[prefix..new.len() - suffix].to_string(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnalysisHost;
    use crate::apply_edits as apply;

    fn format(text: &str) -> Option<Vec<TextEdit>> {
        let mut host = AnalysisHost::new();
        let file = host.add_flow("a.flow".as_ref(), text);
        host.analysis()
            .formatting(file, &Options::default())
            .unwrap()
    }

    fn format_range(text: &str, range: std::ops::Range<u32>) -> Option<String> {
        let mut host = AnalysisHost::new();
        let file = host.add_flow("a.flow".as_ref(), text);
        let range = TextRange::new(range.start.into(), range.end.into());
        let edits = host
            .analysis()
            .range_formatting(file, range, &Options::default())
            .unwrap()?;
        Some(apply(text, &edits))
    }

    #[test]
    fn edits_give_the_formatted_text_and_are_small() {
        let text = "step   A runs P (x=1,y=2,)\nstep B runs P after A ()\n";
        let edits = format(text).unwrap();
        let formatted = easyflow_fmt::format(text, &Options::default()).unwrap();
        assert_eq!(apply(text, &edits), formatted);
        assert!(edits.len() > 1, "not one whole-document edit");
        for edit in &edits {
            let old = &text[edit.range];
            assert!(
                old.trim().is_empty() || old == "," || old.trim() == ",",
                "edits touch only whitespace and normalised commas: {old:?}"
            );
        }
        assert_eq!(format(&formatted).unwrap(), [], "no edits when formatted");
    }

    #[test]
    fn edits_never_split_a_line_break() {
        // The first line's `\n` decides: the `\r\n` after `;` becomes `\n`
        // by one edit over the whole line break (found by the session
        // fuzzer: an edit of only the `\r` ended between `\r` and `\n`).
        for text in [
            "step A runs P ();\nstep B runs P ();\r\n",
            "step A runs P ();\r\nstep B runs P ();\n\r\n",
        ] {
            let edits = format(text).unwrap();
            for edit in &edits {
                for at in [edit.range.start(), edit.range.end()] {
                    let at = usize::from(at);
                    assert!(
                        !(text[..at].ends_with('\r') && text[at..].starts_with('\n')),
                        "{edit:?} splits a line break of {text:?}"
                    );
                }
            }
            let formatted = easyflow_fmt::format(text, &Options::default()).unwrap();
            assert_eq!(apply(text, &edits), formatted);
        }
    }

    #[test]
    fn no_edits_with_syntax_errors() {
        assert_eq!(format("step A runs P (x = 1 y = 2);\n"), None);
    }

    #[test]
    fn every_test_flow_through_edits() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data");
        for folder in ["parser/ok", "parser/corpus", "fmt", "analysis"] {
            for entry in std::fs::read_dir(root.join(folder)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|e| e != "flow") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let expected = easyflow_fmt::format(&text, &Options::default()).ok();
                let applied = format(&text).map(|edits| apply(&text, &edits));
                assert_eq!(applied, expected, "{}", path.display());
                // Formatting every item by ranges gives the same text.
                let whole = format_range(&text, 0..text.len() as u32);
                assert_eq!(whole, expected, "{}", path.display());
            }
        }
    }

    #[test]
    fn range_formatting_formats_only_the_items_touched() {
        let text = "step  A runs P (x=1)\nstep  B runs P (x=1)\n\n\n// c\nstep  C runs P (x=1)\n";
        // A cursor in B.
        assert_eq!(
            format_range(text, 25..25).unwrap(),
            "step  A runs P (x=1)\nstep B runs P (x = 1);\n\n\n// c\nstep  C runs P (x=1)\n"
        );
        // From A into B.
        assert_eq!(
            format_range(text, 3..25).unwrap(),
            "step A runs P (x = 1);\nstep B runs P (x = 1);\n\n\n// c\nstep  C runs P (x=1)\n"
        );
        // C, with the blank lines and the comment before it.
        assert_eq!(
            format_range(text, 50..51).unwrap(),
            "step  A runs P (x=1)\nstep  B runs P (x=1)\n\n// c\nstep C runs P (x = 1);\n"
        );
    }
}
