//! Scratch projects described by a case file, for the cases that need
//! files which cannot be checked in: FIFOs, devices, symbolic link loops,
//! sparse files of gigabytes, files outside the project, generated giants.
//!
//! A case is a text of sections, each opened by a `=== ` line:
//!
//! ```text
//! # What the case is about (lines before the first section are comments).
//! === easyflow.toml
//! topology = "site.topology"
//! === fifo site.topology
//! ```
//!
//! | section | makes |
//! |---|---|
//! | `=== PATH` | a regular file with the section's lines |
//! | `=== outside PATH` | the same, in a folder beside the project (`$TMP/outside/PATH`) |
//! | `=== fifo PATH` | a FIFO |
//! | `=== dir PATH` | a directory |
//! | `=== symlink PATH -> TARGET` | a symbolic link (`TARGET` as written: `/dev/zero`, itself, …) |
//! | `=== sparse PATH BYTES` | a file of `BYTES` zero bytes that takes no disk space |
//! | `=== generate PATH long-line BYTES` | a flow whose one step has a line of `BYTES` bytes |
//! | `=== generate PATH workers COUNT` | a topology of `COUNT` worker types |
//! | `=== generate PATH nested DEPTH` | a flow with a list nested `DEPTH` deep |
//! | `=== cli ARGS...` | no file: the command line of the CLI's run of the case, `easyflow ARGS...` run from `$TMP` (which holds `project` and `outside`), instead of `easyflow check .` run from the project folder |
//! | `=== stdin` | no file: the section's lines are the CLI's standard input |
//!
//! Paths are relative to the project folder, `$TMP/project`. The regular
//! files written and generated are the project's `texts`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A scratch project on the disk, removed when dropped.
pub struct Project {
    dir: tempfile::TempDir,
    /// The regular files written or generated, in order (the files an
    /// editor would open).
    pub texts: Vec<(PathBuf, String)>,
    /// The arguments of `=== cli`, if the case has one.
    pub cli: Option<Vec<String>>,
    /// The text of `=== stdin`, if the case has one.
    pub stdin: Option<String>,
}

impl Project {
    /// Builds the project a case describes. Panics on a malformed case.
    pub fn create(case: &str) -> Project {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let project = Project {
            dir,
            texts: Vec::new(),
            cli: None,
            stdin: None,
        };
        std::fs::create_dir(project.root()).unwrap();
        std::fs::create_dir(project.outside()).unwrap();
        project.build(case)
    }

