//! The edge between the inside (byte offsets, ide data) and the protocol:
//! LSP positions in the negotiated encoding (UTF-8 or UTF-16), and every
//! mapping of ide data to LSP types (and of the little LSP data that comes
//! back, such as a call hierarchy item's step). Positions past the end of a
//! line or of the document are clamped, never an error.

use easyflow_diagnostics::{Severity, Tag};
use easyflow_ide::{
    self as ide, SourceText, StepId, TextEdit, TextRange, TextSize, call_hierarchy, code_actions,
    code_lens, completion, defs, folding, graph, hover, inlay_hints, navigation, semantic_tokens,
    symbols,
};
use serde_json::json;
use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types as lsp;

use crate::capabilities::{APPLY_FIX_COMMAND, ClientCapabilities, FIX_ALL_KIND, KindSet};
use crate::lsp_ext::{self, SHOW_DEPENDENTS_COMMAND, ShowDependentsArguments};

pub use easyflow_ide::line_index::Encoding;
use easyflow_ide::line_index::{self, LineIndex, Position};

/// A document's line index with the negotiated encoding: the shared
/// conversion ([`line_index::Lines`]) in the protocol's types.
pub struct Lines<'a> {
    pub index: &'a LineIndex,
    pub text: &'a SourceText,
    pub encoding: Encoding,
}

impl Lines<'_> {
    fn shared(&self) -> line_index::Lines<'_> {
        line_index::Lines {
            index: self.index,
            text: self.text,
            encoding: self.encoding,
        }
    }

    pub fn position(&self, offset: TextSize) -> lsp::Position {
        let Position { line, character } = self.shared().position(offset);
        lsp::Position::new(line, character)
    }

    pub fn range(&self, range: TextRange) -> lsp::Range {
        lsp::Range::new(self.position(range.start()), self.position(range.end()))
    }

    /// The byte offset of a position, clamped into the document and to the
    /// end of its line (before a `\r\n`).
    pub fn offset(&self, position: lsp::Position) -> TextSize {
        self.shared().offset(Position {
            line: position.line,
            character: position.character,
        })
    }

    pub fn text_range(&self, range: lsp::Range) -> TextRange {
        let start = self.offset(range.start);
        let end = self.offset(range.end).max(start);
        TextRange::new(start, end)
    }
}

// ---------------------------------------------------------------------------
// Diagnostics.

pub fn severity(severity: Severity) -> lsp::DiagnosticSeverity {
    match severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Information => lsp::DiagnosticSeverity::INFORMATION,
    }
}

/// `docs` is where the documentation is (the setting `docsUrl`, else the
/// installed `docs/diagnostics.md`, see `diagnostics.rs`); each code's
/// `codeDescription` links to its entry there
/// (`easyflow_diagnostics::docs::url`). What the client
/// does not read (related information, tags, code descriptions) is left
/// out.
pub fn diagnostic(
    lines: &Lines<'_>,
    client: &ClientCapabilities,
    uri: &lsp::Uri,
    docs: Option<&str>,
    d: &ide::Diagnostic,
) -> lsp::Diagnostic {
    let href = docs
        .filter(|_| client.code_description)
        .and_then(|docs| easyflow_diagnostics::docs::url(docs, d.code).parse().ok());
    lsp::Diagnostic {
        range: lines.range(d.range),
        severity: Some(severity(d.severity())),
        code: Some(lsp::NumberOrString::String(d.code.as_str().to_string())),
        code_description: href.map(|href| lsp::CodeDescription { href }),
        source: Some("easyflow".to_string()),
        message: d.message.clone(),
        related_information: (client.related_information && !d.related.is_empty()).then(|| {
            d.related
                .iter()
                .map(|r| lsp::DiagnosticRelatedInformation {
                    location: lsp::Location::new(uri.clone(), lines.range(r.range)),
                    message: r.message.clone(),
                })
                .collect()
        }),
        tags: Some(
            d.tags
                .iter()
                .filter_map(|tag| match tag {
                    Tag::Unnecessary => client
                        .unnecessary_tag
                        .then_some(lsp::DiagnosticTag::UNNECESSARY),
                })
                .collect::<Vec<_>>(),
        )
        .filter(|tags| !tags.is_empty()),
        data: None,
    }
}

// ---------------------------------------------------------------------------
// Features.

