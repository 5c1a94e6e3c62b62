//! Silencing and promoting warnings and information notes (`config.md`):
//! the levels an `easyflow.toml` gives codes (`[diagnostics] allow`/`deny`),
//! the allow comments of a flow (`// easyflow: allow(W0206, I0209)`), and
//! what a code written in either is. The analysis applies them
//! (`easyflow_db::silence`); the configuration reader and the quick fixes
//! read and write them through this module, so every part agrees on the
//! syntax.

use crate::{Code, Severity, TextRange, TextSize};

/// The levels an `easyflow.toml` gives codes, for every flow it
/// configures: an allowed code is not reported, a denied one is reported as
/// an error. Only warnings and information notes; a code in both lists is in
/// neither (the configuration reader sees to both, with W0904).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct CodeLevels {
    allow: Vec<Code>,
    deny: Vec<Code>,
}

/// What a [`CodeLevels`] does with a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Reported as its code says.
    Default,
    /// Not reported.
    Allow,
    /// Reported as an error.
    Deny,
}

impl CodeLevels {
    /// The levels of `allow` and `deny`, leaving out the errors and the
    /// codes of both lists.
    pub fn new(
        allow: impl IntoIterator<Item = Code>,
        deny: impl IntoIterator<Item = Code>,
    ) -> Self {
        let mut allow: Vec<Code> = allow.into_iter().filter(|c| can_be_silenced(*c)).collect();
        let mut deny: Vec<Code> = deny.into_iter().filter(|c| can_be_silenced(*c)).collect();
        for list in [&mut allow, &mut deny] {
            list.sort();
            list.dedup();
        }
        let both: Vec<Code> = allow
            .iter()
            .copied()
            .filter(|c| deny.binary_search(c).is_ok())
            .collect();
        allow.retain(|c| !both.contains(c));
        deny.retain(|c| !both.contains(c));
        CodeLevels { allow, deny }
    }

    pub fn level(&self, code: Code) -> Level {
        if self.allow.binary_search(&code).is_ok() {
            Level::Allow
        } else if self.deny.binary_search(&code).is_ok() {
            Level::Deny
        } else {
            Level::Default
        }
    }

    /// Whether the levels leave every code as it is.
    pub fn is_default(&self) -> bool {
        self.allow.is_empty() && self.deny.is_empty()
    }

    /// The severity a diagnostic of `code` is reported with, `None` when it
    /// is not reported.
    pub fn severity(&self, code: Code) -> Option<Severity> {
        match self.level(code) {
            Level::Default => Some(code.severity()),
            Level::Allow => None,
            Level::Deny => Some(Severity::Error),
        }
    }
}

/// Whether `code` may be silenced or promoted: warnings and information
/// notes, never errors (the platform would reject the flow anyway).
pub fn can_be_silenced(code: Code) -> bool {
    code.severity() != Severity::Error
}

/// What a code written in an allow list or an allow comment names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// A warning or an information note.
    Silenceable(Code),
    /// An error, which can be neither silenced nor promoted.
    Error(Code),
    /// No code of the documentation (case matters), with the warning or
    /// information code it most likely means.
    Unknown { suggestion: Option<Code> },
}

/// What `text` names: codes are written exactly as the documentation
/// writes them (`W0206`, not `w0206` or `0206`).
pub fn named(text: &str) -> Named {
    match Code::ALL.iter().copied().find(|c| c.as_str() == text) {
        Some(code) if can_be_silenced(code) => Named::Silenceable(code),
        Some(code) => Named::Error(code),
        None => Named::Unknown {
            suggestion: Code::ALL
                .iter()
                .copied()
                .filter(|c| can_be_silenced(*c))
                .map(|c| (strsim::damerau_levenshtein(text, c.as_str()), c))
                .filter(|(distance, _)| *distance <= 2)
                .min_by_key(|(distance, _)| *distance)
                .map(|(_, code)| code),
        },
    }
}

/// What a flow comment `// easyflow: allow(CODE, …)` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowDirective<'a> {
    /// The codes as written, with their ranges in the comment.
    pub codes: Vec<(TextRange, &'a str)>,
    /// Where a code added to the list goes: after the last code, else
    /// right after the `(`.
    pub insert_at: TextSize,
}

/// The prefix every allow comment starts with, after `//` and spaces.
const DIRECTIVE: &str = "easyflow:";

