//! The position: players, the characters, the tokens, the deck and where the turn stands.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::actions::Options;
use super::components::Tokens;
use super::components::{CharacterId, Colour, FAMILY_SIZE, FLIPPED_LEAD_VALUE, LEAD_VALUE, PlayCardId, city};
use super::events::End;
use crate::rng::GameRng;
use crate::{BySeat, Seat};

/// One player's position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// R12: the Lead's colour.
    pub colour: Colour,
    /// The space of the Lead Singer Cutout (1 to 20).
    pub space: u8,
    /// R37: whole dollars.
    pub cash: u64,
    /// Travel tokens held.
    pub tokens: Tokens,
    /// R32: out of the game (an eliminated rocker).
    pub out: bool,
    /// Turns begun.
    pub turns: u32,
}

/// Where the active seat's turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "step", rename_all = "snake_case")]
#[schema(as = RockTheWorldStep)]
pub enum Stage {
    /// R16: the turn begins with the move roll.
    Roll,
    /// R4 steps 2 to 5: buy, use tokens, declare, claim, gig or end the turn.
    Main {
        /// R18: tokens bought this turn.
        bought: u8,
        /// R19: a token was used this turn, which closes buying.
        used: bool,
    },
    /// Option `gig_after_claim`: the board character was taken; gig or end the turn.
    AfterClaim,
    /// The game is over.
    Over {
        /// Why.
        end: End,
    },
}

/// A game of Rock the World.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RockTheWorld {
    pub(super) options: Options,
    pub(super) players: BySeat<Player>,
    /// Who holds each character (by [`CharacterId::index`]); `None` is on its home space.
    pub(super) holders: [Option<Seat>; 16],
    /// R2: tokens on the board for sale.
    pub(super) supply: Tokens,
    /// R20: tokens spent in phase one, out of play until the next declaration.
    pub(super) spent: Tokens,
    /// R8: the player attempting to Rock the World, who holds the star chip.
    pub(super) rocker: Option<Seat>,
    /// The play deck, the top last.
    pub(super) deck: Vec<PlayCardId>,
    /// R29: the public discard pile, oldest first.
    pub(super) discard: Vec<PlayCardId>,
    pub(super) active: Seat,
    pub(super) step: Stage,
    /// R35: eliminated seats, earliest first.
    pub(super) eliminated: Vec<Seat>,
    /// The last die rolled, for the view.
    pub(super) last_roll: Option<u8>,
    /// Money the bank has paid out, and taken in, so that cash is accounted for.
    pub(super) bank_paid: u64,
    pub(super) bank_received: u64,
    pub(super) rng: GameRng,
}

impl RockTheWorld {
    /// Number of seats.
    pub(super) fn seats(&self) -> usize {
        self.players.len()
    }

    /// Seats still in the game.
    pub(super) fn in_game(&self) -> impl Iterator<Item = Seat> + '_ {
        self.players.seats().filter(|(_, p)| !p.out).map(|(s, _)| s)
    }

    /// The next seat clockwise from `seat` that has not been eliminated (R12: "left").
    pub(super) fn left_of(&self, seat: Seat) -> Seat {
        let n = self.seats();
        (1..=n)
            .map(|k| seat.clockwise(k, n))
            .find(|&s| !self.players[s].out)
            .unwrap_or(seat)
    }

    /// Seats other than `seat`, still in the game and on `space`, clockwise from `seat`.
    pub(super) fn others_on(&self, seat: Seat, space: u8) -> impl Iterator<Item = Seat> + '_ {
        let n = self.seats();
        (1..n)
            .map(move |k| seat.clockwise(k, n))
            .filter(move |&s| !self.players[s].out && self.players[s].space == space)
    }

    /// The character standing on `space`, if its home is there and nobody holds it.
    pub(super) fn board_character(&self, space: u8) -> Option<CharacterId> {
        city(space)
            .and_then(|c| c.character)
            .filter(|c| self.holders[c.index()].is_none())
    }

    /// R26: a corner, or a regular city whose character is held by someone.
    pub(super) fn is_open(&self, space: u8) -> bool {
        city(space)
            .is_some_and(|c| c.corner || c.character.is_some_and(|ch| self.holders[ch.index()].is_some()))
    }

    /// R32: an eliminated player's cutout is removed; R39: a friendly elimination leaves the table
    /// as it stands, the rocker's cutout included.
    pub(super) fn cutout_on_board(&self, seat: Seat) -> bool {
        !self.players[seat].out || self.end() == Some(End::RockerEliminated { rocker: seat })
    }

    /// The seats whose cutout stands on `space`, in seat order.
    pub(super) fn cutouts_at(&self, space: u8) -> Vec<Seat> {
        self.players
            .seats()
            .filter(|&(s, p)| p.space == space && self.cutout_on_board(s))
            .map(|(s, _)| s)
            .collect()
    }

    /// Characters held by `seat`, ascending.
    pub(super) fn band(&self, seat: Seat) -> impl Iterator<Item = CharacterId> + '_ {
        CharacterId::ALL
            .into_iter()
            .filter(move |c| self.holders[c.index()] == Some(seat))
    }

    /// R12: a character of another colour than the holder's Lead (an unused colour's
    /// characters are extras for every holder).
    pub(super) fn is_extra(&self, seat: Seat, character: CharacterId) -> bool {
        character.card().colour != self.players[seat].colour
    }

    /// Family characters held by `seat`.
    pub(super) fn family(&self, seat: Seat) -> impl Iterator<Item = CharacterId> + '_ {
        self.band(seat).filter(move |&c| !self.is_extra(seat, c))
    }

    /// R25: the Lead is turned over while all four family characters are held.
    pub(super) fn lead_flipped(&self, seat: Seat) -> bool {
        self.family(seat).count() == FAMILY_SIZE
    }

    /// R25: 10 + every held character; with the Lead turned over, 30 + extras only.
    pub(super) fn band_value(&self, seat: Seat) -> u64 {
        // One pass over the band: the family held, its value, and the extras' value.
        let (mut family, mut family_value, mut extras) = (0, 0, 0);
        for c in self.band(seat) {
            let value = u64::from(c.card().value);
            if self.is_extra(seat, c) {
                extras += value;
            } else {
                family += 1;
                family_value += value;
            }
        }
        if family == FAMILY_SIZE {
            FLIPPED_LEAD_VALUE + extras
        } else {
            LEAD_VALUE + family_value + extras
        }
    }

    /// R30: whether any outsider anywhere still holds an extra.
    pub(super) fn outsider_extras_remain(&self) -> bool {
        CharacterId::ALL
            .into_iter()
            .any(|c| match self.holders[c.index()] {
                Some(h) => Some(h) != self.rocker && self.is_extra(h, c),
                None => false,
            })
    }

    /// The game's end, once it is over.
    pub(super) fn end(&self) -> Option<End> {
        match self.step {
            Stage::Over { end } => Some(end),
            _ => None,
        }
    }
}
