//! What a Redis that comes back from an older snapshot must not reopen: a seat granted in the
//! writes it lost, and a cursor into the lost end of the log.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Redis, Reply, Roadie, ensure_installed, scratch};

/// A Redis that saves to a file of `name`'s scratch folder on `SAVE`, and reloads it on start.
fn snapshotting_redis(name: &str) -> Redis {
    ensure_installed("/usr/bin/redis-cli", "redis-tools");
    let dir = scratch(&format!("{name}_redis"));
    Redis::start_with(&[
        "--dir".into(),
        dir.display().to_string(),
        "--dbfilename".into(),
        "dump.rdb".into(),
    ])
}

/// SIGKILLs Redis, starts it again from its last snapshot, and waits until `roadie` serves game
/// `id` at the snapshot's `version`.
fn back_from_snapshot(redis: &mut Redis, roadie: &Roadie, id: &str, version: u64) {
    redis.stop();
    redis.resume();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let state = roadie.get(&format!("/v1/games/{id}"), None);
        if state.status == 200 {
            assert_eq!(state.json["version"], version, "{}", state.body);
            return;
        }
        assert!(
            Instant::now() < deadline,
            "roadie did not reconnect: {}",
            state.body
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn token_of(reply: &Reply) -> String {
    assert_eq!(reply.status, 201, "{}", reply.body);
    reply.json["token"].as_str().expect("a token").to_owned()
}

/// Every read and a post with `token`, each answered `401 token_revoked`.
fn assert_revoked(roadie: &Roadie, id: &str, token: &str, what: &str) {
    for path in [
        format!("/v1/games/{id}"),
        format!("/v1/games/{id}/actions"),
        format!("/v1/games/{id}/events"),
    ] {
        let reply = roadie.get(&path, Some(token));
        assert_eq!(reply.status, 401, "{what}: GET {path} answered {}", reply.body);
        reply.assert_problem(401, "token_revoked");
    }
    let post = roadie.post(
        &format!("/v1/games/{id}/actions"),
        Some(token),
        &json!({"action": {"type": "pass"}}),
    );
    post.assert_problem(401, "token_revoked");
}

#[test]
fn a_seat_granted_in_writes_the_store_lost_is_not_opened_by_that_grant_again() {
    let mut redis = snapshotting_redis("rollback_grants");
    let roadie = Roadie::start("rollback_grants", Some(&redis), &[]);
    let created = roadie.post(
        "/v1/games",
        None,
        &json!({
            "ruleset": "shrewd-producer",
            "seats": [{"name": "Host"}, {"open": true}, {"name": "Cy"}],
            "seed": 11,
        }),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.json["id"].as_str().expect("id").to_owned();
    let host = created.json["host_token"]
        .as_str()
        .expect("host token")
        .to_owned();
    let version = created.json["version"].as_u64().expect("version");
    assert_eq!(redis.cli(&["SAVE"]), "OK");

    // Granted in writes the store is about to lose: a join, and a reissue by the host.
    let lost_join =
        token_of(&roadie.post(&format!("/v1/games/{id}/seats/1"), None, &json!({"name": "Lost"})));
    let lost_reissue =
        token_of(&roadie.post(&format!("/v1/games/{id}/seats/0/token"), Some(&host), &json!({})));
    for token in [&lost_join, &lost_reissue] {
        let reply = roadie.get(&format!("/v1/games/{id}"), Some(token));
        assert_eq!(reply.status, 200, "before the rollback: {}", reply.body);
    }

    back_from_snapshot(&mut redis, &roadie, &id, version);

    // The same changes again: the seat's generation counts up to the same numbers.
    let new_join = token_of(&roadie.post(&format!("/v1/games/{id}/seats/1"), None, &json!({"name": "New"})));
    let new_reissue =
        token_of(&roadie.post(&format!("/v1/games/{id}/seats/0/token"), Some(&host), &json!({})));
    for (token, seat) in [(&new_join, 1), (&new_reissue, 0)] {
        let reply = roadie.get(&format!("/v1/games/{id}"), Some(token));
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert_eq!(reply.json["seat"], seat, "{}", reply.body);
    }
    let seats = roadie.get(&format!("/v1/games/{id}"), None);
    assert_eq!(seats.json["occupants"][1]["name"], "New", "{}", seats.body);

    assert_revoked(&roadie, &id, &lost_join, "the join the store lost");
    assert_revoked(&roadie, &id, &lost_reissue, "the reissue the store lost");
}

/// The log's last sequence number, whoever may see that event.
fn log_end(roadie: &Roadie, id: &str) -> u64 {
    let reply = roadie.get(&format!("/v1/games/{id}/events?after=0&limit=5000"), None);
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.json["next_after"].as_u64().expect("next_after")
}

/// `GET /stream` resuming after `cursor`, by `Last-Event-ID` or `?after=`: the status, and the
/// body when it is not a stream.
fn open_stream(roadie: &Roadie, id: &str, cursor: u64, by_header: bool) -> (u16, Value) {
    let path = if by_header {
        format!("/v1/games/{id}/stream")
    } else {
        format!("/v1/games/{id}/stream?after={cursor}")
    };
    let mut request = roadie.http.get(roadie.url(&path)).timeout(Duration::from_secs(3));
    if by_header {
        request = request.header("Last-Event-ID", cursor.to_string());
    }
    let response = request.send().expect("the stream answers");
    let status = response.status().as_u16();
    if status == 200 {
        return (status, Value::Null);
    }
    let body = response.text().unwrap_or_default();
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

#[test]
fn a_cursor_beyond_the_log_is_refused_with_where_the_log_ends_even_after_a_rollback() {
    let mut redis = snapshotting_redis("rollback_cursors");
    let roadie = Roadie::start("rollback_cursors", Some(&redis), &[]);
    let game = roadie.create("shrewd-producer", 3, Some(5));
    let play = |n: usize| {
        for _ in 0..n {
            let state = roadie.game(&game, None);
            let seat = state.json["to_act"][0].as_u64().expect("someone acts") as usize;
            let action = roadie.actions(&game, seat)[0].clone();
            assert_eq!(roadie.act(&game, seat, &action).status, 200);
        }
    };
    play(2);
    let saved_end = log_end(&roadie, &game.id);
    let saved_version = roadie.game(&game, None).json["version"]
        .as_u64()
        .expect("version");

    // Made up: far beyond the log.
    for cursor in [saved_end + 1, 1_000_000] {
        let events = roadie.get(&format!("/v1/games/{}/events?after={cursor}", game.id), None);
        events.assert_problem(409, "cursor_ahead");
        assert_eq!(events.json["last_seq"], saved_end, "{}", events.body);
        for by_header in [true, false] {
            let (status, problem) = open_stream(&roadie, &game.id, cursor, by_header);
            assert_eq!(
                (status, problem["code"].as_str(), problem["last_seq"].as_u64()),
                (409, Some("cursor_ahead"), Some(saved_end)),
                "stream after {cursor} (header: {by_header}): {problem}"
            );
        }
    }
    let at_end = roadie.get(&format!("/v1/games/{}/events?after={saved_end}", game.id), None);
    assert_eq!(
        at_end.status, 200,
        "the log's end itself is a cursor: {}",
        at_end.body
    );
    assert_eq!(open_stream(&roadie, &game.id, saved_end, true).0, 200);

    // A client that saw events the store then lost resumes with a cursor beyond the log: told
    // so, with where the log now ends, instead of waiting for events that never come.
    assert_eq!(redis.cli(&["SAVE"]), "OK");
    play(3);
    let lost_end = log_end(&roadie, &game.id);
    assert!(lost_end > saved_end);
    back_from_snapshot(&mut redis, &roadie, &game.id, saved_version);
    let events = roadie.get(&format!("/v1/games/{}/events?after={lost_end}", game.id), None);
    events.assert_problem(409, "cursor_ahead");
    assert_eq!(events.json["last_seq"], saved_end, "{}", events.body);
    let (status, problem) = open_stream(&roadie, &game.id, lost_end, true);
    assert_eq!(status, 409, "{problem}");
    assert_eq!(problem["last_seq"], saved_end, "{problem}");
}
