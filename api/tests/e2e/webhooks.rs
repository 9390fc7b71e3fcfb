//! Webhooks through the real binary: a receiver on 127.0.0.1 in the test records every post,
//! answers as each test scripts it, and checks signatures with the secret of the game.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

use crate::support::{Created, Redis, Roadie};

/// One post the receiver got.
#[derive(Clone, Debug)]
struct Delivery {
    at: Instant,
    path: String,
    signature: String,
    body: String,
    json: Value,
    /// The status it answered.
    status: u16,
}

/// A tiny HTTP server: answers each post with the next status scripted for its path (200
/// when none is), holding it first while `hold` is set.
struct Receiver {
    port: u16,
    deliveries: Arc<Mutex<Vec<Delivery>>>,
    script: Arc<Mutex<HashMap<String, VecDeque<u16>>>>,
    always: Arc<Mutex<HashMap<String, u16>>>,
    hold: Arc<AtomicBool>,
    /// Posts read so far, answered or held.
    arrived: Arc<AtomicUsize>,
}

fn read_request(stream: &mut TcpStream) -> Option<(String, HashMap<String, String>, String)> {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    let header_end = loop {
        let n = stream.read(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
        if let Some(i) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&data[..header_end]).into_owned();
    let mut lines = head.split("\r\n");
    let path = lines.next()?.split(' ').nth(1)?.to_owned();
    let headers: HashMap<String, String> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .get("content-length")
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    while data.len() < header_end + length {
        let n = stream.read(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
    }
    let body = String::from_utf8_lossy(&data[header_end..header_end + length]).into_owned();
    Some((path, headers, body))
}

impl Receiver {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the receiver");
        let port = listener.local_addr().expect("address").port();
        let receiver = Receiver {
            port,
            deliveries: Arc::default(),
            script: Arc::default(),
            always: Arc::default(),
            hold: Arc::default(),
            arrived: Arc::default(),
        };
        let (deliveries, script, always, hold, arrived) = (
            receiver.deliveries.clone(),
            receiver.script.clone(),
            receiver.always.clone(),
            receiver.hold.clone(),
            receiver.arrived.clone(),
        );
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let (deliveries, script, always, hold, arrived) = (
                    deliveries.clone(),
                    script.clone(),
                    always.clone(),
                    hold.clone(),
                    arrived.clone(),
                );
                std::thread::spawn(move || {
                    let Some((path, headers, body)) = read_request(&mut stream) else {
                        return;
                    };
                    let at = Instant::now();
                    arrived.fetch_add(1, Ordering::SeqCst);
                    while hold.load(Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    let status = script
                        .lock()
                        .expect("script")
                        .get_mut(&path)
                        .and_then(VecDeque::pop_front)
                        .or_else(|| always.lock().expect("always").get(&path).copied())
                        .unwrap_or(200);
                    deliveries.lock().expect("deliveries").push(Delivery {
                        at,
                        path,
                        signature: headers.get("roadie-signature").cloned().unwrap_or_default(),
                        json: serde_json::from_str(&body).unwrap_or(Value::Null),
                        body,
                        status,
                    });
                    let _ = stream.write_all(
                        format!("HTTP/1.1 {status} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                            .as_bytes(),
                    );
                });
            }
        });
        receiver
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn deliveries(&self) -> Vec<Delivery> {
        self.deliveries.lock().expect("deliveries").clone()
    }

    /// Waits until `done` holds for the deliveries, or fails after `within`.
    fn wait_for(&self, within: Duration, what: &str, done: impl Fn(&[Delivery]) -> bool) -> Vec<Delivery> {
        let deadline = Instant::now() + within;
        loop {
            let deliveries = self.deliveries();
            if done(&deliveries) {
                return deliveries;
            }
            assert!(Instant::now() < deadline, "{what}; received: {deliveries:#?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Whether `signature` (`t=<t>,v1=<hex>`) signs `body` with `secret`, and its `t`.
fn verify(secret: &str, signature: &str, body: &str) -> (bool, u64) {
    let mut t = None;
    let mut v1 = None;
    for part in signature.split(',') {
        match part.split_once('=') {
            Some(("t", value)) => t = value.parse::<u64>().ok(),
            Some(("v1", value)) => v1 = hex::decode(value).ok(),
            _ => {}
        }
    }
    let (Some(t), Some(v1)) = (t, v1) else {
        return (false, 0);
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(format!("{t}.{body}").as_bytes());
    (mac.verify_slice(&v1).is_ok(), t)
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

/// Creates a Shrewd Producer game whose notices go to `url`: the game and its secret.
fn create_with_webhook(roadie: &Roadie, seats: usize, seed: u64, url: &str) -> (Created, String) {
    create_game_with_webhook(roadie, "shrewd-producer", seats, seed, url)
}

/// Creates a game of `ruleset` whose notices go to `url`: the game and its secret.
fn create_game_with_webhook(
    roadie: &Roadie,
    ruleset: &str,
    seats: usize,
    seed: u64,
    url: &str,
) -> (Created, String) {
    let reply = roadie.post(
        "/v1/games",
        None,
        &json!({"ruleset": ruleset, "seats": seats, "seed": seed, "webhook": {"url": url}}),
    );
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(reply.json["webhook"]["url"], url, "{}", reply.body);
    let secret = reply.json["webhook"]["secret"]
        .as_str()
        .expect("a secret")
        .to_owned();
    assert_eq!(secret.len(), 64);
    (Created::from(&reply.json), secret)
}

/// What the notices of a played game must be: `(version, type, seats or winners)` for each
/// write that handed seats the turn or ended the game.
type Expected = Vec<(u64, String, Vec<u64>)>;

fn seats_of(value: &Value) -> Vec<u64> {
    value
        .as_array()
        .map(|seats| seats.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}

/// Plays `steps` actions (the first legal one of the first seat to act; `None`: to the end),
/// posting through `servers` in turn; returns the notices the writes must cause, creation's
/// included.
fn play(servers: &[&Roadie], game: &Created, steps: Option<usize>) -> Expected {
    let first = servers[0].game(game, None);
    let mut to_act = seats_of(&first.json["to_act"]);
    let mut expected = vec![(1, "your_turn".to_owned(), to_act.clone())];
    let mut step = 0;
    while !to_act.is_empty() && steps.is_none_or(|n| step < n) {
        assert!(step < 5_000, "the game did not end");
        let server = servers[step % servers.len()];
        let seat = to_act[0] as usize;
        let action = server.actions(game, seat)[0].clone();
        let reply = server.act(game, seat, &action);
        assert_eq!(reply.status, 200, "{}", reply.body);
        let version = reply.json["version"].as_u64().expect("version");
        let after = seats_of(&reply.json["to_act"]);
        let handed: Vec<u64> = after.iter().copied().filter(|s| !to_act.contains(s)).collect();
        if !handed.is_empty() {
            expected.push((version, "your_turn".into(), handed));
        }
        if reply.json["status"] == "finished" {
            let state = server.game(game, None);
            expected.push((
                version,
                "game_over".into(),
                seats_of(&state.json["outcome"]["winners"]),
            ));
        }
        to_act = after;
        step += 1;
    }
    expected
}

/// The notices of `game` among the accepted deliveries, as [`Expected`], in version order.
fn received(deliveries: &[Delivery], game: &str) -> Expected {
    let mut by_id: BTreeMap<String, (u64, String, Vec<u64>)> = BTreeMap::new();
    for d in deliveries
        .iter()
        .filter(|d| d.status == 200 && d.json["game"] == game)
    {
        let kind = d.json["type"].as_str().expect("type").to_owned();
        let seats = if kind == "game_over" {
            seats_of(&d.json["winners"])
        } else {
            seats_of(&d.json["seats"])
        };
        by_id.insert(
            d.json["id"].as_str().expect("id").to_owned(),
            (d.json["version"].as_u64().expect("version"), kind, seats),
        );
    }
    let mut notices: Expected = by_id.into_values().collect();
    notices.sort_by_key(|n| (n.0, n.1 == "game_over"));
    notices
}

/// The notices of `expected` that no later one supersedes: a `your_turn` notice is superseded
/// once each seat it names is named by a later one, or once `game_over` follows it. These must
/// reach a receiver however late it answers; the others may be coalesced away before they do.
fn kept(expected: &Expected) -> Expected {
    let mut named = HashSet::new();
    let mut over = false;
    let mut kept = Vec::new();
    for notice in expected.iter().rev() {
        if notice.1 == "game_over" {
            over = true;
            kept.push(notice.clone());
            continue;
        }
        let latest = notice
            .2
            .iter()
            .fold(false, |latest, seat| named.insert(*seat) | latest);
        if latest && !over {
            kept.push(notice.clone());
        }
    }
    kept.reverse();
    kept
}

/// Whether every notice `game` must deliver has been accepted.
fn all_kept_received(deliveries: &[Delivery], game: &str, expected: &Expected) -> bool {
    let got = received(deliveries, game);
    kept(expected).iter().all(|notice| got.contains(notice))
}

/// The accepted notices of `game` are notices of its writes, in order, and include every one
/// that nothing supersedes.
fn assert_delivered(deliveries: &[Delivery], game: &str, expected: &Expected) {
    let got = received(deliveries, game);
    let mut writes = expected.iter();
    for notice in &got {
        assert!(
            writes.any(|n| n == notice),
            "{game}: {notice:?} is no notice of a write, or out of order; got {got:?}, expected {expected:?}"
        );
    }
    for notice in kept(expected) {
        assert!(
            got.contains(&notice),
            "{game}: {notice:?} never came; got {got:?}"
        );
    }
}

fn webhook_env(receiver: &Receiver) -> String {
    format!("127.0.0.1:{}", receiver.port)
}

fn signed_notices_reach_the_receiver(redis: Option<&Redis>, name: &str) {
    let receiver = Receiver::start();
    let hosts = webhook_env(&receiver);
    let roadie = Roadie::start(
        name,
        redis,
        &[
            ("ROADIE_WEBHOOK_HOSTS", &hosts),
            ("ROADIE_WEBHOOK_SWEEP_MS", "50"),
        ],
    );
    let (game, secret) = create_with_webhook(&roadie, 3, 11, &receiver.url("/hook"));
    let (other, other_secret) = create_with_webhook(&roadie, 3, 12, &receiver.url("/other"));
    let expected = play(&[&roadie], &game, None);
    assert_eq!(expected.last().map(|e| e.1.as_str()), Some("game_over"));
    let deliveries = receiver.wait_for(Duration::from_secs(30), "every notice of the game", |d| {
        all_kept_received(d, &game.id, &expected)
    });
    assert_delivered(&deliveries, &game.id, &expected);
    for delivery in deliveries.iter().filter(|d| d.json["game"] == game.id) {
        assert_eq!(delivery.path, "/hook");
        let (valid, t) = verify(&secret, &delivery.signature, &delivery.body);
        assert!(valid, "not signed with the game's secret: {delivery:?}");
        assert!(t.abs_diff(now_secs()) < 60, "timestamp {t}");
        assert!(!verify(&other_secret, &delivery.signature, &delivery.body).0);
        assert!(
            !verify(
                &secret,
                &delivery.signature,
                &delivery.body.replace("\"version\"", "\"version\" ")
            )
            .0
        );
        for field in ["id", "game", "type", "version", "timestamp", "to_act"] {
            assert!(
                !delivery.json[field].is_null(),
                "{field} missing: {}",
                delivery.body
            );
        }
        assert!(!delivery.body.contains(&secret));
    }
    let other_deliveries = receiver.wait_for(Duration::from_secs(10), "the other game's notice", |d| {
        received(d, &other.id).len() == 1
    });
    let first = other_deliveries
        .iter()
        .find(|d| d.json["game"] == other.id)
        .expect("the other game's notice");
    assert!(verify(&other_secret, &first.signature, &first.body).0);
    // The secret is in no view, event or log line.
    let mut seen = roadie.game(&game, None).body;
    for seat in 0..3 {
        seen.push_str(&roadie.game(&game, Some(seat)).body);
        seen.push_str(&serde_json::to_string(&roadie.events(&game, Some(seat))).expect("json"));
    }
    seen.push_str(&roadie.log_text());
    assert!(!seen.contains(&secret) && !seen.contains(&other_secret));
}

#[test]
fn notices_are_signed_with_the_games_secret_in_redis() {
    let redis = Redis::start();
    signed_notices_reach_the_receiver(Some(&redis), "webhooks_signed_redis");
}

#[test]
fn notices_are_signed_with_the_games_secret_in_memory() {
    signed_notices_reach_the_receiver(None, "webhooks_signed_memory");
}

#[test]
fn a_failing_receiver_gets_the_notice_again_with_backoff_until_accepted_or_dropped() {
    let redis = Redis::start();
    let receiver = Receiver::start();
    receiver
        .script
        .lock()
        .expect("script")
        .insert("/flaky".into(), VecDeque::from([500, 500]));
    receiver
        .always
        .lock()
        .expect("always")
        .insert("/down".into(), 503);
    let hosts = webhook_env(&receiver);
    let roadie = Roadie::start(
        "webhooks_retries",
        Some(&redis),
        &[
            ("ROADIE_WEBHOOK_HOSTS", &hosts),
            ("ROADIE_WEBHOOK_SWEEP_MS", "50"),
            ("ROADIE_WEBHOOK_BACKOFF_MS", "300"),
            ("ROADIE_WEBHOOK_ATTEMPTS", "3"),
        ],
    );
    let (flaky, _) = create_with_webhook(&roadie, 3, 21, &receiver.url("/flaky"));
    let (down, _) = create_with_webhook(&roadie, 3, 22, &receiver.url("/down"));
    let of = |d: &[Delivery], game: &Created| -> Vec<Delivery> {
        d.iter().filter(|d| d.json["game"] == game.id).cloned().collect()
    };
    let deliveries = receiver.wait_for(Duration::from_secs(20), "three tries of each", |d| {
        of(d, &flaky).len() >= 3 && of(d, &down).len() >= 3
    });
    for game in [&flaky, &down] {
        let tries = of(&deliveries, game);
        assert!(
            tries.iter().all(|d| d.json["id"] == tries[0].json["id"]),
            "{tries:#?}"
        );
        // 300 ms after the first failure, 600 ms after the second.
        assert!(
            tries[1].at - tries[0].at >= Duration::from_millis(290),
            "{tries:#?}"
        );
        assert!(
            tries[2].at - tries[1].at >= Duration::from_millis(590),
            "{tries:#?}"
        );
    }
    assert_eq!(
        of(&deliveries, &flaky)
            .iter()
            .map(|d| d.status)
            .collect::<Vec<_>>(),
        [500, 500, 200]
    );
    // Accepted, or dropped after the third failure: neither comes again.
    std::thread::sleep(Duration::from_secs(3));
    let after = receiver.deliveries();
    assert_eq!(of(&after, &flaky).len(), 3, "{after:#?}");
    assert_eq!(of(&after, &down).len(), 3, "{after:#?}");
    let log = roadie.log_text();
    assert!(
        log.contains("webhook notice dropped after its last attempt"),
        "{log}"
    );
    let metrics = roadie.get("/metrics", None).body;
    for (result, count) in [("delivered", 1), ("failed", 5), ("dropped", 1)] {
        let line = format!("roadie_webhook_notices_total{{result=\"{result}\"}} {count}");
        assert!(metrics.lines().any(|l| l == line), "{line} in {metrics}");
    }
    // The games leave the due set once no write can still be on its way (twice the store's
    // timeout and a second after their last mark).
    let deadline = Instant::now() + Duration::from_secs(15);
    // The due set is in shards, `roadie:{webhooks:00}:due` to `roadie:{webhooks:15}:due`.
    while redis.zcard_shards("webhooks", ":due") != 0 {
        assert!(Instant::now() < deadline, "games stay due");
        std::thread::sleep(Duration::from_millis(50));
    }
    for key in crate::support::due_keys("webhooks", ":marked") {
        assert_eq!(redis.cli(&["HLEN", &key]), "0", "{key}");
    }
    for game in [&flaky, &down] {
        assert_eq!(
            redis.cli(&["LLEN", &format!("roadie:{{{}}}:outbox", game.id)]),
            "0"
        );
    }
}

#[test]
fn two_processes_deliver_each_notice_once() {
    let redis = Redis::start();
    let receiver = Receiver::start();
    let hosts = webhook_env(&receiver);
    let env = [
        ("ROADIE_WEBHOOK_HOSTS", hosts.as_str()),
        ("ROADIE_WEBHOOK_SWEEP_MS", "20"),
    ];
    let a = Roadie::start("webhooks_two_a", Some(&redis), &env);
    let b = Roadie::start("webhooks_two_b", Some(&redis), &env);
    let mut games = Vec::new();
    for i in 0..6 {
        let server = if i % 2 == 0 { &a } else { &b };
        let (game, _) = create_with_webhook(server, 3, 100 + i, &receiver.url("/hook"));
        games.push(game);
    }
    let mut expected = HashMap::new();
    for game in &games {
        expected.insert(game.id.clone(), play(&[&a, &b], game, Some(40)));
    }
    receiver.wait_for(Duration::from_secs(60), "every notice", |d| {
        games
            .iter()
            .all(|g| all_kept_received(d, &g.id, &expected[&g.id]))
    });
    std::thread::sleep(Duration::from_secs(1));
    let deliveries = receiver.deliveries();
    let mut per_id: HashMap<String, usize> = HashMap::new();
    for d in &deliveries {
        *per_id
            .entry(d.json["id"].as_str().expect("id").to_owned())
            .or_default() += 1;
    }
    assert!(
        per_id.values().all(|&n| n == 1),
        "a notice delivered twice: {per_id:?}"
    );
    for game in &games {
        assert_delivered(&deliveries, &game.id, &expected[&game.id]);
    }
}

#[test]
fn a_killed_process_leaves_its_notices_to_the_other() {
    let redis = Redis::start();
    let receiver = Receiver::start();
    let hosts = webhook_env(&receiver);
    let env = [
        ("ROADIE_WEBHOOK_HOSTS", hosts.as_str()),
        ("ROADIE_WEBHOOK_SWEEP_MS", "20"),
        ("ROADIE_WEBHOOK_TIMEOUT_MS", "1000"),
    ];
    receiver.hold.store(true, Ordering::SeqCst);
    let a = Roadie::start("webhooks_kill_a", Some(&redis), &env);
    let games: Vec<Created> = (0..3)
        .map(|i| create_with_webhook(&a, 3, 200 + i, &receiver.url("/hook")).0)
        .collect();
    let mut expected = HashMap::new();
    for game in &games {
        expected.insert(game.id.clone(), play(&[&a], game, Some(3)));
    }
    // `a` has claimed the games and is posting: the receiver holds its posts unanswered.
    let deadline = Instant::now() + Duration::from_secs(10);
    while receiver.arrived.load(Ordering::SeqCst) == 0 {
        assert!(Instant::now() < deadline, "a posted nothing");
        std::thread::sleep(Duration::from_millis(20));
    }
    a.kill();
    let killed_at = Instant::now();
    receiver.hold.store(false, Ordering::SeqCst);
    let b = Roadie::start("webhooks_kill_b", Some(&redis), &env);
    let total: usize = expected.values().map(Vec::len).sum();
    let deliveries = receiver.wait_for(Duration::from_secs(60), "every notice, from b", |d| {
        let after: Vec<Delivery> = d.iter().filter(|d| d.at > killed_at).cloned().collect();
        games
            .iter()
            .all(|g| all_kept_received(&after, &g.id, &expected[&g.id]))
    });
    let after: Vec<Delivery> = deliveries.into_iter().filter(|d| d.at > killed_at).collect();
    for game in &games {
        assert_delivered(&after, &game.id, &expected[&game.id]);
    }
    assert!(total > games.len());
    drop(b);
}

/// Moves game `ARGV[1]`'s entry from its shard of the due set (`KEYS[1..3]`: due, marked,
/// receivers) into the single due set of earlier versions (`KEYS[4..6]`), as a process of an
/// earlier version would have filed it. Returns 1 when the game was filed.
const UNSHARD: &str = r"
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return 0 end
redis.call('ZADD', KEYS[4], score, ARGV[1])
redis.call('HSET', KEYS[5], ARGV[1], redis.call('HGET', KEYS[2], ARGV[1]))
redis.call('HSET', KEYS[6], ARGV[1], redis.call('HGET', KEYS[3], ARGV[1]))
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
";

/// After an upgrade, the games an earlier version's process left in its single due set
/// (`roadie:{webhooks}:due`, here some still under that process's lease when it died) are moved
/// into their shards and every notice is delivered.
#[test]
fn notices_left_in_the_unsharded_due_set_of_an_earlier_version_are_delivered() {
    let redis = Redis::start();
    let receiver = Receiver::start();
    let hosts = webhook_env(&receiver);
    let env = [
        ("ROADIE_WEBHOOK_HOSTS", hosts.as_str()),
        ("ROADIE_WEBHOOK_SWEEP_MS", "20"),
        ("ROADIE_WEBHOOK_TIMEOUT_MS", "1000"),
    ];
    receiver.hold.store(true, Ordering::SeqCst);
    let a = Roadie::start("webhooks_unsharded_a", Some(&redis), &env);
    let games: Vec<Created> = (0..4)
        .map(|i| create_with_webhook(&a, 3, 300 + i, &receiver.url("/hook")).0)
        .collect();
    let mut expected = HashMap::new();
    for game in &games {
        expected.insert(game.id.clone(), play(&[&a], game, Some(3)));
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while receiver.arrived.load(Ordering::SeqCst) == 0 {
        assert!(Instant::now() < deadline, "a posted nothing");
        std::thread::sleep(Duration::from_millis(20));
    }
    a.kill();
    let killed_at = Instant::now();
    let unsharded = [
        "roadie:{webhooks}:due",
        "roadie:{webhooks}:marked",
        "roadie:{webhooks}:receivers",
    ];
    for game in &games {
        let mut args = vec!["EVAL", UNSHARD, "6"];
        let shard: Vec<String> = [":due", ":marked", ":receivers"]
            .iter()
            .map(|suffix| crate::support::due_key("webhooks", suffix, &game.id))
            .collect();
        args.extend(shard.iter().map(String::as_str));
        args.extend(unsharded);
        args.push(&game.id);
        assert_eq!(redis.cli(&args), "1", "game {} was not filed", game.id);
    }
    assert_eq!(redis.zcard_shards("webhooks", ":due"), 0);
    assert_eq!(redis.cli(&["ZCARD", unsharded[0]]), games.len().to_string());
    receiver.hold.store(false, Ordering::SeqCst);
    let b = Roadie::start("webhooks_unsharded_b", Some(&redis), &env);
    let deliveries = receiver.wait_for(Duration::from_secs(60), "every notice, from b", |d| {
        let after: Vec<Delivery> = d.iter().filter(|d| d.at > killed_at).cloned().collect();
        games
            .iter()
            .all(|g| all_kept_received(&after, &g.id, &expected[&g.id]))
    });
    let after: Vec<Delivery> = deliveries.into_iter().filter(|d| d.at > killed_at).collect();
    for game in &games {
        assert_delivered(&after, &game.id, &expected[&game.id]);
    }
    for key in unsharded {
        assert_eq!(redis.cli(&["EXISTS", key]), "0", "{key} is left");
    }
    assert!(b.log_text().contains("moved into their shards"));
}

#[test]
fn a_url_outside_the_allow_list_is_refused_and_nothing_is_sent() {
    let receiver = Receiver::start();
    let elsewhere = crate::support::free_port();
    let allowed = format!("127.0.0.1:{elsewhere},hooks.example.com");
    let roadie = Roadie::start(
        "webhooks_refused",
        None,
        &[
            ("ROADIE_WEBHOOK_HOSTS", &allowed),
            ("ROADIE_WEBHOOK_SWEEP_MS", "20"),
        ],
    );
    let refused = [
        receiver.url("/hook"),
        format!("http://localhost:{}/hook", receiver.port),
        format!("http://127.0.0.1:{elsewhere}@127.0.0.1:{}/hook", receiver.port),
        format!("ftp://127.0.0.1:{elsewhere}/hook"),
        format!("https://hooks.example.com/{}", "a".repeat(2_100)),
        "hooks.example.com/no-scheme".to_owned(),
    ];
    for url in &refused {
        let reply = roadie.post(
            "/v1/games",
            None,
            &json!({"ruleset": "shrewd-producer", "seats": 3, "webhook": {"url": url}}),
        );
        reply.assert_problem(422, "invalid_webhook");
    }
    roadie
        .post(
            "/v1/games",
            None,
            &json!({"ruleset": "shrewd-producer", "seats": 3, "webhook": {"url": 7}}),
        )
        .assert_problem(400, "malformed_json");
    let closed = Roadie::start("webhooks_none", None, &[]);
    let reply = closed.post(
        "/v1/games",
        None,
        &json!({"ruleset": "shrewd-producer", "seats": 3, "webhook": {"url": receiver.url("/hook")}}),
    );
    reply.assert_problem(422, "invalid_webhook");
    assert!(
        reply.json["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("no webhook"),
        "{}",
        reply.body
    );
    std::thread::sleep(Duration::from_secs(1));
    assert!(receiver.deliveries().is_empty(), "{:#?}", receiver.deliveries());
}

#[test]
fn notices_are_delivered_once_through_a_redis_cluster() {
    let (_nodes, url) = crate::cluster::redis_cluster(&crate::support::scratch("webhooks_cluster"));
    let receiver = Receiver::start();
    let hosts = webhook_env(&receiver);
    let env = [
        ("ROADIE_REDIS_URL", url.as_str()),
        ("ROADIE_WEBHOOK_HOSTS", hosts.as_str()),
        ("ROADIE_WEBHOOK_SWEEP_MS", "20"),
    ];
    let a = Roadie::start("webhooks_cluster_a", None, &env);
    let b = Roadie::start("webhooks_cluster_b", None, &env);
    // Several games, so that their ids hash to slots on different nodes.
    let mut games = Vec::new();
    for i in 0..4 {
        let server = if i % 2 == 0 { &a } else { &b };
        games.push(create_with_webhook(server, 3, 300 + i, &receiver.url("/hook")));
    }
    let mut expected = HashMap::new();
    for (game, _) in &games {
        expected.insert(game.id.clone(), play(&[&a, &b], game, Some(10)));
    }
    receiver.wait_for(Duration::from_secs(60), "every notice", |d| {
        games
            .iter()
            .all(|(g, _)| all_kept_received(d, &g.id, &expected[&g.id]))
    });
    std::thread::sleep(Duration::from_millis(500));
    let deliveries = receiver.deliveries();
    let ids: HashSet<&Value> = deliveries.iter().map(|d| &d.json["id"]).collect();
    assert_eq!(
        ids.len(),
        deliveries.len(),
        "a notice delivered twice: {deliveries:#?}"
    );
    for (game, secret) in &games {
        assert_delivered(&deliveries, &game.id, &expected[&game.id]);
        for d in deliveries.iter().filter(|d| d.json["game"] == game.id) {
            assert!(verify(secret, &d.signature, &d.body).0, "{d:?}");
        }
    }
}

/// A game's notices while its receiver answers `503`: the outbox keeps one `your_turn` notice
/// per seat at most (and `game_over`), and once the receiver answers, exactly those come.
fn a_down_receivers_outbox_stays_bounded(redis: Option<&Redis>, name: &str) {
    // A game that 200 actions do not end.
    const SEATS: usize = 4;
    const ACTIONS: usize = 200;
    let receiver = Receiver::start();
    receiver
        .always
        .lock()
        .expect("always")
        .insert("/down".into(), 503);
    let hosts = webhook_env(&receiver);
    let roadie = Roadie::start(
        name,
        redis,
        &[
            ("ROADIE_WEBHOOK_HOSTS", &hosts),
            ("ROADIE_WEBHOOK_SWEEP_MS", "50"),
            ("ROADIE_WEBHOOK_BACKOFF_MS", "100"),
            ("ROADIE_WEBHOOK_ATTEMPTS", "1000"),
        ],
    );
    let (game, _) = create_game_with_webhook(&roadie, "rock-the-world", SEATS, 31, &receiver.url("/down"));
    let expected = play(&[&roadie], &game, Some(ACTIONS));
    assert!(
        expected.len() > 2 * SEATS && expected.iter().all(|n| n.1 == "your_turn"),
        "the game should run through {ACTIONS} actions: {expected:?}"
    );
    let kept = kept(&expected);
    assert!(kept.len() <= SEATS, "{kept:?}");
    if let Some(redis) = redis {
        let outbox = format!("roadie:{{{}}}:outbox", game.id);
        let held: Vec<(u64, String, Vec<u64>)> = redis
            .cli(&["LRANGE", &outbox, "0", "-1"])
            .lines()
            .map(|body| {
                let json: Value = serde_json::from_str(body).expect("a notice");
                let kind = json["type"].as_str().expect("type").to_owned();
                (
                    json["version"].as_u64().expect("version"),
                    kind,
                    seats_of(&json["seats"]),
                )
            })
            .collect();
        eprintln!(
            "{name}: {} notices from {ACTIONS} actions; the outbox holds {}",
            expected.len(),
            held.len()
        );
        assert_eq!(
            held, kept,
            "the outbox after {ACTIONS} actions with its receiver down"
        );
    }
    // The sweep may not have come round during a fast game: give it a bounded while.
    let tried_by = std::time::Instant::now() + Duration::from_secs(10);
    while receiver.deliveries().is_empty() && std::time::Instant::now() < tried_by {
        std::thread::sleep(Duration::from_millis(50));
    }
    let failed_before = receiver.deliveries().len();
    assert!(failed_before > 0, "nothing was tried while the receiver was down");
    receiver.always.lock().expect("always").clear();
    receiver.wait_for(Duration::from_secs(30), "the kept notices", |d| {
        all_kept_received(d, &game.id, &expected)
    });
    std::thread::sleep(Duration::from_millis(500));
    let deliveries = receiver.deliveries();
    assert_eq!(received(&deliveries, &game.id), kept, "{deliveries:#?}");
    if let Some(redis) = redis {
        let outbox = format!("roadie:{{{}}}:outbox", game.id);
        assert_eq!(redis.cli(&["LLEN", &outbox]), "0");
        let tries = format!("roadie:{{{}}}:outbox_tries", game.id);
        assert_eq!(
            redis.cli(&["HLEN", &tries]),
            "0",
            "failures of coalesced notices stay counted"
        );
    }
}

#[test]
fn a_down_receivers_outbox_holds_one_turn_notice_per_seat_in_redis() {
    let redis = Redis::start();
    a_down_receivers_outbox_stays_bounded(Some(&redis), "webhooks_bounded_redis");
}

#[test]
fn a_down_receivers_outbox_holds_one_turn_notice_per_seat_in_memory() {
    a_down_receivers_outbox_stays_bounded(None, "webhooks_bounded_memory");
}

#[test]
fn a_notice_coalesced_while_it_is_posted_leaves_its_successor_to_be_delivered() {
    let redis = Redis::start();
    let receiver = Receiver::start();
    let hosts = webhook_env(&receiver);
    let roadie = Roadie::start(
        "webhooks_coalesced_in_flight",
        Some(&redis),
        &[
            ("ROADIE_WEBHOOK_HOSTS", &hosts),
            ("ROADIE_WEBHOOK_SWEEP_MS", "20"),
            ("ROADIE_WEBHOOK_TIMEOUT_MS", "10000"),
        ],
    );
    receiver.hold.store(true, Ordering::SeqCst);
    let (game, _) = create_with_webhook(&roadie, 3, 41, &receiver.url("/hook"));
    let deadline = Instant::now() + Duration::from_secs(10);
    while receiver.arrived.load(Ordering::SeqCst) == 0 {
        assert!(Instant::now() < deadline, "the creation's notice was not posted");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The creation's notice is being posted; the writes supersede it meanwhile.
    let expected = play(&[&roadie], &game, Some(12));
    let kept = kept(&expected);
    assert!(!kept.contains(&expected[0]), "{expected:?}");
    let outbox = format!("roadie:{{{}}}:outbox", game.id);
    let held = redis.cli(&["LRANGE", &outbox, "0", "-1"]);
    assert_eq!(held.lines().count(), kept.len(), "{held}");
    // Its receiver accepts it: removing it finds nothing, and its successors still come.
    receiver.hold.store(false, Ordering::SeqCst);
    receiver.wait_for(Duration::from_secs(30), "the later notices", |d| {
        all_kept_received(d, &game.id, &expected)
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    while redis.cli(&["LLEN", &outbox]) != "0" {
        assert!(Instant::now() < deadline, "the outbox keeps notices");
        std::thread::sleep(Duration::from_millis(20));
    }
    let deliveries = receiver.deliveries();
    assert_delivered(&deliveries, &game.id, &expected);
    assert_eq!(received(&deliveries, &game.id)[0], expected[0], "{deliveries:#?}");
}

/// While 40 games' receiver takes every post and never answers, another receiver's notices
/// still come within a sweep or two: the hanging one holds no more than its share of the slots.
fn a_hanging_receiver_leaves_slots_to_others(redis: Option<&Redis>, name: &str) {
    const TIMEOUT: Duration = Duration::from_secs(20);
    const HANGING_GAMES: u64 = 40;
    let hanging = Receiver::start();
    hanging.hold.store(true, Ordering::SeqCst);
    let healthy = Receiver::start();
    let hosts = format!("{},{}", webhook_env(&hanging), webhook_env(&healthy));
    let timeout_ms = TIMEOUT.as_millis().to_string();
    let roadie = Roadie::start(
        name,
        redis,
        &[
            ("ROADIE_WEBHOOK_HOSTS", &hosts),
            ("ROADIE_WEBHOOK_SWEEP_MS", "100"),
            ("ROADIE_WEBHOOK_TIMEOUT_MS", &timeout_ms),
        ],
    );
    for i in 0..HANGING_GAMES {
        create_with_webhook(&roadie, 3, 500 + i, &hanging.url("/hang"));
    }
    // The sweeper has taken what it will of the hanging receiver's games.
    let deadline = Instant::now() + Duration::from_secs(10);
    while hanging.arrived.load(Ordering::SeqCst) < 16 {
        assert!(Instant::now() < deadline, "the hanging receiver got no posts");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(500));
    let mut latencies = Vec::new();
    for i in 0..5 {
        let written = Instant::now();
        let (game, _) = create_with_webhook(&roadie, 3, 600 + i, &healthy.url("/ok"));
        let deliveries = healthy.wait_for(TIMEOUT / 4, "the healthy receiver's notice", |d| {
            d.iter().any(|d| d.json["game"] == game.id)
        });
        let at = deliveries
            .iter()
            .find(|d| d.json["game"] == game.id)
            .map(|d| d.at)
            .expect("delivered");
        latencies.push(at - written);
    }
    eprintln!("{name}: healthy notices after {latencies:?}");
    let held = hanging.arrived.load(Ordering::SeqCst);
    eprintln!("{name}: the hanging receiver holds {held} posts");
    assert!(held <= 16, "the hanging receiver holds {held} of 32 slots");
    hanging.hold.store(false, Ordering::SeqCst);
}

#[test]
fn a_hanging_receiver_does_not_delay_another_in_redis() {
    let redis = Redis::start();
    a_hanging_receiver_leaves_slots_to_others(Some(&redis), "webhooks_fair_redis");
}

#[test]
fn a_hanging_receiver_does_not_delay_another_in_memory() {
    a_hanging_receiver_leaves_slots_to_others(None, "webhooks_fair_memory");
}

#[test]
fn an_apps_games_notices_are_signed_with_the_apps_own_secret() {
    let receiver = Receiver::start();
    let hosts = webhook_env(&receiver);
    let dir = crate::support::scratch("webhooks-app-files");
    let key = roadie_api::apps::new_key();
    let app_secret = "an-apps-own-webhook-secret-of-more-than-32-bytes";
    std::fs::write(dir.join("acme.webhook-secret"), format!("{app_secret}\n")).expect("secret");
    std::fs::write(
        dir.join("apps.toml"),
        format!(
            "[[apps]]\nid = \"acme\"\nname = \"Acme\"\napi_keys = [\"{}\"]\nwebhook_secret_file = \"acme.webhook-secret\"\n",
            roadie_api::apps::key_hash_line(&key)
        ),
    )
    .expect("apps file");
    let apps = dir.join("apps.toml");
    let redis = Redis::start();
    let roadie = Roadie::start(
        "webhooks-app",
        Some(&redis),
        &[
            ("ROADIE_WEBHOOK_HOSTS", &hosts),
            ("ROADIE_WEBHOOK_SWEEP_MS", "50"),
            ("ROADIE_APPS", apps.to_str().expect("path")),
        ],
    );
    let reply = roadie.post(
        "/v1/games",
        Some(&key),
        &json!({"ruleset": "shrewd-producer", "seats": 3, "seed": 5, "webhook": {"url": receiver.url("/app")}}),
    );
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert!(
        reply.json["webhook"].is_null(),
        "the app's secret is never answered: {}",
        reply.body
    );
    let game = reply.json["id"].as_str().expect("id").to_owned();
    let deliveries = receiver.wait_for(Duration::from_secs(20), "the game's first notice", |d| {
        d.iter().any(|d| d.json["game"] == game)
    });
    let first = deliveries
        .iter()
        .find(|d| d.json["game"] == game)
        .expect("a notice");
    assert!(
        verify(app_secret, &first.signature, &first.body).0,
        "not signed with the app's secret: {first:?}"
    );
    assert!(
        !verify(
            "another-secret-entirely-of-32-bytes-or-more",
            &first.signature,
            &first.body
        )
        .0
    );
    assert!(!roadie.log_text().contains(app_secret));
}
