//! Roadie's rules engine.
//!
//! Every game implements [`Game`]: a plain data type for the position, pure functions for
//! the legal actions and for applying one, typed [`Rejection`]s for illegal input, redacted
//! views, events with their [`Audience`], a scored [`Outcome`] and the phase [`Machine`] as
//! data. The [`registry`] puts every game behind one enum so the service never names a game.
//!
//! The engine does no I/O, has no clock, no async and no global state: the same seed and the
//! same actions always give the same game. The one clock it reads is the expert bot's optional
//! time bound ([`search::Budget::time`]), when a caller asks for one.
#![deny(missing_docs)]

pub mod catalogue;
pub mod conformance;
pub mod games;
pub mod registry;
pub mod rng;
pub mod search;
pub mod texts;

mod contract;
mod heuristic;
mod ids;

pub use contract::*;
pub use registry::{AnyGame, EachGame, RULESETS, Ruleset, for_each_game};
