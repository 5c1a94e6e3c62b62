//! `easyflow parse FILE`: the lossless syntax tree on stdout, the syntax
//! diagnostics on stderr.

use std::io::Write;
use std::path::Path;

use easyflow_project::FileKind;

use crate::{exit, input, report};

pub fn run(path: &Path) -> u8 {
    let text = match input::read_one(path, FileKind::Flow) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::FAILURE;
        }
    };
    let parse = easyflow_syntax::parse(&text);
    let tree = easyflow_syntax::debug_tree(&parse.syntax());
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(tree.as_bytes())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        return exit::FAILURE;
    }
    let lines = report::TextLines::new(text);
    for error in parse.errors() {
        let start = lines.position(error.range.start());
        eprintln!(
            "{}:{}:{}: {} {}",
            path.display(),
            start.line + 1,
            start.character + 1,
            error.code,
            error.message
        );
    }
    if parse.errors().is_empty() {
        exit::OK
    } else {
        exit::PROBLEMS
    }
}
