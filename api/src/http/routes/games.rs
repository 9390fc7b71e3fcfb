//! `/v1/games`: create, show, act, read the log, delete.

use std::time::Duration;

use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::http::body::JsonBody;
use crate::http::caller::{AppCaller, HostCaller, SeatCaller, ViewerCaller};
use crate::http::etag::etag;
use crate::http::extract::{IdempotencyKey, IfMatch, IfNoneMatch};
use crate::http::limits::Limits;
use crate::metrics::Metrics;
use crate::service::{ActionCommand, Fork, ForkSource, Games, MAX_WAIT, NewGame, Representation, Seen};
use crate::table::GameId;
use crate::table::Refusal;
use crate::wire::hints::Hint;
use crate::wire::{ActionResult, CreateGame, CreatedGame, EventLog, GameState, LegalActions, PostAction};

/// Create a game. Returns one token per seat and the host's token.
///
/// The options' schema cannot say everything: options that name seats or give one value per
/// seat (a `first_seat` or `starting_lead` beyond the last seat, fewer `colours` than seats)
/// are judged with the seat count, and a document-valid body may be refused with `422
/// invalid_options`.
///
/// **Webhook** (optional): with `"webhook": {"url": "https://..."}` (a host the server's operator
/// allows, else `422 invalid_webhook`), the answer's `webhook.secret` (shown only once) signs
/// every notice posted to that URL: a `WebhookNotice` of type `your_turn` after each write that
/// hands seats the turn (creation included), and `game_over` when the game ends. Each is posted
/// as `application/json` with the header
/// `Roadie-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, the key being
/// the secret's ASCII bytes. A receiver computes the HMAC over the timestamp, a dot and the raw
/// body as received, compares it with `v1` in constant time, and rejects a `t` more than a few
/// minutes from its own clock (a replayed notice). It answers any `2xx` to accept; another
/// status or no answer within the server's timeout is retried with exponential back-off, and a
/// notice is dropped after the server's last attempt. Delivery is at least once: a notice may
/// come again after a lost answer, with the same `id`.
///
/// **Fork** (optional): with `"from": {"game": id}` (a finished game the caller may look at;
/// `409 game_not_finished` for one still played) or `"from": {"record": {...}}` (a record, as
/// `GET /v1/games/{id}/record` gives it) and `"at": N`, the game starts at the position after N
/// of its actions (0: its setup), with the record's options and seed (leave out `options` and
/// `seed`) and its seat count, new seats and tokens, and `forked_from` naming where it came
/// from; `422 invalid_record` for a record that does not replay that far, or whose game is over
/// there. The seed of a fork is its record's: anyone holding the record knows its hidden cards,
/// so a fork is for analysis, "what if" and puzzles, not for play among strangers.
#[utoipa::path(
    post, path = "/v1/games", tag = "games",
    request_body = CreateGame,
    security((), ("api_key" = []), ("player_token" = [])),
    responses(
        (status = 201, description = "The game was created; `Location` names it.", body = CreatedGame,
            headers(("Location" = String, description = "The game's URL"))),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
        (status = 413, response = crate::http::problem::PayloadTooLarge),
        (status = 408, response = crate::http::problem::RequestTimeout),
        (status = 422, response = crate::http::problem::Unprocessable),
        (status = 429, response = crate::http::problem::TooManyRequests),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn create_game(
    games: web::Data<Games>,
    limits: web::Data<Limits>,
    metrics: web::Data<Metrics>,
    caller: AppCaller,
    req: HttpRequest,
    body: JsonBody<CreateGame>,
) -> Result<HttpResponse, Refusal> {
    let app = caller.app().cloned();
    if app.is_none() {
        // An app's creations are counted by its own limits, not by its address.
        limits.admit_creation(&req, games.store(), &metrics).await?;
    }
    let created = games.create(new_game(body.0, app)?).await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/games/{}", created.id)))
        .insert_header(etag(&created.revision))
        .json(created))
}

