//! The one place that reads project files from the disk, for the CLI and the
//! server alike. A repository can hold anything, so a read takes only a
//! regular file (never a FIFO, a device, a directory or a socket), opens it
//! without blocking (a FIFO with no writer would block an ordinary open),
//! refuses it before reading when it is over its kind's size limit, and
//! says what it skipped and why ([`SkipReason`]) in one clear message.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::config::CONFIG_FILE_NAME;

const MIB: u64 = 1024 * 1024;

/// What a project file is: what it is read and checked as, and its size
/// limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileKind {
    Flow,
    Topology,
    Catalog,
    Config,
}

impl FileKind {
    /// The largest file of this kind that is read: far above any real
    /// project's, far below what would exhaust memory.
    pub const fn limit(self) -> u64 {
        match self {
            FileKind::Flow => 64 * MIB,
            FileKind::Topology | FileKind::Catalog => 16 * MIB,
            FileKind::Config => MIB,
        }
    }

    /// The kind a path's name says: `easyflow.toml`, a `.flow`, a
    /// `.topology`, any other `.toml` a catalog (a catalog may have any
    /// name: `easyflow-packages.toml` is only the one found without being
    /// named). `None` for any other name: then only how the file is used
    /// says what it is (a topology an `easyflow.toml` names, a file given
    /// to `easyflow topology`).
    pub fn by_name(path: &Path) -> Option<FileKind> {
        if path.file_name().is_some_and(|n| n == CONFIG_FILE_NAME) {
            return Some(FileKind::Config);
        }
        match path.extension()?.to_str()? {
            "flow" => Some(FileKind::Flow),
            "topology" => Some(FileKind::Topology),
            "toml" => Some(FileKind::Catalog),
            _ => None,
        }
    }

    /// What the kind is called in messages: "a flow", "an easyflow.toml".
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Flow => "a flow",
            FileKind::Topology => "a topology",
            FileKind::Catalog => "a catalog",
            FileKind::Config => "an easyflow.toml",
        }
    }
}

/// What a file that is not a regular file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecialFile {
    Directory,
    Fifo,
    CharacterDevice,
    BlockDevice,
    Socket,
    /// Anything else the system has.
    Other,
}

impl SpecialFile {
    fn of(metadata: &Metadata) -> SpecialFile {
        let file_type = metadata.file_type();
        if file_type.is_dir() {
            return SpecialFile::Directory;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if file_type.is_fifo() {
                return SpecialFile::Fifo;
            }
            if file_type.is_char_device() {
                return SpecialFile::CharacterDevice;
            }
            if file_type.is_block_device() {
                return SpecialFile::BlockDevice;
            }
            if file_type.is_socket() {
                return SpecialFile::Socket;
            }
        }
        SpecialFile::Other
    }
}

impl fmt::Display for SpecialFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SpecialFile::Directory => "a directory",
            SpecialFile::Fifo => "a FIFO",
            SpecialFile::CharacterDevice => "a character device",
            SpecialFile::BlockDevice => "a block device",
            SpecialFile::Socket => "a socket",
            SpecialFile::Other => "not a file",
        })
    }
}

/// Why a file was not read: the one list of the reasons a file is skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    NotFound,
    /// A FIFO, a device, a directory, a socket: what it is.
    NotRegular(SpecialFile),
    SymlinkLoop,
    TooLarge {
        size: u64,
        kind: FileKind,
    },
    /// Configured in an `easyflow.toml` but outside its workspace.
    OutsideWorkspace(PathBuf),
    NotUtf8 {
        offset: usize,
    },
    Io(String),
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::NotFound => write!(f, "cannot read: no such file"),
            SkipReason::NotRegular(what) => {
                write!(
                    f,
                    "not a regular file ({what}); only regular files are read"
                )
            }
            SkipReason::SymlinkLoop => write!(f, "a loop of symbolic links"),
            SkipReason::TooLarge { size, kind } => write!(
                f,
                "{} is over the limit of {} for {}",
                human_size(*size),
                human_size(kind.limit()),
                kind.name()
            ),
            SkipReason::OutsideWorkspace(root) => write!(
                f,
                "outside the workspace ({}); files outside it are not read",
                root.display()
            ),
            SkipReason::NotUtf8 { offset } => write!(
                f,
                "not valid UTF-8 (invalid byte at offset {offset}); EasyFlow files are UTF-8 text"
            ),
            SkipReason::Io(error) => write!(f, "cannot read: {error}"),
        }
    }
}

/// A refused read: the file and why. Displays as `PATH: REASON`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    pub path: PathBuf,
    pub reason: SkipReason,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for ReadError {}

/// `1.5 GiB`, `16 MiB`, `512 bytes`.
fn human_size(bytes: u64) -> String {
    let units = [("GiB", 1024 * MIB), ("MiB", MIB), ("KiB", 1024)];
    for (unit, size) in units {
        if bytes >= size {
            let whole = bytes / size;
            let tenths = (bytes % size) * 10 / size;
            return if tenths == 0 {
                format!("{whole} {unit}")
            } else {
                format!("{whole}.{tenths} {unit}")
            };
        }
    }
    format!("{bytes} bytes")
}

fn reason_of(error: &std::io::Error) -> SkipReason {
    match error.kind() {
        std::io::ErrorKind::NotFound => SkipReason::NotFound,
        std::io::ErrorKind::IsADirectory => SkipReason::NotRegular(SpecialFile::Directory),
        _ if is_symlink_loop(error) => SkipReason::SymlinkLoop,
        _ => SkipReason::Io(error.to_string()),
    }
}

