//! What the IDE features share about the package catalog: values to fill
//! in for a parameter, and how a package and a parameter read in Markdown.

use easyflow_catalog::check::check_value;
use easyflow_catalog::{Number, Package, Param, ParamType};
use easyflow_syntax::value::Value;

/// A value to fill in for `param` that its checks accept (no E0804 nor
/// E0805): its default when the catalog gives one that a flow can hold and
/// that is allowed, else the first allowed of a few values of its type (0
/// or the nearest bound, `false`, `[]`, `""`, an Enum's first value). A
/// File takes one of `files`, the flow's required files: the one named like
/// the parameter, else the first; `None` when there is none (the caller
/// then requires one).
pub fn placeholder(param: &Param, files: &[String]) -> Option<String> {
    placeholder_value(param, files).map(|(text, _)| text)
}

/// [`placeholder`], with the value the flow reads from it (what the checks
/// see).
pub fn placeholder_value(param: &Param, files: &[String]) -> Option<(String, Value)> {
    let mut candidates: Vec<String> = Vec::new();
    // A catalog's default, when a flow can hold it as written.
    if let Some(default) = &param.default
        && Value::parse(default).is_literal()
    {
        candidates.push(default.clone());
    }
    match param.ty {
        Some(ParamType::Int) => {
            // The bounds rounded inwards: an Int's bound may be written 0.5.
            let rounded = |n: Number, round: fn(f64) -> f64| match n {
                Number::Int(i) => i,
                Number::Double(d) => round(d) as i64,
            };
            let min = param.min.map(|m| rounded(m, f64::ceil));
            let max = param.max.map(|m| rounded(m, f64::floor));
            candidates.extend(
                [Some(0), min, max]
                    .into_iter()
                    .flatten()
                    .map(|n| n.to_string()),
            );
        }
        Some(ParamType::Double) => {
            candidates.push("0.0".into());
            candidates.extend(
                [param.min, param.max]
                    .into_iter()
                    .flatten()
                    .map(|n| n.to_string()),
            );
        }
        Some(ParamType::Bool) => candidates.push("false".into()),
        Some(ParamType::List) => candidates.push("[]".into()),
        Some(ParamType::Enum) => candidates.extend(param.values.iter().map(|v| format!("{v:?}"))),
        Some(ParamType::File) => {
            let file = files.iter().find(|f| **f == param.name).or(files.first())?;
            candidates.push(file.clone());
        }
        Some(ParamType::String) | None => candidates.push("\"\"".into()),
    }
    let valued: Vec<(String, Value)> = candidates
        .into_iter()
        .map(|text| {
            let value = Value::parse(&text);
            (text, value)
        })
        .collect();
    let first = valued.first().cloned();
    valued
        .into_iter()
        .find(|(_, value)| check_value(param, value).is_none())
        .or(first)
}

/// A parameter in Markdown: `name: Type (range)`, required, default and
/// description.
pub fn param_markdown(param: &Param) -> String {
    let mut out = format!("```text\n{}\n```\n", param.label());
    let mut facts = Vec::new();
    if param.is_required() {
        facts.push("required".to_string());
    }
    if let Some(default) = &param.default {
        facts.push(format!("default `{default}`"));
    }
    if let Some(place) = command_line_place(param) {
        facts.push(place);
    }
    if !param.checked {
        facts.push("not checked: the catalog has an error in it".to_string());
    }
    if !facts.is_empty() {
        out.push_str(&format!("\n{}\n", facts.join(" · ")));
    }
    if let Some(description) = &param.description {
        out.push_str(&format!("\n{description}\n"));
    }
    out
}

/// Where a parameter goes on its package's command line (`run.md` §2),
/// when the catalog says (`position`, `prefix`).
fn command_line_place(param: &Param) -> Option<String> {
    Some(match (param.position, &param.prefix) {
        (Some(position), Some(prefix)) => format!("argument {position}, after `{prefix}`"),
        (Some(position), None) => format!("argument {position}"),
        (None, Some(prefix)) => format!("on the command line as `{prefix}`"),
        (None, None) => return None,
    })
}

