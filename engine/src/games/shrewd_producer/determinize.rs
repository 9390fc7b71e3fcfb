//! The position a seat cannot tell apart from this one, for the expert bot's search.
//!
//! G15: Scout hands and the face-down piles are the only hidden information. The sample keeps
//! the seat's own cards and everything on the table, and deals the Scout Money no one has shown
//! it (the other hands, their draft pairs and passed cards, the face-down pile) anew, each hand
//! and pile at the size everyone sees; the artist pile is shuffled again and the rng drawn anew.
//! The Lv.1 song removed face down stays: the other three were dealt face up, so every seat
//! knows it.

use rand::RngCore;

use super::components::ScoutId;
use super::state::ShrewdProducer;
use crate::Seat;
use crate::rng::GameRng;

impl ShrewdProducer {
    /// A sample for `seat`, drawn with `rng`.
    pub(super) fn determinized(&self, seat: Seat, rng: &mut dyn RngCore) -> Self {
        let mut sample = self.clone();
        let mut draw = GameRng::new(rng.next_u64());
        let mut unseen: Vec<ScoutId> = sample.scout_deck.clone();
        for (s, p) in sample.players.seats() {
            if s != seat {
                unseen.extend(
                    p.hand
                        .iter()
                        .chain(p.pair.iter().flatten())
                        .chain(p.passing.iter()),
                );
            }
        }
        unseen.sort_unstable();
        draw.shuffle(&mut unseen);
        for (s, p) in sample.players.seats_mut() {
            if s == seat {
                continue;
            }
            for card in p
                .hand
                .iter_mut()
                .chain(p.pair.iter_mut().flatten())
                .chain(p.passing.iter_mut())
            {
                if let Some(dealt) = unseen.pop() {
                    *card = dealt;
                }
            }
            p.hand.sort_unstable();
        }
        sample.scout_deck = unseen;
        sample.artist_deck.sort_unstable();
        draw.shuffle(&mut sample.artist_deck);
        sample.rng = GameRng::new(rng.next_u64());
        sample
    }
}
