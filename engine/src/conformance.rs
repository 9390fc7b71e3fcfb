//! The conformance suite every registered game passes: seeded random games played to the end
//! by choosing only listed actions, with the contract checked after every step.
//!
//! After each step it checks that
//! - the game's own invariants hold, and `to_act`, `may_act`, `legal_actions` and `outcome` agree;
//! - every listed action is accepted on a clone;
//! - unlisted actions (other seats' actions, actions from other phases, listed actions with
//!   their numbers and strings altered) are refused, with the state unchanged;
//! - no view and no event a viewer may see contains a secret of another seat, or the RNG;
//! - the state survives a round trip through JSON;
//! - the phase is one of the phase machine's, every listed action's `type` is one its phase
//!   allows, and every change of phase is a declared transition (possibly through automatic
//!   phases, those that allow no action);
//! - every public field of the spectator's view that changed is announced by a public event of
//!   the step, as the game's [`crate::Announcements`] say ([`announcements`]);
//! - the step's public events, applied in order to the spectator's view before it as the game's
//!   [`crate::Replay`] says, give the view after it (events describe changes in the order they
//!   happened: a pile's count read from them is the view's);
//!
//! and at the end that a finished game is in an end phase of the machine and refuses everything,
//! that its outcome is well formed, and that replaying the same seed and actions gives the same
//! game.

use std::collections::{BTreeSet, HashSet};

use serde::Serialize;
use serde_json::Value;

use crate::rng::GameRng;
use crate::{Event, Game, Machine, RejectionCode, Seat, Viewer};

pub mod announcements;
#[cfg(test)]
mod bots;
#[cfg(test)]
mod template;

/// How one run of the suite plays.
#[derive(Clone, Debug)]
pub struct Config {
    /// How many games.
    pub games: usize,
    /// The first game's seed; game `i` uses `seed + i`.
    pub seed: u64,
    /// A game still running after this many actions fails the run.
    pub max_steps: usize,
    /// Check every listed action on a clone (slow for long lists) rather than a sample of 8.
    pub exhaustive: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            games: 100,
            seed: 1,
            max_steps: 20_000,
            exhaustive: true,
        }
    }
}

/// What a run played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Games played to the end.
    pub games: usize,
    /// Actions applied.
    pub actions: usize,
    /// Unlisted actions tried and refused.
    pub refusals: usize,
    /// Games per seat count, indexed by seats.
    pub by_seats: Vec<usize>,
}

/// Plays `config.games` random games, each with `seats_for(i)` seats and `options_for(i)`.
/// Returns what it played, or a message naming the game, the step and what failed.
pub fn run<G: Game>(
    config: &Config,
    seats_for: impl Fn(usize) -> usize,
    options_for: impl Fn(usize) -> G::Options,
) -> Result<Report, String> {
    let mut report = Report::default();
    for i in 0..config.games {
        let seats = seats_for(i);
        let seed = config.seed.wrapping_add(i as u64);
        let played = play_one::<G>(config, options_for(i), seats, seed)
            .map_err(|e| format!("{} game {i} ({seats} seats, seed {seed}): {e}", G::SLUG))?;
        report.games += 1;
        report.actions += played.actions;
        report.refusals += played.refusals;
        if report.by_seats.len() <= seats {
            report.by_seats.resize(seats + 1, 0);
        }
        report.by_seats[seats] += 1;
    }
    Ok(report)
}

/// What one game played.
pub struct Played {
    /// Actions applied.
    pub actions: usize,
    /// Unlisted actions tried and refused.
    pub refusals: usize,
}

/// Picks the index of the action to play from a seat's non-empty list of legal actions.
pub type Policy<'a, G> = dyn FnMut(&G, Seat, &[<G as Game>::Action], &mut GameRng) -> usize + 'a;

/// Plays one random game to the end, checking the contract after every step.
pub fn play_one<G: Game>(
    config: &Config,
    options: G::Options,
    seats: usize,
    seed: u64,
) -> Result<Played, String> {
    let mut uniform = |_: &G, _: Seat, list: &[G::Action], r: &mut GameRng| r.below(list.len());
    play_one_with(config, options, seats, seed, &mut uniform).map(|(played, _)| played)
}

