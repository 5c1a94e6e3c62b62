//! Diagnostics of the closed flows of the workspace (lsp.md, "The whole
//! workspace"): every `.flow` of the workspace folders that is not open is
//! checked in the background, after the open ones, and only its diagnostics
//! are kept ([`ClosedReport`]). Each batch of closed flows is checked on a
//! database of its own, dropped with the batch, so memory does not grow
//! with the workspace: the trees and analyses are kept for the open flows
//! (and the few closed ones requests visit, `state.rs`).
//!
//! A client that pulls gets them through `textDocument/diagnostic` and
//! `workspace/diagnostic` (with result ids, and `unchanged` reports), and a
//! `workspace/diagnostic/refresh` when they change; any other client gets
//! them pushed. A change to a topology, a catalog or an `easyflow.toml` (on
//! the disk or in the editor) re-checks the closed flows it configures.
//!
//! The checker is one task that takes a few flows at a time from a queue,
//! checks them on the background threads (lowest priority) and releases
//! the state lock between batches: an edit of an open flow is never queued
//! behind the whole workspace. Each flow's check yields to the client
//! (`background::preemptible`): it waits while requests and edits are under
//! way, and one under way when a message comes is cancelled and run again
//! after, so a flow is never reported half checked.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use easyflow_ide::{CatalogFile, Database, SourceFile, SourceText, TopologyFile};
use easyflow_project::{FileKind, Loader, Workspace, disk};
use rayon::prelude::*;
use tower_lsp_server::ls_types::{self as lsp, Uri};
use tower_lsp_server::{Client, jsonrpc};

use crate::background;
use crate::capabilities::ClientCapabilities;
use crate::convert::{self, Lines};
use crate::diagnostics::{self, Diagnostics};
use crate::dispatch::{self, HandlerResult};
use crate::line_index::LineIndex;
use crate::skipped::SkippedFiles;
use crate::state::{DiagnosticsScope, SharedState, path_of};
use crate::workspace::{self, OpenTexts};

/// Closed flows checked per batch: the state lock is released, and an edit
/// can go first, between batches.
const BATCH: usize = 32;

/// The diagnostics of a closed flow, as its text on the disk gives them.
#[derive(Debug)]
pub struct ClosedReport {
    pub uri: Uri,
    pub result_id: String,
    pub diagnostics: Vec<lsp::Diagnostic>,
    /// The `easyflow.toml`, topology and catalog that configure the flow:
    /// a change of one of them re-checks it.
    pub configured_by: Vec<PathBuf>,
}

/// The closed flows' reports, by path: written by the checker, read by the
/// pull requests. A plain map behind a mutex: every access is a lookup, an
/// insert or a copy of the `Arc`s, far shorter than the batch check between
/// two writes (`benches/closed_store.rs` measures it against `DashMap`).
#[derive(Default)]
pub struct ClosedStore(Mutex<HashMap<PathBuf, Arc<ClosedReport>>>);

impl ClosedStore {
    fn lock(&self) -> MutexGuard<'_, HashMap<PathBuf, Arc<ClosedReport>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, path: &Path) -> Option<Arc<ClosedReport>> {
        self.lock().get(path).cloned()
    }

    /// Every report, for `workspace/diagnostic`.
    pub fn all(&self) -> Vec<Arc<ClosedReport>> {
        self.lock().values().cloned().collect()
    }

    fn insert(&self, path: PathBuf, report: Arc<ClosedReport>) -> Option<Arc<ClosedReport>> {
        self.lock().insert(path, report)
    }

    fn remove(&self, path: &Path) -> Option<Arc<ClosedReport>> {
        self.lock().remove(path)
    }

    fn take_all(&self) -> Vec<Arc<ClosedReport>> {
        self.lock().drain().map(|(_, report)| report).collect()
    }

    /// The flows configured by the file at `path`.
    fn configured_by(&self, path: &Path) -> Vec<PathBuf> {
        self.lock()
            .iter()
            .filter(|(_, report)| report.configured_by.iter().any(|p| p == path))
            .map(|(flow, _)| flow.clone())
            .collect()
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }
}

