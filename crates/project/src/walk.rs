//! Finding a project's files: the one walk of a folder, for `easyflow
//! check` and `fmt` and for the server's indexing of its workspace.

use std::path::{Path, PathBuf};

use crate::disk::{self, FileKind, ReadError, SkipReason, SpecialFile};

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walk {
    /// The files, in sorted order.
    pub files: Vec<PathBuf>,
    /// What is named like such a file but is no regular file (a FIFO, a
    /// device, a loop of links), with why: to be said. (A directory is
    /// walked into, never said.)
    pub skipped: Vec<ReadError>,
    /// What could not be walked (an unreadable folder), as the walker
    /// says it.
    pub errors: Vec<String>,
}

/// The files under `dir` whose names say they are of one of `kinds`
/// ([`FileKind::by_name`]), leaving out what `.gitignore` files exclude
/// (the `ignore` crate's walk, as ripgrep's). A regular file over its size
/// limit is found: reading it says why it is skipped.
pub fn walk(dir: &Path, kinds: &[FileKind]) -> Walk {
    let mut walk = Walk::default();
    let entries = ignore::WalkBuilder::new(dir)
        .sort_by_file_path(|a, b| a.cmp(b))
        .build();
    for entry in entries {
        let path = match entry {
            Ok(entry) => entry.into_path(),
            Err(error) => {
                walk.errors.push(error.to_string());
                continue;
            }
        };
        let Some(kind) = FileKind::by_name(&path).filter(|kind| kinds.contains(kind)) else {
            continue;
        };
        match disk::probe(&path, kind) {
            Ok(()) => walk.files.push(path),
            Err(error) => match error.reason {
                SkipReason::TooLarge { .. } => walk.files.push(path),
                SkipReason::NotRegular(SpecialFile::Directory) => {}
                _ => walk.skipped.push(error),
            },
        }
    }
    walk.files.sort();
    walk
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn finds_the_kinds_asked_for_and_says_what_is_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("b/inner.flow")).unwrap();
        std::fs::write(root.join("b/z.flow"), "").unwrap();
        std::fs::write(root.join("a.flow"), "").unwrap();
        std::fs::write(root.join("site.topology"), "").unwrap();
        std::fs::write(root.join("notes.txt"), "").unwrap();
        std::os::unix::fs::symlink("loop.flow", root.join("loop.flow")).unwrap();
        let found = walk(root, &[FileKind::Flow]);
        assert_eq!(found.files, [root.join("a.flow"), root.join("b/z.flow")]);
        let skipped: Vec<_> = found.skipped.iter().map(|e| &e.reason).collect();
        assert_eq!(skipped, [&SkipReason::SymlinkLoop]);
        let found = walk(root, &[FileKind::Flow, FileKind::Topology]);
        assert_eq!(found.files.len(), 3);
    }
}
