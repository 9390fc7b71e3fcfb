//! A hint: what an expert in the seat would play now.

use std::borrow::Cow;

use roadie_engine::{BotLevel, Seat};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;

use super::AnyAction;

/// What an expert in the seat would play now, thought from the seat's own information only.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Hint {
    /// The ruleset's slug.
    pub ruleset: Cow<'static, str>,
    /// The game's version the hint was thought at.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub version: u64,
    /// The game's revision the hint was thought at (its `ETag`).
    pub revision: String,
    /// The seat.
    pub seat: Seat,
    /// The hint: one of the seat's legal actions, exactly an `action` to post.
    #[schema(value_type = AnyAction)]
    pub action: Box<RawValue>,
    /// The level that thought of it.
    pub level: BotLevel,
    /// The actions it weighed most, best first (the hint first), at most five.
    pub considered: Vec<ConsideredAction>,
}

/// An action the expert weighed.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ConsideredAction {
    /// The action, exactly an `action` to post.
    #[schema(value_type = AnyAction)]
    pub action: Box<RawValue>,
    /// Its share of the search's visits, from 0 to 1: how much the search came to trust it.
    #[schema(minimum = 0, maximum = 1)]
    pub share: f64,
}
