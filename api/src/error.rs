//! The one error type of the service, and the one place it becomes HTTP.
//!
//! Every error leaves as `application/problem+json` (RFC 9457) with a stable `code`.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError, error};
use roadie_engine::{Rejection, RejectionCode};
use serde::Serialize;
use serde_json::value::RawValue;
use utoipa::ToSchema;

use crate::store::{Revision, StoreError};

/// Everything a request can fail with. Each variant says the status it is sent with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the body is not valid JSON, has unknown fields, or the action is not one of the
    /// ruleset's (`malformed_json`, `malformed_action`, `bad_request`, ...).
    #[error("{detail}")]
    BadRequest {
        /// Stable code.
        code: &'static str,
        /// What was wrong.
        detail: String,
        /// The seat's legal actions, for a malformed action.
        legal_actions: Option<Box<RawValue>>,
    },
    /// 401: no token where one is needed, or one that is forged, garbled or expired.
    #[error("{detail}")]
    Unauthorized {
        /// `token_missing`, `token_invalid` or `token_expired`.
        code: &'static str,
        /// What was wrong.
        detail: String,
    },
    /// 403: a valid token that does not open this door (another game, not a seat, not the host).
    #[error("{detail}")]
    Forbidden {
        /// `wrong_game`, `seat_required`, `host_required`, `no_such_seat`.
        code: &'static str,
        /// What was wrong.
        detail: String,
    },
    /// 404: no such game, ruleset or route.
    #[error("{detail}")]
    NotFound {
        /// `game_not_found`, `ruleset_not_found`, `route_not_found`.
        code: &'static str,
        /// What was not found.
        detail: String,
    },
    /// 405: the route exists but not with this method.
    #[error("this route does not take {0}")]
    MethodNotAllowed(String),
    /// 409: the action cannot be taken now (`not_your_turn`, `game_over`), the post kept losing
    /// races (`contention`), or an `Idempotency-Key` was reused for another action.
    #[error("{detail}")]
    Conflict {
        /// Stable code.
        code: &'static str,
        /// Why.
        detail: String,
        /// The seats that may act now, when that helps.
        to_act: Option<Vec<usize>>,
    },
    /// 408: the request's body did not arrive within `ROADIE_BODY_TIMEOUT_MS`; the connection
    /// is closed.
    #[error("the body did not arrive within {0} ms")]
    BodyTimeout(u64),
    /// 412: `If-Match` names none of the game's revisions (nor any revision the game will have:
    /// revisions never recur).
    #[error("If-Match does not name the game's revision; the game is at revision {current}")]
    PreconditionFailed {
        /// The game's revision.
        current: Revision,
    },
    /// 413: the body is larger than the configured limit.
    #[error("the body is larger than {limit} bytes")]
    PayloadTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// 422: valid JSON that the rules refuse (`illegal_action`, `invalid_seats`, `invalid_options`).
    #[error("{detail}")]
    Unprocessable {
        /// Stable code.
        code: &'static str,
        /// Why, in words that reveal nothing hidden.
        detail: String,
        /// The seat's legal actions, for an illegal action.
        legal_actions: Option<Box<RawValue>>,
    },
    /// 429: the client went over a rate limit; `Retry-After` says when it may go on.
    #[error("{detail}")]
    TooManyRequests {
        /// Seconds until the client may go on.
        retry_after: u64,
        /// Which limit.
        detail: String,
    },
    /// 429: the client's address holds as many connections as it may; this one is closed.
    #[error("this address already holds {limit} connections; reuse one of them")]
    TooManyConnections {
        /// Connections per address.
        limit: usize,
    },
    /// 503: the store did not answer, and nothing was changed; retry after a moment.
    #[error("the game store is unavailable; nothing was changed")]
    StoreUnavailable,
    /// 503: the store took the write but its answer was lost, and whether it was applied cannot
    /// be told now. Retry with the same `Idempotency-Key`: it answers with the first outcome.
    #[error(
        "the store did not confirm the write and it may have been applied; retry with the same \
         Idempotency-Key (or read the game) to learn the outcome"
    )]
    OutcomeUnknown,
    /// 503: the store is near its memory limit: no new game is stored, so that running games
    /// keep room to finish.
    #[error("the game store is nearly full: no new game is created until room is freed")]
    StoreFull,
    /// 500: something on the server's side (a stored game that does not read back). Never
    /// caused by client input; the cause is logged, not sent.
    #[error("internal error")]
    Internal,
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
    pub code: &'a str,
    /// The caller's legal actions now (with `illegal_action` and `malformed_action`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<crate::openapi::AnyAction>>)]
    pub legal_actions: Option<&'a RawValue>,
    /// The seats that may act now (with `not_your_turn`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<usize>>)]
    pub to_act: Option<&'a [usize]>,
    /// The game's current version (with `412`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<u64>,
    /// The game's current revision, its `ETag` (with `412`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_revision: Option<String>,
}

