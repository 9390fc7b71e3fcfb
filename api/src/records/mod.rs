//! A finished game's record (`roadie.record/1`): everything needed to play it again with a copy
//! of the rules, and check it. It holds the setup (ruleset, rules version, options, seats, the
//! seed with its salt and commitment), every step in order (an action a seat played, or an
//! event the service wrote of its own: a seat change, a timeout's announcement, an abort), the
//! outcome, and a digest of the whole event log; the server signs it.
//!
//! [`build`] writes a record from what the store holds; [`verify`] plays one again.

pub mod canonical;
pub mod signing;
mod verify;

use roadie_engine::{AnyGame, Audience, Outcome, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::table::seats::SeatInfo;
use crate::table::{Code, ForkedFrom, LoggedAction, Refusal, StoredEvent, Table, seed_commitment};
pub use signing::{KnownKeys, RecordKeys};
pub use verify::{Frame, FrameEvent, Verdict, prefix, replay, verify};

/// The format every record names.
pub const FORMAT: &str = "roadie.record/1";

/// A finished game, whole: `GET /v1/games/{id}/record`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always `roadie.record/1`.
    pub format: String,
    /// The game's id.
    pub game: String,
    /// The ruleset's slug.
    pub ruleset: String,
    /// The version of the ruleset's rules the game was played under (`GET /v1/rulesets/{ruleset}`
    /// gives the version served).
    pub rules_version: u32,
    /// The app that owned the game, where apps are configured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app: Option<String>,
    /// The options the game was set up with; `null` (or absent) for the ruleset's defaults.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub options: Option<Value>,
    /// Who sat in each seat when the game ended; their number is the game's seat count.
    pub seats: Vec<SeatInfo>,
    /// The seed the game was set up with.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub seed: u64,
    /// The salt of the seed's commitment (hex).
    pub seed_salt: String,
    /// Hex of SHA-256 of `<seed_salt>:<seed>`, as the game published it at creation.
    pub seed_commitment: String,
    /// Every step after the setup, in order.
    pub steps: Vec<Step>,
    /// The game or record it was forked from: its steps then start with the actions it was
    /// forked after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<ForkedFrom>,
    /// Whether the game was aborted (it then has no outcome).
    pub aborted: bool,
    /// A rated game's ratings: each seat's rating before and after (as its `ratings_changed`
    /// event says).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<Vec<crate::table::rating::RatingChange>>,
    /// The scores and winners; `null` for an aborted game.
    pub outcome: Option<Outcome>,
    /// The game's whole event log, as a count and a digest.
    pub events: EventDigest,
    /// The server's signature: a JWS with a detached payload, the canonical JSON of the record
    /// without this member (see `GET /.well-known/jwks.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

/// One step of a game: an action a seat played (`seat`, `action`, `at`), or an event the
/// service wrote of its own (`event`, `audience`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The seat that played the action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The action, as the seat posted it (or its bot or timeout played it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object)]
    pub action: Option<Value>,
    /// When the action was played (Unix ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<u64>,
    /// The service's own event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object)]
    pub event: Option<Value>,
    /// Who could see the service's event while the game ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Audience>,
}

/// A game's event log, summed up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EventDigest {
    /// How many events the log holds.
    pub count: u64,
    /// `sha256:` and the hex of SHA-256 over the log: for each event in order, the canonical
    /// JSON of `{"audience": ..., "body": ...}` and a newline.
    pub digest: String,
}

/// The digest of an event log (see [`EventDigest::digest`]).
pub fn digest<'a>(events: impl IntoIterator<Item = (&'a Audience, Value)>) -> EventDigest {
    let mut hasher = Sha256::new();
    let mut count = 0;
    let mut line = Vec::with_capacity(256);
    for (audience, body) in events {
        // The canonical text of `{"audience": ..., "body": ...}`: its two keys are in order.
        line.clear();
        line.extend_from_slice(b"{\"audience\":");
        canonical::write_canonical(&serde_json::to_value(audience).unwrap_or(Value::Null), &mut line);
        line.extend_from_slice(b",\"body\":");
        canonical::write_canonical(&body, &mut line);
        line.extend_from_slice(b"}\n");
        hasher.update(&line);
        count += 1;
    }
    EventDigest {
        count,
        digest: format!("sha256:{}", hex::encode(hasher.finalize())),
    }
}

