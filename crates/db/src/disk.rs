//! The one place that reads project files from the disk, for the CLI and the
//! server alike. A repository can hold anything, so a read takes only a
//! regular file (never a FIFO, a device, a directory or a socket), opens it
//! without blocking (a FIFO with no writer would block an ordinary open),
//! refuses it before reading when it is over its kind's size limit, and
//! says what it skipped and why in one clear message.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

const MIB: u64 = 1024 * 1024;

/// What a project file is for, which sets its size limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

    /// The kind a path's name says (`easyflow.toml`, `.topology`, a
    /// catalog's `.toml`); anything else is read as a flow.
    pub fn of(path: &Path) -> FileKind {
        if path
            .file_name()
            .is_some_and(|n| n == crate::config::CONFIG_FILE_NAME)
        {
            FileKind::Config
        } else {
            match path.extension().and_then(|e| e.to_str()) {
                Some("topology") => FileKind::Topology,
                Some("toml") => FileKind::Catalog,
                _ => FileKind::Flow,
            }
        }
    }

    fn name(self) -> &'static str {
        match self {
            FileKind::Flow => "a flow",
            FileKind::Topology => "a topology",
            FileKind::Catalog => "a catalog",
            FileKind::Config => "an easyflow.toml",
        }
    }
}

/// Why a file was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    NotFound,
    /// A FIFO, a device, a directory, a socket: what it is.
    NotRegular(&'static str),
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

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotFound => write!(f, "cannot read: no such file"),
            Refusal::NotRegular(what) => {
                write!(
                    f,
                    "not a regular file ({what}); only regular files are read"
                )
            }
            Refusal::SymlinkLoop => write!(f, "a loop of symbolic links"),
            Refusal::TooLarge { size, kind } => write!(
                f,
                "{} is over the limit of {} for {}",
                human_size(*size),
                human_size(kind.limit()),
                kind.name()
            ),
            Refusal::OutsideWorkspace(root) => write!(
                f,
                "outside the workspace ({}); files outside it are not read",
                root.display()
            ),
            Refusal::NotUtf8 { offset } => write!(
                f,
                "not valid UTF-8 (invalid byte at offset {offset}); EasyFlow files are UTF-8 text"
            ),
            Refusal::Io(error) => write!(f, "cannot read: {error}"),
        }
    }
}

/// A refused read: the file and why. Displays as `PATH: REASON`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    pub path: PathBuf,
    pub refusal: Refusal,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.refusal)
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

fn refusal_of(error: &std::io::Error) -> Refusal {
    match error.kind() {
        std::io::ErrorKind::NotFound => Refusal::NotFound,
        std::io::ErrorKind::IsADirectory => Refusal::NotRegular("a directory"),
        _ if is_symlink_loop(error) => Refusal::SymlinkLoop,
        _ => Refusal::Io(error.to_string()),
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

/// What a non-regular file is, for the message.
fn what_is(metadata: &Metadata) -> &'static str {
    let file_type = metadata.file_type();
    if file_type.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

/// Whether `metadata` is of a file that may be read as `kind`.
fn check_metadata(metadata: &Metadata, kind: FileKind) -> Result<(), Refusal> {
    if !metadata.is_file() {
        return Err(Refusal::NotRegular(what_is(metadata)));
    }
    if metadata.len() > kind.limit() {
        return Err(Refusal::TooLarge {
            size: metadata.len(),
            kind,
        });
    }
    Ok(())
}

/// Whether the file at `path` would be read as `kind`, without reading it
/// (following symbolic links, as a read does).
pub fn probe(path: &Path, kind: FileKind) -> Result<(), ReadError> {
    let refused = |refusal| ReadError {
        path: path.to_path_buf(),
        refusal,
    };
    let metadata = std::fs::metadata(path).map_err(|e| refused(refusal_of(&e)))?;
    check_metadata(&metadata, kind).map_err(refused)
}

/// Reads the file at `path` as `kind`: a regular file of at most the
/// kind's limit, in UTF-8. Never blocks on a FIFO and never reads past the
/// limit, even when the file grows while it is read.
pub fn read(path: &Path, kind: FileKind) -> Result<String, ReadError> {
    let bytes = read_bytes(path, kind)?;
    String::from_utf8(bytes).map_err(|e| ReadError {
        path: path.to_path_buf(),
        refusal: Refusal::NotUtf8 {
            offset: e.utf8_error().valid_up_to(),
        },
    })
}

/// As [`read`], without requiring UTF-8: for a package catalog, whose
/// bytes that are not UTF-8 are its own diagnostic (E0810).
pub fn read_bytes(path: &Path, kind: FileKind) -> Result<Vec<u8>, ReadError> {
    let refused = |refusal| ReadError {
        path: path.to_path_buf(),
        refusal,
    };
    let file = open_nonblocking(path).map_err(|e| refused(refusal_of(&e)))?;
    // The opened file's own metadata: what was checked is what is read.
    let metadata = file.metadata().map_err(|e| refused(refusal_of(&e)))?;
    check_metadata(&metadata, kind).map_err(refused)?;
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(kind.limit() + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refused(refusal_of(&e)))?;
    if bytes.len() as u64 > kind.limit() {
        return Err(refused(Refusal::TooLarge {
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
        assert_eq!(FileKind::of(Path::new("a/easyflow.toml")), FileKind::Config);
        assert_eq!(
            FileKind::of(Path::new("a/site.topology")),
            FileKind::Topology
        );
        assert_eq!(FileKind::of(Path::new("packages.toml")), FileKind::Catalog);
        assert_eq!(FileKind::of(Path::new("x.flow")), FileKind::Flow);
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
        let refusal = |path: &Path, kind| read(path, kind).unwrap_err().refusal;
        assert_eq!(
            refusal(&fifo, FileKind::Topology),
            Refusal::NotRegular("a FIFO")
        );
        assert_eq!(
            refusal(Path::new("/dev/zero"), FileKind::Topology),
            Refusal::NotRegular("a character device")
        );
        assert_eq!(
            refusal(dir.path(), FileKind::Flow),
            Refusal::NotRegular("a directory")
        );
        let looped = dir.path().join("loop.topology");
        std::os::unix::fs::symlink(&looped, &looped).unwrap();
        assert_eq!(refusal(&looped, FileKind::Topology), Refusal::SymlinkLoop);
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
            refusal(&dir.path().join("missing.flow"), FileKind::Flow),
            Refusal::NotFound
        );
        let text = dir.path().join("ok.flow");
        std::fs::write(&text, "step A runs P ();\n").unwrap();
        assert_eq!(read(&text, FileKind::Flow).unwrap(), "step A runs P ();\n");
        assert!(probe(&text, FileKind::Flow).is_ok());
        assert!(probe(&huge, FileKind::Config).is_err());
        std::fs::write(&text, b"ok\xff").unwrap();
        assert_eq!(
            refusal(&text, FileKind::Flow),
            Refusal::NotUtf8 { offset: 2 }
        );
    }
}
