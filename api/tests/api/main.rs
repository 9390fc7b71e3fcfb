//! The service in process: every route and every problem code, over real HTTP on port 0, with
//! the in-memory store. What needs a real Redis (a store that fails, fills up or loses writes)
//! is tested end to end in `tests/`.

mod docs;
mod helpers;
mod problems;
mod routes;
mod rules;
