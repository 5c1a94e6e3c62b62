//! The checks of a step against the catalog (`catalog.md`, "Checks"), as
//! plain functions over plain values. Each returns what is wrong with its
//! message written; where it goes in the flow is the caller's business.

use crate::model::{Catalog, Number, Package, Param, ParamType};
use easyflow_diagnostics::Code;
use easyflow_diagnostics::suggest::{closest, did_you_mean};
use easyflow_syntax::value::{LiteralValue, Value};

/// A problem with a value, E0804 or E0805, with its message.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ValueProblem {
    pub code: Code,
    pub message: String,
    /// The allowed value closest to the one given (an Enum's), if any.
    pub suggestion: Option<String>,
}

/// E0801: the message, and the closest package name.
pub fn unknown_package(catalog: &Catalog, name: &str) -> (String, Option<String>) {
    let suggestion = closest(name, catalog.package_names()).map(str::to_string);
    let message = format!(
        "unknown package `{name}`{}",
        did_you_mean(suggestion.as_deref())
    );
    (message, suggestion)
}

/// E0802: the message, and the closest parameter name.
pub fn unknown_param(package: &Package, name: &str) -> (String, Option<String>) {
    let suggestion =
        closest(name, package.params.iter().map(|p| p.name.as_str())).map(str::to_string);
    let message = format!(
        "package `{}` has no parameter `{name}`{}",
        package.name,
        did_you_mean(suggestion.as_deref())
    );
    (message, suggestion)
}

/// The required (and checked) parameters of `package` that `given` lacks, in
/// the catalog's order.
pub fn missing_required<'p, 'g>(
    package: &'p Package,
    given: impl Iterator<Item = &'g str> + Clone,
) -> Vec<&'p Param> {
    package
        .params
        .iter()
        .filter(|p| p.is_required() && !given.clone().any(|g| g == p.name))
        .collect()
}

/// E0803's message.
pub fn missing_required_message(step: &str, package: &Package, missing: &[&Param]) -> String {
    let names: Vec<String> = missing.iter().map(|p| format!("`{}`", p.name)).collect();
    format!(
        "step `{step}` is missing required parameters of `{}`: {}",
        package.name,
        names.join(", ")
    )
}

/// W0806: the message and the closest declared output, when `package`
/// declares outputs and `output` is not one of them.
pub fn unknown_output(package: &Package, output: &str) -> Option<(String, Option<String>)> {
    if package.outputs.is_empty() || package.outputs.iter().any(|o| o.name == output) {
        return None;
    }
    let suggestion =
        closest(output, package.outputs.iter().map(|o| o.name.as_str())).map(str::to_string);
    let message = format!(
        "package `{}` declares no output `{output}`{}",
        package.name,
        did_you_mean(suggestion.as_deref())
    );
    Some((message, suggestion))
}

/// E0804 or E0805 for one value given to `param` (one element of a swept
/// list is one value). `None` when it is fine, or cannot be judged: an
/// unchecked parameter, a reference of unknown type, an invalid value.
pub fn check_value(param: &Param, value: &Value) -> Option<ValueProblem> {
    let ty = param.ty.filter(|_| param.checked)?;
    let wrong_type = || {
        Some(ValueProblem {
            code: Code::E0804,
            message: format!(
                "parameter `{}` expects {ty}, found {}",
                param.name,
                describe(value)
            ),
            suggestion: None,
        })
    };
    let literal = match value {
        Value::Invalid => return None,
        Value::Ref(reference) if !reference.is_file() => return None,
        Value::Ref(_) if ty == ParamType::File => return None,
        Value::List(_) if ty == ParamType::List => return None,
        Value::Ref(_) | Value::List(_) => return wrong_type(),
        Value::Literal(literal) => literal,
    };
    match (ty, &literal.kind) {
        (ParamType::String, LiteralValue::String(_)) | (ParamType::Bool, LiteralValue::Bool(_)) => {
            None
        }
        (ParamType::Int | ParamType::Double, LiteralValue::Int(i)) => {
            out_of_range(param, Number::Int(*i), value)
        }
        (ParamType::Double, LiteralValue::Double) => {
            match literal.text.replace('_', "").parse::<f64>() {
                Ok(d) => out_of_range(param, Number::Double(d), value),
                Err(_) => None,
            }
        }
        (ParamType::Enum, LiteralValue::String(s) | LiteralValue::Constant(s)) => {
            if param.values.iter().any(|v| v == s) {
                return None;
            }
            let suggestion =
                closest(s, param.values.iter().map(String::as_str)).map(str::to_string);
            let values: Vec<String> = param.values.iter().map(|v| format!("{v:?}")).collect();
            Some(ValueProblem {
                code: Code::E0805,
                message: format!(
                    "parameter `{}` expects one of {}, found {}{}",
                    param.name,
                    values.join(", "),
                    describe(value),
                    did_you_mean(suggestion.as_deref())
                ),
                suggestion,
            })
        }
        _ => wrong_type(),
    }
}

