//! The work queue that runs the game: the helpers every decision shares, and the dispatch of
//! each task to the module of the decision that owns it (its automatic step, the actions it
//! lists and how each applies).

use super::actions::{Action, ChartFields, Market, PaparazziBlock, Restock, RoyaltyBasis};
use super::components::{
    ArtistId, CardId, Character, ChartField, CityId, Die, LYRICS, MANDATORY_FIELDS, RONDEL, SongId, Style,
    TEMPI, TokenColour, TokenId, VOLUMES, components,
};
use super::events::{
    DisclosedSong, Ending, FinalScore, GameEvent, Income, MarketField, MarketRow, Payment, Pile, PollAnswer,
    PopularityCause, RevealedBid, RondelCause, SatisfactionCause, ToMap,
};
use super::state::{Attack, BandArtist, Bidding, DrawPurpose, PartialSong, ShowBusiness, Song, Task, Then};
use crate::{BySeat, Event, Seat};

mod bidding;
mod charts;
mod end;
mod hand;
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

/// Where a card can go, given which fields are taken (BAND: instruments), in the order the
/// legal lists give them. Nothing is allocated: every seat's legal list asks this for each
/// artist of the band.
pub(crate) fn placements(card: ArtistId, occupied: [bool; 6]) -> Placements {
    let artist = card.card();
    let mut out = Placements::default();
    let mut add = |p: &[u8]| {
        if p.iter().all(|&f| !occupied[f as usize]) && !out.iter().any(|q| q == p) {
            out.push(p);
        }
    };
    for ins in &artist.instruments {
        match ins.orange_field() {
            Some(f) => add(&[f]),
            None => {
                add(&[4]);
                add(&[5]);
            }
        }
    }
    let mut oranges = artist.instruments.iter().filter_map(|i| i.orange_field());
    if oranges.clone().any(|f| f == 0)
        && let Some(other) = oranges.find(|&f| f != 0)
    {
        add(&[0, other]);
    }
    out
}

/// [`placements`]' answer: each placement one field, or the main field and another, and at most
/// one per field besides the one pair.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Placements {
    fields: [[u8; 2]; 7],
    lens: [u8; 7],
    len: usize,
}

impl Placements {
    fn push(&mut self, fields: &[u8]) {
        if let Some(slot) = self.fields.get_mut(self.len) {
            slot[..fields.len()].copy_from_slice(fields);
            self.lens[self.len] = fields.len() as u8;
            self.len += 1;
        }
    }

