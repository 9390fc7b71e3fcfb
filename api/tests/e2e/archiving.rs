//! Finished games archived through the real binary, on a real Redis and a real SeaweedFS: every
//! game's record and log are served from the archive once Redis has forgotten it, a process
//! killed while archiving leaves no game behind, and an archive that is down for a while only
//! delays the games it holds.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::archive::{ACCESS_KEY, BUCKET, SECRET_KEY, Seaweed};
use crate::support::{Redis, Roadie, rulesets};

/// A server archiving to `weed` under `prefix`, with Redis at `redis`.
fn archiving(name: &str, redis: &Redis, weed: &Seaweed, prefix: &str, extra: &[(&str, &str)]) -> Roadie {
    let url = format!("s3://{BUCKET}/{prefix}");
    let endpoint = weed.endpoint();
    let mut env = vec![
        ("ROADIE_ARCHIVE_URL", url.as_str()),
        ("AWS_ENDPOINT_URL", endpoint.as_str()),
        ("AWS_ACCESS_KEY_ID", ACCESS_KEY),
        ("AWS_SECRET_ACCESS_KEY", SECRET_KEY),
        ("AWS_REGION", "us-east-1"),
        ("ROADIE_ARCHIVE_SWEEP_MS", "100"),
        ("ROADIE_FINISHED_TTL_SECS", "1"),
    ];
    env.extend_from_slice(extra);
    Roadie::start(name, Some(redis), &env)
}

/// Games of bots alone, which end inside the request that creates them: `n` of them, over every
/// ruleset and seat count.
fn bot_games(roadie: &Roadie, n: usize) -> Vec<(String, String)> {
    let kinds: Vec<(String, usize)> = rulesets(roadie)
        .into_iter()
        .flat_map(|(slug, min, max)| (min..=max).map(move |seats| (slug.clone(), seats)))
        .collect();
    (0..n)
        .map(|i| {
            let (slug, seats) = &kinds[i % kinds.len()];
            let specs: Vec<Value> = (0..*seats)
                .map(|s| json!({"bot": if (i + s) % 2 == 0 { "random" } else { "greedy" }}))
                .collect();
            let reply = roadie.post("/v1/games", None, &json!({"ruleset": slug, "seats": specs}));
            assert_eq!(reply.status, 201, "{}", reply.body);
            (reply.json["id"].as_str().expect("id").to_owned(), slug.clone())
        })
        .collect()
}

