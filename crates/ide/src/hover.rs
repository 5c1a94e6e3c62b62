//! Hover: what the thing under the cursor is, in compact Markdown.
//!
//! - a step's name or a reference to a step: its header, its documentation
//!   comment ([`crate::doc_comments`]), parameters,
//!   dependencies up and down, level, instance count and, with a topology,
//!   the worker types it fits;
//! - a required file: its `require` line's documentation comment, where
//!   it is used;
//! - attribute keys and constants, keywords, code blocks: their documentation;
//! - a capability name inside a `requires` string: the worker types of the
//!   topology that provide it.
//!
//! The documentation tables are in [`crate::docs`], shared with completion.

use std::collections::HashMap;
use std::fmt::Write;

use easyflow_db::diagnostics::Anchor;
use easyflow_db::graph::{Edge, step_edges_from, step_edges_into, step_level};
use easyflow_db::items::Sweep;
use easyflow_db::resolve::Target;
use easyflow_db::{
    Db, EdgeKind, SourceFile, StepId, file_outline, item_index, name_resolution, parse,
    parse_topology,
};
use easyflow_diagnostics::{TextRange, TextSize};
use easyflow_syntax::ast::{self, AstNode, SectionKind};
use easyflow_syntax::{StepMember, SyntaxKind, SyntaxNode, SyntaxToken};
use easyflow_topology::Fit;

use crate::defs::{self, Definition};
use crate::doc_comments;
use crate::docs::{
    CODE_BLOCK_DOC, LONG_RUNNING_DOC, constants_of, flow_attribute_doc, keyword_doc, member_doc,
    step_attribute_doc,
};
use crate::render::{
    LIST_LIMIT, describe_worker, limited, one_line, plural, providers, quoted_list,
};
use crate::tokens::{token_at, token_left_of, word_in_string};

/// A hover: the range it applies to and its Markdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoverResult {
    pub range: TextRange,
    pub markdown: String,
}

/// The hover at `offset`, if there is anything to say about what is there.
pub fn hover(db: &dyn Db, file: SourceFile, offset: TextSize) -> Option<HoverResult> {
    if offset > file.text(db).len() {
        return None;
    }
    if let Some((definition, range)) = defs::definition_at(db, file, offset) {
        let markdown = match definition {
            Definition::Step(first) => {
                // On the name of a repeated definition, that step itself.
                let here = defs::step_at(db, file, offset)
                    .filter(|s| defs::range_of(db, file, Anchor::StepName(*s)) == Some(range));
                step_hover(db, file, here.unwrap_or(first), first)?
            }
            Definition::File(first) => file_hover(db, file, first)?,
        };
        return Some(HoverResult { range, markdown });
    }
    let root = parse(db, file).syntax();
    let token = best_token(&root, offset)?;
    token_hover(db, file, &token, offset)
}

/// The token under the cursor that says the most: a name, keyword or
/// literal on either side before punctuation, never trivia.
fn best_token(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    let rank = |token: &SyntaxToken| match token.kind() {
        kind if kind.is_trivia() => 0,
        SyntaxKind::IDENT | SyntaxKind::CONSTANT | SyntaxKind::STRING | SyntaxKind::CODE_BLOCK => 3,
        kind if kind.is_keyword() => 3,
        SyntaxKind::TILDE | SyntaxKind::ARROW => 2,
        _ => 1,
    };
    let right = token_at(root, offset);
    let left = token_left_of(root, offset);
    let best = match (left, right) {
        (Some(left), Some(right)) if rank(&left) > rank(&right) => left,
        (_, Some(right)) => right,
        (left, None) => left?,
    };
    (rank(&best) > 0).then_some(best)
}

// ---------------------------------------------------------------------------
// Steps and required files.

