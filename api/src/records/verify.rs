//! Playing a record again: the checks of `roadie verify` and `POST /v1/records/verify`.

use roadie_engine::{AnyGame, Audience, Ruleset, Seat, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{FORMAT, KnownKeys, Record, digest, signed_text};
use crate::table::bots::guarded;
use crate::table::seed_commitment;

/// What playing a record again found: `ok`, or the first check that failed and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Verdict {
    /// Whether every check held.
    pub ok: bool,
    /// The first check that failed: `format`, `rules_version`, `commitment`, `setup`, `step`,
    /// `outcome`, `events`, `ratings` or `signature`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// For a failed `step`, its index in `steps` (from 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// Why it failed, for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// How many steps were played again.
    pub steps: usize,
    /// `valid` when the signature checked with a known key, `unchecked` when no key was known
    /// to check it with.
    pub signature: String,
}

impl Verdict {
    fn failed(check: &str, step: Option<usize>, reason: impl Into<String>, steps: usize) -> Self {
        Self {
            ok: false,
            failed: Some(check.to_owned()),
            step,
            reason: Some(reason.into()),
            steps,
            signature: "unchecked".into(),
        }
    }
}

/// An event of a replayed log: its audience and body.
type Logged = (Audience, Value);

fn logged(
    events: Vec<roadie_engine::Event<Box<serde_json::value::RawValue>>>,
) -> impl Iterator<Item = Logged> {
    events.into_iter().map(|e| {
        (
            e.audience,
            serde_json::from_str(e.body.get()).unwrap_or(Value::Null),
        )
    })
}

/// The game `record` sets up, and the setup's events.
fn set_up(record: &Record) -> Result<(AnyGame, Vec<Logged>), Box<Verdict>> {
    let setup = guarded(|| {
        AnyGame::setup(
            &record.ruleset,
            record.options.as_ref(),
            record.seats.len(),
            record.seed,
        )
    });
    match setup {
        Ok(Ok((game, events))) => Ok((game, logged(events).collect())),
        Ok(Err(e)) => Err(Box::new(Verdict::failed("setup", None, e.to_string(), 0))),
        Err(_) => Err(Box::new(Verdict::failed(
            "setup",
            None,
            "the rules could not set the game up",
            0,
        ))),
    }
}

/// Step `i` of a record, `seat` playing `action` on `game`: its events, or why the rules refuse
/// it (the game is then unchanged).
fn apply_step(
    game: &mut AnyGame,
    i: usize,
    seat: roadie_engine::Seat,
    action: &str,
) -> Result<Vec<roadie_engine::Event<Box<serde_json::value::RawValue>>>, Box<Verdict>> {
    match guarded(|| game.apply(seat, action)) {
        Ok(Ok(events)) => Ok(events),
        Ok(Err(rejection)) => Err(Box::new(Verdict::failed(
            "step",
            Some(i),
            format!("seat {seat}'s action is refused by the rules: {rejection}"),
            i,
        ))),
        Err(_) => Err(Box::new(Verdict::failed(
            "step",
            Some(i),
            "the rules failed on this action",
            i,
        ))),
    }
}

/// `Err` unless the record's seed and salt give its commitment.
fn check_commitment(record: &Record) -> Result<(), Box<Verdict>> {
    if seed_commitment(record.seed, &record.seed_salt) == record.seed_commitment {
        return Ok(());
    }
    Err(Box::new(Verdict::failed(
        "commitment",
        None,
        "SHA-256 of `<seed_salt>:<seed>` is not the seed commitment",
        0,
    )))
}

/// Plays steps `from..upto` of `record` on `game`, adding what they write to `log`.
fn play(
    record: &Record,
    game: &mut AnyGame,
    from: usize,
    upto: usize,
    log: &mut Vec<Logged>,
) -> Result<(), Box<Verdict>> {
    for (i, step) in record.steps.iter().enumerate().take(upto).skip(from) {
        match (step.seat, &step.action, &step.event, &step.audience) {
            (Some(seat), Some(action), None, None) => {
                log.extend(logged(apply_step(game, i, seat, &action.to_string())?));
            }
            (None, None, Some(event), Some(audience)) => log.push((audience.clone(), event.clone())),
            _ => {
                return Err(Box::new(Verdict::failed(
                    "step",
                    Some(i),
                    "a step is either an action (`seat`, `action`, `at`) or an event (`event`, `audience`)",
                    i,
                )));
            }
        }
    }
    Ok(())
}

