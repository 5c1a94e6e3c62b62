//! Which topology (`topology.md` §1) and which package catalog
//! (`catalog.md`) a flow uses, by the same rule: the setting, else the key
//! of the nearest `easyflow.toml`, else the nearest file of the known name;
//! and what an `easyflow.toml` names that cannot be used (E0903). The rules
//! run against a [`FileSystem`] the host provides (the disk, or the editor's
//! open documents over it); the loader (`loader.rs`) runs them for the
//! hosts.

use std::path::{Path, PathBuf};

use easyflow_diagnostics::{Code, Diagnostic};

use crate::config::{Config, ConfiguredPath, parse_config};
use crate::disk::{self, FileKind, ReadError, SkipReason};
use crate::workspace::{Workspace, within_boundary};

pub use crate::config::CONFIG_FILE_NAME;
/// Name of the topology file searched upwards when no configuration names one.
pub const TOPOLOGY_FILE_NAME: &str = "easyflow.topology";
/// Name of the catalog file searched upwards when no configuration names one.
pub const CATALOG_FILE_NAME: &str = easyflow_catalog::CATALOG_FILE_NAME;

/// What discovery may read. Open editor documents override the disk.
pub trait FileSystem {
    /// The text of the file at `path`, read as `kind` (`disk::read`).
    fn read(&self, path: &Path, kind: FileKind) -> Result<String, ReadError>;
    /// The bytes of the file at `path`, read as `kind`, UTF-8 or not (a
    /// catalog that is not is its own E0810).
    fn read_bytes(&self, path: &Path, kind: FileKind) -> Result<Vec<u8>, ReadError> {
        self.read(path, kind).map(String::into_bytes)
    }
    /// Whether `path` would be read as `kind`, without reading it.
    fn probe(&self, path: &Path, kind: FileKind) -> Result<(), ReadError> {
        self.read(path, kind).map(drop)
    }
}

/// The real file system, through [`disk`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Disk;

impl FileSystem for Disk {
    fn read(&self, path: &Path, kind: FileKind) -> Result<String, ReadError> {
        disk::read(path, kind)
    }

    fn read_bytes(&self, path: &Path, kind: FileKind) -> Result<Vec<u8>, ReadError> {
        disk::read_bytes(path, kind)
    }

    fn probe(&self, path: &Path, kind: FileKind) -> Result<(), ReadError> {
        disk::probe(path, kind)
    }
}

/// Where a flow's topology or catalog came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The flag (`--topology`, `--catalog`) or the editor setting
    /// (`easyflow.topology`, `easyflow.catalog`).
    Setting,
    /// The key (`topology`, `catalog`) of this `easyflow.toml`.
    Config(PathBuf),
    /// The nearest file of the name (`easyflow.topology`,
    /// `easyflow-packages.toml`).
    Nearest,
}

/// Whether a file may be used at `path`, as `kind`: `Ok(true)` for a
/// regular file (an oversized one too: reading it then says why it is
/// skipped), `Ok(false)` for nothing there, and the reason for anything
/// else there (a FIFO, a directory, a loop of links), to be said.
fn found(path: &Path, kind: FileKind, fs: &dyn FileSystem) -> Result<bool, ReadError> {
    match fs.probe(path, kind) {
        Ok(()) => Ok(true),
        Err(error) => match error.reason {
            SkipReason::TooLarge { .. } => Ok(true),
            SkipReason::NotFound => Ok(false),
            _ => Err(error),
        },
    }
}

/// The nearest file named `name` above `flow` (searching from its
/// directory) that may be read as `kind`; what is passed over on the way
/// (a FIFO named `easyflow.toml`) goes to `skipped`.
pub fn nearest(
    flow: &Path,
    name: &str,
    kind: FileKind,
    fs: &dyn FileSystem,
    skipped: &mut Vec<ReadError>,
) -> Option<PathBuf> {
    flow.parent()?
        .ancestors()
        .map(|dir| dir.join(name))
        .find(|candidate| match found(candidate, kind, fs) {
            Ok(found) => found,
            Err(error) => {
                skipped.push(error);
                false
            }
        })
}

/// The topology (for `kind` [`FileKind::Topology`]) or the package catalog
/// (for [`FileKind::Catalog`]) of `flow`: `setting` if it names a file,
/// else what the nearest `easyflow.toml` (`config`, with its path) names if
/// it can be used, else the nearest file of the kind's name.
pub fn choose(
    kind: FileKind,
    flow: &Path,
    setting: Option<&Path>,
    config: Option<(&Path, &Config)>,
    workspace: &Workspace,
    fs: &dyn FileSystem,
    skipped: &mut Vec<ReadError>,
) -> Option<(PathBuf, Origin)> {
    if let Some(setting) = setting {
        match found(setting, kind, fs) {
            Ok(true) => return Some((setting.to_path_buf(), Origin::Setting)),
            Ok(false) => {}
            Err(error) => skipped.push(error),
        }
    }
    if let Some((config_path, config)) = config
        && let Some(path) = configured(config_path, config, kind)
        && usable(config_path, &path, kind, workspace, fs).is_ok()
    {
        return Some((path, Origin::Config(config_path.to_path_buf())));
    }
    let name = match kind {
        FileKind::Catalog => CATALOG_FILE_NAME,
        _ => TOPOLOGY_FILE_NAME,
    };
    nearest(flow, name, kind, fs, skipped).map(|path| (path, Origin::Nearest))
}