/// A package in Markdown: its description, parameters (required first),
/// outputs, default requirements and how it runs.
pub fn package_markdown(package: &Package) -> String {
    let mut out = format!("**package** `{}`\n", package.name);
    if let Some(description) = &package.description {
        out.push_str(&format!("\n{description}\n"));
    }
    if !package.params.is_empty() {
        out.push_str("\n| parameter | type | range | default | |\n|---|---|---|---|---|\n");
        for param in package.params_required_first() {
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} |\n",
                param.name,
                param.type_name(),
                param.range_text().unwrap_or_default().replace('|', "\\|"),
                param
                    .default
                    .as_deref()
                    .map(|d| format!("`{d}`"))
                    .unwrap_or_default(),
                if param.is_required() { "required" } else { "" },
            ));
        }
    }
    if !package.outputs.is_empty() {
        let outputs: Vec<String> = package
            .outputs
            .iter()
            .map(|o| match &o.glob {
                Some(glob) => format!("`{}` (file `{glob}`)", o.name),
                None => format!("`{}`", o.name),
            })
            .collect();
        out.push_str(&format!("\noutputs: {}\n", outputs.join(", ")));
    }
    let mut defaults = Vec::new();
    if let Some(requires) = &package.requires {
        defaults.push(format!("requires `{}`", requires.text));
    }
    if let Some(memory) = &package.memory {
        defaults.push(format!("memory `{}`", memory.text));
    }
    if !defaults.is_empty() {
        out.push_str(&format!("\ndefaults: {}\n", defaults.join(", ")));
    }
    if let Some(run) = &package.run {
        let command: Vec<String> = run.command.iter().map(|a| format!("{a:?}")).collect();
        out.push_str(&format!("\nruns `[{}]`", command.join(", ")));
        if let Some(cores) = run.cores {
            out.push_str(&format!(
                ", {cores} core{}",
                if cores == 1 { "" } else { "s" }
            ));
        }
        if let Some(container) = &run.container {
            out.push_str(&format!(", container `{container}`"));
        }
        out.push('\n');
    }
    out
}

/// The features that read the catalog: quick fixes from its diagnostics'
/// fixes (each applied, and the code re-checked gone), and hover.
#[cfg(test)]
mod tests {
    use easyflow_db::{Code, file_diagnostics};
    use easyflow_diagnostics::TextRange;

    use crate::code_actions::code_actions;
    use crate::fixture::{CATALOG, apply, with_catalog};
    use crate::hover::hover;

    fn codes(text: &str, catalog: &str) -> Vec<Code> {
        let f = with_catalog(text, catalog);
        file_diagnostics(&f.db, f.file)
            .iter()
            .map(|d| d.code)
            .collect()
    }

    /// Applies the one quick fix for `code` at `$0` and checks the result,
    /// and that `code` is gone from it.
    fn check_fix(before: &str, code: Code, title: &str, after: &str) {
        let f = with_catalog(before, CATALOG);
        let range = f.range.unwrap_or(TextRange::empty(f.offset));
        let actions: Vec<_> = code_actions(&f.db, f.file, range)
            .into_iter()
            .filter(|a| a.diagnostic.as_ref().map(|d| d.code) == Some(code))
            .collect();
        let Some(action) = actions.iter().find(|a| a.title == title) else {
            let titles: Vec<&str> = actions.iter().map(|a| a.title.as_str()).collect();
            panic!("no action {title:?} for {code:?}; got {titles:?}");
        };
        let fixed = apply(&f.text, &action.edits);
        assert_eq!(fixed, after);
        assert_fixed(&f.text, &fixed, code, CATALOG);
    }

    /// `code` is gone from `fixed`, and `fixed` has no diagnostic that
    /// `before` did not have.
    fn assert_fixed(before: &str, fixed: &str, code: Code, catalog: &str) {
        let (mut left, after) = (codes(before, catalog), codes(fixed, catalog));
        assert!(!after.contains(&code), "{code:?} left in {fixed:?}");
        for new in &after {
            let Some(i) = left.iter().position(|c| c == new) else {
                panic!("the fix brought {new:?}: {fixed:?} (before: {before:?})");
            };
            left.remove(i);
        }
    }

