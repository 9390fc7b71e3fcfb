//! Who calls: the bearer credential, checked once at the edge and handed on as a typed caller
//! with its [`Pass`] (a seat, a player, an app or a spectator), or as the app a call acts for.
//!
//! The credential is told apart by its shape: an API key starts with `rk_`, a seat or host token
//! carries this server's own JWT header, and anything else is an app's player token (when apps
//! are configured).

use std::future::{Ready, ready};
use std::sync::Arc;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, web};
use roadie_engine::Seat;
use serde::Deserialize;

use crate::apps::{App, KEY_PREFIX, Player, Registry};
use crate::table::{Code, Credential, Holder, Pass, Refusal};
use crate::tokens::{Claims, Keys};

/// A credential as the call presented it, checked.
enum Presented {
    /// No `Authorization` header.
    Nothing,
    /// A seat or host token this server signed.
    Token(Claims),
    /// An app's API key.
    Key(Arc<App>),
    /// An app's player token.
    Player(Arc<App>, Player),
}

fn registry(req: &HttpRequest) -> Result<&Registry, Refusal> {
    req.app_data::<web::Data<Registry>>()
        .map(|r| r.get_ref())
        .ok_or_else(Refusal::internal)
}

/// The call's credential, checked: `401` for one that is not a valid key or token.
fn presented(req: &HttpRequest) -> Result<Presented, Refusal> {
    let Some(token) = bearer(req)? else {
        return Ok(Presented::Nothing);
    };
    let keys = req.app_data::<web::Data<Keys>>().ok_or_else(Refusal::internal)?;
    if keys.signed_here(token) {
        return keys.verify(token).map(Presented::Token);
    }
    let registry = registry(req)?;
    if !registry.enabled() {
        return keys.verify(token).map(Presented::Token);
    }
    let apps = registry.current();
    if token.starts_with(KEY_PREFIX) {
        return apps
            .app_of_key(token)
            .cloned()
            .map(Presented::Key)
            .ok_or_else(|| {
                Refusal::new(
                    Code::TokenInvalid,
                    "the API key is not one of an app of this server",
                )
            });
    }
    let player = apps.verify_player(token)?;
    let app = apps.app(&player.who.app).cloned().ok_or_else(Refusal::internal)?;
    Ok(Presented::Player(app, player))
}

fn app_required() -> Refusal {
    Refusal::new(
        Code::AppRequired,
        "apps are configured on this server: send an app's API key or one of its players' tokens \
         (`Authorization: Bearer <key or token>`)",
    )
}

/// `?seat=N`: the seat a player token names, where its player holds several.
#[derive(Deserialize)]
struct NamedSeat {
    seat: Option<u16>,
}

/// The seat the query names, checked whatever the credential (a seat token's own seat is the
/// one it plays, whatever the query says): `400 malformed_query` for anything but a seat number.
fn named_seat(req: &HttpRequest) -> Result<Option<Seat>, Refusal> {
    if !req.query_string().contains("seat") {
        return Ok(None);
    }
    web::Query::<NamedSeat>::from_query(req.query_string())
        .map(|q| q.into_inner().seat.map(|n| Seat::new(usize::from(n))))
        .map_err(|_| Refusal::new(Code::MalformedQuery, "seat is a seat number from 0 to 65535"))
}

/// `429` unless the calls of `key` are within the per-token rate (`ROADIE_TOKEN_RATE`).
fn admit(req: &HttpRequest, key: &str, seat: Option<usize>) -> Result<(), Refusal> {
    if let (Some(limits), Some(metrics)) = (
        req.app_data::<web::Data<crate::http::limits::Limits>>(),
        req.app_data::<web::Data<crate::metrics::Metrics>>(),
    ) {
        limits.admit_token(key, seat, metrics)?;
    }
    Ok(())
}

/// The pass of the call for the game in the path: `None` without a credential.
fn pass_of(req: &HttpRequest) -> Result<Option<Pass>, Refusal> {
    let game = req.match_info().get("id").unwrap_or_default();
    let named = named_seat(req)?;
    match presented(req)? {
        Presented::Nothing => {
            if registry(req)?.enabled() {
                Err(app_required())
            } else {
                Ok(None)
            }
        }
        Presented::Token(claims) => {
            if claims.game != game {
                return Err(Refusal::new(Code::WrongGame, "the token belongs to another game"));
            }
            admit(req, &claims.game, claims.seat.map(Seat::index))?;
            Ok(Some(Pass {
                holder: Holder::Token(Credential {
                    generation: claims.r#gen,
                    grant: claims.grant,
                }),
                seat: claims.seat,
            }))
        }
        Presented::Key(app) => Ok(Some(Pass {
            holder: Holder::App(app.id.clone()),
            seat: None,
        })),
        Presented::Player(_, player) => {
            admit(req, &format!("{game}/{}", player.who.player), None)?;
            Ok(Some(Pass {
                holder: Holder::Player(player.who),
                seat: named,
            }))
        }
    }
}

/// The bearer token a call carries, or `None` without an `Authorization` header.
fn bearer(req: &HttpRequest) -> Result<Option<&str>, Refusal> {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    // `HeaderValue::to_str` checks the token byte by byte; UTF-8 is checked a word at a time,
    // and a byte outside visible ASCII fails the token's own check after it.
    std::str::from_utf8(value.as_bytes())
        .ok()
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .map(|token| Some(token.trim()))
        .ok_or_else(|| {
            Refusal::new(
                Code::TokenInvalid,
                "the Authorization header must be `Bearer <token>`",
            )
        })
}

