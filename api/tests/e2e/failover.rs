//! Horizontal scale on Redis Cluster: two `roadie` processes share a 3-node Redis Cluster and a
//! JWT secret. Games created through one are played through both alternately; one process is
//! SIGKILLed while posts to it are in flight; the other finishes every game. Then each game's
//! version, event log and outcome must be exactly what a local replay of the accepted actions
//! gives: no action lost, none applied twice.
//!
//! It runs on the e2e harness: its Redis Cluster and processes are the other tests'.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use roadie_engine::AnyGame;
use serde_json::{Value, json};

const RULESET: &str = "shrewd-producer";
const SEATS: usize = 4;
const GAMES: usize = 8;
/// Actions played in each game through the two processes, alternately, before the kill.
const STEPS_BEFORE_KILL: usize = 12;
/// A game longer than this counts as one that never finishes.
const MAX_ACTIONS: usize = 5_000;

use crate::cluster::redis_cluster;
use crate::support::{Roadie, scratch};

/// What the test knows of one game: its tokens, the version it expects, and every accepted
/// action in order (seat and JSON), for the replay at the end.
struct Game {
    id: String,
    seed: u64,
    tokens: Vec<String>,
    version: u64,
    to_act: Vec<usize>,
    finished: bool,
    accepted: Vec<(usize, Value)>,
    rng: ChaCha8Rng,
}

/// One post, ready to send (and to resend with the same idempotency key).
struct Move {
    seat: usize,
    action: Value,
    key: String,
}

/// Status, JSON body, and whether the answer is the replay of an earlier post
/// (`Idempotent-Replayed: true`).
async fn send(req: reqwest::RequestBuilder) -> Result<(u16, Value, bool), String> {
    let response = req.send().await.map_err(|e| format!("no answer: {e}"))?;
    let status = response.status().as_u16();
    let replayed = response
        .headers()
        .get("idempotent-replayed")
        .is_some_and(|v| v == "true");
    let body = response
        .json::<Value>()
        .await
        .map_err(|e| format!("unreadable answer: {e}"))?;
    Ok((status, body, replayed))
}

async fn create(http: &reqwest::Client, base: &str, seed: u64) -> Game {
    let body = json!({ "ruleset": RULESET, "seats": SEATS, "seed": seed });
    let (status, created, _) = send(http.post(format!("{base}/v1/games")).json(&body))
        .await
        .expect("create answers");
    assert_eq!(status, 201, "create: {created}");
    let id = created["id"].as_str().expect("an id").to_owned();
    let tokens = (0..SEATS)
        .map(|seat| {
            created["seats"][seat]["token"]
                .as_str()
                .expect("a token per seat")
                .to_owned()
        })
        .collect();
    let (status, state, _) = send(http.get(format!("{base}/v1/games/{id}")))
        .await
        .expect("get answers");
    assert_eq!(status, 200, "get: {state}");
    Game {
        id,
        seed,
        tokens,
        version: created["version"].as_u64().expect("a version"),
        to_act: serde_json::from_value(state["to_act"].clone()).expect("to_act is a list of seats"),
        finished: false,
        accepted: Vec::new(),
        rng: ChaCha8Rng::seed_from_u64(seed),
    }
}

/// Picks a seat to act and one of its legal actions, asking `base`.
async fn next_move(http: &reqwest::Client, base: &str, game: &mut Game) -> Move {
    assert!(
        !game.to_act.is_empty(),
        "game {} is active with nobody to act",
        game.id
    );
    let seat = game.to_act[game.rng.random_range(0..game.to_act.len())];
    let (status, list, _) = send(
        http.get(format!("{base}/v1/games/{}/actions", game.id))
            .bearer_auth(&game.tokens[seat]),
    )
    .await
    .expect("actions answer");
    assert_eq!(status, 200, "actions of seat {seat} in {}: {list}", game.id);
    assert_eq!(
        list["version"].as_u64(),
        Some(game.version),
        "actions listed at another version"
    );
    let actions = list["actions"].as_array().expect("a list of actions");
    assert!(
        !actions.is_empty(),
        "seat {seat} is to act in {} with no legal action",
        game.id
    );
    let action = actions[game.rng.random_range(0..actions.len())].clone();
    Move {
        seat,
        action,
        key: format!("{}-{}", game.id, game.accepted.len()),
    }
}