/// Documentation written in Markdown, as Markdown when the client reads
/// it, else as plain text ([`plain_text`]).
fn markup(markdown: bool, value: String) -> lsp::MarkupContent {
    match markdown {
        true => lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value,
        },
        false => lsp::MarkupContent {
            kind: lsp::MarkupKind::PlainText,
            value: plain_text(&value),
        },
    }
}

/// Markdown as the server writes it (code blocks, `---` rules, `**bold**`,
/// inline code), for a client that shows text as it is: without the code
/// fences, rules and bold marks, the rest as written.
fn plain_text(markdown: &str) -> String {
    let lines: Vec<String> = markdown
        .lines()
        .filter(|line| !line.starts_with("```"))
        .map(|line| match line.trim() {
            "---" => String::new(),
            _ => line.replace("**", ""),
        })
        .collect();
    lines.join("\n").trim().to_string()
}

/// A snippet (`step ${1:Name} runs $0`) as the text it inserts with its
/// placeholders' defaults and without its tab stops, for a client without
/// snippets.
fn snippet_text(snippet: &str) -> String {
    let mut out = String::with_capacity(snippet.len());
    let mut chars = snippet.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            '$' if chars.peek() == Some(&'{') => {
                chars.next();
                // `${1:default}`: the default; `${1}`: nothing.
                let mut depth = 1;
                let mut default: Option<String> = None;
                for c in chars.by_ref() {
                    match c {
                        '}' if depth == 1 => break,
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    match &mut default {
                        Some(text) => text.push(c),
                        None if c == ':' => default = Some(String::new()),
                        None => {}
                    }
                }
                out.push_str(&snippet_text(&default.unwrap_or_default()));
            }
            '$' if chars.peek().is_some_and(char::is_ascii_digit) => {
                while chars.peek().is_some_and(char::is_ascii_digit) {
                    chars.next();
                }
            }
            c => out.push(c),
        }
    }
    out
}

pub fn signature_help(
    client: &ClientCapabilities,
    help: easyflow_ide::signature_help::SignatureHelp,
) -> lsp::SignatureHelp {
    let markdown = client.signature_markdown;
    let parameters = help
        .parameters
        .into_iter()
        .map(|p| lsp::ParameterInformation {
            label: lsp::ParameterLabel::Simple(p.label),
            documentation: Some(lsp::Documentation::MarkupContent(markup(
                markdown,
                p.documentation,
            ))),
        })
        .collect();
    lsp::SignatureHelp {
        signatures: vec![lsp::SignatureInformation {
            label: help.label,
            documentation: help
                .documentation
                .map(|d| lsp::Documentation::MarkupContent(markup(markdown, d))),
            parameters: Some(parameters),
            active_parameter: help
                .active_parameter
                .filter(|_| client.signature_active_parameter),
        }],
        active_signature: Some(0),
        active_parameter: help.active_parameter,
    }
}

pub fn hover(
    lines: &Lines<'_>,
    client: &ClientCapabilities,
    hover: hover::HoverResult,
) -> lsp::Hover {
    lsp::Hover {
        contents: lsp::HoverContents::Markup(markup(client.hover_markdown, hover.markdown)),
        range: Some(lines.range(hover.range)),
    }
}

/// The client's kind for each of ours, found once per answer rather than
/// per item: the stand-ins are chosen by the protocol's numbers, which
/// ls-types gives only through serde.
struct Kinds<K, L: 'static> {
    known: KindSet,
    /// Ours as the protocol's kinds: the wanted one, then its stand-ins.
    preferences: fn(K) -> &'static [L],
    found: Vec<(K, Option<L>)>,
}

impl<K: Copy + PartialEq, L: Copy + serde::Serialize + 'static> Kinds<K, L> {
    fn new(known: KindSet, preferences: fn(K) -> &'static [L]) -> Self {
        Kinds {
            known,
            preferences,
            found: Vec::new(),
        }
    }

    /// The first of `kind`'s preferences that the client knows, if any.
    fn of(&mut self, kind: K) -> Option<L> {
        if let Some(&(_, found)) = self.found.iter().find(|(k, _)| *k == kind) {
            return found;
        }
        let number = |kind: L| {
            serde_json::to_value(kind)
                .ok()
                .and_then(|v| v.as_u64())
                .unwrap_or(0)
        };
        let found = self.known.first_of((self.preferences)(kind), number);
        self.found.push((kind, found));
        found
    }

    /// Like [`Kinds::of`], but the wanted kind when the client knows none
    /// (a symbol must have one).
    fn of_or_wanted(&mut self, kind: K) -> L {
        self.of(kind).unwrap_or_else(|| (self.preferences)(kind)[0])
    }
}

