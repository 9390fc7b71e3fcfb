//! The list of games with open seats, read through two processes sharing one Redis.

use serde_json::{Value, json};

use crate::support::{Redis, Roadie};

fn listed(roadie: &Roadie, query: &str) -> Vec<Value> {
    let reply = roadie.get(&format!("/v1/games?{query}"), None);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(
        !reply.body.contains("token"),
        "the list shows no token: {}",
        reply.body
    );
    reply.json["games"].as_array().expect("games").clone()
}

fn ids(games: &[Value]) -> Vec<&str> {
    games.iter().map(|g| g["id"].as_str().expect("id")).collect()
}

fn create(roadie: &Roadie, body: Value) -> Value {
    let reply = roadie.post("/v1/games", None, &body);
    assert_eq!(reply.status, 201, "{}", reply.body);
    reply.json
}

#[test]
fn every_process_lists_the_same_open_games_until_they_fill_or_go() {
    let redis = Redis::start();
    let a = Roadie::start("lobby_a", Some(&redis), &[]);
    let b = Roadie::start("lobby_b", Some(&redis), &[]);
    let open = create(
        &a,
        json!({"ruleset": "shrewd-producer", "seats": 3, "open": true}),
    );
    let full = create(&a, json!({"ruleset": "shrewd-producer", "seats": 3}));
    let other = create(
        &a,
        json!({"ruleset": "rock-the-world", "seats": [{"name": "Ann"}, {"open": true}]}),
    );
    let open_id = open["id"].as_str().expect("id");
    let other_id = other["id"].as_str().expect("id");

    let games = listed(&b, "ruleset=shrewd-producer&status=open");
    assert_eq!(ids(&games), [open_id], "{games:?}");
    assert_eq!(games[0]["ruleset"], "shrewd-producer");
    assert_eq!(games[0]["version"], 1);
    assert!(games[0]["created"].as_u64().is_some_and(|t| t > 1_700_000_000));
    assert_eq!(games[0]["seats"][2], json!({"seat": 2, "occupant": "open"}));
    assert!(!ids(&listed(&a, "status=open")).contains(&full["id"].as_str().expect("id")));
    let everything = listed(&a, "");
    assert!(ids(&everything).contains(&open_id) && ids(&everything).contains(&other_id));
    assert_eq!(ids(&listed(&b, "limit=1")).len(), 1);

    for (seat, roadie) in [(0, &a), (1, &b)] {
        let joined = roadie.post(
            &format!("/v1/games/{open_id}/seats/{seat}"),
            None,
            &json!({"name": "P"}),
        );
        assert_eq!(joined.status, 201, "{}", joined.body);
        let games = listed(&a, "ruleset=shrewd-producer");
        assert_eq!(ids(&games), [open_id], "still one seat open");
        assert_eq!(games[0]["seats"][seat]["name"], "P");
    }
    let last = a.post(
        &format!("/v1/games/{open_id}/seats"),
        None,
        &json!({"name": "Last"}),
    );
    assert_eq!(last.status, 201, "{}", last.body);
    for roadie in [&a, &b] {
        assert!(
            listed(roadie, "ruleset=shrewd-producer").is_empty(),
            "full games leave the list"
        );
    }

    let host = other["host_token"].as_str().expect("host");
    let deleted = a.request(
        a.http
            .delete(a.url(&format!("/v1/games/{other_id}")))
            .bearer_auth(host),
    );
    assert_eq!(deleted.status, 204);
    assert!(
        !ids(&listed(&b, "ruleset=rock-the-world")).contains(&other_id),
        "deleted games leave it"
    );
    assert_eq!(redis.cli(&["ZCARD", "roadie:open:{rock-the-world}"]).trim(), "0");

    let finished = b.get("/v1/games?status=finished", None);
    assert_eq!(finished.status, 200, "{}", finished.body);
    assert_eq!(
        finished.json["games"],
        json!([]),
        "the lobby holds running games only"
    );
    b.get("/v1/games?limit=0", None)
        .assert_problem(400, "malformed_query");
    b.get("/v1/games?limit=101", None)
        .assert_problem(400, "malformed_query");
    b.get("/v1/games?ruleset=tiddlywinks", None)
        .assert_problem(404, "ruleset_not_found");
}

#[test]
fn an_expired_game_is_pruned_from_the_list() {
    let redis = Redis::start();
    let a = Roadie::start("lobby_expiry_a", Some(&redis), &[("ROADIE_GAME_TTL_SECS", "1")]);
    let b = Roadie::start("lobby_expiry_b", Some(&redis), &[("ROADIE_GAME_TTL_SECS", "1")]);
    let game = create(
        &a,
        json!({"ruleset": "shrewd-producer", "seats": 3, "open": true}),
    );
    assert_eq!(
        ids(&listed(&b, "ruleset=shrewd-producer")),
        [game["id"].as_str().expect("id")]
    );
    std::thread::sleep(std::time::Duration::from_millis(2_500));
    assert!(listed(&b, "ruleset=shrewd-producer").is_empty());
    assert_eq!(
        redis.cli(&["ZCARD", "roadie:open:{shrewd-producer}"]).trim(),
        "0",
        "pruned on read"
    );
}

#[test]
fn the_in_memory_store_lists_open_games_too() {
    let roadie = Roadie::start("lobby_memory", None, &[]);
    let game = create(
        &roadie,
        json!({"ruleset": "show-business", "seats": [{"open": true}, {"bot": "random"}]}),
    );
    let id = game["id"].as_str().expect("id");
    assert_eq!(ids(&listed(&roadie, "ruleset=show-business")), [id]);
    let joined = roadie.post(&format!("/v1/games/{id}/seats"), None, &json!({"name": "Ann"}));
    assert_eq!(joined.status, 201, "{}", joined.body);
    assert!(listed(&roadie, "ruleset=show-business").is_empty());
}