/// The game after the first `actions` actions of `record` (its service events left out), and
/// what they wrote: the log a fork of it starts with. `None` in the verdict's place when the
/// record has fewer actions, or its game is over after them.
pub fn prefix(record: &Record, actions: usize) -> Result<(AnyGame, crate::table::Log), Box<Verdict>> {
    check_commitment(record)?;
    let (mut game, setup) = set_up(record)?;
    let mut log = crate::table::Log::default();
    for (audience, body) in setup {
        let body = serde_json::value::to_raw_value(&body)
            .map_err(|e| Box::new(Verdict::failed("setup", None, e.to_string(), 0)))?;
        log.note(crate::table::StoredEvent { audience, body });
    }
    let mut played = 0;
    for (i, step) in record.steps.iter().enumerate() {
        if played == actions {
            break;
        }
        let (Some(seat), Some(action)) = (step.seat, &step.action) else {
            continue;
        };
        let text = action.to_string();
        let raw = serde_json::value::RawValue::from_string(text.clone())
            .map_err(|e| Box::new(Verdict::failed("step", Some(i), e.to_string(), i)))?;
        let events = apply_step(&mut game, i, seat, &text)?;
        log.play(seat, raw, step.at.unwrap_or_default(), events);
        played += 1;
    }
    if played < actions {
        return Err(Box::new(Verdict::failed(
            "step",
            None,
            format!("the record has {played} actions, fewer than {actions}"),
            record.steps.len(),
        )));
    }
    if game.is_over() {
        return Err(Box::new(Verdict::failed(
            "outcome",
            None,
            format!("the game is over after {actions} actions: there is nothing left to play"),
            record.steps.len(),
        )));
    }
    Ok((game, log))
}

/// The game after the first `at` steps of `record`: every seat's view and the spectator's, and
/// the events the last of those steps wrote. Only the seed's commitment is checked first: a
/// record that is not the server's replays just as well, and shows nothing of any game but
/// itself.
pub fn replay(record: &Record, at: usize) -> Result<Frame, Box<Verdict>> {
    check_commitment(record)?;
    let at = at.min(record.steps.len());
    let (mut game, mut log) = set_up(record)?;
    play(record, &mut game, 0, at.saturating_sub(1), &mut log)?;
    let before = log.len();
    play(record, &mut game, at.saturating_sub(1), at, &mut log)?;
    let json = |raw: Box<serde_json::value::RawValue>| serde_json::from_str(raw.get()).unwrap_or(Value::Null);
    Ok(Frame {
        at,
        steps: record.steps.len(),
        phase: game.phase().to_owned(),
        to_act: game.to_act(),
        view: json(game.view(Viewer::Spectator)),
        seats: Seat::all(game.seat_count())
            .map(|seat| json(game.view(Viewer::Seat(seat))))
            .collect(),
        events: log
            .split_off(before)
            .into_iter()
            .map(|(audience, body)| FrameEvent { audience, body })
            .collect(),
        outcome: if at == record.steps.len() {
            record.outcome.clone()
        } else {
            None
        },
    })
}

/// A replayed game after some of its steps (`POST /v1/records/replay`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Frame {
    /// How many steps were played.
    pub at: usize,
    /// How many steps the record has.
    pub steps: usize,
    /// The phase reached.
    pub phase: String,
    /// The seats to act then.
    pub to_act: Vec<Seat>,
    /// What a spectator saw then.
    #[schema(value_type = Object)]
    pub view: Value,
    /// What each seat saw then, in seat order: every hand, as all is public once a game ends.
    #[schema(value_type = Vec<Object>)]
    pub seats: Vec<Value>,
    /// The events the last step played wrote (none at step 0, where the setup's are not
    /// repeated).
    pub events: Vec<FrameEvent>,
    /// The record's outcome, at its last step.
    pub outcome: Option<roadie_engine::Outcome>,
}

