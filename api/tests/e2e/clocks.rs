//! Clocks: games whose seats never act still end, their timeouts played by the sweeps of two
//! processes sharing one Redis, one of them killed midway; each deadline is played once.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Created, Redis, Reply, Roadie, due_key, python, scratch};

/// A response as `contract.py` reads it, expected to match the served document.
fn record(method: &str, path: &str, reply: &Reply) -> Value {
    json!({
        "method": method,
        "path": path,
        "status": reply.status,
        "content_type": reply.header("content-type").unwrap_or_default(),
        "body": reply.json,
        "expect": "valid",
    })
}

/// Checks `records` against the document `roadie` serves, strictly (`contract.py`).
fn assert_documented(roadie: &Roadie, records: &[Value], name: &str) {
    let dir = scratch(name);
    let document = roadie.get("/api-docs/openapi.json", None);
    std::fs::write(dir.join("openapi.json"), &document.body).expect("write document");
    let mut file = std::fs::File::create(dir.join("records.jsonl")).expect("records");
    for line in records {
        writeln!(file, "{line}").expect("write record");
    }
    let output = Command::new(python())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/contract.py"))
        .arg(dir.join("openapi.json"))
        .arg(dir.join("records.jsonl"))
        .output()
        .expect("run contract.py");
    assert!(
        output.status.success(),
        "the clock's responses do not match the document: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn create_clocked(roadie: &Roadie, clock: Value) -> Created {
    let body = json!({
        "ruleset": "rock-the-world",
        "seats": 2,
        "seed": 14,
        "options": {"max_turns_per_seat": 2},
        "clock": clock,
    });
    let reply = roadie.post("/v1/games", None, &body);
    assert_eq!(reply.status, 201, "{}", reply.body);
    Created::from(&reply.json)
}

#[test]
fn games_whose_seats_never_act_end_through_two_processes_one_killed_each_timeout_once() {
    let redis = Redis::start();
    let sweep = [("ROADIE_CLOCK_SWEEP_MS", "20")];
    let a = Roadie::start("clocks_a", Some(&redis), &sweep);
    let b = Roadie::start("clocks_b", Some(&redis), &sweep);
    let games: Vec<Created> = (0..3)
        .map(|_| create_clocked(&a, json!({"per_decision_secs": 1})))
        .collect();

    let first = b.game(&games[0], None);
    assert_eq!(first.status, 200, "{}", first.body);
    let mut records = vec![
        record("get", "/v1/games/{id}", &first),
        json!({"schema": "/components/schemas/CreateGame", "expect": "valid", "body":
            {"ruleset": "rock-the-world", "seats": 2, "clock": {"per_decision_secs": 1, "bank_secs": 0}}}),
        json!({"schema": "/components/schemas/CreateGame", "expect": "invalid", "body":
            {"ruleset": "rock-the-world", "seats": 2, "clock": {"per_decision_secs": 0}}}),
    ];
    let clock = &first.json["clock"];
    assert_eq!(clock["per_decision_secs"], 1, "{}", first.body);
    assert_eq!(clock["bank_secs"], 0);
    let to_act = first.json["to_act"][0].as_u64().expect("a seat acts") as usize;
    for seat in 0..2 {
        let deadline = &clock["seats"][seat]["deadline_ms"];
        assert_eq!(deadline.is_u64(), seat == to_act, "{}", first.body);
        assert_eq!(clock["seats"][seat]["bank_ms"], 0);
    }
    assert!(
        redis
            .cli(&["ZSCORE", &due_key("clocks", "", &games[0].id), &games[0].id])
            .trim()
            .parse::<u64>()
            .is_ok(),
        "the game is in the index of clocks"
    );

    let started = Instant::now();
    let mut killed = false;
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the games did not end; log of b:\n{}",
            b.log_text()
        );
        let states: Vec<Value> = games.iter().map(|g| b.game(g, None).json).collect();
        if !killed && states.iter().all(|s| s["version"].as_u64() >= Some(3)) {
            a.kill();
            killed = true;
        }
        if states.iter().all(|s| s["status"] == "finished") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(killed, "the games ended before the kill");

    for game in &games {
        let reply = b.game(game, None);
        records.push(record("get", "/v1/games/{id}", &reply));
        let page = b.get(&format!("/v1/games/{}/events?after=0", game.id), None);
        records.push(record("get", "/v1/games/{id}/events", &page));
        let state = reply.json;
        let version = state["version"].as_u64().expect("version");
        let log = b.events(game, None);
        let seqs: Vec<u64> = log.iter().map(|e| e["seq"].as_u64().expect("seq")).collect();
        assert_eq!(
            seqs,
            (1..=log.len() as u64).collect::<Vec<_>>(),
            "no gap in the log"
        );
        let expired: Vec<&Value> = log
            .iter()
            .map(|e| &e["body"])
            .filter(|body| body["type"] == "clock_expired")
            .collect();
        // Nobody posted: every write after the creation is one seat's timeout.
        assert_eq!(
            expired.len() as u64,
            version - 1,
            "one clock_expired per write, versions contiguous: {expired:?}"
        );
        let deadlines: Vec<u64> = expired
            .iter()
            .map(|e| e["deadline_ms"].as_u64().expect("deadline_ms"))
            .collect();
        let distinct: BTreeSet<(u64, u64)> = expired
            .iter()
            .map(|e| {
                (
                    e["seat"].as_u64().expect("seat"),
                    e["deadline_ms"].as_u64().expect("ms"),
                )
            })
            .collect();
        assert_eq!(
            distinct.len(),
            expired.len(),
            "a deadline played twice: {expired:?}"
        );
        for pair in deadlines.windows(2) {
            assert!(
                pair[1] >= pair[0] + 1_000,
                "each decision gets its second after the last was played: {deadlines:?}"
            );
        }
        for e in &expired {
            assert_eq!(e["by"], "bot", "{e}");
            assert_eq!(e["level"], "random", "{e}");
        }
        assert!(
            state["clock"]["seats"]
                .as_array()
                .expect("seats")
                .iter()
                .all(|s| s["deadline_ms"].is_null())
        );
    }
    assert_documented(&b, &records, "clocks_document");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        redis.zcard_shards("clocks", ""),
        0,
        "finished games leave the index"
    );
}