/// Plays one game to the end with the actions `policy` picks (the acting seat is still drawn
/// at random), checking the contract after every step; returns the finished game too.
pub fn play_one_with<G: Game>(
    config: &Config,
    options: G::Options,
    seats: usize,
    seed: u64,
    policy: &mut Policy<'_, G>,
) -> Result<(Played, G), String> {
    let (mut game, setup_events) =
        G::setup(options.clone(), seats, seed).map_err(|e| format!("setup: {e}"))?;
    let machine = G::machine();
    if game.phase() != machine.initial {
        return Err(format!(
            "a new game is in phase {:?}, the machine starts in {:?}",
            game.phase(),
            machine.initial
        ));
    }
    let mut chooser = GameRng::new(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut history: Vec<(Seat, G::Action)> = Vec::new();
    let mut pool: Vec<(Seat, G::Action)> = Vec::new();
    let mut pool_keys: BTreeSet<String> = BTreeSet::new();
    let mut refusals = 0;
    check_events(&game, &setup_events).map_err(|e| format!("setup: {e}"))?;
    let mut seen = announcements::spectator_view(&game)?;

    while !game.is_over() {
        let step = history.len();
        let phase = game.phase();
        let at = |e: String| format!("step {step} (phase {phase}): {e}");
        if step >= config.max_steps {
            return Err(at(format!("still running after {} actions", config.max_steps)));
        }
        check_state(&game).map_err(at)?;

        let to_act = game.to_act();
        let declared = machine
            .phase(phase)
            .ok_or_else(|| at("the phase is not in the phase machine".into()))?;
        let mut lists = Vec::with_capacity(seats);
        for seat in Seat::all(seats) {
            let legal = game.legal_actions(seat);
            for action in &legal {
                let text = json(action);
                if let Some(kind) = type_tag(&text)
                    && !declared.actions.contains(&kind)
                {
                    return Err(at(format!(
                        "seat {seat} may post a {kind:?} action, which the phase does not declare"
                    )));
                }
                let key = format!("{seat}:{text}");
                if pool_keys.len() < 512 && pool_keys.insert(key) {
                    pool.push((seat, action.clone()));
                }
            }
            lists.push(legal);
        }

        check_listed_accepted(&game, &lists, config.exhaustive, &mut chooser).map_err(at)?;
        refusals += check_unlisted_refused(&game, &lists, &pool, &mut chooser).map_err(at)?;

        let seat = to_act[chooser.below(to_act.len())];
        let pick = policy(&game, seat, &lists[seat.index()], &mut chooser);
        let action = lists[seat.index()]
            .get(pick)
            .ok_or_else(|| {
                at(format!(
                    "the policy picked action {pick} of {}",
                    lists[seat.index()].len()
                ))
            })?
            .clone();
        let events = game.apply(seat, &action).map_err(|r| {
            at(format!(
                "seat {seat} listed {} but apply refused it: {r}",
                json(&action)
            ))
        })?;
        check_events(&game, &events).map_err(at)?;
        let view = announcements::spectator_view(&game).map_err(at)?;
        announcements::check_step::<G>(&seen, &view, &events)
            .map_err(|e| at(format!("after seat {seat}'s {}: {e}", json(&action))))?;
        announcements::check_replay::<G>(&seen, &view, &events)
            .map_err(|e| at(format!("after seat {seat}'s {}: {e}", json(&action))))?;
        seen = view;
        check_transition(&machine, phase, game.phase())
            .map_err(|e| at(format!("after {}: {e}", json(&action))))?;
        history.push((seat, action));
    }

    check_finished(&game).map_err(|e| format!("finished game: {e}"))?;
    check_replay::<G>(&game, options, seats, seed, &history)?;
    Ok((
        Played {
            actions: history.len(),
            refusals,
        },
        game,
    ))
}

/// The `type` tag of an action's JSON, which a tagged enum writes first.
fn type_tag(json: &str) -> Option<&str> {
    json.strip_prefix("{\"type\":\"")?.split('"').next()
}

/// A change of phase from `from` to `to` is a declared transition, or a path of them whose
/// intermediate phases are automatic (they allow no action and lead on).
pub fn check_transition(machine: &Machine, from: &str, to: &str) -> Result<(), String> {
    if from == to {
        return Ok(());
    }
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut frontier = vec![from];
    while let Some(name) = frontier.pop() {
        let Some(phase) = machine.phase(name) else {
            continue;
        };
        for t in &phase.transitions {
            if t.to == to {
                return Ok(());
            }
            let automatic = machine
                .phase(t.to)
                .is_some_and(|p| p.actions.is_empty() && !p.transitions.is_empty());
            if automatic && seen.insert(t.to) {
                frontier.push(t.to);
            }
        }
    }
    Err(format!(
        "the phase changed from {from:?} to {to:?}, which the phase machine does not declare"
    ))
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("<unserializable: {e}>"))
}

