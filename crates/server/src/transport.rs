//! A guard in front of the protocol library: it reads the framed messages
//! from stdin and passes on only well-formed JSON-RPC objects. tower-lsp
//! stops serving at the first undecodable message; a client's malformed JSON
//! or bad `Content-Length` must only cost that message (lsp.md, Robustness).
//!
//! It also decodes each `textDocument/didOpen` itself ([`OpenedTexts`]): the
//! document's text goes straight to the handler, and tower-lsp gets the
//! notification without it.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, DuplexStream};
use tower_lsp_server::ls_types::Uri;

const HEADER_END: &[u8] = b"\r\n\r\n";
const CONTENT_LENGTH: &[u8] = b"content-length:";

/// The largest message accepted (a 50 MB document plus its framing fits).
const MAX_MESSAGE: usize = 512 * 1024 * 1024;

/// Reads `input` and returns a stream of only valid messages. Sets
/// `shutdown_requested` when a `shutdown` request passes: the exit status
/// must follow the order of the messages, not of their handlers, which run
/// concurrently (an `exit` sent right behind `shutdown` may be handled first).
pub fn sanitize(
    mut input: impl AsyncRead + Unpin + Send + 'static,
    shutdown_requested: Arc<AtomicBool>,
    opened: OpenedTexts,
) -> DuplexStream {
    let (mut forward, output) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let mut buffer: Vec<u8> = Vec::with_capacity(READ_SIZE);
        loop {
            // Drain every complete message in the buffer.
            while let Some(step) = next_message(&buffer) {
                match step {
                    Frame::Message { consumed, body } => {
                        crate::background::client_spoke();
                        if let Some(forwarded) = opened.decode(&buffer[body.clone()]) {
                            let header = format!("Content-Length: {}\r\n\r\n", forwarded.len());
                            if forward.write_all(header.as_bytes()).await.is_err()
                                || forward.write_all(&forwarded).await.is_err()
                            {
                                return;
                            }
                        } else if let Some(method) = rpc_method(&buffer[body.clone()]) {
                            if method.as_deref() == Some("shutdown") {
                                shutdown_requested.store(true, Ordering::SeqCst);
                            }
                            let header = format!("Content-Length: {}\r\n\r\n", body.len());
                            if forward.write_all(header.as_bytes()).await.is_err()
                                || forward.write_all(&buffer[body]).await.is_err()
                            {
                                return;
                            }
                        } else {
                            tracing::warn!("dropped a message that is not a JSON-RPC 2.0 object");
                        }
                        buffer.drain(..consumed);
                    }
                    Frame::Garbage { consumed } => {
                        tracing::warn!("dropped {consumed} bytes of malformed input (bad header)");
                        buffer.drain(..consumed);
                    }
                }
            }
            // Room for the rest of the message under way (a large document
            // arrives in one piece, without the buffer doubling on the way).
            let wanted =
                pending_length(&buffer).map_or(0, |total| total.saturating_sub(buffer.len()));
            buffer.reserve(wanted.max(READ_SIZE));
            match input.read_buf(&mut buffer).await {
                Ok(0) | Err(_) => return, // end of input: the server stops
                Ok(_) => {}
            }
        }
    });
    output
}

/// The least read from the input at once.
const READ_SIZE: usize = 1 << 16;

/// The whole length (header and body) of the message whose header starts
/// `buffer`, once the header has arrived.
fn pending_length(buffer: &[u8]) -> Option<usize> {
    let (body_start, length) = header_and_length(buffer)?;
    Some(body_start + length?.min(MAX_MESSAGE))
}

/// Gives the pipe on stdin, if it is one, a capacity of 1 MiB (Linux's
/// default limit for unprivileged processes) instead of 64 KiB: a large
/// document then arrives in a few reads instead of hundreds, each a round
/// trip through tokio's blocking pool (a 100k-step `didOpen`, 21 MB,
/// arrived in 17–34 ms instead of 70–216 ms on a loaded machine).
#[cfg(target_os = "linux")]
pub fn widen_stdin_pipe() {
    // SAFETY: F_SETPIPE_SZ only changes the capacity of the pipe; on
    // anything else (a file, a terminal) it fails, which changes nothing.
    let result = unsafe { libc::fcntl(libc::STDIN_FILENO, libc::F_SETPIPE_SZ, 1 << 20) };
    if result < 0 {
        tracing::debug!(
            "stdin keeps its capacity: {}",
            std::io::Error::last_os_error()
        );
    }
}

