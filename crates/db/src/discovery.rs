//! Which topology (`topology.md` §1) and which package catalog
//! (`catalog.md`) a flow uses, by the same rule: the setting, else the key
//! of the nearest `easyflow.toml`, else the nearest file of the known name.
//! The host (CLI or server) runs this against its view of the file system,
//! then sets the flow's `topology` and `catalog` inputs: the analysis itself
//! never touches the disk.

use std::path::{Path, PathBuf};

use easyflow_diagnostics::{Code, Diagnostic};

use crate::config::{Config, ConfiguredPath};
use crate::disk::{self, FileKind, ReadError, Refusal};

pub use crate::config::{CONFIG_FILE_NAME, parse_config};
/// Name of the topology file searched upwards when no configuration names one.
pub const TOPOLOGY_FILE_NAME: &str = "easyflow.topology";

/// What discovery may read. Open editor documents override the disk.
pub trait FileSystem {
    /// The text of the file at `path`, read as `kind` (`disk::read`).
    fn read(&self, path: &Path, kind: FileKind) -> Result<String, ReadError>;
    /// Whether `path` would be read as `kind`, without reading it.
    fn probe(&self, path: &Path, kind: FileKind) -> Result<(), ReadError> {
        self.read(path, kind).map(drop)
    }
    /// Whether a regular file is at `path` (an oversized one too: reading it
    /// then says why it is skipped).
    fn exists(&self, path: &Path) -> bool {
        self.probe(path, FileKind::Flow).is_ok()
    }
    /// The workspace folders: a path an `easyflow.toml` names is read only
    /// inside the folder that holds that file (or, outside every folder,
    /// inside the file's own directory).
    fn workspace_roots(&self) -> &[PathBuf] {
        &[]
    }
}

/// The real file system, through [`disk`], within some workspace folders.
#[derive(Debug, Clone, Default)]
pub struct Disk {
    pub roots: Vec<PathBuf>,
}

impl Disk {
    pub fn within(roots: Vec<PathBuf>) -> Disk {
        Disk { roots }
    }
}

impl FileSystem for Disk {
    fn read(&self, path: &Path, kind: FileKind) -> Result<String, ReadError> {
        disk::read(path, kind)
    }

    fn probe(&self, path: &Path, kind: FileKind) -> Result<(), ReadError> {
        disk::probe(path, kind)
    }

    fn exists(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn workspace_roots(&self) -> &[PathBuf] {
        &self.roots
    }
}

/// Where a flow's topology or catalog came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TopologyOrigin {
    /// The flag (`--topology`, `--catalog`) or the editor setting
    /// (`easyflow.topology`, `easyflow.catalog`).
    Setting,
    /// The key (`topology`, `catalog`) of this `easyflow.toml`.
    Config(PathBuf),
    /// The nearest file of the name (`easyflow.topology`,
    /// `easyflow-packages.toml`).
    Nearest,
}

/// Where a flow's catalog came from: as for topologies.
pub type CatalogOrigin = TopologyOrigin;

/// Name of the catalog file searched upwards when no configuration names one.
pub const CATALOG_FILE_NAME: &str = easyflow_catalog::CATALOG_FILE_NAME;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Discovery {
    pub topology: Option<(PathBuf, TopologyOrigin)>,
    /// The nearest `easyflow.toml`, if any: its diagnostics are reported.
    pub config: Option<PathBuf>,
}

/// The `[format]` settings for `flow`: those of the nearest `easyflow.toml`
/// (`config.md`), or the defaults.
pub fn format_settings(flow: &Path, fs: &dyn FileSystem) -> crate::config::FormatSettings {
    nearest_config(flow, fs)
        .and_then(|config| fs.read(&config, FileKind::Config).ok())
        .map(|text| parse_config(&text).format_settings())
        .unwrap_or_default()
}

/// The nearest `easyflow.toml` above `flow` (searching from its directory).
pub fn nearest_config(flow: &Path, fs: &dyn FileSystem) -> Option<PathBuf> {
    nearest(flow, CONFIG_FILE_NAME, fs)
}

fn nearest(flow: &Path, name: &str, fs: &dyn FileSystem) -> Option<PathBuf> {
    flow.parent()?
        .ancestors()
        .map(|dir| dir.join(name))
        .find(|candidate| fs.exists(candidate))
}

