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
