//! Setup, the work queue that runs the game, the legal actions and how each is applied.

use super::actions::{Action, ChartFields, Market, PaparazziBlock, Restock, RoyaltyBasis};
use super::components::{
    Character, ChartField, Die, LYRICS, MANDATORY_FIELDS, Style, TEMPI, TokenColour, VOLUMES, components,
};
use super::events::{
    DisclosedSong, Ending, FinalScore, GameEvent, Income, MarketRow, Payment, Pile, PollAnswer,
    PopularityCause, RevealedBid, RondelCause, SatisfactionCause, ToMap,
};
use super::state::{
    Attack, BandArtist, Bidding, DrawPurpose, PartialSong, RONDEL, ShowBusiness, Song, Task, Then,
};
use crate::{Event, Seat};

mod bidding;
mod charts;
mod hostile;
mod markets;
mod payments;
mod quarter_end;
mod recording;
mod recruitment;
mod rondel;
mod round;
mod tournee;

pub(crate) type Events = Vec<Event<GameEvent>>;

/// Start: 20 FONS each (setup 1).
pub const START_CASH: i64 = 20;
/// Setup 1: three influence cards each.
pub const START_HAND: usize = 3;
/// Satisfaction track 0-5, start 5.
pub const MAX_SATISFACTION: u8 = 5;
/// The time track ends on 56.
pub const LAST_WEEK: u8 = 56;
/// Quarter end fields.
pub const QUARTER_ENDS: [u8; 4] = [14, 28, 42, 56];
/// Advertising floor: the popularity track starts at −25.
pub const POPULARITY_FLOOR: i64 = -25;
/// PERFORM IN ADVERTISING: 5 FONS per field.
pub const FONS_PER_FIELD: i64 = 5;
/// SALARIES: 5 FONS per artist, 1 per concert token.
pub const SALARY_PER_ARTIST: i64 = 5;
/// Concert tokens on the map after step 1.
pub const MAP_TOKENS: usize = 5;
/// RULINGS 3.6: song fields on a band board.
pub const SONG_FIELDS: usize = 3;
/// A band has at most 6 artists.
pub const MAX_ARTISTS: usize = 6;
/// Hand limit bounds (RULINGS 7).
pub const MIN_HAND: usize = 3;

/// Tells everyone.
pub(crate) fn tell(ev: &mut Events, body: GameEvent) {
    ev.push(Event::public(body));
}

pub(crate) fn card_id(c: u8) -> String {
    components().influence[c as usize].id.clone()
}
pub(crate) fn artist_id(a: u8) -> String {
    components().artists[a as usize].id.clone()
}
pub(crate) fn token_id(t: u8) -> String {
    components().tokens[t as usize].id.clone()
}
pub(crate) fn city_name(c: u8) -> String {
    components().cities[c as usize].clone()
}
fn power(c: u8) -> u8 {
    components().influence[c as usize].power
}
fn character(c: u8) -> Character {
    components().influence[c as usize].character
}
fn find_card(id: &str) -> Option<u8> {
    components()
        .influence
        .iter()
        .position(|c| c.id == id)
        .map(|i| i as u8)
}
fn find_artist(id: &str) -> Option<u8> {
    components()
        .artists
        .iter()
        .position(|c| c.id == id)
        .map(|i| i as u8)
}
fn find_token(id: &str) -> Option<u8> {
    components()
        .tokens
        .iter()
        .position(|c| c.id == id)
        .map(|i| i as u8)
}

/// Where a card can go, given which fields are taken (BAND: instruments).
pub(crate) fn placements(card: u8, occupied: [bool; 6]) -> Vec<Vec<u8>> {
    let artist = &components().artists[card as usize];
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut add = |p: Vec<u8>| {
        if p.iter().all(|&f| !occupied[f as usize]) && !out.contains(&p) {
            out.push(p);
        }
    };
    for ins in &artist.instruments {
        match ins.orange_field() {
            Some(f) => add(vec![f]),
            None => {
                add(vec![4]);
                add(vec![5]);
            }
        }
    }
    let oranges: Vec<u8> = artist
        .instruments
        .iter()
        .filter_map(|i| i.orange_field())
        .collect();
    if oranges.contains(&0)
        && let Some(&other) = oranges.iter().find(|&&f| f != 0)
    {
        add(vec![0, other]);
    }
    out
}

impl ShowBusiness {
    // ----- small helpers -----

    pub(crate) fn n(&self) -> usize {
        self.players.len()
    }

    pub(crate) fn solvent(&self, seat: Seat) -> bool {
        self.players[seat].bankrupt.is_none()
    }

    pub(crate) fn active(&self) -> Seat {
        self.order[self.turn.min(self.order.len() - 1)]
    }

    /// RULINGS 7: as many cards as artists, at least 3 (at most 6).
    pub(crate) fn hand_limit(&self, seat: Seat) -> usize {
        self.players[seat].band.len().clamp(MIN_HAND, MAX_ARTISTS)
    }

    pub(crate) fn occupied(&self, seat: Seat) -> [bool; 6] {
        let mut occ = [false; 6];
        for a in &self.players[seat].band {
            for &f in &a.fields {
                occ[f as usize] = true;
            }
        }
        occ
    }

    /// BAND: all 4 mandatory fields occupied.
    pub(crate) fn band_complete(&self, seat: Seat) -> bool {
        self.occupied(seat)[..MANDATORY_FIELDS as usize]
            .iter()
            .all(|&x| x)
    }

    fn active_card(&self, seat: Seat) -> Option<u8> {
        self.players[seat].influence_field.last().copied()
    }

    fn active_power(&self, seat: Seat) -> u8 {
        self.active_card(seat).map(power).unwrap_or(0)
    }

    pub(crate) fn tokens_on_band(&self, seat: Seat) -> usize {
        self.players[seat].band.iter().map(|a| a.tokens.len()).sum()
    }

    /// RULINGS 3.3: a penalty never raises popularity; at or below 0 it has no effect.
    pub(crate) fn lower_popularity(&mut self, seat: Seat, by: i64) {
        let p = &mut self.players[seat];
        if p.popularity > 0 {
            p.popularity = (p.popularity - by).max(0);
        }
    }

