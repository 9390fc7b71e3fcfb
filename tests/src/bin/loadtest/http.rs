//! One HTTP/1.1 keep-alive connection on hyper's `client::conn::http1`, for `--flow tickets`
//! (the games are played over `lean.rs`): each ticket connection holds exactly one, with no pool
//! between.

use std::io;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{self, HeaderValue};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use crate::lean::IDLE_REOPEN;

/// Why a request got no answer.
#[derive(Debug)]
pub enum Failure {
    Connect(io::Error),
    Handshake(hyper::Error),
    Timeout,
    Transport(hyper::Error),
    Request(hyper::http::Error),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Connect(e) => write!(f, "connect: {e}"),
            Failure::Handshake(e) => write!(f, "HTTP/1.1 handshake: {e}"),
            Failure::Timeout => f.write_str("timed out"),
            Failure::Transport(e) => write!(f, "HTTP/1.1: {e}"),
            Failure::Request(e) => write!(f, "the request cannot be written: {e}"),
        }
    }
}

/// A request: method, path (with query) and optional bearer token, extra header and JSON body.
pub struct Request<'a> {
    pub method: hyper::Method,
    pub path: &'a str,
    pub token: Option<&'a str>,
    pub header: Option<(&'static str, &'static str)>,
    pub body: Option<Bytes>,
}

/// A connection to one server, opened on first use and reopened when the server closes it.
pub struct Connection {
    addr: SocketAddr,
    host: HeaderValue,
    timeout: Duration,
    sender: Option<SendRequest<Full<Bytes>>>,
    last_used: Instant,
}

impl Connection {
    /// `host` is the `Host` header's value; one that is not a valid header value is sent empty.
    pub fn new(addr: SocketAddr, host: &str, timeout: Duration) -> Self {
        Self {
            addr,
            host: HeaderValue::from_str(host).unwrap_or_else(|_| HeaderValue::from_static("")),
            timeout,
            sender: None,
            last_used: Instant::now(),
        }
    }

    /// Sends `request` and returns the status and the whole body.
    pub async fn send(&mut self, request: Request<'_>) -> Result<(u16, Bytes), Failure> {
        let result = match tokio::time::timeout(self.timeout, self.exchange(request)).await {
            Ok(result) => result,
            Err(_) => Err(Failure::Timeout),
        };
        if result.is_err() {
            self.sender = None;
        }
        result
    }

    async fn exchange(&mut self, request: Request<'_>) -> Result<(u16, Bytes), Failure> {
        let request = self.build(request)?;
        let sender = self.ready().await?;
        let response = sender.send_request(request).await.map_err(Failure::Transport)?;
        let status = response.status().as_u16();
        let body = response
            .into_body()
            .collect()
            .await
            .map_err(Failure::Transport)?
            .to_bytes();
        self.last_used = Instant::now();
        Ok((status, body))
    }

    fn build(&self, request: Request<'_>) -> Result<hyper::Request<Full<Bytes>>, Failure> {
        let mut builder = hyper::Request::builder()
            .method(request.method)
            .uri(request.path)
            .header(header::HOST, self.host.clone());
        if let Some(token) = request.token {
            builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        if let Some((name, value)) = request.header {
            builder = builder.header(name, value);
        }
        let body = match request.body {
            Some(body) => {
                builder = builder.header(header::CONTENT_TYPE, "application/json");
                Full::new(body)
            }
            None => Full::default(),
        };
        builder.body(body).map_err(Failure::Request)
    }

    /// The open connection, ready for a request; a new one if there is none, the server closed
    /// it, or it sat idle too long.
    async fn ready(&mut self) -> Result<&mut SendRequest<Full<Bytes>>, Failure> {
        let reusable = self
            .sender
            .take()
            .filter(|sender| !sender.is_closed() && self.last_used.elapsed() <= IDLE_REOPEN);
        let mut sender = match reusable {
            Some(sender) => sender,
            None => self.connect().await?,
        };
        if sender.ready().await.is_err() {
            sender = self.connect().await?;
            sender.ready().await.map_err(Failure::Transport)?;
        }
        Ok(self.sender.insert(sender))
    }

    async fn connect(&self) -> Result<SendRequest<Full<Bytes>>, Failure> {
        let stream = TcpStream::connect(self.addr).await.map_err(Failure::Connect)?;
        stream.set_nodelay(true).map_err(Failure::Connect)?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream))
            .await
            .map_err(Failure::Handshake)?;
        // The connection's I/O runs beside the caller; it ends when `sender` is dropped or the
        // server closes the connection.
        tokio::spawn(connection);
        Ok(sender)
    }
}
