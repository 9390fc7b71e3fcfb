//! Clocks: a game's time control, the deadlines it sets, and the timeouts played for a seat
//! whose deadline has passed ([`Expire`], the change the sweep writes).
//!
//! A seat that comes to act starts a decision: its deadline is the decision's start plus
//! `per_decision_secs` plus the seat's remaining bank. When the seat acts, the time it took
//! beyond `per_decision_secs` is taken from its bank. When the deadline passes first, the bank
//! is spent and the ruleset's declared [`Timeout`] plays for the seat, announced by a
//! `clock_expired` event.
//!
//! The deadlines are part of the stored game, which is authoritative. The store also keeps an
//! index of games by their earliest deadline (`roadie:{clocks:NN}` in Redis, a shard per id's
//! first byte), written before the game: an index entry may be early (the sweep then reads the
//! game, finds nothing due and moves the entry on) but never missing. Each shard is swept by
//! the process holding its lease; a timeout is written with the same compare-and-set as a
//! post, so exactly one process applies it.

use std::borrow::Cow;

use roadie_engine::BotLevel;
use roadie_engine::{AnyGame, Event, Seat, Timeout};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;

use super::bots::{guarded, play_bots};
use super::refusal::{Code, Refusal};
use super::{Change, Log, Refused, StoredEvent, Table, Transition, whole_number};

/// The longest decision a clock allows: a day.
pub const MAX_DECISION_SECS: u64 = 86_400;

/// The largest bank a clock allows: a week.
pub const MAX_BANK_SECS: u64 = 7 * 86_400;

/// A game's time control, chosen at creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"per_decision_secs": 30, "bank_secs": 300}))]
pub struct TimeControl {
    /// Seconds each decision may take before the bank is drawn on: 1 to 86400.
    #[schema(minimum = 1, maximum = 86400)]
    #[serde(deserialize_with = "per_decision_secs")]
    pub per_decision_secs: u64,
    /// Seconds each seat may spend beyond its decisions' time over the whole game: 0 (the
    /// default) to 604800.
    #[serde(default, deserialize_with = "bank_secs")]
    #[schema(minimum = 0, maximum = 604800)]
    pub bank_secs: u64,
}

/// `per_decision_secs` as JSON Schema's `integer` allows it: `30` or `30.0`.
fn per_decision_secs<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    whole_number(d, "per_decision_secs", u64::MAX)
}

/// `bank_secs` as JSON Schema's `integer` allows it: `300` or `300.0`.
fn bank_secs<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    whole_number(d, "bank_secs", u64::MAX)
}

impl TimeControl {
    /// `422 invalid_clock` unless both values are within bounds.
    pub fn check(&self) -> Result<(), Refusal> {
        if !(1..=MAX_DECISION_SECS).contains(&self.per_decision_secs) {
            return Err(Refusal::new(
                Code::InvalidClock,
                format!(
                    "clock.per_decision_secs is 1 to {MAX_DECISION_SECS}; it was {}",
                    self.per_decision_secs
                ),
            ));
        }
        if self.bank_secs > MAX_BANK_SECS {
            return Err(Refusal::new(
                Code::InvalidClock,
                format!(
                    "clock.bank_secs is 0 to {MAX_BANK_SECS}; it was {}",
                    self.bank_secs
                ),
            ));
        }
        Ok(())
    }
}

/// One seat's clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatClock {
    /// When the seat's current decision started (Unix ms); `None` while it has none.
    pub since_ms: Option<u64>,
    /// What is left of its bank, in milliseconds.
    pub bank_ms: u64,
}

/// A game's clocks, stored with the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// The time control.
    pub control: TimeControl,
    /// Each seat's clock, in seat order.
    pub seats: Vec<SeatClock>,
}

impl Clock {
    /// The clocks of a new game of `seats` seats whose seats `to_act` start deciding at `now`.
    pub fn start(control: TimeControl, seats: usize, to_act: &[Seat], now: u64) -> Self {
        let bank_ms = control.bank_secs * 1000;
        Self {
            control,
            seats: Seat::all(seats)
                .map(|seat| SeatClock {
                    since_ms: to_act.contains(&seat).then_some(now),
                    bank_ms,
                })
                .collect(),
        }
    }

