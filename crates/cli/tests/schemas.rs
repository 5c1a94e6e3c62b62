//! The JSON Schemas of `schemas/` (for TOML editors: `docs/editors.md`)
//! tested against the readers they describe, so that they cannot drift
//! apart: every catalog and `easyflow.toml` of the documentation (the
//! ```` ```toml catalog ````/```` ```toml config ```` blocks) and of the
//! test data that its reader accepts without a diagnostic validates, and
//! every one its reader reports an error or unknown key in (E0810, E0901,
//! W0902, W0904) fails validation, unless every such diagnostic is one a
//! schema cannot express (listed in [`inexpressible`]: duplicates, bounds
//! compared with each other or with a default, text that is not TOML).

use std::path::{Path, PathBuf};

use easyflow_diagnostics::{Code, Diagnostic, Severity};
use jsonschema::Validator;
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use serde_json::Value;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn validator(name: &str) -> Validator {
    let text = std::fs::read_to_string(repo_root().join("schemas").join(name)).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft7::new(&schema).unwrap_or_else(|e| panic!("{name} is no schema: {e}"))
}

/// What a file is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Catalog,
    Config,
}

/// One example: where it is, its text, and what it is.
struct Example {
    place: String,
    text: String,
    kind: Kind,
}

/// The TOML blocks of the documentation that say what they are (as
/// `tests/docs.rs` reads them).
fn documentation_examples() -> Vec<Example> {
    let mut pages = vec![repo_root().join("README.md")];
    for entry in std::fs::read_dir(repo_root().join("docs"))
        .unwrap()
        .flatten()
    {
        if entry.path().extension().is_some_and(|e| e == "md") {
            pages.push(entry.path());
        }
    }
    pages.sort();
    let mut examples = Vec::new();
    for page in pages {
        let markdown = std::fs::read_to_string(&page).unwrap();
        let mut current: Option<(Kind, String)> = None;
        for event in Parser::new(&markdown) {
            match event {
                Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                    let mut words = info.split_whitespace();
                    if words.next() != Some("toml") {
                        continue;
                    }
                    let words: Vec<&str> = words.collect();
                    let named = |name: &str| {
                        words
                            .iter()
                            .any(|w| w.strip_prefix("file=").is_some_and(|f| f.ends_with(name)))
                    };
                    let kind = if words.contains(&"catalog") || named("easyflow-packages.toml") {
                        Some(Kind::Catalog)
                    } else if words.contains(&"config") || named("easyflow.toml") {
                        Some(Kind::Config)
                    } else {
                        None
                    };
                    current = kind.map(|kind| (kind, String::new()));
                }
                Event::Text(text) => {
                    if let Some((_, block)) = &mut current {
                        block.push_str(&text);
                    }
                }
                Event::End(TagEnd::CodeBlock) => {
                    if let Some((kind, text)) = current.take() {
                        examples.push(Example {
                            place: format!("{} (block {})", page.display(), examples.len()),
                            text,
                            kind,
                        });
                    }
                }
                _ => {}
            }
        }
    }
    examples
}

/// Every catalog and `easyflow.toml` of the test data and the examples.
fn file_examples() -> Vec<Example> {
    let mut files = Vec::new();
    for dir in ["tests/data", "examples"] {
        collect(&repo_root().join(dir), &mut files);
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|path| {
            let kind = match path.file_name()?.to_str()? {
                "easyflow.toml" => Kind::Config,
                // The CLI tests' own `easyflow.toml` cases are named so.
                name if name.ends_with(".toml") => Kind::Catalog,
                _ => return None,
            };
            // A catalog that is not UTF-8 is not TOML: nothing to validate.
            let text = std::fs::read_to_string(&path).ok()?;
            Some(Example {
                place: path.display().to_string(),
                text,
                kind,
            })
        })
        .collect()
}

fn collect(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, into);
        } else {
            into.push(path);
        }
    }
}

/// The diagnostics of an example that a schema speaks of: errors of the
/// reader, and unknown or unusable keys and codes.
fn reader_diagnostics(example: &Example) -> Vec<Diagnostic> {
    let diagnostics = match example.kind {
        Kind::Catalog => easyflow_catalog::parse(&example.text).diagnostics,
        Kind::Config => easyflow_project::config::parse_config(&example.text).diagnostics,
    };
    diagnostics
        .into_iter()
        .filter(|d| {
            matches!(
                d.code,
                Code::E0810 | Code::E0901 | Code::W0902 | Code::W0904
            )
        })
        .collect()
}

/// Whether a schema cannot say what the diagnostic says: it compares
/// values with each other (duplicates, `min` above `max`, a default out of
/// range or not among an Enum's values, a code in both lists), or a number
/// does not fit in 64 bits.
fn inexpressible(diagnostic: &Diagnostic) -> bool {
    let message = diagnostic.message.as_str();
    [
        "is defined twice",
        "has two parameters",
        "declares the output",
        "is less than `min`",
        "expects one of",
        "expects a value",
        "is both allowed and denied",
        "does not fit in 64 bits",
    ]
    .iter()
    .any(|phrase| message.contains(phrase))
}

