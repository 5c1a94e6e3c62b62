//! `easyflow explain CODE`: a code's documentation in the terminal (as
//! `rustc --explain`), and the documentation link that ends every
//! diagnostic of the human report. Both come from `docs/diagnostics.md`,
//! built into the binary for `explain`, so it works wherever the binary is.

use std::io::{self, IsTerminal, Write};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use easyflow_diagnostics::Code;
use easyflow_diagnostics::docs::{self, Documentation};

use crate::exit;

/// `docs/diagnostics.md` as it was when the binary was built.
pub const DIAGNOSTICS_MD: &str = include_str!("../../../docs/diagnostics.md");

/// The variable that says where the documentation is, for the links of the
/// human report (as the editor setting `docsUrl` does for the server): the
/// URL of a copy of `docs/diagnostics.md`, or of a site's page per code
/// with `{code}` in it.
pub const DOCS_URL_VARIABLE: &str = "EASYFLOW_DOCS_URL";

/// Prints the documentation of `code` (standard output, through a pager on
/// a terminal); an unknown code gets a message on stderr and exit 2.
pub fn run(code: &str) -> u8 {
    let page = match page(code) {
        Ok(page) => page,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::FAILURE;
        }
    };
    let stdout = io::stdout();
    if stdout.is_terminal() && page_through_pager(&page) {
        return exit::OK;
    }
    let mut out = stdout.lock();
    match out.write_all(page.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => exit::OK,
        // A closed pipe (`easyflow explain E0201 | head`) is no failure.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => exit::OK,
        Err(error) => {
            eprintln!("error: cannot write the documentation: {error}");
            exit::FAILURE
        }
    }
}

/// What `explain` prints for `code` (written as `E0201`, `e0201` or
/// `0201`): its page, then where the full documentation is. An unknown
/// code is the message that says so.
pub fn page(code: &str) -> Result<String, String> {
    let Some(known) = Code::parse(code) else {
        let suggestion = Code::closest(code)
            .map(|code| format!(" (did you mean `{code}`?)"))
            .unwrap_or_default();
        return Err(format!(
            "`{code}` is not a diagnostic code of easyflow{suggestion}; codes are a letter (E, W or I) and four digits, listed in docs/diagnostics.md"
        ));
    };
    let documentation = Documentation::parse(DIAGNOSTICS_MD);
    let mut page = documentation
        .page(known)
        .ok_or_else(|| format!("`{known}` has no entry in docs/diagnostics.md"))?;
    if let Some(url) = url(known) {
        page.push_str(&format!("\nDocumentation: {url}\n"));
    }
    Ok(page)
}

/// The pager of `$PAGER`, else `less -R`; false when none runs (the page is
/// then printed as it is).
fn page_through_pager(page: &str) -> bool {
    let pager = std::env::var("PAGER")
        .ok()
        .filter(|p| !p.trim().is_empty())
        .unwrap_or_else(|| "less -R".to_string());
    let mut words = pager.split_whitespace();
    let Some(program) = words.next() else {
        return false;
    };
    let Ok(mut child) = Command::new(program)
        .args(words)
        .stdin(Stdio::piped())
        .spawn()
    else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        // The user may quit the pager before reading it all.
        let _ = stdin.write_all(page.as_bytes());
    }
    child.wait().is_ok()
}

/// The link to `code`'s documentation: from `EASYFLOW_DOCS_URL`, else the
/// installed `docs/diagnostics.md` (`docs::installed_file`); `None` when
/// neither is there (`easyflow explain` still is).
pub fn url(code: Code) -> Option<String> {
    static BASE: OnceLock<Option<String>> = OnceLock::new();
    let base = BASE.get_or_init(|| {
        std::env::var(DOCS_URL_VARIABLE)
            .ok()
            .filter(|url| !url.is_empty())
            .or_else(|| {
                let exe = std::env::current_exe().ok();
                docs::installed_file(exe.as_deref()).map(|path| file_url(&path))
            })
    });
    base.as_deref().map(|base| docs::url(base, code))
}

/// The note that ends each diagnostic of the human report.
pub fn note(code: Code) -> String {
    match url(code) {
        Some(url) => format!("see {url}"),
        None => format!("see `easyflow explain {code}`"),
    }
}

/// `file://` and the absolute `path`, its bytes percent-encoded where a URL
/// needs it.
fn file_url(path: &std::path::Path) -> String {
    use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
    const PATH: &AsciiSet = &CONTROLS
        .add(b' ')
        .add(b'"')
        .add(b'#')
        .add(b'%')
        .add(b'<')
        .add(b'>')
        .add(b'?')
        .add(b'`')
        .add(b'{')
        .add(b'}');
    let path = path.to_string_lossy().replace('\\', "/");
    let slash = if path.starts_with('/') { "" } else { "/" };
    format!("file://{slash}{}", utf8_percent_encode(&path, PATH))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `explain` covers every code: each has its page, starting with its
    /// heading.
    #[test]
    fn every_code_has_a_page() {
        for code in Code::ALL {
            let page = page(code.as_str()).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                page.starts_with(&format!("# {code}: ")),
                "{code}: {}",
                page.lines().next().unwrap_or("")
            );
            assert!(page.contains("Fix"), "{code}'s entry says no fix");
        }
    }

    #[test]
    fn unknown_codes_are_refused_with_a_suggestion() {
        assert_eq!(
            page("E0209").unwrap_err(),
            "`E0209` is not a diagnostic code of easyflow (did you mean `I0209`?); codes are a letter (E, W or I) and four digits, listed in docs/diagnostics.md"
        );
        assert!(!page("hello").unwrap_err().contains("did you mean"));
        assert!(page("w0206").is_ok() && page("0206").is_ok());
    }

    #[test]
    fn file_urls_encode_what_a_url_cannot_hold() {
        assert_eq!(
            file_url(std::path::Path::new("/home/a b/#x/docs/diagnostics.md")),
            "file:///home/a%20b/%23x/docs/diagnostics.md"
        );
    }
}
