//! Game records through the real binary on a real Redis: a finished game's record is signed,
//! plays again to the same outcome (over HTTP and with `roadie verify`), refuses tampering at
//! the step it breaks, and keeps its signature across a restart and a key rotation.

use std::process::Command;

use serde_json::{Value, json};

use crate::support::{Created, Redis, Roadie, roadie_binary, rulesets, scratch};

/// A new record-signing key, as `roadie records new-key` prints it, in `dir/name`.
fn new_key(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let out = Command::new(roadie_binary())
        .args(["records", "new-key"])
        .output()
        .expect("roadie records new-key");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pem = String::from_utf8(out.stdout).expect("text");
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----"), "{pem}");
    let path = dir.join(name);
    std::fs::write(&path, pem).expect("write key");
    path
}

/// Seat 0 a person, the others bots; the person plays the first listed action (resigning half
/// way in `resign` games, so that its bot finishes) until the game is over.
fn play_to_the_end(roadie: &Roadie, slug: &str, seats: usize, resign: bool) -> Created {
    let mut specs = vec![json!({"name": "Ann"})];
    specs.extend((1..seats).map(|i| json!({"bot": if i % 2 == 1 { "random" } else { "greedy" }})));
    let reply = roadie.post("/v1/games", None, &json!({"ruleset": slug, "seats": specs}));
    assert_eq!(reply.status, 201, "{}", reply.body);
    let game = Created::from(&reply.json);
    let early = roadie.get(&format!("/v1/games/{}/record", game.id), None);
    early.assert_problem(409, "game_not_finished");
    for posted in 0.. {
        let state = roadie.game(&game, Some(0));
        assert_eq!(state.status, 200, "{}", state.body);
        if state.json["status"] == "finished" {
            break;
        }
        if resign && posted == 4 {
            let reply = roadie.post(
                &format!("/v1/games/{}/seats/0/resign", game.id),
                Some(&game.tokens[0]),
                &json!({}),
            );
            assert!(reply.status < 300, "{}", reply.body);
            let ended = roadie.get(&format!("/v1/games/{}", game.id), None);
            assert_eq!(
                ended.json["status"], "finished",
                "the bot plays the seat to the end"
            );
            break;
        }
        let actions = roadie.actions(&game, 0);
        let reply = roadie.act(&game, 0, &actions[0]);
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert!(posted < 5_000, "{slug}: the game does not end");
    }
    game
}

fn verify(roadie: &Roadie, record: &Value) -> Value {
    let reply = roadie.post("/v1/records/verify", None, record);
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.json
}

