//! `easyflow check`: finds the files, analyses them, reports.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use easyflow_db::discovery::{self, Disk};
use easyflow_db::{CatalogFile, Database, SourceFile, TopologyFile, parse_catalog, parse_topology};

use crate::checked::{CheckedFile, Counts};
use crate::input::read_source;
use crate::{exit, report};

/// The analysis of one run: the database and the topology and catalog files
/// loaded so far (each is read and parsed once, however many flows use it).
struct Session {
    db: Database,
    topologies: HashMap<PathBuf, Option<TopologyFile>>,
    catalogs: HashMap<PathBuf, Option<CatalogFile>>,
    /// The `easyflow.toml` files the flows use, to report their diagnostics.
    configs: BTreeSet<PathBuf>,
    topology_flag: Option<PathBuf>,
    /// `--catalog`: absolute, and as given (how the report names it).
    catalog_flag: Option<(PathBuf, PathBuf)>,
    /// The catalogs the flows use (absolute), to report their diagnostics.
    used_catalogs: BTreeSet<PathBuf>,
    /// A catalog could not be read (named on stderr).
    unreadable_catalog: bool,
    /// The disk, within the current directory: the workspace of a run.
    disk: Disk,
}

impl Session {
    /// A session with the `--topology` and `--catalog` flags (which must
    /// name readable files).
    fn new(topology: Option<&Path>, catalog: Option<&Path>) -> Result<Session, String> {
        if let Some(flag) = topology {
            easyflow_db::disk::probe(flag, easyflow_db::disk::FileKind::Topology)
                .map_err(|error| format!("--topology {error}"))?;
        }
        if let Some(flag) = catalog {
            easyflow_db::disk::probe(flag, easyflow_db::disk::FileKind::Catalog)
                .map_err(|error| format!("--catalog {error}"))?;
        }
        Ok(Session {
            db: Database::default(),
            topologies: HashMap::new(),
            catalogs: HashMap::new(),
            configs: BTreeSet::new(),
            topology_flag: topology.map(absolute),
            catalog_flag: catalog.map(|given| (absolute(given), given.to_path_buf())),
            used_catalogs: BTreeSet::new(),
            unreadable_catalog: false,
            disk: Disk::within(std::env::current_dir().into_iter().collect()),
        })
    }

    fn topology(&mut self, path: &Path) -> Option<TopologyFile> {
        if let Some(loaded) = self.topologies.get(path) {
            return *loaded;
        }
        let loaded = match read_source(path) {
            Ok(text) => Some(TopologyFile::new(&self.db, path.to_path_buf(), text)),
            Err(message) => {
                eprintln!("error: {message}");
                None
            }
        };
        self.topologies.insert(path.to_path_buf(), loaded);
        loaded
    }

    fn catalog(&mut self, path: &Path) -> Option<CatalogFile> {
        if let Some(loaded) = self.catalogs.get(path) {
            return *loaded;
        }
        // Bytes: a catalog that is not UTF-8 is its own E0810.
        let loaded = match easyflow_db::disk::read_bytes(path, easyflow_db::disk::FileKind::Catalog)
        {
            Ok(bytes) => Some(CatalogFile::new(&self.db, path.to_path_buf(), bytes)),
            Err(error) => {
                eprintln!("error: {error}");
                self.unreadable_catalog = true;
                None
            }
        };
        self.catalogs.insert(path.to_path_buf(), loaded);
        if loaded.is_some() {
            self.used_catalogs.insert(path.to_path_buf());
        }
        loaded
    }

    /// The catalog files used, with their own diagnostics (E0810).
    fn checked_catalogs(&self) -> Vec<CheckedFile> {
        self.used_catalogs
            .iter()
            .filter_map(|path| {
                let file = (*self.catalogs.get(path)?)?;
                let shown = match &self.catalog_flag {
                    Some((absolute, given)) if absolute == path => given.clone(),
                    _ => for_display(path),
                };
                Some(CheckedFile {
                    path: shown,
                    text: String::from_utf8_lossy(file.bytes(&self.db)).into(),
                    diagnostics: parse_catalog(&self.db, file).diagnostics.clone(),
                })
            })
            .collect()
    }

    /// A flow with the topology and catalog discovery gives it.
    fn open_flow(&mut self, path: &Path, text: Arc<str>) -> SourceFile {
        let discovery =
            discovery::discover(&absolute(path), self.topology_flag.as_deref(), &self.disk);
        if let Some(config) = discovery.config {
            self.configs.insert(config);
        }
        let topology = discovery
            .topology
            .and_then(|(topology, _)| self.topology(&topology));
        let catalog_flag = self
            .catalog_flag
            .as_ref()
            .map(|(absolute, _)| absolute.clone());
        let catalog =
            discovery::discover_catalog(&absolute(path), catalog_flag.as_deref(), &self.disk)
                .and_then(|(catalog, _)| self.catalog(&catalog));
        SourceFile::builder(path.to_path_buf(), text.into())
            .topology(topology)
            .catalog(catalog)
            .new(&self.db)
    }

    fn check_flow(&mut self, path: PathBuf, text: String) -> CheckedFile {
        let text: Arc<str> = text.into();
        let file = self.open_flow(&path, text.clone());
        let diagnostics = self.db.check(file).to_vec();
        CheckedFile {
            path,
            text,
            diagnostics,
        }
    }

    fn check_topology(&mut self, path: PathBuf, text: String) -> CheckedFile {
        let file = TopologyFile::new(&self.db, path.clone(), text.clone());
        self.topologies.insert(absolute(&path), Some(file));
        let diagnostics = parse_topology(&self.db, file).diagnostics.clone();
        CheckedFile {
            path,
            text: text.into(),
            diagnostics,
        }
    }
}

