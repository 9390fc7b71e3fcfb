//! The position a seat cannot tell apart from this one, for the expert bot's search.
//!
//! R14: "everything is public except the order of the play deck", and the dice to come: the
//! sample keeps the board, the cash, the tokens and the discard pile, shuffles the cards left in
//! the deck and draws new dice.

use rand::RngCore;

use super::state::RockTheWorld;
use crate::Seat;
use crate::rng::GameRng;

impl RockTheWorld {
    /// A sample for `seat`, drawn with `rng`: the deck's cards (which the discard pile tells) in
    /// a new order, and a new die.
    pub(super) fn determinized(&self, _seat: Seat, rng: &mut dyn RngCore) -> Self {
        let mut sample = self.clone();
        let mut dice = GameRng::new(rng.next_u64());
        sample.deck.sort_unstable();
        dice.shuffle(&mut sample.deck);
        sample.rng = dice;
        sample
    }
}
