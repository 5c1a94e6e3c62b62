//! Publishing diagnostics. Each open document has at most one computation
//! scheduled: a burst of changes schedules one, for the latest version. It
//! runs like a request (`dispatch::run_blocking`, on a snapshot, cancelled
//! by the next change), and its result is published with its version only
//! if that version is still current, in order: a lock keeps publications
//! one at a time, so no stale result follows a newer one.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use easyflow_ide::{Analysis, CatalogFile, SourceFile, SourceText, TopologyFile};
use easyflow_project::discovery;
use easyflow_project::{FileKind, Workspace};
use tower_lsp_server::ls_types::{self as lsp, Uri};
use tower_lsp_server::{Client, jsonrpc};

use crate::capabilities::ClientCapabilities;
use crate::convert::{self, Lines};
use crate::dispatch::{self, HandlerResult};
use crate::line_index::LineIndex;
use crate::state::{SharedState, State, path_of};

pub struct Diagnostics {
    client: Client,
    state: SharedState,
    /// Documents whose computation has not started yet.
    pending: Mutex<HashSet<Uri>>,
    /// Serialises publishing, so a result checked as current is published
    /// before any newer one (never a stale one after it).
    publishing: tokio::sync::Mutex<()>,
}

impl Diagnostics {
    pub fn new(client: Client, state: SharedState) -> Arc<Diagnostics> {
        Arc::new(Diagnostics {
            client,
            state,
            pending: Mutex::new(HashSet::new()),
            publishing: tokio::sync::Mutex::new(()),
        })
    }

    /// Computes and publishes the diagnostics of an open document, unless a
    /// newer version arrives first.
    pub fn schedule(self: &Arc<Self>, uri: Uri) {
        {
            let state = self.state.lock();
            if !state.documents.contains_key(&uri) {
                return; // closed: nothing to publish
            }
            if state.client.pull_diagnostics {
                return; // the client asks (`workspace_diagnostics.rs`)
            }
        }
        if !self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(uri.clone())
        {
            return; // the task already scheduled will see this change
        }
        let this = self.clone();
        tokio::spawn(async move { this.publish(uri).await });
    }

    /// Schedules every open document: after a change that can affect them
    /// all (a topology, a configuration, the settings).
    pub fn schedule_all_open(self: &Arc<Self>) {
        let uris: Vec<Uri> = self.state.lock().documents.keys().cloned().collect();
        for uri in uris {
            self.schedule(uri);
        }
    }

    async fn publish(self: Arc<Self>, uri: Uri) {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&uri);
        let Some(job) = Job::of(&self.state.lock(), &uri) else {
            return;
        };
        let version = job.version;
        let started = std::time::Instant::now();
        let cancel = job.analysis.cancellation_token();
        let outcome =
            dispatch::run_blocking("textDocument/publishDiagnostics", cancel, move || {
                job.compute()
            })
            .await;
        let diagnostics = match outcome {
            Ok(diagnostics) => diagnostics,
            // Any change to the analysis cancels every snapshot, also for a
            // change to another document, which schedules only its own
            // diagnostics: compute again (merged with a newer edit's run
            // when one is scheduled already).
            Err(error) if error == dispatch::content_modified() => {
                self.schedule(uri);
                return;
            }
            Err(_) => return, // a failure, logged
        };
        let _turn = self.publishing.lock().await;
        let current = self.state.lock().documents.get(&uri).map(|d| d.version);
        if current == Some(version) {
            tracing::debug!(
                "diagnostics of version {version} in {:?}",
                started.elapsed()
            );
            self.client
                .publish_diagnostics(uri.clone(), diagnostics, Some(version))
                .await;
            prime_requests(&self.state, uri);
        }
    }
}