#[test]
fn a_finished_games_record_is_signed_and_plays_again_to_its_outcome_in_every_ruleset() {
    let redis = Redis::start();
    let keys = scratch("records_keys");
    let key = new_key(&keys, "record-key.pem");
    let roadie = Roadie::start(
        "records",
        Some(&redis),
        &[("ROADIE_RECORD_KEY", key.to_str().expect("path"))],
    );
    let jwks = roadie.get("/.well-known/jwks.json", None);
    assert_eq!(jwks.status, 200);
    assert_eq!(jwks.header("content-type"), Some("application/jwk-set+json"));
    let kids: Vec<String> = jwks.json["keys"]
        .as_array()
        .expect("keys")
        .iter()
        .map(|k| k["kid"].as_str().expect("kid").to_owned())
        .collect();
    assert_eq!(kids.len(), 1);
    std::fs::write(keys.join("jwks.json"), jwks.body.as_bytes()).expect("jwks file");

    let mut records = Vec::new();
    for (slug, min, max) in rulesets(&roadie) {
        for (seats, resign) in [(min, false), (max, true)] {
            let game = play_to_the_end(&roadie, &slug, seats, resign);
            let reply = roadie.get(&format!("/v1/games/{}/record", game.id), None);
            assert_eq!(reply.status, 200, "{}", reply.body);
            let record = reply.json;
            let seen = roadie.game(&game, None).json;
            assert_eq!(record["format"], "roadie.record/1");
            assert_eq!(record["game"], game.id.as_str());
            assert_eq!(record["seed"], seen["seed"]);
            assert_eq!(record["seed_commitment"], game.seed_commitment.as_str());
            assert_eq!(record["outcome"], seen["outcome"], "{slug}");
            assert_eq!(record["seats"], seen["occupants"], "{slug}");
            let events = roadie.events(&game, None);
            assert_eq!(record["events"]["count"], events.len(), "{slug}");
            let steps = record["steps"].as_array().expect("steps");
            assert!(
                steps.iter().any(|s| s["seat"] == 0 && s["action"].is_object()),
                "{slug}: the posts"
            );
            assert!(
                steps.iter().any(|s| s["seat"] == 1 && s["action"].is_object()),
                "{slug}: the bot's moves"
            );
            if resign {
                assert!(
                    steps.iter().any(|s| s["event"].is_object()),
                    "{slug}: the resignation is a step"
                );
            }
            let kid = signature_kid(&record);
            assert_eq!(kid, kids[0]);

            let verdict = verify(&roadie, &record);
            assert_eq!(verdict["ok"], true, "{slug}: {verdict}");
            assert_eq!(verdict["signature"], "valid");

            let end = roadie.post(
                "/v1/records/replay",
                None,
                &json!({"record": record, "at": steps.len()}),
            );
            assert_eq!(end.status, 200, "{}", end.body);
            assert_eq!(end.json["outcome"], seen["outcome"]);
            assert_eq!(
                end.json["view"], seen["view"],
                "{slug}: the last frame is the finished game"
            );
            let start = roadie.post("/v1/records/replay", None, &json!({"record": record, "at": 0}));
            assert_eq!(start.status, 200, "{}", start.body);
            assert_eq!(start.json["events"], json!([]));
            assert_eq!(start.json["seats"].as_array().map(Vec::len), Some(seats));
            records.push((slug.clone(), record));
        }
    }

    // The command line agrees, with the served keys and with the key file.
    for (slug, record) in records.iter().take(3) {
        let file = keys.join(format!("{slug}.json"));
        std::fs::write(&file, record.to_string()).expect("record file");
        let out = Command::new(roadie_binary())
            .arg("verify")
            .arg(&file)
            .arg(keys.join("jwks.json"))
            .output()
            .expect("roadie verify");
        let verdict: Value = serde_json::from_slice(&out.stdout).expect("a verdict");
        assert!(out.status.success(), "{slug}: {verdict}");
        assert_eq!(verdict["signature"], "valid");

        let mut changed = record.clone();
        let total = changed["outcome"]["scores"][0]["total"].as_i64().expect("total");
        changed["outcome"]["scores"][0]["total"] = json!(total + 1);
        std::fs::write(&file, changed.to_string()).expect("record file");
        let out = Command::new(roadie_binary())
            .arg("verify")
            .arg(&file)
            .env("ROADIE_RECORD_KEY", &key)
            .output()
            .expect("roadie verify");
        let verdict: Value = serde_json::from_slice(&out.stdout).expect("a verdict");
        assert_eq!(out.status.code(), Some(1), "{verdict}");
        assert_eq!(verdict["failed"], "outcome", "{verdict}");
    }

    // Tampering over HTTP: a bad seed, an action changed, a record signed by another key.
    let (_, record) = &records[0];
    let mut bad_seed = record.clone();
    bad_seed["seed"] = json!(record["seed"].as_u64().expect("seed") ^ 1);
    assert_eq!(verify(&roadie, &bad_seed)["failed"], "commitment");
    let mut renamed = record.clone();
    renamed["seats"][0]["name"] = json!("Mallory");
    assert_eq!(verify(&roadie, &renamed)["failed"], "signature");
    let replayed = roadie.post("/v1/records/replay", None, &json!({"record": bad_seed, "at": 3}));
    replayed.assert_problem(422, "invalid_record");
    let not_a_record = roadie.post("/v1/records/verify", None, &json!({"format": "roadie.record/1"}));
    not_a_record.assert_problem(400, "malformed_json");

    // A fork of a finished game, and of a record sent whole, starts after its first actions.
    for (slug, record) in records.iter().step_by(2) {
        let seats = record["seats"].as_array().map(Vec::len).expect("seats");
        let bots: Vec<Value> = (0..seats).map(|_| json!({"bot": "random"})).collect();
        let from_game = json!({"ruleset": slug, "seats": bots, "from": {"game": record["game"]}, "at": 3});
        let fork = roadie.post("/v1/games", None, &from_game);
        assert_eq!(fork.status, 201, "{slug}: {}", fork.body);
        let id = fork.json["id"].as_str().expect("id");
        let state = roadie.get(&format!("/v1/games/{id}"), None).json;
        assert_eq!(
            state["forked_from"],
            json!({"game": record["game"], "at": 3}),
            "{state}"
        );
        assert_eq!(state["status"], "finished", "{slug}: its bots play it to the end");
        let forked = roadie.get(&format!("/v1/games/{id}/record"), None).json;
        let actions = |r: &Value| -> Vec<Value> {
            r["steps"]
                .as_array()
                .expect("steps")
                .iter()
                .filter(|s| s["action"].is_object())
                .map(|s| json!([s["seat"], s["action"]]))
                .collect()
        };
        assert_eq!(
            actions(&forked)[..3],
            actions(record)[..3],
            "{slug}: the fork starts with them"
        );
        assert_eq!(forked["seed"], record["seed"]);
        let verdict = verify(&roadie, &forked);
        assert_eq!(verdict["ok"], true, "{slug}: {verdict}");

        let mut unsigned = record.clone();
        unsigned.as_object_mut().expect("object").remove("signature");
        let people = json!({"ruleset": slug, "seats": seats, "from": {"record": unsigned}, "at": 0});
        let fork = roadie.post("/v1/games", None, &people);
        assert_eq!(fork.status, 201, "{slug}: {}", fork.body);
        let id = fork.json["id"].as_str().expect("id");
        let fresh = roadie.get(&format!("/v1/games/{id}"), None).json;
        assert_eq!(fresh["status"], "active");
        assert_eq!(fresh["forked_from"], json!({"at": 0}));

        let beyond =
            json!({"ruleset": slug, "seats": bots, "from": {"game": record["game"]}, "at": 1_000_000});
        roadie
            .post("/v1/games", None, &beyond)
            .assert_problem(422, "invalid_record");
        let with_seed =
            json!({"ruleset": slug, "seats": bots, "from": {"game": record["game"]}, "at": 1, "seed": 5});
        roadie
            .post("/v1/games", None, &with_seed)
            .assert_problem(422, "invalid_record");
        let running = json!({"ruleset": slug, "seats": seats, "from": {"game": id}, "at": 0});
        roadie
            .post("/v1/games", None, &running)
            .assert_problem(409, "game_not_finished");
        let wrong_seats =
            json!({"ruleset": slug, "seats": seats + 1, "from": {"game": record["game"]}, "at": 0});
        let refused = roadie.post("/v1/games", None, &wrong_seats);
        assert!(refused.status == 422, "{}", refused.body);
    }

    // A restart keeps the key; a rotation keeps the old key listed and its records valid.
    roadie.restart();
    assert_eq!(verify(&roadie, record)["signature"], "valid");
    let next = new_key(&keys, "next.pem");
    let rotated = keys.join("rotated.pem");
    std::fs::write(
        &rotated,
        std::fs::read_to_string(&next).expect("next") + &std::fs::read_to_string(&key).expect("key"),
    )
    .expect("rotated file");
    let after = Roadie::start(
        "records_rotated",
        Some(&redis),
        &[("ROADIE_RECORD_KEY", rotated.to_str().expect("path"))],
    );
    let listed = after.get("/.well-known/jwks.json", None).json;
    assert_eq!(listed["keys"].as_array().map(Vec::len), Some(2), "{listed}");
    assert_eq!(verify(&after, record)["signature"], "valid");
    let resigned = after.get(
        &format!("/v1/games/{}/record", record["game"].as_str().expect("id")),
        None,
    );
    assert_eq!(resigned.status, 200);
    assert_ne!(
        signature_kid(&resigned.json),
        kids[0],
        "new records are signed with the new key"
    );
    let stranger = Roadie::start("records_stranger", Some(&redis), &[]);
    let verdict = verify(&stranger, record);
    assert_eq!(verdict["failed"], "signature", "{verdict}");
}

/// The `kid` in a record's signature header.
fn signature_kid(record: &Value) -> String {
    use base64::Engine;
    let jws = record["signature"].as_str().expect("signed");
    let header = jws.split('.').next().expect("header");
    let header = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(header)
        .expect("base64url");
    let header: Value = serde_json::from_slice(&header).expect("json");
    assert_eq!(header["alg"], "EdDSA");
    header["kid"].as_str().expect("kid").to_owned()
}
