//! The same code path on a three-node Redis Cluster (`redis+cluster://`).

use std::process::Command;
use std::time::{Duration, Instant};

use crate::play::{Checks, Table};
use crate::support::{Redis, Roadie, due_keys, ensure_installed, rulesets, scratch};

fn cluster_node(dir: &std::path::Path, i: usize) -> Redis {
    Redis::start_with(&[
        "--cluster-enabled".into(),
        "yes".into(),
        "--cluster-config-file".into(),
        dir.join(format!("nodes-{i}.conf")).display().to_string(),
        "--cluster-node-timeout".into(),
        "5000".into(),
        "--dir".into(),
        dir.display().to_string(),
    ])
}

/// Three masters on loopback, slots spread by `redis-cli --cluster create`: the nodes and the
/// `redis+cluster://` URL naming them.
pub fn redis_cluster(dir: &std::path::Path) -> (Vec<Redis>, String) {
    cluster_of(dir, 0)
}

/// Three masters and `replicas` replicas of each (the masters first among the nodes), slots
/// spread by `redis-cli --cluster create`, every replica in sync: the nodes and the
/// `redis+cluster://` URL naming them all.
pub fn cluster_of(dir: &std::path::Path, replicas: usize) -> (Vec<Redis>, String) {
    ensure_installed("/usr/bin/redis-cli", "redis-tools");
    let nodes: Vec<Redis> = (0..3 * (1 + replicas)).map(|i| cluster_node(dir, i)).collect();
    let addresses: Vec<String> = nodes.iter().map(|n| format!("127.0.0.1:{}", n.port)).collect();
    let created = Command::new("redis-cli")
        .args(["--cluster", "create"])
        .args(&addresses)
        .args(["--cluster-replicas", &replicas.to_string(), "--cluster-yes"])
        .output()
        .expect("redis-cli --cluster create");
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stdout)
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    for node in &nodes {
        loop {
            let info = Command::new("redis-cli")
                .args(["-p", &node.port.to_string(), "cluster", "info"])
                .output()
                .expect("cluster info");
            if String::from_utf8_lossy(&info.stdout).contains("cluster_state:ok") {
                break;
            }
            assert!(Instant::now() < deadline, "the cluster did not come up");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    for node in &nodes {
        loop {
            let info = node.cli(&["INFO", "replication"]);
            if info.contains("role:master") || info.contains("master_link_status:up") {
                break;
            }
            assert!(Instant::now() < deadline, "a replica did not sync: {info}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    (nodes, format!("redis+cluster://{}", addresses.join(",")))
}

#[test]
fn games_play_the_same_on_a_three_node_redis_cluster() {
    let (_nodes, url) = redis_cluster(&scratch("cluster"));
    let roadie = Roadie::start("cluster_roadie", None, &[("ROADIE_REDIS_URL", &url)]);
    assert_eq!(roadie.get("/readyz", None).json["store"], "redis");
    for (i, (slug, min, _)) in rulesets(&roadie).into_iter().enumerate() {
        // Several games, so their ids hash to slots on different nodes; one played to the end.
        for seed in 0..3 {
            let mut table = Table::new(&roadie, &slug, min, 600 + seed + i as u64);
            if seed == 0 && i == 0 {
                table.play_to_end(Checks::Acting);
                table.check_finished();
            } else {
                for _ in 0..10 {
                    table.step(Checks::Acting);
                }
            }
        }
    }
}

/// Which node (by port) serves each slot, from `CLUSTER NODES`.
pub fn slot_owners(node: &Redis) -> Vec<(u16, u16, u16)> {
    let mut owners = Vec::new();
    for line in node.cli(&["CLUSTER", "NODES"]).lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 9 || !fields[2].contains("master") {
            continue;
        }
        let port: u16 = fields[1]
            .split(['@', ':'])
            .nth(1)
            .and_then(|p| p.parse().ok())
            .expect("a node's port");
        for range in &fields[8..] {
            let (from, to) = range.split_once('-').unwrap_or((range, range));
            if let (Ok(from), Ok(to)) = (from.parse(), to.parse()) {
                owners.push((from, to, port));
            }
        }
    }
    owners
}

/// The port of the node serving `key`.
pub fn node_of(node: &Redis, owners: &[(u16, u16, u16)], key: &str) -> u16 {
    let slot: u16 = node.cli(&["CLUSTER", "KEYSLOT", key]).parse().expect("a slot");
    owners
        .iter()
        .find(|(from, to, _)| (*from..=*to).contains(&slot))
        .map(|(_, _, port)| *port)
        .expect("every slot is served")
}

#[test]
fn the_shards_of_due_work_and_clocks_spread_over_the_clusters_nodes() {
    let (nodes, url) = redis_cluster(&scratch("cluster_shards"));
    // One slow worker: the experts' turns wait in their shards long enough to be counted. The
    // webhooks go to a port nothing listens on, so their games stay due, backing off.
    let roadie = Roadie::start(
        "cluster_shards_roadie",
        None,
        &[
            ("ROADIE_REDIS_URL", &url),
            ("ROADIE_BOT_WORKERS", "1"),
            ("ROADIE_BOT_EXPERT_MS", "2000"),
            ("ROADIE_WEBHOOK_HOSTS", "127.0.0.1:9"),
        ],
    );
    let create = |body: serde_json::Value| {
        let reply = roadie.post("/v1/games", None, &body);
        assert_eq!(reply.status, 201, "{}", reply.body);
    };
    for _ in 0..24 {
        create(
            serde_json::json!({"ruleset": "shrewd-producer", "seats": [{"bot": "expert"}, {"bot": "expert"}, {"bot": "greedy"}]}),
        );
        create(serde_json::json!({"ruleset": "rock-the-world", "seats": 2,
            "clock": {"per_decision_secs": 600, "bank_secs": 0},
            "webhook": {"url": "http://127.0.0.1:9/hook"}}));
    }
    // One ticket waiting alone in each queue (a ruleset and a number of seats).
    for (slug, min, max) in rulesets(&roadie) {
        for seats in min..=max {
            let body = serde_json::json!({"ruleset": slug, "seats": seats, "name": "alone"});
            let reply = roadie.post("/v1/tickets", None, &body);
            assert_eq!(reply.status, 201, "{}", reply.body);
        }
    }
    let owners = slot_owners(&nodes[0]);
    let ports: Vec<u16> = nodes.iter().map(|n| n.port).collect();
    let per_node = |counts: &dyn Fn(&Redis, &str) -> u64, keys: &[String]| -> Vec<u64> {
        let mut per = vec![0u64; nodes.len()];
        for key in keys {
            let port = node_of(&nodes[0], &owners, key);
            let i = ports
                .iter()
                .position(|p| *p == port)
                .expect("a node of the cluster");
            per[i] += counts(&nodes[i], key);
        }
        per
    };
    let one = |_: &Redis, _: &str| 1;
    let entries = |node: &Redis, key: &str| node.cli(&["ZCARD", key]).parse::<u64>().expect("a count");
    for (kind, suffix, old) in [
        ("bots", ":due", "roadie:{bots}:due"),
        ("archive", ":due", "roadie:{archive}:due"),
        ("clocks", "", "roadie:clocks"),
        ("mm", ":due", "roadie:{mm}:due"),
        ("webhooks", ":due", "roadie:{webhooks}:due"),
    ] {
        let keys = due_keys(kind, suffix);
        let shards = per_node(&one, &keys);
        let filed = per_node(&entries, &keys);
        let single = per_node(&one, &[old.to_owned()]);
        eprintln!(
            "{kind}: shards per node {shards:?}, entries per node {filed:?}; the single key {old} was on node {}",
            single.iter().position(|n| *n == 1).expect("a node")
        );
        assert!(
            shards.iter().filter(|n| **n > 0).count() >= 2,
            "the {kind} shards all sit on one node: {shards:?}"
        );
        if kind != "archive" {
            assert!(
                filed.iter().filter(|n| **n > 0).count() >= 2,
                "the {kind} entries all sit on one node: {filed:?}"
            );
        }
    }
}
