//! The report formats of `easyflow check`: human (codespan-reporting), JSON
//! and SARIF, each written to any writer (stdout for the binary, a buffer
//! for the analysis tests).

use std::io::{self, IsTerminal, Write};

use clap::ValueEnum;
use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity as ReportSeverity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor};
use easyflow_diagnostics::{Diagnostic, Severity, TextSize};
use easyflow_syntax::SourceText;
use easyflow_syntax::line_index::{Encoding, LineIndex, Lines, Position};
use serde_json::json;

use crate::checked::{CheckedFile, Counts};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// rustc-style report with source excerpts, colored on a terminal.
    Human,
    /// One JSON document on stdout.
    Json,
    /// SARIF 2.1.0, for code-scanning services.
    Sarif,
}

/// Writes the report of `files` in `format` to stdout.
pub fn to_stdout(format: Format, files: &[CheckedFile]) -> io::Result<()> {
    match format {
        Format::Human => human(
            files,
            &mut termcolor::StandardStream::stdout(color_choice(io::stdout().is_terminal())),
        ),
        Format::Json => json(files, &mut io::stdout().lock()),
        Format::Sarif => sarif(files, &mut io::stdout().lock()),
    }
}

/// Colors on a terminal unless `NO_COLOR` is set.
pub fn color_choice(is_terminal: bool) -> termcolor::ColorChoice {
    if is_terminal && std::env::var_os("NO_COLOR").is_none() {
        termcolor::ColorChoice::Auto
    } else {
        termcolor::ColorChoice::Never
    }
}

/// A text's lines, to place offsets at 0-based lines and UTF-16 columns (as
/// LSP and SARIF count them), through the converter the server uses.
pub struct TextLines {
    index: LineIndex,
    text: SourceText,
}

impl TextLines {
    /// `text` is shared, not copied, when it is an `Arc<str>`.
    pub fn new(text: impl Into<SourceText>) -> TextLines {
        let text = text.into();
        TextLines {
            index: LineIndex::new(&text.whole()),
            text,
        }
    }

    pub fn position(&self, offset: TextSize) -> Position {
        Lines {
            index: &self.index,
            text: &self.text,
            encoding: Encoding::Utf16,
        }
        .position(offset)
    }
}

/// `d` in codespan-reporting's terms, its related locations in the same
/// file, ending with the link to its code's documentation.
pub fn to_codespan<FileId: Copy>(d: &Diagnostic, file: FileId) -> Report<FileId> {
    let severity = match d.severity() {
        Severity::Error => ReportSeverity::Error,
        Severity::Warning => ReportSeverity::Warning,
        Severity::Information => ReportSeverity::Note,
    };
    let mut labels = vec![Label::primary(file, d.range)];
    labels.extend(
        d.related
            .iter()
            .map(|r| Label::secondary(file, r.range).with_message(&r.message)),
    );
    Report::new(severity)
        .with_code(d.code.as_str())
        .with_message(&d.message)
        .with_labels(labels)
        .with_notes(vec![crate::explain::note(d.code)])
}

/// The lines of a file, to place its diagnostics; nothing for a file without
/// any (indexing a large file's lines costs time and memory).
fn lines_of(file: &CheckedFile) -> TextLines {
    if file.diagnostics.is_empty() {
        TextLines::new("")
    } else {
        TextLines::new(file.text.clone())
    }
}

pub fn json(files: &[CheckedFile], out: &mut impl Write) -> io::Result<()> {
    let range_json = |lines: &TextLines, range: easyflow_diagnostics::TextRange| {
        let (start, end) = (lines.position(range.start()), lines.position(range.end()));
        json!({
            "start": {"line": start.line, "character": start.character},
            "end": {"line": end.line, "character": end.character},
        })
    };
    let files_json: Vec<_> = files
        .iter()
        .map(|file| {
            let lines = lines_of(file);
            let path = file.path.display().to_string();
            let diagnostics: Vec<_> = file
                .diagnostics
                .iter()
                .map(|d| {
                    let related: Vec<_> = d
                        .related
                        .iter()
                        .map(|r| json!({"path": path, "range": range_json(&lines, r.range), "message": r.message}))
                        .collect();
                    json!({
                        "code": d.code.as_str(),
                        "severity": d.severity().as_str(),
                        "message": d.message,
                        "range": range_json(&lines, d.range),
                        "related": related,
                    })
                })
                .collect();
            json!({"path": path, "diagnostics": diagnostics})
        })
        .collect();
    let counts = Counts::of(files);
    let document = json!({
        "version": 1,
        "files": files_json,
        "summary": {
            "files": files.len(),
            "errors": counts.errors,
            "warnings": counts.warnings,
            "information": counts.information,
        },
    });
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)?;
    out.flush()
}

pub fn human(files: &[CheckedFile], out: &mut dyn termcolor::WriteColor) -> io::Result<()> {
    let config = term::Config::default();
    let mut sources = SimpleFiles::new();
    // Only files with diagnostics: adding one indexes its lines.
    for file in files.iter().filter(|file| !file.diagnostics.is_empty()) {
        let id = sources.add(file.path.display().to_string(), &*file.text);
        for d in &file.diagnostics {
            term::emit_to_write_style(out, &config, &sources, &to_codespan(d, id))
                .map_err(io::Error::other)?;
        }
    }
    let counts = Counts::of(files);
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    writeln!(
        out,
        "checked {}: {}, {}, {}",
        plural(files.len(), "file"),
        plural(counts.errors, "error"),
        plural(counts.warnings, "warning"),
        plural(counts.information, "information note"),
    )?;
    out.flush()
}

/// SARIF 2.1.0: one run, a rule per code, a result per diagnostic. Columns
/// are 1-based UTF-16 units (SARIF's default `columnKind`).
pub fn sarif(files: &[CheckedFile], out: &mut impl Write) -> io::Result<()> {
    use easyflow_diagnostics::Code;
    let level = |severity: Severity| match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Information => "note",
    };
    let rules: Vec<_> = Code::ALL
        .iter()
        .map(|code| {
            json!({
                "id": code.as_str(),
                "shortDescription": {"text": code.summary()},
                "help": {"text": format!("See docs/diagnostics.md#{}", code.doc_anchor())},
                "defaultConfiguration": {"level": level(code.severity())},
            })
        })
        .collect();
    let region = |lines: &TextLines, range: easyflow_diagnostics::TextRange| {
        let (start, end) = (lines.position(range.start()), lines.position(range.end()));
        json!({
            "startLine": start.line + 1,
            "startColumn": start.character + 1,
            "endLine": end.line + 1,
            "endColumn": end.character + 1,
        })
    };
    let mut results = Vec::new();
    for file in files {
        let lines = lines_of(file);
        let uri = file.path.display().to_string().replace('\\', "/");
        let location = |range| json!({"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region(&lines, range)}});
        for d in &file.diagnostics {
            let related: Vec<_> = d
                .related
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let mut related = location(r.range);
                    related["id"] = json!(i);
                    related["message"] = json!({"text": r.message});
                    related
                })
                .collect();
            let rule_index = Code::ALL.iter().position(|c| *c == d.code).unwrap_or(0);
            let mut result = json!({
                "ruleId": d.code.as_str(),
                "ruleIndex": rule_index,
                "level": level(d.severity()),
                "message": {"text": d.message},
                "locations": [location(d.range)],
            });
            if !related.is_empty() {
                result["relatedLocations"] = json!(related);
            }
            results.push(result);
        }
    }
    let document = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "easyflow",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "utf16CodeUnits",
            "results": results,
        }],
    });
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)?;
    out.flush()
}
