//! The server's state: the analysis database (the one writer), the open
//! documents and the files read from disk, and the settings.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use easyflow_db::discovery::{self, FileSystem};
use easyflow_db::{Database, SourceFile, TopologyFile};
use line_index::LineIndex;
use salsa::Setter;
use tower_lsp_server::ls_types as lsp;

use crate::convert::Encoding;

/// Settings of the section `easyflow` (initialization options or
/// `workspace/didChangeConfiguration`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub topology: Option<PathBuf>,
    pub catalog: Option<PathBuf>,
    pub inlay_hints_instances: bool,
    pub code_lens: bool,
    /// Overrides where `codeDescription` links point.
    pub docs_url: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            topology: None,
            catalog: None,
            inlay_hints_instances: true,
            code_lens: true,
            docs_url: None,
        }
    }
}

impl Settings {
    /// Reads `{ "easyflow": {...} }` or the section itself; keys absent keep
    /// their current value.
    pub fn update(&mut self, value: &serde_json::Value) {
        let section = value.get("easyflow").unwrap_or(value);
        let get = |path: &[&str]| {
            let mut value = section;
            for key in path {
                value = value.get(key)?;
            }
            Some(value)
        };
        let dotted = |key: &str| section.get(key);
        if let Some(topology) = get(&["topology"]).or_else(|| dotted("easyflow.topology")) {
            self.topology = topology
                .as_str()
                .filter(|s| !s.is_empty())
                .map(PathBuf::from);
        }
        if let Some(catalog) = get(&["catalog"]) {
            self.catalog = catalog
                .as_str()
                .filter(|s| !s.is_empty())
                .map(PathBuf::from);
        }
        if let Some(enabled) = get(&["inlayHints", "instances"]).and_then(|v| v.as_bool()) {
            self.inlay_hints_instances = enabled;
        }
        if let Some(enabled) = get(&["codeLens", "enable"]).and_then(|v| v.as_bool()) {
            self.code_lens = enabled;
        }
        if let Some(url) = get(&["docsUrl"]).and_then(|v| v.as_str()) {
            self.docs_url = Some(url.to_string());
        }
    }
}

/// What a document is, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    Flow,
    Topology,
    Config,
}

impl DocumentKind {
    pub fn of(path: &Path) -> Option<DocumentKind> {
        if path
            .file_name()
            .is_some_and(|n| n == discovery::CONFIG_FILE_NAME)
        {
            return Some(DocumentKind::Config);
        }
        match path.extension()?.to_str()? {
            "flow" => Some(DocumentKind::Flow),
            "topology" => Some(DocumentKind::Topology),
            _ => None,
        }
    }
}

/// An open document: its text as the editor has it.
pub struct Document {
    pub kind: DocumentKind,
    pub version: i32,
    pub text: Arc<str>,
    pub lines: Arc<LineIndex>,
}

pub struct State {
    pub db: Database,
    pub encoding: Encoding,
    /// The client shows `window/workDoneProgress`.
    pub work_done_progress: bool,
    /// The client accepts `workspace/didChangeWatchedFiles` registrations.
    pub dynamic_watching: bool,
    pub settings: Settings,
    pub workspace_folders: Vec<PathBuf>,
    pub documents: HashMap<lsp::Uri, Document>,
    /// Every flow the analysis knows (open or indexed from disk), by path.
    pub flows: HashMap<PathBuf, SourceFile>,
    /// Every topology file loaded, by path.
    pub topologies: HashMap<PathBuf, TopologyFile>,
    /// Line indexes of flows read from disk (open documents have their own).
    pub disk_lines: HashMap<PathBuf, Arc<LineIndex>>,
}

impl State {
    pub fn new() -> Self {
        State {
            db: Database::default(),
            encoding: Encoding::Utf16,
            work_done_progress: false,
            dynamic_watching: false,
            settings: Settings::default(),
            workspace_folders: Vec::new(),
            documents: HashMap::new(),
            flows: HashMap::new(),
            topologies: HashMap::new(),
            disk_lines: HashMap::new(),
        }
    }

    /// The URL of `docs/diagnostics.md` for `codeDescription`: the setting, or
    /// the documentation installed beside the server, or the source tree's.
    pub fn docs_url(&self) -> Option<String> {
        if let Some(url) = &self.settings.docs_url {
            return Some(url.clone());
        }
        static INSTALLED: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
        INSTALLED.get_or_init(installed_docs_url).clone()
    }
}

