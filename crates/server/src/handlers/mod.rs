//! The route table: every method the server answers, and its handler.
//! tower-lsp calls one trait method per standard method; each is one line
//! here. Requests about a flow go through `dispatch::on_document` with a
//! handler of `requests.rs`; those about a catalog, a topology or an
//! `easyflow.toml` (hover, symbols, references, links) first through
//! `dispatch::on_companion` with a handler of `companion.rs`; custom
//! requests (`lsp_ext.rs`) are routed in [`service`].

mod companion;
mod notifications;
mod requests;

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::request::{self as request, Request};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{ClientSocket, LanguageServer, LspService};

use crate::dispatch::{on_companion, on_document, on_workspace};
use crate::lsp_ext::{
    self, ExportParams, ExportResult, GraphParams, GraphPicture, GraphPictureParams, GraphResult,
};
use crate::server::Server;
use crate::transport::OpenedTexts;

/// How long `workspace/symbol` waits for the workspace's flows to be read.
const INDEX_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// The service: the standard methods of [`LanguageServer`] and the custom
/// requests. `opened` holds the texts of the `didOpen`s the transport's
/// guard decoded.
pub fn service(opened: OpenedTexts) -> (LspService<Server>, ClientSocket) {
    LspService::build(|client| Server::new(client, opened))
        .custom_method(lsp_ext::GraphRequest::METHOD, Server::graph)
        .custom_method(lsp_ext::GraphPictureRequest::METHOD, Server::graph_picture)
        .custom_method(lsp_ext::ExportRequest::METHOD, Server::export)
        .finish()
}

impl Server {
    /// Waits, within reason, for the workspace's flows to be read and for
    /// the flows closed before now to be indexed: requests over the whole
    /// workspace need them.
    async fn wait_for_index(&self) {
        let mut indexed = self.indexed.subscribe();
        let mut reloading = self.reloading.subscribe();
        let _ = tokio::time::timeout(INDEX_WAIT, async {
            let _ = indexed.wait_for(|done| *done).await;
            let _ = reloading.wait_for(|&flows| flows == 0).await;
        })
        .await;
    }

    async fn graph(&self, params: GraphParams) -> jsonrpc::Result<Option<GraphResult>> {
        on_document::<lsp_ext::GraphRequest>(&self.state, params, requests::graph).await
    }

    async fn graph_picture(
        &self,
        params: GraphPictureParams,
    ) -> jsonrpc::Result<Option<GraphPicture>> {
        on_document::<lsp_ext::GraphPictureRequest>(&self.state, params, requests::graph_picture)
            .await
    }

    async fn export(&self, params: ExportParams) -> jsonrpc::Result<Option<ExportResult>> {
        on_document::<lsp_ext::ExportRequest>(&self.state, params, requests::export).await
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> jsonrpc::Result<InitializeResult> {
        Ok(requests::initialize(&self.state, params))
    }

    async fn initialized(&self, _: InitializedParams) {
        notifications::initialized(self);
    }

    async fn shutdown(&self) -> jsonrpc::Result<()> {
        // The exit status is decided by the order of `shutdown` and `exit`
        // in the input (`transport.rs`).
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        notifications::did_open(self, params);
        self.show_skipped().await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        notifications::did_change(self, params);
        self.show_skipped().await;
    }

    async fn did_save(&self, _: DidSaveTextDocumentParams) {}

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        notifications::did_close(self, params).await;
        self.show_skipped().await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        notifications::did_change_configuration(self, params);
        self.show_skipped().await;
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        crate::folders::did_change(self, params);
        self.show_skipped().await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        notifications::did_change_watched_files(self, params);
        self.show_skipped().await;
    }

