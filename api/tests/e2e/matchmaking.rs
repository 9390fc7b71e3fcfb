//! Matchmaking through the real binary: tickets posted to several processes on one Redis are
//! seated in full games, each seat granted once, even when a process dies mid-run.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Redis, Roadie, send};

/// A ticket as posted: its id, token and the name its seat must carry.
#[derive(Clone, Debug)]
struct Posted {
    id: String,
    token: String,
    name: String,
}

fn post_ticket(server: &Roadie, body: &Value) -> Option<Posted> {
    let sent = server
        .http
        .post(server.url("/v1/tickets"))
        .json(body)
        .send()
        .ok()?;
    let status = sent.status().as_u16();
    let reply: Value = sent.json().ok()?;
    assert_eq!(status, 201, "{reply}");
    assert_eq!(reply["status"], "waiting", "{reply}");
    assert!(reply["expires_at"].as_u64().is_some(), "{reply}");
    Some(Posted {
        id: reply["id"].as_str()?.to_owned(),
        token: reply["token"].as_str()?.to_owned(),
        name: body["name"].as_str()?.to_owned(),
    })
}

fn ticket_body(name: &str) -> Value {
    json!({"ruleset": "shrewd-producer", "seats": 4, "name": name})
}

/// The ticket once it stops waiting, or as it is after `within`.
fn settled(server: &Roadie, ticket: &Posted, within: Duration) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let reply = send(
            server
                .http
                .get(server.url(&format!("/v1/tickets/{}?wait=2", ticket.id)))
                .bearer_auth(&ticket.token),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
        if reply.json["status"] != "waiting" || Instant::now() > deadline {
            return reply.json;
        }
    }
}

/// Checks that every matched ticket holds a seat no other ticket holds, named after it, whose
/// token opens that seat, and (with `logged`) whose log says who took it; answers the seats
/// granted, by game.
fn check_seats(server: &Roadie, matched: &[(Posted, Value)], logged: bool) -> HashMap<String, Vec<u64>> {
    let mut granted: HashMap<String, Vec<u64>> = HashMap::new();
    let mut seen = HashSet::new();
    for (ticket, info) in matched {
        let game = info["game"].as_str().expect("a game").to_owned();
        let seat = info["seat"].as_u64().expect("a seat");
        assert!(
            seen.insert((game.clone(), seat)),
            "seat {seat} of {game} granted twice"
        );
        let token = info["seat_token"].as_str().expect("a seat token");
        let view = server.get(&format!("/v1/games/{game}"), Some(token));
        assert_eq!(view.status, 200, "{}", view.body);
        assert_eq!(view.json["seat"], seat, "{}", view.body);
        assert_eq!(
            view.json["occupants"][seat as usize]["name"],
            ticket.name.as_str(),
            "{}",
            view.body
        );
        let log = server.get(&format!("/v1/games/{game}/events?after=0&limit=5000"), None);
        let announced = log.json["events"]
            .as_array()
            .expect("events")
            .iter()
            .any(|e| e["body"] == json!({"type": "seat_taken", "seat": seat, "name": ticket.name}));
        assert!(
            announced || !logged,
            "no seat_taken for seat {seat} of {game}: {}",
            log.body
        );
        granted.entry(game).or_default().push(seat);
    }
    granted
}

#[test]
fn forty_tickets_through_two_processes_make_ten_games() {
    let redis = Redis::start();
    let a = Roadie::start("matchmaking_a", Some(&redis), &[]);
    let b = Roadie::start("matchmaking_b", Some(&redis), &[]);
    let tickets: Vec<Posted> = (0..40)
        .map(|i| {
            let server = if i % 2 == 0 { &a } else { &b };
            post_ticket(server, &ticket_body(&format!("player {i}"))).expect("posted")
        })
        .collect();
    let matched: Vec<(Posted, Value)> = tickets
        .iter()
        .enumerate()
        .map(|(i, ticket)| {
            let server = if i % 2 == 0 { &b } else { &a };
            let info = settled(server, ticket, Duration::from_secs(20));
            assert_eq!(info["status"], "matched", "{info}");
            (ticket.clone(), info)
        })
        .collect();
    let granted = check_seats(&a, &matched, true);
    assert_eq!(granted.len(), 10, "{granted:?}");
    for (game, mut seats) in granted {
        seats.sort_unstable();
        assert_eq!(seats, vec![0, 1, 2, 3], "the seats of {game}");
    }
    let stranger = a.get(&format!("/v1/tickets/{}", tickets[0].id), Some(&tickets[1].token));
    stranger.assert_problem(404, "ticket_not_found");
}

