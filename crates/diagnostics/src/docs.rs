//! The documentation of the codes, `docs/diagnostics.md`, read as entries:
//! one source for `easyflow explain`, the docs site's page per code and the
//! links that editors (`codeDescription`) and the CLI's report give.
//!
//! The file's shape (checked by the tests of its readers): a `# Title` and a
//! preamble, then families, each a `# Heading` line with an introduction,
//! then its entries, each an anchor line `<a id="e0201"></a>` followed by a
//! `## E0201: summary` heading and the body. Lines inside fenced code blocks
//! never start a family or an entry (a TOML example's `# comment` is text).

use std::path::{Path, PathBuf};

use crate::Code;

/// `docs/diagnostics.md`, split into its parts (slices of the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Documentation<'a> {
    /// The title line's text (`Diagnostics`).
    pub title: &'a str,
    /// Everything between the title and the first family.
    pub preamble: &'a str,
    pub families: Vec<Family<'a>>,
}

/// A family of codes (`# Names (E02xx)`), with its introduction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Family<'a> {
    /// The heading's text, e.g. `Names (E02xx)`.
    pub heading: &'a str,
    /// What stands between the heading and the first entry: what every code
    /// of the family shares (e.g. the topology its examples use).
    pub intro: &'a str,
    pub entries: Vec<Entry<'a>>,
}

/// One code's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The anchor, e.g. `e0201` ([`Code::doc_anchor`]).
    pub anchor: &'a str,
    /// The code the anchor names, if it is one.
    pub code: Option<Code>,
    /// The heading's text, e.g. ``E0201: unresolved name``.
    pub heading: &'a str,
    /// Everything after the heading line, up to the next entry or family.
    pub body: &'a str,
}

impl<'a> Documentation<'a> {
    /// Reads the parts of `text` (the whole of `docs/diagnostics.md`).
    pub fn parse(text: &'a str) -> Documentation<'a> {
        let mut lines = Lines::new(text);
        let mut title = "";
        let mut preamble_start = 0;
        // The title: the first `# ` line.
        for line in lines.by_ref() {
            if let Some(heading) = line.heading(1) {
                title = heading;
                preamble_start = line.end;
                break;
            }
        }
        let mut documentation = Documentation {
            title,
            preamble: "",
            families: Vec::new(),
        };
        // Where the text being collected started, and what it belongs to.
        let mut open_at = preamble_start;
        let mut open_entry: Option<(&'a str, &'a str)> = None; // anchor, heading
        let close = |documentation: &mut Documentation<'a>,
                     open_entry: &mut Option<(&'a str, &'a str)>,
                     from: usize,
                     to: usize| {
            let part = &text[from..to];
            match (open_entry.take(), documentation.families.last_mut()) {
                (Some((anchor, heading)), Some(family)) => family.entries.push(Entry {
                    anchor,
                    code: Code::from_anchor(anchor),
                    heading,
                    body: part,
                }),
                (None, Some(family)) if family.entries.is_empty() => family.intro = part,
                // Text after an entry belongs to it: entries end only at the
                // next entry or family.
                (None, Some(_)) => {}
                (_, None) => documentation.preamble = part,
            }
        };
        while let Some(line) = lines.next() {
            if let Some(heading) = line.heading(1) {
                close(&mut documentation, &mut open_entry, open_at, line.start);
                documentation.families.push(Family {
                    heading,
                    intro: "",
                    entries: Vec::new(),
                });
                open_at = line.end;
            } else if let Some(anchor) = line.anchor() {
                close(&mut documentation, &mut open_entry, open_at, line.start);
                // The entry's heading: the next non-blank line.
                let heading_line = lines.by_ref().find(|l| !l.text.trim().is_empty());
                let heading = heading_line.and_then(|l| l.heading(2)).unwrap_or("");
                open_at = heading_line.map_or(text.len(), |l| l.end);
                open_entry = Some((anchor, heading));
            }
        }
        close(&mut documentation, &mut open_entry, open_at, text.len());
        documentation
    }

    /// Every entry, in the order of the file.
    pub fn entries(&self) -> impl Iterator<Item = (&Family<'a>, &Entry<'a>)> {
        self.families
            .iter()
            .flat_map(|family| family.entries.iter().map(move |entry| (family, entry)))
    }

    /// The entry of `code`, with its family.
    pub fn entry(&self, code: Code) -> Option<(&Family<'a>, &Entry<'a>)> {
        self.entries().find(|(_, entry)| entry.code == Some(code))
    }

    /// The page of `code`, self-contained: its entry under a `# ` heading,
    /// then its family's introduction under `## The family: …` (the
    /// context its examples share, e.g. their topology).
    /// `None` when the code has no entry.
    pub fn page(&self, code: Code) -> Option<String> {
        let (family, entry) = self.entry(code)?;
        let mut page = format!("# {}\n\n{}\n", entry.heading, entry.body.trim());
        let intro = family.intro.trim();
        if !intro.is_empty() {
            page.push_str(&format!("\n## The family: {}\n\n{intro}\n", family.heading));
        }
        Some(plain_fences(&page))
    }
}

/// `text` with its code fences' info strings cut to the language: the
/// words after it (`file=easyflow.topology`) tell the documentation's
/// tests how to check the block, not the reader.
fn plain_fences(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut inside = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let is_fence = trimmed.starts_with("```") || trimmed.starts_with("~~~");
        if is_fence && !inside {
            inside = true;
            let indent = &line[..line.len() - trimmed.len()];
            out.push_str(indent);
            out.push_str(trimmed.split_whitespace().next().unwrap_or(trimmed));
        } else {
            if is_fence && trimmed.trim_end().chars().all(|c| c == '`' || c == '~') {
                inside = false;
            }
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// One line of the text, with its byte offsets (the end past its line break).
#[derive(Clone, Copy)]
struct Line<'a> {
    text: &'a str,
    start: usize,
    end: usize,
    in_fence: bool,
}

impl<'a> Line<'a> {
    /// The heading's text when the line is an ATX heading of `level`.
    fn heading(&self, level: usize) -> Option<&'a str> {
        if self.in_fence {
            return None;
        }
        let rest = self.text.strip_prefix(&"#".repeat(level))?;
        rest.strip_prefix(' ').map(str::trim)
    }

    /// The anchor of an entry line `<a id="…"></a>`.
    fn anchor(&self) -> Option<&'a str> {
        if self.in_fence {
            return None;
        }
        self.text
            .trim()
            .strip_prefix("<a id=\"")?
            .strip_suffix("\"></a>")
    }
}

