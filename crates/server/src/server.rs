//! The LSP handlers. Notifications that change text apply to the database
//! synchronously, before any `.await`, so changes land in the order the
//! client sent them; requests run on a database snapshot in a blocking task,
//! inside salsa's cancellation: a request made stale by a later edit answers
//! `ContentModified`, and `$/cancelRequest` cancels its computation.

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use easyflow_db::{Database, SourceFile, discovery, graph_view, parse_topology};
use easyflow_diagnostics::{TextRange, TextSize};
use easyflow_ide as ide;
use line_index::LineIndex;
use salsa::Database as _;
use serde::Deserialize;
use serde_json::json;
use tower_lsp_server::jsonrpc::{self, ErrorCode};
use tower_lsp_server::ls_types::{self as lsp, *};
use tower_lsp_server::{Client, LanguageServer};

use crate::convert::{self, Encoding, Lines};
use crate::state::{Document, DocumentKind, State, path_of};

#[derive(Clone)]
pub struct Backend {
    client: Client,
    state: Arc<Mutex<State>>,
    /// Serialises publishing, so a result checked as current is published
    /// before any newer one (never a stale one after it).
    publishing: Arc<tokio::sync::Mutex<()>>,
    /// Documents whose diagnostics task has not started yet: a burst of
    /// changes schedules one computation, for the latest version.
    pending: Arc<Mutex<std::collections::HashSet<Uri>>>,
    /// Becomes true when the workspace's flows have been read.
    indexed: Arc<tokio::sync::watch::Sender<bool>>,
}

/// What a request needs, detached from the server state.
struct Snapshot {
    db: Database,
    file: SourceFile,
    text: Arc<str>,
    lines: Arc<LineIndex>,
    encoding: Encoding,
    settings: crate::state::Settings,
}

impl Snapshot {
    fn lines(&self) -> Lines<'_> {
        Lines {
            index: &self.lines,
            text: &self.text,
            encoding: self.encoding,
        }
    }

    fn offset(&self, position: Position) -> TextSize {
        self.lines().offset(position)
    }

    fn range(&self, range: TextRange) -> Range {
        self.lines().range(range)
    }
}

fn content_modified() -> jsonrpc::Error {
    jsonrpc::Error {
        code: ErrorCode::ServerError(-32801),
        message: "content modified".into(),
        data: None,
    }
}

