//! Aborting a game, through the one write path.

use crate::table::abort::Abort;
use crate::table::{GameId, Refusal, Viewer};
use crate::wire::GameState;

use super::Games;
use super::read::state_of;
use super::write::{Start, Written};

impl Games {
    /// Aborts game `id` (its host token or its app's key, checked before): the game as a
    /// spectator sees it afterwards.
    pub async fn abort(&self, id: &GameId, by: &'static str) -> Result<GameState, Refusal> {
        match self.write(id, &Abort { by }, Start::Fresh, None).await? {
            Written::Applied { next, .. } => {
                self.relist(&next).await;
                tracing::info!(game = %id, by, "game aborted");
                state_of(&next, Viewer::Spectator)
            }
            Written::Unchanged(_) | Written::Replayed { .. } => Err(Refusal::internal()),
        }
    }
}
