//! Game records: a finished game's signed record, a record played again, and the keys that sign
//! them.

use actix_web::{HttpResponse, web};

use crate::http::body::RecordBody;
use crate::http::caller::ViewerCaller;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::records::{Frame, Record, Verdict};
use crate::service::Games;
use crate::table::{Code, GameId, Refusal};

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
    body: RecordBody<Value>,
) -> Result<HttpResponse, Refusal> {
    crate::records::objects_where_expected(&body.0)
        .map_err(|shape| Refusal::new(Code::MalformedJson, format!("the body is not a record: {shape}")))?;
    let record: Record = crate::records::parse(body.0)
        .map_err(|e| Refusal::refused_by_serde(Code::MalformedJson, "the body is not a record", e))?;
    if let Some(shape) = record.shape_error() {
        return Err(Refusal::new(
            Code::MalformedJson,
            format!("the body is not a record: {shape}"),
        ));
    }
    let games = games.into_inner();
    let verdict = actix_web::rt::task::spawn_blocking(move || games.verify_record(&record))
        .await
        .map_err(|_| Refusal::internal())?;
    Ok(HttpResponse::Ok().json(verdict))
}

/// A record and the step to replay it to.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayRequest {
    /// The record (as `GET /v1/games/{id}/record` gives it, or from a file).
    pub record: Record,
    /// How many of its steps to play (0: the setup alone; beyond the last, the end).
    #[schema(minimum = 0)]
    pub at: usize,
}

/// A record played to one of its steps: what the spectator and every seat saw then, and the
/// events that step wrote. The replay viewer (`/play/replay/{id}`) steps through a finished
/// game with it.
///
/// Only the seed's commitment is checked before the replay: any record replays, and shows
/// nothing of any game but itself. `422 invalid_record` when it does not replay to the step.
#[utoipa::path(
    post, path = "/v1/records/replay", tag = "records",
    request_body = ReplayRequest,
    responses(
        (status = 200, description = "The game at that step", body = Frame),
        (status = 400, response = crate::http::problem::BadRequest),
        (status = 413, response = crate::http::problem::PayloadTooLarge),
        (status = 422, response = crate::http::problem::Unprocessable),
    )
)]
pub async fn replay_record(body: RecordBody<Value>) -> Result<HttpResponse, Refusal> {
    if let Some(record) = body.0.get("record") {
        crate::records::objects_where_expected(record).map_err(|shape| {
            Refusal::new(
                Code::MalformedJson,
                format!("the body's record is not one: {shape}"),
            )
        })?;
    }
    let request: ReplayRequest = crate::records::parse(body.0).map_err(|e| {
        Refusal::refused_by_serde(Code::MalformedJson, "the body is not a record and a step", e)
    })?;
    if let Some(shape) = request.record.shape_error() {
        return Err(Refusal::new(
            Code::MalformedJson,
            format!("the body's record is not one: {shape}"),
        ));
    }
    let frame =
        actix_web::rt::task::spawn_blocking(move || crate::records::replay(&request.record, request.at))
            .await
            .map_err(|_| Refusal::internal())?;
    match frame {
        Ok(frame) => Ok(HttpResponse::Ok().json(frame)),
        Err(verdict) => Err(Refusal::new(
            Code::InvalidRecord,
            format!(
                "the record does not replay: {}{}",
                verdict.step.map(|s| format!("step {s}: ")).unwrap_or_default(),
                verdict.reason.unwrap_or_default()
            ),
        )),
    }
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
