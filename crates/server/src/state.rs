//! The server's state: the analysis host (the one writer), the open
//! documents, which flow and topology each path is, the client's
//! capabilities and the settings; and the snapshots that requests compute
//! on. Nothing here reads the disk: what a change needs from files is read
//! before the lock is taken (`workspace.rs`) and handed to these methods.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use easyflow_ide::symbols::FlowSymbols;
use easyflow_ide::{
    Analysis, AnalysisHost, CatalogFile, SourceFile, SourceText, TextRange, TextSize, TopologyFile,
};
use easyflow_project::discovery::CATALOG_FILE_NAME;
use easyflow_project::{FileKind, Folder, PathSettings, Workspace};
use tower_lsp_server::ls_types as lsp;

use crate::capabilities::ClientCapabilities;
use crate::convert::{Encoding, Lines};
use crate::line_index::LineIndex;
use crate::skipped::SkippedFiles;

/// Settings of the section `easyflow`: the global ones (initialization
/// options, then `workspace/didChangeConfiguration`), or those of one
/// workspace folder (the global ones under its `workspace/configuration`
/// answer, key by key: [`State::settings_for`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub topology: Option<PathBuf>,
    pub catalog: Option<PathBuf>,
    pub inlay_hints_instances: bool,
    pub code_lens: bool,
    /// Overrides where `codeDescription` links point (`diagnostics.rs`).
    pub docs_url: Option<String>,
    /// Which flows get diagnostics (`easyflow.diagnostics.scope`).
    pub diagnostics_scope: DiagnosticsScope,
}

/// The flows that get diagnostics: every flow of the workspace folders
/// (closed ones checked in the background, `workspace_diagnostics.rs`), or
/// only the open ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DiagnosticsScope {
    #[default]
    Workspace,
    OpenFiles,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            topology: None,
            catalog: None,
            inlay_hints_instances: true,
            code_lens: true,
            docs_url: None,
            diagnostics_scope: DiagnosticsScope::Workspace,
        }
    }
}

impl Settings {
    /// Reads `{ "easyflow": {...} }` or the section itself; keys absent keep
    /// their current value.
    pub fn update(&mut self, value: &serde_json::Value) {
        self.update_from(value, None);
    }

    /// Like [`Settings::update`], a relative path read taken from `base`
    /// (the folder whose configuration gave it) when there is one.
    pub fn update_from(&mut self, value: &serde_json::Value, base: Option<&Path>) {
        let path = |value: &serde_json::Value| {
            value
                .as_str()
                .filter(|s| !s.is_empty())
                .map(|s| resolve(base, Path::new(s)))
        };
        let section = value.get("easyflow").unwrap_or(value);
        let get = |path: &[&str]| {
            let mut value = section;
            for key in path {
                value = value.get(key)?;
            }
            Some(value)
        };
        let dotted = |key: &str| section.get(key);
        // `null` leaves the earlier value, as an absent key does; an empty
        // string unsets it.
        if let Some(topology) = get(&["topology"])
            .or_else(|| dotted("easyflow.topology"))
            .filter(|v| !v.is_null())
        {
            self.topology = path(topology);
        }
        if let Some(catalog) = get(&["catalog"]).filter(|v| !v.is_null()) {
            self.catalog = path(catalog);
        }
        if let Some(enabled) = get(&["inlayHints", "instances"]).and_then(|v| v.as_bool()) {
            self.inlay_hints_instances = enabled;
        }
        if let Some(enabled) = get(&["codeLens", "enable"]).and_then(|v| v.as_bool()) {
            self.code_lens = enabled;
        }
        let scope = get(&["diagnostics", "scope"]).or_else(|| dotted("diagnostics.scope"));
        match scope.and_then(|v| v.as_str()) {
            Some("workspace") => self.diagnostics_scope = DiagnosticsScope::Workspace,
            Some("openFiles") => self.diagnostics_scope = DiagnosticsScope::OpenFiles,
            Some(other) => tracing::warn!("unknown easyflow.diagnostics.scope {other:?}"),
            None => {}
        }
        if let Some(url) = get(&["docsUrl"]).and_then(|v| v.as_str()) {
            self.docs_url = Some(url.to_string());
        }
    }

