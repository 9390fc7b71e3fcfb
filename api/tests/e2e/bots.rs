//! Bots that search, played apart from requests through the real binary on a real Redis: a
//! person's post answers before the expert moves, games of bots play themselves to the end, any
//! process plays a turn another process died holding, and a seat may ask for a hint.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Created, Redis, Roadie, rulesets, send};

/// A short think, so that the tests stay quick: the search is the same at any budget.
const QUICK: [(&str, &str); 2] = [
    ("ROADIE_BOT_EXPERT_MS", "10"),
    ("ROADIE_BOT_EXPERT_ITERATIONS", "50"),
];

fn create(server: &Roadie, ruleset: &str, seats: &[Value]) -> Created {
    let reply = server.post("/v1/games", None, &json!({"ruleset": ruleset, "seats": seats}));
    assert_eq!(reply.status, 201, "{}", reply.body);
    Created::from(&reply.json)
}

/// The game as a spectator sees it, once it is over or after `within`.
fn finished(server: &Roadie, id: &str, within: Duration) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let reply = server.get(&format!("/v1/games/{id}"), None);
        assert_eq!(reply.status, 200, "{}", reply.body);
        if reply.json["status"] == "finished" || Instant::now() > deadline {
            return reply.json;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Checks that game `id`'s log is numbered 1, 2, … with no gap or repeat, and answers its length.
fn check_log(server: &Roadie, id: &str) -> usize {
    let log = server.get(&format!("/v1/games/{id}/events?after=0&limit=5000"), None);
    assert_eq!(log.status, 200, "{}", log.body);
    let events = log.json["events"].as_array().expect("events");
    for (i, event) in events.iter().enumerate() {
        assert_eq!(event["seq"], i + 1, "game {id}: the log is not numbered in order");
    }
    events.len()
}

#[test]
fn games_of_bots_with_experts_play_themselves_to_the_end_in_every_ruleset() {
    let redis = Redis::start();
    let roadie = Roadie::start("bots_all", Some(&redis), &QUICK);
    for (slug, min, _) in rulesets(&roadie) {
        let seats: Vec<Value> = (0..min)
            .map(|i| json!({"bot": if i % 2 == 0 { "expert" } else { "greedy" }}))
            .collect();
        let game = create(&roadie, &slug, &seats);
        let end = finished(&roadie, &game.id, Duration::from_secs(120));
        assert_eq!(end["status"], "finished", "{slug}: not over: {end}");
        assert_eq!(end["occupants"][0]["level"], "expert", "{end}");
        assert!(check_log(&roadie, &game.id) > 10, "{slug}");
    }
    let policies = bot_thread_policies(&roadie);
    assert!(!policies.is_empty(), "no bot thread is running");
    assert!(
        policies.iter().all(|p| *p == SCHED_IDLE),
        "the bot threads run under the scheduling policies {policies:?}, not SCHED_IDLE ({SCHED_IDLE})"
    );
}

/// Linux's lowest scheduling policy, as `/proc/PID/task/TID/stat` numbers it.
const SCHED_IDLE: i64 = 5;

/// The scheduling policy of each of the process's bot threads (`roadie-bot-*`), from `/proc`.
fn bot_thread_policies(roadie: &Roadie) -> Vec<i64> {
    let pid = roadie.pid().expect("running");
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).expect("the process's threads");
    tasks
        .filter_map(|task| {
            let path = task.ok()?.path();
            let name = std::fs::read_to_string(path.join("comm")).ok()?;
            if !name.starts_with("roadie-bot-") {
                return None;
            }
            let stat = std::fs::read_to_string(path.join("stat")).ok()?;
            // The fields after the name in parentheses, from field 3; the policy is field 41.
            let rest = stat.rsplit_once(") ")?.1;
            rest.split_whitespace().nth(38)?.parse().ok()
        })
        .collect()
}

#[test]
fn a_persons_post_answers_before_the_expert_moves_and_the_expert_plays_on() {
    let redis = Redis::start();
    let roadie = Roadie::start("bots_person", Some(&redis), &QUICK);
    let game = create(
        &roadie,
        "show-business",
        &[json!({"name": "Ana"}), json!({"bot": "expert"})],
    );
    let mut expert_pending = 0;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let state = roadie.game(&game, Some(0));
        assert_eq!(state.status, 200, "{}", state.body);
        if state.json["status"] == "finished" {
            break;
        }
        assert!(Instant::now() < deadline, "the game did not end: {}", state.body);
        let to_act: Vec<u64> = state.json["to_act"]
            .as_array()
            .expect("to_act")
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        if !to_act.contains(&0) {
            // The expert is to act: its move comes through the store, as anyone's.
            let revision = state.json["revision"].as_str().expect("revision").to_owned();
            send(
                roadie
                    .http
                    .get(roadie.url(&format!("/v1/games/{}?wait=5", game.id)))
                    .bearer_auth(&game.tokens[0])
                    .header("If-None-Match", format!("\"{revision}\"")),
            );
            continue;
        }
        let actions = roadie.actions(&game, 0);
        let posted = roadie.act(&game, 0, &actions[0]);
        assert_eq!(posted.status, 200, "{}", posted.body);
        let after = posted.json["to_act"].as_array().cloned().unwrap_or_default();
        if after.contains(&json!(1)) {
            expert_pending += 1;
        }
    }
    assert!(
        expert_pending > 3,
        "a post never answered with the expert still to act ({expert_pending} times): it played inside the request"
    );
    check_log(&roadie, &game.id);
}

