//! The rules a step's own walk finds (`items.rs`), at ranges relative to the
//! step: E0207, W0208, E0401, E0402 for a value that is no reference, E0403,
//! W0404, E0407, E0408 and E0706. (W0405 and W0406 are the attribute rules
//! of `attributes.rs`.) The walker decides where a rule applies; each
//! function here writes its message and its fix's data.

use easyflow_diagnostics::{Code, Diagnostic, Fix, Removal, Tag, TextRange};

/// E0207 on the repeated parameter name.
pub fn parameter_given_twice(range: TextRange, name: &str) -> Diagnostic {
    Diagnostic::new(
        Code::E0207,
        range,
        format!("parameter `{name}` is given twice in this step"),
    )
}

/// W0208 on the repeated name of an `after`/`on` list.
pub fn step_listed_twice(range: TextRange, name: &str) -> Diagnostic {
    Diagnostic::new(Code::W0208, range, format!("step `{name}` is listed twice"))
        .with_tag(Tag::Unnecessary)
        .with_fix(Fix::RemoveDependency(Removal::Repeated))
}

/// E0401 on a `<-` in a step that is not `~step`.
pub fn stream_outside_long_running_step(range: TextRange) -> Diagnostic {
    Diagnostic::new(
        Code::E0401,
        range,
        "the stream arrow `<-` is allowed only in a long-running step; make it a `~step`",
    )
    .with_fix(Fix::MakeLongRunning)
}

/// E0402 on a `<-` parameter's value that is not a reference at all (a
/// reference to a required file is the names rule's E0402).
pub fn stream_source_not_a_reference(range: TextRange) -> Diagnostic {
    Diagnostic::new(
        Code::E0402,
        range,
        "a stream source must be a step's output, such as `Source.outs[\"stream\"]`",
    )
}

/// E0403 on the value after `sweep`.
pub fn sweep_needs_a_list(range: TextRange) -> Diagnostic {
    Diagnostic::new(
        Code::E0403,
        range,
        "`sweep` needs a list literal: wrap the value in `[ ]`",
    )
    .with_fix(Fix::WrapInList)
}

/// W0404 on the empty swept list.
pub fn sweep_over_empty_list(range: TextRange) -> Diagnostic {
    Diagnostic::new(
        Code::W0404,
        range,
        "sweep over an empty list: the step runs zero instances",
    )
}

/// E0407 on the second `pre` or `post` keyword.
pub fn repeated_code_section(range: TextRange, keyword: &str) -> Diagnostic {
    Diagnostic::new(
        Code::E0407,
        range,
        format!("`{keyword}` is given twice: a step has at most one `pre` and one `post` section"),
    )
}

/// E0408 on the `on` keyword.
pub fn event_transition(range: TextRange) -> Diagnostic {
    Diagnostic::new(
        Code::E0408,
        range,
        "event transitions (`on`) are reserved by the platform and not supported; use `after`",
    )
    .with_fix(Fix::UseAfter)
}

/// E0706 on a `requires` list element that is not a string.
pub fn requires_element_not_a_string(range: TextRange) -> Diagnostic {
    malformed_requirement(
        range,
        "`requires` lists capability names as strings, e.g. `[\"compute\", \"GPU\"]`".to_string(),
    )
}

/// E0706 on a `requires` value that is neither a string nor a list.
pub fn requires_not_a_capability_set(range: TextRange) -> Diagnostic {
    malformed_requirement(
        range,
        "`requires` expects a capability set such as `\"compute+GPU\"` or a list of names"
            .to_string(),
    )
}

/// E0706 on a `requires` list element that names several capabilities.
pub fn requires_element_with_several_capabilities(range: TextRange, text: &str) -> Diagnostic {
    malformed_requirement(
        range,
        format!(
            "each element of a `requires` list is one capability name; write `\"{text}\"` as separate elements"
        ),
    )
}

/// E0706 where a capability set does not parse; `error` is the topology
/// crate's message.
pub fn malformed_requires(range: TextRange, error: &str) -> Diagnostic {
    malformed_requirement(range, format!("malformed `requires`: {error}"))
}

/// E0706 on a `memory` string that does not parse; `error` is the topology
/// crate's message.
pub fn malformed_memory(range: TextRange, error: &str) -> Diagnostic {
    malformed_requirement(range, format!("malformed `memory`: {error}"))
}

/// E0706 on a `memory` value that is neither bytes nor a size string.
pub fn memory_not_a_size(range: TextRange) -> Diagnostic {
    malformed_requirement(
        range,
        "`memory` expects bytes (`1073741824`) or a size with a unit (`\"1GiB\"`, `\"512MB\"`)"
            .to_string(),
    )
}

fn malformed_requirement(range: TextRange, message: String) -> Diagnostic {
    Diagnostic::new(Code::E0706, range, message)
}
