//! The list offered to the client: at most [`MAX_ITEMS`] items, the best
//! matches of the word typed so far (prefix matches, then subsequences),
//! marked incomplete when some were left out.

use std::borrow::Cow;

use easyflow_db::{Db, SourceFile};
use easyflow_diagnostics::{TextRange, TextSize};
use easyflow_syntax::SourceText;

use super::{CompletionItem, collect};

/// The most items offered at once: a flow may have thousands of steps, and
/// the client asks again as the user types (lists cut to this are marked
/// incomplete). A hundred, as clangd offers by default: a list costs its
/// items' JSON on both sides (at 100,000 steps, most of a completion's
/// time), and an editor shows a dozen of them.
pub const MAX_ITEMS: usize = 100;

/// The completions at `offset` as offered to the client: at most
/// [`MAX_ITEMS`], the best matches of the word typed so far.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CompletionList {
    pub items: Vec<CompletionItem>,
    /// Some completions were left out: the client asks again as the user
    /// types.
    pub is_incomplete: bool,
}

impl From<Vec<CompletionItem>> for CompletionList {
    fn from(items: Vec<CompletionItem>) -> Self {
        CompletionList {
            items,
            is_incomplete: false,
        }
    }
}

/// [`super::completions`], cut to the best [`MAX_ITEMS`] matches of what is
/// typed.
pub fn completion_list(db: &dyn Db, file: SourceFile, offset: TextSize) -> CompletionList {
    let CompletionList {
        items,
        is_incomplete,
    } = collect(db, file, offset);
    if items.len() <= MAX_ITEMS {
        return CompletionList {
            items,
            is_incomplete,
        };
    }
    // Every item replaces the same word.
    let typed = typed_prefix(file.text(db), items[0].replace, offset);
    let best = best_matches(items.iter().map(|i| i.label.as_str()), &typed);
    let mut items: Vec<Option<CompletionItem>> = items.into_iter().map(Some).collect();
    CompletionList {
        items: best.into_iter().filter_map(|i| items[i].take()).collect(),
        is_incomplete: true,
    }
}

/// The part of the word `replace` that is left of the cursor.
pub(super) fn typed_prefix(
    text: &SourceText,
    replace: TextRange,
    offset: TextSize,
) -> Cow<'_, str> {
    let end = offset.clamp(replace.start(), replace.end());
    text.get(TextRange::new(replace.start(), end))
        .unwrap_or_default()
}

/// How well a name matches what is typed (ASCII case-insensitive): 0 for a
/// prefix, 1 for a subsequence, `None` for no match.
fn match_rank(name: &str, typed: &str) -> Option<u8> {
    let prefix = name.len() >= typed.len()
        && name.is_char_boundary(typed.len())
        && name[..typed.len()].eq_ignore_ascii_case(typed);
    if prefix {
        return Some(0);
    }
    let mut chars = name.chars();
    typed
        .chars()
        .all(|c| chars.any(|n| n.eq_ignore_ascii_case(&c)))
        .then_some(1)
}

/// The positions of the labels to offer, in order: all of them when there
/// are at most [`MAX_ITEMS`]; otherwise the best [`MAX_ITEMS`] matches of
/// `typed`, prefix matches first, then subsequences, each in their original
/// order.
fn best_matches<'a>(
    labels: impl ExactSizeIterator<Item = &'a str> + Clone,
    typed: &str,
) -> Vec<usize> {
    if labels.len() <= MAX_ITEMS {
        return (0..labels.len()).collect();
    }
    first_best_matches(labels.enumerate(), typed, |&(_, label)| label)
        .into_iter()
        .map(|(i, _)| i)
        .collect()
}

/// The best [`MAX_ITEMS`] of `candidates` as matches of `typed`: prefix
/// matches, then subsequences, each in their order. Stops as soon as it
/// has them: over the steps of a large flow, what is typed usually has more
/// than enough prefix matches among the first names.
pub(super) fn first_best_matches<T>(
    candidates: impl Iterator<Item = T> + Clone,
    typed: &str,
    label: impl Fn(&T) -> &str,
) -> Vec<T> {
    let mut best: Vec<T> = candidates
        .clone()
        .filter(|c| match_rank(label(c), typed) == Some(0))
        .take(MAX_ITEMS)
        .collect();
    if best.len() < MAX_ITEMS {
        let wanted = MAX_ITEMS - best.len();
        best.extend(
            candidates
                .filter(|c| match_rank(label(c), typed) == Some(1))
                .take(wanted),
        );
    }
    best
}

#[cfg(test)]
mod tests {
    use super::super::completions;
    use super::*;
    use crate::fixture::fixture;

    /// The early-stopping selection equals ranking every label and keeping
    /// the best.
    #[test]
    fn first_best_matches_equals_a_full_ranking() {
        // A small linear congruential generator: the cases are the same on
        // every run.
        let mut state = 5u64;
        let mut below = |n: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        let letters = ['a', 'b', 'C', 'd'];
        for _ in 0..200 {
            let labels: Vec<String> = (0..below(3 * MAX_ITEMS))
                .map(|_| (0..1 + below(3)).map(|_| letters[below(4)]).collect())
                .collect();
            let typed: String = (0..below(3)).map(|_| letters[below(3)]).collect();
            let mut ranked: Vec<(u8, usize)> = labels
                .iter()
                .enumerate()
                .filter_map(|(i, l)| Some((match_rank(l, &typed)?, i)))
                .collect();
            ranked.sort_unstable();
            ranked.truncate(MAX_ITEMS);
            let expected: Vec<usize> = ranked.into_iter().map(|(_, i)| i).collect();
            let got: Vec<usize> =
                first_best_matches(labels.iter().enumerate(), &typed, |&(_, l)| l.as_str())
                    .into_iter()
                    .map(|(i, _)| i)
                    .collect();
            assert_eq!(got, expected, "{typed:?} over {labels:?}");
        }
    }

    /// More than [`MAX_ITEMS`] steps and files: the list sent is cut to the
    /// best matches of what is typed, prefixes first, and marked incomplete.
    #[test]
    fn long_lists_are_cut_to_the_best_matches() {
        // 199 step names (all offered) and two files.
        let mut text = String::from("require tar_file, other_file;\n");
        for i in 0..MAX_ITEMS - 3 {
            text.push_str(&format!("step Step{i} runs P ();\n"));
        }
        text.push_str(
            "step XtaYr runs P ();\nstep Target runs P ();\nstep Use runs Q (x = ta$0);\n",
        );
        let f = fixture(&text);
        let list = completion_list(&f.db, f.file, f.offset);
        assert!(list.is_incomplete);
        let labels: Vec<&str> = list.items.iter().map(|i| i.label.as_str()).collect();
        // Prefix matches (steps, then files, in their order), then subsequences.
        assert_eq!(labels, ["Target", "tar_file", "XtaYr"]);

        // Few items: all of them, complete, whatever is typed.
        let f = fixture("require data;\nstep A runs P ();\nstep B runs Q (x = zz$0);\n");
        let list = completion_list(&f.db, f.file, f.offset);
        assert!(!list.is_incomplete);
        assert_eq!(list.items, completions(&f.db, f.file, f.offset));
    }
}
