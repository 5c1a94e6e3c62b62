//! The settings that name a file, `easyflow.topology` and `easyflow.catalog`:
//! one that names no file is said, in a warning (`window/showMessage`) and
//! the log, as `easyflow`'s `--topology` and an `easyflow.toml`'s key say
//! theirs. Silent, it would only turn the checks that file feeds off.

use std::path::{Path, PathBuf};

use tower_lsp_server::ls_types::MessageType;

use crate::server::Server;
use crate::state::Settings;

/// A path setting: its name, its value as written, the path it names (a
/// relative value is taken from the folder whose configuration gave it,
/// or from the first workspace folder for a global one), and the folder
/// whose setting it is, in a workspace of several.
struct PathSetting {
    name: &'static str,
    value: PathBuf,
    path: PathBuf,
    folder: Option<PathBuf>,
}

/// Says each path setting that names no file, once for each path it
/// names: each workspace folder's (read outside the state's lock).
pub async fn warn_missing(server: &Server) {
    let settings = {
        let state = server.state.lock();
        let several = state.workspace_folders.len() > 1;
        // The folders' settings, or the global ones when there is no folder.
        let scopes: Vec<(Option<&PathBuf>, Settings, Settings)> =
            if state.workspace_folders.is_empty() {
                vec![(None, state.settings.clone(), state.global_settings())]
            } else {
                state
                    .workspace_folders
                    .iter()
                    .map(|root| {
                        let mut written = state.settings.clone();
                        if let Some(answer) = state.folder_answers.get(root) {
                            written.update(answer);
                        }
                        (Some(root), written, state.folder_settings(root))
                    })
                    .collect()
            };
        let mut settings: Vec<PathSetting> = Vec::new();
        for (root, written, resolved) in scopes {
            for (name, value, path) in [
                ("easyflow.topology", written.topology, resolved.topology),
                ("easyflow.catalog", written.catalog, resolved.catalog),
            ] {
                let (Some(value), Some(path)) = (value, path) else {
                    continue;
                };
                if settings.iter().any(|s| s.name == name && s.path == path) {
                    continue;
                }
                settings.push(PathSetting {
                    name,
                    value,
                    path,
                    folder: root.filter(|_| several).cloned(),
                });
            }
        }
        settings
    };
    for setting in settings {
        if let Some(message) = missing(&setting) {
            tracing::warn!("{message}");
            server
                .client
                .show_message(MessageType::WARNING, format!("EasyFlow: {message}"))
                .await;
        }
    }
}

/// What to say of `setting` when its file does not exist. (A file that
/// exists but cannot be read, a directory or a FIFO, is said as a skipped
/// file when it is read, `skipped.rs`.)
fn missing(setting: &PathSetting) -> Option<String> {
    let error = std::fs::metadata(&setting.path).err()?;
    if error.kind() != std::io::ErrorKind::NotFound {
        return None;
    }
    Some(message(
        setting.name,
        setting.folder.as_deref(),
        &setting.value,
        &setting.path,
    ))
}

fn message(name: &str, folder: Option<&Path>, value: &Path, path: &Path) -> String {
    let full = if value == path {
        String::new()
    } else {
        format!(" ({})", path.display())
    };
    let of_folder = folder.map_or(String::new(), |folder| {
        format!(" of the folder {}", folder.display())
    });
    format!(
        "the setting `{name}`{of_folder} names {}{full}, which does not exist: nothing is read from it",
        value.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_the_setting_and_the_path() {
        assert_eq!(
            message(
                "easyflow.topology",
                None,
                Path::new("cluster/site.topolgy"),
                Path::new("/ws/cluster/site.topolgy")
            ),
            "the setting `easyflow.topology` names cluster/site.topolgy \
             (/ws/cluster/site.topolgy), which does not exist: nothing is read from it"
        );
        assert_eq!(
            message(
                "easyflow.catalog",
                None,
                Path::new("/p.toml"),
                Path::new("/p.toml")
            ),
            "the setting `easyflow.catalog` names /p.toml, which does not exist: \
             nothing is read from it"
        );
        assert_eq!(
            message(
                "easyflow.topology",
                Some(Path::new("/b")),
                Path::new("site.topology"),
                Path::new("/b/site.topology")
            ),
            "the setting `easyflow.topology` of the folder /b names site.topology \
             (/b/site.topology), which does not exist: nothing is read from it"
        );
    }
}