#[test]
fn a_hint_is_one_of_the_seats_listed_actions_and_only_for_a_seat_to_act() {
    let redis = Redis::start();
    let roadie = Roadie::start("bots_hint", Some(&redis), &QUICK);
    for (slug, min, _) in rulesets(&roadie) {
        let game = roadie.create(&slug, min, Some(11));
        let state = roadie.game(&game, None);
        let to_act: Vec<usize> = state.json["to_act"]
            .as_array()
            .expect("to_act")
            .iter()
            .filter_map(Value::as_u64)
            .map(|s| s as usize)
            .collect();
        let seat = to_act[0];
        let hint = roadie.get(&format!("/v1/games/{}/hint", game.id), Some(&game.tokens[seat]));
        assert_eq!(hint.status, 200, "{slug}: {}", hint.body);
        let listed = roadie.actions(&game, seat);
        assert!(
            listed.contains(&hint.json["action"]),
            "{slug}: {} is not listed",
            hint.body
        );
        assert_eq!(hint.json["level"], "expert", "{}", hint.body);
        assert_eq!(hint.json["seat"], seat, "{}", hint.body);
        assert_eq!(hint.json["revision"], state.json["revision"], "{}", hint.body);
        let considered = hint.json["considered"].as_array().expect("considered");
        assert_eq!(considered[0]["action"], hint.json["action"], "{}", hint.body);
        assert!(considered.len() <= 5, "{}", hint.body);
        for c in considered {
            assert!(listed.contains(&c["action"]), "{slug}: {c} is not listed");
            let share = c["share"].as_f64().expect("share");
            assert!((0.0..=1.0).contains(&share), "{}", hint.body);
        }
        let posted = roadie.act(&game, seat, &hint.json["action"]);
        assert_eq!(
            posted.status, 200,
            "{slug}: the hint does not post: {}",
            posted.body
        );
        if let Some(idle) = (0..min).find(|s| !to_act.contains(s)) {
            let refused = roadie.get(&format!("/v1/games/{}/hint", game.id), Some(&game.tokens[idle]));
            refused.assert_problem(409, "not_your_turn");
        }
        let anonymous = roadie.get(&format!("/v1/games/{}/hint", game.id), None);
        anonymous.assert_problem(401, "token_missing");
    }
}

#[test]
fn a_seat_asking_for_hints_too_fast_is_told_to_wait() {
    let redis = Redis::start();
    let mut settings = QUICK.to_vec();
    settings.extend([("ROADIE_HINT_RATE", "0.1"), ("ROADIE_HINT_BURST", "2")]);
    let roadie = Roadie::start("bots_hint_rate", Some(&redis), &settings);
    let game = roadie.create("show-business", 2, Some(3));
    let seat = roadie.game(&game, None).json["to_act"][0]
        .as_u64()
        .expect("a seat") as usize;
    let path = format!("/v1/games/{}/hint", game.id);
    for _ in 0..2 {
        assert_eq!(roadie.get(&path, Some(&game.tokens[seat])).status, 200);
    }
    let third = roadie.get(&path, Some(&game.tokens[seat]));
    third.assert_problem(429, "rate_limited");
    assert!(third.header("retry-after").is_some(), "{}", third.body);
}

#[test]
fn a_process_killed_mid_game_loses_and_doubles_no_bot_move() {
    let redis = Redis::start();
    let mut settings = QUICK.to_vec();
    settings.extend([("ROADIE_BOT_LEASE_MS", "1000"), ("ROADIE_BOT_SWEEP_MS", "100")]);
    let a = Roadie::start("bots_kill_a", Some(&redis), &settings);
    let b = Roadie::start("bots_kill_b", Some(&redis), &settings);
    let seats = [
        json!({"bot": "expert"}),
        json!({"bot": "greedy"}),
        json!({"bot": "expert"}),
    ];
    let games: Vec<Created> = (0..20)
        .map(|i| create(if i % 2 == 0 { &a } else { &b }, "shrewd-producer", &seats))
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    b.kill();
    let mut ids = HashSet::new();
    for game in &games {
        let end = finished(&a, &game.id, Duration::from_secs(180));
        assert_eq!(end["status"], "finished", "game {} did not end: {end}", game.id);
        check_log(&a, &game.id);
        ids.insert(game.id.clone());
    }
    assert_eq!(ids.len(), 20);
    // A claim that wrote nothing keeps a recent filing for a grace of 5 s, then lets it go.
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let due = redis.zcard_shards("bots", ":due");
        if due == 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{due} bot turns still filed after every game ended"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}
