//! `easyflow check`: finds the files, loads their project through the
//! project loader (`easyflow_project::Loader`, as the server does),
//! analyses them, reports.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use easyflow_db::{
    CatalogFile, Code, Database, Diagnostic, Setter, SourceFile, TopologyFile, parse,
    parse_catalog, parse_topology,
};
use easyflow_ide::code_actions::fix_all;
use easyflow_project::discovery::{self, Disk};
use easyflow_project::{FileKind, Loaded, Loader, PathSettings, Workspace, disk};

use crate::checked::{CheckedFile, Counts};
use crate::input::{self, absolute};
use crate::{exit, report};

/// The analysis of one run: the database, the project loader, and the
/// files loaded so far (each read and parsed once, however many flows use
/// it).
struct Session {
    db: Database,
    loader: Loader<'static>,
    topologies: HashMap<PathBuf, TopologyFile>,
    catalogs: HashMap<PathBuf, CatalogFile>,
    /// The texts of the `easyflow.toml` files read.
    configs: HashMap<PathBuf, Arc<str>>,
    /// What the flows use (absolute), reported after the files under the
    /// paths, each with its own diagnostics.
    used_configs: BTreeSet<PathBuf>,
    used_topologies: BTreeSet<PathBuf>,
    used_catalogs: BTreeSet<PathBuf>,
    /// The files reported (absolute), so that none is reported twice.
    reported: HashSet<PathBuf>,
    /// The files of `--topology` and `--catalog` (absolute), with the paths
    /// as given: how the report names them.
    flags: HashMap<PathBuf, PathBuf>,
    /// A file could not be read (named on stderr).
    unreadable: bool,
    /// `--fix`: the flows are fixed in place before they are reported.
    fix: bool,
    /// What `--fix` fixed: problems and files.
    fixed: (usize, usize),
}

impl Session {
    /// A session for the project in the folders `roots` (absolute), with
    /// the `--topology` and `--catalog` flags (which must name readable
    /// files).
    fn new(
        roots: Vec<PathBuf>,
        topology: Option<&Path>,
        catalog: Option<&Path>,
    ) -> Result<Session, String> {
        let flags = [
            ("--topology", topology, FileKind::Topology),
            ("--catalog", catalog, FileKind::Catalog),
        ];
        for (flag, path, kind) in flags {
            if let Some(path) = path {
                disk::probe(path, kind).map_err(|error| format!("{flag} {error}"))?;
            }
        }
        let settings = PathSettings {
            topology: topology.map(absolute),
            catalog: catalog.map(absolute),
        };
        Ok(Session {
            db: Database::default(),
            loader: Loader::new(Workspace::new(roots, settings), &Disk),
            topologies: HashMap::new(),
            catalogs: HashMap::new(),
            configs: HashMap::new(),
            used_configs: BTreeSet::new(),
            used_topologies: BTreeSet::new(),
            used_catalogs: BTreeSet::new(),
            reported: HashSet::new(),
            flags: [topology, catalog]
                .into_iter()
                .flatten()
                .map(|given| (absolute(given), given.to_path_buf()))
                .collect(),
            unreadable: false,
            fix: false,
            fixed: (0, 0),
        })
    }

    /// Makes what the loader read inputs of the analysis, and says what it
    /// skipped (`input::say_skipped`).
    fn take_loaded(&mut self) {
        let Loaded {
            configs,
            topologies,
            catalogs,
            skipped,
        } = self.loader.take_loaded();
        for (path, text) in configs {
            self.configs.insert(path, text.into());
        }
        for (path, text) in topologies {
            let db = &self.db;
            self.topologies
                .entry(path.clone())
                .or_insert_with(|| TopologyFile::new(db, path, text));
        }
        for (path, bytes) in catalogs {
            let db = &self.db;
            self.catalogs
                .entry(path.clone())
                .or_insert_with(|| CatalogFile::new(db, path, bytes));
        }
        self.unreadable |= input::say_skipped(&skipped);
    }

    /// A flow (shown as `path`) with the topology and catalog the loader
    /// finds for it.
    fn open_flow(&mut self, path: &Path, text: Arc<str>) -> SourceFile {
        let files = self.loader.flow(&absolute(path));
        self.take_loaded();
        self.used_configs.extend(files.config);
        let topology = files.topology.and_then(|(path, _)| {
            let topology = *self.topologies.get(&path)?;
            self.used_topologies.insert(path);
            Some(topology)
        });
        let catalog = files.catalog.and_then(|(path, _)| {
            let catalog = *self.catalogs.get(&path)?;
            self.used_catalogs.insert(path);
            Some(catalog)
        });
        SourceFile::builder(path.to_path_buf(), text.into())
            .topology(topology)
            .catalog(catalog)
            .levels(files.levels)
            .new(&self.db)
    }

