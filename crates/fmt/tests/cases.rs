//! Data-driven format cases: every `tests/data/fmt/X.flow` has its expected
//! formatted text in `X.formatted` (for a text with syntax errors: the
//! refusal and the errors), and every property of `formatting.md` holds on
//! it. A carriage return is written `␍` in `X.formatted` (the harness reads
//! expected files with either line ending as the same). Regenerate with `UPDATE_EXPECT=1 cargo test -p easyflow-fmt --test cases`.

use easyflow_fmt::{FormatError, Options};
use easyflow_fuzz::format_properties::check_properties;
use easyflow_test_harness::{Case, Failed, Harness, Outputs};

fn formatted(case: &Case) -> Result<Outputs, Failed> {
    let result = check_properties(&case.text, &Options::default())?;
    let out = match result {
        Ok(out) => out,
        Err(FormatError::Syntax(errors)) => {
            let mut out = String::from("--- not formatted: syntax errors ---\n");
            for error in errors {
                out.push_str(&format!(
                    "{} {:?} {}\n",
                    error.code, error.range, error.message
                ));
            }
            out
        }
        Err(e) => return Err(e.to_string().into()),
    };
    Ok(vec![("formatted", out.replace('\r', "␍"))])
}

fn main() {
    Harness::new().folder("fmt", "flow", formatted).run();
}
