//! The one error type of the service, and the one place it becomes HTTP.
//!
//! Every error leaves as `application/problem+json` (RFC 9457) with a stable `code` from the
//! closed list [`Code`], which owns each code's status and says what a client should do.

use std::borrow::Cow;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError, error};
use roadie_engine::{Rejection, RejectionCode, Seat};
use serde::Serialize;
use serde_json::value::RawValue;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::{RefOr, Response, ResponseBuilder};
use utoipa::{PartialSchema, ToResponse, ToSchema};

use crate::store::{Revision, StoreError};

macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $text:literal, $status:ident, $advice:literal;)+) => {
        /// Every problem the service reports. Each code has one status, and a client can act on
        /// the code alone; `detail` says more, for a person.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $($(#[$doc])* #[doc = $advice] $variant,)+
        }

        impl Code {
            /// Every code, in the order the document lists them.
            pub const ALL: &'static [Code] = &[$(Code::$variant),+];

            /// The code as sent in `code` and `type`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $text,)+
                }
            }

            /// The status every problem with this code is sent with.
            pub fn status(self) -> StatusCode {
                match self {
                    $(Code::$variant => StatusCode::$status,)+
                }
            }

            /// What the code means and what the client should do.
            pub fn advice(self) -> &'static str {
                match self {
                    $(Code::$variant => $advice,)+
                }
            }
        }
    };
}

