//! What the IDE features share about the package catalog: values to fill
//! in for a parameter, and how a package and a parameter read in Markdown.

use easyflow_catalog::{Package, Param, ParamType};

/// A value of `param`'s type to fill in: its default when the catalog gives
/// one in a form a flow can hold, else the smallest allowed value of its type.
pub fn placeholder(param: &Param) -> String {
    if let Some(default) = &param.default {
        let flow_literal = default.starts_with('"')
            || default == "true"
            || default == "false"
            || default.parse::<f64>().is_ok();
        if flow_literal {
            return default.clone();
        }
    }
    match param.ty {
        Some(ParamType::Int) => param.min.map_or("0".to_string(), |m| m.to_string()),
        Some(ParamType::Double) => param.min.map_or("0.0".to_string(), |m| m.to_string()),
        Some(ParamType::Bool) => "false".to_string(),
        Some(ParamType::List) => "[]".to_string(),
        Some(ParamType::Enum) => param
            .values
            .first()
            .map_or("\"\"".to_string(), |v| format!("{v:?}")),
        Some(ParamType::File | ParamType::String) | None => "\"\"".to_string(),
    }
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

/// A package in Markdown: its description, parameters (required first),
/// outputs and default requirements.
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
            .map(|o| format!("`{}`", o.name))
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

    fn codes(text: &str) -> Vec<Code> {
        let f = with_catalog(text, CATALOG);
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
        assert!(!codes(&fixed).contains(&code), "{code:?} left in {fixed:?}");
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
        check_fix(
            "step $0A runs ORCA.DFT (method = \"PBE0\");\n",
            Code::E0803,
            title,
            "step A runs ORCA.DFT (method = \"PBE0\", input = \"\", charge = -10);\n",
        );
        check_fix(
            "step $0A runs ORCA.DFT ();\n",
            Code::E0803,
            title,
            "step A runs ORCA.DFT (input = \"\", charge = -10);\n",
        );
        check_fix(
            "step $0A runs ORCA.DFT (exec: nodes = 2);\n",
            Code::E0803,
            title,
            "step A runs ORCA.DFT (input = \"\", charge = -10, exec: nodes = 2);\n",
        );
        check_fix(
            "step $0A runs ORCA.DFT;\n",
            Code::E0803,
            title,
            "step A runs ORCA.DFT (input = \"\", charge = -10);\n",
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