fn step_hover(db: &dyn Db, file: SourceFile, step: StepId, first: StepId) -> Option<String> {
    let index = item_index(db, file);
    let summary = index.steps.get(step.index())?;
    let outline_step = file_outline(db, file).step(db, step)?;
    let anchors = outline_step.anchors(db);
    let text = file.text(db);
    let name_of = |id: StepId| index.steps[id.index()].name.as_deref().unwrap_or("?");

    let mut out = String::from("```easyflow\n");
    for attribute in &anchors.attributes {
        if let (Some(key), Some(value)) = (attribute.key, attribute.value) {
            let written = TextRange::new(key.start(), value.end()) + outline_step.offset;
            let _ = writeln!(out, "[{}]", one_line(&text.slice(written)));
        }
    }
    if summary.long_running {
        out.push('~');
    }
    let _ = write!(out, "step {}", summary.name.as_deref().unwrap_or("?"));
    if let Some(package) = &summary.package {
        let _ = write!(out, " runs {package}");
    }
    for (keyword, via_on) in [("after", false), ("on", true)] {
        let names = summary
            .dependencies
            .iter()
            .filter(|d| d.via_on == via_on)
            .map(|d| d.name.to_string());
        let list = limited(names, 6);
        if !list.is_empty() {
            let _ = write!(out, " {keyword} {list}");
        }
    }
    out.push_str("\n```\n---\n");
    if let Some(documentation) = doc_comments::step_documentation(db, file, step) {
        let _ = write!(out, "{documentation}\n\n");
    }

    // Level, instances, long-running: the step's facts, without the graph
    // of the whole flow where it can (after an edit of a name in a large
    // flow, building it would cost more than the rest of the hover).
    let level = step_level(db, file, step).explained();
    let instances = summary.instances;
    let sweeps: Vec<String> = summary
        .params
        .iter()
        .filter_map(|p| match p.sweep() {
            Sweep::List(n) => Some(n.to_string()),
            _ => None,
        })
        .collect();
    let mut facts = vec![level, plural(instances, "instance", "instances")];
    if sweeps.len() > 1 {
        let last = facts.len() - 1;
        facts[last].push_str(&format!(" ({})", sweeps.join(" × ")));
    }
    if summary.long_running {
        facts.push("long-running".to_string());
    }
    out.push_str(&facts.join(" · "));
    if step != first {
        let _ = write!(
            out,
            "\n\n*a repeated definition: references to `{}` mean the first one*",
            name_of(first)
        );
    }

    // Parameters.
    let params = |section: SectionKind| {
        summary
            .params
            .iter()
            .filter(move |p| p.section == section)
            .map(|p| {
                let mut shown = format!("`{}`", p.name.as_deref().unwrap_or("?"));
                if p.stream {
                    shown.push_str(" (stream)");
                }
                if let Sweep::List(n) = p.sweep() {
                    let _ = write!(shown, " (sweep ×{n})");
                }
                shown
            })
    };
    let app = limited(params(SectionKind::App), LIST_LIMIT);
    let exec = limited(params(SectionKind::Exec), LIST_LIMIT);
    out.push_str("\n\n**parameters** ");
    out.push_str(if app.is_empty() { "none" } else { &app });
    if !exec.is_empty() {
        let _ = write!(out, " · **exec** {exec}");
    }

    // Dependencies up and down, one entry per step with the kinds of its edges.
    let up = grouped(&step_edges_into(db, file, step), |e| e.from);
    let down = grouped(&step_edges_from(db, file, step), |e| e.to);
    for (title, group) in [("depends on", up), ("dependents", down)] {
        let entries = group
            .iter()
            .map(|(id, kinds)| format!("`{}` ({})", name_of(*id), kinds));
        let list = limited(entries, LIST_LIMIT);
        let _ = write!(
            out,
            "\n\n**{title}** {}",
            if list.is_empty() { "none" } else { &list }
        );
    }

    if let Some(workers) = worker_types(db, file, summary) {
        let _ = write!(out, "\n\n**worker types** {workers}");
    }
    Some(out)
}

/// Distinct steps of `edges` (by `key`) in first-seen order, each with the
/// kinds of its edges ("after, data").
fn grouped<'a>(
    edges: impl IntoIterator<Item = &'a Edge>,
    key: impl Fn(&Edge) -> StepId,
) -> Vec<(StepId, String)> {
    let mut groups: Vec<(StepId, [bool; 3])> = Vec::new();
    let mut positions: HashMap<StepId, usize> = HashMap::new();
    for edge in edges {
        let slot = match edge.kind {
            EdgeKind::Control => 0,
            EdgeKind::Data => 1,
            EdgeKind::Stream => 2,
        };
        let id = key(edge);
        let position = *positions.entry(id).or_insert_with(|| {
            groups.push((id, [false; 3]));
            groups.len() - 1
        });
        groups[position].1[slot] = true;
    }
    groups
        .into_iter()
        .map(|(id, kinds)| {
            let names: Vec<&str> = ["after", "data", "stream"]
                .into_iter()
                .zip(kinds)
                .filter_map(|(name, on)| on.then_some(name))
                .collect();
            (id, names.join(", "))
        })
        .collect()
}

