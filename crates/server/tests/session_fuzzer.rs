//! The LSP session fuzzer: random sessions driving the real `easyflow-ls`
//! over stdio. Each session opens, edits and closes several flows (edits
//! with multi-byte characters, CRLF, positions past line ends and past the
//! end, deletions across steps, several changes in one notification, pastes
//! of whole flows), with every request kind at random positions pipelined
//! among the changes (the custom `easyflow/graph` and `easyflow/export`
//! too, and diagnostic pulls, `textDocument/diagnostic` and
//! `workspace/diagnostic`, with result ids the server gave or made up),
//! `$/cancelRequest`s, saves, configuration and watched-file
//! changes, allow comments typed (a key at a time) and deleted, and project folders on the disk whose `easyflow.toml`,
//! topologies and catalogs are anything (folders, missing, outside the
//! workspace, any reader's test case), requested on through a closed
//! flow (sometimes one that runs the catalogs' packages and asks for the
//! topologies' capabilities) and through the `easyflow.toml`, topology and
//! catalog themselves, closed or opened (hover, definition, references,
//! symbols, document links), and workspace folders added and removed, each
//! answering `workspace/configuration` with settings of its own or `null`.
//! The invariants:
//!
//! - the server never crashes, hangs or writes anything but protocol
//!   messages to stdout (the client in `support` fails on anything else);
//! - every request from the server to the client has its method's params
//!   (`workspace/configuration`: one item per folder, section `easyflow`);
//! - every response is a result of its method's type (`ls_types`'s, or the
//!   fields `docs/lsp-extensions.md` gives) or an expected error (cancelled,
//!   content modified, request failed; never an internal error); every position
//!   in it lies inside the document it names (in the negotiated encoding:
//!   UTF-16, or UTF-8 on every other server), ranges ordered;
//! - after the last edit, each open document's published diagnostics (or,
//!   for a client that pulls, its pulled ones, with nothing pushed to it)
//!   equal a fresh check of its final text;
//! - the server writes no file and opens no socket.
//!
//! `EASYFLOW_SESSIONS=N` runs N sessions (500 by default, the CI run);
//! `EASYFLOW_SESSION_SEED=S` changes the seed (the failure message names
//! the seed and session, and `EASYFLOW_SESSION_FIRST=I` starts there to
//! replay it). The sessions share a server process in runs of
//! `SESSIONS_PER_SERVER`, each on its own documents, closed at its end; the
//! servers take turns with UTF-8 and UTF-16 positions, and with a client that
//! states every capability the server uses and one that states none.

mod support;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use fastrand::Rng;
use line_index::{LineIndex, WideEncoding};
use serde_json::{Value, json};
use support::{Encoding, Server, memory, offset_in, repo_root, uri};

const SESSIONS_PER_SERVER: usize = 25;

/// How long the final diagnostics may take (far more than they need).
const WAIT: std::time::Duration = std::time::Duration::from_secs(20);

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The diagnostics of a fresh check of `text`, as the server publishes
/// them: code, range in `encoding`, message.
fn fresh_check(text: &str, encoding: Encoding) -> Vec<String> {
    let db = easyflow_db::Database::default();
    let file = easyflow_db::SourceFile::new(&db, "fresh.flow".into(), text.into());
    let index = LineIndex::new(text);
    let position = |offset| {
        let at = index.line_col(offset);
        let (line, col) = match encoding {
            Encoding::Utf8 => (at.line, at.col),
            Encoding::Utf16 => {
                let wide = index.to_wide(WideEncoding::Utf16, at).unwrap();
                (wide.line, wide.col)
            }
        };
        format!("{line}:{col}")
    };
    db.check(file)
        .iter()
        .map(|d| {
            format!(
                "{} {}-{} {}",
                d.code.as_str(),
                position(d.range.start()),
                position(d.range.end()),
                d.message
            )
        })
        .collect()
}