    #[test]
    fn unknown_package_and_parameter_are_replaced() {
        check_fix(
            "require m;\nstep A runs ORCA.D$0TF (input = m, charge = 0);\n",
            Code::E0801,
            "Replace with `ORCA.DFT`",
            "require m;\nstep A runs ORCA.DFT (input = m, charge = 0);\n",
        );
        check_fix(
            "require m;\nstep A runs ORCA.DFT (input = m, charge = 0, met$0od = \"PBE0\");\n",
            Code::E0802,
            "Replace with `method`",
            "require m;\nstep A runs ORCA.DFT (input = m, charge = 0, method = \"PBE0\");\n",
        );
    }

    #[test]
    fn enum_value_and_output_are_replaced() {
        check_fix(
            "require m;\nstep A runs ORCA.DFT (input = m, charge = 0, method = @PB$0E1);\n",
            Code::E0805,
            "Replace with `\"PBE0\"`",
            "require m;\nstep A runs ORCA.DFT (input = m, charge = 0, method = \"PBE0\");\n",
        );
        check_fix(
            "require m;\nstep A runs ORCA.DFT (input = m, charge = 0);\nstep B runs Vis.Mesh (data = A.outs[\"geometry.x$0zy\"]);\n",
            Code::W0806,
            "Replace with `\"geometry.xyz\"`",
            "require m;\nstep A runs ORCA.DFT (input = m, charge = 0);\nstep B runs Vis.Mesh (data = A.outs[\"geometry.xyz\"]);\n",
        );
    }

    #[test]
    fn missing_required_parameters_are_added() {
        let title = "Add the missing required parameters: `input`, `charge`";
        // No required file: one is required for the File parameter.
        check_fix(
            "step $0A runs ORCA.DFT (method = \"PBE0\");\n",
            Code::E0803,
            title,
            "require input;\n\nstep A runs ORCA.DFT (method = \"PBE0\", input = input, charge = 0);\n",
        );
        check_fix(
            "// Optimise.\nstep $0A runs ORCA.DFT ();\n",
            Code::E0803,
            title,
            "// Optimise.\nrequire input;\nstep A runs ORCA.DFT (input = input, charge = 0);\n",
        );
        // A required file: the one named like the parameter, else the first.
        check_fix(
            "require mol, input;\nstep $0A runs ORCA.DFT (exec: nodes = 2);\n",
            Code::E0803,
            title,
            "require mol, input;\nstep A runs ORCA.DFT (input = input, charge = 0, exec: nodes = 2);\n",
        );
        check_fix(
            "require mol;\nstep $0A runs ORCA.DFT;\n",
            Code::E0803,
            title,
            "require mol;\nstep A runs ORCA.DFT (input = mol, charge = 0);\n",
        );
        // The parameter's name is a step's: the file is named apart.
        check_fix(
            "step input runs Vis.Mesh (data = input);\nstep $0A runs ORCA.DFT ();\n",
            Code::E0803,
            title,
            "require input_file;\n\nstep input runs Vis.Mesh (data = input);\nstep A runs ORCA.DFT (input = input_file, charge = 0);\n",
        );
    }

    /// A package with one required parameter for each case of each type,
    /// whose E0803 fix must leave no error: every parameter gets a value of
    /// its type, inside its range.
    const EVERY_TYPE: &str = r#"
[[package]]
name = "All.Types"
  [[package.param]]
  name = "file"
  type = "File"
  required = true
  [[package.param]]
  name = "other_file"
  type = "File"
  required = true
  [[package.param]]
  name = "text"
  type = "String"
  required = true
  [[package.param]]
  name = "count"
  type = "Int"
  required = true
  [[package.param]]
  name = "positive"
  type = "Int"
  min = 1
  required = true
  [[package.param]]
  name = "negative"
  type = "Int"
  max = -3
  required = true
  [[package.param]]
  name = "halves"
  type = "Int"
  min = 0.5
  max = 7.5
  required = true
  [[package.param]]
  name = "ratio"
  type = "Double"
  required = true
  [[package.param]]
  name = "above_one"
  type = "Double"
  min = 1.5
  required = true
  [[package.param]]
  name = "below_zero"
  type = "Double"
  max = -0.25
  required = true
  [[package.param]]
  name = "flag"
  type = "Bool"
  required = true
  [[package.param]]
  name = "items"
  type = "List"
  required = true
  [[package.param]]
  name = "mode"
  type = "Enum"
  values = ["fast", "exact"]
  required = true
  [[package.param]]
  name = "mode_with_default"
  type = "Enum"
  values = ["fast", "exact"]
  default = "exact"
  required = true
  [[package.param]]
  name = "string_default"
  type = "String"
  default = "x y"
  required = true
  [[package.param]]
  name = "file_with_a_string_default"
  type = "File"
  default = "in.xyz"
  required = true
"#;

