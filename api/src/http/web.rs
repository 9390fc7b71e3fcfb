//! The web table: a lobby at `/play/`, a table per game at `/play/{id}` and a replay viewer at
//! `/play/replay/{id}` (or `/play/replay/` for a record file), plain HTML, CSS and ES modules from
//! `api/web/`, compiled into the binary. The pages call the public API only, and
//! hold seat tokens in the URL fragment and `sessionStorage`, so no token reaches a server log.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};

use crate::http::routes;
use crate::table::Refusal;

/// Scripts and styles from this origin only: no inline script or style, no plugin, no frame.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const LOBBY: &str = include_str!("../../web/lobby.html");
const TABLE: &str = include_str!("../../web/table.html");
const REPLAY: &str = include_str!("../../web/replay.html");

/// Every asset under `/play/assets/`, by file name.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../../web/style.css"),
    ),
    ("api.js", JS, include_str!("../../web/api.js")),
    ("lobby.js", JS, include_str!("../../web/lobby.js")),
    ("table.js", JS, include_str!("../../web/table.js")),
    ("replay.js", JS, include_str!("../../web/replay.js")),
    ("tree.js", JS, include_str!("../../web/tree.js")),
    ("texts.js", JS, include_str!("../../web/texts.js")),
    ("schema-form.js", JS, include_str!("../../web/schema-form.js")),
    ("machine.js", JS, include_str!("../../web/machine.js")),
    (
        "shrewd-producer.js",
        JS,
        include_str!("../../web/shrewd-producer.js"),
    ),
    (
        "rock-the-world.js",
        JS,
        include_str!("../../web/rock-the-world.js"),
    ),
    ("show-business.js", JS, include_str!("../../web/show-business.js")),
];

const JS: &str = "text/javascript; charset=utf-8";
const HTML: &str = "text/html; charset=utf-8";

/// Mounts the pages and their assets.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/play",
        web::get().to(|| async {
            HttpResponse::PermanentRedirect()
                .insert_header((header::LOCATION, "/play/"))
                .finish()
        }),
    )
    .route("/play/", web::get().to(|| async { page(HTML, LOBBY) }))
    .route("/play/assets/{file}", web::get().to(asset))
    .route(
        "/play/replay",
        web::get().to(|| async {
            HttpResponse::PermanentRedirect()
                .insert_header((header::LOCATION, "/play/replay/"))
                .finish()
        }),
    )
    // Before `/play/{id}`: the replay viewer, of a record file or of game `{id}`'s record.
    .route("/play/replay/", web::get().to(|| async { page(HTML, REPLAY) }))
    .route(
        "/play/replay/{id}",
        web::get().to(|| async { page(HTML, REPLAY) }),
    )
    .route("/play/{id}", web::get().to(|| async { page(HTML, TABLE) }));
}

async fn asset(req: HttpRequest, file: web::Path<String>) -> Result<HttpResponse, Refusal> {
    match ASSETS.iter().find(|(name, _, _)| *name == file.as_str()) {
        Some((_, content_type, body)) => Ok(page(content_type, body)),
        None => routes::not_found(req).await,
    }
}

fn page(content_type: &str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, content_type))
        .insert_header((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}
