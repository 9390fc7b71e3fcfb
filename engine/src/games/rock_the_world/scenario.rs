//! Positions built step by step: each step moves a component from wherever it lies (a
//! character to a band or back home, travel tokens from the supply, cash through the bank, a
//! play card to the top of the deck), and `build` checks the result with the game's
//! invariants, so a test states the rulebook's position without writing the game's private
//! fields.

use std::fmt;

use super::actions::Options;
use super::components::Tokens;
use super::components::{CharacterId, DIE_SIDES, PlayCardId, SPACES, Token};
use super::state::{RockTheWorld, Stage};
use crate::rng::GameRng;
use crate::{Game, Seat, SetupError};

/// Seeds tried for a die that shows a chosen value next.
const ROLL_SEEDS: u64 = 10_000;

/// Why a position could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// The game has no such seat.
    NoSeat(Seat),
    /// The board has no such space.
    NoSpace(u8),
    /// A die never shows this value.
    NoDieFace(u8),
    /// No play card has this printed id.
    UnknownCard(String),
    /// The supply (or, for the spent pool, the supply) holds fewer tokens of a type than asked.
    ShortSupply {
        /// The token type.
        token: Token,
        /// Tokens asked for.
        wanted: u8,
        /// Tokens there.
        held: u8,
    },
    /// The seat is out of the game.
    Eliminated(Seat),
    /// The built position breaks what must always hold.
    Invariant(String),
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::NoSeat(seat) => write!(f, "no seat {seat}"),
            ScenarioError::NoSpace(space) => write!(f, "no space {space}; spaces are 1 to {SPACES}"),
            ScenarioError::NoDieFace(v) => write!(f, "a die shows 1 to {DIE_SIDES}, not {v}"),
            ScenarioError::UnknownCard(id) => write!(f, "no play card {id}"),
            ScenarioError::ShortSupply { token, wanted, held } => {
                write!(f, "{wanted} {token:?} tokens wanted, {held} there")
            }
            ScenarioError::Eliminated(seat) => write!(f, "seat {seat} is out of the game"),
            ScenarioError::Invariant(e) => write!(f, "the position does not hold together: {e}"),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// A Rock the World position under construction.
#[derive(Clone, Debug)]
pub struct Scenario {
    game: RockTheWorld,
    error: Option<ScenarioError>,
}

impl Scenario {
    /// A game just set up: every cutout on New York with $100,000, the first seat to roll.
    pub fn new(options: Options, seats: usize, seed: u64) -> Result<Self, SetupError> {
        let (game, _) = RockTheWorld::setup(options, seats, seed)?;
        Ok(Scenario::from_game(game))
    }

    /// A position reached by play, to be changed further.
    pub fn from_game(game: RockTheWorld) -> Self {
        Scenario { game, error: None }
    }

    fn fail(&mut self, e: ScenarioError) {
        self.error.get_or_insert(e);
    }

    fn seat_ok(&mut self, seat: Seat) -> bool {
        let ok = seat.index() < self.game.players.len();
        if !ok {
            self.fail(ScenarioError::NoSeat(seat));
        }
        ok
    }

    fn space_ok(&mut self, space: u8) -> bool {
        let ok = (1..=SPACES).contains(&space);
        if !ok {
            self.fail(ScenarioError::NoSpace(space));
        }
        ok
    }

    /// Puts the seat's Lead Singer Cutout on `space`.
    pub fn space(mut self, seat: Seat, space: u8) -> Self {
        if self.seat_ok(seat) && self.space_ok(space) {
            self.game.players[seat].space = space;
        }
        self
    }

    /// It is the seat's turn, it has rolled (R16) and its cutout stands on `space`: it may now
    /// buy, use tokens, declare, claim, gig or end the turn.
    pub fn rolled(mut self, seat: Seat, space: u8) -> Self {
        if !self.seat_ok(seat) || !self.space_ok(space) {
            return self;
        }
        self.game.active = seat;
        self.game.step = Stage::Main {
            bought: 0,
            used: false,
        };
        self.game.players[seat].space = space;
        self
    }

    /// The next die rolled shows `value`.
    pub fn next_roll(mut self, value: u8) -> Self {
        if !(1..=DIE_SIDES).contains(&value) {
            self.fail(ScenarioError::NoDieFace(value));
            return self;
        }
        match (0..ROLL_SEEDS).find(|&s| GameRng::new(s).roll(DIE_SIDES) == value) {
            Some(seed) => self.game.rng = GameRng::new(seed),
            None => self.fail(ScenarioError::NoDieFace(value)),
        }
        self
    }

