//! R16-R21: the move roll, and buying and using travel tokens.

use super::{Events, clockwise, roll_die};
use crate::games::rock_the_world::components::Token;
use crate::games::rock_the_world::components::{BUY_LIMIT_CORNER, BUY_LIMIT_REGULAR, TOKEN_PRICE, city};
use crate::games::rock_the_world::events::{GameEvent, MoveBy, RollPurpose, TokenDestination};
use crate::games::rock_the_world::state::{RockTheWorld, Stage};
use crate::{Event, Seat};

impl RockTheWorld {
    /// R2/R18: the purchase limit of the space the cutout stands on.
    fn buy_limit(&self, seat: Seat) -> u8 {
        match city(self.players[seat].space) {
            Some(c) if c.corner => BUY_LIMIT_CORNER,
            _ => BUY_LIMIT_REGULAR,
        }
    }

    pub(super) fn can_buy(&self, seat: Seat, token: Token) -> Result<(), &'static str> {
        match self.step {
            Stage::Main { used: true, .. } => Err("tokens can only be bought before the first token is used"),
            Stage::Main { bought, .. } if bought >= self.buy_limit(seat) => {
                Err("the purchase limit of this space is reached for this turn")
            }
            Stage::Main { .. } if self.players[seat].cash < TOKEN_PRICE => Err("a token costs $100,000"),
            Stage::Main { .. } if self.supply.get(token) == 0 => {
                Err("none of that token is left in the supply")
            }
            Stage::Main { .. } => Ok(()),
            _ => Err("tokens are bought after the roll, before anything else is done"),
        }
    }

    /// R16: 1d6, moved clockwise.
    pub(super) fn roll(&mut self, seat: Seat, events: &mut Events) {
        let value = roll_die(&mut self.rng, seat, RollPurpose::Move, events);
        self.last_roll = Some(value);
        let from = self.players[seat].space;
        let to = clockwise(from, value);
        self.players[seat].space = to;
        events.push(Event::public(GameEvent::Moved {
            seat,
            from,
            to,
            by: MoveBy::Die,
        }));
        self.step = Stage::Main {
            bought: 0,
            used: false,
        };
    }

    /// R18: $100,000 to the bank for one token from the supply.
    pub(super) fn buy(&mut self, seat: Seat, token: Token, events: &mut Events) {
        let player = &mut self.players[seat];
        player.cash -= TOKEN_PRICE;
        *player.tokens.get_mut(token) += 1;
        *self.supply.get_mut(token) -= 1;
        self.bank_received += TOKEN_PRICE;
        if let Stage::Main { bought, .. } = &mut self.step {
            *bought += 1;
        }
        events.push(Event::public(GameEvent::TokenBought {
            seat,
            token,
            price: TOKEN_PRICE,
        }));
    }

    /// R20: the token leaves play in phase one, and returns to the supply in the final phase.
    pub(super) fn use_token(&mut self, seat: Seat, token: Token, to: u8, events: &mut Events) {
        let player = &mut self.players[seat];
        *player.tokens.get_mut(token) -= 1;
        let from = player.space;
        player.space = to;
        let destination = if self.rocker.is_some() {
            *self.supply.get_mut(token) += 1;
            TokenDestination::Supply
        } else {
            *self.spent.get_mut(token) += 1;
            TokenDestination::SpentPool
        };
        if let Stage::Main { used, .. } = &mut self.step {
            *used = true;
        }
        events.push(Event::public(GameEvent::TokenSpent {
            seat,
            token,
            to: destination,
        }));
        let by = match token {
            Token::Bus => MoveBy::Bus,
            Token::Train => MoveBy::Train,
            Token::Plane => MoveBy::Plane,
        };
        events.push(Event::public(GameEvent::Moved { seat, from, to, by }));
    }
}
