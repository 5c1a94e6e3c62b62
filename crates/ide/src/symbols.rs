//! Document symbols (the outline of one flow) and workspace symbols (the
//! steps of every flow, fuzzy matched).
//!
//! Both read the analysis' per-step anchors and summaries rather than the
//! tree: a step's summary is computed once and reused by every feature, and
//! the workspace search runs over many large files.

use std::path::Path;

use easyflow_db::diagnostics::Anchor;
use easyflow_db::items::Sweep;
use easyflow_db::{Database, Db, SourceFile, StepId, file_outline, item_index, parse};
use easyflow_diagnostics::TextRange;
use easyflow_syntax::SyntaxKind;
use easyflow_syntax::value::LiteralValue;

use crate::defs::range_of;

/// What a symbol is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// `step Name …`
    Step,
    /// `~step Name …`
    LongRunningStep,
    /// A name of a `require` statement.
    File,
    /// `[flow:key = value]`
    FlowAttribute,
    /// A parameter of a step, or of a package in a catalog.
    Parameter,
    /// A `[[package]]` of a catalog.
    Package,
    /// A `[[package.output]]` of a catalog.
    Output,
    /// A worker description of a topology.
    WorkerType,
}

/// One entry of a document's outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentSymbol {
    pub name: String,
    /// A short description: a step's package, a parameter's or an
    /// attribute's value (on one line, shortened).
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// The whole construct.
    pub range: TextRange,
    /// Its name, inside `range`.
    pub selection_range: TextRange,
    pub children: Vec<DocumentSymbol>,
}

/// The longest detail shown, in characters (an ellipsis ends a longer one).
const MAX_DETAIL: usize = 60;

/// The outline of a flow, in text order: flow attributes, required files and
/// steps, each step with its parameters as children. Nameless (broken)
/// items are left out.
pub fn document_symbols(db: &dyn Db, file: SourceFile) -> Vec<DocumentSymbol> {
    let text = file.text(db);
    let mut symbols = Vec::new();

    // Flow attributes: few, found through each chunk's items that are not
    // steps, without a walk over the steps.
    for node in parse(db, file).non_step_items() {
        if node.kind() != SyntaxKind::FLOW_ATTRIBUTE {
            continue;
        }
        let Some(key) = node.child_nodes().find(|n| n.kind() == SyntaxKind::NAME) else {
            continue;
        };
        let Some(ident) = key
            .first_child_token()
            .filter(|t| t.kind == SyntaxKind::IDENT)
        else {
            continue;
        };
        let value = node
            .child_nodes()
            .find(|n| is_expression(n.kind()))
            .map(|v| abbreviate(&text.slice(v.range())));
        symbols.push(DocumentSymbol {
            name: ident.text.to_string(),
            detail: value,
            kind: SymbolKind::FlowAttribute,
            range: node.range(),
            selection_range: ident.range,
            children: Vec::new(),
        });
    }

    let outline = file_outline(db, file);
    for entry in &outline.requires {
        if entry.name.is_empty() {
            continue;
        }
        symbols.push(DocumentSymbol {
            name: entry.name.clone(),
            detail: None,
            kind: SymbolKind::File,
            range: entry.range,
            selection_range: entry.range,
            children: Vec::new(),
        });
    }

    for (_, outline_step) in outline.steps(db) {
        let (summary, anchors) = (outline_step.summary(db), outline_step.anchors(db));
        let (Some(name), Some(name_range)) = (&summary.name, anchors.name) else {
            continue;
        };
        let shift = |range: TextRange| range + outline_step.offset;
        let range = TextRange::at(outline_step.offset, outline_step.green(db).text_len());
        let children = summary
            .params
            .iter()
            .zip(&anchors.params)
            .filter_map(|(param, param_anchors)| {
                let name = param.name.clone()?;
                let name_range = shift(param_anchors.name?);
                let value_range = param_anchors.value.map(shift);
                let detail = value_range.map(|v| {
                    let value = abbreviate(&text.slice(v));
                    match (param.stream, param.sweep()) {
                        (true, _) => format!("<- {value}"),
                        (false, Sweep::No) => value,
                        (false, _) => format!("sweep {value}"),
                    }
                });
                Some(DocumentSymbol {
                    name: name.to_string(),
                    detail,
                    kind: SymbolKind::Parameter,
                    range: value_range.map_or(name_range, |v| name_range.cover(v)),
                    selection_range: name_range,
                    children: Vec::new(),
                })
            })
            .collect();
        symbols.push(DocumentSymbol {
            name: name.to_string(),
            detail: summary.package.as_deref().map(str::to_string),
            kind: if summary.long_running {
                SymbolKind::LongRunningStep
            } else {
                SymbolKind::Step
            },
            range,
            selection_range: shift(name_range),
            children,
        });
    }

    symbols.sort_by_key(|s| s.range.start());
    symbols
}