/// The worker types a step fits, or why none does; `None` when there is
/// nothing to say (no topology and no requirement).
fn worker_types(
    db: &dyn Db,
    file: SourceFile,
    summary: &easyflow_db::StepSummary,
) -> Option<String> {
    let requirement = summary.requirement();
    let catalog = easyflow_db::catalog::catalog_of(db, file);
    let package = easyflow_db::catalog::package_of(catalog, summary);
    // Its own attributes, or its package's defaults.
    let asks = summary
        .attributes
        .iter()
        .any(|(key, _)| key == "requires" || key == "memory")
        || package.is_some_and(|p| p.requires.is_some() || p.memory.is_some());
    let Some(topology_file) = file.topology(db) else {
        return asks.then(|| "no topology found".to_string());
    };
    if requirement.malformed {
        return Some("not checked: the `requires` or `memory` value is malformed".to_string());
    }
    let topology = parse_topology(db, topology_file);
    let fit = easyflow_db::fit::step_fit(topology, summary, package);
    Some(match fit {
        Fit::Fits { workers, waves } => {
            let mut shown = limited(
                workers
                    .iter()
                    .map(|&w| describe_worker(&topology.workers[w])),
                LIST_LIMIT,
            );
            if let Some(waves) = waves {
                let _ = write!(shown, " — {}", waves.message);
            }
            shown
        }
        Fit::UnknownCapabilities(unknown) => {
            let messages: Vec<String> = unknown.into_iter().map(|u| u.message).collect();
            format!("none: {}", messages.join("; "))
        }
        Fit::NoWorkerType { message, .. } | Fit::NotEnoughMemory { message, .. } => {
            format!("none: {message}")
        }
    })
}

fn file_hover(db: &dyn Db, file: SourceFile, first: u32) -> Option<String> {
    let index = item_index(db, file);
    let resolution = name_resolution(db, file);
    let name = index.requires.get(first as usize)?;
    let mut users: Vec<(StepId, Vec<String>)> = Vec::new();
    let mut uses = 0usize;
    for (i, targets) in resolution.references.iter().enumerate() {
        let summary = &index.steps[i];
        for (n, target) in targets.iter().enumerate() {
            if *target != Target::File(first) {
                continue;
            }
            uses += 1;
            let param = summary.references[n].param as usize;
            let param = summary.params[param].name.as_deref().unwrap_or("?");
            let id = StepId(i as u32);
            if users.last().is_none_or(|(last, _)| *last != id) {
                users.push((id, Vec::new()));
            }
            let params = &mut users.last_mut().expect("just pushed").1;
            if !params.iter().any(|p| p == param) {
                params.push(param.to_string());
            }
        }
    }
    let mut out = format!("```easyflow\nrequire {name}\n```\n---\n");
    if let Some(documentation) = doc_comments::require_documentation(db, file, first) {
        let _ = write!(out, "{documentation}\n\n");
    }
    out.push_str("required file: an input bound to a real file when the flow is launched\n\n");
    if users.is_empty() {
        out.push_str("**used by** no step");
    } else {
        let entries = users.iter().map(|(id, params)| {
            let step = index.steps[id.index()].name.as_deref().unwrap_or("?");
            let params: Vec<String> = params.iter().map(|p| format!("`{p}`")).collect();
            format!("`{step}` ({})", params.join(", "))
        });
        let _ = write!(
            out,
            "**used by** {} — {} in {}",
            limited(entries, LIST_LIMIT),
            plural(uses as u64, "use", "uses"),
            plural(users.len() as u64, "step", "steps")
        );
    }
    Some(out)
}

// ---------------------------------------------------------------------------
// Keywords, attributes, constants, members, capabilities.

fn token_hover(
    db: &dyn Db,
    file: SourceFile,
    token: &SyntaxToken,
    offset: TextSize,
) -> Option<HoverResult> {
    let range = token.text_range();
    let documented = |title: &str, doc: &str| {
        Some(HoverResult {
            range,
            markdown: format!("```easyflow\n{title}\n```\n---\n{doc}"),
        })
    };
    match token.kind() {
        SyntaxKind::STEP_KW if previous_is_adjacent_tilde(token) => {
            let (title, doc) = LONG_RUNNING_DOC;
            documented(title, doc)
        }
        SyntaxKind::CODE_BLOCK => code_block_hover(token, offset),
        kind => {
            if let Some((title, doc)) = keyword_doc(kind) {
                return documented(title, doc);
            }
            if kind == SyntaxKind::IDENT
                && let Some(hover) = catalog_hover(db, file, token)
            {
                return Some(hover);
            }
            match kind {
                SyntaxKind::IDENT => ident_hover(token),
                SyntaxKind::CONSTANT => constant_hover(token),
                SyntaxKind::STRING => capability_hover(db, file, token, offset),
                _ => None,
            }
        }
    }
}