    /// RULINGS 3.3 for a penalty, told with its cause.
    fn lose_popularity(&mut self, seat: Seat, by: i64, cause: PopularityCause, ev: &mut Events) {
        let from = self.players[seat].popularity;
        self.lower_popularity(seat, by);
        let to = self.players[seat].popularity;
        tell(
            ev,
            GameEvent::Popularity {
                seat,
                from,
                to,
                cause,
            },
        );
    }

    pub(crate) fn gain_popularity(&mut self, seat: Seat, by: i64, cause: PopularityCause, ev: &mut Events) {
        let from = self.players[seat].popularity;
        self.players[seat].popularity += by;
        let to = self.players[seat].popularity;
        tell(
            ev,
            GameEvent::Popularity {
                seat,
                from,
                to,
                cause,
            },
        );
    }

    /// S40: satisfaction is clamped to 0-5.
    fn lower_satisfaction(&mut self, seat: Seat, by: u8, cause: SatisfactionCause, ev: &mut Events) {
        let from = self.players[seat].satisfaction;
        let to = from.saturating_sub(by);
        self.players[seat].satisfaction = to;
        tell(
            ev,
            GameEvent::Satisfaction {
                seat,
                from,
                to,
                cause,
            },
        );
    }

    /// S40: a gain at 5 is lost.
    fn raise_satisfaction(&mut self, seat: Seat, by: u8, cause: SatisfactionCause, ev: &mut Events) {
        let from = self.players[seat].satisfaction;
        let to = (from + by).min(MAX_SATISFACTION);
        self.players[seat].satisfaction = to;
        tell(
            ev,
            GameEvent::Satisfaction {
                seat,
                from,
                to,
                cause,
            },
        );
    }

    fn forget(&mut self, card: u8) {
        self.known.retain(|&(c, _)| c != card);
    }

    fn take_from_hand(&mut self, seat: Seat, card: u8) -> bool {
        let hand = &mut self.players[seat].hand;
        match hand.iter().position(|&c| c == card) {
            Some(i) => {
                hand.remove(i);
                self.forget(card);
                true
            }
            None => false,
        }
    }

    fn push_front_all(&mut self, tasks: Vec<Task>) {
        for t in tasks.into_iter().rev() {
            self.queue.push_front(t);
        }
    }

    fn in_turn_order(&self) -> Vec<Seat> {
        self.order.clone()
    }

    fn solvent_in_order(&self) -> Vec<Seat> {
        self.order.iter().copied().filter(|&s| self.solvent(s)).collect()
    }

    // ----- piles, bag, markets -----

    // ----- bankruptcy and payments -----

    /// PROMOTION onto CHARTS field `f` (0-based): POWER needed and cost, by the
    /// `chart_fields` option.
    pub(crate) fn chart_field(&self, f: usize) -> ChartField {
        match self.options.chart_fields {
            ChartFields::Ascending => components().chart[f],
            ChartFields::Descending => ChartField::descending(f as u8 + 1),
        }
    }

    fn first_empty_chart_field(&self) -> Option<usize> {
        self.chart.iter().position(Vec::is_empty)
    }

    // ----- the work queue -----

    pub(crate) fn advance(&mut self, ev: &mut Events) {
        let mut guard = 0u32;
        while let Some(task) = self.queue.pop_front() {
            guard += 1;
            debug_assert!(guard < 1_000_000, "automatic steps loop at {task:?}");
            if let Some(live) = self.step(task, ev) {
                self.queue.push_front(live);
                return;
            }
        }
    }

    fn task_seat(task: &Task) -> Option<Seat> {
        match task {
            Task::Review { seat }
            | Task::TimeLapse { seat, .. }
            | Task::Activate { seat, .. }
            | Task::ChooseAction { seat }
            | Task::Recruit { seat }
            | Task::Tournee { seat, .. }
            | Task::PlaceToken { seat, .. }
            | Task::Record { seat, .. }
            | Task::SponsorSwap { seat, .. }
            | Task::Groupie { seat, .. }
            | Task::FemmeChoice { seat, .. }
            | Task::Pilot { seat, .. }
            | Task::DjRemove { seat }
            | Task::DjAdd { seat }
            | Task::Influences { seat }
            | Task::EndRound { seat }
            | Task::HandDiscard { seat }
            | Task::Advertise { seat, .. }
            | Task::ChooseFirst { seat, .. } => Some(*seat),
            Task::Defend { target, .. } => Some(*target),
            _ => None,
        }
    }

