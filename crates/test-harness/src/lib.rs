//! The data-driven test harness shared by every case folder under
//! `tests/data/` (parser, analysis, fit, topology, …).
//!
//! A case is one input file, `tests/data/FOLDER/NAME.EXT`; the test's
//! function turns it into one or more outputs, each compared with the file
//! beside the input that has the output's extension (`NAME.json`,
//! `NAME.rast`, …). Each case is its own named test (`FOLDER/NAME`, so
//! `cargo test --test T e0201` runs some of them); a failure names the case
//! and shows a diff of the expected file and the actual output. With
//! `UPDATE_EXPECT=1` every differing or missing expected file is rewritten
//! instead, and the diff is for review before committing.
//!
//! A test file is a `harness = false` test target whose `main` lists its folders:
//!
//! ```no_run
//! use easyflow_test_harness::{Case, Failed, Harness, Outputs};
//!
//! fn tree(case: &Case) -> Result<Outputs, Failed> {
//!     Ok(vec![("rast", case.text.to_uppercase())])
//! }
//!
//! fn main() {
//!     Harness::new().folder("parser/ok", "flow", tree).run();
//! }
//! ```
//!
//! Cases run with the repository root as the current directory, so paths
//! in outputs read as a user at the root would see them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub mod project;

pub use libtest_mimic::Failed;
use libtest_mimic::{Arguments, Trial};

/// The outputs of one case: each extension with the text expected in the
/// file of that extension beside the input.
pub type Outputs = Vec<(&'static str, String)>;

/// The variable that makes the harness rewrite expected files.
pub const UPDATE_VARIABLE: &str = "UPDATE_EXPECT";

/// One input file of a case folder.
pub struct Case {
    /// The file's stem, e.g. `e0201-duplicate-step`.
    pub name: String,
    /// The input, relative to the repository root (the current directory).
    pub path: PathBuf,
    /// The input's text (invalid UTF-8 replaced by U+FFFD).
    pub text: String,
}

impl Case {
    /// The diagnostic code the case's name promises, and whether the case is
    /// a near miss: `e0201-…` gives `("E0201", false)`, `e0201-ok-…` gives
    /// `("E0201", true)`; names that start with no code give `None`.
    pub fn named_code(&self) -> Option<(String, bool)> {
        let mut parts = self.name.split('-');
        let code = parts.next()?;
        let is_code = code.len() == 5
            && code.starts_with(['e', 'w', 'i'])
            && code[1..].bytes().all(|b| b.is_ascii_digit());
        is_code.then(|| (code.to_ascii_uppercase(), parts.next() == Some("ok")))
    }

    /// The naming rule of the diagnostic case folders: a case named
    /// `e0201-…` must report E0201 among `codes`, and a near miss
    /// `e0201-ok-…` must not.
    pub fn check_named_code<S: AsRef<str>>(&self, codes: &[S]) -> Result<(), Failed> {
        let Some((code, near_miss)) = self.named_code() else {
            return Ok(());
        };
        let reported = codes.iter().any(|c| c.as_ref() == code);
        if reported == near_miss {
            let codes: Vec<&str> = codes.iter().map(AsRef::as_ref).collect();
            let rule = if near_miss {
                "must not be reported (the name says `-ok-`, a near miss)"
            } else {
                "must be reported (the name says so)"
            };
            return Err(format!("{code} {rule}; reported: {codes:?}").into());
        }
        Ok(())
    }
}

type CaseFunction = dyn Fn(&Case) -> Result<Outputs, Failed> + Send + Sync;

/// The case folders of one test target.
pub struct Harness {
    trials: Vec<Trial>,
}

impl Default for Harness {
    fn default() -> Self {
        Self::new()
    }
}

impl Harness {
    /// A harness with no cases yet. Makes the repository root the current
    /// directory of the test process.
    pub fn new() -> Harness {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        std::env::set_current_dir(&root)
            .unwrap_or_else(|e| panic!("cannot enter the repository root {}: {e}", root.display()));
        Harness { trials: Vec::new() }
    }

    /// A test for every `*.EXTENSION` file directly in `tests/data/FOLDER`,
    /// named `FOLDER/STEM`, whose outputs are what `run` returns for it.
    /// Panics when the folder has no such file.
    pub fn folder(
        mut self,
        folder: &str,
        extension: &str,
        run: impl Fn(&Case) -> Result<Outputs, Failed> + Send + Sync + 'static,
    ) -> Harness {
        let run: Arc<CaseFunction> = Arc::new(run);
        let dir = Path::new("tests/data").join(folder);
        let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| {
                entry
                    .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                    .path()
            })
            .filter(|path| path.extension().is_some_and(|e| e == extension))
            .collect();
        assert!(
            !inputs.is_empty(),
            "no *.{extension} cases in {}",
            dir.display()
        );
        inputs.sort();
        for path in inputs {
            let name = path
                .file_stem()
                .and_then(|stem| stem.to_str())
                .unwrap_or_else(|| panic!("{}: not a UTF-8 name", path.display()))
                .to_string();
            let run = Arc::clone(&run);
            self.trials
                .push(Trial::test(format!("{folder}/{name}"), move || {
                    run_case(path, name, &*run)
                }));
        }
        self
    }

    /// A plain test beside the cases: a `harness = false` target runs no
    /// `#[test]` functions. A panic fails it, as in a `#[test]`.
    pub fn test(
        mut self,
        name: &str,
        run: impl FnOnce() -> Result<(), Failed> + Send + 'static,
    ) -> Harness {
        self.trials.push(Trial::test(name, run));
        self
    }

    /// Runs the cases selected by the command line (as the built-in test
    /// harness does) and exits with the outcome.
    pub fn run(self) -> ! {
        libtest_mimic::run(&Arguments::from_args(), self.trials).exit()
    }
}