/// A package name after `runs`, or a parameter name of a step whose
/// package the catalog knows: what the catalog says of it.
fn catalog_hover(db: &dyn Db, file: SourceFile, token: &SyntaxToken) -> Option<HoverResult> {
    let catalog = easyflow_db::catalog::catalog_of(db, file)?;
    let parent = token.parent()?;
    if let Some(path) = parent
        .ancestors()
        .find(|n| n.kind() == SyntaxKind::PACKAGE_PATH)
    {
        let package = catalog.package(&path.text().to_string())?;
        return Some(HoverResult {
            range: path.text_range(),
            markdown: crate::catalog::package_markdown(package),
        });
    }
    let name = ast::Name::cast(parent)?;
    let param = ast::Param::cast(name.syntax().parent()?)?;
    let section = ast::ParamSection::cast(param.syntax().parent()?)?;
    if section.kind() != SectionKind::App {
        return None;
    }
    let step = section.syntax().ancestors().find_map(ast::Step::cast)?;
    let package = catalog.package(&step.package()?.syntax().text().to_string())?;
    let declared = package.param(token.text())?;
    Some(HoverResult {
        range: token.text_range(),
        markdown: crate::catalog::param_hover_markdown(package, declared),
    })
}

fn previous_is_adjacent_tilde(token: &SyntaxToken) -> bool {
    token
        .prev_token()
        .is_some_and(|t| t.kind() == SyntaxKind::TILDE)
}

/// An attribute key or a member of a reference.
/// The hover of an attribute key: its form and documentation, or the known
/// keys when it is unknown. `(prefix, what)` is `("flow:", "flow")` for flow
/// attributes and `("", "step")` for step attributes.
fn attribute_key_hover(
    key: &str,
    doc: Option<(&str, &str)>,
    (prefix, what): (&str, &str),
    known: &[&str],
) -> String {
    match doc {
        Some((form, doc)) => {
            format!("```easyflow\n[{prefix}{form}]\n```\n---\n{what} attribute: {doc}")
        }
        None => format!(
            "unknown {what} attribute `{key}`; known: {}",
            quoted_list(known)
        ),
    }
}

fn ident_hover(token: &SyntaxToken) -> Option<HoverResult> {
    let parent = token.parent()?;
    let owner = parent.parent()?;
    let markdown = match (parent.kind(), owner.kind()) {
        (SyntaxKind::NAME, SyntaxKind::ATTRIBUTE) => attribute_key_hover(
            token.text(),
            step_attribute_doc(token.text()),
            ("", "step"),
            easyflow_db::attributes::STEP_ATTRIBUTES,
        ),
        (SyntaxKind::NAME, SyntaxKind::FLOW_ATTRIBUTE) => attribute_key_hover(
            token.text(),
            flow_attribute_doc(token.text()),
            ("flow:", "flow"),
            easyflow_db::attributes::FLOW_ATTRIBUTES,
        ),
        (SyntaxKind::NAME_REF, SyntaxKind::SEGMENT) => {
            // A member: not the first segment of its reference.
            owner.prev_sibling()?;
            let (form, doc) = member_doc(StepMember::from_name(token.text())?);
            format!("```easyflow\n{form}\n```\n---\n{doc}")
        }
        _ => return None,
    };
    Some(HoverResult {
        range: token.text_range(),
        markdown,
    })
}

/// The key of the attribute (step or flow) whose value holds `node`, if any.
fn enclosing_attribute_key(node: &SyntaxNode) -> Option<(String, bool)> {
    for ancestor in node.ancestors() {
        match ancestor.kind() {
            SyntaxKind::ATTRIBUTE => {
                let key = ast::Attribute::cast(ancestor)?.key()?;
                return Some((key.text(), false));
            }
            SyntaxKind::FLOW_ATTRIBUTE => {
                let key = ast::FlowAttribute::cast(ancestor)?.key()?;
                return Some((key.text(), true));
            }
            SyntaxKind::STEP | SyntaxKind::SOURCE_FILE | SyntaxKind::PARAM => return None,
            _ => {}
        }
    }
    None
}

fn constant_hover(token: &SyntaxToken) -> Option<HoverResult> {
    let name = token.text().trim_start_matches('@');
    let context = token.parent().and_then(|p| enclosing_attribute_key(&p));
    let mut out = format!("```easyflow\n@{name}\n```\n---\n");
    match context.as_ref().map(|(key, _)| key.as_str()) {
        Some(key @ ("priority" | "mode")) => {
            let vocabulary = constants_of(key);
            match vocabulary.iter().find(|(c, _)| *c == name) {
                Some((_, doc)) => {
                    let _ = write!(out, "`{key}` value: {doc}");
                }
                None => {
                    let known: Vec<String> =
                        vocabulary.iter().map(|(c, _)| format!("`@{c}`")).collect();
                    let _ = write!(
                        out,
                        "not a `{key}` value known to this server; known: {}",
                        known.join(", ")
                    );
                }
            }
        }
        _ => {
            out.push_str("a constant predefined by the environment");
            for key in ["priority", "mode"] {
                if let Some((_, doc)) = constants_of(key).iter().find(|(c, _)| *c == name) {
                    let _ = write!(out, "\n\nas a `{key}` value: {doc}");
                }
            }
        }
    }
    Some(HoverResult {
        range: token.text_range(),
        markdown: out,
    })
}

