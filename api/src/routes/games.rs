//! `/v1/games`: create, show, act, read the log, delete.

use std::time::Duration;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::{Host, Seat, Viewer};
use crate::body::JsonBody;
use crate::error::{ApiError, Code};
use crate::games::{Games, MAX_WAIT, Precondition, Seen};
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::model::{ActionResult, CreateGame, CreatedGame, EventLog, GameState, LegalActions, PostAction};
use crate::store::Revision;

/// The longest `Idempotency-Key` accepted.
const MAX_IDEMPOTENCY_KEY: usize = 200;

/// A request header's text, or `400 malformed_header` when it is not visible ASCII.
fn header_text<'r>(req: &'r HttpRequest, name: &str) -> Result<Option<&'r str>, ApiError> {
    req.headers()
        .get(name)
        .map(|v| {
            v.to_str()
                .map_err(|_| ApiError::new(Code::MalformedHeader, format!("{name} is not visible ASCII")))
        })
        .transpose()
}

fn etag(revision: impl std::fmt::Display) -> (header::HeaderName, HeaderValue) {
    (
        header::ETAG,
        HeaderValue::from_str(&format!("\"{revision}\"")).unwrap_or(HeaderValue::from_static("\"0\"")),
    )
}

/// An `If-Match` or `If-None-Match` header (RFC 9110: `*`, or entity tags separated by commas,
/// each `"..."` or `W/"..."`), or `400 malformed_precondition`. Tags that name no revision of
/// ours are kept out: they match nothing.
fn precondition(req: &HttpRequest, name: &str) -> Result<Option<Precondition>, ApiError> {
    let Some(value) = header_text(req, name)? else {
        return Ok(None);
    };
    let malformed = || {
        ApiError::new(
            Code::MalformedPrecondition,
            format!("{name} is `*` or entity tags such as \"7.0123456789abcdef0123456789abcdef\""),
        )
    };
    if value.trim() == "*" {
        return Ok(Some(Precondition::Any));
    }
    let mut revisions = Vec::new();
    for tag in value.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let opaque = tag.strip_prefix("W/").unwrap_or(tag);
        let inner = opaque
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .filter(|t| !t.contains('"'))
            .ok_or_else(malformed)?;
        if let Ok(revision) = inner.parse::<Revision>() {
            revisions.push(revision);
        }
    }
    Ok(Some(Precondition::Revisions(revisions)))
}

/// The `Idempotency-Key` header: 1 to 200 visible ASCII characters, or `400`.
fn idempotency_key(req: &HttpRequest) -> Result<Option<&str>, ApiError> {
    match header_text(req, "idempotency-key")? {
        None => Ok(None),
        Some(key)
            if !key.is_empty()
                && key.len() <= MAX_IDEMPOTENCY_KEY
                && key.bytes().all(|b| b.is_ascii_graphic()) =>
        {
            Ok(Some(key))
        }
        Some(_) => Err(ApiError::new(
            Code::MalformedIdempotencyKey,
            format!("an Idempotency-Key is 1 to {MAX_IDEMPOTENCY_KEY} visible ASCII characters"),
        )),
    }
}

/// Create a game. Returns one token per seat and the host's token.
#[utoipa::path(
    post, path = "/v1/games", tag = "games",
    request_body = CreateGame,
    responses(
        (status = 201, description = "The game was created; `Location` names it.", body = CreatedGame,
            headers(("Location" = String, description = "The game's URL"))),
        (status = 400, response = crate::error::BadRequest),
        (status = 404, response = crate::error::NotFound),
        (status = 413, response = crate::error::PayloadTooLarge),
        (status = 408, response = crate::error::RequestTimeout),
        (status = 422, response = crate::error::Unprocessable),
        (status = 429, response = crate::error::TooManyRequests),
        (status = 503, response = crate::error::ServiceUnavailable),
    )
)]
pub async fn create_game(
    games: web::Data<Games>,
    limits: web::Data<Limits>,
    metrics: web::Data<Metrics>,
    req: HttpRequest,
    body: JsonBody<CreateGame>,
) -> Result<HttpResponse, ApiError> {
    limits.admit_creation(&req, games.store(), &metrics).await?;
    let created = games.create(body.0).await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/games/{}", created.id)))
        .insert_header(etag(&created.revision))
        .json(created))
}

/// How long to wait for a change.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct GameQuery {
    /// With `If-None-Match` naming the current version: wait up to this many seconds (at most
    /// 30) for the game to change before answering `304`. A change answers at once with the game.
    pub wait: Option<u64>,
}