    #[test]
    fn the_missing_parameters_fix_leaves_no_error_for_any_type() {
        let title = "Add the missing required parameters: ";
        let catalog = easyflow_catalog::parse(EVERY_TYPE);
        assert_eq!(catalog.diagnostics, []);
        let package = catalog.package("All.Types").unwrap();
        for ty in easyflow_catalog::ParamType::ALL {
            assert!(
                package.params.iter().any(|p| p.ty == Some(ty)),
                "no {ty} parameter"
            );
        }
        for (before, after) in [
            (
                "step $0A runs All.Types ();\n",
                "require file, other_file, file_with_a_string_default;\n\nstep A runs All.Types (file = file, \
                 other_file = other_file, text = \"\", count = 0, positive = 1, negative = -3, halves = 1, \
                 ratio = 0.0, above_one = 1.5, below_zero = -0.25, flag = false, \
                 items = [], mode = \"fast\", mode_with_default = \"exact\", string_default = \"x y\", \
                 file_with_a_string_default = file_with_a_string_default);\n",
            ),
            (
                "require data;\nstep $0A runs All.Types (count = 3, exec: nodes = 1);\n",
                "require data;\nstep A runs All.Types (count = 3, file = data, other_file = data, text = \"\", \
                 positive = 1, negative = -3, halves = 1, ratio = 0.0, above_one = 1.5, \
                 below_zero = -0.25, flag = false, items = [], mode = \"fast\", mode_with_default = \"exact\", \
                 string_default = \"x y\", file_with_a_string_default = data, exec: nodes = 1);\n",
            ),
        ] {
            let f = with_catalog(before, EVERY_TYPE);
            assert!(
                file_diagnostics(&f.db, f.file)
                    .iter()
                    .any(|d| d.code == Code::E0803)
            );
            let actions = code_actions(&f.db, f.file, TextRange::empty(f.offset));
            let action = actions
                .iter()
                .find(|a| a.title.starts_with(title))
                .expect("the E0803 fix");
            let fixed = apply(&f.text, &action.edits);
            assert_eq!(fixed, after);
            assert_fixed(&f.text, &fixed, Code::E0803, EVERY_TYPE);
        }
    }

