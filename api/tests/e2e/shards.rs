//! `ROADIE_DUE_SHARDS` over a real Redis: the indexes of due work are spread over as many
//! shards as it says, and the work filed there is done.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::{Redis, Roadie};

/// The shard numbers of the keys of an index (`roadie:{<index>:NN}...`) in Redis.
fn shards_used(redis: &Redis, index: &str) -> BTreeSet<u16> {
    redis
        .cli(&["--scan", "--pattern", &format!("roadie:{{{index}:*}}*")])
        .lines()
        .filter_map(|key| {
            key.strip_prefix(&format!("roadie:{{{index}:"))?
                .split('}')
                .next()?
                .parse()
                .ok()
        })
        .collect()
}

#[test]
fn the_indexes_of_due_work_use_as_many_shards_as_configured_and_their_work_is_done() {
    let redis = Redis::start();
    let roadie = Roadie::start(
        "due-shards",
        Some(&redis),
        &[("ROADIE_DUE_SHARDS", "4"), ("ROADIE_BOT_EXPERT_ITERATIONS", "5")],
    );
    let mut games = Vec::new();
    for _ in 0..24 {
        let created = roadie.post(
            "/v1/games",
            None,
            &json!({"ruleset": "rock-the-world", "seats": [{"bot": "expert"}, {"bot": "expert"}],
                    "clock": {"per_decision_secs": 600, "bank_secs": 0}}),
        );
        assert_eq!(created.status, 201, "{}", created.body);
        games.push(created.json["id"].as_str().expect("id").to_owned());
    }
    // The experts' games move on: their turns are claimed in the four shards.
    let deadline = Instant::now() + Duration::from_secs(60);
    for game in &games {
        loop {
            let state = roadie.get(&format!("/v1/games/{game}"), None);
            assert_eq!(state.status, 200, "{}", state.body);
            if state.json["version"].as_u64().unwrap_or(0) >= 3 {
                break;
            }
            assert!(Instant::now() < deadline, "{game} did not move: {}", state.body);
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    for index in ["clocks", "bots"] {
        let used = shards_used(&redis, index);
        assert!(!used.is_empty(), "no {index} shard in use");
        assert!(used.iter().all(|shard| *shard < 4), "{index} shards {used:?}");
    }
    assert!(
        shards_used(&redis, "clocks").len() > 1,
        "24 games in one shard of four"
    );
    // A count out of range stops the start.
    let refused = std::process::Command::new(crate::support::roadie_binary())
        .env("ROADIE_DUE_SHARDS", "0")
        .env("ROADIE_ADDR", "127.0.0.1:0")
        .output()
        .expect("roadie");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("ROADIE_DUE_SHARDS"));
}
