//! `cargo xtask book`: the documentation site, built by mdBook from
//! `docs/` (`book.toml`), with one page per diagnostic code made from the
//! one source, `docs/diagnostics.md`, at build time (so adding an entry
//! there is all a new code needs, and no copy is kept to go stale), then
//! every link of the built site checked.
//!
//! The book is staged in `target/book-src/`: `book.toml` and `docs/` as
//! they are, but `docs/diagnostics.md` becomes an index of the codes and
//! each entry its own page, `docs/diagnostics/E0201.md` (the entry, then its
//! family's introduction, which holds what its examples share), listed in
//! the table of contents under the Diagnostics chapter. The HTML goes to
//! `target/book/`.

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use easyflow_diagnostics::docs::{Documentation, Family};
use pulldown_cmark::{Event, Options, Parser, Tag};

/// The mdBook release `.ci/run` installs; another may render differently.
pub const MDBOOK_VERSION: &str = "0.5.4";

/// Builds the site into `target/book` and checks its links. `mdbook` is
/// the program to run.
pub fn build(root: &Path, target: &Path, mdbook: &str) -> Result<PathBuf, String> {
    let staging = target.join("book-src");
    let site = target.join("book");
    if staging.exists() {
        std::fs::remove_dir_all(&staging).map_err(|e| format!("{}: {e}", staging.display()))?;
    }
    stage(root, &staging)?;
    let staging_arg = staging.to_str().ok_or("a non-UTF-8 target path")?;
    let site_arg = site.to_str().ok_or("a non-UTF-8 target path")?;
    crate::run(mdbook, &["build", staging_arg, "--dest-dir", site_arg])?;
    let broken = broken_links(&site)?;
    if !broken.is_empty() {
        return Err(format!(
            "the site {} has {} broken links:\n{}",
            site.display(),
            broken.len(),
            broken.join("\n")
        ));
    }
    eprintln!("xtask: the site is {}/index.html", site.display());
    Ok(site)
}