    fn per_decision_ms(&self) -> u64 {
        self.control.per_decision_secs * 1000
    }

    /// When `seat`'s current decision runs out (Unix ms): its start, plus the time per
    /// decision, plus the seat's bank.
    pub fn deadline(&self, seat: Seat) -> Option<u64> {
        let clock = self.seats.get(seat.index())?;
        clock.since_ms.map(|since| {
            since
                .saturating_add(self.per_decision_ms())
                .saturating_add(clock.bank_ms)
        })
    }

    /// The earliest deadline of any seat.
    pub fn earliest(&self) -> Option<u64> {
        Seat::all(self.seats.len())
            .filter_map(|seat| self.deadline(seat))
            .min()
    }

    /// The seats whose deadline is at or before `now`, in seat order.
    pub fn expired(&self, now: u64) -> Vec<Seat> {
        Seat::all(self.seats.len())
            .filter(|&seat| self.deadline(seat).is_some_and(|d| d <= now))
            .collect()
    }

    /// When a sweep that found this game not yet due looks at it again: at its earliest
    /// deadline, but no later than one decision's time from `now`, since a write racing with
    /// the sweep may have set a deadline that early.
    pub fn next_look(&self, now: u64) -> Option<u64> {
        self.earliest()
            .map(|deadline| deadline.min(now.saturating_add(self.per_decision_ms())))
    }

    /// The clocks after `actor` acted at `now` (`None`: nobody acted), when the seats `to_act`
    /// may act next. The actor's time beyond its decision's is taken from its bank; a seat that
    /// acted, or that now acts and did not, starts a new decision; a seat that no longer acts
    /// has none.
    pub fn after(&self, actor: Option<Seat>, to_act: &[Seat], now: u64) -> Self {
        let per_decision = self.per_decision_ms();
        let seats = Seat::all(self.seats.len())
            .zip(&self.seats)
            .map(|(seat, clock)| {
                let acted = actor == Some(seat);
                let mut bank_ms = clock.bank_ms;
                if acted && let Some(since) = clock.since_ms {
                    let overrun = now.saturating_sub(since.saturating_add(per_decision));
                    bank_ms = bank_ms.saturating_sub(overrun);
                }
                let since_ms = match (to_act.contains(&seat), clock.since_ms) {
                    (false, _) => None,
                    (true, Some(since)) if !acted => Some(since),
                    (true, _) => Some(now),
                };
                SeatClock { since_ms, bank_ms }
            })
            .collect();
        Self {
            control: self.control,
            seats,
        }
    }

    /// What the view shows.
    pub fn view(&self) -> ClockView {
        ClockView {
            per_decision_secs: self.control.per_decision_secs,
            bank_secs: self.control.bank_secs,
            seats: Seat::all(self.seats.len())
                .zip(&self.seats)
                .map(|(seat, clock)| SeatClockView {
                    seat,
                    deadline_ms: self.deadline(seat),
                    bank_ms: clock.bank_ms,
                })
                .collect(),
        }
    }
}

/// A game's clocks as the view shows them. Times are Unix milliseconds (UTC), by the server's
/// clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ClockView {
    /// Seconds each decision may take before the bank is drawn on.
    pub per_decision_secs: u64,
    /// Each seat's bank at the start of the game, in seconds.
    pub bank_secs: u64,
    /// Each seat's clock, in seat order.
    pub seats: Vec<SeatClockView>,
}

/// One seat's clock as the view shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatClockView {
    /// The seat.
    pub seat: Seat,
    /// When its current decision runs out, in Unix milliseconds; `null` while it has none to
    /// make. Past it, the ruleset's timeout plays for the seat (see the ruleset's machine,
    /// `on_timeout`).
    pub deadline_ms: Option<u64>,
    /// What is left of its bank, in milliseconds (as of the start of its current decision).
    pub bank_ms: u64,
}

/// The `type` of a [`ClockExpired`] event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClockExpiredType {
    /// The only value.
    ClockExpired,
}