fn body_of(event: &StoredEvent) -> Value {
    serde_json::from_str(event.body.get()).unwrap_or(Value::Null)
}

/// The record of `table`, a finished game, from its whole event log and log of actions. `409
/// game_not_finished` while it runs.
pub fn build(table: &Table, events: &[StoredEvent], actions: &[LoggedAction]) -> Result<Record, Refusal> {
    if !table.is_over() {
        return Err(Refusal::new(
            Code::GameNotFinished,
            "the game is still being played: its record is written when it ends",
        ));
    }
    let ruleset = table.game.ruleset();
    let seats = table.game.seat_count();
    let options: Option<Value> = table
        .options
        .as_deref()
        .map(serde_json::from_str)
        .transpose()
        .map_err(|_| Refusal::internal())?;
    let (_, setup) = AnyGame::setup(ruleset.slug, options.as_ref(), seats, table.seed).map_err(|e| {
        tracing::error!(game = %table.id, error = %e, "a stored game's setup does not replay");
        Refusal::internal()
    })?;
    let mut steps = Vec::with_capacity(actions.len());
    let mut next = setup.len();
    let note = |event: &StoredEvent| Step {
        seat: None,
        action: None,
        at: None,
        event: Some(body_of(event)),
        audience: Some(event.audience.clone()),
    };
    for logged in actions {
        let start = usize::try_from(logged.seq.saturating_sub(1)).unwrap_or(usize::MAX);
        if start < next || start > events.len() {
            tracing::error!(game = %table.id, seq = logged.seq, "the log of actions does not fit the event log");
            return Err(Refusal::internal());
        }
        steps.extend(events[next..start].iter().map(note));
        steps.push(Step {
            seat: Some(logged.seat),
            action: Some(serde_json::from_str(logged.action.get()).map_err(|_| Refusal::internal())?),
            at: Some(logged.at),
            event: None,
            audience: None,
        });
        next = start.saturating_add(usize::try_from(logged.events).unwrap_or(usize::MAX));
    }
    steps.extend(events.get(next..).unwrap_or_default().iter().map(note));
    Ok(Record {
        format: FORMAT.to_owned(),
        game: table.id.clone(),
        ruleset: ruleset.slug.to_owned(),
        rules_version: table.rules_version,
        app: table.app.clone(),
        options,
        seats: table.seats.describe(seats),
        seed: table.seed,
        seed_salt: table.salt.clone(),
        seed_commitment: seed_commitment(table.seed, &table.salt),
        steps,
        forked_from: table.forked_from.clone(),
        aborted: table.aborted,
        ratings: table.rated.as_ref().and_then(|rated| rated.changes.clone()),
        outcome: if table.aborted { None } else { table.game.outcome() },
        events: digest(events.iter().map(|e| (&e.audience, body_of(e)))),
        signature: None,
    })
}

/// `value` as a record. JSON Schema's integers include whole numbers written as floats (`3.0`),
/// so every such number is read as the integer it is first.
pub fn parse<T: serde::de::DeserializeOwned>(mut value: Value) -> Result<T, serde_json::Error> {
    whole_numbers(&mut value);
    if let Some(big) = beyond_int64(&value) {
        return Err(serde::de::Error::custom(format!(
            "{big} is beyond the largest integer a record holds (2^63 - 1)"
        )));
    }
    serde_json::from_value(value)
}

/// The first integer of `value` beyond JSON Schema's `int64`, the format of a record's integers.
fn beyond_int64(value: &Value) -> Option<u64> {
    match value {
        Value::Number(n) => n.as_u64().filter(|n| *n > i64::MAX as u64),
        Value::Array(items) => items.iter().find_map(beyond_int64),
        Value::Object(map) => map.values().find_map(beyond_int64),
        _ => None,
    }
}

