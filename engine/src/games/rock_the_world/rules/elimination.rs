//! R27, R32-R34, R39: the rocker who cannot pay is eliminated, as the variant says.

use super::Events;
use crate::games::rock_the_world::actions::Variant;
use crate::games::rock_the_world::components::CharacterId;
use crate::games::rock_the_world::components::{Token, Tokens};
use crate::games::rock_the_world::events::{DealtItem, End, GameEvent};
use crate::games::rock_the_world::state::RockTheWorld;
use crate::{Event, Seat};

impl RockTheWorld {
    /// R27/R32-R34: the rocker could not pay `by` in full. R33/R39 (friendly): "The game ends at
    /// once" and "the table is left as it stands": the rocker keeps his band and the star chip.
    pub(super) fn eliminate(&mut self, rocker: Seat, by: Seat, events: &mut Events) {
        self.players[rocker].out = true;
        self.eliminated.push(rocker);
        events.push(Event::public(GameEvent::Eliminated { seat: rocker, by }));
        if self.options.variant == Variant::Friendly {
            self.finish(End::RockerEliminated { rocker }, events);
            return;
        }
        self.rocker = None;
        let characters: Vec<CharacterId> = self.band(rocker).collect();
        let tokens = std::mem::take(&mut self.players[rocker].tokens);
        let before = self.leads();
        match self.options.variant {
            Variant::ModifiedFriendly => {
                let mut receiver = by;
                let items = characters.iter().map(|&c| DealtItem::Character(c)).chain(
                    Token::ALL
                        .into_iter()
                        .flat_map(|t| std::iter::repeat_n(DealtItem::Token(t), usize::from(tokens.get(t)))),
                );
                for item in items {
                    match item {
                        DealtItem::Character(c) => self.holders[c.index()] = Some(receiver),
                        DealtItem::Token(t) => *self.players[receiver].tokens.get_mut(t) += 1,
                    }
                    events.push(Event::public(GameEvent::Dealt {
                        seat: receiver,
                        from: rocker,
                        item,
                    }));
                    receiver = self.left_of(receiver);
                }
            }
            _ => {
                for &c in &characters {
                    self.holders[c.index()] = None;
                }
                self.supply.add(tokens);
                events.push(Event::public(GameEvent::RockerCleared {
                    seat: rocker,
                    characters,
                    tokens,
                }));
            }
        }
        self.report_leads(before, events);
        self.spent = Tokens::default();
        events.push(Event::public(GameEvent::PhaseOneResumed));
        let last = match self.in_game().count() {
            1 => self.in_game().next(),
            _ => None,
        };
        if let Some(last) = last {
            self.finish(End::LastStanding { seat: last }, events);
        } else {
            self.end_turn(events);
        }
    }
}
