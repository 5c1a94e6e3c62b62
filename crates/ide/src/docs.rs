//! The documentation of the language's vocabulary, shared by hover and
//! completion: keywords, attribute keys (one vocabulary with the db's
//! attribute rules, checked when this crate is built), the constants of
//! `priority` and `mode`, the members of a step reference, code blocks.

use easyflow_db::attributes::{FLOW_ATTRIBUTES, STEP_ATTRIBUTES};
use easyflow_syntax::{StepMember, SyntaxKind};

/// The syntax and documentation of a keyword (or `~`, `<-`).
pub(crate) fn keyword_doc(kind: SyntaxKind) -> Option<(&'static str, &'static str)> {
    Some(match kind {
        SyntaxKind::STEP_KW => (
            "step Name runs Package.Method after A, B ( parameters ) pre … post …;",
            "Declares a step: one run of a package with its parameters. The step depends on the steps of its `after` list and on every step its parameters refer to; steps of one level run in parallel.",
        ),
        SyntaxKind::TILDE => LONG_RUNNING_DOC,
        SyntaxKind::REQUIRE_KW => (
            "require a, b;",
            "Declares required files: inputs that the platform binds to real files when the flow is launched. Parameters use them by name; a required file that is never used is W0206.",
        ),
        SyntaxKind::AFTER_KW => (
            "step B runs P after A, C (…)",
            "Control dependencies: the step runs after the listed steps, even when no data passes between them. Each name must be a step of this file.",
        ),
        SyntaxKind::ON_KW => (
            "step B runs P on A (…)",
            "Reserved by the platform for event-driven transitions and not supported (E0408); use `after`.",
        ),
        SyntaxKind::RUNS_KW => (
            "step Name runs Package.Method (…)",
            "Names the package, and optionally its method, that the step runs.",
        ),
        SyntaxKind::SWEEP_KW => (
            "name = sweep [v1, v2, …]",
            "Varies a parameter over a list: the step runs one instance per element. Several swept parameters multiply: the instance count is the product of their lists' lengths.",
        ),
        SyntaxKind::PRE_KW => (
            "pre code python … code end",
            "Pre-processing: code that the platform runs before the step, given as a code block. At most one `pre` per step.",
        ),
        SyntaxKind::POST_KW => (
            "post code ruby … code end",
            "Post-processing: code that the platform runs after the step, given as a code block (it may read `Step.Result.outs`). At most one `post` per step.",
        ),
        SyntaxKind::APP_KW => (
            "( app: x = 1, exec: … )",
            "Opens the application's parameters, the inputs of the package itself. Parameters written before any label are application parameters too.",
        ),
        SyntaxKind::EXEC_KW => (
            "( x = 1, exec: cores = 4 )",
            "Opens the execution parameters: settings for how the platform runs the package, rather than inputs of the package.",
        ),
        SyntaxKind::FLOW_KW => (
            "[flow:key = value]",
            "A flow attribute: describes the whole workflow. Keys: `name`, `author`, `description`, `priority`, `mode`, `maxDuration`.",
        ),
        SyntaxKind::TRUE_KW | SyntaxKind::FALSE_KW => {
            ("true | false", "The literals of type Bool.")
        }
        SyntaxKind::ARROW => (
            "name <- Source.outs[\"stream\"]",
            "Redirects a stream from another step into this parameter. Allowed only in a long-running `~step`; the source must be a step's output, and both steps run concurrently.",
        ),
        _ => return None,
    })
}

pub(crate) const LONG_RUNNING_DOC: (&str, &str) = (
    "~step Name runs Package ( input <- Source.outs[\"stream\"] );",
    "Declares a long-running step: it runs concurrently with the steps it streams from. Only a long-running step may use the stream arrow `<-`. The `~` is written directly before `step`.",
);

pub(crate) const CODE_BLOCK_DOC: &str = "A code block: embedded pre- or post-processing code in the language named after `code`, kept verbatim up to the first line that starts with `code end`. The platform runs it; the language server does not read it, so references inside it create no dependencies.";

/// An attribute key: how it is written and what it means.
pub(crate) struct KeyDoc {
    pub key: &'static str,
    pub form: &'static str,
    pub doc: &'static str,
}

/// The flow attribute keys, in the order of the db's vocabulary
/// [`FLOW_ATTRIBUTES`] (the build fails when the two differ).
pub(crate) const FLOW_ATTRIBUTE_DOCS: &[KeyDoc] = &[
    KeyDoc {
        key: "name",
        form: "name = \"…\"",
        doc: "the workflow's name (a string).",
    },
    KeyDoc {
        key: "author",
        form: "author = \"…\"",
        doc: "the workflow's author (a string).",
    },
    KeyDoc {
        key: "description",
        form: "description = \"…\"",
        doc: "what the workflow does (a string).",
    },
    KeyDoc {
        key: "priority",
        form: "priority = @low | @normal | @high",
        doc: "the workflow's scheduling priority; a step's own `priority` overrides it.",
    },
    KeyDoc {
        key: "mode",
        form: "mode = @urgent | @normal",
        doc: "the workflow's execution mode; a step's own `mode` overrides it.",
    },
    KeyDoc {
        key: "maxDuration",
        form: "maxDuration = 9000 | \"2h30m\"",
        doc: "the longest the workflow may run: seconds (an integer or a double), or a duration string of `<digits><unit>` parts with the units `d h m s`.",
    },
];

