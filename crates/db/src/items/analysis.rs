//! Layer 3: the steps of one chunk, each analysed on its own from its
//! tree: a position-free [`StepSummary`] and the diagnostics that need
//! nothing outside the step ([`chunk_analysis`], which every check keeps
//! for every step); and, only when asked, the relative ranges of its parts
//! ([`StepAnchors`], [`chunk_anchors`]: what the IDE's requests and the
//! placing of anchored diagnostics read, so a cold check of a valid flow
//! never computes them).

use std::sync::Arc;

use easyflow_diagnostics::{Diagnostic, TextRange, TextSize};
use easyflow_syntax::ast::{self, AstNode, TreeNode};
use easyflow_syntax::green::{GreenRef, GreenTokenRef};
use easyflow_syntax::value::{LiteralValue, Value, exact};
use easyflow_syntax::{GreenNodeData, StepMember, unescape};
use smol_str::SmolStr;

use super::outline::StepChunk;
use crate::Db;
use crate::attributes::check_step_attribute;
use crate::rules::steps as rules;

/// How a parameter varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sweep {
    No,
    /// `sweep [...]` with this many elements.
    List(u32),
    /// `sweep` before something that is not a list literal (E0403).
    NotAList,
}

/// A parameter: 32 bytes (a cold check keeps one per parameter of every
/// step), so its [`Sweep`] is kept in two parts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParamSummary {
    pub name: Option<SmolStr>,
    pub section: ast::SectionKind,
    /// Written with `<-`.
    pub stream: bool,
    swept: Swept,
    /// The elements of a swept list.
    list_len: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Swept {
    No,
    List,
    NotAList,
}

impl ParamSummary {
    pub fn sweep(&self) -> Sweep {
        match self.swept {
            Swept::No => Sweep::No,
            Swept::List => Sweep::List(self.list_len),
            Swept::NotAList => Sweep::NotAList,
        }
    }
}

/// A reference in a parameter value, at any depth.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReferenceSummary {
    /// Index into [`StepSummary::params`].
    pub param: u32,
    /// The first segment: what the reference resolves by.
    pub head: SmolStr,
    /// The names of the following segments (`outs`, `Result`, …).
    pub members: Members,
    /// The whole value of a `<-` parameter.
    pub stream_source: bool,
    /// The file named by `outs["x"]` in it (a step output), for W0806.
    pub output: Option<SmolStr>,
}

/// The member names of a reference, in order, kept as one string: each
/// name after a `.` (a name never holds one), so that the usual `.outs`
/// and `.Result.outs` are inline, not a list allocated per reference.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Members(SmolStr);

impl Members {
    fn of<'a>(names: impl IntoIterator<Item = &'a str>) -> Members {
        let mut joined = smol_str::SmolStrBuilder::new();
        for name in names {
            joined.push('.');
            joined.push_str(name);
        }
        Members(joined.finish())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The names, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + Clone + '_ {
        self.0.split('.').skip(1)
    }
}

/// One name of an `after` or `on` list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DependencySummary {
    pub name: SmolStr,
    pub via_on: bool,
}

/// Everything about a step that the analysis of the file needs, and nothing
/// that moves when text is edited elsewhere: no positions. A cold check
/// keeps one per step, so its lists are boxed slices of their exact length
/// and what few steps have (a `requires` or `memory`) is boxed apart.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct StepSummary {
    pub name: Option<SmolStr>,
    pub long_running: bool,
    pub package: Option<SmolStr>,
    pub dependencies: Box<[DependencySummary]>,
    pub params: Box<[ParamSummary]>,
    pub references: Box<[ReferenceSummary]>,
    /// Attribute keys and values, in order.
    pub attributes: Box<[(String, Value)]>,
    /// The product of the swept lists' lengths (1 when nothing is swept).
    pub instances: u64,
    /// `None` when it asks nothing (the default requirement).
    requirement: Option<Box<StepRequirement>>,
}

impl StepSummary {
    /// What the step asks of the topology (`requires`, `memory`).
    pub fn requirement(&self) -> &StepRequirement {
        static NOTHING: StepRequirement = StepRequirement {
            capabilities: Vec::new(),
            memory: 0,
            memory_text: None,
            malformed: false,
        };
        self.requirement.as_deref().unwrap_or(&NOTHING)
    }
}