codes! {
    MalformedJson = "malformed_json", BAD_REQUEST,
        "The body is not JSON of the expected shape, or has unknown fields. Fix the request.";
    MalformedAction = "malformed_action", BAD_REQUEST,
        "The action is not one of the ruleset's actions; `legal_actions` lists what the seat may post.";
    MalformedQuery = "malformed_query", BAD_REQUEST,
        "A query parameter is not of its documented type. Fix the request.";
    MalformedHeader = "malformed_header", BAD_REQUEST,
        "A header is not visible ASCII. Fix the request.";
    MalformedPrecondition = "malformed_precondition", BAD_REQUEST,
        "`If-Match` or `If-None-Match` is not `*` or entity tags. Send the `ETag` as it was given.";
    MalformedIdempotencyKey = "malformed_idempotency_key", BAD_REQUEST,
        "`Idempotency-Key` is not 1 to 200 visible ASCII characters.";
    UnreadableBody = "unreadable_body", BAD_REQUEST,
        "The body could not be read (the connection broke while it was sent). Send it again.";
    TokenMissing = "token_missing", UNAUTHORIZED,
        "The call needs `Authorization: Bearer <token>`.";
    TokenInvalid = "token_invalid", UNAUTHORIZED,
        "The token is not one this service signed, or the header is not `Bearer <token>`.";
    TokenExpired = "token_expired", UNAUTHORIZED,
        "The token has expired.";
    TokenRevoked = "token_revoked", UNAUTHORIZED,
        "The seat's token was replaced (the host reissued it, the seat resigned or was given to a bot). Ask the host for the new one.";
    WrongGame = "wrong_game", FORBIDDEN,
        "The token belongs to another game.";
    SeatRequired = "seat_required", FORBIDDEN,
        "The call needs a seat's token; the host token has no seat.";
    HostRequired = "host_required", FORBIDDEN,
        "Only the host token may do this.";
    NotYourSeat = "not_your_seat", FORBIDDEN,
        "The token plays another seat than the path names.";
    NoSuchSeat = "no_such_seat", FORBIDDEN,
        "The token names a seat the game does not have.";
    SeatNotFound = "seat_not_found", NOT_FOUND,
        "The game has no such seat; `seats` in the game says how many it has.";
    GameNotFound = "game_not_found", NOT_FOUND,
        "No game has this id (it never existed, was deleted, or expired).";
    RulesetNotFound = "ruleset_not_found", NOT_FOUND,
        "No ruleset has this slug; `GET /v1/rulesets` lists them.";
    RouteNotFound = "route_not_found", NOT_FOUND,
        "No route has this path.";
    MethodNotAllowed = "method_not_allowed", METHOD_NOT_ALLOWED,
        "The route does not take this method; `Allow` lists those it takes.";
    BodyTimeout = "body_timeout", REQUEST_TIMEOUT,
        "The body did not arrive within the server's time; the connection is closed. Send it whole, faster.";
    NotYourTurn = "not_your_turn", CONFLICT,
        "The seat may not act now; `to_act` lists who may. Wait for the game to change.";
    GameOver = "game_over", CONFLICT,
        "The game is over: nothing more can be posted.";
    Contention = "contention", CONFLICT,
        "The game kept changing while the action was applied. Retry.";
    SeatTaken = "seat_taken", CONFLICT,
        "The seat is not open (someone joined it first, or it is a player's or a bot's). `occupants` in the game says which seats are open.";
    NoOpenSeat = "no_open_seat", CONFLICT,
        "Every seat of the game is taken. Find another game with `GET /v1/games?status=open`.";
    SeatNotPlayed = "seat_not_played", CONFLICT,
        "The seat has no player to hold a token (it is open or a bot's).";
    CursorAhead = "cursor_ahead", CONFLICT,
        "The cursor (`after`, `Last-Event-ID`) is beyond the end of the game's log, which `last_seq` gives: the events it names are not in the log (the store lost recent writes, or the number was made up). Read the game and resume from `last_seq` or earlier.";
    IdempotencyKeyReused = "idempotency_key_reused", CONFLICT,
        "This `Idempotency-Key` was used for another action. Use a new key for a new action.";
    VersionMismatch = "version_mismatch", PRECONDITION_FAILED,
        "`If-Match` does not name the game's revision; `current_revision` does. Read the game again.";
    PayloadTooLarge = "payload_too_large", PAYLOAD_TOO_LARGE,
        "The body is larger than the server accepts.";
    IllegalAction = "illegal_action", UNPROCESSABLE_ENTITY,
        "The rules refuse the action now; `legal_actions` lists what the seat may post.";
    InvalidSeats = "invalid_seats", UNPROCESSABLE_ENTITY,
        "The ruleset does not allow this many seats; `GET /v1/rulesets` says how many it does.";
    InvalidOptions = "invalid_options", UNPROCESSABLE_ENTITY,
        "The ruleset refuses these options; `GET /v1/rulesets/{ruleset}` lists them.";
    InvalidName = "invalid_name", UNPROCESSABLE_ENTITY,
        "A name is plain text of 1 to 32 characters once trimmed, without control characters.";
    InvalidSeed = "invalid_seed", UNPROCESSABLE_ENTITY,
        "A seed is at most 2^53 - 1.";
    InvalidWebhook = "invalid_webhook", UNPROCESSABLE_ENTITY,
        "The webhook URL is not http(s), is over 2048 bytes, or names a host the server's operator does not allow (or the server allows none); `detail` says which.";
    InvalidClock = "invalid_clock", UNPROCESSABLE_ENTITY,
        "A clock gives each decision 1 to 86400 seconds and each seat a bank of 0 to 604800 seconds.";
    RateLimited = "rate_limited", TOO_MANY_REQUESTS,
        "Too many requests (games created by this address, or calls by this token). Retry after `Retry-After` seconds.";
    TooManyConnections = "too_many_connections", TOO_MANY_REQUESTS,
        "This address holds as many connections as it may; this one is closed. Reuse the others.";
    StoreUnavailable = "store_unavailable", SERVICE_UNAVAILABLE,
        "The game store did not answer and nothing was changed. Retry after `Retry-After` seconds.";
    OutcomeUnknown = "outcome_unknown", SERVICE_UNAVAILABLE,
        "The store did not confirm a write that may have been applied. Retry only with the same `Idempotency-Key` (it answers with the first outcome), or read the game first.";
    StoreFull = "store_full", SERVICE_UNAVAILABLE,
        "The store is full and nothing was changed. New games are refused first, from a share of the store's memory on, so that running games keep room to finish in; a write to a running game is refused so only if the store filled up regardless. Retry later.";
    Internal = "internal", INTERNAL_SERVER_ERROR,
        "A fault of the server, never of the request; it is logged.";
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl PartialSchema for Code {
    fn schema() -> RefOr<Schema> {
        let lines: Vec<String> = Code::ALL
            .iter()
            .map(|code| {
                format!(
                    "- `{}` ({}): {}",
                    code.as_str(),
                    code.status().as_u16(),
                    code.advice()
                )
            })
            .collect();
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(Code::ALL.iter().map(|c| c.as_str())))
            .description(Some(format!(
                "Every problem code, with its status and what to do:\n\n{}",
                lines.join("\n")
            )))
            .into()
    }
}