/// The step attribute keys, in the order of the db's vocabulary
/// [`STEP_ATTRIBUTES`] (the build fails when the two differ).
pub(crate) const STEP_ATTRIBUTE_DOCS: &[KeyDoc] = &[
    KeyDoc {
        key: "priority",
        form: "priority = @low | @normal | @high",
        doc: "the step's scheduling priority; overrides the flow's `priority`.",
    },
    KeyDoc {
        key: "mode",
        form: "mode = @urgent | @normal",
        doc: "the step's execution mode; overrides the flow's `mode`.",
    },
    KeyDoc {
        key: "requires",
        form: "requires = \"compute+GPU\"",
        doc: "the capabilities a worker must have to run the step: a capability set in the topology's syntax, or a list of names `[\"compute\", \"GPU\"]`. Checked against the project's topology.",
    },
    KeyDoc {
        key: "memory",
        form: "memory = \"1GiB\"",
        doc: "the working memory each instance needs: bytes (`1073741824`) or a size with a unit (`\"512MiB\"`, `\"2GB\"`; KiB/MiB/GiB/TiB are powers of 1024, KB/MB/GB/TB of 1000). A worker type fits when its Shm is at least this.",
    },
];

// One vocabulary: the keys the analysis checks are the keys documented here.
const _: () = assert!(
    same_keys(FLOW_ATTRIBUTES, FLOW_ATTRIBUTE_DOCS),
    "FLOW_ATTRIBUTE_DOCS must list the keys of easyflow_db::attributes::FLOW_ATTRIBUTES, in order"
);
const _: () = assert!(
    same_keys(STEP_ATTRIBUTES, STEP_ATTRIBUTE_DOCS),
    "STEP_ATTRIBUTE_DOCS must list the keys of easyflow_db::attributes::STEP_ATTRIBUTES, in order"
);

/// Whether `docs` documents exactly `keys`, in the same order (at compile time).
const fn same_keys(keys: &[&str], docs: &[KeyDoc]) -> bool {
    if keys.len() != docs.len() {
        return false;
    }
    let mut i = 0;
    while i < keys.len() {
        let (key, documented) = (keys[i].as_bytes(), docs[i].key.as_bytes());
        if key.len() != documented.len() {
            return false;
        }
        let mut j = 0;
        while j < key.len() {
            if key[j] != documented[j] {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

fn lookup(docs: &'static [KeyDoc], key: &str) -> Option<(&'static str, &'static str)> {
    docs.iter().find(|d| d.key == key).map(|d| (d.form, d.doc))
}

/// The form and documentation of a flow attribute key.
pub(crate) fn flow_attribute_doc(key: &str) -> Option<(&'static str, &'static str)> {
    lookup(FLOW_ATTRIBUTE_DOCS, key)
}

/// The form and documentation of a step attribute key.
pub(crate) fn step_attribute_doc(key: &str) -> Option<(&'static str, &'static str)> {
    lookup(STEP_ATTRIBUTE_DOCS, key)
}

/// The constants of `priority` and `mode`. The db keeps its vocabulary of
/// constants private to its rules, so a test below checks these against
/// them.
pub(crate) fn constants_of(key: &str) -> &'static [(&'static str, &'static str)] {
    match key {
        "priority" => &[
            ("low", "runs after work of normal and high priority."),
            ("normal", "the default priority."),
            ("high", "runs before work of normal and low priority."),
        ],
        "mode" => &[
            (
                "urgent",
                "urgent execution: the platform starts the work as soon as it can.",
            ),
            ("normal", "the default execution mode."),
        ],
        _ => &[],
    }
}

/// The form and documentation of a member of a step reference.
pub(crate) fn member_doc(member: StepMember) -> (&'static str, &'static str) {
    match member {
        StepMember::Outs => (
            "Step.outs[\"file\"]",
            "The step's output files, indexed by file name: a File.",
        ),
        StepMember::Result => (
            "Step.Result.outs",
            "The step's result object; its `outs` are the step's output files.",
        ),
    }
}

#[cfg(test)]
mod tests {
    use easyflow_db::attributes::{check_flow_attribute, check_step_attribute};
    use easyflow_syntax::value::Value;

    use super::*;

    #[test]
    fn the_documented_constants_are_the_vocabularies_of_the_rules() {
        for key in ["priority", "mode"] {
            for (name, _) in constants_of(key) {
                let value = Value::parse(&format!("@{name}"));
                assert!(check_flow_attribute(key, &value).is_none(), "{key} {name}");
                assert!(check_step_attribute(key, &value).is_none(), "{key} {name}");
            }
        }
        // The vocabularies are complete: a constant not listed is a warning.
        assert!(check_flow_attribute("mode", &Value::parse("@high")).is_some());
        assert!(check_flow_attribute("priority", &Value::parse("@urgent")).is_some());
    }
}