/// Cancels a request's computation when its future is dropped (by
/// `$/cancelRequest`) before the computation finished.
struct CancelOnDrop(Option<salsa::CancellationToken>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(token) = self.0.take() {
            token.cancel();
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GraphParams {
    text_document: TextDocumentIdentifier,
}

impl Backend {
    pub fn new(client: Client) -> Self {
        Backend {
            client,
            state: Arc::new(Mutex::new(State::new())),
            publishing: Arc::new(tokio::sync::Mutex::new(())),
            indexed: Arc::new(tokio::sync::watch::channel(false).0),
            pending: Arc::new(Mutex::new(std::collections::HashSet::new())),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves consistent data (every write is
        // a single salsa setter), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A snapshot for a request on `uri`: the open document, or the file read
    /// from disk when the editor has not opened it. `None` for unknown files.
    fn snapshot(&self, uri: &Uri) -> Option<Snapshot> {
        let mut state = self.state();
        let path = path_of(uri)?;
        let (text, lines): (Arc<str>, Arc<LineIndex>) = match state.documents.get(uri) {
            Some(document) if document.kind == DocumentKind::Flow => {
                (document.text.clone(), document.lines.clone())
            }
            Some(_) => return None,
            None => {
                if DocumentKind::of(&path) != Some(DocumentKind::Flow) {
                    return None;
                }
                let text = std::fs::read_to_string(&path).ok()?;
                let file = state.set_flow(&path, &text);
                state.discover_topology(file);
                let lines = Arc::new(LineIndex::new(&text));
                state.disk_lines.insert(path.clone(), lines.clone());
                (text.into(), lines)
            }
        };
        let file = *state.flows.get(&path)?;
        tracing::trace!("snapshot for {}", uri.as_str());
        Some(Snapshot {
            db: state.db.clone(),
            file,
            text,
            lines,
            encoding: state.encoding,
            settings: state.settings.clone(),
        })
    }

    /// Runs `work` on a snapshot of `uri` off the async runtime.
    async fn run<T, F>(&self, uri: &Uri, work: F) -> jsonrpc::Result<Option<T>>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot) -> Option<T> + Send + 'static,
    {
        let Some(snapshot) = self.snapshot(uri) else {
            return Ok(None);
        };
        self.run_on(snapshot, work).await
    }

    async fn run_on<T, F>(&self, snapshot: Snapshot, work: F) -> jsonrpc::Result<Option<T>>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot) -> Option<T> + Send + 'static,
    {
        let mut cancel = CancelOnDrop(Some(snapshot.db.cancellation_token()));
        let task = tokio::task::spawn_blocking(move || {
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                salsa::Cancelled::catch(AssertUnwindSafe(|| work(&snapshot)))
            }))
        });
        let outcome = task.await;
        tracing::trace!("request work finished");
        cancel.0 = None;
        match outcome {
            Ok(Ok(Ok(value))) => Ok(value),
            Ok(Ok(Err(cancelled))) => {
                tracing::debug!("request cancelled: {cancelled}");
                Err(content_modified())
            }
            Ok(Err(panic)) => {
                let message = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("unknown panic");
                tracing::error!("a request handler panicked: {message}");
                Err(jsonrpc::Error {
                    code: ErrorCode::InternalError,
                    message: format!("internal error: {message}").into(),
                    data: None,
                })
            }
            Err(error) => {
                tracing::error!("a request task failed: {error}");
                Err(jsonrpc::Error::internal_error())
            }
        }
    }

    /// Computes and publishes the diagnostics of an open document, unless a
    /// newer version arrives first.
    fn schedule_diagnostics(&self, uri: Uri) {
        if !self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(uri.clone())
        {
            return; // the task already scheduled will see this change
        }
        let state = self.state.clone();
        let client = self.client.clone();
        let publishing = self.publishing.clone();
        let pending = self.pending.clone();
        tokio::spawn(async move {
            pending
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&uri);
            let prepared = {
                let state = state.lock().unwrap_or_else(|e| e.into_inner());
                prepare_diagnostics(&state, &uri)
            };
            let Some((version, work)) = prepared else {
                return;
            };
            let started = std::time::Instant::now();
            let computed = tokio::task::spawn_blocking(move || {
                std::panic::catch_unwind(AssertUnwindSafe(|| {
                    salsa::Cancelled::catch(AssertUnwindSafe(work))
                }))
            })
            .await;
            let diagnostics = match computed {
                Ok(Ok(Ok(diagnostics))) => diagnostics,
                Ok(Ok(Err(_))) => {
                    tracing::debug!("diagnostics of version {version} cancelled");
                    return; // a newer edit will publish
                }
                Ok(Err(_)) | Err(_) => {
                    tracing::error!("computing diagnostics of {} failed", uri.as_str());
                    return;
                }
            };
            let _turn = publishing.lock().await;
            let current = {
                let state = state.lock().unwrap_or_else(|e| e.into_inner());
                state.documents.get(&uri).map(|d| d.version)
            };
            if current == Some(version) {
                tracing::debug!(
                    "diagnostics of version {version} in {:?}",
                    started.elapsed()
                );
                client
                    .publish_diagnostics(uri, diagnostics, Some(version))
                    .await;
            }
        });
    }

    fn schedule_all_open(&self) {
        let uris: Vec<Uri> = self.state().documents.keys().cloned().collect();
        for uri in uris {
            self.schedule_diagnostics(uri);
        }
    }

    /// `easyflow/graph`: the JSON graph of `easyflow graph`, with each node's range.
    pub async fn graph(&self, params: GraphParams) -> jsonrpc::Result<serde_json::Value> {
        let result = self
            .run(&params.text_document.uri, |s| {
                let view = graph_view(&s.db, s.file);
                let mut value = ide::graph::to_json(view);
                let ranges: Vec<Option<TextRange>> = view
                    .nodes
                    .iter()
                    .map(|n| {
                        ide::defs::range_of(
                            &s.db,
                            s.file,
                            easyflow_db::diagnostics::Anchor::StepName(n.step),
                        )
                    })
                    .collect();
                if let Some(nodes) = value.get_mut("nodes").and_then(|n| n.as_array_mut()) {
                    for (node, range) in nodes.iter_mut().zip(ranges) {
                        node["range"] =
                            range.map_or(serde_json::Value::Null, |r| json!(s.range(r)));
                    }
                }
                Some(value)
            })
            .await?;
        Ok(result.unwrap_or(serde_json::Value::Null))
    }

    fn apply_settings(&self, value: &serde_json::Value) {
        let mut state = self.state();
        let before = state.settings.clone();
        state.settings.update(value);
        if state.settings.topology != before.topology {
            for file in state.flows.values().copied().collect::<Vec<_>>() {
                state.discover_topology(file);
            }
        }
    }

    async fn register_watchers(&self) {
        if !self.state().dynamic_watching {
            return;
        }
        let watchers: Vec<FileSystemWatcher> = ["**/*.topology", "**/easyflow.toml", "**/*.flow"]
            .into_iter()
            .map(|glob| FileSystemWatcher {
                glob_pattern: GlobPattern::String(glob.to_string()),
                kind: None,
            })
            .collect();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let registration = Registration {
            id: "easyflow-watched-files".to_string(),
            method: "workspace/didChangeWatchedFiles".to_string(),
            register_options: serde_json::to_value(options).ok(),
        };
        if let Err(error) = self.client.register_capability(vec![registration]).await {
            tracing::warn!("the client refused file watching: {error}");
        }
    }

    /// Reads every `.flow` file of the workspace folders (for workspace
    /// symbols), reporting progress on large workspaces.
    async fn index_workspace(&self) {
        let progress_supported = self.state().work_done_progress;
        let folders = self.state().workspace_folders.clone();
        let paths: Vec<PathBuf> = tokio::task::spawn_blocking(move || {
            folders
                .iter()
                .flat_map(|folder| ignore::WalkBuilder::new(folder).build().flatten())
                .map(|entry| entry.into_path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "flow"))
                .collect()
        })
        .await
        .unwrap_or_default();
        tracing::info!("indexing {} flows of the workspace", paths.len());
        const PROGRESS_THRESHOLD: usize = 20;
        let progress = if progress_supported && paths.len() >= PROGRESS_THRESHOLD {
            let token = ProgressToken::String("easyflow-indexing".to_string());
            match self.client.create_work_done_progress(token.clone()).await {
                Ok(()) => Some(
                    self.client
                        .progress(token, "Indexing EasyFlow files")
                        .with_percentage(0)
                        .begin()
                        .await,
                ),
                Err(_) => None,
            }
        } else {
            None
        };
        const BATCH: usize = 50;
        let total = paths.len().max(1);
        for (batch, chunk) in paths.chunks(BATCH).enumerate() {
            let chunk = chunk.to_vec();
            let read: Vec<(PathBuf, String)> = tokio::task::spawn_blocking(move || {
                chunk
                    .into_iter()
                    .filter_map(|p| Some((p.clone(), std::fs::read_to_string(&p).ok()?)))
                    .collect()
            })
            .await
            .unwrap_or_default();
            {
                let mut state = self.state();
                for (path, text) in read {
                    let open = state
                        .documents
                        .keys()
                        .any(|uri| path_of(uri).as_deref() == Some(path.as_path()));
                    if !open {
                        state.set_flow(&path, &text);
                    }
                }
            }
            if let Some(progress) = &progress {
                let done = ((batch + 1) * BATCH).min(total);
                progress
                    .report_with_message(format!("{done}/{total}"), (done * 100 / total) as u32)
                    .await;
            }
        }
        if let Some(progress) = progress {
            progress
                .finish_with_message(format!("{} files", paths.len()))
                .await;
        }
        tracing::info!("indexed {} flows", paths.len());
        self.indexed.send_replace(true);
    }
}