    /// The placements, each as the fields it covers.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.fields[..self.len]
            .iter()
            .zip(&self.lens)
            .map(|(fields, &len)| &fields[..usize::from(len)])
    }
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

    fn active_card(&self, seat: Seat) -> Option<CardId> {
        self.players[seat].influence_field.last().copied()
    }

    fn active_power(&self, seat: Seat) -> u8 {
        self.active_card(seat).map(CardId::power).unwrap_or(0)
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

    fn forget(&mut self, card: CardId) {
        self.known.retain(|&(c, _)| c != card);
    }

    fn take_from_hand(&mut self, seat: Seat, card: CardId) -> bool {
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

    /// Runs an automatic step, or returns a decision that still waits for a seat. A bankrupt
    /// seat's steps are skipped (S34); a concert token it was to place is discarded.
    fn step(&mut self, task: Task, ev: &mut Events) -> Option<Task> {
        if let Some(seat) = Self::task_seat(&task)
            && !self.solvent(seat)
        {
            if let Task::PlaceToken { token, .. } = task {
                self.discard_token(seat, token, ev);
            }
            return None;
        }
        (rules_of(&task).step)(self, task, ev)
    }

    // ----- who acts and what they may do -----

    pub(crate) fn seats_to_act(&self) -> Vec<Seat> {
        if self.result.is_some() {
            return vec![];
        }
        let Some(task) = self.queue.front() else {
            return vec![];
        };
        let mut seats: Vec<Seat> = match task {
            Task::Bid(b) => b
                .seats
                .iter()
                .copied()
                .filter(|&s| b.bids[s].is_none())
                .collect::<Vec<_>>(),
            Task::Poll { answers } => answers
                .seats()
                .filter(|(_, answer)| answer.is_none())
                .map(|(s, _)| s)
                .collect(),
            Task::Charts => self.charts_decider().into_iter().collect(),
            t => Self::task_seat(t).into_iter().collect(),
        };
        seats.sort_unstable();
        seats.dedup();
        seats
    }

    /// Whether `seat` is in [`Self::seats_to_act`], without building the list.
    pub(crate) fn is_to_act(&self, seat: Seat) -> bool {
        if self.result.is_some() {
            return false;
        }
        match self.queue.front() {
            None => false,
            Some(Task::Bid(b)) => b.seats.contains(&seat) && b.bids[seat].is_none(),
            Some(Task::Poll { answers }) => answers.get(seat).is_some_and(Option::is_none),
            Some(Task::Charts) => self.charts_decider() == Some(seat),
            Some(t) => Self::task_seat(t) == Some(seat),
        }
    }

    /// The actions of `seat`, a seat the contract has found in [`Self::seats_to_act`].
    pub(crate) fn legal(&self, seat: Seat) -> Vec<Action> {
        let mut out = self.decision_legal(seat);
        if self.lists_anytime(seat) {
            self.anytime_actions(seat, &mut out);
        }
        out
    }

    /// The actions of the decision at the head of the queue: [`Self::legal`] without the
    /// anytime actions that may follow them.
    pub(crate) fn decision_legal(&self, seat: Seat) -> Vec<Action> {
        // Room for most lists at once (a turn's choice of actions runs to a dozen or two).
        let mut out = Vec::with_capacity(16);
        if let Some(task) = self.queue.front() {
            (rules_of(task).legal)(self, seat, task, &mut out);
        }
        out
    }

    /// S8: whether `seat`'s legal actions end with the anytime actions of its band: it is the
    /// active seat, at a step of its own turn that allows them.
    pub(crate) fn lists_anytime(&self, seat: Seat) -> bool {
        self.queue.front().is_some_and(|task| {
            Self::anytime_allowed(task) && seat == self.active() && Self::task_seat(task) == Some(seat)
        })
    }

    /// Why `action` is not legal for `seat`, a seat that may act, or `Ok`: it is not listed.
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<(), String> {
        if self.legal(seat).contains(action) {
            Ok(())
        } else {
            Err(format!(
                "not a legal action of seat {seat} in phase {}",
                self.phase_name()
            ))
        }
    }

    // ----- applying a listed action -----

    /// Carries out a legal action, then every automatic step up to the next decision.
    pub(crate) fn play(&mut self, seat: Seat, action: &Action) -> Events {
        let mut events = Events::new();
        self.exec(seat, action, &mut events);
        self.advance(&mut events);
        events
    }

    /// Applies an action already checked against [`Self::legal`].
    pub(crate) fn exec(&mut self, seat: Seat, action: &Action, ev: &mut Events) {
        if matches!(
            action,
            Action::Dismiss { .. } | Action::Flip { .. } | Action::Regroup { .. }
        ) {
            round::anytime(self, seat, action, ev);
            return;
        }
        let Some(task) = self.queue.pop_front() else {
            return;
        };
        (rules_of(&task).exec)(self, seat, task, action, ev);
    }
}

/// One decision's rules, in the module named for it: its automatic steps, the actions its
/// decisions list and how each of those applies.
pub(super) struct Rules {
    step: fn(&mut ShowBusiness, Task, &mut Events) -> Option<Task>,
    legal: fn(&ShowBusiness, Seat, &Task, &mut Vec<Action>),
    exec: fn(&mut ShowBusiness, Seat, Task, &Action, &mut Events),
}

/// The module whose rules run `task`.
fn rules_of(task: &Task) -> &'static Rules {
    match task {
        Task::Bid(_) | Task::Poll { .. } | Task::ChooseFirst { .. } | Task::SequenceBid => &bidding::RULES,
        Task::StartRound { .. }
        | Task::Review { .. }
        | Task::TimeLapse { .. }
        | Task::Activate { .. }
        | Task::ChooseAction { .. }
        | Task::AfterAction { .. }
        | Task::EndRound { .. }
        | Task::RoundTail
        | Task::NextRound => &round::RULES,
        Task::Influences { .. } | Task::DrawToHand { .. } | Task::HandDiscard { .. } => &hand::RULES,
        Task::Recruit { .. } => &recruitment::RULES,
        Task::Tournee { .. }
        | Task::PlaceToken { .. }
        | Task::Pilot { .. }
        | Task::DjRemove { .. }
        | Task::DjAdd { .. } => &tournee::RULES,
        Task::Record { .. } => &recording::RULES,
        Task::Defend { .. } | Task::SponsorSwap { .. } | Task::Groupie { .. } | Task::FemmeChoice { .. } => {
            &hostile::RULES
        }
        Task::RefillMarkets { .. } | Task::RefillConcerts | Task::MarketChange | Task::Draw { .. } => {
            &markets::RULES
        }
        Task::RondelStep
        | Task::TrendChange
        | Task::PopCheck { .. }
        | Task::ScandalsUpright
        | Task::Salary { .. }
        | Task::SatisfactionUp { .. }
        | Task::Integration { .. }
        | Task::Royalty { .. } => &rondel::RULES,
        Task::Pay { .. } | Task::Advertise { .. } => &payments::RULES,
        Task::QuarterEnd
        | Task::QePopularity
        | Task::QeSatisfaction
        | Task::Clearing { .. }
        | Task::DiscardField { .. } => &quarter_end::RULES,
        Task::Charts => &charts::RULES,
        Task::EndPenalty { .. } | Task::Finish => &end::RULES,
    }
}

/// For a module whose tasks are all automatic: it lists no action.
fn no_actions(_: &ShowBusiness, _: Seat, _: &Task, _: &mut Vec<Action>) {}

/// For a module whose tasks are all automatic: nothing to apply, the task stays queued.
fn keep_task(game: &mut ShowBusiness, _: Seat, task: Task, _: &Action, _: &mut Events) {
    game.queue.push_front(task);
}