fn check_state<G: Game>(game: &G) -> Result<(), String> {
    game.check_invariants()
        .map_err(|e| format!("invariant broken: {e}"))?;
    if game.outcome().is_some() {
        return Err("outcome reported while the game runs".into());
    }
    let to_act = game.to_act();
    if to_act.is_empty() {
        return Err("nobody may act, yet the game is not over".into());
    }
    if to_act.windows(2).any(|w| w[0] >= w[1]) || to_act.iter().any(|s| s.index() >= game.seat_count()) {
        return Err(format!("to_act {to_act:?} is not ascending seats of this game"));
    }
    if G::machine().phase(game.phase()).is_none() {
        return Err(format!("phase {:?} is not in the phase machine", game.phase()));
    }
    for seat in Seat::all(game.seat_count()) {
        let listed = !game.legal_actions(seat).is_empty();
        if listed != to_act.contains(&seat) {
            return Err(format!("seat {seat}: in to_act {to_act:?} but listed={listed}"));
        }
        if game.may_act(seat) != to_act.contains(&seat) {
            return Err(format!(
                "seat {seat}: in to_act {to_act:?} but may_act says otherwise"
            ));
        }
    }
    let json = serde_json::to_string(game).map_err(|e| format!("state does not serialize: {e}"))?;
    let back: G = serde_json::from_str(&json).map_err(|e| format!("state does not deserialize: {e}"))?;
    if &back != game {
        return Err("state changed in a JSON round trip".into());
    }
    check_views(game)
}

fn viewers(seats: usize) -> impl Iterator<Item = Viewer> {
    Seat::all(seats)
        .map(Viewer::Seat)
        .chain(std::iter::once(Viewer::Spectator))
}

/// The first of `secrets` that is a string of `shown`'s JSON (object keys included), or the
/// RNG's field name: one pass over the text and one lookup per secret.
fn find_secret<T: Serialize>(shown: &T, secrets: &[String]) -> Option<String> {
    let text = json(shown);
    let strings: HashSet<&str> = json_strings(&text).collect();
    if strings.contains("rng") {
        return Some("rng".into());
    }
    secrets.iter().find(|s| strings.contains(s.as_str())).cloned()
}

/// The raw contents of the string tokens of a JSON text, in order.
fn json_strings(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        at += bytes.get(at..)?.iter().position(|&b| b == b'"')?;
        let start = at + 1;
        let mut end = start;
        while let Some(&b) = bytes.get(end) {
            match b {
                b'"' => break,
                b'\\' => end += 2,
                _ => end += 1,
            }
        }
        at = end + 1;
        text.get(start..end.min(bytes.len()))
    })
}

fn check_views<G: Game>(game: &G) -> Result<(), String> {
    for viewer in viewers(game.seat_count()) {
        let view = game.view(viewer);
        if let Some(secret) = find_secret(&view, &game.secrets(viewer)) {
            return Err(format!(
                "{viewer:?}'s view shows the secret {secret:?}: {}",
                json(&view)
            ));
        }
    }
    Ok(())
}

fn check_events<G: Game>(game: &G, events: &[Event<G::Event>]) -> Result<(), String> {
    let finished = game.is_over();
    for viewer in viewers(game.seat_count()) {
        let mut seen = events
            .iter()
            .filter(|e| e.audience.admits(viewer, finished))
            .peekable();
        if seen.peek().is_none() {
            continue;
        }
        let secrets = game.secrets(viewer);
        for event in seen {
            if let Some(secret) = find_secret(&event.body, &secrets) {
                return Err(format!(
                    "{viewer:?} may see an event with the secret {secret:?}: {}",
                    json(&event.body)
                ));
            }
        }
    }
    Ok(())
}

