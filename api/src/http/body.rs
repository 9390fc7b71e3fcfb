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
        let limits = req.app_data::<web::Data<BodyLimits>>().map(|l| *l.get_ref());
        let metrics = req.app_data::<web::Data<Metrics>>().cloned();
        let payload = web::Payload::from_request(req, payload).into_inner();
        Box::pin(async move {
            let limits = limits.ok_or(Refusal::internal())?;
            let payload = payload.map_err(|_| Refusal::internal())?;
            let read = tokio::time::timeout(limits.deadline, payload.to_bytes_limited(limits.max_bytes));
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
                    return Err(Refusal::payload_too_large(limits.max_bytes));
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
                .map(JsonBody)
                .map_err(|e| Refusal::refused_by_serde(Code::MalformedJson, "the body is not accepted", e))
        })
    }
}
