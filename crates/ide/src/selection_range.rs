//! Selection ranges ("expand selection"): from the token at an offset out
//! to the whole file, through the nodes around it: token → segment →
//! expression (each enclosing list) → parameter → parameter list → step →
//! file. Inside a string the first range is its text without the quotes;
//! inside a code block's body, the body.

use easyflow_db::{Db, SourceFile, parse};
use easyflow_diagnostics::{TextRange, TextSize};
use easyflow_syntax::SyntaxKind::{self, *};
use easyflow_syntax::{SyntaxNode, SyntaxToken};

use crate::semantic_tokens::CodeBlockParts;

/// The most ranges a chain holds: an LSP client receives a chain as nested
/// JSON objects, and JSON readers stop at some depth (serde_json at 128),
/// which lists nested as deep as the parser allows would pass.
pub const MAX_CHAIN: usize = 48;

/// For each offset, the ranges that contain it, innermost first, each
/// strictly larger than the one before, the last the whole file; at most
/// [`MAX_CHAIN`], the innermost and the outermost halves of a longer one. An
/// offset past the end is taken as the end.
pub fn selection_ranges(
    db: &dyn Db,
    file: SourceFile,
    offsets: &[TextSize],
) -> Vec<Vec<TextRange>> {
    let root = parse(db, file).syntax();
    offsets
        .iter()
        .map(|&offset| chain(&root, offset.min(root.text_range().end())))
        .collect()
}

fn chain(root: &SyntaxNode, offset: TextSize) -> Vec<TextRange> {
    let mut ranges: Vec<TextRange> = Vec::new();
    let mut push = |range: TextRange| {
        if ranges.last().is_none_or(|last| range.len() > last.len()) {
            ranges.push(range);
        }
    };
    let token = pick_token(root, offset);
    let start = match &token {
        Some(token) if !matches!(token.kind(), WHITESPACE | NEWLINE) => {
            if let Some(inner) = inner_range(token, offset) {
                push(inner);
            }
            push(token.text_range());
            token.parent()
        }
        Some(token) => token.parent(),
        None => Some(root.clone()),
    };
    // The chunks are a grouping of the tree, not of the language.
    let ancestors = start.iter().flat_map(|node| node.ancestors());
    for node in ancestors.filter(|node| node.kind() != ITEM_CHUNK) {
        push(node.text_range());
    }
    if ranges.len() > MAX_CHAIN {
        ranges.drain(MAX_CHAIN / 2..ranges.len() - MAX_CHAIN / 2);
    }
    ranges
}

/// The token at `offset`; between two, the more interesting one: a word
/// (name, keyword, literal) over punctuation, anything over whitespace,
/// else the one to the right.
fn pick_token(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    let rank = |kind: SyntaxKind| match kind {
        WHITESPACE | NEWLINE => 0,
        kind if kind.is_trivia() => 1,
        IDENT | STRING | INT | DOUBLE | CONSTANT | CODE_BLOCK => 3,
        kind if kind.is_keyword() => 3,
        _ => 2,
    };
    let mut candidates = root.token_at_offset(offset);
    let left = candidates.next()?;
    match candidates.next() {
        Some(right) if rank(right.kind()) >= rank(left.kind()) => Some(right),
        _ => Some(left),
    }
}

