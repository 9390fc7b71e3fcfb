//! `GET /v1/games`: the games with open seats.

use actix_web::http::header;
use actix_web::{HttpResponse, web};

use crate::domain::Games;
use crate::error::ApiError;
use crate::lobby::{ListQuery, OpenGames};

/// Games with a seat anyone may join, the newest first: public metadata only (ids, rulesets,
/// who sits where, versions), never a token or a view. Every process answers the same, from
/// the store.
#[utoipa::path(
    get, path = "/v1/games", tag = "seats",
    params(ListQuery),
    responses(
        (status = 200, description = "The games with open seats", body = OpenGames),
        (status = 400, response = crate::error::BadRequest),
        (status = 404, response = crate::error::NotFound),
        (status = 503, response = crate::error::ServiceUnavailable),
    )
)]
pub async fn list_open_games(
    games: web::Data<Games>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let list = games.open_games(&query).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(list))
}
