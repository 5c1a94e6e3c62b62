//! The handles every handler shares: the client, the state, the diagnostics
//! scheduler, and whether the workspace's flows have been read. The route
//! table that sends each method to its handler is `handlers/mod.rs`.

use std::sync::Arc;

use tower_lsp_server::Client;

use crate::diagnostics::Diagnostics;
use crate::skipped::SkippedFiles;
use crate::state::SharedState;
use crate::transport::OpenedTexts;
use crate::workspace_diagnostics::WorkspaceDiagnostics;

#[derive(Clone)]
pub struct Server {
    pub client: Client,
    pub state: SharedState,
    pub diagnostics: Arc<Diagnostics>,
    /// The closed flows' diagnostics.
    pub closed: Arc<WorkspaceDiagnostics>,
    /// Becomes true when the workspace's flows have been read.
    pub indexed: Arc<tokio::sync::watch::Sender<bool>>,
    /// The texts of `didOpen`s, decoded by the transport's guard.
    pub opened: OpenedTexts,
    /// How many closed flows are being read again in the background
    /// (`notifications::did_close`), and added workspace folders indexed
    /// (`folders::did_change`): workspace symbols wait for them.
    pub reloading: Arc<tokio::sync::watch::Sender<usize>>,
}

impl Server {
    pub fn new(client: Client, opened: OpenedTexts) -> Self {
        let state = SharedState::new(SkippedFiles::new(Some(client.clone())));
        let diagnostics = Diagnostics::new(client.clone(), state.clone());
        Server {
            closed: WorkspaceDiagnostics::new(client.clone(), state.clone(), diagnostics.clone()),
            diagnostics,
            client,
            state,
            indexed: Arc::new(tokio::sync::watch::channel(false).0),
            opened,
            reloading: Arc::new(tokio::sync::watch::channel(0).0),
        }
    }

    /// Shows the files skipped since the last time (`skipped.rs`): at the
    /// end of each notification's handling.
    pub async fn show_skipped(&self) {
        let skipped = self.state.lock().skipped.clone();
        skipped.show().await;
    }
}
