//! One connection to the server: typed calls of the wire contract, each timed and tallied.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use std::borrow::Cow;

use roadie_api::wire::{ActionResult, CreatedGame, GameState, LegalActions, Status};
use roadie_engine::{Audience, Seat};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::lean::Connection;
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
    host: String,
    healthz: Vec<u8>,
}

impl Client {
    pub fn new(server: &Server, timeout: Duration) -> Self {
        let mut client = Self {
            conn: Connection::new(server.addr, timeout),
            host: server.host.clone(),
            healthz: Vec::new(),
        };
        client.healthz = client.head("GET", "/healthz", &[]);
        client
    }

    /// A request's line and headers: `Host`, then `headers`.
    fn head(&self, method: &str, path: &str, headers: &[(&str, &str)]) -> Vec<u8> {
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.host);
        for (name, value) in headers {
            head.push_str(name);
            head.push_str(": ");
            head.push_str(value);
            head.push_str("\r\n");
        }
        head.into_bytes()
    }

    /// The seats of a game just created, each with its requests' heads built once; the posts
    /// ask for the minimal answer when `minimal`. Fails on an id or a token that cannot go into
    /// a request as it is.
    pub fn seat_keys(&self, created: &CreatedGame, minimal: bool) -> Result<Vec<SeatKey>, String> {
        let id = &created.id;
        if !plain(id) {
            return Err(format!("the game id {id:?} is not a plain path segment"));
        }
        let path = format!("/v1/games/{id}/actions");
        created
            .seats
            .iter()
            .map(|s| {
                if !plain(&s.token) {
                    return Err(format!(
                        "{id}: seat {}'s token is not a plain header value",
                        s.seat
                    ));
                }
                let authorization = format!("Bearer {}", s.token);
                let mut post = vec![("Authorization", authorization.as_str())];
                if minimal {
                    post.push(("Prefer", "return=minimal"));
                }
                Ok(SeatKey {
                    seat: s.seat,
                    list: self.head("GET", &path, &[("Authorization", &authorization)]),
                    post: self.head("POST", &path, &post),
                })
            })
            .collect()
    }

    pub async fn create(
        &mut self,
        stats: &mut Stats,
        body: &serde_json::Value,
    ) -> Result<CreatedGame, CallError> {
        let head = self.head("POST", "/v1/games", &[]);
        let body = body.to_string();
        let bytes = call(
            &mut self.conn,
            stats,
            Endpoint::CreateGame,
            &head,
            Some(body.as_bytes()),
        )
        .await?;
        decode(bytes, Endpoint::CreateGame)
    }

    pub async fn game(&mut self, stats: &mut Stats, id: &str) -> Result<GameState, CallError> {
        if !plain(id) {
            return Err(CallError::Broken(format!(
                "the game id {id:?} is not a plain path segment"
            )));
        }
        let head = self.head("GET", &format!("/v1/games/{id}"), &[]);
        let bytes = call(&mut self.conn, stats, Endpoint::GetGame, &head, None).await?;
        decode(bytes, Endpoint::GetGame)
    }

    /// The seat's legal actions, each as its own JSON.
    pub async fn actions(
        &mut self,
        stats: &mut Stats,
        seat: &SeatKey,
    ) -> Result<(LegalActions, Vec<Box<RawValue>>), CallError> {
        let bytes = call(&mut self.conn, stats, Endpoint::ListActions, &seat.list, None).await?;
        let list: LegalActions = decode(bytes, Endpoint::ListActions)?;
        let actions = decode(list.actions.get().as_bytes(), Endpoint::ListActions)?;
        Ok((list, actions))
    }

    /// Posts `action` (JSON) for the seat and answers the whole game with the result (the seat
    /// keys must not ask for the minimal answer).
    pub async fn post(
        &mut self,
        stats: &mut Stats,
        seat: &SeatKey,
        action: &RawValue,
    ) -> Result<ActionResult, CallError> {
        let body = format!(r#"{{"action":{}}}"#, action.get());
        let bytes = call(
            &mut self.conn,
            stats,
            Endpoint::PostAction,
            &seat.post,
            Some(body.as_bytes()),
        )
        .await?;
        decode(bytes, Endpoint::PostAction)
    }

    /// Posts `body` (`{"action":…}`) for the seat, whose key asks for the minimal answer;
    /// `check` reads the answer in place.
    pub async fn post_minimal<T>(
        &mut self,
        stats: &mut Stats,
        seat: &SeatKey,
        body: &[u8],
        check: impl FnOnce(Minimal<'_>) -> T,
    ) -> Result<T, CallError> {
        let bytes = call(
            &mut self.conn,
            stats,
            Endpoint::PostAction,
            &seat.post,
            Some(body),
        )
        .await?;
        Ok(check(decode(bytes, Endpoint::PostAction)?))
    }

    pub async fn healthz(&mut self, stats: &mut Stats) -> Result<(), CallError> {
        call(&mut self.conn, stats, Endpoint::Healthz, &self.healthz, None)
            .await
            .map(drop)
    }
}

/// Sends, reads the whole answer, records the latency, and tallies any error; answers the body.
async fn call<'c>(
    conn: &'c mut Connection,
    stats: &mut Stats,
    endpoint: Endpoint,
    head: &[u8],
    body: Option<&[u8]>,
) -> Result<&'c [u8], CallError> {
    let started = Instant::now();
    let reply = conn.send(head, body).await;
    let elapsed = started.elapsed();
    match reply {
        Err(e) => {
            stats.transport_error(endpoint, e.kind());
            Err(CallError::Broken(format!("{}: {e}", endpoint.label())))
        }
        Ok(status) => {
            stats.record(endpoint, elapsed);
            let body = conn.body();
            if (200..300).contains(&status) {
                return Ok(body);
            }
            let code = serde_json::from_slice::<Problem>(body)
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

/// True for text that goes into a request line or a header as it is: letters, digits and
/// `-._~` only (Roadie's ids and its tokens, base64url and dots, are all of that).
fn plain(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// A seat of a game being played, with its requests' heads, built once per game.
pub struct SeatKey {
    pub seat: Seat,
    /// `GET /v1/games/{id}/actions` with the seat's token.
    list: Vec<u8>,
    /// `POST /v1/games/{id}/actions` with the seat's token (and the minimal preference).
    post: Vec<u8>,
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

fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8], endpoint: Endpoint) -> Result<T, CallError> {
    serde_json::from_slice(bytes).map_err(|e| {
        CallError::Broken(format!(
            "{}: the response is not what the contract says: {e}",
            endpoint.label()
        ))
    })
}
