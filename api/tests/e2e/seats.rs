//! Seats joined by name, resigned, given to bots and reissued, through the real binary over
//! HTTP, across two processes sharing one Redis.

use std::sync::Barrier;

use serde_json::{Value, json};

use crate::support::{Redis, Reply, Roadie, rulesets};

/// Creates a game from `body`; panics unless it was created.
fn create(roadie: &Roadie, body: &Value) -> Value {
    let reply = roadie.post("/v1/games", None, body);
    assert_eq!(reply.status, 201, "{}", reply.body);
    reply.json
}

fn join(roadie: &Roadie, id: &str, seat: Option<usize>, name: &str) -> Reply {
    let path = match seat {
        Some(seat) => format!("/v1/games/{id}/seats/{seat}"),
        None => format!("/v1/games/{id}/seats"),
    };
    roadie.post(&path, None, &json!({ "name": name }))
}

/// Both processes ask at the same moment; returns both answers.
fn race(a: &Roadie, b: &Roadie, id: &str, seat: Option<usize>) -> [Reply; 2] {
    let barrier = Barrier::new(2);
    std::thread::scope(|s| {
        let one = s.spawn(|| {
            barrier.wait();
            join(a, id, seat, "Ann")
        });
        let two = s.spawn(|| {
            barrier.wait();
            join(b, id, seat, "Bob")
        });
        [one.join().expect("ann"), two.join().expect("bob")]
    })
}

