//! Every error status, provoked over HTTP: each is problem+json with its code, and none changes
//! the game.

use serde_json::{Value, json};

use crate::play::{Checks, Table};
use crate::support::{Redis, Roadie, rulesets, send};

fn post_raw(
    roadie: &Roadie,
    path: &str,
    token: Option<&str>,
    body: impl Into<reqwest::blocking::Body>,
) -> crate::support::Reply {
    let mut request = roadie
        .http
        .post(roadie.url(path))
        .header("content-type", "application/json")
        .body(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    send(request)
}

#[test]
fn every_error_status_is_a_problem_with_its_code_and_changes_nothing() {
    let redis = Redis::start();
    let roadie = Roadie::start("errors", Some(&redis), &[("ROADIE_BODY_LIMIT", "2048")]);
    let (slug, min, max) = rulesets(&roadie).into_iter().next().expect("a ruleset");
    let mut table = Table::new(&roadie, &slug, max, 9);
    let other = roadie.create(&slug, min, Some(10));
    let game = table.created.clone();
    let actions_path = format!("/v1/games/{}/actions", game.id);

    // Find a position where some seat may not act and the acting seat has an unlisted action
    // that it was offered before (well formed, not legal now).
    let mut seen: Vec<Value> = Vec::new();
    let found = loop {
        let state = roadie.game(&game, None);
        let to_act: Vec<usize> = serde_json::from_value(state.json["to_act"].clone()).expect("to_act");
        assert!(
            !to_act.is_empty(),
            "the game ended before every error was provoked"
        );
        let actor = to_act[0];
        let legal = roadie.actions(&game, actor);
        let idle = (0..max).find(|s| !to_act.contains(s));
        let unlisted = seen.iter().find(|a| !legal.contains(a)).cloned();
        if let (Some(idle), Some(unlisted)) = (idle, unlisted) {
            break (actor, idle, legal, unlisted);
        }
        seen.extend(legal);
        assert!(
            table.step(Checks::Acting),
            "the game ended before every error was provoked"
        );
        assert!(
            table.steps < 500,
            "no position with an idle seat and an unlisted action"
        );
    };
    let (actor, idle, legal, unlisted) = found;
    let before = roadie.game(&game, Some(actor));
    let events_before = roadie.events(&game, None);
    let actor_token = Some(game.tokens[actor].as_str());

    // 400: malformed JSON, unknown fields, a malformed action, a malformed query.
    post_raw(&roadie, &actions_path, actor_token, "{\"action\":").assert_problem(400, "malformed_json");
    post_raw(&roadie, &actions_path, actor_token, "[]").assert_problem(400, "malformed_json");
    roadie
        .post(
            &actions_path,
            actor_token,
            &json!({"action": legal[0], "extra": 1}),
        )
        .assert_problem(400, "malformed_json");
    let malformed = roadie.post(
        &actions_path,
        actor_token,
        &json!({"action": {"type": "no_such_action_type"}}),
    );
    malformed.assert_problem(400, "malformed_action");
    assert_eq!(malformed.json["legal_actions"], Value::Array(legal.clone()));
    roadie
        .post(
            "/v1/games",
            None,
            &json!({"ruleset": slug, "seats": max, "colour": "red"}),
        )
        .assert_problem(400, "malformed_json");
    roadie
        .get(&format!("/v1/games/{}/events?after=soon", game.id), None)
        .assert_problem(400, "malformed_query");

    // 401: no token, a garbled one.
    roadie
        .post(&actions_path, None, &json!({"action": legal[0]}))
        .assert_problem(401, "token_missing");
    let garbled = roadie.post(&actions_path, Some("not.a.token"), &json!({"action": legal[0]}));
    garbled.assert_problem(401, "token_invalid");
    assert_eq!(garbled.header("www-authenticate"), Some("Bearer"));
    roadie
        .get(&format!("/v1/games/{}", game.id), Some("garbage"))
        .assert_problem(401, "token_invalid");

    // 403: another game's token, the host token where a seat is needed, a seat token where the
    // host is.
    roadie
        .post(
            &actions_path,
            Some(&other.tokens[actor.min(min - 1)]),
            &json!({"action": legal[0]}),
        )
        .assert_problem(403, "wrong_game");
    roadie
        .post(
            &actions_path,
            Some(&game.host_token),
            &json!({"action": legal[0]}),
        )
        .assert_problem(403, "seat_required");
    let delete = roadie.request(
        roadie
            .http
            .delete(roadie.url(&format!("/v1/games/{}", game.id)))
            .bearer_auth(&game.tokens[0]),
    );
    delete.assert_problem(403, "host_required");

    // 404: unknown game (well formed id or not), unknown ruleset, unknown route.
    roadie
        .get("/v1/games/0123456789abcdef01234567", None)
        .assert_problem(404, "game_not_found");
    roadie
        .get("/v1/games/%7Bnot-an-id%7D", None)
        .assert_problem(404, "game_not_found");
    roadie
        .post("/v1/games", None, &json!({"ruleset": "tiddlywinks", "seats": 2}))
        .assert_problem(404, "ruleset_not_found");
    roadie
        .get("/v1/rulesets/tiddlywinks", None)
        .assert_problem(404, "ruleset_not_found");
    roadie
        .get("/v2/anything", None)
        .assert_problem(404, "route_not_found");

    // 405: a method the route does not take.
    roadie
        .request(roadie.http.put(roadie.url(&format!("/v1/games/{}", game.id))))
        .assert_problem(405, "method_not_allowed");

    // 409: a seat that may not act now.
    let turn = roadie.act(&game, idle, &legal[0]);
    turn.assert_problem(409, "not_your_turn");
    assert!(
        turn.json["to_act"]
            .as_array()
            .is_some_and(|a| a.contains(&json!(actor))),
        "{}",
        turn.body
    );

    // 412: If-Match naming another revision, even one with the current number; 400 for one
    // that is not an entity tag.
    let version = before.json["version"].as_u64().expect("version");
    let revision = before.json["revision"].as_str().expect("revision");
    for tag in [
        format!("\"{}.{}\"", version - 1, "0".repeat(32)),
        format!("\"{version}.{}\"", "0".repeat(32)),
        format!("\"{version}\""),
    ] {
        let stale = roadie.request(
            roadie
                .http
                .post(roadie.url(&actions_path))
                .bearer_auth(&game.tokens[actor])
                .header("If-Match", tag)
                .json(&json!({"action": legal[0]})),
        );
        stale.assert_problem(412, "version_mismatch");
        assert_eq!(stale.json["current_version"], version);
        assert_eq!(stale.json["current_revision"], revision);
        assert_eq!(stale.header("etag"), Some(format!("\"{revision}\"").as_str()));
    }
    roadie
        .request(
            roadie
                .http
                .post(roadie.url(&actions_path))
                .bearer_auth(&game.tokens[actor])
                .header("If-Match", "7")
                .json(&json!({"action": legal[0]})),
        )
        .assert_problem(400, "malformed_precondition");

    // 413: a body over the limit, on both posts.
    let huge = format!("{{\"action\": {{\"type\": \"{}\"}}}}", "x".repeat(4096));
    post_raw(&roadie, &actions_path, actor_token, huge.clone()).assert_problem(413, "payload_too_large");
    post_raw(&roadie, "/v1/games", None, huge).assert_problem(413, "payload_too_large");

    // 422: an action offered before that is not legal now (with the legal ones), bad seats,
    // bad options.
    let illegal = roadie.act(&game, actor, &unlisted);
    illegal.assert_problem(422, "illegal_action");
    assert_eq!(illegal.json["legal_actions"], Value::Array(legal.clone()));
    roadie
        .post("/v1/games", None, &json!({"ruleset": slug, "seats": max + 1}))
        .assert_problem(422, "invalid_seats");
    roadie
        .post(
            "/v1/games",
            None,
            &json!({"ruleset": slug, "seats": max, "options": {"no_such_option": true}}),
        )
        .assert_problem(422, "invalid_options");

    // Nothing changed: same version, same view, same log.
    let after = roadie.game(&game, Some(actor));
    assert_eq!(after.body, before.body, "an error changed the game");
    assert_eq!(roadie.events(&game, None), events_before);

    // A seat token still plays, and the host may delete the game.
    assert_eq!(roadie.act(&game, actor, &legal[0]).status, 200);
    let deleted = roadie.request(
        roadie
            .http
            .delete(roadie.url(&format!("/v1/games/{}", game.id)))
            .bearer_auth(&game.host_token),
    );
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    roadie
        .get(&format!("/v1/games/{}", game.id), None)
        .assert_problem(404, "game_not_found");
}

#[test]
fn an_idempotency_key_makes_a_retried_post_return_the_first_answer() {
    let roadie = Roadie::start("idempotency", None, &[]);
    let (slug, min, _) = rulesets(&roadie).into_iter().next().expect("a ruleset");
    let game = roadie.create(&slug, min, Some(3));
    let state = roadie.game(&game, None);
    let seat = state.json["to_act"][0].as_u64().expect("someone acts") as usize;
    let action = roadie.actions(&game, seat)[0].clone();
    let post = |key: &str, action: &Value| {
        roadie.request(
            roadie
                .http
                .post(roadie.url(&format!("/v1/games/{}/actions", game.id)))
                .bearer_auth(&game.tokens[seat])
                .header("Idempotency-Key", key)
                .json(&json!({ "action": action })),
        )
    };
    let first = post("retry-1", &action);
    assert_eq!(first.status, 200, "{}", first.body);
    let again = post("retry-1", &action);
    assert_eq!(again.status, 200);
    let mut expected = first.json.clone();
    expected.as_object_mut().expect("an object").remove("game");
    assert_eq!(
        again.json, expected,
        "the retry returns the first answer, without the game"
    );
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.header("etag"), first.header("etag"));
    // The same action with its keys in another order is the same action.
    let mut reordered = serde_json::Map::new();
    let fields = action.as_object().expect("an action is an object");
    for (key, value) in fields.iter().rev() {
        reordered.insert(key.clone(), value.clone());
    }
    let reordered_reply = post("retry-1", &Value::Object(reordered));
    assert_eq!(reordered_reply.status, 200, "{}", reordered_reply.body);
    assert_eq!(reordered_reply.json, expected);
    assert_eq!(
        roadie.game(&game, None).json["version"],
        2,
        "the action was applied once"
    );
    post("retry-1", &json!({"type": "something_else"})).assert_problem(409, "idempotency_key_reused");
    post("bad key with spaces", &action).assert_problem(400, "malformed_idempotency_key");
}
