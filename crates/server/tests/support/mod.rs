//! A small JSON-RPC client that drives the real `easyflow-ls` binary over
//! stdio, for end-to-end tests. Every byte the server writes to stdout must
//! be a well-framed protocol message: the reader fails the test otherwise.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long any single wait may take before the test fails (generous: CI
/// machines are slow, but a hang must not stall the suite).
pub const TIMEOUT: Duration = Duration::from_secs(60);

pub struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Result<Value, String>>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    pub notifications: Vec<Value>,
    pub stderr_log: PathBuf,
    /// What the client answers `workspace/configuration` for each
    /// `scopeUri` (a folder's settings; `null` allowed); `{}` (no
    /// settings) for a scope not here.
    pub folder_settings: std::collections::HashMap<String, Value>,
}

/// A `file:` URI for a path.
pub fn uri(path: &Path) -> String {
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    format!("file://{}", path.display())
}

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn read_message(reader: &mut impl BufRead) -> Result<Option<Value>, String> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            return Ok(None);
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| format!("not a header on stdout: {line:?}"))?;
        if name.eq_ignore_ascii_case("content-length") {
            length = Some(value.trim().parse::<usize>().map_err(|e| e.to_string())?);
        }
    }
    let length = length.ok_or("a message without Content-Length on stdout")?;
    let mut body = vec![0; length];
    reader.read_exact(&mut body).map_err(|e| e.to_string())?;
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|e| format!("invalid JSON on stdout: {e}"))
}

impl Server {
    pub fn start() -> Server {
        Server::start_with_env(&[])
    }

    pub fn start_with_env(env: &[(&str, &str)]) -> Server {
        Server::start_with(env, None)
    }

    /// A server with `env`, its stderr going to `stderr` when given (its
    /// [`Server::log`] is then empty), else to a log file.
    pub fn start_with(env: &[(&str, &str)], stderr: Option<Stdio>) -> Server {
        let log = std::env::temp_dir().join(format!(
            "easyflow-ls-test-{}-{}.log",
            std::process::id(),
            fastrand_id()
        ));
        let stderr =
            stderr.unwrap_or_else(|| std::fs::File::create(&log).expect("a log file").into());
        let mut command = Command::new(env!("CARGO_BIN_EXE_easyflow-ls"));
        command
            .arg("--stdio")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("easyflow-ls starts");
        let stdout = child.stdout.take().unwrap();
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                match read_message(&mut reader) {
                    Ok(Some(message)) => {
                        if sender.send(Ok(message)).is_err() {
                            return;
                        }
                    }
                    Ok(None) => return,
                    Err(error) => {
                        let _ = sender.send(Err(error));
                        return;
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        Server {
            child,
            stdin,
            messages,
            next_id: 1,
            notifications: Vec::new(),
            stderr_log: log,
            folder_settings: Default::default(),
        }
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("the server reads");
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, message: &Value) {
        let body = serde_json::to_vec(message).unwrap();
        let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        framed.extend(body);
        self.send_raw(&framed);
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its id without waiting.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The next message from the server, answering its own requests.
    fn next(&mut self, deadline: Instant, waiting_for: &str) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = match self.messages.recv_timeout(left) {
            Ok(Ok(message)) => message,
            Ok(Err(error)) => panic!("bad output from the server: {error}"),
            Err(RecvTimeoutError::Timeout) => {
                panic!("timed out waiting for {waiting_for}; log: {}", self.log())
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!("the server closed stdout; log: {}", self.log())
            }
        };
        // Requests from the server (registrations, progress tokens,
        // configuration): answer them so it never waits on us, then return
        // them like notifications (`wait_for` may look for one).
        if message.get("method").is_some() && message.get("id").is_some() {
            self.send(
                &json!({"jsonrpc": "2.0", "id": message["id"].clone(), "result": self.answer(&message)}),
            );
        }
        message
    }

    /// The response to request `id` (the whole message: `result` or `error`).
    pub fn response(&mut self, id: i64) -> Value {
        // Responses may come out of order: one may have been set aside while
        // waiting for another.
        if let Some(i) = self
            .notifications
            .iter()
            .position(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
        {
            return self.notifications.remove(i);
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let message = self.next(deadline, &format!("the response to request {id}"));
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                return message;
            }
            self.notifications.push(message);
        }
    }

    /// Sends a request and returns its `result`, failing on an error.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        let response = self.response(id);
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}"
        );
        response["result"].clone()
    }

    /// Waits for a notification matching `predicate` (also looking at those
    /// already received), and removes it.
    pub fn wait_for(&mut self, predicate: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.notifications.iter().position(&predicate) {
            return self.notifications.remove(i);
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let message = self.next(deadline, "a notification");
            if predicate(&message) {
                return message;
            }
            self.notifications.push(message);
        }
    }

    /// Like [`Server::wait_for`], but `None` after `timeout` instead of
    /// failing (for callers that say more about what was waited for).
    pub fn try_wait_for(
        &mut self,
        predicate: impl Fn(&Value) -> bool,
        timeout: Duration,
    ) -> Option<Value> {
        if let Some(i) = self.notifications.iter().position(&predicate) {
            return Some(self.notifications.remove(i));
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = match self.messages.recv_timeout(left) {
                Ok(Ok(message)) => message,
                Ok(Err(error)) => panic!("bad output from the server: {error}"),
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server closed stdout; log: {}", self.log())
                }
            };
            // A request from the server is answered, and may be what is
            // waited for.
            if message.get("method").is_some() && message.get("id").is_some() {
                self.send(
                    &json!({"jsonrpc": "2.0", "id": message["id"].clone(), "result": self.answer(&message)}),
                );
            }
            if predicate(&message) {
                return Some(message);
            }
            self.notifications.push(message);
        }
    }

    /// The diagnostics published for `uri` at `version`.
    pub fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let message = self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
        });
        message["params"]["diagnostics"].as_array().unwrap().clone()
    }

    /// `initialize` then `initialized`; returns the initialize result.
    pub fn initialize(&mut self, root: &Path, capabilities: Value, options: Value) -> Value {
        let result = self.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "workspaceFolders": [{"uri": uri(root), "name": "root"}],
                "capabilities": capabilities,
                "initializationOptions": options,
            }),
        );
        self.notify("initialized", json!({}));
        result
    }

    pub fn open(&mut self, path: &Path, text: &str) -> String {
        let uri = uri(path);
        let language = if path.extension().is_some_and(|e| e == "topology") {
            "easyflow-topology"
        } else {
            "easyflow"
        };
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": 0, "text": text}}),
        );
        uri
    }

    /// `shutdown`, `exit`, and the exit status.
    pub fn stop(mut self) -> ExitStatus {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        self.wait()
    }

    /// Closes stdin and waits for the process.
    pub fn wait(&mut self) -> ExitStatus {
        drop(self.stdin.take());
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not exit; log: {}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.stderr_log).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.stderr_log);
    }
}