/// A step found by a workspace search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceSymbol {
    pub file: SourceFile,
    pub name: String,
    pub kind: SymbolKind,
    /// The step's name.
    pub range: TextRange,
    /// The flow it belongs to: its `[flow:name = "…"]`, else the file's name
    /// without extension.
    pub container: Option<String>,
}

/// What a workspace search knows of one flow: its named steps (name, kind,
/// the name's range) and the flow's name. Plain data, so a host can keep it
/// for a flow whose analysis it does not keep (a closed file), with the
/// ranges in whatever form it shows them (`R`: byte ranges here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowSymbols<R = TextRange> {
    /// Its `[flow:name = "…"]`, else the file's name without extension.
    pub container: Option<String>,
    pub steps: Vec<StepSymbol<R>>,
}

/// A named step of a [`FlowSymbols`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepSymbol<R = TextRange> {
    pub name: String,
    pub kind: SymbolKind,
    /// The step's name.
    pub range: R,
    /// The compound package name after `runs`, and its range (for the
    /// package's references from a catalog).
    pub package: Option<(String, R)>,
}

impl<R> FlowSymbols<R> {
    /// The same symbols with each range converted by `f`.
    pub fn map_ranges<S>(self, mut f: impl FnMut(R) -> S) -> FlowSymbols<S> {
        FlowSymbols {
            container: self.container,
            steps: self
                .steps
                .into_iter()
                .map(|step| StepSymbol {
                    name: step.name,
                    kind: step.kind,
                    range: f(step.range),
                    package: step.package.map(|(name, range)| (name, f(range))),
                })
                .collect(),
        }
    }
}

/// The named steps of a flow, in text order, for workspace searches.
pub fn flow_symbols(db: &dyn Db, file: SourceFile) -> FlowSymbols {
    let index = item_index(db, file);
    let steps = index
        .steps
        .iter()
        .enumerate()
        .filter_map(|(i, step)| {
            let name = step.name.as_deref()?;
            let range = range_of(db, file, Anchor::StepName(StepId(i as u32)))?;
            let package = step.package.as_deref().and_then(|package| {
                let range = range_of(db, file, Anchor::Package(StepId(i as u32)))?;
                Some((package.to_string(), range))
            });
            Some(StepSymbol {
                name: name.to_string(),
                kind: if step.long_running {
                    SymbolKind::LongRunningStep
                } else {
                    SymbolKind::Step
                },
                range,
                package,
            })
        })
        .collect();
    FlowSymbols {
        container: flow_name(db, file),
        steps,
    }
}

/// [`flow_symbols`] of a flow that no host analyses (a closed file): it is
/// analysed on a database of its own, dropped before returning, so nothing
/// of its trees and analyses stays in memory.
pub fn flow_symbols_of_text(path: &Path, text: &str) -> FlowSymbols {
    let db = Database::default();
    let file = SourceFile::new(&db, path.to_path_buf(), text.into());
    flow_symbols(&db, file)
}

/// How well a name matches a query: lower is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum MatchTier {
    Exact,
    Prefix,
    Subsequence,
}

