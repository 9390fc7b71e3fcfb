//! Game records: a finished game's signed record, a record played again, and the keys that sign
//! them.

use actix_web::{HttpResponse, web};

use crate::http::body::RecordBody;
use crate::http::caller::ViewerCaller;
use crate::records::{Record, Verdict};
use crate::service::Games;
use crate::table::{GameId, Refusal};

/// A finished game's record (`roadie.record/1`): its setup, every step in order, the outcome and
/// a digest of its event log, signed by the server.
///
/// The record replays offline with a copy of the rules: the seed checks against the commitment
/// the game published at creation, each action is played again, and the outcome and the event
/// log's digest come out the same. `POST /v1/records/verify` (or `roadie verify <file>`) does
/// it; the signature is a JWS with a detached payload over the record's canonical JSON without
/// `signature` (keys sorted, no spaces), checked with `GET /.well-known/jwks.json`. Anyone who
/// may look at the game may read it: once it is over, everything in it is public.
#[utoipa::path(
    get, path = "/v1/games/{id}/record", tag = "records",
    params(("id" = String, Path, description = "The game's id")),
    security((), ("seat_token" = []), ("player_token" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "The record", body = Record),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 401, response = crate::http::problem::Unauthorized),
        (status = 403, response = crate::http::problem::Forbidden),
        (status = 404, response = crate::http::problem::NotFound),
        (status = 409, response = crate::http::problem::Conflict),
    )
)]
pub async fn get_record(
    games: web::Data<Games>,
    id: GameId,
    viewer: ViewerCaller,
) -> Result<HttpResponse, Refusal> {
    let record = games.record(&id, &viewer.pass).await?;
    Ok(HttpResponse::Ok().json(record))
}

/// Play a record again with this server's rules and check it: its format and rules version, the
/// seed against its commitment, every step's legality, the outcome, the event log's digest and
/// the signature (with every key this server signs or signed with).
///
/// The answer is `200` either way: `ok`, or the first check that failed, the step where it
/// did, and why. A body that is not a record is `400`.
#[utoipa::path(
    post, path = "/v1/records/verify", tag = "records",
    request_body = Record,
    responses(
        (status = 200, description = "What the record's replay found", body = Verdict),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 413, response = crate::http::problem::PayloadTooLarge),
    )
)]
pub async fn verify_record(
    games: web::Data<Games>,
    record: RecordBody<Record>,
) -> Result<HttpResponse, Refusal> {
    let games = games.into_inner();
    let verdict = actix_web::rt::task::spawn_blocking(move || games.verify_record(&record.0))
        .await
        .map_err(|_| Refusal::internal())?;
    Ok(HttpResponse::Ok().json(verdict))
}

/// The public keys that check game records' signatures (a JWK Set of Ed25519 keys): the key
/// signing now and every key this server was told it signed with before.
#[utoipa::path(
    get, path = "/.well-known/jwks.json", tag = "records",
    responses((status = 200, description = "A JWK Set", body = Object, content_type = "application/jwk-set+json")),
)]
pub async fn jwks(games: web::Data<Games>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/jwk-set+json")
        .insert_header(("Cache-Control", "public, max-age=300"))
        .body(games.record_keys().jwks().to_string())
}
