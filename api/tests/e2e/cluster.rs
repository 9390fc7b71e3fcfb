//! The same code path on a three-node Redis Cluster (`redis+cluster://`).

use std::process::Command;
use std::time::{Duration, Instant};

use crate::play::{Checks, Table};
use crate::support::{Redis, Roadie, ensure_installed, rulesets, scratch};

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
    ensure_installed("/usr/bin/redis-cli", "redis-tools");
    let nodes: Vec<Redis> = (0..3).map(|i| cluster_node(dir, i)).collect();
    let addresses: Vec<String> = nodes.iter().map(|n| format!("127.0.0.1:{}", n.port)).collect();
    let created = Command::new("redis-cli")
        .args(["--cluster", "create"])
        .args(&addresses)
        .args(["--cluster-replicas", "0", "--cluster-yes"])
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