/// The creation's body as the service's command.
fn new_game(body: CreateGame, app: Option<std::sync::Arc<crate::apps::App>>) -> Result<NewGame, Refusal> {
    let (seats, specs) = body.seats.into_parts();
    let fork = match (body.from, body.at) {
        (None, None) => None,
        (None, Some(_)) => {
            return Err(Refusal::new(
                crate::table::Code::InvalidRecord,
                "`at` names a position of the game or record that `from` names: send both",
            ));
        }
        (Some(from), at) => Some(Fork {
            source: match (from.game, from.record) {
                (Some(game), None) => ForkSource::Game(GameId::parse(&game).map_err(|_| {
                    Refusal::new(
                        crate::table::Code::InvalidRecord,
                        format!("the game cannot be forked: {game:?} is no game id"),
                    )
                })?),
                (None, Some(record)) => {
                    crate::records::objects_where_expected(&record).map_err(|shape| {
                        Refusal::new(
                            crate::table::Code::InvalidRecord,
                            format!("the game cannot be forked: `from.record` is not a record: {shape}"),
                        )
                    })?;
                    let record: crate::records::Record = crate::records::parse(record).map_err(|e| {
                        Refusal::refused_by_serde(
                            crate::table::Code::InvalidRecord,
                            "the game cannot be forked: `from.record` is not a record",
                            e,
                        )
                    })?;
                    if let Some(shape) = record.shape_error() {
                        return Err(Refusal::new(
                            crate::table::Code::InvalidRecord,
                            format!("the game cannot be forked: `from.record` is not a record: {shape}"),
                        ));
                    }
                    ForkSource::Record(Box::new(record))
                }
                _ => {
                    return Err(Refusal::new(
                        crate::table::Code::InvalidRecord,
                        "`from` names a `game` or holds a `record`: one of the two",
                    ));
                }
            },
            at: at.unwrap_or(0),
        }),
    };
    Ok(NewGame {
        ruleset: body.ruleset,
        seats,
        specs,
        open: body.open,
        options: body.options,
        seed: body.seed,
        webhook: body.webhook.map(|option| option.url),
        clock: body.clock,
        announce_seats: false,
        id: None,
        app,
        owner: None,
        fork,
        rated: body.rated,
    })
}

/// How long to wait for a change. Other query parameters (a cache buster, say) are ignored.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GameQuery {
    /// With `If-None-Match` naming the current revision: wait up to this many seconds (at most
    /// 30) for the game to change before answering `304`. A change answers at once with the game.
    /// With `If-None-Match: *`, which names every revision, the answer is `304` after the wait.
    #[param(minimum = 0, maximum = 30, example = 1)]
    pub wait: Option<u64>,
}

/// `400 malformed_query` unless `value` of parameter `name` is within `min..=max`.
pub(super) fn within(name: &str, value: u64, min: u64, max: u64) -> Result<u64, Refusal> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(Refusal::new(
            crate::table::Code::MalformedQuery,
            format!("{name} is from {min} to {max}; it was {value}"),
        ))
    }
}

