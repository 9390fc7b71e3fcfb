//! Roadie's end-to-end tests live in `tests/e2e/`: they build and start the real `roadie`
//! binary, a throwaway `redis-server` and (for the docs) headless Chromium.
//!
//! [`population`] is a simulated population of players, for measuring ratings and matchmaking by
//! rating (the `ratings` binary).

pub mod population;
