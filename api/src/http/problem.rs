//! The one place a [`Refusal`] becomes HTTP: every error leaves as `application/problem+json`
//! (RFC 9457) with a stable `code` from the closed list [`Code`], whose [`Kind`] owns its status.

use std::borrow::Cow;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError, error};
use roadie_engine::Seat;
use serde::Serialize;
use serde_json::value::RawValue;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::{RefOr, Response, ResponseBuilder};
use utoipa::{PartialSchema, ToResponse, ToSchema};

use super::etag::etag;
#[cfg(test)]
use crate::table::refusal::plain_types;
pub use crate::table::refusal::{Code, Kind};
use crate::table::refusal::{Extra, Refusal};

/// The status every refusal of `kind` is sent with.
pub fn status(kind: Kind) -> StatusCode {
    match kind {
        Kind::Malformed => StatusCode::BAD_REQUEST,
        Kind::Unauthenticated => StatusCode::UNAUTHORIZED,
        Kind::Forbidden => StatusCode::FORBIDDEN,
        Kind::NotFound => StatusCode::NOT_FOUND,
        Kind::WrongMethod => StatusCode::METHOD_NOT_ALLOWED,
        Kind::TooSlow => StatusCode::REQUEST_TIMEOUT,
        Kind::Conflict => StatusCode::CONFLICT,
        Kind::Stale => StatusCode::PRECONDITION_FAILED,
        Kind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Kind::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
        Kind::Throttled => StatusCode::TOO_MANY_REQUESTS,
        Kind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Kind::Fault => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The status a problem with `code` is sent with.
pub fn status_of(code: Code) -> StatusCode {
    status(code.kind())
}

impl PartialSchema for Code {
    fn schema() -> RefOr<Schema> {
        let lines: Vec<String> = Code::ALL
            .iter()
            .map(|code| {
                format!(
                    "- `{}` ({}): {}",
                    code.as_str(),
                    status_of(*code).as_u16(),
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
    #[schema(value_type = Option<Vec<crate::wire::AnyAction>>)]
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
        .filter(|c| status_of(**c) == status)
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

/// `Retry-After`, as every `429` and `503` problem carries it (see [`Refusal::error_response`]).
fn retry_after_header() -> utoipa::openapi::header::Header {
    utoipa::openapi::header::HeaderBuilder::new()
        .schema(Some(
            ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)),
        ))
        .description(Some("Seconds to wait before trying again"))
        .build()
}

impl ResponseError for Refusal {
    fn status_code(&self) -> StatusCode {
        status_of(self.code)
    }

    fn error_response(&self) -> HttpResponse {
        let status = status_of(self.code);
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
                response.insert_header(etag(current.text().as_str()));
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
        "limit" if path == "/v1/games" => Some((1, crate::wire::lobby::MAX_LISTED as u64)),
        "limit" => Some((1, 5000)),
        "after" => Some((0, crate::wire::MAX_SAFE_INTEGER)),
        _ => None,
    }
}

/// actix's query-string extractor errors, as problems naming the parameter at fault.
pub fn query_error(err: error::QueryPayloadError, path: &str, query: &str) -> Refusal {
    let pairs = actix_web::web::Query::<Vec<(String, String)>>::from_query(query)
        .map(|q| q.into_inner())
        .unwrap_or_default();
    let bad = pairs.into_iter().find_map(|(name, value)| {
        let (min, max) = query_bounds(path, &name)?;
        let fits = value.parse::<u64>().is_ok_and(|v| (min..=max).contains(&v));
        (!fits).then(|| format!("{name} is a whole number from {min} to {max}; it was {value:?}"))
    });
    match bad {
        Some(bad) => Refusal::new(Code::MalformedQuery, bad),
        None => Refusal::refused_by_serde(Code::MalformedQuery, "the query string is not accepted", err),
    }
}

/// actix's path extractor errors, as problems.
pub fn path_error(err: error::PathError) -> Refusal {
    Refusal::refused_by_serde(Code::RouteNotFound, "the path is not accepted", err)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use roadie_engine::Rejection;

    use crate::table::Revision;

    use super::*;

    #[test]
    fn every_code_is_spelled_once_and_owns_a_client_or_server_error_status() {
        let mut seen = HashSet::new();
        for code in Code::ALL {
            assert!(seen.insert(code.as_str()), "{} twice", code.as_str());
            assert!(status_of(*code).is_client_error() || status_of(*code).is_server_error());
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
        let body = Refusal::refused_by_serde(Code::MalformedJson, "the body is not accepted", &serde_error);
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
        let action = Refusal::from_rejection(rejection, legal, vec![]);
        assert_eq!(
            action.detail,
            "not a rock-the-world action: expected a whole number from 0 to 255 at line 1 column 9"
        );
        // Elsewhere a detail is sent as written: a ruleset's text may say `u8` on purpose.
        assert_eq!(Refusal::new(Code::GameOver, "expected u8").detail, "expected u8");
    }

    #[test]
    fn a_problem_carries_its_code_status_and_extras() {
        let current = Revision::first();
        let response = Refusal::version_mismatch(current).error_response();
        assert_eq!(response.status(), StatusCode::PRECONDITION_FAILED);
        assert_eq!(
            response.headers().get(header::ETAG).and_then(|v| v.to_str().ok()),
            Some(format!("\"{current}\"").as_str())
        );
        let limited = Refusal::rate_limited(7, "slow down").error_response();
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
