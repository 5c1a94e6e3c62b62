//! The documentation's examples and links, checked: every page of `docs/`
//! and the README is one test (`cargo test -p easyflow-cli --test docs
//! tutorial`), which reads its fenced blocks in order as a user builds a
//! project while reading:
//!
//! - ```` ```easyflow ```` is a flow, checked by `easyflow check` (the
//!   binary) in the page's project: with the topology, catalog and
//!   `easyflow.toml` the page has written so far, found as a user's are.
//! - ```` ```topology ```` is a topology, checked by the topology reader.
//! - ```` ```toml ```` is a package catalog (`catalog`, or the name
//!   `easyflow-packages.toml`), checked by the catalog reader, or an
//!   `easyflow.toml` (`config`, or that name), checked by the configuration
//!   reader in the page's project; any other TOML must say `other`.
//! - A ```` ```text ```` block right after one of those (nothing but blank
//!   lines between) lists exactly the diagnostics it gives, one
//!   `error[E0201]: message` line each (`warning[…]`, `note[…]` for I
//!   codes), in order; a checked block without one must give none, unless
//!   the next block is a console block that runs `easyflow check` on its
//!   file (whose output is then the claim, checked as a whole).
//! - ```` ```console ```` blocks are commands, `$ easyflow …`, each followed
//!   by exactly what it prints (standard output, then standard error), run
//!   in the page's project.
//!
//! Words after the language: `file=PATH` keeps the block in the project
//! at PATH (later blocks see it; a later block of the same name replaces
//! it); without one a block is checked in the project as it stands (a flow
//! as `example.flow`, an `easyflow.toml` at the project's root) and not
//! kept. Paths of the project read as `/home/user/project`, the
//! documentation's links as those of `/home/user/easyflow-ls`.
//!
//! Editor setups: a block marked `example=NAME` (```` ```lua example=nvim
//! ````) is run as written by an editor test, which finds it by that mark.
//!
//! Links: every relative link names a file that exists and, with a
//! `#fragment`, an anchor in it (a heading's id as mdBook and GitHub make
//! it, or an `id="…"`); a page of `docs/` links only inside `docs/` (the
//! site holds nothing else).
//!
//! `UPDATE_EXPECT=1` rewrites the expected blocks (and console outputs)
//! with what the tools give: review the diff before committing.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::{Component, Path, PathBuf};
use std::process::Stdio;

use easyflow_diagnostics::{Code, Diagnostic, Severity};
use easyflow_project::{PathSettings, Workspace, discovery};
use easyflow_test_harness::{Failed, Harness, UPDATE_VARIABLE};
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

/// Where the page's project appears to be, in the documentation.
const PROJECT_ROOT: &str = "/home/user/project";
/// The documentation's link as the examples show it.
const DOCS_URL: &str = "file:///home/user/easyflow-ls/docs/diagnostics.md";

/// The pages: every Markdown file of `docs/`, the README, and the editors'
/// README.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![
        PathBuf::from("README.md"),
        PathBuf::from("editors/README.md"),
    ];
    let mut docs = Vec::new();
    collect_markdown(Path::new("docs"), &mut docs);
    docs.sort();
    pages.extend(docs);
    pages
}

fn collect_markdown(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_markdown(&path, into);
        } else if path.extension().is_some_and(|e| e == "md") {
            into.push(path);
        }
    }
}

/// A fenced code block of a page.
#[derive(Debug)]
struct Block {
    language: String,
    words: Vec<String>,
    text: String,
    /// 1-based line of the opening fence.
    line: usize,
    /// The whole block, fences included.
    range: Range<usize>,
}

impl Block {
    fn file(&self) -> Option<&str> {
        self.words.iter().find_map(|w| w.strip_prefix("file="))
    }

    fn has(&self, word: &str) -> bool {
        self.words.iter().any(|w| w == word)
    }

    /// The lines between the fences, for rewriting; `None` for an indented
    /// block (inside a list), which the update leaves alone.
    fn content(&self, page: &str) -> Option<Range<usize>> {
        let block = &page[self.range.clone()];
        if block.starts_with([' ', '\t']) {
            return None;
        }
        let start = self.range.start + block.find('\n')? + 1;
        let body = block.trim_end_matches(['\n', '\r']);
        let end = self.range.start + body.rfind('\n').map_or(body.len(), |i| i + 1);
        (start <= end).then_some(start..end)
    }
}