fn published(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| {
            let at = |p: &Value| format!("{}:{}", p["line"], p["character"]);
            format!(
                "{} {}-{} {}",
                d["code"].as_str().unwrap_or("?"),
                at(&d["range"]["start"]),
                at(&d["range"]["end"]),
                d["message"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

/// The length of each line of `text` in `encoding` (without its line end):
/// lines end at `\n`, as the server counts them.
fn line_lengths(text: &str, encoding: Encoding) -> Vec<u32> {
    text.split('\n')
        .map(|line| encoding.len(line.strip_suffix('\r').unwrap_or(line)))
        .collect()
}

fn position_of(text: &str, offset: usize, encoding: Encoding) -> (u32, u32) {
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, encoding.len(&text[line_start..offset]))
}

/// Pieces of text that edits insert.
const INSERTS: &[&str] = &[
    "x",
    "Q",
    "é",
    "😀",
    "日本",
    "\u{200b}",
    "\r\n",
    "\n",
    " ",
    "\"",
    ",",
    ";",
    ")",
    "(",
    "[",
    "]",
    "{",
    "}",
    "=",
    "~",
    ".",
    "<-",
    "after ",
    " on ",
    "step ",
    "runs ",
    "code\n",
    "\ncode end\n",
    "// ☃ note\n",
    "/* ",
    " */",
    "require \"x\" from ",
    "[requires = \"cpu\"]\n",
    "step Z runs P (a = Load.outs);\n",
    "step Y runs P (a = Z, b = [1, 2]) after Z;\r\n",
    "pre code\necho 😀\ncode end\n",
    "// easyflow: allow(W0206)\n",
    " // easyflow: allow(I0209, W0208, E0201)",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
];

/// A document of a session as the client has it.
struct Doc {
    /// A file of the workspace on the disk: opened with its text.
    disk: Option<PathBuf>,
    uri: String,
    text: String,
    version: i64,
    open: bool,
}

/// A request in flight: what it asked and the texts it may be answered on.
struct Pending {
    id: i64,
    method: &'static str,
    /// The document it is on (positions in the answer must lie inside one
    /// of the texts it had).
    uri: String,
    cancelled: bool,
}

struct Session<'a> {
    server: &'a mut Server,
    /// `sN`, the prefix of its files.
    name: String,
    rng: Rng,
    dir: PathBuf,
    docs: Vec<Doc>,
    /// Every text each URI had from when a request was sent: positions are
    /// checked against these (a response answers one of them).
    texts: HashMap<String, Vec<String>>,
    pending: Vec<Pending>,
    capabilities: Value,
    /// The positions' encoding, as the server negotiated it.
    encoding: Encoding,
    /// What the session did, for the failure message.
    trace: Vec<String>,
    disk_files: Vec<PathBuf>,
    /// The workspace folders the session added (removed at its end).
    folders: Vec<PathBuf>,
    /// The workspace's first folder, whose flows (the session's documents)
    /// must keep the settings a fresh check has.
    root: PathBuf,
    /// The latest result id the server gave each URI in a pull.
    result_ids: HashMap<String, String>,
    /// Some completion items the server gave, for `completionItem/resolve`
    /// (perhaps after their document changed or closed).
    completion_items: Vec<Value>,
}

fn seed_texts() -> Vec<String> {
    let mut texts = texts_in("tests/data/parser/corpus", "flow");
    texts.retain(|t| t.len() < 20_000);
    // Lists nested as deep as the parser allows.
    texts.push(format!(
        "step Deep runs P (v = {}1{});\n",
        "[".repeat(127),
        "]".repeat(127)
    ));
    texts
}

impl Session<'_> {
    fn some_text(&mut self, seeds: &[String]) -> String {
        match self.rng.u8(..4) {
            0 => String::new(),
            1 => easyflow_genflow::generate(self.rng.usize(1..12), self.rng.u64(..)),
            _ => seeds[self.rng.usize(..seeds.len())].clone(),
        }
    }

    fn record_text(&mut self, doc: usize) {
        let uri = self.docs[doc].uri.clone();
        let text = self.docs[doc].text.clone();
        self.texts.entry(uri).or_default().push(text);
    }

    fn open(&mut self, doc: usize, seeds: &[String]) {
        let text = match &self.docs[doc].disk {
            Some(path) => std::fs::read_to_string(path).unwrap(),
            None => self.some_text(seeds),
        };
        let d = &mut self.docs[doc];
        d.version += 1;
        d.text = text;
        d.open = true;
        self.trace
            .push(format!("open {} v{} {:?}", d.uri, d.version, d.text));
        let params = json!({"textDocument": {"uri": d.uri, "languageId": "easyflow", "version": d.version, "text": d.text}});
        self.server.notify("textDocument/didOpen", params);
        self.record_text(doc);
    }

    fn close(&mut self, doc: usize) {
        let d = &mut self.docs[doc];
        d.open = false;
        self.trace.push(format!("close {}", d.uri));
        self.server.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": d.uri}}),
        );
    }

    /// A random position: usually on a character, sometimes past the line's
    /// end, past the last line, or inside a character (a surrogate pair, a
    /// UTF-8 sequence).
    fn position(&mut self, text: &str) -> (u32, u32) {
        let lengths = line_lengths(text, self.encoding);
        match self.rng.u8(..10) {
            0 => (
                self.rng.u32(..lengths.len() as u32 + 3),
                self.rng.u32(..200),
            ),
            1 => {
                let line = self.rng.usize(..lengths.len());
                (line as u32, lengths[line] + self.rng.u32(1..5))
            }
            _ => {
                let mut offset = self.rng.usize(..=text.len());
                while !text.is_char_boundary(offset) {
                    offset -= 1;
                }
                let (line, character) = position_of(text, offset, self.encoding);
                // Inside a character now and then.
                let units = text[offset..]
                    .chars()
                    .next()
                    .map_or(1, |c| self.encoding.units(c));
                let inside = if units > 1 && self.rng.bool() {
                    self.rng.u32(1..units)
                } else {
                    0
                };
                (line, character + inside)
            }
        }
    }

    /// One change: a range (or the whole text) and what replaces it.
    fn change(&mut self, text: &mut String, seeds: &[String]) -> Value {
        if self.rng.u8(..12) == 0 {
            // A paste of a whole flow over everything.
            *text = self.some_text(seeds);
            return json!({"text": text});
        }
        let start = self.position(text);
        let end = if self.rng.bool() {
            start
        } else {
            // Deletions, sometimes across steps.
            let at = offset_in(text, start.0, start.1, self.encoding);
            let reach = if self.rng.u8(..4) == 0 { 400 } else { 12 };
            let mut end = (at + self.rng.usize(..reach)).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            position_of(text, end, self.encoding)
        };
        let inserted: String = match self.rng.u8(..10) {
            0 => seeds[self.rng.usize(..seeds.len())]
                .chars()
                .take(300)
                .collect(),
            1 | 2 => String::new(),
            _ => (0..self.rng.usize(1..4))
                .map(|_| INSERTS[self.rng.usize(..INSERTS.len())])
                .collect(),
        };
        let from = offset_in(text, start.0, start.1, self.encoding);
        let to = offset_in(text, end.0, end.1, self.encoding).max(from);
        text.replace_range(from..to, &inserted);
        json!({
            "range": {"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}},
            "text": inserted
        })
    }

    fn edit(&mut self, doc: usize, seeds: &[String]) {
        let mut text = std::mem::take(&mut self.docs[doc].text);
        let changes: Vec<Value> = (0..if self.rng.u8(..4) == 0 {
            self.rng.usize(2..5)
        } else {
            1
        })
            .map(|_| self.change(&mut text, seeds))
            .collect();
        self.notify_changes(doc, text, changes);
    }

    /// The document's new `text` after `changes`, sent as one `didChange`.
    fn notify_changes(&mut self, doc: usize, text: String, changes: Vec<Value>) {
        let d = &mut self.docs[doc];
        d.text = text;
        d.version += 1;
        self.trace.push(format!(
            "change {} v{} {}",
            d.uri,
            d.version,
            Value::from(changes.clone())
        ));
        let params = json!({"textDocument": {"uri": d.uri, "version": d.version}, "contentChanges": changes});
        self.server.notify("textDocument/didChange", params);
        self.record_text(doc);
    }

    /// An allow comment typed a key at a time (a change each) at the end of
    /// a line or on a line of its own, or one of the document's allow
    /// comments deleted.
    fn allow_comment(&mut self, doc: usize) {
        let text = self.docs[doc].text.clone();
        if let Some(at) = text.find("// easyflow:")
            && self.rng.bool()
        {
            let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            self.send_changes(doc, vec![(at, end, String::new())]);
            return;
        }
        let codes = [
            "W0206", "W0208", "I0209", "W0405", "W0501", "E0201", "W0905", "x",
        ];
        let list: Vec<&str> = (0..self.rng.usize(1..4))
            .map(|_| codes[self.rng.usize(..codes.len())])
            .collect();
        let comment = format!("// easyflow: allow({})", list.join(", "));
        let line_starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let line = self.rng.usize(..line_starts.len());
        let (mut at, typed) = if self.rng.bool() {
            let end = text[line_starts[line]..]
                .find(['\r', '\n'])
                .map_or(text.len(), |i| line_starts[line] + i);
            (end, format!(" {comment}"))
        } else {
            (line_starts[line], format!("{comment}\n"))
        };
        for c in typed.chars() {
            self.send_changes(doc, vec![(at, at, c.to_string())]);
            at += c.len_utf8();
        }
    }

    /// One `didChange` of byte ranges of the document's text (applied in
    /// order), sent as ranges in the negotiated encoding.
    fn send_changes(&mut self, doc: usize, edits: Vec<(usize, usize, String)>) {
        let mut text = std::mem::take(&mut self.docs[doc].text);
        let mut changes = Vec::new();
        for (from, to, inserted) in edits {
            let start = position_of(&text, from, self.encoding);
            let end = position_of(&text, to, self.encoding);
            changes.push(json!({
                "range": {"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}},
                "text": inserted
            }));
            text.replace_range(from..to, &inserted);
        }
        self.notify_changes(doc, text, changes);
    }

    fn request(&mut self, doc: usize) {
        let uri = self.docs[doc].uri.clone();
        let text = self.docs[doc].text.clone();
        self.request_on(uri, &text);
    }

    /// A random request at random positions of `text`, the text of `uri`.
    fn request_on(&mut self, uri: String, text: &str) {
        let kind = self.rng.u8(..28);
        self.request_of_kind(uri, text, kind, None);
    }

    /// A position on or at the edge of one of `needles` in `text`, when it
    /// has one: where cross-file requests find something.
    fn aimed_position(&mut self, text: &str, needles: &[&str]) -> Option<(u32, u32)> {
        let needle = pick(&mut self.rng, needles);
        let found: Vec<usize> = text.match_indices(needle).map(|(i, _)| i).collect();
        let at = *found.get(self.rng.usize(..found.len().max(1)))?;
        let mut offset = at + self.rng.usize(..=needle.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        Some(position_of(text, offset, self.encoding))
    }

    /// A request of kind `kind` (see the match below) at random positions
    /// of `text`, the text of `uri`.
    fn request_of_kind(&mut self, uri: String, text: &str, kind: u8, at: Option<(u32, u32)>) {
        let (line, character) = at.unwrap_or_else(|| self.position(text));
        let position = json!({"line": line, "character": character});
        let (end_line, end_character) = self.position(text);
        let (start, end) = if (end_line, end_character) < (line, character) {
            (
                json!({"line": end_line, "character": end_character}),
                position.clone(),
            )
        } else {
            (
                position.clone(),
                json!({"line": end_line, "character": end_character}),
            )
        };
        let range = json!({"start": start, "end": end});
        let document = json!({"uri": uri.clone()});
        let at = json!({"textDocument": document, "position": position});
        let (method, params): (&'static str, Value) = match kind {
            0 => ("textDocument/hover", at),
            1 => ("textDocument/completion", at),
            2 => ("textDocument/definition", at),
            3 => (
                "textDocument/references",
                json!({"textDocument": document, "position": position, "context": {"includeDeclaration": self.rng.bool()}}),
            ),
            4 => ("textDocument/prepareRename", at),
            5 => (
                "textDocument/rename",
                json!({"textDocument": document, "position": position, "newName": pick(&mut self.rng, &["Renamed", "x y", "é2", ""])}),
            ),
            6 => (
                "textDocument/documentSymbol",
                json!({"textDocument": document}),
            ),
            7 => (
                "workspace/symbol",
                json!({"query": pick(&mut self.rng, &["", "s", "S1", "é"])}),
            ),
            8 => (
                "textDocument/semanticTokens/full",
                json!({"textDocument": document}),
            ),
            9 => (
                "textDocument/semanticTokens/range",
                json!({"textDocument": document, "range": range}),
            ),
            10 => (
                "textDocument/foldingRange",
                json!({"textDocument": document}),
            ),
            11 => (
                "textDocument/selectionRange",
                json!({"textDocument": document, "positions": [position, start]}),
            ),
            12 => (
                "textDocument/codeAction",
                json!({"textDocument": document, "range": range, "context": {"diagnostics": []}}),
            ),
            13 => (
                "textDocument/inlayHint",
                json!({"textDocument": document, "range": range}),
            ),
            14 => ("textDocument/codeLens", json!({"textDocument": document})),
            15 => ("textDocument/documentHighlight", at),
            16 => ("textDocument/prepareCallHierarchy", at),
            17 if self.rng.bool() => ("easyflow/graph", json!({"textDocument": document})),
            17 => ("easyflow/graphPicture", json!({"textDocument": document})),
            18 => (
                "textDocument/formatting",
                json!({"textDocument": document, "options": {"tabSize": 2, "insertSpaces": true}}),
            ),
            19 if self.rng.bool() => ("textDocument/signatureHelp", at),
            19 => (
                "textDocument/rangeFormatting",
                json!({"textDocument": document, "range": range, "options": {"tabSize": 2, "insertSpaces": true}}),
            ),
            20 => {
                let item = json!({"name": "S1", "kind": 12, "uri": uri, "range": range, "selectionRange": range, "data": {"uri": uri, "step": 0}});
                if self.rng.bool() {
                    ("callHierarchy/incomingCalls", json!({"item": item}))
                } else {
                    ("callHierarchy/outgoingCalls", json!({"item": item}))
                }
            }
            21 => (
                "easyflow/export",
                json!({"textDocument": document, "to": pick(&mut self.rng, &["diet", "workload", "model", "svg"])}),
            ),
            22 => (
                "textDocument/documentLink",
                json!({"textDocument": document}),
            ),
            23 => (
                "textDocument/codeAction",
                json!({"textDocument": document, "range": range, "context": {
                    "diagnostics": [],
                    "only": [pick(&mut self.rng, &["source.fixAll.easyflow", "source.fixAll", "source", "quickfix"])],
                    "triggerKind": self.rng.u8(1..3),
                }}),
            ),
            24 => (
                "workspace/executeCommand",
                json!({"command": "easyflow.showDependents", "arguments": [uri.clone(), position, []]}),
            ),
            // Pulls, with a result id the server gave or a made-up one.
            25 => (
                "textDocument/diagnostic",
                json!({"textDocument": document, "previousResultId": self.some_result_id(&uri)}),
            ),
            26 => {
                let previous: Vec<Value> = self
                    .result_ids
                    .iter()
                    .filter(|_| self.rng.bool())
                    .map(|(uri, id)| json!({"uri": uri, "value": id}))
                    .chain([json!({"uri": uri, "value": "made-up"})])
                    .collect();
                (
                    "workspace/diagnostic",
                    json!({"previousResultIds": previous}),
                )
            }
            // An item the server gave, one with its data made up, or one
            // it never made: each comes back (documented or not).
            27 => {
                let mut item = match self.completion_items.len() {
                    0 => json!({"label": "S1"}),
                    n => self.completion_items[self.rng.usize(..n)].clone(),
                };
                if self.rng.u8(..4) == 0 {
                    let made_up = [
                        json!({"uri": uri, "documentation": {"step": "S1"}}),
                        json!({"uri": uri, "documentation": {"param": {"package": "ORCA.DFT", "param": "charge"}}}),
                        json!({"uri": uri, "documentation": {"package": 3}}),
                        json!({"uri": "file:///nowhere.flow", "documentation": {"file": "m"}}),
                        json!([]),
                    ];
                    item["data"] = made_up[self.rng.usize(..made_up.len())].clone();
                }
                ("completionItem/resolve", item)
            }
            _ => ("textDocument/hover", at),
        };
        let id = self.server.send_request(method, params.clone());
        self.trace.push(format!("request {id} {method} {params}"));
        // Cancel some right away (they may still be answered).
        let cancelled = self.rng.u8(..8) == 0;
        if cancelled {
            self.server.notify("$/cancelRequest", json!({"id": id}));
            self.trace.push(format!("cancel {id}"));
        }
        self.pending.push(Pending {
            id,
            method,
            uri,
            cancelled,
        });
    }

    /// Keeps a few of the items of a completion list, for
    /// `completionItem/resolve`.
    fn remember_completion_items(&mut self, method: &str, result: &Value) {
        if method != "textDocument/completion" {
            return;
        }
        for item in result["items"].as_array().into_iter().flatten().take(4) {
            if self.completion_items.len() >= 16 {
                let at = self.rng.usize(..16);
                self.completion_items[at] = item.clone();
            } else {
                self.completion_items.push(item.clone());
            }
        }
    }

    /// A result id the server gave for `uri`, a made-up one, or none.
    fn some_result_id(&mut self, uri: &str) -> Option<String> {
        match self.rng.u8(..3) {
            0 => self.result_ids.get(uri).cloned(),
            1 => Some("made-up".to_string()),
            _ => None,
        }
    }

    /// Keeps the result ids of a pull's answer, for later pulls.
    fn remember_result_ids(&mut self, method: &str, uri: &str, result: &Value) {
        let reports = match method {
            "textDocument/diagnostic" => vec![(uri, result)],
            "workspace/diagnostic" => result["items"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|item| Some((item["uri"].as_str()?, item)))
                .collect(),
            _ => return,
        };
        let ids: Vec<(String, String)> = reports
            .into_iter()
            .filter_map(|(uri, report)| {
                Some((uri.to_string(), report["resultId"].as_str()?.to_string()))
            })
            .collect();
        self.result_ids.extend(ids);
    }

    /// `didSave` (the server reads nothing for it: the text stays the
    /// editor's).
    fn save(&mut self, doc: usize) {
        let uri = self.docs[doc].uri.clone();
        self.trace.push(format!("save {uri}"));
        self.server.notify(
            "textDocument/didSave",
            json!({"textDocument": {"uri": uri}}),
        );
    }

    fn configuration(&mut self) {
        let settings = json!({"easyflow": {
            "inlayHints": {"instances": self.rng.bool()},
            "codeLens": {"enable": self.rng.bool()},
            // A topology or a catalog that is not there changes nothing.
            "topology": if self.rng.bool() { "" } else { "no-such.topology" },
            "catalog": if self.rng.bool() { "" } else { "no-such-packages.toml" },
        }});
        self.trace.push(format!("configuration {settings}"));
        self.server.notify(
            "workspace/didChangeConfiguration",
            json!({"settings": settings}),
        );
    }

    /// A flow created, changed or deleted on the disk, with the watched-file
    /// notification, then a request on it (closed: read from the disk).
    fn watched_file(&mut self, seeds: &[String]) {
        let index = self.rng.usize(..2);
        let path = self.dir.join(format!("{}-disk-{index}.flow", self.name));
        let (kind, text) = if path.exists() && self.rng.u8(..3) == 0 {
            std::fs::remove_file(&path).unwrap();
            (3, None)
        } else {
            let text = self.some_text(seeds);
            let kind = if path.exists() { 2 } else { 1 };
            self.write_file(&path, &text);
            (kind, Some(text))
        };
        let uri = uri(&path);
        self.trace.push(format!("disk {uri} {kind} {text:?}"));
        self.server.notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": [{"uri": uri, "type": kind}]}),
        );
        if let Some(text) = text {
            self.texts
                .entry(uri.clone())
                .or_default()
                .push(text.clone());
            let (line, character) = self.position(&text);
            let params = json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
            let id = self
                .server
                .send_request("textDocument/hover", params.clone());
            self.trace.push(format!("request {id} hover {params}"));
            self.pending.push(Pending {
                id,
                method: "textDocument/hover",
                uri,
                cancelled: false,
            });
        }
    }

    /// A project folder of the session on the disk, as a repository may
    /// hold one: an `easyflow.toml` whose `topology` and `catalog` name
    /// anything (a file, a folder, nothing, a path outside the workspace),
    /// topologies and catalogs of any text or folders, and a closed flow;
    /// the watched-file notification, then a request on the flow (which
    /// discovers them all, and shows what it skipped).
    fn project(&mut self, seeds: &[String]) {
        let dir = project_folder(&self.dir, &self.name);
        std::fs::create_dir_all(&dir).unwrap();
        let config = pick(
            &mut self.rng,
            &[
                "topology = \"site.topology\"\n",
                "topology = \"site.topology\"\ncatalog = \"packages.toml\"\n",
                "catalog = \"packages.toml\"\n[format]\nwidth = 20\n",
                "topology = \"/etc/hostname\"\n",
                "topology = \"..\"\ncatalog = \".\"\n",
                "topology = [1, 2\n",
                "[diagnostics]\nallow = [\"W0206\", \"E0201\"]\ndeny = [\"I0209\", \"W0206\", \"w1\"]\n",
                "",
            ],
        );
        let (topologies, catalogs) = project_seeds();
        let topology = topologies[self.rng.usize(..topologies.len())].clone();
        let catalog = catalogs[self.rng.usize(..catalogs.len())].clone();
        let mut changes = Vec::new();
        for (name, text) in [
            ("easyflow.toml", config.to_string()),
            ("site.topology", topology),
            ("easyflow.topology", String::new()),
            ("packages.toml", catalog),
        ] {
            let path = dir.join(name);
            let action = self.rng.u8(..6);
            // A folder stays one; the file may stay as it was.
            if path.is_dir() || action == 0 {
                continue;
            }
            let existed = path.exists();
            let kind = match action {
                // A folder where a file is expected.
                1 if !existed => {
                    std::fs::create_dir(&path).unwrap();
                    1
                }
                2 if existed => {
                    std::fs::remove_file(&path).unwrap();
                    3
                }
                _ => {
                    self.write_file(&path, &text);
                    // Requests on it may be answered on this text whenever
                    // they were sent (they are read from the disk then).
                    self.texts.entry(uri(&path)).or_default().push(text.clone());
                    if existed { 2 } else { 1 }
                }
            };
            changes.push(json!({"uri": uri(&path), "type": kind}));
        }
        let flow = dir.join("closed.flow");
        let kind = if flow.exists() { 2 } else { 1 };
        let text = match self.rng.u8(..3) {
            // Names the catalogs and topologies declare, for definitions
            // into them.
            0 => PROJECT_FLOW.to_string(),
            _ => self.some_text(seeds),
        };
        self.write_file(&flow, &text);
        changes.push(json!({"uri": uri(&flow), "type": kind}));
        self.trace.push(format!(
            "project {} {}",
            dir.display(),
            Value::from(changes.clone())
        ));
        self.server.notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": changes}),
        );
        match self.rng.bool() {
            true => self.request_on_closed(&flow, &text),
            // Definitions and references into the catalog and topology.
            false => {
                let flow = uri(&flow);
                self.texts
                    .entry(flow.clone())
                    .or_default()
                    .push(text.clone());
                let at = self.aimed_position(
                    &text,
                    &["ORCA.DFT", "charge", "geometry", "compute", "GPU", "load"],
                );
                let kind = pick(&mut self.rng, &["2", "0", "3"]).parse().unwrap();
                self.request_of_kind(flow, &text, kind, at);
            }
        }
        self.companion_requests(&dir);
    }

    /// A random request on the closed flow at `path`, whose text on the
    /// disk is `text`.
    fn request_on_closed(&mut self, path: &Path, text: &str) {
        let flow = uri(path);
        self.texts
            .entry(flow.clone())
            .or_default()
            .push(text.to_string());
        self.request_on(flow, text);
    }

    /// Requests on one of the project's `easyflow.toml`, topology and
    /// catalog (as they are on the disk): closed, or opened for them and
    /// closed after. Mostly the requests these documents answer, some of
    /// any kind.
    fn companion_requests(&mut self, dir: &Path) {
        let names = ["easyflow.toml", "site.topology", "packages.toml"];
        let path = dir.join(pick(&mut self.rng, &names));
        let Ok(text) = std::fs::read_to_string(&path) else {
            return;
        };
        let uri = uri(&path);
        self.texts
            .entry(uri.clone())
            .or_default()
            .push(text.clone());
        let open = self.rng.bool();
        if open {
            let language = match path.extension().and_then(|e| e.to_str()) {
                Some("topology") => "easyflow-topology",
                _ => "toml",
            };
            self.trace.push(format!("open companion {uri}"));
            self.server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": language, "version": 0, "text": text}}),
    );
        }
        for _ in 0..self.rng.usize(1..4) {
            // Hover, definition, references, symbols, links; or any.
            let kind = match self.rng.u8(..6) {
                0 => 0,
                1 => 2,
                2 => 3,
                3 => 6,
                4 => 22,
                _ => self.rng.u8(..28),
            };
            let at = match self.rng.bool() {
                true => self.aimed_position(
                    &text,
                    &["name = \"", "compute", "GPU", "topology = ", "catalog = "],
                ),
                false => None,
            };
            self.request_of_kind(
                uri.clone(),
                &text,
                kind,
                at.map(|(line, character)| (line, character + 1)),
            );
        }
        if open {
            self.trace.push(format!("close companion {uri}"));
            self.server.notify(
                "textDocument/didClose",
                json!({"textDocument": {"uri": uri}}),
            );
        }
    }

    /// A workspace folder of the session added or removed (or one never
    /// added removed, or one added twice), holding a project and a closed
    /// flow; its answer to `workspace/configuration` chosen anew (its own
    /// topology and catalog, `{}`, `null`), and the first folder's too
    /// (settings that change nothing its flows' fresh check sees); then a
    /// request on the flow and a workspace symbol search.
    fn workspace_folder(&mut self, seeds: &[String]) {
        let folder = self
            .dir
            .join(format!("{}-folder-{}", self.name, self.rng.usize(..2)));
        std::fs::create_dir_all(&folder).unwrap();
        let (topologies, catalogs) = project_seeds();
        let topology = topologies[self.rng.usize(..topologies.len())].clone();
        let catalog = catalogs[self.rng.usize(..catalogs.len())].clone();
        self.write_file(&folder.join("site.topology"), &topology);
        self.write_file(&folder.join("packages.toml"), &catalog);
        let config = pick(
            &mut self.rng,
            &[
                "",
                "topology = \"site.topology\"\n",
                "topology = \"../x.topology\"\n",
            ],
        );
        self.write_file(&folder.join("easyflow.toml"), config);
        let flow = folder.join("closed.flow");
        let text = self.some_text(seeds);
        self.write_file(&flow, &text);
        let answer = match self.rng.u8(..5) {
            0 => Value::Null,
            1 => json!({}),
            2 => json!({"topology": "site.topology", "catalog": "packages.toml"}),
            3 => json!({"topology": "no-such.topology", "inlayHints": {"instances": false}}),
            _ => json!({"easyflow.topology": "site.topology", "codeLens": {"enable": false}}),
        };
        self.server
            .folder_settings
            .insert(uri(&folder), answer.clone());
        let root_answer = match self.rng.u8(..3) {
            0 => Value::Null,
            1 => json!({}),
            _ => json!({"topology": "no-such.topology", "codeLens": {"enable": self.rng.bool()}}),
        };
        self.server
            .folder_settings
            .insert(uri(&self.root), root_answer.clone());
        let added = self.folders.contains(&folder);
        // Mostly the other way round from its state; sometimes a folder
        // added twice, or one never added removed.
        let flip = self.rng.u8(..4) != 0;
        let remove = if added { flip } else { !flip };
        let event = if remove {
            self.folders.retain(|f| f != &folder);
            json!({"added": [], "removed": [{"uri": uri(&folder), "name": "f"}]})
        } else {
            if !added {
                self.folders.push(folder.clone());
            }
            json!({"added": [{"uri": uri(&folder), "name": "f"}], "removed": []})
        };
        self.trace.push(format!(
            "folders {event} answering {answer} (the first folder {root_answer}), {} {text:?}",
            flow.display()
        ));
        self.server.notify(
            "workspace/didChangeWorkspaceFolders",
            json!({"event": event}),
        );
        self.request_on_closed(&flow, &text);
        let params = json!({"query": pick(&mut self.rng, &["", "S", "Train"])});
        let id = self.server.send_request("workspace/symbol", params.clone());
        self.trace
            .push(format!("request {id} workspace/symbol {params}"));
        self.pending.push(Pending {
            id,
            method: "workspace/symbol",
            uri: String::new(),
            cancelled: false,
        });
    }

    /// Removes the workspace folders the session added.
    fn remove_folders(&mut self) {
        if self.folders.is_empty() {
            return;
        }
        let removed: Vec<Value> = std::mem::take(&mut self.folders)
            .iter()
            .map(|f| json!({"uri": uri(f), "name": "f"}))
            .collect();
        self.trace.push(format!("folders removed {removed:?}"));
        self.server.notify(
            "workspace/didChangeWorkspaceFolders",
            json!({"event": {"added": [], "removed": removed}}),
        );
    }

    /// Checks the requests the server made of the client: their params are
    /// their method's.
    fn check_server_requests(&self) {
        use tower_lsp_server::ls_types::request::{self as lsp, Request};
        for message in &self.server.notifications {
            let (Some(method), Some(_)) = (message["method"].as_str(), message.get("id")) else {
                continue;
            };
            if method == lsp::WorkspaceConfiguration::METHOD {
                let params: Result<<lsp::WorkspaceConfiguration as Request>::Params, _> =
                    serde_json::from_value(message["params"].clone());
                let well_formed = params.is_ok_and(|params| {
                    !params.items.is_empty()
                        && params.items.iter().all(|item| {
                            item.section.as_deref() == Some("easyflow") && item.scope_uri.is_some()
                        })
                });
                if !well_formed {
                    self.fail(format!("a bad workspace/configuration request: {message}"));
                }
            }
        }
    }

    /// Writes a file of the session, which the server must not have written.
    fn write_file(&mut self, path: &Path, text: &str) {
        std::fs::write(path, text).unwrap();
        if !self.disk_files.contains(&path.to_path_buf()) {
            self.disk_files.push(path.to_path_buf());
        }
    }

    fn fail(&self, why: String) -> ! {
        let trace = self.trace.join("\n");
        panic!("{why}\nthe session:\n{trace}\nlog: {}", self.server.log())
    }

    /// Checks every response: a result or an expected error, positions
    /// inside the document they name.
    fn check_responses(&mut self) {
        for pending in std::mem::take(&mut self.pending) {
            let response = self.server.response(pending.id);
            if let Some(error) = response.get("error") {
                let code = error["code"].as_i64().unwrap_or(0);
                let expected = match code {
                    // Cancelled, content modified, request failed (a rename
                    // that cannot be done); a completion item always comes
                    // back, changed or not.
                    -32800 => true,
                    -32801 | -32803 => pending.method != "completionItem/resolve",
                    // A rename where nothing can be renamed, or to a bad
                    // name; an export to a format that does not exist.
                    -32602 => {
                        pending.method.ends_with("ename") || pending.method == "easyflow/export"
                    }
                    // A feature the server does not offer.
                    -32601 => !advertised(&self.capabilities, pending.method),
                    _ => false,
                };
                if !expected {
                    self.fail(format!("{}: unexpected error {response}", pending.method));
                }
                continue;
            }
            if pending.cancelled && response.get("result").is_none() {
                self.fail(format!(
                    "{}: neither result nor error: {response}",
                    pending.method
                ));
            }
            let Some(result) = response.get("result") else {
                self.fail(format!("{}: no result: {response}", pending.method));
            };
            if let Err(why) = self.check_result(pending.method, result, Some(&pending.uri)) {
                self.fail(format!("{}: {why}: {result}", pending.method));
            }
            let result = result.clone();
            self.remember_result_ids(pending.method, &pending.uri, &result);
            self.remember_completion_items(pending.method, &result);
        }
    }

    fn check_result(&self, method: &str, result: &Value, uri: Option<&str>) -> Result<(), String> {
        well_formed(method, result)?;
        if method == "completionItem/resolve" {
            // Its range is in the document the item came from, perhaps
            // another one, or none the server knows.
            return Ok(());
        }
        if method == "textDocument/codeAction" {
            fix_all_edits_are_disjoint(result)?;
        }
        if method.starts_with("textDocument/semanticTokens") && !result.is_null() {
            let data = result["data"].as_array().ok_or("no data")?;
            if data.len() % 5 != 0 {
                return Err("data is not in fives".into());
            }
            let (mut line, mut start) = (0u64, 0u64);
            let mut positions = Vec::new();
            for token in data.chunks(5) {
                let delta_line = token[0].as_u64().ok_or("not a number")?;
                let delta_start = token[1].as_u64().ok_or("not a number")?;
                line += delta_line;
                start = if delta_line == 0 {
                    start + delta_start
                } else {
                    delta_start
                };
                let length = token[2].as_u64().ok_or("not a number")?;
                positions.push((line, start + length));
            }
            let uri = uri.ok_or("no document")?;
            for (line, end) in positions {
                self.check_position(uri, &json!({"line": line, "character": end}))?;
            }
            return Ok(());
        }
        self.walk(result, uri)
    }

    /// Walks a result for positions and ranges: each must lie in the
    /// document of the nearest `uri` around it (or of the request).
    fn walk(&self, value: &Value, uri: Option<&str>) -> Result<(), String> {
        match value {
            Value::Object(map) => {
                let uri = map
                    .get("uri")
                    .or_else(|| map.get("targetUri"))
                    .and_then(Value::as_str)
                    .or(uri);
                if let (Some(line), Some(_)) = (map.get("line"), map.get("character"))
                    && line.is_u64()
                {
                    return self.check_position(uri.ok_or("a position without a document")?, value);
                }
                if let (Some(start), Some(end)) = (map.get("start"), map.get("end"))
                    && start.get("line").is_some()
                {
                    let key = |p: &Value| (p["line"].as_u64(), p["character"].as_u64());
                    if key(start) > key(end) {
                        return Err(format!("a range ending before it starts: {value}"));
                    }
                }
                for (key, inner) in map {
                    // `WorkspaceEdit.changes` is keyed by URI.
                    let uri = if key.starts_with("file://") {
                        Some(key.as_str())
                    } else {
                        uri
                    };
                    if key == "data" {
                        continue;
                    }
                    self.walk(inner, uri)?;
                }
                Ok(())
            }
            Value::Array(items) => items.iter().try_for_each(|v| self.walk(v, uri)),
            _ => Ok(()),
        }
    }

    fn check_position(&self, uri: &str, position: &Value) -> Result<(), String> {
        let line = position["line"]
            .as_u64()
            .ok_or("a line that is not a number")? as usize;
        let character = position["character"]
            .as_u64()
            .ok_or("a character that is not a number")? as u32;
        let texts = self.texts.get(uri).map(Vec::as_slice).unwrap_or_default();
        let inside = texts.iter().any(|text| {
            line_lengths(text, self.encoding)
                .get(line)
                .is_some_and(|&length| character <= length)
        });
        if texts.is_empty() || inside {
            Ok(())
        } else {
            Err(format!("{position} lies outside every text of {uri}"))
        }
    }

    /// After the last edit: each open document's diagnostics for its last
    /// version (pushed, or pulled by a client that pulls) equal a fresh
    /// check of its text; a client that pulls got nothing pushed.
    fn check_final_diagnostics(&mut self) {
        let pulls = !self.capabilities["diagnosticProvider"].is_null();
        let pushed = self
            .server
            .notifications
            .iter()
            .find(|m| m["method"] == "textDocument/publishDiagnostics");
        if let (true, Some(pushed)) = (pulls, pushed) {
            self.fail(format!("pushed to a client that pulls: {pushed}"));
        }
        for i in 0..self.docs.len() {
            if !self.docs[i].open {
                continue;
            }
            let (uri, version) = (self.docs[i].uri.clone(), self.docs[i].version);
            if pulls {
                let report = self.server.request(
                    "textDocument/diagnostic",
                    json!({"textDocument": {"uri": uri}}),
                );
                let diagnostics = published(report["items"].as_array().unwrap());
                let fresh = fresh_check(&self.docs[i].text, self.encoding);
                if diagnostics != fresh {
                    self.fail(format!(
                        "the pulled diagnostics of {uri} v{version} differ from a fresh check:\npulled {diagnostics:#?}\nfresh {fresh:#?}"
                    ));
                }
                continue;
            }
            let message = self.server.try_wait_for(
                |m| {
                    m["method"] == "textDocument/publishDiagnostics"
                        && m["params"]["uri"] == uri.as_str()
                        && m["params"]["version"] == version
                },
                WAIT,
            );
            let Some(message) = message else {
                self.fail(format!(
                    "no diagnostics for {uri} v{version} within {WAIT:?}"
                ));
            };
            let diagnostics = published(message["params"]["diagnostics"].as_array().unwrap());
            let fresh = fresh_check(&self.docs[i].text, self.encoding);
            if diagnostics != fresh {
                self.fail(format!(
                    "the diagnostics of {uri} v{version} differ from a fresh check:\npublished {diagnostics:#?}\nfresh {fresh:#?}"
                ));
            }
        }
    }
}