    /// The settings with their relative paths taken from `base`.
    fn resolved(mut self, base: Option<&Path>) -> Settings {
        self.topology = self.topology.map(|p| resolve(base, &p));
        self.catalog = self.catalog.map(|p| resolve(base, &p));
        self
    }

    /// The paths, for the project loader.
    pub fn paths(&self) -> PathSettings {
        PathSettings {
            topology: self.topology.clone(),
            catalog: self.catalog.clone(),
        }
    }
}

/// `path`, taken from `base` when it is relative and there is a base.
fn resolve(base: Option<&Path>, path: &Path) -> PathBuf {
    match base {
        Some(base) if path.is_relative() => base.join(path),
        _ => path.to_path_buf(),
    }
}

/// How many closed flows that requests asked about stay in the analysis
/// (the most recently asked): an editor asks about a closed file in bursts
/// (a peek, a call hierarchy), and each request would otherwise read and
/// analyse it again.
const MAX_VISITED: usize = 8;

/// A flow read from the disk, as workspace symbols know it: its steps'
/// names, kinds and name ranges (in the negotiated encoding), not its
/// analysis.
pub struct IndexedFlow {
    pub uri: lsp::Uri,
    pub symbols: FlowSymbols<lsp::Range>,
}

/// An open document: its text as the editor has it.
pub struct Document {
    pub kind: FileKind,
    pub version: i32,
    /// Flat as opened, a rope once edited (shared with the analysis).
    pub text: SourceText,
    pub lines: Arc<LineIndex>,
    /// Whether its first requests' queries are computed
    /// (`diagnostics::prime_requests`).
    pub requests_primed: bool,
}

pub struct State {
    pub host: AnalysisHost,
    pub client: ClientCapabilities,
    /// The global settings, as written (a relative path is taken from the
    /// first workspace folder when used: [`State::global_settings`]).
    pub settings: Settings,
    pub workspace_folders: Vec<PathBuf>,
    /// Each workspace folder's answer to `workspace/configuration` (the
    /// section `easyflow` with the folder as `scopeUri`), by folder; none
    /// for a folder that answered `null` or was not asked.
    pub folder_answers: HashMap<PathBuf, serde_json::Value>,
    /// How many times the folders' settings were asked: only the answer
    /// to the latest request applies (`folders::ask_configuration`).
    pub configuration_asked: u64,
    pub documents: HashMap<lsp::Uri, Document>,
    /// Every flow in the analysis, by path: the open documents, and the
    /// closed flows that requests asked about lately (`visited`). A closed
    /// flow otherwise keeps only its symbols (`indexed`), so memory does not
    /// grow with the workspace's size: the trees and analyses are for the
    /// files being worked on.
    pub flows: HashMap<PathBuf, SourceFile>,
    /// The closed flows in `flows`, the most recently asked about last; at
    /// most [`MAX_VISITED`].
    visited: VecDeque<PathBuf>,
    /// The symbols of every flow read from the disk (the workspace's, at
    /// start and on watched changes; a closed one, when it leaves the
    /// analysis), by path: what workspace symbols search for a flow that
    /// is not in `flows`.
    pub indexed: HashMap<PathBuf, Arc<IndexedFlow>>,
    /// Every topology file loaded, by path.
    pub topologies: HashMap<PathBuf, TopologyFile>,
    /// Every package catalog loaded, by path.
    pub catalogs: HashMap<PathBuf, CatalogFile>,
    /// Catalogs loaded under another name than `easyflow-packages.toml`
    /// (named by an `easyflow.toml` or the setting) that the client has not
    /// been asked to watch yet (`workspace::watch_new_catalogs`).
    pub catalogs_to_watch: Vec<PathBuf>,
    /// The files skipped, for the user to see.
    pub skipped: Arc<SkippedFiles>,
    /// The flows being read again from the disk, each with the ticket of
    /// its latest reload ([`State::start_reload`]).
    reloads: HashMap<PathBuf, u64>,
    next_reload: u64,
}