#[cfg(not(target_os = "linux"))]
pub fn widen_stdin_pipe() {}

/// The protocol's output (stdout), which says when a write to it fails: the
/// client no longer reads it (a closed pipe), so the server has nothing
/// more to do. tower-lsp only stops writing, and would serve on, unheard,
/// until stdin ends.
pub struct Output<W> {
    inner: W,
    failed: Arc<tokio::sync::Notify>,
}

impl<W> Output<W> {
    /// `inner`, and what is notified at its first failed write or flush.
    pub fn new(inner: W) -> (Output<W>, Arc<tokio::sync::Notify>) {
        let failed = Arc::new(tokio::sync::Notify::new());
        let output = Output {
            inner,
            failed: failed.clone(),
        };
        (output, failed)
    }

    fn watch<T>(&self, result: Poll<std::io::Result<T>>) -> Poll<std::io::Result<T>> {
        if let Poll::Ready(Err(error)) = &result {
            tracing::info!("the output is closed ({error}): the client is gone");
            self.failed.notify_one();
        }
        result
    }
}

impl<W: AsyncWrite + Unpin> AsyncWrite for Output<W> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.watch(result)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let result = Pin::new(&mut self.inner).poll_flush(cx);
        self.watch(result)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

enum Frame {
    /// A whole message: `consumed` bytes, the body at `body`.
    Message {
        consumed: usize,
        body: std::ops::Range<usize>,
    },
    /// Bytes to skip to reach the next header.
    Garbage { consumed: usize },
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

/// The next frame at the start of `buffer`, or `None` when more input is needed.
fn next_message(buffer: &[u8]) -> Option<Frame> {
    if buffer.is_empty() {
        return None;
    }
    // Resynchronise on the next header if the buffer does not start with one.
    match find(buffer, CONTENT_LENGTH) {
        Some(0) => {}
        Some(at) => return Some(Frame::Garbage { consumed: at }),
        None => {
            // Keep a possible partial header at the end.
            let keep = CONTENT_LENGTH.len().min(buffer.len());
            let consumed = buffer.len() - keep;
            return (consumed > 0).then_some(Frame::Garbage { consumed });
        }
    }
    let (body_start, length) = header_and_length(buffer)?;
    match length.filter(|&length| length <= MAX_MESSAGE) {
        Some(length) => {
            let body_end = body_start + length;
            if buffer.len() < body_end {
                return None;
            }
            Some(Frame::Message {
                consumed: body_end,
                body: body_start..body_end,
            })
        }
        // An unreadable length: skip this header, resynchronise after it.
        _ => Some(Frame::Garbage {
            consumed: body_start,
        }),
    }
}

/// Where the body starts after the complete header at the start of
/// `buffer`, and the length it announces (`None` when unreadable); `None`
/// while the header is incomplete.
fn header_and_length(buffer: &[u8]) -> Option<(usize, Option<usize>)> {
    let header_end = find(buffer, HEADER_END)?;
    let headers = std::str::from_utf8(&buffer[..header_end]).ok();
    let length = headers.and_then(|headers| {
        headers.split("\r\n").find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.trim()
                .eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse::<usize>().ok())?
        })
    });
    Some((header_end + HEADER_END.len(), length))
}

/// The members of a JSON-RPC message the guard looks at; the others (the
/// params, which can hold a whole document) are checked to be valid JSON
/// and skipped without being built.
#[derive(serde::Deserialize)]
struct Envelope {
    #[serde(default)]
    jsonrpc: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "present")]
    method: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "skipped")]
    id: bool,
}

/// A member that is there, even as `null`.
fn present<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    serde::Deserialize::deserialize(deserializer).map(Some)
}

/// Whether a member is there (its value skipped).
fn skipped<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    <serde::de::IgnoredAny as serde::Deserialize>::deserialize(deserializer).map(|_| true)
}