/// The topology of `flow`: the setting if it names an existing file, else
/// the nearest configuration's `topology` (relative to that file) if it
/// can be read, else the nearest `easyflow.topology`.
pub fn discover(flow: &Path, setting: Option<&Path>, fs: &dyn FileSystem) -> Discovery {
    let config = nearest_config(flow, fs);
    if let Some(setting) = setting.filter(|path| fs.exists(path)) {
        return Discovery {
            topology: Some((setting.to_path_buf(), TopologyOrigin::Setting)),
            config,
        };
    }
    if let Some(config_path) = &config {
        let parsed = fs
            .read(config_path, FileKind::Config)
            .map(|text| parse_config(&text))
            .unwrap_or_default();
        if let Some(path) = configured_topology(config_path, &parsed)
            .filter(|path| usable(config_path, path, FileKind::Topology, fs).is_ok())
        {
            let origin = TopologyOrigin::Config(config_path.clone());
            return Discovery {
                topology: Some((path, origin)),
                config,
            };
        }
    }
    let topology =
        nearest(flow, TOPOLOGY_FILE_NAME, fs).map(|path| (path, TopologyOrigin::Nearest));
    Discovery { topology, config }
}

/// The package catalog of `flow`: the setting if it names an existing file,
/// else the nearest configuration's `catalog` (relative to that file) if it
/// can be read, else the nearest `easyflow-packages.toml`. `None`: no catalog.
pub fn discover_catalog(
    flow: &Path,
    setting: Option<&Path>,
    fs: &dyn FileSystem,
) -> Option<(PathBuf, CatalogOrigin)> {
    if let Some(setting) = setting.filter(|path| fs.exists(path)) {
        return Some((setting.to_path_buf(), CatalogOrigin::Setting));
    }
    if let Some(config_path) = nearest_config(flow, fs) {
        let parsed = fs
            .read(&config_path, FileKind::Config)
            .map(|text| parse_config(&text))
            .unwrap_or_default();
        if let Some(path) = configured_catalog(&config_path, &parsed)
            .filter(|path| usable(&config_path, path, FileKind::Catalog, fs).is_ok())
        {
            return Some((path, CatalogOrigin::Config(config_path)));
        }
    }
    nearest(flow, CATALOG_FILE_NAME, fs).map(|path| (path, CatalogOrigin::Nearest))
}

/// The catalog path a usable configuration names, resolved against its directory.
pub fn configured_catalog(config_path: &Path, config: &Config) -> Option<PathBuf> {
    if !config.is_usable() {
        return None;
    }
    let relative = &config.catalog.as_ref()?.path;
    Some(config_path.parent().unwrap_or(Path::new("")).join(relative))
}

/// The topology path a usable configuration names, resolved against its directory.
pub fn configured_topology(config_path: &Path, config: &Config) -> Option<PathBuf> {
    if !config.is_usable() {
        return None;
    }
    let relative = &config.topology.as_ref()?.path;
    Some(config_path.parent().unwrap_or(Path::new("")).join(relative))
}

/// Whether `path`, named by the `easyflow.toml` at `config_path`, may be
/// read as `kind`: inside that file's workspace folder, and a file
/// `disk::read` takes.
pub fn usable(
    config_path: &Path,
    path: &Path,
    kind: FileKind,
    fs: &dyn FileSystem,
) -> Result<(), ReadError> {
    let config_dir = config_path.parent().unwrap_or(Path::new(""));
    let root = fs
        .workspace_roots()
        .iter()
        .find(|root| disk::inside(config_path, root))
        .map_or(config_dir, PathBuf::as_path);
    fs.probe(path, kind)?;
    if !disk::inside(path, root) {
        return Err(ReadError {
            path: path.to_path_buf(),
            refusal: Refusal::OutsideWorkspace(root.to_path_buf()),
        });
    }
    Ok(())
}

/// The paths a usable `easyflow.toml` names (`topology`, `catalog`) that
/// cannot be used, each with why ([`usable`]): what E0903 reports.
pub fn refused_paths<'c>(
    config_path: &Path,
    config: &'c Config,
    fs: &dyn FileSystem,
) -> Vec<(&'c ConfiguredPath, ReadError)> {
    if !config.is_usable() {
        return Vec::new();
    }
    let base = config_path.parent().unwrap_or(Path::new(""));
    let configured = [
        (&config.topology, FileKind::Topology),
        (&config.catalog, FileKind::Catalog),
    ];
    configured
        .into_iter()
        .filter_map(|(configured, kind)| {
            let configured = configured.as_ref()?;
            let path = base.join(&configured.path);
            let refusal = usable(config_path, &path, kind, fs).err()?;
            Some((configured, refusal))
        })
        .collect()
}