impl ToSchema for Code {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("ProblemCode")
    }
}

/// What some problems carry besides their code and detail.
#[derive(Debug, Default)]
enum Extra {
    #[default]
    Nothing,
    /// The seat's legal actions (`malformed_action`, `illegal_action`).
    LegalActions(Box<RawValue>),
    /// The seats that may act (`not_your_turn`).
    ToAct(Vec<Seat>),
    /// The game's revision (`version_mismatch`).
    Current(Revision),
    /// Seconds until the client may try again (`rate_limited`).
    RetryAfter(u64),
    /// The methods the route takes (`method_not_allowed`).
    Allow(String),
    /// The sequence number of the log's last event (`cursor_ahead`).
    LastSeq(u64),
}

/// Everything a request can fail with: a [`Code`], a detail for a person, and what some codes
/// carry.
#[derive(Debug, thiserror::Error)]
#[error("{detail}")]
pub struct ApiError {
    code: Code,
    detail: String,
    extra: Extra,
}

/// The body of every error response (`application/problem+json`).
#[derive(Serialize, ToSchema)]
pub struct Problem<'a> {
    /// A URI naming the kind of problem: `urn:roadie:problem:<code>`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The HTTP reason phrase.
    pub title: &'a str,
    /// The HTTP status.
    pub status: u16,
    /// What went wrong, for a person.
    pub detail: String,
    /// Stable machine-readable code.
    pub code: Code,
    /// The caller's legal actions now (with `illegal_action` and `malformed_action`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<crate::model::AnyAction>>)]
    pub legal_actions: Option<&'a RawValue>,
    /// The seats that may act now (with `not_your_turn`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<usize>>)]
    pub to_act: Option<&'a [Seat]>,
    /// The game's current version (with `version_mismatch`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub current_version: Option<u64>,
    /// The game's current revision, its `ETag` (with `version_mismatch`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_revision: Option<String>,
    /// The sequence number of the last event in the game's log, 0 when it is empty (with
    /// `cursor_ahead`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub last_seq: Option<u64>,
}

macro_rules! responses {
    ($($name:ident = $status:ident;)+) => {
        $(
            /// A problem response of this status, with the codes it may carry.
            pub struct $name;

            impl<'s> ToResponse<'s> for $name {
                fn response() -> (&'s str, RefOr<Response>) {
                    (stringify!($name), problem_response(StatusCode::$status))
                }
            }
        )+
    };
}

responses! {
    BadRequest = BAD_REQUEST;
    Unauthorized = UNAUTHORIZED;
    Forbidden = FORBIDDEN;
    NotFound = NOT_FOUND;
    RequestTimeout = REQUEST_TIMEOUT;
    Conflict = CONFLICT;
    PreconditionFailed = PRECONDITION_FAILED;
    PayloadTooLarge = PAYLOAD_TOO_LARGE;
    Unprocessable = UNPROCESSABLE_ENTITY;
    TooManyRequests = TOO_MANY_REQUESTS;
    ServiceUnavailable = SERVICE_UNAVAILABLE;
}