/// For a JSON-RPC 2.0 message, `Some` of its method (`None` for a
/// response); `None` for anything else.
fn rpc_method(body: &[u8]) -> Option<Option<String>> {
    // A struct would also accept an array: only an object is a message.
    if body.trim_ascii_start().first() != Some(&b'{') {
        return None;
    }
    let message: Envelope = serde_json::from_slice(body).ok()?;
    if message.jsonrpc.as_ref().and_then(|v| v.as_str()) != Some("2.0") {
        return None;
    }
    match message.method {
        Some(serde_json::Value::String(method)) => Some(Some(method)),
        Some(_) => None,
        None => message.id.then_some(None),
    }
}

/// The texts of the `didOpen` notifications the guard decoded, in the
/// order they came, until their handler takes them.
///
/// tower-lsp decodes a message into an untagged enum, which buffers the
/// whole message before it looks at it: the text of a 100,000-step
/// document (18 MB) was copied three times and its escapes parsed twice
/// (the guard's check, then tower-lsp's) before the handler copied it
/// once more. Decoded here, a `didOpen` is parsed once, its text built
/// once, as the shared `Arc<str>` the document and the analysis keep, and
/// tower-lsp gets the notification with an empty text; the handler, which
/// runs in the order of the messages, takes the text back
/// (`notifications::did_open`).
#[derive(Clone, Default)]
pub struct OpenedTexts(Arc<Mutex<VecDeque<OpenedText>>>);

struct OpenedText {
    uri: Uri,
    version: i32,
    text: Arc<str>,
}

/// A `textDocument/didOpen` notification, as the guard decodes it.
#[derive(serde::Deserialize)]
struct DidOpen {
    jsonrpc: String,
    method: String,
    params: DidOpenParams,
    #[serde(default, deserialize_with = "skipped")]
    id: bool,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct DidOpenParams {
    text_document: OpenedDocument,
}

/// `TextDocumentItem`, with its text shared.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct OpenedDocument {
    uri: Uri,
    language_id: String,
    version: i32,
    #[serde(deserialize_with = "shared_text")]
    text: Arc<str>,
}

/// A string built once into an `Arc<str>` (serde's own `Arc<str>` builds a
/// `String` first).
fn shared_text<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Arc<str>, D::Error> {
    struct SharedText;
    impl serde::de::Visitor<'_> for SharedText {
        type Value = Arc<str>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Arc<str>, E> {
            Ok(Arc::from(text))
        }
    }
    deserializer.deserialize_str(SharedText)
}

impl OpenedTexts {
    /// For a well-formed `didOpen` notification, keeps its text and returns
    /// the notification to forward, with an empty text; `None` for any
    /// other message (which takes the usual way).
    fn decode(&self, body: &[u8]) -> Option<Vec<u8>> {
        // The method's name as a whole JSON string cannot occur inside
        // another string (its quotes would be escaped there): most
        // messages are passed over by one fast search.
        memchr::memmem::find(body, b"\"textDocument/didOpen\"")?;
        if body.trim_ascii_start().first() != Some(&b'{') {
            return None;
        }
        let DidOpen {
            jsonrpc,
            method,
            params,
            id,
        } = serde_json::from_slice(body).ok()?;
        if jsonrpc != "2.0" || method != "textDocument/didOpen" || id {
            return None;
        }
        let OpenedDocument {
            uri,
            language_id,
            version,
            text,
        } = params.text_document;
        let forwarded = serde_json::to_vec(&serde_json::json!({
            "jsonrpc": "2.0",
            "method": method,
            "params": {"textDocument": {
                "uri": uri, "languageId": language_id, "version": version, "text": ""}},
        }))
        .ok()?;
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_back(OpenedText { uri, version, text });
        Some(forwarded)
    }

