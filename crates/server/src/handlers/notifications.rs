//! The notification handlers. Changes apply to the state synchronously,
//! before any `.await`: handlers are polled one at a time on the message
//! loop, so changes land in the order the client sent them, and a request
//! that follows a change sees it. Disk reads happen outside the state lock
//! (`workspace.rs`). A request to the client (a refresh, a registration)
//! is spawned, never awaited here: its answer would come through the
//! message loop that is running this handler.

use std::path::Path;
use std::sync::Arc;

use easyflow_ide::SourceText;
use easyflow_project::FileKind;

use tower_lsp_server::ls_types::*;

use crate::convert::Lines;
use crate::folders;
use crate::line_index::LineIndex;
use crate::path_settings;
use crate::server::Server;
use crate::state::{Document, path_of};
use crate::workspace::{self, Flows};

pub fn initialized(server: &Server) {
    tracing::info!("initialized");
    let server = server.clone();
    let configuring = server.clone();
    tokio::spawn(async move {
        if !folders::ask_configuration(&configuring).await {
            path_settings::warn_missing(&configuring).await;
        }
        workspace::register_watchers(&configuring.state, &configuring.client).await;
    });
    tokio::spawn(async move {
        let flows = workspace::index(&server.state, &server.client).await;
        server.indexed.send_replace(true);
        // After the open flows, which were scheduled when opened.
        server.closed.start(flows);
    });
}

pub fn did_open(server: &Server, params: DidOpenTextDocumentParams) {
    let document = params.text_document;
    // The guard in front of tower-lsp decoded the text (`transport.rs`).
    let text = server
        .opened
        .take(&document.uri, document.version)
        .unwrap_or_else(|| document.text.as_str().into());
    let Some(path) = path_of(&document.uri) else {
        return;
    };
    let lines = Arc::new(LineIndex::new(&text));
    let text = SourceText::from(text);
    // Read before the lock: a catalog no flow has loaded yet, named by the
    // `easyflow.toml` above it.
    let named_catalog = workspace::named_as_catalog(&path);
    let flow = {
        let mut state = server.state.lock();
        let Some(kind) = state
            .kind_of(&path)
            .or(named_catalog.then_some(FileKind::Catalog))
        else {
            return;
        };
        state.documents.insert(
            document.uri.clone(),
            Document {
                kind,
                version: document.version,
                text: text.clone(),
                lines,
                requests_primed: false,
            },
        );
        match kind {
            FileKind::Flow => {
                state.opened_flow(&path);
                Some(state.set_flow(&path, text))
            }
            FileKind::Topology => {
                state.set_topology(&path, text.to_string());
                None
            }
            FileKind::Catalog => {
                state.set_catalog(&path, text.to_string().into_bytes());
                None
            }
            FileKind::Config => None,
        }
        .ok_or(kind)
    };
    match flow {
        Ok(file) => {
            workspace::rediscover(&server.state, Flows::One(file));
            server.diagnostics.schedule(document.uri);
        }
        Err(kind) => {
            if matches!(kind, FileKind::Config | FileKind::Catalog) {
                workspace::rediscover(&server.state, Flows::All);
            }
            server.diagnostics.schedule_all_open();
            // The editor's text wins over the disk's for the closed flows too.
            server.closed.recheck_configured_by(&path);
            server.closed.refresh();
        }
    }
    workspace::watch_new_catalogs(&server.state, &server.client);
}

pub fn did_change(server: &Server, params: DidChangeTextDocumentParams) {
    let uri = params.text_document.uri;
    let version = params.text_document.version;
    let kind = {
        let mut state = server.state.lock();
        let encoding = state.client.encoding;
        let Some(document) = state.documents.get_mut(&uri) else {
            tracing::warn!(
                "didChange for a document that is not open: {}",
                uri.as_str()
            );
            return;
        };
        tracing::debug!("received version {version}");
        let mut text = document.text.clone();
        // Taken out of the document, the line index is edited in place
        // unless a request or the diagnostics still hold this version (then
        // its chunk list is copied, not its lines).
        let mut lines = std::mem::take(&mut document.lines);
        // One edit: the analysis reparses only around it.
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
                    text.edit(range, &change.text);
                    Arc::make_mut(&mut lines).edit(range, &change.text);
                    if single_change {
                        edit = Some((range, change.text));
                    }
                }
                None => {
                    lines = Arc::new(LineIndex::new(&change.text));
                    text = change.text.into();
                }
            }
        }
        document.version = version;
        document.text = text.clone();
        document.lines = lines;
        let kind = document.kind;
        let Some(path) = path_of(&uri) else { return };
        match kind {
            FileKind::Flow => {
                match edit {
                    Some((deleted, inserted)) => state.edit_flow(&path, text, deleted, &inserted),
                    None => state.set_flow(&path, text),
                };
                tracing::debug!("set the text of version {version}");
            }
            FileKind::Topology => {
                if state.topologies.contains_key(&path) {
                    state.set_topology(&path, text.to_string());
                }
            }
            FileKind::Catalog => {
                state.set_catalog(&path, text.to_string().into_bytes());
            }
            FileKind::Config => {}
        }
        kind
    };
    match kind {
        FileKind::Flow => server.diagnostics.schedule(uri),
        FileKind::Topology | FileKind::Catalog | FileKind::Config => {
            if kind == FileKind::Config {
                workspace::rediscover(&server.state, Flows::All);
            }
            server.diagnostics.schedule_all_open();
            if let Some(path) = path_of(&uri) {
                server.closed.recheck_configured_by(&path);
            }
            server.closed.refresh();
        }
    }
    workspace::watch_new_catalogs(&server.state, &server.client);
}