/// The game as the caller may see it: a seat's view with its token, the spectator view without.
/// With `If-None-Match` and `wait`, a long poll: the answer comes when the game changes.
#[utoipa::path(
    get, path = "/v1/games/{id}", tag = "games",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("If-None-Match" = Option<String>, Header, nullable = false, pattern = r#"^(\*|(,[ \t]*)*(W/)?"[\x21\x23-\x2B\x2D-\x7E]*"([ \t]*,([ \t]*(W/)?"[\x21\x23-\x2B\x2D-\x7E]*")?)*)[ \t]*$"#,
            description = "The `ETag` already held (or several, separated by commas): `304` while the game is still at that revision. `*` names every revision (RFC 9110): `304` while the game exists"),
        GameQuery,
        ("seat" = Option<u16>, Query, minimum = 0, maximum = 65535, description = "With a player token: the seat to act or look as, where the player holds several of this game (`409 seat_ambiguous` without it)"),
    ),
    security((), ("seat_token" = []), ("player_token" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "The game", body = GameState, headers(("ETag" = String, description = "The revision"))),
        (status = 304, description = "Still at the revision named by `If-None-Match`", headers(("ETag" = String, description = "The revision"))),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn get_game(
    games: web::Data<Games>,
    id: GameId,
    query: web::Query<GameQuery>,
    viewer: ViewerCaller,
    known: IfNoneMatch,
) -> Result<HttpResponse, Refusal> {
    let wait = Duration::from_secs(within("wait", query.wait.unwrap_or(0), 0, MAX_WAIT.as_secs())?);
    Ok(
        match games.get(&id, &viewer.pass, known.0.as_ref(), wait).await? {
            Seen::Changed(state) => HttpResponse::Ok()
                .insert_header(etag(&state.revision))
                .insert_header((header::VARY, "Authorization"))
                .json(*state),
            Seen::Unchanged { revision } => HttpResponse::NotModified()
                .insert_header(etag(revision.text().as_str()))
                .insert_header((header::VARY, "Authorization"))
                .finish(),
        },
    )
}

/// Forget the game (host token only).
#[utoipa::path(
    delete, path = "/v1/games/{id}", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    security(("host_token" = []), ("api_key" = [])),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn delete_game(
    games: web::Data<Games>,
    id: GameId,
    host: HostCaller,
) -> Result<HttpResponse, Refusal> {
    games.check_host(&id, host.app()).await?;
    games.delete(&id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Abort the game (its host token, or its app's key): it ends where it stands, nobody wins,
/// nothing more can be posted or joined, and a public `game_aborted` event says so. Its status
/// is `aborted` from then on; what was hidden stays hidden.
#[utoipa::path(
    post, path = "/v1/games/{id}/abort", tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    security(("host_token" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "Aborted: the game as a spectator sees it", body = GameState,
            headers(("ETag" = String, description = "The new revision"))),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn abort_game(
    games: web::Data<Games>,
    id: GameId,
    host: HostCaller,
) -> Result<HttpResponse, Refusal> {
    games.check_host(&id, host.app()).await?;
    let by = if host.app().is_some() { "app" } else { "host" };
    let state = games.abort(&id, by).await?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(&state.revision))
        .json(state))
}

/// The seat's legal actions now: each element is exactly an `action` to post.
#[utoipa::path(
    get, path = "/v1/games/{id}/actions", tag = "games",
    params(("id" = String, Path, description = "The game's id"), ("seat" = Option<u16>, Query, minimum = 0, maximum = 65535, description = "With a player token: the seat to act or look as, where the player holds several of this game (`409 seat_ambiguous` without it)")),
    security(("seat_token" = []), ("player_token" = [])),
    responses(
        (status = 200, description = "The legal actions", body = LegalActions),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
    )
)]
pub async fn list_actions(
    games: web::Data<Games>,
    id: GameId,
    seat: SeatCaller,
) -> Result<HttpResponse, Refusal> {
    let actions = games.actions(&id, &seat.pass).await?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(&actions.revision))
        .json(actions))
}

/// What an expert in the token's seat would play now: one of its legal actions, with the others
/// it weighed most and each one's share of the search.
///
/// The search reads only what the seat may know (its view and the public log), within the
/// operator's budget for a bot's decision (`ROADIE_BOT_EXPERT_MS`), and each seat may ask for
/// hints at a limited rate (`ROADIE_HINT_RATE`, `ROADIE_HINT_BURST`).
#[utoipa::path(
    get, path = "/v1/games/{id}/hint", tag = "games",
    params(("id" = String, Path, description = "The game's id"), ("seat" = Option<u16>, Query, minimum = 0, maximum = 65535, description = "With a player token: the seat to act or look as, where the player holds several of this game (`409 seat_ambiguous` without it)")),
    security(("seat_token" = []), ("player_token" = [])),
    responses(
        (status = 200, description = "The hint", body = Hint),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
        (status = 429, response = crate::http::problem::TooManyRequests),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn get_hint(
    games: web::Data<Games>,
    id: GameId,
    seat: SeatCaller,
) -> Result<HttpResponse, Refusal> {
    let hint = games.hint(&id, &seat.pass).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(hint))
}

