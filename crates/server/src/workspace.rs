//! The files of the workspace around the state: everything that reads the
//! disk does it outside the state lock (take what is needed under the
//! lock, read, then lock again and apply), so a slow disk never holds up
//! the handlers and tasks that wait for the lock. Here: which topology and
//! package catalog each flow uses (discovery), re-reading flows, topologies
//! and catalogs, flows requested without being open, and indexing the
//! workspace's flows at start.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use easyflow_ide::{SourceFile, SourceText};
use easyflow_project::discovery::{CATALOG_FILE_NAME, Disk, FileSystem};
use easyflow_project::{FileKind, FlowFiles, Loader, ReadError, SkipReason, Workspace, disk, walk};
use tower_lsp_server::Client;
use tower_lsp_server::ls_types as lsp;

use rayon::prelude::*;

use crate::background;
use crate::convert::Encoding;
use crate::line_index::LineIndex;
use crate::skipped::SkippedFiles;
use crate::state::{DocumentSnapshot, IndexedFlow, SharedState, State, indexed_flow, path_of};

/// The file system as the editor sees it: the open documents' texts (taken
/// under the lock) over the disk (read after it is released).
pub struct OpenTexts {
    open: HashMap<PathBuf, SourceText>,
}

impl OpenTexts {
    pub fn of(state: &State) -> OpenTexts {
        OpenTexts {
            open: state
                .documents
                .iter()
                .filter_map(|(uri, document)| Some((path_of(uri)?, document.text.clone())))
                .collect(),
        }
    }
}

impl FileSystem for OpenTexts {
    fn read(&self, path: &Path, kind: FileKind) -> Result<String, ReadError> {
        match self.open.get(path) {
            Some(text) => Ok(text.to_string()),
            None => disk::read(path, kind),
        }
    }

    fn read_bytes(&self, path: &Path, kind: FileKind) -> Result<Vec<u8>, ReadError> {
        match self.open.get(path) {
            Some(text) => Ok(text.to_string().into_bytes()),
            None => disk::read_bytes(path, kind),
        }
    }

    fn probe(&self, path: &Path, kind: FileKind) -> Result<(), ReadError> {
        match self.open.contains_key(path) {
            true => Ok(()),
            false => disk::probe(path, kind),
        }
    }
}

/// The formatter's options for the flow at `path`: the `[format]` settings
/// of its `easyflow.toml` on the disk (`config.md`), or the defaults (also
/// when it cannot be read: the discovery of the flow says why).
pub fn format_options(path: &Path) -> easyflow_fmt::Options {
    Loader::new(Workspace::default(), &Disk)
        .format_options(path)
        .unwrap_or_default()
}

/// Reads a project file from the disk, recording what is skipped and why
/// (a file that is simply gone is not worth a warning).
fn read_logged(skipped: &SkippedFiles, path: &Path, kind: FileKind) -> Result<String, ReadError> {
    disk::read(path, kind).inspect_err(|error| record_unless_gone(skipped, error))
}

/// Reads a catalog's bytes from the disk (not necessarily UTF-8: that is
/// the catalog's own E0810), recording what is skipped and why.
fn read_catalog_logged(skipped: &SkippedFiles, path: &Path) -> Result<Vec<u8>, ReadError> {
    disk::read_bytes(path, FileKind::Catalog)
        .inspect_err(|error| record_unless_gone(skipped, error))
}

fn record_unless_gone(skipped: &SkippedFiles, error: &ReadError) {
    if error.reason != SkipReason::NotFound {
        skipped.record(error);
    }
}

/// Which flows to run discovery for.
pub enum Flows {
    All,
    One(SourceFile),
}