/// A step's `requires` and `memory` attributes, read (topology.md §3).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct StepRequirement {
    /// The required capability names, in the order written.
    pub capabilities: Vec<String>,
    /// Working memory per instance, in bytes (0 when absent).
    pub memory: u64,
    /// The `memory` value as written, when it was a string with a unit.
    pub memory_text: Option<String>,
    /// A value was malformed (E0706): the fit of the step is not checked.
    pub malformed: bool,
}

/// Ranges of a step's parts, relative to the step's start; indices match
/// those of [`StepSummary`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StepAnchors {
    pub name: Option<TextRange>,
    pub dependencies: Box<[TextRange]>,
    pub params: Box<[ParamAnchors]>,
    pub references: Box<[ReferenceAnchors]>,
    pub attributes: Box<[AttributeAnchors]>,
    /// Each required capability, inside the `requires` value.
    pub capabilities: Box<[TextRange]>,
    pub requires_value: Option<TextRange>,
    pub memory_value: Option<TextRange>,
    /// The compound package name after `runs`.
    pub package: Option<TextRange>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParamAnchors {
    pub name: Option<TextRange>,
    pub value: Option<TextRange>,
    /// The elements of a list value.
    pub elements: Box<[TextRange]>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceAnchors {
    pub whole: TextRange,
    pub head: TextRange,
    pub members: Box<[TextRange]>,
    /// The index string of `outs["x"]`.
    pub output: Option<TextRange>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AttributeAnchors {
    pub key: Option<TextRange>,
    pub value: Option<TextRange>,
}

/// Layer 3's result for a chunk: its steps' summaries and their local
/// diagnostics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkAnalysis {
    /// The steps' summaries, shared with the item index.
    pub summaries: Arc<[StepSummary]>,
    /// The steps (indices in the chunk, in order) with diagnostics that
    /// need nothing outside the step (few), with those diagnostics at
    /// ranges relative to the step.
    pub local_diagnostics: Box<[(u32, Box<[Diagnostic]>)]>,
}

impl ChunkAnalysis {
    /// The local diagnostics of the chunk's step `index`.
    pub fn local_diagnostics_of(&self, index: u32) -> &[Diagnostic] {
        self.local_diagnostics
            .binary_search_by_key(&index, |(step, _)| *step)
            .map_or(&[], |at| &self.local_diagnostics[at].1)
    }
}

/// Layer 3: the steps of one chunk, each on its own from its tree. A step's
/// parse depends only on its own tokens, and it ends where the next
/// top-level item (or the end) begins, so its tree is all it needs.
#[salsa::tracked(returns(ref))]
pub fn chunk_analysis<'db>(db: &'db dyn Db, chunk: StepChunk<'db>) -> ChunkAnalysis {
    let syntax = chunk.syntax(db);
    let mut walker = StepWalker::default();
    let mut summaries = Vec::with_capacity(syntax.step_count());
    let mut local_diagnostics = Vec::new();
    for (index, step) in syntax.steps().enumerate() {
        walker.walk_step(step.green);
        summaries.push(walker.take_summary());
        if !walker.diagnostics.is_empty() {
            local_diagnostics.push((index as u32, exact_box(&mut walker.diagnostics)));
        }
    }
    ChunkAnalysis {
        summaries: summaries.into(),
        local_diagnostics: local_diagnostics.into(),
    }
}

/// The anchors of each step of a chunk: for the IDE's requests and for
/// placing diagnostics, not for a check (so a cold check of a valid flow,
/// which keeps every step's summary, keeps no step's ranges).
#[salsa::tracked(returns(ref))]
pub fn chunk_anchors<'db>(db: &'db dyn Db, chunk: StepChunk<'db>) -> Box<[StepAnchors]> {
    let mut walker = StepWalker::with_anchors();
    chunk
        .syntax(db)
        .steps()
        .map(|step| {
            walker.walk_step(step.green);
            walker.take_anchors()
        })
        .collect()
}