/// Copies `book.toml` and `docs/` into `staging`, the diagnostics split
/// into their pages.
pub fn stage(root: &Path, staging: &Path) -> Result<(), String> {
    fn io(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
        move |e| format!("{}: {e}", path.display())
    }
    let docs = staging.join("docs");
    copy_tree(&root.join("docs"), &docs)?;
    std::fs::copy(root.join("book.toml"), staging.join("book.toml"))
        .map_err(io(&root.join("book.toml")))?;
    let source_path = root.join("docs/diagnostics.md");
    let source = std::fs::read_to_string(&source_path).map_err(io(&source_path))?;
    let pages = diagnostic_pages(&source)?;
    std::fs::create_dir_all(docs.join("diagnostics")).map_err(io(&docs))?;
    for page in &pages.pages {
        let path = docs.join(&page.path);
        std::fs::write(&path, &page.text).map_err(io(&path))?;
    }
    std::fs::write(docs.join("diagnostics.md"), &pages.index).map_err(io(&docs))?;
    // The other pages link an entry's page rather than its anchor.
    for entry in std::fs::read_dir(&docs).map_err(io(&docs))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let is_page = path.extension().is_some_and(|e| e == "md")
            && path.file_name().is_some_and(|n| n != "diagnostics.md");
        if is_page {
            let text = std::fs::read_to_string(&path).map_err(io(&path))?;
            std::fs::write(&path, relink(&text, LinkFrom::Page)).map_err(io(&path))?;
        }
    }
    let summary_path = docs.join("SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path).map_err(io(&summary_path))?;
    std::fs::write(&summary_path, with_code_pages(&summary, &pages)?).map_err(io(&summary_path))
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let (path, into) = (entry.path(), to.join(entry.file_name()));
        if path.is_dir() {
            copy_tree(&path, &into)?;
        } else {
            std::fs::copy(&path, &into).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// One generated page: its path under `docs/` and its Markdown.
#[derive(Debug)]
pub struct Page {
    pub path: String,
    pub title: String,
    pub text: String,
}

/// What `docs/diagnostics.md` becomes on the site.
#[derive(Debug)]
pub struct DiagnosticPages {
    /// The new `diagnostics.md`: the preamble and each family's
    /// introduction, linking to the codes' pages.
    pub index: String,
    pub pages: Vec<Page>,
}

/// Splits the text of `docs/diagnostics.md` into its site pages. Fails on
/// an entry that names no code.
pub fn diagnostic_pages(source: &str) -> Result<DiagnosticPages, String> {
    let documentation = Documentation::parse(source);
    let mut index = format!("# {}\n", documentation.title);
    index.push_str(&relink(documentation.preamble, LinkFrom::Index));
    let mut pages = Vec::new();
    for family in &documentation.families {
        index.push_str(&format!("\n## {}\n", family.heading));
        index.push_str(&relink(family.intro, LinkFrom::Index));
        let mut codes = Vec::new();
        for entry in &family.entries {
            let code = entry.code.ok_or_else(|| {
                format!(
                    "docs/diagnostics.md: the entry `{}` names no code",
                    entry.anchor
                )
            })?;
            let page = documentation
                .page(code)
                .ok_or_else(|| format!("{code}: no page"))?;
            // The anchor keeps `diagnostics.html#e0201` (a `docsUrl` of
            // the site's index) leading to the code.
            codes.push(format!(
                "<a id=\"{}\"></a>[{code}](diagnostics/{code}.md)",
                code.doc_anchor()
            ));
            pages.push(Page {
                path: format!("diagnostics/{code}.md"),
                title: entry.heading.to_string(),
                text: relink(&page, LinkFrom::CodePage),
            });
        }
        index.push_str(&format!("\nCodes: {}.\n", codes.join(", ")));
        check_family_shape(family)?;
    }
    Ok(DiagnosticPages { index, pages })
}

/// A family's entries each begin with their code (a page's title is its
/// heading).
fn check_family_shape(family: &Family<'_>) -> Result<(), String> {
    for entry in &family.entries {
        let code = entry.code.map(|c| c.as_str()).unwrap_or("?");
        if !entry.heading.starts_with(&format!("{code}: ")) {
            return Err(format!(
                "docs/diagnostics.md: the heading of {code} is `{}`; it must start with `{code}: `",
                entry.heading
            ));
        }
    }
    Ok(())
}

/// Where a generated text is, which decides how its links are rewritten.
#[derive(Clone, Copy, PartialEq)]
enum LinkFrom {
    /// Another page of `docs/`: `diagnostics.md#e0201` is the page
    /// `diagnostics/E0201.md`.
    Page,
    /// `docs/diagnostics.md`: an entry's anchor becomes its page.
    Index,
    /// `docs/diagnostics/CODE.md`: one folder down.
    CodePage,
}

/// The links of `text` as they must be written where it now stands: in
/// the text of `docs/diagnostics.md`, `#e0201` is the page `E0201.md`,
/// another anchor stays on the index, and a relative path goes one folder
/// up from a code's page; in another page, `diagnostics.md#e0201` is the
/// code's page.
fn relink(text: &str, from: LinkFrom) -> String {
    let mut edits = Vec::new();
    for (event, range) in Parser::new_ext(text, Options::ENABLE_TABLES).into_offset_iter() {
        let Event::Start(Tag::Link { dest_url, .. }) = event else {
            continue;
        };
        let dest = dest_url.to_string();
        if dest.contains("://") || dest.starts_with("mailto:") {
            continue;
        }
        let (path, fragment) = dest.split_once('#').unwrap_or((&dest, ""));
        let code = easyflow_diagnostics::Code::from_anchor(fragment);
        let new = match (from, code) {
            (LinkFrom::Page, Some(code)) if path == "diagnostics.md" => {
                format!("diagnostics/{code}.md")
            }
            (LinkFrom::Index, Some(code)) if path.is_empty() => format!("diagnostics/{code}.md"),
            (LinkFrom::Page | LinkFrom::Index, _) => continue,
            (LinkFrom::CodePage, Some(code)) if path.is_empty() => format!("{code}.md"),
            (LinkFrom::CodePage, _) if path.is_empty() => format!("../diagnostics.md#{fragment}"),
            (LinkFrom::CodePage, _) => format!("../{dest}"),
        };
        // The destination as written: the last `(dest)` of the link.
        let written = format!("]({dest})");
        if let Some(at) = text[range.clone()].rfind(&written) {
            let start = range.start + at + 2;
            edits.push((start..start + dest.len(), new));
        }
    }
    let mut text = text.to_string();
    for (range, new) in edits.into_iter().rev() {
        text.replace_range(range, &new);
    }
    text
}

/// `summary` with the codes' pages nested under its Diagnostics chapter
/// (the line that links `diagnostics.md`).
fn with_code_pages(summary: &str, pages: &DiagnosticPages) -> Result<String, String> {
    let mut out = String::new();
    let mut placed = false;
    for line in summary.lines() {
        out.push_str(line);
        out.push('\n');
        if line.contains("(diagnostics.md)") && !placed {
            let indent = line.len() - line.trim_start().len();
            for page in &pages.pages {
                out.push_str(&format!(
                    "{}- [{}]({})\n",
                    " ".repeat(indent + 4),
                    page.title.replace(['[', ']'], ""),
                    page.path
                ));
            }
            placed = true;
        }
    }
    if placed {
        Ok(out)
    } else {
        Err("docs/SUMMARY.md has no chapter linking diagnostics.md".into())
    }
}

/// Every link of the site's HTML that leads nowhere: a relative `href` or
/// `src` whose file does not exist, or whose `#fragment` is no `id` of that
/// page.
pub fn broken_links(site: &Path) -> Result<Vec<String>, String> {
    // Links are resolved lexically: from a path without `..` in it.
    let site = &site
        .canonicalize()
        .map_err(|e| format!("{}: {e}", site.display()))?;
    let mut pages = Vec::new();
    collect_html(site, &mut pages)?;
    let mut ids: HashMap<PathBuf, HashSet<String>> = HashMap::new();
    let mut links = Vec::new();
    for page in &pages {
        let html = std::fs::read_to_string(page).map_err(|e| format!("{}: {e}", page.display()))?;
        let scanned = scan_html(&html);
        ids.insert(page.clone(), scanned.ids);
        // Relative links start from the page's folder, or its `<base>`.
        let base = match scanned.base.as_deref() {
            Some(base) if base.starts_with('/') => site.join(base.trim_start_matches('/')),
            Some(base) => page.parent().unwrap_or(site).join(base),
            None => page.parent().unwrap_or(site).to_path_buf(),
        };
        links.extend(
            scanned
                .links
                .into_iter()
                .map(|link| (page.clone(), base.clone(), link)),
        );
    }
    let mut broken = Vec::new();
    for (page, base, link) in links {
        if link.contains("://")
            || link.starts_with("mailto:")
            || link.starts_with("javascript:")
            || link.starts_with("data:")
        {
            continue;
        }
        let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
        let path = path.split('?').next().unwrap_or("");
        let target = if path.is_empty() {
            page.clone()
        } else if let Some(from_root) = path.strip_prefix('/') {
            normal(&site.join(from_root))
        } else {
            normal(&base.join(path))
        };
        let shown = || {
            format!(
                "{}: `{link}`",
                page.strip_prefix(site).unwrap_or(&page).display()
            )
        };
        if !target.starts_with(site) || !target.exists() {
            broken.push(format!("{}: no such file", shown()));
            continue;
        }
        let target = if target.is_dir() {
            target.join("index.html")
        } else {
            target
        };
        if fragment.is_empty() || target.extension().is_none_or(|e| e != "html") {
            continue;
        }
        if !ids.get(&target).is_some_and(|ids| ids.contains(fragment)) {
            broken.push(format!("{}: no id `{fragment}` there", shown()));
        }
    }
    Ok(broken)
}

fn collect_html(dir: &Path, into: &mut Vec<PathBuf>) -> Result<(), String> {
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            collect_html(&path, into)?;
        } else if path.extension().is_some_and(|e| e == "html") {
            into.push(path);
        }
    }
    Ok(())
}

