//! A server-played seat's move chosen apart from any request (see [`super::bots::turn_due`]), as
//! a change: written only to the revision it was chosen at, so that a move is played at most
//! once whichever process chose it, and never in a position its bot did not see.

use std::borrow::Cow;

use roadie_engine::Seat;
use serde_json::value::RawValue;

use super::bots::{Panicked, apply_guarded, turn_due};
use super::post::acted;
use super::refusal::{Code, Refusal};
use super::{Change, Refused, Revision, Table, Transition, clock};

/// The move `action` of the bot in `seat`, chosen at `revision`.
#[derive(Debug)]
pub struct BotMove {
    /// The seat the bot holds.
    pub seat: Seat,
    /// The revision the move was chosen at.
    pub revision: Revision,
    /// The action, as JSON.
    pub action: Box<RawValue>,
}

impl BotMove {
    /// The refusal of a move whose moment passed: another write came first.
    fn stale(&self) -> Refusal {
        Refusal::new(
            Code::VersionMismatch,
            format!(
                "the bot's move was chosen at revision {}, and the game moved on",
                self.revision
            ),
        )
    }
}

impl Change for BotMove {
    /// The move applied at `now`, with the inline bots that follow it; nothing when the table is
    /// no longer at the move's revision or the seat's bot is no longer to act. A deadline that
    /// passed first is played on its own (the bot chose without it), and the move is dropped.
    fn apply(&self, table: &Table, now: u64) -> Result<Option<Transition>, Refused> {
        if table.revision != self.revision || turn_due(table).map(|(seat, _)| seat) != Some(self.seat) {
            return Ok(None);
        }
        let (base, mut log) = clock::due_at(table, now);
        if let Cow::Owned(next) = base {
            return Err(Refused {
                refusal: self.stale(),
                timeouts: Some(Box::new(Transition::new(next, log))),
            });
        }
        let mut game = table.game.clone();
        match apply_guarded(&mut game, self.seat, self.action.get()) {
            Ok(Ok(played)) => log.play(self.seat, self.action.clone(), now, played),
            Ok(Err(rejection)) => {
                tracing::error!(game = %table.id, seat = self.seat.index(), ?rejection, "the rules refused a bot's move chosen among its legal actions");
                return Err(Refusal::internal().into());
            }
            Err(Panicked) => return Err(Refusal::internal().into()),
        }
        Ok(Some(acted(table, table, self.seat, game, log, now)))
    }

    /// The move was meant for its revision alone.
    fn pinned(&self) -> bool {
        true
    }
}
