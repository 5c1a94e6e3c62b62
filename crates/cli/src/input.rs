//! The files the commands are given: found under the paths (the project
//! loader's walk), each of the kind its name says (`FileKind::by_name`),
//! read through `easyflow_project::disk` (regular files only, within their
//! kind's size limit), or from standard input for `-`.

use std::io::Read;
use std::path::{Path, PathBuf};

use easyflow_fmt::Options as FormatOptions;
use easyflow_project::{FileKind, Loader, Skipped, disk, walk};

/// Reads a source file as `kind` (its size limit), from standard input for
/// `-`. Errors name the file.
pub fn read_source(path: &Path, kind: FileKind) -> Result<String, String> {
    if path != Path::new("-") {
        return disk::read(path, kind).map_err(|e| e.to_string());
    }
    let limit = kind.limit();
    let mut bytes = Vec::with_capacity(stdin_file_len().min(limit) as usize + 1);
    std::io::stdin()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("<stdin>: cannot read: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "<stdin>: over the limit of {} MiB for {}",
            limit >> 20,
            kind.name()
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "<stdin>: not valid UTF-8 (invalid byte at offset {}); EasyFlow files are UTF-8 text",
            e.utf8_error().valid_up_to()
        )
    })
}

/// The length of the file standard input reads, when it is one (`< FILE`),
/// else 0: reading a large file into a buffer of its size at once spares
/// copying it at every doubling of a growing one.
#[cfg(unix)]
fn stdin_file_len() -> u64 {
    use std::os::fd::AsFd;
    std::io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .map(std::fs::File::from)
        .and_then(|file| file.metadata())
        .map_or(0, |metadata| {
            if metadata.is_file() {
                metadata.len()
            } else {
                0
            }
        })
}

#[cfg(not(unix))]
fn stdin_file_len() -> u64 {
    0
}

/// How messages and reports name the file at `path`: `<stdin>` for `-`.
pub fn shown(path: &Path) -> PathBuf {
    match path == Path::new("-") {
        true => PathBuf::from("<stdin>"),
        false => path.to_path_buf(),
    }
}

/// The kind of a file named on the command line: what its name says, else
/// `default` (the kind the command takes; standard input too).
pub fn kind_of(path: &Path, default: FileKind) -> FileKind {
    match path == Path::new("-") {
        true => default,
        false => FileKind::by_name(path).unwrap_or(default),
    }
}

/// For a command that takes a file of `kind`: refuses one whose name says
/// it is of another kind, saying which command takes it.
pub fn expect_kind(path: &Path, kind: FileKind) -> Result<(), String> {
    let named = kind_of(path, kind);
    if named == kind {
        return Ok(());
    }
    let command = match named {
        FileKind::Topology => "topology",
        FileKind::Flow | FileKind::Catalog | FileKind::Config => "check",
    };
    Err(format!(
        "{path} is {}, not {}; `easyflow {command} {path}` checks it",
        named.name(),
        kind.name(),
        path = path.display(),
    ))
}

/// Reads the one file of `kind` a command takes (`-`: standard input),
/// refusing a file of another kind ([`expect_kind`]).
pub fn read_one(path: &Path, kind: FileKind) -> Result<String, String> {
    expect_kind(path, kind)?;
    read_source(path, kind)
}

/// The files named, or found under `paths` with a name of one of `kinds`
/// (`.gitignore`d files are left out), each directory's files in sorted
/// order; `-` stays as it is. Says on stderr what is skipped (a FIFO, a
/// loop of links), and, setting `failed`, each path that does not exist,
/// what could not be walked, and (for paths the user `given`, as ESLint
/// does) each directory that yields no file. `check` and `fmt` find their
/// files alike.
pub fn find(paths: &[PathBuf], kinds: &[FileKind], given: bool, failed: &mut bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for path in paths {
        if path == Path::new("-") || (path.exists() && !path.is_dir()) {
            found.push(path.clone());
        } else if path.is_dir() {
            let walk = walk::walk(path, kinds);
            for error in &walk.errors {
                eprintln!("error: {error}");
                *failed = true;
            }
            for error in &walk.skipped {
                eprintln!("warning: skipped {error}");
            }
            if given && walk.files.is_empty() {
                eprintln!("error: {}: no {} file in it", path.display(), names(kinds));
                *failed = true;
            }
            found.extend(
                walk.files
                    .into_iter()
                    .map(|p| p.strip_prefix("./").map(Path::to_path_buf).unwrap_or(p)),
            );
        } else {
            eprintln!("error: {}: no such file or directory", path.display());
            *failed = true;
        }
    }
    found
}

/// `.flow or .topology`: the files of `kinds` as a walk finds them.
fn names(kinds: &[FileKind]) -> String {
    let names: Vec<&str> = kinds
        .iter()
        .map(|kind| match kind {
            FileKind::Flow => ".flow",
            FileKind::Topology => ".topology",
            FileKind::Catalog => ".toml",
            FileKind::Config => "easyflow.toml",
        })
        .collect();
    names.join(" or ")
}

/// `path` made absolute (for searching upwards past the current directory).
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The directory a path given on the command line stands for in the
/// workspace: a directory itself, a file's own directory, the working
/// directory for `-`.
pub fn workspace_root(path: &Path) -> PathBuf {
    let dir = if path == Path::new("-") {
        Path::new(".")
    } else if path.is_dir() {
        path
    } else {
        path.parent()
            .filter(|dir| !dir.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
    };
    absolute(dir)
}

/// Says on stderr what the project loader skipped: nothing for a file an
/// `easyflow.toml` names (its E0903 says it), an error for a file that
/// cannot be read (then returns true: the run fails), a warning for
/// anything else (a FIFO named `easyflow.toml`).
pub fn say_skipped(skipped: &[Skipped]) -> bool {
    let mut failed = false;
    for file in skipped.iter().filter(|file| file.named_by.is_none()) {
        if file.is_unreadable_file() {
            eprintln!("error: {file}");
            failed = true;
        } else {
            eprintln!("warning: skipped {file}");
        }
    }
    failed
}

/// The formatter's options for the flow at `path` (`-`: standard input,
/// configured from the current directory): its `easyflow.toml`'s `[format]`
/// settings. Says what was skipped; `None` (said) when the `easyflow.toml`
/// cannot be read: formatting with the defaults could undo its settings.
pub fn format_options(loader: &mut Loader<'_>, path: &Path) -> Option<FormatOptions> {
    let options = loader.format_options(&absolute(&shown(path)));
    say_skipped(&loader.take_loaded().skipped);
    match options {
        Ok(options) => Some(options),
        Err(config) => {
            eprintln!(
                "error: {}: not formatted: {} cannot be read",
                path.display(),
                config.display()
            );
            None
        }
    }
}
