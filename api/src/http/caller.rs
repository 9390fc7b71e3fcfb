//! Who calls: the bearer token of the game in the path, checked once at the edge and handed on
//! as a typed caller (a seat, a viewer or the host) with its credential.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, web};
use roadie_engine::{Seat, Viewer};

use crate::table::{Code, Credential, Refusal};
use crate::tokens::{Claims, Keys};

/// The bearer token's claims, checked, or `None` without an `Authorization` header.
fn claims_of(req: &HttpRequest) -> Result<Option<Claims>, Refusal> {
    let Some(token) = bearer(req)? else {
        return Ok(None);
    };
    let keys = req.app_data::<web::Data<Keys>>().ok_or(Refusal::internal())?;
    let claims = keys.verify(token)?;
    let game = req.match_info().get("id").unwrap_or_default();
    if claims.game != game {
        return Err(Refusal::new(Code::WrongGame, "the token belongs to another game"));
    }
    if let (Some(limits), Some(metrics)) = (
        req.app_data::<web::Data<crate::http::limits::Limits>>(),
        req.app_data::<web::Data<crate::metrics::Metrics>>(),
    ) {
        limits.admit_token(&claims.game, claims.seat.map(Seat::index), metrics)?;
    }
    Ok(Some(claims))
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

/// A seat of the game in the path, proven by its token, with the token's credential (checked
/// against the game's seat table where the game is loaded). Required.
#[derive(Clone, Copy, Debug)]
pub struct SeatCaller {
    /// The seat.
    pub seat: Seat,
    /// Its token's credential.
    pub credential: Credential,
}

impl FromRequest for SeatCaller {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(match claims_of(req) {
            Ok(Some(Claims {
                seat: Some(seat),
                r#gen,
                grant,
                ..
            })) => Ok(SeatCaller {
                seat,
                credential: Credential {
                    generation: r#gen,
                    grant,
                },
            }),
            Ok(Some(_)) => Err(Refusal::new(
                Code::SeatRequired,
                "this call needs a seat token; the host token has no seat",
            )),
            Ok(None) => Err(missing()),
            Err(e) => Err(e),
        })
    }
}

/// Whoever looks at the game in the path: a seat by its token, or a spectator without one
/// (the host token sees what a spectator sees), with the token's credential.
#[derive(Clone, Copy, Debug)]
pub struct ViewerCaller {
    /// Who looks.
    pub viewer: Viewer,
    /// The token's credential (the default for a spectator).
    pub credential: Credential,
}

impl FromRequest for ViewerCaller {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(claims_of(req).map(|claims| match claims {
            Some(Claims {
                seat: Some(seat),
                r#gen,
                grant,
                ..
            }) => ViewerCaller {
                viewer: Viewer::Seat(seat),
                credential: Credential {
                    generation: r#gen,
                    grant,
                },
            },
            _ => ViewerCaller {
                viewer: Viewer::Spectator,
                credential: Credential::default(),
            },
        }))
    }
}

/// The host of the game in the path, proven by the host token. Required.
#[derive(Clone, Copy, Debug)]
pub struct HostCaller;

impl FromRequest for HostCaller {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(match claims_of(req) {
            Ok(Some(Claims { seat: None, .. })) => Ok(HostCaller),
            Ok(Some(_)) => Err(Refusal::new(
                Code::HostRequired,
                "only the host token may do this",
            )),
            Ok(None) => Err(missing()),
            Err(e) => Err(e),
        })
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
