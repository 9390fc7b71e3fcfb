//! The bodies and queries of ratings: a ruleset's leaderboard and a player's profile.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// The most rows one page of a leaderboard answers.
pub const MAX_ROWS: u64 = 100;

/// How many rows a page answers when `limit` is left out.
pub const DEFAULT_ROWS: u64 = 20;

/// Which page of a leaderboard. Other query parameters are ignored.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// Only players with at least this many rated games (default 0: everyone rated).
    #[param(minimum = 0, maximum = 1000000)]
    pub min_games: Option<u64>,
    /// Where the page starts (`next` of the page before).
    pub cursor: Option<String>,
    /// At most this many rows (1 to 100, default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u64>,
}

/// One player's place on a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LeaderboardRow {
    /// Its place among the players listed with this filter (1: the best).
    pub rank: u64,
    /// The app's id of the player (`GET /v1/players/{player}`).
    pub player: String,
    /// The name it last played under.
    pub name: String,
    /// Its conservative rating, `mu − 3σ`.
    pub rating: i64,
    /// Rated games played.
    pub games: u32,
    /// Rated games won (first place, ties included).
    pub wins: u32,
}

/// A page of a ruleset's leaderboard in an app, the best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Leaderboard {
    /// The ruleset.
    pub ruleset: String,
    /// The rows.
    pub rows: Vec<LeaderboardRow>,
    /// The cursor of the next page, if there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// A player's rating in one ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RulesetRating {
    /// The ruleset.
    pub ruleset: String,
    /// The conservative rating shown, `mu − 3σ`.
    pub rating: i64,
    /// The mean of the belief about its skill, in thousandths of a point.
    pub mu_milli: i64,
    /// Its uncertainty, in thousandths of a point.
    pub sigma_milli: i64,
    /// Rated games played.
    pub games: u32,
    /// Rated games won.
    pub wins: u32,
    /// Its place on the ruleset's leaderboard, every player counted.
    pub place: u64,
}

/// One of a player's last rated games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RecentGame {
    /// The game (`GET /v1/games/{id}`).
    pub game: String,
    /// Its ruleset.
    pub ruleset: String,
    /// The player's seat.
    pub seat: roadie_engine::Seat,
    /// The player's place (1: a winner).
    pub place: usize,
    /// How many seats the game had.
    pub seats: usize,
    /// The player's rating before the game.
    pub rating_before: i64,
    /// Its rating after it.
    pub rating_after: i64,
    /// When it was rated (Unix ms).
    pub rated_ms: u64,
    /// Its signed record: `GET` it.
    #[serde(default)]
    pub record: String,
    /// Its replay in the web table.
    #[serde(default)]
    pub replay: String,
}

/// A player of an app: its ratings per ruleset and its last rated games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayerProfile {
    /// The app's id of the player.
    pub player: String,
    /// The name it last played under.
    pub name: String,
    /// Rated games played, over every ruleset.
    pub games: u32,
    /// Rated games won, over every ruleset.
    pub wins: u32,
    /// Its rating in each ruleset it played rated.
    pub ratings: Vec<RulesetRating>,
    /// Its last rated games, the latest first.
    pub recent: Vec<RecentGame>,
}