/// What the checker has to do.
#[derive(Default)]
struct Work {
    /// The workspace's flows (found at start, created and deleted since).
    flows: HashSet<PathBuf>,
    /// The flows to check, in order (each once).
    queue: VecDeque<PathBuf>,
    queued: HashSet<PathBuf>,
    /// Each flow's latest ticket: a check applies only if no later change
    /// (a new check, a deletion) took a ticket since it started.
    tickets: HashMap<PathBuf, u64>,
    next_ticket: u64,
    /// Flows whose next report is pushed even if it equals the last one
    /// (a flow just closed: the editor shows its open text's).
    must_publish: HashSet<PathBuf>,
    /// Reports changed since the last refresh request to a pulling client.
    changed: bool,
    started: bool,
}

impl Work {
    fn ticket(&mut self, path: &Path) -> u64 {
        self.next_ticket += 1;
        self.tickets.insert(path.to_path_buf(), self.next_ticket);
        self.next_ticket
    }

    fn enqueue(&mut self, path: PathBuf, first: bool) {
        self.ticket(&path);
        if self.queued.insert(path.clone()) {
            match first {
                true => self.queue.push_front(path),
                false => self.queue.push_back(path),
            }
        } else if first {
            self.queue.retain(|p| *p != path);
            self.queue.push_front(path);
        }
    }

    fn take_batch(&mut self) -> Vec<(PathBuf, u64)> {
        let mut batch = Vec::new();
        while batch.len() < BATCH {
            let Some(path) = self.queue.pop_front() else {
                break;
            };
            self.queued.remove(&path);
            let ticket = self.tickets.get(&path).copied().unwrap_or_default();
            batch.push((path, ticket));
        }
        batch
    }

    fn clear_queue(&mut self) {
        self.queue.clear();
        self.queued.clear();
    }
}

pub struct WorkspaceDiagnostics {
    client: Client,
    state: SharedState,
    publisher: Arc<Diagnostics>,
    pub store: ClosedStore,
    work: Mutex<Work>,
    wake: tokio::sync::Notify,
    /// Becomes true whenever the queue runs empty (for tests and the
    /// benchmark's log: "closed flows checked").
    pub idle: tokio::sync::watch::Sender<bool>,
}

impl WorkspaceDiagnostics {
    pub fn new(
        client: Client,
        state: SharedState,
        publisher: Arc<Diagnostics>,
    ) -> Arc<WorkspaceDiagnostics> {
        Arc::new(WorkspaceDiagnostics {
            client,
            state,
            publisher,
            store: ClosedStore::default(),
            work: Mutex::new(Work::default()),
            wake: tokio::sync::Notify::new(),
            idle: tokio::sync::watch::channel(false).0,
        })
    }

    fn work(&self) -> MutexGuard<'_, Work> {
        self.work.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts checking `flows`, the workspace's (as indexing found them).
    pub fn start(self: &Arc<Self>, flows: Vec<PathBuf>) {
        {
            let mut work = self.work();
            for path in flows {
                work.flows.insert(path.clone());
                work.enqueue(path, false);
            }
            if std::mem::replace(&mut work.started, true) {
                drop(work);
                self.wake.notify_one();
                return;
            }
        }
        let this = self.clone();
        tokio::spawn(async move { this.run().await });
    }

    /// Checks every closed flow again (a topology or a catalog created or
    /// deleted, a path setting changed: any flow's may change).
    pub fn recheck_all(&self) {
        {
            let mut work = self.work();
            let flows: Vec<PathBuf> = work.flows.iter().cloned().collect();
            for path in flows {
                work.enqueue(path, false);
            }
        }
        self.wake.notify_one();
    }

    /// Checks again the closed flows that the topology, catalog or
    /// `easyflow.toml` at `path` configures (it changed).
    pub fn recheck_configured_by(&self, path: &Path) {
        let flows = self.store.configured_by(path);
        if flows.is_empty() {
            return;
        }
        {
            let mut work = self.work();
            for flow in flows {
                work.enqueue(flow, false);
            }
        }
        self.wake.notify_one();
    }

    /// A flow created or changed on the disk: it is one of the workspace's
    /// (if it lies in a folder: the check says) and is checked first.
    pub fn flow_changed_on_disk(&self, path: &Path) {
        {
            let mut work = self.work();
            work.flows.insert(path.to_path_buf());
            work.enqueue(path.to_path_buf(), true);
        }
        self.wake.notify_one();
    }

    /// A flow closed in the editor: its diagnostics go back to its text on
    /// the disk's. Returns whether the check will publish them (else the
    /// caller clears the open text's).
    pub fn flow_closed(&self, path: &Path) -> bool {
        if self.scope() != DiagnosticsScope::Workspace {
            return false;
        }
        {
            let mut work = self.work();
            if !work.flows.contains(path) {
                return false;
            }
            work.must_publish.insert(path.to_path_buf());
            work.enqueue(path.to_path_buf(), true);
        }
        self.wake.notify_one();
        true
    }