/// One step's anchors, from its green tree (rooted at the step itself, so
/// every range is relative to its start): [`chunk_anchors`] of one step,
/// for a query that already holds the step's tree and needs them seldom.
pub fn step_anchors(green: &GreenNodeData) -> StepAnchors {
    let mut walker = StepWalker::with_anchors();
    walker.walk_step(green);
    walker.take_anchors()
}

/// The items of `list` in a boxed slice of exactly their length, leaving
/// `list` empty with its capacity (reused by the next step's walk): a copy,
/// for the reason [`exact`] gives.
fn exact_box<T>(list: &mut Vec<T>) -> Box<[T]> {
    list.drain(..).collect()
}

/// The walk of a chunk's steps, one after another. What it collects of a
/// step goes into lists reused from step to step, and each step's result
/// takes copies of exactly their length: the lists grow while walking, and
/// a cold check keeps every step's result.
#[derive(Default)]
struct StepWalker {
    name: Option<SmolStr>,
    long_running: bool,
    package: Option<SmolStr>,
    dependencies: Vec<DependencySummary>,
    params: Vec<ParamSummary>,
    references: Vec<ReferenceSummary>,
    attributes: Vec<(String, Value)>,
    instances: u64,
    requirement: StepRequirement,
    diagnostics: Vec<Diagnostic>,
    /// The ranges, when asked for ([`chunk_anchors`]).
    anchors: Option<AnchorLists>,
}

/// [`StepAnchors`] while walking.
#[derive(Default)]
struct AnchorLists {
    name: Option<TextRange>,
    dependencies: Vec<TextRange>,
    params: Vec<ParamAnchors>,
    references: Vec<ReferenceAnchors>,
    attributes: Vec<AttributeAnchors>,
    capabilities: Vec<TextRange>,
    requires_value: Option<TextRange>,
    memory_value: Option<TextRange>,
    package: Option<TextRange>,
}

impl AnchorLists {
    /// Empty, with the lists' capacity kept.
    fn clear(&mut self) {
        self.name = None;
        self.dependencies.clear();
        self.params.clear();
        self.references.clear();
        self.attributes.clear();
        self.capabilities.clear();
        self.requires_value = None;
        self.memory_value = None;
        self.package = None;
    }
}

impl StepWalker {
    fn with_anchors() -> StepWalker {
        StepWalker {
            anchors: Some(AnchorLists::default()),
            ..StepWalker::default()
        }
    }

    /// Walks one step, after forgetting the previous one (what was not
    /// taken of it).
    fn walk_step(&mut self, green: &GreenNodeData) {
        self.name = None;
        self.long_running = false;
        self.package = None;
        self.dependencies.clear();
        self.params.clear();
        self.references.clear();
        self.attributes.clear();
        self.instances = 1;
        self.requirement = StepRequirement::default();
        self.diagnostics.clear();
        if let Some(anchors) = &mut self.anchors {
            anchors.clear();
        }
        if let Some(step) = ast::Step::cast(GreenRef::root(green)) {
            self.walk(step);
        }
    }

    /// The walked step's summary.
    fn take_summary(&mut self) -> StepSummary {
        let mut requirement = std::mem::take(&mut self.requirement);
        requirement.capabilities = exact(requirement.capabilities);
        StepSummary {
            name: self.name.take(),
            long_running: self.long_running,
            package: self.package.take(),
            dependencies: exact_box(&mut self.dependencies),
            params: exact_box(&mut self.params),
            references: exact_box(&mut self.references),
            attributes: exact_box(&mut self.attributes),
            instances: self.instances,
            requirement: (requirement != StepRequirement::default()).then(|| Box::new(requirement)),
        }
    }

    /// The walked step's anchors (the walker must have been made
    /// [`StepWalker::with_anchors`]).
    fn take_anchors(&mut self) -> StepAnchors {
        let lists = self.anchors.get_or_insert_default();
        StepAnchors {
            name: lists.name.take(),
            dependencies: exact_box(&mut lists.dependencies),
            params: exact_box(&mut lists.params),
            references: exact_box(&mut lists.references),
            attributes: exact_box(&mut lists.attributes),
            capabilities: exact_box(&mut lists.capabilities),
            requires_value: lists.requires_value.take(),
            memory_value: lists.memory_value.take(),
            package: lists.package.take(),
        }
    }
}