fn seat_events(roadie: &Roadie, id: &str) -> Vec<Value> {
    let reply = roadie.get(&format!("/v1/games/{id}/events"), None);
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.json["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["body"].clone())
        .filter(|b| {
            b["type"]
                .as_str()
                .is_some_and(|t| t.starts_with("seat_") || t == "token_reissued")
        })
        .collect()
}

#[test]
fn two_clients_racing_for_one_seat_on_two_processes_exactly_one_wins() {
    let redis = Redis::start();
    let a = Roadie::start("seats_race_a", Some(&redis), &[]);
    let b = Roadie::start("seats_race_b", Some(&redis), &[]);
    for round in 0..8 {
        let game = create(
            &a,
            &json!({"ruleset": "shrewd-producer", "seats": [{"name": "Host"}, {"open": true}, {"open": true}]}),
        );
        let id = game["id"].as_str().expect("id");
        assert_eq!(
            game["seats"].as_array().map(Vec::len),
            Some(1),
            "only the named seat has a token"
        );

        let named = race(&a, &b, id, Some(1));
        let winners: Vec<&Reply> = named.iter().filter(|r| r.status == 201).collect();
        assert_eq!(winners.len(), 1, "round {round}: {named:?}");
        named
            .iter()
            .find(|r| r.status != 201)
            .expect("a loser")
            .assert_problem(409, "seat_taken");
        let winner = winners[0];
        assert_eq!(winner.json["seat"], 1);

        let first_open = race(&a, &b, id, None);
        assert_eq!(
            first_open.iter().filter(|r| r.status == 201).count(),
            1,
            "round {round}: {first_open:?}"
        );
        let last = first_open.iter().find(|r| r.status == 201).expect("a winner");
        assert_eq!(last.json["seat"], 2);
        first_open
            .iter()
            .find(|r| r.status != 201)
            .expect("a loser")
            .assert_problem(409, "no_open_seat");

        // Each winner's token opens its seat on either process; the names are public.
        for (roadie, grant) in [(&a, winner), (&b, last)] {
            let seat = grant.json["seat"].as_u64().expect("seat");
            let token = grant.json["token"].as_str().expect("token");
            let view = roadie.get(&format!("/v1/games/{id}"), Some(token));
            assert_eq!(view.status, 200, "{}", view.body);
            assert_eq!(view.json["seat"], seat);
        }
        let seen = b.get(&format!("/v1/games/{id}"), None).json;
        let occupants = seen["occupants"].as_array().expect("occupants");
        assert_eq!(
            occupants[0],
            json!({"seat": 0, "occupant": "player", "name": "Host"})
        );
        for occupant in &occupants[1..] {
            assert_eq!(occupant["occupant"], "player");
            assert!(["Ann", "Bob"].contains(&occupant["name"].as_str().expect("a name")));
        }
        let taken = seat_events(&a, id);
        assert_eq!(taken.len(), 2, "{taken:?}");
        for (event, occupant) in taken.iter().zip(&occupants[1..]) {
            assert_eq!(event["type"], "seat_taken");
            assert_eq!(event["seat"], occupant["seat"]);
            assert_eq!(event["name"], occupant["name"]);
        }
        join(&b, id, None, "Cy").assert_problem(409, "no_open_seat");
        join(&a, id, Some(0), "Cy").assert_problem(409, "seat_taken");
    }
}

#[test]
fn wrong_seat_requests_are_clear_refusals() {
    let roadie = Roadie::start("seats_refusals", None, &[]);
    let refused = |body: Value, status: u16, code: &str| {
        roadie.post("/v1/games", None, &body).assert_problem(status, code);
    };
    refused(
        json!({"ruleset": "shrewd-producer", "seats": [{"name": " "}, {"open": true}, {"open": true}]}),
        422,
        "invalid_name",
    );
    refused(
        json!({"ruleset": "shrewd-producer", "seats": [{"name": "a\u{7}b"}, {"open": true}, {"open": true}]}),
        422,
        "invalid_name",
    );
    refused(
        json!({"ruleset": "shrewd-producer", "seats": [{"name": "x".repeat(33)}, {"open": true}, {"open": true}]}),
        422,
        "invalid_name",
    );
    refused(
        json!({"ruleset": "shrewd-producer", "seats": [{"open": true, "name": "Ann"}, {"open": true}, {"open": true}]}),
        400,
        "malformed_json",
    );
    refused(
        json!({"ruleset": "shrewd-producer", "seats": [{"bot": "clever"}, {"open": true}, {"open": true}]}),
        400,
        "malformed_json",
    );
    refused(
        json!({"ruleset": "shrewd-producer", "seats": [{"open": false}, {"open": true}, {"open": true}]}),
        400,
        "malformed_json",
    );
    refused(
        json!({"ruleset": "shrewd-producer", "seats": [{"open": true}]}),
        422,
        "invalid_seats",
    );
    refused(
        json!({"ruleset": "shrewd-producer", "seats": [{"open": true}, {"open": true}, {"open": true}], "open": true}),
        422,
        "invalid_seats",
    );

    let game = create(
        &roadie,
        &json!({"ruleset": "shrewd-producer", "seats": 3, "open": true}),
    );
    assert_eq!(game["seats"], json!([]), "open seats get no token at creation");
    let id = game["id"].as_str().expect("id");
    join(&roadie, id, Some(3), "Ann").assert_problem(404, "seat_not_found");
    join(&roadie, id, Some(0), "\u{1b}[31mAnn").assert_problem(422, "invalid_name");
    roadie
        .post(&format!("/v1/games/{id}/seats/x"), None, &json!({"name": "Ann"}))
        .assert_problem(404, "seat_not_found");
    roadie
        .post(
            &format!("/v1/games/{id}/seats/0"),
            None,
            &json!({"name": "Ann", "seat": 1}),
        )
        .assert_problem(400, "malformed_json");
    let ann = join(&roadie, id, Some(0), "  Ann  ");
    assert_eq!(ann.status, 201, "{}", ann.body);
    let seen = roadie.get(&format!("/v1/games/{id}"), None).json;
    assert_eq!(seen["occupants"][0]["name"], "Ann", "names are trimmed");
    let ann_token = ann.json["token"].as_str().expect("token");
    roadie
        .post(
            &format!("/v1/games/{id}/seats/1/resign"),
            Some(ann_token),
            &json!({}),
        )
        .assert_problem(403, "not_your_seat");
    roadie
        .post(
            &format!("/v1/games/{id}/seats/1/token"),
            Some(ann_token),
            &json!({}),
        )
        .assert_problem(403, "host_required");
    roadie
        .post(
            &format!("/v1/games/{id}/seats/1/token"),
            Some(game["host_token"].as_str().expect("host")),
            &json!({}),
        )
        .assert_problem(409, "seat_not_played");
    let unchanged = roadie.get(&format!("/v1/games/{id}"), None).json;
    assert_eq!(unchanged["version"], seen["version"], "a refusal changes nothing");
}

/// Plays seat 0 (the first legal action each time) until the game ends; the bots play the
/// other seats inside these requests. Returns how many actions the human posted.
fn play_human(roadie: &Roadie, id: &str, token: &str) -> usize {
    for posted in 0..5_000 {
        let game = roadie.get(&format!("/v1/games/{id}"), Some(token)).json;
        if game["status"] == "finished" {
            return posted;
        }
        let to_act = game["to_act"].as_array().expect("to_act");
        assert_eq!(
            to_act,
            &vec![json!(0)],
            "only the human may be waited for: {game}"
        );
        let actions = roadie.get(&format!("/v1/games/{id}/actions"), Some(token)).json;
        let action = actions["actions"][0].clone();
        let reply = roadie.post(
            &format!("/v1/games/{id}/actions"),
            Some(token),
            &json!({ "action": action }),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
    }
    panic!("the game did not end within 5000 of the human's actions");
}

#[test]
fn a_human_against_bots_plays_a_whole_game_of_every_ruleset() {
    let redis = Redis::start();
    let roadie = Roadie::start("seats_bots", Some(&redis), &[]);
    for (slug, _, max) in rulesets(&roadie) {
        let seats = max.min(4);
        let mut specs = vec![json!({"name": "Ann"})];
        specs.extend((1..seats).map(|i| json!({"bot": if i % 2 == 0 { "greedy" } else { "random" }})));
        let game = create(&roadie, &json!({"ruleset": slug, "seats": specs}));
        let id = game["id"].as_str().expect("id");
        let token = game["seats"][0]["token"].as_str().expect("Ann's token");
        let posted = play_human(&roadie, id, token);
        let end = roadie.get(&format!("/v1/games/{id}"), None).json;
        assert_eq!(end["status"], "finished", "{slug}");
        assert!(end["outcome"].is_object(), "{slug}: {end}");
        assert_eq!(end["occupants"][1]["occupant"], "bot");
        let events = roadie.get(&format!("/v1/games/{id}/events"), None).json;
        let log = events["events"].as_array().expect("events").len();
        assert!(
            log > posted,
            "{slug}: the bots' events are in the log ({log} events, {posted} posts)"
        );
    }
}

#[test]
fn a_reissued_token_refuses_the_old_one_at_once_on_both_processes() {
    let redis = Redis::start();
    let a = Roadie::start("seats_reissue_a", Some(&redis), &[]);
    let b = Roadie::start("seats_reissue_b", Some(&redis), &[]);
    let game = create(&a, &json!({"ruleset": "shrewd-producer", "seats": 3}));
    let id = game["id"].as_str().expect("id");
    let host = game["host_token"].as_str().expect("host");
    let old = game["seats"][1]["token"].as_str().expect("seat 1");
    for roadie in [&a, &b] {
        let seen = roadie.get(&format!("/v1/games/{id}"), Some(old));
        assert_eq!(seen.status, 200, "{}", seen.body);
    }
    let reissued = b.post(&format!("/v1/games/{id}/seats/1/token"), Some(host), &json!({}));
    assert_eq!(reissued.status, 201, "{}", reissued.body);
    assert_eq!(reissued.json["seat"], 1);
    let new = reissued.json["token"].as_str().expect("token");
    assert_eq!(
        seat_events(&a, id),
        vec![json!({"type": "token_reissued", "seat": 1})]
    );
    for roadie in [&a, &b] {
        roadie
            .get(&format!("/v1/games/{id}"), Some(old))
            .assert_problem(401, "token_revoked");
        roadie
            .get(&format!("/v1/games/{id}/actions"), Some(old))
            .assert_problem(401, "token_revoked");
        roadie
            .get(&format!("/v1/games/{id}/events"), Some(old))
            .assert_problem(401, "token_revoked");
        let seen = roadie.get(&format!("/v1/games/{id}"), Some(new));
        assert_eq!(seen.status, 200, "{}", seen.body);
        assert_eq!(seen.json["seat"], 1);
    }
    let other = game["seats"][2]["token"].as_str().expect("seat 2");
    assert_eq!(
        a.get(&format!("/v1/games/{id}"), Some(other)).status,
        200,
        "other seats keep theirs"
    );
    // A seat token carries its generation and no expiry of its own: it lives as long as its game.
    let payload = new.split('.').nth(1).expect("a JWT");
    let claims: Value = serde_json::from_slice(
        &base64::Engine::decode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, payload).expect("base64"),
    )
    .expect("claims");
    assert_eq!(claims["gen"], 1, "{claims}");
    assert!(claims.get("exp").is_none(), "{claims}");
    assert_eq!(
        a.request(a.http.delete(a.url(&format!("/v1/games/{id}"))).bearer_auth(host))
            .status,
        204
    );
    b.get(&format!("/v1/games/{id}"), Some(new))
        .assert_problem(404, "game_not_found");
}

#[test]
fn resigned_and_replaced_seats_are_played_by_bots_to_the_end() {
    let redis = Redis::start();
    let a = Roadie::start("seats_resign_a", Some(&redis), &[]);
    let b = Roadie::start("seats_resign_b", Some(&redis), &[]);
    let game = create(
        &a,
        &json!({"ruleset": "shrewd-producer", "seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]}),
    );
    let id = game["id"].as_str().expect("id");
    let host = game["host_token"].as_str().expect("host");
    let token = |seat: usize| game["seats"][seat]["token"].as_str().expect("token").to_owned();

    a.post(&format!("/v1/games/{id}/seats/0/resign"), Some(host), &json!({}))
        .assert_problem(403, "seat_required");
    let resigned = b.post(
        &format!("/v1/games/{id}/seats/0/resign"),
        Some(&token(0)),
        &json!({}),
    );
    assert_eq!(resigned.status, 200, "{}", resigned.body);
    assert_eq!(
        resigned.json["seat"],
        json!({"seat": 0, "occupant": "bot", "level": "random"})
    );
    a.get(&format!("/v1/games/{id}/actions"), Some(&token(0)))
        .assert_problem(401, "token_revoked");
    a.post(
        &format!("/v1/games/{id}/seats/0/resign"),
        Some(&token(0)),
        &json!({}),
    )
    .assert_problem(401, "token_revoked");

    let replaced = a.request(
        a.http
            .put(a.url(&format!("/v1/games/{id}/seats/1")))
            .bearer_auth(token(1))
            .json(&json!({"bot": "greedy"})),
    );
    replaced.assert_problem(403, "host_required");
    let replaced = a.request(
        a.http
            .put(a.url(&format!("/v1/games/{id}/seats/1")))
            .bearer_auth(host)
            .json(&json!({"bot": "greedy"})),
    );
    assert_eq!(replaced.status, 200, "{}", replaced.body);
    assert_eq!(replaced.json["seat"]["level"], "greedy");
    b.get(&format!("/v1/games/{id}"), Some(&token(1)))
        .assert_problem(401, "token_revoked");

    // Cy resigns last: three bots play the game to its end inside that one request.
    let last = a.post(
        &format!("/v1/games/{id}/seats/2/resign"),
        Some(&token(2)),
        &json!({}),
    );
    assert_eq!(last.status, 200, "{}", last.body);
    let end = b.get(&format!("/v1/games/{id}"), None).json;
    assert_eq!(end["status"], "finished", "{end}");
    let changes = seat_events(&b, id);
    assert_eq!(
        changes,
        vec![
            json!({"type": "seat_resigned", "seat": 0, "level": "random"}),
            json!({"type": "seat_replaced", "seat": 1, "level": "greedy"}),
            json!({"type": "seat_resigned", "seat": 2, "level": "random"}),
        ]
    );
    a.post(
        &format!("/v1/games/{id}/seats/2/resign"),
        Some(&token(2)),
        &json!({}),
    )
    .assert_problem(401, "token_revoked");
}
