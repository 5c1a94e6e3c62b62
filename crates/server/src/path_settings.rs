//! The settings that name a file, `easyflow.topology` and `easyflow.catalog`:
//! one that names no file is said, in a warning (`window/showMessage`) and
//! the log, as `easyflow`'s `--topology` and an `easyflow.toml`'s key say
//! theirs. Silent, it would only turn the checks that file feeds off.

use std::path::{Path, PathBuf};

use tower_lsp_server::ls_types::MessageType;

use crate::server::Server;

/// A path setting: its name, its value as written, and the path it names
/// (a relative value is taken from the first workspace folder).
struct PathSetting {
    name: &'static str,
    value: PathBuf,
    path: PathBuf,
}

/// Says each path setting that names no file (read outside the state's lock).
pub async fn warn_missing(server: &Server) {
    let settings = {
        let state = server.state.lock();
        [
            (
                "easyflow.topology",
                &state.settings.topology,
                state.topology_setting(),
            ),
            (
                "easyflow.catalog",
                &state.settings.catalog,
                state.catalog_setting(),
            ),
        ]
        .into_iter()
        .filter_map(|(name, value, path)| {
            Some(PathSetting {
                name,
                value: value.clone()?,
                path: path?,
            })
        })
        .collect::<Vec<_>>()
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
    Some(message(setting.name, &setting.value, &setting.path))
}

fn message(name: &str, value: &Path, path: &Path) -> String {
    let full = if value == path {
        String::new()
    } else {
        format!(" ({})", path.display())
    };
    format!(
        "the setting `{name}` names {}{full}, which does not exist: nothing is read from it",
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
                Path::new("cluster/site.topolgy"),
                Path::new("/ws/cluster/site.topolgy")
            ),
            "the setting `easyflow.topology` names cluster/site.topolgy \
             (/ws/cluster/site.topolgy), which does not exist: nothing is read from it"
        );
        assert_eq!(
            message(
                "easyflow.catalog",
                Path::new("/p.toml"),
                Path::new("/p.toml")
            ),
            "the setting `easyflow.catalog` names /p.toml, which does not exist: \
             nothing is read from it"
        );
    }
}