/// An event of a replayed step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FrameEvent {
    /// Who could see it while the game ran.
    pub audience: Audience,
    /// The event.
    #[schema(value_type = Object)]
    pub body: Value,
}

/// A rated game's `ratings` are what its last `ratings_changed` step announced, and a record
/// without that step has none.
fn check_ratings(record: &Record) -> Result<(), String> {
    let announced = record
        .steps
        .iter()
        .rev()
        .filter_map(|step| step.event.as_ref())
        .find(|event| event["type"] == "ratings_changed")
        .map(|event| &event["ratings"]);
    let kept = record
        .ratings
        .as_ref()
        .map(serde_json::to_value)
        .transpose()
        .map_err(|_| "the record's `ratings` cannot be read".to_owned())?;
    match (announced, kept) {
        (None, None) => Ok(()),
        (Some(announced), Some(kept)) if *announced == kept => Ok(()),
        (Some(_), Some(_)) => {
            Err("the record's `ratings` are not what its `ratings_changed` step announced".into())
        }
        (Some(_), None) => Err("a `ratings_changed` step announced ratings the record does not carry".into()),
        (None, Some(_)) => {
            Err("the record carries `ratings` that no `ratings_changed` step announced".into())
        }
    }
}

/// Plays `record` again with this server's rules and checks, in order: its format and rules
/// version, the seed against its commitment, every step's legality, the outcome, the event
/// log's digest, the ratings against the step that announced them, and, when `keys` holds any
/// key, the signature.
///
/// `served` is the version of the ruleset's rules the checker plays; `None` for the one this
/// build declares.
pub fn verify(record: &Record, keys: &KnownKeys, served: Option<u32>) -> Verdict {
    if record.format != FORMAT {
        return Verdict::failed(
            "format",
            None,
            format!("the format is {:?}, not {FORMAT:?}", record.format),
            0,
        );
    }
    let Some(ruleset) = Ruleset::find(&record.ruleset) else {
        return Verdict::failed(
            "format",
            None,
            format!("no ruleset is called {:?}", record.ruleset),
            0,
        );
    };
    let served = served.unwrap_or(ruleset.version);
    if served != record.rules_version {
        return Verdict::failed(
            "rules_version",
            None,
            format!(
                "the game was played under version {} of {}'s rules; this server plays version {}",
                record.rules_version, ruleset.slug, served
            ),
            0,
        );
    }
    if let Err(verdict) = check_commitment(record) {
        return *verdict;
    }
    let (mut game, mut log) = match set_up(record) {
        Ok(set) => set,
        Err(verdict) => return *verdict,
    };
    if let Err(verdict) = play(record, &mut game, 0, record.steps.len(), &mut log) {
        return *verdict;
    }
    let steps = record.steps.len();
    let outcome = if record.aborted { None } else { game.outcome() };
    if !record.aborted && outcome.is_none() {
        return Verdict::failed("outcome", None, "after every step the game is not over", steps);
    }
    if outcome != record.outcome {
        return Verdict::failed(
            "outcome",
            None,
            "the outcome the steps lead to is not the record's (scores, ranks or winners differ)",
            steps,
        );
    }
    let replayed = digest(log.iter().map(|(audience, body)| (audience, body.clone())));
    if replayed != record.events {
        return Verdict::failed(
            "events",
            None,
            format!(
                "the steps write {} events with digest {}; the record says {} with {}",
                replayed.count, replayed.digest, record.events.count, record.events.digest
            ),
            steps,
        );
    }
    if let Err(reason) = check_ratings(record) {
        return Verdict::failed("ratings", None, reason, steps);
    }
    let signature = if keys.is_empty() {
        "unchecked"
    } else {
        let Some(jws) = &record.signature else {
            return Verdict::failed("signature", None, "the record is not signed", steps);
        };
        let checked = signed_text(record)
            .map_err(|_| "the record cannot be written as canonical JSON".to_owned())
            .and_then(|text| keys.check(jws, text.as_bytes()));
        if let Err(reason) = checked {
            return Verdict::failed("signature", None, reason, steps);
        }
        "valid"
    };
    Verdict {
        ok: true,
        failed: None,
        step: None,
        reason: None,
        steps,
        signature: signature.into(),
    }
}
