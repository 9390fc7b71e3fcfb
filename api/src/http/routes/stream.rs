//! `/v1/games/{id}/stream`: the game's events pushed as Server-Sent Events.

use std::convert::Infallible;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use futures_util::StreamExt;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::http::caller::ViewerCaller;
use crate::http::sse::Cursor;
use crate::service::Games;
use crate::shutdown::Draining;
use crate::table::GameId;
use crate::table::{Code, Refusal};

/// Where to start. Other query parameters (a cache buster, say) are ignored.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// Send the events after this sequence number (default 0: from the start). A
    /// `Last-Event-ID` header, which a reconnecting `EventSource` sends, takes precedence.
    #[param(minimum = 0, maximum = 9_007_199_254_740_991_u64)]
    pub after: Option<u64>,
}

/// One Server-Sent Events message of the stream, as an SSE parser hands it over: the fields of
/// the message, `data` holding its JSON.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct StreamMessage {
    /// What the message carries.
    pub event: StreamMessageKind,
    /// For an `event` message, the event's sequence number: send it back as `Last-Event-ID`.
    pub id: Option<String>,
    /// The message's JSON: a sequenced event (`event`), `{"version", "revision", "status",
    /// "to_act"}` (`state`, `end`), `{"code"}` (`error`), or `{"after"}` (`reconnect`).
    pub data: String,
    /// Milliseconds a client waits before it reconnects: on the first message, and on
    /// `reconnect` (1000 to 3000, drawn at random).
    pub retry: Option<u64>,
}

/// The kinds of stream message.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StreamMessageKind {
    /// One event the caller may see.
    Event,
    /// The game changed: its version and who acts.
    State,
    /// The game is over; the stream closes.
    End,
    /// The problem that ended the stream.
    Error,
    /// The process is stopping: the stream closes; reconnect after `retry` milliseconds.
    Reconnect,
}

/// The sequence number in `Last-Event-ID`, if the header is there.
fn last_event_id(req: &HttpRequest) -> Result<Option<u64>, Refusal> {
    let Some(value) = req.headers().get("Last-Event-ID") else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|v| *v <= crate::wire::MAX_SAFE_INTEGER)
        .map(Some)
        .ok_or_else(|| {
            Refusal::new(
                Code::MalformedHeader,
                "Last-Event-ID is the sequence number of the last event received (the `id:` of an `event` message)",
            )
        })
}

/// The game's events as the caller may see them, pushed as they happen (Server-Sent Events).
///
/// Messages, each a JSON `data:` line:
/// - `event` (with `id:` = its sequence number): one event the caller may see, as in
///   `GET /v1/games/{id}/events`;
/// - `state`: the game's `version`, `revision`, `status` and `to_act` after the events before it,
///   sent whenever the game changes;
/// - `end`: the game is over (same fields as `state`); the stream closes after it;
/// - `error`: `{"code"}` of the problem that ended the stream (the game is gone, the store does
///   not answer); reconnect with `Last-Event-ID` to resume;
/// - `reconnect`: `{"after"}`, with a `retry:` of 1 to 3 s: the process is stopping (it was sent
///   SIGTERM or SIGINT) and the stream closes. Reconnect after `retry` milliseconds, to any process, with
///   `Last-Event-ID` (or `?after=`, where `after` is the stream's place in the log); nothing is
///   missed.
///
/// A comment line `: keep-alive` comes after 15 s without a message. The stream works through
/// any process: a client that reconnects (to any process) with `Last-Event-ID` (or `?after=`) set
/// to the last `id:` it received gets every later event once, none missed. A cursor beyond the
/// log's last event is `409 cursor_ahead` with the log's `last_seq` (an open stream that meets
/// one, because the store lost recent writes, ends with `error` `{"code": "cursor_ahead"}`):
/// read the game and resume from `last_seq` or earlier.
#[utoipa::path(
    get, path = "/v1/games/{id}/stream", tag = "games",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("Last-Event-ID" = Option<u64>, Header, nullable = false, maximum = 9_007_199_254_740_991_u64, description = "The last `id:` received: resume after it"),
        StreamQuery,
        ("seat" = Option<u16>, Query, minimum = 0, maximum = 65535, description = "With a player token: the seat to act or look as, where the player holds several of this game (`409 seat_ambiguous` without it)"),
    ),
    security((), ("seat_token" = []), ("player_token" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "The stream: `event`, `state`, `end`, `error` and `reconnect` messages", content_type = "text/event-stream", body = StreamMessage),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn stream_game(
    games: web::Data<Games>,
    id: GameId,
    viewer: ViewerCaller,
    query: web::Query<StreamQuery>,
    draining: web::Data<Draining>,
    req: HttpRequest,
) -> Result<HttpResponse, Refusal> {
    if let Some(after) = query.after
        && after > crate::wire::MAX_SAFE_INTEGER
    {
        return Err(Refusal::new(
            Code::MalformedQuery,
            format!(
                "after is from 0 to {}; it was {after}",
                crate::wire::MAX_SAFE_INTEGER
            ),
        ));
    }
    let after = last_event_id(&req)?.or(query.after).unwrap_or(0);
    let (first, cursor) = Cursor::new(games, id, viewer.pass, after, draining.subscribe())
        .open()
        .await?;
    let rest = futures_util::stream::unfold(cursor, Cursor::next);
    let body = futures_util::stream::once(std::future::ready(first))
        .chain(rest)
        .map(Ok::<_, Infallible>);
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((header::VARY, "Authorization"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}