/// The allow directive that the line comment `comment` (from its `//` to
/// its line's end) is, if it is one: `//`, spaces, `easyflow:`, spaces,
/// `allow`, spaces, `(`, then codes separated by commas, then `)` and any
/// text (a reason, say), or the end of the comment while the list is being
/// typed. Ranges are relative to the comment.
pub fn parse_directive(comment: &str) -> Option<AllowDirective<'_>> {
    let mut reader = Reader {
        text: comment,
        at: 0,
    };
    reader.expect("//")?;
    reader.spaces();
    reader.expect(DIRECTIVE)?;
    reader.spaces();
    reader.expect("allow")?;
    reader.spaces();
    reader.expect("(")?;
    let mut directive = AllowDirective {
        codes: Vec::new(),
        insert_at: reader.offset(),
    };
    loop {
        reader.spaces();
        let start = reader.at;
        reader.at += comment[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(comment.len() - start);
        let code = &comment[start..reader.at];
        if !code.is_empty() {
            let range = TextRange::new(TextSize::from(start as u32), reader.offset());
            directive.codes.push((range, code));
            directive.insert_at = reader.offset();
            reader.spaces();
        }
        match comment[reader.at..].chars().next() {
            Some(',') if !code.is_empty() => reader.at += 1,
            Some(')') | None => return Some(directive),
            _ => return None,
        }
    }
}

/// A position in a comment being read.
struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn expect(&mut self, word: &str) -> Option<()> {
        self.text[self.at..]
            .starts_with(word)
            .then(|| self.at += word.len())
    }

    fn spaces(&mut self) {
        let rest = &self.text[self.at..];
        self.at += rest.len() - rest.trim_start_matches([' ', '\t']).len();
    }

    fn offset(&self) -> TextSize {
        TextSize::from(self.at as u32)
    }
}

/// The comment that allows `code`, as the quick fix writes it.
pub fn directive_text(code: Code) -> String {
    format!("// {DIRECTIVE} allow({code})")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes of a directive, and what follows where a code goes.
    fn codes(comment: &str) -> Option<(Vec<&str>, &str)> {
        parse_directive(comment).map(|d| {
            let codes = d
                .codes
                .iter()
                .map(|(range, code)| {
                    assert_eq!(&comment[*range], *code);
                    *code
                })
                .collect();
            (codes, &comment[d.insert_at.into()..])
        })
    }

    #[test]
    fn directives_with_their_codes_and_where_a_code_goes() {
        assert_eq!(
            codes("// easyflow: allow(W0206)"),
            Some((vec!["W0206"], ")"))
        );
        assert_eq!(
            codes("//easyflow:allow( W0206 ,I0209 ) because"),
            Some((vec!["W0206", "I0209"], " ) because"))
        );
        assert_eq!(codes("// easyflow: allow()"), Some((vec![], ")")));
        // Being typed: no `)` yet.
        assert_eq!(codes("// easyflow: allow(W02"), Some((vec!["W02"], "")));
        assert_eq!(
            codes("// easyflow: allow(W0206,"),
            Some((vec!["W0206"], ","))
        );
    }

    #[test]
    fn other_comments_are_no_directives() {
        for comment in [
            "// a note",
            "// easyflow allow(W0206)",
            "// easyflow: alow(W0206)",
            "// easyflow: allow W0206",
            "// easyflow: allow(W0206 I0209)",
            "// easyflow: allow(,W0206)",
            "// easyflow: allow(W0206,,I0209)",
            "// easyflow: allow(W-206)",
            "/* easyflow: allow(W0206) */",
        ] {
            assert_eq!(parse_directive(comment), None, "{comment}");
        }
    }

    #[test]
    fn codes_are_named_exactly() {
        assert_eq!(named("W0206"), Named::Silenceable(Code::W0206));
        assert_eq!(named("E0201"), Named::Error(Code::E0201));
        assert_eq!(
            named("w0206"),
            Named::Unknown {
                suggestion: Some(Code::W0206)
            }
        );
        // Only warnings and notes are suggested.
        assert_eq!(
            named("E0209"),
            Named::Unknown {
                suggestion: Some(Code::I0209)
            }
        );
        assert_eq!(named("X"), Named::Unknown { suggestion: None });
    }

    #[test]
    fn levels_leave_out_errors_and_codes_of_both_lists() {
        let levels = CodeLevels::new(
            [Code::W0206, Code::E0201, Code::I0209],
            [Code::W0405, Code::I0209, Code::E0201],
        );
        assert_eq!(levels.level(Code::W0206), Level::Allow);
        assert_eq!(levels.level(Code::W0405), Level::Deny);
        assert_eq!(levels.level(Code::I0209), Level::Default);
        assert_eq!(levels.level(Code::E0201), Level::Default);
        assert_eq!(levels.severity(Code::W0405), Some(Severity::Error));
        assert_eq!(levels.severity(Code::W0206), None);
        assert!(CodeLevels::default().is_default());
    }
}
