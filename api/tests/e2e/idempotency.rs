//! Idempotency records live and die with their game and cost about as much as it does.

use std::time::Duration;

use serde_json::{Value, json};

use roadie_api::store::redis::RENEW_LOGS_EVERY_SECS;

use crate::support::{Created, Redis, Reply, Roadie, rulesets};

fn post(roadie: &Roadie, game: &Created, seat: usize, action: &Value, key: Option<&str>) -> Reply {
    let mut request = roadie
        .http
        .post(roadie.url(&format!("/v1/games/{}/actions", game.id)))
        .bearer_auth(&game.tokens[seat])
        .header("Prefer", "return=minimal")
        .json(&json!({ "action": action }));
    if let Some(key) = key {
        request = request.header("Idempotency-Key", key);
    }
    roadie.request(request)
}

/// Plays one step (the first seat to act, its first action), with `key` if given.
fn step(roadie: &Roadie, game: &Created, key: Option<&str>) -> Option<(usize, Value, Reply)> {
    let state = roadie.game(game, None);
    let seat = state.json["to_act"][0].as_u64()? as usize;
    let action = roadie.actions(game, seat)[0].clone();
    let reply = post(roadie, game, seat, &action, key);
    assert_eq!(reply.status, 200, "{}", reply.body);
    Some((seat, action, reply))
}

fn keys_of(redis: &Redis, game: &Created) -> Vec<String> {
    let pattern = format!("roadie:{{{}}}:*", game.id);
    let listed = redis.cli(&["--scan", "--pattern", &pattern]);
    let mut keys: Vec<String> = listed
        .lines()
        .map(str::to_owned)
        .filter(|l| !l.is_empty())
        .collect();
    keys.sort();
    keys
}

/// What `key` has left: `TTL` in seconds or `PTTL` in milliseconds.
fn lifetime(redis: &Redis, command: &str, key: &str) -> i64 {
    redis.cli(&[command, key]).parse().expect("a lifetime")
}

fn ttl(redis: &Redis, key: &str) -> i64 {
    lifetime(redis, "TTL", key)
}

#[test]
fn a_record_lives_as_long_as_its_running_game_and_goes_with_it() {
    let redis = Redis::start();
    let roadie = Roadie::start("idem_lifetime", Some(&redis), &[("ROADIE_GAME_TTL_SECS", "3")]);
    let game = roadie.create("shrewd-producer", 3, Some(12));
    let (seat, action, first) = step(&roadie, &game, Some("first")).expect("a first step");
    // The game is kept alive by play for longer than its idle lifetime.
    for _ in 0..5 {
        std::thread::sleep(Duration::from_secs(1));
        step(&roadie, &game, None).expect("the game goes on");
    }
    let again = post(&roadie, &game, seat, &action, Some("first"));
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(
        again.header("idempotent-replayed"),
        Some("true"),
        "{}",
        again.body
    );
    assert_eq!(again.json, first.json);

    let idem = format!("roadie:{{{}}}:idem", game.id);
    assert!(keys_of(&redis, &game).contains(&idem));
    let deleted = roadie.request(
        roadie
            .http
            .delete(roadie.url(&format!("/v1/games/{}", game.id)))
            .bearer_auth(&game.host_token),
    );
    assert_eq!(deleted.status, 204);
    assert_eq!(
        keys_of(&redis, &game),
        Vec::<String>::new(),
        "delete leaves nothing behind"
    );
}

#[test]
fn records_of_a_finished_game_expire_with_it_and_cost_about_what_it_does() {
    let redis = Redis::start();
    let roadie = Roadie::start("idem_size", Some(&redis), &[("ROADIE_FINISHED_TTL_SECS", "100")]);
    let mut report = Vec::new();
    for (slug, _, max) in rulesets(&roadie) {
        let game = roadie.create(&slug, max, Some(21));
        let mut posts = 0;
        while step(&roadie, &game, Some(&format!("k{posts}"))).is_some() {
            posts += 1;
            assert!(posts < 5_000, "{slug} did not end");
        }
        let bytes = |what: &str| -> u64 {
            redis
                .cli(&["MEMORY", "USAGE", &format!("roadie:{{{}}}:{what}", game.id)])
                .parse()
                .unwrap_or(0)
        };
        let (idem, state, events) = (bytes("idem"), bytes("state"), bytes("events"));
        report.push(format!(
            "{slug}: {posts} posts, idempotency records {idem} bytes, state {state} bytes, events {events} bytes"
        ));
        assert!(idem > 0, "{slug}: no records were kept");
        assert!(
            idem <= state + events,
            "{slug}: records ({idem} bytes) cost more than the game ({state} + {events} bytes)"
        );
        // The state keeps the finished lifetime; its logs at most the renewal span more.
        let logs = 100 + RENEW_LOGS_EVERY_SECS as i64;
        for key in keys_of(&redis, &game) {
            let left = ttl(&redis, &key);
            let most = if key.ends_with(":state") || key.ends_with(":version") {
                100
            } else {
                logs
            };
            assert!(
                (1..=most).contains(&left),
                "{key} keeps {left} s after the game finished (at most {most})"
            );
        }
    }
    eprintln!("{}", report.join("\n"));
}

fn pttl(redis: &Redis, key: &str) -> i64 {
    lifetime(redis, "PTTL", key)
}

#[test]
fn a_games_logs_never_expire_before_its_state_though_renewed_seldom() {
    let redis = Redis::start();
    let roadie = Roadie::start("idem_renewal", Some(&redis), &[("ROADIE_GAME_TTL_SECS", "4")]);
    let game = roadie.create("shrewd-producer", 3, Some(31));
    let key = |what: &str| format!("roadie:{{{}}}:{what}", game.id);
    let mut renewals = 0;
    let started = std::time::Instant::now();
    let mut last_writes = pttl(&redis, &key("writes"));
    // A lifetime of 4 s is shorter than the renewal span, so the logs live up to 8 s and are
    // renewed once less than 4 s is left: over at least 6 s of play, at least once.
    for posts in 0..12 {
        std::thread::sleep(Duration::from_millis(500));
        step(&roadie, &game, Some(&format!("k{posts}"))).expect("the game goes on");
        for what in ["events", "writes", "idem"] {
            // Read before the state, so that the time between the two reads counts against
            // the log, not for it.
            let left = pttl(&redis, &key(what));
            let state = pttl(&redis, &key("state"));
            assert!(state > 2_000, "the state has its lifetime again: {state} ms");
            assert!(
                left >= state && left <= 8_000,
                "{what} has {left} ms left where the state has {state} ms"
            );
        }
        let writes = pttl(&redis, &key("writes"));
        if writes > last_writes {
            renewals += 1;
        }
        last_writes = writes;
    }
    // Renewed when less than the 4 s lifetime is left of 8 s: about once in 4 s, where every
    // write used to renew them.
    let most = started.elapsed().as_secs() / 3 + 1;
    assert!(
        renewals >= 1 && renewals <= most,
        "the logs were renewed {renewals} times in 12 writes over {:?} (at most {most})",
        started.elapsed()
    );
}