    /// The file at `path` (as given or found), checked as `kind`; `None`
    /// when it cannot be read (said on stderr) or was reported already.
    fn check_file(&mut self, path: PathBuf, kind: FileKind) -> Option<CheckedFile> {
        if !self.reported.insert(absolute(&path)) {
            return None;
        }
        match self.analyse(&path, kind) {
            Ok((text, diagnostics)) => Some(CheckedFile {
                path: input::shown(&path),
                text,
                diagnostics,
            }),
            Err(message) => {
                eprintln!("error: {message}");
                self.unreadable = true;
                None
            }
        }
    }

    /// The text and the diagnostics of the file at `path`, as `kind`.
    fn analyse(
        &mut self,
        path: &Path,
        kind: FileKind,
    ) -> Result<(Arc<str>, Vec<Diagnostic>), String> {
        let db = &self.db;
        Ok(match kind {
            FileKind::Flow => {
                let text: Arc<str> = input::read_source(path, kind)?.into();
                let file = self.open_flow(&input::shown(path), text.clone());
                let text = match self.fix {
                    true => self.fix_flow(path, file, text),
                    false => text,
                };
                (text, self.db.check(file).to_vec())
            }
            FileKind::Topology => {
                let text = input::read_source(path, kind)?;
                let file = *self
                    .topologies
                    .entry(absolute(path))
                    .or_insert_with(|| TopologyFile::new(db, path.to_path_buf(), text.clone()));
                (text.into(), parse_topology(db, file).diagnostics.clone())
            }
            FileKind::Catalog => {
                // Bytes: a catalog that is not UTF-8 is its own E0810.
                let bytes = disk::read_bytes(path, kind).map_err(|e| e.to_string())?;
                let text = String::from_utf8_lossy(&bytes).into();
                let file = *self
                    .catalogs
                    .entry(absolute(path))
                    .or_insert_with(|| CatalogFile::new(db, path.to_path_buf(), bytes));
                (text, parse_catalog(db, file).diagnostics.clone())
            }
            FileKind::Config => {
                let text = input::read_source(path, kind)?;
                let diagnostics = self.config_diagnostics(&absolute(path), &text);
                (text.into(), diagnostics)
            }
        })
    }

    /// `--fix`: the flow `file` read from `path` as `original`, with the
    /// editor's fix-all applied, pass after pass, until no fix applies (at
    /// most [`MAX_FIX_PASSES`] passes), written over `path` atomically and
    /// said on stderr. A result that still has syntax errors is not
    /// written: the file is left as it was. Returns the text the file now
    /// has, which `file` holds.
    fn fix_flow(&mut self, path: &Path, file: SourceFile, original: Arc<str>) -> Arc<str> {
        let mut text = original.clone();
        let mut fixes: Vec<(Code, String)> = Vec::new();
        for _ in 0..MAX_FIX_PASSES {
            let all = fix_all(&self.db, file);
            if all.edits.is_empty() {
                break;
            }
            text = easyflow_ide::apply_edits(&text, &all.edits).into();
            file.set_text(&mut self.db).to(text.clone().into());
            fixes.extend(all.fixes.into_iter().map(|(title, d)| (d.code, title)));
        }
        if fixes.is_empty() {
            return original;
        }
        let shown = input::shown(path);
        let shown = shown.display();
        let written = match parse(&self.db, file).errors().first() {
            Some(error) => Err(format!(
                "left as it was: fixed, it would still have a syntax error ({}: {})",
                error.code, error.message
            )),
            None => crate::fmt::write_atomically(path, &text).map_err(|error| {
                self.unreadable = true;
                format!("cannot write: {error}")
            }),
        };
        if let Err(message) = written {
            eprintln!("{shown}: {message}");
            file.set_text(&mut self.db).to(original.clone().into());
            return original;
        }
        for (code, title) in &fixes {
            eprintln!("{shown}: fixed {code}: {title}");
        }
        self.fixed.0 += fixes.len();
        self.fixed.1 += 1;
        text
    }

    fn config_diagnostics(&self, path: &Path, text: &str) -> Vec<Diagnostic> {
        discovery::config_diagnostics(path, text, self.loader.workspace(), &Disk)
    }

    /// The `easyflow.toml` files, topologies and catalogs the flows use
    /// that were not reported yet, each with its own diagnostics.
    fn used_files(&mut self) -> Vec<CheckedFile> {
        let mut files = Vec::new();
        for path in std::mem::take(&mut self.used_configs) {
            if let Some(text) = self.configs.get(&path)
                && self.reported.insert(path.clone())
            {
                files.push(CheckedFile {
                    diagnostics: self.config_diagnostics(&path, text),
                    text: text.clone(),
                    path: self.shown(&path),
                });
            }
        }
        for path in std::mem::take(&mut self.used_topologies) {
            let file = self.topologies[&path];
            if self.reported.insert(path.clone()) {
                files.push(CheckedFile {
                    path: self.shown(&path),
                    text: file.text(&self.db).as_str().into(),
                    diagnostics: parse_topology(&self.db, file).diagnostics.clone(),
                });
            }
        }
        for path in std::mem::take(&mut self.used_catalogs) {
            let file = self.catalogs[&path];
            if self.reported.insert(path.clone()) {
                files.push(CheckedFile {
                    path: self.shown(&path),
                    text: String::from_utf8_lossy(file.bytes(&self.db)).into(),
                    diagnostics: parse_catalog(&self.db, file).diagnostics.clone(),
                });
            }
        }
        files
    }

