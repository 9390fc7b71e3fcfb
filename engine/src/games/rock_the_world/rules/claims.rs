//! R5, R22-R25, R30, R43: declaring Rock the World, claims, and the Lead turning over.

use super::{Events, roll_die};
use crate::games::rock_the_world::components::CharacterId;
use crate::games::rock_the_world::events::{End, GameEvent, RollPurpose};
use crate::games::rock_the_world::state::{RockTheWorld, Stage};
use crate::{BySeat, Event, Seat};

impl RockTheWorld {
    /// R24/R30: the characters of seat `holder` that `seat` may add to a claim, if any.
    fn claimable_from(&self, seat: Seat, holder: Seat, character: CharacterId, extras_remain: bool) -> bool {
        if holder == seat || Some(holder) == self.rocker || self.players[holder].out {
            return false;
        }
        if self.players[holder].space != self.players[seat].space {
            return false;
        }
        if self.rocker == Some(seat) && !extras_remain {
            !self.is_extra(holder, character)
        } else {
            self.is_extra(holder, character)
        }
    }

    /// R24/R30: every legal `take` list, each in ascending id order.
    pub(super) fn claim_options(&self, seat: Seat) -> Vec<Vec<CharacterId>> {
        let space = self.players[seat].space;
        let board = self.board_character(space);
        let is_rocker = self.rocker == Some(seat);
        if board.is_none() && !is_rocker {
            return Vec::new();
        }
        let extras_remain = is_rocker && self.outsider_extras_remain();
        let mut combos: Vec<Vec<CharacterId>> = vec![board.into_iter().collect()];
        for opponent in self.others_on(seat, space) {
            let choices: Vec<CharacterId> = self
                .band(opponent)
                .filter(|&c| self.claimable_from(seat, opponent, c, extras_remain))
                .collect();
            if choices.is_empty() {
                continue;
            }
            let mut next = Vec::with_capacity(combos.len() * (choices.len() + 1));
            for combo in &combos {
                next.push(combo.clone());
                for &c in &choices {
                    let mut with = combo.clone();
                    with.push(c);
                    next.push(with);
                }
            }
            combos = next;
        }
        combos.retain(|c| !c.is_empty());
        for combo in &mut combos {
            combo.sort_unstable();
        }
        combos.sort_unstable();
        combos
    }

    /// R24/R30: whether `take` is one of the listed claims, without listing them.
    pub(super) fn check_claim(&self, seat: Seat, take: &[CharacterId]) -> Result<(), String> {
        let space = self.players[seat].space;
        let board = self.board_character(space);
        let is_rocker = self.rocker == Some(seat);
        if board.is_none() && !is_rocker {
            return Err("a claim is only possible where a character stands on the board".into());
        }
        if take.is_empty() {
            return Err("a claim names at least one character".into());
        }
        if take.windows(2).any(|w| w[0] >= w[1]) {
            return Err("list the characters once each, in ascending id order".into());
        }
        if let Some(b) = board
            && !take.contains(&b)
        {
            return Err(format!(
                "the claim must include {}, the character on this space",
                b.as_str()
            ));
        }
        let extras_remain = is_rocker && self.outsider_extras_remain();
        let mut from_seat = BySeat::from_fn(self.seats(), |_| false);
        for &c in take.iter().filter(|&&c| Some(c) != board) {
            let Some(holder) = self.holders[c.index()] else {
                return Err(format!("{} is not on this space", c.as_str()));
            };
            if !self.claimable_from(seat, holder, c, extras_remain) {
                return Err(format!(
                    "{} is not eligible: only one character of an opponent on this space, never \
                     the rocker's, never a family character (for the rocker: extras first)",
                    c.as_str()
                ));
            }
            let Some(slot) = from_seat.get_mut(holder) else {
                return Err("no such seat".into());
            };
            if *slot {
                return Err("at most one character from each opponent".into());
            }
            *slot = true;
        }
        Ok(())
    }

    /// R22: the star chip and the spent pool go to the declarer; the turn ends.
    pub(super) fn declare(&mut self, seat: Seat, events: &mut Events) {
        self.rocker = Some(seat);
        let took = std::mem::take(&mut self.spent);
        self.players[seat].tokens.add(took);
        events.push(Event::public(GameEvent::Declared { seat, took }));
        if self.band(seat).count() == CharacterId::ALL.len() {
            self.finish(End::RockedTheWorld { rocker: seat }, events);
        } else {
            self.end_turn(events);
        }
    }

    /// Whether each seat's Lead is turned over (R25).
    pub(super) fn leads(&self) -> BySeat<bool> {
        BySeat::from_fn(self.seats(), |seat| self.lead_flipped(seat))
    }

    /// R25/R43: reports every Lead that turned since `before`, the eliminated rocker's included
    /// ("it flips back at once when a family character leaves the band").
    pub(super) fn report_leads(&self, before: BySeat<bool>, events: &mut Events) {
        for (seat, &flipped) in self.leads().seats() {
            if before[seat] != flipped {
                events.push(Event::public(GameEvent::LeadTurned { seat, flipped }));
            }
        }
    }

    /// R5/R24/R30: one roll; every listed character whose value it meets is won.
    pub(super) fn claim(&mut self, seat: Seat, take: &[CharacterId], events: &mut Events) {
        let board = self.board_character(self.players[seat].space);
        events.push(Event::public(GameEvent::ClaimMade {
            seat,
            take: take.to_vec(),
        }));
        let roll = roll_die(&mut self.rng, seat, RollPurpose::Claim, events);
        self.last_roll = Some(roll);
        let before = self.leads();
        let mut board_taken = false;
        for &character in take {
            if character.card().value <= roll {
                let from = self.holders[character.index()];
                self.holders[character.index()] = Some(seat);
                board_taken |= Some(character) == board;
                events.push(Event::public(GameEvent::CharacterWon {
                    seat,
                    character,
                    from,
                }));
            } else {
                events.push(Event::public(GameEvent::CharacterMissed { seat, character }));
            }
        }
        self.report_leads(before, events);
        let is_rocker = self.rocker == Some(seat);
        if is_rocker && self.band(seat).count() == CharacterId::ALL.len() {
            self.finish(End::RockedTheWorld { rocker: seat }, events);
        } else if board_taken && !is_rocker && self.options.gig_after_claim {
            self.step = Stage::AfterClaim;
        } else {
            self.end_turn(events);
        }
    }
}
