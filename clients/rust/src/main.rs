//! Deserializes a recorded game with the models openapi-generator's `rust` generator made from
//! openapi/openapi.json, unmodified, and checks that each serializes back to exactly what the
//! server sent.
//!
//! Usage: `roadie-client-check RECORDING.json`, where the recording (written by
//! `api/tests/e2e/clients.rs`) is `{"created": [...], "legal_actions": [...], "games": [...],
//! "results": [...], "event_logs": [...]}`: bodies of `POST /v1/games`,
//! `GET /v1/games/{id}/actions`, `GET /v1/games/{id}`, `POST /v1/games/{id}/actions` and
//! `GET /v1/games/{id}/events`. A kind with no body fails the check: there was nothing to read.

#[allow(clippy::all, unused_imports, dead_code)]
mod models;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// Null and absent mean the same on the wire; the generated structs may write either.
fn without_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_nulls).collect()),
        other => other,
    }
}

/// How many of `bodies` failed to deserialize as `T` or to write back what was sent.
fn check<T: DeserializeOwned + Serialize>(what: &str, bodies: &[Value]) -> usize {
    let mut failures = 0;
    for body in bodies {
        // From text, so that an error names its column.
        let text = body.to_string();
        let parsed: T = match serde_json::from_str(&text) {
            Ok(parsed) => parsed,
            Err(e) => {
                failures += 1;
                if failures <= 3 {
                    let column = e.column().saturating_sub(1);
                    let at = text.get(column.saturating_sub(200)..column).unwrap_or_default();
                    eprintln!("{what}: does not deserialize ({e}), after ...{at}");
                }
                continue;
            }
        };
        let written = serde_json::to_value(&parsed).unwrap_or(Value::Null);
        if without_nulls(written.clone()) != without_nulls(body.clone()) {
            failures += 1;
            if failures <= 3 {
                eprintln!("{what}: writes back\n  {written}\nnot what was sent\n  {body}");
            }
        }
    }
    println!("{what}: {} bodies, {failures} failed", bodies.len());
    if bodies.is_empty() {
        eprintln!("{what}: none recorded");
        return 1;
    }
    failures
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: roadie-client-check RECORDING.json");
    let text = std::fs::read_to_string(&path).expect("read the recording");
    let recording: Value = serde_json::from_str(&text).expect("the recording is JSON");
    let list = |key: &str| recording[key].as_array().cloned().unwrap_or_default();
    let failures = check::<models::CreatedGame>("created games", &list("created"))
        + check::<models::LegalActions>("legal actions", &list("legal_actions"))
        + check::<models::GameState>("games", &list("games"))
        + check::<models::ActionResult>("post results", &list("results"))
        + check::<models::EventLog>("event logs", &list("event_logs"));
    if failures > 0 {
        std::process::exit(1);
    }
}