/// The text of a name's identifier.
fn name_text(ident: Option<GreenTokenRef<'_>>) -> SmolStr {
    ident.map(|t| SmolStr::new(t.text)).unwrap_or_default()
}

/// The walk reads the green tree through the typed AST over [`GreenRef`]: it
/// runs for every step of a cold check, and red nodes would allocate for
/// every node and token visited.
impl StepWalker {
    fn walk(&mut self, step: ast::Step<GreenRef<'_>>) {
        self.long_running = step.is_long_running();
        for attribute in step.attributes() {
            self.attribute(attribute);
        }
        if let Some(name) = step.name() {
            self.name = Some(name_text(name.ident_token()));
            if let Some(anchors) = &mut self.anchors {
                anchors.name = Some(name.syntax().text_range());
            }
        }
        if let Some(package) = step.package() {
            let mut text = smol_str::SmolStrBuilder::new();
            let _ = package.write_text(&mut text);
            self.package = Some(text.finish());
            if let Some(anchors) = &mut self.anchors {
                anchors.package = Some(package.syntax().text_range());
            }
        }
        for clause in step.dependency_clauses() {
            let on = clause.on_clause();
            if let Some(on) = on.and_then(|on| on.on_token()) {
                self.diagnostics.push(rules::event_transition(on.range));
            }
            for name in clause.names() {
                self.dependency(name, on.is_some());
            }
        }
        for section in step.param_block().iter().flat_map(|block| block.sections()) {
            let kind = section.kind();
            for param in section.params() {
                self.param(param, kind);
            }
        }
        let mut seen_pre = false;
        let mut seen_post = false;
        for section in step.code_sections() {
            let Some(keyword) = section.keyword_token() else {
                continue;
            };
            let seen = match section.kind() {
                ast::CodeSectionKind::Pre => &mut seen_pre,
                ast::CodeSectionKind::Post => &mut seen_post,
            };
            if *seen {
                self.diagnostics
                    .push(rules::repeated_code_section(keyword.range, keyword.text));
            }
            *seen = true;
        }
    }

    fn attribute(&mut self, attribute: ast::Attribute<GreenRef<'_>>) {
        let key = attribute.key();
        let value_node = attribute.value();
        let value = Value::of(value_node);
        let anchors = AttributeAnchors {
            key: key.map(|k| k.syntax().text_range()),
            value: value_node.map(|v| v.syntax().text_range()),
        };
        if let Some(key) = &key {
            let key = key.text();
            if let Some(problem) = check_step_attribute(&key, &value) {
                let range = if problem.on_value {
                    anchors.value
                } else {
                    anchors.key
                };
                if let Some(range) = range {
                    self.diagnostics.push(problem.at(range));
                }
            }
            match key.as_str() {
                "requires" => self.requires(value_node),
                "memory" => self.memory(value_node, &value),
                _ => {}
            }
            self.attributes.push((key, value));
            if let Some(lists) = &mut self.anchors {
                lists.attributes.push(anchors);
            }
        }
    }

    fn malformed_requirement(&mut self, diagnostic: Diagnostic) {
        self.requirement.malformed = true;
        self.diagnostics.push(diagnostic);
    }

