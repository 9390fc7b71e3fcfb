//! Playing a record again: the checks of `roadie verify` and `POST /v1/records/verify`.

use roadie_engine::{AnyGame, Ruleset};
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
    /// `outcome`, `events` or `signature`.
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

/// Plays `record` again with this server's rules and checks, in order: its format and rules
/// version, the seed against its commitment, every step's legality, the outcome, the event
/// log's digest, and, when `keys` holds any key, the signature.
pub fn verify(record: &Record, keys: &KnownKeys) -> Verdict {
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
    if ruleset.version != record.rules_version {
        return Verdict::failed(
            "rules_version",
            None,
            format!(
                "the game was played under version {} of {}'s rules; this server plays version {}",
                record.rules_version, ruleset.slug, ruleset.version
            ),
            0,
        );
    }
    if seed_commitment(record.seed, &record.seed_salt) != record.seed_commitment {
        return Verdict::failed(
            "commitment",
            None,
            "SHA-256 of `<seed_salt>:<seed>` is not the seed commitment",
            0,
        );
    }
    let setup = guarded(|| {
        AnyGame::setup(
            ruleset.slug,
            record.options.as_ref(),
            record.seats.len(),
            record.seed,
        )
    });
    let (mut game, setup_events) = match setup {
        Ok(Ok(set)) => set,
        Ok(Err(e)) => return Verdict::failed("setup", None, e.to_string(), 0),
        Err(_) => return Verdict::failed("setup", None, "the rules could not set the game up", 0),
    };
    let mut log: Vec<(roadie_engine::Audience, Value)> = setup_events
        .into_iter()
        .map(|e| {
            (
                e.audience,
                serde_json::from_str(e.body.get()).unwrap_or(Value::Null),
            )
        })
        .collect();
    for (i, step) in record.steps.iter().enumerate() {
        match (step.seat, &step.action, &step.event, &step.audience) {
            (Some(seat), Some(action), None, None) => {
                let applied = guarded(|| game.apply(seat, &action.to_string()));
                match applied {
                    Ok(Ok(events)) => log.extend(events.into_iter().map(|e| {
                        (
                            e.audience,
                            serde_json::from_str(e.body.get()).unwrap_or(Value::Null),
                        )
                    })),
                    Ok(Err(rejection)) => {
                        return Verdict::failed(
                            "step",
                            Some(i),
                            format!("seat {seat}'s action is refused by the rules: {rejection}"),
                            i,
                        );
                    }
                    Err(_) => return Verdict::failed("step", Some(i), "the rules failed on this action", i),
                }
            }
            (None, None, Some(event), Some(audience)) => log.push((audience.clone(), event.clone())),
            _ => {
                return Verdict::failed(
                    "step",
                    Some(i),
                    "a step is either an action (`seat`, `action`, `at`) or an event (`event`, `audience`)",
                    i,
                );
            }
        }
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