    /// Runs an automatic step, or returns a decision that still waits for a seat.
    fn step(&mut self, task: Task, ev: &mut Events) -> Option<Task> {
        if let Some(seat) = Self::task_seat(&task)
            && !self.solvent(seat)
        {
            if let Task::PlaceToken { token, .. } = task {
                self.discard_token(seat, token, ev);
            }
            return None;
        }
        match task {
            Task::TimeLapse { seat, .. } => {
                let p = &self.players[seat];
                if p.time.is_none_or(|t| t >= LAST_WEEK) || p.hand.is_empty() {
                    return None;
                }
                Some(task)
            }
            Task::Influences { seat } => {
                let can_buy = (1..=4u8).any(|f| {
                    self.influence_market[f as usize - 1].is_some() && self.coverable(seat, f as i64)
                });
                if self.players[seat].hand.len() >= self.hand_limit(seat) || (!self.can_draw() && !can_buy) {
                    return None;
                }
                Some(task)
            }
            Task::HandDiscard { seat } => {
                (self.players[seat].hand.len() > self.hand_limit(seat)).then_some(task)
            }
            Task::DjAdd { .. } => {
                let source = self.concert_market.iter().any(Option::is_some)
                    || !self.bag.is_empty()
                    || !self.used_tokens.is_empty();
                if self.map_tokens.len() >= MAP_TOKENS || !source {
                    self.refill_concert_market(ev);
                    return None;
                }
                Some(task)
            }
            Task::Charts => self.charts_progress(ev).then_some(Task::Charts),
            Task::Bid(_) | Task::Poll { .. } => Some(task),
            t if Self::task_seat(&t).is_some() => Some(t),
            Task::StartRound { seat } => {
                self.start_round(seat, ev);
                None
            }
            Task::AfterAction { seat, nth } => {
                if nth == 1 && !self.triggered_this_round {
                    self.queue.push_front(Task::TimeLapse { seat, nth: 2 });
                }
                None
            }
            Task::RefillMarkets { retried } => {
                if !self.refill_influence_market(ev) && !retried && self.any_influence_field() {
                    let mut tasks = self.emergency_clearing();
                    tasks.push(Task::RefillMarkets { retried: true });
                    tell(ev, GameEvent::EmergencyClearing);
                    self.push_front_all(tasks);
                    return None;
                }
                self.refill_artist_market(ev);
                None
            }
            Task::RefillConcerts => {
                self.refill_concert_market(ev);
                None
            }
            Task::RoundTail => {
                let mut tasks = Vec::new();
                if self.turn + 1 == self.order.len() {
                    tasks.push(Task::MarketChange);
                    tasks.push(Task::RondelStep);
                    if !self.last_turn {
                        tasks.push(Task::SequenceBid);
                    }
                }
                if self.qe_pending {
                    tasks.push(Task::QuarterEnd);
                }
                tasks.push(Task::NextRound);
                self.push_front_all(tasks);
                None
            }
            Task::MarketChange => {
                // Step 7: field 1 of each market is discarded, the rest move down.
                if let Some(c) = self.influence_market[0].take() {
                    self.influence_discard.push(c);
                    tell(
                        ev,
                        GameEvent::MarketDiscard {
                            seat: None,
                            market: Market::Influence,
                            field: 1,
                            card: card_id(c),
                        },
                    );
                }
                if let Some(a) = self.artist_market[0].take() {
                    self.artist_discard.push(a);
                    tell(
                        ev,
                        GameEvent::MarketDiscard {
                            seat: None,
                            market: Market::Artist,
                            field: 1,
                            card: artist_id(a),
                        },
                    );
                }
                self.queue.push_front(Task::RefillMarkets { retried: false });
                None
            }
            Task::RondelStep => {
                self.rondel = (self.rondel + 1) % RONDEL.len() as u8;
                tell(
                    ev,
                    GameEvent::RondelMoved {
                        field: RONDEL[self.rondel as usize].into(),
                        cause: RondelCause::Step,
                    },
                );
                let seats = self.in_turn_order();
                let tasks: Vec<Task> = match self.rondel {
                    0 => vec![Task::TrendChange],
                    1 => seats
                        .into_iter()
                        .map(|seat| Task::PopCheck { seat })
                        .chain([Task::ScandalsUpright])
                        .collect(),
                    2 => seats.into_iter().map(|seat| Task::Salary { seat }).collect(),
                    3 => seats.into_iter().map(|seat| Task::Integration { seat }).collect(),
                    _ => seats.into_iter().map(|seat| Task::Royalty { seat }).collect(),
                };
                self.push_front_all(tasks);
                None
            }
            Task::TrendChange => {
                if let Some((_, seat)) = self.trend_expert {
                    tell(ev, GameEvent::TrendChangeBlocked { seat });
                } else {
                    self.roll_dice(ev);
                }
                None
            }
            Task::PopCheck { seat } => {
                if self.solvent(seat) {
                    let scandal = self.players[seat].scandal;
                    let charted = self.has_top5_song(seat);
                    if scandal || !charted {
                        self.queue.push_front(Task::Draw {
                            seat,
                            left: 1,
                            best: 0,
                            purpose: DrawPurpose::PopularityCheck {
                                double: scandal && !charted,
                            },
                            retried: false,
                        });
                    }
                }
                None
            }
            Task::ScandalsUpright => {
                let seats: Vec<Seat> = (0..self.n()).filter(|&s| self.players[s].scandal).collect();
                for p in &mut self.players {
                    p.scandal = false;
                }
                if !seats.is_empty() {
                    tell(
                        ev,
                        GameEvent::Scandal {
                            seats,
                            running: false,
                        },
                    );
                }
                None
            }
            Task::Salary { seat } => {
                if self.solvent(seat) {
                    let amount = SALARY_PER_ARTIST * self.players[seat].band.len() as i64
                        + self.tokens_on_band(seat) as i64;
                    self.push_front_all(vec![
                        Task::Pay {
                            seat,
                            amount,
                            reason: Payment::Salaries,
                        },
                        Task::SatisfactionUp { seat },
                    ]);
                }
                None
            }
            Task::SatisfactionUp { seat } => {
                if self.solvent(seat) {
                    self.raise_satisfaction(seat, 1, SatisfactionCause::Salaries, ev);
                }
                None
            }
            Task::Integration { seat } => {
                if self.solvent(seat) {
                    let sat = self.players[seat].satisfaction;
                    let band = std::mem::take(&mut self.players[seat].band);
                    let (leave, stay): (Vec<_>, Vec<_>) = band
                        .into_iter()
                        .partition(|a| components().artists[a.card as usize].independence > sat);
                    self.players[seat].band = stay;
                    for a in leave {
                        tell(
                            ev,
                            GameEvent::ArtistLeft {
                                seat,
                                artist: artist_id(a.card),
                            },
                        );
                        self.artist_discard.push(a.card);
                        self.used_tokens.extend(a.tokens);
                    }
                    self.queue.push_front(Task::HandDiscard { seat });
                }
                None
            }
            Task::Royalty { seat } => {
                if self.solvent(seat) {
                    let pop = self.players[seat].popularity;
                    if pop > 0 {
                        let pay = match self.options.royalties {
                            RoyaltyBasis::TrueValue => pop,
                            RoyaltyBasis::PrintedField => (pop - 1) % 50 + 1,
                        };
                        self.players[seat].cash += pay;
                        tell(
                            ev,
                            GameEvent::Earned {
                                seat,
                                amount: pay,
                                reason: Income::Royalties,
                            },
                        );
                    } else if pop < 0 {
                        self.queue.push_front(Task::Pay {
                            seat,
                            amount: -pop,
                            reason: Payment::Royalties,
                        });
                    }
                }
                None
            }
            Task::Pay { seat, amount, reason } => {
                if !self.solvent(seat) || amount <= 0 {
                    return None;
                }
                if self.players[seat].cash >= amount {
                    self.players[seat].cash -= amount;
                    tell(ev, GameEvent::Paid { seat, amount, reason });
                    None
                } else if self.coverable(seat, amount) {
                    Some(Task::Advertise {
                        seat,
                        due: amount,
                        then: Then::Mandatory(reason),
                    })
                } else {
                    self.go_bankrupt(seat, ev);
                    None
                }
            }
            Task::Clearing { seat } => {
                if self.solvent(seat) {
                    let sum: i64 = self.players[seat]
                        .influence_field
                        .iter()
                        .map(|&c| power(c) as i64)
                        .sum();
                    self.push_front_all(vec![
                        Task::Pay {
                            seat,
                            amount: sum,
                            reason: Payment::Clearing,
                        },
                        Task::DiscardField { seat },
                    ]);
                }
                None
            }
            Task::DiscardField { seat } => {
                let field = std::mem::take(&mut self.players[seat].influence_field);
                if !field.is_empty() {
                    tell(
                        ev,
                        GameEvent::FieldDiscarded {
                            seat,
                            cards: field.iter().map(|&c| card_id(c)).collect(),
                        },
                    );
                }
                self.influence_discard.extend(field);
                None
            }
            Task::Draw {
                seat,
                mut left,
                mut best,
                purpose,
                retried,
            } => {
                while left > 0 {
                    match self.draw_influence(ev) {
                        Some(c) => {
                            self.revealed.push(c);
                            best = best.max(power(c));
                            left -= 1;
                            tell(
                                ev,
                                GameEvent::Shown {
                                    seat,
                                    card: card_id(c),
                                    power: power(c),
                                    purpose: purpose.shown_for(),
                                },
                            );
                        }
                        None if !retried && self.any_influence_field() => {
                            let mut tasks = self.emergency_clearing();
                            tasks.push(Task::Draw {
                                seat,
                                left,
                                best,
                                purpose,
                                retried: true,
                            });
                            self.push_front_all(tasks);
                            return None;
                        }
                        None => left = 0,
                    }
                }
                let shown = std::mem::take(&mut self.revealed);
                if !shown.is_empty() {
                    tell(
                        ev,
                        GameEvent::ShownDiscarded {
                            cards: shown.iter().map(|&c| card_id(c)).collect(),
                        },
                    );
                }
                self.influence_discard.extend(shown);
                if !self.solvent(seat) {
                    return None;
                }
                match purpose {
                    DrawPurpose::FemmeFatale => self.queue.push_front(Task::FemmeChoice { seat, best }),
                    DrawPurpose::Paparazzi => {
                        self.gain_popularity(seat, best as i64, PopularityCause::Paparazzi, ev);
                    }
                    DrawPurpose::PopularityCheck { double } => {
                        let by = best as i64 * if double { 2 } else { 1 };
                        self.lose_popularity(seat, by, PopularityCause::PopularityCheck { double }, ev);
                    }
                    DrawPurpose::EndScandal => {
                        self.lose_popularity(seat, best as i64, PopularityCause::EndScandal, ev);
                    }
                }
                None
            }
            Task::DrawToHand { seat } => {
                if self.solvent(seat) {
                    self.draw_to_hand(seat, ev);
                }
                None
            }
            Task::SequenceBid => {
                let answers: Vec<Option<bool>> = (0..self.n())
                    .map(|s| if self.solvent(s) { None } else { Some(true) })
                    .collect();
                if answers.iter().any(Option::is_none) {
                    self.queue.push_front(Task::Poll { answers });
                }
                None
            }
            Task::QuarterEnd => {
                self.qe_pending = false;
                let mut restocked = Vec::new();
                if self.options.restock == Restock::QuarterEnd {
                    for (seat, p) in self.players.iter_mut().enumerate() {
                        if p.bankrupt.is_none() {
                            p.blanks = [true; 3];
                            restocked.push(seat);
                        }
                    }
                }
                tell(ev, GameEvent::QuarterEnd { restocked });
                self.start_charts(ev);
                let mut tasks = vec![Task::Charts, Task::QePopularity, Task::QeSatisfaction];
                tasks.extend(
                    self.in_turn_order()
                        .into_iter()
                        .map(|seat| Task::Clearing { seat }),
                );
                self.push_front_all(tasks);
                None
            }
            Task::QePopularity => {
                for seat in self.in_turn_order() {
                    let t = self.tokens_on_band(seat) as i64;
                    if self.solvent(seat) && t > 0 {
                        self.gain_popularity(seat, t, PopularityCause::Experience, ev);
                    }
                }
                None
            }
            Task::QeSatisfaction => {
                for seat in self.in_turn_order() {
                    if !self.solvent(seat) {
                        continue;
                    }
                    let loss = self.satisfaction_loss(seat);
                    self.lower_satisfaction(seat, loss as u8, SatisfactionCause::SatisfactionCheck, ev);
                }
                None
            }
            Task::NextRound => {
                if self.players.iter().all(|p| p.bankrupt.is_some()) {
                    tell(
                        ev,
                        GameEvent::GameEnds {
                            ending: Ending::AllBankrupt,
                        },
                    );
                    self.queue.push_front(Task::Finish);
                    return None;
                }
                if self.turn + 1 >= self.order.len() {
                    if self.last_turn {
                        tell(
                            ev,
                            GameEvent::GameEnds {
                                ending: Ending::LastTurn,
                            },
                        );
                        // S42: a TREND EXPERT still standing returns before the end-game payment.
                        self.return_trend_expert(ev);
                        let mut tasks = Vec::new();
                        for seat in self.in_turn_order() {
                            tasks.push(Task::Clearing { seat });
                            tasks.push(Task::EndPenalty { seat });
                        }
                        tasks.push(Task::Finish);
                        self.push_front_all(tasks);
                        return None;
                    }
                    self.turn = 0;
                } else {
                    self.turn += 1;
                }
                let seat = self.active();
                self.queue.push_front(Task::StartRound { seat });
                None
            }
            Task::EndPenalty { seat } => {
                if self.solvent(seat) {
                    let sat = self.players[seat].satisfaction;
                    self.lose_popularity(
                        seat,
                        (MAX_SATISFACTION - sat) as i64,
                        PopularityCause::EndSatisfaction,
                        ev,
                    );
                    let missing = self.occupied(seat)[..MANDATORY_FIELDS as usize]
                        .iter()
                        .filter(|&&x| !x)
                        .count();
                    self.lose_popularity(seat, missing as i64, PopularityCause::EndIncompleteBand, ev);
                    if self.players[seat].scandal {
                        self.queue.push_front(Task::Draw {
                            seat,
                            left: 1,
                            best: 0,
                            purpose: DrawPurpose::EndScandal,
                            retried: false,
                        });
                    }
                }
                None
            }
            Task::Finish => {
                let outcome = self.compute_outcome();
                let scores = outcome
                    .scores
                    .iter()
                    .map(|s| FinalScore {
                        seat: s.seat,
                        popularity: self.players[s.seat].popularity,
                        cash: self.players[s.seat].cash,
                        total: s.total,
                        rank: s.rank,
                    })
                    .collect();
                ev.push(Event::public(GameEvent::GameOver {
                    winners: outcome.winners.clone(),
                    scores,
                }));
                self.result = Some(outcome);
                self.queue.clear();
                None
            }
            _ => None,
        }
    }

