//! Data-driven export cases: every `tests/data/export/X.flow` (and under
//! `export/topology/`, which find the `easyflow.topology` there) is exported
//! as `easyflow export X.flow --to diet|workload|model` would from the
//! repository root, giving `X.diet.xml`, `X.workload.json` and
//! `X.model.json`; a case named `refused-…` must be refused, and its stderr
//! is `X.refused.txt`. Every DIET output must pass DIET's reader rules
//! (`export_rules::check_diet`) and every model must agree with the graph
//! (`export_rules::check_model`). Regenerate with
//! `UPDATE_EXPECT=1 cargo test -p easyflow-cli --test export`.

mod export_rules;

use easyflow_cli::export::{Outcome, export, write_refusal};
use easyflow_ide::export::{FORMATS, Format};
use easyflow_test_harness::{Case, Failed, Harness, Outputs};

fn exports(case: &Case) -> Result<Outputs, Failed> {
    let refused_by_name = case.name.starts_with("refused-");
    let mut outputs = Vec::new();
    for format in FORMATS {
        match export(&case.path, None, None, format)? {
            Outcome::Exported(text) => {
                if refused_by_name {
                    return Err("the case is named `refused-…` but was exported".into());
                }
                // `X.diet.xml` for `X.flow`.
                outputs.push((&format.suffix[1..], text));
            }
            Outcome::Refused(file, refused) => {
                if !refused_by_name {
                    return Err(
                        format!("refused: {:?} {:?}", refused.errors, refused.collisions).into(),
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
    export_rules::check_model(output("model").ok_or("no model export")?, &graph)?;
    Ok(outputs)
}

fn main() {
    Harness::new()
        .folder("export", "flow", exports)
        .folder("export/topology", "flow", exports)
        .test("export/generated-1k-steps", export_rules::generated_flows)
        .test(
            "export/property-generated-flows-agree-with-their-graph",
            export_rules::property_generated_flows_agree_with_their_graph,
        )
        .test(
            "export/documentation-listings",
            export_rules::documentation_listings,
        )
        .run();
}
