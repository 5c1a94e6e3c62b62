//! What the client offers (read from `initialize`) and what the server
//! answers it can do. Every client capability the server's answers depend
//! on is read here, once, and honoured where the answer is made
//! (`convert.rs` for the shapes of answers); a client that does not state
//! one gets what the protocol's first versions had (plain text, no
//! snippets, flat symbols, locations rather than links, commands rather
//! than code action literals, the first kinds only).

use easyflow_ide::line_index::Encoding;
use easyflow_ide::semantic_tokens::{TOKEN_MODIFIERS, TOKEN_TYPES};
use serde_json::Value;
// `ClientCapabilities` below shadows the protocol's, which is `lsp::ClientCapabilities`.
use tower_lsp_server::ls_types::{self as lsp, *};

use crate::lsp_ext::{ExperimentalCapabilities, SHOW_DEPENDENTS_COMMAND};
/// The command a code action is, for a client without code action
/// literals: its argument is the edit, which the server applies through
/// `workspace/applyEdit` (`handlers::execute_command`).
pub const APPLY_FIX_COMMAND: &str = "easyflow-ls.applyFix";
/// The kind of the fix-all code action (`lsp.md`, "Fix all"), which
/// `editor.codeActionsOnSave` names.
pub const FIX_ALL_KIND: &str = "source.fixAll.easyflow";

/// A set of the protocol's kinds (completion item or symbol kinds), by
/// number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindSet(u64);

impl KindSet {
    /// The kinds of the protocol's first version (1 to 18, `Text` to
    /// `Reference` and `File` to `Array`), which a client that lists none
    /// supports.
    const FIRST: KindSet = KindSet(((1 << 19) - 1) & !1);

    fn of(kinds: impl IntoIterator<Item = u64>) -> KindSet {
        KindSet(
            kinds
                .into_iter()
                .filter(|&k| k < 64)
                .fold(0, |set, k| set | 1 << k),
        )
    }

    pub fn contains(self, kind: u64) -> bool {
        kind < 64 && self.0 & (1 << kind) != 0
    }

    /// The first of `kinds` (the wanted one, then its stand-ins) in the set.
    pub fn first_of<K: Copy>(self, kinds: &[K], number: impl Fn(K) -> u64) -> Option<K> {
        kinds
            .iter()
            .copied()
            .find(|&kind| self.contains(number(kind)))
    }
}

/// The client's capabilities that change what the server does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientCapabilities {
    /// UTF-8 when the client offers it, else UTF-16 (the protocol's default).
    pub encoding: Encoding,
    /// The client shows `window/workDoneProgress`.
    pub work_done_progress: bool,
    /// The client accepts `workspace/didChangeWatchedFiles` registrations.
    pub dynamic_watching: bool,
    /// Completion items may be snippets (`${1:Name}`).
    pub snippets: bool,
    /// Completion items' documentation may be Markdown.
    pub completion_markdown: bool,
    pub completion_kinds: KindSet,
    /// Hover may be Markdown.
    pub hover_markdown: bool,
    /// Signature help's documentation may be Markdown.
    pub signature_markdown: bool,
    /// A signature may carry its own active parameter.
    pub signature_active_parameter: bool,
    /// Definitions may be `LocationLink`s.
    pub definition_links: bool,
    /// Document symbols may be a tree (`DocumentSymbol`).
    pub hierarchical_symbols: bool,
    pub document_symbol_kinds: KindSet,
    pub workspace_symbol_kinds: KindSet,
    /// Code actions may be `CodeAction` literals (else `Command`s).
    pub code_action_literals: bool,
    /// Code actions may say which is preferred.
    pub preferred_code_actions: bool,
    /// The client applies `workspace/applyEdit`.
    pub apply_edit: bool,
    /// The client asks `textDocument/prepareRename`.
    pub prepare_rename: bool,
    /// The client reads semantic tokens in the relative format (or states
    /// nothing about them).
    pub relative_semantic_tokens: bool,
    /// Diagnostics may carry related information.
    pub related_information: bool,
    /// Diagnostics may carry the tag `Unnecessary`.
    pub unnecessary_tag: bool,
    /// Diagnostics may carry a `codeDescription` link.
    pub code_description: bool,
    /// The most folding ranges the client wants per document.
    pub folding_range_limit: Option<u32>,
    /// The client accepts `workspace/inlayHint/refresh`.
    pub inlay_hint_refresh: bool,
    /// The client accepts `workspace/codeLens/refresh`.
    pub code_lens_refresh: bool,
    /// The client answers `workspace/configuration` (each workspace
    /// folder's settings: `folders.rs`).
    pub configuration: bool,
    /// The client pulls diagnostics (`textDocument/diagnostic`,
    /// `workspace/diagnostic`): nothing is pushed to it.
    pub pull_diagnostics: bool,
    /// The client accepts `workspace/diagnostic/refresh`.
    pub diagnostic_refresh: bool,
}