    /// `[requires = "a+b"]` or `[requires = ["a", "b"]]`.
    fn requires(&mut self, value: Option<ast::Expr<GreenRef<'_>>>) {
        let Some(value) = value else { return };
        let value_range = value.syntax().text_range();
        if let Some(anchors) = &mut self.anchors {
            anchors.requires_value = Some(value_range);
        }
        let strings: Vec<(ast::Literal<GreenRef<'_>>, TextRange)> = match value {
            ast::Expr::Literal(literal) if literal.kind() == Some(ast::LiteralKind::String) => {
                vec![(literal, value_range)]
            }
            ast::Expr::List(list) => {
                let mut strings = Vec::new();
                for element in list.elements() {
                    let range = element.syntax().text_range();
                    match element {
                        ast::Expr::Literal(literal)
                            if literal.kind() == Some(ast::LiteralKind::String) =>
                        {
                            strings.push((literal, range));
                        }
                        _ => {
                            return self.malformed_requirement(
                                rules::requires_element_not_a_string(range),
                            );
                        }
                    }
                }
                strings
            }
            _ => {
                return self
                    .malformed_requirement(rules::requires_not_a_capability_set(value_range));
            }
        };
        let in_list = matches!(value, ast::Expr::List(_));
        for (literal, range) in strings {
            let text = literal.string_value().unwrap_or_default();
            // Inner ranges map into the file only when the string is written
            // without escapes; otherwise the whole string is the place.
            let raw_len = literal.token().map_or(0, |t| t.text.len());
            let verbatim = raw_len == text.len() + 2;
            let place = |inner: TextRange| {
                if verbatim {
                    inner + range.start() + TextSize::from(1)
                } else {
                    range
                }
            };
            match easyflow_topology::parse_capability_set(&text) {
                Ok(capabilities) if in_list && capabilities.len() > 1 => {
                    return self.malformed_requirement(
                        rules::requires_element_with_several_capabilities(range, &text),
                    );
                }
                Ok(capabilities) => {
                    for capability in capabilities {
                        if let Some(anchors) = &mut self.anchors {
                            anchors.capabilities.push(place(capability.range));
                        }
                        self.requirement.capabilities.push(capability.name);
                    }
                }
                Err(error) => {
                    return self.malformed_requirement(rules::malformed_requires(
                        place(error.range),
                        &error.message,
                    ));
                }
            }
        }
    }

    /// `[memory = 1073741824]` or `[memory = "1GiB"]`.
    fn memory(&mut self, node: Option<ast::Expr<GreenRef<'_>>>, value: &Value) {
        let Some(node) = node else { return };
        let range = node.syntax().text_range();
        if let Some(anchors) = &mut self.anchors {
            anchors.memory_value = Some(range);
        }
        match value.literal() {
            Some(LiteralValue::Int(bytes)) if *bytes >= 0 => {
                self.requirement.memory = *bytes as u64
            }
            Some(LiteralValue::String(text)) => match easyflow_topology::parse_memory(text) {
                Ok(bytes) => {
                    self.requirement.memory = bytes;
                    self.requirement.memory_text = Some(text.clone());
                }
                Err(error) => {
                    self.malformed_requirement(rules::malformed_memory(range, &error.message))
                }
            },
            _ => self.malformed_requirement(rules::memory_not_a_size(range)),
        }
    }

    fn dependency(&mut self, name: ast::NameRef<GreenRef<'_>>, via_on: bool) {
        let text = name_text(name.ident_token());
        let range = name.syntax().text_range();
        if self.dependencies.iter().any(|d| d.name == text) {
            self.diagnostics
                .push(rules::step_listed_twice(range, &text));
        }
        self.dependencies
            .push(DependencySummary { name: text, via_on });
        if let Some(anchors) = &mut self.anchors {
            anchors.dependencies.push(range);
        }
    }