/// What the link check needs of an HTML page.
#[derive(Debug, Default)]
struct Scanned {
    /// Every `id` (and `name`) an anchor can name.
    ids: HashSet<String>,
    /// Every `href` and `src`, but `<base>`'s.
    links: Vec<String>,
    /// `<base href>`, where relative links start.
    base: Option<String>,
}

/// The ids, links and base of an HTML page.
fn scan_html(html: &str) -> Scanned {
    let mut scanned = Scanned::default();
    for token in html5gum::Tokenizer::new(html).flatten() {
        let html5gum::Token::StartTag(tag) = token else {
            continue;
        };
        let is_base = &**tag.name == b"base";
        for (name, value) in &tag.attributes {
            let value = String::from_utf8_lossy(&value.value).into_owned();
            match &***name {
                b"id" | b"name" => {
                    scanned.ids.insert(value);
                }
                b"href" if is_base => scanned.base = Some(value),
                b"href" | b"src" if !value.is_empty() && value != "#" => scanned.links.push(value),
                _ => {}
            }
        }
    }
    scanned
}

/// `path` with `.` and `..` resolved without the file system.
fn normal(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// Every code gets its page, each page's title is its heading, and
    /// the table of contents lists them all under Diagnostics.
    #[test]
    fn every_code_has_its_page_in_the_table_of_contents() {
        let source = std::fs::read_to_string(root().join("docs/diagnostics.md")).unwrap();
        let pages = diagnostic_pages(&source).unwrap();
        for code in easyflow_diagnostics::Code::ALL {
            let page = pages
                .pages
                .iter()
                .find(|p| p.path == format!("diagnostics/{code}.md"))
                .unwrap_or_else(|| panic!("{code} has no page"));
            assert!(page.text.starts_with(&format!("# {code}: ")), "{code}");
            assert!(pages.index.contains(&format!(
                "<a id=\"{}\"></a>[{code}](diagnostics/{code}.md)",
                code.doc_anchor()
            )));
        }
        let summary = std::fs::read_to_string(root().join("docs/SUMMARY.md")).unwrap();
        let summary = with_code_pages(&summary, &pages).unwrap();
        for page in &pages.pages {
            assert!(
                summary.contains(&format!("]({})", page.path)),
                "{}",
                page.path
            );
        }
    }

    /// A new entry in docs/diagnostics.md is all a new page takes.
    #[test]
    fn a_new_entry_is_a_new_page() {
        let source = "# Diagnostics\n\nSee [E0201](#e0201).\n\n# Names (E02xx)\n\nScoped.\n\n\
<a id=\"e0201\"></a>\n## E0201: unresolved name\n\nLike [W0206](#w0206), [the catalog](catalog.md#format), [reading](#reading-a-code).\n\n\
<a id=\"w0206\"></a>\n## W0206: required file never used\n\nBody.\n";
        let pages = diagnostic_pages(source).unwrap();
        assert_eq!(
            pages.index,
            "# Diagnostics\n\nSee [E0201](diagnostics/E0201.md).\n\n\n## Names (E02xx)\n\nScoped.\n\n\nCodes: <a id=\"e0201\"></a>[E0201](diagnostics/E0201.md), <a id=\"w0206\"></a>[W0206](diagnostics/W0206.md).\n"
        );
        assert_eq!(pages.pages.len(), 2);
        assert_eq!(
            pages.pages[0].text,
            "# E0201: unresolved name\n\nLike [W0206](W0206.md), [the catalog](../catalog.md#format), [reading](../diagnostics.md#reading-a-code).\n\n## The family: Names (E02xx)\n\nScoped.\n"
        );
    }

    /// A missing file and a missing anchor are found; a link to an
    /// existing anchor, an external link and a `<base>`-relative link are
    /// not.
    #[test]
    fn broken_links_are_found() {
        let site = std::env::temp_dir().join(format!("xtask-links-{}", std::process::id()));
        std::fs::create_dir_all(site.join("sub")).unwrap();
        // Reached through `..`, as `cargo xtask test` names the target.
        let through_parent = site.join("sub/..");
        std::fs::write(
            site.join("index.html"),
            "<h1 id=\"top\">x</h1><a href=\"sub/b.html#there\">ok</a><a href=\"#top\">ok</a>\
             <a href=\"sub/b.html#nowhere\">bad</a><a href=\"missing.html\">bad</a><a href=\"https://example.org/x\">ok</a>",
        )
        .unwrap();
        std::fs::write(
            site.join("sub/b.html"),
            "<p id=\"there\"></p><a href=\"../index.html#top\">ok</a>",
        )
        .unwrap();
        std::fs::write(
            site.join("404.html"),
            "<base href=\"/\"><a href=\"sub/b.html\">ok</a><a href=\"/\">ok</a>",
        )
        .unwrap();
        let broken = broken_links(&through_parent).unwrap();
        std::fs::remove_dir_all(&site).unwrap();
        assert_eq!(
            broken,
            [
                "index.html: `sub/b.html#nowhere`: no id `nowhere` there",
                "index.html: `missing.html`: no such file",
            ]
        );
    }

    #[test]
    fn html_ids_and_links() {
        let scanned = scan_html(
            "<base href=\"/\"><h2 id=\"a-b\">x</h2><a href=\"b.html#c\">y</a><a href=\"#\">top</a><script src=\"x.js\"></script><a name=\"n\"></a>",
        );
        assert_eq!(
            scanned.ids,
            HashSet::from(["a-b".to_string(), "n".to_string()])
        );
        assert_eq!(scanned.links, ["b.html#c", "x.js"]);
        assert_eq!(scanned.base.as_deref(), Some("/"));
    }
}
