//! Layers 2–4: the file outline, the analysis of one step on its own, and the
//! position-free item index (the firewall).

use std::sync::Arc;

use easyflow_diagnostics::{Diagnostic, TextRange, TextSize};
use easyflow_syntax::ast::{self, AstNode};
use easyflow_syntax::green::{GreenElementRef, GreenRef};
use easyflow_syntax::{GreenNode, NodeOrToken, SyntaxKind, SyntaxNode};

use smol_str::SmolStr;

use crate::attributes::{Value, check_step_attribute};
use crate::rules::steps as rules;
use crate::{Db, SourceFile, parse};

/// One step's subtree, created by [`file_outline`]. Its identity is its
/// text, so salsa matches it to the previous revision's step with the same
/// text wherever it moved, and an unchanged step keeps its [`step_analysis`].
#[salsa::tracked(debug)]
pub struct StepNode<'db> {
    #[returns(ref)]
    pub syntax: StepSyntax,
}

/// A step's green tree, equal to another (and hashed) by the 128-bit hash of
/// its text: the same text always parses to the same step tree, and
/// comparing hashes is much cheaper than comparing trees.
#[derive(Debug, Clone)]
pub struct StepSyntax {
    text_hash: u128,
    pub green: GreenNode,
}

impl StepSyntax {
    pub fn new(text: &str, green: GreenNode) -> Self {
        StepSyntax {
            text_hash: xxhash_rust::xxh3::xxh3_128(text.as_bytes()),
            green,
        }
    }
}

impl PartialEq for StepSyntax {
    fn eq(&self, other: &Self) -> bool {
        self.text_hash == other.text_hash
    }
}

impl Eq for StepSyntax {}

impl std::hash::Hash for StepSyntax {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text_hash.hash(state);
    }
}

/// The position of a step among the file's steps (0-based, in text order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StepId(pub u32);

impl StepId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The top-level items of a file, with their offsets.
#[derive(Debug, Clone, PartialEq, Eq, salsa::SalsaValue)]
pub struct FileOutline<'db> {
    pub steps: Vec<OutlineStep<'db>>,
    /// Every name of every `require`, in order.
    pub requires: Vec<RequireEntry>,
    /// Identifiers in the unparsed rest of a broken `require` (`require a b;`):
    /// probably meant as names, so using them is no second problem.
    pub unparsed_requires: Vec<String>,
    pub flow_attributes: Vec<FlowAttributeEntry>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, salsa::SalsaValue)]
pub struct OutlineStep<'db> {
    pub node: StepNode<'db>,
    pub offset: TextSize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequireEntry {
    pub name: String,
    pub range: TextRange,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowAttributeEntry {
    /// The key and its range; `None` when the parser found none.
    pub key: Option<(String, TextRange)>,
    pub value: Value,
    pub value_range: Option<TextRange>,
}

/// Layer 2: one pass over the file's top-level items (not into them).
#[salsa::tracked(returns(ref))]
pub fn file_outline<'db>(db: &'db dyn Db, file: SourceFile) -> FileOutline<'db> {
    let parse = parse(db, file);
    let text = file.text(db);
    let mut outline = FileOutline {
        steps: Vec::new(),
        requires: Vec::new(),
        unparsed_requires: Vec::new(),
        flow_attributes: Vec::new(),
    };
    let mut offset = TextSize::from(0);
    for child in parse.green().children() {
        let len = child.text_len();
        if let NodeOrToken::Node(green) = child {
            let kind = SyntaxKind::from_raw(green.kind().0);
            let shift = |range: TextRange| range + offset;
            match kind {
                Some(SyntaxKind::STEP) => {
                    let syntax =
                        StepSyntax::new(&text[TextRange::at(offset, len)], green.to_owned());
                    outline.steps.push(OutlineStep {
                        node: StepNode::new(db, syntax),
                        offset,
                    });
                }
                Some(SyntaxKind::REQUIRE) => {
                    let node = ast::Require::cast(SyntaxNode::new_root(green.to_owned()));
                    for name in node.iter().flat_map(|r| r.names()) {
                        outline.requires.push(RequireEntry {
                            name: name.text(),
                            range: shift(name.syntax().text_range()),
                        });
                    }
                    let unparsed = node
                        .iter()
                        .flat_map(|r| r.syntax().children())
                        .filter(|n| n.kind() == SyntaxKind::ERROR_NODE)
                        .flat_map(|n| n.descendants_with_tokens())
                        .filter_map(|e| e.into_token())
                        .filter(|t| t.kind() == SyntaxKind::IDENT);
                    outline
                        .unparsed_requires
                        .extend(unparsed.map(|t| t.text().to_string()));
                }
                Some(SyntaxKind::FLOW_ATTRIBUTE) => {
                    if let Some(attribute) =
                        ast::FlowAttribute::cast(SyntaxNode::new_root(green.to_owned()))
                    {
                        let value = attribute.value();
                        outline.flow_attributes.push(FlowAttributeEntry {
                            key: attribute
                                .key()
                                .map(|k| (k.text(), shift(k.syntax().text_range()))),
                            value: Value::of(value.as_ref()),
                            value_range: value.map(|v| shift(v.syntax().text_range())),
                        });
                    }
                }
                _ => {}
            }
        }
        offset += len;
    }
    outline
}

