//! One connection to the server: typed calls of the wire contract, each timed and tallied.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use std::borrow::Cow;

use bytes::Bytes;
use hyper::Method;
use hyper::header::HeaderValue;
use roadie_api::wire::{ActionResult, CreatedGame, GameState, LegalActions, Status};
use roadie_engine::{Audience, Seat};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::http::{Connection, Request};
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

/// The one field of a problem (`application/problem+json`) the generator tallies by.
#[derive(Deserialize)]
struct Problem {
    #[serde(default)]
    code: Option<String>,
}

/// A connection of its own, kept alive across calls.
pub struct Client {
    conn: Connection,
}

impl Client {
    pub fn new(server: &Server, timeout: Duration) -> Self {
        Self {
            conn: Connection::new(server.addr, &server.host, timeout),
        }
    }

    pub async fn create(
        &mut self,
        stats: &mut Stats,
        body: &serde_json::Value,
    ) -> Result<CreatedGame, CallError> {
        let req = Request {
            method: Method::POST,
            path: "/v1/games",
            token: None,
            authorization: None,
            header: None,
            body: Some(Bytes::from(body.to_string())),
        };
        let bytes = self.call(stats, Endpoint::CreateGame, req).await?;
        decode(&bytes, Endpoint::CreateGame)
    }

    pub async fn game(&mut self, stats: &mut Stats, id: &str) -> Result<GameState, CallError> {
        let path = format!("/v1/games/{id}");
        let req = Request {
            method: Method::GET,
            path: &path,
            token: None,
            authorization: None,
            header: None,
            body: None,
        };
        let bytes = self.call(stats, Endpoint::GetGame, req).await?;
        decode(&bytes, Endpoint::GetGame)
    }

    /// `/v1/games/{id}/actions`, formed once per game.
    pub fn actions_path(id: &str) -> String {
        format!("/v1/games/{id}/actions")
    }

    pub async fn actions(
        &mut self,
        stats: &mut Stats,
        path: &str,
        seat: &SeatKey,
    ) -> Result<(LegalActions, Vec<Box<RawValue>>), CallError> {
        let req = Request {
            method: Method::GET,
            path,
            token: None,
            authorization: Some(&seat.authorization),
            header: None,
            body: None,
        };
        let bytes = self.call(stats, Endpoint::ListActions, req).await?;
        let list: LegalActions = decode(&bytes, Endpoint::ListActions)?;
        let actions = decode(list.actions.get().as_bytes(), Endpoint::ListActions)?;
        Ok((list, actions))
    }