async fn post(
    http: &reqwest::Client,
    base: &str,
    game: &Game,
    m: &Move,
) -> Result<(u16, Value, bool), String> {
    send(
        http.post(format!("{base}/v1/games/{}/actions", game.id))
            .bearer_auth(&game.tokens[m.seat])
            .header("Idempotency-Key", &m.key)
            .json(&json!({ "action": m.action })),
    )
    .await
}

/// Records an accepted post: the version must have moved by exactly one.
fn accept(game: &mut Game, m: Move, status: u16, body: &Value) {
    assert_eq!(
        status, 200,
        "game {}: seat {}'s listed action {} refused: {body}",
        game.id, m.seat, m.action
    );
    let version = body["version"].as_u64().expect("a version");
    assert_eq!(
        version,
        game.version + 1,
        "game {}: an accepted post moved the version from {} to {version}",
        game.id,
        game.version
    );
    game.version = version;
    game.to_act = serde_json::from_value(body["to_act"].clone()).expect("to_act");
    game.finished = body["status"] == "finished";
    game.accepted.push((m.seat, m.action));
}

async fn step(http: &reqwest::Client, base: &str, game: &mut Game) {
    let m = next_move(http, base, game).await;
    let (status, body, _) = post(http, base, game, &m)
        .await
        .unwrap_or_else(|e| panic!("game {}: post to {base}: {e}", game.id));
    accept(game, m, status, &body);
}

/// The whole event log of a finished game (every event public), in order.
async fn event_log(http: &reqwest::Client, base: &str, game: &Game) -> Vec<Value> {
    let mut events = Vec::new();
    loop {
        let url = format!("{base}/v1/games/{}/events?after={}", game.id, events.len());
        let (status, page, _) = send(http.get(url)).await.expect("events answer");
        assert_eq!(status, 200, "events of {}: {page}", game.id);
        let batch = page["events"].as_array().cloned().unwrap_or_default();
        if batch.is_empty() {
            return events;
        }
        events.extend(batch);
    }
}

/// Replays the accepted actions locally and checks the server's version, log and outcome.
async fn check_against_replay(http: &reqwest::Client, base: &str, game: &Game) {
    let (mut local, setup_events) = AnyGame::setup(RULESET, None, SEATS, game.seed).expect("the same setup");
    let mut expected: Vec<Value> = setup_events
        .iter()
        .map(|e| json!({ "audience": e.audience, "body": e.body }))
        .collect();
    for (seat, action) in &game.accepted {
        let events = local
            .apply(roadie_engine::Seat::new(*seat), &action.to_string())
            .unwrap_or_else(|r| panic!("game {}: the replay refuses {action}: {r}", game.id));
        expected.extend(
            events
                .iter()
                .map(|e| json!({ "audience": e.audience, "body": e.body })),
        );
    }
    assert!(
        local.is_over(),
        "game {}: the replay of the accepted actions is not over",
        game.id
    );

    let (status, state, _) = send(http.get(format!("{base}/v1/games/{}", game.id)))
        .await
        .expect("get");
    assert_eq!(status, 200);
    assert_eq!(state["status"], "finished", "game {}", game.id);
    assert_eq!(
        state["version"].as_u64(),
        Some(1 + game.accepted.len() as u64),
        "game {}: the version does not count the accepted posts",
        game.id
    );
    assert_eq!(
        state["outcome"],
        json!(local.outcome()),
        "game {}: outcome differs from the replay",
        game.id
    );

    let log = event_log(http, base, game).await;
    let seqs: Vec<u64> = log.iter().filter_map(|e| e["seq"].as_u64()).collect();
    let contiguous: Vec<u64> = (1..=log.len() as u64).collect();
    assert_eq!(
        seqs, contiguous,
        "game {}: event sequence numbers have gaps or repeats",
        game.id
    );
    let served: Vec<Value> = log
        .iter()
        .map(|e| json!({ "audience": e["audience"], "body": e["body"] }))
        .collect();
    assert_eq!(
        served.len(),
        expected.len(),
        "game {}: the log holds {} events, the replay of {} accepted actions gives {}",
        game.id,
        served.len(),
        game.accepted.len(),
        expected.len()
    );
    assert!(
        served == expected,
        "game {}: the event log differs from the replay",
        game.id
    );
}

