//! What the client offers (read from `initialize`) and what the server
//! answers it can do.

use easyflow_ide::semantic_tokens::{TOKEN_MODIFIERS, TOKEN_TYPES};
// `ClientCapabilities` below shadows the protocol's, which is `lsp::ClientCapabilities`.
use tower_lsp_server::ls_types::{self as lsp, *};

use crate::convert::Encoding;
use crate::lsp_ext::ExperimentalCapabilities;

/// The client's capabilities that change what the server does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientCapabilities {
    /// UTF-8 when the client offers it, else UTF-16 (the protocol's default).
    pub encoding: Encoding,
    /// The client shows `window/workDoneProgress`.
    pub work_done_progress: bool,
    /// The client accepts `workspace/didChangeWatchedFiles` registrations.
    pub dynamic_watching: bool,
}

impl Default for ClientCapabilities {
    fn default() -> Self {
        ClientCapabilities {
            encoding: Encoding::Utf16,
            work_done_progress: false,
            dynamic_watching: false,
        }
    }
}

impl ClientCapabilities {
    pub fn of(capabilities: &lsp::ClientCapabilities) -> Self {
        let utf8 = capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref())
            .is_some_and(|encodings| encodings.contains(&PositionEncodingKind::UTF8));
        ClientCapabilities {
            encoding: if utf8 {
                Encoding::Utf8
            } else {
                Encoding::Utf16
            },
            work_done_progress: capabilities
                .window
                .as_ref()
                .and_then(|w| w.work_done_progress)
                .unwrap_or(false),
            dynamic_watching: capabilities
                .workspace
                .as_ref()
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|w| w.dynamic_registration)
                .unwrap_or(false),
        }
    }
}

/// The characters after which clients ask for completions unprompted.
const COMPLETION_TRIGGERS: [&str; 7] = [".", "[", ":", "+", "\"", " ", ","];

/// Everything the server implements, with positions in `encoding`.
pub fn server_capabilities(encoding: Encoding) -> ServerCapabilities {
    let legend = SemanticTokensLegend {
        token_types: TOKEN_TYPES
            .iter()
            .map(|t| SemanticTokenType::new(t))
            .collect(),
        token_modifiers: TOKEN_MODIFIERS
            .iter()
            .map(|m| SemanticTokenModifier::new(m))
            .collect(),
    };
    ServerCapabilities {
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
        signature_help_provider: Some(SignatureHelpOptions {
            trigger_characters: Some(vec!["(".to_string(), ",".to_string()]),
            retrigger_characters: None,
            work_done_progress_options: Default::default(),
        }),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(COMPLETION_TRIGGERS.map(String::from).to_vec()),
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
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend,
                range: Some(true),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                ..Default::default()
            },
        )),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..Default::default()
        })),
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
        experimental: Some(
            serde_json::to_value(ExperimentalCapabilities::default())
                .expect("the capabilities serialize"),
        ),
        ..Default::default()
    }
}
