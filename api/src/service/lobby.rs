//! The lobby: games that still have open seats, listed in the store so that every process
//! agrees (see [`crate::store::GameStore::listed`]).
//!
//! A game is listed while it has an open seat and goes on; it leaves the list when its last
//! seat is taken, when it ends, and when it is deleted or expires (pruned as the list is read).

use roadie_engine::{RULESETS, Ruleset};

use crate::table::{Code, GameId, Refusal, Table};
use crate::wire::lobby::{OpenGame, OpenGames};

use super::Games;

/// A read of the lobby, as the edge parsed it from the query.
#[derive(Clone)]
pub struct Listing {
    /// Only this ruleset's games (every ruleset's when `None`).
    pub ruleset: Option<&'static Ruleset>,
    /// At most this many games.
    pub limit: usize,
    /// The app whose open games these are (`None`: games of no app, the open server's).
    pub app: Option<std::sync::Arc<str>>,
}

/// The list a game of `ruleset` owned by `app` is listed in: each app's lobby is its own.
fn lobby_of(app: Option<&str>, ruleset: &str) -> String {
    match app {
        None => ruleset.to_owned(),
        Some(app) => format!("{app}/{ruleset}"),
    }
}

fn joinable(game: &Table) -> bool {
    game.seats.has_open_seat() && !game.is_over()
}

impl Games {
    /// Puts `game` on its ruleset's list while it can be joined, else takes it off. The game is
    /// written already, so a store that fails here is logged, not reported: a stale entry is
    /// skipped when the list is read.
    pub(crate) async fn relist(&self, game: &Table) {
        let lobby = lobby_of(game.app.as_deref(), game.game.ruleset().slug);
        if let Err(e) = self.store().set_listed(&lobby, &game.id, joinable(game)).await {
            tracing::warn!(game = %game.id, error = %e, "could not update the list of open games");
        }
    }

    /// Up to `limit` games with open seats, of `ruleset` or of every ruleset.
    pub async fn open_games(&self, listing: Listing) -> Result<OpenGames, Refusal> {
        let limit = listing.limit;
        let rulesets: Vec<&Ruleset> = match listing.ruleset {
            Some(ruleset) => vec![ruleset],
            None => RULESETS.iter().collect(),
        };
        let mut games = Vec::new();
        for ruleset in rulesets {
            let lobby = lobby_of(listing.app.as_deref(), ruleset.slug);
            let ids = self.store().listed(&lobby, limit).await.map_err(Refusal::from)?;
            for id in ids {
                let Ok(parsed) = GameId::parse(&id) else { continue };
                let game = match self.fresh(&parsed).await {
                    Ok(game) => game,
                    Err(e) if e.code() == Code::GameNotFound => {
                        let _ = self.store().set_listed(&lobby, &id, false).await;
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                if !joinable(&game) || game.app.as_deref() != listing.app.as_deref() {
                    continue;
                }
                games.push(OpenGame {
                    id: game.id.clone(),
                    ruleset: ruleset.slug.to_owned(),
                    version: game.revision.number,
                    created: game.seats.created,
                    status: None,
                    seats: game.seats.describe(game.game.seat_count()),
                    finished: None,
                });
            }
        }
        games.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| a.id.cmp(&b.id)));
        games.truncate(limit);
        Ok(OpenGames { games, next: None })
    }
}