fn check_listed_accepted<G: Game>(
    game: &G,
    lists: &[Vec<G::Action>],
    exhaustive: bool,
    chooser: &mut GameRng,
) -> Result<(), String> {
    for (seat, list) in Seat::all(lists.len()).zip(lists) {
        let picks: Vec<&G::Action> = if exhaustive || list.len() <= 8 {
            list.iter().collect()
        } else {
            (0..8).map(|_| &list[chooser.below(list.len())]).collect()
        };
        for action in picks {
            let mut clone = game.clone();
            if let Err(r) = clone.apply(seat, action) {
                return Err(format!(
                    "seat {seat} listed {} but apply refused it: {r}",
                    json(action)
                ));
            }
            clone
                .check_invariants()
                .map_err(|e| format!("after {}: invariant broken: {e}", json(action)))?;
        }
    }
    Ok(())
}

fn check_unlisted_refused<G: Game>(
    game: &G,
    lists: &[Vec<G::Action>],
    pool: &[(Seat, G::Action)],
    chooser: &mut GameRng,
) -> Result<usize, String> {
    let mut tried = 0;
    let seats = game.seat_count();
    let mut candidates: Vec<(Seat, Value)> = Vec::new();
    for _ in 0..6 {
        if pool.is_empty() {
            break;
        }
        let (_, action) = &pool[chooser.below(pool.len())];
        let seat = Seat::new(chooser.below(seats));
        if let Ok(value) = serde_json::to_value(action) {
            candidates.push((seat, value));
        }
    }
    for (seat, list) in Seat::all(lists.len()).zip(lists) {
        if list.is_empty() {
            continue;
        }
        let base = serde_json::to_value(&list[chooser.below(list.len())]).unwrap_or(Value::Null);
        for _ in 0..3 {
            candidates.push((seat, mutate(&base, pool, chooser)));
        }
    }
    for (seat, value) in candidates {
        let Ok(action) = serde_json::from_value::<G::Action>(value) else {
            continue;
        };
        if lists[seat.index()].contains(&action) {
            continue;
        }
        let mut clone = game.clone();
        match clone.apply(seat, &action) {
            Ok(_) => {
                return Err(format!("seat {seat}: unlisted {} was accepted", json(&action)));
            }
            Err(r) => {
                if &clone != game {
                    return Err(format!("refusing {} ({r}) changed the state", json(&action)));
                }
                if r.reason.trim().is_empty() {
                    return Err(format!("refusing {} gave no reason", json(&action)));
                }
                if !game.to_act().contains(&seat) && r.code != RejectionCode::NotYourTurn {
                    return Err(format!("seat {seat} may not act, but the refusal was {r}"));
                }
                tried += 1;
            }
        }
    }
    Ok(tried)
}

/// A copy of `value` with one number or string changed: out of range, off by one, or swapped
/// for a string seen elsewhere.
fn mutate(value: &Value, pool: &[(Seat, impl Serialize)], chooser: &mut GameRng) -> Value {
    let mut out = value.clone();
    let mut leaves = Vec::new();
    collect_leaves(&out, &mut Vec::new(), &mut leaves);
    if leaves.is_empty() {
        return out;
    }
    let path = leaves.swap_remove(chooser.below(leaves.len()));
    let Some(leaf) = leaf_at(&mut out, &path) else {
        return out;
    };
    match leaf {
        Value::Number(n) => {
            let n = n.as_i64().unwrap_or(0);
            let choices = [n + 1, n - 1, n + 100, -1, 1_000_000, n * 2 + 1];
            *leaf = Value::from(choices[chooser.below(choices.len())]);
        }
        Value::String(_) => {
            let mut strings = Vec::new();
            if !pool.is_empty() {
                let (_, other) = &pool[chooser.below(pool.len())];
                if let Ok(other) = serde_json::to_value(other) {
                    collect_strings(&other, &mut strings);
                }
            }
            strings.push("no-such-thing".into());
            *leaf = Value::String(strings.swap_remove(chooser.below(strings.len())));
        }
        Value::Bool(b) => *b = !*b,
        _ => {}
    }
    out
}

#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn collect_leaves(value: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "type" {
                    continue;
                }
                path.push(Step::Key(k.clone()));
                collect_leaves(v, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(Step::Index(i));
                collect_leaves(v, path, out);
                path.pop();
            }
        }
        Value::Null => {}
        _ => out.push(path.clone()),
    }
}