/// The state shared by every handler and task, behind one lock that is never
/// held across an `.await` or a read of the disk.
#[derive(Clone)]
pub struct SharedState(Arc<Mutex<State>>);

impl SharedState {
    pub fn new(skipped: SkippedFiles) -> Self {
        SharedState(Arc::new(Mutex::new(State {
            host: AnalysisHost::new(),
            client: ClientCapabilities::default(),
            settings: Settings::default(),
            workspace_folders: Vec::new(),
            folder_answers: HashMap::new(),
            configuration_asked: 0,
            documents: HashMap::new(),
            flows: HashMap::new(),
            visited: VecDeque::new(),
            indexed: HashMap::new(),
            topologies: HashMap::new(),
            catalogs: HashMap::new(),
            catalogs_to_watch: Vec::new(),
            skipped: Arc::new(skipped),
            reloads: HashMap::new(),
            next_reload: 0,
        })))
    }

    pub fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves consistent data (every write is
        // a single salsa setter), so a poisoned lock is still usable.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl State {
    /// The flow at `path`, created with `text` or set to it.
    pub fn set_flow(&mut self, path: &Path, text: SourceText) -> SourceFile {
        match self.flows.get(path) {
            Some(&file) => {
                self.host.set_shared_flow_text(file, text);
                file
            }
            None => self.add_flow(path, text),
        }
    }

    /// Like [`State::set_flow`], after an edit of the flow that replaced
    /// `deleted` (a range of its previous text) by `inserted`.
    pub fn edit_flow(
        &mut self,
        path: &Path,
        text: SourceText,
        deleted: TextRange,
        inserted: &str,
    ) -> SourceFile {
        match self.flows.get(path) {
            Some(&file) => {
                self.host.edit_shared_flow(file, text, deleted, inserted);
                file
            }
            None => self.add_flow(path, text),
        }
    }

    fn add_flow(&mut self, path: &Path, text: SourceText) -> SourceFile {
        let file = self.host.add_shared_flow(path, text);
        self.flows.insert(path.to_path_buf(), file);
        file
    }

    /// The flow at `path`, which is not open, with its text from the disk,
    /// for a request: it stays in the analysis while it is among the
    /// [`MAX_VISITED`] closed flows asked about last.
    pub fn visit_flow(&mut self, path: &Path, text: SourceText) -> SourceFile {
        let file = self.set_flow(path, text);
        self.visited.retain(|p| p != path);
        self.visited.push_back(path.to_path_buf());
        while self.visited.len() > MAX_VISITED {
            let Some(oldest) = self.visited.pop_front() else {
                break;
            };
            if self.open_document(&oldest).is_none() {
                self.index_from_analysis(&oldest);
                self.leave_analysis(&oldest);
            }
        }
        file
    }

    /// A flow that was opened is no visitor any more (it leaves the
    /// analysis when it is closed).
    pub fn opened_flow(&mut self, path: &Path) {
        self.visited.retain(|p| p != path);
    }

    /// Takes the flow at `path` out of the analysis: it is emptied, which
    /// frees its trees and analyses.
    pub fn leave_analysis(&mut self, path: &Path) {
        self.visited.retain(|p| p != path);
        if let Some(file) = self.flows.remove(path) {
            self.host.remove_flow(file);
        }
    }

    /// Indexes the symbols of the flow at `path` from the analysis, when the
    /// index has none (a flow outside the workspace folders, read for a
    /// request): a flow that leaves the analysis stays in workspace
    /// searches.
    fn index_from_analysis(&mut self, path: &Path) {
        if self.indexed.contains_key(path) {
            return;
        }
        let (Some(&file), Some(uri)) = (self.flows.get(path), lsp::Uri::from_file_path(path))
        else {
            return;
        };
        let analysis = self.host.analysis();
        if let (Ok(symbols), Ok(text)) = (analysis.flow_symbols(file), analysis.file_text(file)) {
            let indexed = indexed_flow(uri, symbols, text, self.client.encoding);
            self.indexed.insert(path.to_path_buf(), Arc::new(indexed));
        }
    }

    /// A ticket for a reload of the flow at `path` from the disk, which
    /// runs outside the lock (`workspace::FlowReload`): taken in the order
    /// of the messages, it makes any reload started before it stale.
    pub fn start_reload(&mut self, path: &Path) -> u64 {
        self.next_reload += 1;
        self.reloads.insert(path.to_path_buf(), self.next_reload);
        self.next_reload
    }

    /// Whether the reload of `ticket` is the latest of its flow (it is
    /// then done: a later one gets a new ticket).
    pub fn finish_reload(&mut self, path: &Path, ticket: u64) -> bool {
        let latest = self.reloads.get(path) == Some(&ticket);
        if latest {
            self.reloads.remove(path);
        }
        latest
    }

    /// The topology at `path`, loaded with `text` or set to it.
    pub fn set_topology(&mut self, path: &Path, text: String) -> TopologyFile {
        match self.topologies.get(path) {
            Some(&topology) => {
                self.host.set_topology_text(topology, text);
                topology
            }
            None => {
                let topology = self.host.add_topology(path, text);
                self.topologies.insert(path.to_path_buf(), topology);
                topology
            }
        }
    }

    /// The package catalog at `path`, loaded with `bytes` or set to them.
    pub fn set_catalog(&mut self, path: &Path, bytes: Vec<u8>) -> CatalogFile {
        match self.catalogs.get(path) {
            Some(&catalog) => {
                self.host.set_catalog_bytes(catalog, bytes);
                catalog
            }
            None => {
                let catalog = self.host.add_catalog(path, bytes);
                self.catalogs.insert(path.to_path_buf(), catalog);
                catalog
            }
        }
    }

    /// What the document at `path` is: what its name says
    /// ([`FileKind::by_name`]), or a topology or a catalog a flow uses
    /// under another name. An editor opens TOML files of every kind: one
    /// is a catalog only by the name `easyflow-packages.toml` or by being
    /// one a flow uses.
    pub fn kind_of(&self, path: &Path) -> Option<FileKind> {
        match FileKind::by_name(path) {
            Some(FileKind::Catalog)
                if path.file_name().is_none_or(|n| n != CATALOG_FILE_NAME)
                    && !self.catalogs.contains_key(path) =>
            {
                None
            }
            Some(kind) => Some(kind),
            None if self.topologies.contains_key(path) => Some(FileKind::Topology),
            None if self.catalogs.contains_key(path) => Some(FileKind::Catalog),
            None => None,
        }
    }

    /// The workspace: its folders, each with its topology and catalog
    /// settings ([`State::folder_settings`]), and the global ones for the
    /// flows outside every folder.
    pub fn workspace(&self) -> Workspace {
        let mut workspace = Workspace::new([], self.global_settings().paths());
        for root in &self.workspace_folders {
            workspace.add_folder(Folder {
                root: root.clone(),
                settings: self.folder_settings(root).paths(),
            });
        }
        workspace
    }

    /// The global settings, a relative path taken from the first
    /// workspace folder.
    pub fn global_settings(&self) -> Settings {
        let first = self.workspace_folders.first().map(PathBuf::as_path);
        self.settings.clone().resolved(first)
    }

    /// The settings of the workspace folder at `root`: its answer to
    /// `workspace/configuration` over the global settings, key by key (a
    /// relative path in its answer taken from the folder).
    pub fn folder_settings(&self, root: &Path) -> Settings {
        let mut settings = self.global_settings();
        if let Some(answer) = self.folder_answers.get(root) {
            settings.update_from(answer, Some(root));
        }
        settings
    }

    /// Whether a workspace folder holds `path` (by the paths' names).
    pub fn in_workspace(&self, path: &Path) -> bool {
        self.workspace_folders
            .iter()
            .any(|root| path.starts_with(root))
    }

    /// The settings of the file at `path`: those of the innermost folder
    /// that holds it, else the global ones. By the paths' names (no disk
    /// read under the lock).
    pub fn settings_for(&self, path: &Path) -> Settings {
        match self
            .workspace_folders
            .iter()
            .filter(|root| path.starts_with(root))
            .max_by_key(|root| root.components().count())
        {
            Some(root) => self.folder_settings(root),
            None => self.global_settings(),
        }
    }

    /// The open document at `path`, if any.
    pub fn open_document(&self, path: &Path) -> Option<&Document> {
        self.documents
            .iter()
            .find(|(uri, _)| path_of(uri).is_some_and(|p| p == path))
            .map(|(_, document)| document)
    }

    /// A snapshot for a request on the flow `file`, whose text the editor
    /// has (or the disk had) as `text`.
    pub fn document_snapshot(
        &self,
        uri: &lsp::Uri,
        file: SourceFile,
        text: SourceText,
        lines: Arc<LineIndex>,
    ) -> DocumentSnapshot {
        DocumentSnapshot {
            analysis: self.host.analysis(),
            file,
            uri: uri.clone(),
            version: self.documents.get(uri).map(|document| document.version),
            text,
            lines,
            client: self.client,
            settings: path_of(uri)
                .map_or_else(|| self.global_settings(), |path| self.settings_for(&path)),
        }
    }

    /// A snapshot of every flow known, for workspace requests: those in the
    /// analysis, and the symbols of the others.
    pub fn workspace_snapshot(&self) -> WorkspaceSnapshot {
        WorkspaceSnapshot {
            analysis: self.host.analysis(),
            files: self.flows.values().copied().collect(),
            indexed: self
                .indexed
                .iter()
                .filter(|(path, _)| !self.flows.contains_key(*path))
                .map(|(_, flow)| flow.clone())
                .collect(),
            client: self.client,
        }
    }
}

/// What a request on one flow computes on, detached from the state.
pub struct DocumentSnapshot {
    pub analysis: Analysis,
    pub file: SourceFile,
    pub uri: lsp::Uri,
    /// The open document's version (`None`: a flow read from the disk).
    pub version: Option<i32>,
    pub text: SourceText,
    pub lines: Arc<LineIndex>,
    pub client: ClientCapabilities,
    pub settings: Settings,
}

impl DocumentSnapshot {
    pub fn lines(&self) -> Lines<'_> {
        Lines {
            index: &self.lines,
            text: &self.text,
            encoding: self.client.encoding,
        }
    }