impl Server {
    /// What the test client answers a request from the server: each
    /// scope's settings ([`Server::folder_settings`]), an edit applied,
    /// nothing else.
    fn answer(&self, request: &Value) -> Value {
        match request["method"].as_str() {
            Some("workspace/configuration") => request["params"]["items"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|item| {
                    let scope = item["scopeUri"].as_str().unwrap_or_default();
                    self.folder_settings
                        .get(scope)
                        .cloned()
                        .unwrap_or_else(|| json!({}))
                })
                .collect(),
            Some("workspace/applyEdit") => json!({"applied": true}),
            _ => Value::Null,
        }
    }
}

fn fastrand_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A position encoding a client can negotiate (`positionEncoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// The encoding the server chose in its `initialize` capabilities.
    pub fn negotiated(capabilities: &Value) -> Encoding {
        match capabilities["positionEncoding"].as_str() {
            Some("utf-8") => Encoding::Utf8,
            _ => Encoding::Utf16,
        }
    }

    /// The code units of `c` in this encoding.
    pub fn units(self, c: char) -> u32 {
        match self {
            Encoding::Utf8 => c.len_utf8() as u32,
            Encoding::Utf16 => c.len_utf16() as u32,
        }
    }

    /// The code units of `text` in this encoding.
    pub fn len(self, text: &str) -> u32 {
        text.chars().map(|c| self.units(c)).sum()
    }
}

/// The byte offset of an LSP position (UTF-16) as the protocol defines it.
pub fn offset_of(text: &str, line: u32, character: u32) -> usize {
    offset_in(text, line, character, Encoding::Utf16)
}

/// The byte offset of an LSP position in `encoding`: past the last line is
/// the end, past a line's end is that end, inside a character (a surrogate
/// pair, a UTF-8 sequence) is the character's start.
pub fn offset_in(text: &str, line: u32, character: u32, encoding: Encoding) -> usize {
    let mut start = 0;
    for _ in 0..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let rest = &text[start..];
    let line_text = rest.split('\n').next().unwrap_or("");
    let line_text = line_text.strip_suffix('\r').unwrap_or(line_text);
    let mut units = 0;
    for (i, c) in line_text.char_indices() {
        units += encoding.units(c);
        if units > character {
            return start + i;
        }
    }
    start + line_text.len()
}

/// Applies LSP text edits (positions on ASCII text) to `text`.
pub fn apply_edits(text: &str, edits: &Value) -> String {
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let offset = |p: &Value| {
        line_starts[p["line"].as_u64().unwrap() as usize]
            + p["character"].as_u64().unwrap() as usize
    };
    let mut edits: Vec<(usize, usize, String)> = edits
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    edits.sort();
    let mut out = String::new();
    let mut at = 0;
    for (start, end, new) in edits {
        out.push_str(&text[at..start]);
        out.push_str(&new);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// The capabilities of a client that states everything the server can use
/// (as VS Code does): snippets, Markdown, links, a symbol tree, code action
/// literals, every kind, refreshes. The tests written for such a client
/// say it; `tests/capabilities.rs` checks a client that states nothing.
#[allow(dead_code)] // Not every test binary that includes this module uses it.
pub fn full_client() -> Value {
    let every_completion_kind: Vec<u32> = (1..=25).collect();
    let every_symbol_kind: Vec<u32> = (1..=26).collect();
    json!({
        "general": {"positionEncodings": ["utf-16"]},
        "window": {"workDoneProgress": true},
        "workspace": {
            "applyEdit": true,
            "workspaceEdit": {"documentChanges": true},
            "didChangeWatchedFiles": {"dynamicRegistration": true},
            "symbol": {"symbolKind": {"valueSet": every_symbol_kind}},
            "configuration": true,
            "workspaceFolders": true,
            "inlayHint": {"refreshSupport": true},
            "codeLens": {"refreshSupport": true},
            "semanticTokens": {"refreshSupport": true}
        },
        "textDocument": {
            "completion": {
                "completionItem": {
                    "snippetSupport": true,
                    "documentationFormat": ["markdown", "plaintext"],
                    "insertReplaceSupport": true,
                    "labelDetailsSupport": true
                },
                "completionItemKind": {"valueSet": every_completion_kind}
            },
            "hover": {"contentFormat": ["markdown", "plaintext"]},
            "signatureHelp": {
                "signatureInformation": {
                    "documentationFormat": ["markdown", "plaintext"],
                    "activeParameterSupport": true
                }
            },
            "definition": {"linkSupport": true},
            "documentSymbol": {
                "hierarchicalDocumentSymbolSupport": true,
                "symbolKind": {"valueSet": every_symbol_kind}
            },
            "codeAction": {
                "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix"]}},
                "isPreferredSupport": true
            },
            "rename": {"prepareSupport": true},
            "semanticTokens": {
                "requests": {"full": true, "range": true},
                "tokenTypes": [],
                "tokenModifiers": [],
                "formats": ["relative"]
            },
            "publishDiagnostics": {
                "relatedInformation": true,
                "tagSupport": {"valueSet": [1, 2]},
                "versionSupport": true,
                "codeDescriptionSupport": true
            },
            "foldingRange": {"lineFoldingOnly": true}
        }
    })
}

/// A process's resident and peak memory, in MiB (`/proc/PID/status`).
pub fn memory(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The large workspace of issue 28 under `root`: `flows` generated flows
/// of `steps` steps, a hundred per directory, and a topology without GPU
/// workers, so that every tenth flow (which `requires` capabilities) has
/// E0702s and the others none. Returns the paths of the flows with
/// problems.
pub fn write_large_workspace(root: &Path, flows: usize, steps: usize) -> Vec<PathBuf> {
    let topology = easyflow_genflow::TOPOLOGY.replace("compute+GPU:2,1073741824 ", "");
    std::fs::write(root.join("easyflow.topology"), topology).unwrap();
    let mut with_problems = Vec::new();
    for i in 0..flows {
        let dir = root.join(format!("d{}", i / 100));
        if i % 100 == 0 {
            std::fs::create_dir_all(&dir).unwrap();
        }
        let path = dir.join(format!("f{i}.flow"));
        let text = if i % 10 == 0 {
            let text = easyflow_genflow::generate_with_topology(steps, i as u64);
            if text.contains("compute+GPU") {
                with_problems.push(path.clone());
            }
            text
        } else {
            easyflow_genflow::generate(steps, i as u64)
        };
        std::fs::write(&path, text).unwrap();
    }
    with_problems
}

/// The capabilities of a client that pulls diagnostics and accepts
/// `workspace/diagnostic/refresh` (VS Code, Neovim 0.10+).
pub fn pull_client() -> Value {
    let mut capabilities = full_client();
    capabilities["textDocument"]["diagnostic"] = json!({"relatedDocumentSupport": false});
    capabilities["workspace"]["diagnostics"] = json!({"refreshSupport": true});
    capabilities
}

/// The `p` quantile (0 to 1) of `samples`, which it sorts (for benchmarks).
pub fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    let index = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[index]
}