#[test]
fn two_processes_on_redis_cluster_lose_no_action_when_one_is_killed() {
    let (_nodes, cluster) = redis_cluster(&scratch("failover"));
    let a = Roadie::start("failover_a", None, &[("ROADIE_REDIS_URL", &cluster)]);
    let b = Roadie::start("failover_b", None, &[("ROADIE_REDIS_URL", &cluster)]);
    let (url_a, url_b) = (a.base.clone(), b.base.clone());

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .expect("an HTTP client");
        for (proc, url) in [(&a, &url_a), (&b, &url_b)] {
            let until = Instant::now() + Duration::from_secs(30);
            loop {
                match http.get(format!("{url}/readyz")).send().await {
                    Ok(r) if r.status().is_success() => break,
                    _ if Instant::now() < until => tokio::time::sleep(Duration::from_millis(100)).await,
                    _ => panic!("{url} never became ready:\n{}", proc.log_text()),
                }
            }
        }

        let mut games = Vec::new();
        for i in 0..GAMES {
            games.push(create(&http, &url_a, 1_000 + i as u64).await);
        }

        // Both processes serve every game, turn about: a token signed by one opens the other.
        for round in 0..STEPS_BEFORE_KILL {
            for (i, game) in games.iter_mut().enumerate() {
                if !game.finished {
                    let base = if (round + i) % 2 == 0 { &url_a } else { &url_b };
                    step(&http, base, game).await;
                }
            }
        }

        // One post per game in flight to B, and B killed under them. Whatever B did, the
        // same post with the same Idempotency-Key through A is applied exactly once.
        let mut moves = Vec::new();
        for game in games.iter_mut().filter(|g| !g.finished) {
            let m = next_move(&http, &url_b, game).await;
            moves.push((game.id.clone(), m));
        }
        let (done_tx, mut done_rx) = tokio::sync::mpsc::unbounded_channel();
        let in_flight: Vec<_> = moves
            .iter()
            .map(|(id, m)| {
                let game = games.iter().find(|g| &g.id == id).expect("the game");
                let req = http
                    .post(format!("{url_b}/v1/games/{id}/actions"))
                    .bearer_auth(&game.tokens[m.seat])
                    .header("Idempotency-Key", &m.key)
                    .json(&json!({ "action": m.action }));
                let done = done_tx.clone();
                tokio::spawn(async move {
                    let answer = send(req).await.ok();
                    let _ = done.send(());
                    answer
                })
            })
            .collect();
        // Killed as soon as B has answered one of them: the others are in flight.
        let _ = tokio::time::timeout(Duration::from_secs(5), done_rx.recv()).await;
        b.kill();
        let (mut answered_by_b, mut replayed_by_a) = (0, 0);
        for ((id, m), task) in moves.into_iter().zip(in_flight) {
            let game = games.iter_mut().find(|g| g.id == id).expect("the game");
            let (status, body) = match task.await.ok().flatten() {
                Some((status, body, _)) => {
                    answered_by_b += 1;
                    (status, body)
                }
                None => {
                    let (status, body, replayed) = post(&http, &url_a, game, &m)
                        .await
                        .unwrap_or_else(|e| panic!("game {id}: the retry through A: {e}"));
                    replayed_by_a += usize::from(replayed);
                    (status, body)
                }
            };
            accept(game, m, status, &body);
        }
        eprintln!(
            "posts in flight at the kill: {answered_by_b} answered by B; of those retried through A, \
             {replayed_by_a} had been applied by B (replayed), the rest were applied by A"
        );

        // A alone finishes every game.
        for game in games.iter_mut() {
            while !game.finished {
                assert!(
                    game.accepted.len() < MAX_ACTIONS,
                    "game {} never finishes",
                    game.id
                );
                step(&http, &url_a, game).await;
            }
        }
        for game in &games {
            check_against_replay(&http, &url_a, game).await;
        }
    });
    drop(a);
}