    // ----- who acts and what they may do -----

    pub(crate) fn to_act_now(&self) -> Vec<Seat> {
        if self.result.is_some() {
            return vec![];
        }
        let Some(task) = self.queue.front() else {
            return vec![];
        };
        match task {
            Task::Bid(b) => b
                .seats
                .iter()
                .copied()
                .filter(|&s| b.bids[s].is_none())
                .collect::<Vec<_>>(),
            Task::Poll { answers } => (0..self.n()).filter(|&s| answers[s].is_none()).collect(),
            Task::Charts => self.charts_decider().into_iter().collect(),
            t => Self::task_seat(t).into_iter().collect(),
        }
        .into_iter()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
    }

    pub(crate) fn legal(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        if self.result.is_some() || !self.to_act_now().contains(&seat) {
            return out;
        }
        let Some(task) = self.queue.front() else {
            return out;
        };
        let p = &self.players[seat];
        match task {
            Task::Bid(_) => out.extend((0..=p.cash.max(0) as u32).map(|amount| Action::Bid { amount })),
            Task::Poll { .. } => out.extend([Action::GiveUpBid, Action::JoinBid]),
            Task::ChooseFirst { .. } => {
                out.extend(
                    (0..self.n())
                        .filter(|&s| self.solvent(s))
                        .map(|seat| Action::ChooseFirst { seat }),
                );
            }
            Task::Review { .. } => {
                for f in 1..=4u8 {
                    if self.influence_market[f as usize - 1].is_some() && self.coverable(seat, f as i64) {
                        out.push(Action::Remove {
                            market: Market::Influence,
                            field: f,
                        });
                    }
                }
                for f in 1..=4u8 {
                    if self.artist_market[f as usize - 1].is_some() && self.coverable(seat, f as i64) {
                        out.push(Action::Remove {
                            market: Market::Artist,
                            field: f,
                        });
                    }
                }
                out.push(Action::EndReview);
            }
            Task::TimeLapse { .. } => {
                out.extend(p.hand.iter().map(|&c| Action::Play { card: card_id(c) }));
                out.push(Action::GiveUp);
            }
            Task::Activate { card, .. } => {
                out.push(Action::ActivateHand);
                for f in 1..=power(*card).min(4) {
                    if self.influence_market[f as usize - 1].is_some() {
                        out.push(Action::TakeMarket { field: f });
                    }
                }
            }
            Task::ChooseAction { .. } => self.choose_action_list(seat, &mut out),
            Task::Recruit { .. } => {
                self.recruit_actions(seat, &mut out);
                out.push(Action::EndAction);
            }
            Task::Tournee { left, .. } => {
                if *left > 0 {
                    self.tournee_actions(seat, &mut out);
                }
                out.push(Action::EndAction);
            }
            Task::PlaceToken { token, .. } => {
                let colour = components().tokens[*token as usize].colour;
                for a in &p.band {
                    let card = &components().artists[a.card as usize];
                    let fits =
                        colour == TokenColour::Multicolour || colour.style() == Some(card.style(a.side_b));
                    if fits && (a.tokens.len() as u8) < card.experience_fields {
                        out.push(Action::PlaceToken {
                            artist: artist_id(a.card),
                        });
                    }
                }
                out.push(Action::DiscardToken);
            }
            Task::Record { song, .. } => {
                if song.style.is_none() {
                    out.extend(Style::ALL.map(|style| Action::RecordStyle { style }));
                } else if song.lyrics.is_none() {
                    out.extend(LYRICS.map(|lyrics| Action::RecordLyrics { lyrics }));
                } else if song.tempo.is_none() {
                    out.extend(TEMPI.map(|tempo| Action::RecordTempo { tempo }));
                } else {
                    out.extend(VOLUMES.map(|volume| Action::RecordVolume { volume }));
                }
            }
            Task::Defend { card, .. } => {
                let attacking = &components().influence[*card as usize];
                for &c in &p.hand {
                    let def = &components().influence[c as usize];
                    if def.character == Character::Bodyguard
                        || (def.character == attacking.character && def.power >= attacking.power)
                    {
                        out.push(Action::Defend { card: card_id(c) });
                    }
                }
                out.push(Action::Decline);
            }
            Task::SponsorSwap { target, .. } => {
                for &g in &p.hand {
                    for &t in &self.players[*target].hand {
                        out.push(Action::Swap {
                            give: card_id(g),
                            take: card_id(t),
                        });
                    }
                }
                out.push(Action::Stop);
            }
            Task::Groupie {
                target,
                take,
                give,
                mine,
                ..
            } => {
                let combos = self.groupie_combos(seat, *target);
                let mut push = |a: Action| {
                    if !out.contains(&a) {
                        out.push(a);
                    }
                };
                for (t, g, m, th) in combos {
                    match (take, give, mine) {
                        (None, _, _) => push(Action::GroupieTake { artist: artist_id(t) }),
                        (Some(tk), None, _) if *tk == t => push(Action::GroupieGive { artist: artist_id(g) }),
                        (Some(tk), Some(gv), None) if *tk == t && *gv == g => {
                            push(Action::GroupiePlaceMine { fields: m })
                        }
                        (Some(tk), Some(gv), Some(mn)) if *tk == t && *gv == g && *mn == m => {
                            push(Action::GroupiePlaceTheirs { fields: th })
                        }
                        _ => {}
                    }
                }
            }
            Task::FemmeChoice { .. } => {
                out.push(Action::Integration);
                if !self.last_turn {
                    out.extend(
                        self.targets(seat)
                            .into_iter()
                            .map(|target| Action::Disorder { target }),
                    );
                }
            }
            Task::Pilot { cities, stopped, .. } => {
                if !stopped && cities.len() < 2 {
                    self.pilot_actions(seat, &mut out);
                    out.push(Action::Stop);
                } else {
                    for &c in cities {
                        let a = Action::CarTo { city: city_name(c) };
                        if !out.contains(&a) {
                            out.push(a);
                        }
                    }
                }
            }
            Task::DjRemove { .. } => {
                out.extend(
                    self.map_tokens
                        .iter()
                        .map(|&t| Action::DjRemove { token: token_id(t) }),
                );
                out.push(Action::DjDone);
            }
            Task::DjAdd { .. } => {
                for f in 1..=5u8 {
                    if self.concert_market[f as usize - 1].is_some() {
                        out.push(Action::DjFromMarket { field: f });
                    }
                }
                if !self.bag.is_empty() || !self.used_tokens.is_empty() {
                    out.push(Action::DjFromBag);
                }
            }
            Task::Influences { .. } => {
                if self.can_draw() {
                    out.push(Action::Draw);
                }
                for f in 1..=4u8 {
                    if self.influence_market[f as usize - 1].is_some() && self.coverable(seat, f as i64) {
                        out.push(Action::Buy { field: f });
                    }
                }
            }
            Task::EndRound { .. } => out.push(Action::EndRound),
            Task::HandDiscard { .. } => {
                out.extend(p.hand.iter().map(|&c| Action::Discard { card: card_id(c) }))
            }
            Task::Advertise { due, .. } => {
                let short = (due - p.cash).max(0);
                let min = (short + FONS_PER_FIELD - 1) / FONS_PER_FIELD;
                let max = (p.popularity - POPULARITY_FLOOR).max(0);
                out.extend((min..=max).map(|f| Action::Advertise { fields: f as u32 }));
            }
            Task::Charts => self.charts_actions(seat, &mut out),
            _ => {}
        }
        if Self::anytime_allowed(task) && seat == self.active() && Self::task_seat(task) == Some(seat) {
            self.anytime_actions(seat, &mut out);
        }
        out
    }