fn leaf_at<'a>(value: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |v, step| match step {
        Step::Key(k) => v.get_mut(k.as_str()),
        Step::Index(i) => v.get_mut(*i),
    })
}

fn collect_strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        Value::Object(map) => map
            .iter()
            .filter(|(k, _)| k.as_str() != "type")
            .for_each(|(_, v)| collect_strings(v, out)),
        _ => {}
    }
}

/// The one name of the phase a game ends in, in every ruleset, so a client can tell a finished
/// game by its phase alone.
pub const END_PHASE: &str = "over";

fn check_finished<G: Game>(game: &G) -> Result<(), String> {
    game.check_invariants()
        .map_err(|e| format!("invariant broken: {e}"))?;
    if !game.to_act().is_empty() {
        return Err(format!("game over but to_act is {:?}", game.to_act()));
    }
    if !G::machine()
        .phase(game.phase())
        .is_some_and(|p| p.transitions.is_empty())
    {
        return Err(format!(
            "the game is over in phase {:?}, which is no end phase of the machine",
            game.phase()
        ));
    }
    if game.phase() != END_PHASE {
        return Err(format!(
            "the game is over in phase {:?}: every ruleset names its end {END_PHASE:?}",
            game.phase()
        ));
    }
    let outcome = game.outcome().ok_or("is_over without an outcome")?;
    if outcome.scores.len() != game.seat_count() {
        return Err("outcome does not score every seat".into());
    }
    if outcome.winners.is_empty() {
        return Err("outcome has no winner".into());
    }
    for (i, score) in Seat::all(outcome.scores.len()).zip(&outcome.scores) {
        if score.seat != i {
            return Err("outcome scores are not in seat order".into());
        }
        let sum: i64 = score.lines.iter().map(|l| l.points).sum();
        if sum != score.total {
            return Err(format!(
                "seat {i}: lines add up to {sum}, total says {}",
                score.total
            ));
        }
        if (score.rank == 1) != outcome.winners.contains(&i) {
            return Err(format!(
                "seat {i}: rank {} disagrees with the winners",
                score.rank
            ));
        }
    }
    for seat in Seat::all(game.seat_count()) {
        if !game.legal_actions(seat).is_empty() || game.may_act(seat) {
            return Err(format!("seat {seat} may act or has legal actions after the end"));
        }
    }
    check_views(game)
}

fn check_replay<G: Game>(
    game: &G,
    options: G::Options,
    seats: usize,
    seed: u64,
    history: &[(Seat, G::Action)],
) -> Result<(), String> {
    let (mut replay, _) = G::setup(options, seats, seed).map_err(|e| format!("replay setup: {e}"))?;
    for (step, (seat, action)) in history.iter().enumerate() {
        replay
            .apply(*seat, action)
            .map_err(|r| format!("replay step {step}: {} refused: {r}", json(action)))?;
    }
    if &replay != game {
        return Err("replaying the same seed and actions gave a different game".into());
    }
    if let Some((seat, action)) = history.last() {
        match replay.apply(*seat, action) {
            Ok(_) => return Err("a finished game accepted an action".into()),
            Err(r) if r.code != RejectionCode::GameOver => {
                return Err(format!(
                    "a finished game refused an action with {r}, not game_over"
                ));
            }
            Err(_) if &replay != game => return Err("a refused action changed a finished game".into()),
            Err(_) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::find_secret;

    #[test]
    fn a_secret_is_found_as_any_string_or_key_and_nowhere_else() {
        let secrets = ["C7".to_owned()];
        let shown = json!({"hand": [{"card": "C1"}, {"card": "C7"}]});
        assert_eq!(find_secret(&shown, &secrets), Some("C7".into()));
        let keyed: BTreeMap<&str, u8> = [("C7", 1)].into();
        assert_eq!(find_secret(&keyed, &secrets), Some("C7".into()));
        assert_eq!(find_secret(&json!({"rng": 3}), &secrets), Some("rng".into()));
        assert_eq!(find_secret(&json!({"note": "C77", "n": 7}), &secrets), None);
        assert_eq!(
            find_secret(&json!({"quote": "say \"C7\"", "n": 7}), &secrets),
            None
        );
    }
}
