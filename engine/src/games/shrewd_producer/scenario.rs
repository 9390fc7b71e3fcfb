//! Positions built step by step: each step moves a component from wherever it lies (a card, a
//! song, an artist, Raise Money to or from the supply), and `build` checks the result with the
//! game's invariants, so a test states the rulebook's position without writing the game's
//! private fields.

use std::fmt;

use super::actions::Options;
use super::components::{ARTISTS, ARTISTS_PER_ROUND, ArtistId, MAX_DEBTS, ROUNDS, ScoutId, SongId};
use super::state::{ScoutBid, ShrewdProducer, Stage};
use crate::{Game, Seat, SetupError};

/// Why a position could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// The game has no such seat.
    NoSeat(Seat),
    /// No Scout Money card has this id.
    UnknownScoutMoney(String),
    /// No artist card has this id.
    UnknownArtist(String),
    /// No song card has this id.
    UnknownSong(String),
    /// The Scout Money card lies where a hand cannot take it from: removed before a 3-player
    /// game, in a draft pair or passed card, or played this round.
    ScoutMoneyUnavailable(String),
    /// The artist is neither face down, revealed, discarded nor signed.
    ArtistUnavailable(String),
    /// An artist taken from the revealed pair leaves no face-down artist to take its place.
    ArtistPileEmpty,
    /// The supply holds fewer Raise Money bills than a seat is to receive.
    ShortSupply {
        /// Bills the seat is to receive.
        wanted: u8,
        /// Bills in the supply.
        supply: u8,
    },
    /// More debt marks than the game has.
    TooManyDebts(u8),
    /// A round before the current one, or past the last.
    NoSuchRound(u8),
    /// The built position breaks what must always hold.
    Invariant(String),
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::NoSeat(seat) => write!(f, "no seat {seat}"),
            ScenarioError::UnknownScoutMoney(id) => write!(f, "no Scout Money card {id}"),
            ScenarioError::UnknownArtist(id) => write!(f, "no artist {id}"),
            ScenarioError::UnknownSong(id) => write!(f, "no song {id}"),
            ScenarioError::ScoutMoneyUnavailable(id) => {
                write!(
                    f,
                    "Scout Money card {id} is out of play, in a draft pair or played"
                )
            }
            ScenarioError::ArtistUnavailable(id) => write!(f, "artist {id} is nowhere to take from"),
            ScenarioError::ArtistPileEmpty => write!(f, "no face-down artist is left to reveal"),
            ScenarioError::ShortSupply { wanted, supply } => {
                write!(f, "{wanted} Raise Money bills wanted, {supply} in the supply")
            }
            ScenarioError::TooManyDebts(n) => write!(f, "{n} debts; the game has {MAX_DEBTS} marks"),
            ScenarioError::NoSuchRound(n) => write!(f, "round {n} cannot be reached from here"),
            ScenarioError::Invariant(e) => write!(f, "the position does not hold together: {e}"),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// A Shrewd Producer position under construction.
#[derive(Clone, Debug)]
pub struct Scenario {
    game: ShrewdProducer,
    error: Option<ScenarioError>,
}

impl Scenario {
    /// A game just set up, in the setup draft.
    pub fn new(options: Options, seats: usize, seed: u64) -> Result<Self, SetupError> {
        let (game, _) = ShrewdProducer::setup(options, seats, seed)?;
        Ok(Scenario::from_game(game))
    }

