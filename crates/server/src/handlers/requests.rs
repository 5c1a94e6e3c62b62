//! The request handlers. Each runs on a snapshot, off the message loop
//! (`dispatch.rs`): it turns the params into byte offsets, asks the
//! analysis, and converts the answer (`convert.rs`). `?` on the analysis's
//! `Cancellable` answers `ContentModified`.

use std::path::PathBuf;

use easyflow_ide::call_hierarchy::CallItem;
use easyflow_ide::symbols::{FlowSymbols, search_symbols};
use easyflow_ide::{Cancellable, SourceText, StepId, TextRange, TextSize};
use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::*;

use crate::capabilities::{
    APPLY_FIX_COMMAND, ClientCapabilities, FIX_ALL_KIND, server_capabilities,
};
use crate::convert;
use crate::dispatch::{HandlerError, HandlerResult, on_document, run_blocking};
use crate::line_index::LineIndex;
use crate::lsp_ext::{
    ExportParams, ExportResult, GraphParams, GraphPicture, GraphPictureParams, GraphResult,
    SHOW_DEPENDENTS_COMMAND, ShowDependentsArguments, ShowDependentsRequest,
};
use crate::server::Server;
use crate::state::{
    DocumentSnapshot, IndexedFlow, SharedState, WorkspaceSnapshot, indexed_flow, path_of,
};

/// The most symbols a workspace search returns.
const WORKSPACE_SYMBOLS_LIMIT: usize = 256;

