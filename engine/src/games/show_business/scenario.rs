//! Positions built step by step (as shakmaty builds a `Setup`): each step moves a component
//! from wherever it lies, and `build` checks the result with the game's invariants, so a
//! test states the position it needs without writing the game's private fields.

use super::actions::Options;
use super::components::{ArtistId, CardId, Character, CityId, RONDEL, SongId, Style, TokenId};
use super::events::{GameEvent, Payment};
use super::state::{BandArtist, ChartSong, PartialSong, ShowBusiness, Song, Task, Then};
use crate::{Event, Game, Seat, SetupError};

/// A step of the game, named as the rulebook names it, at which a built position waits or
/// from which its automatic steps run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// Step 1: the seat's round begins.
    Round {
        /// The seat.
        seat: Seat,
    },
    /// Step 2: the seat's MARKET REVIEW.
    Review {
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
    /// RECORDING: the seat fills a new song's fields, none filled yet.
    Record {
        /// The seat.
        seat: Seat,
    },
    /// FEMME FATALE: the seat chooses INTEGRATION or DISORDER with this best drawn POWER.
    FemmeChoice {
        /// The seat.
        seat: Seat,
        /// The best POWER drawn.
        best: u8,
    },
    /// Step 5: the seat's INFLUENCES.
    Influences {
        /// The seat.
        seat: Seat,
    },
    /// Step 6: MARKET REFRESHMENT.
    RefillMarkets,
    /// The concert market refills from the bag.
    RefillConcerts,
    /// The end of the seat's round (anytime actions, then END ROUND).
    EndRound {
        /// The seat.
        seat: Seat,
    },
    /// The seat discards down to its hand limit.
    HandDiscard {
        /// The seat.
        seat: Seat,
    },
    /// After a round: steps 7 to 9 if the last seat of the sequence played, a pending
    /// QUARTER END, then the next round.
    RoundTail,
    /// Step 7: MARKET CHANGE.
    MarketChange,
    /// Step 8: the EVENT RONDEL moves one field.
    RondelStep,
    /// Step 9: the SEQUENCE BID.
    SequenceBid,
    /// The seat chooses the next turn's first seat.
    ChooseFirst {
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
    /// ADVERTISING: the seat covers `due` FONS of this mandatory payment with popularity (S33).
    Advertise {
        /// The seat.
        seat: Seat,
        /// FONS due.
        due: i64,
        /// What for.
        reason: Payment,
    },
    /// The rondel's TREND CHANGE.
    TrendChange,
    /// The rondel's SALARIES for one seat.
    Salary {
        /// The seat.
        seat: Seat,
    },
    /// The rondel's INTEGRATION CONTROL for one seat.
    Integration {
        /// The seat.
        seat: Seat,
    },
    /// The rondel's ROYALTIES for one seat.
    Royalty {
        /// The seat.
        seat: Seat,
    },
    /// The rondel's POPULARITY CHECK for one seat.
    PopCheck {
        /// The seat.
        seat: Seat,
    },
    /// After the POPULARITY CHECK: scandal markers turn upright.
    ScandalsUpright,
    /// QUARTER END, from CHARTS on.
    QuarterEnd,
    /// QUARTER END 2: popularity for concert tokens.
    QePopularity,
    /// QUARTER END 3, the SATISFACTION CHECK.
    SatisfactionCheck,
    /// QUARTER END 4: the seat's CLEARING.
    Clearing {
        /// The seat.
        seat: Seat,
    },
    /// The end of the active seat's round: the next round, or the end of the game.
    NextRound,
    /// The end of the game: the seat's penalties.
    EndPenalty {
        /// The seat.
        seat: Seat,
    },
}

impl Start {
    fn seat(&self) -> Option<Seat> {
        match *self {
            Start::Round { seat }
            | Start::Review { seat }
            | Start::TimeLapse { seat, .. }
            | Start::ChooseAction { seat }
            | Start::Record { seat }
            | Start::FemmeChoice { seat, .. }
            | Start::Influences { seat }
            | Start::EndRound { seat }
            | Start::HandDiscard { seat }
            | Start::ChooseFirst { seat }
            | Start::Pay { seat, .. }
            | Start::Advertise { seat, .. }
            | Start::Salary { seat }
            | Start::Integration { seat }
            | Start::Royalty { seat }
            | Start::PopCheck { seat }
            | Start::Clearing { seat }
            | Start::EndPenalty { seat } => Some(seat),
            _ => None,
        }
    }

    fn task(self) -> Task {
        match self {
            Start::Round { seat } => Task::StartRound { seat },
            Start::Review { seat } => Task::Review { seat },
            Start::TimeLapse { seat, nth } => Task::TimeLapse { seat, nth },
            Start::ChooseAction { seat } => Task::ChooseAction { seat },
            Start::Record { seat } => Task::Record {
                seat,
                song: PartialSong {
                    style: None,
                    lyrics: None,
                    tempo: None,
                },
            },
            Start::FemmeChoice { seat, best } => Task::FemmeChoice { seat, best },
            Start::Influences { seat } => Task::Influences { seat },
            Start::RefillMarkets => Task::RefillMarkets { retried: false },
            Start::RefillConcerts => Task::RefillConcerts,
            Start::EndRound { seat } => Task::EndRound { seat },
            Start::HandDiscard { seat } => Task::HandDiscard { seat },
            Start::RoundTail => Task::RoundTail,
            Start::MarketChange => Task::MarketChange,
            Start::RondelStep => Task::RondelStep,
            Start::SequenceBid => Task::SequenceBid,
            Start::ChooseFirst { seat } => Task::ChooseFirst { seat, setup: false },
            Start::Pay { seat, amount, reason } => Task::Pay { seat, amount, reason },
            Start::Advertise { seat, due, reason } => Task::Advertise {
                seat,
                due,
                then: Then::Mandatory(reason),
            },
            Start::TrendChange => Task::TrendChange,
            Start::Salary { seat } => Task::Salary { seat },
            Start::Integration { seat } => Task::Integration { seat },
            Start::Royalty { seat } => Task::Royalty { seat },
            Start::PopCheck { seat } => Task::PopCheck { seat },
            Start::ScandalsUpright => Task::ScandalsUpright,
            Start::QuarterEnd => Task::QuarterEnd,
            Start::QePopularity => Task::QePopularity,
            Start::SatisfactionCheck => Task::QeSatisfaction,
            Start::Clearing { seat } => Task::Clearing { seat },
            Start::NextRound => Task::NextRound,
            Start::EndPenalty { seat } => Task::EndPenalty { seat },
        }
    }
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
    then: Vec<Start>,
    error: Option<String>,
}

impl Scenario {
    /// A game just set up, waiting for the opening bids.
    pub fn new(options: Options, seats: usize, seed: u64) -> Result<Self, SetupError> {
        let (game, _) = ShowBusiness::setup(options, seats, seed)?;
        Ok(Scenario::from_game(game))
    }

    /// A position reached by play, to be changed further.
    pub fn from_game(game: ShowBusiness) -> Self {
        Scenario {
            game,
            then: Vec::new(),
            error: None,
        }
    }

    fn fail(&mut self, e: String) {
        self.error.get_or_insert(e);
    }

    fn seat_ok(&mut self, seat: Seat) -> bool {
        let ok = seat.index() < self.game.players.len();
        if !ok {
            self.fail(format!("no seat {seat}"));
        }
        ok
    }

    fn card(&mut self, id: &str) -> Option<CardId> {
        let c = CardId::find(id);
        if c.is_none() {
            self.fail(format!("no influence card {id}"));
        }
        c
    }

    /// Takes an influence card from wherever it lies.
    fn lift_card(&mut self, c: CardId) {
        let g = &mut self.game;
        g.influence_pile.retain(|&x| x != c);
        g.influence_discard.retain(|&x| x != c);
        g.revealed.retain(|&x| x != c);
        for f in g.influence_market.iter_mut().filter(|f| **f == Some(c)) {
            *f = None;
        }
        for p in g.players.iter_mut() {
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

    fn token(&mut self, id: &str) -> Option<TokenId> {
        let t = TokenId::find(id);
        if t.is_none() {
            self.fail(format!("no concert token {id}"));
        }
        t
    }

    /// Takes a concert token from wherever it lies.
    fn lift_token(&mut self, t: TokenId) {
        let g = &mut self.game;
        g.bag.retain(|&x| x != t);
        g.used_tokens.retain(|&x| x != t);
        g.map_tokens.retain(|&x| x != t);
        for f in g.concert_market.iter_mut().filter(|f| **f == Some(t)) {
            *f = None;
        }
        for b in g.players.iter_mut().flat_map(|p| &mut p.band) {
            b.tokens.retain(|&x| x != t);
        }
    }

    /// Empties the map into the used pool and lays these concert tokens on it.
    pub fn map(mut self, tokens: &[&str]) -> Self {
        let old = std::mem::take(&mut self.game.map_tokens);
        self.game.used_tokens.extend(old);
        for id in tokens {
            if let Some(t) = self.token(id) {
                self.lift_token(t);
                self.game.map_tokens.push(t);
            }
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
        match CityId::find(city) {
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
    pub fn chart_song(mut self, field: usize, entry: ChartEntry) -> (Self, SongId) {
        let id = self.game.next_song;
        if !(1..=self.game.chart.len()).contains(&field) {
            self.fail(format!("no CHARTS field {field}"));
            return (self, id);
        }
        if self.seat_ok(entry.owner) {
            self.game.next_song = SongId(id.0 + 1);
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

    fn artist(&mut self, id: &str) -> Option<ArtistId> {
        let a = ArtistId::find(id);
        if a.is_none() {
            self.fail(format!("no artist {id}"));
        }
        a
    }

    /// Takes an artist card from wherever it lies; its concert tokens go to the used pool.
    fn lift_artist(&mut self, a: ArtistId) {
        let g = &mut self.game;
        g.artist_pile.retain(|&x| x != a);
        g.artist_discard.retain(|&x| x != a);
        for f in g.artist_market.iter_mut().filter(|f| **f == Some(a)) {
            *f = None;
        }
        for p in g.players.iter_mut() {
            if let Some(i) = p.band.iter().position(|b| b.card == a) {
                g.used_tokens.extend(p.band.remove(i).tokens);
            }
        }
    }

    /// Hires an artist (taken from wherever it lies) onto these band board fields.
    pub fn hire(mut self, seat: Seat, artist: &str, fields: Vec<u8>) -> Self {
        let Some(a) = self.artist(artist) else {
            return self;
        };
        if !self.seat_ok(seat) {
            return self;
        }
        self.lift_artist(a);
        self.game.players[seat].band.push(BandArtist {
            card: a,
            side_b: false,
            fields,
            tokens: vec![],
        });
        self
    }

    /// Lays these influence cards on the discard pile.
    pub fn discard(mut self, cards: &[&str]) -> Self {
        for id in cards {
            if let Some(c) = self.card(id) {
                self.lift_card(c);
                self.game.influence_discard.push(c);
            }
        }
        self
    }

    /// Gives the seat exactly these hand cards; its old hand goes to the discard pile.
    pub fn only_hand(mut self, seat: Seat, cards: &[&str]) -> Self {
        if self.seat_ok(seat) {
            let old = std::mem::take(&mut self.game.players[seat].hand);
            self.game.influence_discard.extend(old);
        }
        self.hand(seat, cards)
    }

    /// Discards the seat's hand cards of these characters.
    pub fn discard_characters(mut self, seat: Seat, characters: &[Character]) -> Self {
        if self.seat_ok(seat) {
            let p = &mut self.game.players[seat];
            let (gone, keep): (Vec<CardId>, Vec<CardId>) =
                p.hand.iter().partition(|&&c| characters.contains(&c.character()));
            p.hand = keep;
            self.game.influence_discard.extend(gone);
        }
        self
    }

    /// Discards an artist from wherever it lies; its concert tokens go to the used pool.
    pub fn dismiss(mut self, artist: &str) -> Self {
        if let Some(a) = self.artist(artist) {
            self.lift_artist(a);
            self.game.artist_discard.push(a);
        }
        self
    }

    /// Discards every artist of the seat's band.
    pub fn dismiss_band(mut self, seat: Seat) -> Self {
        if self.seat_ok(seat) {
            let band = std::mem::take(&mut self.game.players[seat].band);
            for a in band {
                self.game.used_tokens.extend(a.tokens);
                self.game.artist_discard.push(a.card);
            }
        }
        self
    }

    /// Lays these concert tokens (taken from wherever they lie) on a hired artist's card.
    pub fn tokens(mut self, artist: &str, tokens: &[&str]) -> Self {
        let Some(a) = self.artist(artist) else {
            return self;
        };
        for id in tokens {
            let Some(t) = self.token(id) else {
                continue;
            };
            self.lift_token(t);
            let hired = self
                .game
                .players
                .iter_mut()
                .flat_map(|p| &mut p.band)
                .find(|b| b.card == a);
            match hired {
                Some(b) => b.tokens.push(t),
                None => self.fail(format!("artist {artist} is in no band")),
            }
        }
        self
    }

    /// A recorded song in its owner's hand; returns the scenario and the song's number.
    pub fn song(mut self, entry: ChartEntry) -> (Self, SongId) {
        let id = self.game.next_song;
        if self.seat_ok(entry.owner) {
            self.game.next_song = SongId(id.0 + 1);
            self.game.players[entry.owner].songs.push(Song {
                id,
                owner: entry.owner,
                style: entry.style,
                lyrics: entry.lyrics,
                tempo: entry.tempo,
                volume: entry.volume,
                experience: entry.experience,
            });
        }
        (self, id)
    }

    /// Lays an artist (taken from wherever it lies) on ARTIST MARKET field `field` (1-4); the
    /// card there goes to the discard pile.
    pub fn artist_market(mut self, field: usize, artist: &str) -> Self {
        let Some(a) = self.artist(artist) else {
            return self;
        };
        if !(1..=self.game.artist_market.len()).contains(&field) {
            self.fail(format!("no artist market field {field}"));
            return self;
        }
        self.lift_artist(a);
        let old = self.game.artist_market[field - 1].replace(a);
        self.game.artist_discard.extend(old);
        self
    }

    /// Turns a hired artist to its side B.
    pub fn side_b(mut self, artist: &str) -> Self {
        let Some(a) = self.artist(artist) else {
            return self;
        };
        match self
            .game
            .players
            .iter_mut()
            .flat_map(|p| &mut p.band)
            .find(|b| b.card == a)
        {
            Some(b) => b.side_b = true,
            None => self.fail(format!("artist {artist} is in no band")),
        }
        self
    }

    /// The position as it stands.
    pub fn position(&self) -> &ShowBusiness {
        &self.game
    }

    /// Puts these concert tokens (taken from wherever they lie) into the used pool.
    pub fn used(mut self, tokens: &[&str]) -> Self {
        for id in tokens {
            if let Some(t) = self.token(id) {
                self.lift_token(t);
                self.game.used_tokens.push(t);
            }
        }
        self
    }

    /// Sets which of the seat's three studio blanks are in stock.
    pub fn blanks(mut self, seat: Seat, blanks: [bool; 3]) -> Self {
        if self.seat_ok(seat) {
            self.game.players[seat].blanks = blanks;
        }
        self
    }

    /// The seat goes bankrupt (S34).
    pub fn bankrupt(mut self, seat: Seat) -> Self {
        if self.seat_ok(seat) {
            self.game.go_bankrupt(seat, &mut Vec::new());
        }
        self
    }

    /// Marks the seat's scandal.
    pub fn scandal(mut self, seat: Seat) -> Self {
        if self.seat_ok(seat) {
            self.game.players[seat].scandal = true;
        }
        self
    }

    /// Sets the turn sequence, first seat first.
    pub fn order(mut self, order: &[Seat]) -> Self {
        let mut sorted = order.to_vec();
        sorted.sort_unstable();
        if sorted.iter().copied().eq(Seat::all(self.game.players.len())) {
            self.game.order = order.to_vec();
        } else {
            self.fail(format!("{order:?} is not a turn sequence of every seat"));
        }
        self
    }

    /// Puts the EVENT RONDEL's marker on field `field` (0-4, clockwise from TREND CHANGE).
    pub fn rondel(mut self, field: u8) -> Self {
        if (field as usize) < RONDEL.len() {
            self.game.rondel = field;
        } else {
            self.fail(format!("no rondel field {field}"));
        }
        self
    }

    /// Whether the last turn has begun (S23, S38).
    pub fn last_turn(mut self, last: bool) -> Self {
        self.game.last_turn = last;
        self
    }

    /// Whether a QUARTER END, triggered this turn, waits for the end of the round (S15).
    pub fn quarter_end_pending(mut self, pending: bool) -> Self {
        self.game.qe_pending = pending;
        self
    }

    /// Steps that follow the start, in this order, before anything the start itself queues
    /// runs out.
    pub fn then(mut self, step: Start) -> Self {
        self.then.push(step);
        self
    }

    /// The position, waiting at `start` (automatic steps run at once), if it holds together.
    pub fn build(self, start: Start) -> Result<ShowBusiness, String> {
        self.build_events(start).map(|(g, _)| g)
    }

    /// The position, waiting where the game stood (as set up, or as played), if it holds
    /// together.
    pub fn build_here(self) -> Result<ShowBusiness, String> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if !self.then.is_empty() {
            return Err("steps to follow need a start".into());
        }
        self.game.check_invariants()?;
        Ok(self.game)
    }

    /// As `build`, with the events of the automatic steps that ran.
    pub fn build_events(self, start: Start) -> Result<(ShowBusiness, Vec<Event<GameEvent>>), String> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut g = self.game;
        g.queue.clear();
        for step in std::iter::once(start).chain(self.then) {
            if let Some(seat) = step.seat()
                && seat.index() >= g.players.len()
            {
                return Err(format!("no seat {seat}"));
            }
            g.queue.push_back(step.task());
        }
        g.check_invariants()?;
        let mut events = Vec::new();
        g.advance(&mut events);
        g.check_invariants()?;
        Ok((g, events))
    }
}
