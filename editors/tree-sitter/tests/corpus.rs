//! tree-sitter's corpus tests (`test/corpus/*.txt`), run through the
//! `tree-sitter` crate so that CI needs no CLI: each case's input must parse
//! to its expected tree (with field names), or, with the `:error` attribute,
//! to a tree with an error. The format is the CLI's own, so `tree-sitter
//! test` runs the same files; cases of the topology grammar say
//! `:language(easyflow_topology)`.
//!
//! `UPDATE_EXPECT=1 cargo test -p tree-sitter-easyflow --test corpus`
//! rewrites the expected trees (review the diff).

use std::path::PathBuf;

use tree_sitter_language::LanguageFn;

/// One case of a corpus file.
struct Case {
    name: String,
    /// The grammar's name (`:language(…)`; the flow grammar by default).
    language: String,
    error_expected: bool,
    input: String,
    /// The expected tree as written, and the line range it occupies.
    expected: String,
    expected_lines: std::ops::Range<usize>,
}

fn is_delimiter(line: &str, mark: char) -> bool {
    let line = line.trim_end();
    line.len() >= 3 && line.chars().all(|c| c == mark)
}

/// The cases of one corpus file: a header (a `===` line, the name, its
/// attributes such as `:error`, a `===` line), the input, a `---` line and
/// the expected tree.
fn parse_cases(text: &str) -> Vec<Case> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // Headers: (first line, first line of the body, name, attributes).
    let mut headers = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if is_delimiter(lines[i], '=') {
            let close = (i + 2..lines.len()).find(|&j| is_delimiter(lines[j], '='));
            if let Some(close) = close {
                let name = lines[i + 1].trim().to_string();
                let attributes: Vec<&str> = lines[i + 2..close].iter().map(|l| l.trim()).collect();
                headers.push((i, close + 1, name, attributes));
                i = close + 1;
                continue;
            }
        }
        i += 1;
    }
    let mut cases = Vec::new();
    for (n, (_, body_start, name, attributes)) in headers.iter().enumerate() {
        let body_end = headers.get(n + 1).map_or(lines.len(), |next| next.0);
        let divider = (*body_start..body_end)
            .rev()
            .find(|&j| is_delimiter(lines[j], '-'))
            .unwrap_or_else(|| panic!("case {name:?} has no `---` line"));
        let mut input: String = lines[*body_start..divider].concat();
        // The line before the divider ends the input, not its text.
        if input.ends_with('\n') {
            input.pop();
        }
        if input.ends_with('\r') {
            input.pop();
        }
        cases.push(Case {
            name: name.clone(),
            language: attributes
                .iter()
                .find_map(|a| a.strip_prefix(":language(")?.strip_suffix(')'))
                .unwrap_or("easyflow")
                .to_string(),
            error_expected: attributes.contains(&":error"),
            input,
            expected: lines[divider + 1..body_end].concat(),
            expected_lines: divider + 1..body_end,
        });
    }
    cases
}

/// An S-expression with its whitespace normalised.
fn normalize(sexp: &str) -> String {
    let mut out = String::new();
    for word in sexp.split_whitespace() {
        if !out.is_empty() && !out.ends_with('(') && !word.starts_with(')') {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Drops the field names (`name: `) of a normalised S-expression.
fn strip_fields(sexp: &str) -> String {
    sexp.split(' ')
        .filter(|word| !word.ends_with(':'))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A normalised S-expression laid out as the CLI writes it: one node a
/// line, indented by depth, with its field name before it.
fn pretty(sexp: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for word in sexp.split(' ') {
        if word.starts_with('(') || word.ends_with(':') {
            // Nodes begin a line, except the root and after a field name.
            if !out.is_empty() && !out.ends_with(": ") {
                out.push('\n');
                out.push_str(&"  ".repeat(depth));
            }
            out.push_str(word);
            if word.ends_with(':') {
                out.push(' ');
            }
        } else {
            out.push(' ');
            out.push_str(word);
        }
        depth += word.matches('(').count();
        depth -= word.matches(')').count();
    }
    out
}

fn language(name: &str) -> LanguageFn {
    match name {
        "easyflow" => tree_sitter_easyflow::LANGUAGE,
        "easyflow_topology" => tree_sitter_easyflow::TOPOLOGY_LANGUAGE,
        _ => panic!("no grammar named {name}"),
    }
}

#[test]
fn corpus() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test/corpus");
    let mut parser = tree_sitter::Parser::new();
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let mut count = 0;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a readable corpus file");
        let cases = parse_cases(&text);
        let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
        // Replaced from the end, so that earlier line numbers stay right.
        for case in cases.iter().rev() {
            count += 1;
            parser
                .set_language(&language(&case.language).into())
                .expect("the grammar's ABI is supported");
            let tree = parser.parse(&case.input, None).expect("no timeout is set");
            let root = tree.root_node();
            if case.error_expected {
                if !root.has_error() {
                    failures.push(format!("{}: {}: no error", path.display(), case.name));
                }
                continue;
            }
            let actual = normalize(&root.to_sexp());
            let expected = normalize(&case.expected);
            let has_fields = expected.split(' ').any(|word| word.ends_with(':'));
            let comparable = if has_fields {
                actual.clone()
            } else {
                strip_fields(&actual)
            };
            if update && actual != expected {
                let mut replacement = vec![format!("\n{}\n", pretty(&actual))];
                if case.expected_lines.end < lines.len() {
                    replacement[0].push('\n');
                }
                lines.splice(case.expected_lines.clone(), replacement);
            } else if comparable != expected {
                failures.push(format!(
                    "{}: {}:\n  expected {expected}\n  actual   {comparable}",
                    path.display(),
                    case.name
                ));
            }
        }
        if update {
            std::fs::write(&path, lines.concat()).expect("a writable corpus file");
        }
    }
    assert!(count > 0, "no corpus cases in {}", dir.display());
    assert!(
        failures.is_empty(),
        "{} of {count} corpus cases failed (UPDATE_EXPECT=1 to rewrite the trees):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_format() {
    let text = "==========\nFirst\n:error\n:language(easyflow_topology)\n==========\n\na b\n\n---\n\n(x)\n\n===\nSecond\n===\n\nc\n---\n(y\n  f: (z))\n";
    let cases = parse_cases(text);
    assert_eq!(cases.len(), 2);
    assert!(cases[0].error_expected && !cases[1].error_expected);
    assert_eq!(cases[0].language, "easyflow_topology");
    assert_eq!(cases[1].language, "easyflow");
    assert_eq!(cases[0].input, "\na b\n");
    assert_eq!(cases[1].input, "\nc");
    assert_eq!(normalize(&cases[1].expected), "(y f: (z))");
    assert_eq!(strip_fields("(y f: (z))"), "(y (z))");
    assert_eq!(pretty("(y f: (z) (w))"), "(y\n  f: (z)\n  (w))");
}