    async fn execute_command(
        &self,
        params: ExecuteCommandParams,
    ) -> jsonrpc::Result<Option<LSPAny>> {
        requests::execute_command(self, params).await
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> jsonrpc::Result<DocumentDiagnosticReportResult> {
        crate::workspace_diagnostics::document_diagnostic(&self.state, &self.closed, params).await
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> jsonrpc::Result<WorkspaceDiagnosticReportResult> {
        crate::workspace_diagnostics::workspace_diagnostic(&self.state, &self.closed, params).await
    }

    async fn hover(&self, params: HoverParams) -> jsonrpc::Result<Option<Hover>> {
        let params = match on_companion::<request::HoverRequest>(
            &self.state,
            params,
            companion::hover,
        )
        .await
        {
            Ok(answer) => return answer,
            Err(params) => params,
        };
        on_document::<request::HoverRequest>(&self.state, params, requests::hover).await
    }

    async fn signature_help(
        &self,
        params: SignatureHelpParams,
    ) -> jsonrpc::Result<Option<SignatureHelp>> {
        on_document::<request::SignatureHelpRequest>(&self.state, params, requests::signature_help)
            .await
    }

    async fn completion(
        &self,
        params: CompletionParams,
    ) -> jsonrpc::Result<Option<CompletionResponse>> {
        on_document::<request::Completion>(&self.state, params, requests::completion).await
    }

    async fn completion_resolve(&self, item: CompletionItem) -> jsonrpc::Result<CompletionItem> {
        Ok(requests::completion_resolve(&self.state, item).await)
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> jsonrpc::Result<Option<GotoDefinitionResponse>> {
        on_document::<request::GotoDefinition>(&self.state, params, requests::definition).await
    }

    async fn references(&self, params: ReferenceParams) -> jsonrpc::Result<Option<Vec<Location>>> {
        // From a catalog: the flows of the whole workspace.
        if crate::workspace::companion_kind(
            &self.state,
            &params.text_document_position.text_document.uri,
        )
        .is_some()
        {
            self.wait_for_index().await;
        }
        let params =
            match on_companion::<request::References>(&self.state, params, companion::references)
                .await
            {
                Ok(answer) => return answer,
                Err(params) => params,
            };
        on_document::<request::References>(&self.state, params, requests::references).await
    }

    async fn document_link(
        &self,
        params: DocumentLinkParams,
    ) -> jsonrpc::Result<Option<Vec<DocumentLink>>> {
        match on_companion::<request::DocumentLinkRequest>(
            &self.state,
            params,
            companion::document_link,
        )
        .await
        {
            Ok(answer) => answer,
            Err(_) => Ok(None),
        }
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> jsonrpc::Result<Option<Vec<DocumentHighlight>>> {
        on_document::<request::DocumentHighlightRequest>(
            &self.state,
            params,
            requests::document_highlight,
        )
        .await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> jsonrpc::Result<Option<PrepareRenameResponse>> {
        on_document::<request::PrepareRenameRequest>(&self.state, params, requests::prepare_rename)
            .await
    }

    async fn rename(&self, params: RenameParams) -> jsonrpc::Result<Option<WorkspaceEdit>> {
        on_document::<request::Rename>(&self.state, params, requests::rename).await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> jsonrpc::Result<Option<DocumentSymbolResponse>> {
        let params = match on_companion::<request::DocumentSymbolRequest>(
            &self.state,
            params,
            companion::document_symbol,
        )
        .await
        {
            Ok(answer) => return answer,
            Err(params) => params,
        };
        on_document::<request::DocumentSymbolRequest>(
            &self.state,
            params,
            requests::document_symbol,
        )
        .await
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> jsonrpc::Result<Option<WorkspaceSymbolResponse>> {
        self.wait_for_index().await;
        on_workspace::<request::WorkspaceSymbolRequest>(
            &self.state,
            params,
            requests::workspace_symbol,
        )
        .await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> jsonrpc::Result<Option<SemanticTokensResult>> {
        on_document::<request::SemanticTokensFullRequest>(
            &self.state,
            params,
            requests::semantic_tokens_full,
        )
        .await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> jsonrpc::Result<Option<SemanticTokensRangeResult>> {
        on_document::<request::SemanticTokensRangeRequest>(
            &self.state,
            params,
            requests::semantic_tokens_range,
        )
        .await
    }

    async fn folding_range(
        &self,
        params: FoldingRangeParams,
    ) -> jsonrpc::Result<Option<Vec<FoldingRange>>> {
        on_document::<request::FoldingRangeRequest>(&self.state, params, requests::folding_range)
            .await
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> jsonrpc::Result<Option<Vec<SelectionRange>>> {
        on_document::<request::SelectionRangeRequest>(
            &self.state,
            params,
            requests::selection_range,
        )
        .await
    }

    async fn formatting(
        &self,
        params: DocumentFormattingParams,
    ) -> jsonrpc::Result<Option<Vec<TextEdit>>> {
        on_document::<request::Formatting>(&self.state, params, requests::formatting).await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> jsonrpc::Result<Option<Vec<TextEdit>>> {
        on_document::<request::RangeFormatting>(&self.state, params, requests::range_formatting)
            .await
    }

    async fn code_action(
        &self,
        params: CodeActionParams,
    ) -> jsonrpc::Result<Option<CodeActionResponse>> {
        on_document::<request::CodeActionRequest>(&self.state, params, requests::code_action).await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> jsonrpc::Result<Option<Vec<InlayHint>>> {
        on_document::<request::InlayHintRequest>(&self.state, params, requests::inlay_hint).await
    }

    async fn code_lens(&self, params: CodeLensParams) -> jsonrpc::Result<Option<Vec<CodeLens>>> {
        on_document::<request::CodeLensRequest>(&self.state, params, requests::code_lens).await
    }

    async fn prepare_call_hierarchy(
        &self,
        params: CallHierarchyPrepareParams,
    ) -> jsonrpc::Result<Option<Vec<CallHierarchyItem>>> {
        on_document::<request::CallHierarchyPrepare>(
            &self.state,
            params,
            requests::prepare_call_hierarchy,
        )
        .await
    }

    async fn incoming_calls(
        &self,
        params: CallHierarchyIncomingCallsParams,
    ) -> jsonrpc::Result<Option<Vec<CallHierarchyIncomingCall>>> {
        on_document::<request::CallHierarchyIncomingCalls>(
            &self.state,
            params,
            requests::incoming_calls,
        )
        .await
    }

    async fn outgoing_calls(
        &self,
        params: CallHierarchyOutgoingCallsParams,
    ) -> jsonrpc::Result<Option<Vec<CallHierarchyOutgoingCall>>> {
        on_document::<request::CallHierarchyOutgoingCalls>(
            &self.state,
            params,
            requests::outgoing_calls,
        )
        .await
    }
}