    /// A flow deleted from the disk: it leaves the workspace, and its
    /// diagnostics are cleared.
    pub fn flow_deleted(self: &Arc<Self>, path: &Path) {
        {
            let mut work = self.work();
            work.flows.remove(path);
            work.queue.retain(|p| p != path);
            work.queued.remove(path);
            work.ticket(path);
            work.must_publish.remove(path);
        }
        if let Some(report) = self.store.remove(path) {
            self.spawn_cleared(vec![report]);
        }
    }

    /// The setting `easyflow.diagnostics.scope` may have changed.
    pub fn scope_changed(self: &Arc<Self>) {
        match self.scope() {
            DiagnosticsScope::OpenFiles => {
                self.work().clear_queue();
                let reports = self.store.take_all();
                if !reports.is_empty() {
                    self.spawn_cleared(reports);
                }
            }
            DiagnosticsScope::Workspace => {
                if self.store.len() == 0 {
                    self.recheck_all();
                }
            }
        }
    }

    /// [`WorkspaceDiagnostics::cleared`] off the message loop (in the
    /// order of the publications: `Diagnostics::publish_closed`).
    fn spawn_cleared(self: &Arc<Self>, reports: Vec<Arc<ClosedReport>>) {
        let this = self.clone();
        tokio::spawn(async move { this.cleared(reports).await });
    }

    /// Clears the diagnostics of closed flows no longer reported.
    async fn cleared(&self, reports: Vec<Arc<ClosedReport>>) {
        let client = self.state.lock().client;
        if client.pull_diagnostics {
            self.refresh();
            return;
        }
        for report in reports {
            if !report.diagnostics.is_empty() {
                self.publisher
                    .publish_closed(report.uri.clone(), Vec::new())
                    .await;
            }
        }
    }

    /// Asks a pulling client to pull again, when it accepts it: the
    /// diagnostics of flows it did not touch have changed.
    pub fn refresh(&self) {
        let client = self.state.lock().client;
        if client.pull_diagnostics && client.diagnostic_refresh {
            self.work().changed = false;
            let lsp_client = self.client.clone();
            tokio::spawn(async move {
                if let Err(error) = lsp_client.workspace_diagnostic_refresh().await {
                    tracing::debug!("workspace/diagnostic/refresh: {error}");
                }
            });
        }
    }

    fn scope(&self) -> DiagnosticsScope {
        self.state.lock().settings.diagnostics_scope
    }

    /// The checker: batch after batch while the queue has flows.
    async fn run(self: Arc<Self>) {
        let mut checked = 0usize;
        let started = std::time::Instant::now();
        loop {
            let batch = self.work().take_batch();
            if batch.is_empty() {
                if checked > 0 {
                    tracing::info!("checked {checked} closed flows in {:?}", started.elapsed());
                    checked = 0;
                }
                let changed = self.work().changed;
                if changed {
                    self.refresh();
                }
                self.idle.send_replace(true);
                self.wake.notified().await;
                self.idle.send_replace(false);
                continue;
            }
            let Some(input) = BatchInput::of(&self.state, batch) else {
                self.work().clear_queue();
                continue;
            };
            checked += input.flows.len();
            let results =
                tokio::task::spawn_blocking(move || background::run(|| check_batch(input)))
                    .await
                    .unwrap_or_default();
            self.apply(results).await;
        }
    }