fn completion_kinds(kind: completion::CompletionKind) -> &'static [lsp::CompletionItemKind] {
    use completion::CompletionKind as K;
    use lsp::CompletionItemKind as Kind;
    match kind {
        K::Keyword => &[Kind::KEYWORD],
        K::Snippet => &[Kind::SNIPPET, Kind::KEYWORD],
        K::Step => &[Kind::FUNCTION],
        K::File => &[Kind::FILE],
        K::Member => &[Kind::FIELD, Kind::PROPERTY],
        K::AttributeKey => &[Kind::PROPERTY, Kind::FIELD],
        K::Constant => &[Kind::ENUM_MEMBER, Kind::ENUM, Kind::VALUE],
        K::Capability => &[Kind::VALUE],
        K::Package => &[Kind::MODULE],
        K::Parameter => &[Kind::FIELD, Kind::PROPERTY],
    }
}

/// The list of completions of the document `uri`.
pub fn completion_list(
    lines: &Lines<'_>,
    uri: &lsp::Uri,
    client: &ClientCapabilities,
    list: completion::CompletionList,
) -> lsp::CompletionResponse {
    let mut kinds = Kinds::new(client.completion_kinds, completion_kinds);
    lsp::CompletionResponse::List(lsp::CompletionList {
        is_incomplete: list.is_incomplete,
        items: list
            .items
            .into_iter()
            .map(|item| completion_item(lines, uri, client, &mut kinds, item))
            .collect(),
    })
}

/// What `completionItem/resolve` needs of an item whose documentation was
/// left out of the list: its document and whose documentation it shows.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct CompletionData {
    pub uri: lsp::Uri,
    pub documentation: completion::DocumentationOf,
}

impl CompletionData {
    /// The data of `item`, when it is one the server made.
    pub fn of(item: &lsp::CompletionItem) -> Option<CompletionData> {
        serde_json::from_value(item.data.clone()?).ok()
    }
}

/// The documentation of a completion item, in the client's markup.
pub fn completion_documentation(
    client: &ClientCapabilities,
    markdown: String,
) -> lsp::Documentation {
    lsp::Documentation::MarkupContent(markup(client.completion_markdown, markdown))
}

fn completion_item(
    lines: &Lines<'_>,
    uri: &lsp::Uri,
    client: &ClientCapabilities,
    kinds: &mut Kinds<completion::CompletionKind, lsp::CompletionItemKind>,
    item: completion::CompletionItem,
) -> lsp::CompletionItem {
    use completion::Insert;
    let (new_text, format) = match item.insert {
        Insert::Text(text) => (text, lsp::InsertTextFormat::PLAIN_TEXT),
        Insert::Snippet(text) if client.snippets => (text, lsp::InsertTextFormat::SNIPPET),
        Insert::Snippet(text) => (snippet_text(&text), lsp::InsertTextFormat::PLAIN_TEXT),
    };
    lsp::CompletionItem {
        label: item.label,
        kind: kinds.of(item.kind),
        sort_text: item.sort_text,
        detail: item.detail,
        documentation: item
            .documentation
            .map(|d| completion_documentation(client, d)),
        data: item.documentation_of.map(|documentation| {
            serde_json::to_value(CompletionData {
                uri: uri.clone(),
                documentation,
            })
            .expect("completion data serializes to JSON")
        }),
        insert_text_format: Some(format),
        text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
            range: lines.range(item.replace),
            new_text,
        })),
        ..Default::default()
    }
}

/// A link when the client takes links, else the location of the name.
/// Where a definition is, in the protocol's terms.
pub struct Target {
    pub uri: lsp::Uri,
    pub full_range: lsp::Range,
    pub focus_range: lsp::Range,
}

impl Target {
    pub fn of(lines: &Lines<'_>, uri: &lsp::Uri, target: &navigation::NavigationTarget) -> Target {
        Target {
            uri: uri.clone(),
            full_range: lines.range(target.full_range),
            focus_range: lines.range(target.focus_range),
        }
    }
}