/// The documentation of a code block, on its first line (`code ruby`) or
/// its closing `code end`; nothing inside the embedded code.
fn code_block_hover(token: &SyntaxToken, offset: TextSize) -> Option<HoverResult> {
    let text = token.text();
    let start = token.text_range().start();
    let relative = usize::from(offset - start);
    let first_end = text.find('\n').unwrap_or(text.len());
    let first_line = text[..first_end].trim_end();
    let language = first_line["code".len().min(first_line.len())..].trim();
    let last_start = text.trim_end().rfind('\n').map_or(0, |n| n + 1);
    let last_line = text[last_start..].trim_end();
    let closed = last_start > 0 && last_line.split_whitespace().eq(["code", "end"]);
    let range = if relative <= first_line.len() {
        TextRange::at(start, TextSize::of(first_line))
    } else if closed && relative >= last_start {
        let indent = last_line.len() - last_line.trim_start().len();
        TextRange::at(
            start + TextSize::from((last_start + indent) as u32),
            TextSize::of(last_line.trim_start()),
        )
    } else {
        return None;
    };
    let opener = format!("code {language}");
    let mut markdown = format!(
        "```easyflow\n{}\n…\ncode end\n```\n---\n{CODE_BLOCK_DOC}",
        opener.trim_end()
    );
    if !closed {
        markdown.push_str("\n\nNot closed (E0105): the block runs to the end of the file.");
    }
    Some(HoverResult { range, markdown })
}