    /// Puts the play card with this printed id, taken from the deck or the discard pile, on
    /// top of the deck: the next gig draws it.
    pub fn top_card(mut self, id: &str) -> Self {
        let Some(card) = PlayCardId::find(id) else {
            self.fail(ScenarioError::UnknownCard(id.to_owned()));
            return self;
        };
        self.game.deck.retain(|&c| c != card);
        self.game.discard.retain(|&c| c != card);
        self.game.deck.push(card);
        self
    }

    /// Every play card lies in the discard pile, the deck empty (R29: the next draw reshuffles).
    pub fn deck_spent(mut self) -> Self {
        let mut deck = std::mem::take(&mut self.game.deck);
        self.game.discard.append(&mut deck);
        self
    }

    /// Sets the seat's cash (R37: whole dollars); the bank pays the difference, or takes it in.
    pub fn cash(mut self, seat: Seat, cash: u64) -> Self {
        if !self.seat_ok(seat) {
            return self;
        }
        let g = &mut self.game;
        let old = g.players[seat].cash;
        if cash > old {
            g.bank_paid += cash - old;
        } else {
            g.bank_received += old - cash;
        }
        g.players[seat].cash = cash;
        self
    }

    /// The seat holds these characters besides any it holds, each taken from its home space or
    /// from whoever holds it.
    pub fn band(mut self, seat: Seat, characters: &[CharacterId]) -> Self {
        if self.seat_ok(seat) {
            for c in characters {
                self.game.holders[c.index()] = Some(seat);
            }
        }
        self
    }

    /// These characters stand on their home spaces again, held by nobody.
    pub fn home(mut self, characters: &[CharacterId]) -> Self {
        for c in characters {
            self.game.holders[c.index()] = None;
        }
        self
    }

    /// The seat holds exactly these travel tokens: it takes what it lacks from the supply and
    /// returns the rest to it (R2).
    pub fn tokens(mut self, seat: Seat, tokens: Tokens) -> Self {
        if !self.seat_ok(seat) {
            return self;
        }
        for token in Token::ALL {
            let g = &mut self.game;
            let held = g.players[seat].tokens.get(token);
            let wanted = tokens.get(token);
            let supply = g.supply.get(token);
            if wanted > held + supply {
                self.fail(ScenarioError::ShortSupply {
                    token,
                    wanted: wanted - held,
                    held: supply,
                });
                return self;
            }
            *g.supply.get_mut(token) = held + supply - wanted;
            *g.players[seat].tokens.get_mut(token) = wanted;
        }
        self
    }

    /// These tokens, taken from the supply, lie in the spent pool (R20: used in phase one).
    pub fn spent(mut self, tokens: Tokens) -> Self {
        for token in Token::ALL {
            let g = &mut self.game;
            let wanted = tokens.get(token);
            let supply = g.supply.get(token);
            if wanted > supply {
                self.fail(ScenarioError::ShortSupply {
                    token,
                    wanted,
                    held: supply,
                });
                return self;
            }
            *g.supply.get_mut(token) -= wanted;
            *g.spent.get_mut(token) += wanted;
        }
        self
    }

    /// The seat attempts to Rock the World and holds the star chip (R8).
    pub fn rocker(mut self, seat: Seat) -> Self {
        if !self.seat_ok(seat) {
            return self;
        }
        if self.game.players[seat].out {
            self.fail(ScenarioError::Eliminated(seat));
            return self;
        }
        self.game.rocker = Some(seat);
        self
    }

    /// The seat is eliminated, after any seat eliminated before (R32, R35): its cash goes to
    /// the bank, its tokens to the supply, its characters home.
    pub fn eliminated(mut self, seat: Seat) -> Self {
        if !self.seat_ok(seat) {
            return self;
        }
        if self.game.players[seat].out {
            self.fail(ScenarioError::Eliminated(seat));
            return self;
        }
        self = self.cash(seat, 0).tokens(seat, Tokens::default());
        let g = &mut self.game;
        for holder in g.holders.iter_mut().filter(|h| **h == Some(seat)) {
            *holder = None;
        }
        if g.rocker == Some(seat) {
            g.rocker = None;
        }
        g.players[seat].out = true;
        g.eliminated.push(seat);
        self
    }

    /// The position as it stands.
    pub fn position(&self) -> &RockTheWorld {
        &self.game
    }

    /// The position, if every step applied and it holds together.
    pub fn build(self) -> Result<RockTheWorld, ScenarioError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.game.check_invariants().map_err(ScenarioError::Invariant)?;
        Ok(self.game)
    }
}
