//! Data-driven export cases: every `tests/data/export/X.flow` (and under
//! `export/topology/`, which find the `easyflow.topology` there) is exported
//! as `easyflow export X.flow --to diet|workload|model` would from the
//! repository root, giving `X.diet.xml`, `X.workload.json` and
//! `X.model.json`; a case named `refused-…` must be refused, and its stderr
//! is `X.refused.txt`. Every DIET output must pass DIET's reader rules
//! (`export_rules::check_diet`) and every model must agree with the graph
//! (`export_rules::check_model`).
//!
//! CWL needs a catalog that says how packages run: `--to cwl` is given
//! `export/X.packages.toml` when there is one, else the folder's
//! `export/runnable-packages.toml` (`--catalog`), giving `X.cwl`, or the
//! refusal's stderr in `X.cwl-refused.txt` (a case named `cwl-refused-…`
//! must be refused). Each `X.cwl` is checked by `export_rules::check_cwl`
//! (its scatters against the model's instances); `cargo xtask test`
//! validates them all with `cwltool` (`tests/run`).
//!
//! Regenerate with `UPDATE_EXPECT=1 cargo test -p easyflow-cli --test export`.

mod export_rules;

use std::path::{Path, PathBuf};

use easyflow_cli::export::{Outcome, export, write_refusal};
use easyflow_ide::export::{CWL, FORMATS, Format};
use easyflow_test_harness::{Case, Failed, Harness, Outputs};

fn exports(case: &Case) -> Result<Outputs, Failed> {
    let refused_by_name = case.name.starts_with("refused-");
    let mut outputs = Vec::new();
    // CWL needs a catalog that says how packages run: below.
    for format in FORMATS.iter().filter(|f| **f != CWL) {
        match export(&case.path, None, None, format)? {
            Outcome::Exported(exported) => {
                let text = exported.text;
                if refused_by_name {
                    return Err("the case is named `refused-…` but was exported".into());
                }
                // `X.diet.xml` for `X.flow`.
                outputs.push((&format.suffix[1..], text));
            }
            Outcome::Refused(file, refused) => {
                if !refused_by_name {
                    return Err(
                        format!("refused: {:?} {:?}", refused.errors, refused.reasons).into(),
                    );
                }
                let mut stderr = codespan_reporting::term::termcolor::NoColor::new(Vec::new());
                write_refusal(file, &refused, &mut stderr)?;
                return Ok(vec![(
                    "refused.txt",
                    String::from_utf8(stderr.into_inner())?,
                )]);
            }
        }
    }
    let output = |name: &str| {
        let suffix = &Format::named(name).expect("a format").suffix[1..];
        outputs
            .iter()
            .find(|(s, _)| *s == suffix)
            .map(|(_, text)| text)
    };
    export_rules::check_diet(output("diet").ok_or("no DIET export")?)?;
    let graph = export_rules::graph_json(&case.path)?;
    let model = output("model").ok_or("no model export")?.clone();
    export_rules::check_model(&model, &graph)?;

    let cwl_refused_by_name = case.name.starts_with("cwl-refused-");
    match export(&case.path, None, Some(&runnable_catalog(&case.path)), &CWL)? {
        Outcome::Exported(exported) => {
            if cwl_refused_by_name {
                return Err("the case is named `cwl-refused-…` but was exported".into());
            }
            export_rules::check_cwl(&exported.text, &model)?;
            outputs.push(("cwl", exported.text));
        }
        Outcome::Refused(file, refused) => {
            let mut stderr = codespan_reporting::term::termcolor::NoColor::new(Vec::new());
            write_refusal(file, &refused, &mut stderr)?;
            outputs.push(("cwl-refused.txt", String::from_utf8(stderr.into_inner())?));
        }
    }
    Ok(outputs)
}

/// The catalog a case's CWL export is given: `X.packages.toml` beside it,
/// else `export/runnable-packages.toml`.
fn runnable_catalog(case: &Path) -> PathBuf {
    let own = case.with_extension("packages.toml");
    if own.exists() {
        return own;
    }
    Path::new("tests/data/export/runnable-packages.toml").to_path_buf()
}

fn main() {
    // SAFETY: no other thread runs yet. The refusals' links then read the
    // same in every checkout (by default they hold its path).
    unsafe {
        std::env::set_var(
            easyflow_cli::explain::DOCS_URL_VARIABLE,
            "docs/diagnostics.md",
        )
    };
    Harness::new()
        .folder("export", "flow", exports)
        .folder("export/topology", "flow", exports)
        .test("export/generated-1k-steps", export_rules::generated_flows)
        .test(
            "export/property-generated-flows-agree-with-their-graph",
            export_rules::property_generated_flows_agree_with_their_graph,
        )
        .test(
            "export/property-generated-runnable-flows-scatter-as-the-model",
            export_rules::property_generated_runnable_flows_scatter_as_the_model,
        )
        .test(
            "export/documentation-listings",
            export_rules::documentation_listings,
        )
        .run();
}