/// `docs/diagnostics.md` beside the server binary (as packaged), or in the
/// source tree it was built from.
fn installed_docs_url() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let candidates = [
        exe.parent().map(|d| d.join("docs/diagnostics.md")),
        exe.parent()
            .and_then(|d| d.parent())
            .map(|d| d.join("docs/diagnostics.md")),
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md")),
    ];
    let docs = candidates.into_iter().flatten().find(|p| p.is_file())?;
    let docs = docs.canonicalize().ok()?;
    lsp::Uri::from_file_path(docs).map(|uri| uri.as_str().to_string())
}

impl State {
    /// The flow at `path`, created from `text` or updated to it.
    pub fn set_flow(&mut self, path: &Path, text: &str) -> SourceFile {
        self.set_flow_reparsed(path, text, None)
    }

    /// Like [`State::set_flow`], with the parse of `text` when an incremental
    /// reparse produced it.
    pub fn set_flow_reparsed(
        &mut self,
        path: &Path,
        text: &str,
        reparsed: Option<easyflow_syntax::Parse>,
    ) -> SourceFile {
        match self.flows.get(path) {
            Some(&file) => {
                if file.reparsed(&self.db).is_some() || reparsed.is_some() {
                    file.set_reparsed(&mut self.db).to(reparsed);
                }
                if file.text(&self.db) != text {
                    tracing::trace!("setting the text of {}", path.display());
                    file.set_text(&mut self.db).to(text.to_string());
                    tracing::trace!("set the text of {}", path.display());
                }
                file
            }
            None => {
                let file = SourceFile::new(&self.db, path.to_path_buf(), text.to_string());
                self.flows.insert(path.to_path_buf(), file);
                file
            }
        }
    }

    /// The topology file at `path` (read through open documents first).
    pub fn topology_file(&mut self, path: &Path) -> Option<TopologyFile> {
        if let Some(&file) = self.topologies.get(path) {
            return Some(file);
        }
        let text = self.read(path)?;
        let file = TopologyFile::new(&self.db, path.to_path_buf(), text);
        self.topologies.insert(path.to_path_buf(), file);
        Some(file)
    }

    /// Re-reads a topology file's text (after an edit or a change on disk).
    pub fn refresh_topology(&mut self, path: &Path) {
        let text = self.read(path);
        if let Some(&file) = self.topologies.get(path) {
            let text = text.unwrap_or_default();
            if *file.text(&self.db) != text {
                file.set_text(&mut self.db).to(text);
            }
        }
    }

    /// Runs discovery for a flow and sets its topology input when it changed.
    pub fn discover_topology(&mut self, file: SourceFile) {
        let path = file.path(&self.db).clone();
        let setting = self
            .settings
            .topology
            .as_ref()
            .map(|t| self.resolve_setting(t));
        let found = discovery::discover(&path, setting.as_deref(), &Overlay(self));
        let topology = found
            .topology
            .and_then(|(topology, _)| self.topology_file(&topology));
        if file.topology(&self.db) != topology {
            file.set_topology(&mut self.db).to(topology);
        }
    }

    /// A relative `easyflow.topology` setting is relative to the first workspace folder.
    fn resolve_setting(&self, setting: &Path) -> PathBuf {
        match self.workspace_folders.first() {
            Some(root) if setting.is_relative() => root.join(setting),
            _ => setting.to_path_buf(),
        }
    }

    /// A file's text: the open document's, else the disk's.
    pub fn read(&self, path: &Path) -> Option<String> {
        Overlay(self).read(path)
    }
}

/// The file system as the editor sees it: open documents over the disk.
struct Overlay<'a>(&'a State);

impl FileSystem for Overlay<'_> {
    fn read(&self, path: &Path) -> Option<String> {
        let open = self
            .0
            .documents
            .iter()
            .find(|(uri, _)| path_of(uri).is_some_and(|p| p == path));
        match open {
            Some((_, document)) => Some(document.text.to_string()),
            None => std::fs::read_to_string(path).ok(),
        }
    }

    fn exists(&self, path: &Path) -> bool {
        self.0
            .documents
            .keys()
            .any(|uri| path_of(uri).is_some_and(|p| p == path))
            || path.is_file()
    }
}

/// The file path of a `file:` URI.
pub fn path_of(uri: &lsp::Uri) -> Option<PathBuf> {
    uri.to_file_path().map(|p| p.into_owned())
}
