//! The rulings of `RULINGS.md` that the rulebook leaves open: named constants, and the game
//! options for those a table might play differently.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::Seat;

/// Game options. `Default` is the game as the rulings fix it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
#[schema(as = ShrewdProducerOptions)]
pub struct Options {
    /// G2: a multi-role artist (Vo/Gt ...) may fill one slot of each of its two parts in the
    /// same song, its Pt counted once (`true`, the default); `false`: it fills one slot.
    pub dual_fills_both: bool,
    /// G6: a $200 Raise-Money substitute counts as a Scout bid of $200 for the Raise-Phase
    /// order and the total (`true`, the default); `false`: it counts as $0.
    pub substitute_counts_200: bool,
    /// G16: the starting lead ("the person who most recently attended a rock band concert"),
    /// as a seat; `null` (the default) draws it at random from the seed.
    pub starting_lead: Option<Seat>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            dual_fills_both: DUAL_FILLS_BOTH,
            substitute_counts_200: true,
            starting_lead: None,
        }
    }
}

impl Options {
    /// G6: what a $200 substitute counts as, in dollars.
    pub fn substitute_bid(&self) -> u32 {
        if self.substitute_counts_200 {
            SUBSTITUTE_COST
        } else {
            0
        }
    }
}

/// G2: the default for [`Options::dual_fills_both`].
pub const DUAL_FILLS_BOTH: bool = true;

/// The game lasts 12 rounds: "The game ends when all Artist cards have been revealed and the
/// final (12th) round is completed."
pub const ROUNDS: u8 = 12;
/// "At the end of the 6th round, redistribute Scout Money" (G14, G28).
pub const REDRAFT_AFTER_ROUND: u8 = 6;
/// "The lead player flips over the top 2 cards": artists revealed per round.
pub const ARTISTS_PER_ROUND: usize = 2;
/// The setup draft: "each player draws 2 cards" first (DERIVED 3).
pub const FIRST_DRAW: usize = 2;
/// DERIVED 3 / G22: then twice "draw 2, keep 1, pass 1 left".
pub const PASSING_STEPS: u8 = 2;

/// B) "pay $200 from your Raise Money (two $100 bills) to substitute" for the lead suit.
pub const SUBSTITUTE_COST: u32 = 200;
/// The substitute in bills.
pub const SUBSTITUTE_BILLS: u8 = 2;
/// Debt: "receive $500 in Raise Money (five $100 bills) from the supply (if $500 is available
/// in the supply!)". DERIVED 4: no partial debt.
pub const DEBT_BILLS: u8 = 5;
/// "Each debt taken results in -6 points."
pub const DEBT_PENALTY: i64 = 6;
/// "only up to a maximum of 5 times per game".
pub const MAX_DEBTS: u8 = 5;
/// G8: raises are multiples of $100, minimum $100.
pub const RAISE_STEP: u32 = 100;
/// G9: a non-signer sends only $100 of its Raise-Phase money to the discard pile.
pub const NON_SIGNER_FEE_BILLS: u8 = 1;
/// G17: "For every $200 of Raise Money, 1 Pt is added."
pub const DOLLARS_PER_PT: u32 = 200;

/// G3: each slot of a song needs a distinct card (a dual card never fills two slots of the
/// same part).
pub const DISTINCT_CARD_PER_SLOT: bool = true;
/// G4: the engine scores the assignment of artists to slots with the most artist Pt.
pub const SCORE_BEST_ASSIGNMENT: bool = true;
/// G5: Raise-Phase turns go by ascending Scout value, ties to the seat closer to the lead.
pub const RAISE_ORDER_ASCENDING: bool = true;
/// G7: only a player holding no lead-suit card may go off-suit or substitute.
pub const OFF_SUIT_ONLY_WITHOUT_LEAD_SUIT: bool = true;
/// G10: a single participant chooses one artist; the other goes to the artist discard.
pub const SINGLE_PARTICIPANT_SIGNS_ONE: bool = true;
/// G11: signing is compulsory for the top two.
pub const SIGNING_IS_COMPULSORY: bool = true;
/// G12 / G26: taking the next-level song is a choice; a seat that declined is asked again the
/// next time it signs.
pub const SONG_PICK_OPTIONAL: bool = true;
/// G13: the 3-player game's leftover Lv.1 song is removed face down.
pub const LEFTOVER_SONG_REMOVED_FACE_DOWN: bool = true;
/// G18: a $200 substitute reaches the supply at once; Raise-Phase bids stay in front of the
/// bidder until money processing.
pub const SUBSTITUTE_TO_SUPPLY_AT_ONCE: bool = true;
/// G19 / G27: every participant, alone or not, takes raise/pass turns until it passes.
pub const LONE_PARTICIPANT_STILL_RAISES: bool = true;
/// G20: "the player on the left" is the next seat clockwise (seat + 1).
pub const LEFT_IS_NEXT_SEAT: bool = true;
