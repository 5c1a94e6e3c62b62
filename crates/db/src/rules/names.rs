//! The names rules that need the whole file: E0201, E0202, E0203, W0204,
//! E0205, W0206, I0209, W0210, and E0402 for a stream read from a required
//! file. [`check`] decides where each applies; one function per rule writes
//! its message and its fix's data together.

use easyflow_diagnostics::suggest::did_you_mean;
use easyflow_diagnostics::{Code, Fix, Removal, Tag};
use easyflow_syntax::StepMember;
use smol_str::SmolStr;

use crate::anchor::{Anchor, KeyedDiagnostic};
use crate::denotation::{Link, RequireStatus, RequiredNames, StepKey};
use crate::items::{Members, StepSummary};

/// The names diagnostics of the file's `require` entries, in order.
pub(crate) fn check_requires(
    requires: &[String],
    statuses: &[RequireStatus],
    out: &mut Vec<KeyedDiagnostic>,
) {
    for (i, (name, status)) in requires.iter().zip(statuses).enumerate() {
        let anchor = Anchor::Require(i as u32);
        match *status {
            RequireStatus::Twice(first) => {
                out.push(file_required_twice(anchor, name, Anchor::Require(first)));
            }
            RequireStatus::AlsoAStep(step) => {
                out.push(file_and_step_share_a_name(
                    anchor,
                    name,
                    Anchor::StepName(step),
                ));
            }
            RequireStatus::Unused => out.push(unused_file(anchor, name)),
            RequireStatus::Used => {}
        }
    }
}

/// What the names of one step denote, for [`check_step`].
pub(crate) struct StepLinks<'a> {
    /// The first definition of its name, when that is another step.
    pub first_definition: Option<StepKey>,
    /// Per `after`/`on` entry.
    pub dependencies: &'a [Link],
    /// Per reference.
    pub references: &'a [Link],
    /// The name "did you mean" suggests for a name that denotes nothing
    /// (with `true`, a required file's may be one: for a reference).
    pub suggest: &'a dyn Fn(&str, bool) -> Option<SmolStr>,
}

/// The names diagnostics of one step (`id`), given what its names denote.
pub(crate) fn check_step(
    requires: &RequiredNames,
    id: StepKey,
    step: &StepSummary,
    links: StepLinks<'_>,
    out: &mut Vec<KeyedDiagnostic>,
) {
    let StepLinks {
        first_definition,
        dependencies,
        references,
        suggest,
    } = links;
    if let (Some(name), Some(first)) = (&step.name, first_definition) {
        out.push(duplicate_step(
            Anchor::StepName(id),
            name,
            Anchor::StepName(first),
        ));
    }
    for (n, dependency) in step.dependencies.iter().enumerate() {
        let anchor = Anchor::Dependency(id, n as u32);
        let repeated = step.dependencies[..n]
            .iter()
            .any(|d| d.name == dependency.name);
        match &dependencies[n] {
            Link::Unresolved | Link::File(_)
                if requires.names.iter().any(|r| *r == dependency.name) =>
            {
                out.push(dependency_is_a_file(anchor, &dependency.name));
            }
            Link::Unresolved => {
                out.push(unknown_dependency(
                    anchor,
                    &dependency.name,
                    suggest(&dependency.name, false).as_deref(),
                ));
            }
            Link::File(_) => out.push(unknown_dependency(anchor, &dependency.name, None)),
            // An `on` entry already has its E0408; its fix (`after`) may
            // then show this.
            Link::Step { itself: false } if !repeated && !dependency.via_on => {
                // The step's first data or stream edge from the same step:
                // its first reference that names it.
                let read = references
                    .iter()
                    .zip(&step.references)
                    .position(|(r, reference)| {
                        matches!(r, Link::Step { .. }) && reference.head == dependency.name
                    });
                if let Some(n) = read {
                    out.push(redundant_after(
                        anchor,
                        &dependency.name,
                        Anchor::Reference(id, n as u32),
                    ));
                }
            }
            Link::Step { .. } => {}
        }
    }
    for (n, reference) in step.references.iter().enumerate() {
        match &references[n] {
            // The broken `require` already has its syntax error.
            Link::Unresolved if requires.unparsed.iter().any(|r| *r == reference.head) => {}
            Link::Unresolved => {
                out.push(unresolved_name(
                    Anchor::ReferenceHead(id, n as u32),
                    &reference.head,
                    suggest(&reference.head, true).as_deref(),
                    !reference.members.is_empty(),
                    reference.stream_source,
                ));
            }
            Link::File(_) if reference.stream_source => {
                out.push(stream_source_is_a_file(
                    Anchor::Reference(id, n as u32),
                    &reference.head,
                ));
            }
            Link::File(_) => {}
            Link::Step { .. } => {
                if let Some((m, member, expected)) = unknown_member_of(&reference.members) {
                    out.push(unknown_member(
                        Anchor::Member(id, n as u32, m as u32),
                        &reference.head,
                        reference.members.iter().take(m),
                        member,
                        &expected,
                    ));
                }
            }
        }
    }
}

