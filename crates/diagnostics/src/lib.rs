//! The diagnostic vocabulary shared by every layer: stable codes with their
//! fixed severities (`../shared/spec/diagnostics.md`), and the plain
//! [`Diagnostic`] value (byte ranges, no editor types).

pub mod allow;
pub mod docs;
pub mod suggest;

use std::fmt;

pub use text_size::{TextRange, TextSize};

/// How serious a diagnostic is: its [`Code`]'s, or an error for a code an
/// `easyflow.toml` denies ([`allow::CodeLevels`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Information,
}

impl Severity {
    /// The spelling used by the CLI's JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Information => "information",
        }
    }
}

macro_rules! codes {
    ($($variant:ident => $summary:literal,)*) => {
        /// Every diagnostic code of the specification. The first letter of the
        /// name is the severity (E error, W warning, I information).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($variant,)*
        }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The code as written in messages and documentation, e.g. `E0201`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => stringify!($variant),)*
                }
            }

            /// One line saying what the code is about (the catalog's "meaning").
            pub fn summary(self) -> &'static str {
                match self {
                    $(Code::$variant => $summary,)*
                }
            }
        }
    };
}

codes! {
    E0100 => "syntax error",
    E0101 => "character that begins no token",
    E0102 => "unterminated string",
    E0103 => "invalid escape sequence",
    E0104 => "unterminated block comment",
    E0105 => "unterminated code block",
    E0106 => "identifiers must be ASCII",
    E0107 => "integer does not fit in 64 bits",
    E0201 => "unresolved name",
    E0202 => "`after`/`on` names no step of this file",
    E0203 => "duplicate step",
    W0204 => "file required twice",
    E0205 => "a required file and a step share a name",
    W0206 => "required file never used",
    E0207 => "parameter given twice in one step",
    W0208 => "step listed twice in `after`",
    I0209 => "redundant `after`: already a data dependency",
    W0210 => "unknown member of a step",
    E0301 => "dependency cycle",
    E0302 => "step depends on itself",
    E0401 => "stream arrow in a step that is not `~step`",
    E0402 => "stream source is not a step's output",
    E0403 => "`sweep` needs a list literal",
    W0404 => "sweep over an empty list",
    W0405 => "unknown step attribute",
    W0406 => "invalid step attribute value",
    E0407 => "repeated code section",
    E0408 => "event transitions (`on`) are not supported",
    W0501 => "unknown flow attribute",
    W0502 => "wrong flow attribute value",
    W0503 => "flow attribute set twice",
    E0601 => "topology syntax error",
    E0602 => "topology number out of range",
    W0603 => "two worker types with the same capability set",
    E0604 => "overlapping port ranges",
    W0605 => "worker type starts no worker",
    E0701 => "no worker type has every required capability",
    E0702 => "no worker type has this capability",
    E0703 => "no fitting worker type has enough memory",
    I0705 => "more instances than slots",
    E0706 => "malformed `requires` or `memory` value",
    E0801 => "unknown package",
    E0802 => "unknown parameter of a package",
    E0803 => "required parameter missing",
    E0804 => "value of the wrong type",
    E0805 => "value out of range or not an allowed value",
    W0806 => "unknown output of a package",
    E0810 => "invalid package catalog",
    E0901 => "invalid configuration file",
    W0902 => "unknown configuration key",
    E0903 => "configured path does not exist",
    W0904 => "code that cannot be allowed or denied",
    W0905 => "allow comment that silences nothing",
}

impl Code {
    /// The code's own severity, by its letter (a denied code's diagnostics
    /// are errors all the same: [`Diagnostic::severity`]).
    pub fn severity(self) -> Severity {
        match self.as_str().as_bytes()[0] {
            b'E' => Severity::Error,
            b'W' => Severity::Warning,
            _ => Severity::Information,
        }
    }