#[test]
fn a_clock_is_bounded_and_a_quick_decision_keeps_the_bank() {
    let roadie = Roadie::start("clocks_bounds", None, &[]);
    for (clock, reason) in [
        (json!({"per_decision_secs": 0}), "per_decision_secs"),
        (json!({"per_decision_secs": 86_401}), "per_decision_secs"),
        (json!({"per_decision_secs": 5, "bank_secs": 604_801}), "bank_secs"),
    ] {
        let body = json!({"ruleset": "rock-the-world", "seats": 2, "clock": clock});
        let reply = roadie.post("/v1/games", None, &body);
        reply.assert_problem(422, "invalid_clock");
        assert!(
            reply.json["detail"].as_str().is_some_and(|d| d.contains(reason)),
            "{}",
            reply.body
        );
    }
    for clock in [
        json!({"per_decision_secs": "soon"}),
        json!({"per_decision_secs": 5, "overtime": 1}),
        json!({"bank_secs": 5}),
    ] {
        let body = json!({"ruleset": "rock-the-world", "seats": 2, "clock": clock});
        let reply = roadie.post("/v1/games", None, &body);
        assert_eq!(reply.status, 400, "{clock}: {}", reply.body);
    }

    let machine = roadie.get("/v1/rulesets/rock-the-world", None);
    assert_eq!(
        machine.json["machine"]["on_timeout"],
        json!({"kind": "bot", "level": "random"}),
        "{}",
        machine.body
    );

    let game = create_clocked(&roadie, json!({"per_decision_secs": 60, "bank_secs": 30}));
    let seat = roadie.game(&game, None).json["to_act"][0]
        .as_u64()
        .expect("a seat acts") as usize;
    let action = roadie.actions(&game, seat)[0].clone();
    let reply = roadie.act(&game, seat, &action);
    assert_eq!(reply.status, 200, "{}", reply.body);
    let state = roadie.game(&game, Some(seat)).json;
    let clock = &state["clock"];
    assert_eq!(clock["seats"][seat]["bank_ms"], 30_000, "{state}");
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as u64;
    for acting in state["to_act"].as_array().expect("to_act") {
        let deadline = clock["seats"][acting.as_u64().expect("seat") as usize]["deadline_ms"]
            .as_u64()
            .expect("a seat to act has a deadline");
        assert!(
            deadline > now_ms + 80_000 && deadline <= now_ms + 90_000,
            "a decision's 60 s plus the 30 s bank: {deadline} at {now_ms}"
        );
    }
    assert!(
        !roadie
            .events(&game, None)
            .iter()
            .any(|e| e["body"]["type"] == "clock_expired"),
        "nothing expired"
    );
}

