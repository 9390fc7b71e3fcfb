//! Where ratings live: for each (app, ruleset), a leaderboard of its players by their shown
//! rating, each player's standing and last games, and the games already rated, so that a game
//! is rated once whatever retries it. All of one (app, ruleset) share one hash tag in Redis,
//! `roadie:{rt:<app>:<ruleset>}`, so that a game's ratings are written in one atomic script on
//! one node of a cluster; (app, ruleset) pairs spread over the nodes.

use async_trait::async_trait;

use super::StoreError;
use crate::table::rating::Standing;

/// How many of a player's last rated games are kept per ruleset.
pub const RECENT_GAMES: usize = 10;

/// How long a game's rating is remembered as done (and its changes kept): far longer than
/// any finished game stays in the store.
pub const RATED_KEPT_SECS: u64 = 90 * 24 * 3600;

/// One (app, ruleset)'s ratings.
#[derive(Clone, Copy, Debug)]
pub struct Board<'a> {
    /// The app.
    pub app: &'a str,
    /// The ruleset's slug.
    pub ruleset: &'a str,
}

/// A player's standing as a rated game leaves it.
#[derive(Clone, Debug)]
pub struct RatingWrite {
    /// The app's id of the player.
    pub player: String,
    /// The name it played under: the leaderboard shows the last one.
    pub name: String,
    /// How many rated games the standing the change was computed from counted: the write
    /// happens only while the store still holds that many.
    pub games_before: u32,
    /// Where the game leaves it.
    pub after: Standing,
    /// The game as the player's last games list it (JSON).
    pub recent: String,
}

/// What writing a game's ratings did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rated {
    /// Written now.
    Written,
    /// The game was rated already: the changes then written (JSON).
    Before(String),
    /// A player's standing moved since it was read (another game rated it): read again.
    Moved,
}

/// One row of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRow {
    /// The app's id of the player.
    pub player: String,
    /// The name it last played under.
    pub name: String,
    /// Its standing.
    pub standing: Standing,
}

/// A page of a leaderboard, best first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardPage {
    /// The rows.
    pub rows: Vec<BoardRow>,
    /// Where the next page starts in the leaderboard (every player counted), if it goes on.
    pub next: Option<u64>,
}

/// A player's standing with what a profile shows of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerStanding {
    /// The name it last played under.
    pub name: String,
    /// Its standing.
    pub standing: Standing,
    /// Its place on the leaderboard (1: the best), every player counted.
    pub place: u64,
    /// Its last rated games, the latest first (JSON each, as written).
    pub recent: Vec<String>,
}

/// The ratings' store.
#[async_trait]
pub trait Ratings {
    /// The standings of `players` on `board` (a new player's where it has none), in order.
    async fn standings(&self, board: Board<'_>, players: &[&str]) -> Result<Vec<Standing>, StoreError>;

    /// Writes rated game `game`'s standings atomically, once: nothing when the game was rated
    /// already, or while any player's count of games is not its `games_before`.
    async fn rate(
        &self,
        board: Board<'_>,
        game: &str,
        changes: &str,
        writes: &[RatingWrite],
    ) -> Result<Rated, StoreError>;

    /// Up to `limit` rows of `board` with at least `min_games` games, from place `offset` on
    /// (every player counted), looking at a bounded number of players per call.
    async fn leaderboard(
        &self,
        board: Board<'_>,
        offset: u64,
        limit: usize,
        min_games: u32,
    ) -> Result<BoardPage, StoreError>;

    /// `player`'s standing on `board`, if it played a rated game there.
    async fn player_standing(
        &self,
        board: Board<'_>,
        player: &str,
    ) -> Result<Option<PlayerStanding>, StoreError>;
}

/// How many players one read of a leaderboard looks at, at most, to fill a page whose
/// minimum of games skips some.
pub const BOARD_SCAN: u64 = 1_000;
