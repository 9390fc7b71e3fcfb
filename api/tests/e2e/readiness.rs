//! Readiness follows the store: 503 (with `Retry-After`) while Redis is down, 200 once back.

use std::time::{Duration, Instant};

use crate::support::{Redis, Roadie, rulesets};

fn wait_for(roadie: &Roadie, status: u16) -> crate::support::Reply {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let reply = roadie.get("/readyz", None);
        if reply.status == status {
            return reply;
        }
        assert!(
            Instant::now() < deadline,
            "/readyz stayed {}: {}",
            reply.status,
            reply.body
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn readiness_fails_while_redis_is_stopped_and_recovers_when_it_returns() {
    let mut redis = Redis::start();
    let roadie = Roadie::start("readiness", Some(&redis), &[]);
    let (slug, _, max) = rulesets(&roadie).into_iter().next().expect("a ruleset");
    let ready = wait_for(&roadie, 200);
    assert_eq!(ready.json["store"], "redis");
    let game = roadie.create(&slug, max, Some(8));

    redis.stop();
    let down = wait_for(&roadie, 503);
    down.assert_problem(503, "store_unavailable");
    assert_eq!(down.header("retry-after"), Some("1"));
    let get = roadie.game(&game, Some(0));
    get.assert_problem(503, "store_unavailable");
    assert!(get.header("retry-after").is_some());
    roadie
        .post(
            "/v1/games",
            None,
            &serde_json::json!({"ruleset": slug, "seats": max}),
        )
        .assert_problem(503, "store_unavailable");
    assert_eq!(
        roadie.get("/healthz", None).status,
        200,
        "liveness does not depend on the store"
    );

    redis.resume();
    wait_for(&roadie, 200);
    let again = roadie.create(&slug, max, Some(8));
    assert_eq!(roadie.game(&again, Some(0)).status, 200);
    let metrics = roadie.get("/metrics", None);
    assert!(
        metrics
            .body
            .lines()
            .any(|l| l.starts_with("roadie_store_errors_total ") && !l.ends_with(" 0")),
        "store errors are counted"
    );
}