#[test]
fn the_in_memory_store_plays_timeouts_too() {
    let roadie = Roadie::start("clocks_memory", None, &[("ROADIE_CLOCK_SWEEP_MS", "20")]);
    let game = create_clocked(&roadie, json!({"per_decision_secs": 1}));
    let started = Instant::now();
    while roadie.game(&game, None).json["status"] != "finished" {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the game did not end"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let version = roadie.game(&game, None).json["version"]
        .as_u64()
        .expect("version");
    let expired = roadie
        .events(&game, None)
        .iter()
        .filter(|e| e["body"]["type"] == "clock_expired")
        .count() as u64;
    assert_eq!(expired, version - 1, "one timeout per write");
}

#[test]
fn a_post_after_its_deadline_is_judged_after_the_timeout_which_comes_first_in_the_log() {
    let redis = Redis::start();
    // No sweep comes before the post: only the deadline rule can play the timeout first.
    let roadie = Roadie::start(
        "clocks_deadline_rule",
        Some(&redis),
        &[("ROADIE_CLOCK_SWEEP_MS", "60000")],
    );
    let game = create_clocked(&roadie, json!({"per_decision_secs": 1}));
    let start = roadie.game(&game, None);
    let seat = start.json["to_act"][0].as_u64().expect("someone acts") as usize;
    let created_events = roadie.events(&game, None).len();
    let action = roadie.actions(&game, seat)[0].clone();
    let deadline = start.json["clock"]["seats"][seat]["deadline_ms"]
        .as_u64()
        .expect("a deadline");
    while std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after the epoch")
        .as_millis() as u64
        <= deadline + 300
    {
        std::thread::sleep(Duration::from_millis(50));
    }

    let reply = roadie.act(&game, seat, &action);
    let log = roadie.events(&game, None);
    let after_creation: Vec<&Value> = log[created_events..].iter().map(|e| &e["body"]).collect();
    assert_eq!(
        (
            after_creation.first().and_then(|b| b["type"].as_str()),
            after_creation.first().and_then(|b| b["seat"].as_u64()),
            after_creation.first().and_then(|b| b["deadline_ms"].as_u64()),
        ),
        (Some("clock_expired"), Some(seat as u64), Some(deadline)),
        "the timeout is written before anything the late post did: {after_creation:?}"
    );
    assert_eq!(
        after_creation
            .iter()
            .filter(|b| b["type"] == "clock_expired")
            .count(),
        1,
        "one deadline, one timeout: {after_creation:?}"
    );
    match reply.status {
        // Still legal after the timeout: applied after it, in the same write.
        200 => assert_eq!(
            reply.json["events"][0]["body"]["type"], "clock_expired",
            "{}",
            reply.body
        ),
        // Judged against the game the timeout left: refused, yet the timeout is written.
        409 | 422 => assert!(
            reply.json["code"].is_string() && reply.json["code"] != "contention",
            "{}",
            reply.body
        ),
        _ => panic!("{}", reply.body),
    }
    let version = roadie.game(&game, None).json["version"]
        .as_u64()
        .expect("version");
    assert!(version > start.json["version"].as_u64().expect("version"));
}