/// Links when the client takes them, else locations (one as a scalar).
pub fn definition(
    client: &ClientCapabilities,
    targets: Vec<Target>,
) -> lsp::GotoDefinitionResponse {
    match client.definition_links {
        true => lsp::GotoDefinitionResponse::Link(
            targets
                .into_iter()
                .map(|target| lsp::LocationLink {
                    origin_selection_range: None,
                    target_uri: target.uri,
                    target_range: target.full_range,
                    target_selection_range: target.focus_range,
                })
                .collect(),
        ),
        false => {
            let mut locations: Vec<lsp::Location> = targets
                .into_iter()
                .map(|target| lsp::Location::new(target.uri, target.focus_range))
                .collect();
            match locations.len() {
                1 => lsp::GotoDefinitionResponse::Scalar(locations.remove(0)),
                _ => lsp::GotoDefinitionResponse::Array(locations),
            }
        }
    }
}

pub fn location(lines: &Lines<'_>, uri: &lsp::Uri, usage: &defs::Usage) -> lsp::Location {
    lsp::Location::new(uri.clone(), lines.range(usage.range))
}

pub fn highlight(lines: &Lines<'_>, usage: &defs::Usage) -> lsp::DocumentHighlight {
    lsp::DocumentHighlight {
        range: lines.range(usage.range),
        kind: Some(match usage.kind {
            defs::UsageKind::Declaration => lsp::DocumentHighlightKind::WRITE,
            _ => lsp::DocumentHighlightKind::READ,
        }),
    }
}

pub fn prepare_rename(
    lines: &Lines<'_>,
    (range, placeholder): (TextRange, String),
) -> lsp::PrepareRenameResponse {
    lsp::PrepareRenameResponse::RangeWithPlaceholder {
        range: lines.range(range),
        placeholder,
    }
}

fn text_edit(lines: &Lines<'_>, edit: &TextEdit) -> lsp::TextEdit {
    lsp::TextEdit {
        range: lines.range(edit.range),
        new_text: edit.insert.clone(),
    }
}

/// Edits of one document.
pub fn text_edits(lines: &Lines<'_>, edits: &[TextEdit]) -> Vec<lsp::TextEdit> {
    edits.iter().map(|e| text_edit(lines, e)).collect()
}

/// Edits of one document as a workspace edit.
pub fn workspace_edit(lines: &Lines<'_>, uri: &lsp::Uri, edits: &[TextEdit]) -> lsp::WorkspaceEdit {
    let edits = edits.iter().map(|e| text_edit(lines, e)).collect();
    lsp::WorkspaceEdit {
        changes: Some([(uri.clone(), edits)].into_iter().collect()),
        ..Default::default()
    }
}

/// A symbol's kinds, wanted first: a long-running step is an event, else a
/// function.
fn symbol_kinds(kind: symbols::SymbolKind) -> &'static [lsp::SymbolKind] {
    use symbols::SymbolKind as K;
    match kind {
        K::Step => &[lsp::SymbolKind::FUNCTION],
        K::LongRunningStep => &[lsp::SymbolKind::EVENT, lsp::SymbolKind::FUNCTION],
        K::File => &[lsp::SymbolKind::FILE],
        K::FlowAttribute => &[lsp::SymbolKind::PROPERTY],
        K::Parameter => &[lsp::SymbolKind::VARIABLE],
        K::Package => &[lsp::SymbolKind::MODULE],
        K::Output => &[lsp::SymbolKind::FILE],
        K::WorkerType => &[lsp::SymbolKind::CLASS],
    }
}

type SymbolKinds = Kinds<symbols::SymbolKind, lsp::SymbolKind>;