/// A project's closed flow that uses what its catalogs and topologies
/// declare: packages, parameters, an output and capabilities.
const PROJECT_FLOW: &str = "require m;\n[requires = \"compute+GPU\"]\nstep A runs ORCA.DFT (input = m, charge = 1, method = \"PBE0\");\nstep B runs Vis.Mesh (data = A.outs[\"geometry.xyz\"]);\n[requires = [\"IO\", \"load\"]]\nstep C runs ORCA.DFT (input = B);\n";

/// The project folder of the session named `name` (`sN`), in `dir`.
fn project_folder(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}-project"))
}

/// Whether `result` has the type the protocol gives `method`'s result (the
/// custom requests: the fields `docs/lsp-extensions.md` gives them).
fn well_formed(method: &str, result: &Value) -> Result<(), String> {
    use tower_lsp_server::ls_types::request::{self as lsp, Request};
    fn typed<R: Request>(result: &Value) -> Result<(), String> {
        serde_json::from_value::<R::Result>(result.clone())
            .map(drop)
            .map_err(|error| format!("not a {} result: {error}", R::METHOD))
    }
    let fields = |names: &[&str]| match names.iter().find(|name| result.get(**name).is_none()) {
        Some(name) if !result.is_null() => Err(format!("no `{name}` in the result")),
        _ => Ok(()),
    };
    match method {
        "textDocument/hover" => typed::<lsp::HoverRequest>(result),
        "textDocument/completion" => typed::<lsp::Completion>(result),
        "completionItem/resolve" => typed::<lsp::ResolveCompletionItem>(result),
        "textDocument/definition" => typed::<lsp::GotoDefinition>(result),
        "textDocument/references" => typed::<lsp::References>(result),
        "textDocument/prepareRename" => typed::<lsp::PrepareRenameRequest>(result),
        "textDocument/rename" => typed::<lsp::Rename>(result),
        "textDocument/documentSymbol" => typed::<lsp::DocumentSymbolRequest>(result),
        "workspace/symbol" => typed::<lsp::WorkspaceSymbolRequest>(result),
        "textDocument/semanticTokens/full" => typed::<lsp::SemanticTokensFullRequest>(result),
        "textDocument/semanticTokens/range" => typed::<lsp::SemanticTokensRangeRequest>(result),
        "textDocument/foldingRange" => typed::<lsp::FoldingRangeRequest>(result),
        "textDocument/selectionRange" => typed::<lsp::SelectionRangeRequest>(result),
        "textDocument/codeAction" => typed::<lsp::CodeActionRequest>(result),
        "textDocument/inlayHint" => typed::<lsp::InlayHintRequest>(result),
        "textDocument/codeLens" => typed::<lsp::CodeLensRequest>(result),
        "textDocument/documentHighlight" => typed::<lsp::DocumentHighlightRequest>(result),
        "textDocument/prepareCallHierarchy" => typed::<lsp::CallHierarchyPrepare>(result),
        "callHierarchy/incomingCalls" => typed::<lsp::CallHierarchyIncomingCalls>(result),
        "callHierarchy/outgoingCalls" => typed::<lsp::CallHierarchyOutgoingCalls>(result),
        "textDocument/formatting" => typed::<lsp::Formatting>(result),
        "textDocument/rangeFormatting" => typed::<lsp::RangeFormatting>(result),
        "textDocument/signatureHelp" => typed::<lsp::SignatureHelpRequest>(result),
        // The dependents lens's command, the only one the fuzzer runs.
        "workspace/executeCommand" => serde_json::from_value::<
            Option<Vec<tower_lsp_server::ls_types::Location>>,
        >(result.clone())
        .map(drop)
        .map_err(|error| format!("not the locations of easyflow.showDependents: {error}")),
        "textDocument/documentLink" => typed::<lsp::DocumentLinkRequest>(result),
        // Its result type also admits a partial result, which any object
        // is: the server sends whole reports only.
        "textDocument/diagnostic" => serde_json::from_value::<
            tower_lsp_server::ls_types::DocumentDiagnosticReport,
        >(result.clone())
        .map(drop)
        .map_err(|error| format!("not a textDocument/diagnostic report: {error}")),
        "workspace/diagnostic" => typed::<lsp::WorkspaceDiagnosticRequest>(result),
        "easyflow/graph" => fields(&["nodes", "edges", "unresolved", "levels"]),
        "easyflow/graphPicture" => {
            fields(&["svgGzip", "ranges", "edges", "unresolved", "stepsInCycle"])
        }
        "easyflow/export" => fields(&["text"]),
        _ => Err(format!("no result type known for {method}")),
    }
}

