//! The Raise Phase (G5, G8): raises and passes in the fixed order, then the places.

use super::Events;
use crate::games::shrewd_producer::components::*;
use crate::games::shrewd_producer::events::GameEvent;
use crate::games::shrewd_producer::state::{ShrewdProducer, Stage};
use crate::{Event, Seat};

impl ShrewdProducer {
    pub(super) fn raise(&mut self, seat: Seat, amount: u32, events: &mut Events) {
        let bills = (amount / RAISE_STEP) as u8;
        let p = &mut self.players[seat];
        p.bills -= bills;
        p.raised += bills;
        events.push(Event::public(GameEvent::Raised {
            seat,
            amount,
            total: self.total_bid(seat),
        }));
        self.next_raise_turn(events);
    }

    pub(super) fn pass(&mut self, seat: Seat, events: &mut Events) {
        self.players[seat].passed = true;
        events.push(Event::public(GameEvent::Passed { seat }));
        self.next_raise_turn(events);
    }

    /// G5: turns cycle through the fixed order, skipping seats that passed, until all passed.
    fn next_raise_turn(&mut self, events: &mut Events) {
        let n = self.raise_order.len();
        let at = self.raise_order.iter().position(|&s| s == self.turn).unwrap_or(0);
        for k in 1..=n {
            let s = self.raise_order[(at + k) % n];
            if !self.players[s].passed {
                self.turn = s;
                return;
            }
        }
        self.rank(events);
    }

    /// "the player with the highest total bid ... is 1st, and the player with the second-highest
    /// total bid is 2nd"; ties go to the seat closer to the lead.
    fn rank(&mut self, events: &mut Events) {
        let mut order = self.raise_order.clone();
        order.sort_by_key(|&s| (std::cmp::Reverse(self.total_bid(s)), self.distance(s)));
        order.truncate(2);
        events.push(Event::public(GameEvent::Ranked {
            places: order.clone(),
            totals: order.iter().map(|&s| self.total_bid(s)).collect(),
        }));
        self.ranking = order;
        self.stage = Stage::Signing;
    }
}