/// A metric's value in `roadie`'s exposition.
fn metric(roadie: &Roadie, name: &str) -> Option<f64> {
    let text = roadie.get("/metrics", None).body;
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

/// Waits until every game of `ids` has its record in the archive under `prefix`.
fn all_archived(weed: &Seaweed, prefix: &str, ids: &[(String, String)], within: Duration) {
    let deadline = Instant::now() + within;
    let mut left: Vec<&String> = ids.iter().map(|(id, _)| id).collect();
    while !left.is_empty() {
        left.retain(|id| weed.object(&format!("{prefix}/games/{id}/record.json")).is_none());
        assert!(
            Instant::now() < deadline,
            "{} games were not archived within {within:?}: {:?}",
            left.len(),
            &left[..left.len().min(5)]
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn finished_games_are_served_from_seaweedfs_once_redis_forgets_them_and_every_record_verifies() {
    let weed = Seaweed::start("weed_served");
    weed.create_bucket(BUCKET).expect("bucket");
    let redis = Redis::start();
    let roadie = archiving("archiving_served", &redis, &weed, "served", &[]);
    let games = bot_games(&roadie, 300);
    all_archived(&weed, "served", &games, Duration::from_secs(120));

    // Once the archive holds them, Redis keeps them for the finished games' lifetime (1 s).
    let deadline = Instant::now() + Duration::from_secs(20);
    for (id, _) in &games {
        while redis.cli(&["EXISTS", &format!("roadie:{{{id}}}:state")]) != "0" {
            assert!(Instant::now() < deadline, "game {id} is still in Redis");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    assert_eq!(redis.zcard_shards("archive", ":due"), 0);

    let mut bytes: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    for (id, slug) in &games {
        let state = roadie.get(&format!("/v1/games/{id}"), None);
        assert_eq!(state.status, 200, "{}", state.body);
        assert_eq!(state.json["status"], "finished", "{}", state.body);
        let record = roadie.get(&format!("/v1/games/{id}/record"), None);
        assert_eq!(record.status, 200, "{}", record.body);
        assert_eq!(record.json["outcome"], state.json["outcome"]);
        let log = roadie.get(&format!("/v1/games/{id}/events?after=0&limit=5000"), None);
        assert_eq!(log.status, 200, "{}", log.body);
        let events = log.json["events"].as_array().expect("events");
        let count = record.json["events"]["count"].as_u64().expect("count") as usize;
        assert_eq!(events.len(), count.min(5000), "{id}");
        assert!(events.iter().enumerate().all(|(i, e)| e["seq"] == i + 1), "{id}");
        let verdict = roadie.post("/v1/records/verify", None, &record.json);
        assert_eq!(verdict.json["ok"], true, "{id}: {}", verdict.body);
        assert_eq!(verdict.json["signature"], "valid");
        let entry = bytes.entry(slug.clone()).or_default();
        entry.0 += 1;
        entry.1 += weed
            .object(&format!("served/games/{id}/record.json"))
            .map_or(0, |b| b.len());
        entry.2 += weed
            .object(&format!("served/games/{id}/events.ndjson.gz"))
            .map_or(0, |b| b.len());
    }
    for (slug, (games, record, events)) in &bytes {
        eprintln!(
            "{slug}: {games} games, {} B of record and {} B of gzipped event log per game",
            record / games,
            events / games
        );
    }
    let missing = roadie.get("/v1/games/0123456789abcdef01234567", None);
    missing.assert_problem(404, "game_not_found");
}

#[test]
fn a_roadie_killed_while_archiving_leaves_every_game_archived() {
    let weed = Seaweed::start("weed_killed");
    weed.create_bucket(BUCKET).expect("bucket");
    let redis = Redis::start();
    // Both processes sign with one key, as every deployment of more than one must.
    let keys = crate::support::scratch("archiving_killed_keys");
    let out = std::process::Command::new(crate::support::roadie_binary())
        .args(["records", "new-key"])
        .output()
        .expect("roadie records new-key");
    let key = keys.join("record-key.pem");
    std::fs::write(&key, out.stdout).expect("key file");
    let key = key.to_str().expect("path").to_owned();
    let quick = [
        ("ROADIE_ARCHIVE_LEASE_MS", "1000"),
        ("ROADIE_RECORD_KEY", key.as_str()),
    ];
    let first = archiving("archiving_killed_a", &redis, &weed, "killed", &quick);
    let second = archiving("archiving_killed_b", &redis, &weed, "killed", &quick);
    let games = bot_games(&first, 150);
    first.kill();
    all_archived(&weed, "killed", &games, Duration::from_secs(90));
    let deadline = Instant::now() + Duration::from_secs(10);
    while redis.zcard_shards("archive", ":due") != 0 {
        assert!(
            Instant::now() < deadline,
            "the index of games to archive does not empty"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let archived = metric(&second, "roadie_games_archived_total{result=\"archived\"}").unwrap_or(0.0);
    assert!(
        archived >= 1.0,
        "the surviving process archived the games left: {archived}"
    );
    for (id, _) in games.iter().step_by(10) {
        let record = second.get(&format!("/v1/games/{id}/record"), None);
        assert_eq!(record.status, 200, "{}", record.body);
        let verdict = second.post("/v1/records/verify", None, &record.json);
        assert_eq!(verdict.json["ok"], true, "{}", verdict.body);
    }
}

#[test]
fn games_go_on_while_the_archive_is_down_and_its_backlog_drains_when_it_returns() {
    let mut weed = Seaweed::start("weed_outage");
    weed.create_bucket(BUCKET).expect("bucket");
    let redis = Redis::start();
    let roadie = archiving(
        "archiving_outage",
        &redis,
        &weed,
        "outage",
        &[("ROADIE_ARCHIVE_LEASE_MS", "2000")],
    );
    let mut games = bot_games(&roadie, 10);
    all_archived(&weed, "outage", &games, Duration::from_secs(60));

    weed.stop();
    let down = Instant::now();
    let mut backlog_seen = 0.0_f64;
    while down.elapsed() < Duration::from_secs(20) {
        games.extend(bot_games(&roadie, 3));
        backlog_seen = backlog_seen.max(metric(&roadie, "roadie_archive_backlog").unwrap_or(0.0));
        std::thread::sleep(Duration::from_millis(250));
    }
    assert!(
        backlog_seen >= 10.0,
        "the backlog grows while the archive is down: {backlog_seen}"
    );
    let before = redis.zcard_shards("archive", ":due");
    assert_ne!(before, 0);

    weed.resume();
    all_archived(&weed, "outage", &games, Duration::from_secs(90));
    let deadline = Instant::now() + Duration::from_secs(30);
    while metric(&roadie, "roadie_archive_backlog") != Some(0.0) {
        assert!(Instant::now() < deadline, "the backlog does not drain");
        std::thread::sleep(Duration::from_millis(200));
    }
    let failed = metric(&roadie, "roadie_games_archived_total{result=\"failed\"}").unwrap_or(0.0);
    assert!(
        failed >= 1.0,
        "writes failed while the archive was down: {failed}"
    );
}