    #[test]
    fn hover_shows_how_a_package_runs() {
        let catalog = r#"
[[package]]
name = "Text.Upper"
  [package.run]
  command = ["sh", "-c", "tr a-z A-Z < \"$0\" > upper.txt"]
  container = "docker.io/library/alpine:3.20"
  cores = 2

  [[package.param]]
  name = "input"
  type = "File"
  position = 0
  prefix = "--input"

  [[package.output]]
  name = "upper"
  glob = "upper.txt"
"#;
        let f = with_catalog(
            "require m;\nstep A runs Text.Up$0per (input = m);\n",
            catalog,
        );
        let result = hover(&f.db, f.file, f.offset).expect("a hover on the package");
        expect_test::expect![[r#"
            **package** `Text.Upper`

            | parameter | type | range | default | |
            |---|---|---|---|---|
            | `input` | File |  |  |  |

            outputs: `upper` (file `upper.txt`)

            runs `["sh", "-c", "tr a-z A-Z < \"$0\" > upper.txt"]`, 2 cores, container `docker.io/library/alpine:3.20`
        "#]]
        .assert_eq(&result.markdown);
        let f = with_catalog(
            "require m;\nstep A runs Text.Upper (in$0put = m);\n",
            catalog,
        );
        let result = hover(&f.db, f.file, f.offset).expect("a hover on the parameter");
        assert!(
            result.markdown.contains("argument 0, after `--input`"),
            "{}",
            result.markdown
        );
    }

    #[test]
    fn hover_on_a_package_and_a_parameter() {
        let f = with_catalog(
            "require m;\nstep A runs ORCA.D$0FT (input = m, charge = 0);\n",
            CATALOG,
        );
        let result = hover(&f.db, f.file, f.offset).expect("a hover on the package");
        assert_eq!(&f.text[result.range], "ORCA.DFT");
        expect_test::expect![[r#"
            **package** `ORCA.DFT`

            Geometry optimization by density functional theory

            | parameter | type | range | default | |
            |---|---|---|---|---|
            | `input` | File |  |  | required |
            | `charge` | Int | -10..=10 |  | required |
            | `method` | Enum | "B3LYP" \| "PBE0" | `"B3LYP"` |  |

            outputs: `geometry.xyz`

            defaults: requires `compute+CPU`, memory `1GiB`
        "#]]
        .assert_eq(&result.markdown);

        let f = with_catalog(
            "require m;\nstep A runs ORCA.DFT (in$0put = m, charge = 0);\n",
            CATALOG,
        );
        let result = hover(&f.db, f.file, f.offset).expect("a hover on the parameter");
        assert_eq!(&f.text[result.range], "input");
        expect_test::expect![[r#"
            ```text
            input: File
            ```

            required

            Molecule in XYZ format

            ---
            parameter of `ORCA.DFT`"#]]
        .assert_eq(&result.markdown);
    }

    fn signature(text: &str) -> Option<(String, Option<String>)> {
        let f = with_catalog(text, CATALOG);
        let help = crate::signature_help::signature_help(&f.db, f.file, f.offset)?;
        let active = help
            .active_parameter
            .map(|i| help.parameters[i as usize].label.clone());
        Some((help.label, active))
    }

    #[test]
    fn signature_help_with_the_active_parameter() {
        let label =
            "ORCA.DFT(input: File, charge: Int (-10..=10), method: Enum (\"B3LYP\" | \"PBE0\"))";
        assert_eq!(
            signature("step A runs ORCA.DFT ($0);"),
            Some((label.to_string(), None))
        );
        assert_eq!(
            signature("step A runs ORCA.DFT (input = x, method = \"PB$0\");"),
            Some((
                label.to_string(),
                Some("method: Enum (\"B3LYP\" | \"PBE0\")".to_string())
            ))
        );
        assert_eq!(
            signature("step A runs ORCA.DFT (input = x,$0 charge = 1);"),
            Some((label.to_string(), None))
        );
        assert_eq!(
            signature("step A runs ORCA.DFT (input$0 = x"),
            Some((label.to_string(), Some("input: File".to_string())))
        );
        // The value being typed: missing (a syntax error) or broken.
        let method = Some("method: Enum (\"B3LYP\" | \"PBE0\")".to_string());
        for text in [
            "step A runs ORCA.DFT (charge = 1, input = x, method = $0);",
            "step A runs ORCA.DFT (charge = 1, method =$0 , input = x);",
            "step A runs ORCA.DFT (method = B3 LYP$0, input = x);",
            "step A runs ORCA.DFT (method = @$0, input = x);",
            "step A runs ORCA.DFT (method = \"PB$0",
            "step A runs ORCA.DFT (app: method = $0",
        ] {
            assert_eq!(
                signature(text),
                Some((label.to_string(), method.clone())),
                "{text}"
            );
        }
        assert_eq!(
            signature("step A runs ORCA.DFT (input = x, exec: nodes = $0);"),
            Some((label.to_string(), None))
        );
        assert_eq!(signature("step A runs ORCA.DFT (input = x)$0;"), None);
        assert_eq!(signature("step A runs Other ($0);"), None);
    }

    #[test]
    fn hover_on_a_step_fits_its_package_defaults() {
        let f = crate::fixture::with_project(
            "require m;\nstep $0A runs ORCA.DFT (input = m, charge = 0);\n",
            Some("compute+GPU:2,1073741824 compute+CPU:4,1073741824\n"),
            Some(CATALOG),
        );
        let result = hover(&f.db, f.file, f.offset).expect("a hover on the step");
        assert!(
            result.markdown.contains("compute+CPU") && !result.markdown.contains("compute+GPU"),
            "{}",
            result.markdown
        );
    }
}