    /// The text of the `didOpen` of `uri` at `version`, if the guard
    /// decoded it. Notifications are handled in order, so it is the oldest
    /// kept; any older one belonged to a notification that never reached
    /// its handler, and goes.
    pub fn take(&self, uri: &Uri, version: i32) -> Option<Arc<str>> {
        let mut queue = self.0.lock().unwrap_or_else(|e| e.into_inner());
        while let Some(opened) = queue.pop_front() {
            if opened.uri == *uri && opened.version == version {
                return Some(opened.text);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn pass(input: &[u8]) -> Vec<u8> {
        pass_opening(input, &OpenedTexts::default()).await
    }

    async fn pass_opening(input: &[u8], opened: &OpenedTexts) -> Vec<u8> {
        let mut output = sanitize(
            std::io::Cursor::new(input.to_vec()),
            Arc::default(),
            opened.clone(),
        );
        let mut out = Vec::new();
        output.read_to_end(&mut out).await.unwrap();
        out
    }

    #[tokio::test]
    async fn keeps_good_messages_and_drops_bad_ones() {
        let good = br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let mut input = Vec::new();
        input.extend_from_slice(b"Content-Length: 12\r\n\r\n{not json!!}");
        input.extend_from_slice(b"Content-Length: abc\r\n\r\n{}");
        input.extend_from_slice(b"Content-Length: 5\r\n\r\n[1,2]");
        input.extend_from_slice(format!("Content-Length: {}\r\n\r\n", good.len()).as_bytes());
        input.extend_from_slice(good);
        let expected = [
            format!("Content-Length: {}\r\n\r\n", good.len()).into_bytes(),
            good.to_vec(),
        ]
        .concat();
        assert_eq!(pass(&input).await, expected);
    }

    fn framed(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    #[tokio::test]
    async fn judges_messages_by_their_members() {
        let passed = [
            r#"{"jsonrpc":"2.0","id":null,"result":1}"#,
            r#" {"params":{"text":"a\nb","deep":[1,{"x":null}]},"method":"didOpen","jsonrpc":"2.0"}"#,
        ];
        let dropped = [
            r#"["2.0","exit"]"#,
            r#"{"jsonrpc":"2.0","method":null}"#,
            r#"{"jsonrpc":"2.0","method":7,"id":1}"#,
            r#"{"jsonrpc":"1.0","method":"exit"}"#,
            r#"{"jsonrpc":"2.0","result":1}"#,
            r#"{"jsonrpc":"2.0","method":"exit","params":{"text":"unterminated}}"#,
        ];
        for body in passed {
            assert_eq!(pass(&framed(body)).await, framed(body), "{body}");
        }
        for body in dropped {
            assert_eq!(pass(&framed(body)).await, b"", "{body}");
        }
    }

    /// A message much larger than one read arrives whole.
    #[tokio::test]
    async fn passes_a_large_message() {
        let text = "step A runs P ();\n".repeat(100_000);
        let body = serde_json::json!({"jsonrpc": "2.0", "method": "m", "params": {"text": text}})
            .to_string();
        assert_eq!(pass(&framed(&body)).await, framed(&body));
    }

    /// A `didOpen` reaches tower-lsp without its text, which waits for the
    /// handler, decoded (escapes and all); one the guard cannot decode as a
    /// `didOpen` takes the usual way.
    #[tokio::test]
    async fn keeps_the_text_of_a_did_open() {
        let text = "step A runs P (x = \"a\\b\u{fc}\");\r\n\t// \u{1f600}\n";
        let open = |uri: &str, text: &str| {
            serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                "textDocument": {"uri": uri, "languageId": "easyflow", "version": 3, "text": text}}})
            .to_string()
        };
        let opened = OpenedTexts::default();
        let out = pass_opening(&framed(&open("file:///w/a.flow", text)), &opened).await;
        let forwarded = open("file:///w/a.flow", "");
        assert_eq!(out, framed(&forwarded));
        let uri: Uri = "file:///w/a.flow".parse().unwrap();
        assert_eq!(opened.take(&uri, 2), None);
        assert_eq!(
            pass_opening(&framed(&open("file:///w/a.flow", text)), &opened).await,
            framed(&forwarded)
        );
        assert_eq!(opened.take(&uri, 3).as_deref(), Some(text));
        assert_eq!(opened.take(&uri, 3), None);

        // Not decoded here: a request, a bad version, a text in a string
        // of another method.
        let usual = [
            r#"{"jsonrpc":"2.0","id":1,"method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.flow","languageId":"x","version":1,"text":""}}}"#,
            r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.flow","languageId":"x","version":"1","text":""}}}"#,
            r#"{"jsonrpc":"2.0","method":"x","params":{"t":"\"textDocument/didOpen\""}}"#,
        ];
        for body in usual {
            assert_eq!(pass_opening(&framed(body), &opened).await, framed(body));
        }
        assert!(opened.0.lock().unwrap().is_empty());
    }
}