/// Negotiates the position encoding, takes the client's capabilities, the
/// initial settings and the workspace folders. Answered on the message
/// loop: it touches only the state.
pub fn initialize(state: &SharedState, params: InitializeParams) -> InitializeResult {
    let client = ClientCapabilities::of(&params.capabilities);
    {
        let mut state = state.lock();
        state.client = client;
        if let Some(options) = &params.initialization_options {
            state.settings.update(options);
        }
        let mut folders: Vec<PathBuf> = params
            .workspace_folders
            .iter()
            .flatten()
            .filter_map(|f| path_of(&f.uri))
            .collect();
        #[allow(deprecated)] // Older clients send only `rootUri`.
        if folders.is_empty()
            && let Some(root) = params.root_uri.as_ref().and_then(path_of)
        {
            folders.push(root);
        }
        state.workspace_folders = folders;
    }
    InitializeResult {
        offset_encoding: None,
        server_info: Some(ServerInfo {
            name: "easyflow-ls".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
        capabilities: server_capabilities(&client),
    }
}

pub fn signature_help(
    s: &DocumentSnapshot,
    params: SignatureHelpParams,
) -> HandlerResult<Option<SignatureHelp>> {
    let offset = s.offset(params.text_document_position_params.position);
    let help = s.analysis.signature_help(s.file, offset)?;
    Ok(help.map(|help| convert::signature_help(&s.client, help)))
}

pub fn hover(s: &DocumentSnapshot, params: HoverParams) -> HandlerResult<Option<Hover>> {
    let offset = s.offset(params.text_document_position_params.position);
    let hover = s.analysis.hover(s.file, offset)?;
    Ok(hover.map(|hover| convert::hover(&s.lines(), &s.client, hover)))
}

pub fn completion(
    s: &DocumentSnapshot,
    params: CompletionParams,
) -> HandlerResult<Option<CompletionResponse>> {
    let offset = s.offset(params.text_document_position.position);
    let list = s.analysis.completions(s.file, offset)?;
    Ok(Some(convert::completion_list(
        &s.lines(),
        &s.uri,
        &s.client,
        list,
    )))
}

/// The documentation the completion list left out ([`convert::CompletionData`]),
/// found again in the document as it is now. Never an error: an item the
/// server did not make, of a document no longer open or of a name no longer
/// defined, or whose document changes meanwhile, comes back as it was.
pub async fn completion_resolve(state: &SharedState, item: CompletionItem) -> CompletionItem {
    let Some(data) = convert::CompletionData::of(&item).filter(|_| item.documentation.is_none())
    else {
        return item;
    };
    let Some(snapshot) = crate::workspace::flow_snapshot(state, &data.uri) else {
        return item;
    };
    let cancel = snapshot.analysis.cancellation_token();
    let unchanged = item.clone();
    let resolved = run_blocking("completionItem/resolve", cancel, move || {
        let mut item = item;
        if let Ok(Some(markdown)) = snapshot
            .analysis
            .completion_documentation(snapshot.file, &data.documentation)
        {
            item.documentation = Some(convert::completion_documentation(
                &snapshot.client,
                markdown,
            ));
        }
        Ok(item)
    })
    .await;
    resolved.unwrap_or(unchanged)
}

pub fn definition(
    s: &DocumentSnapshot,
    params: GotoDefinitionParams,
) -> HandlerResult<Option<GotoDefinitionResponse>> {
    let offset = s.offset(params.text_document_position_params.position);
    if let Some(target) = s.analysis.goto_definition(s.file, offset)? {
        let target = convert::Target::of(&s.lines(), &s.uri, &target);
        return Ok(Some(convert::definition(&s.client, vec![target])));
    }
    // A name the flow's catalog or topology declares.
    let targets = s.analysis.companion_definition(s.file, offset)?;
    let Some(first) = targets.first() else {
        return Ok(None);
    };
    let (path, text) = s.analysis.companion_source(first.companion)?;
    let Some(uri) = Uri::from_file_path(&path) else {
        return Ok(None);
    };
    let index = LineIndex::new(&text);
    let text = SourceText::from(text);
    let lines = convert::Lines {
        index: &index,
        text: &text,
        encoding: s.client.encoding,
    };
    let targets = targets
        .iter()
        .map(|target| convert::Target {
            uri: uri.clone(),
            full_range: lines.range(target.full_range),
            focus_range: lines.range(target.focus_range),
        })
        .collect();
    Ok(Some(convert::definition(&s.client, targets)))
}

pub fn references(
    s: &DocumentSnapshot,
    params: ReferenceParams,
) -> HandlerResult<Option<Vec<Location>>> {
    let offset = s.offset(params.text_document_position.position);
    let include_declaration = params.context.include_declaration;
    let usages = s.analysis.references(s.file, offset, include_declaration)?;
    let lines = s.lines();
    Ok(Some(
        usages
            .iter()
            .map(|u| convert::location(&lines, &s.uri, u))
            .collect(),
    ))
}

pub fn document_highlight(
    s: &DocumentSnapshot,
    params: DocumentHighlightParams,
) -> HandlerResult<Option<Vec<DocumentHighlight>>> {
    let offset = s.offset(params.text_document_position_params.position);
    let usages = s.analysis.highlights(s.file, offset)?;
    let lines = s.lines();
    Ok(Some(
        usages
            .iter()
            .map(|u| convert::highlight(&lines, u))
            .collect(),
    ))
}

/// Why a rename cannot be done: the request's error, for the editor to show.
fn refused(message: String) -> HandlerError {
    HandlerError::Failed(jsonrpc::Error::invalid_params(message))
}

pub fn prepare_rename(
    s: &DocumentSnapshot,
    params: TextDocumentPositionParams,
) -> HandlerResult<Option<PrepareRenameResponse>> {
    let offset = s.offset(params.position);
    let name = s
        .analysis
        .prepare_rename(s.file, offset)?
        .map_err(refused)?;
    Ok(Some(convert::prepare_rename(&s.lines(), name)))
}

pub fn rename(s: &DocumentSnapshot, params: RenameParams) -> HandlerResult<Option<WorkspaceEdit>> {
    let offset = s.offset(params.text_document_position.position);
    let edits = s
        .analysis
        .rename(s.file, offset, &params.new_name)?
        .map_err(refused)?;
    Ok(Some(convert::workspace_edit(&s.lines(), &s.uri, &edits)))
}

pub fn document_symbol(
    s: &DocumentSnapshot,
    _: DocumentSymbolParams,
) -> HandlerResult<Option<DocumentSymbolResponse>> {
    let symbols = s.analysis.document_symbols(s.file)?;
    Ok(Some(s.with_flat_lines(|lines| {
        convert::document_symbols(lines, &s.client, &s.uri, &symbols)
    })))
}

/// Steps of every flow known, by a fuzzy match of the query: the flows in
/// the analysis (the open documents, whose symbols are read now) and the
/// index of the others.
pub fn workspace_symbol(
    s: &WorkspaceSnapshot,
    params: WorkspaceSymbolParams,
) -> HandlerResult<Option<WorkspaceSymbolResponse>> {
    let mut analysed = Vec::with_capacity(s.files.len());
    for &file in &s.files {
        let Some(uri) = Uri::from_file_path(s.analysis.file_path(file)?) else {
            continue;
        };
        let symbols = s.analysis.flow_symbols(file)?;
        let text = s.analysis.file_text(file)?;
        analysed.push(indexed_flow(uri, symbols, text, s.client.encoding));
    }
    let flows: Vec<&IndexedFlow> = analysed
        .iter()
        .chain(s.indexed.iter().map(|flow| &**flow))
        .collect();
    let symbols: Vec<&FlowSymbols<Range>> = flows.iter().map(|flow| &flow.symbols).collect();
    let found = search_symbols(&symbols, &params.query, WORKSPACE_SYMBOLS_LIMIT);
    Ok(Some(WorkspaceSymbolResponse::Nested(
        convert::workspace_symbols(
            &s.client,
            found
                .into_iter()
                .map(|(f, step)| (&flows[f].uri, flows[f].symbols.container.as_ref(), step)),
        ),
    )))
}

pub fn semantic_tokens_full(
    s: &DocumentSnapshot,
    _: SemanticTokensParams,
) -> HandlerResult<Option<SemanticTokensResult>> {
    let tokens = s.analysis.semantic_tokens(s.file, None)?;
    Ok(Some(SemanticTokensResult::Tokens(s.with_flat_lines(
        |lines| convert::semantic_tokens(lines, &tokens),
    ))))
}

pub fn semantic_tokens_range(
    s: &DocumentSnapshot,
    params: SemanticTokensRangeParams,
) -> HandlerResult<Option<SemanticTokensRangeResult>> {
    let range = s.lines().text_range(params.range);
    let tokens = s.analysis.semantic_tokens(s.file, Some(range))?;
    Ok(Some(SemanticTokensRangeResult::Tokens(
        convert::semantic_tokens(&s.lines(), &tokens),
    )))
}

/// The edits that format the document as `easyflow fmt` would (its
/// `easyflow.toml`'s `[format]` settings; the client's options do not
/// apply), or none with syntax errors.
pub fn formatting(
    s: &DocumentSnapshot,
    _: DocumentFormattingParams,
) -> HandlerResult<Option<Vec<TextEdit>>> {
    let options = crate::workspace::format_options(s.analysis.file_path(s.file)?);
    let edits = s.analysis.formatting(s.file, &options)?;
    Ok(edits.map(|edits| convert::text_edits(&s.lines(), &edits)))
}

/// The edits that format the top-level items the range touches.
pub fn range_formatting(
    s: &DocumentSnapshot,
    params: DocumentRangeFormattingParams,
) -> HandlerResult<Option<Vec<TextEdit>>> {
    let options = crate::workspace::format_options(s.analysis.file_path(s.file)?);
    let range = s.lines().text_range(params.range);
    let edits = s.analysis.range_formatting(s.file, range, &options)?;
    Ok(edits.map(|edits| convert::text_edits(&s.lines(), &edits)))
}

pub fn folding_range(
    s: &DocumentSnapshot,
    _: FoldingRangeParams,
) -> HandlerResult<Option<Vec<FoldingRange>>> {
    let folds = s.analysis.folding_ranges(s.file)?;
    // The client's limit keeps the first folds.
    let limit = s
        .client
        .folding_range_limit
        .map_or(usize::MAX, |l| l as usize);
    Ok(Some(s.with_flat_lines(|lines| {
        folds
            .iter()
            .take(limit)
            .map(|fold| convert::folding_range(lines, fold))
            .collect()
    })))
}

pub fn selection_range(
    s: &DocumentSnapshot,
    params: SelectionRangeParams,
) -> HandlerResult<Option<Vec<SelectionRange>>> {
    let offsets: Vec<TextSize> = params.positions.iter().map(|p| s.offset(*p)).collect();
    let chains = s.analysis.selection_ranges(s.file, &offsets)?;
    let lines = s.lines();
    Ok(Some(
        chains
            .iter()
            .map(|chain| convert::selection_range(&lines, chain))
            .collect(),
    ))
}

pub fn code_action(
    s: &DocumentSnapshot,
    params: CodeActionParams,
) -> HandlerResult<Option<CodeActionResponse>> {
    if !s.client.code_actions() {
        return Ok(Some(Vec::new()));
    }
    let range = s.lines().text_range(params.range);
    let only = params.context.only.as_deref();
    // A kind is asked for when `only` is absent or lists it or a kind it
    // is under (`source` and `source.fixAll` take `source.fixAll.easyflow`).
    let asked = |kind: &str| {
        only.is_none_or(|only| {
            only.iter().any(|o| {
                kind.strip_prefix(o.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
            })
        })
    };
    let mut actions = match asked(CodeActionKind::QUICKFIX.as_str()) {
        true => s.analysis.code_actions(s.file, range)?,
        false => Vec::new(),
    };
    // Fix-all reads every fix of the file: computed when it is asked for
    // by kind (on save, a source action menu), or with no kind given when
    // the user asked (not for a light bulb's automatic request).
    let fix_all = match only {
        Some(_) => asked(FIX_ALL_KIND),
        None => params.context.trigger_kind != Some(CodeActionTriggerKind::AUTOMATIC),
    };
    if fix_all {
        actions.extend(s.analysis.fix_all(s.file)?);
    }
    let lines = s.lines();
    Ok(Some(
        actions
            .iter()
            .map(|action| convert::code_action(&lines, &s.client, &s.uri, s.version, action))
            .collect(),
    ))
}

pub fn inlay_hint(
    s: &DocumentSnapshot,
    params: InlayHintParams,
) -> HandlerResult<Option<Vec<InlayHint>>> {
    if !s.settings.inlay_hints_instances {
        return Ok(Some(Vec::new()));
    }
    let range = s.lines().text_range(params.range);
    let hints = s.analysis.inlay_hints(s.file, Some(range))?;
    let lines = s.lines();
    Ok(Some(
        hints
            .iter()
            .map(|hint| convert::inlay_hint(&lines, hint))
            .collect(),
    ))
}

pub fn code_lens(s: &DocumentSnapshot, _: CodeLensParams) -> HandlerResult<Option<Vec<CodeLens>>> {
    if !s.settings.code_lens {
        return Ok(Some(Vec::new()));
    }
    let lenses = s.analysis.code_lenses(s.file)?;
    Ok(Some(s.with_flat_lines(|lines| {
        lenses
            .iter()
            .map(|lens| convert::code_lens(lines, &s.uri, lens))
            .collect()
    })))
}

/// [`SHOW_DEPENDENTS_COMMAND`] run on the server: the dependents of the
/// step at the position, in the document as it is now.
pub fn show_dependents(
    s: &DocumentSnapshot,
    arguments: ShowDependentsArguments,
) -> HandlerResult<Option<Vec<Location>>> {
    let offset = s.offset(arguments.1);
    let Some(places) = s.analysis.dependents(s.file, offset)? else {
        return Ok(Some(Vec::new()));
    };
    Ok(Some(convert::dependents(&s.lines(), &s.uri, &places)))
}

pub fn prepare_call_hierarchy(
    s: &DocumentSnapshot,
    params: CallHierarchyPrepareParams,
) -> HandlerResult<Option<Vec<CallHierarchyItem>>> {
    let offset = s.offset(params.text_document_position_params.position);
    let item = s.analysis.call_hierarchy_item(s.file, offset)?;
    Ok(item.map(|item| vec![convert::call_item(&s.lines(), &s.uri, &item)]))
}

pub fn incoming_calls(
    s: &DocumentSnapshot,
    params: CallHierarchyIncomingCallsParams,
) -> HandlerResult<Option<Vec<CallHierarchyIncomingCall>>> {
    calls(
        s,
        &params.item,
        |step| s.analysis.incoming_calls(s.file, step),
        |from, from_ranges| CallHierarchyIncomingCall { from, from_ranges },
    )
}

pub fn outgoing_calls(
    s: &DocumentSnapshot,
    params: CallHierarchyOutgoingCallsParams,
) -> HandlerResult<Option<Vec<CallHierarchyOutgoingCall>>> {
    calls(
        s,
        &params.item,
        |step| s.analysis.outgoing_calls(s.file, step),
        |to, from_ranges| CallHierarchyOutgoingCall { to, from_ranges },
    )
}

/// The calls of an item's step, each made by `call` from the other step's
/// item and where the dependency is written. `null` for an item that is no
/// step of ours.
fn calls<T>(
    s: &DocumentSnapshot,
    item: &CallHierarchyItem,
    compute: impl FnOnce(StepId) -> Cancellable<Vec<(CallItem, Vec<TextRange>)>>,
    call: fn(CallHierarchyItem, Vec<Range>) -> T,
) -> HandlerResult<Option<Vec<T>>> {
    let Some(step) = convert::step_of(item) else {
        return Ok(None);
    };
    let calls = compute(step)?;
    let lines = s.lines();
    Ok(Some(
        calls
            .iter()
            .map(|(item, ranges)| {
                call(
                    convert::call_item(&lines, &s.uri, item),
                    ranges.iter().map(|r| lines.range(*r)).collect(),
                )
            })
            .collect(),
    ))
}

/// `easyflow/graph` (`docs/lsp-extensions.md`).
pub fn graph(s: &DocumentSnapshot, params: GraphParams) -> HandlerResult<Option<GraphResult>> {
    let graph = s.analysis.graph(s.file)?;
    let picture = match params.picture {
        true => Some(s.analysis.graph_picture(s.file)?),
        false => None,
    };
    Ok(Some(s.with_flat_lines(|lines| {
        convert::graph(lines, graph, picture)
    })))
}

/// `easyflow/graphPicture` (`docs/lsp-extensions.md`).
pub fn graph_picture(
    s: &DocumentSnapshot,
    _: GraphPictureParams,
) -> HandlerResult<Option<GraphPicture>> {
    let picture = s.analysis.graph_picture_for_view(s.file)?;
    Ok(Some(s.with_flat_lines(|lines| {
        convert::graph_picture(lines, picture)
    })))
}

/// `easyflow/export` (`docs/lsp-extensions.md`): the bytes of `easyflow
/// export`, or `RequestFailed` listing the flow's errors.
pub fn export(s: &DocumentSnapshot, params: ExportParams) -> HandlerResult<Option<ExportResult>> {
    match s.analysis.export(s.file, params.to)? {
        Ok(exported) => Ok(Some(ExportResult {
            text: exported.text,
        })),
        Err(refused) => Err(HandlerError::Failed(convert::export_refused(
            &s.lines(),
            &refused,
        ))),
    }
}

/// `workspace/executeCommand` of [`APPLY_FIX_COMMAND`], the code actions of
/// a client without code action literals: the fix's edit goes back to the
/// client through `workspace/applyEdit`, unless the document changed since
/// the fix was made for it. Awaits the client's answer: a request's
/// handler, unlike a notification's, does not hold up the message loop.
pub async fn execute_command(
    server: &Server,
    params: ExecuteCommandParams,
) -> jsonrpc::Result<Option<LSPAny>> {
    let failed = |message: String| jsonrpc::Error {
        code: jsonrpc::ErrorCode::ServerError(error_codes::REQUEST_FAILED),
        message: message.into(),
        data: None,
    };
    if params.command == SHOW_DEPENDENTS_COMMAND {
        let arguments: ShowDependentsArguments =
            serde_json::from_value(LSPAny::Array(params.arguments)).map_err(|error| {
                jsonrpc::Error::invalid_params(format!(
                    "the arguments of `{SHOW_DEPENDENTS_COMMAND}` are `[uri, position, locations]`: {error}"
                ))
            })?;
        let locations =
            on_document::<ShowDependentsRequest>(&server.state, arguments, show_dependents).await?;
        return Ok(Some(serde_json::to_value(locations).unwrap_or_default()));
    }
    if params.command != APPLY_FIX_COMMAND {
        return Err(jsonrpc::Error::invalid_params(format!(
            "unknown command `{}`",
            params.command
        )));
    }
    let Some((uri, version, edit)) = convert::fix_of_command(&params.arguments) else {
        return Err(jsonrpc::Error::invalid_params(
            "the command's argument is not a fix",
        ));
    };
    let current = {
        let state = server.state.lock();
        state.documents.get(&uri).map(|document| document.version)
    };
    if current != version {
        return Err(failed(
            "the document changed since the fix was offered".to_string(),
        ));
    }
    match server.client.apply_edit(edit).await {
        Ok(response) if response.applied => Ok(None),
        Ok(response) => Err(failed(format!(
            "the client did not apply the fix: {}",
            response.failure_reason.unwrap_or_default()
        ))),
        Err(error) => Err(error),
    }
}