    /// The anchor of this code's entry in `docs/diagnostics.md`.
    pub fn doc_anchor(self) -> String {
        self.as_str().to_ascii_lowercase()
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A secondary location that explains a diagnostic (e.g. the first definition
/// of a duplicated step), in the same file as the diagnostic.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Related<At = TextRange> {
    pub range: At,
    pub message: String,
}

/// A tag that editors render specially.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tag {
    /// Faded out: W0206, I0209.
    Unnecessary,
}

/// What the quick fixes of a diagnostic need, as data. The rule that writes
/// the message fills it in from the same values, and the IDE layer turns it
/// into edits: no fix reads anything back out of a message. A new code with
/// a fix of a kind listed here (e.g. a "did you mean" [`Fix::Replace`], as
/// the catalog's unknown package and parameter have) needs no change in the
/// IDE layer; a new kind of fix is a new variant with its data (e.g. the
/// names of the missing required parameters) and its edits in the IDE layer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum Fix {
    #[default]
    None,
    /// One of these tokens is missing where the range is (E0100); when the
    /// range is empty, inserting any of them is a fix.
    InsertToken(Vec<&'static str>),
    /// Put this in place of the range: the close name, key or constant of a
    /// "did you mean" (E0202, W0405, W0406, W0501, W0502, E0801, E0802,
    /// E0805, W0806).
    Replace(String),
    /// An unresolved name (E0201): the close name to put in its place, if
    /// any, and whether `require NAME;` could define it (a plain name, not
    /// a stream source).
    UnresolvedName {
        suggestion: Option<String>,
        requirable: bool,
    },
    /// Remove the name at the range from its `require` (W0204, W0206).
    RemoveRequire(Removal),
    /// Remove the name at the range from its `after`/`on` list (W0208, I0209).
    RemoveDependency(Removal),
    /// Remove the code at the range from its allow comment, or the whole
    /// comment when it is the only code (W0905).
    RemoveAllowed,
    /// Make the step a `~step` (E0401).
    MakeLongRunning,
    /// Wrap the value at the range in `[ ]` (E0403).
    WrapInList,
    /// Write `after` in place of the `on` at the range (E0408).
    UseAfter,
    /// Add these parameters, missing from the step whose name is at the
    /// range, to its parameter list (E0803), in this order.
    AddParams(Vec<String>),
}

/// Why an entry can go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Removal {
    /// It repeats an earlier entry.
    Repeated,
    /// Nothing uses it.
    Unused,
    /// It says what something else already says.
    Redundant,
}

/// One problem found in one file. `At` says where: a byte range (what
/// hosts see), or a position-free anchor inside the analysis before it is
/// placed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic<At = TextRange> {
    pub code: Code,
    /// The code's severity, or [`Severity::Error`] when an `easyflow.toml`
    /// denies the code (set by the analysis's last step, silencing).
    pub severity: Severity,
    pub range: At,
    pub message: String,
    pub related: Vec<Related<At>>,
    pub tags: Vec<Tag>,
    pub fix: Fix,
}

impl<At> Diagnostic<At> {
    pub fn new(code: Code, range: At, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            range,
            message: message.into(),
            related: Vec::new(),
            tags: Vec::new(),
            fix: Fix::None,
        }
    }

    pub fn with_related(mut self, range: At, message: impl Into<String>) -> Self {
        self.related.push(Related {
            range,
            message: message.into(),
        });
        self
    }

    pub fn with_tag(mut self, tag: Tag) -> Self {
        self.tags.push(tag);
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = fix;
        self
    }

    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// The diagnostic at the places `place` gives for its locations; `None`
    /// when its own location has none (a related location without one is
    /// left out).
    pub fn place<To>(&self, place: impl Fn(&At) -> Option<To>) -> Option<Diagnostic<To>> {
        Some(Diagnostic {
            code: self.code,
            severity: self.severity,
            range: place(&self.range)?,
            message: self.message.clone(),
            related: self
                .related
                .iter()
                .filter_map(|related| {
                    Some(Related {
                        range: place(&related.range)?,
                        message: related.message.clone(),
                    })
                })
                .collect(),
            tags: self.tags.clone(),
            fix: self.fix.clone(),
        })
    }
}

impl Diagnostic {
    /// The diagnostic with its range and its related ranges moved by `to`
    /// (e.g. from a step's or a half's offsets to the file's).
    pub fn moved(mut self, to: impl Fn(TextRange) -> TextRange) -> Self {
        self.range = to(self.range);
        for related in &mut self.related {
            related.range = to(related.range);
        }
        self
    }
}

/// Puts diagnostics in the specification's order: by range start, then code.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.range.start(), a.code, a.range.end()).cmp(&(b.range.start(), b.code, b.range.end()))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severity_follows_the_letter() {
        assert_eq!(Code::E0100.severity(), Severity::Error);
        assert_eq!(Code::W0206.severity(), Severity::Warning);
        assert_eq!(Code::I0209.severity(), Severity::Information);
        assert!(Code::ALL.iter().all(|c| c.as_str().len() == 5));
    }

    #[test]
    fn placing_keeps_all_but_the_unplaced_related_locations() {
        let place = |n: &u32| (*n < 3).then(|| TextRange::empty((*n).into()));
        let anchored = Diagnostic::new(Code::W0204, 1, "repeated")
            .with_related(2, "first")
            .with_related(3, "nowhere")
            .with_tag(Tag::Unnecessary)
            .with_fix(Fix::RemoveRequire(Removal::Repeated));
        let expected = Diagnostic::new(Code::W0204, TextRange::empty(1.into()), "repeated")
            .with_related(TextRange::empty(2.into()), "first")
            .with_tag(Tag::Unnecessary)
            .with_fix(Fix::RemoveRequire(Removal::Repeated));
        assert_eq!(anchored.place(place), Some(expected));
        assert_eq!(
            Diagnostic::new(Code::E0201, 3, "nowhere").place(place),
            None
        );
    }
}
