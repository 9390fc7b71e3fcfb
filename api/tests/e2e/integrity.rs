//! Nothing acknowledged is lost or applied twice, and no process builds on a lost write: a
//! Redis that comes back from an older snapshot, and a store that answers too late.

use std::time::Duration;

use roadie_engine::{AnyGame, Viewer};
use serde_json::{Value, json};

use crate::play::json as engine_json;
use crate::support::{Created, Redis, Reply, Roadie, ensure_installed, scratch};

const SLUG: &str = "shrewd-producer";
const SEATS: usize = 3;

/// The seat to act and its first legal action, as `roadie` lists them.
fn next_move(roadie: &Roadie, game: &Created) -> (usize, Value) {
    pick(roadie, game, false)
}

/// The seat to act and its first legal action (its last with `last`).
fn pick(roadie: &Roadie, game: &Created, last: bool) -> (usize, Value) {
    let state = roadie.game(game, None);
    assert_eq!(state.status, 200, "{}", state.body);
    let seat = state.json["to_act"][0].as_u64().expect("someone acts") as usize;
    let actions = roadie.actions(game, seat);
    let index = if last { actions.len() - 1 } else { 0 };
    (seat, actions[index].clone())
}

/// Plays one action through `roadie`, chosen from what `chooser` lists; the lost timeline
/// chooses each seat's last action, the kept one its first, so that the two differ.
fn play(
    roadie: &Roadie,
    game: &Created,
    moves: &mut Vec<(usize, Value)>,
    chooser: &Roadie,
    last: bool,
) -> Reply {
    let (seat, action) = pick(chooser, game, last);
    let reply = roadie.act(game, seat, &action);
    assert_eq!(reply.status, 200, "{action}: {}", reply.body);
    moves.push((seat, action));
    reply
}

/// Everything a viewer can read of the game through `roadie`: the game and its event log.
fn seen(roadie: &Roadie, game: &Created, seat: Option<usize>) -> (Value, Vec<Value>) {
    let state = roadie.game(game, seat);
    assert_eq!(state.status, 200, "{}", state.body);
    (state.json, roadie.events(game, seat))
}