/// Decides again which topology and which package catalog each of `flows`
/// uses, through the project loader (`easyflow_project::Loader`: the
/// setting, the nearest `easyflow.toml`, the nearest `easyflow.topology` or
/// `easyflow-packages.toml`), and what its `easyflow.toml` allows and
/// denies, loading the files found, and sets the flows' inputs where they
/// changed. The one way the server runs discovery: after
/// a flow is read or opened, and after anything that can change the answer
/// (a configuration file, a topology created or deleted, the setting).
pub fn rediscover(state: &SharedState, flows: Flows) {
    let (flows, workspace, files, topologies, catalogs, skipped) = {
        let state = state.lock();
        let flows: Vec<(SourceFile, PathBuf)> = match flows {
            Flows::All => state
                .flows
                .iter()
                .map(|(path, &file)| (file, path.clone()))
                .collect(),
            Flows::One(file) => vec![(file, state.host.flow_path(file).clone())],
        };
        let topologies: Vec<PathBuf> = state.topologies.keys().cloned().collect();
        let catalogs: Vec<PathBuf> = state.catalogs.keys().cloned().collect();
        (
            flows,
            state.workspace(),
            OpenTexts::of(&state),
            topologies,
            catalogs,
            state.skipped.clone(),
        )
    };
    let mut loader = Loader::new(workspace, &files).with_loaded(topologies, catalogs);
    let found: Vec<(SourceFile, FlowFiles)> = flows
        .into_iter()
        .map(|(file, path)| (file, loader.flow(&path)))
        .collect();
    let loaded = loader.take_loaded();
    for file in &loaded.skipped {
        skipped.record(file);
    }
    let mut state = state.lock();
    for (path, text) in loaded.topologies {
        if !state.topologies.contains_key(&path) {
            state.set_topology(&path, text);
        }
    }
    for (path, bytes) in loaded.catalogs {
        if !state.catalogs.contains_key(&path) {
            state.set_catalog(&path, bytes);
            if path.file_name().is_none_or(|n| n != CATALOG_FILE_NAME) {
                state.catalogs_to_watch.push(path);
            }
        }
    }
    for (file, files) in found {
        let topology = files
            .topology
            .and_then(|(path, _)| state.topologies.get(&path).copied());
        state.host.set_flow_topology(file, topology);
        let catalog = files
            .catalog
            .and_then(|(path, _)| state.catalogs.get(&path).copied());
        state.host.set_flow_catalog(file, catalog);
        state.host.set_flow_levels(file, files.levels);
    }
}

/// The symbols of a flow read from the disk, for the index (analysed on a
/// database of its own, outside the state).
fn index_flow(path: &Path, text: &str, encoding: Encoding) -> Option<IndexedFlow> {
    let uri = lsp::Uri::from_file_path(path)?;
    let symbols = easyflow_ide::symbols::flow_symbols_of_text(path, text);
    Some(indexed_flow(uri, symbols, &text.into(), encoding))
}

/// Reads a flow that is not open again from the disk (closed, or changed
/// on the disk): it leaves the analysis, and the index gets its symbols
/// (or loses them, when it is gone). The reading and indexing (a parse of
/// the whole file: half a second for a 100,000-step flow) run off the
/// message loop: started in the order of the messages, the reload applies
/// only if the flow is still closed and no reload of it started after it,
/// so a `didOpen` (or a later close, or a watched change) that follows it
/// wins whenever it finishes.
pub struct FlowReload {
    path: PathBuf,
    ticket: u64,
    encoding: Encoding,
    skipped: Arc<SkippedFiles>,
}

/// A flow read and indexed by a [`FlowReload`], to apply.
pub struct ReadFlow {
    path: PathBuf,
    ticket: u64,
    indexed: Option<IndexedFlow>,
}

impl FlowReload {
    /// Takes the flow out of the analysis (on the caller's thread: a write
    /// to the database waits for every snapshot to go, which a thread of
    /// the blocking pool or a worker must not wait for) and starts its
    /// reload.
    pub fn start(state: &SharedState, path: &Path) -> FlowReload {
        let mut state = state.lock();
        if state.open_document(path).is_none() {
            state.leave_analysis(path);
        }
        FlowReload {
            path: path.to_path_buf(),
            ticket: state.start_reload(path),
            encoding: state.client.encoding,
            skipped: state.skipped.clone(),
        }
    }

    /// Reads and indexes the flow, without the state: the part for the
    /// blocking pool.
    pub fn read(self) -> ReadFlow {
        let indexed = read_logged(&self.skipped, &self.path, FileKind::Flow)
            .ok()
            .and_then(|text| index_flow(&self.path, &text, self.encoding));
        ReadFlow {
            path: self.path,
            ticket: self.ticket,
            indexed,
        }
    }
}

impl ReadFlow {
    /// Indexes the flow's symbols if the reload is still current; returns
    /// whether it was. Touches only the index, never the database.
    pub fn apply(self, state: &SharedState) -> bool {
        let path = &self.path;
        let mut state = state.lock();
        if !state.finish_reload(path, self.ticket) || state.open_document(path).is_some() {
            // Opened meanwhile (the editor's text wins), or read again
            // since.
            return false;
        }
        match self.indexed {
            Some(flow) => state.indexed.insert(path.to_path_buf(), Arc::new(flow)),
            None => state.indexed.remove(path),
        };
        true
    }
}