#[test]
fn a_process_killed_mid_run_loses_and_doubles_no_ticket() {
    let redis = Redis::start();
    let lease = [("ROADIE_TICKET_LEASE_MS", "1000")];
    let a = Roadie::start("matchmaking_kill_a", Some(&redis), &lease);
    let b = Roadie::start("matchmaking_kill_b", Some(&redis), &lease);
    let posted: Vec<Posted> = std::thread::scope(|scope| {
        let posters: Vec<_> = (0..4)
            .map(|t| {
                let (a, b) = (&a, &b);
                scope.spawn(move || {
                    (0..10)
                        .filter_map(|i| {
                            let n = t * 10 + i;
                            let server = if n % 2 == 0 { a } else { b };
                            post_ticket(server, &ticket_body(&format!("player {n}")))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(150));
        b.kill();
        posters
            .into_iter()
            .flat_map(|p| p.join().expect("poster"))
            .collect()
    });
    assert!(posted.len() >= 20, "only {} tickets were posted", posted.len());
    let mut matched = Vec::new();
    let mut waiting = 0;
    for ticket in &posted {
        let info = settled(&a, ticket, Duration::from_secs(5));
        match info["status"].as_str() {
            Some("matched") => matched.push((ticket.clone(), info)),
            Some("waiting") => waiting += 1,
            other => panic!("ticket {} is {other:?}: {info}", ticket.id),
        }
    }
    check_seats(&a, &matched, true);
    // Any four waiting tickets would have been seated by the surviving process.
    assert!(waiting < 4, "{waiting} tickets still wait");
}

#[test]
fn a_lone_ticket_is_seated_with_bots_after_its_wait() {
    let roadie = Roadie::start("matchmaking_bots", None, &[]);
    let ticket = post_ticket(
        &roadie,
        &json!({"ruleset": "shrewd-producer", "seats": 3, "name": "Solo", "bots_after_secs": 1, "bot_level": "greedy"}),
    )
    .expect("posted");
    let started = Instant::now();
    let info = settled(&roadie, &ticket, Duration::from_secs(5));
    assert_eq!(info["status"], "matched", "{info}");
    assert!(started.elapsed() < Duration::from_secs(5));
    let game = info["game"].as_str().expect("a game");
    let view = roadie.get(&format!("/v1/games/{game}"), info["seat_token"].as_str());
    assert_eq!(view.status, 200, "{}", view.body);
    let occupants = view.json["occupants"].as_array().expect("occupants");
    assert_eq!(occupants[0]["name"], "Solo");
    assert!(
        occupants[1..]
            .iter()
            .all(|o| o["occupant"] == "bot" && o["level"] == "greedy"),
        "{occupants:?}"
    );
}

/// In Redis: a ticket whose wait for bots is over is seated with bots, while one in the same
/// queue that asked for none keeps waiting for people.
#[test]
fn only_tickets_that_asked_for_bots_are_seated_beside_them() {
    let redis = Redis::start();
    let roadie = Roadie::start("matchmaking_bots_chosen", Some(&redis), &[]);
    let people = post_ticket(
        &roadie,
        &json!({"ruleset": "shrewd-producer", "seats": 3, "name": "People"}),
    )
    .expect("posted");
    let bots = post_ticket(
        &roadie,
        &json!({"ruleset": "shrewd-producer", "seats": 3, "name": "Bots", "bots_after_secs": 1}),
    )
    .expect("posted");
    let matched = settled(&roadie, &bots, Duration::from_secs(5));
    assert_eq!(matched["status"], "matched", "{matched}");
    let game = matched["game"].as_str().expect("a game");
    let view = roadie.get(&format!("/v1/games/{game}"), matched["seat_token"].as_str());
    let occupants = view.json["occupants"].as_array().expect("occupants");
    let named: Vec<&Value> = occupants.iter().filter(|o| o["occupant"] != "bot").collect();
    assert_eq!(
        named.len(),
        1,
        "only the ticket that asked for bots sits beside them: {occupants:?}"
    );
    assert_eq!(named[0]["name"], "Bots");
    let waiting = settled(&roadie, &people, Duration::from_secs(0));
    assert_eq!(waiting["status"], "waiting", "{waiting}");
    assert_eq!(waiting["position"], 1, "{waiting}");
}

#[test]
fn cancel_expiry_and_bad_input_get_documented_problems() {
    let roadie = Roadie::start("matchmaking_problems", None, &[("ROADIE_TICKET_TTL_SECS", "2")]);
    let post = |body: Value| roadie.post("/v1/tickets", None, &body);
    post(json!({"ruleset": "no-such-game", "seats": 2, "name": "A"}))
        .assert_problem(404, "ruleset_not_found");
    post(json!({"ruleset": "shrewd-producer", "seats": 99, "name": "A"}))
        .assert_problem(422, "invalid_seats");
    post(json!({"ruleset": "shrewd-producer", "seats": 3, "name": "   "}))
        .assert_problem(422, "invalid_name");
    post(json!({"ruleset": "shrewd-producer", "seats": 3, "name": "A", "bots_after_secs": 3}))
        .assert_problem(422, "invalid_ticket");
    post(json!({"ruleset": "shrewd-producer", "seats": 3, "name": "A", "options": {"nope": 1}}))
        .assert_problem(422, "invalid_options");
    post(json!({"ruleset": "shrewd-producer", "seats": "two", "name": "A"}))
        .assert_problem(400, "malformed_json");
    roadie
        .get("/v1/tickets/nope", Some("x"))
        .assert_problem(404, "ticket_not_found");

    let body = json!({"ruleset": "shrewd-producer", "seats": 3, "name": "A"});
    let first = post_ticket(&roadie, &body).expect("posted");
    let path = format!("/v1/tickets/{}", first.id);
    roadie.get(&path, None).assert_problem(401, "token_missing");
    roadie
        .get(&path, Some("not-the-token"))
        .assert_problem(404, "ticket_not_found");
    assert_eq!(roadie.get(&path, Some(&first.token)).json["position"], 1);
    let cancel = |ticket: &Posted| {
        send(
            roadie
                .http
                .delete(roadie.url(&format!("/v1/tickets/{}", ticket.id)))
                .bearer_auth(&ticket.token),
        )
    };
    assert_eq!(cancel(&first).status, 204);
    assert_eq!(roadie.get(&path, Some(&first.token)).json["status"], "cancelled");

    let one = post_ticket(&roadie, &body).expect("posted");
    let two = post_ticket(&roadie, &body).expect("posted");
    post_ticket(&roadie, &body).expect("posted");
    assert_eq!(
        settled(&roadie, &one, Duration::from_secs(5))["status"],
        "matched"
    );
    cancel(&two).assert_problem(409, "ticket_matched");
    let one_info = settled(&roadie, &one, Duration::from_secs(1));
    let two_info = settled(&roadie, &two, Duration::from_secs(1));
    assert_eq!(one_info["game"], two_info["game"]);
    assert_ne!(one_info["seat"], two_info["seat"]);

    let lonely = post_ticket(&roadie, &body).expect("posted");
    std::thread::sleep(Duration::from_millis(2_500));
    let expired = roadie.get(&format!("/v1/tickets/{}", lonely.id), Some(&lonely.token));
    assert_eq!(expired.json["status"], "expired", "{}", expired.body);
}

/// What the claim script leaves when its process dies before creating the game: the queue's
/// waiting tickets taken off it into a claim (with one bot seat) whose lease has run out, and
/// the queue still filed as due in the index `ARGV[4]`.
const DEAD_CLAIM: &str = r"
local prefix = 'roadie:mm:{' .. ARGV[1] .. '}:'
local ids = redis.call('ZRANGE', prefix .. 'queue', 0, -1)
local tickets = {}
for _, id in ipairs(ids) do
  redis.call('HSET', prefix .. 't:' .. id, 'state', 'claimed')
  redis.call('ZREM', prefix .. 'queue', id)
  table.insert(tickets, {id = id, name = redis.call('HGET', prefix .. 't:' .. id, 'name')})
end
local claim = {id = ARGV[3], tickets = tickets, bots = 1, level = 'random', lease = tonumber(ARGV[2])}
redis.call('HSET', prefix .. 'claims', ARGV[3], cjson.encode(claim))
redis.call('ZADD', ARGV[4], ARGV[2], ARGV[1])
return #ids
";

/// Waits until a sweep has filed `queue` in its shard under its tickets' expiry, minutes after
/// `now`: only the entry a dead claim then leaves makes it due now (a sweep that read the queue
/// before would file it under the expiry again, over that entry).
fn filed_under_expiry(redis: &Redis, queue: &str, now: &str) {
    let now_ms: u64 = now.parse().expect("a time");
    let filed = Instant::now() + Duration::from_secs(10);
    loop {
        let score = redis.cli(&["ZSCORE", &queue_shard(queue), queue]);
        if score.trim().parse::<u64>().is_ok_and(|at| at > now_ms + 60_000) {
            return;
        }
        assert!(
            Instant::now() < filed,
            "the queue is not filed under its tickets' expiry: {score:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The shard of the index of queues that queue `queue` is filed in.
fn queue_shard(queue: &str) -> String {
    crate::support::due_key("mm", ":due", queue)
}

#[test]
fn a_claim_whose_process_died_is_completed_by_another() {
    claim_of_a_dead_process_completed("matchmaking_dead_claim", false);
}

/// A process of an earlier version filed its queues in one index, `roadie:{mm}:due`: after an
/// upgrade, a queue left there is moved into its shard and looked at.
#[test]
fn a_queue_left_in_the_unsharded_index_of_an_earlier_version_is_still_looked_at() {
    claim_of_a_dead_process_completed("matchmaking_unsharded", true);
}

/// Three tickets taken into a claim by a process that died, with the queue filed in its shard
/// (or, `unsharded`, in the single index of earlier versions): another process completes it.
fn claim_of_a_dead_process_completed(name: &str, unsharded: bool) {
    let redis = Redis::start();
    let roadie = Roadie::start(name, Some(&redis), &[]);
    let tickets: Vec<Posted> = (0..3)
        .map(|i| post_ticket(&roadie, &ticket_body(&format!("patient {i}"))).expect("posted"))
        .collect();
    let queue = &tickets[0].id[..16];
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis()
        .to_string();
    let third = roadie.get(&format!("/v1/tickets/{}", tickets[2].id), Some(&tickets[2].token));
    assert_eq!(third.json["status"], "waiting", "{}", third.body);
    assert_eq!(third.json["position"], 3, "{}", third.body);
    let game = "0123456789abcdef01234567";
    filed_under_expiry(&redis, queue, &now);
    let index = if unsharded {
        "roadie:{mm}:due".to_owned()
    } else {
        queue_shard(queue)
    };
    let claimed = redis.cli(&["EVAL", DEAD_CLAIM, "0", queue, &now, game, &index]);
    assert_eq!(claimed.trim(), "3", "{claimed}");
    let cancel = send(
        roadie
            .http
            .delete(roadie.url(&format!("/v1/tickets/{}", tickets[2].id)))
            .bearer_auth(&tickets[2].token),
    );
    cancel.assert_problem(409, "ticket_matched");
    let matched: Vec<(Posted, Value)> = tickets
        .iter()
        .map(|ticket| {
            let info = settled(&roadie, ticket, Duration::from_secs(10));
            assert_eq!(info["status"], "matched", "{info}");
            assert_eq!(info["game"], game, "{info}");
            (ticket.clone(), info)
        })
        .collect();
    let granted = check_seats(&roadie, &matched, true);
    assert_eq!(granted[game].len(), 3);
    let view = roadie.get(&format!("/v1/games/{game}"), None);
    assert_eq!(view.json["occupants"][3]["occupant"], "bot", "{}", view.body);
    // Unsharded, the queue's own shard had it filed only at its tickets' expiry, minutes away:
    // the claim was completed because the entry left in the single index was moved there.
    let deadline = Instant::now() + Duration::from_secs(5);
    while redis.cli(&["ZCARD", "roadie:{mm}:due"]) != "0" || redis.cli(&["ZCARD", &queue_shard(queue)]) != "0"
    {
        assert!(
            Instant::now() < deadline,
            "the queue has nothing left to look at, yet stays filed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn tickets_match_on_a_three_node_redis_cluster() {
    let (_nodes, url) = crate::cluster::redis_cluster(&crate::support::scratch("matchmaking_cluster"));
    let env = [("ROADIE_REDIS_URL", url.as_str())];
    let a = Roadie::start("matchmaking_cluster_a", None, &env);
    let b = Roadie::start("matchmaking_cluster_b", None, &env);
    let mut tickets: Vec<Posted> = (0..8)
        .map(|i| {
            let server = if i % 2 == 0 { &a } else { &b };
            post_ticket(server, &ticket_body(&format!("player {i}"))).expect("posted")
        })
        .collect();
    tickets.push(
        post_ticket(
            &b,
            &json!({"ruleset": "shrewd-producer", "seats": 3, "name": "Solo", "bots_after_secs": 1}),
        )
        .expect("posted"),
    );
    let matched: Vec<(Posted, Value)> = tickets
        .iter()
        .map(|ticket| {
            let info = settled(&a, ticket, Duration::from_secs(10));
            assert_eq!(info["status"], "matched", "{info}");
            (ticket.clone(), info)
        })
        .collect();
    let granted = check_seats(&b, &matched, true);
    assert_eq!(granted.len(), 3, "{granted:?}");
}

#[test]
fn a_claim_whose_game_was_created_before_its_process_died_is_not_created_twice() {
    let redis = Redis::start();
    let roadie = Roadie::start("matchmaking_dead_after_create", Some(&redis), &[]);
    let tickets: Vec<Posted> = (0..3)
        .map(|i| post_ticket(&roadie, &ticket_body(&format!("patient {i}"))).expect("posted"))
        .collect();
    // The game the dead process created under the claim's id before it could seat the tickets.
    let created = roadie.post(
        "/v1/games",
        None,
        &json!({"ruleset": "shrewd-producer", "seats": [
            {"name": "patient 0"}, {"name": "patient 1"}, {"name": "patient 2"}, {"bot": "random"}
        ]}),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let game = created.json["id"].as_str().expect("an id");
    let version = created.json["version"].clone();
    let queue = &tickets[0].id[..16];
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis()
        .to_string();
    filed_under_expiry(&redis, queue, &now);
    assert_eq!(
        redis
            .cli(&["EVAL", DEAD_CLAIM, "0", queue, &now, game, &queue_shard(queue)])
            .trim(),
        "3"
    );
    let matched: Vec<(Posted, Value)> = tickets
        .iter()
        .map(|ticket| {
            let info = settled(&roadie, ticket, Duration::from_secs(10));
            assert_eq!(info["status"], "matched", "{info}");
            assert_eq!(info["game"], game, "{info}");
            (ticket.clone(), info)
        })
        .collect();
    check_seats(&roadie, &matched, false);
    let view = roadie.get(&format!("/v1/games/{game}"), None);
    assert_eq!(
        view.json["version"], version,
        "the game was written again: {}",
        view.body
    );
}