/// A link of a page, with its 1-based line.
struct Link {
    target: String,
    line: usize,
}

/// What the checks need of a page.
struct Page {
    path: PathBuf,
    text: String,
    blocks: Vec<Block>,
    links: Vec<Link>,
    anchors: HashSet<String>,
}

impl Page {
    fn read(path: &Path) -> Result<Page, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
        let mut blocks = Vec::new();
        let mut links = Vec::new();
        let mut anchors = HashSet::new();
        let mut heading: Option<String> = None;
        let mut block: Option<Block> = None;
        let mut used_ids = HashSet::new();
        for (event, range) in Parser::new_ext(&text, markdown_options()).into_offset_iter() {
            match event {
                Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                    let mut words = info.split_whitespace().map(str::to_string);
                    block = Some(Block {
                        language: words.next().unwrap_or_default(),
                        words: words.collect(),
                        text: String::new(),
                        line: line_of(range.start),
                        range,
                    });
                }
                Event::End(TagEnd::CodeBlock) => blocks.extend(block.take()),
                Event::Start(Tag::Heading { id, .. }) => {
                    if let Some(id) = id {
                        anchors.insert(id.to_string());
                    }
                    heading = Some(String::new());
                }
                Event::End(TagEnd::Heading(_)) => {
                    let id = heading_id(&heading.take().unwrap_or_default());
                    anchors.insert(unique_id(&id, &mut used_ids));
                }
                Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => links
                    .push(Link {
                        target: dest_url.to_string(),
                        line: line_of(range.start),
                    }),
                Event::Text(piece) | Event::Code(piece) => {
                    if let Some(block) = &mut block {
                        block.text.push_str(&piece);
                    } else if let Some(heading) = &mut heading {
                        heading.push_str(&piece);
                    }
                }
                Event::Html(html) | Event::InlineHtml(html) => {
                    let mut rest = &*html;
                    while let Some(at) = rest.find("id=\"") {
                        rest = &rest[at + 4..];
                        if let Some(end) = rest.find('"') {
                            anchors.insert(rest[..end].to_string());
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(Page {
            path: path.to_path_buf(),
            text,
            blocks,
            links,
            anchors,
        })
    }
}

/// The Markdown extensions mdBook reads.
fn markdown_options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
}

/// A heading's id as mdBook makes it (`id_from_content` of mdbook-html;
/// GitHub's agrees for the headings these pages have): lower case, letters,
/// digits, `_` and `-` kept, white space made `-`, the rest dropped.
fn heading_id(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c)
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The second heading of the same id gets `-1`, the third `-2`.
fn unique_id(id: &str, used: &mut HashSet<String>) -> String {
    let mut candidate = id.to_string();
    let mut counter = 0;
    while !used.insert(candidate.clone()) {
        counter += 1;
        candidate = format!("{id}-{counter}");
    }
    candidate
}

/// A diagnostic as the examples write it: `error[E0201]: message` (a
/// denied warning is an error: `error[W0405]`).
fn line_of(severity: Severity, code: Code, message: &str) -> String {
    let severity = match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Information => "note",
    };
    format!("{severity}[{code}]: {message}")
}

fn lines_of(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| line_of(d.severity(), d.code, &d.message))
        .collect()
}

/// The scratch project of a page, where its blocks are written.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn root(&self) -> &Path {
        self.dir.path()
    }

    /// `text` with the project's paths as the documentation shows them.
    fn shown(&self, text: &str) -> String {
        let mut shown = text.to_string();
        for root in [
            Some(self.root().to_path_buf()),
            self.root().canonicalize().ok(),
        ]
        .into_iter()
        .flatten()
        {
            shown = shown.replace(&*root.to_string_lossy(), PROJECT_ROOT);
        }
        shown
    }

    fn write(&self, relative: &str, text: &str) -> Result<PathBuf, String> {
        let path = Path::new(relative);
        if !path.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(format!(
                "`file={relative}` must be a path inside the project"
            ));
        }
        let path = self.root().join(path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        std::fs::write(&path, text).map_err(|e| e.to_string())?;
        Ok(path)
    }

    /// `easyflow ARGS` in the project: standard output, then standard error.
    fn easyflow(&self, args: &[&str]) -> Result<String, String> {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_easyflow"))
            .args(args)
            .current_dir(self.root())
            .env("NO_COLOR", "1")
            .env(easyflow_cli::explain::DOCS_URL_VARIABLE, DOCS_URL)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run easyflow: {e}"))?;
        let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&output.stderr));
        Ok(self.shown(&text))
    }

    /// The diagnostics of the flow at `relative`, as `easyflow check` gives
    /// them.
    fn check_flow(&self, relative: &str) -> Result<Vec<String>, String> {
        let report = self.easyflow(&["check", "--format", "json", relative])?;
        let json_end = report.rfind("\n}").map_or(report.len(), |i| i + 2);
        let report: serde_json::Value = serde_json::from_str(&report[..json_end])
            .map_err(|e| format!("`easyflow check` printed no report ({e}): {report}"))?;
        let file = report["files"]
            .as_array()
            .and_then(|files| files.iter().find(|f| f["path"] == relative))
            .ok_or_else(|| format!("`easyflow check` did not check {relative}: {report}"))?;
        Ok(file["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| {
                let code = Code::parse(d["code"].as_str().unwrap_or("")).expect("a known code");
                let severity = match d["severity"].as_str() {
                    Some("error") => Severity::Error,
                    Some("warning") => Severity::Warning,
                    _ => Severity::Information,
                };
                line_of(severity, code, d["message"].as_str().unwrap_or(""))
            })
            .collect())
    }
}