/// Reads a loaded topology again (the open document's text, else the
/// disk's; empty when it is gone).
pub fn reload_topology(state: &SharedState, path: &Path) {
    let (open, skipped) = {
        let state = state.lock();
        if !state.topologies.contains_key(path) {
            return;
        }
        let open = state.open_document(path).map(|d| d.text.clone());
        (open, state.skipped.clone())
    };
    let text = match open {
        Some(text) => text.to_string(),
        None => read_logged(&skipped, path, FileKind::Topology).unwrap_or_default(),
    };
    state.lock().set_topology(path, text);
}

/// Reads a package catalog again (the open document's text, else the
/// disk's bytes; empty when it is gone), if it is loaded or opened.
pub fn reload_catalog(state: &SharedState, path: &Path) {
    let (open, skipped) = {
        let state = state.lock();
        let open = state.open_document(path).map(|d| d.text.clone());
        if !state.catalogs.contains_key(path) && open.is_none() {
            return;
        }
        (open, state.skipped.clone())
    };
    let bytes = match open {
        Some(text) => text.to_string().into_bytes(),
        None => read_catalog_logged(&skipped, path).unwrap_or_default(),
    };
    state.lock().set_catalog(path, bytes);
}

/// A snapshot for a request on the flow at `uri`: the open document, or
/// the file read from disk when the editor has not opened it (read again
/// on each request, so it is current). `None` for anything else.
pub fn flow_snapshot(state: &SharedState, uri: &lsp::Uri) -> Option<DocumentSnapshot> {
    let path = path_of(uri)?;
    let skipped = {
        let state = state.lock();
        if let Some(document) = state.documents.get(uri) {
            if document.kind != FileKind::Flow {
                return None;
            }
            let file = *state.flows.get(&path)?;
            return Some(state.document_snapshot(
                uri,
                file,
                document.text.clone(),
                document.lines.clone(),
            ));
        }
        state.skipped.clone()
    };
    if FileKind::by_name(&path) != Some(FileKind::Flow) {
        return None;
    }
    let text = read_logged(&skipped, &path, FileKind::Flow).ok()?;
    let lines = Arc::new(LineIndex::new(&text));
    let text = SourceText::from(text);
    let file = state.lock().visit_flow(&path, text.clone());
    rediscover(state, Flows::One(file));
    tracing::trace!("read {} for a request", path.display());
    Some(state.lock().document_snapshot(uri, file, text, lines))
}

/// Asks the client to report changes of the files the analysis reads,
/// when it can register for them. A request to the client: never awaited
/// in a notification handler (the message loop that would deliver its
/// answer is running that handler).
pub async fn register_watchers(state: &SharedState, client: &Client) {
    let catalog_settings: Vec<PathBuf> = {
        let state = state.lock();
        if !state.client.dynamic_watching {
            return;
        }
        let mut catalogs: Vec<PathBuf> = state
            .workspace_folders
            .iter()
            .filter_map(|root| state.folder_settings(root).catalog)
            .chain(state.global_settings().catalog)
            .collect();
        catalogs.sort();
        catalogs.dedup();
        catalogs
    };
    let mut globs: Vec<String> = [
        "**/*.topology",
        "**/easyflow.toml",
        "**/*.flow",
        "**/easyflow-packages.toml",
    ]
    .map(String::from)
    .to_vec();
    // A catalog of another name, named by a setting.
    globs.extend(
        catalog_settings
            .into_iter()
            .filter(|p| p.file_name().is_none_or(|n| n != CATALOG_FILE_NAME))
            .map(|p| p.to_string_lossy().replace('\\', "/")),
    );
    let watchers: Vec<lsp::FileSystemWatcher> = globs
        .into_iter()
        .map(|glob| lsp::FileSystemWatcher {
            glob_pattern: lsp::GlobPattern::String(glob),
            kind: None,
        })
        .collect();
    let options = lsp::DidChangeWatchedFilesRegistrationOptions { watchers };
    let registration = lsp::Registration {
        id: "easyflow-watched-files".to_string(),
        method: "workspace/didChangeWatchedFiles".to_string(),
        register_options: serde_json::to_value(options).ok(),
    };
    if let Err(error) = client.register_capability(vec![registration]).await {
        tracing::warn!("the client refused file watching: {error}");
    }
}