/// What publishing an open document's diagnostics needs: its version and the
/// computation to run on a snapshot.
type DiagnosticsWork = Box<dyn FnOnce() -> Vec<Diagnostic> + Send>;

fn prepare_diagnostics(state: &State, uri: &Uri) -> Option<(i32, DiagnosticsWork)> {
    let document = state.documents.get(uri)?;
    let path = path_of(uri)?;
    let version = document.version;
    let db = state.db.clone();
    let text = document.text.clone();
    let lines = document.lines.clone();
    let encoding = state.encoding;
    let docs = state.docs_url();
    let uri = uri.clone();
    let work: DiagnosticsWork = match document.kind {
        DocumentKind::Flow => {
            let file = *state.flows.get(&path)?;
            Box::new(move || {
                let lines = Lines {
                    index: &lines,
                    text: &text,
                    encoding,
                };
                db.check(file)
                    .iter()
                    .map(|d| convert::diagnostic(&lines, &uri, docs.as_deref(), d))
                    .collect()
            })
        }
        DocumentKind::Topology => {
            let topology = *state.topologies.get(&path)?;
            Box::new(move || {
                let lines = Lines {
                    index: &lines,
                    text: &text,
                    encoding,
                };
                parse_topology(&db, topology)
                    .diagnostics
                    .iter()
                    .map(|d| convert::diagnostic(&lines, &uri, docs.as_deref(), d))
                    .collect()
            })
        }
        DocumentKind::Config => Box::new(move || {
            let lines = Lines {
                index: &lines,
                text: &text,
                encoding,
            };
            let overlay = discovery::Disk;
            discovery::config_diagnostics(&path, &text, &overlay)
                .iter()
                .map(|d| convert::diagnostic(&lines, &uri, docs.as_deref(), d))
                .collect()
        }),
    };
    Some((version, work))
}

/// The most completion items sent at once.
const MAX_COMPLETIONS: usize = 200;

/// The `limit` items that best match `typed` (ASCII case-insensitive):
/// prefix matches first, then subsequence matches, each in their original
/// order. Allocation-free per item: it runs over every step of large flows.
fn best_completions(
    items: Vec<ide::completion::CompletionItem>,
    typed: &str,
    limit: usize,
) -> Vec<ide::completion::CompletionItem> {
    let rank = |label: &str| -> Option<u8> {
        let prefix = label.len() >= typed.len()
            && label.is_char_boundary(typed.len())
            && label[..typed.len()].eq_ignore_ascii_case(typed);
        if prefix {
            return Some(0);
        }
        let mut chars = label.chars();
        typed
            .chars()
            .all(|c| chars.any(|l| l.eq_ignore_ascii_case(&c)))
            .then_some(1)
    };
    let mut ranked: Vec<(u8, usize)> = items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| Some((rank(&item.label)?, i)))
        .collect();
    ranked.sort_unstable();
    ranked.truncate(limit);
    let mut items: Vec<Option<ide::completion::CompletionItem>> =
        items.into_iter().map(Some).collect();
    ranked
        .into_iter()
        .filter_map(|(_, i)| items[i].take())
        .collect()
}

fn markdown(value: String) -> MarkupContent {
    MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    }
}

fn text_edit(s: &Snapshot, edit: &ide::TextEdit) -> lsp::TextEdit {
    lsp::TextEdit {
        range: s.range(edit.range),
        new_text: edit.insert.clone(),
    }
}

