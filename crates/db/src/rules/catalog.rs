//! The catalog rules (`catalog.md`, "Checks"): E0801–E0805 of one step, at
//! ranges relative to the step, and W0806 at anchors. The checks themselves
//! are the catalog crate's plain functions; each rule here puts their
//! message at its range with its fix's data.

use easyflow_catalog::check::{self, ValueProblem};
use easyflow_catalog::{Catalog, Package};
use easyflow_diagnostics::{Code, Diagnostic, Fix, TextRange};
use easyflow_syntax::GreenNodeData;
use easyflow_syntax::ast::SectionKind;
use easyflow_syntax::value::Value;

use crate::anchor::{Anchor, AnchoredDiagnostic};
use crate::items::{StepAnchors, StepSummary, Sweep, step_anchors};

/// E0801–E0805 of one step against the catalog. A step whose package is
/// unknown gets only E0801; parameters of the `exec:` section are the
/// platform's, not the package's, and are not checked. The ranges of the
/// step's parts are read from its tree when it has a problem (few do).
pub(crate) fn check_step(
    summary: &StepSummary,
    green: &GreenNodeData,
    catalog: &Catalog,
    out: &mut Vec<Diagnostic>,
) {
    let anchors = std::cell::OnceCell::new();
    let anchors = || -> &StepAnchors { anchors.get_or_init(|| step_anchors(green)) };
    let Some(name) = summary.package.as_deref() else {
        return;
    };
    let Some(package) = catalog.package(name) else {
        if let Some(range) = anchors().package {
            out.push(unknown_package(range, catalog, name));
        }
        return;
    };
    let mut param_values = None;
    let app_params = summary
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| p.section == SectionKind::App);
    for (i, param) in app_params.clone() {
        let Some(name) = param.name.as_deref() else {
            continue;
        };
        let Some(declared) = package.param(name) else {
            if let Some(range) = anchors().params[i].name {
                out.push(unknown_param(range, package, name));
            }
            continue;
        };
        let values = param_values.get_or_insert_with(|| crate::items::param_values(green));
        let Some(value) = values.get(i) else {
            continue;
        };
        // A bare name that names a package (`language.md` §3.1: it
        // resolves) has no known type.
        let names_a_package = |value: &Value| match value {
            Value::Ref(reference) if reference.is_file() => {
                catalog.is_package_head(&reference.text)
            }
            _ => false,
        };
        let check = |value: &Value| {
            if names_a_package(value) {
                None
            } else {
                check::check_value(declared, value)
            }
        };
        match (param.sweep(), value) {
            (Sweep::List(_), Value::List(elements)) => {
                for (e, element) in elements.iter().enumerate() {
                    if let Some(problem) = check(element)
                        && let Some(range) = anchors().params[i].elements.get(e)
                    {
                        out.push(value_problem(*range, problem));
                    }
                }
            }
            // E0403 already.
            (Sweep::NotAList, _) => {}
            _ => {
                if let Some(problem) = check(value)
                    && let Some(range) = anchors().params[i].value
                {
                    out.push(value_problem(range, problem));
                }
            }
        }
    }
    let given = app_params.filter_map(|(_, p)| p.name.as_deref());
    let missing = check::missing_required(package, given);
    if !missing.is_empty()
        && let Some(range) = anchors().name.or(anchors().package)
    {
        let step = summary.name.as_deref().unwrap_or("?");
        out.push(missing_required(range, step, package, &missing));
    }
}

/// E0801 on the compound name after `runs`.
pub(crate) fn unknown_package(range: TextRange, catalog: &Catalog, name: &str) -> Diagnostic {
    let (message, suggestion) = check::unknown_package(catalog, name);
    Diagnostic::new(Code::E0801, range, message).with_fix(replace(suggestion))
}

/// E0802 on the parameter name.
pub(crate) fn unknown_param(range: TextRange, package: &Package, name: &str) -> Diagnostic {
    let (message, suggestion) = check::unknown_param(package, name);
    Diagnostic::new(Code::E0802, range, message).with_fix(replace(suggestion))
}

/// E0803 on the step name, naming every missing required parameter.
pub(crate) fn missing_required(
    range: TextRange,
    step: &str,
    package: &Package,
    missing: &[&easyflow_catalog::Param],
) -> Diagnostic {
    let message = check::missing_required_message(step, package, missing);
    let names = missing.iter().map(|p| p.name.clone()).collect();
    Diagnostic::new(Code::E0803, range, message).with_fix(Fix::AddParams(names))
}

/// E0804 or E0805 on the value or list element; an Enum value close to an
/// allowed one can be replaced by it, written as a string.
pub(crate) fn value_problem(range: TextRange, problem: ValueProblem) -> Diagnostic {
    let fix = replace(problem.suggestion.map(|s| format!("{s:?}")));
    Diagnostic::new(problem.code, range, problem.message).with_fix(fix)
}

/// W0806 on the index string of `A.outs["x"]`.
pub(crate) fn unknown_output(
    anchor: Anchor,
    message: String,
    suggestion: Option<String>,
) -> AnchoredDiagnostic {
    let fix = replace(suggestion.map(|s| format!("{s:?}")));
    AnchoredDiagnostic::new(Code::W0806, anchor, message).with_fix(fix)
}

fn replace(suggestion: Option<String>) -> Fix {
    suggestion.map_or(Fix::None, Fix::Replace)
}
