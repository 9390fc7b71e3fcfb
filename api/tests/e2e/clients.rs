//! The clients generated from the committed document (`clients/generate`, run by
//! `scripts/test`, writes them to `target/clients/`) work unmodified against the real binary: the
//! Python client and programs using the `typescript-fetch` and `typescript-axios` clients (compiled
//! by `clients/generate` under `tsc --strict`) play a full game of every ruleset, and the Rust
//! client's models read every answer of played games back exactly.

use std::path::{Path, PathBuf};
use std::process::Command;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

use crate::support::{Created, Redis, Roadie, python, rulesets, scratch};

/// What `clients/generate` made for `client`; fails with what to run when it is missing.
fn generated(client: &str, path: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let generated = root.join("target/clients").join(client).join(path);
    assert!(
        generated.exists(),
        "{} is missing: run scripts/test (or clients/generate {client})",
        generated.display()
    );
    generated
}

#[test]
fn the_generated_python_client_plays_a_full_game_of_every_ruleset() {
    let package = generated("python", "roadie_client");
    let redis = Redis::start();
    let roadie = Roadie::start("python_client", Some(&redis), &[]);
    let output = Command::new(python())
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../clients/python/play.py"))
        .arg(&roadie.base)
        .arg(package.parent().expect("the package's folder"))
        .output()
        .expect("run play.py");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "play.py failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for (slug, _, _) in rulesets(&roadie) {
        assert!(
            stdout.contains(&format!("{slug}: ")),
            "{slug} was not played:\n{stdout}"
        );
    }
}

/// Runs `clients/typescript/<client>/play.ts` as compiled by `clients/generate`: it plays a full
/// game of every ruleset, posting each action exactly as the action list typed it.
fn typescript_plays_every_ruleset(client: &str) {
    let program = generated("typescript", &format!("dist/{client}/play.js"));
    let redis = Redis::start();
    let roadie = Roadie::start(&format!("typescript_{client}"), Some(&redis), &[]);
    let output = Command::new("node")
        .arg(&program)
        .arg(&roadie.base)
        .arg("7")
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{client}/play.js failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for (slug, _, _) in rulesets(&roadie) {
        assert!(
            stdout.contains(&format!("{slug}: ")),
            "{slug} was not played:\n{stdout}"
        );
    }
}

#[test]
fn a_typescript_fetch_program_plays_a_full_game_of_every_ruleset() {
    typescript_plays_every_ruleset("fetch");
}

#[test]
fn a_typescript_axios_program_plays_a_full_game_of_every_ruleset() {
    typescript_plays_every_ruleset("axios");
}

#[test]
fn the_generated_rust_models_read_every_answer_of_played_games() {
    let check = generated("rust", "target/debug/roadie-client-check");
    let redis = Redis::start();
    let roadie = Roadie::start("rust_client", Some(&redis), &[]);
    let mut recording =
        json!({"created": [], "legal_actions": [], "games": [], "results": [], "event_logs": []});
    let mut record = |key: &str, body: Value| {
        if let Some(list) = recording[key].as_array_mut() {
            list.push(body);
        }
    };
    let mut rng = StdRng::seed_from_u64(11);
    for (slug, min, _) in rulesets(&roadie) {
        let created = roadie.post(
            "/v1/games",
            None,
            &json!({"ruleset": slug, "seats": min, "seed": 5}),
        );
        assert_eq!(created.status, 201, "{}", created.body);
        let game = Created::from(&created.json);
        record("created", created.json);
        let path = format!("/v1/games/{}", game.id);
        loop {
            let state = roadie.get(&path, None);
            assert_eq!(state.status, 200, "{}", state.body);
            record("games", state.json.clone());
            let Some(to_act) = state.json["to_act"].as_array().filter(|s| !s.is_empty()) else {
                break;
            };
            let seat = to_act[rng.random_range(0..to_act.len())].as_u64().expect("seat") as usize;
            let seat_view = roadie.get(&path, Some(&game.tokens[seat]));
            record("games", seat_view.json);
            let listed = roadie.get(&format!("{path}/actions"), Some(&game.tokens[seat]));
            assert_eq!(listed.status, 200, "{}", listed.body);
            let actions = listed.json["actions"].as_array().cloned().unwrap_or_default();
            record("legal_actions", listed.json);
            let action = actions[rng.random_range(0..actions.len())].clone();
            let result = roadie.act(&game, seat, &action);
            assert_eq!(result.status, 200, "{}", result.body);
            record("results", result.json);
        }
        for seat in (0..min).map(Some).chain([None]) {
            let token = seat.map(|s| game.tokens[s].as_str());
            let log = roadie.get(&format!("{path}/events?after=0"), token);
            assert_eq!(log.status, 200, "{}", log.body);
            record("event_logs", log.json);
        }
    }
    let file = scratch("rust_client_recording").join("recording.json");
    std::fs::write(&file, recording.to_string()).expect("write the recording");
    let output = Command::new(&check).arg(&file).output().expect("run the checker");
    assert!(
        output.status.success(),
        "the generated Rust models do not read the game back:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