/// Matches `name` against a lowercased query, ignoring case: the query's
/// characters must appear in the name in order.
fn match_tier(name: &str, query: &[char]) -> Option<MatchTier> {
    let mut wanted = query.iter().peekable();
    let mut prefix = true;
    let mut matched = 0;
    for c in name.chars() {
        let Some(&&next) = wanted.peek() else { break };
        if c.to_lowercase().eq(std::iter::once(next)) {
            wanted.next();
            matched += 1;
        } else if matched < query.len() {
            prefix = false;
        }
    }
    if wanted.peek().is_some() {
        return None;
    }
    Some(if prefix && matched == name.chars().count() {
        MatchTier::Exact
    } else if prefix {
        MatchTier::Prefix
    } else {
        MatchTier::Subsequence
    })
}

/// The steps of `flows` whose names match `query` (a case-insensitive
/// subsequence), best first: exact matches, then prefixes, then other
/// subsequences; within each, shorter names first. At most `limit`
/// results, each with the index of its flow in `flows`. An empty query
/// matches every step.
pub fn search_symbols<'a, R>(
    flows: &[&'a FlowSymbols<R>],
    query: &str,
    limit: usize,
) -> Vec<(usize, &'a StepSymbol<R>)> {
    let query: Vec<char> = query.trim().chars().flat_map(char::to_lowercase).collect();
    // (tier, length, case differs from the query, name, flow, step)
    let mut candidates: Vec<(MatchTier, usize, bool, &str, usize, usize)> = Vec::new();
    for (f, flow) in flows.iter().enumerate() {
        for (i, step) in flow.steps.iter().enumerate() {
            let name = step.name.as_str();
            if let Some(tier) = match_tier(name, &query) {
                let case_differs =
                    tier == MatchTier::Exact && !name.chars().eq(query.iter().copied());
                candidates.push((tier, name.len(), case_differs, name, f, i));
            }
        }
    }
    if candidates.len() > limit {
        if limit == 0 {
            return Vec::new();
        }
        candidates.select_nth_unstable(limit - 1);
        candidates.truncate(limit);
    }
    candidates.sort_unstable();
    candidates
        .into_iter()
        .map(|(_, _, _, _, f, i)| (f, &flows[f].steps[i]))
        .collect()
}

/// The steps of every flow of `files` that match `query`, as
/// [`search_symbols`] ranks them.
pub fn workspace_symbols(
    db: &dyn Db,
    files: &[SourceFile],
    query: &str,
    limit: usize,
) -> Vec<WorkspaceSymbol> {
    let flows: Vec<FlowSymbols> = files.iter().map(|&file| flow_symbols(db, file)).collect();
    let flows: Vec<&FlowSymbols> = flows.iter().collect();
    search_symbols(&flows, query, limit)
        .into_iter()
        .map(|(f, step)| WorkspaceSymbol {
            file: files[f],
            name: step.name.clone(),
            kind: step.kind,
            range: step.range,
            container: flows[f].container.clone(),
        })
        .collect()
}

/// The flow's `[flow:name = "…"]` (the last one wins), else the file's stem.
fn flow_name(db: &dyn Db, file: SourceFile) -> Option<String> {
    let named = file_outline(db, file)
        .flow_attributes
        .iter()
        .rev()
        .find_map(
            |attribute| match (&attribute.key, attribute.value.literal()) {
                (Some((key, _)), Some(LiteralValue::String(name))) if key == "name" => {
                    Some(name.clone())
                }
                _ => None,
            },
        );
    named.or_else(|| {
        file.path(db)
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
    })
}

fn is_expression(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        SyntaxKind::LITERAL | SyntaxKind::LIST_EXPR | SyntaxKind::REF_EXPR
    )
}