    /// Posts `action` (JSON) for the seat and answers the whole game with the result.
    pub async fn post(
        &mut self,
        stats: &mut Stats,
        path: &str,
        seat: &SeatKey,
        action: &RawValue,
    ) -> Result<ActionResult, CallError> {
        let body = format!(r#"{{"action":{}}}"#, action.get());
        let req = Request {
            method: Method::POST,
            path,
            token: None,
            authorization: Some(&seat.authorization),
            header: None,
            body: Some(Bytes::from(body)),
        };
        let bytes = self.call(stats, Endpoint::PostAction, req).await?;
        decode(&bytes, Endpoint::PostAction)
    }

    /// Posts `body` (`{"action":…}`) for the seat with `Prefer: return=minimal`; `check` reads
    /// the answer in place.
    pub async fn post_minimal<T>(
        &mut self,
        stats: &mut Stats,
        path: &str,
        seat: &SeatKey,
        body: &[u8],
        check: impl FnOnce(Minimal<'_>) -> T,
    ) -> Result<T, CallError> {
        let req = Request {
            method: Method::POST,
            path,
            token: None,
            authorization: Some(&seat.authorization),
            header: Some(("Prefer", "return=minimal")),
            body: Some(Bytes::copy_from_slice(body)),
        };
        let bytes = self.call(stats, Endpoint::PostAction, req).await?;
        Ok(check(decode_borrowed(&bytes, Endpoint::PostAction)?))
    }

    pub async fn healthz(&mut self, stats: &mut Stats) -> Result<(), CallError> {
        let req = Request {
            method: Method::GET,
            path: "/healthz",
            token: None,
            authorization: None,
            header: None,
            body: None,
        };
        self.call(stats, Endpoint::Healthz, req).await.map(drop)
    }

    /// Sends, reads the whole body, records the latency, and tallies any error.
    async fn call(
        &mut self,
        stats: &mut Stats,
        endpoint: Endpoint,
        req: Request<'_>,
    ) -> Result<Bytes, CallError> {
        let started = Instant::now();
        let reply = self.conn.send(req).await;
        let elapsed = started.elapsed();
        match reply {
            Err(e) => {
                stats.transport_error(endpoint, e.kind());
                Err(CallError::Broken(format!("{}: {e}", endpoint.label())))
            }
            Ok((status, body)) => {
                stats.record(endpoint, elapsed);
                if (200..300).contains(&status) {
                    return Ok(body);
                }
                let code = serde_json::from_slice::<Problem>(&body)
                    .ok()
                    .and_then(|p| p.code)
                    .unwrap_or_else(|| "-".to_owned());
                stats.refused(endpoint, status, &code);
                if status >= 500 {
                    Err(CallError::Broken(format!(
                        "{}: {status} {code}",
                        endpoint.label()
                    )))
                } else {
                    Err(CallError::Refused { status, code })
                }
            }
        }
    }
}

/// A seat of a game being played, with what its requests carry, built once per game.
pub struct SeatKey {
    pub seat: Seat,
    /// `Bearer <token>`.
    pub authorization: HeaderValue,
}

impl SeatKey {
    /// One key per seat of `created`; fails on a token that is not a header value.
    pub fn all(created: &CreatedGame) -> Result<Vec<SeatKey>, String> {
        created
            .seats
            .iter()
            .map(|s| {
                HeaderValue::try_from(format!("Bearer {}", s.token))
                    .map(|authorization| SeatKey {
                        seat: s.seat,
                        authorization,
                    })
                    .map_err(|_| format!("{}: seat {}'s token is not a header value", created.id, s.seat))
            })
            .collect()
    }
}

/// The answer to a post with `Prefer: return=minimal`: every field of [`ActionResult`], read in
/// place (the strings and event bodies borrowed from the answer rather than copied).
#[derive(Deserialize)]
pub struct Minimal<'a> {
    #[serde(borrow, rename = "ruleset")]
    _ruleset: Cow<'a, str>,
    pub version: u64,
    #[serde(borrow, rename = "revision")]
    _revision: Cow<'a, str>,
    pub status: Status,
    pub to_act: Vec<Seat>,
    #[serde(borrow, rename = "events")]
    _events: Vec<MinimalEvent<'a>>,
    /// Absent when the server honours the preference; read whole if it is there.
    #[serde(rename = "game")]
    _game: Option<GameState>,
}

/// [`roadie_api::wire::SequencedEvent`], its body borrowed.
#[derive(Deserialize)]
struct MinimalEvent<'a> {
    #[serde(rename = "seq")]
    _seq: u64,
    #[serde(rename = "audience")]
    _audience: Audience,
    #[serde(borrow, rename = "body")]
    _body: &'a RawValue,
}

/// Where the server listens, resolved once.
#[derive(Clone, Debug)]
pub struct Server {
    pub addr: SocketAddr,
    pub host: String,
}

fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8], endpoint: Endpoint) -> Result<T, CallError> {
    serde_json::from_slice(bytes).map_err(|e| {
        CallError::Broken(format!(
            "{}: the response is not what the contract says: {e}",
            endpoint.label()
        ))
    })
}

fn decode_borrowed<'a, T: Deserialize<'a>>(bytes: &'a [u8], endpoint: Endpoint) -> Result<T, CallError> {
    serde_json::from_slice(bytes).map_err(|e| {
        CallError::Broken(format!(
            "{}: the response is not what the contract says: {e}",
            endpoint.label()
        ))
    })
}
