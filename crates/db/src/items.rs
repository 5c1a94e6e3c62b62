//! Layers 2–4: the file outline, the analysis of one step on its own, and the
//! position-free item index (the firewall).

use std::sync::Arc;

use easyflow_diagnostics::{Code, Diagnostic, Tag, TextRange, TextSize};
use easyflow_syntax::ast::{self, AstNode};
use easyflow_syntax::{GreenNode, NodeOrToken, SyntaxKind, SyntaxNode};

use crate::attributes::{Value, check_step_attribute};
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
    pub name: Option<String>,
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
    pub head: String,
    /// The names of the following segments (`outs`, `Result`, …).
    pub members: Vec<String>,
    /// The whole value of a `<-` parameter.
    pub stream_source: bool,
}

/// One name of an `after` or `on` list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DependencySummary {
    pub name: String,
    pub via_on: bool,
}

/// Everything about a step that the analysis of the file needs, and nothing
/// that moves when text is edited elsewhere: no positions.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct StepSummary {
    pub name: Option<String>,
    pub long_running: bool,
    pub package: Option<String>,
    pub dependencies: Vec<DependencySummary>,
    pub params: Vec<ParamSummary>,
    pub references: Vec<ReferenceSummary>,
    /// Attribute keys and values, in order.
    pub attributes: Vec<(String, Value)>,
    /// The product of the swept lists' lengths (1 when nothing is swept).
    pub instances: u64,
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
    if let Some(node) = ast::Step::cast(SyntaxNode::new_root(step.syntax(db).green.clone())) {
        walker.walk(&node);
    }
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

impl StepWalker {
    fn walk(&mut self, step: &ast::Step) {
        self.summary.instances = 1;
        for attribute in step.attributes() {
            self.attribute(&attribute);
        }
        self.summary.long_running = step.is_long_running();
        if let Some(name) = step.name() {
            self.summary.name = Some(name.text());
            self.anchors.name = Some(name.syntax().text_range());
        }
        self.summary.package = step.package().map(|p| p.text());
        for child in step.syntax().children() {
            if let Some(clause) = ast::AfterClause::cast(child.clone()) {
                for name in clause.names() {
                    self.dependency(&name, false);
                }
            } else if let Some(clause) = ast::OnClause::cast(child) {
                if let Some(on) = clause.on_token() {
                    self.diagnostics.push(Diagnostic::new(
                        Code::E0408,
                        on.text_range(),
                        "event transitions (`on`) are reserved by the platform and not supported; use `after`",
                    ));
                }
                for name in clause.names() {
                    self.dependency(&name, true);
                }
            }
        }
        for param in step.params() {
            self.param(&param, step.is_long_running());
        }
        let mut seen_pre = false;
        let mut seen_post = false;
        for section in step.code_sections() {
            let seen = match section.kind() {
                ast::CodeSectionKind::Pre => &mut seen_pre,
                ast::CodeSectionKind::Post => &mut seen_post,
            };
            if *seen && let Some(keyword) = section.keyword_token() {
                self.diagnostics.push(Diagnostic::new(
                    Code::E0407,
                    keyword.text_range(),
                    format!(
                        "`{}` is given twice: a step has at most one `pre` and one `post` section",
                        keyword.text()
                    ),
                ));
            }
            *seen = true;
        }
    }

    fn attribute(&mut self, attribute: &ast::Attribute) {
        let key = attribute.key();
        let value_node = attribute.value();
        let value = Value::of(value_node.as_ref());
        let anchors = AttributeAnchors {
            key: key.as_ref().map(|k| k.syntax().text_range()),
            value: value_node.as_ref().map(|v| v.syntax().text_range()),
        };
        if let Some(key) = &key {
            if let Some(problem) = check_step_attribute(&key.text(), &value) {
                let range = if problem.on_value {
                    anchors.value
                } else {
                    anchors.key
                };
                if let Some(range) = range {
                    self.diagnostics
                        .push(Diagnostic::new(problem.code, range, problem.message));
                }
            }
            self.summary.attributes.push((key.text(), value));
            self.anchors.attributes.push(anchors);
        }
    }

    fn dependency(&mut self, name: &ast::NameRef, via_on: bool) {
        let text = name.text();
        let range = name.syntax().text_range();
        if self.summary.dependencies.iter().any(|d| d.name == text) {
            self.diagnostics.push(
                Diagnostic::new(Code::W0208, range, format!("step `{text}` is listed twice"))
                    .with_tag(Tag::Unnecessary),
            );
        }
        self.summary
            .dependencies
            .push(DependencySummary { name: text, via_on });
        self.anchors.dependencies.push(range);
    }

