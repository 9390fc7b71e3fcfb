//! The Scout Money draft (DERIVED 3, G14, G22, G28): draw, keep one of each pair, pass the other
//! left.

use super::Events;
use crate::games::shrewd_producer::components::*;
use crate::games::shrewd_producer::events::GameEvent;
use crate::games::shrewd_producer::state::{ShrewdProducer, Stage};
use crate::{Event, Seat};

impl ShrewdProducer {
    /// DERIVED 3 / G22: shuffle the Scout Money, each seat draws 2 from the lead clockwise,
    /// then the first passing step.
    pub(crate) fn start_draft(&mut self, events: &mut Events) {
        self.rng.shuffle(&mut self.scout_deck);
        events.push(Event::sealed(GameEvent::ScoutMoneyShuffled {
            order: self.scout_deck.iter().rev().copied().collect(),
        }));
        self.stage = Stage::Draft;
        for seat in self.clockwise_from_lead() {
            let mut cards = Vec::with_capacity(FIRST_DRAW);
            for _ in 0..FIRST_DRAW {
                if let Some(card) = self.scout_deck.pop() {
                    cards.push(card);
                }
            }
            let hand = &mut self.players[seat].hand;
            hand.extend_from_slice(&cards);
            hand.sort_unstable();
            events.push(Event::public(GameEvent::ScoutDrawn {
                seat,
                count: cards.len(),
            }));
            events.push(Event::private(
                seat,
                GameEvent::ScoutCardsDrawn {
                    seat,
                    cards,
                    to_choose: false,
                },
            ));
        }
        self.draft_step = 1;
        self.deal_pairs(events);
    }

    /// "each player draws 2 cards. They choose 1 to add to their hand and pass the other".
    fn deal_pairs(&mut self, events: &mut Events) {
        for seat in self.clockwise_from_lead() {
            let (Some(a), Some(b)) = (self.scout_deck.pop(), self.scout_deck.pop()) else {
                continue;
            };
            self.players[seat].pair = Some([a, b]);
            events.push(Event::public(GameEvent::ScoutDrawn { seat, count: 2 }));
            events.push(Event::private(
                seat,
                GameEvent::ScoutCardsDrawn {
                    seat,
                    cards: vec![a, b],
                    to_choose: true,
                },
            ));
        }
    }

    pub(super) fn keep(&mut self, seat: Seat, card: ScoutId, events: &mut Events) {
        let p = &mut self.players[seat];
        let Some([a, b]) = p.pair.take() else {
            return;
        };
        let passed = if a == card { b } else { a };
        p.hand.push(card);
        p.hand.sort_unstable();
        p.passing = Some(passed);
        events.push(Event::public(GameEvent::Kept { seat }));
        events.push(Event::private(seat, GameEvent::KeptCard { seat, kept: card }));
        if self.players.iter().any(|p| p.pair.is_some()) {
            return;
        }
        // G22: when all have chosen, each passed card goes straight into the left hand.
        let seats = self
            .clockwise_from_lead()
            .filter(|&from| self.players[from].passing.is_some())
            .map(|from| self.left_of(from))
            .collect();
        events.push(Event::public(GameEvent::CardsPassedLeft { seats }));
        for from in self.clockwise_from_lead() {
            if let Some(card) = self.players[from].passing.take() {
                let to = self.left_of(from);
                let hand = &mut self.players[to].hand;
                hand.push(card);
                hand.sort_unstable();
                events.push(Event::private(
                    to,
                    GameEvent::CardReceived { seat: to, from, card },
                ));
            }
        }
        if self.draft_step < PASSING_STEPS {
            self.draft_step += 1;
            self.deal_pairs(events);
        } else {
            self.draft_step = 0;
            self.start_round(events);
        }
    }
}