/// What kind of TOML a block is.
enum Toml {
    Catalog,
    Config,
    Other,
}

fn toml_kind(block: &Block) -> Result<Toml, String> {
    let name = block
        .file()
        .and_then(|f| Path::new(f).file_name()?.to_str());
    if block.has("catalog") || name == Some(discovery::CATALOG_FILE_NAME) {
        Ok(Toml::Catalog)
    } else if block.has("config") || name == Some(discovery::CONFIG_FILE_NAME) {
        Ok(Toml::Config)
    } else if block.has("other") {
        Ok(Toml::Other)
    } else {
        Err("say what this TOML is: ```toml catalog, ```toml config, ```toml file=NAME, or ```toml other".into())
    }
}

/// The diagnostics a checked block gives, `None` for a block that is not
/// checked this way. Writes a `file=` block into the project first.
fn diagnostics_of(block: &Block, project: &Project) -> Result<Option<Vec<String>>, String> {
    let kept = block.file();
    if let Some(file) = kept {
        project.write(file, &block.text)?;
    }
    let lines = match block.language.as_str() {
        "easyflow" => {
            let file = kept.unwrap_or("example.flow");
            if kept.is_none() {
                project.write(file, &block.text)?;
            }
            let lines = project.check_flow(file);
            if kept.is_none() {
                let _ = std::fs::remove_file(project.root().join(file));
            }
            lines?
        }
        "topology" => lines_of(&easyflow_topology::parse(&block.text).diagnostics),
        "toml" => match toml_kind(block)? {
            Toml::Catalog => lines_of(&easyflow_catalog::parse(&block.text).diagnostics),
            Toml::Config => {
                let path = project.root().join(kept.unwrap_or("easyflow.toml"));
                let workspace =
                    Workspace::new([project.root().to_path_buf()], PathSettings::default());
                let diagnostics =
                    discovery::config_diagnostics(&path, &block.text, &workspace, &discovery::Disk);
                lines_of(&diagnostics)
                    .into_iter()
                    .map(|line| project.shown(&line))
                    .collect()
            }
            Toml::Other => return Ok(None),
        },
        _ => return Ok(None),
    };
    Ok(Some(lines))
}

/// A replacement of part of the page, for `UPDATE_EXPECT=1`.
struct Edit {
    range: Range<usize>,
    text: String,
}

/// Runs the commands of a console block; the block's text as it should be.
fn run_console(block: &Block, project: &Project) -> Result<String, String> {
    let mut actual = String::new();
    for line in block.text.lines() {
        let Some(command) = line.strip_prefix("$ ") else {
            continue;
        };
        let mut words = command.split_whitespace();
        if words.next() != Some("easyflow") || command.contains(['"', '\'', '|', '>']) {
            return Err(format!(
                "line {}: only plain `$ easyflow …` commands are run: `{command}`",
                block.line
            ));
        }
        let args: Vec<&str> = words.collect();
        actual.push_str(line);
        actual.push('\n');
        let output = project.easyflow(&args)?;
        for out in output.lines() {
            actual.push_str(out.trim_end());
            actual.push('\n');
        }
    }
    if actual.is_empty() {
        return Err(format!(
            "line {}: a console block without a `$ easyflow` command",
            block.line
        ));
    }
    Ok(actual)
}