    fn param(&mut self, param: &ast::Param, long_running: bool) {
        let index = self.summary.params.len() as u32;
        let name = param.name().map(|n| n.text());
        let name_range = param.name().map(|n| n.syntax().text_range());
        if let (Some(name), Some(range)) = (&name, name_range) {
            let repeated = self
                .summary
                .params
                .iter()
                .any(|p| p.name.as_ref() == Some(name));
            if repeated {
                self.diagnostics.push(Diagnostic::new(
                    Code::E0207,
                    range,
                    format!("parameter `{name}` is given twice in this step"),
                ));
            }
        }
        let value = param.value();
        let value_range = value.as_ref().map(|v| v.syntax().text_range());
        if let Some(arrow) = param.arrow_token().filter(|_| !long_running) {
            self.diagnostics.push(Diagnostic::new(
                Code::E0401,
                arrow.text_range(),
                "the stream arrow `<-` is allowed only in a long-running step; make it a `~step`",
            ));
        }
        if param.is_stream()
            && let Some(value) = value.as_ref().filter(|v| !matches!(v, ast::Expr::Ref(_)))
        {
            self.diagnostics.push(Diagnostic::new(
                Code::E0402,
                value.syntax().text_range(),
                "a stream source must be a step's output, such as `Source.outs[\"stream\"]`",
            ));
        }
        let sweep = match (param.is_sweep(), &value) {
            (false, _) | (true, None) => Sweep::No,
            (true, Some(ast::Expr::List(list))) => {
                let len = list.elements().count() as u32;
                if len == 0 {
                    self.diagnostics.push(Diagnostic::new(
                        Code::W0404,
                        list.syntax().text_range(),
                        "sweep over an empty list: the step runs zero instances",
                    ));
                }
                self.summary.instances = self.summary.instances.saturating_mul(u64::from(len));
                Sweep::List(len)
            }
            (true, Some(other)) => {
                self.diagnostics.push(Diagnostic::new(
                    Code::E0403,
                    other.syntax().text_range(),
                    "`sweep` needs a list literal: wrap the value in `[ ]`",
                ));
                Sweep::NotAList
            }
        };
        let section = param
            .syntax()
            .parent()
            .and_then(ast::ParamSection::cast)
            .map_or(ast::SectionKind::App, |s| s.kind());
        self.summary.params.push(ParamSummary {
            name,
            section,
            stream: param.is_stream(),
            sweep,
        });
        self.anchors.params.push(ParamAnchors {
            name: name_range,
            value: value_range,
        });
        if let Some(value) = &value {
            self.references(value, index, param.is_stream());
        }
    }

    /// Collects the references of an expression, at any depth (lists,
    /// indexers), in text order. Error nodes are not entered.
    fn references(&mut self, expr: &ast::Expr, param: u32, stream_source: bool) {
        match expr {
            ast::Expr::Literal(_) => {}
            ast::Expr::List(list) => {
                for element in list.elements() {
                    self.references(&element, param, false);
                }
            }
            ast::Expr::Ref(reference) => {
                // A segment without a name holds a lexical error (`шаг.outs`),
                // already reported: the names after it mean nothing, so a
                // broken head is no reference and a broken member ends it.
                let mut names = reference.segments().map_while(|s| s.name_ref());
                if let Some(head) = names.next() {
                    let members: Vec<_> = names.collect();
                    self.summary.references.push(ReferenceSummary {
                        param,
                        head: head.text(),
                        members: members.iter().map(|m| m.text()).collect(),
                        stream_source,
                    });
                    self.anchors.references.push(ReferenceAnchors {
                        whole: reference.syntax().text_range(),
                        head: head.syntax().text_range(),
                        members: members.iter().map(|m| m.syntax().text_range()).collect(),
                    });
                }
                for segment in reference.segments() {
                    if let Some(index) = segment.indexer().and_then(|i| i.expr()) {
                        self.references(&index, param, false);
                    }
                }
            }
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
}

#[salsa::tracked(returns(ref))]
pub fn item_index(db: &dyn Db, file: SourceFile) -> ItemIndex {
    let outline = file_outline(db, file);
    ItemIndex {
        steps: outline
            .steps
            .iter()
            .map(|s| step_analysis(db, s.node).summary.clone())
            .collect(),
        requires: outline.requires.iter().map(|r| r.name.clone()).collect(),
        unparsed_requires: outline.unparsed_requires.clone(),
    }
}