/// The document's symbols: a tree when the client takes one, else each
/// symbol flat with its container's name, in the order of the tree.
pub fn document_symbols(
    lines: &Lines<'_>,
    client: &ClientCapabilities,
    uri: &lsp::Uri,
    symbols: &[symbols::DocumentSymbol],
) -> lsp::DocumentSymbolResponse {
    let mut kinds = Kinds::new(client.document_symbol_kinds, symbol_kinds);
    match client.hierarchical_symbols {
        true => lsp::DocumentSymbolResponse::Nested(
            symbols
                .iter()
                .map(|symbol| document_symbol(lines, &mut kinds, symbol))
                .collect(),
        ),
        false => {
            let mut flat = Vec::new();
            for symbol in symbols {
                flat_symbols(lines, &mut kinds, uri, symbol, None, &mut flat);
            }
            lsp::DocumentSymbolResponse::Flat(flat)
        }
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn document_symbol(
    lines: &Lines<'_>,
    kinds: &mut SymbolKinds,
    symbol: &symbols::DocumentSymbol,
) -> lsp::DocumentSymbol {
    lsp::DocumentSymbol {
        name: symbol.name.clone(),
        detail: symbol.detail.clone(),
        kind: kinds.of_or_wanted(symbol.kind),
        tags: None,
        deprecated: None,
        range: lines.range(symbol.range),
        selection_range: lines.range(symbol.selection_range),
        children: (!symbol.children.is_empty()).then(|| {
            symbol
                .children
                .iter()
                .map(|c| document_symbol(lines, kinds, c))
                .collect()
        }),
    }
}

#[allow(deprecated)] // `SymbolInformation::deprecated` must still be written.
fn flat_symbols(
    lines: &Lines<'_>,
    kinds: &mut SymbolKinds,
    uri: &lsp::Uri,
    symbol: &symbols::DocumentSymbol,
    container: Option<&str>,
    out: &mut Vec<lsp::SymbolInformation>,
) {
    out.push(lsp::SymbolInformation {
        name: symbol.name.clone(),
        kind: kinds.of_or_wanted(symbol.kind),
        tags: None,
        deprecated: None,
        location: lsp::Location::new(uri.clone(), lines.range(symbol.range)),
        container_name: container.map(str::to_string),
    });
    for child in &symbol.children {
        flat_symbols(lines, kinds, uri, child, Some(&symbol.name), out);
    }
}

/// The steps found by a workspace search, each in the flow at its `uri`,
/// named by its `container`.
pub fn workspace_symbols<'a>(
    client: &ClientCapabilities,
    found: impl Iterator<
        Item = (
            &'a lsp::Uri,
            Option<&'a String>,
            &'a symbols::StepSymbol<lsp::Range>,
        ),
    >,
) -> Vec<lsp::WorkspaceSymbol> {
    let mut kinds = Kinds::new(client.workspace_symbol_kinds, symbol_kinds);
    found
        .map(|(uri, container, step)| lsp::WorkspaceSymbol {
            name: step.name.clone(),
            kind: kinds.of_or_wanted(step.kind),
            tags: None,
            container_name: container.cloned(),
            location: lsp::OneOf::Left(lsp::Location::new(uri.clone(), step.range)),
            data: None,
        })
        .collect()
}

/// Splits tokens that span lines (the protocol's tokens are single-line)
/// and encodes them relative to each other.
pub fn semantic_tokens(
    lines: &Lines<'_>,
    tokens: &[semantic_tokens::SemanticToken],
) -> lsp::SemanticTokens {
    let mut out = Vec::with_capacity(tokens.len());
    let (mut previous_line, mut previous_start) = (0, 0);
    for token in tokens {
        let text = lines.text.slice(token.range);
        let mut start = token.range.start();
        for piece in text.split_inclusive('\n') {
            let content = piece.trim_end_matches(['\n', '\r']);
            let range = TextRange::at(start, TextSize::of(content));
            start += TextSize::of(piece);
            if range.is_empty() {
                continue;
            }
            let begin = lines.position(range.start());
            let end = lines.position(range.end());
            let delta_line = begin.line - previous_line;
            let delta_start = if delta_line == 0 {
                begin.character - previous_start
            } else {
                begin.character
            };
            out.push(lsp::SemanticToken {
                delta_line,
                delta_start,
                length: end.character.saturating_sub(begin.character),
                token_type: token.token_type,
                token_modifiers_bitset: token.modifiers,
            });
            (previous_line, previous_start) = (begin.line, begin.character);
        }
    }
    lsp::SemanticTokens {
        result_id: None,
        data: out,
    }
}

pub fn folding_range(lines: &Lines<'_>, fold: &folding::Fold) -> lsp::FoldingRange {
    use folding::FoldKind;
    let range = lines.range(fold.range);
    lsp::FoldingRange {
        start_line: range.start.line,
        start_character: None,
        end_line: range.end.line,
        end_character: None,
        kind: Some(match fold.kind {
            FoldKind::Region => lsp::FoldingRangeKind::Region,
            FoldKind::Comment => lsp::FoldingRangeKind::Comment,
            FoldKind::Imports => lsp::FoldingRangeKind::Imports,
        }),
        collapsed_text: None,
    }
}

/// `chain` goes from the innermost range out.
pub fn selection_range(lines: &Lines<'_>, chain: &[TextRange]) -> lsp::SelectionRange {
    let mut parent: Option<Box<lsp::SelectionRange>> = None;
    for range in chain.iter().rev() {
        parent = Some(Box::new(lsp::SelectionRange {
            range: lines.range(*range),
            parent,
        }));
    }
    parent.map_or(
        lsp::SelectionRange {
            range: lsp::Range::default(),
            parent: None,
        },
        |b| *b,
    )
}

/// A code action literal when the client takes them; else a command that
/// applies the same edit ([`APPLY_FIX_COMMAND`], with the document's
/// `version`, so a fix offered for an older text is refused).
pub fn code_action(
    lines: &Lines<'_>,
    client: &ClientCapabilities,
    uri: &lsp::Uri,
    version: Option<i32>,
    action: &code_actions::CodeAction,
) -> lsp::CodeActionOrCommand {
    let edit = workspace_edit(lines, uri, &action.edits);
    if !client.code_action_literals {
        return lsp::CodeActionOrCommand::Command(lsp::Command {
            title: action.title.clone(),
            command: APPLY_FIX_COMMAND.to_string(),
            arguments: Some(vec![json!({"uri": uri, "version": version, "edit": edit})]),
        });
    }
    lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
        title: action.title.clone(),
        kind: Some(match action.kind {
            code_actions::CodeActionKind::QuickFix => lsp::CodeActionKind::QUICKFIX,
            code_actions::CodeActionKind::FixAll => lsp::CodeActionKind::new(FIX_ALL_KIND),
        }),
        diagnostics: action
            .diagnostic
            .as_ref()
            .map(|d| vec![diagnostic(lines, client, uri, None, d)]),
        edit: Some(edit),
        is_preferred: Some(action.is_preferred).filter(|_| client.preferred_code_actions),
        ..Default::default()
    })
}