/// One flow, read and given its topology and catalog as `check` does (the
/// flags, else discovery), in a database of its own; with its text, shared
/// with the database.
pub fn open_flow(
    path: &Path,
    topology: Option<&Path>,
    catalog: Option<&Path>,
) -> Result<(Database, SourceFile, Arc<str>), String> {
    let mut session = Session::new(topology, catalog)?;
    let text: Arc<str> = read_source(path)?.into();
    let file = session.open_flow(path, text.clone());
    Ok((session.db, file, text))
}

/// `path` made absolute (for searching upwards past the current directory).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// `path` relative to the current directory when it is below it.
fn for_display(path: &Path) -> PathBuf {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf));
    relative.unwrap_or_else(|| path.to_path_buf())
}

/// What one `easyflow check` found.
pub struct Check {
    /// Every checked file in report order: the flows and topologies under the
    /// paths, then the `easyflow.toml` files they use, then their catalogs.
    pub files: Vec<CheckedFile>,
    /// Some path did not exist or some file could not be read (each named
    /// on stderr); the others are still in `files`.
    pub unreadable: bool,
    /// The analysis behind `files`, for `run` to end the process without
    /// freeing it.
    session: Session,
}

/// Checks the `.flow` and `.topology` files named or found under `paths`,
/// with `topology` and `catalog` (if given) as every flow's topology and
/// package catalog. Paths are reported as given, and looked up from the
/// current directory.
pub fn check(
    paths: &[PathBuf],
    topology: Option<&Path>,
    catalog: Option<&Path>,
) -> Result<Check, String> {
    let mut session = Session::new(topology, catalog)?;
    let mut unreadable = false;
    let mut files = Vec::new();
    for path in discover(paths, &["flow", "topology"], &mut unreadable) {
        match read_source(&path) {
            Ok(text) if path.extension().is_some_and(|e| e == "topology") => {
                files.push(session.check_topology(path, text));
            }
            Ok(text) => files.push(session.check_flow(path, text)),
            Err(message) => {
                eprintln!("error: {message}");
                unreadable = true;
            }
        }
    }
    for config in std::mem::take(&mut session.configs) {
        match read_source(&config) {
            Ok(text) => {
                let diagnostics = discovery::config_diagnostics(&config, &text, &session.disk);
                files.push(CheckedFile {
                    path: for_display(&config),
                    text: text.into(),
                    diagnostics,
                });
            }
            Err(message) => {
                eprintln!("error: {message}");
                unreadable = true;
            }
        }
    }
    files.extend(session.checked_catalogs());
    unreadable |= session.unreadable_catalog;
    Ok(Check {
        files,
        unreadable,
        session,
    })
}

/// `easyflow check`: the report on stdout, the exit status of cli.md.
pub fn run(
    paths: &[PathBuf],
    topology: Option<&Path>,
    catalog: Option<&Path>,
    format: report::Format,
    deny_warnings: bool,
) -> u8 {
    let Check {
        files,
        unreadable,
        session,
    } = match check(paths, topology, catalog) {
        Ok(check) => check,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::FAILURE;
        }
    };
    // The process ends after the report: freeing every file's tree and
    // analysis would only delay the exit (by a sixth of a large file's check).
    std::mem::forget(session);
    if let Err(error) = report::to_stdout(format, &files) {
        // A closed pipe (e.g. `| head`) is not worth a message.
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write the report: {error}");
        }
        return exit::FAILURE;
    }
    let counts = Counts::of(&files);
    if unreadable {
        exit::FAILURE
    } else if counts.errors > 0 || (deny_warnings && counts.warnings > 0) {
        exit::PROBLEMS
    } else {
        exit::OK
    }
}

/// Whether `path`, found by the walk, is a regular file; if not, says
/// that it is skipped and why (a FIFO, a device, a loop of links, …).
fn regular_or_reported(path: &Path) -> bool {
    if path.is_file() {
        return true;
    }
    if let Err(error) = easyflow_db::disk::probe(path, easyflow_db::disk::FileKind::of(path))
        && !matches!(
            error.refusal,
            easyflow_db::disk::Refusal::NotRegular("a directory")
        )
    {
        eprintln!("warning: skipped {error}");
    }
    false
}

/// The files named, or found under `paths` with one of `extensions`
/// (`ignore`'s walk, so `.gitignore`d files are skipped), each directory's
/// files in sorted order. Reports paths that do not exist and sets
/// `unreadable`. `fmt` searches as `check` does.
pub(crate) fn discover(
    paths: &[PathBuf],
    extensions: &[&str],
    unreadable: &mut bool,
) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut in_dir: Vec<PathBuf> = ignore::WalkBuilder::new(path)
                .sort_by_file_path(|a, b| a.cmp(b))
                .build()
                .filter_map(|entry| match entry {
                    Ok(entry) => Some(entry.into_path()),
                    Err(error) => {
                        eprintln!("error: {error}");
                        *unreadable = true;
                        None
                    }
                })
                .filter(|p| {
                    p.extension()
                        .is_some_and(|e| extensions.iter().any(|x| e == *x))
                        && regular_or_reported(p)
                })
                .map(|p| p.strip_prefix("./").map(Path::to_path_buf).unwrap_or(p))
                .collect();
            in_dir.sort();
            found.extend(in_dir);
        } else if path.exists() {
            found.push(path.clone());
        } else {
            eprintln!("error: {}: no such file or directory", path.display());
            *unreadable = true;
        }
    }
    found
}
