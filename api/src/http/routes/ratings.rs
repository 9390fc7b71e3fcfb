//! Ratings: `GET /v1/rulesets/{ruleset}/leaderboard`, `GET /v1/players/{id}` and `GET /v1/me`,
//! each within the caller's app.

use actix_web::http::header;
use actix_web::{HttpResponse, web};
use roadie_engine::Ruleset;

use crate::http::caller::AppCaller;
use crate::service::Games;
use crate::service::ratings::{BoardCursor, BoardRequest};
use crate::table::{Code, Refusal};
use crate::wire::ratings::{DEFAULT_ROWS, Leaderboard, LeaderboardQuery, MAX_ROWS, PlayerProfile};

use super::games::within;

/// The longest player id an app gives (a player token's `sub`).
const MAX_PLAYER_ID: usize = 128;

/// The app a ratings call reads: `401 app_required` on a server without apps.
fn app_of(caller: &AppCaller) -> Result<&str, Refusal> {
    caller.app().map(|app| &*app.id).ok_or_else(|| {
        Refusal::new(
            Code::AppRequired,
            "ratings belong to an app: the call needs the app's key or one of its players' tokens",
        )
    })
}

fn ok<T: serde::Serialize>(body: &T) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(body)
}

/// A ruleset's leaderboard in the caller's app: its rated players, the best first, by their
/// conservative rating (`mu − 3σ`), a page at a time. `min_games` leaves out players with fewer
/// rated games; `rank` counts the players listed with that filter.
#[utoipa::path(
    get, path = "/v1/rulesets/{ruleset}/leaderboard", tag = "ratings",
    params(("ruleset" = String, Path, description = "The ruleset's slug"), LeaderboardQuery),
    security(("api_key" = []), ("player_token" = [])),
    responses(
        (status = 200, description = "A page of the leaderboard", body = Leaderboard),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn get_leaderboard(
    games: web::Data<Games>,
    caller: AppCaller,
    path: web::Path<String>,
    query: web::Query<LeaderboardQuery>,
) -> Result<HttpResponse, Refusal> {
    let app = app_of(&caller)?;
    let slug = path.into_inner();
    let ruleset = Ruleset::find(&slug).ok_or_else(|| {
        Refusal::new(
            Code::RulesetNotFound,
            format!("no ruleset is called {slug:?}; see GET /v1/rulesets"),
        )
    })?;
    let request = BoardRequest {
        cursor: query
            .cursor
            .as_deref()
            .map(BoardCursor::decode)
            .transpose()?
            .unwrap_or_default(),
        limit: within("limit", query.limit.unwrap_or(DEFAULT_ROWS), 1, MAX_ROWS)? as usize,
        min_games: within("min_games", query.min_games.unwrap_or(0), 0, 1_000_000)? as u32,
    };
    Ok(ok(&games.leaderboard(app, ruleset, request).await?))
}

/// A player of the caller's app: its rating in each ruleset it played rated (with its place on
/// the leaderboard), its games and wins, and its last rated games with links to their records.
/// A player with no rated game, or another app's, is `404 player_not_found`.
#[utoipa::path(
    get, path = "/v1/players/{player}", tag = "ratings",
    params(("player" = String, Path, description = "The app's id of the player")),
    security(("api_key" = []), ("player_token" = [])),
    responses(
        (status = 200, description = "The player", body = PlayerProfile),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn get_player(
    games: web::Data<Games>,
    caller: AppCaller,
    path: web::Path<String>,
) -> Result<HttpResponse, Refusal> {
    let app = app_of(&caller)?;
    let player = path.into_inner();
    if player.is_empty() || player.len() > MAX_PLAYER_ID {
        return Err(Refusal::new(
            Code::PlayerNotFound,
            format!("a player id is 1 to {MAX_PLAYER_ID} bytes: no player has this one"),
        ));
    }
    Ok(ok(&games.player_profile(app, &player, false).await?))
}

/// The caller's own profile, as `GET /v1/players/{player}` gives it (player token only); a
/// player with no rated game yet gets an empty one.
#[utoipa::path(
    get, path = "/v1/me", tag = "ratings",
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The caller's profile", body = PlayerProfile),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn get_me(games: web::Data<Games>, caller: AppCaller) -> Result<HttpResponse, Refusal> {
    let AppCaller::Player(app, player) = caller else {
        return Err(Refusal::new(
            Code::AppRequired,
            "this call reads a player's own profile: it needs one of an app's player tokens",
        ));
    };
    Ok(ok(&games
        .player_profile(&app.id, &player.who.player, true)
        .await?))
}
