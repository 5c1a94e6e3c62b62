//! The one way work runs off the message loop: every request (and the
//! diagnostics task) computes on a snapshot in `spawn_blocking`, through
//! [`run_blocking`]:
//!
//! - a panic becomes an `InternalError` response and a line on stderr;
//! - a computation cancelled by a later change (the ide's `Cancellable`)
//!   becomes `ContentModified`;
//! - `$/cancelRequest` drops the request's future, which cancels the
//!   snapshot's computation.
//!
//! Requests about a document go through [`on_document`] with a handler
//! `fn(&DocumentSnapshot, Params) -> HandlerResult<Result>`; requests about
//! the workspace through [`on_workspace`].

use std::panic::AssertUnwindSafe;

use easyflow_ide::{CancellationToken, Cancelled};
use tower_lsp_server::jsonrpc::{self, ErrorCode};
use tower_lsp_server::ls_types::{self as lsp, request::Request};

use crate::state::{DocumentSnapshot, SharedState, WorkspaceSnapshot};
use crate::workspace::{self, CompanionSnapshot};

/// Why a handler gave no result.
pub enum HandlerError {
    /// A change made the snapshot stale while it computed.
    Cancelled(Cancelled),
    /// The request cannot be answered: this error is the response.
    Failed(jsonrpc::Error),
}

impl From<Cancelled> for HandlerError {
    fn from(cancelled: Cancelled) -> Self {
        HandlerError::Cancelled(cancelled)
    }
}

pub type HandlerResult<T> = Result<T, HandlerError>;

/// LSP's `ContentModified`: the answer would describe a document that has
/// changed since.
pub fn content_modified() -> jsonrpc::Error {
    jsonrpc::Error {
        code: ErrorCode::ServerError(lsp::error_codes::CONTENT_MODIFIED),
        message: "content modified".into(),
        data: None,
    }
}

/// Cancels a computation when its future is dropped (by `$/cancelRequest`)
/// before the computation finished.
struct CancelOnDrop(Option<CancellationToken>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(token) = self.0.take() {
            token.cancel();
        }
    }
}

/// Runs `work` on the blocking pool; `cancel` cancels the snapshot it
/// computes on. `what` names the work in the log.
pub async fn run_blocking<T, W>(
    what: &str,
    cancel: CancellationToken,
    work: W,
) -> jsonrpc::Result<T>
where
    T: Send + 'static,
    W: FnOnce() -> HandlerResult<T> + Send + 'static,
{
    let mut guard = CancelOnDrop(Some(cancel));
    // Unwind safety: the work owns its snapshot, which is dropped with it.
    // Background work pauses from now until this work ends, and a while
    // after (`background.rs`).
    let foreground = crate::background::Foreground::start();
    let outcome = tokio::task::spawn_blocking(move || {
        let _foreground = foreground;
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(work));
        crate::memory::collect_thread();
        outcome
    })
    .await;
    guard.0 = None;
    match outcome {
        Ok(Ok(Ok(value))) => Ok(value),
        Ok(Ok(Err(HandlerError::Cancelled(cancelled)))) => {
            tracing::debug!("{what} cancelled: {cancelled}");
            Err(content_modified())
        }
        Ok(Ok(Err(HandlerError::Failed(error)))) => Err(error),
        Ok(Err(panic)) => {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            tracing::error!("{what} panicked: {message}");
            Err(jsonrpc::Error {
                code: ErrorCode::InternalError,
                message: format!("internal error: {message}").into(),
                data: None,
            })
        }
        Err(error) => {
            tracing::error!("{what}: its task failed: {error}");
            Err(jsonrpc::Error::internal_error())
        }
    }
}

/// The parameters of a request about one document.
pub trait DocumentParams {
    fn uri(&self) -> &lsp::Uri;
}

macro_rules! document_params {
    ($($params:ty => |$p:ident| $uri:expr;)*) => {
        $(impl DocumentParams for $params {
            fn uri(&self) -> &lsp::Uri {
                let $p = self;
                &$uri
            }
        })*
    };
}

document_params! {
    lsp::HoverParams => |p| p.text_document_position_params.text_document.uri;
    lsp::SignatureHelpParams => |p| p.text_document_position_params.text_document.uri;
    lsp::CompletionParams => |p| p.text_document_position.text_document.uri;
    lsp::GotoDefinitionParams => |p| p.text_document_position_params.text_document.uri;
    lsp::ReferenceParams => |p| p.text_document_position.text_document.uri;
    lsp::DocumentHighlightParams => |p| p.text_document_position_params.text_document.uri;
    lsp::TextDocumentPositionParams => |p| p.text_document.uri;
    lsp::RenameParams => |p| p.text_document_position.text_document.uri;
    lsp::DocumentSymbolParams => |p| p.text_document.uri;
    lsp::SemanticTokensParams => |p| p.text_document.uri;
    lsp::SemanticTokensRangeParams => |p| p.text_document.uri;
    lsp::FoldingRangeParams => |p| p.text_document.uri;
    lsp::SelectionRangeParams => |p| p.text_document.uri;
    lsp::CodeActionParams => |p| p.text_document.uri;
    lsp::InlayHintParams => |p| p.text_document.uri;
    lsp::CodeLensParams => |p| p.text_document.uri;
    lsp::DocumentFormattingParams => |p| p.text_document.uri;
    lsp::DocumentRangeFormattingParams => |p| p.text_document.uri;
    lsp::CallHierarchyPrepareParams => |p| p.text_document_position_params.text_document.uri;
    lsp::CallHierarchyIncomingCallsParams => |p| p.item.uri;
    lsp::CallHierarchyOutgoingCallsParams => |p| p.item.uri;
    lsp::DocumentLinkParams => |p| p.text_document.uri;
    crate::lsp_ext::GraphParams => |p| p.text_document.uri;
    crate::lsp_ext::GraphPictureParams => |p| p.text_document.uri;
    crate::lsp_ext::ExportParams => |p| p.text_document.uri;
    crate::lsp_ext::ShowDependentsArguments => |p| p.0;
}

