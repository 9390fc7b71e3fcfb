//! 32 clients posting to one game at once: no action is lost or applied twice.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use roadie_engine::{AnyGame, Viewer};
use serde_json::{Value, json};

use crate::support::{Created, Redis, Roadie, rulesets, send};

const CLIENTS: usize = 32;
const POSTS_PER_CLIENT: usize = 40;

/// A post the server accepted: the version it produced, by whom, what.
struct Applied {
    version: u64,
    seat: usize,
    action: Value,
    events: usize,
}

fn client(
    roadie: &Roadie,
    game: &Created,
    me: usize,
    seats: usize,
    applied: &Mutex<Vec<Applied>>,
) -> Vec<u16> {
    let mut rng = StdRng::seed_from_u64(me as u64);
    let seat = me % seats;
    let mut statuses = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    for _ in 0..POSTS_PER_CLIENT {
        if Instant::now() > deadline {
            break;
        }
        let actions = roadie.get(
            &format!("/v1/games/{}/actions", game.id),
            Some(&game.tokens[seat]),
        );
        assert_eq!(actions.status, 200, "{}", actions.body);
        let list = actions.json["actions"].as_array().cloned().unwrap_or_default();
        if list.is_empty() {
            let state = roadie.game(game, None);
            if state.json["status"] == "finished" {
                break;
            }
            std::thread::sleep(Duration::from_millis(rng.random_range(0..3)));
            continue;
        }
        let action = list[rng.random_range(0..list.len())].clone();
        let mut request = roadie
            .http
            .post(roadie.url(&format!("/v1/games/{}/actions", game.id)))
            .bearer_auth(&game.tokens[seat])
            .json(&json!({ "action": action }));
        let pinned = me.is_multiple_of(4);
        if pinned {
            request = request.header(
                "If-Match",
                format!("\"{}\"", actions.json["revision"].as_str().unwrap_or_default()),
            );
        }
        let reply = send(request);
        statuses.push(reply.status);
        match reply.status {
            200 => {
                let mut applied = applied.lock().unwrap_or_else(|e| e.into_inner());
                applied.push(Applied {
                    version: reply.json["version"].as_u64().expect("version"),
                    seat,
                    action,
                    events: reply.json["events"].as_array().map_or(0, Vec::len),
                });
            }
            409 => assert!(
                ["not_your_turn", "game_over", "contention"]
                    .contains(&reply.json["code"].as_str().unwrap_or("")),
                "{}",
                reply.body
            ),
            412 => assert!(pinned, "412 without If-Match: {}", reply.body),
            422 => assert_eq!(reply.json["code"], "illegal_action"),
            other => panic!("unexpected {other}: {}", reply.body),
        }
    }
    statuses
}

#[test]
fn thirty_two_clients_posting_at_once_lose_and_double_nothing() {
    let redis = Redis::start();
    let roadie = Roadie::start("concurrency", Some(&redis), &[]);
    let (slug, _, max) = rulesets(&roadie).into_iter().next().expect("a ruleset");
    let seed = 31337;
    let game = roadie.create(&slug, max, Some(seed));
    let applied = Mutex::new(Vec::new());
    let statuses: Vec<u16> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..CLIENTS)
            .map(|me| {
                let (roadie, game, applied) = (&roadie, &game, &applied);
                scope.spawn(move || client(roadie, game, me, max, applied))
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a client panicked"))
            .collect()
    });
    let mut applied = applied.into_inner().unwrap_or_else(|e| e.into_inner());
    applied.sort_by_key(|a| a.version);
    assert!(!applied.is_empty(), "no post was applied (statuses {statuses:?})");
    assert!(
        statuses.iter().any(|&s| s != 200),
        "no post lost a race: the test raced nothing"
    );

    // Every applied post produced exactly one new version: 2, 3, 4, ... with no gap or double.
    let versions: Vec<u64> = applied.iter().map(|a| a.version).collect();
    assert_eq!(versions, (2..2 + applied.len() as u64).collect::<Vec<_>>());
    let state = roadie.game(&game, None);
    assert_eq!(
        state.json["version"],
        1 + applied.len() as u64,
        "the game's version counts every applied post"
    );

    // Replaying the applied posts in version order on the engine gives the server's game and
    // the server's event log, event for event.
    let (mut local, setup) = AnyGame::setup(&slug, None, max, seed).expect("setup");
    let mut all = setup;
    for a in &applied {
        let produced = local
            .apply(roadie_engine::Seat::new(a.seat), &a.action.to_string())
            .unwrap_or_else(|r| panic!("version {} does not replay: {r}", a.version));
        let finished = local.is_over();
        let visible = produced
            .iter()
            .filter(|e| {
                e.audience
                    .admits(Viewer::Seat(roadie_engine::Seat::new(a.seat)), finished)
            })
            .count();
        assert_eq!(visible, a.events, "version {}: the reply's events", a.version);
        all.extend(produced);
    }
    let view: Value = serde_json::from_str(local.view(Viewer::Spectator).get()).expect("view");
    assert_eq!(
        state.json["view"], view,
        "the stored game is not the replayed one"
    );
    let finished = local.is_over();
    let expected: Vec<(u64, Value)> = (1..)
        .zip(all.iter())
        .filter(|(_, e)| e.audience.admits(Viewer::Spectator, finished))
        .map(|(seq, e)| (seq, serde_json::from_str(e.body.get()).expect("event")))
        .collect();
    let log: Vec<(u64, Value)> = roadie
        .events(&game, None)
        .into_iter()
        .map(|e| (e["seq"].as_u64().expect("seq"), e["body"].clone()))
        .collect();
    assert_eq!(log, expected, "the event log and the game disagree");
    let metrics = roadie.get("/metrics", None);
    assert!(
        metrics.body.contains("roadie_cas_conflicts_total"),
        "{}",
        metrics.body
    );
}