pub async fn did_close(server: &Server, params: DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    let Some(document) = server.state.lock().documents.remove(&uri) else {
        return;
    };
    // The disk's text replaces the editor's (or the file goes, if deleted).
    let mut checked_from_disk = false;
    if let Some(path) = path_of(&uri) {
        match document.kind {
            FileKind::Flow => {
                reload_closed_flow(server, &path);
                checked_from_disk = server.closed.flow_closed(&path);
            }
            FileKind::Topology => workspace::reload_topology(&server.state, &path),
            FileKind::Catalog => workspace::reload_catalog(&server.state, &path),
            FileKind::Config => workspace::rediscover(&server.state, Flows::All),
        }
        if document.kind != FileKind::Flow {
            server.closed.recheck_configured_by(&path);
            server.closed.refresh();
        }
    }
    let pull = server.state.lock().client.pull_diagnostics;
    if !pull && !checked_from_disk {
        server
            .client
            .publish_diagnostics(uri, Vec::new(), None)
            .await;
    }
    server.diagnostics.schedule_all_open();
    workspace::watch_new_catalogs(&server.state, &server.client);
}

/// Reads a closed flow again on the blocking pool, as other disk reads
/// are (after its `didClose`, or a change on the disk): reading and
/// indexing a large flow on the message loop held up every message after
/// it. The reload is started here, in the order of the messages, so a
/// `didOpen` of the flow that follows wins (`workspace::FlowReload`).
fn reload_closed_flow(server: &Server, path: &Path) {
    let reload = workspace::FlowReload::start(&server.state, path);
    server.reloading.send_modify(|flows| *flows += 1);
    let server = server.clone();
    tokio::spawn(async move {
        let applied = match tokio::task::spawn_blocking(move || reload.read()).await {
            Ok(read) => read.apply(&server.state),
            Err(_) => false,
        };
        server.reloading.send_modify(|flows| *flows -= 1);
        if applied {
            // Open flows may use what the closed one defined.
            server.diagnostics.schedule_all_open();
        }
        server.show_skipped().await;
    });
}

/// Re-checks the closed flows that a change on the disk of the file at
/// `path` (of `kind`, open in the editor or not) concerns: a closed flow
/// created, changed or deleted itself; the flows a topology, catalog or
/// `easyflow.toml` configures when it changed; every flow when one was
/// created or deleted (which can change the discovery of any flow).
fn recheck_closed_flows(
    server: &Server,
    path: &Path,
    kind: Option<FileKind>,
    open: bool,
    change: FileChangeType,
) {
    let closed = &server.closed;
    match kind {
        Some(FileKind::Flow) if open => {}
        Some(FileKind::Flow) if change == FileChangeType::DELETED => closed.flow_deleted(path),
        Some(FileKind::Flow) => closed.flow_changed_on_disk(path),
        // A catalog of another name that only closed flows use is not
        // known by name: what it configures says.
        _ if change == FileChangeType::CHANGED => closed.recheck_configured_by(path),
        _ => closed.recheck_all(),
    }
}

/// Applies the new global settings, then asks the client again for each
/// workspace folder's (they may have changed too), and says the path
/// settings that name no file when they changed.
pub fn did_change_configuration(server: &Server, params: DidChangeConfigurationParams) {
    let (paths_changed, scope_changed) = {
        let mut state = server.state.lock();
        let before = state.settings.paths();
        let scope_before = state.settings.diagnostics_scope;
        state.settings.update(&params.settings);
        (
            state.settings.paths() != before,
            state.settings.diagnostics_scope != scope_before,
        )
    };
    if scope_changed {
        server.closed.scope_changed();
    }
    folders::settings_changed(server, paths_changed);
    let server = server.clone();
    tokio::spawn(async move {
        if !folders::ask_configuration(&server).await && paths_changed {
            path_settings::warn_missing(&server).await;
        }
    });
}

pub fn did_change_watched_files(server: &Server, params: DidChangeWatchedFilesParams) {
    for change in params.changes {
        let Some(path) = path_of(&change.uri) else {
            continue;
        };
        let (open, kind) = {
            let state = server.state.lock();
            (
                state.documents.contains_key(&change.uri),
                state.kind_of(&path),
            )
        };
        match kind {
            Some(FileKind::Topology) => workspace::reload_topology(&server.state, &path),
            Some(FileKind::Catalog) if !open => workspace::reload_catalog(&server.state, &path),
            Some(FileKind::Flow) if !open => reload_closed_flow(server, &path),
            _ => {}
        }
        recheck_closed_flows(server, &path, kind, open, change.typ);
    }
    // A topology or catalog created or deleted, or a configuration changed,
    // can change which topology or catalog any flow uses.
    workspace::rediscover(&server.state, Flows::All);
    server.diagnostics.schedule_all_open();
    server.closed.refresh();
    workspace::watch_new_catalogs(&server.state, &server.client);
}