/// The lines of a markdown text, knowing which are inside fenced code.
struct Lines<'a> {
    text: &'a str,
    at: usize,
    fence: Option<&'a str>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        Lines {
            text,
            at: 0,
            fence: None,
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        if self.at >= self.text.len() {
            return None;
        }
        let start = self.at;
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i + 1);
        self.at = end;
        let text = self.text[start..end].trim_end_matches(['\n', '\r']);
        let trimmed = text.trim_start();
        let marker = ["```", "~~~"]
            .into_iter()
            .find(|marker| trimmed.starts_with(marker));
        let in_fence = self.fence.is_some() || marker.is_some();
        match (self.fence, marker) {
            (None, Some(marker)) => self.fence = Some(marker),
            (Some(open), Some(marker)) if open == marker && trimmed.trim_end() == marker => {
                self.fence = None
            }
            _ => {}
        }
        Some(Line {
            text,
            start,
            end,
            in_fence,
        })
    }
}

impl Code {
    /// The code written `text`, in any case (`E0201`, `e0201`), or by its
    /// digits alone (`0201`: the digits of two codes never coincide).
    pub fn parse(text: &str) -> Option<Code> {
        let text = text.trim();
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.as_str().eq_ignore_ascii_case(text) || code.as_str()[1..] == *text)
    }

    /// The code closest to `text` when it is none: one or two characters
    /// off (`W0902` for `E0902`, `E0201` for `E201`); among the closest,
    /// one with the same digits (the letter is the easiest to get wrong),
    /// else the first.
    pub fn closest(text: &str) -> Option<Code> {
        let text = text.trim().to_ascii_uppercase();
        let digits = text.get(1..).unwrap_or("");
        Code::ALL
            .iter()
            .copied()
            .map(|code| {
                let distance = strsim::damerau_levenshtein(&text, code.as_str());
                (distance, code.as_str()[1..] != *digits, code)
            })
            .filter(|(distance, _, _)| *distance <= 2)
            .min_by_key(|(distance, other_digits, _)| (*distance, *other_digits))
            .map(|(_, _, code)| code)
    }

    /// The code whose entry has this anchor.
    pub fn from_anchor(anchor: &str) -> Option<Code> {
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.doc_anchor() == anchor)
    }
}

/// The link to `code`'s documentation. `base` is where the documentation
/// is: a URL with `{code}` in it has the code put there (a site with a
/// page per code, `…/diagnostics/{code}.html`); any other is the URL of
/// `docs/diagnostics.md`, and the link is its entry's anchor in it.
pub fn url(base: &str, code: Code) -> String {
    if base.contains("{code}") {
        base.replace("{code}", code.as_str())
    } else {
        format!("{base}#{}", code.doc_anchor())
    }
}

/// The name of the documentation file, inside a `docs` folder.
pub const DIAGNOSTICS_FILE: &str = "docs/diagnostics.md";