impl Default for ClientCapabilities {
    fn default() -> Self {
        ClientCapabilities::of(&lsp::ClientCapabilities::default())
    }
}

impl ClientCapabilities {
    pub fn of(capabilities: &lsp::ClientCapabilities) -> Self {
        let json = serde_json::to_value(capabilities).unwrap_or_default();
        let at = |pointer: &str| json.pointer(pointer).filter(|v| !v.is_null());
        let flag = |pointer: &str| at(pointer).and_then(Value::as_bool).unwrap_or(false);
        let lists = |pointer: &str, wanted: &str| {
            at(pointer)
                .and_then(Value::as_array)
                .is_some_and(|values| values.iter().any(|v| v == wanted))
        };
        let kinds = |pointer: &str| match at(pointer).and_then(Value::as_array) {
            Some(kinds) => KindSet::of(kinds.iter().filter_map(Value::as_u64)),
            None => KindSet::FIRST,
        };
        let markdown = |pointer: &str| lists(pointer, "markdown");
        ClientCapabilities {
            encoding: if lists("/general/positionEncodings", "utf-8") {
                Encoding::Utf8
            } else {
                Encoding::Utf16
            },
            work_done_progress: flag("/window/workDoneProgress"),
            dynamic_watching: flag("/workspace/didChangeWatchedFiles/dynamicRegistration"),
            snippets: flag("/textDocument/completion/completionItem/snippetSupport"),
            completion_markdown: markdown(
                "/textDocument/completion/completionItem/documentationFormat",
            ),
            completion_kinds: kinds("/textDocument/completion/completionItemKind/valueSet"),
            hover_markdown: markdown("/textDocument/hover/contentFormat"),
            signature_markdown: markdown(
                "/textDocument/signatureHelp/signatureInformation/documentationFormat",
            ),
            signature_active_parameter: flag(
                "/textDocument/signatureHelp/signatureInformation/activeParameterSupport",
            ),
            definition_links: flag("/textDocument/definition/linkSupport"),
            hierarchical_symbols: flag(
                "/textDocument/documentSymbol/hierarchicalDocumentSymbolSupport",
            ),
            document_symbol_kinds: kinds("/textDocument/documentSymbol/symbolKind/valueSet"),
            workspace_symbol_kinds: kinds("/workspace/symbol/symbolKind/valueSet"),
            code_action_literals: at("/textDocument/codeAction/codeActionLiteralSupport").is_some(),
            preferred_code_actions: flag("/textDocument/codeAction/isPreferredSupport"),
            apply_edit: flag("/workspace/applyEdit"),
            prepare_rename: flag("/textDocument/rename/prepareSupport"),
            relative_semantic_tokens: at("/textDocument/semanticTokens").is_none()
                || lists("/textDocument/semanticTokens/formats", "relative"),
            related_information: flag("/textDocument/publishDiagnostics/relatedInformation"),
            unnecessary_tag: at("/textDocument/publishDiagnostics/tagSupport/valueSet")
                .and_then(Value::as_array)
                .is_some_and(|tags| tags.iter().any(|t| t == 1)),
            code_description: flag("/textDocument/publishDiagnostics/codeDescriptionSupport"),
            folding_range_limit: at("/textDocument/foldingRange/rangeLimit")
                .and_then(Value::as_u64)
                .map(|limit| limit.min(u64::from(u32::MAX)) as u32),
            inlay_hint_refresh: flag("/workspace/inlayHint/refreshSupport"),
            code_lens_refresh: flag("/workspace/codeLens/refreshSupport"),
            configuration: flag("/workspace/configuration"),
            pull_diagnostics: at("/textDocument/diagnostic").is_some(),
            diagnostic_refresh: flag("/workspace/diagnostics/refreshSupport"),
        }
    }