/// How a parameter varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sweep {
    No,
    /// `sweep [...]` with this many elements.
    List(u32),
    /// `sweep` before something that is not a list literal (E0403).
    NotAList,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParamSummary {
    pub name: Option<SmolStr>,
    pub section: ast::SectionKind,
    /// Written with `<-`.
    pub stream: bool,
    pub sweep: Sweep,
}

/// A reference in a parameter value, at any depth.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReferenceSummary {
    /// Index into [`StepSummary::params`].
    pub param: u32,
    /// The first segment: what the reference resolves by.
    pub head: SmolStr,
    /// The names of the following segments (`outs`, `Result`, …).
    pub members: Vec<SmolStr>,
    /// The whole value of a `<-` parameter.
    pub stream_source: bool,
}

/// One name of an `after` or `on` list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DependencySummary {
    pub name: SmolStr,
    pub via_on: bool,
}

/// Everything about a step that the analysis of the file needs, and nothing
/// that moves when text is edited elsewhere: no positions.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct StepSummary {
    pub name: Option<SmolStr>,
    pub long_running: bool,
    pub package: Option<SmolStr>,
    pub dependencies: Vec<DependencySummary>,
    pub params: Vec<ParamSummary>,
    pub references: Vec<ReferenceSummary>,
    /// Attribute keys and values, in order.
    pub attributes: Vec<(String, Value)>,
    /// The product of the swept lists' lengths (1 when nothing is swept).
    pub instances: u64,
    /// What the step asks of the topology (`requires`, `memory`).
    pub requirement: StepRequirement,
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
    pub dependencies: Vec<TextRange>,
    pub params: Vec<ParamAnchors>,
    pub references: Vec<ReferenceAnchors>,
    pub attributes: Vec<AttributeAnchors>,
    /// Each required capability, inside the `requires` value.
    pub capabilities: Vec<TextRange>,
    pub requires_value: Option<TextRange>,
    pub memory_value: Option<TextRange>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParamAnchors {
    pub name: Option<TextRange>,
    pub value: Option<TextRange>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceAnchors {
    pub whole: TextRange,
    pub head: TextRange,
    pub members: Vec<TextRange>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AttributeAnchors {
    pub key: Option<TextRange>,
    pub value: Option<TextRange>,
}

/// Layer 3's result for one step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepAnalysis {
    pub summary: Arc<StepSummary>,
    pub anchors: StepAnchors,
    /// Diagnostics that need nothing outside the step, at relative ranges.
    pub local_diagnostics: Vec<Diagnostic>,
}

/// Layer 3: one step, parsed on its own from its text. Parsing a step alone
/// gives the tree it has in its file: a step's parse depends only on its own
/// tokens, and it ends where the next top-level item (or the end) begins.
#[salsa::tracked(returns(ref))]
pub fn step_analysis<'db>(db: &'db dyn Db, step: StepNode<'db>) -> StepAnalysis {
    let mut walker = StepWalker::default();
    // Rooted at the step itself, so every range is relative to its start.
    walker.walk(GreenRef::root(&step.syntax(db).green));
    StepAnalysis {
        summary: Arc::new(walker.summary),
        anchors: walker.anchors,
        local_diagnostics: walker.diagnostics,
    }
}