    /// The project folder (`$PROJECT` in outputs).
    pub fn root(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    /// The folder that holds the project folder and the folder beside it
    /// (`$TMP` in outputs).
    pub fn scratch(&self) -> &Path {
        self.dir.path()
    }

    /// The folder beside it.
    fn outside(&self) -> PathBuf {
        self.dir.path().join("outside")
    }

    /// `text` with the scratch folders' paths written as `$PROJECT` and
    /// `$TMP`, so outputs are the same on every run.
    pub fn redact(&self, text: &str) -> String {
        let tmp = self.dir.path();
        let canonical = tmp.canonicalize().unwrap_or_else(|_| tmp.to_path_buf());
        let mut text = text.to_string();
        for tmp in [canonical.as_path(), tmp] {
            let tmp = tmp.display().to_string();
            text = text
                .replace(&format!("{tmp}/project"), "$PROJECT")
                .replace(&tmp, "$TMP");
        }
        text
    }

    fn build(mut self, case: &str) -> Project {
        let mut sections: Vec<(&str, String)> = Vec::new();
        for line in case.split_inclusive('\n') {
            if let Some(header) = line.strip_prefix("=== ") {
                sections.push((header.trim(), String::new()));
            } else if let Some((_, body)) = sections.last_mut() {
                body.push_str(line);
            }
        }
        for (header, body) in sections {
            self.section(header, body);
        }
        self
    }

    fn section(&mut self, header: &str, body: String) {
        let words: Vec<&str> = header.split_whitespace().collect();
        let path = |word: &str| self.root().join(word);
        match words.as_slice() {
            ["cli", args @ ..] => self.cli = Some(args.iter().map(|a| a.to_string()).collect()),
            ["stdin"] => self.stdin = Some(body),
            ["outside", name] => write(&self.outside().join(name), &body),
            ["fifo", name] => make_fifo(&path(name)),
            ["dir", name] => std::fs::create_dir_all(path(name)).unwrap(),
            ["symlink", name, "->", target] => symlink(target, &path(name)),
            ["sparse", name, bytes] => {
                let file = std::fs::File::create(path(name)).unwrap();
                file.set_len(bytes.parse().expect("a size in bytes"))
                    .unwrap();
            }
            ["generate", name, generator, count] => {
                let count: usize = count.parse().expect("a count");
                let text = generate(generator, count);
                write(&path(name), &text);
                self.texts.push((path(name), text));
            }
            [name] => {
                write(&path(name), &body);
                self.texts.push((path(name), body));
            }
            _ => panic!("unknown section `=== {header}`"),
        }
    }
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

#[cfg(unix)]
fn make_fifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
fn symlink(target: &str, path: &Path) {
    std::os::unix::fs::symlink(target, path).unwrap();
}

#[cfg(not(unix))]
fn make_fifo(_: &Path) {
    panic!("FIFOs need a Unix system");
}

#[cfg(not(unix))]
fn symlink(_: &str, _: &Path) {
    panic!("symbolic links need a Unix system");
}

/// The generated giants (see the module's table).
fn generate(generator: &str, count: usize) -> String {
    let mut text = String::new();
    match generator {
        "long-line" => {
            text.push_str("step Long runs P (text = \"");
            text.extend(std::iter::repeat_n('x', count));
            text.push_str("\");\nstep Short runs P (input = Long.outs);\n");
        }
        "workers" => {
            for i in 0..count {
                write!(text, "worker{i}+cap{i}:1,1024 ").unwrap();
                if i % 8 == 7 {
                    text.push('\n');
                }
            }
            text.push('\n');
        }
        "nested" => {
            text.push_str("step Deep runs P (value = ");
            // A line break every 100 brackets keeps reports' lines short.
            for i in 0..count {
                text.push_str(if i % 100 == 99 { "[\n" } else { "[" });
            }
            text.push('1');
            for i in 0..count {
                text.push_str(if i % 100 == 99 { "]\n" } else { "]" });
            }
            text.push_str(");\n");
        }
        _ => panic!("unknown generator `{generator}`"),
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn builds_every_kind_of_section() {
        let project = Project::create(
            "# comment\n=== a.flow\nstep A runs P ();\n=== fifo f\n=== dir d\n\
             === symlink l -> l\n=== sparse s 4096\n=== outside o.topology\nx:1\n\
             === generate g.flow nested 3\n=== cli check project\n=== stdin\nstep S runs P ();\n",
        );
        assert_eq!(
            project.cli.as_deref(),
            Some(&["check".to_string(), "project".to_string()][..])
        );
        assert_eq!(project.stdin.as_deref(), Some("step S runs P ();\n"));
        let root = project.root();
        assert_eq!(project.texts.len(), 2);
        assert_eq!(
            project.texts[0],
            (root.join("a.flow"), "step A runs P ();\n".to_string())
        );
        use std::os::unix::fs::FileTypeExt;
        assert!(
            std::fs::metadata(root.join("f"))
                .unwrap()
                .file_type()
                .is_fifo()
        );
        assert!(root.join("d").is_dir());
        assert!(
            std::fs::symlink_metadata(root.join("l"))
                .unwrap()
                .is_symlink()
        );
        assert_eq!(std::fs::metadata(root.join("s")).unwrap().len(), 4096);
        assert!(root.join("../outside/o.topology").is_file());
        assert_eq!(
            std::fs::read_to_string(root.join("g.flow")).unwrap(),
            "step Deep runs P (value = [[[1]]]);\n"
        );
        let shown = project.redact(&format!("{}/a.flow", root.display()));
        assert_eq!(shown, "$PROJECT/a.flow");
    }
}
