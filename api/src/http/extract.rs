//! What a request says, as typed values. Each extractor reads the path or one header once, at
//! the edge, and refuses it with its problem code; the service receives these values and never
//! sees a header.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::http::header::{self, Header, HeaderName};
use actix_web::{FromRequest, HttpRequest};

use roadie_engine::Seat;

use crate::service::Representation;
use crate::table::tickets::TicketId;
use crate::table::{Code, GameId, Precondition, Refusal, Revision};

/// The longest `Idempotency-Key` accepted.
pub const MAX_IDEMPOTENCY_KEY: usize = 200;

impl FromRequest for GameId {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(GameId::parse(req.match_info().get("id").unwrap_or_default()))
    }
}

impl FromRequest for TicketId {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(TicketId::parse(req.match_info().get("id").unwrap_or_default()))
    }
}

/// The seat in the path (`{seat}`): a number from 0, or `404 seat_not_found`. Whether the game
/// has that seat is the domain's to say, against the stored game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatInPath(pub Seat);

impl FromRequest for SeatInPath {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let raw = req.match_info().get("seat").unwrap_or_default();
        ready(
            raw.parse::<u16>()
                .map(|n| Self(Seat::new(n.into())))
                .map_err(|_| {
                    Refusal::new(
                        Code::SeatNotFound,
                        format!("a seat is a number from 0; {raw:?} is not one"),
                    )
                }),
        )
    }
}

/// `Idempotency-Key` and `Prefer`, named once: a header looked up by its text is parsed, and a
/// name `http` does not know is copied, on every request.
const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");
const PREFER: HeaderName = HeaderName::from_static("prefer");

/// A request header's text, or `400 malformed_header` when it is not visible ASCII.
fn header_text<'r>(req: &'r HttpRequest, name: &HeaderName) -> Result<Option<&'r str>, Refusal> {
    req.headers()
        .get(name)
        .map(|v| {
            v.to_str()
                .map_err(|_| Refusal::new(Code::MalformedHeader, format!("{name} is not visible ASCII")))
        })
        .transpose()
}

/// The revisions an `If-Match` or `If-None-Match` names, parsed by actix's typed header (RFC
/// 9110: `*`, or entity tags). Tags that name no revision of ours are left out: they match
/// nothing.
fn precondition<H: Header>(
    req: &HttpRequest,
    any: fn(&H) -> Option<&[header::EntityTag]>,
) -> Result<Option<Precondition>, Refusal> {
    let name = H::name();
    let Some(text) = header_text(req, &name)? else {
        return Ok(None);
    };
    let malformed = || {
        Refusal::new(
            Code::MalformedPrecondition,
            format!("{name} is `*` or entity tags such as \"7.0123456789abcdef0123456789abcdef\""),
        )
    };
    let parsed = H::parse(req).map_err(|_| malformed())?;
    // actix skips list items that are not entity tags; a client that sent one, or none at all,
    // gets told. Empty items between commas are allowed (RFC 9110 5.6.1).
    let items = text.split(',').filter(|item| !item.trim().is_empty()).count();
    Ok(Some(match any(&parsed) {
        None => Precondition::Any,
        Some(tags) if tags.len() != items || items == 0 => return Err(malformed()),
        Some(tags) => Precondition::Revisions(
            tags.iter()
                .filter_map(|tag| tag.tag().parse::<Revision>().ok())
                .collect(),
        ),
    }))
}

/// `If-Match`: apply only at these revisions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IfMatch(pub Option<Precondition>);

impl FromRequest for IfMatch {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(
            precondition::<header::IfMatch>(req, |h| match h {
                header::IfMatch::Any => None,
                header::IfMatch::Items(tags) => Some(tags),
            })
            .map(IfMatch),
        )
    }
}

/// `If-None-Match`: the revisions the client holds already.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IfNoneMatch(pub Option<Precondition>);

impl FromRequest for IfNoneMatch {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(
            precondition::<header::IfNoneMatch>(req, |h| match h {
                header::IfNoneMatch::Any => None,
                header::IfNoneMatch::Items(tags) => Some(tags),
            })
            .map(IfNoneMatch),
        )
    }
}

