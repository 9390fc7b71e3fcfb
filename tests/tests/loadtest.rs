//! The load generator itself, run as docs/benchmarks.md says against a real server: both flows play
//! every game to the end, lose nothing, and report what they did, CPU per action included.

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

/// `--flow spectate`: streams held open over a few games see every posted version, each timed,
/// and the server's memory is read before and with them.
#[test]
fn spectators_held_open_see_every_posted_version_and_the_servers_memory_is_read() {
    let redis = Redis::start();
    let roadie = Roadie::start("loadtest_spectate", Some(&redis), &[]);
    let pid = roadie_pid(&roadie).to_string();
    let output = Command::new(env!("CARGO_BIN_EXE_loadtest"))
        .args([
            "--url",
            &roadie.base,
            "--ruleset",
            "show-business",
            "--seats",
            "3",
        ])
        .args([
            "--games",
            "8",
            "--streams",
            "200",
            "--rate",
            "50",
            "--hold-secs",
            "2",
        ])
        .args(["--connections", "2", "--server-pid", &pid, "--time-limit", "120"])
        .args(["--flow", "spectate", "--json"])
        .output()
        .expect("run loadtest");
    let summary: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "loadtest printed no JSON summary ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert!(output.status.success(), "loadtest failed: {summary:#}");
    assert_eq!(summary["streams_opened"], 200, "{summary:#}");
    assert_eq!(summary["lagging_streams"], 0, "{summary:#}");
    let posts = summary["posts"].as_u64().expect("posts");
    assert!(posts >= 50, "two seconds at 50 a second: {summary:#}");
    // Each version reaches the 25 streams of its game (a stream behind may skip one).
    let deliveries = summary["deliveries"].as_u64().expect("deliveries");
    assert!(
        deliveries >= posts * 20 && deliveries <= posts * 25,
        "{summary:#}"
    );
    assert!(
        summary["delivery_ms_p99"].as_f64().is_some_and(|ms| ms > 0.0),
        "{summary:#}"
    );
    // Read every time (a couple hundred streams are within the allocator's own ups and downs, so
    // only their presence is checked here).
    for field in ["rss_kib_before", "rss_kib_idle", "rss_kib_after", "rss_kib_peak"] {
        assert!(
            summary[field].as_u64().is_some_and(|kib| kib > 1024),
            "{field}: {summary:#}"
        );
    }
    assert!(summary["rss_kib_per_stream"].as_f64().is_some(), "{summary:#}");
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

/// The process id of the `roadie` this test started: the one whose `ROADIE_ADDR` is its address.
fn roadie_pid(roadie: &Roadie) -> u32 {
    let addr = format!("ROADIE_ADDR={}", roadie.base.trim_start_matches("http://"));
    let binary = support::roadie_binary();
    let binary = binary.canonicalize().unwrap_or(binary);
    std::fs::read_dir("/proc")
        .expect("read /proc")
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .find(|pid| {
            std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|exe| exe == binary)
                && std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|b| *b == 0).any(|var| var == addr.as_bytes()))
        })
        .expect("the started roadie's process")
}

/// The process id `redis-server` reports for itself.
fn redis_pid(redis: &Redis) -> u32 {
    redis
        .cli(&["INFO", "server"])
        .lines()
        .find_map(|line| line.trim().strip_prefix("process_id:")?.parse().ok())
        .expect("INFO server names the process id")
}

#[test]
fn given_the_server_and_store_pids_it_reports_each_ones_cpu_per_posted_action() {
    let redis = Redis::start();
    let roadie = Roadie::start("loadtest_cpu", Some(&redis), &[]);
    let (server, store) = (roadie_pid(&roadie), redis_pid(&redis));
    // Enough actions that the store's share (tens of microseconds each) spans several of
    // `/proc`'s 10 ms ticks.
    let output = Command::new(env!("CARGO_BIN_EXE_loadtest"))
        .args([
            "--url",
            &roadie.base,
            "--ruleset",
            "shrewd-producer",
            "--seats",
            "4",
        ])
        .args(["--games", "40", "--connections", "4", "--floor-secs", "0"])
        .args(["--flow", "mirrored", "--json"])
        .args([
            "--server-pid",
            &server.to_string(),
            "--store-pid",
            &store.to_string(),
        ])
        .output()
        .expect("run loadtest");
    let summary: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "loadtest printed no JSON summary ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert!(output.status.success(), "loadtest failed: {summary:#}");
    let cpu = &summary["cpu"];
    assert_eq!(cpu["server_pid"], server, "{summary:#}");
    assert_eq!(cpu["store_pid"], store, "{summary:#}");
    assert!(
        cpu["clock_ticks_per_second"].as_u64().is_some_and(|t| t > 0),
        "{summary:#}"
    );
    for field in [
        "server_seconds",
        "server_us_per_action",
        "store_seconds",
        "store_us_per_action",
        "generator_seconds",
        "generator_us_per_action",
    ] {
        assert!(
            cpu[field].as_f64().is_some_and(|v| v > 0.0),
            "{field} is present and positive: {summary:#}"
        );
    }
    let actions = summary["actions"].as_f64().expect("actions");
    let server_us = cpu["server_us_per_action"].as_f64().unwrap_or_default();
    let server_seconds = cpu["server_seconds"].as_f64().unwrap_or_default();
    assert!(
        (server_us * actions / 1e6 - server_seconds).abs() < 1e-6,
        "per action is the total over the posted actions: {summary:#}"
    );

    let gone = Command::new(env!("CARGO_BIN_EXE_loadtest"))
        .args(["--url", &roadie.base, "--server-pid", &u32::MAX.to_string()])
        .output()
        .expect("run loadtest");
    assert_eq!(
        gone.status.code(),
        Some(2),
        "a pid with no process is refused before the run"
    );
}