#[derive(Default)]
struct StepWalker {
    summary: StepSummary,
    anchors: StepAnchors,
    diagnostics: Vec<Diagnostic>,
}

/// The text of a name node's identifier.
fn name_text(node: GreenRef<'_>) -> SmolStr {
    node.first_child_token()
        .map(|t| SmolStr::new(t.text))
        .unwrap_or_default()
}

fn is_expression(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        SyntaxKind::LITERAL | SyntaxKind::LIST_EXPR | SyntaxKind::REF_EXPR
    )
}

/// The walk reads the green tree directly and visits each node's children
/// once: it runs for every step of a cold check, and red nodes (the typed
/// AST) would allocate for every node and token visited.
impl StepWalker {
    fn walk(&mut self, step: GreenRef<'_>) {
        self.summary.instances = 1;
        let mut seen_pre = false;
        let mut seen_post = false;
        for child in step.children() {
            let node = match child {
                GreenElementRef::Token(token) => {
                    self.summary.long_running |= token.kind == SyntaxKind::TILDE;
                    continue;
                }
                GreenElementRef::Node(node) => node,
            };
            match node.kind() {
                SyntaxKind::ATTRIBUTE => self.attribute(node),
                SyntaxKind::NAME => {
                    self.summary.name = Some(name_text(node));
                    self.anchors.name = Some(node.range());
                }
                SyntaxKind::PACKAGE_PATH => {
                    let mut package = smol_str::SmolStrBuilder::new();
                    let names = node.child_tokens().filter(|t| t.kind == SyntaxKind::IDENT);
                    for (i, name) in names.enumerate() {
                        if i > 0 {
                            package.push('.');
                        }
                        package.push_str(name.text);
                    }
                    self.summary.package = Some(package.finish());
                }
                SyntaxKind::AFTER_CLAUSE | SyntaxKind::ON_CLAUSE => {
                    let via_on = node.kind() == SyntaxKind::ON_CLAUSE;
                    for element in node.children() {
                        match element {
                            GreenElementRef::Token(on) if on.kind == SyntaxKind::ON_KW => {
                                self.diagnostics.push(rules::event_transition(on.range));
                            }
                            GreenElementRef::Node(name) if name.kind() == SyntaxKind::NAME_REF => {
                                self.dependency(name, via_on);
                            }
                            _ => {}
                        }
                    }
                }
                SyntaxKind::PARAM_BLOCK => {
                    for section in node
                        .child_nodes()
                        .filter(|n| n.kind() == SyntaxKind::PARAM_SECTION)
                    {
                        let kind = match section.first_child_token().map(|t| t.kind) {
                            Some(SyntaxKind::EXEC_KW) => ast::SectionKind::Exec,
                            _ => ast::SectionKind::App,
                        };
                        for param in section
                            .child_nodes()
                            .filter(|n| n.kind() == SyntaxKind::PARAM)
                        {
                            self.param(param, kind);
                        }
                    }
                }
                SyntaxKind::CODE_SECTION => {
                    let Some(keyword) = node.first_child_token() else {
                        continue;
                    };
                    let seen = if keyword.kind == SyntaxKind::PRE_KW {
                        &mut seen_pre
                    } else {
                        &mut seen_post
                    };
                    if *seen {
                        self.diagnostics
                            .push(rules::repeated_code_section(keyword.range, keyword.text));
                    }
                    *seen = true;
                }
                _ => {}
            }
        }
    }

    fn attribute(&mut self, node: GreenRef<'_>) {
        // Attributes are few: the typed AST reads their values.
        let Some(attribute) = ast::Attribute::cast(node.to_syntax()) else {
            return;
        };
        let shift = |range: TextRange| range + node.range().start();
        let key = attribute.key();
        let value_node = attribute.value();
        let value = Value::of(value_node.as_ref());
        let anchors = AttributeAnchors {
            key: key.as_ref().map(|k| shift(k.syntax().text_range())),
            value: value_node.as_ref().map(|v| shift(v.syntax().text_range())),
        };
        if let Some(key) = &key {
            if let Some(problem) = check_step_attribute(&key.text(), &value) {
                let range = if problem.on_value {
                    anchors.value
                } else {
                    anchors.key
                };
                if let Some(range) = range {
                    self.diagnostics.push(problem.at(range));
                }
            }
            match key.text().as_str() {
                "requires" => self.requires(value_node.as_ref(), node.range().start()),
                "memory" => self.memory(value_node.as_ref(), &value, node.range().start()),
                _ => {}
            }
            self.summary.attributes.push((key.text(), value));
            self.anchors.attributes.push(anchors);
        }
    }