/// Asks the client to watch the catalogs loaded under another name than
/// `easyflow-packages.toml` since the last call (lsp.md: "a catalog named by
/// `easyflow.toml` or the setting, when its name differs"). The request is
/// spawned: this runs in notification handlers.
pub fn watch_new_catalogs(state: &SharedState, client: &Client) {
    let paths = {
        let mut state = state.lock();
        if !state.client.dynamic_watching {
            state.catalogs_to_watch.clear();
            return;
        }
        std::mem::take(&mut state.catalogs_to_watch)
    };
    if paths.is_empty() {
        return;
    }
    let client = client.clone();
    tokio::spawn(async move {
        let registrations = paths
            .iter()
            .map(|path| {
                let glob = path.to_string_lossy().replace('\\', "/");
                let watchers = vec![lsp::FileSystemWatcher {
                    glob_pattern: lsp::GlobPattern::String(glob.clone()),
                    kind: None,
                }];
                let options = lsp::DidChangeWatchedFilesRegistrationOptions { watchers };
                lsp::Registration {
                    id: format!("easyflow-catalog:{glob}"),
                    method: "workspace/didChangeWatchedFiles".to_string(),
                    register_options: serde_json::to_value(options).ok(),
                }
            })
            .collect();
        if let Err(error) = client.register_capability(registrations).await {
            tracing::warn!("the client refused to watch a catalog: {error}");
        }
    });
}

/// How many flows a workspace needs before its indexing shows progress.
const PROGRESS_THRESHOLD: usize = 20;
/// Flows read per batch (one lock and one progress report per batch).
const INDEX_BATCH: usize = 50;

/// Indexes every `.flow` file of the workspace folders for workspace
/// symbols (each analysed on its own, on the background threads, keeping only its
/// symbols), reporting progress on large workspaces. Returns the flows
/// found.
pub async fn index(state: &SharedState, client: &Client) -> Vec<PathBuf> {
    let folders = state.lock().workspace_folders.clone();
    index_folders(state, client, folders).await
}

