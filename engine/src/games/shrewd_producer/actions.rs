//! What a seat posts, and the game options.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::components::{ArtistId, DUAL_FILLS_BOTH, SUBSTITUTE_COST, ScoutId, SongId};
use crate::Seat;

/// An action: the JSON a client posts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = ShrewdProducerAction)]
pub enum Action {
    /// Draft (G22): "choose 1 to add to their hand and pass the other face down to the player
    /// on their left". Every seat with a pair chooses, in any order.
    Keep {
        /// The Scout Money card of the pair to keep; the other is passed left.
        card: ScoutId,
    },
    /// "When you take a debt, put a checkmark by your name on a Debt Slip and receive $500 in
    /// Raise Money (five $100 bills) from the supply (if $500 is available in the supply!)."
    /// At most 5 per game; only on one's own Scout or Raise Phase turn (G23). Does not end
    /// the turn.
    TakeDebt,
    /// Scout Phase: play a Scout Money card face up. The lead's card sets the lead suit (G24).
    /// "If you have Scout Money of the lead suit, you must play one card of the same suit";
    /// without one, any card may be played (option A) and the seat "cannot participate in
    /// this round's Raise Phase".
    Play {
        /// The Scout Money card.
        card: ScoutId,
    },
    /// Scout Phase, option B: "If you don't have Scout Money of the lead suit, you can pay $200
    /// from your Raise Money (two $100 bills) to substitute for it." The money goes to the
    /// discard pile at once (G18); it counts as a $200 bid (G6).
    Substitute,
    /// Raise Phase ①: "Add Raise Money to the Scout Money you've already bid." G8: a multiple
    /// of $100, at least $100, no more than the seat holds.
    Raise {
        /// Dollars added (100, 200, ...).
        amount: u32,
    },
    /// Raise Phase ②: "If you choose not to raise (pass), you cannot raise again for the
    /// remainder of this round."
    Pass,
    /// Signing: "The player who bid the highest total amount (1st place) chooses one of the
    /// revealed Artist cards and signs (acquires) it." 2nd place gets the other (G25); a
    /// single participant chooses one and the other is discarded (G10).
    ChooseArtist {
        /// One of the two revealed artists.
        artist: ArtistId,
    },
    /// Song pick (G12, G26): "Choose one new Song card of the appropriate level and place it
    /// face up in front of you."
    TakeSong {
        /// An open song card one level above the seat's completed current song.
        song: SongId,
    },
    /// Song pick: decline the next-level song for now (G26: offered again the next time the
    /// seat signs).
    DeclineSong,
}

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