/// The shared response of `status`: a [`Problem`] whose description lists the codes sent with it.
fn problem_response(status: StatusCode) -> RefOr<Response> {
    let codes: Vec<String> = Code::ALL
        .iter()
        .filter(|c| c.status() == status)
        .map(|c| format!("`{}`", c.as_str()))
        .collect();
    let response = ResponseBuilder::new()
        .description(format!(
            "{}: a problem with code {}",
            status.canonical_reason().unwrap_or("Error"),
            codes.join(", ")
        ))
        .content(
            "application/problem+json",
            utoipa::openapi::ContentBuilder::new()
                .schema(Some(utoipa::openapi::Ref::from_schema_name("Problem")))
                .build(),
        );
    if matches!(
        status,
        StatusCode::TOO_MANY_REQUESTS | StatusCode::SERVICE_UNAVAILABLE
    ) {
        response.header("Retry-After", retry_after_header()).into()
    } else {
        response.into()
    }
}

/// `Retry-After`, as every `429` and `503` problem carries it (see [`ApiError::error_response`]).
fn retry_after_header() -> utoipa::openapi::header::Header {
    utoipa::openapi::header::HeaderBuilder::new()
        .schema(Some(
            ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)),
        ))
        .description(Some("Seconds to wait before trying again"))
        .build()
}

impl ApiError {
    /// A problem with `code`, explained by `detail`.
    pub fn new(code: Code, detail: impl Into<String>) -> Self {
        Self {
            code,
            detail: detail.into(),
            extra: Extra::Nothing,
        }
    }

    /// The code sent.
    pub fn code(&self) -> Code {
        self.code
    }

    /// `409 cursor_ahead`: `after` names an event beyond the log, whose last is `last_seq`.
    pub fn cursor_ahead(after: u64, last_seq: u64) -> Self {
        let mut error = Self::new(
            Code::CursorAhead,
            format!(
                "the log ends at event {last_seq}, before the cursor {after}: resume from {last_seq} or earlier"
            ),
        );
        error.extra = Extra::LastSeq(last_seq);
        error
    }

    /// With the seat's legal actions.
    pub fn with_legal_actions(mut self, legal_actions: Box<RawValue>) -> Self {
        self.extra = Extra::LegalActions(legal_actions);
        self
    }

    /// With the seats that may act.
    pub fn with_to_act(mut self, to_act: Vec<Seat>) -> Self {
        self.extra = Extra::ToAct(to_act);
        self
    }

    /// `404 game_not_found` for a game id that names no game.
    pub fn game_not_found(id: &str) -> Self {
        Self::new(Code::GameNotFound, format!("no game has the id {id:?}"))
    }

    /// `412`: `If-Match` does not name the game's revision.
    pub fn version_mismatch(current: Revision) -> Self {
        let mut error = Self::new(
            Code::VersionMismatch,
            format!("If-Match does not name the game's revision; the game is at revision {current}"),
        );
        error.extra = Extra::Current(current);
        error
    }

    /// `405`: the route takes only `allow` (methods separated by commas).
    pub fn method_not_allowed(method: &str, allow: &str) -> Self {
        let mut error = Self::new(
            Code::MethodNotAllowed,
            format!("this route does not take {method}; it takes {allow}"),
        );
        error.extra = Extra::Allow(allow.to_owned());
        error
    }

    /// `429`: over a rate limit, for `retry_after` seconds.
    pub fn rate_limited(retry_after: u64, detail: impl Into<String>) -> Self {
        let mut error = Self::new(Code::RateLimited, detail);
        error.extra = Extra::RetryAfter(retry_after.max(1));
        error
    }

    /// `413`: a body over `limit` bytes.
    pub fn payload_too_large(limit: usize) -> Self {
        Self::new(
            Code::PayloadTooLarge,
            format!("the body is larger than {limit} bytes"),
        )
    }

    /// `503 store_unavailable`: nothing was changed.
    pub fn store_unavailable() -> Self {
        Self::new(
            Code::StoreUnavailable,
            "the game store is unavailable; nothing was changed",
        )
    }

