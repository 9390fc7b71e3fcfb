//! `/v1/games/{id}/seats`: join an open seat, resign, give a seat to a bot, reissue a token.

use actix_web::http::header;
use actix_web::{HttpResponse, web};
use roadie_engine::BotLevel;

use crate::http::body::JsonBody;
use crate::http::caller::{HostCaller, SeatCaller, ViewerCaller};
use crate::http::etag::etag;
use crate::http::extract::SeatInPath;
use crate::service::Games;
use crate::service::Wanted;
use crate::table::GameId;
use crate::table::{Code, Holder, Refusal};
use crate::wire::seats::{JoinSeat, ReplaceSeat, SeatChanged, SeatGrant};

/// `422 invalid_seats` unless `id` is a player id: 1 to 128 bytes.
pub(super) fn player_id(id: String) -> Result<String, Refusal> {
    if (1..=crate::apps::MAX_PLAYER_ID_BYTES).contains(&id.len()) {
        Ok(id)
    } else {
        Err(Refusal::new(
            Code::InvalidSeats,
            format!("a player id is 1 to {} bytes", crate::apps::MAX_PLAYER_ID_BYTES),
        ))
    }
}

fn granted(grant: SeatGrant) -> HttpResponse {
    HttpResponse::Created()
        .insert_header(etag(&grant.revision))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(grant)
}

/// Join the first open seat under a display name. The answer carries the seat's token, once.
///
/// Two clients that race for the last open seat: exactly one gets it; the other is `409
/// no_open_seat`. Everyone sees the join as a `seat_taken` event and in the game's `occupants`.
#[utoipa::path(
    post, path = "/v1/games/{id}/seats", tag = "seats",
    params(("id" = String, Path, description = "The game's id")),
    request_body = JoinSeat,
    security((), ("player_token" = []), ("api_key" = [])),
    responses(
        (status = 201, description = "Seated: the seat and its token", body = SeatGrant),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
        (status = 413, response = crate::http::problem::PayloadTooLarge),
        (status = 408, response = crate::http::problem::RequestTimeout),
        (status = 422, response = crate::http::problem::Unprocessable),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn join_first_open(
    games: web::Data<Games>,
    id: GameId,
    caller: ViewerCaller,
    body: JsonBody<JoinSeat>,
) -> Result<HttpResponse, Refusal> {
    Ok(granted(
        games
            .join(&id, Wanted::FirstOpen, &body.0.name, caller.pass.holder)
            .await?,
    ))
}

/// Join this open seat under a display name. The answer carries the seat's token, once; a
/// seat someone else took is `409 seat_taken`.
#[utoipa::path(
    post, path = "/v1/games/{id}/seats/{seat}", tag = "seats",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("seat" = u16, Path, description = "The seat"),
    ),
    request_body = JoinSeat,
    security((), ("player_token" = []), ("api_key" = [])),
    responses(
        (status = 201, description = "Seated: the seat and its token", body = SeatGrant),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
        (status = 413, response = crate::http::problem::PayloadTooLarge),
        (status = 408, response = crate::http::problem::RequestTimeout),
        (status = 422, response = crate::http::problem::Unprocessable),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn join_seat(
    games: web::Data<Games>,
    id: GameId,
    caller: ViewerCaller,
    SeatInPath(seat): SeatInPath,
    body: JsonBody<JoinSeat>,
) -> Result<HttpResponse, Refusal> {
    Ok(granted(
        games
            .join(&id, Wanted::Seat(seat), &body.0.name, caller.pass.holder)
            .await?,
    ))
}

/// Give the seat to a bot (host token only): it plays the seat from now on, at once if the
/// seat is to act, and the seat's tokens stop working. A `seat_replaced` event says so.
#[utoipa::path(
    put, path = "/v1/games/{id}/seats/{seat}", tag = "seats",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("seat" = u16, Path, description = "The seat"),
    ),
    security(("host_token" = []), ("api_key" = [])),
    request_body = ReplaceSeat,
    responses(
        (status = 200, description = "The seat is a bot's", body = SeatChanged),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 422, response = crate::http::problem::Unprocessable),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
        (status = 413, response = crate::http::problem::PayloadTooLarge),
        (status = 408, response = crate::http::problem::RequestTimeout),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn replace_seat(
    games: web::Data<Games>,
    id: GameId,
    host: HostCaller,
    SeatInPath(seat): SeatInPath,
    body: JsonBody<ReplaceSeat>,
) -> Result<HttpResponse, Refusal> {
    games.check_host(&id, host.app()).await?;
    let changed: SeatChanged = match (body.0, &host) {
        (
            ReplaceSeat {
                bot: Some(level),
                player: None,
                name: None,
            },
            _,
        ) => games.give_to_bot(&id, seat, level).await?,
        (
            ReplaceSeat {
                bot: None,
                player: Some(player),
                name,
            },
            HostCaller::App(_),
        ) => games.hand(&id, seat, player_id(player)?, name).await?,
        (
            ReplaceSeat {
                bot: None,
                player: Some(_),
                ..
            },
            HostCaller::Host | HostCaller::Player(_),
        ) => {
            return Err(Refusal::new(
                Code::InvalidSeats,
                "a seat is handed to a player by id with the game's app key; the host token gives seats to bots",
            ));
        }
        _ => {
            return Err(Refusal::new(
                Code::InvalidSeats,
                "the body is {\"bot\": \"random\" | \"greedy\" | \"expert\"} or {\"player\": \"<id>\", \"name\": \"...\"}",
            ));
        }
    };
    Ok(HttpResponse::Ok()
        .insert_header(etag(&changed.revision))
        .json(changed))
}

/// Resign the seat (its own token): a `random` bot plays it on, as Board Game Arena's zombie
/// mode, and the seat's token stops working. A `seat_resigned` event says so.
#[utoipa::path(
    post, path = "/v1/games/{id}/seats/{seat}/resign", tag = "seats",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("seat" = u16, Path, description = "The seat"),
    ),
    security(("seat_token" = []), ("player_token" = [])),
    responses(
        (status = 200, description = "Resigned: the seat is a bot's", body = SeatChanged),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn resign_seat(
    games: web::Data<Games>,
    id: GameId,
    caller: SeatCaller,
    SeatInPath(seat): SeatInPath,
) -> Result<HttpResponse, Refusal> {
    let pass = caller.pass;
    if let (Holder::Token(_), Some(played)) = (&pass.holder, pass.seat)
        && played != seat
    {
        return Err(Refusal::new(
            Code::NotYourSeat,
            format!("this token plays seat {played}, not seat {seat}"),
        ));
    }
    let changed = games.resign(&id, seat, pass.holder, BotLevel::Random).await?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(&changed.revision))
        .json(changed))
}

/// A new token for the seat (host token only); every earlier token of the seat is refused from
/// now on, on every process (`401 token_revoked`).
#[utoipa::path(
    post, path = "/v1/games/{id}/seats/{seat}/token", tag = "seats",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("seat" = u16, Path, description = "The seat"),
    ),
    security(("host_token" = []), ("api_key" = [])),
    responses(
        (status = 201, description = "The seat's new token", body = SeatGrant),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn reissue_token(
    games: web::Data<Games>,
    id: GameId,
    host: HostCaller,
    SeatInPath(seat): SeatInPath,
) -> Result<HttpResponse, Refusal> {
    games.check_host(&id, host.app()).await?;
    Ok(granted(games.reissue(&id, seat).await?))
}