    fn param(&mut self, param: ast::Param<GreenRef<'_>>, section: ast::SectionKind) {
        let index = self.params.len() as u32;
        let name_node = param.name();
        let arrow = param.arrow_token().map(|token| token.range);
        let swept = param.is_sweep();
        let value = param.value();
        let name = name_node.map(|n| name_text(n.ident_token()));
        let name_range = name_node.map(|n| n.syntax().text_range());
        if let (Some(name), Some(range)) = (&name, name_range)
            && self.params.iter().any(|p| p.name.as_ref() == Some(name))
        {
            self.diagnostics
                .push(rules::parameter_given_twice(range, name));
        }
        let stream = arrow.is_some();
        if let Some(arrow) = arrow.filter(|_| !self.long_running) {
            self.diagnostics
                .push(rules::stream_outside_long_running_step(arrow));
        }
        if stream && let Some(value) = value.filter(|v| !matches!(v, ast::Expr::Ref(_))) {
            self.diagnostics.push(rules::stream_source_not_a_reference(
                value.syntax().text_range(),
            ));
        }
        let (sweep, list_len) = match value {
            Some(ast::Expr::List(list)) if swept => {
                let len = list.elements().count() as u32;
                if len == 0 {
                    self.diagnostics
                        .push(rules::sweep_over_empty_list(list.syntax().text_range()));
                }
                self.instances = self.instances.saturating_mul(u64::from(len));
                (Swept::List, len)
            }
            Some(other) if swept => {
                self.diagnostics
                    .push(rules::sweep_needs_a_list(other.syntax().text_range()));
                (Swept::NotAList, 0)
            }
            _ => (Swept::No, 0),
        };
        self.params.push(ParamSummary {
            name,
            section,
            stream,
            swept: sweep,
            list_len,
        });
        if let Some(anchors) = &mut self.anchors {
            let elements = match value {
                Some(ast::Expr::List(list)) => {
                    list.elements().map(|e| e.syntax().text_range()).collect()
                }
                _ => Box::default(),
            };
            anchors.params.push(ParamAnchors {
                name: name_range,
                value: value.map(|v| v.syntax().text_range()),
                elements,
            });
        }
        if let Some(value) = value {
            self.references(value, index, stream);
        }
    }

    /// Collects the references of an expression, at any depth (lists,
    /// indexers), in text order. Error nodes are not entered.
    fn references(&mut self, expr: ast::Expr<GreenRef<'_>>, param: u32, stream_source: bool) {
        match expr {
            ast::Expr::List(list) => {
                for element in list.elements() {
                    self.references(element, param, false);
                }
            }
            ast::Expr::Ref(reference) => {
                // A segment without a name holds a lexical error (`шаг.outs`),
                // already reported: the names after it mean nothing, so a
                // broken head is no reference and a broken member ends it.
                let mut names = reference.segments().map_while(|s| s.name_ref());
                if let Some(head) = names.next() {
                    let members = Members::of(
                        names
                            .clone()
                            .map(|m| m.ident_token().map_or("", |t| t.text)),
                    );
                    let output = output_index(&reference);
                    if let Some(anchors) = &mut self.anchors {
                        anchors.references.push(ReferenceAnchors {
                            whole: reference.syntax().text_range(),
                            head: head.syntax().text_range(),
                            members: names.map(|m| m.syntax().text_range()).collect(),
                            output: output.as_ref().map(|(_, range)| *range),
                        });
                    }
                    self.references.push(ReferenceSummary {
                        param,
                        head: name_text(head.ident_token()),
                        members,
                        stream_source,
                        output: output.map(|(name, _)| name),
                    });
                }
                for segment in reference.segments() {
                    if let Some(index) = segment.indexer().and_then(|indexer| indexer.expr()) {
                        self.references(index, param, false);
                    }
                }
            }
            ast::Expr::Literal(_) => {}
        }
    }
}

/// The file named by the string index of an `outs` segment (`A.outs["x"]`,
/// `A.Result.outs["x"]`), with the string's range.
fn output_index(reference: &ast::RefExpr<GreenRef<'_>>) -> Option<(SmolStr, TextRange)> {
    let outs = reference.segments().skip(1).find(|s| {
        s.name_ref()
            .and_then(|n| n.ident_token())
            .is_some_and(|ident| ident.text == StepMember::Outs.name())
    })?;
    match outs.indexer()?.expr()? {
        ast::Expr::Literal(literal) if literal.kind() == Some(ast::LiteralKind::String) => {
            let name = unescape(literal.token()?.text);
            Some((SmolStr::new(name), literal.syntax().text_range()))
        }
        _ => None,
    }
}

/// Each parameter's value of a step (its green tree), for the catalog
/// checks; indices match [`StepSummary::params`]. Not part of the step's
/// analysis: only a flow with a catalog needs them, and a cold check of
/// one without would keep a copy of every value.
pub fn param_values(step: &GreenNodeData) -> Vec<Value> {
    let Some(step) = ast::Step::cast(GreenRef::root(step)) else {
        return Vec::new();
    };
    step.param_block()
        .iter()
        .flat_map(|block| block.sections())
        .flat_map(|section| section.params())
        .map(|param| Value::of(param.value()))
        .collect()
}
