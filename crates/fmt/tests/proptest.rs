//! Property tests on generated flows (`easyflow-genflow`): the properties of
//! `formatting.md` hold on them, on their tokens laid out at random (stable:
//! the same output), and on random edits of them (which often break the
//! syntax: then the text must be refused).

use easyflow_fmt::{Options, format};
use easyflow_fuzz::format_properties::check_properties;
use easyflow_syntax::{SyntaxKind, lex};
use proptest::prelude::*;

/// `text` with every gap between two tokens that are not comments (and not
/// `~step`) replaced by one of `layouts`, picked by `choices`; blank lines
/// and the gaps around comments stay as they are.
fn relayout(text: &str, choices: &[u8]) -> String {
    const LAYOUTS: [&str; 5] = [" ", "\n", "\t ", "\n    ", "   "];
    let lexed = lex(text);
    let mut out = String::with_capacity(text.len() * 2);
    let mut previous: Option<SyntaxKind> = None;
    let mut gap = String::new();
    let mut n = 0;
    for i in 0..lexed.len() {
        let kind = lexed.kind(i);
        let token = lexed.text(text, i);
        if matches!(kind, SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE) {
            gap.push_str(token);
            continue;
        }
        let is_comment = matches!(kind, SyntaxKind::LINE_COMMENT | SyntaxKind::BLOCK_COMMENT);
        let blank = gap.matches('\n').count() >= 2;
        let free = !gap.is_empty()
            && !blank
            && !is_comment
            && previous.is_some_and(|p| {
                !matches!(p, SyntaxKind::LINE_COMMENT | SyntaxKind::BLOCK_COMMENT)
            });
        if free {
            out.push_str(LAYOUTS[usize::from(choices[n % choices.len()]) % LAYOUTS.len()]);
            n += 1;
        } else {
            out.push_str(&gap);
        }
        gap.clear();
        out.push_str(token);
        previous = Some(kind);
    }
    out.push_str(&gap);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn generated_flows_keep_every_property(
        steps in 1usize..40,
        seed in any::<u64>(),
        width in prop_oneof![Just(100usize), 20usize..120],
        indent in 1usize..5,
    ) {
        let text = easyflow_genflow::generate(steps, seed);
        let options = Options { width, indent };
        check_properties(&text, &options).map(drop).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn any_layout_of_the_same_tokens_formats_the_same(
        steps in 1usize..30,
        seed in any::<u64>(),
        choices in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        let text = easyflow_genflow::generate(steps, seed);
        let moved = relayout(&text, &choices);
        let options = Options::default();
        prop_assert_eq!(format(&moved, &options), format(&text, &options));
    }

    #[test]
    fn edited_flows_are_formatted_or_refused(
        steps in 1usize..20,
        seed in any::<u64>(),
        at in any::<usize>(),
        removed in 0usize..12,
        inserted in "[ \n(),;\\[\\]=a-z\"/*~.:<-]{0,6}",
    ) {
        let mut text = easyflow_genflow::generate(steps, seed);
        easyflow_genflow::edit(&mut text, at, removed, &inserted);
        check_properties(&text, &Options::default()).map(drop).map_err(TestCaseError::fail)?;
    }
}
