//! The play path's HTTP/1.1: one keep-alive connection per generator connection, written and
//! read by hand. hyper's client cost the generator more than the rest of a request (its
//! connection task, the channels between it and the caller, a header map each way), and the
//! generator shares the cores with the server it measures, so its cost caps every figure.
//!
//! A request is written with one call from a reused buffer, its head mostly pre-built by the
//! caller; the answer is read into another reused buffer and its body handed out in place. It
//! speaks only what Roadie answers with and fails loudly on anything else: an HTTP/1.1 status
//! line, exactly one `Content-Length` (none only for 204 and 304), no `Transfer-Encoding`, no
//! interim (1xx) answer, and no byte after the body. `--flow tickets` keeps hyper (`http.rs`).

use std::io;
use std::net::SocketAddr;
use std::ops::Range;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A connection left idle this long is replaced before use rather than trusted: the server may
/// have closed it (actix-web's keep-alive is 5 s).
pub const IDLE_REOPEN: Duration = Duration::from_secs(2);

/// The most bytes and fields an answer's head may have, and the largest body accepted.
const MAX_HEAD_BYTES: usize = 64 * 1024;
const MAX_HEADERS: usize = 32;
const MAX_BODY_BYTES: usize = 64 * 1024 * 1024;

/// Why a request got no answer.
#[derive(Debug)]
pub enum Failure {
    Connect(io::Error),
    Timeout,
    Io(io::Error),
    /// The server closed the connection before the whole answer.
    Closed,
    /// An answer that is not the HTTP/1.1 the generator expects.
    Protocol(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Connect(e) => write!(f, "connect: {e}"),
            Failure::Timeout => f.write_str("timed out"),
            Failure::Io(e) => write!(f, "HTTP/1.1: {e}"),
            Failure::Closed => f.write_str("HTTP/1.1: the server closed the connection mid-answer"),
            Failure::Protocol(why) => write!(f, "HTTP/1.1: {why}"),
        }
    }
}

impl Failure {
    /// A short label for the error tally.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Connect(_) => "connect",
            Failure::Timeout => "timeout",
            Failure::Io(_) | Failure::Closed => "transport",
            Failure::Protocol(_) => "protocol",
        }
    }
}

/// A connection to one server, opened on first use and reopened when the server closes it.
pub struct Connection {
    addr: SocketAddr,
    timeout: Duration,
    stream: Option<TcpStream>,
    last_used: Instant,
    out: Vec<u8>,
    input: Vec<u8>,
    body: Range<usize>,
}

/// What an answer's head says.
#[derive(Debug, PartialEq, Eq)]
struct Head {
    status: u16,
    /// Bytes of the status line and headers, the blank line included.
    len: usize,
    body_len: usize,
    close: bool,
}

impl Connection {
    pub fn new(addr: SocketAddr, timeout: Duration) -> Self {
        Self {
            addr,
            timeout,
            stream: None,
            last_used: Instant::now(),
            out: Vec::with_capacity(1024),
            input: Vec::with_capacity(16 * 1024),
            body: 0..0,
        }
    }

    /// Sends a request and answers its status; its body is [`Connection::body`] until the
    /// next request. `head` is the request line and headers, each ending in CRLF, without the
    /// blank line; a `body` is sent as JSON with its `Content-Length`.
    pub async fn send(&mut self, head: &[u8], body: Option<&[u8]>) -> Result<u16, Failure> {
        let result = match tokio::time::timeout(self.timeout, self.exchange(head, body)).await {
            Ok(result) => result,
            Err(_) => Err(Failure::Timeout),
        };
        if result.is_err() {
            self.stream = None;
        }
        result
    }

    /// The body of the last answer.
    pub fn body(&self) -> &[u8] {
        self.input.get(self.body.clone()).unwrap_or_default()
    }

    async fn exchange(&mut self, head: &[u8], body: Option<&[u8]>) -> Result<u16, Failure> {
        self.body = 0..0;
        write_request(&mut self.out, head, body);
        if self.last_used.elapsed() > IDLE_REOPEN {
            self.stream = None;
        }
        let stream = match &mut self.stream {
            Some(stream) => stream,
            None => {
                let stream = TcpStream::connect(self.addr).await.map_err(Failure::Connect)?;
                stream.set_nodelay(true).map_err(Failure::Connect)?;
                self.stream.insert(stream)
            }
        };
        stream.write_all(&self.out).await.map_err(Failure::Io)?;
        self.input.clear();
        let head = loop {
            if let Some(head) = parse_head(&self.input)? {
                break head;
            }
            if self.input.len() > MAX_HEAD_BYTES {
                return Err(Failure::Protocol("an answer's head over 64 KiB".into()));
            }
            read_more(stream, &mut self.input).await?;
        };
        let end = head.len + head.body_len;
        while self.input.len() < end {
            read_more(stream, &mut self.input).await?;
        }
        if self.input.len() > end {
            return Err(Failure::Protocol(format!(
                "{} bytes after the answer's body",
                self.input.len() - end
            )));
        }
        self.body = head.len..end;
        if head.close {
            self.stream = None;
        }
        self.last_used = Instant::now();
        Ok(head.status)
    }
}