/// The edits of a fix-all action (`source.fixAll.easyflow`): one edit,
/// so its text edits are sorted and none overlaps or touches another.
fn fix_all_edits_are_disjoint(actions: &Value) -> Result<(), String> {
    let fix_alls = actions
        .as_array()
        .into_iter()
        .flatten()
        .filter(|action| action["kind"] == "source.fixAll.easyflow");
    for action in fix_alls {
        let changes = action["edit"]["changes"]
            .as_object()
            .ok_or("a fix-all without changes")?;
        for edits in changes.values() {
            let key = |p: &Value| (p["line"].as_u64(), p["character"].as_u64());
            let edits = edits.as_array().ok_or("changes that are no list")?;
            for pair in edits.windows(2) {
                if key(&pair[0]["range"]["end"]) >= key(&pair[1]["range"]["start"]) {
                    return Err(format!("fix-all edits out of order or meeting: {pair:?}"));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn results_are_checked_against_their_methods_types() {
    let hover = json!({"contents": {"kind": "markdown", "value": "x"}});
    assert_eq!(well_formed("textDocument/hover", &hover), Ok(()));
    assert_eq!(well_formed("textDocument/hover", &Value::Null), Ok(()));
    assert!(well_formed("textDocument/hover", &json!({"contents": 5})).is_err());
    assert!(well_formed("textDocument/definition", &json!([{"uri": 1}])).is_err());
    assert!(well_formed("textDocument/foldingRange", &json!([{"endLine": 2}])).is_err());
    assert!(well_formed("easyflow/graph", &json!({"nodes": []})).is_err());
    let location = json!({"uri": "file:///a.flow", "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}});
    assert_eq!(
        well_formed("workspace/executeCommand", &json!([location])),
        Ok(())
    );
    assert!(well_formed("workspace/executeCommand", &json!([{"uri": 1}])).is_err());
    let edit = |line: u64, from: u64, to: u64| json!({"range": {"start": {"line": line, "character": from}, "end": {"line": line, "character": to}}, "newText": ""});
    let fix_all = |edits: Value| json!([{"title": "Fix all", "kind": "source.fixAll.easyflow", "edit": {"changes": {"file:///a.flow": edits}}}]);
    assert_eq!(
        fix_all_edits_are_disjoint(&fix_all(json!([edit(0, 0, 1), edit(0, 2, 3)]))),
        Ok(())
    );
    assert!(fix_all_edits_are_disjoint(&fix_all(json!([edit(0, 0, 2), edit(0, 2, 3)]))).is_err());
    assert!(well_formed("textDocument/documentLink", &json!([{"target": 1}])).is_err());
    assert_eq!(
        well_formed("textDocument/documentLink", &Value::Null),
        Ok(())
    );
    let unchanged = json!({"kind": "unchanged", "resultId": "1"});
    assert_eq!(well_formed("textDocument/diagnostic", &unchanged), Ok(()));
    assert!(well_formed("textDocument/diagnostic", &json!({"kind": "full"})).is_err());
    let workspace =
        json!({"items": [{"kind": "full", "uri": "file:///a.flow", "version": null, "items": []}]});
    assert_eq!(well_formed("workspace/diagnostic", &workspace), Ok(()));
    assert!(well_formed("workspace/diagnostic", &json!({"items": [unchanged]})).is_err());
}

/// The texts a project's topology and catalog get: every test case of
/// their readers, good and bad.
fn project_seeds() -> &'static (Vec<String>, Vec<String>) {
    static SEEDS: std::sync::OnceLock<(Vec<String>, Vec<String>)> = std::sync::OnceLock::new();
    SEEDS.get_or_init(|| {
        (
            texts_in("tests/data/topology", "topology"),
            texts_in("tests/data/catalog", "toml"),
        )
    })
}

/// The texts of the files of the repository's `folder` whose names end in
/// `.extension`, sorted.
fn texts_in(folder: &str, extension: &str) -> Vec<String> {
    let mut texts: Vec<String> = std::fs::read_dir(repo_root().join(folder))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    texts.sort();
    texts
}

fn pick<'a>(rng: &mut Rng, choices: &[&'a str]) -> &'a str {
    choices[rng.usize(..choices.len())]
}

fn advertised(capabilities: &Value, method: &str) -> bool {
    let key = match method {
        "textDocument/formatting" => "documentFormattingProvider",
        "textDocument/rangeFormatting" => "documentRangeFormattingProvider",
        "textDocument/signatureHelp" => "signatureHelpProvider",
        _ => return true,
    };
    !capabilities[key].is_null() && capabilities[key] != false
}

fn run_session(
    server: &mut Server,
    capabilities: &Value,
    dir: &Path,
    session: u64,
    seed: u64,
    seeds: &[String],
    workspace: &[PathBuf],
) -> Vec<PathBuf> {
    let mut rng = Rng::with_seed(seed ^ session.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let count = rng.usize(1..4);
    let docs = (0..count)
        .map(|i| {
            // Some documents are files of the workspace, when it has some.
            let disk = (!workspace.is_empty() && rng.bool())
                .then(|| workspace[rng.usize(..workspace.len())].clone())
                .filter(|path| !path.to_string_lossy().contains(&format!("/s{session}-")));
            let path = disk
                .clone()
                .unwrap_or_else(|| dir.join(format!("s{session}-{i}.flow")));
            Doc {
                uri: uri(&path),
                disk,
                text: String::new(),
                // Versions never repeat for a URI across sessions.
                version: session as i64 * 1000 - 1,
                open: false,
            }
        })
        .collect();
    let mut docs: Vec<Doc> = docs;
    for i in 1..docs.len() {
        if docs[..i].iter().any(|d| d.uri == docs[i].uri) {
            let path = dir.join(format!("s{session}-{i}.flow"));
            docs[i].uri = uri(&path);
            docs[i].disk = None;
        }
    }
    let encoding = Encoding::negotiated(capabilities);
    let mut s = Session {
        server,
        name: format!("s{session}"),
        rng,
        dir: dir.to_path_buf(),
        docs,
        texts: HashMap::new(),
        pending: Vec::new(),
        capabilities: capabilities.clone(),
        encoding,
        trace: vec![format!(
            "session {session} of seed {seed}, positions in {encoding:?}"
        )],
        disk_files: Vec::new(),
        folders: Vec::new(),
        root: dir.to_path_buf(),
        result_ids: HashMap::new(),
        completion_items: Vec::new(),
    };
    for doc in 0..count {
        s.open(doc, seeds);
    }
    let steps = s.rng.usize(5..40);
    for _ in 0..steps {
        let doc = s.rng.usize(..count);
        match s.rng.u8(..20) {
            0 if s.docs[doc].open => s.close(doc),
            0 | 1 if !s.docs[doc].open => s.open(doc, seeds),
            _ if !s.docs[doc].open => {}
            1..=7 => s.edit(doc, seeds),
            8 => s.allow_comment(doc),
            9 if s.rng.bool() => s.save(doc),
            9 => s.configuration(),
            10 if s.rng.bool() => s.watched_file(seeds),
            10 => s.project(seeds),
            11 if s.rng.u8(..3) == 0 => s.workspace_folder(seeds),
            _ => s.request(doc),
        }
    }
    s.check_responses();
    s.check_final_diagnostics();
    s.check_server_requests();
    for doc in 0..count {
        if s.docs[doc].open {
            s.close(doc);
        }
    }
    s.remove_folders();
    let written = std::mem::take(&mut s.disk_files);
    // Diagnostics of this session's documents are not needed any more.
    s.server.notifications.clear();
    written
}

/// Every file under `dir`.
fn files_under(dir: &Path) -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else {
            found.insert(path);
        }
    }
    found
}

/// The server's open sockets (it must have none: it never connects).
fn sockets(pid: u32) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| std::fs::read_link(e.path()).ok())
        .map(|target| target.display().to_string())
        .filter(|target| target.starts_with("socket:"))
        .collect()
}