/// The answer's header names, named once rather than parsed from text on every post.
const IDEMPOTENT_REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");
const PREFERENCE_APPLIED: HeaderName = HeaderName::from_static("preference-applied");

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
        ("Prefer" = Option<String>, Header, nullable = false, description = "`return=minimal`: answer without the game's view"),
        ("If-Match" = Option<String>, Header, nullable = false, pattern = r#"^(\*|(,[ \t]*)*(W/)?"[\x21\x23-\x2B\x2D-\x7E]*"([ \t]*,([ \t]*(W/)?"[\x21\x23-\x2B\x2D-\x7E]*")?)*)[ \t]*$"#,
            description = "Apply only at this revision (the `ETag`; or several, separated by commas; `*`: any)"),
        ("Idempotency-Key" = Option<String>, Header, nullable = false, pattern = r"^[\x21-\x7E]{1,200}$", description = "1 to 200 visible ASCII characters, scoped to the seat: a retry with the same key returns the first answer"),
        ("seat" = Option<u16>, Query, minimum = 0, maximum = 65535, description = "With a player token: the seat to act or look as, where the player holds several of this game (`409 seat_ambiguous` without it)"),
    ),
    security(("seat_token" = []), ("player_token" = [])),
    request_body = PostAction,
    responses(
        (status = 200, description = "Applied", body = ActionResult, headers(("ETag" = String, description = "The new revision"))),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
        (status = 408, response = crate::http::problem::RequestTimeout),
        (status = 412, response = crate::http::problem::PreconditionFailed),
        (status = 413, response = crate::http::problem::PayloadTooLarge),
        (status = 422, response = crate::http::problem::Unprocessable),
        (status = 429, response = crate::http::problem::TooManyRequests),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn post_action(
    games: web::Data<Games>,
    game: GameId,
    seat: SeatCaller,
    precondition: IfMatch,
    idempotency_key: IdempotencyKey,
    representation: Representation,
    body: JsonBody<PostAction>,
) -> Result<HttpResponse, Refusal> {
    let reply = games
        .post(ActionCommand {
            game,
            pass: seat.pass,
            action: body.0.action,
            precondition: precondition.0,
            idempotency_key: idempotency_key.0,
            representation,
        })
        .await?;
    let mut response = HttpResponse::Ok();
    response
        .insert_header(etag(reply.revision.text().as_str()))
        .content_type("application/json");
    if reply.replayed {
        response.insert_header((IDEMPOTENT_REPLAYED, HeaderValue::from_static("true")));
    } else if representation == Representation::Minimal {
        response.insert_header((PREFERENCE_APPLIED, HeaderValue::from_static("return=minimal")));
    }
    Ok(response.body(reply.body))
}

/// Where to read the log from. Other query parameters (a cache buster, say) are ignored.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Return events after this sequence number (default 0: from the start).
    #[serde(default)]
    #[param(minimum = 0, maximum = 9007199254740991_u64)]
    pub after: u64,
    /// At most this many events of the log are read (1 to 5000, default 5000).
    #[param(minimum = 1, maximum = 5000)]
    pub limit: Option<u64>,
}

/// The caller's events after `after`, redacted for the caller (all public once finished).
///
/// An `after` beyond the log's last event is `409 cursor_ahead` with the log's `last_seq`:
/// those events are not in the log (the store lost recent writes, say), and resuming from
/// `last_seq` or earlier reads what the log holds.
#[utoipa::path(
    get, path = "/v1/games/{id}/events", tag = "games",
    params(("id" = String, Path, description = "The game's id"), EventsQuery, ("seat" = Option<u16>, Query, minimum = 0, maximum = 65535, description = "With a player token: the seat to act or look as, where the player holds several of this game (`409 seat_ambiguous` without it)")),
    security((), ("seat_token" = []), ("player_token" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "The events", body = EventLog),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
    )
)]
pub async fn list_events(
    games: web::Data<Games>,
    id: GameId,
    viewer: ViewerCaller,
    query: web::Query<EventsQuery>,
) -> Result<HttpResponse, Refusal> {
    let max = crate::service::MAX_EVENTS_PER_READ;
    let limit = within("limit", query.limit.unwrap_or(max), 1, max)?;
    let after = within("after", query.after, 0, crate::wire::MAX_SAFE_INTEGER)?;
    let log = games.events(&id, &viewer.pass, after, limit).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::VARY, "Authorization"))
        .json(log))
}