    fn malformed_requirement(&mut self, diagnostic: Diagnostic) {
        self.summary.requirement.malformed = true;
        self.diagnostics.push(diagnostic);
    }

    /// `[requires = "a+b"]` or `[requires = ["a", "b"]]`; `shift` places
    /// the attribute's relative ranges in the step.
    fn requires(&mut self, value: Option<&ast::Expr>, shift: TextSize) {
        let Some(value) = value else { return };
        let value_range = value.syntax().text_range() + shift;
        self.anchors.requires_value = Some(value_range);
        let strings: Vec<(ast::Literal, TextRange)> = match value {
            ast::Expr::Literal(literal) if literal.kind() == Some(ast::LiteralKind::String) => {
                vec![(literal.clone(), value_range)]
            }
            ast::Expr::List(list) => {
                let mut strings = Vec::new();
                for element in list.elements() {
                    let range = element.syntax().text_range() + shift;
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
            let raw = literal
                .token()
                .map(|t| t.text().to_string())
                .unwrap_or_default();
            let verbatim = raw.len() == text.len() + 2;
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
                        self.anchors.capabilities.push(place(capability.range));
                        self.summary.requirement.capabilities.push(capability.name);
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
    fn memory(&mut self, node: Option<&ast::Expr>, value: &Value, shift: TextSize) {
        let Some(node) = node else { return };
        let range = node.syntax().text_range() + shift;
        self.anchors.memory_value = Some(range);
        match value {
            Value::Int(bytes) if *bytes >= 0 => self.summary.requirement.memory = *bytes as u64,
            Value::String(text) => match easyflow_topology::parse_memory(text) {
                Ok(bytes) => {
                    self.summary.requirement.memory = bytes;
                    self.summary.requirement.memory_text = Some(text.clone());
                }
                Err(error) => {
                    self.malformed_requirement(rules::malformed_memory(range, &error.message))
                }
            },
            _ => self.malformed_requirement(rules::memory_not_a_size(range)),
        }
    }

    fn dependency(&mut self, name: GreenRef<'_>, via_on: bool) {
        let text = name_text(name);
        let range = name.range();
        if self.summary.dependencies.iter().any(|d| d.name == text) {
            self.diagnostics
                .push(rules::step_listed_twice(range, &text));
        }
        self.summary
            .dependencies
            .push(DependencySummary { name: text, via_on });
        self.anchors.dependencies.push(range);
    }

    fn param(&mut self, param: GreenRef<'_>, section: ast::SectionKind) {
        let index = self.summary.params.len() as u32;
        let mut name_node = None;
        let mut arrow = None;
        let mut swept = false;
        let mut value = None;
        for element in param.children() {
            match element {
                GreenElementRef::Token(token) => match token.kind {
                    SyntaxKind::ARROW => arrow = Some(token.range),
                    SyntaxKind::SWEEP_KW => swept = true,
                    _ => {}
                },
                GreenElementRef::Node(node) if node.kind() == SyntaxKind::NAME => {
                    name_node = Some(node)
                }
                GreenElementRef::Node(node) if is_expression(node.kind()) && value.is_none() => {
                    value = Some(node);
                }
                GreenElementRef::Node(_) => {}
            }
        }
        let name = name_node.map(name_text);
        let name_range = name_node.map(|n| n.range());
        if let (Some(name), Some(range)) = (&name, name_range)
            && self
                .summary
                .params
                .iter()
                .any(|p| p.name.as_ref() == Some(name))
        {
            self.diagnostics
                .push(rules::parameter_given_twice(range, name));
        }
        let stream = arrow.is_some();
        if let Some(arrow) = arrow.filter(|_| !self.summary.long_running) {
            self.diagnostics
                .push(rules::stream_outside_long_running_step(arrow));
        }
        if stream && let Some(value) = value.filter(|v| v.kind() != SyntaxKind::REF_EXPR) {
            self.diagnostics
                .push(rules::stream_source_not_a_reference(value.range()));
        }
        let sweep = match value {
            Some(list) if swept && list.kind() == SyntaxKind::LIST_EXPR => {
                let len = list
                    .child_nodes()
                    .filter(|n| is_expression(n.kind()))
                    .count() as u32;
                if len == 0 {
                    self.diagnostics
                        .push(rules::sweep_over_empty_list(list.range()));
                }
                self.summary.instances = self.summary.instances.saturating_mul(u64::from(len));
                Sweep::List(len)
            }
            Some(other) if swept => {
                self.diagnostics
                    .push(rules::sweep_needs_a_list(other.range()));
                Sweep::NotAList
            }
            _ => Sweep::No,
        };
        self.summary.params.push(ParamSummary {
            name,
            section,
            stream,
            sweep,
        });
        self.anchors.params.push(ParamAnchors {
            name: name_range,
            value: value.map(|v| v.range()),
        });
        if let Some(value) = value {
            self.references(value, index, stream);
        }
    }

    /// Collects the references of an expression, at any depth (lists,
    /// indexers), in text order. Error nodes are not entered.
    fn references(&mut self, expr: GreenRef<'_>, param: u32, stream_source: bool) {
        match expr.kind() {
            SyntaxKind::LIST_EXPR => {
                for element in expr.child_nodes().filter(|n| is_expression(n.kind())) {
                    self.references(element, param, false);
                }
            }
            SyntaxKind::REF_EXPR => {
                let segments = || {
                    expr.child_nodes()
                        .filter(|n| n.kind() == SyntaxKind::SEGMENT)
                };
                // A segment without a name holds a lexical error (`шаг.outs`),
                // already reported: the names after it mean nothing, so a
                // broken head is no reference and a broken member ends it.
                let mut names = segments().map_while(|s| {
                    s.child_nodes()
                        .next()
                        .filter(|n| n.kind() == SyntaxKind::NAME_REF)
                });
                if let Some(head) = names.next() {
                    let members: Vec<GreenRef<'_>> = names.collect();
                    self.summary.references.push(ReferenceSummary {
                        param,
                        head: name_text(head),
                        members: members.iter().map(|m| name_text(*m)).collect(),
                        stream_source,
                    });
                    self.anchors.references.push(ReferenceAnchors {
                        whole: expr.range(),
                        head: head.range(),
                        members: members.iter().map(|m| m.range()).collect(),
                    });
                }
                for segment in segments() {
                    let indexed = segment
                        .child_nodes()
                        .find(|n| n.kind() == SyntaxKind::INDEXER)
                        .and_then(|indexer| {
                            indexer.child_nodes().find(|n| is_expression(n.kind()))
                        });
                    if let Some(index) = indexed {
                        self.references(index, param, false);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Layer 4, the firewall: position-free summaries of the file's items.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ItemIndex {
    /// Indexed by [`StepId`].
    pub steps: Vec<Arc<StepSummary>>,
    /// Every required name, in order.
    pub requires: Vec<String>,
    /// See [`FileOutline::unparsed_requires`].
    pub unparsed_requires: Vec<String>,
    /// The steps with local diagnostics (few), so that placing them does not
    /// visit every step's analysis after each edit. Which steps these are
    /// seldom changes, so the firewall holds all the same.
    pub steps_with_local_diagnostics: Vec<StepId>,
}

#[salsa::tracked(returns(ref))]
pub fn item_index(db: &dyn Db, file: SourceFile) -> ItemIndex {
    let outline = file_outline(db, file);
    let mut steps = Vec::with_capacity(outline.steps.len());
    let mut steps_with_local_diagnostics = Vec::new();
    for (i, step) in outline.steps.iter().enumerate() {
        let analysis = step_analysis(db, step.node);
        steps.push(analysis.summary.clone());
        if !analysis.local_diagnostics.is_empty() {
            steps_with_local_diagnostics.push(StepId(i as u32));
        }
    }
    ItemIndex {
        steps,
        requires: outline.requires.iter().map(|r| r.name.clone()).collect(),
        unparsed_requires: outline.unparsed_requires.clone(),
        steps_with_local_diagnostics,
    }
}