/// The path a usable configuration names for `kind` (its `topology` or its
/// `catalog`), resolved against its directory.
pub fn configured(config_path: &Path, config: &Config, kind: FileKind) -> Option<PathBuf> {
    if !config.is_usable() {
        return None;
    }
    let configured = match kind {
        FileKind::Topology => config.topology.as_ref(),
        FileKind::Catalog => config.catalog.as_ref(),
        FileKind::Flow | FileKind::Config => None,
    }?;
    Some(
        config_path
            .parent()
            .unwrap_or(Path::new(""))
            .join(&configured.path),
    )
}

/// Whether `path`, named by the `easyflow.toml` at `config_path`, may be
/// read as `kind`: a file `disk::read` takes, inside that file's workspace
/// folder ([`Workspace::boundary_of`]).
pub fn usable(
    config_path: &Path,
    path: &Path,
    kind: FileKind,
    workspace: &Workspace,
    fs: &dyn FileSystem,
) -> Result<(), ReadError> {
    fs.probe(path, kind)?;
    within_boundary(workspace, config_path, path).map_err(|boundary| ReadError {
        path: path.to_path_buf(),
        reason: SkipReason::OutsideWorkspace(boundary),
    })
}

/// The paths a usable `easyflow.toml` names (`topology`, `catalog`) that
/// cannot be used, each with why ([`usable`]): what E0903 reports.
pub fn refused_paths<'c>(
    config_path: &Path,
    config: &'c Config,
    workspace: &Workspace,
    fs: &dyn FileSystem,
) -> Vec<(&'c ConfiguredPath, ReadError)> {
    let configured_paths = [
        (&config.topology, FileKind::Topology),
        (&config.catalog, FileKind::Catalog),
    ];
    configured_paths
        .into_iter()
        .filter_map(|(written, kind)| {
            let written = written.as_ref()?;
            let path = configured(config_path, config, kind)?;
            let error = usable(config_path, &path, kind, workspace, fs).err()?;
            Some((written, error))
        })
        .collect()
}