/// Every key and value of a TOML text with its JSON pointer and span (an
/// array of tables' element spans its header).
fn toml_places(text: &str) -> Vec<(String, std::ops::Range<usize>)> {
    use toml::Spanned;
    use toml::de::{DeTable, DeValue};
    fn value(
        path: &str,
        spanned: &Spanned<DeValue<'_>>,
        into: &mut Vec<(String, std::ops::Range<usize>)>,
    ) {
        into.push((path.to_string(), spanned.span()));
        match spanned.get_ref() {
            DeValue::Table(inner) => table(path, inner, into),
            DeValue::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    value(&format!("{path}/{i}"), item, into);
                }
            }
            _ => {}
        }
    }
    fn table(path: &str, table: &DeTable<'_>, into: &mut Vec<(String, std::ops::Range<usize>)>) {
        for (key, item) in table {
            let path = format!("{path}/{}", key.get_ref());
            into.push((path.clone(), key.span()));
            value(&path, item, into);
        }
    }
    let mut places = Vec::new();
    if let Ok(root) = DeTable::parse(text) {
        table("", root.get_ref(), &mut places);
    }
    places
}

/// The JSON pointer of the innermost key or value that holds the
/// diagnostic's range ("" for the whole file).
fn place_of(places: &[(String, std::ops::Range<usize>)], diagnostic: &Diagnostic) -> String {
    let start = usize::from(diagnostic.range.start());
    let end = usize::from(diagnostic.range.end());
    places
        .iter()
        .filter(|(_, span)| span.start <= start && end <= span.end)
        // The innermost; of equal spans (an array of tables and its first
        // element: their headers), the deeper.
        .min_by_key(|(path, span)| (span.len(), std::cmp::Reverse(path.matches('/').count())))
        .map(|(path, _)| path.clone())
        .unwrap_or_default()
}

#[test]
fn the_schemas_accept_what_the_readers_accept_and_reject_their_errors() {
    let catalog = validator("easyflow-packages.schema.json");
    let config = validator("easyflow.schema.json");
    let examples: Vec<Example> = documentation_examples()
        .into_iter()
        .chain(file_examples())
        .collect();
    let (mut accepted, mut rejected, mut not_expressible) = (0, 0, 0);
    let mut failures = Vec::new();
    for example in &examples {
        let diagnostics = reader_diagnostics(example);
        // Not TOML: the editor's TOML support says so, not the schema.
        let Ok(json) = toml::from_str::<Value>(&example.text) else {
            assert!(!diagnostics.is_empty(), "{}: not TOML", example.place);
            not_expressible += 1;
            continue;
        };
        let schema = match example.kind {
            Kind::Catalog => &catalog,
            Kind::Config => &config,
        };
        let errors: Vec<(String, String)> = schema
            .iter_errors(&json)
            .map(|e| (e.instance_path().to_string(), e.to_string()))
            .collect();
        if diagnostics.is_empty() {
            accepted += 1;
            if !errors.is_empty() {
                failures.push(format!(
                    "{}: the reader accepts it, the schema does not: {errors:?}\n{}",
                    example.place, example.text
                ));
            }
        } else if diagnostics.iter().all(inexpressible) {
            not_expressible += 1;
        } else {
            rejected += 1;
            // Each expressible diagnostic is one the schema reports, on the
            // table that holds the key or value it is on, or on a key of
            // that table.
            let places = toml_places(&example.text);
            for diagnostic in diagnostics.iter().filter(|d| !inexpressible(d)) {
                let path = place_of(&places, diagnostic);
                // The table that holds the key or value (an element of an
                // array of tables: itself).
                let table = match path.rsplit_once('/') {
                    Some((_, last)) if last.parse::<usize>().is_ok() => path.as_str(),
                    Some((table, _)) => table,
                    None => "",
                };
                let found = errors.iter().any(|(at, _)| {
                    at == table
                        || at
                            .strip_prefix(table)
                            .is_some_and(|rest| rest.starts_with('/') && !rest[1..].contains('/'))
                });
                if !found {
                    failures.push(format!(
                        "{}: the reader reports {:?} at {path}, the schema does not (it reports {errors:?})\n{}",
                        example.place, diagnostic.message, example.text
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The examples are there: the test compares something.
    assert!(accepted >= 20, "only {accepted} accepted examples");
    assert!(rejected >= 15, "only {rejected} rejected examples");
    eprintln!("{accepted} accepted, {rejected} rejected, {not_expressible} not expressible");
}

/// The codes `[diagnostics] allow` and `deny` take are the W and I codes.
#[test]
fn the_configuration_schema_lists_every_silenceable_code() {
    let text = std::fs::read_to_string(repo_root().join("schemas/easyflow.schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    let listed: Vec<&str> = schema["definitions"]["silenceable"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let silenceable: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| c.severity() != Severity::Error)
        .map(|c| c.as_str())
        .collect();
    assert_eq!(listed, silenceable);
}

/// Each schema is the one the VS Code extension contributes.
#[test]
fn the_schemas_are_contributed_to_toml_editors() {
    let text = std::fs::read_to_string(repo_root().join("editors/vscode/package.json")).unwrap();
    let package: Value = serde_json::from_str(&text).unwrap();
    let contributed: Vec<(String, String)> = package["contributes"]["tomlValidation"]
        .as_array()
        .expect("a `tomlValidation` contribution")
        .iter()
        .map(|v| {
            (
                v["fileMatch"].to_string(),
                v["url"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for schema in ["easyflow.schema.json", "easyflow-packages.schema.json"] {
        let url = format!("./schemas/{schema}");
        assert!(
            contributed.iter().any(|(_, u)| *u == url),
            "{schema} is not contributed: {contributed:?}"
        );
    }
    // The VSIX holds the files its build copies in from `schemas/`.
    let files = package["files"].to_string();
    assert!(files.contains("schemas/*.schema.json"), "{files}");
    let build =
        std::fs::read_to_string(repo_root().join("editors/vscode/scripts/build.mjs")).unwrap();
    assert!(
        build.contains("\"schemas\""),
        "build.mjs copies the schemas"
    );
}
