//! Self-repair through the real binary on a real Redis: while the indexes of bot turns and of
//! clocks are deleted again and again under play, the reconciler puts every game's entry back,
//! and each game moves on within its period and a second after the last deletion.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Redis, Roadie, due_keys};

fn metric(roadie: &Roadie, line_start: &str) -> f64 {
    let text = roadie.get("/metrics", None).body;
    text.lines()
        .find_map(|line| {
            line.strip_prefix(line_start)?
                .strip_prefix(' ')?
                .trim()
                .parse()
                .ok()
        })
        .unwrap_or(0.0)
}

fn version(roadie: &Roadie, id: &str) -> (u64, bool) {
    let state = roadie.get(&format!("/v1/games/{id}"), None).json;
    (
        state["version"].as_u64().unwrap_or_default(),
        state["status"] != "active",
    )
}

#[test]
fn lost_bot_turn_and_clock_entries_are_put_back_and_every_game_moves_on() {
    let redis = Redis::start();
    let period = Duration::from_millis(1_000);
    let roadie = Roadie::start(
        "repairs",
        Some(&redis),
        &[
            ("ROADIE_REPAIR_EVERY_MS", "1000"),
            ("ROADIE_BOT_EXPERT_MS", "10"),
            ("ROADIE_BOT_EXPERT_ITERATIONS", "50"),
        ],
    );
    let create = |body: Value| {
        let reply = roadie.post("/v1/games", None, &body);
        assert_eq!(reply.status, 201, "{}", reply.body);
        reply.json["id"].as_str().expect("id").to_owned()
    };
    // Experts alone play on through bot turns; a seat nobody plays, through its clock.
    let mut games: Vec<String> = (0..8)
        .map(|_| create(json!({"ruleset": "shrewd-producer", "seats": [{"bot": "expert"}, {"bot": "expert"}, {"bot": "greedy"}]})))
        .collect();
    games.extend((0..6).map(|_| {
        create(json!({"ruleset": "rock-the-world", "seats": 2, "clock": {"per_decision_secs": 1, "bank_secs": 0}}))
    }));

    let losing = Instant::now();
    // Every shard's keys, in one DEL (a single Redis takes keys of any slots).
    let lost: Vec<String> = [
        due_keys("bots", ":due"),
        due_keys("bots", ":filed"),
        due_keys("clocks", ""),
    ]
    .concat();
    let del: Vec<&str> = std::iter::once("DEL")
        .chain(lost.iter().map(String::as_str))
        .collect();
    let lose = || {
        redis.cli(&del);
    };
    while losing.elapsed() < Duration::from_secs(6) {
        lose();
        std::thread::sleep(Duration::from_millis(150));
    }
    lose();
    let lost_at = Instant::now();
    // The bound of the issue, plus what a busy two-core machine may add to one bot's move.
    every_game_moves_on(&roadie, &games, lost_at, period, Duration::from_secs(2));
    assert!(metric(&roadie, "roadie_repairs_total{kind=\"bot_turn\"}") >= 1.0);
    assert!(metric(&roadie, "roadie_repairs_total{kind=\"clock\"}") >= 1.0);
    assert!(
        roadie
            .log_text()
            .contains("a game lacked a due entry; it was put back")
    );

    // The experts' games end, and the reconciler then stops tracking them.
    let end = Instant::now() + Duration::from_secs(120);
    for id in &games[..8] {
        while !version(&roadie, id).1 {
            assert!(Instant::now() < end, "game {id} did not end");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let tracked = || -> u64 {
        (0..16)
            .map(|shard| {
                redis
                    .cli(&["SCARD", &format!("roadie:{{active:{shard:02}}}")])
                    .parse::<u64>()
                    .unwrap_or(0)
            })
            .sum()
    };
    let untracking = Instant::now() + Duration::from_secs(10);
    while tracked() > 6 {
        assert!(
            Instant::now() < untracking,
            "finished games stay tracked: {}",
            tracked()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A version of every game, and whether it ended, until each active game moved on; fails unless
/// all did within `period` and a second of `lost_at` (and `slack` for a busy machine).
fn every_game_moves_on(
    roadie: &Roadie,
    games: &[String],
    lost_at: Instant,
    period: Duration,
    slack: Duration,
) {
    let before: Vec<(u64, bool)> = games.iter().map(|id| version(roadie, id)).collect();
    let deadline = lost_at + period + Duration::from_secs(1) + slack;
    let mut waiting: Vec<usize> = (0..games.len()).filter(|&i| !before[i].1).collect();
    while !waiting.is_empty() {
        waiting.retain(|&i| version(roadie, &games[i]).0 == before[i].0);
        if waiting.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{} games did not move within the period and a second of the last loss: {:?}",
            waiting.len(),
            waiting.iter().map(|&i| &games[i]).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!("every game moved on {:?} after the last loss", lost_at.elapsed());
}

/// A Redis Cluster failover under play, on three masters with a replica each: the replica of the
/// master that holds the most entries of the indexes of bot turns and clocks takes its slots over
/// (`CLUSTER FAILOVER TAKEOVER`) and the old master is SIGKILLed, so `roadie` must follow the new
/// topology. A manual takeover of a replica in sync loses no write by itself, and a lag large
/// enough to lose some cannot be made to order on loopback, so the test then deletes on the new
/// master, again and again for three seconds, every due key of the slots it took over: what a
/// failover that dropped the index's last writes would have lost. Every game must still move on
/// within the reconciler's period and a second of the last deletion, and play on to its end.
#[test]
fn entries_lost_in_a_cluster_failover_are_put_back_and_every_game_moves_on() {
    let (mut nodes, url) = crate::cluster::cluster_of(&crate::support::scratch("repairs_failover"), 1);
    let period = Duration::from_millis(1_000);
    let roadie = Roadie::start(
        "repairs_failover",
        None,
        &[
            ("ROADIE_REDIS_URL", &url),
            ("ROADIE_REPAIR_EVERY_MS", "1000"),
            ("ROADIE_BOT_EXPERT_MS", "10"),
            ("ROADIE_BOT_EXPERT_ITERATIONS", "50"),
        ],
    );
    let create = |body: Value| {
        let reply = roadie.post("/v1/games", None, &body);
        assert_eq!(reply.status, 201, "{}", reply.body);
        reply.json["id"].as_str().expect("id").to_owned()
    };
    let mut games: Vec<String> = (0..16)
        .map(|_| create(json!({"ruleset": "shrewd-producer", "seats": [{"bot": "expert"}, {"bot": "expert"}, {"bot": "greedy"}]})))
        .collect();
    games.extend((0..12).map(|_| {
        create(json!({"ruleset": "rock-the-world", "seats": 2, "clock": {"per_decision_secs": 1, "bank_secs": 0}}))
    }));
    std::thread::sleep(Duration::from_secs(2));

    // The master holding the most due entries, and its replica.
    let owners = crate::cluster::slot_owners(&nodes[0]);
    let due: Vec<String> = [
        due_keys("bots", ":due"),
        due_keys("bots", ":filed"),
        due_keys("clocks", ""),
    ]
    .concat();
    let port_of = |key: &str| crate::cluster::node_of(&nodes[0], &owners, key);
    let index_of = |port: u16| nodes.iter().position(|n| n.port == port).expect("a node");
    let mut entries = vec![0u64; nodes.len()];
    for key in due.iter().filter(|k| !k.ends_with(":filed")) {
        let i = index_of(port_of(key));
        entries[i] += nodes[i].cli(&["ZCARD", key]).parse::<u64>().expect("a count");
    }
    let master = (0..nodes.len()).max_by_key(|&i| entries[i]).expect("a master");
    let master_id = nodes[master].cli(&["CLUSTER", "MYID"]);
    let replica = (0..nodes.len())
        .find(|&i| {
            nodes[i]
                .cli(&["CLUSTER", "NODES"])
                .lines()
                .any(|l| l.contains("myself,slave") && l.contains(&master_id))
        })
        .expect("the master's replica");
    let taken_over: Vec<&String> = due.iter().filter(|k| port_of(k) == nodes[master].port).collect();
    eprintln!(
        "due entries per node {entries:?}: node {master} (port {}) fails over to node {replica} (port {}), {} due keys with it",
        nodes[master].port,
        nodes[replica].port,
        taken_over.len()
    );

    let losing = Instant::now();
    assert_eq!(nodes[replica].cli(&["CLUSTER", "FAILOVER", "TAKEOVER"]), "OK");
    while !nodes[replica].cli(&["ROLE"]).starts_with("master") {
        assert!(
            losing.elapsed() < Duration::from_secs(10),
            "the replica did not take over"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    nodes[master].stop();
    let new_master = &nodes[replica];
    let lose = || {
        for key in &taken_over {
            new_master.cli(&["DEL", key]);
        }
    };
    while losing.elapsed() < Duration::from_secs(3) {
        lose();
        std::thread::sleep(Duration::from_millis(150));
    }
    lose();
    let lost_at = Instant::now();
    // The bound of the issue, plus what a busy two-core machine may add to one bot's move.
    every_game_moves_on(&roadie, &games, lost_at, period, Duration::from_secs(2));
    let repaired = metric(&roadie, "roadie_repairs_total{kind=\"bot_turn\"}")
        + metric(&roadie, "roadie_repairs_total{kind=\"clock\"}");
    assert!(repaired >= 1.0, "nothing was repaired");
    eprintln!("{repaired} entries put back");

    // The experts' games play on to their end on the new topology.
    let end = Instant::now() + Duration::from_secs(120);
    for id in &games[..16] {
        while !version(&roadie, id).1 {
            assert!(Instant::now() < end, "game {id} did not end");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}
