//! The queries and the editor setups:
//!
//! - every query file (the grammars' own, with Neovim's capture names, and
//!   the Helix and Zed copies) compiles against its grammar;
//! - the Helix and Zed copies are the grammars' queries with the captures
//!   renamed to each editor's names by the tables below (`UPDATE_EXPECT=1
//!   cargo test -p tree-sitter-easyflow --test queries` rewrites them);
//! - injections, locals, folds and indents capture what they should;
//! - the Helix and Zed configurations name the grammars that exist.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use tree_sitter::{Language, Query, QueryCursor, StreamingIterator};

/// Capture names: Neovim's (the grammars' queries) → an editor's.
type CaptureNames = &'static [(&'static str, &'static str)];

/// Neovim's capture names → Helix's.
const HELIX_NAMES: CaptureNames = &[
    ("attribute", "attribute"),
    ("boolean", "constant.builtin.boolean"),
    ("comment", "comment"),
    ("constant.builtin", "constant.builtin"),
    ("function", "function"),
    ("keyword", "keyword"),
    ("keyword.import", "keyword.control.import"),
    ("keyword.modifier", "keyword.storage.modifier"),
    ("label", "label"),
    ("module", "namespace"),
    ("number", "constant.numeric.integer"),
    ("number.float", "constant.numeric.float"),
    ("operator", "operator"),
    ("punctuation.bracket", "punctuation.bracket"),
    ("punctuation.delimiter", "punctuation.delimiter"),
    ("string", "string"),
    ("string.escape", "constant.character.escape"),
    ("type", "type"),
    ("variable", "variable"),
    ("variable.member", "variable.other.member"),
    ("variable.parameter", "variable.parameter"),
    ("local.scope", "local.scope"),
    ("local.definition.function", "local.definition.function"),
    ("local.definition.var", "local.definition.variable"),
    ("local.reference", "local.reference"),
];

/// Neovim's capture names → Zed's. Zed's themes fall back from `a.b` to
/// `a`, so most names stay; Zed has no `module` and colours members as
/// `property`.
const ZED_NAMES: CaptureNames = &[
    ("attribute", "attribute"),
    ("boolean", "boolean"),
    ("comment", "comment"),
    ("constant.builtin", "constant.builtin"),
    ("function", "function"),
    ("keyword", "keyword"),
    ("keyword.import", "keyword.import"),
    ("keyword.modifier", "keyword.modifier"),
    ("label", "label"),
    ("module", "type"),
    ("number", "number"),
    ("number.float", "number.float"),
    ("operator", "operator"),
    ("punctuation.bracket", "punctuation.bracket"),
    ("punctuation.delimiter", "punctuation.delimiter"),
    ("string", "string"),
    ("string.escape", "string.escape"),
    ("type", "type"),
    ("variable", "variable"),
    ("variable.member", "property"),
    ("variable.parameter", "variable.parameter"),
];

