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
    /// `open`: games with a seat anyone may join (the default, and the lobby's only listing).
    /// With an app's key: `active` or `finished` too.
    pub status: Option<ListStatus>,
    /// With an app's key: only the games of this player of the app.
    pub player: Option<String>,
    /// With an app's key: where the page starts (`next` of the page before).
    pub cursor: Option<String>,
    /// At most this many games (1 to 100, default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u64>,
}

/// Which page of a player's games.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MyGamesQuery {
    /// Where the page starts (`next` of the page before).
    pub cursor: Option<String>,
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
    /// Games being played (an app's listing).
    Active,
    /// Games over (an app's listing).
    Finished,
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
    /// Whether it is being played or over (in an app's listings; the lobby lists running games
    /// only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<crate::wire::Status>,
    /// Who sits in each seat; join an `open` one with `POST /v1/games/{id}/seats/{seat}`.
    pub seats: Vec<SeatInfo>,
    /// For a game that is over: where its record is and where to watch it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<FinishedLinks>,
}

/// Where a finished game's record and replay are.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct FinishedLinks {
    /// Its signed record: `GET /v1/games/{id}/record`.
    pub record: String,
    /// The web table's replay viewer for it.
    pub replay: String,
}

impl FinishedLinks {
    /// The links of game `id`.
    pub fn of(id: &str) -> Self {
        Self {
            record: format!("/v1/games/{id}/record"),
            replay: format!("/play/replay/{id}"),
        }
    }
}

/// Games, the latest first: the lobby's open games, or a page of an app's or a player's games.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct OpenGames {
    /// The games.
    pub games: Vec<OpenGame>,
    /// Where the next page starts (`cursor`), when there may be more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}