    /// Code actions are answered at all: as literals, or as commands the
    /// server applies through the client.
    pub fn code_actions(&self) -> bool {
        self.code_action_literals || self.apply_edit
    }
}

/// The characters after which clients ask for completions unprompted.
const COMPLETION_TRIGGERS: [&str; 7] = [".", "[", ":", "+", "\"", " ", ","];

/// Everything the server implements for `client`, with positions in its
/// encoding.
pub fn server_capabilities(client: &ClientCapabilities) -> ServerCapabilities {
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
        position_encoding: Some(match client.encoding {
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
            // Documentation that costs a look into the tree or the catalog
            // is left out of the list and resolved for the item shown.
            resolve_provider: Some(true),
            ..Default::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        // Rename options may be given only to a client that prepares.
        rename_provider: Some(match client.prepare_rename {
            true => OneOf::Right(RenameOptions {
                prepare_provider: Some(true),
                work_done_progress_options: Default::default(),
            }),
            false => OneOf::Left(true),
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_link_provider: Some(DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        }),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: client.relative_semantic_tokens.then(|| {
            SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
                legend,
                range: Some(true),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                ..Default::default()
            })
        }),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
        code_action_provider: client.code_actions().then(|| {
            CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![
                    CodeActionKind::QUICKFIX,
                    CodeActionKind::new(FIX_ALL_KIND),
                ]),
                ..Default::default()
            })
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: std::iter::once(SHOW_DEPENDENTS_COMMAND)
                .chain(
                    (!client.code_action_literals && client.apply_edit)
                        .then_some(APPLY_FIX_COMMAND),
                )
                .map(String::from)
                .collect(),
            work_done_progress_options: Default::default(),
        }),
        inlay_hint_provider: Some(OneOf::Left(true)),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        call_hierarchy_provider: Some(CallHierarchyServerCapability::Simple(true)),
        // Announced only to a client that pulls: announced to one that
        // does not, it would be a promise nobody asks for.
        diagnostic_provider: client.pull_diagnostics.then(|| {
            DiagnosticServerCapabilities::Options(DiagnosticOptions {
                identifier: Some("easyflow".to_string()),
                inter_file_dependencies: true,
                workspace_diagnostics: true,
                work_done_progress_options: Default::default(),
            })
        }),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn of(json: Value) -> ClientCapabilities {
        ClientCapabilities::of(&serde_json::from_value(json).unwrap())
    }

    #[test]
    fn a_client_that_states_nothing_gets_the_first_protocol() {
        let client = of(serde_json::json!({}));
        assert_eq!(client, ClientCapabilities::default());
        assert!(!client.snippets && !client.hover_markdown && !client.hierarchical_symbols);
        assert!(client.completion_kinds.contains(18) && !client.completion_kinds.contains(20));
        assert!(!client.completion_kinds.contains(0));
        assert!(client.relative_semantic_tokens);
        assert!(!client.code_actions());
    }

    #[test]
    fn stated_capabilities_are_read() {
        let client = of(serde_json::json!({
            "textDocument": {
                "completion": {
                    "completionItem": {"snippetSupport": true, "documentationFormat": ["markdown"]},
                    "completionItemKind": {"valueSet": [1, 20]}
                },
                "semanticTokens": {"formats": [], "requests": {}, "tokenTypes": [], "tokenModifiers": []},
                "publishDiagnostics": {"tagSupport": {"valueSet": [2]}},
                "foldingRange": {"rangeLimit": 5}
            },
            "workspace": {"applyEdit": true}
        }));
        assert!(client.snippets && client.completion_markdown);
        assert!(client.completion_kinds.contains(20) && !client.completion_kinds.contains(3));
        assert!(!client.relative_semantic_tokens);
        assert!(!client.unnecessary_tag);
        assert_eq!(client.folding_range_limit, Some(5));
        assert!(client.code_actions() && !client.code_action_literals);
    }
}
