//! One HTTP/1.1 keep-alive connection, as lean as the generator can make it: it shares the
//! machine with the server it measures, so every microsecond it spends is one the server lacks.
//! It writes each request with one call, reads the answer into a reused buffer, and speaks only
//! what Roadie answers with: `Content-Length` bodies.

use std::io;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A connection left idle this long is replaced before use rather than trusted: the server may
/// have closed it (actix-web's keep-alive is 5 s).
const IDLE_REOPEN: Duration = Duration::from_secs(2);

/// The most header bytes and fields accepted in an answer.
const MAX_HEADER_BYTES: usize = 64 * 1024;
const MAX_HEADERS: usize = 32;

/// Why a request got no answer.
#[derive(Debug)]
pub enum Failure {
    Connect(io::Error),
    Timeout,
    Io(io::Error),
    Protocol(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Connect(e) => write!(f, "connect: {e}"),
            Failure::Timeout => f.write_str("timed out"),
            Failure::Io(e) => write!(f, "I/O: {e}"),
            Failure::Protocol(why) => write!(f, "not HTTP/1.1 as expected: {why}"),
        }
    }
}

impl Failure {
    /// A short label for the error tally.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Connect(_) => "connect",
            Failure::Timeout => "timeout",
            Failure::Io(_) => "transport",
            Failure::Protocol(_) => "body",
        }
    }
}

/// A request: method, path (with query) and optional bearer token, extra header and JSON body.
pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub token: Option<&'a str>,
    pub header: Option<(&'a str, &'a str)>,
    pub body: Option<&'a [u8]>,
}

/// A connection to one server, opened on first use and reopened when the server closes it.
pub struct Connection {
    addr: SocketAddr,
    host: String,
    timeout: Duration,
    stream: Option<TcpStream>,
    last_used: Instant,
    out: Vec<u8>,
    buf: Vec<u8>,
}

impl Connection {
    pub fn new(addr: SocketAddr, host: String, timeout: Duration) -> Self {
        Self {
            addr,
            host,
            timeout,
            stream: None,
            last_used: Instant::now(),
            out: Vec::with_capacity(1024),
            buf: Vec::with_capacity(16 * 1024),
        }
    }

    /// Sends `request` and returns the status and the body.
    pub async fn send(&mut self, request: &Request<'_>) -> Result<(u16, Vec<u8>), Failure> {
        match tokio::time::timeout(self.timeout, self.exchange(request)).await {
            Ok(result) => {
                if result.is_err() {
                    self.stream = None;
                }
                result
            }
            Err(_) => {
                self.stream = None;
                Err(Failure::Timeout)
            }
        }
    }

    async fn exchange(&mut self, request: &Request<'_>) -> Result<(u16, Vec<u8>), Failure> {
        if self.last_used.elapsed() > IDLE_REOPEN {
            self.stream = None;
        }
        if self.stream.is_none() {
            let stream = TcpStream::connect(self.addr).await.map_err(Failure::Connect)?;
            stream.set_nodelay(true).map_err(Failure::Connect)?;
            self.stream = Some(stream);
        }
        self.write_head(request);
        if let Some(body) = request.body {
            self.out.extend_from_slice(body);
        }
        let Some(stream) = self.stream.as_mut() else {
            return Err(Failure::Protocol("no connection".into()));
        };
        stream.write_all(&self.out).await.map_err(Failure::Io)?;
        self.buf.clear();
        let (status, head_len, body_len, close) = loop {
            if self.buf.len() > MAX_HEADER_BYTES {
                return Err(Failure::Protocol("the answer's head is too long".into()));
            }
            if read_more(stream, &mut self.buf).await? == 0 {
                return Err(Failure::Io(io::ErrorKind::UnexpectedEof.into()));
            }
            if let Some(head) = parse_head(&self.buf)? {
                break head;
            }
        };
        while self.buf.len() < head_len + body_len {
            if read_more(stream, &mut self.buf).await? == 0 {
                return Err(Failure::Io(io::ErrorKind::UnexpectedEof.into()));
            }
        }
        let body = self.buf[head_len..head_len + body_len].to_vec();
        if close {
            self.stream = None;
        }
        self.last_used = Instant::now();
        Ok((status, body))
    }

    fn write_head(&mut self, request: &Request<'_>) {
        use std::io::Write;
        self.out.clear();
        let _ = write!(
            self.out,
            "{} {} HTTP/1.1\r\nHost: {}\r\n",
            request.method, request.path, self.host
        );
        if let Some(token) = request.token {
            let _ = write!(self.out, "Authorization: Bearer {token}\r\n");
        }
        if let Some((name, value)) = request.header {
            let _ = write!(self.out, "{name}: {value}\r\n");
        }
        match request.body {
            Some(body) => {
                let _ = write!(
                    self.out,
                    "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                );
            }
            None => self.out.extend_from_slice(b"\r\n"),
        }
    }
}

async fn read_more(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Result<usize, Failure> {
    buf.reserve(8 * 1024);
    stream.read_buf(buf).await.map_err(Failure::Io)
}

/// The status, head length, body length and whether the server closes the connection, once
/// the whole head is in `buf`.
fn parse_head(buf: &[u8]) -> Result<Option<(u16, usize, usize, bool)>, Failure> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let head_len = match response.parse(buf) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(e) => return Err(Failure::Protocol(e.to_string())),
    };
    let status = response.code.unwrap_or(0);
    let mut body_len = None;
    let mut close = false;
    for header in response.headers.iter() {
        if header.name.eq_ignore_ascii_case("content-length") {
            body_len = std::str::from_utf8(header.value)
                .ok()
                .and_then(|v| v.trim().parse::<usize>().ok());
        } else if header.name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(Failure::Protocol("a chunked answer".into()));
        } else if header.name.eq_ignore_ascii_case("connection") {
            close = header.value.eq_ignore_ascii_case(b"close");
        }
    }
    let body_len = match (body_len, status) {
        (Some(n), _) => n,
        (None, 204 | 304) => 0,
        (None, _) => return Err(Failure::Protocol("an answer without Content-Length".into())),
    };
    Ok(Some((status, head_len, body_len, close)))
}

#[cfg(test)]
mod tests {
    use super::parse_head;

    #[test]
    fn a_head_is_parsed_once_complete() {
        let answer = b"HTTP/1.1 201 Created\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}";
        assert!(parse_head(&answer[..20]).expect("no error yet").is_none());
        let (status, head, body, close) = parse_head(answer).expect("parsed").expect("complete");
        assert_eq!((status, body, close), (201, 2, true));
        assert_eq!(&answer[head..], b"{}");
    }

    #[test]
    fn chunked_answers_are_refused() {
        let answer = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n";
        assert!(parse_head(answer).is_err());
    }
}