    /// `503 outcome_unknown`: a write may have been applied.
    pub fn outcome_unknown() -> Self {
        Self::new(
            Code::OutcomeUnknown,
            "the store did not confirm the write and it may have been applied; retry with the same \
             Idempotency-Key (or read the game) to learn the outcome",
        )
    }

    /// `503 store_full`: the store has no room for a new game; nothing was changed.
    pub fn store_full() -> Self {
        Self::new(
            Code::StoreFull,
            "the game store is nearly full: no new game is created until room is freed; nothing was changed",
        )
    }

    /// `500`: a fault of the server; the cause is logged where it is known, never sent.
    pub fn internal() -> Self {
        Self::new(Code::Internal, "internal error")
    }

    /// A problem with `code` for a value serde refused: `context`, then serde's message with its
    /// Rust type names said in JSON's words (see [`plain_types`]).
    pub fn refused_by_serde(code: Code, context: &str, err: impl std::fmt::Display) -> Self {
        Self::new(code, format!("{context}: {}", plain_types(&err.to_string())))
    }

    /// Maps an engine rejection, with what the seat may do instead. A malformed action's reason
    /// is serde's message about the posted action, said in JSON's words.
    pub fn from_rejection(rejection: Rejection, legal_actions: Box<RawValue>, to_act: Vec<Seat>) -> Self {
        let detail = rejection.reason;
        match rejection.code {
            RejectionCode::NotYourTurn => Self::new(Code::NotYourTurn, detail).with_to_act(to_act),
            RejectionCode::GameOver => Self::new(Code::GameOver, detail),
            RejectionCode::IllegalAction => {
                Self::new(Code::IllegalAction, detail).with_legal_actions(legal_actions)
            }
            RejectionCode::MalformedAction => {
                Self::new(Code::MalformedAction, plain_types(&detail)).with_legal_actions(legal_actions)
            }
            RejectionCode::NoSuchSeat => Self::new(Code::NoSuchSeat, detail),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Unavailable(cause) | StoreError::Refused(cause) => {
                tracing::warn!(%cause, "store unavailable");
                ApiError::store_unavailable()
            }
            StoreError::Full(cause) => {
                tracing::warn!(%cause, "store full");
                ApiError::new(
                    Code::StoreFull,
                    "the game store is full and refused the write; nothing was changed",
                )
            }
            StoreError::Corrupt(cause) => {
                tracing::error!(%cause, "stored game does not read back");
                ApiError::internal()
            }
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.code.status()
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.code.status();
        let code = self.code;
        let (legal_actions, to_act, current) = match &self.extra {
            Extra::LegalActions(legal) => (Some(&**legal), None, None),
            Extra::ToAct(to_act) => (None, Some(to_act.as_slice()), None),
            Extra::Current(current) => (None, None, Some(*current)),
            _ => (None, None, None),
        };
        let problem = Problem {
            kind: format!("urn:roadie:problem:{}", code.as_str()),
            title: status.canonical_reason().unwrap_or("Error"),
            status: status.as_u16(),
            detail: self.detail.clone(),
            code,
            legal_actions,
            to_act,
            current_version: current.map(|c| c.number),
            current_revision: current.map(|c| c.to_string()),
            last_seq: match self.extra {
                Extra::LastSeq(last_seq) => Some(last_seq),
                _ => None,
            },
        };
        let body = serde_json::to_vec(&problem).unwrap_or_default();
        let mut response = HttpResponse::build(status);
        response.insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        ));
        match code {
            Code::StoreUnavailable | Code::OutcomeUnknown => {
                response.insert_header((header::RETRY_AFTER, HeaderValue::from_static("1")));
            }
            Code::StoreFull => {
                response.insert_header((header::RETRY_AFTER, HeaderValue::from_static("30")));
            }
            Code::TooManyConnections => {
                response.insert_header((header::RETRY_AFTER, HeaderValue::from_static("1")));
                response.force_close();
            }
            Code::BodyTimeout => {
                response.force_close();
            }
            Code::TokenMissing | Code::TokenInvalid | Code::TokenExpired => {
                response.insert_header((header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer")));
            }
            _ => {}
        }
        match &self.extra {
            Extra::RetryAfter(seconds) => {
                response.insert_header((header::RETRY_AFTER, HeaderValue::from(*seconds)));
            }
            Extra::Current(current) => {
                if let Ok(etag) = HeaderValue::from_str(&format!("\"{current}\"")) {
                    response.insert_header((header::ETAG, etag));
                }
            }
            Extra::Allow(allow) => {
                if let Ok(allow) = HeaderValue::from_str(allow) {
                    response.insert_header((header::ALLOW, allow));
                }
            }
            _ => {}
        }
        response.body(body)
    }
}

/// The whole-number query parameters and their bounds, for errors that name them.
/// The whole-number query parameters and their bounds, by the path they are read on.
fn query_bounds(path: &str, name: &str) -> Option<(u64, u64)> {
    match name {
        "wait" => Some((0, 30)),
        "limit" if path == "/v1/games" => Some((1, crate::lobby::MAX_LISTED as u64)),
        "limit" => Some((1, 5000)),
        "after" => Some((0, crate::model::MAX_SAFE_INTEGER)),
        _ => None,
    }
}

/// actix's query-string extractor errors, as problems naming the parameter at fault.
pub fn query_error(err: error::QueryPayloadError, path: &str, query: &str) -> ApiError {
    let pairs = actix_web::web::Query::<Vec<(String, String)>>::from_query(query)
        .map(|q| q.into_inner())
        .unwrap_or_default();
    let bad = pairs.into_iter().find_map(|(name, value)| {
        let (min, max) = query_bounds(path, &name)?;
        let fits = value.parse::<u64>().is_ok_and(|v| (min..=max).contains(&v));
        (!fits).then(|| format!("{name} is a whole number from {min} to {max}; it was {value:?}"))
    });
    match bad {
        Some(bad) => ApiError::new(Code::MalformedQuery, bad),
        None => ApiError::refused_by_serde(Code::MalformedQuery, "the query string is not accepted", err),
    }
}

/// `detail` with the Rust type names serde puts in its messages (`expected usize`, `expected
/// struct CreateGame`) said in JSON's words.
pub fn plain_types(detail: &str) -> String {
    const WORDS: [(&str, &str); 12] = [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u64", "a whole number from 0 to 18446744073709551615"),
        ("usize", "a whole number from 0 to 18446744073709551615"),
        ("i8", "a whole number from -128 to 127"),
        ("i16", "a whole number from -32768 to 32767"),
        ("i32", "a whole number from -2147483648 to 2147483647"),
        ("i64", "a whole number"),
        ("f32", "a number"),
        ("f64", "a number"),
        ("bool", "true or false"),
    ];
    let mut out = String::with_capacity(detail.len());
    let mut rest = detail;
    while let Some(at) = rest.find("expected ") {
        let (before, after) = rest.split_at(at + "expected ".len());
        out.push_str(before);
        let word_end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let word = &after[..word_end];
        if let Some((_, plain)) = WORDS.iter().find(|(rust, _)| *rust == word) {
            out.push_str(plain);
            rest = &after[word_end..];
            continue;
        }
        let named = [
            "struct ",
            "internally tagged enum ",
            "enum ",
            "tuple struct ",
            "unit struct ",
        ]
        .iter()
        .find_map(|kind| after.strip_prefix(kind).map(|tail| (kind, tail)));
        match named {
            Some((kind, tail)) => {
                let name_end = tail
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(tail.len());
                out.push_str(match *kind {
                    "internally tagged enum " => "an object with a `type`",
                    "enum " | "unit struct " => "one of the documented values",
                    "tuple struct " => "an array",
                    _ => "an object",
                });
                rest = &tail[name_end..];
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
    out
}

/// actix's path extractor errors, as problems.
pub fn path_error(err: error::PathError) -> ApiError {
    ApiError::refused_by_serde(Code::RouteNotFound, "the path is not accepted", err)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn every_code_is_spelled_once_and_owns_a_client_or_server_error_status() {
        let mut seen = HashSet::new();
        for code in Code::ALL {
            assert!(seen.insert(code.as_str()), "{} twice", code.as_str());
            assert!(code.status().is_client_error() || code.status().is_server_error());
            assert!(!code.advice().is_empty());
        }
    }

    #[test]
    fn details_name_json_types_not_rust_ones() {
        assert_eq!(
            plain_types("invalid type: floating point `3.5`, expected usize at line 1 column 9"),
            "invalid type: floating point `3.5`, expected a whole number from 0 to 18446744073709551615 at line 1 column 9"
        );
        assert_eq!(
            plain_types("invalid type: integer `3`, expected struct CreateGame"),
            "invalid type: integer `3`, expected an object"
        );
        assert_eq!(
            plain_types("expected internally tagged enum Action; expected u8"),
            "expected an object with a `type`; expected a whole number from 0 to 255"
        );
        assert_eq!(plain_types("expected a string"), "expected a string");
        let problem = |path| {
            query_error(
                error::QueryPayloadError::Deserialize(serde::de::Error::custom("invalid digit")),
                path,
                "_=1&limit=abc",
            )
        };
        let events = problem("/v1/games/0123456789abcdef01234567/events");
        assert_eq!(events.code(), Code::MalformedQuery);
        assert!(
            events.detail.contains("limit is a whole number from 1 to 5000"),
            "{}",
            events.detail
        );
        let lobby = problem("/v1/games");
        assert!(
            lobby.detail.contains("limit is a whole number from 1 to 100;"),
            "{}",
            lobby.detail
        );
    }

    #[test]
    fn serde_messages_are_said_in_json_terms_where_extractors_and_the_engine_produce_them() {
        let serde_error = serde_json::from_str::<u8>("\"x\"").expect_err("a string is no u8");
        let body = ApiError::refused_by_serde(Code::MalformedJson, "the body is not accepted", &serde_error);
        assert!(
            body.detail.starts_with(
                "the body is not accepted: invalid type: string \"x\", expected a whole number from 0 to 255"
            ),
            "{}",
            body.detail
        );
        let query = query_error(
            error::QueryPayloadError::Deserialize(serde::de::Error::custom("expected u8")),
            "/v1/games",
            "",
        );
        assert!(query.detail.contains("from 0 to 255"), "{}", query.detail);
        assert!(!query.detail.contains("u8"), "{}", query.detail);
        let rejection = Rejection::malformed("not a rock-the-world action: expected u8 at line 1 column 9");
        let legal = RawValue::from_string("[]".to_owned()).expect("JSON");
        let action = ApiError::from_rejection(rejection, legal, vec![]);
        assert_eq!(
            action.detail,
            "not a rock-the-world action: expected a whole number from 0 to 255 at line 1 column 9"
        );
        // Elsewhere a detail is sent as written: a ruleset's text may say `u8` on purpose.
        assert_eq!(ApiError::new(Code::GameOver, "expected u8").detail, "expected u8");
    }

    #[test]
    fn a_problem_carries_its_code_status_and_extras() {
        let current = Revision::first();
        let response = ApiError::version_mismatch(current).error_response();
        assert_eq!(response.status(), StatusCode::PRECONDITION_FAILED);
        assert_eq!(
            response.headers().get(header::ETAG).and_then(|v| v.to_str().ok()),
            Some(format!("\"{current}\"").as_str())
        );
        let limited = ApiError::rate_limited(7, "slow down").error_response();
        assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(
            limited
                .headers()
                .get(header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok()),
            Some("7")
        );
    }
}
