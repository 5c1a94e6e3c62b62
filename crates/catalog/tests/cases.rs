//! Data-driven catalog tests: every `tests/data/catalog/X.toml` has its
//! packages and E0810 diagnostics in `X.txt` beside it. Regenerate with
//! `UPDATE_EXPECT=1 cargo test -p easyflow-catalog --test cases`.
//!
//! Naming: `e0810-...` cases must report E0810; `e0810-ok-...` cases (near
//! misses) must not.

use std::fmt::Write;

use easyflow_catalog::{Catalog, parse_bytes};
use easyflow_test_harness::{Case, Failed, Harness, Outputs, span};

/// The expected-output text of one case.
fn render(catalog: &Catalog) -> String {
    let mut out = String::new();
    for package in &catalog.packages {
        writeln!(
            out,
            "package {:?} @{}",
            package.name,
            span(package.name_range)
        )
        .unwrap();
        if let Some(description) = &package.description {
            writeln!(out, "  description: {description:?}").unwrap();
        }
        if let Some(requires) = &package.requires {
            writeln!(out, "  requires: {:?}", requires.value).unwrap();
        }
        if let Some(memory) = &package.memory {
            writeln!(out, "  memory: {} ({:?})", memory.value, memory.text).unwrap();
        }
        for param in &package.params {
            write!(out, "  param {} @{}", param.label(), span(param.name_range)).unwrap();
            if param.required {
                out.push_str(" required");
            }
            if let Some(default) = &param.default {
                write!(out, " default={default}").unwrap();
            }
            if let Some(position) = param.position {
                write!(out, " position={position}").unwrap();
            }
            if let Some(prefix) = &param.prefix {
                write!(out, " prefix={prefix:?}").unwrap();
            }
            if !param.checked {
                out.push_str(" UNCHECKED");
            }
            out.push('\n');
        }
        for output in &package.outputs {
            write!(
                out,
                "  output {:?} @{}",
                output.name,
                span(output.name_range)
            )
            .unwrap();
            if let Some(glob) = &output.glob {
                write!(out, " glob={glob:?}").unwrap();
            }
            out.push('\n');
        }
        if let Some(run) = &package.run {
            write!(out, "  run command={:?}", run.command).unwrap();
            if let Some(container) = &run.container {
                write!(out, " container={container:?}").unwrap();
            }
            if let Some(cores) = run.cores {
                write!(out, " cores={cores}").unwrap();
            }
            out.push('\n');
        }
    }
    easyflow_test_harness::render_diagnostics(&mut out, &catalog.diagnostics);
    out
}

fn catalog_case(case: &Case) -> Result<Outputs, Failed> {
    // Read again as bytes: a case may be a file that is not UTF-8.
    let bytes = std::fs::read(&case.path)?;
    let catalog = parse_bytes(&bytes);
    let codes: Vec<&str> = catalog
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    case.check_named_code(&codes)?;
    Ok(vec![("txt", render(&catalog))])
}

fn main() {
    Harness::new().folder("catalog", "toml", catalog_case).run();
}