#[test]
fn after_redis_comes_back_from_an_older_snapshot_no_process_serves_or_builds_on_the_lost_writes() {
    ensure_installed("/usr/bin/redis-cli", "redis-tools");
    let dir = scratch("rollback_redis");
    let mut redis = Redis::start_with(&[
        "--dir".into(),
        dir.display().to_string(),
        "--dbfilename".into(),
        "dump.rdb".into(),
    ]);
    // A holds copies of the games it serves; B holds none and always reads the store.
    let a = Roadie::start("rollback_a", Some(&redis), &[]);
    let b = Roadie::start("rollback_b", Some(&redis), &[("ROADIE_CACHE_GAMES", "0")]);
    let seed = 4_242;
    let game = a.create(SLUG, SEATS, Some(seed));
    let mut kept = Vec::new();
    for _ in 0..3 {
        play(&a, &game, &mut kept, &a, false);
    }
    assert_eq!(redis.cli(&["SAVE"]), "OK");
    let mut lost = Vec::new();
    let mut last_lost = Value::Null;
    for _ in 0..3 {
        last_lost = play(&a, &game, &mut lost, &a, true).json;
    }
    assert_eq!(last_lost["version"], 7);
    let lost_tag = format!("\"{}\"", last_lost["revision"].as_str().expect("a revision"));

    // Redis dies and comes back from the snapshot taken at version 4.
    redis.stop();
    redis.resume();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while b.game(&game, None).status != 200 || a.game(&game, None).status != 200 {
        assert!(
            std::time::Instant::now() < deadline,
            "the processes did not reconnect"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let real = b.game(&game, None);
    assert_eq!(
        real.json["version"], 4,
        "the snapshot holds version 4: {}",
        real.body
    );

    // The process that held version 7 serves what the store holds, not its copy.
    for seat in (0..SEATS).map(Some).chain([None]) {
        assert_eq!(
            seen(&a, &game, seat),
            seen(&b, &game, seat),
            "{seat:?} right after the rollback"
        );
    }
    // The lost revision's tag matches nothing, even once the game is at version 7 again.
    let (seat, action) = next_move(&b, &game);
    let pinned = a.request(
        a.http
            .post(a.url(&format!("/v1/games/{}/actions", game.id)))
            .bearer_auth(&game.tokens[seat])
            .header("If-Match", &lost_tag)
            .json(&json!({ "action": action })),
    );
    pinned.assert_problem(412, "version_mismatch");

    // Three other actions through A: each builds on the store's game, never on the lost copy.
    let log_length = || {
        (0..SEATS)
            .map(Some)
            .chain([None])
            .filter_map(|seat| b.events(&game, seat).last().and_then(|e| e["seq"].as_u64()))
            .max()
            .unwrap_or(0)
    };
    for step in 0..3 {
        let before = log_length();
        let reply = play(&a, &game, &mut kept, &b, false);
        assert_eq!(reply.json["version"], 5 + step, "{}", reply.body);
        let after = log_length();
        for event in reply.json["events"].as_array().expect("events") {
            let seq = event["seq"].as_u64().expect("seq");
            assert!(
                before < seq && seq <= after,
                "the log goes on from the snapshot's ({before} to {after}): {}",
                reply.body
            );
        }
        for seat in (0..SEATS).map(Some).chain([None]) {
            assert_eq!(
                seen(&a, &game, seat),
                seen(&b, &game, seat),
                "{seat:?} after step {step}"
            );
        }
    }
    let now = a.game(&game, None);
    assert_eq!(now.json["version"], 7);
    assert_ne!(
        now.header("etag"),
        Some(lost_tag.as_str()),
        "the new version 7 is another revision"
    );
    let still = a.request(
        a.http
            .get(a.url(&format!("/v1/games/{}", game.id)))
            .header("If-None-Match", &lost_tag),
    );
    assert_eq!(still.status, 200, "a lost ETag is never current again");

    // The game the store holds is exactly the real timeline replayed: state and log agree.
    let (mut local, setup_events) = AnyGame::setup(SLUG, None, SEATS, seed).expect("setup");
    let mut local_events = setup_events;
    for (seat, action) in &kept {
        let events = local
            .apply(roadie_engine::Seat::new(*seat), &action.to_string())
            .expect("the engine accepts it");
        local_events.extend(events);
    }
    for seat in 0..SEATS {
        let state = a.game(&game, Some(seat));
        assert_eq!(
            state.json["view"],
            engine_json(&local.view(Viewer::Seat(roadie_engine::Seat::new(seat)))),
            "seat {seat}"
        );
    }
    let public: Vec<Value> = local_events
        .iter()
        .filter(|e| e.audience.admits(Viewer::Spectator, false))
        .map(|e| engine_json(&e.body))
        .collect();
    for server in [&a, &b] {
        let log = server.events(&game, None);
        let bodies: Vec<Value> = log.iter().map(|e| e["body"].clone()).collect();
        assert_eq!(bodies, public, "the public log is the real timeline's");
        let last = log.last().and_then(|e| e["seq"].as_u64());
        assert!(last <= Some(local_events.len() as u64), "{last:?}");
    }
}

/// Holds every write (scripts that may write included) for `millis` ms; reads go on.
fn pause_writes(redis: &Redis, millis: u64) {
    assert_eq!(
        redis.cli(&["CLIENT", "PAUSE", &millis.to_string(), "WRITE"]),
        "OK"
    );
}

fn post_keyed(roadie: &Roadie, game: &Created, seat: usize, action: &Value, key: Option<&str>) -> Reply {
    let mut request = roadie
        .http
        .post(roadie.url(&format!("/v1/games/{}/actions", game.id)))
        .bearer_auth(&game.tokens[seat])
        .json(&json!({ "action": action }));
    if let Some(key) = key {
        request = request.header("Idempotency-Key", key);
    }
    roadie.request(request)
}

/// The game's version once the store answers again.
fn settled_version(roadie: &Roadie, game: &Created) -> u64 {
    std::thread::sleep(Duration::from_millis(300));
    let state = roadie.game(game, None);
    assert_eq!(state.status, 200, "{}", state.body);
    state.json["version"].as_u64().expect("version")
}

#[test]
fn a_write_whose_answer_comes_too_late_is_never_reported_as_not_applied() {
    ensure_installed("/usr/bin/redis-cli", "redis-tools");
    let redis = Redis::start();
    let roadie = Roadie::start("late_answer", Some(&redis), &[("ROADIE_STORE_TIMEOUT_MS", "300")]);
    let game = roadie.create(SLUG, SEATS, Some(99));
    // A keyed post first, so that Redis holds the scripts (loading one is itself held by a
    // pause of writes).
    let (seat, action) = next_move(&roadie, &game);
    assert_eq!(
        post_keyed(&roadie, &game, seat, &action, Some("warm")).status,
        200
    );

    // Round 0: writes are held longer than the service asks, four times over (the write and
    // three questions about it): the write runs after the service gave up, so the only true
    // answer is that the outcome is unknown. Round 1: held a little longer than one wait: the
    // write runs before the first question, which finds it applied.
    for (round, millis) in [(0, 2_500), (1, 450)] {
        let before = settled_version(&roadie, &game);
        let (seat, action) = next_move(&roadie, &game);
        let key = format!("late-{round}");
        pause_writes(&redis, millis);
        let reply = post_keyed(&roadie, &game, seat, &action, Some(&key));
        std::thread::sleep(Duration::from_millis(millis));
        let after = settled_version(&roadie, &game);
        match (reply.status, reply.json["code"].as_str()) {
            (200, _) => assert_eq!(after, before + 1, "acknowledged, so applied once"),
            (503, Some("outcome_unknown")) => {
                assert!(reply.header("retry-after").is_some());
                let retried = post_keyed(&roadie, &game, seat, &action, Some(&key));
                assert_eq!(retried.status, 200, "{}", retried.body);
                assert_eq!(
                    retried.header("idempotent-replayed"),
                    Some("true"),
                    "{}",
                    retried.body
                );
                assert_eq!(
                    settled_version(&roadie, &game),
                    before + 1,
                    "applied once, not twice"
                );
            }
            (503, Some("store_unavailable")) => {
                assert_eq!(after, before, "answered not applied, so it must not have been");
            }
            _ => panic!("round {round}: {}", reply.body),
        }
        if round == 0 {
            reply.assert_problem(503, "outcome_unknown");
        }
    }

    // Without a key: whatever the answer says is true.
    let before = settled_version(&roadie, &game);
    let (seat, action) = next_move(&roadie, &game);
    pause_writes(&redis, 2_500);
    let reply = post_keyed(&roadie, &game, seat, &action, None);
    std::thread::sleep(Duration::from_millis(2_500));
    let after = settled_version(&roadie, &game);
    match (reply.status, reply.json["code"].as_str()) {
        (200, _) => assert_eq!(after, before + 1),
        (503, Some("outcome_unknown")) => assert!(after == before || after == before + 1),
        (503, Some("store_unavailable")) => assert_eq!(after, before),
        _ => panic!("{}", reply.body),
    }
    let metrics = roadie.get("/metrics", None).body;
    assert!(
        metrics.contains("roadie_writes_resolved_total{outcome=\"unknown\"}"),
        "{metrics}"
    );
}