/// Inside a string, its text without the quotes; inside a code block's
/// body, the body.
fn inner_range(token: &SyntaxToken, offset: TextSize) -> Option<TextRange> {
    let range = token.text_range();
    let inner = match token.kind() {
        STRING => {
            let text = token.text();
            let closed = text.len() >= 2 && text.ends_with('"');
            let end = range.end() - TextSize::from(u32::from(closed));
            TextRange::new(
                range.start() + TextSize::from(1),
                end.max(range.start() + TextSize::from(1)),
            )
        }
        CODE_BLOCK => {
            let body = CodeBlockParts::of(token.text()).body;
            TextRange::new(
                range.start() + TextSize::from(body.start as u32),
                range.start() + TextSize::from(body.end as u32),
            )
        }
        _ => return None,
    };
    (!inner.is_empty() && inner.contains_inclusive(offset) && inner != range).then_some(inner)
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::*;
    use crate::fixture::fixture;

    fn check(text: &str, expect: Expect) {
        let f = fixture(text);
        let chains = selection_ranges(&f.db, f.file, &[f.offset]);
        assert_eq!(chains.len(), 1);
        let chain = &chains[0];
        for pair in chain.windows(2) {
            assert!(
                pair[1].contains_range(pair[0]) && pair[1] != pair[0],
                "{chain:?}"
            );
        }
        assert_eq!(chain.last(), Some(&TextRange::up_to(TextSize::of(&f.text))));
        let rendered: Vec<&str> = chain.iter().map(|r| &f.text[*r]).collect();
        expect.assert_debug_eq(&rendered);
    }

    const FLOW: &str = "step A runs P ();\nstep B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);\n";

    #[test]
    fn from_a_name_inside_nested_lists() {
        check(
            &FLOW.replace("[A.outs", "[A.ou$0ts"),
            expect![[r#"
                [
                    "outs",
                    "outs[\"o.txt\"]",
                    "A.outs[\"o.txt\"]",
                    "[A.outs[\"o.txt\"], 2]",
                    "[1, [A.outs[\"o.txt\"], 2]]",
                    "x = [1, [A.outs[\"o.txt\"], 2]]",
                    "x = [1, [A.outs[\"o.txt\"], 2]],",
                    "(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n)",
                    "step B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);",
                    "step A runs P ();\nstep B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);\n",
                ]
            "#]],
        );
    }

    #[test]
    fn from_inside_a_string() {
        check(
            &FLOW.replace("\"te", "\"t$0e"),
            expect![[r#"
                [
                    "text",
                    "\"text\"",
                    "y = \"text\"",
                    "exec: y = \"text\"",
                    "(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n)",
                    "step B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);",
                    "step A runs P ();\nstep B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);\n",
                ]
            "#]],
        );
    }

    #[test]
    fn at_the_edge_of_a_name_and_in_whitespace() {
        // Touching the end of a name: the name, not the comma.
        check(
            &FLOW.replace("[1, ", "[1$0, "),
            expect![[r#"
                [
                    "1",
                    "[1, [A.outs[\"o.txt\"], 2]]",
                    "x = [1, [A.outs[\"o.txt\"], 2]]",
                    "x = [1, [A.outs[\"o.txt\"], 2]],",
                    "(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n)",
                    "step B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);",
                    "step A runs P ();\nstep B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);\n",
                ]
            "#]],
        );
        check(
            &FLOW.replace("runs P ()", "runs P $0()"),
            expect![[r#"
                [
                    "(",
                    "()",
                    "step A runs P ();",
                    "step A runs P ();\nstep B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);\n",
                ]
            "#]],
        );
        check(
            &FLOW.replace("\n(\n", "\n$0(\n"),
            expect![[r#"
                [
                    "(",
                    "(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n)",
                    "step B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);",
                    "step A runs P ();\nstep B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);\n",
                ]
            "#]],
        );
        check(
            &FLOW.replace("A\n(\n  x", "A\n(\n $0 x"),
            expect![[r#"
                [
                    "(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n)",
                    "step B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);",
                    "step A runs P ();\nstep B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);\n",
                ]
            "#]],
        );
        // At the end of the file, after its last newline.
        check(
            &format!("{FLOW}$0"),
            expect![[r#"
            [
                "step A runs P ();\nstep B runs Pkg.M after A\n(\n  x = [1, [A.outs[\"o.txt\"], 2]],\n  exec: y = \"text\"\n);\n",
            ]
        "#]],
        );
    }

    #[test]
    fn code_blocks_and_empty_files() {
        check(
            "step A runs P () post code ruby\n  puts $01\ncode end\n",
            expect![[r#"
                [
                    "  puts 1",
                    "code ruby\n  puts 1\ncode end",
                    "post code ruby\n  puts 1\ncode end",
                    "step A runs P () post code ruby\n  puts 1\ncode end",
                    "step A runs P () post code ruby\n  puts 1\ncode end\n",
                ]
            "#]],
        );
        check(
            "",
            expect![[r#"
            [
                "",
            ]
        "#]],
        );
    }

    #[test]
    fn chains_through_the_deepest_lists_are_capped() {
        let depth = 127;
        let text = format!(
            "step Deep runs P (value = {}$01{});\n",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let f = fixture(&text);
        let chain = &selection_ranges(&f.db, f.file, &[f.offset])[0];
        assert_eq!(chain.len(), MAX_CHAIN);
        assert_eq!(&f.text[chain[0]], "1");
        assert_eq!(chain.last(), Some(&TextRange::up_to(TextSize::of(&f.text))));
        assert!(chain.windows(2).all(|pair| pair[1].contains_range(pair[0])));
    }

    #[test]
    fn one_chain_per_offset_and_offsets_past_the_end() {
        let f = fixture("require a;");
        let chains = selection_ranges(
            &f.db,
            f.file,
            &[TextSize::from(9), TextSize::from(100), TextSize::from(0)],
        );
        let rendered: Vec<Vec<&str>> = chains
            .iter()
            .map(|c| c.iter().map(|r| &f.text[*r]).collect())
            .collect();
        expect![[r#"
            [
                [
                    "a",
                    "require a;",
                ],
                [
                    ";",
                    "require a;",
                ],
                [
                    "require",
                    "require a;",
                ],
            ]
        "#]]
        .assert_debug_eq(&rendered);
    }
}