/// Every diagnostic of an `easyflow.toml`: its own (E0901, W0902) and E0903
/// for each configured path that does not exist or cannot be read.
pub fn config_diagnostics(config_path: &Path, text: &str, fs: &dyn FileSystem) -> Vec<Diagnostic> {
    let config = parse_config(text);
    let mut diagnostics = config.diagnostics.clone();
    for (configured, error) in refused_paths(config_path, &config, fs) {
        let message = match error.refusal {
            Refusal::NotFound => format!(
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

    struct Files(HashMap<PathBuf, String>);

    impl FileSystem for Files {
        fn read(&self, path: &Path, _: FileKind) -> Result<String, ReadError> {
            self.0.get(path).cloned().ok_or_else(|| ReadError {
                path: path.to_path_buf(),
                refusal: Refusal::NotFound,
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

    #[test]
    fn config_beats_a_closer_decoy_and_the_setting_beats_both() {
        let fs = files(&[
            ("/p/easyflow.toml", "topology = \"cluster/site.topology\"\n"),
            ("/p/cluster/site.topology", "compute:1\n"),
            ("/p/a/b/easyflow.topology", "decoy:1\n"),
            ("/other/given.topology", "given:1\n"),
        ]);
        let flow = Path::new("/p/a/b/x.flow");
        let found = discover(flow, None, &fs);
        assert_eq!(
            found.topology,
            Some((
                PathBuf::from("/p/cluster/site.topology"),
                TopologyOrigin::Config("/p/easyflow.toml".into())
            ))
        );
        assert_eq!(found.config, Some(PathBuf::from("/p/easyflow.toml")));
        let given = discover(flow, Some(Path::new("/other/given.topology")), &fs);
        assert_eq!(
            given.topology,
            Some((
                PathBuf::from("/other/given.topology"),
                TopologyOrigin::Setting
            ))
        );
        // A setting that names nothing falls through to the next rule.
        let missing = discover(flow, Some(Path::new("/nowhere.topology")), &fs);
        assert_eq!(missing.topology, found.topology);
    }

    #[test]
    fn nearest_topology_when_no_config_names_one() {
        let fs = files(&[
            ("/p/easyflow.toml", "[format]\nwidth = 80\n"),
            ("/p/easyflow.topology", "outer:1\n"),
            ("/p/a/easyflow.topology", "inner:1\n"),
        ]);
        let found = discover(Path::new("/p/a/b/x.flow"), None, &fs);
        assert_eq!(
            found.topology,
            Some((
                PathBuf::from("/p/a/easyflow.topology"),
                TopologyOrigin::Nearest
            ))
        );
        assert_eq!(
            discover(Path::new("/q/x.flow"), None, &fs),
            Discovery::default()
        );
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
        let flow = Path::new("/p/a/x.flow");
        // The configured catalog beats a closer decoy.
        assert_eq!(
            discover_catalog(flow, None, &fs),
            Some((
                PathBuf::from("/p/packages/main.toml"),
                CatalogOrigin::Config("/p/easyflow.toml".into())
            ))
        );
        assert_eq!(
            discover_catalog(flow, Some(Path::new("/given.toml")), &fs),
            Some((PathBuf::from("/given.toml"), CatalogOrigin::Setting))
        );
        assert_eq!(
            discover_catalog(Path::new("/q/r/y.flow"), None, &fs),
            Some((
                PathBuf::from("/q/easyflow-packages.toml"),
                CatalogOrigin::Nearest
            ))
        );
        assert_eq!(discover_catalog(Path::new("/z/y.flow"), None, &fs), None);
    }

    #[test]
    fn broken_or_dangling_configs_fall_through() {
        let fs = files(&[
            ("/p/easyflow.toml", "topology = \"missing.topology\"\n"),
            ("/p/easyflow.topology", "fallback:1\n"),
        ]);
        let flow = Path::new("/p/x.flow");
        assert_eq!(
            discover(flow, None, &fs).topology.map(|t| t.1),
            Some(TopologyOrigin::Nearest)
        );
        let diagnostics = config_diagnostics(
            Path::new("/p/easyflow.toml"),
            "topology = \"missing.topology\"\n",
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
            discover(flow, None, &fs).topology.map(|t| t.1),
            Some(TopologyOrigin::Nearest)
        );
    }
}