    /// Keeps (and pushes, to a client that does not pull) the reports that
    /// are still current.
    async fn apply(&self, results: Vec<Checked>) {
        let pull = self.state.lock().client.pull_diagnostics;
        for checked in results {
            let (current, must_publish) = {
                let mut work = self.work();
                let current = work.tickets.get(&checked.path) == Some(&checked.ticket);
                if current {
                    work.tickets.remove(&checked.path);
                    if checked.report.is_none() {
                        work.flows.remove(&checked.path);
                    }
                }
                let must_publish = current && work.must_publish.remove(&checked.path);
                (current, must_publish)
            };
            if !current {
                continue;
            }
            let (previous, report) = match checked.report {
                Some(report) => {
                    let report = Arc::new(report);
                    (
                        self.store.insert(checked.path, report.clone()),
                        Some(report),
                    )
                }
                None => (self.store.remove(&checked.path), None),
            };
            let changed =
                previous.as_ref().map(|r| &r.result_id) != report.as_ref().map(|r| &r.result_id);
            if changed {
                self.work().changed = true;
            }
            if pull || !(changed || must_publish) {
                continue;
            }
            match report {
                Some(report) => {
                    let was_empty = previous.is_none_or(|r| r.diagnostics.is_empty());
                    // An empty list is published only to clear.
                    if !report.diagnostics.is_empty() || !was_empty || must_publish {
                        self.publisher
                            .publish_closed(report.uri.clone(), report.diagnostics.clone())
                            .await;
                    }
                }
                None => {
                    if let Some(previous) = previous {
                        self.cleared(vec![previous]).await;
                    }
                }
            }
        }
    }
}

/// One batch of closed flows to check, detached from the state.
struct BatchInput {
    flows: Vec<(PathBuf, u64)>,
    workspace: Workspace,
    files: OpenTexts,
    client: ClientCapabilities,
    docs: Option<String>,
    skipped: Arc<SkippedFiles>,
}

impl BatchInput {
    /// `None` when closed flows get no diagnostics (`openFiles`).
    fn of(state: &SharedState, flows: Vec<(PathBuf, u64)>) -> Option<BatchInput> {
        let state = state.lock();
        if state.settings.diagnostics_scope != DiagnosticsScope::Workspace {
            return None;
        }
        // An open flow's diagnostics are its text's.
        let flows = flows
            .into_iter()
            .filter(|(path, _)| state.open_document(path).is_none())
            .collect();
        Some(BatchInput {
            flows,
            workspace: state.workspace(),
            files: OpenTexts::of(&state),
            client: state.client,
            docs: diagnostics::docs_url(state.settings.docs_url.clone()),
            skipped: state.skipped.clone(),
        })
    }
}

/// A flow checked: its report, or `None` when it is no workspace flow
/// (gone, unreadable, or outside every folder).
struct Checked {
    path: PathBuf,
    ticket: u64,
    report: Option<ClosedReport>,
}

/// Checks a batch of closed flows, each on a throwaway database (one per
/// thread of the batch), with the files the project loader finds for it.
fn check_batch(input: BatchInput) -> Vec<Checked> {
    let BatchInput {
        flows,
        workspace,
        files,
        client,
        docs,
        skipped,
    } = input;
    let mut loader = Loader::new(workspace.clone(), &files);
    let found: Vec<_> = flows
        .into_iter()
        .map(|(path, ticket)| {
            let in_workspace = workspace.folder_of(&path).is_some();
            let configuration = in_workspace.then(|| loader.flow(&path));
            (path, ticket, configuration)
        })
        .collect();
    let loaded = loader.take_loaded();
    for file in &loaded.skipped {
        skipped.record(file);
    }
    let topologies: HashMap<PathBuf, String> = loaded.topologies.into_iter().collect();
    let catalogs: HashMap<PathBuf, Vec<u8>> = loaded.catalogs.into_iter().collect();
    found
        .into_par_iter()
        .map_init(
            || Checker {
                db: Database::default(),
                topologies: HashMap::new(),
                catalogs: HashMap::new(),
            },
            |checker, (path, ticket, configuration)| {
                let report = configuration.and_then(|configuration| {
                    let text = disk::read(&path, FileKind::Flow)
                        .inspect_err(|error| {
                            if error.reason != easyflow_project::SkipReason::NotFound {
                                skipped.record(error);
                            }
                        })
                        .ok()?;
                    Some(checker.check(
                        &path,
                        text,
                        configuration,
                        (&topologies, &catalogs),
                        &client,
                        docs.as_deref(),
                    ))
                });
                Checked {
                    path,
                    ticket,
                    report,
                }
            },
        )
        .collect()
}

/// A throwaway database and the topologies and catalogs set in it.
struct Checker {
    db: Database,
    topologies: HashMap<PathBuf, TopologyFile>,
    catalogs: HashMap<PathBuf, CatalogFile>,
}