#[cfg(unix)]
fn is_symlink_loop(error: &std::io::Error) -> bool {
    error.raw_os_error() == Some(libc::ELOOP)
}

#[cfg(not(unix))]
fn is_symlink_loop(_: &std::io::Error) -> bool {
    false
}

/// Whether `metadata` is of a file that may be read as `kind`.
fn check_metadata(metadata: &Metadata, kind: FileKind) -> Result<(), SkipReason> {
    if !metadata.is_file() {
        return Err(SkipReason::NotRegular(SpecialFile::of(metadata)));
    }
    if metadata.len() > kind.limit() {
        return Err(SkipReason::TooLarge {
            size: metadata.len(),
            kind,
        });
    }
    Ok(())
}

/// Whether the file at `path` would be read as `kind`, without reading it
/// (following symbolic links, as a read does).
pub fn probe(path: &Path, kind: FileKind) -> Result<(), ReadError> {
    let refused = |reason| ReadError {
        path: path.to_path_buf(),
        reason,
    };
    let metadata = std::fs::metadata(path).map_err(|e| refused(reason_of(&e)))?;
    check_metadata(&metadata, kind).map_err(refused)
}

/// Reads the file at `path` as `kind`: a regular file of at most the
/// kind's limit, in UTF-8. Never blocks on a FIFO and never reads past the
/// limit, even when the file grows while it is read.
pub fn read(path: &Path, kind: FileKind) -> Result<String, ReadError> {
    let bytes = read_bytes(path, kind)?;
    String::from_utf8(bytes).map_err(|e| ReadError {
        path: path.to_path_buf(),
        reason: SkipReason::NotUtf8 {
            offset: e.utf8_error().valid_up_to(),
        },
    })
}

/// As [`read`], without requiring UTF-8: for a package catalog, whose
/// bytes that are not UTF-8 are its own diagnostic (E0810).
pub fn read_bytes(path: &Path, kind: FileKind) -> Result<Vec<u8>, ReadError> {
    let refused = |reason| ReadError {
        path: path.to_path_buf(),
        reason,
    };
    let file = open_nonblocking(path).map_err(|e| refused(reason_of(&e)))?;
    // The opened file's own metadata: what was checked is what is read.
    let metadata = file.metadata().map_err(|e| refused(reason_of(&e)))?;
    check_metadata(&metadata, kind).map_err(refused)?;
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(kind.limit() + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refused(reason_of(&e)))?;
    if bytes.len() as u64 > kind.limit() {
        return Err(refused(SkipReason::TooLarge {
            size: bytes.len() as u64,
            kind,
        }));
    }
    Ok(bytes)
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

/// Whether `path` (with symbolic links resolved) lies inside `root`; a
/// path that cannot be resolved is not refused here (its read says why).
pub fn inside(path: &Path, root: &Path) -> bool {
    match (path.canonicalize(), root.canonicalize()) {
        (Ok(path), Ok(root)) => path.starts_with(root),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human_size(16 * MIB), "16 MiB");
        assert_eq!(human_size(2048 * MIB), "2 GiB");
        assert_eq!(human_size(1536 * 1024), "1.5 MiB");
        assert_eq!(human_size(12), "12 bytes");
    }

    #[test]
    fn kinds_by_name() {
        let kind = |path: &str| FileKind::by_name(Path::new(path));
        assert_eq!(kind("a/easyflow.toml"), Some(FileKind::Config));
        assert_eq!(kind("a/site.topology"), Some(FileKind::Topology));
        assert_eq!(kind("packages.toml"), Some(FileKind::Catalog));
        assert_eq!(kind("easyflow-packages.toml"), Some(FileKind::Catalog));
        assert_eq!(kind("x.flow"), Some(FileKind::Flow));
        assert_eq!(kind("site.topo"), None);
        assert_eq!(kind("README"), None);
    }

    #[cfg(unix)]
    #[test]
    fn refuses_what_is_not_a_regular_file_within_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.topology");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let reason = |path: &Path, kind| read(path, kind).unwrap_err().reason;
        assert_eq!(
            reason(&fifo, FileKind::Topology),
            SkipReason::NotRegular(SpecialFile::Fifo)
        );
        assert_eq!(
            reason(Path::new("/dev/zero"), FileKind::Topology),
            SkipReason::NotRegular(SpecialFile::CharacterDevice)
        );
        assert_eq!(
            reason(dir.path(), FileKind::Flow),
            SkipReason::NotRegular(SpecialFile::Directory)
        );
        let looped = dir.path().join("loop.topology");
        std::os::unix::fs::symlink(&looped, &looped).unwrap();
        assert_eq!(reason(&looped, FileKind::Topology), SkipReason::SymlinkLoop);
        let huge = dir.path().join("huge.toml");
        File::create(&huge)
            .unwrap()
            .set_len(2 * 1024 * MIB)
            .unwrap();
        let error = read(&huge, FileKind::Config).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "{}: 2 GiB is over the limit of 1 MiB for an easyflow.toml",
                huge.display()
            )
        );
        assert_eq!(
            reason(&dir.path().join("missing.flow"), FileKind::Flow),
            SkipReason::NotFound
        );
        let text = dir.path().join("ok.flow");
        std::fs::write(&text, "step A runs P ();\n").unwrap();
        assert_eq!(read(&text, FileKind::Flow).unwrap(), "step A runs P ();\n");
        assert!(probe(&text, FileKind::Flow).is_ok());
        assert!(probe(&huge, FileKind::Config).is_err());
        std::fs::write(&text, b"ok\xff").unwrap();
        assert_eq!(
            reason(&text, FileKind::Flow),
            SkipReason::NotUtf8 { offset: 2 }
        );
    }
}