    /// A position reached by play, to be changed further.
    pub fn from_game(game: ShrewdProducer) -> Self {
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

    /// Takes a Scout Money card from the face-down pile, the discard pile or a hand.
    fn lift_scout(&mut self, id: &str) -> Option<ScoutId> {
        let Some(card) = ScoutId::find(id) else {
            self.fail(ScenarioError::UnknownScoutMoney(id.to_owned()));
            return None;
        };
        let g = &mut self.game;
        let before = g.scout_deck.len()
            + g.scout_discard.len()
            + g.players.iter().map(|p| p.hand.len()).sum::<usize>();
        g.scout_deck.retain(|&c| c != card);
        g.scout_discard.retain(|&c| c != card);
        for p in g.players.iter_mut() {
            p.hand.retain(|&c| c != card);
        }
        let after = g.scout_deck.len()
            + g.scout_discard.len()
            + g.players.iter().map(|p| p.hand.len()).sum::<usize>();
        if after == before {
            self.fail(ScenarioError::ScoutMoneyUnavailable(id.to_owned()));
            return None;
        }
        Some(card)
    }

    /// Gives the seat exactly these Scout Money cards, each taken from the face-down pile, the
    /// discard pile or another hand; the seat's old hand goes to the discard pile.
    pub fn hand(mut self, seat: Seat, cards: &[&str]) -> Self {
        if !self.seat_ok(seat) {
            return self;
        }
        let old = std::mem::take(&mut self.game.players[seat].hand);
        self.game.scout_discard.extend(old);
        for id in cards {
            if let Some(card) = self.lift_scout(id) {
                self.game.players[seat].hand.push(card);
            }
        }
        self
    }

    /// Gives every seat, from seat 0 on, exactly these Scout Money hands; every other card in
    /// the hands goes to the discard pile.
    pub fn hands(mut self, hands: &[&[&str]]) -> Self {
        for (seat, cards) in Seat::all(hands.len()).zip(hands) {
            self = self.hand(seat, cards);
        }
        self
    }

    fn artist(&mut self, id: &str) -> Option<ArtistId> {
        let a = ArtistId::find(id);
        if a.is_none() {
            self.fail(ScenarioError::UnknownArtist(id.to_owned()));
        }
        a
    }

    /// Makes these this round's two revealed artists, in this order, each swapped with the
    /// face-down artist pile (or the other revealed slot) where it lies.
    pub fn reveal(mut self, ids: [&str; ARTISTS_PER_ROUND]) -> Self {
        if self.game.revealed.len() != ARTISTS_PER_ROUND {
            self.fail(ScenarioError::Invariant(format!(
                "{} artists are revealed, not {ARTISTS_PER_ROUND}",
                self.game.revealed.len()
            )));
            return self;
        }
        for (i, id) in ids.iter().enumerate() {
            let Some(a) = self.artist(id) else {
                continue;
            };
            let g = &mut self.game;
            if let Some(j) = g.revealed.iter().position(|&r| r == a) {
                g.revealed.swap(i, j);
            } else if let Some(at) = g.artist_deck.iter().position(|&d| d == a) {
                std::mem::swap(&mut g.artist_deck[at], &mut g.revealed[i]);
            } else {
                self.fail(ScenarioError::ArtistUnavailable((*id).to_owned()));
            }
        }
        self
    }

    /// The seat has signed these artists, after any it holds; each is taken from the artist
    /// discard pile, another seat, the face-down pile or the revealed pair (whose slot the top
    /// face-down artist fills). An artist taken from the face-down pile leaves it shorter than
    /// the round gives it, which `build` refuses.
    pub fn signed(mut self, seat: Seat, ids: &[&str]) -> Self {
        if !self.seat_ok(seat) {
            return self;
        }
        for id in ids {
            let Some(a) = self.artist(id) else {
                continue;
            };
            let g = &mut self.game;
            if let Some(i) = g.revealed.iter().position(|&r| r == a) {
                match g.artist_deck.pop() {
                    Some(next) => g.revealed[i] = next,
                    None => {
                        self.fail(ScenarioError::ArtistPileEmpty);
                        continue;
                    }
                }
            } else if let Some(at) = g.artist_deck.iter().position(|&d| d == a) {
                g.artist_deck.remove(at);
            } else if let Some(at) = g.artist_discard.iter().position(|&d| d == a) {
                g.artist_discard.remove(at);
            } else if let Some(p) = g.players.iter_mut().find(|p| p.artists.contains(&a)) {
                p.artists.retain(|&x| x != a);
            } else {
                self.fail(ScenarioError::ArtistUnavailable((*id).to_owned()));
                continue;
            }
            g.players[seat].artists.push(a);
        }
        self
    }

    /// Gives the seat exactly these song cards, lowest level first (the last is its current
    /// song), each taken from the open piles, the removed songs or another seat. Songs the seat
    /// held and does not keep go back: level 2 and 3 to their open piles, level 1 face down
    /// out of the game, as G13 removes the unused one.
    pub fn songs(mut self, seat: Seat, ids: &[&str]) -> Self {
        if !self.seat_ok(seat) {
            return self;
        }
        let mut songs = Vec::with_capacity(ids.len());
        for id in ids {
            match SongId::find(id) {
                Some(s) => songs.push(s),
                None => {
                    self.fail(ScenarioError::UnknownSong((*id).to_owned()));
                    return self;
                }
            }
        }
        let g = &mut self.game;
        let old = std::mem::take(&mut g.players[seat].songs);
        for s in &songs {
            g.open_songs.retain(|x| x != s);
            g.removed_songs.retain(|x| x != s);
            for p in g.players.iter_mut() {
                p.songs.retain(|x| x != s);
            }
        }
        for s in old.into_iter().filter(|s| !songs.contains(s)) {
            if s.card().level == 1 {
                g.removed_songs.push(s);
            } else {
                g.open_songs.push(s);
                g.open_songs.sort();
            }
        }
        g.players[seat].songs = songs;
        self
    }

    /// Sets the seat's Raise Money to `bills` ($100 each): the difference comes from, or goes
    /// to, the supply.
    pub fn bills(mut self, seat: Seat, bills: u8) -> Self {
        if !self.seat_ok(seat) {
            return self;
        }
        let g = &mut self.game;
        let held = g.players[seat].bills;
        if bills > held {
            let wanted = bills - held;
            if wanted > g.supply {
                let supply = g.supply;
                self.fail(ScenarioError::ShortSupply { wanted, supply });
                return self;
            }
            g.supply -= wanted;
        } else {
            g.supply += held - bills;
        }
        g.players[seat].bills = bills;
        self
    }

    /// Sets the seat's debt marks (the money borrowed is already part of its Raise Money).
    pub fn debts(mut self, seat: Seat, debts: u8) -> Self {
        if debts > MAX_DEBTS {
            self.fail(ScenarioError::TooManyDebts(debts));
        } else if self.seat_ok(seat) {
            self.game.players[seat].debts = debts;
        }
        self
    }

    /// Jumps to a later round: two artists a round since the current one leave the top of the
    /// face-down pile for the artist discard pile.
    pub fn round(mut self, round: u8) -> Self {
        let g = &mut self.game;
        if round < g.round || round > ROUNDS {
            self.fail(ScenarioError::NoSuchRound(round));
            return self;
        }
        let gone = ARTISTS_PER_ROUND * usize::from(round - g.round);
        if gone > g.artist_deck.len() {
            self.fail(ScenarioError::NoSuchRound(round));
            return self;
        }
        for _ in 0..gone {
            if let Some(a) = g.artist_deck.pop() {
                g.artist_discard.push(a);
            }
        }
        g.round = round;
        self
    }

    /// The game after the last round: every artist not signed is in the artist discard pile,
    /// every Scout Money card not removed is in its discard pile, every raise is back in the
    /// supply, and nobody is to act.
    pub fn game_over(mut self) -> Self {
        let g = &mut self.game;
        let mut artists = std::mem::take(&mut g.artist_deck);
        artists.append(&mut g.revealed);
        g.artist_discard.append(&mut artists);
        let mut scout = std::mem::take(&mut g.scout_deck);
        for p in g.players.iter_mut() {
            scout.append(&mut p.hand);
            scout.extend(p.pair.take().into_iter().flatten());
            scout.extend(p.passing.take());
            if let Some(ScoutBid::Card(c)) = p.bid.take() {
                scout.push(c);
            }
            g.supply += std::mem::take(&mut p.raised);
            p.participating = false;
            p.passed = false;
        }
        g.scout_discard.append(&mut scout);
        g.raise_order.clear();
        g.ranking.clear();
        g.song_queue.clear();
        g.round = ROUNDS;
        g.turn = g.lead;
        g.stage = Stage::Over;
        self
    }

    /// The position as it stands.
    pub fn position(&self) -> &ShrewdProducer {
        &self.game
    }

    /// The position, if every step applied and it holds together.
    pub fn build(self) -> Result<ShrewdProducer, ScenarioError> {
        let game = self.build_unchecked()?;
        game.check_invariants().map_err(ScenarioError::Invariant)?;
        Ok(game)
    }

    /// The position, if every step applied, without the invariants: for a rulebook example
    /// no play reaches, such as artists already signed in round 1 (the face-down pile is then
    /// shorter than the round gives it, and every artist still counts once).
    pub fn build_unchecked(self) -> Result<ShrewdProducer, ScenarioError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let g = self.game;
        let artists = g.artist_deck.len()
            + g.revealed.len()
            + g.artist_discard.len()
            + g.players.iter().map(|p| p.artists.len()).sum::<usize>();
        if artists != ARTISTS.len() {
            return Err(ScenarioError::Invariant(format!(
                "{artists} artists instead of {}",
                ARTISTS.len()
            )));
        }
        Ok(g)
    }
}
