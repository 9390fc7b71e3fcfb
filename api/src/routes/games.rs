//! `/v1/games`: create, show, act, read the log, delete.

use std::time::Duration;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::{Host, Seat, Viewer};
use crate::error::ApiError;
use crate::games::{Games, MAX_WAIT, Seen, parse_if_match};
use crate::model::{ActionResult, CreateGame, CreatedGame, EventLog, GameState, LegalActions, PostAction};

/// Mounts the game routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/v1/games").route(web::post().to(create_game)))
        .service(
            super::resource("/v1/games/{id}")
                .route(web::get().to(get_game))
                .route(web::delete().to(delete_game)),
        )
        .service(
            super::resource("/v1/games/{id}/actions")
                .route(web::get().to(list_actions))
                .route(web::post().to(post_action)),
        )
        .service(super::resource("/v1/games/{id}/events").route(web::get().to(list_events)));
}

/// A request header's text, or `400 malformed_header` when it is not visible ASCII.
fn header_text<'r>(req: &'r HttpRequest, name: &str) -> Result<Option<&'r str>, ApiError> {
    req.headers()
        .get(name)
        .map(|v| {
            v.to_str().map_err(|_| {
                ApiError::bad_request("malformed_header", format!("{name} is not visible ASCII"))
            })
        })
        .transpose()
}

fn etag(version: u64) -> (header::HeaderName, HeaderValue) {
    (
        header::ETAG,
        HeaderValue::from_str(&format!("\"{version}\"")).unwrap_or(HeaderValue::from_static("\"0\"")),
    )
}

/// Create a game. Returns one token per seat and the host's token.
#[utoipa::path(
    post, path = "/v1/games", tag = "games",
    request_body = CreateGame,
    responses(
        (status = 201, description = "The game was created; `Location` names it.", body = CreatedGame,
            headers(("Location" = String, description = "The game's URL"))),
        (status = 400, description = "Malformed JSON or unknown fields", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such ruleset", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Seats or options the ruleset refuses", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 503, description = "Store unavailable", body = crate::error::Problem, content_type = "application/problem+json"),
    )
)]
pub async fn create_game(
    games: web::Data<Games>,
    body: web::Json<CreateGame>,
) -> Result<HttpResponse, ApiError> {
    let created = games.create(body.into_inner()).await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/games/{}", created.id)))
        .insert_header(etag(created.version))
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
        ("If-None-Match" = Option<String>, Header, description = "The `ETag` already held: `304` while the game is still at it"),
        GameQuery,
    ),
    security((), ("seat_token" = [])),
    responses(
        (status = 200, description = "The game", body = GameState, headers(("ETag" = String, description = "The version"))),
        (status = 304, description = "Still at the version named by `If-None-Match`", headers(("ETag" = String, description = "The version"))),
        (status = 401, description = "Invalid or expired token", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 403, description = "Token of another game", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 503, description = "Store unavailable", body = crate::error::Problem, content_type = "application/problem+json"),
    )
)]
pub async fn get_game(
    games: web::Data<Games>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<GameQuery>,
    viewer: Viewer,
) -> Result<HttpResponse, ApiError> {
    let known = header_text(&req, "if-none-match")?;
    let wait = Duration::from_secs(query.wait.unwrap_or(0)).min(MAX_WAIT);
    Ok(match games.get(&id, viewer.0, known, wait).await? {
        Seen::Changed(state) => HttpResponse::Ok()
            .insert_header(etag(state.version))
            .insert_header((header::VARY, "Authorization"))
            .json(*state),
        Seen::Unchanged { version } => HttpResponse::NotModified()
            .insert_header(etag(version))
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
        (status = 401, description = "No, invalid or expired token", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not this game's host token", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = crate::error::Problem, content_type = "application/problem+json"),
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
        (status = 401, description = "No, invalid or expired token", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a seat token of this game", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = crate::error::Problem, content_type = "application/problem+json"),
    )
)]
pub async fn list_actions(
    games: web::Data<Games>,
    id: web::Path<String>,
    seat: Seat,
) -> Result<HttpResponse, ApiError> {
    let actions = games.actions(&id, seat.0).await?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(actions.version))
        .json(actions))
}

/// Post one action for the token's seat.
///
/// A post that races another write is re-validated against the newer state and applied or
/// refused; with `If-Match` it is refused with `412` instead. A repeated `Idempotency-Key`
/// returns the first answer (header `Idempotent-Replayed: true`). `Prefer: return=minimal`
/// leaves the game's view out of the answer (header `Preference-Applied: return=minimal`):
/// the version, `status`, `to_act` and the seat's events remain.
#[utoipa::path(
    post, path = "/v1/games/{id}/actions", tag = "games",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("Prefer" = Option<String>, Header, description = "`return=minimal`: answer without the game's view"),
        ("If-Match" = Option<String>, Header, description = "Apply only at this version (the `ETag`)"),
        ("Idempotency-Key" = Option<String>, Header, description = "A retry with the same key returns the first answer"),
    ),
    security(("seat_token" = [])),
    request_body = PostAction,
    responses(
        (status = 200, description = "Applied", body = ActionResult, headers(("ETag" = String, description = "The new version"))),
        (status = 400, description = "Malformed JSON, unknown fields or an action not of this ruleset", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 401, description = "No, invalid or expired token", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a seat token of this game", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 409, description = "`not_your_turn`, `game_over`, `contention`, `idempotency_key_reused`", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` names another version", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 422, description = "`illegal_action`, with the legal actions", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 503, description = "Store unavailable", body = crate::error::Problem, content_type = "application/problem+json"),
    )
)]
pub async fn post_action(
    games: web::Data<Games>,
    req: HttpRequest,
    id: web::Path<String>,
    seat: Seat,
    body: web::Json<PostAction>,
) -> Result<HttpResponse, ApiError> {
    let if_match = header_text(&req, "if-match")?.and_then(parse_if_match);
    let idempotency_key = header_text(&req, "idempotency-key")?;
    let minimal = header_text(&req, "prefer")?.is_some_and(prefers_minimal);
    let reply = games
        .post(&id, seat.0, body.action.get(), if_match, idempotency_key, minimal)
        .await?;
    let mut response = HttpResponse::Ok();
    response
        .insert_header(etag(reply.version))
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
        (status = 400, description = "Malformed query", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 401, description = "Invalid or expired token", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 403, description = "Token of another game", body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = crate::error::Problem, content_type = "application/problem+json"),
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
    use super::prefers_minimal;

    #[test]
    fn prefer_return_minimal_is_found_among_other_preferences() {
        assert!(prefers_minimal("return=minimal"));
        assert!(prefers_minimal("respond-async, Return = \"minimal\"; foo=bar"));
        assert!(!prefers_minimal("return=representation"));
        assert!(!prefers_minimal("handling=lenient"));
        assert!(!prefers_minimal(""));
    }
}
