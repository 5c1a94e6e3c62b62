//! Flow and step attributes: the rules of `language.md` §3.5 (W0405, W0406, W0501, W0502, W0503), each writing its
//! message and its fix's data together.

use easyflow_diagnostics::{Code, Diagnostic, Fix, TextRange};
use easyflow_syntax::value::{LiteralValue, Value};

use easyflow_diagnostics::suggest::{closest, did_you_mean};

const PRIORITIES: &[&str] = &["low", "normal", "high"];
const MODES: &[&str] = &["urgent", "normal"];

pub const FLOW_ATTRIBUTES: &[&str] = &[
    "name",
    "author",
    "description",
    "priority",
    "mode",
    "maxDuration",
];
pub const STEP_ATTRIBUTES: &[&str] = &["priority", "mode", "requires", "memory"];

/// A problem with one attribute: which part it is on, its code, message and
/// fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeProblem {
    pub on_value: bool,
    pub code: Code,
    pub message: String,
    /// The replacement of the key or value ("did you mean"), when one is close.
    pub fix: Fix,
}

impl AttributeProblem {
    fn new(on_value: bool, code: Code, message: String, suggestion: Option<String>) -> Self {
        AttributeProblem {
            on_value,
            code,
            message,
            fix: suggestion.map_or(Fix::None, Fix::Replace),
        }
    }

    /// The diagnostic at `range`: the key's, or the value's when
    /// [`AttributeProblem::on_value`].
    pub fn at(self, range: TextRange) -> Diagnostic {
        Diagnostic::new(self.code, range, self.message).with_fix(self.fix)
    }
}

/// W0503 on a flow attribute key set before, at `first`.
pub fn flow_attribute_set_twice(range: TextRange, key: &str, first: TextRange) -> Diagnostic {
    Diagnostic::new(
        Code::W0503,
        range,
        format!("flow attribute `{key}` is set twice; the last value wins"),
    )
    .with_related(first, format!("`{key}` is first set here"))
}

pub fn check_flow_attribute(key: &str, value: &Value) -> Option<AttributeProblem> {
    let wrong_value = |expected: &str, suggestion: Option<String>| {
        let message = format!(
            "flow attribute `{key}` expects {expected}, found {}{}",
            value.describe(),
            did_you_mean(suggestion.as_deref())
        );
        AttributeProblem::new(true, Code::W0502, message, suggestion)
    };
    match key {
        "name" | "author" | "description" => {
            let string = matches!(value.literal(), Some(LiteralValue::String(_)));
            (!string && *value != Value::Invalid).then(|| wrong_value("a string", None))
        }
        "priority" => {
            check_constant(value, PRIORITIES).map(|s| wrong_value(&constants(PRIORITIES), s))
        }
        "mode" => check_constant(value, MODES).map(|s| wrong_value(&constants(MODES), s)),
        "maxDuration" => match value.literal() {
            Some(LiteralValue::Int(_) | LiteralValue::Double) => None,
            _ if *value == Value::Invalid => None,
            Some(LiteralValue::String(s)) if is_duration(s) => None,
            _ => Some(wrong_value(
                "a number of seconds or a duration string such as \"2h30m\"",
                None,
            )),
        },
        _ => {
            let suggestion = closest(key, FLOW_ATTRIBUTES.iter().copied()).map(str::to_string);
            let message = format!(
                "unknown flow attribute `{key}`{}; known: {}",
                did_you_mean(suggestion.as_deref()),
                FLOW_ATTRIBUTES.join(", ")
            );
            Some(AttributeProblem::new(
                false,
                Code::W0501,
                message,
                suggestion,
            ))
        }
    }
}

/// Step attribute rules; `requires` and `memory` are checked by the topology fit.
pub fn check_step_attribute(key: &str, value: &Value) -> Option<AttributeProblem> {
    let wrong_value = |allowed: &[&str], suggestion: Option<String>| {
        let message = format!(
            "step attribute `{key}` expects {}, found {}{}",
            constants(allowed),
            value.describe(),
            did_you_mean(suggestion.as_deref())
        );
        AttributeProblem::new(true, Code::W0406, message, suggestion)
    };
    match key {
        "priority" => check_constant(value, PRIORITIES).map(|s| wrong_value(PRIORITIES, s)),
        "mode" => check_constant(value, MODES).map(|s| wrong_value(MODES, s)),
        "requires" | "memory" => None,
        _ => {
            let suggestion = closest(key, STEP_ATTRIBUTES.iter().copied()).map(str::to_string);
            let message = format!(
                "unknown step attribute `{key}`{}; known: {}",
                did_you_mean(suggestion.as_deref()),
                STEP_ATTRIBUTES.join(", ")
            );
            Some(AttributeProblem::new(
                false,
                Code::W0405,
                message,
                suggestion,
            ))
        }
    }
}

/// `None` when `value` is one of `allowed`; otherwise `Some` of the closest
/// allowed constant (with `@`), if any is close.
fn check_constant(value: &Value, allowed: &[&str]) -> Option<Option<String>> {
    // What is written, when it may be meant as a constant.
    let written = match value {
        Value::Invalid => return None,
        Value::Ref(reference) => Some(&reference.text),
        Value::Literal(literal) => match &literal.kind {
            LiteralValue::Constant(c) if allowed.contains(&c.as_str()) => return None,
            LiteralValue::Constant(c) => {
                return Some(closest(c, allowed.iter().copied()).map(|s| format!("@{s}")));
            }
            LiteralValue::String(s) => Some(s),
            _ => None,
        },
        Value::List(_) => None,
    };
    // `"high"` and a bare `high` mean `@high`: suggest it even when the
    // spelling is exact (`closest` looks for other names only).
    let Some(written) = written else {
        return Some(None);
    };
    let name = written.trim_start_matches('@');
    let exact = allowed.iter().copied().find(|c| *c == name);
    Some(
        exact
            .or_else(|| closest(name, allowed.iter().copied()))
            .map(|s| format!("@{s}")),
    )
}

fn constants(allowed: &[&str]) -> String {
    let names: Vec<String> = allowed.iter().map(|c| format!("`@{c}`")).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// One or more `<digits><unit>` with units `d h m s`, e.g. `2h30m`.
fn is_duration(text: &str) -> bool {
    let mut digits = 0;
    let mut parts = 0;
    for c in text.chars() {
        match c {
            '0'..='9' => digits += 1,
            'd' | 'h' | 'm' | 's' if digits > 0 => {
                digits = 0;
                parts += 1;
            }
            _ => return false,
        }
    }
    digits == 0 && parts > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert!(is_duration("2h30m"));
        assert!(is_duration("45s"));
        assert!(!is_duration("2h30"));
        assert!(!is_duration("h"));
        assert!(!is_duration(""));
    }

    #[test]
    fn constants_get_suggestions() {
        let problem = check_flow_attribute("priority", &Value::parse("@hihg")).unwrap();
        assert_eq!(problem.code, Code::W0502);
        assert_eq!(problem.fix, Fix::Replace("@high".into()));
        assert!(check_flow_attribute("mode", &Value::parse("@normal")).is_none());
        let unknown = check_step_attribute("prority", &Value::parse("@high")).unwrap();
        assert_eq!(
            (unknown.code, unknown.fix),
            (Code::W0405, Fix::Replace("priority".into()))
        );
        let string = check_step_attribute("mode", &Value::parse("\"urgent\"")).unwrap();
        assert_eq!(string.fix, Fix::Replace("@urgent".into()));
    }
}
