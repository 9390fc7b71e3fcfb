//! The edge: what a request says, as typed values; the routes, mounted and documented in one
//! list; the push stream; the OpenAPI document and the web pages; and the one place a
//! [`Refusal`](crate::table::Refusal) becomes HTTP ([`problem`]).

pub mod body;
pub mod caller;
pub mod etag;
pub mod extract;
pub mod limits;
pub mod openapi;
pub mod problem;
pub mod routes;
pub mod sse;
pub mod web;
