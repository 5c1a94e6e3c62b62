//! tree-sitter's highlight tests (`test/highlight/*`), run through the
//! `tree-sitter-highlight` crate so that CI needs no CLI. A comment with
//! `^` (at its own column, `^^^` for several) or `<-` (at the comment's
//! column) asserts the innermost highlight of the nearest line above that is
//! no assertion; `!name` asserts that it is not `name`. As in the CLI,
//! every capture name is a highlight of its own, so `keyword.import` is
//! checked as such, not as `keyword`.

use std::path::PathBuf;

use tree_sitter_highlight::{HighlightConfiguration, HighlightEvent, Highlighter};

/// A position in a text: a line and a byte column.
type Point = (usize, usize);

struct Assertion {
    position: Point,
    length: usize,
    negative: bool,
    name: String,
}

fn configuration(extension: &str) -> HighlightConfiguration {
    let (language, name, highlights, injections, locals) = match extension {
        "flow" => (
            tree_sitter_easyflow::LANGUAGE,
            "easyflow",
            tree_sitter_easyflow::HIGHLIGHTS_QUERY,
            tree_sitter_easyflow::INJECTIONS_QUERY,
            tree_sitter_easyflow::LOCALS_QUERY,
        ),
        "topology" => (
            tree_sitter_easyflow::TOPOLOGY_LANGUAGE,
            "easyflow_topology",
            tree_sitter_easyflow::TOPOLOGY_HIGHLIGHTS_QUERY,
            "",
            "",
        ),
        _ => panic!("no grammar for .{extension}"),
    };
    let mut configuration =
        HighlightConfiguration::new(language.into(), name, highlights, injections, locals)
            .unwrap_or_else(|e| panic!("{name}'s queries: {e}"));
    let names: Vec<String> = configuration
        .names()
        .iter()
        .map(|name| name.to_string())
        .collect();
    configuration.configure(&names);
    configuration
}

/// The assertions of `source`, found in the comments of its tree.
fn assertions(source: &str, language: &tree_sitter::Language) -> Vec<Assertion> {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(language)
        .expect("the grammar's ABI is supported");
    let tree = parser.parse(source, None).expect("no timeout is set");
    let mut comments = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.kind() == "comment" {
            comments.push(node);
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
    comments.sort_by_key(|node| node.start_byte());

    let assertion_rows: Vec<usize> = comments
        .iter()
        .filter(|node| is_assertion(&source[node.byte_range()]))
        .map(|node| node.start_position().row)
        .collect();
    let lines: Vec<&str> = source.split('\n').collect();
    let mut found = Vec::new();
    for comment in comments {
        let text = &source[comment.byte_range()];
        if !is_assertion(text) {
            continue;
        }
        let start = comment.start_position();
        let (column, length, rest) = match text.find('^') {
            Some(caret) => {
                let carets = text[caret..].chars().take_while(|&c| c == '^').count();
                (start.column + caret, carets, &text[caret + carets..])
            }
            None => {
                let arrow = text.find("<-").expect("an arrow");
                (start.column, 1, &text[arrow + 2..])
            }
        };
        let rest = rest.trim_start();
        let (negative, rest) = match rest.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, rest),
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || "._-".contains(*c))
            .collect();
        // The nearest line above that is no assertion and reaches the column.
        let mut row = start.row;
        while assertion_rows.contains(&row) || lines[row].len() <= column {
            row = row
                .checked_sub(1)
                .unwrap_or_else(|| panic!("no line for the assertion {text:?}"));
        }
        found.push(Assertion {
            position: (row, column),
            length,
            negative,
            name,
        });
    }
    found
}

fn is_assertion(comment: &str) -> bool {
    comment.starts_with("//") && (comment.contains('^') || comment.contains("<-"))
}

/// The spans of `source` with their innermost highlight name.
fn highlights(source: &str, configuration: &HighlightConfiguration) -> Vec<(Point, Point, String)> {
    let point = |byte: usize| {
        let before = &source[..byte];
        let row = before.matches('\n').count();
        let column = byte - before.rfind('\n').map_or(0, |i| i + 1);
        (row, column)
    };
    let mut highlighter = Highlighter::new();
    let events = highlighter
        .highlight(configuration, source.as_bytes(), None, None, |_| None)
        .expect("highlighting starts");
    let mut stack = Vec::new();
    let mut spans = Vec::new();
    for event in events {
        match event.expect("highlighting goes on") {
            HighlightEvent::HighlightStart(highlight) => stack.push(highlight.0),
            HighlightEvent::HighlightEnd => {
                stack.pop();
            }
            HighlightEvent::Source { start, end } => {
                if let Some(&highlight) = stack.last() {
                    let name = configuration.names()[highlight].to_string();
                    spans.push((point(start), point(end), name));
                }
            }
        }
    }
    spans
}

#[test]
fn highlight_tests() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test/highlight");
    let mut failures = Vec::new();
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("test/highlight") {
        let path = entry.expect("a directory entry").path();
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .expect("an extension");
        let source = std::fs::read_to_string(&path).expect("a readable test");
        let configuration = configuration(extension);
        let spans = highlights(&source, &configuration);
        for assertion in assertions(&source, &configuration.language) {
            count += 1;
            let (row, column) = assertion.position;
            let last = column + assertion.length - 1;
            let names: Vec<&str> = spans
                .iter()
                .filter(|(start, end, _)| {
                    *start <= (row, last) && (row, column) < *end && start.0 <= row
                })
                .map(|(_, _, name)| name.as_str())
                .collect();
            let found = names.contains(&assertion.name.as_str());
            if found == assertion.negative {
                failures.push(format!(
                    "{}:{}:{}: expected {}{}, found {names:?}",
                    path.display(),
                    row + 1,
                    column + 1,
                    if assertion.negative { "!" } else { "" },
                    assertion.name
                ));
            }
        }
    }
    assert!(count > 50, "only {count} highlight assertions found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
