//! The workspace: the folders a project is checked in, each with the
//! settings that apply to its flows, and the boundary of what an
//! `easyflow.toml` may name. The editor's workspace folders, or what
//! `easyflow check` was asked to check (the directories given, a file's
//! own directory, or the working directory when none is given): one rule
//! for both.

use std::path::{Path, PathBuf};

use crate::disk;

/// The paths a setting gives (the CLI's `--topology` and `--catalog`, the
/// editor's `easyflow.topology` and `easyflow.catalog`), absolute: they
/// come before any `easyflow.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathSettings {
    pub topology: Option<PathBuf>,
    pub catalog: Option<PathBuf>,
}

/// A folder of the workspace and the settings of the flows in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folder {
    pub root: PathBuf,
    pub settings: PathSettings,
}

/// The folders of the workspace (they may come and go, each with settings
/// of its own), and the settings of flows outside every folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Workspace {
    folders: Vec<Folder>,
    outside: PathSettings,
}

impl Workspace {
    /// The folders at `roots`, every flow (in a folder or not) with
    /// `settings`.
    pub fn new(roots: impl IntoIterator<Item = PathBuf>, settings: PathSettings) -> Workspace {
        let mut workspace = Workspace {
            folders: Vec::new(),
            outside: settings.clone(),
        };
        for root in roots {
            workspace.add_folder(Folder {
                root,
                settings: settings.clone(),
            });
        }
        workspace
    }

    /// Adds a folder (a folder already there takes the new settings).
    pub fn add_folder(&mut self, folder: Folder) {
        self.remove_folder(&folder.root);
        self.folders.push(folder);
    }

    pub fn remove_folder(&mut self, root: &Path) {
        self.folders.retain(|folder| folder.root != root);
    }

    pub fn folders(&self) -> &[Folder] {
        &self.folders
    }

    pub fn roots(&self) -> impl Iterator<Item = &Path> {
        self.folders.iter().map(|folder| folder.root.as_path())
    }

    /// The folder that holds `path`, the innermost when folders nest.
    pub fn folder_of(&self, path: &Path) -> Option<&Folder> {
        self.folders
            .iter()
            .filter(|folder| holds(&folder.root, path))
            .max_by_key(|folder| folder.root.components().count())
    }

    /// The settings of the flow at `path`: its folder's, else those of
    /// flows outside every folder.
    pub fn settings_for(&self, path: &Path) -> &PathSettings {
        self.folder_of(path)
            .map_or(&self.outside, |folder| &folder.settings)
    }

    /// Where the paths that the `easyflow.toml` at `config_path` names must
    /// lie: inside the workspace folder that holds it or, outside every
    /// folder, inside its own directory.
    pub fn boundary_of<'a>(&'a self, config_path: &'a Path) -> &'a Path {
        match self.folder_of(config_path) {
            Some(folder) => &folder.root,
            None => config_path.parent().unwrap_or(Path::new("")),
        }
    }
}

/// Whether `root` holds `path`: by their names, else with symbolic links
/// resolved (a folder opened through a link).
fn holds(root: &Path, path: &Path) -> bool {
    path.starts_with(root)
        || matches!(
            (path.canonicalize(), root.canonicalize()),
            (Ok(path), Ok(root)) if path.starts_with(&root)
        )
}

/// Whether `path`, named by the `easyflow.toml` at `config_path`, lies
/// within that file's [`Workspace::boundary_of`] (with symbolic links
/// resolved); `Err` with the boundary when it does not.
pub fn within_boundary(
    workspace: &Workspace,
    config_path: &Path,
    path: &Path,
) -> Result<(), PathBuf> {
    let boundary = workspace.boundary_of(config_path);
    if disk::inside(path, boundary) {
        Ok(())
    } else {
        Err(boundary.to_path_buf())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_innermost_folder_holds_a_path_and_gives_its_settings() {
        let mut workspace = Workspace::new(
            [PathBuf::from("/w")],
            PathSettings {
                topology: Some("/w/site.topology".into()),
                catalog: None,
            },
        );
        let inner = PathSettings {
            topology: Some("/w/inner/other.topology".into()),
            catalog: None,
        };
        workspace.add_folder(Folder {
            root: "/w/inner".into(),
            settings: inner.clone(),
        });
        let flow = Path::new("/w/inner/a/x.flow");
        assert_eq!(
            workspace.folder_of(flow).unwrap().root,
            Path::new("/w/inner")
        );
        assert_eq!(workspace.settings_for(flow), &inner);
        assert_eq!(
            workspace
                .settings_for(Path::new("/elsewhere/y.flow"))
                .topology,
            Some("/w/site.topology".into())
        );
        assert_eq!(
            workspace.boundary_of(Path::new("/w/a/easyflow.toml")),
            Path::new("/w")
        );
        assert_eq!(
            workspace.boundary_of(Path::new("/q/easyflow.toml")),
            Path::new("/q")
        );
        workspace.remove_folder(Path::new("/w/inner"));
        assert_eq!(workspace.roots().collect::<Vec<_>>(), [Path::new("/w")]);
    }
}