/// `text` on one line (whitespace runs as one space), shortened to
/// [`MAX_DETAIL`] characters.
fn abbreviate(text: &str) -> String {
    let mut out = String::new();
    for (n, word) in text.split_whitespace().enumerate() {
        if n > 0 {
            out.push(' ');
        }
        out.push_str(word);
        if out.len() > MAX_DETAIL * 4 {
            break;
        }
    }
    if out.chars().count() > MAX_DETAIL {
        out = out.chars().take(MAX_DETAIL - 1).collect();
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use easyflow_db::Database;
    use expect_test::{Expect, expect};

    use super::*;
    use crate::fixture::fixture;

    fn render(text: &str, symbols: &[DocumentSymbol], depth: usize, out: &mut String) {
        for symbol in symbols {
            assert!(
                symbol.range.contains_range(symbol.selection_range),
                "{symbol:?}"
            );
            let _ = writeln!(
                out,
                "{:indent$}{:?} {} {:?} @ {:?} sel {:?}",
                "",
                symbol.kind,
                symbol.name,
                symbol.detail,
                &text[symbol.range],
                &text[symbol.selection_range],
                indent = depth * 2
            );
            render(text, &symbol.children, depth + 1, out);
        }
    }

    fn check(text: &str, expect: Expect) {
        let f = fixture(text);
        let mut out = String::new();
        render(&f.text, &document_symbols(&f.db, f.file), 0, &mut out);
        expect.assert_eq(&out);
    }

    #[test]
    fn outline_of_a_flow() {
        check(
            r#"[flow:name = "demo"]
[flow:priority = @high]
require data, model;
[priority = @low]
step Load runs IO.Read (path = data, :mode = "fast");
~step Watch runs Stream.Tail after Load
(
  in <- Load.outs["log"],
  exec: sizes = sweep [1,
     2, 3]
)
post code ruby
  puts 1
code end
require late;
"#,
            expect![[r#"
                FlowAttribute name Some("\"demo\"") @ "[flow:name = \"demo\"]" sel "name"
                FlowAttribute priority Some("@high") @ "[flow:priority = @high]" sel "priority"
                File data None @ "data" sel "data"
                File model None @ "model" sel "model"
                Step Load Some("IO.Read") @ "[priority = @low]\nstep Load runs IO.Read (path = data, :mode = \"fast\");" sel "Load"
                  Parameter path Some("data") @ "path = data" sel "path"
                  Parameter mode Some("\"fast\"") @ "mode = \"fast\"" sel "mode"
                LongRunningStep Watch Some("Stream.Tail") @ "~step Watch runs Stream.Tail after Load\n(\n  in <- Load.outs[\"log\"],\n  exec: sizes = sweep [1,\n     2, 3]\n)\npost code ruby\n  puts 1\ncode end" sel "Watch"
                  Parameter in Some("<- Load.outs[\"log\"]") @ "in <- Load.outs[\"log\"]" sel "in"
                  Parameter sizes Some("sweep [1, 2, 3]") @ "sizes = sweep [1,\n     2, 3]" sel "sizes"
                File late None @ "late" sel "late"
            "#]],
        );
    }

    #[test]
    fn broken_items_without_names_are_left_out() {
        check(
            "[flow: = 1]\nstep runs P (x = 1);\nstep B runs (= 2, y = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);\n",
            expect![[r#"
                Step B None @ "step B runs (= 2, y = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);" sel "B"
                  Parameter y Some("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,…") @ "y = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]" sel "y"
            "#]],
        );
    }

    #[test]
    fn empty_file_has_no_symbols() {
        check("", expect![[""]]);
        check("// only a comment\n", expect![[""]]);
    }

    fn search(db: &Database, files: &[SourceFile], query: &str, limit: usize) -> String {
        let mut out = String::new();
        for symbol in workspace_symbols(db, files, query, limit) {
            let _ = writeln!(
                out,
                "{:?} {} in {:?} ({}) @ {:?}",
                symbol.kind,
                symbol.name,
                symbol.container,
                symbol.file.path(db).display(),
                symbol.file.text(db).slice(symbol.range),
            );
        }
        out
    }

    fn workspace() -> (Database, Vec<SourceFile>) {
        let db = Database::default();
        let a = SourceFile::new(
            &db,
            "flows/chem.flow".into(),
            "[flow:name = \"Chemistry\"]\nstep LoadData runs P ();\nstep load runs P ();\n~step Loader runs P ();\nstep Plot runs P (x = load);\n".into(),
        );
        let b = SourceFile::new(
            &db,
            "flows/other.flow".into(),
            "step ListOfAllDatasets runs P ();\nstep Load runs Q ();\nstep broken runs\n".into(),
        );
        (db, vec![a, b])
    }

    #[test]
    fn workspace_symbols_rank_exact_then_prefix_then_subsequence() {
        let (db, files) = workspace();
        expect![[r#"
            Step load in Some("Chemistry") (flows/chem.flow) @ "load"
            Step Load in Some("other") (flows/other.flow) @ "Load"
            LongRunningStep Loader in Some("Chemistry") (flows/chem.flow) @ "Loader"
            Step LoadData in Some("Chemistry") (flows/chem.flow) @ "LoadData"
            Step ListOfAllDatasets in Some("other") (flows/other.flow) @ "ListOfAllDatasets"
        "#]]
        .assert_eq(&search(&db, &files, "load", 100));
        expect![[r#"
            Step LoadData in Some("Chemistry") (flows/chem.flow) @ "LoadData"
            Step ListOfAllDatasets in Some("other") (flows/other.flow) @ "ListOfAllDatasets"
        "#]]
        .assert_eq(&search(&db, &files, "LDAT", 100));
        expect![[r#"
            Step load in Some("Chemistry") (flows/chem.flow) @ "load"
            Step Load in Some("other") (flows/other.flow) @ "Load"
        "#]]
        .assert_eq(&search(&db, &files, "load", 2));
        expect![[""]].assert_eq(&search(&db, &files, "xyz", 100));
        expect![[""]].assert_eq(&search(&db, &files, "load", 0));
    }

    #[test]
    fn an_empty_query_lists_every_named_step() {
        let (db, files) = workspace();
        expect![[r#"
            Step Load in Some("other") (flows/other.flow) @ "Load"
            Step Plot in Some("Chemistry") (flows/chem.flow) @ "Plot"
            Step load in Some("Chemistry") (flows/chem.flow) @ "load"
            LongRunningStep Loader in Some("Chemistry") (flows/chem.flow) @ "Loader"
            Step broken in Some("other") (flows/other.flow) @ "broken"
            Step LoadData in Some("Chemistry") (flows/chem.flow) @ "LoadData"
            Step ListOfAllDatasets in Some("other") (flows/other.flow) @ "ListOfAllDatasets"
        "#]]
        .assert_eq(&search(&db, &files, "", 100));
    }

    /// A closed flow's symbols, analysed on a database of their own, are
    /// those of the same flow in a host's analysis.
    #[test]
    fn flow_symbols_of_a_text_equal_those_of_the_analysis() {
        let (db, files) = workspace();
        for file in files {
            let alone = flow_symbols_of_text(file.path(&db), &file.text(&db).whole());
            assert_eq!(alone, flow_symbols(&db, file));
            assert!(!alone.steps.is_empty());
        }
    }

    #[test]
    fn match_tiers() {
        let q = |s: &str| s.chars().flat_map(char::to_lowercase).collect::<Vec<_>>();
        assert_eq!(match_tier("Load", &q("load")), Some(MatchTier::Exact));
        assert_eq!(match_tier("Loader", &q("LOAD")), Some(MatchTier::Prefix));
        assert_eq!(
            match_tier("aLoad", &q("load")),
            Some(MatchTier::Subsequence)
        );
        assert_eq!(
            match_tier("LxoAD", &q("load")),
            Some(MatchTier::Subsequence)
        );
        assert_eq!(match_tier("Lod", &q("load")), None);
        assert_eq!(match_tier("Load", &q("шаг")), None);
    }
}
