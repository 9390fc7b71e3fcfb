//! Positions built step by step (as shakmaty builds a `Setup`): each step moves a component
//! from wherever it lies, and `build` checks the result with the game's invariants, so a
//! test states the position it needs without writing the game's private fields.

use super::actions::Options;
use super::components::{Style, components};
use super::events::Payment;
use super::state::{BandArtist, ChartSong, ShowBusiness, Song, Task};
use crate::{Game, Seat, SetupError};

/// The step a built position runs first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// Step 1: the seat's round begins.
    Round {
        /// The seat.
        seat: Seat,
    },
    /// Step 3: the seat's first or second TIME LAPSE.
    TimeLapse {
        /// The seat.
        seat: Seat,
        /// 1 or 2.
        nth: u8,
    },
    /// Step 4b: the seat chooses what to do with its active card.
    ChooseAction {
        /// The seat.
        seat: Seat,
    },
    /// A mandatory payment (S33).
    Pay {
        /// The payer.
        seat: Seat,
        /// FONS.
        amount: i64,
        /// What for.
        reason: Payment,
    },
    /// QUARTER END, from CHARTS on.
    QuarterEnd,
    /// QUARTER END 3, the SATISFACTION CHECK.
    SatisfactionCheck,
    /// The end of the active seat's round: the next round, or the end of the game.
    NextRound,
}

/// A song for the CHARTS: fields as indices into the style, lyrics, tempo and volume rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartEntry {
    /// The owner.
    pub owner: Seat,
    /// Field 1.
    pub style: Style,
    /// Field 2, 0-4.
    pub lyrics: u8,
    /// Field 3, 0-4.
    pub tempo: u8,
    /// Field 4, 0-4.
    pub volume: u8,
    /// Field 5.
    pub experience: u32,
    /// Turned face up.
    pub disclosed: bool,
}

/// A Show Business position under construction.
#[derive(Clone, Debug)]
pub struct Scenario {
    game: ShowBusiness,
    error: Option<String>,
}

fn index_of(ids: impl Iterator<Item = String>, id: &str) -> Option<u8> {
    ids.into_iter().position(|x| x == id).map(|i| i as u8)
}

impl Scenario {
    /// A game just set up, waiting for the opening bids.
    pub fn new(options: Options, seats: usize, seed: u64) -> Result<Self, SetupError> {
        let (game, _) = ShowBusiness::setup(options, seats, seed)?;
        Ok(Scenario { game, error: None })
    }

    fn fail(&mut self, e: String) {
        self.error.get_or_insert(e);
    }

    fn seat_ok(&mut self, seat: Seat) -> bool {
        let ok = seat < self.game.players.len();
        if !ok {
            self.fail(format!("no seat {seat}"));
        }
        ok
    }

    fn card(&mut self, id: &str) -> Option<u8> {
        let c = index_of(components().influence.iter().map(|c| c.id.clone()), id);
        if c.is_none() {
            self.fail(format!("no influence card {id}"));
        }
        c
    }

    /// Takes an influence card from wherever it lies.
    fn lift_card(&mut self, c: u8) {
        let g = &mut self.game;
        g.influence_pile.retain(|&x| x != c);
        g.influence_discard.retain(|&x| x != c);
        g.revealed.retain(|&x| x != c);
        for f in g.influence_market.iter_mut().filter(|f| **f == Some(c)) {
            *f = None;
        }
        for p in &mut g.players {
            p.hand.retain(|&x| x != c);
            p.influence_field.retain(|&x| x != c);
        }
        if g.trend_expert.is_some_and(|(t, _)| t == c) {
            g.trend_expert = None;
        }
        g.known.retain(|&(k, _)| k != c);
    }

    /// Puts these influence cards into the seat's hand.
    pub fn hand(mut self, seat: Seat, cards: &[&str]) -> Self {
        if self.seat_ok(seat) {
            for id in cards {
                if let Some(c) = self.card(id) {
                    self.lift_card(c);
                    self.game.players[seat].hand.push(c);
                }
            }
        }
        self
    }

    /// Lays these influence cards on the seat's influence field, the last one on top (active).
    pub fn field(mut self, seat: Seat, cards: &[&str]) -> Self {
        if self.seat_ok(seat) {
            for id in cards {
                if let Some(c) = self.card(id) {
                    self.lift_card(c);
                    self.game.players[seat].influence_field.push(c);
                }
            }
        }
        self
    }

    /// Puts these influence cards on top of the pile, the last one drawn first.
    pub fn pile_top(mut self, cards: &[&str]) -> Self {
        for id in cards {
            if let Some(c) = self.card(id) {
                self.lift_card(c);
                self.game.influence_pile.push(c);
            }
        }
        self
    }

    /// A TREND EXPERT standing between the dice, placed by `seat`.
    pub fn trend_expert(mut self, card: &str, seat: Seat) -> Self {
        if self.seat_ok(seat)
            && let Some(c) = self.card(card)
        {
            self.lift_card(c);
            self.game.trend_expert = Some((c, seat));
        }
        self
    }