/// The request: `head`, then `Content-Type` and `Content-Length` when there is a body, the
/// blank line and the body.
fn write_request(out: &mut Vec<u8>, head: &[u8], body: Option<&[u8]>) {
    out.clear();
    out.extend_from_slice(head);
    match body {
        Some(body) => {
            out.extend_from_slice(b"Content-Type: application/json\r\nContent-Length: ");
            out.extend_from_slice(body.len().to_string().as_bytes());
            out.extend_from_slice(b"\r\n\r\n");
            out.extend_from_slice(body);
        }
        None => out.extend_from_slice(b"\r\n"),
    }
}

/// Reads what has arrived (at least one byte) onto `input`.
async fn read_more(stream: &mut TcpStream, input: &mut Vec<u8>) -> Result<(), Failure> {
    input.reserve(16 * 1024);
    match stream.read_buf(input).await {
        Ok(0) => Err(Failure::Closed),
        Ok(_) => Ok(()),
        Err(e) => Err(Failure::Io(e)),
    }
}

/// The answer's head once all of it is in `input`, `None` before.
fn parse_head(input: &[u8]) -> Result<Option<Head>, Failure> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let len = match response.parse(input) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(e) => return Err(Failure::Protocol(format!("an unreadable answer: {e}"))),
    };
    if response.version != Some(1) {
        return Err(Failure::Protocol("an answer that is not HTTP/1.1".into()));
    }
    let status = response.code.unwrap_or(0);
    if !(200..600).contains(&status) {
        return Err(Failure::Protocol(format!("an answer with status {status}")));
    }
    let mut content_length = None;
    let mut close = false;
    for header in response.headers.iter() {
        if header.name.eq_ignore_ascii_case("content-length") {
            let value = std::str::from_utf8(header.value)
                .ok()
                .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|v| v.parse::<usize>().ok())
                .ok_or_else(|| Failure::Protocol("a Content-Length that is not a number".into()))?;
            if content_length.replace(value).is_some() {
                return Err(Failure::Protocol("two Content-Length headers".into()));
            }
        } else if header.name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(Failure::Protocol("an answer with Transfer-Encoding".into()));
        } else if header.name.eq_ignore_ascii_case("connection") {
            close |= header
                .value
                .split(|b| *b == b',')
                .any(|token| token.trim_ascii().eq_ignore_ascii_case(b"close"));
        }
    }
    let body_len = match (content_length, status) {
        (Some(n), _) if n > MAX_BODY_BYTES => {
            return Err(Failure::Protocol(format!("a body of {n} bytes")));
        }
        (Some(n), _) => n,
        (None, 204 | 304) => 0,
        (None, _) => return Err(Failure::Protocol("an answer without Content-Length".into())),
    };
    Ok(Some(Head {
        status,
        len,
        body_len,
        close,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(answer: &[u8]) -> Result<Option<Head>, Failure> {
        parse_head(answer)
    }

    #[test]
    fn a_head_is_read_once_complete() {
        let answer = b"HTTP/1.1 201 Created\r\ncontent-length: 2\r\nConnection: Close\r\n\r\n{}";
        assert!(matches!(head(&answer[..20]), Ok(None)));
        let parsed = head(answer).expect("readable").expect("complete");
        assert_eq!(
            parsed,
            Head {
                status: 201,
                len: answer.len() - 2,
                body_len: 2,
                close: true
            }
        );
        let keep = head(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").expect("readable");
        assert_eq!(keep.map(|h| h.close), Some(false));
        let empty = head(b"HTTP/1.1 204 No Content\r\n\r\n").expect("readable");
        assert_eq!(empty.map(|h| h.body_len), Some(0));
    }

    #[test]
    fn anything_but_plain_content_length_answers_is_refused() {
        for answer in [
            &b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\n\r\n",
            b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 2\r\n\r\n",
            b"HTTP/1.1 200 OK\r\ncontent-length: +2\r\n\r\n",
            b"HTTP/1.1 200 OK\r\ncontent-length: 99999999999\r\n\r\n",
            b"HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 100 Continue\r\n\r\n",
            b"HTTP/1.1 OK\r\n\r\n",
        ] {
            assert!(
                head(answer).is_err(),
                "{:?} is refused",
                String::from_utf8_lossy(answer)
            );
        }
    }

    #[test]
    fn a_request_carries_its_body_with_its_length() {
        let mut out = Vec::new();
        write_request(&mut out, b"POST /x HTTP/1.1\r\nHost: h\r\n", Some(b"{}"));
        assert_eq!(
            out,
            b"POST /x HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
        );
        write_request(&mut out, b"GET /y HTTP/1.1\r\nHost: h\r\n", None);
        assert_eq!(out, b"GET /y HTTP/1.1\r\nHost: h\r\n\r\n");
    }

    #[tokio::test]
    async fn an_exchange_reads_the_body_and_refuses_trailing_bytes() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let server = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.expect("accept");
            let mut request = vec![0u8; 1024];
            for answer in [
                &b"HTTP/1.1 200 OK\r\ncontent-length: 7\r\n\r\n{\"a\":1}"[..],
                b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}junk",
            ] {
                let _ = socket.read(&mut request).await.expect("request");
                socket.write_all(answer).await.expect("answer");
            }
        });
        let mut conn = Connection::new(addr, Duration::from_secs(5));
        let head = b"GET / HTTP/1.1\r\nHost: h\r\n";
        assert_eq!(conn.send(head, None).await.expect("answered"), 200);
        assert_eq!(conn.body(), b"{\"a\":1}");
        assert!(matches!(conn.send(head, None).await, Err(Failure::Protocol(_))));
        server.await.expect("server");
    }
}