fn missing() -> Refusal {
    Refusal::new(
        Code::TokenMissing,
        "this call needs a bearer token (`Authorization: Bearer <token>`)",
    )
}

/// A caller that plays a seat of the game in the path: a seat token, or a player token of the
/// seat's player (the seat found in the game's table where it is loaded). Required.
#[derive(Clone, Debug)]
pub struct SeatCaller {
    /// Its pass.
    pub pass: Pass,
}

impl FromRequest for SeatCaller {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(match pass_of(req) {
            Ok(Some(Pass {
                holder: Holder::Token(_),
                seat: None,
            })) => Err(Refusal::new(
                Code::SeatRequired,
                "this call needs a seat token; the host token has no seat",
            )),
            Ok(Some(pass)) => Ok(SeatCaller { pass }),
            Ok(None) => Err(missing()),
            Err(e) => Err(e),
        })
    }
}

/// Whoever looks at the game in the path: a seat by its token, a player by its token, the
/// game's app by its key, or a spectator without one (the host token sees what a spectator
/// sees). Apps configured, a credential is required.
#[derive(Clone, Debug)]
pub struct ViewerCaller {
    /// Its pass.
    pub pass: Pass,
}

impl FromRequest for ViewerCaller {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(pass_of(req).map(|pass| ViewerCaller {
            pass: match pass {
                Some(Pass {
                    holder: Holder::Token(_),
                    seat: None,
                }) => Pass::default(),
                Some(pass) => pass,
                None => Pass::default(),
            },
        }))
    }
}

/// Who manages the game in the path: its host token, or its app's API key (whose ownership of
/// the game is checked where the game is read). Required.
#[derive(Clone, Debug)]
pub enum HostCaller {
    /// The game's host token.
    Host,
    /// An app's API key.
    App(Arc<str>),
    /// One of an app's players, who may not manage a game: refused `403` in its app's games,
    /// `404` in another app's, once the game is read.
    Player(Arc<str>),
}

impl HostCaller {
    /// The app whose credential this is, and whether it may manage the app's games.
    pub fn app(&self) -> Option<(&str, bool)> {
        match self {
            HostCaller::Host => None,
            HostCaller::App(app) => Some((app, true)),
            HostCaller::Player(app) => Some((app, false)),
        }
    }
}

impl FromRequest for HostCaller {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let game = req.match_info().get("id").unwrap_or_default();
        ready(match presented(req) {
            Ok(Presented::Token(claims)) if claims.game != game => {
                Err(Refusal::new(Code::WrongGame, "the token belongs to another game"))
            }
            Ok(Presented::Token(Claims { seat: None, .. })) => Ok(HostCaller::Host),
            Ok(Presented::Key(app)) => Ok(HostCaller::App(app.id.clone())),
            Ok(Presented::Player(app, _)) => Ok(HostCaller::Player(app.id.clone())),
            Ok(Presented::Token(_)) => Err(Refusal::new(
                Code::HostRequired,
                "only the host token or the game's app key may do this",
            )),
            Ok(Presented::Nothing) => Err(missing()),
            Err(e) => Err(e),
        })
    }
}

/// The app a call acts for, where apps are configured: creating games, listing them,
/// matchmaking.
#[derive(Clone, Debug)]
pub enum AppCaller {
    /// No apps are configured: anyone may.
    Open,
    /// An app, by its API key.
    App(Arc<App>),
    /// One of an app's players, by its token.
    Player(Arc<App>, Player),
}

impl AppCaller {
    /// The app, unless the server is open.
    pub fn app(&self) -> Option<&Arc<App>> {
        match self {
            AppCaller::Open => None,
            AppCaller::App(app) | AppCaller::Player(app, _) => Some(app),
        }
    }
}

impl FromRequest for AppCaller {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready((|| {
            if !registry(req)?.enabled() {
                return Ok(AppCaller::Open);
            }
            match presented(req)? {
                Presented::Key(app) => Ok(AppCaller::App(app)),
                Presented::Player(app, player) => Ok(AppCaller::Player(app, player)),
                Presented::Token(_) | Presented::Nothing => Err(app_required()),
            }
        })())
    }
}

/// `429` unless calls about the ticket in the path are within the per-token rate
/// (`ROADIE_TOKEN_RATE`), counted like a game token's.
fn admit_ticket(req: &HttpRequest) -> Result<(), Refusal> {
    if let (Some(limits), Some(metrics)) = (
        req.app_data::<web::Data<crate::http::limits::Limits>>(),
        req.app_data::<web::Data<crate::metrics::Metrics>>(),
    ) {
        let ticket = req.match_info().get("id").unwrap_or_default();
        limits.admit_token(ticket, None, metrics)?;
    }
    Ok(())
}

/// The holder of the matchmaking ticket in the path, by the ticket's bearer token (checked
/// against the ticket's record where the ticket is read). Required.
#[derive(Clone, Debug)]
pub struct TicketCaller {
    /// The token as sent.
    pub token: String,
}

impl FromRequest for TicketCaller {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(match bearer(req) {
            Ok(Some(token)) => admit_ticket(req).map(|()| TicketCaller {
                token: token.to_owned(),
            }),
            Ok(None) => Err(missing()),
            Err(e) => Err(e),
        })
    }
}
