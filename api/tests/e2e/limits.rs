//! One client cannot stop the others: slow bodies are cut off, connections per address and
//! requests per token are bounded, creation is rate-limited across processes, and a nearly full
//! store refuses new games while running games play on.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{Redis, Roadie};

const SLUG: &str = "shrewd-producer";

/// What became of one slow connection.
#[derive(Debug, PartialEq, Eq)]
enum Fate {
    /// It was answered with this status, this long after its headers were sent.
    Answered(u16, Duration),
    /// It was closed without an answer.
    Closed(Duration),
    /// It was still open when the client gave up.
    StillOpen,
}

/// Sends headers announcing a 60,000-byte body from `source`, then one byte a second.
async fn trickle(source: &str, server: SocketAddr, give_up: Duration) -> Fate {
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket
        .bind(format!("{source}:0").parse().expect("an address"))
        .expect("bind the source address");
    let Ok(mut stream) = socket.connect(server).await else {
        return Fate::Closed(Duration::ZERO);
    };
    let head = "POST /v1/games HTTP/1.1\r\nHost: roadie\r\nContent-Type: application/json\r\n\
                Content-Length: 60000\r\n\r\n{";
    if stream.write_all(head.as_bytes()).await.is_err() {
        return Fate::Closed(Duration::ZERO);
    }
    let start = Instant::now();
    let mut buf = [0u8; 1024];
    while start.elapsed() < give_up {
        match tokio::time::timeout(Duration::from_secs(1), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return Fate::Closed(start.elapsed()),
            Ok(Ok(n)) => {
                let text = String::from_utf8_lossy(&buf[..n]);
                let status = text
                    .split_whitespace()
                    .nth(1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                return Fate::Answered(status, start.elapsed());
            }
            Err(_) => {
                if stream.write_all(b" ").await.is_err() {
                    return Fate::Closed(start.elapsed());
                }
            }
        }
    }
    Fate::StillOpen
}

#[test]
fn slow_bodies_are_cut_off_while_another_client_plays_on() {
    let redis = Redis::start();
    let roadie = Roadie::start(
        "slow_bodies",
        Some(&redis),
        &[
            ("ROADIE_BODY_TIMEOUT_MS", "2000"),
            ("ROADIE_MAX_CONNECTIONS_PER_ADDRESS", "100"),
        ],
    );
    let server: SocketAddr = roadie
        .base
        .trim_start_matches("http://")
        .parse()
        .expect("the server's address");
    let game = roadie.create(SLUG, 3, Some(5));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    // 300 slow clients from 127.0.0.2 (the loopback network is all ours), the player from
    // 127.0.0.1.
    let slow = runtime.spawn(async move {
        let clients: Vec<_> = (0..300)
            .map(|_| tokio::spawn(trickle("127.0.0.2", server, Duration::from_secs(12))))
            .collect();
        let mut fates = Vec::new();
        for client in clients {
            fates.push(client.await.expect("a slow client"));
        }
        fates
    });
    std::thread::sleep(Duration::from_millis(500));
    let player = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .expect("a client");
    for _ in 0..20 {
        let state = crate::support::send(player.get(roadie.url(&format!("/v1/games/{}", game.id))));
        assert_eq!(state.status, 200, "{}", state.body);
        let Some(seat) = state.json["to_act"][0].as_u64().map(|s| s as usize) else {
            break;
        };
        let actions = roadie.actions(&game, seat);
        let reply = crate::support::send(
            player
                .post(roadie.url(&format!("/v1/games/{}/actions", game.id)))
                .bearer_auth(&game.tokens[seat])
                .json(&json!({ "action": actions[0] })),
        );
        assert_eq!(reply.status, 200, "the player was held up: {}", reply.body);
        let fresh = crate::support::send(
            player
                .post(roadie.url("/v1/games"))
                .json(&json!({"ruleset": SLUG, "seats": 3})),
        );
        assert_eq!(fresh.status, 201, "creation was held up: {}", fresh.body);
    }
    let fates = runtime.block_on(slow).expect("the slow clients");
    let timed_out = fates
        .iter()
        .filter(|f| matches!(f, Fate::Answered(408, t) if *t < Duration::from_secs(6)))
        .count();
    let refused = fates
        .iter()
        .filter(|f| matches!(f, Fate::Answered(429, t) if *t < Duration::from_secs(2)))
        .count();
    assert!(
        !fates.contains(&Fate::StillOpen),
        "slow bodies still held their connections: {fates:?}"
    );
    assert!(timed_out >= 50, "{timed_out} of 300 got 408 in time: {fates:?}");
    assert!(refused >= 100, "{refused} of 300 got 429 at once: {fates:?}");
    let metrics = roadie.get("/metrics", None).body;
    assert!(
        metrics
            .lines()
            .any(|l| l.starts_with("roadie_body_timeouts_total ") && !l.ends_with(" 0")),
        "{metrics}"
    );
}

#[test]
fn creation_is_rate_limited_per_address_across_processes_and_requests_per_token() {
    let redis = Redis::start();
    let limited = [
        ("ROADIE_CREATE_RATE", "0.2"),
        ("ROADIE_CREATE_BURST", "4"),
        ("ROADIE_TOKEN_RATE", "1"),
        ("ROADIE_TOKEN_BURST", "5"),
    ];
    let a = Roadie::start("create_rate_a", Some(&redis), &limited);
    let b = Roadie::start("create_rate_b", Some(&redis), &limited);
    let body = json!({"ruleset": SLUG, "seats": 3});
    let game = a.create(SLUG, 3, None);
    for server in [&b, &a, &b] {
        let created = server.post("/v1/games", None, &body);
        assert_eq!(created.status, 201, "{}", created.body);
    }
    for server in [&a, &b] {
        let refused = server.request(
            server
                .http
                .post(server.url("/v1/games"))
                .header("X-Forwarded-For", "203.0.113.9")
                .json(&body),
        );
        refused.assert_problem(429, "rate_limited");
        let wait: u64 = refused
            .header("retry-after")
            .and_then(|v| v.parse().ok())
            .expect("Retry-After in seconds");
        assert!((1..=6).contains(&wait), "Retry-After {wait}");
    }

    let path = format!("/v1/games/{}", game.id);
    for _ in 0..5 {
        let seen = a.get(&path, Some(&game.tokens[0]));
        assert_eq!(seen.status, 200, "{}", seen.body);
    }
    let too_fast = a.get(&path, Some(&game.tokens[0]));
    too_fast.assert_problem(429, "rate_limited");
    assert!(too_fast.header("retry-after").is_some());
    assert_eq!(
        a.get(&path, Some(&game.tokens[1])).status,
        200,
        "another seat has its own budget"
    );
    assert_eq!(
        a.get(&path, None).status,
        200,
        "spectators are not held to a token's budget"
    );
}

#[test]
fn a_nearly_full_store_refuses_new_games_while_running_games_play_on() {
    let redis = Redis::start_with(&[
        "--maxmemory".into(),
        "3mb".into(),
        "--maxmemory-policy".into(),
        "noeviction".into(),
    ]);
    let roadie = Roadie::start("store_full", Some(&redis), &[]);
    let running = roadie.create(SLUG, 4, Some(1));
    let mut created = 0;
    let full = loop {
        assert!(created < 2_000, "the store never filled");
        let reply = roadie.post("/v1/games", None, &json!({"ruleset": SLUG, "seats": 4}));
        match reply.status {
            201 => created += 1,
            _ => break reply,
        }
        std::thread::sleep(Duration::from_millis(25));
    };
    full.assert_problem(503, "store_full");
    assert!(full.header("retry-after").is_some());
    let ready = roadie.get("/readyz", None);
    assert_eq!(ready.status, 200, "{}", ready.body);
    assert_eq!(ready.json["creating"], false, "{}", ready.body);
    assert_eq!(ready.json["store_memory"]["max_bytes"], 3 * 1024 * 1024);
    let metrics = roadie.get("/metrics", None).body;
    assert!(
        metrics.contains("roadie_store_max_memory_bytes 3145728"),
        "{metrics}"
    );
    // The running game plays to its end.
    let mut steps = 0;
    loop {
        let state = roadie.game(&running, None);
        assert_eq!(state.status, 200, "{}", state.body);
        let Some(seat) = state.json["to_act"][0].as_u64().map(|s| s as usize) else {
            break;
        };
        let actions = roadie.actions(&running, seat);
        let reply = roadie.act(&running, seat, &actions[0]);
        assert_eq!(
            reply.status, 200,
            "step {steps} after {created} games: {}",
            reply.body
        );
        steps += 1;
    }
    assert!(steps > 20, "the game ended after {steps} steps");
    assert_eq!(roadie.game(&running, None).json["status"], "finished");
}

/// What one creator of a burst did: the games it created (id, host token), and the answer
/// that stopped it.
type Creator = (Vec<(String, String)>, crate::support::Reply);

/// `creators` clients creating games at once, each until it is refused.
fn burst(roadie: &Roadie, creators: usize) -> Vec<Creator> {
    std::thread::scope(|scope| {
        let running: Vec<_> = (0..creators)
            .map(|_| {
                scope.spawn(|| {
                    let mut created = Vec::new();
                    loop {
                        assert!(created.len() < 500, "the store never filled");
                        let reply = roadie.post(
                            "/v1/games",
                            None,
                            &json!({"ruleset": "show-business", "seats": 5}),
                        );
                        if reply.status != 201 {
                            return (created, reply);
                        }
                        let id = reply.json["id"].as_str().expect("an id").to_owned();
                        let host = reply.json["host_token"]
                            .as_str()
                            .expect("a host token")
                            .to_owned();
                        created.push((id, host));
                    }
                })
            })
            .collect();
        running
            .into_iter()
            .map(|creator| creator.join().expect("a creator"))
            .collect()
    })
}

#[test]
fn a_burst_of_creators_stops_at_the_limit_and_running_games_play_on() {
    const CREATORS: usize = 32;
    let redis = Redis::start_with(&[
        "--maxmemory".into(),
        "2mb".into(),
        "--maxmemory-policy".into(),
        "noeviction".into(),
    ]);
    // The harness turns the creation limit off.
    let roadie = Roadie::start("creation_burst", Some(&redis), &[]);
    // Memory is read four times a second: whether a burst outruns a reading depends on when it
    // starts, so there are a few, with the games of each deleted before the next.
    for round in 0..3 {
        let started = Instant::now();
        while roadie.get("/readyz", None).json["creating"] != true {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the store never emptied"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let running = roadie.create(SLUG, 4, Some(round));
        let creators = burst(&roadie, CREATORS);
        let created: usize = creators.iter().map(|(games, _)| games.len()).sum();
        for (_, refused) in &creators {
            refused.assert_problem(503, "store_full");
        }
        // The running game plays on in the room kept for it.
        for step in 0..10 {
            let state = roadie.game(&running, None);
            assert_eq!(state.status, 200, "{}", state.body);
            let seat = state.json["to_act"][0].as_u64().expect("a seat to act") as usize;
            let actions = roadie.actions(&running, seat);
            let reply = roadie.act(&running, seat, &actions[0]);
            assert_eq!(
                reply.status, 200,
                "round {round}, step {step} after a burst of {created} games: {}",
                reply.body
            );
        }
        for (id, host) in creators
            .iter()
            .flat_map(|(games, _)| games)
            .chain([&(running.id.clone(), running.host_token.clone())])
        {
            let deleted = roadie.request(
                roadie
                    .http
                    .delete(roadie.url(&format!("/v1/games/{id}")))
                    .bearer_auth(host),
            );
            assert_eq!(deleted.status, 204, "{}", deleted.body);
        }
    }
}

#[test]
fn a_write_redis_refuses_for_memory_is_answered_as_not_applied() {
    let redis = Redis::start_with(&["--maxmemory-policy".into(), "noeviction".into()]);
    let roadie = Roadie::start("store_oom", Some(&redis), &[]);
    let game = roadie.create(SLUG, 4, Some(3));
    let seat = roadie.game(&game, None).json["to_act"][0]
        .as_u64()
        .expect("a seat to act") as usize;
    let action = roadie.actions(&game, seat)[0].clone();
    // Full: Redis answers every write with `OOM`, and applies none.
    redis.cli(&["CONFIG", "SET", "maxmemory", "1"]);
    let refused = roadie.act(&game, seat, &action);
    refused.assert_problem(503, "store_full");
    assert!(
        refused.json["detail"]
            .as_str()
            .is_some_and(|d| d.contains("nothing was changed"))
    );
    let read = roadie.game(&game, None);
    assert_eq!(read.json["version"], 1, "{}", read.body);
    roadie
        .post("/v1/games", None, &json!({"ruleset": SLUG, "seats": 4}))
        .assert_problem(503, "store_full");
    // Room again: the same post is applied, once.
    redis.cli(&["CONFIG", "SET", "maxmemory", "0"]);
    let applied = roadie.act(&game, seat, &action);
    assert_eq!(applied.status, 200, "{}", applied.body);
    assert_eq!(applied.json["version"], 2, "{}", applied.body);
}