/// How `value` reads in the checks' messages: as a file when it names
/// files ([`easyflow_syntax::value::Reference::is_file`]).
fn describe(value: &Value) -> String {
    match value {
        Value::Ref(reference) if reference.is_file() => format!("the file `{}`", reference.text),
        _ => value.describe(),
    }
}

fn out_of_range(param: &Param, n: Number, value: &Value) -> Option<ValueProblem> {
    let below = param.min.is_some_and(|min| n.less_than(min));
    let above = param.max.is_some_and(|max| max.less_than(n));
    if !below && !above {
        return None;
    }
    let expected = match (param.min, param.max) {
        (Some(min), Some(max)) => format!("a value from {min} to {max}"),
        (Some(min), None) => format!("a value of at least {min}"),
        (None, Some(max)) => format!("a value of at most {max}"),
        (None, None) => unreachable!("out of range needs a bound"),
    };
    Some(ValueProblem {
        code: Code::E0805,
        message: format!(
            "parameter `{}` expects {expected}, found {}",
            param.name,
            describe(value)
        ),
        suggestion: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    const CATALOG: &str = r#"
[[package]]
name = "ORCA.DFT"
  [[package.param]]
  name = "input"
  type = "File"
  required = true
  [[package.param]]
  name = "method"
  type = "Enum"
  values = ["B3LYP", "PBE0"]
  [[package.param]]
  name = "charge"
  type = "Int"
  min = -10
  max = 10
  [[package.param]]
  name = "scale"
  type = "Double"
  min = 0.5
  [[package.output]]
  name = "geometry.xyz"
"#;

    fn param(name: &str) -> Param {
        let catalog = parse(CATALOG);
        assert_eq!(catalog.diagnostics, []);
        catalog
            .package("ORCA.DFT")
            .unwrap()
            .param(name)
            .unwrap()
            .clone()
    }

    fn code(param_name: &str, value: Value) -> Option<Code> {
        assert_ne!(value, Value::Invalid);
        check_value(&param(param_name), &value).map(|p| p.code)
    }

    #[test]
    fn types_and_ranges() {
        assert_eq!(code("charge", Value::parse("-10")), None);
        assert_eq!(code("charge", Value::parse("11")), Some(Code::E0805));
        assert_eq!(code("charge", Value::parse("2.0")), Some(Code::E0804));
        assert_eq!(code("scale", Value::parse("1")), None);
        assert_eq!(code("scale", Value::parse("0.4")), Some(Code::E0805));
        assert_eq!(code("input", Value::parse("molecule")), None);
        assert_eq!(code("input", Value::parse("\"m.xyz\"")), Some(Code::E0804));
        assert_eq!(code("method", Value::parse("@PBE0")), None);
        assert_eq!(code("method", Value::parse("\"PBE0\"")), None);
        assert_eq!(code("method", Value::parse("\"PBE1\"")), Some(Code::E0805));
        assert_eq!(code("method", Value::parse("1")), Some(Code::E0804));
        assert_eq!(code("charge", Value::parse("A.Result")), None);
    }

    #[test]
    fn messages() {
        let catalog = parse(CATALOG);
        let package = catalog.package("ORCA.DFT").unwrap();
        assert_eq!(
            unknown_package(&catalog, "ORCA.DTF").0,
            "unknown package `ORCA.DTF` (did you mean `ORCA.DFT`?)"
        );
        assert_eq!(
            unknown_param(package, "metod").0,
            "package `ORCA.DFT` has no parameter `metod` (did you mean `method`?)"
        );
        let missing = missing_required(package, ["method"].into_iter());
        assert_eq!(
            missing_required_message("Optimize", package, &missing),
            "step `Optimize` is missing required parameters of `ORCA.DFT`: `input`"
        );
        assert_eq!(
            check_value(&param("charge"), &Value::parse("12"))
                .unwrap()
                .message,
            "parameter `charge` expects a value from -10 to 10, found the integer 12"
        );
        assert_eq!(
            unknown_output(package, "geometry.xzy").unwrap().0,
            "package `ORCA.DFT` declares no output `geometry.xzy` (did you mean `geometry.xyz`?)"
        );
        assert_eq!(unknown_output(package, "geometry.xyz"), None);
    }
}