/// A seat's deadline passed: what follows in the log is what its ruleset's timeout played for
/// it. Public; in every ruleset's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct ClockExpired {
    /// `clock_expired`.
    #[serde(rename = "type")]
    pub kind: ClockExpiredType,
    /// The seat that ran out of time.
    pub seat: Seat,
    /// The deadline that passed, in Unix milliseconds: one event per deadline.
    pub deadline_ms: u64,
    /// Who played for it: `bot` (the `level` named) or `action` (the ruleset's declared action).
    pub by: &'static str,
    /// The bot's level, when a bot played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<BotLevel>,
}

/// `seat`'s decision played at `now` by the timeout `declared`: the action and the events it
/// caused, announced by `clock_expired`. `None` if the seat has nothing to play.
fn play_for(game: &mut AnyGame, seat: Seat, deadline_ms: u64, declared: Timeout, now: u64) -> Option<Log> {
    let mut played = None;
    if let Timeout::Action { action } = declared
        && let Ok(events) = game.apply(seat, action)
    {
        let action = RawValue::from_string(action.to_owned()).ok()?;
        played = Some(("action", None, action, events));
    }
    if played.is_none() {
        let level = match declared {
            Timeout::Bot { level } => level,
            Timeout::Action { .. } => BotLevel::Random,
        };
        let action = game.bot_action(seat, level, &mut rand::rng())?;
        let events = game.apply(seat, action.get()).ok()?;
        played = Some(("bot", Some(level), action, events));
    }
    let (by, level, action, events) = played?;
    let announcement = ClockExpired {
        kind: ClockExpiredType::ClockExpired,
        seat,
        deadline_ms,
        by,
        level,
    };
    let body = serde_json::value::to_raw_value(&announcement).ok()?;
    let mut log = Log::default();
    log.note(StoredEvent::from(Event::<Box<RawValue>>::public(body)));
    log.play(seat, action, now, events);
    Some(log)
}

/// The game after every seat whose deadline passed by `now` had its timeout played, in seat
/// order, with the events; `None` when no deadline has passed.
pub fn apply_timeouts(stored: &Table, now: u64) -> Option<(Table, Log)> {
    let expired = stored.clock.as_ref()?.expired(now);
    if expired.is_empty() {
        return None;
    }
    let mut clock = stored.clock.clone()?;
    let mut game = stored.game.clone();
    let mut log = Log::default();
    let mut timed_out = Vec::new();
    for seat in expired {
        if game.is_over() || !game.to_act().contains(&seat) {
            continue;
        }
        let Some(deadline) = clock.deadline(seat).filter(|d| *d <= now) else {
            continue;
        };
        // A panic in the rules or the bot is a bug: the game stays as it was, and the sweep
        // logs it.
        let played = guarded(|| {
            let mut next = game.clone();
            let declared = next.ruleset().on_timeout;
            play_for(&mut next, seat, deadline, declared, now).map(|played| (next, played))
        })
        .ok()
        .flatten();
        let Some((next, played)) = played else {
            tracing::error!(game = %stored.id, seat = seat.index(), "the timeout of a seat could not be played");
            continue;
        };
        game = next;
        log.append(played);
        timed_out.push(seat);
        clock = clock.after(Some(seat), &game.to_act(), now);
    }
    if log.is_empty() {
        return None;
    }
    let bots_played = play_bots(&mut game, |seat| stored.seats.bot(seat), now);
    if !bots_played.is_empty() {
        log.append(bots_played);
        clock = clock.after(None, &game.to_act(), now);
    }
    let mut next = stored.succeeded_by(game, log.len() as u64, Some(clock), now);
    if let Some(rated) = &mut next.rated {
        // "A resignation or timeout ranks that seat last."
        for seat in timed_out {
            rated.forfeit(seat);
        }
    }
    Some((next, log))
}

/// `stored` as the deadline rule leaves it at `now`: with every timeout that came due played
/// first, and their events; as it is (borrowed, no events) when none has. A write judged against
/// it and built with `stored.succeeded_by` carries those timeouts in its own compare-and-set.
pub fn due_at(stored: &Table, now: u64) -> (Cow<'_, Table>, Log) {
    match apply_timeouts(stored, now) {
        Some((timed, log)) => (Cow::Owned(timed), log),
        None => (Cow::Borrowed(stored), Log::default()),
    }
}