/// The argument of an [`APPLY_FIX_COMMAND`] made by [`code_action`]: the
/// document, the version the fix was made for, and its edit.
pub fn fix_of_command(
    arguments: &[serde_json::Value],
) -> Option<(lsp::Uri, Option<i32>, lsp::WorkspaceEdit)> {
    let argument = arguments.first()?;
    let uri = serde_json::from_value(argument.get("uri")?.clone()).ok()?;
    let version = argument
        .get("version")
        .and_then(|v| v.as_i64())
        .and_then(|v| i32::try_from(v).ok());
    let edit = serde_json::from_value(argument.get("edit")?.clone()).ok()?;
    Some((uri, version, edit))
}

pub fn inlay_hint(lines: &Lines<'_>, hint: &inlay_hints::InlayHint) -> lsp::InlayHint {
    lsp::InlayHint {
        position: lines.position(hint.offset),
        label: lsp::InlayHintLabel::String(hint.label.clone()),
        kind: None,
        text_edits: None,
        tooltip: None,
        padding_left: Some(true),
        padding_right: None,
        data: None,
    }
}

/// A lens with [`SHOW_DEPENDENTS_COMMAND`], whose arguments
/// ([`ShowDependentsArguments`]) carry the dependents' locations.
pub fn code_lens(lines: &Lines<'_>, uri: &lsp::Uri, lens: &code_lens::CodeLens) -> lsp::CodeLens {
    let range = lines.range(lens.range);
    let arguments = ShowDependentsArguments(
        uri.clone(),
        range.start,
        dependents(lines, uri, &lens.dependents),
    );
    lsp::CodeLens {
        range,
        command: Some(lsp::Command {
            title: lens.title.clone(),
            command: SHOW_DEPENDENTS_COMMAND.to_string(),
            arguments: match serde_json::to_value(arguments) {
                Ok(serde_json::Value::Array(arguments)) => Some(arguments),
                _ => None,
            },
        }),
        data: None,
    }
}

/// The locations of a step's dependents ([`code_lens::dependents_at`]).
pub fn dependents(lines: &Lines<'_>, uri: &lsp::Uri, places: &[TextRange]) -> Vec<lsp::Location> {
    places
        .iter()
        .map(|place| lsp::Location {
            uri: uri.clone(),
            range: lines.range(*place),
        })
        .collect()
}