    pub fn offset(&self, position: lsp::Position) -> TextSize {
        self.lines().offset(position)
    }

    /// `f` on [`DocumentSnapshot::lines`] over the text made flat, for the
    /// responses that convert positions all over the document (semantic
    /// tokens, symbols, folds, lenses, the graph): an edited text is a rope,
    /// whose lookups for each of their positions cost more than one copy.
    pub fn with_flat_lines<T>(&self, f: impl FnOnce(&Lines<'_>) -> T) -> T {
        let text = self.text.flattened();
        f(&Lines {
            index: &self.lines,
            text: &text,
            encoding: self.client.encoding,
        })
    }
}

/// What a request on the whole workspace computes on.
pub struct WorkspaceSnapshot {
    pub analysis: Analysis,
    /// The flows in the analysis.
    pub files: Vec<SourceFile>,
    /// The symbols of the flows that are not.
    pub indexed: Vec<Arc<IndexedFlow>>,
    pub client: ClientCapabilities,
}

/// A flow's symbols with their ranges in `encoding`, for the index.
pub fn indexed_flow(
    uri: lsp::Uri,
    symbols: FlowSymbols,
    text: &SourceText,
    encoding: Encoding,
) -> IndexedFlow {
    // Flat: every symbol's range is converted (see `with_flat_lines`).
    let text = text.flattened();
    let index = LineIndex::new(&text.whole());
    let lines = Lines {
        index: &index,
        text: &text,
        encoding,
    };
    IndexedFlow {
        uri,
        symbols: symbols.map_ranges(|range| lines.range(range)),
    }
}

/// The file path of a `file:` URI.
pub fn path_of(uri: &lsp::Uri) -> Option<PathBuf> {
    uri.to_file_path().map(|p| p.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder's answer goes over the global settings key by key; `null`
    /// and absent keys leave the global value; a relative path is taken
    /// from the folder that gave it (a global one from the first folder);
    /// a file gets the settings of the innermost folder that holds it.
    #[test]
    fn folder_settings_go_over_the_global_ones_key_by_key() {
        let shared = SharedState::new(SkippedFiles::new(None));
        let mut state = shared.lock();
        state.workspace_folders = vec!["/w".into(), "/w/inner".into(), "/v".into()];
        state.settings.update(&serde_json::json!({"easyflow": {
            "topology": "site.topology", "catalog": "/p.toml", "codeLens": {"enable": false}
        }}));
        state.folder_answers.insert(
            "/w/inner".into(),
            serde_json::json!({"topology": "inner.topology", "catalog": null}),
        );
        state.folder_answers.insert(
            "/v".into(),
            serde_json::json!({"codeLens": {"enable": true}}),
        );
        let inner = state.settings_for(Path::new("/w/inner/a/x.flow"));
        assert_eq!(inner.topology, Some("/w/inner/inner.topology".into()));
        assert_eq!(inner.catalog, Some("/p.toml".into()));
        assert!(!inner.code_lens);
        let outer = state.settings_for(Path::new("/w/x.flow"));
        assert_eq!(outer.topology, Some("/w/site.topology".into()));
        let v = state.settings_for(Path::new("/v/x.flow"));
        assert_eq!(v.topology, Some("/w/site.topology".into()));
        assert!(v.code_lens);
        assert_eq!(state.settings_for(Path::new("/elsewhere/x.flow")), outer);
        let workspace = state.workspace();
        assert_eq!(
            workspace
                .settings_for(Path::new("/w/inner/x.flow"))
                .topology,
            Some("/w/inner/inner.topology".into())
        );
        // An empty string unsets.
        state
            .folder_answers
            .insert("/v".into(), serde_json::json!({"topology": ""}));
        assert_eq!(state.settings_for(Path::new("/v/x.flow")).topology, None);
    }

    /// Closed flows read for requests stay in the analysis only while they
    /// are among the last [`MAX_VISITED`]; the others keep their symbols.
    #[test]
    fn few_closed_flows_stay_in_the_analysis() {
        let shared = SharedState::new(SkippedFiles::new(None));
        let mut state = shared.lock();
        let path = |i: usize| PathBuf::from(format!("/w/f{i}.flow"));
        for i in 0..MAX_VISITED + 3 {
            state.visit_flow(&path(i), format!("step S{i} runs P ();\n").into());
        }
        assert_eq!(state.flows.len(), MAX_VISITED);
        assert!(!state.flows.contains_key(&path(0)));
        let evicted = &state.indexed[&path(0)].symbols;
        assert_eq!(evicted.steps[0].name, "S0");
        assert_eq!(state.indexed.len(), 3);
        // Asking again makes a flow the most recent.
        state.visit_flow(&path(3), "step S3 runs P ();\n".into());
        state.visit_flow(&path(0), "step S0 runs P ();\n".into());
        assert!(state.flows.contains_key(&path(3)));
        assert!(!state.flows.contains_key(&path(4)));
        // An opened flow is no visitor: it stays.
        state.opened_flow(&path(5));
        for i in 20..20 + MAX_VISITED {
            state.visit_flow(&path(i), "".into());
        }
        assert_eq!(state.flows.len(), MAX_VISITED + 1);
        assert!(state.flows.contains_key(&path(5)));
        state.leave_analysis(&path(5));
        assert_eq!(state.flows.len(), MAX_VISITED);
    }
}