fn symbol_kind(kind: ide::symbols::SymbolKind) -> lsp::SymbolKind {
    use ide::symbols::SymbolKind as K;
    match kind {
        K::Step => lsp::SymbolKind::FUNCTION,
        K::LongRunningStep => lsp::SymbolKind::EVENT,
        K::File => lsp::SymbolKind::FILE,
        K::FlowAttribute => lsp::SymbolKind::PROPERTY,
        K::Parameter => lsp::SymbolKind::VARIABLE,
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn document_symbol(s: &Snapshot, symbol: &ide::symbols::DocumentSymbol) -> lsp::DocumentSymbol {
    lsp::DocumentSymbol {
        name: symbol.name.clone(),
        detail: symbol.detail.clone(),
        kind: symbol_kind(symbol.kind),
        tags: None,
        deprecated: None,
        range: s.range(symbol.range),
        selection_range: s.range(symbol.selection_range),
        children: (!symbol.children.is_empty()).then(|| {
            symbol
                .children
                .iter()
                .map(|c| document_symbol(s, c))
                .collect()
        }),
    }
}

fn call_item(s: &Snapshot, uri: &Uri, item: &ide::call_hierarchy::CallItem) -> CallHierarchyItem {
    CallHierarchyItem {
        name: item.name.clone(),
        kind: lsp::SymbolKind::FUNCTION,
        tags: None,
        detail: item.detail.clone(),
        uri: uri.clone(),
        range: s.range(item.range),
        selection_range: s.range(item.selection_range),
        data: Some(json!({ "step": item.step.0 })),
    }
}

fn step_of(item: &CallHierarchyItem) -> Option<easyflow_db::StepId> {
    let step = item.data.as_ref()?.get("step")?.as_u64()?;
    Some(easyflow_db::StepId(u32::try_from(step).ok()?))
}

/// Splits tokens that span lines (the protocol's tokens are single-line)
/// and encodes them relative to each other.
fn encode_tokens(
    s: &Snapshot,
    tokens: &[ide::semantic_tokens::SemanticToken],
) -> Vec<lsp::SemanticToken> {
    let lines = s.lines();
    let mut out = Vec::with_capacity(tokens.len());
    let (mut previous_line, mut previous_start) = (0, 0);
    for token in tokens {
        let text = &s.text[token.range];
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
    out
}

fn uri_of(path: &Path) -> Option<Uri> {
    Uri::from_file_path(path)
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> jsonrpc::Result<InitializeResult> {
        let offered = params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref())
            .is_some_and(|encodings| encodings.contains(&PositionEncodingKind::UTF8));
        let encoding = if offered {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        };
        {
            let mut state = self.state();
            state.encoding = encoding;
            state.work_done_progress = params
                .capabilities
                .window
                .as_ref()
                .and_then(|w| w.work_done_progress)
                .unwrap_or(false);
            state.dynamic_watching = params
                .capabilities
                .workspace
                .as_ref()
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|w| w.dynamic_registration)
                .unwrap_or(false);
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
        let legend = SemanticTokensLegend {
            token_types: ide::semantic_tokens::TOKEN_TYPES
                .iter()
                .map(|t| SemanticTokenType::new(t))
                .collect(),
            token_modifiers: ide::semantic_tokens::TOKEN_MODIFIERS
                .iter()
                .map(|m| SemanticTokenModifier::new(m))
                .collect(),
        };
        Ok(InitializeResult {
            offset_encoding: None,
            server_info: Some(ServerInfo {
                name: "easyflow-ls".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            capabilities: ServerCapabilities {
                position_encoding: Some(match encoding {
                    Encoding::Utf8 => PositionEncodingKind::UTF8,
                    Encoding::Utf16 => PositionEncodingKind::UTF16,
                }),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                        ..Default::default()
                    },
                )),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(vec![
                        ".".into(),
                        "[".into(),
                        ":".into(),
                        "+".into(),
                        "\"".into(),
                        " ".into(),
                        ",".into(),
                    ]),
                    ..Default::default()
                }),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                document_highlight_provider: Some(OneOf::Left(true)),
                rename_provider: Some(OneOf::Right(RenameOptions {
                    prepare_provider: Some(true),
                    work_done_progress_options: Default::default(),
                })),
                document_symbol_provider: Some(OneOf::Left(true)),
                workspace_symbol_provider: Some(OneOf::Left(true)),
                semantic_tokens_provider: Some(
                    SemanticTokensServerCapabilities::SemanticTokensOptions(
                        SemanticTokensOptions {
                            legend,
                            range: Some(true),
                            full: Some(SemanticTokensFullOptions::Bool(true)),
                            ..Default::default()
                        },
                    ),
                ),
                folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
                selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
                code_action_provider: Some(CodeActionProviderCapability::Options(
                    CodeActionOptions {
                        code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                        ..Default::default()
                    },
                )),
                inlay_hint_provider: Some(OneOf::Left(true)),
                code_lens_provider: Some(CodeLensOptions {
                    resolve_provider: Some(false),
                }),
                call_hierarchy_provider: Some(CallHierarchyServerCapability::Simple(true)),
                workspace: Some(WorkspaceServerCapabilities {
                    workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                        supported: Some(true),
                        change_notifications: Some(OneOf::Left(true)),
                    }),
                    file_operations: None,
                }),
                ..Default::default()
            },
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        // Requests to the client are answered through the same message loop
        // that runs this handler: awaiting them here would deadlock it.
        tracing::info!("initialized");
        let backend = self.clone();
        tokio::spawn(async move {
            backend.register_watchers().await;
            backend.index_workspace().await;
        });
    }

    async fn shutdown(&self) -> jsonrpc::Result<()> {
        // The exit status is decided by the order of `shutdown` and `exit`
        // in the input (`transport.rs`).
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        let Some(path) = path_of(&document.uri) else {
            return;
        };
        let Some(kind) = DocumentKind::of(&path) else {
            return;
        };
        {
            let mut state = self.state();
            let lines = Arc::new(LineIndex::new(&document.text));
            state.documents.insert(
                document.uri.clone(),
                Document {
                    kind,
                    version: document.version,
                    text: document.text.as_str().into(),
                    lines,
                },
            );
            match kind {
                DocumentKind::Flow => {
                    let file = state.set_flow(&path, &document.text);
                    state.discover_topology(file);
                }
                DocumentKind::Topology => {
                    state.topology_file(&path);
                    state.refresh_topology(&path);
                }
                DocumentKind::Config => {
                    for file in state.flows.values().copied().collect::<Vec<_>>() {
                        state.discover_topology(file);
                    }
                }
            }
        }
        if kind == DocumentKind::Flow {
            self.schedule_diagnostics(document.uri);
        } else {
            self.schedule_all_open();
        }
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let kind = {
            let mut state = self.state();
            let encoding = state.encoding;
            let Some(document) = state.documents.get_mut(&uri) else {
                tracing::warn!(
                    "didChange for a document that is not open: {}",
                    uri.as_str()
                );
                return;
            };
            tracing::debug!("received version {}", params.text_document.version);
            let mut text = document.text.to_string();
            let mut lines = document.lines.clone();
            // One edit inside one step: reparse only that step.
            let mut edit = None;
            let single_change = params.content_changes.len() == 1;
            for change in params.content_changes {
                match change.range {
                    Some(range) => {
                        let range = Lines {
                            index: &lines,
                            text: &text,
                            encoding,
                        }
                        .text_range(range);
                        text.replace_range(std::ops::Range::<usize>::from(range), &change.text);
                        if single_change {
                            edit = Some((range, change.text.clone()));
                        }
                    }
                    None => text = change.text,
                }
                lines = Arc::new(LineIndex::new(&text));
            }
            document.version = params.text_document.version;
            tracing::debug!("applied version {}", document.version);
            document.text = text.as_str().into();
            document.lines = lines;
            let kind = document.kind;
            let Some(path) = path_of(&uri) else { return };
            match kind {
                DocumentKind::Flow => {
                    let reparsed = edit.and_then(|(deleted, inserted)| {
                        let file = *state.flows.get(&path)?;
                        let old = easyflow_db::parse(&state.db, file);
                        easyflow_syntax::reparse(old, deleted, &inserted, &text)
                    });
                    state.set_flow_reparsed(&path, &text, reparsed);
                    tracing::debug!("set the text of version {}", params.text_document.version);
                }
                DocumentKind::Topology => state.refresh_topology(&path),
                DocumentKind::Config => {
                    for file in state.flows.values().copied().collect::<Vec<_>>() {
                        state.discover_topology(file);
                    }
                }
            }
            kind
        };
        if kind == DocumentKind::Flow {
            self.schedule_diagnostics(uri);
        } else {
            self.schedule_all_open();
        }
    }

    async fn did_save(&self, _: DidSaveTextDocumentParams) {}

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        {
            let mut state = self.state();
            let Some(document) = state.documents.remove(&uri) else {
                return;
            };
            // The disk's text replaces the editor's (or the file goes, if deleted).
            if let Some(path) = path_of(&uri) {
                match (document.kind, std::fs::read_to_string(&path)) {
                    (DocumentKind::Flow, Ok(text)) => {
                        state.set_flow(&path, &text);
                    }
                    (DocumentKind::Flow, Err(_)) => {
                        state.flows.remove(&path);
                    }
                    (DocumentKind::Topology, _) => state.refresh_topology(&path),
                    (DocumentKind::Config, _) => {
                        for file in state.flows.values().copied().collect::<Vec<_>>() {
                            state.discover_topology(file);
                        }
                    }
                }
            }
        }
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
        self.schedule_all_open();
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.apply_settings(&params.settings);
        self.schedule_all_open();
        // Requests to the client go through the message loop running this
        // handler: spawned, not awaited here.
        let client = self.client.clone();
        tokio::spawn(async move {
            let _ = client.inlay_hint_refresh().await;
            let _ = client.code_lens_refresh().await;
        });
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        {
            let mut state = self.state();
            for change in params.changes {
                let Some(path) = path_of(&change.uri) else {
                    continue;
                };
                let open = state.documents.contains_key(&change.uri);
                match DocumentKind::of(&path) {
                    Some(DocumentKind::Topology) => state.refresh_topology(&path),
                    Some(DocumentKind::Config) => {}
                    Some(DocumentKind::Flow) if !open => match std::fs::read_to_string(&path) {
                        Ok(text) => {
                            state.set_flow(&path, &text);
                        }
                        Err(_) => {
                            state.flows.remove(&path);
                        }
                    },
                    _ => {}
                }
            }
            // A topology created or deleted, or a configuration changed, can
            // change which topology any flow uses.
            for file in state.flows.values().copied().collect::<Vec<_>>() {
                state.discover_topology(file);
            }
        }
        self.schedule_all_open();
    }

    async fn hover(&self, params: HoverParams) -> jsonrpc::Result<Option<Hover>> {
        let position = params.text_document_position_params;
        self.run(&position.text_document.uri, move |s| {
            let hover = ide::hover::hover(&s.db, s.file, s.offset(position.position))?;
            Some(Hover {
                contents: HoverContents::Markup(markdown(hover.markdown)),
                range: Some(s.range(hover.range)),
            })
        })
        .await
    }

    async fn completion(
        &self,
        params: CompletionParams,
    ) -> jsonrpc::Result<Option<CompletionResponse>> {
        let position = params.text_document_position;
        self.run(&position.text_document.uri, move |s| {
            use ide::completion::{CompletionKind as K, Insert};
            let offset = s.offset(position.position);
            let mut items = ide::completion::completions(&s.db, s.file, offset);
            // A flow may have thousands of steps: send the best matches of
            // what is typed, and let the client ask again as typing goes on.
            let typed = items
                .first()
                .map(|i| &s.text[TextRange::new(i.replace.start(), offset.max(i.replace.start()))])
                .unwrap_or("")
                .to_string();
            let incomplete = items.len() > MAX_COMPLETIONS;
            if incomplete {
                items = best_completions(items, &typed, MAX_COMPLETIONS);
            }
            let items: Vec<lsp::CompletionItem> = items
                .into_iter()
                .map(|item| {
                    let (new_text, format) = match item.insert {
                        Insert::Text(text) => (text, InsertTextFormat::PLAIN_TEXT),
                        Insert::Snippet(text) => (text, InsertTextFormat::SNIPPET),
                    };
                    lsp::CompletionItem {
                        label: item.label,
                        kind: Some(match item.kind {
                            K::Keyword => CompletionItemKind::KEYWORD,
                            K::Snippet => CompletionItemKind::SNIPPET,
                            K::Step => CompletionItemKind::FUNCTION,
                            K::File => CompletionItemKind::FILE,
                            K::Member => CompletionItemKind::FIELD,
                            K::AttributeKey => CompletionItemKind::PROPERTY,
                            K::Constant => CompletionItemKind::ENUM_MEMBER,
                            K::Capability => CompletionItemKind::VALUE,
                        }),
                        detail: item.detail,
                        documentation: item
                            .documentation
                            .map(|d| Documentation::MarkupContent(markdown(d))),
                        insert_text_format: Some(format),
                        text_edit: Some(CompletionTextEdit::Edit(lsp::TextEdit {
                            range: s.range(item.replace),
                            new_text,
                        })),
                        ..Default::default()
                    }
                })
                .collect();
            Some(CompletionResponse::List(CompletionList {
                is_incomplete: incomplete,
                items,
            }))
        })
        .await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> jsonrpc::Result<Option<GotoDefinitionResponse>> {
        let position = params.text_document_position_params;
        let uri = position.text_document.uri.clone();
        self.run(&position.text_document.uri, move |s| {
            let target =
                ide::navigation::goto_definition(&s.db, s.file, s.offset(position.position))?;
            Some(GotoDefinitionResponse::Link(vec![LocationLink {
                origin_selection_range: None,
                target_uri: uri,
                target_range: s.range(target.full_range),
                target_selection_range: s.range(target.focus_range),
            }]))
        })
        .await
    }

    async fn references(&self, params: ReferenceParams) -> jsonrpc::Result<Option<Vec<Location>>> {
        let position = params.text_document_position;
        let uri = position.text_document.uri.clone();
        let include = params.context.include_declaration;
        self.run(&position.text_document.uri, move |s| {
            let usages =
                ide::navigation::references(&s.db, s.file, s.offset(position.position), include);
            Some(
                usages
                    .iter()
                    .map(|u| Location::new(uri.clone(), s.range(u.range)))
                    .collect(),
            )
        })
        .await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> jsonrpc::Result<Option<Vec<DocumentHighlight>>> {
        let position = params.text_document_position_params;
        self.run(&position.text_document.uri, move |s| {
            let usages = ide::navigation::highlights(&s.db, s.file, s.offset(position.position));
            Some(
                usages
                    .iter()
                    .map(|u| DocumentHighlight {
                        range: s.range(u.range),
                        kind: Some(match u.kind {
                            ide::defs::UsageKind::Declaration => DocumentHighlightKind::WRITE,
                            _ => DocumentHighlightKind::READ,
                        }),
                    })
                    .collect(),
            )
        })
        .await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> jsonrpc::Result<Option<PrepareRenameResponse>> {
        let result = self
            .run(&params.text_document.uri, move |s| {
                Some(
                    ide::rename::prepare_rename(&s.db, s.file, s.offset(params.position)).map(
                        |(range, placeholder)| PrepareRenameResponse::RangeWithPlaceholder {
                            range: s.range(range),
                            placeholder,
                        },
                    ),
                )
            })
            .await?;
        match result {
            Some(Ok(response)) => Ok(Some(response)),
            Some(Err(message)) => Err(jsonrpc::Error::invalid_params(message)),
            None => Ok(None),
        }
    }

    async fn rename(&self, params: RenameParams) -> jsonrpc::Result<Option<WorkspaceEdit>> {
        let position = params.text_document_position;
        let uri = position.text_document.uri.clone();
        let new_name = params.new_name;
        let result = self
            .run(&position.text_document.uri, move |s| {
                Some(
                    ide::rename::rename(&s.db, s.file, s.offset(position.position), &new_name).map(
                        |edits| {
                            let edits = edits.iter().map(|e| text_edit(s, e)).collect();
                            WorkspaceEdit {
                                changes: Some([(uri, edits)].into_iter().collect()),
                                ..Default::default()
                            }
                        },
                    ),
                )
            })
            .await?;
        match result {
            Some(Ok(edit)) => Ok(Some(edit)),
            Some(Err(message)) => Err(jsonrpc::Error::invalid_params(message)),
            None => Ok(None),
        }
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> jsonrpc::Result<Option<DocumentSymbolResponse>> {
        self.run(&params.text_document.uri, |s| {
            let symbols = ide::symbols::document_symbols(&s.db, s.file);
            Some(DocumentSymbolResponse::Nested(
                symbols.iter().map(|sym| document_symbol(s, sym)).collect(),
            ))
        })
        .await
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> jsonrpc::Result<Option<WorkspaceSymbolResponse>> {
        // Workspace symbols need the index: wait for it, within reason.
        let mut indexed = self.indexed.subscribe();
        let wait = indexed.wait_for(|done| *done);
        let _ = tokio::time::timeout(std::time::Duration::from_secs(30), wait).await;
        let (db, files, encoding) = {
            let state = self.state();
            (
                state.db.clone(),
                state.flows.values().copied().collect::<Vec<_>>(),
                state.encoding,
            )
        };
        let query = params.query;
        let task = tokio::task::spawn_blocking(move || {
            salsa::Cancelled::catch(|| {
                let found = ide::symbols::workspace_symbols(&db, &files, &query, 256);
                found
                    .iter()
                    .filter_map(|symbol| {
                        let path = symbol.file.path(&db);
                        let text = symbol.file.text(&db);
                        let index = LineIndex::new(text);
                        let lines = Lines {
                            index: &index,
                            text,
                            encoding,
                        };
                        Some(lsp::WorkspaceSymbol {
                            name: symbol.name.clone(),
                            kind: symbol_kind(symbol.kind),
                            tags: None,
                            container_name: symbol.container.clone(),
                            location: OneOf::Left(Location::new(
                                uri_of(path)?,
                                lines.range(symbol.range),
                            )),
                            data: None,
                        })
                    })
                    .collect::<Vec<_>>()
            })
        });
        match task.await {
            Ok(Ok(symbols)) => Ok(Some(WorkspaceSymbolResponse::Nested(symbols))),
            Ok(Err(_)) => Err(content_modified()),
            Err(_) => Err(jsonrpc::Error::internal_error()),
        }
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> jsonrpc::Result<Option<SemanticTokensResult>> {
        self.run(&params.text_document.uri, |s| {
            let tokens = ide::semantic_tokens::semantic_tokens(&s.db, s.file, None);
            Some(SemanticTokensResult::Tokens(SemanticTokens {
                result_id: None,
                data: encode_tokens(s, &tokens),
            }))
        })
        .await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> jsonrpc::Result<Option<SemanticTokensRangeResult>> {
        self.run(&params.text_document.uri, move |s| {
            let range = s.lines().text_range(params.range);
            let tokens = ide::semantic_tokens::semantic_tokens(&s.db, s.file, Some(range));
            Some(SemanticTokensRangeResult::Tokens(SemanticTokens {
                result_id: None,
                data: encode_tokens(s, &tokens),
            }))
        })
        .await
    }

    async fn folding_range(
        &self,
        params: FoldingRangeParams,
    ) -> jsonrpc::Result<Option<Vec<FoldingRange>>> {
        self.run(&params.text_document.uri, |s| {
            use ide::folding::FoldKind;
            let folds = ide::folding::folding_ranges(&s.db, s.file);
            Some(
                folds
                    .iter()
                    .map(|fold| {
                        let range = s.range(fold.range);
                        FoldingRange {
                            start_line: range.start.line,
                            start_character: None,
                            end_line: range.end.line,
                            end_character: None,
                            kind: Some(match fold.kind {
                                FoldKind::Region => FoldingRangeKind::Region,
                                FoldKind::Comment => FoldingRangeKind::Comment,
                                FoldKind::Imports => FoldingRangeKind::Imports,
                            }),
                            collapsed_text: None,
                        }
                    })
                    .collect(),
            )
        })
        .await
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> jsonrpc::Result<Option<Vec<SelectionRange>>> {
        self.run(&params.text_document.uri, move |s| {
            let offsets: Vec<TextSize> = params.positions.iter().map(|p| s.offset(*p)).collect();
            let chains = ide::selection_range::selection_ranges(&s.db, s.file, &offsets);
            Some(
                chains
                    .iter()
                    .map(|chain| {
                        let mut parent: Option<Box<SelectionRange>> = None;
                        for range in chain.iter().rev() {
                            parent = Some(Box::new(SelectionRange {
                                range: s.range(*range),
                                parent,
                            }));
                        }
                        parent.map_or(
                            SelectionRange {
                                range: Range::default(),
                                parent: None,
                            },
                            |b| *b,
                        )
                    })
                    .collect(),
            )
        })
        .await
    }

    async fn code_action(
        &self,
        params: CodeActionParams,
    ) -> jsonrpc::Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri.clone();
        self.run(&params.text_document.uri, move |s| {
            let range = s.lines().text_range(params.range);
            let docs = None;
            let actions = ide::code_actions::code_actions(&s.db, s.file, range);
            Some(
                actions
                    .iter()
                    .map(|action| {
                        let edits = action.edits.iter().map(|e| text_edit(s, e)).collect();
                        CodeActionOrCommand::CodeAction(lsp::CodeAction {
                            title: action.title.clone(),
                            kind: Some(CodeActionKind::QUICKFIX),
                            diagnostics: action
                                .diagnostic
                                .as_ref()
                                .map(|d| vec![convert::diagnostic(&s.lines(), &uri, docs, d)]),
                            edit: Some(WorkspaceEdit {
                                changes: Some([(uri.clone(), edits)].into_iter().collect()),
                                ..Default::default()
                            }),
                            is_preferred: Some(action.is_preferred),
                            ..Default::default()
                        })
                    })
                    .collect(),
            )
        })
        .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> jsonrpc::Result<Option<Vec<InlayHint>>> {
        self.run(&params.text_document.uri, move |s| {
            if !s.settings.inlay_hints_instances {
                return Some(Vec::new());
            }
            let range = s.lines().text_range(params.range);
            let hints = ide::inlay_hints::inlay_hints(&s.db, s.file, Some(range));
            Some(
                hints
                    .iter()
                    .map(|hint| InlayHint {
                        position: s.lines().position(hint.offset),
                        label: InlayHintLabel::String(hint.label.clone()),
                        kind: None,
                        text_edits: None,
                        tooltip: None,
                        padding_left: Some(true),
                        padding_right: None,
                        data: None,
                    })
                    .collect(),
            )
        })
        .await
    }

    async fn code_lens(&self, params: CodeLensParams) -> jsonrpc::Result<Option<Vec<CodeLens>>> {
        self.run(&params.text_document.uri, |s| {
            if !s.settings.code_lens {
                return Some(Vec::new());
            }
            let lenses = ide::code_lens::code_lenses(&s.db, s.file);
            Some(
                lenses
                    .iter()
                    .map(|lens| CodeLens {
                        range: s.range(lens.range),
                        command: Some(Command {
                            title: lens.title.clone(),
                            command: String::new(),
                            arguments: None,
                        }),
                        data: None,
                    })
                    .collect(),
            )
        })
        .await
    }

    async fn prepare_call_hierarchy(
        &self,
        params: CallHierarchyPrepareParams,
    ) -> jsonrpc::Result<Option<Vec<CallHierarchyItem>>> {
        let position = params.text_document_position_params;
        let uri = position.text_document.uri.clone();
        self.run(&position.text_document.uri, move |s| {
            let item = ide::call_hierarchy::prepare(&s.db, s.file, s.offset(position.position))?;
            Some(vec![call_item(s, &uri, &item)])
        })
        .await
    }

    async fn incoming_calls(
        &self,
        params: CallHierarchyIncomingCallsParams,
    ) -> jsonrpc::Result<Option<Vec<CallHierarchyIncomingCall>>> {
        let uri = params.item.uri.clone();
        let Some(step) = step_of(&params.item) else {
            return Ok(None);
        };
        self.run(&params.item.uri, move |s| {
            let calls = ide::call_hierarchy::incoming(&s.db, s.file, step);
            Some(
                calls
                    .iter()
                    .map(|(item, ranges)| CallHierarchyIncomingCall {
                        from: call_item(s, &uri, item),
                        from_ranges: ranges.iter().map(|r| s.range(*r)).collect(),
                    })
                    .collect(),
            )
        })
        .await
    }

    async fn outgoing_calls(
        &self,
        params: CallHierarchyOutgoingCallsParams,
    ) -> jsonrpc::Result<Option<Vec<CallHierarchyOutgoingCall>>> {
        let uri = params.item.uri.clone();
        let Some(step) = step_of(&params.item) else {
            return Ok(None);
        };
        self.run(&params.item.uri, move |s| {
            let calls = ide::call_hierarchy::outgoing(&s.db, s.file, step);
            Some(
                calls
                    .iter()
                    .map(|(item, ranges)| CallHierarchyOutgoingCall {
                        to: call_item(s, &uri, item),
                        from_ranges: ranges.iter().map(|r| s.range(*r)).collect(),
                    })
                    .collect(),
            )
        })
        .await
    }
}