/// A step as a call hierarchy item; its `data` carries the step's id, read
/// back by [`step_of`].
pub fn call_item(
    lines: &Lines<'_>,
    uri: &lsp::Uri,
    item: &call_hierarchy::CallItem,
) -> lsp::CallHierarchyItem {
    lsp::CallHierarchyItem {
        name: item.name.clone(),
        kind: lsp::SymbolKind::FUNCTION,
        tags: None,
        detail: item.detail.clone(),
        uri: uri.clone(),
        range: lines.range(item.range),
        selection_range: lines.range(item.selection_range),
        data: Some(json!({ "step": item.step.0 })),
    }
}

/// The step of a call hierarchy item made by [`call_item`].
pub fn step_of(item: &lsp::CallHierarchyItem) -> Option<StepId> {
    let step = item.data.as_ref()?.get("step")?.as_u64()?;
    Some(StepId(u32::try_from(step).ok()?))
}

pub fn graph(
    lines: &Lines<'_>,
    graph: graph::Graph,
    picture: Option<String>,
) -> lsp_ext::GraphResult {
    lsp_ext::GraphResult {
        nodes: graph
            .nodes
            .into_iter()
            .map(|node| lsp_ext::GraphNode {
                range: node.range.map(|r| lines.range(r)),
                node,
            })
            .collect(),
        edges: graph.edges,
        unresolved: graph.unresolved,
        levels: graph.levels,
        picture,
    }
}

pub fn graph_picture(
    lines: &Lines<'_>,
    picture: easyflow_ide::graph::PictureForView,
) -> lsp_ext::GraphPicture {
    lsp_ext::GraphPicture {
        svg_gzip: picture.packed,
        ranges: picture
            .name_ranges
            .into_iter()
            .map(|range| range.map(|r| lines.range(r)))
            .collect(),
        edges: picture.edges,
        unresolved: picture.unresolved,
        steps_in_cycle: picture.steps_in_cycle,
    }
}

/// The most errors a refused export's message lists.
const REFUSAL_ERRORS_SHOWN: usize = 10;

/// A refused `easyflow/export`: `RequestFailed` whose message lists the
/// errors (at most ten, each with its 1-based line) and its other reasons.
pub fn export_refused(
    lines: &Lines<'_>,
    refused: &easyflow_ide::export::Refused,
) -> jsonrpc::Error {
    let count = refused.errors.len() + refused.reasons.len();
    let mut message = if refused.errors.is_empty() {
        // The format cannot carry the flow (CWL: packages that cannot run…).
        format!(
            "the flow cannot be exported in this format ({count} reason{}):",
            if count == 1 { "" } else { "s" }
        )
    } else {
        format!(
            "the flow has {count} error{} and cannot be exported:",
            if count == 1 { "" } else { "s" }
        )
    };
    for error in refused.errors.iter().take(REFUSAL_ERRORS_SHOWN) {
        let line = lines.position(error.range.start()).line + 1;
        message.push_str(&format!(
            "\nline {line}: {} {}",
            error.code.as_str(),
            error.message
        ));
    }
    for reason in refused
        .reasons
        .iter()
        .take(REFUSAL_ERRORS_SHOWN.saturating_sub(refused.errors.len()))
    {
        message.push_str(&format!("\n{reason}"));
    }
    if count > REFUSAL_ERRORS_SHOWN {
        message.push_str(&format!("\n… and {} more", count - REFUSAL_ERRORS_SHOWN));
    }
    jsonrpc::Error {
        code: jsonrpc::ErrorCode::ServerError(lsp::error_codes::REQUEST_FAILED),
        message: message.into(),
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_as_the_text_they_insert() {
        assert_eq!(
            snippet_text("step ${1:Name} runs ${2:Package} ($0);"),
            "step Name runs Package ();"
        );
        assert_eq!(
            snippet_text("pre code ${1:python}\n$0\ncode end"),
            "pre code python\n\ncode end"
        );
        assert_eq!(snippet_text("a ${1:b ${2:c}} \\$5 ${3}$10"), "a b c $5 ");
    }

    #[test]
    fn markdown_as_plain_text() {
        assert_eq!(
            plain_text("```easyflow\nstep A runs P\n```\n---\n**parameters** `x`\n"),
            "step A runs P\n\nparameters `x`"
        );
    }
}
