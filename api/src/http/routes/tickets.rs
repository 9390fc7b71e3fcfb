//! `/v1/tickets`: matchmaking. Open a ticket, wait for its seat, cancel it.

use std::time::Duration;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};

use crate::http::body::JsonBody;
use crate::http::caller::{AppCaller, TicketCaller};
use crate::http::limits::Limits;
use crate::metrics::Metrics;
use crate::service::{Games, MAX_WAIT, NewTicket, TicketView};
use crate::table::Refusal;
use crate::table::tickets::TicketId;
use crate::wire::tickets::{CreateTicket, CreatedTicket, TicketInfo, TicketQuery, TicketStatus};

use super::games::within;

/// Open a matchmaking ticket: be seated in a game with others who ask for the same ruleset,
/// seat count and options, in order of arrival.
///
/// When enough tickets wait, any server process creates their game with every seat named after
/// its ticket, and each ticket learns its game, seat and seat token from `GET
/// /v1/tickets/{id}` (which can long-poll with `wait`). With `bots_after_secs`, a ticket that has
/// waited that long is seated with whoever waits with it and bots in the other seats. A ticket
/// that is not matched within the server's ticket lifetime (`expires_at`) expires. Tickets are
/// rate-limited per address like game creations.
#[utoipa::path(
    post, path = "/v1/tickets", tag = "matchmaking",
    request_body = CreateTicket,
    security((), ("api_key" = []), ("player_token" = [])),
    responses(
        (status = 201, description = "The ticket waits; `Location` names it.", body = CreatedTicket,
            headers(("Location" = String, description = "The ticket's URL"))),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 413, response = crate::http::problem::PayloadTooLarge),
        (status = 408, response = crate::http::problem::RequestTimeout),
        (status = 422, response = crate::http::problem::Unprocessable),
        (status = 429, response = crate::http::problem::TooManyRequests),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn create_ticket(
    games: web::Data<Games>,
    limits: web::Data<Limits>,
    metrics: web::Data<Metrics>,
    caller: AppCaller,
    req: HttpRequest,
    body: JsonBody<CreateTicket>,
) -> Result<HttpResponse, Refusal> {
    limits.admit_creation(&req, games.store(), &metrics).await?;
    let body = body.0;
    let (app, player) = match &caller {
        AppCaller::Open => (None, None),
        AppCaller::App(app) => (Some(app.id.clone()), None),
        AppCaller::Player(app, player) => (Some(app.id.clone()), Some(player.who.player.to_string())),
    };
    let opened = games
        .open_ticket(NewTicket {
            ruleset: body.ruleset,
            seats: body.seats,
            options: body.options,
            name: body.name,
            bots_after_secs: body.bots_after_secs,
            bot_level: body.bot_level,
            app,
            player,
        })
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/tickets/{}", opened.id)))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(CreatedTicket {
            id: opened.id,
            token: opened.token,
            status: TicketStatus::Waiting,
            expires_at: opened.expires_ms / 1000,
        }))
}

/// The ticket, with the ticket's token: once `matched`, its game, seat and the seat's token.
/// With `wait`, a long poll: the answer comes as soon as the ticket stops waiting.
#[utoipa::path(
    get, path = "/v1/tickets/{id}", tag = "matchmaking",
    params(("id" = String, Path, description = "The ticket's id"), TicketQuery),
    security(("ticket_token" = [])),
    responses(
        (status = 200, description = "The ticket", body = TicketInfo),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn get_ticket(
    games: web::Data<Games>,
    // The token is checked before the id: a request without one is `401` whatever it names.
    caller: TicketCaller,
    id: TicketId,
    query: web::Query<TicketQuery>,
) -> Result<HttpResponse, Refusal> {
    let wait = Duration::from_secs(within("wait", query.wait.unwrap_or(0), 0, MAX_WAIT.as_secs())?);
    let view = games.ticket(&id, &caller.token, wait).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(info_of(view)))
}

/// Cancel a waiting ticket (with the ticket's token). A ticket already matched, or being
/// seated, answers `409 ticket_matched`; cancelling an ended ticket again is harmless.
#[utoipa::path(
    delete, path = "/v1/tickets/{id}", tag = "matchmaking",
    params(("id" = String, Path, description = "The ticket's id")),
    security(("ticket_token" = [])),
    responses(
        (status = 204, description = "Cancelled"),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn cancel_ticket(
    games: web::Data<Games>,
    caller: TicketCaller,
    id: TicketId,
) -> Result<HttpResponse, Refusal> {
    games.cancel_ticket(&id, &caller.token).await?;
    Ok(HttpResponse::NoContent().finish())
}

fn info_of(view: TicketView) -> TicketInfo {
    let (game, seat, seat_token) = match view.seat {
        Some(seated) => (Some(seated.game), Some(seated.seat), Some(seated.seat_token)),
        None => (None, None, None),
    };
    TicketInfo {
        id: view.id,
        status: view.state.into(),
        expires_at: view.expires_ms / 1000,
        game,
        seat,
        seat_token,
        position: view.position,
    }
}