    // ----- applying a listed action -----

    /// Applies an action already checked against [`Self::legal`].
    pub(crate) fn exec(&mut self, seat: Seat, action: &Action, ev: &mut Events) {
        let c = components();
        match action {
            Action::Dismiss { artist } => {
                let Some(card) = find_artist(artist) else { return };
                let band = &mut self.players[seat].band;
                if let Some(i) = band.iter().position(|a| a.card == card) {
                    let a = band.remove(i);
                    self.artist_discard.push(a.card);
                    self.used_tokens.extend(a.tokens);
                    tell(
                        ev,
                        GameEvent::Dismissed {
                            seat,
                            artist: artist.clone(),
                        },
                    );
                    self.lower_satisfaction(seat, 1, SatisfactionCause::Dismissal, ev);
                    self.queue.push_front(Task::HandDiscard { seat });
                }
                return;
            }
            Action::Flip { artist } => {
                let Some(card) = find_artist(artist) else { return };
                if let Some(a) = self.players[seat].band.iter_mut().find(|a| a.card == card) {
                    a.side_b = !a.side_b;
                    let (keep, drop): (Vec<u8>, Vec<u8>) = a
                        .tokens
                        .iter()
                        .partition(|&&t| c.tokens[t as usize].colour == TokenColour::Multicolour);
                    a.tokens = keep;
                    let side_b = a.side_b;
                    tell(
                        ev,
                        GameEvent::StyleChanged {
                            seat,
                            artist: artist.clone(),
                            side_b,
                            discarded: drop.iter().map(|&t| token_id(t)).collect(),
                        },
                    );
                    self.used_tokens.extend(drop);
                }
                return;
            }
            Action::Regroup { artist, fields } => {
                let Some(card) = find_artist(artist) else { return };
                if let Some(a) = self.players[seat].band.iter_mut().find(|a| a.card == card) {
                    a.fields = fields.clone();
                    tell(
                        ev,
                        GameEvent::Regrouped {
                            seat,
                            artist: artist.clone(),
                            fields: fields.clone(),
                        },
                    );
                }
                return;
            }
            _ => {}
        }
        let Some(task) = self.queue.pop_front() else {
            return;
        };
        match (task, action) {
            (Task::Bid(mut b), Action::Bid { amount }) => {
                b.bids[seat] = Some(*amount);
                ev.push(Event::private(
                    seat,
                    GameEvent::BidIn {
                        seat,
                        amount: Some(*amount),
                    },
                ));
                ev.push(Event::public(GameEvent::BidIn { seat, amount: None }));
                if b.seats.iter().all(|&s| b.bids[s].is_some()) {
                    self.resolve_bids(b, ev);
                } else {
                    self.queue.push_front(Task::Bid(b));
                }
            }
            (Task::Poll { mut answers }, a) => {
                let gives_up = matches!(a, Action::GiveUpBid);
                answers[seat] = Some(gives_up);
                // S2: the poll is sealed until every answer is in.
                ev.push(Event::private(
                    seat,
                    GameEvent::PollAnswered {
                        seat,
                        gives_up: Some(gives_up),
                    },
                ));
                tell(ev, GameEvent::PollAnswered { seat, gives_up: None });
                if answers.iter().all(Option::is_some) {
                    let revealed: Vec<PollAnswer> = (0..self.n())
                        .filter(|&s| self.solvent(s))
                        .map(|seat| PollAnswer {
                            seat,
                            gives_up: answers[seat] == Some(true),
                        })
                        .collect();
                    tell(ev, GameEvent::PollRevealed { answers: revealed });
                    if answers.iter().all(|a| *a == Some(true)) {
                        tell(ev, GameEvent::SequenceKept);
                    } else {
                        self.bid_rounds += 1;
                        let seats: Vec<Seat> = (0..self.n()).filter(|&s| self.solvent(s)).collect();
                        self.queue.push_front(Task::Bid(Bidding {
                            setup: false,
                            seats,
                            bids: vec![None; self.n()],
                            round: self.bid_rounds,
                        }));
                    }
                } else {
                    self.queue.push_front(Task::Poll { answers });
                }
            }
            (Task::ChooseFirst { setup, .. }, Action::ChooseFirst { seat: first }) => {
                self.set_order_from(*first, ev);
                if setup {
                    self.turn = 0;
                    let s = self.active();
                    self.queue.push_front(Task::StartRound { seat: s });
                }
            }
            (t @ Task::Review { .. }, Action::Remove { market, field }) => {
                self.queue.push_front(t);
                self.pay_voluntary(seat, *field as i64, Then::Review(*market, *field), ev);
            }
            (Task::Review { .. }, Action::EndReview) => {
                self.queue.push_front(Task::RefillMarkets { retried: false });
            }
            (Task::TimeLapse { nth, .. }, Action::Play { card }) => {
                let (Some(card), Some(old)) = (find_card(card), self.players[seat].time) else {
                    return;
                };
                self.take_from_hand(seat, card);
                self.players[seat].influence_field.push(card);
                let new = (old + power(card)).min(LAST_WEEK);
                self.players[seat].time = Some(new);
                tell(
                    ev,
                    GameEvent::TimeLapse {
                        seat,
                        card: card_id(card),
                        from: old,
                        to: new,
                    },
                );
                for (i, q) in QUARTER_ENDS.into_iter().enumerate() {
                    if !self.qe_done[i] && old < q && new >= q {
                        self.qe_done[i] = true;
                        self.qe_pending = true;
                        if nth == 1 {
                            self.triggered_this_round = true;
                        }
                        if q == LAST_WEEK {
                            self.last_turn = true;
                        }
                        tell(
                            ev,
                            GameEvent::QuarterEndReached {
                                seat,
                                week: q,
                                last_turn: q == LAST_WEEK,
                            },
                        );
                    }
                }
                self.push_front_all(vec![
                    Task::Activate { seat, card },
                    Task::AfterAction { seat, nth },
                ]);
            }
            (Task::TimeLapse { .. }, Action::GiveUp) => {
                tell(ev, GameEvent::TimeLapseGivenUp { seat });
            }
            (Task::Activate { .. }, Action::ActivateHand) => {
                self.queue.push_front(Task::ChooseAction { seat });
            }
            (Task::Activate { .. }, Action::TakeMarket { field }) => {
                if let Some(card) = self.influence_market[*field as usize - 1].take() {
                    self.players[seat].influence_field.push(card);
                    tell(
                        ev,
                        GameEvent::ActivatedFromMarket {
                            seat,
                            field: *field,
                            card: card_id(card),
                        },
                    );
                }
                self.queue.push_front(Task::ChooseAction { seat });
            }
            (Task::ChooseAction { .. }, a) => self.first_step(seat, a, ev),
            (
                t @ Task::Recruit { .. },
                Action::Recruit {
                    field,
                    side_b,
                    fields,
                },
            ) => {
                self.queue.push_front(t);
                if let Some(a) = self.artist_market[*field as usize - 1].take() {
                    self.players[seat].band.push(BandArtist {
                        card: a,
                        side_b: *side_b,
                        fields: fields.clone(),
                        tokens: vec![],
                    });
                    tell(
                        ev,
                        GameEvent::Recruited {
                            seat,
                            artist: artist_id(a),
                            market_field: *field,
                            side_b: *side_b,
                            fields: fields.clone(),
                        },
                    );
                    self.raise_satisfaction(seat, 1, SatisfactionCause::Recruitment, ev);
                }
            }
            (
                Task::Tournee { left, .. },
                a @ (Action::Move { .. } | Action::PickToken { .. } | Action::PickSong { .. }),
            ) => {
                self.queue.push_front(Task::Tournee {
                    seat,
                    left: left.saturating_sub(1),
                });
                match a {
                    Action::Move { city } => {
                        if let Some(cy) = c.city(city) {
                            self.players[seat].car = cy;
                            tell(
                                ev,
                                GameEvent::CarMoved {
                                    seat,
                                    city: city.clone(),
                                },
                            );
                        }
                    }
                    Action::PickToken { token } => {
                        if let Some(t) = find_token(token) {
                            self.concert(seat, t, ev);
                        }
                    }
                    Action::PickSong { studio } => {
                        if let Some(cy) = c.city(studio) {
                            self.pick_song(seat, cy, ev);
                        }
                    }
                    _ => {}
                }
            }
            (Task::Recruit { .. } | Task::Tournee { .. }, Action::EndAction) => {}
            (Task::PlaceToken { token, .. }, Action::PlaceToken { artist }) => {
                let card = find_artist(artist);
                if let Some(a) = self.players[seat].band.iter_mut().find(|a| Some(a.card) == card) {
                    a.tokens.push(token);
                    tell(
                        ev,
                        GameEvent::TokenOnArtist {
                            seat,
                            token: token_id(token),
                            artist: artist.clone(),
                        },
                    );
                }
            }
            (Task::PlaceToken { token, .. }, Action::DiscardToken) => {
                self.discard_token(seat, token, ev);
            }
            (Task::Record { mut song, .. }, a) => match a {
                Action::RecordStyle { style } => {
                    song.style = Some(*style);
                    self.queue.push_front(Task::Record { seat, song });
                }
                Action::RecordLyrics { lyrics } => {
                    song.lyrics = LYRICS.iter().position(|l| l == lyrics).map(|i| i as u8);
                    self.queue.push_front(Task::Record { seat, song });
                }
                Action::RecordTempo { tempo } => {
                    song.tempo = TEMPI.iter().position(|l| l == tempo).map(|i| i as u8);
                    self.queue.push_front(Task::Record { seat, song });
                }
                Action::RecordVolume { volume } => {
                    let volume = VOLUMES.iter().position(|l| l == volume).unwrap_or(0) as u8;
                    self.finish_song(seat, &song, volume, ev);
                }
                _ => {}
            },
            (Task::Defend { target, attacker, .. }, Action::Defend { card }) => {
                if let Some(card) = find_card(card) {
                    self.take_from_hand(target, card);
                    self.players[target].influence_field.push(card);
                    tell(
                        ev,
                        GameEvent::Defence {
                            target,
                            attacker,
                            card: Some(card_id(card)),
                        },
                    );
                }
            }
            (
                Task::Defend {
                    target,
                    attacker,
                    attack,
                    ..
                },
                Action::Decline,
            ) => {
                tell(
                    ev,
                    GameEvent::Defence {
                        target,
                        attacker,
                        card: None,
                    },
                );
                self.resolve_attack(attacker, target, attack, ev);
            }
            (Task::SponsorSwap { target, left, .. }, Action::Swap { give, take }) => {
                let (Some(g), Some(t)) = (find_card(give), find_card(take)) else {
                    return;
                };
                self.take_from_hand(seat, g);
                self.take_from_hand(target, t);
                self.players[target].hand.push(g);
                self.players[seat].hand.push(t);
                self.known.push((g, seat));
                self.known.push((t, target));
                ev.push(Event {
                    audience: crate::Audience::Seats(vec![seat.min(target), seat.max(target)]),
                    body: GameEvent::Swapped {
                        attacker: seat,
                        target,
                        give: Some(give.clone()),
                        take: Some(take.clone()),
                    },
                });
                tell(
                    ev,
                    GameEvent::Swapped {
                        attacker: seat,
                        target,
                        give: None,
                        take: None,
                    },
                );
                if left > 1 {
                    self.queue.push_front(Task::SponsorSwap {
                        seat,
                        target,
                        left: left - 1,
                    });
                }
            }
            (Task::SponsorSwap { .. }, Action::Stop) => {}
            (
                Task::Groupie {
                    target,
                    take,
                    give,
                    mine,
                    ..
                },
                a,
            ) => match a {
                Action::GroupieTake { artist } => {
                    self.queue.push_front(Task::Groupie {
                        seat,
                        target,
                        take: find_artist(artist),
                        give,
                        mine,
                    });
                }
                Action::GroupieGive { artist } => {
                    self.queue.push_front(Task::Groupie {
                        seat,
                        target,
                        take,
                        give: find_artist(artist),
                        mine,
                    });
                }
                Action::GroupiePlaceMine { fields } => {
                    self.queue.push_front(Task::Groupie {
                        seat,
                        target,
                        take,
                        give,
                        mine: Some(fields.clone()),
                    });
                }
                Action::GroupiePlaceTheirs { fields } => {
                    let (Some(take), Some(give), Some(mine)) = (take, give, mine) else {
                        return;
                    };
                    let card = self.active_card(seat).unwrap_or(0);
                    self.attack(
                        seat,
                        target,
                        card,
                        Attack::Groupie {
                            take,
                            give,
                            mine,
                            theirs: fields.clone(),
                        },
                        ev,
                    );
                }
                _ => {}
            },
            (Task::FemmeChoice { best, .. }, Action::Integration) => {
                self.raise_satisfaction(seat, best, SatisfactionCause::Integration, ev);
            }
            (Task::FemmeChoice { best, .. }, Action::Disorder { target }) => {
                let card = self.active_card(seat).unwrap_or(0);
                self.attack(seat, *target, card, Attack::Disorder { amount: best }, ev);
            }
            (Task::Pilot { cities, .. }, a @ (Action::PilotToken { .. } | Action::PilotSong { .. })) => {
                self.pilot_pick(seat, cities, a, ev);
            }
            (Task::Pilot { cities, .. }, Action::Stop) => {
                self.queue.push_front(Task::Pilot {
                    seat,
                    cities,
                    stopped: true,
                });
            }
            (Task::Pilot { .. }, Action::CarTo { city }) => {
                if let Some(cy) = c.city(city) {
                    self.players[seat].car = cy;
                    tell(
                        ev,
                        GameEvent::CarMoved {
                            seat,
                            city: city.clone(),
                        },
                    );
                }
            }
            (Task::DjRemove { .. }, a) => self.dj_step(seat, a, ev),
            (t @ Task::DjAdd { .. }, Action::DjFromMarket { field }) => {
                self.queue.push_front(t);
                if let Some(tk) = self.concert_market[*field as usize - 1].take() {
                    self.map_tokens.push(tk);
                    self.tell_to_map(tk, ToMap::DjMarket { field: *field }, Some(seat), ev);
                }
            }
            (t @ Task::DjAdd { .. }, Action::DjFromBag) => {
                self.queue.push_front(t);
                if let Some(tk) = self.draw_token(ev) {
                    self.map_tokens.push(tk);
                    self.tell_to_map(tk, ToMap::DjBag, Some(seat), ev);
                }
            }
            (t @ Task::Influences { .. }, Action::Draw) => {
                self.queue.push_front(t);
                if !self.draw_to_hand(seat, ev) {
                    let mut tasks = self.emergency_clearing();
                    tasks.push(Task::DrawToHand { seat });
                    tell(ev, GameEvent::EmergencyClearing);
                    self.push_front_all(tasks);
                }
            }
            (t @ Task::Influences { .. }, Action::Buy { field }) => {
                self.queue.push_front(t);
                self.pay_voluntary(seat, *field as i64, Then::Buy(*field), ev);
            }
            (Task::EndRound { .. }, Action::EndRound) => {
                tell(ev, GameEvent::RoundEnds { seat });
            }
            (t @ Task::HandDiscard { .. }, Action::Discard { card }) => {
                self.queue.push_front(t);
                if let Some(card) = find_card(card) {
                    self.take_from_hand(seat, card);
                    self.influence_discard.push(card);
                    tell(
                        ev,
                        GameEvent::Discarded {
                            seat,
                            card: card_id(card),
                        },
                    );
                }
            }
            (Task::Advertise { due, then, .. }, Action::Advertise { fields }) => {
                let p = &mut self.players[seat];
                let from = p.popularity;
                p.popularity -= *fields as i64;
                let raised = FONS_PER_FIELD * *fields as i64;
                p.cash += raised - due;
                let to = p.popularity;
                tell(
                    ev,
                    GameEvent::Advertised {
                        seat,
                        fields: *fields,
                        raised,
                    },
                );
                tell(
                    ev,
                    GameEvent::Popularity {
                        seat,
                        from,
                        to,
                        cause: PopularityCause::Advertising,
                    },
                );
                tell(
                    ev,
                    GameEvent::Paid {
                        seat,
                        amount: due,
                        reason: then.payment(),
                    },
                );
                self.do_then(seat, then, ev);
            }
            (Task::Charts, a) => {
                self.queue.push_front(Task::Charts);
                self.charts_exec(seat, a, ev);
            }
            (t, _) => self.queue.push_front(t),
        }
    }
}