/// The timeouts of the deadlines that passed by `now`, as a change: the sweep's write.
#[derive(Clone, Copy, Debug, Default)]
pub struct Expire;

impl Change for Expire {
    fn apply(&self, table: &Table, now: u64) -> Result<Option<Transition>, Refused> {
        if table.is_over() {
            return Ok(None);
        }
        Ok(apply_timeouts(table, now).map(|(next, log)| Transition::new(next, log)))
    }

    /// The sweep moves the entry on, to where the game must be looked at again.
    fn clock_entry(&self, next: &Table, now: u64) -> Option<(u64, bool)> {
        next.clock.as_ref()?.next_look(now).map(|at| (at, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(per_decision_secs: u64, bank_secs: u64) -> TimeControl {
        TimeControl {
            per_decision_secs,
            bank_secs,
        }
    }

    #[test]
    fn a_deadline_is_the_decision_start_plus_its_time_plus_the_bank() {
        let clock = Clock::start(control(30, 60), 3, &[Seat::new(1)], 1_000);
        assert_eq!(clock.deadline(Seat::new(0)), None);
        assert_eq!(clock.deadline(Seat::new(1)), Some(1_000 + 30_000 + 60_000));
        assert_eq!(clock.earliest(), Some(91_000));
        assert!(clock.expired(90_999).is_empty());
        assert_eq!(clock.expired(91_000), vec![Seat::new(1)]);
    }

    #[test]
    fn only_the_time_beyond_the_decision_is_taken_from_the_bank() {
        let clock = Clock::start(control(10, 60), 2, &[Seat::new(0)], 0);
        let quick = clock.after(Some(Seat::new(0)), &[Seat::new(1)], 4_000);
        assert_eq!(quick.seats[0].bank_ms, 60_000);
        let slow = clock.after(Some(Seat::new(0)), &[Seat::new(1)], 25_000);
        assert_eq!(slow.seats[0].bank_ms, 45_000);
        assert_eq!(slow.seats[0].since_ms, None);
        assert_eq!(slow.deadline(Seat::new(1)), Some(25_000 + 10_000 + 60_000));
        let timed_out = clock.after(Some(Seat::new(0)), &[Seat::new(1)], 70_000);
        assert_eq!(timed_out.seats[0].bank_ms, 0);
        assert_eq!(
            timed_out
                .after(Some(Seat::new(1)), &[Seat::new(0)], 80_000)
                .deadline(Seat::new(0)),
            Some(90_000)
        );
    }

    #[test]
    fn a_seat_that_acts_again_starts_a_new_decision_and_others_keep_theirs() {
        let clock = Clock::start(control(5, 0), 3, &[Seat::new(0), Seat::new(1)], 0);
        let next = clock.after(Some(Seat::new(0)), &[Seat::new(0), Seat::new(1)], 3_000);
        assert_eq!(next.deadline(Seat::new(0)), Some(8_000));
        assert_eq!(next.deadline(Seat::new(1)), Some(5_000));
        let over = next.after(Some(Seat::new(1)), &[], 4_000);
        assert_eq!(over.earliest(), None);
    }

    #[test]
    fn a_sweep_looks_again_no_later_than_one_decision_from_now() {
        let clock = Clock::start(control(2, 600), 2, &[Seat::new(0)], 0);
        assert_eq!(clock.next_look(1_000), Some(3_000));
        let short = Clock::start(control(2, 0), 2, &[Seat::new(0)], 0);
        assert_eq!(short.next_look(1_000), Some(2_000));
    }

    #[test]
    fn a_clock_out_of_bounds_is_refused() {
        assert!(control(0, 0).check().is_err());
        assert!(control(MAX_DECISION_SECS + 1, 0).check().is_err());
        assert!(control(1, MAX_BANK_SECS + 1).check().is_err());
        assert!(control(MAX_DECISION_SECS, MAX_BANK_SECS).check().is_ok());
    }

    #[test]
    fn a_clock_is_read_from_integers_written_as_whole_floats() {
        let read = |text: &str| serde_json::from_str::<TimeControl>(text);
        assert_eq!(
            read(r#"{"per_decision_secs": 281.0, "bank_secs": 45896.0}"#).expect("whole floats"),
            control(281, 45896)
        );
        assert_eq!(
            read(r#"{"per_decision_secs": 30}"#).expect("no bank"),
            control(30, 0)
        );
        for bad in [
            r#"{"per_decision_secs": 1.5}"#,
            r#"{"per_decision_secs": "30"}"#,
            r#"{"bank_secs": 3}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }

    fn clocked_game(now: u64) -> Table {
        let (game, _) = AnyGame::setup("rock-the-world", None, 2, 7).expect("setup");
        let to_act = game.to_act();
        Table {
            id: "g".into(),
            revision: crate::table::Revision::first(),
            events: 0,
            seed: 7,
            salt: String::new(),
            clock: Some(Clock::start(control(1, 0), 2, &to_act, now)),
            game,
            seats: Default::default(),
            webhook: None,
            app: None,
            options: None,
            rules_version: 1,
            forked_from: None,
            aborted: false,
            rated: None,
            notices: Vec::new(),
        }
    }

    fn announcement(events: &[StoredEvent]) -> serde_json::Value {
        serde_json::from_str(events[0].body.get()).expect("json")
    }

    #[test]
    fn a_declared_action_is_played_when_legal_and_a_random_bot_otherwise() {
        let stored = clocked_game(0);
        let seat = stored.game.to_act()[0];
        let mut game = stored.game.clone();
        let roll = Timeout::Action {
            action: r#"{"type":"roll"}"#,
        };
        let log = play_for(&mut game, seat, 5, roll, 9).expect("played");
        assert_eq!(announcement(&log.events)["by"], "action");
        assert_eq!(log.actions.len(), 1, "the action is logged");
        assert_eq!(
            (
                log.actions[0].seat,
                log.actions[0].action.get(),
                log.actions[0].at,
                log.actions[0].first
            ),
            (seat, r#"{"type":"roll"}"#, 9, 1),
            "after its announcement"
        );
        let mut rolled = stored.game.clone();
        rolled
            .apply(seat, r#"{"type":"roll"}"#)
            .expect("roll is legal first");
        assert_eq!(game.to_act(), rolled.to_act());
        assert_eq!(game.phase(), rolled.phase());

        let mut game = stored.game.clone();
        let illegal = Timeout::Action {
            action: r#"{"type":"end_turn"}"#,
        };
        let log = play_for(&mut game, seat, 5, illegal, 9).expect("played");
        let first = announcement(&log.events);
        assert_eq!(
            (first["by"].as_str(), first["level"].as_str()),
            (Some("bot"), Some("random"))
        );
        assert_ne!(game, stored.game);
    }

    #[test]
    fn nothing_is_played_before_a_deadline() {
        let stored = clocked_game(0);
        assert!(apply_timeouts(&stored, 999).is_none());
    }

    #[test]
    fn a_passed_deadline_is_announced_then_played_once() {
        let stored = clocked_game(0);
        let seat = stored.game.to_act()[0];
        let (next, log) = apply_timeouts(&stored, 1_000).expect("due");
        let events = &log.events;
        let first: serde_json::Value = serde_json::from_str(events[0].body.get()).expect("json");
        assert_eq!(first["type"], "clock_expired");
        assert_eq!(first["seat"], seat.index());
        assert_eq!(first["deadline_ms"], 1_000);
        assert_eq!(first["by"], "bot");
        assert!(events.len() >= 2, "the bot's action follows: {events:?}");
        assert_eq!(next.revision.number, 2);
        assert_eq!(next.events, events.len() as u64);
        assert!(next.game != stored.game);
        let clock = next.clock.as_ref().expect("clock");
        assert!(clock.earliest().is_none_or(|d| d > 1_000));
        assert!(apply_timeouts(&next, 1_000).is_none());
    }
}