    /// Empties the map into the used pool and lays these concert tokens on it.
    pub fn map(mut self, tokens: &[&str]) -> Self {
        let old = std::mem::take(&mut self.game.map_tokens);
        self.game.used_tokens.extend(old);
        for id in tokens {
            let Some(t) = index_of(components().tokens.iter().map(|t| t.id.clone()), id) else {
                self.fail(format!("no concert token {id}"));
                continue;
            };
            let g = &mut self.game;
            g.bag.retain(|&x| x != t);
            g.used_tokens.retain(|&x| x != t);
            for f in g.concert_market.iter_mut().filter(|f| **f == Some(t)) {
                *f = None;
            }
            g.map_tokens.push(t);
        }
        self
    }

    /// Sets the seat's FONS.
    pub fn cash(mut self, seat: Seat, cash: i64) -> Self {
        if self.seat_ok(seat) {
            self.game.players[seat].cash = cash;
        }
        self
    }

    /// Sets the seat's true popularity.
    pub fn popularity(mut self, seat: Seat, popularity: i64) -> Self {
        if self.seat_ok(seat) {
            self.game.players[seat].popularity = popularity;
        }
        self
    }

    /// Sets the seat's satisfaction.
    pub fn satisfaction(mut self, seat: Seat, satisfaction: u8) -> Self {
        if self.seat_ok(seat) {
            self.game.players[seat].satisfaction = satisfaction;
        }
        self
    }

    /// Sets the seat's week on the TIME TRACK.
    pub fn week(mut self, seat: Seat, week: u8) -> Self {
        if self.seat_ok(seat) {
            self.game.players[seat].time = Some(week);
        }
        self
    }

    /// Drives the seat's car to a city.
    pub fn car(mut self, seat: Seat, city: &str) -> Self {
        match components().city(city) {
            Some(c) if self.seat_ok(seat) => self.game.players[seat].car = c,
            Some(_) => {}
            None => self.fail(format!("no city {city}")),
        }
        self
    }

    /// Sets the trend dice white, blue, yellow, red (face indices; `None` = blank).
    pub fn dice(mut self, dice: [Option<u8>; 4]) -> Self {
        self.game.dice = dice;
        self
    }

    /// Makes the seat at this index of the turn sequence the active one.
    pub fn turn(mut self, index: usize) -> Self {
        if index < self.game.order.len() {
            self.game.turn = index;
        } else {
            self.fail(format!("no turn index {index}"));
        }
        self
    }

    /// Quarter ends already triggered, and whether the last turn has begun.
    pub fn quarter_ends(mut self, done: [bool; 4], last_turn: bool) -> Self {
        self.game.qe_done = done;
        self.game.last_turn = last_turn;
        self
    }

    /// Lays a song on CHARTS field `field` (1-10); returns the scenario and the song's number.
    pub fn chart_song(mut self, field: usize, entry: ChartEntry) -> (Self, u32) {
        let id = self.game.next_song;
        if !(1..=self.game.chart.len()).contains(&field) {
            self.fail(format!("no CHARTS field {field}"));
            return (self, id);
        }
        if self.seat_ok(entry.owner) {
            self.game.next_song += 1;
            self.game.chart[field - 1].push(ChartSong {
                song: Song {
                    id,
                    owner: entry.owner,
                    style: entry.style,
                    lyrics: entry.lyrics,
                    tempo: entry.tempo,
                    volume: entry.volume,
                    experience: entry.experience,
                },
                disclosed: entry.disclosed,
            });
        }
        (self, id)
    }

    /// Hires an artist (taken from wherever it lies) onto these band board fields.
    pub fn hire(mut self, seat: Seat, artist: &str, fields: Vec<u8>) -> Self {
        let Some(a) = index_of(components().artists.iter().map(|a| a.id.clone()), artist) else {
            self.fail(format!("no artist {artist}"));
            return self;
        };
        if !self.seat_ok(seat) {
            return self;
        }
        let g = &mut self.game;
        g.artist_pile.retain(|&x| x != a);
        g.artist_discard.retain(|&x| x != a);
        for f in g.artist_market.iter_mut().filter(|f| **f == Some(a)) {
            *f = None;
        }
        for p in &mut g.players {
            p.band.retain(|b| b.card != a);
        }
        g.players[seat].band.push(BandArtist {
            card: a,
            side_b: false,
            fields,
            tokens: vec![],
        });
        self
    }

    /// The position, waiting at `start` (automatic steps run at once), if it holds together.
    pub fn build(self, start: Start) -> Result<ShowBusiness, String> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut g = self.game;
        if let Start::Round { seat }
        | Start::TimeLapse { seat, .. }
        | Start::ChooseAction { seat }
        | Start::Pay { seat, .. } = start
            && seat >= g.players.len()
        {
            return Err(format!("no seat {seat}"));
        }
        let task = match start {
            Start::Round { seat } => Task::StartRound { seat },
            Start::TimeLapse { seat, nth } => Task::TimeLapse { seat, nth },
            Start::ChooseAction { seat } => Task::ChooseAction { seat },
            Start::Pay { seat, amount, reason } => Task::Pay { seat, amount, reason },
            Start::QuarterEnd => Task::QuarterEnd,
            Start::SatisfactionCheck => Task::QeSatisfaction,
            Start::NextRound => Task::NextRound,
        };
        g.queue.clear();
        g.queue.push_back(task);
        g.check_invariants()?;
        g.advance(&mut Vec::new());
        g.check_invariants()?;
        Ok(g)
    }
}
