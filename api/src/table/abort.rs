//! Aborting a game: its host or its app ends it where it stands. Nobody wins, nothing more can
//! be played, and a public `game_aborted` event says so.

use serde::Serialize;
use utoipa::ToSchema;

use super::refusal::{Code, Refusal};
use super::{Change, Refused, StoredEvent, Table, Transition};

/// `game_aborted`, the only value of [`GameAborted::kind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameAbortedType {
    /// The game was aborted.
    GameAborted,
}

/// The game was aborted by its host or its app: it ends where it stands, and nobody wins.
/// Public; in every ruleset's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct GameAborted {
    /// `game_aborted`.
    #[serde(rename = "type")]
    pub kind: GameAbortedType,
    /// Who aborted it: `host` (its host token) or `app` (its app's key).
    pub by: &'static str,
}

/// Abort the game, by `by` (`host` or `app`).
#[derive(Clone, Copy, Debug)]
pub struct Abort {
    /// Who aborts.
    pub by: &'static str,
}

impl Change for Abort {
    /// The game ended where it stands at `now`: no clock runs on, nobody is to act. `409
    /// game_over` for a game that is over already.
    fn apply(&self, table: &Table, now: u64) -> Result<Option<Transition>, Refused> {
        if table.is_over() {
            return Err(Refusal::new(Code::GameOver, "the game is over already: nothing to abort").into());
        }
        let event = GameAborted {
            kind: GameAbortedType::GameAborted,
            by: self.by,
        };
        let body = serde_json::value::to_raw_value(&event).map_err(|_| Refusal::internal())?;
        let events = vec![StoredEvent {
            audience: roadie_engine::Audience::Everyone,
            body,
        }];
        let mut next = table.succeeded_by(table.game.clone(), events.len() as u64, None, now);
        next.aborted = true;
        next.notices.clear();
        Ok(Some(Transition {
            next,
            events,
            actions: Vec::new(),
        }))
    }
}