#[test]
fn random_sessions() {
    let sessions = env_number("EASYFLOW_SESSIONS", 500);
    let seed = env_number("EASYFLOW_SESSION_SEED", 0x5e55_10f5);
    let first = env_number("EASYFLOW_SESSION_FIRST", 0);
    let seeds = seed_texts();
    let mut session = first;
    while session < first + sessions {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let mut server = Server::start();
        // Every other server negotiates UTF-8 positions (by the session's
        // block, so a replay from any session gets its encoding).
        let encoding = if (session / SESSIONS_PER_SERVER as u64) % 2 == 1 {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        };
        // And the pairs of servers take turns with a client that states
        // every capability the server uses, one that states none (plain
        // text, flat symbols, locations, commands for code actions, pushed
        // diagnostics), and one that also pulls diagnostics.
        let mut client = match (session / SESSIONS_PER_SERVER as u64 / 2) % 3 {
            0 => support::full_client(),
            1 => json!({}),
            _ => support::pull_client(),
        };
        if encoding == Encoding::Utf8 {
            client["general"]["positionEncodings"] = json!(["utf-8", "utf-16"]);
        }
        let capabilities = server.initialize(&root, client, json!({}))["capabilities"].clone();
        assert_eq!(Encoding::negotiated(&capabilities), encoding);
        let mut written = BTreeSet::new();
        let end = (session + SESSIONS_PER_SERVER as u64).min(first + sessions);
        while session < end {
            written.extend(run_session(
                &mut server,
                &capabilities,
                &root,
                session,
                seed,
                &seeds,
                &[],
            ));
            session += 1;
        }
        let open_sockets = sockets(server.pid());
        assert!(
            open_sockets.is_empty(),
            "the server opened sockets: {open_sockets:?}"
        );
        assert_eq!(server.stop().code(), Some(0));
        let unexpected: Vec<_> = files_under(&root)
            .into_iter()
            .filter(|p| !written.contains(p))
            .collect();
        assert!(
            unexpected.is_empty(),
            "the server wrote files: {unexpected:?}"
        );
        if session % 1000 < SESSIONS_PER_SERVER as u64 {
            eprintln!("{session} sessions");
        }
    }
}

