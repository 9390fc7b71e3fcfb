//! Two `roadie` processes on one Redis, each keeping decoded copies of the games it served:
//! a copy is only ever a guess, and no answer may come from one the store has moved past.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use roadie_engine::{AnyGame, Seat, Viewer};
use serde_json::json;

use crate::play::json;
use crate::support::{Redis, Roadie};

/// The value of one sample line of a Prometheus text exposition (0 when absent).
fn sample(metrics: &str, series: &str) -> u64 {
    metrics
        .lines()
        .find_map(|line| line.strip_prefix(series)?.trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn posts_alternating_between_two_processes_always_meet_the_current_game() {
    let redis = Redis::start();
    let a = Roadie::start("processes_a", Some(&redis), &[]);
    let b = Roadie::start("processes_b", Some(&redis), &[]);
    let (slug, seats, seed) = ("shrewd-producer", 3, 77);
    let created = a.create(slug, seats, Some(seed));
    let (mut local, _) = AnyGame::setup(slug, None, seats, seed).expect("local setup");
    let mut rng = StdRng::seed_from_u64(seed);
    for server in [&a, &b] {
        assert_eq!(server.game(&created, None).status, 200);
    }
    let mut version = 1;
    let mut revision = created.revision.clone();
    let mut previous = String::new();
    let mut steps = 0;
    let mut applied_through = [0u64; 2];
    while !local.is_over() {
        assert!(steps < 2_000, "the game did not end");
        // Each post reaches the process that did not make the last write: its copy is behind.
        let (server, other) = if steps % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let to_act = local.to_act();
        let seat = to_act[rng.random_range(0..to_act.len())].index();
        let idle = (0..seats).find(|&s| !to_act.contains(&Seat::new(s)));
        if let Some(idle) = idle.filter(|_| steps % 7 == 3) {
            let refused = other.act(&created, idle, &json!({"no": "such action"}));
            assert_eq!(refused.status / 100, 4, "{}", refused.body);
            let wrong_turn = json(&local.legal_actions(Seat::new(seat)));
            other
                .act(&created, idle, &wrong_turn[0])
                .assert_problem(409, "not_your_turn");
        }
        if steps == 5 {
            let path = server.url(&format!("/v1/games/{}", created.id));
            let held = |tag: String| {
                server.request(
                    server
                        .http
                        .get(&path)
                        .bearer_auth(&created.tokens[seat])
                        .header("If-None-Match", tag),
                )
            };
            let current = format!("\"{revision}\"");
            let unchanged = held(format!("\"{previous}\", {current}"));
            assert_eq!(unchanged.status, 304, "{}", unchanged.body);
            assert!(unchanged.body.is_empty());
            assert_eq!(unchanged.header("etag"), Some(current.as_str()));
            let changed = held(format!("\"{previous}\""));
            assert_eq!(changed.status, 200, "{}", changed.body);
            assert_eq!(changed.json["version"], version);
        }
        let actions = json(&local.legal_actions(Seat::new(seat)));
        let actions = actions.as_array().expect("a list");
        let action = actions[rng.random_range(0..actions.len())].clone();
        let minimal = steps % 3 == 0;
        let mut request = server
            .http
            .post(server.url(&format!("/v1/games/{}/actions", created.id)))
            .bearer_auth(&created.tokens[seat])
            .json(&json!({ "action": action }));
        if minimal {
            request = request.header("Prefer", "return=minimal");
        }
        let reply = server.request(request);
        assert_eq!(
            reply.status, 200,
            "step {steps}: {action} for seat {seat}: {}",
            reply.body
        );
        applied_through[steps % 2] += 1;
        local
            .apply(Seat::new(seat), &action.to_string())
            .expect("the engine accepts it too");
        version += 1;
        assert_eq!(reply.json["version"], version, "{}", reply.body);
        previous = std::mem::replace(
            &mut revision,
            reply.json["revision"].as_str().expect("a revision").to_owned(),
        );
        assert_eq!(reply.json["to_act"], json!(local.to_act()));
        let status = if local.is_over() { "finished" } else { "active" };
        assert_eq!(reply.json["status"], status);
        if minimal {
            assert!(reply.json.get("game").is_none(), "{}", reply.body);
            assert_eq!(reply.header("preference-applied"), Some("return=minimal"));
        } else {
            assert_eq!(reply.json["game"]["version"], version);
            assert_eq!(
                reply.json["game"]["view"],
                json(&local.view(Viewer::Seat(Seat::new(seat))))
            );
            assert_eq!(reply.header("preference-applied"), None);
        }
        steps += 1;
    }
    for server in [&a, &b, &a, &b] {
        for seat in 0..seats {
            let read = server.game(&created, Some(seat));
            assert_eq!(read.json["version"], version, "{}", read.body);
            assert_eq!(
                read.json["view"],
                json(&local.view(Viewer::Seat(Seat::new(seat))))
            );
        }
    }
    let (metrics_a, metrics_b) = (a.get("/metrics", None).body, b.get("/metrics", None).body);
    for (metrics, applied) in [(&metrics_a, applied_through[0]), (&metrics_b, applied_through[1])] {
        assert_eq!(
            sample(
                metrics,
                "roadie_http_requests_total{route=\"/v1/games/{id}/actions\",method=\"POST\",status=\"200\"}"
            ),
            applied,
            "{metrics}"
        );
        assert!(
            sample(metrics, "roadie_game_cache_reads_total{result=\"stale\"}") > 0,
            "no post met a copy that was behind:\n{metrics}"
        );
        assert!(sample(metrics, "roadie_game_cache_reads_total{result=\"hit\"}") > 0);
        assert_eq!(
            sample(metrics, "roadie_cas_retries_total"),
            0,
            "a stale copy spent a retry"
        );
    }

    let deleted = b.request(
        b.http
            .delete(b.url(&format!("/v1/games/{}", created.id)))
            .bearer_auth(&created.host_token),
    );
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    a.game(&created, Some(0)).assert_problem(404, "game_not_found");
    a.act(&created, 0, &json!("anything"))
        .assert_problem(404, "game_not_found");
}

/// Long-polls `server` for the game past `version` while `writer` posts the next action.
fn long_poll_sees_a_write(server: &Roadie, writer: &Roadie) {
    let (slug, seats, seed) = ("shrewd-producer", 3, 5);
    let created = server.create(slug, seats, Some(seed));
    let (local, _) = AnyGame::setup(slug, None, seats, seed).expect("local setup");
    let seat = local.to_act()[0];
    let action = json(&local.legal_actions(seat))[0].clone();
    let seat = seat.index();
    // The poll asks to wait 30 s but gives up after 10: only a wake-up by the write answers it.
    let path = server.url(&format!("/v1/games/{}?wait=30", created.id));
    let impatient = reqwest::blocking::Client::builder()
        .timeout(std::time::Duration::from_secs(10))
        .build()
        .expect("client");
    let poll = |tag: &str| {
        crate::support::send(
            impatient
                .get(&path)
                .bearer_auth(&created.tokens[seat])
                .header("If-None-Match", tag),
        )
    };
    let tag = std::thread::scope(|scope| {
        let waiting = scope.spawn(|| poll(&format!("\"{}\"", created.revision)));
        std::thread::sleep(std::time::Duration::from_millis(500));
        let posted = writer.act(&created, seat, &action);
        assert_eq!(posted.status, 200, "{}", posted.body);
        let woken = waiting.join().expect("the poll");
        assert_eq!(
            woken.status, 200,
            "the poll was not woken by the write: {}",
            woken.body
        );
        assert_eq!(woken.json["version"], 2);
        let tag = format!("\"{}\"", woken.json["revision"].as_str().expect("a revision"));
        assert_eq!(woken.header("etag"), Some(tag.as_str()));
        tag
    });
    let quick = server.request(
        server
            .http
            .get(server.url(&format!("/v1/games/{}?wait=1", created.id)))
            .header("If-None-Match", tag),
    );
    assert_eq!(quick.status, 304, "{}", quick.body);
    let bad = server.get(&format!("/v1/games/{}?wait=soon", created.id), None);
    assert_eq!(bad.status, 400, "{}", bad.body);
}

#[test]
fn a_long_poll_wakes_when_another_process_writes() {
    let redis = Redis::start();
    let a = Roadie::start("long_poll_a", Some(&redis), &[]);
    let b = Roadie::start("long_poll_b", Some(&redis), &[]);
    long_poll_sees_a_write(&a, &b);
}

#[test]
fn a_long_poll_wakes_on_the_in_memory_store_too() {
    let roadie = Roadie::start("long_poll_memory", None, &[]);
    long_poll_sees_a_write(&roadie, &roadie);
}
