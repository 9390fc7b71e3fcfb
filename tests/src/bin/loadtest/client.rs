//! One connection to the server: typed calls of the wire contract, each timed and tallied.

use std::time::{Duration, Instant};

use reqwest::header::{AUTHORIZATION, CONTENT_TYPE};
use reqwest::{Method, RequestBuilder, Url};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;

use crate::report::Stats;

/// The endpoints the generator calls, each with its own latency histogram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Endpoint {
    CreateGame,
    GetGame,
    ListActions,
    PostAction,
    Healthz,
}

impl Endpoint {
    pub const ALL: [Endpoint; 5] = [
        Endpoint::CreateGame,
        Endpoint::GetGame,
        Endpoint::ListActions,
        Endpoint::PostAction,
        Endpoint::Healthz,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Endpoint::CreateGame => "POST /v1/games",
            Endpoint::GetGame => "GET /v1/games/{id}",
            Endpoint::ListActions => "GET /v1/games/{id}/actions",
            Endpoint::PostAction => "POST /v1/games/{id}/actions",
            Endpoint::Healthz => "GET /healthz",
        }
    }
}

/// Why a call gave no usable answer; already tallied in [`Stats`].
#[derive(Debug)]
pub enum CallError {
    /// The server refused the request with this status and problem `code`.
    Refused { status: u16, code: String },
    /// No response, an unreadable one, or a 5xx.
    Broken(String),
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::Refused { status, code } => write!(f, "{status} {code}"),
            CallError::Broken(why) => f.write_str(why),
        }
    }
}

/// `201` of `POST /v1/games`.
#[derive(Debug, Deserialize)]
pub struct Created {
    pub id: String,
    pub version: u64,
    pub seats: Vec<SeatToken>,
}

/// One seat's token.
#[derive(Debug, Deserialize)]
pub struct SeatToken {
    pub seat: usize,
    pub token: String,
}

/// The parts of a game document (`GET /v1/games/{id}`) the generator checks.
#[derive(Debug, Deserialize)]
pub struct GameDoc {
    pub version: u64,
    pub status: String,
    pub to_act: Vec<usize>,
    pub outcome: Option<IgnoredAny>,
}

/// `GET /v1/games/{id}/actions`: each action is kept as the server wrote it, to post it back.
#[derive(Debug, Deserialize)]
pub struct ActionList {
    pub version: u64,
    pub actions: Vec<Box<RawValue>>,
}

/// `200` of `POST /v1/games/{id}/actions`.
#[derive(Debug, Deserialize)]
pub struct Posted {
    pub version: u64,
    pub game: GameDoc,
}

#[derive(Deserialize)]
struct Problem {
    #[serde(default)]
    code: Option<String>,
}

/// A connection of its own (a client with one pooled connection, reused while the server keeps it).
pub struct Client {
    http: reqwest::Client,
    base: Url,
}

impl Client {
    pub fn new(base: Url, timeout: Duration) -> Self {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(1)
            .timeout(timeout)
            .tcp_nodelay(true)
            .build()
            .unwrap_or_default();
        Self { http, base }
    }

    fn url(&self, path: &str) -> Result<Url, CallError> {
        self.base
            .join(path)
            .map_err(|e| CallError::Broken(format!("cannot form the URL of {path}: {e}")))
    }

    pub async fn create(&self, stats: &mut Stats, body: &serde_json::Value) -> Result<Created, CallError> {
        let req = self.http.post(self.url("/v1/games")?).json(body);
        let bytes = self.call(stats, Endpoint::CreateGame, req).await?;
        decode(&bytes, Endpoint::CreateGame)
    }

    pub async fn game(&self, stats: &mut Stats, id: &str) -> Result<GameDoc, CallError> {
        let req = self.http.get(self.url(&format!("/v1/games/{id}"))?);
        let bytes = self.call(stats, Endpoint::GetGame, req).await?;
        decode(&bytes, Endpoint::GetGame)
    }

    pub async fn actions(&self, stats: &mut Stats, id: &str, token: &str) -> Result<ActionList, CallError> {
        let req = self
            .http
            .get(self.url(&format!("/v1/games/{id}/actions"))?)
            .header(AUTHORIZATION, format!("Bearer {token}"));
        let bytes = self.call(stats, Endpoint::ListActions, req).await?;
        decode(&bytes, Endpoint::ListActions)
    }

    pub async fn post(
        &self,
        stats: &mut Stats,
        id: &str,
        token: &str,
        action: &RawValue,
    ) -> Result<Posted, CallError> {
        let req = self
            .http
            .request(Method::POST, self.url(&format!("/v1/games/{id}/actions"))?)
            .header(AUTHORIZATION, format!("Bearer {token}"))
            .header(CONTENT_TYPE, "application/json")
            .body(format!(r#"{{"action":{}}}"#, action.get()));
        let bytes = self.call(stats, Endpoint::PostAction, req).await?;
        decode(&bytes, Endpoint::PostAction)
    }

    pub async fn healthz(&self, stats: &mut Stats) -> Result<(), CallError> {
        let req = self.http.get(self.url("/healthz")?);
        self.call(stats, Endpoint::Healthz, req).await.map(drop)
    }

    /// Sends, reads the whole body, records the latency, and tallies any error.
    async fn call(
        &self,
        stats: &mut Stats,
        endpoint: Endpoint,
        req: RequestBuilder,
    ) -> Result<bytes::Bytes, CallError> {
        let started = Instant::now();
        let reply = match req.send().await {
            Ok(resp) => {
                let status = resp.status();
                resp.bytes().await.map(|body| (status, body))
            }
            Err(e) => Err(e),
        };
        let elapsed = started.elapsed();
        match reply {
            Err(e) => {
                stats.transport_error(endpoint, &e);
                Err(CallError::Broken(format!(
                    "{}: {}",
                    endpoint.label(),
                    describe(&e)
                )))
            }
            Ok((status, body)) => {
                stats.record(endpoint, elapsed);
                if status.is_success() {
                    return Ok(body);
                }
                let code = serde_json::from_slice::<Problem>(&body)
                    .ok()
                    .and_then(|p| p.code)
                    .unwrap_or_else(|| "-".to_owned());
                stats.refused(endpoint, status.as_u16(), &code);
                if status.is_server_error() {
                    Err(CallError::Broken(format!(
                        "{}: {} {code}",
                        endpoint.label(),
                        status.as_u16()
                    )))
                } else {
                    Err(CallError::Refused {
                        status: status.as_u16(),
                        code,
                    })
                }
            }
        }
    }
}

fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8], endpoint: Endpoint) -> Result<T, CallError> {
    serde_json::from_slice(bytes).map_err(|e| {
        CallError::Broken(format!(
            "{}: the response is not what the contract says: {e}",
            endpoint.label()
        ))
    })
}

fn describe(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