/// Answers request `R` about a flow with `handler` on a snapshot of it; an
/// empty result (`null`) for a document that is no flow the server can read.
pub async fn on_document<R>(
    state: &SharedState,
    params: R::Params,
    handler: fn(&DocumentSnapshot, R::Params) -> HandlerResult<R::Result>,
) -> jsonrpc::Result<R::Result>
where
    R: Request,
    R::Params: DocumentParams,
    R::Result: Default,
{
    // This future never waits while it holds the snapshot (for the state's
    // lock, or at an await; `run_blocking` hands it to a thread, which a
    // write cancels): the message loop polls it, and a write by the next
    // message waits, on the loop's thread, for every snapshot to go.
    let skipped = state.lock().skipped.clone();
    let mut snapshot = workspace::flow_snapshot(state, params.uri());
    // Reading a closed flow for the request may have skipped files: the
    // warning comes before the answer, sent without the snapshot, which is
    // taken again after (the loop may have changed the flow meanwhile).
    if skipped.has_new() {
        drop(snapshot);
        skipped.show().await;
        snapshot = workspace::flow_snapshot(state, params.uri());
    }
    let Some(snapshot) = snapshot else {
        return Ok(R::Result::default());
    };
    let cancel = snapshot.analysis.cancellation_token();
    run_blocking(R::METHOD, cancel, move || handler(&snapshot, params)).await
}

/// Answers request `R` about a package catalog, a topology or an
/// `easyflow.toml` with `handler` (`workspace::companion_snapshot`); gives
/// the params back when the document is none of those.
pub async fn on_companion<R>(
    state: &SharedState,
    params: R::Params,
    handler: fn(&CompanionSnapshot, R::Params) -> HandlerResult<R::Result>,
) -> Result<jsonrpc::Result<R::Result>, R::Params>
where
    R: Request,
    R::Params: DocumentParams,
{
    let Some(snapshot) = workspace::companion_snapshot(state, params.uri()) else {
        return Err(params);
    };
    let cancel = snapshot.flows.analysis.cancellation_token();
    Ok(run_blocking(R::METHOD, cancel, move || handler(&snapshot, params)).await)
}

/// Answers request `R` about the whole workspace with `handler`.
pub async fn on_workspace<R>(
    state: &SharedState,
    params: R::Params,
    handler: fn(&WorkspaceSnapshot, R::Params) -> HandlerResult<R::Result>,
) -> jsonrpc::Result<R::Result>
where
    R: Request,
{
    let snapshot = state.lock().workspace_snapshot();
    let cancel = snapshot.analysis.cancellation_token();
    run_blocking(R::METHOD, cancel, move || handler(&snapshot, params)).await
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::mpsc;

    use easyflow_ide::{AnalysisHost, TextSize};

    use super::*;

    fn token() -> CancellationToken {
        AnalysisHost::new().analysis().cancellation_token()
    }

    #[tokio::test]
    async fn a_panic_is_an_internal_error() {
        let result: jsonrpc::Result<()> =
            run_blocking("test/panic", token(), || panic!("broken handler")).await;
        let error = result.unwrap_err();
        assert_eq!(error.code, ErrorCode::InternalError);
        assert_eq!(error.message, "internal error: broken handler");
    }

    #[tokio::test]
    async fn cancelled_work_is_content_modified_and_failures_pass() {
        let mut host = AnalysisHost::new();
        let file = host.add_flow(Path::new("a.flow"), "step A runs P ();\n");
        let analysis = host.analysis();
        let cancel = analysis.cancellation_token();
        cancel.cancel();
        let result = run_blocking("test/cancelled", cancel, move || {
            Ok(analysis.hover(file, TextSize::from(6))?.is_some())
        })
        .await;
        assert_eq!(result.unwrap_err().code, ErrorCode::ServerError(-32801));

        let refused = jsonrpc::Error::invalid_params("no");
        let result: jsonrpc::Result<()> = run_blocking("test/failed", token(), move || {
            Err(HandlerError::Failed(refused))
        })
        .await;
        assert_eq!(result.unwrap_err().code, ErrorCode::InvalidParams);
    }

    /// `$/cancelRequest` drops the request's future: its computation is
    /// cancelled.
    #[tokio::test]
    async fn dropping_the_request_cancels_its_computation() {
        let mut host = AnalysisHost::new();
        let file = host.add_flow(Path::new("a.flow"), "step A runs P ();\n");
        let analysis = host.analysis();
        let cancel = analysis.cancellation_token();
        let probe = analysis.cancellation_token();
        let (started, running) = mpsc::channel();
        let (go_on, proceed) = mpsc::channel::<()>();
        let (ended, outcome) = mpsc::channel();
        let request = tokio::spawn(run_blocking("test/dropped", cancel, move || {
            started.send(()).unwrap();
            proceed.recv().unwrap();
            ended.send(analysis.diagnostics(file).is_err()).unwrap();
            Ok(())
        }));
        tokio::task::spawn_blocking(move || running.recv().unwrap())
            .await
            .unwrap();
        request.abort();
        while !probe.is_cancelled() {
            tokio::task::yield_now().await;
        }
        go_on.send(()).unwrap();
        let cancelled = tokio::task::spawn_blocking(move || outcome.recv().unwrap())
            .await
            .unwrap();
        assert!(cancelled, "the computation was cancelled");
    }
}
