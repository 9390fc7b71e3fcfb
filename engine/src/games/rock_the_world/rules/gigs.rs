//! R26-R29: gigs, the play deck and the payments.

use super::{Events, card_of, deck_order};
use crate::games::rock_the_world::components::{CardKind, MONEY_UNIT, PlayCardId, city};
use crate::games::rock_the_world::events::{GameEvent, Payer};
use crate::games::rock_the_world::state::{RockTheWorld, Stage};
use crate::{Event, Seat};

impl RockTheWorld {
    /// R26: any player except the rocker may gig on an open space.
    pub(super) fn can_gig(&self, seat: Seat) -> Result<(), &'static str> {
        if !matches!(self.step, Stage::Main { .. } | Stage::AfterClaim) {
            return Err("a gig is played after the roll");
        }
        if self.rocker == Some(seat) {
            return Err("the rocker earns nothing and never plays a gig");
        }
        if !self.is_open(self.players[seat].space) {
            return Err("a gig needs an open city: a corner, or a city whose character has been claimed");
        }
        Ok(())
    }

    /// R29: the top card; an empty deck is first rebuilt from all 56 cards and shuffled. `None`
    /// only if the 56 cards were not all in the deck and the discard, which the invariants rule
    /// out.
    fn draw(&mut self, events: &mut Events) -> Option<PlayCardId> {
        if self.deck.is_empty() {
            self.deck.append(&mut self.discard);
            self.deck.sort_unstable();
            self.rng.shuffle(&mut self.deck);
            events.push(Event::sealed(GameEvent::DeckShuffled {
                order: deck_order(&self.deck),
            }));
            events.push(Event::public(GameEvent::DeckReshuffled {
                cards: self.deck.len(),
            }));
        }
        let card = self.deck.pop()?;
        self.discard.push(card);
        Some(card)
    }

    /// R26-R28: draw, get paid by the bank and every opponent present, or lose to a Fail.
    pub(super) fn gig(&mut self, seat: Seat, events: &mut Events) {
        let Some(card) = self.draw(events) else {
            return;
        };
        let kind = card.kind();
        let space = self.players[seat].space;
        let icons = city(space).map_or(0, |c| c.icons[self.players[seat].colour.index()]);
        let earnings = self.band_value(seat) * u64::from(icons) * kind.multiplier() * MONEY_UNIT;
        events.push(Event::public(GameEvent::CardDrawn {
            seat,
            card: card_of(card),
            earnings,
        }));
        let mut rocker_short = false;
        if let CardKind::Fail(character) = kind {
            if self.holders[character.index()] == Some(seat) {
                let before = self.leads();
                self.holders[character.index()] = None;
                events.push(Event::public(GameEvent::CharacterReturned { seat, character }));
                self.report_leads(before, events);
            }
        } else {
            self.players[seat].cash += earnings;
            self.bank_paid += earnings;
            events.push(Event::public(GameEvent::Paid {
                from: Payer::Bank,
                to: seat,
                amount: earnings,
                owed: earnings,
            }));
            let payers: Vec<Seat> = self.others_on(seat, space).collect();
            for payer in payers {
                let amount = earnings.min(self.players[payer].cash);
                self.players[payer].cash -= amount;
                self.players[seat].cash += amount;
                rocker_short |= Some(payer) == self.rocker && amount < earnings;
                events.push(Event::public(GameEvent::Paid {
                    from: Payer::Seat(payer),
                    to: seat,
                    amount,
                    owed: earnings,
                }));
            }
        }
        match self.rocker {
            Some(rocker) if rocker_short => self.eliminate(rocker, seat, events),
            _ => self.end_turn(events),
        }
    }
}
