//! The lobby: games that still have open seats, listed in the store so that every process
//! agrees (see [`crate::store::GameStore::listed`]).
//!
//! A game is listed while it has an open seat and goes on; it leaves the list when its last
//! seat is taken, when it ends, and when it is deleted or expires (pruned as the list is read).

use roadie_engine::{RULESETS, Ruleset};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::domain::Games;
use crate::error::{ApiError, Code};
use crate::request::GameId;
use crate::seats::SeatInfo;
use crate::store::StoredGame;

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

fn joinable(game: &StoredGame) -> bool {
    game.seats.has_open_seat() && !game.game.is_over()
}

impl Games {
    /// Puts `game` on its ruleset's list while it can be joined, else takes it off. The game is
    /// written already, so a store that fails here is logged, not reported: a stale entry is
    /// skipped when the list is read.
    pub(crate) async fn relist(&self, game: &StoredGame) {
        let ruleset = game.game.ruleset().slug;
        if let Err(e) = self.store().set_listed(ruleset, &game.id, joinable(game)).await {
            tracing::warn!(game = %game.id, error = %e, "could not update the list of open games");
        }
    }

    /// Up to `limit` games with open seats, of `ruleset` or of every ruleset.
    pub async fn open_games(&self, query: &ListQuery) -> Result<OpenGames, ApiError> {
        let limit = match query.limit {
            None => DEFAULT_LISTED,
            Some(n) if (1..=MAX_LISTED as u64).contains(&n) => n as usize,
            Some(n) => {
                return Err(ApiError::new(
                    Code::MalformedQuery,
                    format!("limit is from 1 to {MAX_LISTED}; it was {n}"),
                ));
            }
        };
        let rulesets: Vec<&Ruleset> = match query.ruleset.as_deref() {
            Some(slug) => vec![Ruleset::find(slug).ok_or_else(|| {
                ApiError::new(
                    Code::RulesetNotFound,
                    format!("no ruleset is called {slug:?}; see GET /v1/rulesets"),
                )
            })?],
            None => RULESETS.iter().collect(),
        };
        let mut games = Vec::new();
        for ruleset in rulesets {
            let ids = self
                .store()
                .listed(ruleset.slug, limit)
                .await
                .map_err(ApiError::from)?;
            for id in ids {
                let Ok(parsed) = GameId::parse(&id) else { continue };
                let game = match self.fresh(&parsed).await {
                    Ok(game) => game,
                    Err(e) if e.code() == Code::GameNotFound => {
                        let _ = self.store().set_listed(ruleset.slug, &id, false).await;
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                if !joinable(&game) {
                    continue;
                }
                games.push(OpenGame {
                    id: game.id.clone(),
                    ruleset: ruleset.slug.to_owned(),
                    version: game.revision.number,
                    created: game.seats.created,
                    seats: game.seats.describe(game.game.seat_count()),
                });
            }
        }
        games.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| a.id.cmp(&b.id)));
        games.truncate(limit);
        Ok(OpenGames { games })
    }
}