/// The editor copies: (source, copy, capture names; none for injections,
/// whose captures every editor names alike).
const COPIES: &[(&str, &str, Option<CaptureNames>)] = &[
    (
        "easyflow/queries/highlights.scm",
        "helix/runtime/queries/easyflow/highlights.scm",
        Some(HELIX_NAMES),
    ),
    (
        "easyflow/queries/injections.scm",
        "helix/runtime/queries/easyflow/injections.scm",
        None,
    ),
    (
        "easyflow/queries/locals.scm",
        "helix/runtime/queries/easyflow/locals.scm",
        Some(HELIX_NAMES),
    ),
    (
        "topology/queries/highlights.scm",
        "helix/runtime/queries/easyflow-topology/highlights.scm",
        Some(HELIX_NAMES),
    ),
    (
        "easyflow/queries/highlights.scm",
        "zed/languages/easyflow/highlights.scm",
        Some(ZED_NAMES),
    ),
    (
        "easyflow/queries/injections.scm",
        "zed/languages/easyflow/injections.scm",
        None,
    ),
    (
        "topology/queries/highlights.scm",
        "zed/languages/easyflow-topology/highlights.scm",
        Some(ZED_NAMES),
    ),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    let path = root().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `source` with its leading comment (which describes the source) replaced
/// by a note on where the copy comes from, and its captures renamed.
fn copy_of(source_path: &str, source: &str, names: Option<&[(&str, &str)]>) -> String {
    let body = source
        .split_once("\n\n")
        .filter(|(head, _)| head.lines().all(|line| line.starts_with(';')))
        .map_or(source, |(_, body)| body);
    let mut out = format!(
        "; Generated from editors/tree-sitter/{source_path} by\n\
         ; editors/tree-sitter/tests/queries.rs (UPDATE_EXPECT=1): edit that file.\n\n"
    );
    let Some(names) = names else {
        out.push_str(body);
        return out;
    };
    let mut rest = body;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        // Captures starting with `_` are the query's own, not highlights.
        let renamed = if name.starts_with('_') {
            name
        } else {
            names
                .iter()
                .find(|(from, _)| *from == name)
                .map(|(_, to)| *to)
                .unwrap_or_else(|| panic!("{source_path}: no editor name for @{name}"))
        };
        out.push_str(renamed);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn editor_copies_are_up_to_date() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut stale = Vec::new();
    for (source_path, copy_path, names) in COPIES {
        let expected = copy_of(source_path, &read(source_path), *names);
        let path = root().join(copy_path);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(expected.as_str()) {
            continue;
        }
        if update {
            std::fs::write(&path, &expected).unwrap_or_else(|e| panic!("{copy_path}: {e}"));
        } else {
            stale.push(*copy_path);
        }
    }
    assert!(
        stale.is_empty(),
        "out of date (UPDATE_EXPECT=1 to regenerate): {}",
        stale.join(", ")
    );
}

/// The grammar a query file belongs to, by its path.
fn language_of(path: &Path) -> Language {
    let text = path.to_string_lossy();
    if text.contains("topology") {
        tree_sitter_easyflow::TOPOLOGY_LANGUAGE.into()
    } else {
        tree_sitter_easyflow::LANGUAGE.into()
    }
}

fn query_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            query_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "scm") {
            found.push(path);
        }
    }
}

#[test]
fn every_query_compiles() {
    let mut files = Vec::new();
    for dir in ["easyflow/queries", "topology/queries", "helix", "zed"] {
        query_files(&root().join(dir), &mut files);
    }
    assert!(files.len() >= 18, "only {} query files", files.len());
    for path in files {
        let source = std::fs::read_to_string(&path).expect("a readable query");
        if let Err(error) = Query::new(&language_of(&path), &source) {
            panic!("{}: {error}", path.display());
        }
    }
}

/// The texts captured as `capture` by `query` on `text` (flow grammar),
/// with the `#set!` values of the matching pattern.
fn captures(query_source: &str, text: &str, capture: &str) -> Vec<(String, Vec<String>)> {
    let language: Language = tree_sitter_easyflow::LANGUAGE.into();
    let query = Query::new(&language, query_source).expect("a valid query");
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&language).expect("a supported ABI");
    let tree = parser.parse(text, None).expect("no timeout is set");
    assert!(!tree.root_node().has_error(), "{text}");
    let index = query
        .capture_index_for_name(capture)
        .unwrap_or_else(|| panic!("no @{capture}"));
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(&query, tree.root_node(), text.as_bytes());
    let mut found = Vec::new();
    while let Some(found_match) = matches.next() {
        let settings: Vec<String> = query
            .property_settings(found_match.pattern_index)
            .iter()
            .map(|p| format!("{}={}", p.key, p.value.as_deref().unwrap_or("")))
            .collect();
        for c in found_match.captures().iter().filter(|c| c.index == index) {
            found.push((text[c.node.byte_range()].to_string(), settings.clone()));
        }
    }
    found
}

const CODE_BLOCKS: &str = "step A runs P ()\n\
    pre code python\n  print(1)\ncode end\n\
    post code ruby\n  puts 1\ncode end\n\
    post code shell\n  echo 1\ncode end\n\
    post code sh\n  echo 2\ncode end\n\
    post code\n  plain\ncode end;\n";