/// `docs/diagnostics.md` as installed: beside the running program (the VS
/// Code extension packs `server/easyflow-ls` with `docs/diagnostics.md`
/// next to `server/`), or in the source tree it was built from (`cargo
/// install --path`, or a build in the repository). Offline, as the rest of
/// the tools are.
pub fn installed_file(program: Option<&Path>) -> Option<PathBuf> {
    let beside = program.and_then(Path::parent);
    let candidates = [
        beside.map(|dir| dir.join(DIAGNOSTICS_FILE)),
        beside
            .and_then(Path::parent)
            .map(|dir| dir.join(DIAGNOSTICS_FILE)),
        Some(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../..")
                .join(DIAGNOSTICS_FILE),
        ),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|path| path.is_file())?
        .canonicalize()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# Diagnostics\n\nIntro.\n\n# Names (E02xx)\n\nNames are scoped.\n\n\
<a id=\"e0201\"></a>\n## E0201: unresolved name\n\nBody one.\n\n```toml\n# not a family\n<a id=\"w0206\"></a>\n```\n\n\
<a id=\"w0206\"></a>\n## W0206: required file never used\n\nBody two.\n\n# Steps (E04xx)\n\n\
<a id=\"e0401\"></a>\n## E0401: stream arrow\n\nBody three.\n";

    #[test]
    fn splits_into_preamble_families_and_entries() {
        let docs = Documentation::parse(SAMPLE);
        assert_eq!(docs.title, "Diagnostics");
        assert_eq!(docs.preamble.trim(), "Intro.");
        let headings: Vec<_> = docs.families.iter().map(|f| f.heading).collect();
        assert_eq!(headings, ["Names (E02xx)", "Steps (E04xx)"]);
        assert_eq!(docs.families[0].intro.trim(), "Names are scoped.");
        assert_eq!(docs.families[1].intro.trim(), "");
        let entries: Vec<_> = docs
            .entries()
            .map(|(_, e)| (e.code, e.heading, e.body.trim()))
            .collect();
        assert_eq!(
            entries,
            [
                (
                    Some(Code::E0201),
                    "E0201: unresolved name",
                    "Body one.\n\n```toml\n# not a family\n<a id=\"w0206\"></a>\n```"
                ),
                (
                    Some(Code::W0206),
                    "W0206: required file never used",
                    "Body two."
                ),
                (Some(Code::E0401), "E0401: stream arrow", "Body three."),
            ]
        );
    }

    #[test]
    fn a_page_is_the_entry_then_its_family() {
        let docs = Documentation::parse(SAMPLE);
        assert_eq!(
            docs.page(Code::W0206).unwrap(),
            "# W0206: required file never used\n\nBody two.\n\n## The family: Names (E02xx)\n\nNames are scoped.\n"
        );
        assert_eq!(
            docs.page(Code::E0401).unwrap(),
            "# E0401: stream arrow\n\nBody three.\n"
        );
        assert_eq!(docs.page(Code::E0100), None);
    }

    #[test]
    fn a_page_shows_fences_without_the_tests_words() {
        let docs = Documentation::parse(
            "# D\n\n# F (E02xx)\n\n```topology file=easyflow.topology\na:1\n```\n\n<a id=\"e0201\"></a>\n## E0201: x\n\nList:\n  ```toml config\n  k = 1\n  ```\n",
        );
        assert_eq!(
            docs.page(Code::E0201).unwrap(),
            "# E0201: x\n\nList:\n  ```toml\n  k = 1\n  ```\n\n## The family: F (E02xx)\n\n```topology\na:1\n```\n"
        );
    }

    #[test]
    fn codes_parse_in_any_case_or_by_digits() {
        assert_eq!(Code::parse("E0201"), Some(Code::E0201));
        assert_eq!(Code::parse("w0206"), Some(Code::W0206));
        assert_eq!(Code::parse("0209"), Some(Code::I0209));
        assert_eq!(Code::parse("E0209"), None);
        assert_eq!(Code::parse("E02011"), None);
        assert_eq!(Code::closest("E0209"), Some(Code::I0209));
        assert_eq!(Code::closest("E201"), Some(Code::E0201));
        assert_eq!(Code::closest("X9999"), None);
        // The digits of two codes never coincide.
        for code in Code::ALL {
            assert_eq!(Code::parse(&code.as_str()[1..]), Some(*code));
        }
    }

    #[test]
    fn urls_put_the_code_in_a_template_or_the_anchor_after_the_file() {
        assert_eq!(
            url("file:///x/docs/diagnostics.md", Code::E0201),
            "file:///x/docs/diagnostics.md#e0201"
        );
        assert_eq!(
            url("https://h/diagnostics/{code}.html", Code::W0206),
            "https://h/diagnostics/W0206.html"
        );
    }

    /// The source tree's documentation has an entry for every code, and
    /// nothing else: an entry's anchor is a code's, its heading starts
    /// with the code, and it says how to fix.
    #[test]
    fn the_documentation_has_one_entry_per_code() {
        let path = installed_file(None).expect("docs/diagnostics.md of the source tree");
        let text = std::fs::read_to_string(path).unwrap();
        let docs = Documentation::parse(&text);
        let mut seen = Vec::new();
        for (_, entry) in docs.entries() {
            let code = entry
                .code
                .unwrap_or_else(|| panic!("entry `{}` names no code", entry.anchor));
            assert!(
                entry.heading.starts_with(&format!("{code}: ")),
                "{code}'s heading is `{}`",
                entry.heading
            );
            assert!(!seen.contains(&code), "{code} has two entries");
            seen.push(code);
        }
        let missing: Vec<_> = Code::ALL.iter().filter(|c| !seen.contains(c)).collect();
        assert!(missing.is_empty(), "codes without an entry: {missing:?}");
    }
}