/// `Err` naming the first place where `record` (JSON) has something other than an object where a
/// record has one: serde would read a struct from an array of its fields, which the document
/// does not allow.
pub fn objects_where_expected(record: &Value) -> Result<(), String> {
    fn object(value: Option<&Value>, nullable: bool, path: &str) -> Result<(), String> {
        match value {
            None => Ok(()),
            Some(Value::Null) if nullable => Ok(()),
            Some(Value::Object(_)) => Ok(()),
            Some(_) => Err(format!(
                "`{path}` is an object{}",
                if nullable { " or null" } else { "" }
            )),
        }
    }
    fn objects(
        value: Option<&Value>,
        path: &str,
        each: impl Fn(&Value, &str) -> Result<(), String>,
    ) -> Result<(), String> {
        match value {
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .try_for_each(|(i, item)| each(item, &format!("{path}[{i}]"))),
            _ => Ok(()),
        }
    }
    object(Some(record), false, "record")?;
    object(record.get("events"), false, "events")?;
    object(record.get("forked_from"), true, "forked_from")?;
    object(record.get("outcome"), true, "outcome")?;
    objects(record.get("seats"), "seats", |seat, path| {
        object(Some(seat), false, path)
    })?;
    objects(record.get("steps"), "steps", |step, path| {
        object(Some(step), false, path)?;
        object(step.get("audience"), false, &format!("{path}.audience"))
    })?;
    if let Some(outcome) = record.get("outcome") {
        objects(outcome.get("scores"), "outcome.scores", |score, path| {
            object(Some(score), false, path)?;
            for list in ["lines", "tiebreaks"] {
                objects(score.get(list), &format!("{path}.{list}"), |line, path| {
                    object(Some(line), false, path)
                })?;
            }
            Ok(())
        })?;
    }
    Ok(())
}

impl Record {
    /// What of the record's shape the document says and serde does not check: objects where
    /// the document has objects, a seed JSON readers keep exactly.
    pub fn shape_error(&self) -> Option<String> {
        if self
            .options
            .as_ref()
            .is_some_and(|o| !o.is_object() && !o.is_null())
        {
            return Some("`options` is an object or null".into());
        }
        if self.seed > crate::table::MAX_SAFE_INTEGER {
            return Some("`seed` is at most 2^53 - 1".into());
        }
        if self.rules_version > i32::MAX as u32 {
            return Some("`rules_version` is at most 2^31 - 1".into());
        }
        let counts = self
            .ratings
            .iter()
            .flatten()
            .flat_map(|change| [change.before.games, change.after.games]);
        if counts.into_iter().any(|games| games > i32::MAX as u32) {
            return Some("a rating's `games` is at most 2^31 - 1".into());
        }
        self.steps.iter().enumerate().find_map(|(i, step)| {
            let object = |v: &Option<Value>| v.as_ref().is_none_or(Value::is_object);
            (!object(&step.action) || !object(&step.event))
                .then(|| format!("step {i}: `action` and `event` are objects"))
        })
    }
}

/// Each whole number of `value` written as a float, made an integer.
fn whole_numbers(value: &mut Value) {
    match value {
        Value::Number(n) if n.is_f64() => {
            // Beyond 2^53 a float no longer holds every whole number: such a one stays a float,
            // which no integer of a record reads.
            let exact = crate::table::MAX_SAFE_INTEGER as f64;
            if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() <= exact) {
                if f >= 0.0 {
                    *value = Value::from(f as u64);
                } else {
                    *value = Value::from(f as i64);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers),
        Value::Object(map) => map.values_mut().for_each(whole_numbers),
        _ => {}
    }
}

/// The text a record's signature is over: the canonical JSON of the record without its
/// `signature`.
pub fn signed_text(record: &Record) -> Result<String, Refusal> {
    let mut value = serde_json::to_value(record).map_err(|_| Refusal::internal())?;
    if let Value::Object(map) = &mut value {
        map.remove("signature");
    }
    Ok(canonical::canonical(&value))
}

/// `record`, signed with `keys`.
pub fn sign(mut record: Record, keys: &RecordKeys) -> Result<Record, Refusal> {
    record.signature = None;
    let text = signed_text(&record)?;
    record.signature = Some(keys.sign(text.as_bytes()));
    Ok(record)
}

#[cfg(test)]
mod tests;