#[test]
fn code_blocks_are_injected_in_their_language() {
    let query = tree_sitter_easyflow::INJECTIONS_QUERY;
    let languages: Vec<String> = captures(query, CODE_BLOCKS, "injection.language")
        .into_iter()
        .map(|(text, _)| text)
        .collect();
    assert_eq!(languages, ["python", "ruby"]);
    let shell: Vec<(String, Vec<String>)> = captures(query, CODE_BLOCKS, "injection.content")
        .into_iter()
        .filter(|(_, settings)| !settings.is_empty())
        .collect();
    assert_eq!(
        shell,
        [
            (
                "\n  echo 1\n".to_string(),
                vec!["injection.language=bash".to_string()]
            ),
            (
                "\n  echo 2\n".to_string(),
                vec!["injection.language=bash".to_string()]
            ),
        ]
    );
}

#[test]
fn locals_define_steps_and_files_and_reference_them() {
    let text = "require f;\nstep A runs P (x = f);\nstep B runs P after A (y = A.outs);\n";
    let query = tree_sitter_easyflow::LOCALS_QUERY;
    let texts = |capture| -> Vec<String> {
        captures(query, text, capture)
            .into_iter()
            .map(|(text, _)| text)
            .collect()
    };
    assert_eq!(texts("local.definition.function"), ["A", "B"]);
    assert_eq!(texts("local.definition.var"), ["f"]);
    assert_eq!(texts("local.reference"), ["f", "A", "A"]);
    assert_eq!(texts("local.scope").len(), 1);
}

#[test]
fn folds_and_indents_capture_the_brackets() {
    let text =
        "[priority = @high]\nstep A runs P\n(\n  x = [1,\n    2]\n)\npost code\n  z\ncode end\n";
    let kinds = |query: &str, capture: &str| -> BTreeSet<String> {
        captures(query, text, capture)
            .into_iter()
            .map(|(text, _)| text.chars().take(6).collect())
            .collect()
    };
    assert_eq!(
        kinds(tree_sitter_easyflow::FOLDS_QUERY, "fold"),
        BTreeSet::from(["(\n  x ", "[1,\n  ", "[prior", "code\n "].map(String::from))
    );
    assert_eq!(
        kinds(tree_sitter_easyflow::INDENTS_QUERY, "indent.begin"),
        BTreeSet::from(["(\n  x ", "[1,\n  ", "[prior"].map(String::from))
    );
}

fn toml_file(relative: &str) -> toml::Table {
    read(relative)
        .parse()
        .unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The grammar names of tree-sitter.json.
fn grammar_names() -> BTreeSet<String> {
    let config: serde_json::Value =
        serde_json::from_str(&read("tree-sitter.json")).expect("valid JSON");
    config["grammars"]
        .as_array()
        .expect("grammars")
        .iter()
        .map(|g| g["name"].as_str().expect("a name").to_string())
        .collect()
}

#[test]
fn helix_configuration_names_the_grammars() {
    let config = toml_file("helix/languages.toml");
    let grammars: BTreeSet<String> = config["grammar"]
        .as_array()
        .expect("[[grammar]]")
        .iter()
        .map(|g| g["name"].as_str().expect("a name").to_string())
        .collect();
    assert_eq!(grammars, grammar_names());
    for language in config["language"].as_array().expect("[[language]]") {
        let name = language["name"].as_str().expect("a name");
        let grammar = language["grammar"].as_str().expect("a grammar");
        assert!(grammars.contains(grammar), "{name}: no grammar {grammar}");
        // Helix finds a language's queries by its name.
        assert!(
            root()
                .join("helix/runtime/queries")
                .join(name)
                .join("highlights.scm")
                .is_file(),
            "{name}: no highlights"
        );
    }
}

#[test]
fn zed_extension_names_the_grammars() {
    let extension = toml_file("zed/extension.toml");
    let grammars: BTreeSet<String> = extension["grammars"]
        .as_table()
        .expect("[grammars]")
        .iter()
        .map(|(name, grammar)| {
            let path = grammar["path"].as_str().expect("a path");
            let dir = path
                .strip_prefix("editors/tree-sitter/")
                .expect("a path in the repository");
            assert!(root().join(dir).join("src/parser.c").is_file(), "{path}");
            name.clone()
        })
        .collect();
    assert_eq!(grammars, grammar_names());
    for language in ["easyflow", "easyflow-topology"] {
        let config = toml_file(&format!("zed/languages/{language}/config.toml"));
        let grammar = config["grammar"].as_str().expect("a grammar");
        assert!(
            grammars.contains(grammar),
            "{language}: no grammar {grammar}"
        );
    }
}