/// Whether `block` is a console block that runs `easyflow check` on `file`.
fn checks_in_console(block: &Block, file: Option<&str>) -> bool {
    let Some(file) = file else {
        return false;
    };
    block.language == "console"
        && block.text.lines().any(|line| {
            line.strip_prefix("$ easyflow check ")
                .is_some_and(|args| args.split_whitespace().any(|arg| arg == file))
        })
}

fn normalized(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    lines.join("\n").trim_end().to_string()
}

fn check_page(path: PathBuf, update: bool) -> Result<(), Failed> {
    let page = Page::read(&path)?;
    let project = Project {
        dir: tempfile::tempdir().map_err(|e| e.to_string())?,
    };
    let mut failures = Vec::new();
    let mut edits = Vec::new();
    let name = path.display().to_string();
    let mut blocks = page.blocks.iter().peekable();
    while let Some(block) = blocks.next() {
        if block.language == "console" {
            match run_console(block, &project) {
                Ok(actual) if normalized(&actual) == normalized(&block.text) => {}
                Ok(actual) => match block.content(&page.text).filter(|_| update) {
                    Some(range) => edits.push(Edit {
                        range,
                        text: actual,
                    }),
                    None => failures.push(format!(
                        "{name}:{}: the commands print\n{actual}but the page says\n{}",
                        block.line, block.text
                    )),
                },
                Err(message) => failures.push(format!("{name}:{}: {message}", block.line)),
            }
            continue;
        }
        let actual = match diagnostics_of(block, &project) {
            Ok(Some(actual)) => actual,
            Ok(None) => continue,
            Err(message) => {
                failures.push(format!("{name}:{}: {message}", block.line));
                continue;
            }
        };
        if blocks
            .peek()
            .is_some_and(|next| checks_in_console(next, block.file()))
        {
            // The next block runs `easyflow check` on this one: what it
            // prints, checked there, is the claim.
            continue;
        }
        let between = |next: &&Block| {
            page.text[block.range.end..next.range.start]
                .trim()
                .is_empty()
        };
        let expected_block = blocks.next_if(|next| next.language == "text" && between(next));
        let expected: Vec<String> = expected_block
            .map(|b| b.text.lines().map(str::to_string).collect())
            .unwrap_or_default();
        let malformed: Vec<&String> = expected
            .iter()
            .filter(|line| !is_diagnostic_line(line))
            .collect();
        if !malformed.is_empty() {
            failures.push(format!(
                "{name}:{}: the block after this one is not a list of diagnostics (`error[E0201]: message`): {malformed:?}",
                block.line
            ));
            continue;
        }
        if actual == expected {
            continue;
        }
        let wanted: String = actual.iter().map(|l| format!("{l}\n")).collect();
        match (update, expected_block) {
            (true, Some(expected_block)) if actual.is_empty() => edits.push(Edit {
                range: block.range.end..expected_block.range.end,
                text: "\n".into(),
            }),
            (true, Some(expected_block)) if expected_block.content(&page.text).is_some() => edits
                .push(Edit {
                    range: expected_block.content(&page.text).unwrap(),
                    text: wanted,
                }),
            (true, None) if block.content(&page.text).is_some() => {
                let end = block.range.end;
                let text = if page.text[..end].ends_with('\n') {
                    format!("\n```text\n{wanted}```\n")
                } else {
                    format!("\n\n```text\n{wanted}```")
                };
                edits.push(Edit {
                    range: end..end,
                    text,
                })
            }
            _ => failures.push(format!(
                "{name}:{}: the {} block gives\n{}but the page says\n{}",
                block.line,
                block.language,
                if wanted.is_empty() {
                    "no diagnostic\n".to_string()
                } else {
                    wanted
                },
                if expected.is_empty() {
                    "none (no ```text block right after it)".to_string()
                } else {
                    expected.join("\n")
                }
            )),
        }
    }
    failures.extend(check_links(&page));
    failures.extend(check_editor_examples(&page));
    if !edits.is_empty() {
        let mut text = page.text.clone();
        edits.sort_by_key(|edit| std::cmp::Reverse(edit.range.start));
        for edit in edits {
            text.replace_range(edit.range, &edit.text);
        }
        std::fs::write(&path, text).map_err(|e| format!("{name}: {e}"))?;
        eprintln!("updated {name}");
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n\n").into())
    }
}