/// Bounded memory: a workspace of `EASYFLOW_MEMORY_FLOWS` flows (1,000) of
/// 100 steps is indexed in the background, then fuzzed with sessions on
/// its files and new ones for `EASYFLOW_MEMORY_MINUTES` (10); prints the
/// indexing time and the server's RSS after indexing and at each minute.
/// A measurement, not run by default:
/// `cargo test --release -p easyflow-ls --test session_fuzzer -- --ignored --nocapture`.
#[test]
#[ignore = "a long measurement (see its documentation)"]
fn bounded_memory() {
    let flows = env_number("EASYFLOW_MEMORY_FLOWS", 1000) as usize;
    let minutes = env_number("EASYFLOW_MEMORY_MINUTES", 10);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let workspace: Vec<PathBuf> = (0..flows)
        .map(|i| {
            let path = root.join(format!("w{}/flow{i}.flow", i % 20));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, easyflow_genflow::generate(100, i as u64)).unwrap();
            path
        })
        .collect();
    // The server's own info lines (not salsa's, one per query run).
    let mut server = Server::start_with_env(&[("EASYFLOW_LOG", "warn,easyflow_ls=info")]);
    let started = std::time::Instant::now();
    let capabilities = server.initialize(&root, json!({}), json!({}))["capabilities"].clone();
    while !server.log().contains("indexed ") {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let indexing = started.elapsed();
    // Workspace symbols over every flow, as an editor asks them at start:
    // the first analysis of every file.
    server.request("workspace/symbol", json!({"query": "S1"}));
    let analysed = started.elapsed();
    let (rss, peak) = memory(server.pid());
    eprintln!(
        "{flows} flows of 100 steps read in {indexing:.2?}, analysed for workspace symbols \
         in {analysed:.2?}; RSS {rss} MiB (peak {peak} MiB)"
    );
    let seeds = seed_texts();
    let end = std::time::Instant::now() + std::time::Duration::from_secs(minutes * 60);
    let mut session = 0;
    let mut next_report = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < end {
        let written = run_session(
            &mut server,
            &capabilities,
            &root,
            session,
            0xb0_0d,
            &seeds,
            &workspace,
        );
        // The workspace keeps its size: the session's files on the disk go
        // (a project's file may have become a folder since).
        for path in written.iter().filter(|p| p.is_file()) {
            std::fs::remove_file(path).unwrap();
            server.notify(
                "workspace/didChangeWatchedFiles",
                json!({"changes": [{"uri": uri(path), "type": 3}]}),
            );
        }
        let _ = std::fs::remove_dir_all(project_folder(&root, &format!("s{session}")));
        session += 1;
        if std::time::Instant::now() >= next_report {
            let (rss, peak) = memory(server.pid());
            eprintln!("{session} sessions: RSS {rss} MiB (peak {peak} MiB)");
            next_report += std::time::Duration::from_secs(60);
        }
    }
    let (rss, peak) = memory(server.pid());
    eprintln!("after {session} sessions: RSS {rss} MiB (peak {peak} MiB)");
    assert_eq!(server.stop().code(), Some(0));
}