/// The first member segment that may not stand where it is
/// ([`StepMember::first_misplaced`]): its position, name and what was
/// expected.
fn unknown_member_of(members: &Members) -> Option<(usize, &str, String)> {
    let (at, name, allowed) = StepMember::first_misplaced(members.iter())?;
    let allowed: Vec<String> = allowed.iter().map(|m| format!("`{}`", m.name())).collect();
    Some((at, name, allowed.join(" or ")))
}

/// E0201 on the head of a reference that names nothing. `suggestion` is a
/// close step or file name; with none, a plain name may be a file to require.
fn unresolved_name(
    at: Anchor<StepKey>,
    head: &str,
    suggestion: Option<&str>,
    has_members: bool,
    stream_source: bool,
) -> KeyedDiagnostic {
    // Files have no members: `X.outs` can only mean a step.
    let hint = match suggestion {
        Some(_) => did_you_mean(suggestion),
        None if !has_members => format!("; if it is an input file, add `require {head};`"),
        None => String::new(),
    };
    KeyedDiagnostic::new(
        Code::E0201,
        at,
        format!("unresolved name `{head}`: not a step or a required file{hint}"),
    )
    .with_fix(Fix::UnresolvedName {
        suggestion: suggestion.map(str::to_string),
        // A stream source cannot be a file.
        requirable: !has_members && !stream_source,
    })
}

/// E0202 on an `after`/`on` entry that names a required file.
fn dependency_is_a_file(at: Anchor<StepKey>, name: &str) -> KeyedDiagnostic {
    KeyedDiagnostic::new(
        Code::E0202,
        at,
        format!("`{name}` is a required file, not a step of this file"),
    )
}

/// E0202 on an `after`/`on` entry that names nothing; `suggestion` is a
/// close step name.
fn unknown_dependency(
    at: Anchor<StepKey>,
    name: &str,
    suggestion: Option<&str>,
) -> KeyedDiagnostic {
    let diagnostic = KeyedDiagnostic::new(
        Code::E0202,
        at,
        format!(
            "`{name}` is not a step of this file{}",
            did_you_mean(suggestion)
        ),
    );
    match suggestion {
        Some(name) => diagnostic.with_fix(Fix::Replace(name.to_string())),
        None => diagnostic,
    }
}

/// E0203 on a step name defined before, at `first`.
fn duplicate_step(at: Anchor<StepKey>, name: &str, first: Anchor<StepKey>) -> KeyedDiagnostic {
    KeyedDiagnostic::new(
        Code::E0203,
        at,
        format!("duplicate step `{name}`: rename one of the steps"),
    )
    .with_related(first, format!("`{name}` is first defined here"))
}

/// W0204 on a name required before, at `first`.
fn file_required_twice(at: Anchor<StepKey>, name: &str, first: Anchor<StepKey>) -> KeyedDiagnostic {
    KeyedDiagnostic::new(Code::W0204, at, format!("file `{name}` is required twice"))
        .with_related(first, format!("`{name}` is first required here"))
        .with_tag(Tag::Unnecessary)
        .with_fix(Fix::RemoveRequire(Removal::Repeated))
}

/// E0205 on a required name that a step (at `step`) has too.
fn file_and_step_share_a_name(
    at: Anchor<StepKey>,
    name: &str,
    step: Anchor<StepKey>,
) -> KeyedDiagnostic {
    KeyedDiagnostic::new(
        Code::E0205,
        at,
        format!("`{name}` is both a required file and a step (references to it mean the step); rename one of them"),
    )
    .with_related(step, format!("step `{name}` is defined here"))
}

/// W0206 on a required name that nothing reads.
fn unused_file(at: Anchor<StepKey>, name: &str) -> KeyedDiagnostic {
    KeyedDiagnostic::new(
        Code::W0206,
        at,
        format!("required file `{name}` is never used"),
    )
    .with_tag(Tag::Unnecessary)
    .with_fix(Fix::RemoveRequire(Removal::Unused))
}

/// I0209 on an `after` entry whose step the step reads already, at `read`.
fn redundant_after(at: Anchor<StepKey>, name: &str, read: Anchor<StepKey>) -> KeyedDiagnostic {
    KeyedDiagnostic::new(
        Code::I0209,
        at,
        format!("`after {name}` is redundant: this step already reads `{name}`'s outputs"),
    )
    .with_related(read, format!("`{name}` is read here"))
    .with_tag(Tag::Unnecessary)
    .with_fix(Fix::RemoveDependency(Removal::Redundant))
}

/// W0210 on a member segment of a step reference that is not one; `of_result`
/// when it follows `Result`.
fn unknown_member<'a>(
    at: Anchor<StepKey>,
    head: &str,
    before: impl Iterator<Item = &'a str>,
    member: &str,
    expected: &str,
) -> KeyedDiagnostic {
    let before: Vec<&str> = before.collect();
    let owner = match before[..] {
        [] => format!("step `{head}`"),
        _ => format!("`{head}.{}`", before.join(".")),
    };
    KeyedDiagnostic::new(
        Code::W0210,
        at,
        format!("unknown member `{member}` of {owner}: expected {expected}"),
    )
}

/// E0402 on a `<-` parameter's value that names a required file.
fn stream_source_is_a_file(at: Anchor<StepKey>, name: &str) -> KeyedDiagnostic {
    KeyedDiagnostic::new(
        Code::E0402,
        at,
        format!("a stream source must be a step's output, but `{name}` is a required file"),
    )
}