impl Checker {
    fn check(
        &mut self,
        path: &Path,
        text: String,
        configuration: easyflow_project::FlowFiles,
        (topology_texts, catalog_bytes): (&HashMap<PathBuf, String>, &HashMap<PathBuf, Vec<u8>>),
        client: &ClientCapabilities,
        docs: Option<&str>,
    ) -> ClosedReport {
        let db = &self.db;
        let topology = configuration.topology.as_ref().and_then(|(path, _)| {
            let text = topology_texts.get(path)?;
            Some(
                *self
                    .topologies
                    .entry(path.clone())
                    .or_insert_with(|| TopologyFile::new(db, path.clone(), text.clone())),
            )
        });
        let catalog = configuration.catalog.as_ref().and_then(|(path, _)| {
            let bytes = catalog_bytes.get(path)?;
            Some(
                *self
                    .catalogs
                    .entry(path.clone())
                    .or_insert_with(|| CatalogFile::new(db, path.clone(), bytes.clone())),
            )
        });
        let lines = LineIndex::new(&text);
        let text = SourceText::from(text);
        let file = SourceFile::builder(path.to_path_buf(), text.clone())
            .topology(topology)
            .catalog(catalog)
            .levels(configuration.levels)
            .new(db);
        // The edits and requests of open documents go first: the check is
        // paused, or cancelled and run again, while they are under way.
        let found = background::preemptible(&db.cancellation_token(), || db.check(file));
        let uri = Uri::from_file_path(path).expect("an absolute path");
        let lines = Lines {
            index: &lines,
            text: &text,
            encoding: client.encoding,
        };
        let diagnostics: Vec<lsp::Diagnostic> = found
            .iter()
            .map(|d| convert::diagnostic(&lines, client, &uri, docs, d))
            .collect();
        let configured_by = [
            configuration.config,
            configuration.topology.map(|(path, _)| path),
            configuration.catalog.map(|(path, _)| path),
        ]
        .into_iter()
        .flatten()
        .collect();
        ClosedReport {
            uri,
            result_id: result_id(&diagnostics),
            diagnostics,
            configured_by,
        }
    }
}

/// A result id for a list of diagnostics: equal lists, equal ids, so a
/// client asks with the id of what it shows and hears `unchanged`.
pub fn result_id(diagnostics: &[lsp::Diagnostic]) -> String {
    let mut hasher = DefaultHasher::new();
    serde_json::to_string(diagnostics)
        .unwrap_or_default()
        .hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// `textDocument/diagnostic`: the open document's diagnostics, else the
/// closed flow's as checked, else (a flow not checked yet or outside the
/// folders) its text on the disk's.
pub async fn document_diagnostic(
    state: &SharedState,
    closed: &WorkspaceDiagnostics,
    params: lsp::DocumentDiagnosticParams,
) -> jsonrpc::Result<lsp::DocumentDiagnosticReportResult> {
    let uri = params.text_document.uri;
    let (result_id, items) = match diagnostics::of_open_document(state, &uri).await {
        Some(outcome) => {
            let (_, items) = outcome?;
            (result_id(&items), items)
        }
        None => match closed_flow_diagnostics(state, closed, &uri).await? {
            Some(report) => report,
            None => (result_id(&[]), Vec::new()),
        },
    };
    let report = if params.previous_result_id.as_ref() == Some(&result_id) {
        lsp::DocumentDiagnosticReport::Unchanged(lsp::RelatedUnchangedDocumentDiagnosticReport {
            related_documents: None,
            unchanged_document_diagnostic_report: lsp::UnchangedDocumentDiagnosticReport {
                result_id,
            },
        })
    } else {
        lsp::DocumentDiagnosticReport::Full(lsp::RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport {
                result_id: Some(result_id),
                items,
            },
        })
    };
    Ok(lsp::DocumentDiagnosticReportResult::Report(report))
}

/// The diagnostics of a flow that is not open: as checked, else computed
/// now from the disk; `None` when it gets none (not a flow, the scope
/// `openFiles`).
async fn closed_flow_diagnostics(
    state: &SharedState,
    closed: &WorkspaceDiagnostics,
    uri: &Uri,
) -> jsonrpc::Result<Option<(String, Vec<lsp::Diagnostic>)>> {
    let Some(path) = path_of(uri) else {
        return Ok(None);
    };
    let (scope, docs) = {
        let state = state.lock();
        (
            state.settings.diagnostics_scope,
            state.settings.docs_url.clone(),
        )
    };
    if scope != DiagnosticsScope::Workspace || FileKind::by_name(&path) != Some(FileKind::Flow) {
        return Ok(None);
    }
    if let Some(report) = closed.store.get(&path) {
        return Ok(Some((report.result_id.clone(), report.diagnostics.clone())));
    }
    let Some(snapshot) = workspace::flow_snapshot(state, uri) else {
        return Ok(None);
    };
    let cancel = snapshot.analysis.cancellation_token();
    let items = dispatch::run_blocking(
        "textDocument/diagnostic",
        cancel,
        move || -> HandlerResult<Vec<lsp::Diagnostic>> {
            let docs = diagnostics::docs_url(docs);
            let diagnostics = snapshot.analysis.diagnostics(snapshot.file)?;
            let lines = snapshot.lines();
            Ok(diagnostics
                .iter()
                .map(|d| {
                    convert::diagnostic(&lines, &snapshot.client, &snapshot.uri, docs.as_deref(), d)
                })
                .collect())
        },
    )
    .await?;
    Ok(Some((result_id(&items), items)))
}