/// A capability name inside a `requires` string: the worker types that have it.
fn capability_hover(
    db: &dyn Db,
    file: SourceFile,
    token: &SyntaxToken,
    offset: TextSize,
) -> Option<HoverResult> {
    let literal = token.parent()?;
    let (key, flow) = enclosing_attribute_key(&literal)?;
    if key != "requires" || flow {
        return None;
    }
    // A word the cursor touches: on the opening quote, none.
    let range = word_in_string(token, offset).filter(|r| r.contains_inclusive(offset))?;
    let name = &token.text()[range - token.text_range().start()];
    if !easyflow_topology::is_capability_name(name) {
        return None;
    }
    let mut out = format!("capability `{name}`\n\n---\n");
    match file.topology(db) {
        None => out.push_str("no topology found"),
        Some(topology_file) => {
            let topology = parse_topology(db, topology_file);
            let providers = providers(topology, name);
            if providers.is_empty() {
                let _ = write!(out, "no worker type of the topology provides `{name}`");
            } else {
                let _ = write!(out, "provided by {providers}");
            }
        }
    }
    Some(HoverResult {
        range,
        markdown: out,
    })
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::*;
    use crate::fixture::{fixture, with_topology};

    const TOPOLOGY: &str = "compute+CPU:24,1073741824 compute+GPU:2x4,2147483648 reduce:4 IO+load:2,16777216 IO+store:2,16777216\n";

    fn check(text: &str, expect: Expect) {
        check_with(text, None, expect);
    }

    fn check_with(text: &str, topology: Option<&str>, expect: Expect) {
        let f = with_topology(text, topology);
        let actual = match hover(&f.db, f.file, f.offset) {
            Some(result) => format!("{}\n{}", &f.text[result.range], result.markdown),
            None => "no hover".to_string(),
        };
        expect.assert_eq(&actual);
    }

    const FLOW: &str = r#"require samples, unused;
[requires = "compute+GPU"]
[memory = "1GiB"]
step Load runs Loader.Read (source = samples, x = samples);
step Comp$0ute runs Kernel.Run after Init
(
  data = Load.outs["chunk"],
  seed = sweep [1, 2, 3],
  mode = sweep ["a", "b"],
  exec: cores = 4
);
step Init runs Setup ();
step Reduce runs Reducer.Sum after Compute (parts = Compute.outs["part"], all = [Load, Compute]);
"#;

    #[test]
    fn step_from_its_name() {
        check(
            FLOW,
            expect![[r#"
                Compute
                ```easyflow
                step Compute runs Kernel.Run after Init
                ```
                ---
                level 1 · 6 instances (3 × 2)

                **parameters** `data`, `seed` (sweep ×3), `mode` (sweep ×2) · **exec** `cores`

                **depends on** `Init` (after), `Load` (data)

                **dependents** `Reduce` (after, data)"#]],
        );
    }

    #[test]
    fn step_from_a_reference_with_its_fit() {
        check_with(
            &FLOW
                .replace("Comp$0ute", "Compute")
                .replace("(source", "(sou$0rce")
                .replace("= [Load,", "= [Lo$0ad,")
                .replacen("sou$0rce", "source", 1),
            Some(TOPOLOGY),
            expect![[r#"
                Load
                ```easyflow
                [requires = "compute+GPU"]
                [memory = "1GiB"]
                step Load runs Loader.Read
                ```
                ---
                level 0 · 1 instance

                **parameters** `source`, `x`

                **depends on** none

                **dependents** `Compute` (data), `Reduce` (data)

                **worker types** `compute+GPU` (2 per node × 4 nodes, 2 GiB)"#]],
        );
    }

    #[test]
    fn fit_problems_and_no_topology() {
        let text = "[requires = \"GPU+IO\"]\nstep L$0oad runs P (xs = sweep [1, 2, 3]);\n";
        let worker_line = |topology: Option<&str>| {
            let f = with_topology(text, topology);
            let markdown = hover(&f.db, f.file, f.offset).unwrap().markdown;
            markdown
                .lines()
                .find(|l| l.starts_with("**worker types**"))
                .map(str::to_string)
        };
        expect![[r#"
            Some(
                "**worker types** no topology found",
            )
        "#]]
        .assert_debug_eq(&worker_line(None));
        expect![[r#"
            Some(
                "**worker types** none: no worker type has all of `GPU+IO`; closest: `compute+GPU` (lacks `IO`), `IO+load` (lacks `GPU`), `IO+store` (lacks `GPU`)",
            )
        "#]]
        .assert_debug_eq(&worker_line(Some(TOPOLOGY)));
        let waves =
            "[requires = \"GPU\"]\nstep L$0oad runs P (xs = sweep [1, 2, 3, 4, 5, 6, 7, 8, 9]);\n";
        let f = with_topology(waves, Some(TOPOLOGY));
        let markdown = hover(&f.db, f.file, f.offset).unwrap().markdown;
        expect![[r#"**worker types** `compute+GPU` (2 per node × 4 nodes, 2 GiB) — 9 instances on 8 slots: at least 2 waves"#]]
            .assert_eq(markdown.lines().last().unwrap());
        // No requirement, no topology: nothing to say about workers.
        let f = fixture("step L$0oad runs P ();");
        let markdown = hover(&f.db, f.file, f.offset).unwrap().markdown;
        assert!(!markdown.contains("worker types"), "{markdown}");
    }

    #[test]
    fn cycles_streams_and_repeats() {
        check(
            "step A runs P (x = B);\n~step B runs Q after A (s <- A.outs[\"s\"]);\nstep C$0 runs R (y = B);\n",
            expect![[r#"
                C
                ```easyflow
                step C runs R
                ```
                ---
                level — (downstream of a cycle) · 1 instance

                **parameters** `y`

                **depends on** `B` (data)

                **dependents** none"#]],
        );
        check(
            "step A runs P (x = B);\n~st$0ep B runs Q after A (s <- A.outs[\"s\"]);\n",
            expect![[r#"
                step
                ```easyflow
                ~step Name runs Package ( input <- Source.outs["stream"] );
                ```
                ---
                Declares a long-running step: it runs concurrently with the steps it streams from. Only a long-running step may use the stream arrow `<-`. The `~` is written directly before `step`."#]],
        );
        check(
            "step A runs P (x = B);\n~step B$0 runs Q after A (s <- A.outs[\"s\"]);\n",
            expect![[r#"
                B
                ```easyflow
                ~step B runs Q after A
                ```
                ---
                in a cycle · 1 instance · long-running

                **parameters** `s` (stream)

                **depends on** `A` (after, stream)

                **dependents** `A` (data)"#]],
        );
        check(
            "step A runs P ();\nstep A$0 runs Q ();\n",
            expect![[r#"
                A
                ```easyflow
                step A runs Q
                ```
                ---
                level 0 · 1 instance

                *a repeated definition: references to `A` mean the first one*

                **parameters** none

                **depends on** none

                **dependents** none"#]],
        );
    }

    #[test]
    fn incomplete_steps() {
        check(
            "step A$0 runs (x = 1\nstep B runs Q (y = A.outs[\"o\"]",
            expect![[r#"
                A
                ```easyflow
                step A
                ```
                ---
                level 0 · 1 instance

                **parameters** `x`

                **depends on** none

                **dependents** `B` (data)"#]],
        );
    }

    #[test]
    fn required_files() {
        check(
            FLOW.replace("Comp$0ute", "Compute")
                .replace("samples,", "sam$0ples,")
                .as_str(),
            expect![[r#"
                samples
                ```easyflow
                require samples
                ```
                ---
                required file: an input bound to a real file when the flow is launched

                **used by** `Load` (`source`, `x`) — 2 uses in 1 step"#]],
        );
        check(
            "require a, unused$0;\nstep A runs P (x = a);\n",
            expect![[r#"
                unused
                ```easyflow
                require unused
                ```
                ---
                required file: an input bound to a real file when the flow is launched

                **used by** no step"#]],
        );
    }

    /// The documentation comment above a step or a `require` line, on the
    /// step's name, on a reference to it, and on a required file's uses.
    #[test]
    fn documentation_comments() {
        const DOCUMENTED: &str = "// The samples.\nrequire samples;\n// Reads them.\n// easyflow: allow(W0208)\n[priority = @high]\nstep Load runs Loader.Read (source = samples);\nstep Sum runs P (x = Load);\n";
        check(
            &DOCUMENTED.replace("step Load", "step Lo$0ad"),
            expect![[r#"
                Load
                ```easyflow
                [priority = @high]
                step Load runs Loader.Read
                ```
                ---
                Reads them.

                level 0 · 1 instance

                **parameters** `source`

                **depends on** none

                **dependents** `Sum` (data)"#]],
        );
        // On a reference: the same.
        let markdown = |text: &str| {
            let f = fixture(text);
            hover(&f.db, f.file, f.offset).map(|h| h.markdown)
        };
        assert_eq!(
            markdown(&DOCUMENTED.replace("x = Load", "x = Lo$0ad")),
            markdown(&DOCUMENTED.replace("step Load", "step Lo$0ad"))
        );
        check(
            &DOCUMENTED.replace("source = samples", "source = sam$0ples"),
            expect![[r#"
                samples
                ```easyflow
                require samples
                ```
                ---
                The samples.

                required file: an input bound to a real file when the flow is launched

                **used by** `Load` (`source`) — 1 use in 1 step"#]],
        );
        // No comment: nothing between the header and the facts.
        check(
            &DOCUMENTED.replace("step Sum", "step S$0um"),
            expect![[r#"
                Sum
                ```easyflow
                step Sum runs P
                ```
                ---
                level 1 · 1 instance

                **parameters** `x`

                **depends on** `Load` (data)

                **dependents** none"#]],
        );
    }

    #[test]
    fn keywords() {
        let hovered = |text: &str| {
            let f = fixture(text);
            hover(&f.db, f.file, f.offset).map(|h| f.text[h.range].to_string())
        };
        for (text, word) in [
            ("st$0ep A runs P ();", "step"),
            ("step A ru$0ns P ();", "runs"),
            ("step A runs P af$0ter B ();\nstep B runs Q ();", "after"),
            ("step A runs P on$0 B ();\nstep B runs Q ();", "on"),
            ("$0require a;", "require"),
            ("step A runs P (x = $0sweep [1]);", "sweep"),
            ("step A runs P (x = true$0);", "true"),
            ("step A runs P (app: x = 1, exec$0: y = 2);", "exec"),
            ("step A runs P (ap$0p: x = 1);", "app"),
            ("[fl$0ow:name = \"n\"]", "flow"),
            ("$0~step A runs P ();", "~"),
            ("~step A runs P (x <$0- B);\nstep B runs Q ();", "<-"),
            ("step A runs P () p$0ost code ruby\n  x\ncode end;", "post"),
            (
                "step A runs P () pre code python\n  x\n  code e$0nd;",
                "code end",
            ),
            (
                "step A runs P () pre co$0de python\n  x\ncode end;",
                "code python",
            ),
        ] {
            assert_eq!(hovered(text).as_deref(), Some(word), "{text}");
        }
        // Inside the embedded code, in strings, punctuation, whitespace: nothing.
        for text in [
            "step A runs P () pre code python\n  pri$0nt(1)\ncode end;",
            "step A runs P (x = \"te$0xt\");",
            "step A runs P ($0);",
            "step A runs P ();\n$0\n",
            "// comm$0ent\n",
            "step A runs P (x = Unkn$0own);",
        ] {
            assert_eq!(hovered(text), None, "{text}");
        }
        check(
            "step A runs P (x = 1) pre code python\n  x\n  code e$0nd;",
            expect![[r#"
                code end
                ```easyflow
                code python
                …
                code end
                ```
                ---
                A code block: embedded pre- or post-processing code in the language named after `code`, kept verbatim up to the first line that starts with `code end`. The platform runs it; the language server does not read it, so references inside it create no dependencies."#]],
        );
        check(
            "step A runs P (x = 1) af$0ter B;",
            expect![[r#"
                after
                ```easyflow
                step B runs P after A, C (…)
                ```
                ---
                Control dependencies: the step runs after the listed steps, even when no data passes between them. Each name must be a step of this file."#]],
        );
    }

    #[test]
    fn attributes_and_constants() {
        check(
            "[flow:prio$0rity = @high]",
            expect![[r#"
                priority
                ```easyflow
                [flow:priority = @low | @normal | @high]
                ```
                ---
                flow attribute: the workflow's scheduling priority; a step's own `priority` overrides it."#]],
        );
        check(
            "[requ$0ires = \"GPU\"]\nstep A runs P ();",
            expect![[r#"
                requires
                ```easyflow
                [requires = "compute+GPU"]
                ```
                ---
                step attribute: the capabilities a worker must have to run the step: a capability set in the topology's syntax, or a list of names `["compute", "GPU"]`. Checked against the project's topology."#]],
        );
        check(
            "[prority$0 = @high]\nstep A runs P ();",
            expect![[r#"
                prority
                unknown step attribute `prority`; known: `priority`, `mode`, `requires`, `memory`"#]],
        );
        check(
            "[mode = @urg$0ent]\nstep A runs P ();",
            expect![[r#"
                @urgent
                ```easyflow
                @urgent
                ```
                ---
                `mode` value: urgent execution: the platform starts the work as soon as it can."#]],
        );
        check(
            "[flow:priority = @urgent$0]",
            expect![[r#"
                @urgent
                ```easyflow
                @urgent
                ```
                ---
                not a `priority` value known to this server; known: `@low`, `@normal`, `@high`"#]],
        );
        check(
            "step A runs P (x = @norm$0al);",
            expect![[r#"
                @normal
                ```easyflow
                @normal
                ```
                ---
                a constant predefined by the environment

                as a `priority` value: the default priority.

                as a `mode` value: the default execution mode."#]],
        );
    }

    #[test]
    fn members() {
        check(
            "step A runs P ();\nstep B runs Q (x = A.Result.ou$0ts);",
            expect![[r#"
                outs
                ```easyflow
                Step.outs["file"]
                ```
                ---
                The step's output files, indexed by file name: a File."#]],
        );
        check(
            "step A runs P ();\nstep B runs Q (x = A.Res$0ult.outs);",
            expect![[r#"
                Result
                ```easyflow
                Step.Result.outs
                ```
                ---
                The step's result object; its `outs` are the step's output files."#]],
        );
    }

    #[test]
    fn capabilities() {
        let text = "[requires = \"compute+G$0PU\"]\nstep A runs P ();";
        check_with(
            text,
            Some(TOPOLOGY),
            expect![[r#"
                GPU
                capability `GPU`

                ---
                provided by `compute+GPU` (2 per node × 4 nodes, 2 GiB)"#]],
        );
        check_with(
            "[requires = [\"comp$0ute\", \"GPU\"]]\nstep A runs P ();",
            Some(TOPOLOGY),
            expect![[r#"
                compute
                capability `compute`

                ---
                provided by `compute+CPU` (24 per node, 1 GiB), `compute+GPU` (2 per node × 4 nodes, 2 GiB)"#]],
        );
        check_with(
            "[requires = \"FPGA$0\"]\nstep A runs P ();",
            Some(TOPOLOGY),
            expect![[r#"
                FPGA
                capability `FPGA`

                ---
                no worker type of the topology provides `FPGA`"#]],
        );
        check(
            text,
            expect![[r#"
                GPU
                capability `GPU`

                ---
                no topology found"#]],
        );
        // Not a `requires` value, or on the `+`: nothing.
        check(
            "[memory = \"1G$0iB\"]\nstep A runs P ();",
            expect!["no hover"],
        );
        check(
            "[requires = \"compute $0+ GPU\"]\nstep A runs P ();",
            expect!["no hover"],
        );
        // On the opening quote: no word under the cursor (the hover of the
        // first word covered a range beside the cursor).
        check(
            "[requires = $0\"compute+GPU\"]\nstep A runs P ();",
            expect!["no hover"],
        );
    }

    #[test]
    fn long_lists_are_cut() {
        let mut text = String::from("step Ro$0ot runs P ();\n");
        for i in 0..20 {
            text.push_str(&format!("step S{i} runs P (x = Root);\n"));
        }
        let f = fixture(&text);
        let markdown = hover(&f.db, f.file, f.offset).unwrap().markdown;
        assert!(markdown.ends_with("`S11` (data) and 8 more"), "{markdown}");
    }

    #[test]
    fn offsets_at_the_edges() {
        let f = fixture("step A runs P ();");
        let end = TextSize::of(f.text.as_str());
        assert!(hover(&f.db, f.file, end + TextSize::from(5)).is_none());
        assert!(hover(&f.db, f.file, end).is_none());
        assert!(hover(&f.db, f.file, TextSize::from(0)).is_some());
        let f = fixture("");
        assert!(hover(&f.db, f.file, TextSize::from(0)).is_none());
    }
}
