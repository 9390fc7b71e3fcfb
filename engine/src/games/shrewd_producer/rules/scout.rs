//! The Scout Phase: the round's artists revealed, Scout Money played face up (the lead sets
//! the suit, G24) or $200 substituted (G6, G7), debts (G23), and the Raise-Phase order (G5).

use super::Events;
use crate::games::shrewd_producer::components::*;
use crate::games::shrewd_producer::events::GameEvent;
use crate::games::shrewd_producer::state::{ScoutBid, ShrewdProducer, Stage};
use crate::{Event, Seat};

impl ShrewdProducer {
    /// "Flip over 2 new cards from the Artist card draw pile ... Start the Scout Phase with the
    /// new lead player."
    pub(super) fn start_round(&mut self, events: &mut Events) {
        self.round += 1;
        self.revealed.clear();
        for _ in 0..ARTISTS_PER_ROUND {
            if let Some(artist) = self.artist_deck.pop() {
                self.revealed.push(artist);
            }
        }
        self.stage = Stage::Scout;
        self.turn = self.lead;
        events.push(Event::public(GameEvent::RoundStarted {
            round: self.round,
            lead: self.lead,
            artists: self.revealed.clone(),
        }));
    }

    pub(super) fn take_debt(&mut self, seat: Seat, events: &mut Events) {
        self.supply -= DEBT_BILLS;
        let p = &mut self.players[seat];
        p.bills += DEBT_BILLS;
        p.debts += 1;
        events.push(Event::public(GameEvent::DebtTaken {
            seat,
            debts: p.debts,
            supply: u32::from(self.supply) * BILL,
        }));
    }

    pub(super) fn play_scout(&mut self, seat: Seat, card: ScoutId, events: &mut Events) {
        let suit = self.lead_suit();
        let p = &mut self.players[seat];
        p.hand.retain(|&c| c != card);
        p.bid = Some(ScoutBid::Card(card));
        // The lead's card sets the suit; a follower is in only with the lead suit.
        p.participating = suit.is_none_or(|s| s == card.card().suit);
        events.push(Event::public(GameEvent::ScoutPlayed {
            seat,
            card,
            raise_phase: p.participating,
        }));
        self.next_scout_turn(events);
    }

    pub(super) fn substitute(&mut self, seat: Seat, events: &mut Events) {
        let p = &mut self.players[seat];
        p.bills -= SUBSTITUTE_BILLS;
        p.bid = Some(ScoutBid::Substitute);
        p.participating = true;
        // G18: the substitute reaches the supply at once.
        self.supply += SUBSTITUTE_BILLS;
        events.push(Event::public(GameEvent::Substituted { seat }));
        self.next_scout_turn(events);
    }

    fn next_scout_turn(&mut self, events: &mut Events) {
        let next = self.left_of(self.turn);
        if next != self.lead {
            self.turn = next;
            return;
        }
        // G5: ascending Scout value; ties go first to the seat closer to the lead.
        let mut order: Vec<Seat> = Seat::all(self.seats())
            .filter(|&s| self.players[s].participating)
            .collect();
        order.sort_by_key(|&s| {
            (
                self.players[s].bid.map_or(0, |b| self.scout_value(b)),
                self.distance(s),
            )
        });
        self.turn = order.first().copied().unwrap_or(self.lead);
        events.push(Event::public(GameEvent::RaiseOrder { order: order.clone() }));
        self.raise_order = order;
        self.stage = Stage::Raise;
    }
}
