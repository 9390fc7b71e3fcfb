//! The load generator itself, run as its README says against a real server: both flows play
//! every game to the end, lose nothing, and report what they did.

use std::process::Command;

use serde_json::Value;

#[allow(dead_code)]
#[path = "../../api/tests/e2e/support.rs"]
mod support;

use support::{Redis, Roadie};

fn run_loadtest(roadie: &Roadie, flow: &str, ruleset: &str, seats: &str) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_loadtest"))
        .args(["--url", &roadie.base, "--ruleset", ruleset, "--seats", seats])
        .args(["--games", "6", "--connections", "3", "--floor-secs", "0.2"])
        .args(["--flow", flow, "--json"])
        .output()
        .expect("run loadtest");
    let summary: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "loadtest --flow {flow} printed no JSON summary ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert!(
        output.status.success(),
        "loadtest --flow {flow} failed: {summary:#}"
    );
    summary
}

#[test]
fn the_load_generator_plays_every_game_to_the_end_in_both_flows() {
    let redis = Redis::start();
    let roadie = Roadie::start("loadtest", Some(&redis), &[]);
    for (ruleset, seats) in [("shrewd-producer", "4"), ("rock-the-world", "3")] {
        for flow in ["listed", "mirrored"] {
            let summary = run_loadtest(&roadie, flow, ruleset, seats);
            assert_eq!(summary["passed"], true, "{summary:#}");
            assert_eq!(summary["flow"], flow);
            assert_eq!(summary["games_finished"], 6, "{summary:#}");
            assert_eq!(summary["lost_actions"], 0);
            let actions = summary["actions"].as_u64().expect("actions");
            assert!(actions >= 6, "{summary:#}");
            let count = |label: &str| {
                summary["latency"]
                    .as_array()
                    .expect("latency")
                    .iter()
                    .find(|l| l["endpoint"] == label)
                    .and_then(|l| l["count"].as_u64())
                    .unwrap_or(0)
            };
            assert_eq!(count("POST /v1/games/{id}/actions"), actions);
            let listed = count("GET /v1/games/{id}/actions");
            match flow {
                "listed" => assert_eq!(listed, actions, "one listing per action"),
                _ => assert_eq!(listed, 0, "the mirrored flow posts only"),
            }
            assert!(summary["floor"]["per_second"].as_f64().is_some_and(|r| r > 0.0));
        }
    }
}

#[test]
fn streams_opened_on_every_game_each_deliver_its_events_to_the_end() {
    let redis = Redis::start();
    let roadie = Roadie::start("loadtest_streams", Some(&redis), &[]);
    let output = Command::new(env!("CARGO_BIN_EXE_loadtest"))
        .args([
            "--url",
            &roadie.base,
            "--ruleset",
            "shrewd-producer",
            "--seats",
            "3",
        ])
        .args(["--games", "6", "--connections", "3", "--floor-secs", "0"])
        .args(["--flow", "mirrored", "--streams-per-game", "2", "--json"])
        .output()
        .expect("run loadtest");
    let summary: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "loadtest printed no JSON summary ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert!(output.status.success(), "loadtest failed: {summary:#}");
    assert_eq!(summary["streams"]["streams"], 12, "{summary:#}");
    assert_eq!(summary["streams"]["streams_per_game"], 2, "{summary:#}");
    // Every action of Shrewd Producer makes at least one public event.
    let events = summary["streams"]["events"].as_u64().expect("events");
    let actions = summary["actions"].as_u64().expect("actions");
    assert!(events >= 2 * actions, "{summary:#}");
}

#[test]
fn with_bot_seats_only_the_remote_seats_post_and_every_game_ends() {
    let redis = Redis::start();
    let roadie = Roadie::start("loadtest_bots", Some(&redis), &[]);
    let run = |bots: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_loadtest"))
            .args([
                "--url",
                &roadie.base,
                "--ruleset",
                "shrewd-producer",
                "--seats",
                "4",
            ])
            .args(["--games", "6", "--connections", "3", "--floor-secs", "0"])
            .args(["--flow", "listed", "--bots", bots, "--json"])
            .output()
            .expect("run loadtest");
        let summary: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!(
                "loadtest --bots {bots} printed no JSON summary ({e}): {}",
                String::from_utf8_lossy(&output.stderr)
            )
        });
        assert!(
            output.status.success(),
            "loadtest --bots {bots} failed: {summary:#}"
        );
        assert_eq!(summary["games_finished"], 6, "{summary:#}");
        assert_eq!(summary["lost_actions"], 0, "{summary:#}");
        summary["actions"].as_u64().expect("actions")
    };
    let all_remote = run("0");
    let one_remote = run("3");
    assert!(
        one_remote > 0 && one_remote * 2 < all_remote,
        "with three bot seats the one remote seat posts a fraction of the actions: {one_remote} of {all_remote}"
    );
    let refused = Command::new(env!("CARGO_BIN_EXE_loadtest"))
        .args(["--url", &roadie.base, "--seats", "4", "--bots", "4"])
        .output()
        .expect("run loadtest");
    assert_eq!(
        refused.status.code(),
        Some(2),
        "every seat a bot leaves nothing to load-test"
    );
}