/// `workspace/diagnostic`: every open flow's diagnostics and, with the
/// scope `workspace`, every closed flow's checked so far (answered at
/// once, never held open); `unchanged` for those the client has with the
/// same result id; an empty report for a flow it has that no longer gets
/// any (deleted, or out of the scope).
pub async fn workspace_diagnostic(
    state: &SharedState,
    closed: &WorkspaceDiagnostics,
    params: lsp::WorkspaceDiagnosticParams,
) -> jsonrpc::Result<lsp::WorkspaceDiagnosticReportResult> {
    let mut previous: HashMap<Uri, String> = params
        .previous_result_ids
        .into_iter()
        .map(|p| (p.uri, p.value))
        .collect();
    let (open_flows, scope) = {
        let state = state.lock();
        let open: Vec<Uri> = state
            .documents
            .iter()
            .filter(|(_, document)| document.kind == FileKind::Flow)
            .map(|(uri, _)| uri.clone())
            .collect();
        (open, state.settings.diagnostics_scope)
    };
    let mut items = Vec::new();
    let mut report = |uri: Uri, version: Option<i64>, result_id: String, diagnostics| {
        let unchanged = previous.remove(&uri).as_ref() == Some(&result_id);
        items.push(workspace_report(
            uri,
            version,
            result_id,
            (!unchanged).then_some(diagnostics),
        ));
    };
    for uri in &open_flows {
        if let Some(outcome) = diagnostics::of_open_document(state, uri).await {
            let (version, diagnostics) = outcome?;
            report(
                uri.clone(),
                Some(i64::from(version)),
                result_id(&diagnostics),
                diagnostics,
            );
        }
    }
    if scope == DiagnosticsScope::Workspace {
        for closed in closed.store.all() {
            if open_flows.contains(&closed.uri) {
                continue;
            }
            report(
                closed.uri.clone(),
                None,
                closed.result_id.clone(),
                closed.diagnostics.clone(),
            );
        }
    }
    // What the client shows of flows no longer reported is cleared (with
    // no result id: it has nothing left to ask about).
    for uri in previous.into_keys() {
        if path_of(&uri).is_some_and(|p| FileKind::by_name(&p) == Some(FileKind::Flow)) {
            items.push(lsp::WorkspaceDocumentDiagnosticReport::Full(
                lsp::WorkspaceFullDocumentDiagnosticReport {
                    uri,
                    version: None,
                    full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport {
                        result_id: None,
                        items: Vec::new(),
                    },
                },
            ));
        }
    }
    Ok(lsp::WorkspaceDiagnosticReportResult::Report(
        lsp::WorkspaceDiagnosticReport { items },
    ))
}

/// One document's report in `workspace/diagnostic`: `unchanged` when
/// `diagnostics` is `None`.
fn workspace_report(
    uri: Uri,
    version: Option<i64>,
    result_id: String,
    diagnostics: Option<Vec<lsp::Diagnostic>>,
) -> lsp::WorkspaceDocumentDiagnosticReport {
    match diagnostics {
        Some(items) => lsp::WorkspaceDocumentDiagnosticReport::Full(
            lsp::WorkspaceFullDocumentDiagnosticReport {
                uri,
                version,
                full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport {
                    result_id: Some(result_id),
                    items,
                },
            },
        ),
        None => lsp::WorkspaceDocumentDiagnosticReport::Unchanged(
            lsp::WorkspaceUnchangedDocumentDiagnosticReport {
                uri,
                version,
                unchanged_document_diagnostic_report: lsp::UnchangedDocumentDiagnosticReport {
                    result_id,
                },
            },
        ),
    }
}