/// The game as the caller may see it: a seat's view with its token, the spectator view without.
/// With `If-None-Match` and `wait`, a long poll: the answer comes when the game changes.
#[utoipa::path(
    get, path = "/v1/games/{id}", tag = "games",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("If-None-Match" = Option<String>, Header, description = "The `ETag` already held: `304` while the game is still at that revision"),
        GameQuery,
    ),
    security((), ("seat_token" = [])),
    responses(
        (status = 200, description = "The game", body = GameState, headers(("ETag" = String, description = "The revision"))),
        (status = 304, description = "Still at the revision named by `If-None-Match`", headers(("ETag" = String, description = "The revision"))),
        (status = 400, response = crate::error::BadRequest),
        (status = 401, response = crate::error::Unauthorized),
        (status = 403, response = crate::error::Forbidden),
        (status = 404, response = crate::error::NotFound),
        (status = 503, response = crate::error::ServiceUnavailable),
    )
)]
pub async fn get_game(
    games: web::Data<Games>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<GameQuery>,
    viewer: Viewer,
) -> Result<HttpResponse, ApiError> {
    let known = precondition(&req, "if-none-match")?;
    let wait = Duration::from_secs(query.wait.unwrap_or(0)).min(MAX_WAIT);
    Ok(match games.get(&id, viewer.0, known.as_ref(), wait).await? {
        Seen::Changed(state) => HttpResponse::Ok()
            .insert_header(etag(&state.revision))
            .insert_header((header::VARY, "Authorization"))
            .json(*state),
        Seen::Unchanged { revision } => HttpResponse::NotModified()
            .insert_header(etag(revision))
            .insert_header((header::VARY, "Authorization"))
            .finish(),
    })
}

/// Forget the game (host token only).
#[utoipa::path(
    delete, path = "/v1/games/{id}", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    security(("host_token" = [])),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, response = crate::error::Unauthorized),
        (status = 403, response = crate::error::Forbidden),
        (status = 404, response = crate::error::NotFound),
    )
)]
pub async fn delete_game(
    games: web::Data<Games>,
    id: web::Path<String>,
    _host: Host,
) -> Result<HttpResponse, ApiError> {
    games.delete(&id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The seat's legal actions now: each element is exactly an `action` to post.
#[utoipa::path(
    get, path = "/v1/games/{id}/actions", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The legal actions", body = LegalActions),
        (status = 401, response = crate::error::Unauthorized),
        (status = 403, response = crate::error::Forbidden),
        (status = 404, response = crate::error::NotFound),
    )
)]
pub async fn list_actions(
    games: web::Data<Games>,
    id: web::Path<String>,
    seat: Seat,
) -> Result<HttpResponse, ApiError> {
    let actions = games.actions(&id, seat.0).await?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(&actions.revision))
        .json(actions))
}

/// Post one action for the token's seat.
///
/// A post that races another write is re-validated against the newer state and applied or
/// refused; with `If-Match` it is refused with `412` instead. A repeated `Idempotency-Key`
/// returns the first answer's revision, status, seats to act and events, without the game
/// (header `Idempotent-Replayed: true`). `Prefer: return=minimal` leaves the game's view out of
/// the answer (header `Preference-Applied: return=minimal`).
///
/// Which answers are safe to retry: every `4xx` and `503 store_unavailable` changed nothing;
/// `503 outcome_unknown` may have been applied, so retry it only with the same
/// `Idempotency-Key`, which returns the first outcome. A post without a key that gets
/// `outcome_unknown` must read the game before posting again.
#[utoipa::path(
    post, path = "/v1/games/{id}/actions", tag = "games",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("Prefer" = Option<String>, Header, description = "`return=minimal`: answer without the game's view"),
        ("If-Match" = Option<String>, Header, description = "Apply only at this revision (the `ETag`)"),
        ("Idempotency-Key" = Option<String>, Header, description = "1 to 200 visible ASCII characters, scoped to the seat: a retry with the same key returns the first answer"),
    ),
    security(("seat_token" = [])),
    request_body = PostAction,
    responses(
        (status = 200, description = "Applied", body = ActionResult, headers(("ETag" = String, description = "The new revision"))),
        (status = 400, response = crate::error::BadRequest),
        (status = 401, response = crate::error::Unauthorized),
        (status = 403, response = crate::error::Forbidden),
        (status = 404, response = crate::error::NotFound),
        (status = 409, response = crate::error::Conflict),
        (status = 408, response = crate::error::RequestTimeout),
        (status = 412, response = crate::error::PreconditionFailed),
        (status = 413, response = crate::error::PayloadTooLarge),
        (status = 422, response = crate::error::Unprocessable),
        (status = 429, response = crate::error::TooManyRequests),
        (status = 503, response = crate::error::ServiceUnavailable),
    )
)]
pub async fn post_action(
    games: web::Data<Games>,
    req: HttpRequest,
    id: web::Path<String>,
    seat: Seat,
    body: JsonBody<PostAction>,
) -> Result<HttpResponse, ApiError> {
    let if_match = precondition(&req, "if-match")?;
    let idempotency_key = idempotency_key(&req)?;
    let minimal = header_text(&req, "prefer")?.is_some_and(prefers_minimal);
    let reply = games
        .post(
            &id,
            seat.0,
            body.0.action.get(),
            if_match.as_ref(),
            idempotency_key,
            minimal,
        )
        .await?;
    let mut response = HttpResponse::Ok();
    response
        .insert_header(etag(reply.revision))
        .content_type("application/json");
    if reply.replayed {
        response.insert_header(("Idempotent-Replayed", "true"));
    } else if minimal {
        response.insert_header(("Preference-Applied", "return=minimal"));
    }
    Ok(response.body(reply.body))
}

