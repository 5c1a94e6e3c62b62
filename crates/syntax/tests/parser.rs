//! Data-driven parser tests: every `X.flow` under `tests/data/parser/{ok,err,corpus}`
//! has its expected tree and diagnostics in `X.rast` beside it. Cases under
//! `ok/` must parse without diagnostics, cases under `err/` with some.
//! Regenerate with `UPDATE_EXPECT=1 cargo test -p easyflow-syntax --test parser`.

use easyflow_syntax::{debug_tree, json_escape_into, parse};
use easyflow_test_harness::{Case, Failed, Harness, Outputs};

/// The expected-output text of one case: the tree, then the diagnostics.
fn render(case: &Case, expect_errors: Option<bool>) -> Result<Outputs, Failed> {
    let parse = parse(&case.text);
    if parse.syntax().to_string() != case.text {
        return Err("the tree is not lossless".into());
    }
    if let Some(expected) = expect_errors
        && parse.errors().is_empty() == expected
    {
        let rule = if expected {
            "must have"
        } else {
            "must not have"
        };
        return Err(format!("cases of this folder {rule} diagnostics").into());
    }
    let mut out = debug_tree(&parse.syntax());
    if !parse.errors().is_empty() {
        out.push_str("--- diagnostics ---\n");
        for error in parse.errors() {
            let (start, end) = (u32::from(error.range.start()), u32::from(error.range.end()));
            out.push_str(&format!("{}@{start}..{end} ", error.code));
            json_escape_into(&error.message, &mut out);
            out.push('\n');
        }
    }
    Ok(vec![("rast", out)])
}

fn main() {
    Harness::new()
        .folder("parser/ok", "flow", |case| render(case, Some(false)))
        .folder("parser/err", "flow", |case| render(case, Some(true)))
        .folder("parser/corpus", "flow", |case| render(case, None))
        .run();
}