/// Indexes every `.flow` file of `folders` (the workspace's at start, or
/// folders added since); a flow whose folder was removed meanwhile is
/// left out. Returns the flows found.
pub async fn index_folders(
    state: &SharedState,
    client: &Client,
    folders: Vec<PathBuf>,
) -> Vec<PathBuf> {
    let (progress_supported, encoding, skipped) = {
        let state = state.lock();
        (
            state.client.work_done_progress,
            state.client.encoding,
            state.skipped.clone(),
        )
    };
    let skipped_by_walk = skipped.clone();
    let paths: Vec<PathBuf> = tokio::task::spawn_blocking(move || {
        let mut paths = Vec::new();
        for folder in &folders {
            let walk = walk::walk(folder, &[FileKind::Flow]);
            for error in &walk.skipped {
                skipped_by_walk.record(error);
            }
            for error in &walk.errors {
                tracing::warn!("{error}");
            }
            paths.extend(walk.files);
        }
        paths
    })
    .await
    .unwrap_or_default();
    tracing::info!("indexing {} flows of the workspace", paths.len());
    let progress = if progress_supported && paths.len() >= PROGRESS_THRESHOLD {
        let token = lsp::ProgressToken::String("easyflow-indexing".to_string());
        match client.create_work_done_progress(token.clone()).await {
            Ok(()) => Some(
                client
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
    let total = paths.len().max(1);
    for (batch, chunk) in paths.chunks(INDEX_BATCH).enumerate() {
        // An open document is in the analysis: its symbols come from there
        // (and the disk's are indexed when it closes).
        let chunk: Vec<PathBuf> = {
            let state = state.lock();
            chunk
                .iter()
                .filter(|path| state.open_document(path).is_none())
                .cloned()
                .collect()
        };
        let skipped = skipped.clone();
        // Background work: it must not slow down the open documents.
        let indexed: Vec<(PathBuf, IndexedFlow)> = tokio::task::spawn_blocking(move || {
            background::run(|| {
                chunk
                    .into_par_iter()
                    .filter_map(|path| {
                        background::yield_to_foreground();
                        let text = read_logged(&skipped, &path, FileKind::Flow).ok()?;
                        let flow = index_flow(&path, &text, encoding)?;
                        Some((path, flow))
                    })
                    .collect()
            })
        })
        .await
        .unwrap_or_default();
        {
            let mut state = state.lock();
            for (path, flow) in indexed {
                if state.in_workspace(&path) {
                    state.indexed.insert(path, Arc::new(flow));
                }
            }
        }
        if let Some(progress) = &progress {
            let done = ((batch + 1) * INDEX_BATCH).min(total);
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
    skipped.show().await;
    tracing::info!("indexed {} flows", paths.len());
    paths
}

/// What a request on a document that is no flow (a package catalog, a
/// topology, an `easyflow.toml`) computes on: its text, and what finding
/// the flows of the workspace that use it needs.
pub struct CompanionSnapshot {
    pub kind: FileKind,
    pub path: PathBuf,
    pub uri: lsp::Uri,
    pub text: SourceText,
    pub lines: Arc<LineIndex>,
    pub client: crate::capabilities::ClientCapabilities,
    /// The flows: those in the analysis, and the symbols of the others.
    pub flows: crate::state::WorkspaceSnapshot,
    workspace: Workspace,
    files: OpenTexts,
    topologies: Vec<PathBuf>,
    catalogs: Vec<PathBuf>,
}

impl CompanionSnapshot {
    pub fn lines(&self) -> crate::convert::Lines<'_> {
        crate::convert::Lines {
            index: &self.lines,
            text: &self.text,
            encoding: self.client.encoding,
        }
    }

    /// A loader over the editor's view of the disk, for discovery of the
    /// flows' catalogs (those loaded already are not read again).
    pub fn loader(&self) -> Loader<'_> {
        Loader::new(self.workspace.clone(), &self.files)
            .with_loaded(self.topologies.clone(), self.catalogs.clone())
    }
}

/// A snapshot for a request on the document at `uri` when it is a package
/// catalog, a topology or an `easyflow.toml`: the open document, or the
/// file read from the disk. `None` for a flow, or anything else.
pub fn companion_snapshot(state: &SharedState, uri: &lsp::Uri) -> Option<CompanionSnapshot> {
    let (path, kind) = companion_kind(state, uri)?;
    let (open, skipped) = {
        let state = state.lock();
        let open = state
            .documents
            .get(uri)
            .map(|document| (document.text.clone(), document.lines.clone()));
        (open, state.skipped.clone())
    };
    let (text, lines) = match open {
        Some(open) => open,
        None => {
            let text = read_logged(&skipped, &path, kind).ok()?;
            let lines = Arc::new(LineIndex::new(&text));
            (SourceText::from(text), lines)
        }
    };
    let state = state.lock();
    Some(CompanionSnapshot {
        kind,
        path,
        uri: uri.clone(),
        text,
        lines,
        client: state.client,
        flows: state.workspace_snapshot(),
        workspace: state.workspace(),
        files: OpenTexts::of(&state),
        topologies: state.topologies.keys().cloned().collect(),
        catalogs: state.catalogs.keys().cloned().collect(),
    })
}

/// The path of the document at `uri` and what it is, when it is a package
/// catalog, a topology or an `easyflow.toml`: an open document's kind, or
/// what its name or its use says; a catalog that no flow loaded yet may
/// also be the one the setting or the `easyflow.toml` above it names.
pub fn companion_kind(state: &SharedState, uri: &lsp::Uri) -> Option<(PathBuf, FileKind)> {
    let path = path_of(uri)?;
    let kind = {
        let state = state.lock();
        match state.documents.get(uri) {
            Some(document) => Some(document.kind),
            None => state.kind_of(&path).or_else(|| {
                (state.settings_for(&path).catalog.as_deref() == Some(path.as_path()))
                    .then_some(FileKind::Catalog)
            }),
        }
    };
    let kind = match kind {
        Some(kind) => kind,
        None if named_as_catalog(&path) => FileKind::Catalog,
        None => return None,
    };
    (kind != FileKind::Flow).then_some((path, kind))
}

/// Whether `path` is a `.toml` that the nearest `easyflow.toml` above it
/// names as its package catalog (reads the disk).
pub fn named_as_catalog(path: &Path) -> bool {
    if FileKind::by_name(path) != Some(FileKind::Catalog) {
        return false;
    }
    let Some(config_path) = easyflow_project::discovery::nearest(
        path,
        easyflow_project::config::CONFIG_FILE_NAME,
        FileKind::Config,
        &Disk,
        &mut Vec::new(),
    ) else {
        return false;
    };
    let Ok(text) = disk::read(&config_path, FileKind::Config) else {
        return false;
    };
    let config = easyflow_project::config::parse_config(&text);
    easyflow_project::discovery::configured(&config_path, &config, FileKind::Catalog).as_deref()
        == Some(path)
}
