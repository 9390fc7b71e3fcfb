//! The trend dice, TREND EXPERT (S29) and the event rondel.

use super::*;

impl ShowBusiness {
    /// S4 / TREND CHANGE: roll white, blue, yellow, red; face 6 is the blank.
    pub(crate) fn roll_dice(&mut self, ev: &mut Events) {
        for (i, die) in Die::ALL.into_iter().enumerate() {
            let face = self.rng.roll(6);
            ev.push(Event::sealed(GameEvent::Rolled { die, face }));
            self.dice[i] = if face == 6 { None } else { Some(face - 1) };
            tell(
                ev,
                GameEvent::DieShows {
                    die,
                    face: self.dice[i].map(|v| die.face_name(v)),
                    seat: None,
                },
            );
        }
    }

    /// RULINGS 3: TREND EXPERT returns to its owner's influence field; S34: a bankrupt
    /// placer's card goes to the discard pile.
    pub(crate) fn return_trend_expert(&mut self, ev: &mut Events) {
        if let Some((card, placer)) = self.trend_expert.take() {
            let discarded = !self.solvent(placer);
            if discarded {
                self.influence_discard.push(card);
            } else {
                self.players[placer].influence_field.push(card);
            }
            tell(
                ev,
                GameEvent::TrendExpertReturned {
                    seat: placer,
                    card: card_id(card),
                    discarded,
                },
            );
        }
    }
}