/// Every diagnostic of an `easyflow.toml`: its own (E0901, W0902) and E0903
/// for each configured path that does not exist or cannot be read.
pub fn config_diagnostics(
    config_path: &Path,
    text: &str,
    workspace: &Workspace,
    fs: &dyn FileSystem,
) -> Vec<Diagnostic> {
    let config = parse_config(text);
    let mut diagnostics = config.diagnostics.clone();
    for (configured, error) in refused_paths(config_path, &config, workspace, fs) {
        let message = match error.reason {
            SkipReason::NotFound => format!(
                "`{}` does not exist or cannot be read (looked for {})",
                configured.path,
                error.path.display()
            ),
            _ => format!("`{}` is skipped: {error}", configured.path),
        };
        diagnostics.push(Diagnostic::new(Code::E0903, configured.range, message));
    }
    easyflow_diagnostics::sort(&mut diagnostics);
    diagnostics
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::loader::{FlowFiles, Loader};
    use crate::workspace::PathSettings;

    struct Files(HashMap<PathBuf, String>);

    impl FileSystem for Files {
        fn read(&self, path: &Path, _: FileKind) -> Result<String, ReadError> {
            self.0.get(path).cloned().ok_or_else(|| ReadError {
                path: path.to_path_buf(),
                reason: SkipReason::NotFound,
            })
        }
    }

    fn files(entries: &[(&str, &str)]) -> Files {
        Files(
            entries
                .iter()
                .map(|(p, t)| (PathBuf::from(p), t.to_string()))
                .collect(),
        )
    }

    /// Discovery for `flow` with these settings, in a workspace of no folder.
    fn discover(
        flow: &str,
        topology: Option<&str>,
        catalog: Option<&str>,
        fs: &Files,
    ) -> FlowFiles {
        let settings = PathSettings {
            topology: topology.map(PathBuf::from),
            catalog: catalog.map(PathBuf::from),
        };
        let workspace = Workspace::new([], settings);
        Loader::new(workspace, fs).flow(Path::new(flow))
    }

    #[test]
    fn config_beats_a_closer_decoy_and_the_setting_beats_both() {
        let fs = files(&[
            ("/p/easyflow.toml", "topology = \"cluster/site.topology\"\n"),
            ("/p/cluster/site.topology", "compute:1\n"),
            ("/p/a/b/easyflow.topology", "decoy:1\n"),
            ("/other/given.topology", "given:1\n"),
        ]);
        let flow = "/p/a/b/x.flow";
        let found = discover(flow, None, None, &fs);
        assert_eq!(
            found.topology,
            Some((
                PathBuf::from("/p/cluster/site.topology"),
                Origin::Config("/p/easyflow.toml".into())
            ))
        );
        assert_eq!(found.config, Some(PathBuf::from("/p/easyflow.toml")));
        let given = discover(flow, Some("/other/given.topology"), None, &fs);
        assert_eq!(
            given.topology,
            Some((PathBuf::from("/other/given.topology"), Origin::Setting))
        );
        // A setting that names nothing falls through to the next rule.
        let missing = discover(flow, Some("/nowhere.topology"), None, &fs);
        assert_eq!(missing.topology, found.topology);
    }

    #[test]
    fn nearest_topology_when_no_config_names_one() {
        let fs = files(&[
            ("/p/easyflow.toml", "[format]\nwidth = 80\n"),
            ("/p/easyflow.topology", "outer:1\n"),
            ("/p/a/easyflow.topology", "inner:1\n"),
        ]);
        let found = discover("/p/a/b/x.flow", None, None, &fs);
        assert_eq!(
            found.topology,
            Some((PathBuf::from("/p/a/easyflow.topology"), Origin::Nearest))
        );
        assert_eq!(discover("/q/x.flow", None, None, &fs), FlowFiles::default());
    }

    #[test]
    fn catalog_by_setting_then_config_then_nearest() {
        let fs = files(&[
            ("/p/easyflow.toml", "catalog = \"packages/main.toml\"\n"),
            ("/p/packages/main.toml", ""),
            ("/p/a/easyflow-packages.toml", ""),
            ("/q/easyflow-packages.toml", ""),
            ("/given.toml", ""),
        ]);
        let flow = "/p/a/x.flow";
        // The configured catalog beats a closer decoy.
        assert_eq!(
            discover(flow, None, None, &fs).catalog,
            Some((
                PathBuf::from("/p/packages/main.toml"),
                Origin::Config("/p/easyflow.toml".into())
            ))
        );
        assert_eq!(
            discover(flow, None, Some("/given.toml"), &fs).catalog,
            Some((PathBuf::from("/given.toml"), Origin::Setting))
        );
        assert_eq!(
            discover("/q/r/y.flow", None, None, &fs).catalog,
            Some((PathBuf::from("/q/easyflow-packages.toml"), Origin::Nearest))
        );
        assert_eq!(discover("/z/y.flow", None, None, &fs).catalog, None);
    }

    #[test]
    fn broken_or_dangling_configs_fall_through() {
        let fs = files(&[
            ("/p/easyflow.toml", "topology = \"missing.topology\"\n"),
            ("/p/easyflow.topology", "fallback:1\n"),
        ]);
        let flow = "/p/x.flow";
        assert_eq!(
            discover(flow, None, None, &fs).topology.map(|t| t.1),
            Some(Origin::Nearest)
        );
        let diagnostics = config_diagnostics(
            Path::new("/p/easyflow.toml"),
            "topology = \"missing.topology\"\n",
            &Workspace::default(),
            &fs,
        );
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].code, Code::E0903);
        assert!(diagnostics[0].message.contains("missing.topology"));
        let fs = files(&[
            ("/p/easyflow.toml", "topology = \n"),
            ("/p/easyflow.topology", "fallback:1\n"),
        ]);
        assert_eq!(
            discover(flow, None, None, &fs).topology.map(|t| t.1),
            Some(Origin::Nearest)
        );
    }

    /// Each file a batch of flows uses is read once, and each skipped file
    /// said once, however many flows meet it.
    #[test]
    fn the_loader_reads_and_says_each_file_once() {
        let fs = files(&[
            (
                "/p/easyflow.toml",
                "topology = \"site.topology\"\ncatalog = \"no.toml\"\n",
            ),
            ("/p/site.topology", "compute:1\n"),
            ("/p/easyflow-packages.toml", ""),
        ]);
        let workspace = Workspace::new([PathBuf::from("/p")], PathSettings::default());
        let mut loader = Loader::new(workspace, &fs);
        let a = loader.flow(Path::new("/p/a.flow"));
        let b = loader.flow(Path::new("/p/sub/b.flow"));
        assert_eq!(a.root, Some(PathBuf::from("/p")));
        assert_eq!((&a.topology, &a.catalog), (&b.topology, &b.catalog));
        let loaded = loader.take_loaded();
        let paths = |files: &[(PathBuf, String)]| -> Vec<PathBuf> {
            files.iter().map(|(path, _)| path.clone()).collect()
        };
        assert_eq!(paths(&loaded.configs), [PathBuf::from("/p/easyflow.toml")]);
        assert_eq!(
            paths(&loaded.topologies),
            [PathBuf::from("/p/site.topology")]
        );
        assert_eq!(loaded.catalogs.len(), 1);
        // `no.toml` does not exist: E0903 says it, it is no skipped file.
        assert!(loaded.skipped.is_empty(), "{:?}", loaded.skipped);
        loader.flow(Path::new("/p/c.flow"));
        assert!(loader.take_loaded().topologies.is_empty());
    }
}