/// `Idempotency-Key`: 1 to [`MAX_IDEMPOTENCY_KEY`] visible ASCII characters, or `400`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdempotencyKey(pub Option<String>);

impl FromRequest for IdempotencyKey {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(match header_text(req, &IDEMPOTENCY_KEY) {
            Err(e) => Err(e),
            Ok(None) => Ok(IdempotencyKey(None)),
            Ok(Some(key))
                if !key.is_empty()
                    && key.len() <= MAX_IDEMPOTENCY_KEY
                    && key.bytes().all(|b| b.is_ascii_graphic()) =>
            {
                Ok(IdempotencyKey(Some(key.to_owned())))
            }
            Ok(Some(_)) => Err(Refusal::new(
                Code::MalformedIdempotencyKey,
                format!("an Idempotency-Key is 1 to {MAX_IDEMPOTENCY_KEY} visible ASCII characters"),
            )),
        })
    }
}

/// Whether a `Prefer` header (preferences separated by commas, each with optional `;`
/// parameters) asks for `return=minimal`.
fn prefers_minimal(prefer: &str) -> bool {
    prefer.split(',').any(|preference| {
        let token = preference.split(';').next().unwrap_or_default();
        let mut parts = token.splitn(2, '=');
        let name = parts.next().unwrap_or_default().trim();
        let value = parts.next().unwrap_or_default().trim().trim_matches('"');
        name.eq_ignore_ascii_case("return") && value.eq_ignore_ascii_case("minimal")
    })
}

impl FromRequest for Representation {
    type Error = Refusal;
    type Future = Ready<Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(header_text(req, &PREFER).map(|prefer| {
            if prefer.is_some_and(prefers_minimal) {
                Representation::Minimal
            } else {
                Representation::Full
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    fn if_match(value: &str) -> Result<IfMatch, Refusal> {
        let req = TestRequest::default()
            .insert_header(("if-match", value))
            .to_http_request();
        IfMatch::from_request(&req, &mut Payload::None).into_inner()
    }

    #[test]
    fn preconditions_keep_only_the_revisions_they_name() {
        let revision = Revision::first();
        assert_eq!(
            if_match(&format!("\"7\", W/\"{revision}\"")).ok(),
            Some(IfMatch(Some(Precondition::Revisions(vec![revision]))))
        );
        assert_eq!(if_match("*").ok(), Some(IfMatch(Some(Precondition::Any))));
        assert_eq!(
            if_match(&format!(",\"{revision}\",, ")).ok(),
            Some(IfMatch(Some(Precondition::Revisions(vec![revision]))))
        );
        for garbage in ["7", "\"7", "abc, \"7\"", "", ",", "\"a,b\""] {
            assert!(
                matches!(if_match(garbage), Err(e) if e.code() == Code::MalformedPrecondition),
                "{garbage}"
            );
        }
    }

    #[test]
    fn if_none_match_any_names_every_revision() {
        let req = TestRequest::default()
            .insert_header(("if-none-match", " * "))
            .to_http_request();
        let known = IfNoneMatch::from_request(&req, &mut Payload::None).into_inner();
        assert_eq!(known.ok(), Some(IfNoneMatch(Some(Precondition::Any))));
    }

    #[test]
    fn prefer_return_minimal_is_found_among_other_preferences() {
        assert!(prefers_minimal("return=minimal"));
        assert!(prefers_minimal("respond-async, Return = \"minimal\"; foo=bar"));
        assert!(!prefers_minimal("return=representation"));
        assert!(!prefers_minimal("handling=lenient"));
        assert!(!prefers_minimal(""));
    }

    #[test]
    fn only_hex_ids_of_the_right_length_can_name_a_game() {
        assert!(GameId::parse("0123456789abcdef01234567").is_ok());
        assert!(GameId::parse("0123456789abcdef0123456}").is_err());
        assert!(GameId::parse("short").is_err());
        assert_eq!(GameId::random().as_str().len(), crate::table::ID_BYTES * 2);
    }
}
