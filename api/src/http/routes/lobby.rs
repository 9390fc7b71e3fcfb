//! `GET /v1/games`: the games with open seats, or an app's games; `GET /v1/me/games`: a player's
//! games.

use actix_web::http::header;
use actix_web::{HttpResponse, web};

use crate::http::caller::AppCaller;
use crate::service::{Cursor, Games, GamesPage, Listing, Shown};
use crate::table::Code;
use crate::table::Refusal;
use crate::wire::lobby::{DEFAULT_LISTED, ListQuery, MAX_LISTED, OpenGames};
use crate::wire::lobby::{ListStatus, MyGamesQuery};
use roadie_engine::Ruleset;

/// The lobby's query as the service's command: `400 malformed_query` for a limit out of range,
/// `404 ruleset_not_found` for an unknown ruleset.
fn limit_of(limit: Option<u64>) -> Result<usize, Refusal> {
    Ok(match limit {
        None => DEFAULT_LISTED,
        Some(n) if (1..=MAX_LISTED as u64).contains(&n) => n as usize,
        Some(n) => {
            return Err(Refusal::new(
                Code::MalformedQuery,
                format!("limit is from 1 to {MAX_LISTED}; it was {n}"),
            ));
        }
    })
}

fn listing(query: &ListQuery) -> Result<Listing, Refusal> {
    let limit = limit_of(query.limit)?;
    let ruleset = match query.ruleset.as_deref() {
        Some(slug) => Some(Ruleset::find(slug).ok_or_else(|| {
            Refusal::new(
                Code::RulesetNotFound,
                format!("no ruleset is called {slug:?}; see GET /v1/rulesets"),
            )
        })?),
        None => None,
    };
    Ok(Listing {
        ruleset,
        limit,
        app: None,
    })
}

/// The lobby's games as the app's filters would show them: it holds running games only, so
/// `status=finished` shows none, and `player` only those where that player sits. It is one page.
fn lobby_filtered(mut list: OpenGames, query: &ListQuery) -> OpenGames {
    if query.status == Some(ListStatus::Finished) {
        list.games.clear();
    }
    if let Some(player) = &query.player {
        list.games
            .retain(|game| game.seats.iter().any(|seat| seat.player.as_ref() == Some(player)));
    }
    list
}

/// Games with a seat anyone may join, the newest first: public metadata only (ids, rulesets,
/// who sits where, versions), never a token or a view. Every process answers the same, from
/// the store.
///
/// Where apps are configured, a player's token lists its app's open games only, and an app's
/// key lists the app's games, a page at a time: `status` (`open`, `active` or `finished`; every
/// game without it), `ruleset`, `player` and `cursor` (the `next` of the page before) filter
/// them. The lobby, which holds running games with open seats only, reads `status` and `player`
/// the same way, and is a single page.
#[utoipa::path(
    get, path = "/v1/games", tag = "seats",
    params(ListQuery),
    security((), ("api_key" = []), ("player_token" = [])),
    responses(
        (status = 200, description = "The games with open seats, or a page of the app's games", body = OpenGames),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn list_open_games(
    games: web::Data<Games>,
    caller: AppCaller,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, Refusal> {
    let list = match caller {
        AppCaller::App(app) => {
            let mut listing = listing(&query)?;
            listing.app = Some(app.id.clone());
            let page = GamesPage {
                shown: match query.status {
                    None => Shown::All,
                    Some(ListStatus::Open) => Shown::Open,
                    Some(ListStatus::Active) => Shown::Active,
                    Some(ListStatus::Finished) => Shown::Finished,
                },
                ruleset: listing.ruleset.map(|r| r.slug),
                player: query.player.clone(),
                cursor: query.cursor.as_deref().map(Cursor::decode).transpose()?,
                limit: listing.limit,
            };
            games.app_games(&app.id, page).await?
        }
        AppCaller::Player(app, _) => {
            let mut listing = listing(&query)?;
            listing.app = Some(app.id.clone());
            lobby_filtered(games.open_games(listing).await?, &query)
        }
        AppCaller::Open => lobby_filtered(games.open_games(listing(&query)?).await?, &query),
    };
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(list))
}

/// The caller's own games in its app: the running ones first, then the finished ones, each the
/// newest first, a page at a time (player token only).
#[utoipa::path(
    get, path = "/v1/me/games", tag = "seats",
    params(MyGamesQuery),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "A page of the player's games", body = OpenGames),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn list_my_games(
    games: web::Data<Games>,
    caller: AppCaller,
    query: web::Query<MyGamesQuery>,
) -> Result<HttpResponse, Refusal> {
    let AppCaller::Player(app, player) = caller else {
        return Err(Refusal::new(
            Code::AppRequired,
            "this call lists a player's own games: it needs one of an app's player tokens",
        ));
    };
    let cursor = query.cursor.as_deref().map(Cursor::decode).transpose()?;
    let list = games
        .player_games(&app.id, &player.who.player, cursor, limit_of(query.limit)?)
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(list))
}
