//! The project loader, shared by the CLI and the server (as rust-analyzer's
//! `load-cargo` serves its CLI and its server): for each flow, the files
//! that configure it (discovery: its workspace folder, its `easyflow.toml`,
//! its topology and package catalog), each of them read once however many
//! flows use it, and everything skipped on the way, each said once. The
//! host then sets what was read as the analysis's inputs: the analysis
//! itself reads no file.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use easyflow_diagnostics::allow::CodeLevels;
use easyflow_fmt::Options as FormatOptions;

use crate::config::{CONFIG_FILE_NAME, Config, parse_config};
use crate::discovery::{self, FileSystem, Origin};
use crate::disk::{FileKind, ReadError, SkipReason};
use crate::workspace::Workspace;

/// The files that configure one flow.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FlowFiles {
    /// The workspace folder that holds the flow, if any.
    pub root: Option<PathBuf>,
    /// The nearest `easyflow.toml`, if any: its diagnostics are reported,
    /// its `[format]` settings apply, and it names the topology and the
    /// catalog when it can be used.
    pub config: Option<PathBuf>,
    pub topology: Option<(PathBuf, Origin)>,
    pub catalog: Option<(PathBuf, Origin)>,
    /// The levels its `easyflow.toml`'s `[diagnostics]` gives codes (none
    /// without a usable one).
    pub levels: CodeLevels,
}

/// A file that was not read, and the `easyflow.toml` that named it when
/// one did (its E0903 says so there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub error: ReadError,
    pub named_by: Option<PathBuf>,
}

impl Skipped {
    /// Whether it is a regular file that could not be read (over its size
    /// limit, not UTF-8, an error of the system) rather than no file at all
    /// (a FIFO, a device, a loop of links): the CLI fails on the first
    /// kind, and passes over the second with a warning.
    pub fn is_unreadable_file(&self) -> bool {
        matches!(
            self.error.reason,
            SkipReason::TooLarge { .. } | SkipReason::NotUtf8 { .. } | SkipReason::Io(_)
        )
    }
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.error)?;
        if let Some(config) = &self.named_by {
            write!(f, " (named by {})", config.display())?;
        }
        Ok(())
    }
}

/// What the loader read and skipped since the host last took it
/// ([`Loader::take_loaded`]), each file once.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The `easyflow.toml` files the flows use, with their texts.
    pub configs: Vec<(PathBuf, String)>,
    /// The topologies the flows use, with their texts.
    pub topologies: Vec<(PathBuf, String)>,
    /// The package catalogs the flows use, with their bytes.
    pub catalogs: Vec<(PathBuf, Vec<u8>)>,
    pub skipped: Vec<Skipped>,
}

/// Discovery and reading for the flows of one [`Workspace`], on one
/// [`FileSystem`]. It remembers what it has read: a host keeps one for a
/// run (the CLI) or one batch of flows (the server).
pub struct Loader<'a> {
    workspace: Workspace,
    fs: &'a dyn FileSystem,
    /// Every `easyflow.toml` met, parsed (`None`: it could not be read).
    configs: HashMap<PathBuf, Option<Config>>,
    /// The topologies and catalogs read, or loaded by the host already.
    topologies: HashSet<PathBuf>,
    catalogs: HashSet<PathBuf>,
    /// Every skipped file said, so that none is said twice.
    said: HashSet<String>,
    loaded: Loaded,
}

impl<'a> Loader<'a> {
    pub fn new(workspace: Workspace, fs: &'a dyn FileSystem) -> Loader<'a> {
        Loader {
            workspace,
            fs,
            configs: HashMap::new(),
            topologies: HashSet::new(),
            catalogs: HashSet::new(),
            said: HashSet::new(),
            loaded: Loaded::default(),
        }
    }

    /// Topologies and catalogs the host has loaded already: they are not
    /// read again.
    pub fn with_loaded(
        mut self,
        topologies: impl IntoIterator<Item = PathBuf>,
        catalogs: impl IntoIterator<Item = PathBuf>,
    ) -> Loader<'a> {
        self.topologies.extend(topologies);
        self.catalogs.extend(catalogs);
        self
    }

