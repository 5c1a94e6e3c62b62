//! Step names: in an `after`/`on` list (not the current step nor those
//! listed already), and in expression position (not the current step).

use std::collections::HashSet;

use easyflow_db::{StepId, item_index, name_resolution};

use super::super::context::CompletionContext;
use super::super::list::{CompletionList, MAX_ITEMS, first_best_matches};
use super::super::{CompletionItem, CompletionKind, DocumentationOf, Insert};

/// In an `after`/`on` list.
pub(crate) fn after_list(ctx: &CompletionContext<'_>) -> CompletionList {
    let typed = ctx.word.as_ref().map(|w| w.text().to_string());
    step_names(ctx, Some(typed.as_deref()))
}

/// In expression position.
pub(crate) fn in_expression(ctx: &CompletionContext<'_>) -> CompletionList {
    step_names(ctx, None)
}

/// The names of the steps of the file (first definitions), in text order;
/// beyond [`MAX_ITEMS`], only the best matches of what is typed (prefix
/// matches, then the rest, each in text order), marked incomplete; without
/// the current step and, in an `after` list (`after_list` is `Some` of the
/// word being typed, which is not "already listed"), those listed already.
/// This runs over the steps of large flows: it stops as soon as it has the
/// names it offers, and builds items only for them.
fn step_names(ctx: &CompletionContext<'_>, after_list: Option<Option<&str>>) -> CompletionList {
    let (db, file) = (ctx.db, ctx.file);
    let current: Option<StepId> = ctx.current_step();
    let typed = ctx.typed();
    let index = item_index(db, file);
    let resolution = name_resolution(db, file);
    let mut listed: Vec<&str> = Vec::new();
    if let (Some(current), Some(typed)) = (current, after_list) {
        let step = &index.steps[current.index()];
        listed = step.dependencies.iter().map(|d| d.name.as_str()).collect();
        if let Some(at) = listed.iter().position(|n| Some(*n) == typed) {
            listed.remove(at);
        }
    }
    let listed: HashSet<&str> = listed.into_iter().collect();
    let current_name = current.and_then(|c| index.steps[c.index()].name.as_deref());
    let candidates = index.steps.iter().enumerate().filter_map(|(i, step)| {
        let name = step.name.as_deref()?;
        let first = resolution.names.first_definition[i];
        (first && Some(name) != current_name && !listed.contains(name)).then_some((i, name))
    });
    // Few names: all of them, in text order (the client filters as the user
    // types). Many: the best matches of what is typed.
    let is_incomplete = candidates.clone().nth(MAX_ITEMS).is_some();
    let offered: Vec<(usize, &str)> = if is_incomplete {
        first_best_matches(candidates, &typed, |&(_, name)| name)
    } else {
        candidates.collect()
    };
    let items = offered
        .into_iter()
        .map(|(i, name)| {
            ctx.item(name, CompletionKind::Step, Insert::Text(name.to_string()))
                .detail(index.steps[i].package.as_deref().map(str::to_string))
                .documentation_of(DocumentationOf::Step(name.to_string()))
        })
        .collect::<Vec<CompletionItem>>();
    CompletionList {
        items,
        is_incomplete,
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::super::tests::{STEPS, check};
    use super::super::super::{CompletionKind, MAX_ITEMS, completion_list, completions};
    use crate::fixture::fixture;

    #[test]
    fn after_lists() {
        let text = format!("{STEPS}step Third runs P after $0 ();\n");
        check(
            &text,
            expect![[r#"
                Step Load
                Step Other
            "#]],
        );
        check(
            &format!("{STEPS}step Third runs P after Load, O$0\n"),
            expect![[r#"
                Step Other ‹O›
            "#]],
        );
        // The word being typed is not "already listed"; the current step never is offered.
        check(
            &format!("{STEPS}step Third runs P after Other, Lo$0ad ();\n"),
            expect![[r#"
                Step Load ‹Load›
            "#]],
        );
        check(
            &format!("{STEPS}step Third runs P on $0"),
            expect![[r#"
                Step Load
                Step Other
            "#]],
        );
    }

    #[test]
    fn many_steps_give_the_best_matches_of_what_is_typed() {
        let mut text = String::new();
        for i in 0..500 {
            text.push_str(&format!("step Step{i} runs P ();\n"));
        }
        text.push_str("step Target runs P ();\nstep Use runs Q (x = Tar$0);\n");
        let f = fixture(&text);
        let items = completions(&f.db, f.file, f.offset);
        let steps: Vec<&str> = items
            .iter()
            .filter(|i| i.kind == CompletionKind::Step)
            .map(|i| i.label.as_str())
            .collect();
        assert_eq!(
            steps.first(),
            Some(&"Target"),
            "the prefix match comes first"
        );
        assert!(steps.len() <= MAX_ITEMS);
    }

    /// More step names than [`MAX_ITEMS`]: the best matches, prefixes first
    /// in text order, then subsequences, and the list is marked incomplete.
    #[test]
    fn many_step_names_are_cut_and_marked_incomplete() {
        // More names than offered, fewer matches than offered.
        let names = MAX_ITEMS + MAX_ITEMS / 2;
        let mut text = String::new();
        for i in 0..names {
            text.push_str(&format!("step S{i} runs P ();\n"));
        }
        text.push_str("step Xs1 runs P ();\nstep Use runs Q (x = s1$0);\n");
        let f = fixture(&text);
        let list = completion_list(&f.db, f.file, f.offset);
        assert!(list.is_incomplete);
        let labels: Vec<&str> = list.items.iter().map(|i| i.label.as_str()).collect();
        // "S1", "S10".."S19", "S100".."S149": fewer than MAX_ITEMS prefix
        // matches, then the subsequences in text order (the names that do
        // not match are left out).
        let prefixes: Vec<String> = (0..names)
            .map(|i| format!("S{i}"))
            .filter(|n| n.starts_with("S1"))
            .collect();
        assert_eq!(labels[..prefixes.len()], prefixes);
        assert_eq!(labels[prefixes.len()..][..3], ["S21", "S31", "S41"]);
        assert_eq!(labels.last(), Some(&"Xs1"));
        assert!(!labels.contains(&"S22"));

        // Nothing matches: nothing offered, still incomplete (the client asks
        // again as the word changes).
        let f = fixture(&text.replace("x = s1$0", "x = zq$0"));
        let list = completion_list(&f.db, f.file, f.offset);
        assert!(list.is_incomplete);
        assert!(list.items.is_empty());

        // Nothing typed: the first MAX_ITEMS names in text order.
        let f = fixture(&text.replace("x = s1$0", "x = $0"));
        let list = completion_list(&f.db, f.file, f.offset);
        assert!(list.is_incomplete);
        assert_eq!(list.items.len(), MAX_ITEMS);
        assert_eq!(
            list.items[MAX_ITEMS - 1].label,
            format!("S{}", MAX_ITEMS - 1)
        );
    }
}
