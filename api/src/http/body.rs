//! Request bodies: read whole within a deadline and a size limit, then parsed as JSON.
//!
//! A client that sends its headers and then trickles the body would otherwise hold its
//! connection (and a file descriptor) for as long as it likes. The body must arrive within
//! `ROADIE_BODY_TIMEOUT_MS` of the handler asking for it; after that the answer is `408
//! body_timeout` and the connection is closed.

use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use futures_core::future::LocalBoxFuture;
use serde::de::DeserializeOwned;

use crate::metrics::Metrics;
use crate::table::{Code, Refusal};

/// How large a body may be and how long it may take.
#[derive(Clone, Copy, Debug)]
pub struct BodyLimits {
    /// The largest body, in bytes.
    pub max_bytes: usize,
    /// The largest game record `POST /v1/records/verify` reads, in bytes.
    pub record_bytes: usize,
    /// The longest a whole body may take to arrive.
    pub deadline: Duration,
}

/// A JSON body of type `T`, read within the [`BodyLimits`] in the app's data.
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for JsonBody<T> {
    type Error = Refusal;
    type Future = LocalBoxFuture<'static, Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        read_json(req, payload, |limits| limits.max_bytes, JsonBody)
    }
}

/// A game record, read as a [`JsonBody`] but within the larger `record_bytes`.
#[derive(Debug)]
pub struct RecordBody<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for RecordBody<T> {
    type Error = Refusal;
    type Future = LocalBoxFuture<'static, Result<Self, Refusal>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        read_json(req, payload, |limits| limits.record_bytes, RecordBody)
    }
}

/// The body, read within the deadline and the size `max` picks, as JSON of type `T` wrapped.
fn read_json<T: DeserializeOwned + 'static, B: 'static>(
    req: &HttpRequest,
    payload: &mut Payload,
    max: fn(&BodyLimits) -> usize,
    wrap: fn(T) -> B,
) -> LocalBoxFuture<'static, Result<B, Refusal>> {
    let limits = req.app_data::<web::Data<BodyLimits>>().map(|l| *l.get_ref());
    let metrics = req.app_data::<web::Data<Metrics>>().cloned();
    let payload = web::Payload::from_request(req, payload).into_inner();
    Box::pin(async move {
        let limits = limits.ok_or(Refusal::internal())?;
        let max_bytes = max(&limits);
        let payload = payload.map_err(|_| Refusal::internal())?;
        let read = tokio::time::timeout(limits.deadline, payload.to_bytes_limited(max_bytes));
        let bytes = match read.await {
            Err(_) => {
                if let Some(metrics) = metrics {
                    metrics.body_timed_out();
                }
                return Err(Refusal::new(
                    Code::BodyTimeout,
                    format!(
                        "the body did not arrive within {} ms",
                        limits.deadline.as_millis()
                    ),
                ));
            }
            Ok(Err(_)) => {
                return Err(Refusal::payload_too_large(max_bytes));
            }
            Ok(Ok(Err(e))) => {
                return Err(Refusal::new(
                    Code::UnreadableBody,
                    format!("the body could not be read: {e}"),
                ));
            }
            Ok(Ok(Ok(bytes))) => bytes,
        };
        serde_json::from_slice(&bytes)
            .map(wrap)
            .map_err(|e| Refusal::refused_by_serde(Code::MalformedJson, "the body is not accepted", e))
    })
}
