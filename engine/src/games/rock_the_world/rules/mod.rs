//! Who acts, the legal actions and how each one plays out; each decision plays out in its own
//! module.

mod claims;
mod elimination;
mod gigs;
mod travel;

use super::actions::Action;
use super::components::Token;
use super::components::{BUS_REACH, DIE_SIDES, PlayCardId, SPACES, TRAIN_LINES};
use super::events::{End, GameEvent, PlayCard, RollPurpose};
use super::state::{RockTheWorld, Stage};
use crate::rng::GameRng;
use crate::{Event, Seat};

type Events = Vec<Event<GameEvent>>;

/// R20/R21: whether one `token` takes a cutout from `from` to `to`.
pub(super) fn reaches(token: Token, from: u8, to: u8) -> bool {
    if !(1..=SPACES).contains(&to) || to == from {
        return false;
    }
    match token {
        Token::Bus => {
            let ahead = (to + SPACES - from) % SPACES;
            ahead <= BUS_REACH || ahead >= SPACES - BUS_REACH
        }
        Token::Train => TRAIN_LINES
            .iter()
            .any(|line| line.contains(&from) && line.contains(&to)),
        Token::Plane => true,
    }
}

/// R16: the space `steps` clockwise from `from`; space 20 is followed by space 1.
fn clockwise(from: u8, steps: u8) -> u8 {
    (from - 1 + steps) % SPACES + 1
}

fn card_of(card: PlayCardId) -> PlayCard {
    PlayCard {
        id: card,
        kind: card.kind(),
    }
}

/// The order of a deck (top last), as the sealed shuffle event reports it: top first.
pub(super) fn deck_order(deck: &[PlayCardId]) -> Vec<PlayCardId> {
    deck.iter().rev().copied().collect()
}

/// Emits a die roll: public at once (R14) and sealed for the audit.
fn roll_die(rng: &mut GameRng, seat: Seat, purpose: RollPurpose, events: &mut Events) -> u8 {
    let value = rng.roll(DIE_SIDES);
    let body = GameEvent::DieRolled { seat, purpose, value };
    events.push(Event::sealed(body.clone()));
    events.push(Event::public(body));
    value
}

impl RockTheWorld {
    /// R15: only the active seat ever acts, and nobody once the game is over.
    pub(super) fn seats_to_act(&self) -> Vec<Seat> {
        match self.end() {
            Some(_) => Vec::new(),
            None => vec![self.active],
        }
    }

    /// Whether `seat` is in [`RockTheWorld::seats_to_act`].
    pub(super) fn is_to_act(&self, seat: Seat) -> bool {
        self.end().is_none() && seat == self.active
    }

    /// Every action `seat` may post now.
    pub(super) fn legal(&self, seat: Seat) -> Vec<Action> {
        match self.step {
            Stage::Roll => vec![Action::Roll],
            Stage::Main { .. } => {
                // Room for a full list (three buys, a plane's 19 spaces, ...) at once.
                let mut out = Vec::with_capacity(32);
                for token in Token::ALL {
                    if self.can_buy(seat, token).is_ok() {
                        out.push(Action::Buy { token });
                    }
                }
                let from = self.players[seat].space;
                for token in Token::ALL {
                    if self.players[seat].tokens.get(token) > 0 {
                        for to in 1..=SPACES {
                            if reaches(token, from, to) {
                                out.push(Action::Use { token, to });
                            }
                        }
                    }
                }
                if self.rocker.is_none() {
                    out.push(Action::Declare);
                }
                out.extend(
                    self.claim_options(seat)
                        .into_iter()
                        .map(|take| Action::Claim { take }),
                );
                if self.can_gig(seat).is_ok() {
                    out.push(Action::Gig);
                }
                out.push(Action::EndTurn);
                out
            }
            Stage::AfterClaim => {
                let mut out = Vec::new();
                if self.can_gig(seat).is_ok() {
                    out.push(Action::Gig);
                }
                out.push(Action::EndTurn);
                out
            }
            Stage::Over { .. } => Vec::new(),
        }
    }

    /// Why `action` is not in [`RockTheWorld::legal`] for the active seat, or `Ok`.
    pub(super) fn check(&self, seat: Seat, action: &Action) -> Result<(), String> {
        let in_main = matches!(self.step, Stage::Main { .. });
        let illegal = |reason: &str| Err(reason.to_owned());
        match action {
            Action::Roll if self.step == Stage::Roll => Ok(()),
            Action::Roll => illegal("the die is rolled once, at the start of the turn"),
            _ if self.step == Stage::Roll => illegal("a turn begins with the roll"),
            Action::Buy { token } => self.can_buy(seat, *token).map_err(String::from),
            Action::Use { .. } | Action::Declare | Action::Claim { .. } if !in_main => {
                illegal("after the claim only a gig or the end of the turn remain")
            }
            Action::Use { token, to } => {
                if self.players[seat].tokens.get(*token) == 0 {
                    illegal("you hold no token of that type")
                } else if !reaches(*token, self.players[seat].space, *to) {
                    illegal(match token {
                        Token::Bus => "a bus goes 1 or 2 spaces either way",
                        Token::Train => "a train goes along one side's line, corners included",
                        Token::Plane => "a plane goes to any other space (1 to 20)",
                    })
                } else {
                    Ok(())
                }
            }
            Action::Declare if self.rocker.is_some() => {
                illegal("someone is already attempting to Rock the World")
            }
            Action::Declare => Ok(()),
            Action::Claim { take } => self.check_claim(seat, take),
            Action::Gig => self.can_gig(seat).map_err(String::from),
            Action::EndTurn => Ok(()),
        }
    }

    /// Carries out a legal action.
    pub(super) fn play(&mut self, seat: Seat, action: &Action) -> Events {
        let mut events = Vec::new();
        match action {
            Action::Roll => self.roll(seat, &mut events),
            Action::Buy { token } => self.buy(seat, *token, &mut events),
            Action::Use { token, to } => self.use_token(seat, *token, *to, &mut events),
            Action::Declare => self.declare(seat, &mut events),
            Action::Claim { take } => self.claim(seat, take, &mut events),
            Action::Gig => self.gig(seat, &mut events),
            Action::EndTurn => self.end_turn(&mut events),
        }
        events
    }

    /// R36, then R12: the die passes to the next remaining seat clockwise.
    fn end_turn(&mut self, events: &mut Events) {
        let next = self.left_of(self.active);
        let cap = self.options.max_turns_per_seat;
        if cap > 0 && self.players[next].turns >= cap {
            self.finish(End::TurnCap { turns: cap }, events);
            return;
        }
        self.active = next;
        self.players[next].turns += 1;
        self.step = Stage::Roll;
        events.push(Event::public(GameEvent::TurnStarted {
            seat: next,
            turn: self.players[next].turns,
        }));
    }

    fn finish(&mut self, end: End, events: &mut Events) {
        self.step = Stage::Over { end };
        events.push(Event::public(GameEvent::GameOver { end }));
    }
}
