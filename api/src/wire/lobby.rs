//! The bodies and query of the lobby's route.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::table::seats::SeatInfo;

/// The most games one listing answers.
pub const MAX_LISTED: usize = 100;

/// How many games a listing answers when `limit` is left out.
pub const DEFAULT_LISTED: usize = 20;

/// Which games to list. Other query parameters (a cache buster, say) are ignored.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only games of this ruleset (default: every ruleset).
    pub ruleset: Option<String>,
    /// `open`: games with a seat anyone may join (the only listing there is; the default).
    pub status: Option<ListStatus>,
    /// At most this many games (1 to 100, default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u64>,
}

/// Which games a listing shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ListStatus {
    /// Games with a seat anyone may join.
    Open,
}

/// A game with open seats, as anyone may see it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct OpenGame {
    /// The game's id.
    pub id: String,
    /// The ruleset's slug.
    pub ruleset: String,
    /// The game's version.
    pub version: u64,
    /// When the game was created (seconds since the epoch).
    pub created: u64,
    /// Who sits in each seat; join an `open` one with `POST /v1/games/{id}/seats/{seat}`.
    pub seats: Vec<SeatInfo>,
}

/// Games with open seats, the latest listed first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct OpenGames {
    /// The games.
    pub games: Vec<OpenGame>,
}
