//! `GET /v1/games`: the games with open seats.

use actix_web::http::header;
use actix_web::{HttpResponse, web};

use crate::service::Games;
use crate::service::Listing;
use crate::table::Code;
use crate::table::Refusal;
use crate::wire::lobby::{DEFAULT_LISTED, ListQuery, MAX_LISTED, OpenGames};
use roadie_engine::Ruleset;

/// The lobby's query as the service's command: `400 malformed_query` for a limit out of range,
/// `404 ruleset_not_found` for an unknown ruleset.
fn listing(query: &ListQuery) -> Result<Listing, Refusal> {
    let limit = match query.limit {
        None => DEFAULT_LISTED,
        Some(n) if (1..=MAX_LISTED as u64).contains(&n) => n as usize,
        Some(n) => {
            return Err(Refusal::new(
                Code::MalformedQuery,
                format!("limit is from 1 to {MAX_LISTED}; it was {n}"),
            ));
        }
    };
    let ruleset = match query.ruleset.as_deref() {
        Some(slug) => Some(Ruleset::find(slug).ok_or_else(|| {
            Refusal::new(
                Code::RulesetNotFound,
                format!("no ruleset is called {slug:?}; see GET /v1/rulesets"),
            )
        })?),
        None => None,
    };
    Ok(Listing { ruleset, limit })
}

/// Games with a seat anyone may join, the newest first: public metadata only (ids, rulesets,
/// who sits where, versions), never a token or a view. Every process answers the same, from
/// the store.
#[utoipa::path(
    get, path = "/v1/games", tag = "seats",
    params(ListQuery),
    responses(
        (status = 200, description = "The games with open seats", body = OpenGames),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    )
)]
pub async fn list_open_games(
    games: web::Data<Games>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, Refusal> {
    let list = games.open_games(listing(&query)?).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(list))
}