    /// How the report names a file the flows use: a flag's as given, any
    /// other relative to the current directory when it is below it.
    fn shown(&self, path: &Path) -> PathBuf {
        match self.flags.get(path) {
            Some(given) => given.clone(),
            None => for_display(path),
        }
    }
}

/// One flow, read and given its topology and catalog as `check` does (the
/// flags, else discovery, in the workspace of the flow's own directory), in
/// a database of its own; with its text, shared with the database. A file
/// whose name says it is no flow is refused.
pub fn open_flow(
    path: &Path,
    topology: Option<&Path>,
    catalog: Option<&Path>,
) -> Result<(Database, SourceFile, Arc<str>), String> {
    let mut session = Session::new(vec![input::workspace_root(path)], topology, catalog)?;
    let text: Arc<str> = input::read_one(path, FileKind::Flow)?.into();
    let file = session.open_flow(path, text.clone());
    Ok((session.db, file, text))
}

/// `path` relative to the current directory when it is below it.
fn for_display(path: &Path) -> PathBuf {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf));
    relative.unwrap_or_else(|| path.to_path_buf())
}

/// The most passes of fix-all `--fix` makes over one file: a pass's fixes
/// can leave problems only the fixed text has (a fix skipped for meeting
/// another, an `after` made redundant), which the next pass fixes; the
/// bound stops fixes that would undo each other.
pub const MAX_FIX_PASSES: usize = 10;

/// What one `easyflow check` found.
pub struct Check {
    /// Every checked file in report order: the files named or found under
    /// the paths, each as what it is, then the `easyflow.toml` files, the
    /// topologies and the catalogs the flows use.
    pub files: Vec<CheckedFile>,
    /// Some path did not exist or yielded no file, or some file could not
    /// be read (each named on stderr); the others are still in `files`.
    pub unreadable: bool,
    /// The analysis behind `files`, for `run` to end the process without
    /// freeing it.
    session: Session,
}

/// Checks the files named (`-`: standard input, a flow) or found under
/// `paths` (`.flow` and `.topology` files; none given: the current
/// directory), each as what its name says (`FileKind::by_name`; any other
/// name, a flow), with `topology` and `catalog` (if given) as every flow's
/// topology and package catalog. The workspace is the project asked about:
/// the directories given, a file's own directory, or the current directory.
/// Paths are reported as given, and looked up from the current directory.
pub fn check(
    paths: &[PathBuf],
    topology: Option<&Path>,
    catalog: Option<&Path>,
) -> Result<Check, String> {
    check_files(paths, topology, catalog, false)
}

/// [`check`], with `fix`: each flow is fixed in place first
/// ([`Session::fix_flow`]), and its report is of the fixed text.
fn check_files(
    paths: &[PathBuf],
    topology: Option<&Path>,
    catalog: Option<&Path>,
    fix: bool,
) -> Result<Check, String> {
    let given = !paths.is_empty();
    let paths = match given {
        true => paths.to_vec(),
        false => vec![PathBuf::from(".")],
    };
    let roots = paths
        .iter()
        .map(|path| input::workspace_root(path))
        .collect();
    let mut session = Session::new(roots, topology, catalog)?;
    session.fix = fix;
    let mut failed = false;
    let found = input::find(
        &paths,
        &[FileKind::Flow, FileKind::Topology],
        given,
        &mut failed,
    );
    let mut files: Vec<CheckedFile> = found
        .into_iter()
        .filter_map(|path| {
            let kind = input::kind_of(&path, FileKind::Flow);
            session.check_file(path, kind)
        })
        .collect();
    files.extend(session.used_files());
    if fix {
        let (problems, fixed_files) = session.fixed;
        eprintln!(
            "fixed {problems} problem{} in {fixed_files} file{}",
            if problems == 1 { "" } else { "s" },
            if fixed_files == 1 { "" } else { "s" }
        );
    }
    Ok(Check {
        files,
        unreadable: failed || session.unreadable,
        session,
    })
}

/// `easyflow check`: the report on stdout, the exit status of cli.md;
/// with `fix`, the flows fixed in place first (what was fixed on stderr).
pub fn run(
    paths: &[PathBuf],
    topology: Option<&Path>,
    catalog: Option<&Path>,
    format: report::Format,
    deny_warnings: bool,
    fix: bool,
) -> u8 {
    if fix && paths.iter().any(|p| p == Path::new("-")) {
        eprintln!("error: --fix fixes files in place: it cannot fix standard input (`-`)");
        return exit::FAILURE;
    }
    let Check {
        files,
        unreadable,
        session,
    } = match check_files(paths, topology, catalog, fix) {
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