/// Whether a `Prefer` header (RFC 7240: preferences separated by commas, each with optional
/// `;` parameters) asks for `return=minimal`.
fn prefers_minimal(prefer: &str) -> bool {
    prefer.split(',').any(|preference| {
        let token = preference.split(';').next().unwrap_or_default();
        let mut parts = token.splitn(2, '=');
        let name = parts.next().unwrap_or_default().trim();
        let value = parts.next().unwrap_or_default().trim().trim_matches('"');
        name.eq_ignore_ascii_case("return") && value.eq_ignore_ascii_case("minimal")
    })
}

/// Where to read the log from.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Return events after this sequence number (default 0: from the start).
    #[serde(default)]
    pub after: u64,
    /// At most this many events of the log are read (default and maximum 5000).
    pub limit: Option<u64>,
}

/// The caller's events after `after`, redacted for the caller (all public once finished).
#[utoipa::path(
    get, path = "/v1/games/{id}/events", tag = "games",
    params(("id" = String, Path, description = "The game's id"), EventsQuery),
    security((), ("seat_token" = [])),
    responses(
        (status = 200, description = "The events", body = EventLog),
        (status = 400, response = crate::error::BadRequest),
        (status = 401, response = crate::error::Unauthorized),
        (status = 403, response = crate::error::Forbidden),
        (status = 404, response = crate::error::NotFound),
    )
)]
pub async fn list_events(
    games: web::Data<Games>,
    id: web::Path<String>,
    viewer: Viewer,
    query: web::Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = query.limit.unwrap_or(crate::games::MAX_EVENTS_PER_READ);
    let log = games.events(&id, viewer.0, query.after, limit).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::VARY, "Authorization"))
        .json(log))
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    #[test]
    fn preconditions_keep_only_the_revisions_they_name() {
        let revision = Revision::first();
        let req = TestRequest::default()
            .insert_header(("if-match", format!("\"7\", W/\"{revision}\"")))
            .to_http_request();
        assert_eq!(
            precondition(&req, "if-match").ok().flatten(),
            Some(Precondition::Revisions(vec![revision]))
        );
        let star = TestRequest::default()
            .insert_header(("if-match", "*"))
            .to_http_request();
        assert_eq!(
            precondition(&star, "if-match").ok().flatten(),
            Some(Precondition::Any)
        );
        for garbage in ["7", "\"7", "abc, \"7\""] {
            let req = TestRequest::default()
                .insert_header(("if-match", garbage))
                .to_http_request();
            assert!(
                matches!(
                    precondition(&req, "if-match"),
                    Err(e) if e.code() == Code::MalformedPrecondition
                ),
                "{garbage}"
            );
        }
    }

    #[test]
    fn prefer_return_minimal_is_found_among_other_preferences() {
        assert!(prefers_minimal("return=minimal"));
        assert!(prefers_minimal("respond-async, Return = \"minimal\"; foo=bar"));
        assert!(!prefers_minimal("return=representation"));
        assert!(!prefers_minimal("handling=lenient"));
        assert!(!prefers_minimal(""));
    }
}
