//! End-to-end tests of `easyflow fmt` (`cli.md`, `formatting.md`): real
//! processes on files in temporary directories.

mod common;

use std::path::Path;

use common::{easyflow, easyflow_with_stdin, repo_root, stderr, stdout};

const MESSY: &str = "step   A runs P (x=1,y=2,)\nstep B runs P after A ()\n";
const MESSY_FORMATTED: &str = "step A runs P (x = 1, y = 2);\nstep B runs P after A ();\n";
const BROKEN: &str = "step A runs P (x = 1 y = 2);\n";
const LONG: &str = "step A runs P (first = \"one\", second = \"two\", third = \"three\");\n";

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn check_lists_what_would_change_and_fmt_rewrites_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a-messy.flow", MESSY);
    write(root, "b-clean.flow", MESSY_FORMATTED);
    write(root, "c-broken.flow", BROKEN);
    write(
        root,
        "narrow/easyflow.toml",
        "[format]\nwidth = 40\nindent = 4\n",
    );
    write(root, "narrow/d-long.flow", LONG);
    write(root, "notes.txt", MESSY);

    let output = easyflow(&["fmt", "--check"], root);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(stdout(&output), "a-messy.flow\nnarrow/d-long.flow\n");
    let errors = stderr(&output);
    assert!(
        errors.contains("c-broken.flow: not formatted: 1 syntax error"),
        "{errors}"
    );
    assert!(errors.contains("c-broken.flow:1:21: E0100"), "{errors}");
    assert_eq!(read(root, "a-messy.flow"), MESSY, "--check writes nothing");

    let output = easyflow(&["fmt"], root);
    assert_eq!(
        output.status.code(),
        Some(1),
        "the broken file: {}",
        stderr(&output)
    );
    assert_eq!(stdout(&output), "");
    assert_eq!(read(root, "a-messy.flow"), MESSY_FORMATTED);
    assert_eq!(read(root, "b-clean.flow"), MESSY_FORMATTED);
    assert_eq!(read(root, "c-broken.flow"), BROKEN, "never rewritten");
    assert_eq!(read(root, "notes.txt"), MESSY, "only .flow files");
    assert_eq!(
        read(root, "narrow/d-long.flow"),
        "step A runs P\n(\n    first = \"one\",\n    second = \"two\",\n    third = \"three\",\n);\n",
        "the [format] settings of its easyflow.toml"
    );
    let leftovers: Vec<_> = walk(root)
        .into_iter()
        .filter(|p| p.contains(".easyflow-fmt-"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");

    std::fs::remove_file(root.join("c-broken.flow")).unwrap();
    let output = easyflow(&["fmt", "--check", "."], root);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
}

fn walk(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path.display().to_string());
        }
    }
    found
}

#[cfg(unix)]
#[test]
fn rewriting_keeps_the_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.flow", MESSY);
    let path = dir.path().join("a.flow");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let output = easyflow(&["fmt", "a.flow"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(read(dir.path(), "a.flow"), MESSY_FORMATTED);
}

#[test]
fn stdin_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let output = easyflow_with_stdin(&["fmt", "-"], MESSY, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), MESSY_FORMATTED);

    let output = easyflow_with_stdin(&["fmt", "-"], BROKEN, dir.path());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "", "nothing for a text with syntax errors");
    assert!(
        stderr(&output).contains("<stdin>:1:21: E0100"),
        "{}",
        stderr(&output)
    );

    let output = easyflow_with_stdin(&["fmt", "--check", "-"], MESSY, dir.path());
    assert_eq!(output.status.code(), Some(1));
    let output = easyflow_with_stdin(&["fmt", "--check", "-"], MESSY_FORMATTED, dir.path());
    assert_eq!(output.status.code(), Some(0));

    // The settings of the easyflow.toml found from the current directory.
    write(
        dir.path(),
        "easyflow.toml",
        "[format]\nwidth = 40\nindent = 4\n",
    );
    let output = easyflow_with_stdin(&["fmt", "-"], LONG, dir.path());
    assert!(
        stdout(&output).contains("\n    first = \"one\",\n"),
        "{}",
        stdout(&output)
    );
}

/// `easyflow fmt` over a copy of every test flow: each clean one becomes
/// what the formatter gives (checked there for every property), each with
/// syntax errors stays byte for byte, and a second run changes nothing.
#[test]
fn formats_every_test_flow() {
    let dir = tempfile::tempdir().unwrap();
    let mut originals = Vec::new();
    for folder in [
        "parser/ok",
        "parser/err",
        "parser/corpus",
        "analysis",
        "fmt",
    ] {
        let source = repo_root().join("tests/data").join(folder);
        for entry in std::fs::read_dir(&source).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "flow") {
                let name = format!(
                    "{}-{}",
                    folder.replace('/', "-"),
                    path.file_name().unwrap().to_str().unwrap()
                );
                let text = std::fs::read_to_string(&path).unwrap();
                write(dir.path(), &name, &text);
                originals.push((name, text));
            }
        }
    }
    let output = easyflow(&["fmt", "."], dir.path());
    assert_eq!(
        output.status.code(),
        Some(1),
        "some have syntax errors: {}",
        stderr(&output)
    );
    for (name, text) in &originals {
        let expected =
            easyflow_fmt::format(text, &Default::default()).unwrap_or_else(|_| text.clone());
        assert_eq!(read(dir.path(), name), expected, "{name}");
    }
    let output = easyflow(&["fmt", "--check", "."], dir.path());
    assert_eq!(stdout(&output), "", "a second run changes nothing");
}
