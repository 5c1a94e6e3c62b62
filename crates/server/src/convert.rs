//! The edge between byte offsets (everything inside) and LSP positions in
//! the negotiated encoding (UTF-8 or UTF-16), plus the mapping of ide data
//! to LSP types. Positions past the end of a line or of the document are
//! clamped, never an error.

use easyflow_diagnostics::{Severity, Tag, TextRange, TextSize};
use line_index::{LineIndex, WideEncoding, WideLineCol};
use tower_lsp_server::ls_types as lsp;

/// How the client counts characters in a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// A document's line index with the negotiated encoding.
pub struct Lines<'a> {
    pub index: &'a LineIndex,
    pub text: &'a str,
    pub encoding: Encoding,
}

impl Lines<'_> {
    pub fn position(&self, offset: TextSize) -> lsp::Position {
        let offset = offset.min(TextSize::of(self.text));
        let utf8 = self.index.line_col(offset);
        let character = match self.encoding {
            Encoding::Utf8 => utf8.col,
            Encoding::Utf16 => self
                .index
                .to_wide(WideEncoding::Utf16, utf8)
                .map_or(utf8.col, |w| w.col),
        };
        lsp::Position::new(utf8.line, character)
    }

    pub fn range(&self, range: TextRange) -> lsp::Range {
        lsp::Range::new(self.position(range.start()), self.position(range.end()))
    }

    /// The byte offset of a position, clamped into the document and to the
    /// end of its line (before a `\r\n`).
    pub fn offset(&self, position: lsp::Position) -> TextSize {
        let Some(line) = self.index.line(position.line) else {
            return TextSize::of(self.text);
        };
        let mut line_end = line.end();
        let line_text = &self.text[line];
        if line_text.ends_with("\r\n") {
            line_end -= TextSize::from(2);
        } else if line_text.ends_with('\n') {
            line_end -= TextSize::from(1);
        }
        let col = match self.encoding {
            Encoding::Utf8 => position.character,
            Encoding::Utf16 => {
                let wide = WideLineCol {
                    line: position.line,
                    col: position.character,
                };
                match self.index.to_utf8(WideEncoding::Utf16, wide) {
                    Some(utf8) => utf8.col,
                    None => u32::MAX,
                }
            }
        };
        let mut offset = line.start() + TextSize::from(col.min(u32::from(line_end - line.start())));
        // A column inside a multi-byte character lands on its start.
        while !self.text.is_char_boundary(offset.into()) {
            offset -= TextSize::from(1);
        }
        offset.min(line_end)
    }

    pub fn text_range(&self, range: lsp::Range) -> TextRange {
        let start = self.offset(range.start);
        let end = self.offset(range.end).max(start);
        TextRange::new(start, end)
    }
}

pub fn severity(severity: Severity) -> lsp::DiagnosticSeverity {
    match severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Information => lsp::DiagnosticSeverity::INFORMATION,
    }
}

/// `docs` is the URL of `docs/diagnostics.md` (see `State::docs_url`); each
/// code's `codeDescription` links to its entry there.
pub fn diagnostic(
    lines: &Lines<'_>,
    uri: &lsp::Uri,
    docs: Option<&str>,
    d: &easyflow_diagnostics::Diagnostic,
) -> lsp::Diagnostic {
    let href = docs.and_then(|docs| format!("{docs}#{}", d.code.doc_anchor()).parse().ok());
    lsp::Diagnostic {
        range: lines.range(d.range),
        severity: Some(severity(d.severity())),
        code: Some(lsp::NumberOrString::String(d.code.as_str().to_string())),
        code_description: href.map(|href| lsp::CodeDescription { href }),
        source: Some("easyflow".to_string()),
        message: d.message.clone(),
        related_information: (!d.related.is_empty()).then(|| {
            d.related
                .iter()
                .map(|r| lsp::DiagnosticRelatedInformation {
                    location: lsp::Location::new(uri.clone(), lines.range(r.range)),
                    message: r.message.clone(),
                })
                .collect()
        }),
        tags: (!d.tags.is_empty()).then(|| {
            d.tags
                .iter()
                .map(|tag| match tag {
                    Tag::Unnecessary => lsp::DiagnosticTag::UNNECESSARY,
                })
                .collect()
        }),
        data: None,
    }
}