    pub fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    /// The files that configure the flow at `flow` (an absolute path),
    /// reading those not read yet.
    pub fn flow(&mut self, flow: &Path) -> FlowFiles {
        let fs = self.fs;
        let mut skipped = Vec::new();
        let config_path = self.nearest_config(flow, &mut skipped);
        let config = config_path
            .as_deref()
            .and_then(|path| Some((path, self.configs.get(path)?.as_ref()?)));
        let workspace = &self.workspace;
        let settings = workspace.settings_for(flow);
        let [topology, catalog] = [
            (FileKind::Topology, &settings.topology),
            (FileKind::Catalog, &settings.catalog),
        ]
        .map(|(kind, setting)| {
            discovery::choose(
                kind,
                flow,
                setting.as_deref(),
                config,
                workspace,
                fs,
                &mut skipped,
            )
        });
        let root = workspace.folder_of(flow).map(|folder| folder.root.clone());
        let levels = config
            .map(|(_, config)| config.code_levels())
            .unwrap_or_default();
        self.say(skipped, None);
        if let Some((path, _)) = &topology {
            self.read_topology(path);
        }
        if let Some((path, _)) = &catalog {
            self.read_catalog(path);
        }
        FlowFiles {
            root,
            config: config_path,
            topology,
            catalog,
            levels,
        }
    }

    /// The formatter's options for the flow at `flow` (an absolute path):
    /// the `[format]` settings of its `easyflow.toml` (`config.md`), or the
    /// defaults. `Err` with the path of its `easyflow.toml` when that cannot
    /// be read (said among the skipped files): the defaults could undo its
    /// settings.
    pub fn format_options(&mut self, flow: &Path) -> Result<FormatOptions, PathBuf> {
        let mut skipped = Vec::new();
        let config = self.nearest_config(flow, &mut skipped);
        self.say(skipped, None);
        let Some(path) = config else {
            return Ok(FormatOptions::default());
        };
        match &self.configs[&path] {
            Some(config) => Ok(config.format_options()),
            None => Err(path),
        }
    }

    /// What was read and skipped since the last call.
    pub fn take_loaded(&mut self) -> Loaded {
        std::mem::take(&mut self.loaded)
    }

    /// The nearest `easyflow.toml` above `flow`, read and parsed (once).
    fn nearest_config(&mut self, flow: &Path, skipped: &mut Vec<ReadError>) -> Option<PathBuf> {
        let path = discovery::nearest(flow, CONFIG_FILE_NAME, FileKind::Config, self.fs, skipped)?;
        if !self.configs.contains_key(&path) {
            let config = match self.fs.read(&path, FileKind::Config) {
                Ok(text) => {
                    let config = parse_config(&text);
                    self.say_refused_paths(&path, &config);
                    self.loaded.configs.push((path.clone(), text));
                    Some(config)
                }
                Err(error) => {
                    skipped.push(error);
                    None
                }
            };
            self.configs.insert(path.clone(), config);
        }
        Some(path)
    }

    /// Says the files the `easyflow.toml` at `path` names that are skipped.
    fn say_refused_paths(&mut self, path: &Path, config: &Config) {
        let refused = discovery::refused_paths(path, config, &self.workspace, self.fs)
            .into_iter()
            .map(|(_, error)| error)
            .collect();
        self.say(refused, Some(path));
    }

    fn read_topology(&mut self, path: &Path) {
        if self.topologies.insert(path.to_path_buf()) {
            match self.fs.read(path, FileKind::Topology) {
                Ok(text) => self.loaded.topologies.push((path.to_path_buf(), text)),
                Err(error) => self.say(vec![error], None),
            }
        }
    }

    fn read_catalog(&mut self, path: &Path) {
        if self.catalogs.insert(path.to_path_buf()) {
            match self.fs.read_bytes(path, FileKind::Catalog) {
                Ok(bytes) => self.loaded.catalogs.push((path.to_path_buf(), bytes)),
                Err(error) => self.say(vec![error], None),
            }
        }
    }

    /// Keeps what was skipped for the host to say, each file once. A file
    /// that does not exist is no skipped file (one an `easyflow.toml` names
    /// gets its E0903; one gone since it was found is simply gone).
    fn say(&mut self, errors: Vec<ReadError>, named_by: Option<&Path>) {
        for error in errors {
            if error.reason == SkipReason::NotFound {
                continue;
            }
            let skipped = Skipped {
                error,
                named_by: named_by.map(Path::to_path_buf),
            };
            if self.said.insert(skipped.to_string()) {
                self.loaded.skipped.push(skipped);
            }
        }
    }
}
