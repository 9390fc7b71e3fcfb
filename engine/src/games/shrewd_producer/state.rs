//! The position: a plain data type.

use serde::{Deserialize, Serialize};

use super::actions::Options;
use super::components::{ArtistId, ScoutId, SongId, Suit};
use crate::rng::GameRng;
use crate::{BySeat, Seat};

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The Scout Money draft (setup, and again after round 6).
    Draft,
    /// Scout Phase: each seat plays Scout Money, from the lead clockwise.
    Scout,
    /// Raise Phase: participants raise or pass, in G5 order.
    Raise,
    /// 1st place (or the single participant) chooses an artist.
    Signing,
    /// Signers who completed their song pick the next level (G26).
    Songs,
    /// The game is over.
    Over,
}

/// What a seat put down in the Scout Phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoutBid {
    /// A Scout Money card, face up.
    Card(ScoutId),
    /// $200 of Raise Money instead of a lead-suit card (option B).
    Substitute,
}

/// One seat's holdings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Scout Money in hand (hidden from the others, G15).
    pub(crate) hand: Vec<ScoutId>,
    /// A draft pair waiting for the keep-one choice.
    pub(crate) pair: Option<[ScoutId; 2]>,
    /// The card passed left, until every seat has chosen (G22).
    pub(crate) passing: Option<ScoutId>,
    /// Raise Money bills in hand ($100 each).
    pub(crate) bills: u8,
    /// Debt marks taken.
    pub(crate) debts: u8,
    /// This round's Scout Phase play.
    pub(crate) bid: Option<ScoutBid>,
    /// In this round's Raise Phase.
    pub(crate) participating: bool,
    /// Raise Money bid this round, still in front of the seat (G18).
    pub(crate) raised: u8,
    /// Has passed in this round's Raise Phase.
    pub(crate) passed: bool,
    /// Signed artists (public, G15).
    pub(crate) artists: Vec<ArtistId>,
    /// Song cards taken, lowest level first; the last is the current one.
    pub(crate) songs: Vec<SongId>,
}

/// A game of Shrewd Producer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShrewdProducer {
    pub(crate) options: Options,
    pub(crate) rng: GameRng,
    pub(crate) stage: Stage,
    /// 1..=12 once the first round starts; 0 during the setup draft.
    pub(crate) round: u8,
    pub(crate) lead: Seat,
    /// The seat whose turn it is in the Scout and Raise phases.
    pub(crate) turn: Seat,
    /// Which passing step of the draft runs (1 or 2).
    pub(crate) draft_step: u8,
    pub(crate) players: BySeat<Player>,
    /// Face-down Scout Money, top card last.
    pub(crate) scout_deck: Vec<ScoutId>,
    pub(crate) scout_discard: Vec<ScoutId>,
    /// 3 players: the six cards taken out before the game.
    pub(crate) scout_removed: Vec<ScoutId>,
    /// Raise Money supply (= discard pile), in bills.
    pub(crate) supply: u8,
    /// Face-down artists, top card last.
    pub(crate) artist_deck: Vec<ArtistId>,
    /// This round's two artists.
    pub(crate) revealed: Vec<ArtistId>,
    pub(crate) artist_discard: Vec<ArtistId>,
    /// The open Lv.2 and Lv.3 song piles.
    pub(crate) open_songs: Vec<SongId>,
    /// 3 players: the Lv.1 song removed face down (G13).
    pub(crate) removed_songs: Vec<SongId>,
    /// This round's Raise-Phase order (G5).
    pub(crate) raise_order: Vec<Seat>,
    /// 1st and 2nd place (one seat with a single participant).
    pub(crate) ranking: Vec<Seat>,
    /// Signers still to pick songs, in order of distance from the lead (G26).
    pub(crate) song_queue: Vec<Seat>,
}

impl ShrewdProducer {
    /// Seats in this game.
    pub(crate) fn seats(&self) -> usize {
        self.players.len()
    }

    /// Clockwise distance from this round's lead (the lead is 0).
    pub(crate) fn distance(&self, seat: Seat) -> usize {
        (seat.index() + self.seats() - self.lead.index()) % self.seats()
    }

    /// G20: the player on the left is the next seat clockwise.
    pub(crate) fn left_of(&self, seat: Seat) -> Seat {
        seat.clockwise(1, self.seats())
    }

    /// The suit the lead's card set this round.
    pub(crate) fn lead_suit(&self) -> Option<Suit> {
        match self.players.get(self.lead)?.bid? {
            ScoutBid::Card(card) => Some(card.card().suit),
            ScoutBid::Substitute => None,
        }
    }

    /// The dollar value a Scout Phase play counts for (G6).
    pub(crate) fn scout_value(&self, bid: ScoutBid) -> u32 {
        match bid {
            ScoutBid::Card(card) => u32::from(card.card().value),
            ScoutBid::Substitute => self.options.substitute_bid(),
        }
    }

    /// A participant's total bid: Scout value plus Raise Money.
    pub(crate) fn total_bid(&self, seat: Seat) -> u32 {
        let p = &self.players[seat];
        p.bid.map_or(0, |b| self.scout_value(b)) + u32::from(p.raised) * super::components::BILL
    }
}