fn is_diagnostic_line(line: &str) -> bool {
    let Some((head, message)) = line.split_once("]: ") else {
        return false;
    };
    let Some((severity, code)) = head.split_once('[') else {
        return false;
    };
    let code = Code::parse(code).filter(|c| c.as_str() == code);
    // Any code may be an error (denied); otherwise its own severity.
    let known = |code: Code| {
        severity == "error" || line_of(code.severity(), code, message).starts_with(severity)
    };
    code.is_some_and(known) && !message.is_empty()
}

/// The links of `page` that lead nowhere.
fn check_links(page: &Page) -> Vec<String> {
    thread_local! {
        static ANCHORS: std::cell::RefCell<HashMap<PathBuf, HashSet<String>>> = Default::default();
    }
    let name = page.path.display().to_string();
    let dir = page.path.parent().unwrap_or(Path::new(""));
    let in_book = page.path.starts_with("docs");
    let mut failures = Vec::new();
    for link in &page.links {
        let target = &link.target;
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
        let resolved = if file.is_empty() {
            page.path.clone()
        } else {
            lexically_normal(&dir.join(file))
        };
        let fail = |why: &str| format!("{name}:{}: the link `{target}` {why}", link.line);
        if resolved.starts_with("..") || !resolved.exists() {
            failures.push(fail("names no file of the repository"));
            continue;
        }
        if in_book && !resolved.starts_with("docs") {
            failures.push(fail(
                "leaves docs/, which is all the site holds (name the file in `code` instead)",
            ));
            continue;
        }
        if fragment.is_empty() {
            continue;
        }
        let found = if resolved == page.path {
            page.anchors.contains(fragment)
        } else if resolved.extension().is_some_and(|e| e == "md") {
            ANCHORS.with(|anchors| {
                let mut anchors = anchors.borrow_mut();
                let of_target = anchors.entry(resolved.clone()).or_insert_with(|| {
                    Page::read(&resolved).map(|p| p.anchors).unwrap_or_default()
                });
                of_target.contains(fragment)
            })
        } else {
            true
        };
        if !found {
            failures.push(fail(&format!("names no anchor `#{fragment}` there")));
        }
    }
    failures
}

/// The editor tests that run a page's editor setup as written: each finds
/// its block by the words `example=NAME`.
const EDITOR_TESTS: &[&str] = &[
    "editors/nvim/test/setup_test.lua",
    "editors/emacs/test/eglot_test.el",
];

/// A block marked `example=NAME` must be one an editor test runs.
fn check_editor_examples(page: &Page) -> Vec<String> {
    let tests: String = EDITOR_TESTS
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .collect();
    page.blocks
        .iter()
        .filter_map(|block| {
            let name = block
                .words
                .iter()
                .find_map(|w| w.strip_prefix("example="))?;
            let marker = format!("{} example={name}", block.language);
            (!tests.contains(&marker)).then(|| {
                format!(
                    "{}:{}: no editor test runs the block `{marker}` ({EDITOR_TESTS:?})",
                    page.path.display(),
                    block.line
                )
            })
        })
        .collect()
}

/// `path` with its `.` and `..` resolved without the file system.
fn lexically_normal(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir if normal.file_name().is_some() => {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

/// The site renders only the pages its table of contents lists: every page
/// of `docs/` must be in `docs/SUMMARY.md`.
fn every_page_is_in_the_summary() -> Result<(), Failed> {
    let summary = Page::read(Path::new("docs/SUMMARY.md"))?;
    let listed: HashSet<PathBuf> = summary
        .links
        .iter()
        .map(|link| lexically_normal(&Path::new("docs").join(&link.target)))
        .collect();
    let missing: Vec<String> = pages()
        .into_iter()
        .filter(|page| page.starts_with("docs") && page != Path::new("docs/SUMMARY.md"))
        .filter(|page| !listed.contains(page))
        .map(|page| page.display().to_string())
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "not in docs/SUMMARY.md, so not on the site: {missing:?} (add a line `- [Title](PAGE.md)` where the page belongs)"
        )
        .into())
    }
}

fn main() {
    let mut harness = Harness::new().test(
        "docs/SUMMARY.md lists every page",
        every_page_is_in_the_summary,
    );
    let update = std::env::var_os(UPDATE_VARIABLE).is_some();
    for page in pages() {
        let name = page.display().to_string();
        harness = harness.test(&name, move || check_page(page, update));
    }
    harness.run()
}