/// Once an opened flow's first diagnostics are out, computes on a snapshot
/// what the first request about a name would otherwise compute cold
/// (`Analysis::prime_requests`), then what the first edit would
/// (`Analysis::edit_preparation`): the diagnostics come first, and the
/// first hover or keystroke after opening is as quick as the next. Once
/// per opening: after an edit, the requests recompute only what it
/// changed, and priming on every keystroke would hold up the next one. A
/// change cancels it, and the next diagnostics try again.
fn prime_requests(state: &SharedState, uri: Uri) {
    // Checked first: every publication of an open flow comes here.
    if unprimed_flow(&state.lock(), &uri).is_none() {
        return;
    }
    let state = state.clone();
    tokio::spawn(async move {
        // The snapshot is taken here, right before it goes to the blocking
        // pool: one held by a task still waiting for a worker would hold up
        // the next change's write, which may hold the very worker it waits
        // for (the session fuzzer found that deadlock).
        let (analysis, file) = {
            let state = state.lock();
            let Some(file) = unprimed_flow(&state, &uri) else {
                return;
            };
            (state.host.analysis(), file)
        };
        let cancel = analysis.cancellation_token();
        let primed = dispatch::run_blocking("priming requests", cancel, move || {
            let edits = analysis.edit_preparation(file);
            analysis.prime_requests(file)?;
            // Without the snapshot, which a change would wait for.
            drop(analysis);
            edits.run();
            Ok(())
        })
        .await;
        if primed.is_ok()
            && let Some(document) = state.lock().documents.get_mut(&uri)
        {
            document.requests_primed = true;
        }
    });
}

/// The open flow at `uri`, unless its requests are primed.
fn unprimed_flow(state: &State, uri: &Uri) -> Option<SourceFile> {
    let document = state.documents.get(uri)?;
    if document.kind != FileKind::Flow || document.requests_primed {
        return None;
    }
    state.flows.get(&path_of(uri)?).copied()
}

impl Diagnostics {
    /// Publishes the diagnostics of a closed flow (`workspace_diagnostics.rs`)
    /// in turn with the open documents', unless it is open by then: an
    /// open document's are its text's.
    pub async fn publish_closed(&self, uri: Uri, diagnostics: Vec<lsp::Diagnostic>) {
        let _turn = self.publishing.lock().await;
        if self.state.lock().documents.contains_key(&uri) {
            return;
        }
        self.client
            .publish_diagnostics(uri, diagnostics, None)
            .await;
    }
}

/// The diagnostics of the open document at `uri` now, with its version, for
/// a pull request; `None` when it is not open. A change that lands while
/// they are computed cancels them, and they are computed again on the new
/// state: a pull is answered, not refused.
pub async fn of_open_document(
    state: &SharedState,
    uri: &Uri,
) -> Option<jsonrpc::Result<(i32, Vec<lsp::Diagnostic>)>> {
    /// Attempts before a busy client's request is refused with
    /// `ContentModified` after all.
    const ATTEMPTS: usize = 8;
    let mut outcome = Err(dispatch::content_modified());
    for _ in 0..ATTEMPTS {
        let job = Job::of(&state.lock(), uri)?;
        let version = job.version;
        let cancel = job.analysis.cancellation_token();
        outcome = dispatch::run_blocking("textDocument/diagnostic", cancel, move || job.compute())
            .await
            .map(|diagnostics| (version, diagnostics));
        if !matches!(&outcome, Err(error) if *error == dispatch::content_modified()) {
            break;
        }
    }
    if outcome.is_ok() {
        prime_requests(state, uri.clone());
    }
    Some(outcome)
}

/// What the diagnostics of a document are computed from.
enum Source {
    Flow(SourceFile),
    Topology(TopologyFile),
    Catalog(CatalogFile),
    /// An `easyflow.toml`, and the workspace whose folders the paths it
    /// names must lie inside.
    Config(PathBuf, Workspace),
}

