//! Liveness, readiness and metrics.

use actix_web::{HttpResponse, web};

use crate::metrics::Metrics;
use crate::service::Games;
use crate::service::headroom::Headroom;
use crate::wire::Health;

/// Liveness: the process answers.
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "Alive", body = Health)))]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok",
        store: None,
        store_memory: None,
        creating: None,
        rules_versions: None,
    })
}

/// Readiness: the process answers and so does its store. With Redis it also reports the
/// store's memory and whether new games are accepted (`creating: false` once the store is
/// nearly full: running games go on, new ones are refused with `503 store_full`).
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses(
        (status = 200, description = "Ready", body = Health),
        (status = 503, response = crate::http::problem::ServiceUnavailable),
    ))]
pub async fn readyz(
    games: web::Data<Games>,
    headroom: web::Data<Headroom>,
) -> Result<HttpResponse, crate::table::Refusal> {
    games.ready().await?;
    let store_memory = headroom.reading();
    Ok(HttpResponse::Ok().json(Health {
        status: "ok",
        store: Some(games.store().kind()),
        store_memory,
        creating: Some(headroom.creation_allowed()),
        rules_versions: Some(games.rules().all().clone()),
    }))
}

/// Prometheus metrics (text exposition format).
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Metrics", body = String, content_type = "text/plain")))]
pub async fn metrics(metrics: web::Data<Metrics>, headroom: web::Data<Headroom>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(metrics.render(headroom.reading()))
}