fn run_case(path: PathBuf, name: String, run: &CaseFunction) -> Result<(), Failed> {
    // Lossy: a case about bytes that are not UTF-8 reads its file itself.
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let case = Case { name, path, text };
    let outputs = run(&case).map_err(|failed| {
        let message = failed.message().unwrap_or("failed");
        format!("{}: {message}", case.path.display())
    })?;
    let mismatches: Vec<String> = outputs
        .iter()
        .filter_map(|(extension, actual)| {
            compare_with_file(&case.path.with_extension(extension), actual).err()
        })
        .collect();
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(mismatches.join("\n").into())
    }
}

/// A byte range as the case files write it: `start..end`.
pub fn span(range: easyflow_diagnostics::TextRange) -> String {
    format!("{}..{}", u32::from(range.start()), u32::from(range.end()))
}

/// The `--- diagnostics ---` section of a case file: each diagnostic's code,
/// range and message, and its related locations below it; nothing when there
/// are none.
pub fn render_diagnostics(out: &mut String, diagnostics: &[easyflow_diagnostics::Diagnostic]) {
    use std::fmt::Write;
    if diagnostics.is_empty() {
        return;
    }
    out.push_str("--- diagnostics ---\n");
    for d in diagnostics {
        writeln!(out, "{}@{} {:?}", d.code, span(d.range), d.message).unwrap();
        for related in &d.related {
            writeln!(
                out,
                "  related@{} {:?}",
                span(related.range),
                related.message
            )
            .unwrap();
        }
    }
}

/// Compares `actual` with the file at `expected` (a missing file is empty),
/// or, under `UPDATE_EXPECT=1`, rewrites the file if they differ. The error
/// names the file and shows the diff. Also for tests with a single expected
/// output outside the case folders.
pub fn compare_with_file(expected: &Path, actual: &str) -> Result<(), String> {
    compare(
        expected,
        actual,
        std::env::var_os(UPDATE_VARIABLE).is_some(),
    )
}

fn compare(expected: &Path, actual: &str, update: bool) -> Result<(), String> {
    // A checkout with CRLF line ends has the same expectations.
    let expected_text = std::fs::read_to_string(expected)
        .unwrap_or_default()
        .replace("\r\n", "\n");
    if expected_text == actual {
        return Ok(());
    }
    if update {
        std::fs::write(expected, actual)
            .map_err(|e| format!("cannot write {}: {e}", expected.display()))?;
        eprintln!("updated {}", expected.display());
        return Ok(());
    }
    let expected_name = expected.display().to_string();
    let diff = similar::TextDiff::from_lines(&expected_text, actual)
        .unified_diff()
        .context_radius(3)
        .header(&expected_name, "actual")
        .to_string();
    Err(format!(
        "{expected_name} differs ({UPDATE_VARIABLE}=1 rewrites it):\n{diff}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str) -> Case {
        Case {
            name: name.to_string(),
            path: PathBuf::from(format!("{name}.flow")),
            text: String::new(),
        }
    }

    #[test]
    fn names_promise_codes() {
        assert_eq!(
            case("e0201-duplicate").named_code(),
            Some(("E0201".to_string(), false))
        );
        assert_eq!(
            case("w0502-ok-near").named_code(),
            Some(("W0502".to_string(), true))
        );
        assert_eq!(case("corpus-require").named_code(), None);
        assert_eq!(case("e02x1-odd").named_code(), None);
        assert_eq!(case("x0201-odd").named_code(), None);
    }

    #[test]
    fn the_naming_rule() {
        assert!(case("e0201-dup").check_named_code(&["E0201"]).is_ok());
        assert!(case("e0201-dup").check_named_code(&["E0202"]).is_err());
        assert!(case("e0201-ok-x").check_named_code(&["E0202"]).is_ok());
        assert!(case("e0201-ok-x").check_named_code(&["E0201"]).is_err());
        assert!(case("ordering-x").check_named_code::<&str>(&[]).is_ok());
    }

    #[test]
    fn a_mismatch_shows_a_diff_and_an_update_rewrites() {
        let dir = tempfile::tempdir().unwrap();
        let expected = dir.path().join("x.txt");
        std::fs::write(&expected, "one\r\ntwo\r\n").unwrap();
        assert_eq!(compare(&expected, "one\ntwo\n", false), Ok(()));
        let error = compare(&expected, "one\nthree\n", false).unwrap_err();
        assert!(error.contains("-two\n+three\n"), "{error}");
        assert!(error.contains("UPDATE_EXPECT=1"), "{error}");
        assert_eq!(compare(&expected, "one\nthree\n", true), Ok(()));
        assert_eq!(std::fs::read_to_string(&expected).unwrap(), "one\nthree\n");
        let missing = dir.path().join("new.txt");
        assert!(compare(&missing, "text\n", false).is_err());
        assert_eq!(compare(&missing, "text\n", true), Ok(()));
        assert_eq!(std::fs::read_to_string(&missing).unwrap(), "text\n");
    }
}