/// One computation of an open document's diagnostics, detached from the
/// state: its version, a snapshot, and how to convert the result.
struct Job {
    version: i32,
    source: Source,
    analysis: Analysis,
    uri: Uri,
    text: SourceText,
    lines: Arc<LineIndex>,
    client: ClientCapabilities,
    /// The setting `docsUrl` of the document's folder, if set.
    docs_url: Option<String>,
}

impl Job {
    fn of(state: &State, uri: &Uri) -> Option<Job> {
        let document = state.documents.get(uri)?;
        let path = path_of(uri)?;
        let source = match document.kind {
            FileKind::Flow => Source::Flow(*state.flows.get(&path)?),
            FileKind::Topology => Source::Topology(*state.topologies.get(&path)?),
            FileKind::Catalog => Source::Catalog(*state.catalogs.get(&path)?),
            FileKind::Config => Source::Config(path.clone(), state.workspace()),
        };
        Some(Job {
            version: document.version,
            source,
            analysis: state.host.analysis(),
            uri: uri.clone(),
            text: document.text.clone(),
            lines: document.lines.clone(),
            client: state.client,
            docs_url: state.settings_for(&path).docs_url,
        })
    }

    fn compute(self) -> HandlerResult<Vec<lsp::Diagnostic>> {
        let config;
        let diagnostics = match &self.source {
            Source::Flow(file) => self.analysis.diagnostics(*file)?,
            Source::Topology(topology) => self.analysis.topology_diagnostics(*topology)?,
            Source::Catalog(catalog) => self.analysis.catalog_diagnostics(*catalog)?,
            // Not a query: it reads the disk, to check the files it names.
            Source::Config(path, workspace) => {
                config = discovery::config_diagnostics(
                    path,
                    &self.text.whole(),
                    workspace,
                    &discovery::Disk,
                );
                config.as_slice()
            }
        };
        let lines = Lines {
            index: &self.lines,
            text: &self.text,
            encoding: self.client.encoding,
        };
        let docs = docs_url(self.docs_url);
        Ok(diagnostics
            .iter()
            .map(|d| convert::diagnostic(&lines, &self.client, &self.uri, docs.as_deref(), d))
            .collect())
    }
}

/// The URL of `docs/diagnostics.md` for `codeDescription`: the setting
/// `docsUrl` when set, else the installed one.
pub fn docs_url(setting: Option<String>) -> Option<String> {
    setting.or_else(installed_docs_url)
}

/// The URL of `docs/diagnostics.md` for `codeDescription` when the settings
/// name none: the documentation installed beside the server binary (as
/// packaged), or in the source tree it was built from
/// (`easyflow_diagnostics::docs::installed_file`). Looked up on the disk
/// once, off the message loop and outside the state lock.
fn installed_docs_url() -> Option<String> {
    static INSTALLED: OnceLock<Option<String>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            let exe = std::env::current_exe().ok();
            let docs = easyflow_diagnostics::docs::installed_file(exe.as_deref())?;
            Uri::from_file_path(docs).map(|uri| uri.as_str().to_string())
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use easyflow_diagnostics::Code;

    /// Every code's `codeDescription` link, as built from the installed
    /// documentation, names a file that exists and an anchor in it.
    #[test]
    fn every_code_description_link_resolves() {
        let base = super::installed_docs_url().expect("the source tree's docs/diagnostics.md");
        for code in Code::ALL {
            let href: tower_lsp_server::ls_types::Uri =
                easyflow_diagnostics::docs::url(&base, *code)
                    .parse()
                    .unwrap_or_else(|e| panic!("{code}: not a URI: {e:?}"));
            let path = href.to_file_path().expect("a file URL");
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{code}: {}: {e}", path.display()));
            let fragment = href.fragment().map(|f| f.as_str().to_string());
            let anchor = format!("<a id=\"{}\"></a>", fragment.as_deref().unwrap_or(""));
            assert!(
                text.contains(&anchor),
                "{code}: no {anchor} in {}",
                path.display()
            );
        }
    }
}
