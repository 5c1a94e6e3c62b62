//! A guard in front of the protocol library: it reads the framed messages
//! from stdin and passes on only well-formed JSON-RPC objects. tower-lsp
//! stops serving at the first undecodable message; a client's malformed JSON
//! or bad `Content-Length` must only cost that message (lsp.md, Robustness).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt, DuplexStream};

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
) -> DuplexStream {
    let (mut forward, output) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let mut buffer: Vec<u8> = Vec::with_capacity(READ_SIZE);
        loop {
            // Drain every complete message in the buffer.
            while let Some(step) = next_message(&buffer) {
                match step {
                    Frame::Message { consumed, body } => {
                        if let Some(method) = rpc_method(&buffer[body.clone()]) {
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

#[cfg(test)]
mod tests {
    use super::*;

    async fn pass(input: &[u8]) -> Vec<u8> {
        let mut output = sanitize(std::io::Cursor::new(input.to_vec()), Arc::default());
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
}