impl ApiError {
    /// The stable code sent as `code`.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest { code, .. }
            | ApiError::Unauthorized { code, .. }
            | ApiError::Forbidden { code, .. }
            | ApiError::NotFound { code, .. }
            | ApiError::Conflict { code, .. }
            | ApiError::Unprocessable { code, .. } => code,
            ApiError::MethodNotAllowed(_) => "method_not_allowed",
            ApiError::PreconditionFailed { .. } => "version_mismatch",
            ApiError::PayloadTooLarge { .. } => "payload_too_large",
            ApiError::BodyTimeout(_) => "body_timeout",
            ApiError::TooManyRequests { .. } => "rate_limited",
            ApiError::TooManyConnections { .. } => "too_many_connections",
            ApiError::StoreUnavailable => "store_unavailable",
            ApiError::OutcomeUnknown => "outcome_unknown",
            ApiError::StoreFull => "store_full",
            ApiError::Internal => "internal",
        }
    }

    /// 400 with a code.
    pub fn bad_request(code: &'static str, detail: impl Into<String>) -> Self {
        ApiError::BadRequest {
            code,
            detail: detail.into(),
            legal_actions: None,
        }
    }

    /// 404 for a game id that names no game.
    pub fn game_not_found(id: &str) -> Self {
        ApiError::NotFound {
            code: "game_not_found",
            detail: format!("no game has the id {id:?}"),
        }
    }

    /// Maps an engine rejection, with what the seat may do instead.
    pub fn from_rejection(rejection: Rejection, legal_actions: Box<RawValue>, to_act: Vec<usize>) -> Self {
        let detail = rejection.reason;
        match rejection.code {
            RejectionCode::NotYourTurn => ApiError::Conflict {
                code: "not_your_turn",
                detail,
                to_act: Some(to_act),
            },
            RejectionCode::GameOver => ApiError::Conflict {
                code: "game_over",
                detail,
                to_act: None,
            },
            RejectionCode::IllegalAction => ApiError::Unprocessable {
                code: "illegal_action",
                detail,
                legal_actions: Some(legal_actions),
            },
            RejectionCode::MalformedAction => ApiError::BadRequest {
                code: "malformed_action",
                detail,
                legal_actions: Some(legal_actions),
            },
            RejectionCode::NoSuchSeat => ApiError::Forbidden {
                code: "no_such_seat",
                detail,
            },
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Unavailable(cause) | StoreError::Refused(cause) => {
                tracing::warn!(%cause, "store unavailable");
                ApiError::StoreUnavailable
            }
            StoreError::Corrupt(cause) => {
                tracing::error!(%cause, "stored game does not read back");
                ApiError::Internal
            }
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden { .. } => StatusCode::FORBIDDEN,
            ApiError::NotFound { .. } => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict { .. } => StatusCode::CONFLICT,
            ApiError::PreconditionFailed { .. } => StatusCode::PRECONDITION_FAILED,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::BodyTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooManyRequests { .. } | ApiError::TooManyConnections { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ApiError::StoreUnavailable | ApiError::OutcomeUnknown | ApiError::StoreFull => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        let code = self.code();
        let (legal_actions, to_act, current) = match self {
            ApiError::BadRequest { legal_actions, .. } | ApiError::Unprocessable { legal_actions, .. } => {
                (legal_actions.as_deref(), None, None)
            }
            ApiError::Conflict { to_act, .. } => (None, to_act.as_deref(), None),
            ApiError::PreconditionFailed { current } => (None, None, Some(*current)),
            _ => (None, None, None),
        };
        let problem = Problem {
            kind: format!("urn:roadie:problem:{code}"),
            title: status.canonical_reason().unwrap_or("Error"),
            status: status.as_u16(),
            detail: self.to_string(),
            code,
            legal_actions,
            to_act,
            current_version: current.map(|c| c.number),
            current_revision: current.map(|c| c.to_string()),
        };
        let body = serde_json::to_vec(&problem).unwrap_or_default();
        let mut response = HttpResponse::build(status);
        response.insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        ));
        match self {
            ApiError::StoreUnavailable | ApiError::OutcomeUnknown => {
                response.insert_header((header::RETRY_AFTER, HeaderValue::from_static("1")));
            }
            ApiError::StoreFull => {
                response.insert_header((header::RETRY_AFTER, HeaderValue::from_static("30")));
            }
            ApiError::TooManyRequests { retry_after, .. } => {
                response.insert_header((header::RETRY_AFTER, HeaderValue::from(*retry_after)));
            }
            ApiError::TooManyConnections { .. } => {
                response.insert_header((header::RETRY_AFTER, HeaderValue::from_static("1")));
                response.force_close();
            }
            ApiError::BodyTimeout(_) => {
                response.force_close();
            }
            ApiError::Unauthorized { .. } => {
                response.insert_header((header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer")));
            }
            ApiError::PreconditionFailed { current } => {
                if let Ok(etag) = HeaderValue::from_str(&format!("\"{current}\"")) {
                    response.insert_header((header::ETAG, etag));
                }
            }
            _ => {}
        }
        response.body(body)
    }
}

/// actix's JSON extractor errors, as problems.
pub fn json_error(err: error::JsonPayloadError, limit: usize) -> ApiError {
    use error::JsonPayloadError as E;
    match err {
        E::Overflow { .. } | E::OverflowKnownLength { .. } => ApiError::PayloadTooLarge { limit },
        E::Payload(error::PayloadError::Overflow) => ApiError::PayloadTooLarge { limit },
        E::Deserialize(e) => {
            ApiError::bad_request("malformed_json", format!("the body is not accepted: {e}"))
        }
        E::ContentType => ApiError::bad_request("malformed_json", "the body must be JSON"),
        other => ApiError::bad_request("malformed_json", format!("the body could not be read: {other}")),
    }
}

/// actix's raw body extractor errors, as problems.
pub fn payload_error(err: error::PayloadError, limit: usize) -> ApiError {
    match err {
        error::PayloadError::Overflow => ApiError::PayloadTooLarge { limit },
        other => ApiError::bad_request("bad_request", format!("the body could not be read: {other}")),
    }
}

/// actix's query-string extractor errors, as problems.
pub fn query_error(err: error::QueryPayloadError) -> ApiError {
    ApiError::bad_request(
        "malformed_query",
        format!("the query string is not accepted: {err}"),
    )
}

/// actix's path extractor errors, as problems.
pub fn path_error(err: error::PathError) -> ApiError {
    ApiError::NotFound {
        code: "route_not_found",
        detail: format!("the path is not accepted: {err}"),
    }
}
