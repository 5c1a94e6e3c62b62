//! Multi-root workspaces (lsp.md, "The whole workspace"): workspace folders
//! that come and go (`workspace/didChangeWorkspaceFolders`: their flows
//! indexed or dropped), and each folder's settings, asked of the client
//! (`workspace/configuration`, the section `easyflow` with the folder as
//! `scopeUri`) when it answers that, at start and again on
//! `workspace/didChangeConfiguration`. A folder's answer goes over the
//! global settings key by key (`State::folder_settings`); the flows of a
//! folder, the innermost that holds them, get its settings.

use std::path::PathBuf;

use tower_lsp_server::ls_types as lsp;

use crate::path_settings;
use crate::server::Server;
use crate::state::path_of;
use crate::workspace::{self, Flows};

/// Applies a change of the workspace folders, in the order of the messages:
/// the removed folders' flows leave the index (and the analysis, when they
/// are closed), the added folders' flows are indexed in the background
/// (workspace symbols wait for them), and every open flow is configured
/// again (its folder, its settings, the boundary of its `easyflow.toml`).
pub fn did_change(server: &Server, params: lsp::DidChangeWorkspaceFoldersParams) {
    let folders = |list: &[lsp::WorkspaceFolder]| -> Vec<PathBuf> {
        list.iter().filter_map(|f| path_of(&f.uri)).collect()
    };
    let removed = folders(&params.event.removed);
    let mut added: Vec<PathBuf> = Vec::new();
    let dropped = {
        let mut state = server.state.lock();
        state
            .workspace_folders
            .retain(|root| !removed.contains(root));
        for root in &removed {
            state.folder_answers.remove(root);
        }
        // A folder already there (or named twice) is not indexed again.
        for root in folders(&params.event.added) {
            if !state.workspace_folders.contains(&root) {
                state.workspace_folders.push(root.clone());
                added.push(root);
            }
        }
        // The flows no folder holds any more, unless open.
        let dropped: Vec<PathBuf> = state
            .indexed
            .keys()
            .chain(state.flows.keys())
            .filter(|path| removed.iter().any(|root| path.starts_with(root)))
            .filter(|path| !state.in_workspace(path) && state.open_document(path).is_none())
            .cloned()
            .collect();
        for path in &dropped {
            state.indexed.remove(path);
            state.leave_analysis(path);
        }
        tracing::info!(
            "workspace folders: {} added, {} removed ({} flows dropped)",
            added.len(),
            removed.len(),
            dropped.len()
        );
        dropped
    };
    // Their diagnostics are cleared (a closed flow's; an open one stays).
    for path in &dropped {
        server.closed.flow_deleted(path);
    }
    workspace::rediscover(&server.state, Flows::All);
    server.diagnostics.schedule_all_open();
    // Counted now, in the order of the messages: a workspace symbol request
    // that follows waits for the new folders' flows.
    server.reloading.send_modify(|flows| *flows += 1);
    let server = server.clone();
    tokio::spawn(async move {
        if !added.is_empty() {
            let flows =
                workspace::index_folders(&server.state, &server.client, added.clone()).await;
            // Their closed flows' diagnostics, as at start.
            server.closed.start(flows);
        }
        server.reloading.send_modify(|flows| *flows -= 1);
        if !ask_configuration(&server).await && !added.is_empty() {
            path_settings::warn_missing(&server).await;
        }
        workspace::watch_new_catalogs(&server.state, &server.client);
    });
}

/// Asks the client for each workspace folder's settings, when it answers
/// `workspace/configuration`, and applies the answers: every open flow is
/// configured and checked again, and the path settings that name no file
/// are said. Returns whether any folder's path settings changed (and so
/// were said). A request to the client: spawned, never awaited in a
/// notification handler.
pub async fn ask_configuration(server: &Server) -> bool {
    let (folders, generation) = {
        let mut state = server.state.lock();
        if !state.client.configuration || state.workspace_folders.is_empty() {
            return false;
        }
        state.configuration_asked += 1;
        (state.workspace_folders.clone(), state.configuration_asked)
    };
    let items = folders
        .iter()
        .map(|root| lsp::ConfigurationItem {
            scope_uri: lsp::Uri::from_file_path(root),
            section: Some("easyflow".to_string()),
        })
        .collect();
    let answers = match server.client.configuration(items).await {
        Ok(answers) => answers,
        Err(error) => {
            tracing::warn!("the client did not answer workspace/configuration: {error}");
            Vec::new()
        }
    };
    let (changed, paths_changed) = {
        let mut state = server.state.lock();
        if state.configuration_asked != generation {
            return false; // asked again since: the later answer wins
        }
        let (mut changed, mut paths_changed) = (false, false);
        // A folder not answered (a short list, an error) falls back to the
        // global settings, as one answered `null`.
        for (i, root) in folders.iter().enumerate() {
            if !state.workspace_folders.contains(root) {
                continue; // removed meanwhile
            }
            let before = state.folder_settings(root);
            match answers.get(i).filter(|a| a.is_object()) {
                Some(answer) => state.folder_answers.insert(root.clone(), answer.clone()),
                None => state.folder_answers.remove(root),
            };
            let after = state.folder_settings(root);
            changed |= after != before;
            paths_changed |= after.paths() != before.paths();
        }
        (changed, paths_changed)
    };
    if changed {
        tracing::info!("the workspace folders' settings changed");
        settings_changed(server, paths_changed);
        if paths_changed {
            path_settings::warn_missing(server).await;
        }
    }
    paths_changed
}

/// After settings changed (the global ones, or a folder's): configures the
/// open flows again when a path setting may have changed, checks them
/// again, and asks the client to refresh its inlay hints and code lenses.
pub fn settings_changed(server: &Server, paths_changed: bool) {
    if paths_changed {
        workspace::rediscover(&server.state, Flows::All);
        server.closed.recheck_all();
    }
    // A client that pulls asks again for the open flows (and the closed
    // ones checked so far; another refresh follows their re-check).
    server.closed.refresh();
    server.diagnostics.schedule_all_open();
    let refresh = server.state.lock().client;
    let client = server.client.clone();
    tokio::spawn(async move {
        if refresh.inlay_hint_refresh {
            let _ = client.inlay_hint_refresh().await;
        }
        if refresh.code_lens_refresh {
            let _ = client.code_lens_refresh().await;
        }
    });
    workspace::watch_new_catalogs(&server.state, &server.client);
}
