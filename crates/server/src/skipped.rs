//! Files the server skipped (`easyflow_project::SkipReason`: not a regular
//! file, a loop of symbolic links, over the size limit, not UTF-8, a path
//! an `easyflow.toml` names outside the workspace), shown to the user: the
//! log alone is not where a user looks. Each is said once (a file and its
//! reason), in one `window/showMessage` warning per batch: what the
//! handler of one message, one request on a closed file or the workspace's
//! indexing skipped. Whatever reads the disk records here (`record`); the
//! places that end such a batch `show` it, before anything after them is
//! answered, so a client sees the warning before the answers that follow.

use std::collections::HashSet;
use std::fmt::Display;
use std::sync::Mutex;

use tower_lsp_server::Client;
use tower_lsp_server::ls_types::MessageType;

/// The most skipped files one message lists (the log has them all).
const MAX_LISTED: usize = 5;

pub struct SkippedFiles {
    client: Option<Client>,
    lists: Mutex<Lists>,
}

#[derive(Default)]
struct Lists {
    /// Recorded, not shown yet, in order.
    new: Vec<String>,
    /// Every one recorded (the file and why), so none is shown twice.
    seen: HashSet<String>,
}

impl SkippedFiles {
    /// Shown to `client`; `None` only records (tests of the state).
    pub fn new(client: Option<Client>) -> SkippedFiles {
        SkippedFiles {
            client,
            lists: Mutex::default(),
        }
    }

    /// A skipped file (`PATH: why`, an `easyflow_project::ReadError` or
    /// `Skipped`): logged, and kept for the next message unless it was
    /// shown already.
    pub fn record(&self, skipped: impl Display) {
        let line = skipped.to_string();
        tracing::warn!("skipped {line}");
        let mut lists = self.lists.lock().unwrap_or_else(|e| e.into_inner());
        if lists.seen.insert(line.clone()) {
            lists.new.push(line);
        }
    }

    /// Whether anything was recorded since the last time it was shown.
    pub fn has_new(&self) -> bool {
        !self
            .lists
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .new
            .is_empty()
    }

    /// Shows what was recorded since the last time, in one warning.
    pub async fn show(&self) {
        let new = std::mem::take(&mut self.lists.lock().unwrap_or_else(|e| e.into_inner()).new);
        if let (Some(message), Some(client)) = (message(&new), &self.client) {
            client.show_message(MessageType::WARNING, message).await;
        }
    }
}

/// The warning for these skipped files, `None` for none.
fn message(skipped: &[String]) -> Option<String> {
    match skipped {
        [] => None,
        [one] => Some(format!("EasyFlow skipped {one}")),
        many => {
            let mut message = format!("EasyFlow skipped {} files:", many.len());
            for line in many.iter().take(MAX_LISTED) {
                message.push_str("\n- ");
                message.push_str(line);
            }
            if many.len() > MAX_LISTED {
                message.push_str(&format!(
                    "\n- and {} more (the server's log lists them)",
                    many.len() - MAX_LISTED
                ));
            }
            Some(message)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_message_lists_a_few_files_and_counts_the_rest() {
        assert_eq!(message(&[]), None);
        assert_eq!(
            message(&["a.flow: a loop of symbolic links".into()]).unwrap(),
            "EasyFlow skipped a.flow: a loop of symbolic links"
        );
        let many: Vec<String> = (0..7).map(|i| format!("f{i}.flow: why")).collect();
        assert_eq!(
            message(&many).unwrap(),
            "EasyFlow skipped 7 files:\n- f0.flow: why\n- f1.flow: why\n- f2.flow: why\n\
             - f3.flow: why\n- f4.flow: why\n- and 2 more (the server's log lists them)"
        );
    }

    #[test]
    fn a_file_is_said_once() {
        let skipped = SkippedFiles::new(None);
        skipped.record("a.flow: why");
        skipped.record("a.flow: why");
        skipped.record("a.flow: another reason");
        let lists = skipped.lists.lock().unwrap();
        assert_eq!(lists.new, ["a.flow: why", "a.flow: another reason"]);
    }
}
