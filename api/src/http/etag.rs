//! The `ETag` header a revision is sent under, by every answer that names one.

use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::web;

/// The `ETag` header of a revision: its text in quotes, written into the header's own buffer.
pub fn etag(revision: &str) -> (HeaderName, HeaderValue) {
    let mut quoted = Vec::with_capacity(revision.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(revision.as_bytes());
    quoted.push(b'"');
    let value = HeaderValue::from_maybe_shared(web::Bytes::from(quoted));
    (header::ETAG, value.unwrap_or(HeaderValue::from_static("\"0\"")))
}
