//! What a seat may post, and the game options.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::components::{CharacterId, Colour, Token};
use crate::Seat;

/// R10: what happens when the rocker is eliminated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RockTheWorldVariant)]
pub enum Variant {
    /// R32: "his characters are placed back on the board in their original positions. Travel
    /// tokens are likewise placed on the board for re-sale. The game then continues and any of
    /// the remaining players may attempt to rock the world."
    #[default]
    Tournament,
    /// R33: "the game is over. The rocker is the loser, the others are credited with a tie
    /// (1 point)."
    Friendly,
    /// R34: "the Rockers characters and tokens are distributed amongst the remaining players",
    /// dealt one at a time clockwise from the performer who eliminated him.
    ModifiedFriendly,
}

/// The largest turn cap `max_turns_per_seat` may set (R36). A cap above it would never be
/// reached: random play ends in about 740 actions in all.
pub const MAX_TURNS_PER_SEAT: u32 = 1000;

/// Game options. Every default is the value the rulings fix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
#[schema(as = RockTheWorldOptions)]
pub struct Options {
    /// R10: the elimination variant (default `tournament`).
    pub variant: Variant,
    /// R5/R24: after a claim that took the board character, the claimer (never the rocker, R42)
    /// may then choose `gig` or `end_turn` (default off).
    pub gig_after_claim: bool,
    /// R36: the turn cap, a safety valve. 0 (the default) is off; N > 0 ends the game when play
    /// would pass to a seat that has already had N turns, the richest player winning. Games end
    /// without it (random play ends by a rocker's win or elimination, about 740 actions on
    /// average); 100 is the value suggested for random-play tests. At most 1000.
    #[schema(minimum = 0, maximum = 1000)]
    pub max_turns_per_seat: u32,
    /// R13: the first player; `null` (the default) draws it uniformly at random.
    pub first_seat: Option<Seat>,
    /// R12: the colours seats take, seat k taking the k-th entry (default red, blue, yellow,
    /// green). Distinct colours, at least one per seat.
    pub colours: Vec<Colour>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            variant: Variant::Tournament,
            gig_after_claim: false,
            max_turns_per_seat: 0,
            first_seat: None,
            colours: Colour::ALL.to_vec(),
        }
    }
}

/// An action the active seat posts. The legal list (`GET .../actions`) gives each one exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = RockTheWorldAction)]
pub enum Action {
    /// R16: "A player must roll to begin his turn and move his Lead Singer Cutout": 1d6,
    /// clockwise.
    Roll,
    /// R2/R18/R19: buy one travel token for $100,000, before any token is used; at most one a
    /// turn on a regular city, two on a corner.
    Buy {
        /// The type bought.
        token: Token,
    },
    /// R20/R21: spend one held token to move to `to`; tokens may be chained.
    Use {
        /// The type spent.
        token: Token,
        /// The space (1 to 20) moved to.
        to: u8,
    },
    /// R8/R22: attempt to Rock the World: take the star chip and every spent token; the turn
    /// ends.
    Declare,
    /// R5/R24/R30: one claim roll against every listed character; each one whose value the roll
    /// meets or exceeds is won. The turn then ends.
    Claim {
        /// The board character (when one stands here) and at most one character of each
        /// opponent on the space, in ascending id order.
        take: Vec<CharacterId>,
    },
    /// R26: play a gig in an open city: draw the top play card and collect from the bank and
    /// from every opponent on the space.
    Gig,
    /// R4/R23: end the turn; the die passes left.
    EndTurn,
}

impl Action {
    /// The action's `type`, as the phase machine names it.
    pub const fn kind(&self) -> &'static str {
        match self {
            Action::Roll => "roll",
            Action::Buy { .. } => "buy",
            Action::Use { .. } => "use",
            Action::Declare => "declare",
            Action::Claim { .. } => "claim",
            Action::Gig => "gig",
            Action::EndTurn => "end_turn",
        }
    }
}
