//! Every route, mounted and documented from one list.
//!
//! One module per resource holds the handlers; [`configure`] mounts exactly the routes listed
//! below and [`Documented`] puts exactly their operations in the OpenAPI document.

pub mod games;
pub mod health;
pub mod lobby;
pub mod ratings;
pub mod records;
pub mod rulesets;
pub mod seats;
pub mod stream;
pub mod tickets;

use actix_web::http::Method;
use actix_web::{HttpRequest, web};

use crate::table::{Code, Refusal};

/// The pattern of the resource that served a request, kept with it so the metrics need not
/// match the path a second time.
#[derive(Clone, Copy, Debug)]
pub struct Route(pub &'static str);

/// The methods a resource takes, for the `Allow` header of its `405`.
#[derive(Clone, Debug)]
struct Allow(String);

macro_rules! routes {
    ($($path:literal => { $($method:ident => $module:ident :: $handler:ident),+ $(,)? })+) => {
        /// Mounts every route of the list.
        pub fn configure(cfg: &mut web::ServiceConfig) {
            $(
                cfg.service(
                    resource($path, &[$(Method::$method),+])
                        $(.route(web::route().method(Method::$method).to($module::$handler)))+
                );
            )+
        }

        /// Every route of the list, as (pattern, methods).
        pub const ROUTES: &[(&str, &[&str])] = &[$(($path, &[$(stringify!($method)),+])),+];

        /// The operations of every route of the list, for the OpenAPI document.
        #[derive(utoipa::OpenApi)]
        #[openapi(paths($($($module::$handler),+),+))]
        pub struct Documented;
    };
}

routes! {
    // Actix tries the patterns in this order, each with its regex: the routes of every post and
    // poll come first.
    "/v1/games/{id}/actions" => { GET => games::list_actions, POST => games::post_action }
    "/v1/games/{id}" => { GET => games::get_game, DELETE => games::delete_game }
    "/v1/games" => { POST => games::create_game, GET => lobby::list_open_games }
    "/v1/me/games" => { GET => lobby::list_my_games }
    "/v1/rulesets" => { GET => rulesets::list_rulesets }
    "/v1/rulesets/{ruleset}" => { GET => rulesets::get_ruleset }
    "/v1/rulesets/{ruleset}/components" => { GET => rulesets::get_components }
    "/v1/rulesets/{ruleset}/rules" => { GET => rulesets::get_rules }
    "/v1/rulesets/{ruleset}/leaderboard" => { GET => ratings::get_leaderboard }
    "/v1/players/{player}" => { GET => ratings::get_player }
    "/v1/me" => { GET => ratings::get_me }
    "/v1/games/{id}/hint" => { GET => games::get_hint }
    "/v1/games/{id}/abort" => { POST => games::abort_game }
    "/v1/games/{id}/events" => { GET => games::list_events }
    "/v1/games/{id}/record" => { GET => records::get_record }
    "/v1/records/verify" => { POST => records::verify_record }
    "/v1/records/replay" => { POST => records::replay_record }
    "/.well-known/jwks.json" => { GET => records::jwks }
    "/v1/games/{id}/stream" => { GET => stream::stream_game }
    "/v1/games/{id}/seats" => { POST => seats::join_first_open }
    "/v1/games/{id}/seats/{seat}" => { POST => seats::join_seat, PUT => seats::replace_seat }
    "/v1/games/{id}/seats/{seat}/resign" => { POST => seats::resign_seat }
    "/v1/games/{id}/seats/{seat}/token" => { POST => seats::reissue_token }
    "/v1/tickets" => { POST => tickets::create_ticket }
    "/v1/tickets/{id}" => { GET => tickets::get_ticket, DELETE => tickets::cancel_ticket }
    "/healthz" => { GET => health::healthz }
    "/readyz" => { GET => health::readyz }
    "/metrics" => { GET => health::metrics }
}

/// A resource that carries its pattern, and answers its other methods with a `405` problem
/// naming the methods it takes (`HEAD` with `GET`, which [`crate::startup`] serves as a `GET`).
fn resource(path: &'static str, methods: &[Method]) -> actix_web::Resource {
    let mut allow: Vec<&str> = methods.iter().map(Method::as_str).collect();
    if methods.contains(&Method::GET) {
        allow.push(Method::HEAD.as_str());
    }
    let allow = allow.join(", ");
    web::resource(path)
        .app_data(Route(path))
        .app_data(Allow(allow))
        .default_service(web::to(method_not_allowed))
}

async fn method_not_allowed(req: HttpRequest) -> Result<actix_web::HttpResponse, Refusal> {
    let allow = req.app_data::<Allow>().map(|a| a.0.as_str()).unwrap_or_default();
    Err(Refusal::method_not_allowed(req.method().as_str(), allow))
}

/// The answer for a path no route knows.
pub async fn not_found(req: HttpRequest) -> Result<actix_web::HttpResponse, Refusal> {
    Err(Refusal::new(
        Code::RouteNotFound,
        format!("no route is {} {}", req.method(), req.path()),
    ))
}
