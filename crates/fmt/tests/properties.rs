//! The properties of `formatting.md` on every flow of the test data (parser,
//! analysis, fit and format cases): idempotent, meaning-preserving (tokens,
//! comments and their places, diagnostics), safe (texts with syntax errors
//! are refused), stable (the same tokens spread over lines format the same),
//! and within the width; also at other widths and indents, and on generated
//! flows.

use easyflow_fmt::Options;
use easyflow_fuzz::format_properties::check_properties;
use easyflow_test_harness::{Case, Failed, Harness, Outputs};

const OPTIONS: [Options; 3] = [
    Options {
        width: 100,
        indent: 2,
    },
    Options {
        width: 40,
        indent: 4,
    },
    Options {
        width: 1,
        indent: 1,
    },
];

fn properties(case: &Case) -> Result<Outputs, Failed> {
    for options in &OPTIONS {
        check_properties(&case.text, options)
            .map(drop)
            .map_err(|e| format!("width {}, indent {}: {e}", options.width, options.indent))?;
    }
    Ok(Vec::new())
}

fn generated() -> Result<(), Failed> {
    for seed in 0..6 {
        let text = easyflow_genflow::generate(120, seed);
        for options in &OPTIONS {
            check_properties(&text, options)
                .map(drop)
                .map_err(|e| format!("seed {seed}, width {}: {e}", options.width))?;
        }
    }
    Ok(())
}

fn main() {
    Harness::new()
        .folder("parser/ok", "flow", properties)
        .folder("parser/err", "flow", properties)
        .folder("parser/corpus", "flow", properties)
        .folder("analysis", "flow", properties)
        .folder("fit", "flow", properties)
        .test("generated flows", generated)
        .run();
}
