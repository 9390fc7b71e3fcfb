//! Every problem code the service can send, each provoked in process: a code added to
//! `Code` without a test here fails `every_problem_code_is_provoked`.

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonwebtoken::{EncodingKey, Header};
use roadie_api::table::Code;
use roadie_api::tokens::Claims;
use roadie_engine::Seat;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{Game, Reply, SECRET, TestApp};

/// Codes only a failing, full or lagging store can cause, tested end to end with a real Redis
/// (`tests/tests/e2e/readiness.rs`, `integrity.rs`, `limits.rs`), and codes no request can cause.
const NOT_IN_PROCESS: &[(&str, &str)] = &[
    ("store_unavailable", "a Redis that is down: e2e readiness"),
    ("outcome_unknown", "a Redis that holds writes: e2e integrity"),
    ("store_full", "a Redis at its maxmemory: e2e limits"),
    (
        "contention",
        "posts racing through two processes: e2e concurrency",
    ),
    (
        "unreadable_body",
        "a connection that breaks mid-body, which leaves no one to answer",
    ),
    ("internal", "a fault of the server; no request causes it"),
    (
        "rules_version_unavailable",
        "two processes playing different rules versions on one Redis: e2e upgrade",
    ),
];

fn token(claims: &Claims) -> String {
    jsonwebtoken::encode(
        &Header::default(),
        claims,
        &EncodingKey::from_secret(SECRET.as_bytes()).expect("a key"),
    )
    .expect("a token")
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Records the code of `reply`, checking that it is the one expected.
fn saw(seen: &mut BTreeSet<String>, reply: Reply, expected: &str) -> Reply {
    assert_eq!(reply.code(), expected, "{}", reply.body);
    seen.insert(expected.to_owned());
    reply
}

async fn raw(app: &TestApp, request: &str, pause: Option<Duration>) -> String {
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", app.port))
        .await
        .expect("connect");
    stream.write_all(request.as_bytes()).await.expect("write");
    if let Some(pause) = pause {
        tokio::time::sleep(pause).await;
    }
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

async fn play_to_the_end(app: &TestApp, game: &Game) -> (usize, Value) {
    let mut last = None;
    while let Some((seat, actions)) = app.turn(game).await {
        let reply = app.act(game, seat, &actions[0]).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        last = Some((seat, actions[0].clone()));
    }
    last.expect("at least one action")
}

#[actix_web::test]
async fn every_problem_code_is_provoked() {
    let app = TestApp::spawn(&[("ROADIE_BODY_LIMIT", "2048"), ("ROADIE_BODY_TIMEOUT_MS", "500")]).await;
    let mut seen = BTreeSet::new();
    let game = app.create("shrewd-producer", 3, 11).await;
    let path = format!("/v1/games/{}", game.id);
    let actions_path = format!("{path}/actions");
    let (actor, legal) = app.turn(&game).await.expect("someone acts");
    let state = app.get(&path, Some(&game.tokens[actor])).await;
    let revision = state.json["revision"].as_str().expect("revision").to_owned();

    // 400
    let body = |text: &str| {
        app.http
            .post(app.url("/v1/games"))
            .header("content-type", "application/json")
            .body(text.to_owned())
    };
    saw(&mut seen, app.send(body("{not json")).await, "malformed_json");
    saw(
        &mut seen,
        app.send(body(r#"{"ruleset": "shrewd-producer", "seats": 3, "colour": 1}"#))
            .await,
        "malformed_json",
    );
    let malformed = saw(
        &mut seen,
        app.act(&game, actor, &json!({"type": "no_such_action"})).await,
        "malformed_action",
    );
    assert!(malformed.json["legal_actions"].is_array());
    saw(
        &mut seen,
        app.get(&format!("{path}/events?after=soon"), None).await,
        "malformed_query",
    );
    saw(
        &mut seen,
        app.get(&format!("{path}/record"), None).await,
        "game_not_finished",
    );
    let forged = json!({
        "format": "roadie.record/1", "game": game.id, "ruleset": "shrewd-producer",
        "rules_version": 1, "options": null, "seats": [], "seed": 1, "seed_salt": "00",
        "seed_commitment": "00", "steps": [], "aborted": false, "outcome": null,
        "events": {"count": 0, "digest": "sha256:"},
    });
    saw(
        &mut seen,
        app.post("/v1/records/replay", None, &json!({"record": forged, "at": 0}))
            .await,
        "invalid_record",
    );
    let latin1 = reqwest::header::HeaderValue::from_bytes(b"\xe9t\xe9").expect("a header value");
    saw(
        &mut seen,
        app.send(app.http.get(app.url(&path)).header("If-None-Match", latin1))
            .await,
        "malformed_header",
    );
    saw(
        &mut seen,
        app.send(app.http.get(app.url(&path)).header("If-None-Match", "7"))
            .await,
        "malformed_precondition",
    );
    saw(
        &mut seen,
        app.send(
            app.http
                .post(app.url(&actions_path))
                .bearer_auth(&game.tokens[actor])
                .header("Idempotency-Key", "has spaces")
                .json(&json!({"action": legal[0]})),
        )
        .await,
        "malformed_idempotency_key",
    );

    // 401
    saw(&mut seen, app.get(&actions_path, None).await, "token_missing");
    saw(
        &mut seen,
        app.get(&actions_path, Some("not.a.token")).await,
        "token_invalid",
    );
    let expired = token(&Claims {
        game: game.id.clone(),
        seat: Some(Seat::new(0)),
        iat: now() - 1_000,
        r#gen: 0,
        grant: None,
        exp: Some(now() - 500),
    });
    let reply = saw(
        &mut seen,
        app.get(&actions_path, Some(&expired)).await,
        "token_expired",
    );
    assert_eq!(reply.header("www-authenticate"), Some("Bearer"));

    // 403
    let other = app.create("shrewd-producer", 3, 12).await;
    saw(
        &mut seen,
        app.get(&actions_path, Some(&other.tokens[0])).await,
        "wrong_game",
    );
    saw(
        &mut seen,
        app.get(&actions_path, Some(&game.host)).await,
        "seat_required",
    );
    saw(
        &mut seen,
        app.send(app.http.delete(app.url(&path)).bearer_auth(&game.tokens[0]))
            .await,
        "host_required",
    );
    let ghost = token(&Claims {
        game: game.id.clone(),
        seat: Some(Seat::new(7)),
        iat: now(),
        r#gen: 0,
        grant: None,
        exp: Some(now() + 600),
    });
    saw(
        &mut seen,
        app.get(&actions_path, Some(&ghost)).await,
        "no_such_seat",
    );

    // 404, 405
    saw(
        &mut seen,
        app.get("/v1/games/0123456789abcdef01234567", None).await,
        "game_not_found",
    );
    saw(
        &mut seen,
        app.get("/v1/games/not-an-id", None).await,
        "game_not_found",
    );
    saw(
        &mut seen,
        app.get("/v1/rulesets/chess", None).await,
        "ruleset_not_found",
    );
    saw(&mut seen, app.get("/v2/anything", None).await, "route_not_found");
    let reply = saw(
        &mut seen,
        app.send(app.http.put(app.url(&path))).await,
        "method_not_allowed",
    );
    assert_eq!(reply.header("allow"), Some("GET, DELETE, HEAD"));

    // 408: headers, then a body that never comes whole.
    let answer = raw(
        &app,
        "POST /v1/games HTTP/1.1\r\nHost: roadie\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
        None,
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("body_timeout"), "{answer}");
    seen.insert("body_timeout".into());

    // 409
    // A seat that may not act: play `other` until somebody waits.
    for _ in 0..200 {
        let state = app.get(&format!("/v1/games/{}", other.id), None).await;
        let to_act: Vec<u64> = serde_json::from_value(state.json["to_act"].clone()).expect("to_act");
        if let Some(waiting) = (0..3u64).find(|s| !to_act.contains(s)) {
            let (seat, actions) = app.turn(&other).await.expect("someone acts");
            let reply = saw(
                &mut seen,
                app.act(&other, waiting as usize, &actions[0]).await,
                "not_your_turn",
            );
            assert!(
                reply.json["to_act"]
                    .as_array()
                    .is_some_and(|a| a.contains(&json!(seat)))
            );
            break;
        }
        let (seat, actions) = app.turn(&other).await.expect("someone acts");
        assert_eq!(app.act(&other, seat, &actions[0]).await.status, 200);
    }
    let keyed = |key: &str, action: &Value| {
        app.http
            .post(app.url(&actions_path))
            .bearer_auth(&game.tokens[actor])
            .header("Idempotency-Key", key.to_owned())
            .json(&json!({ "action": action }))
    };
    // 412 before anything moves the game, then the keyed post.
    let stale = format!("\"{}.{}\"", 1, "0".repeat(32));
    let reply = saw(
        &mut seen,
        app.send(
            app.http
                .post(app.url(&actions_path))
                .bearer_auth(&game.tokens[actor])
                .header("If-Match", stale)
                .json(&json!({"action": legal[0]})),
        )
        .await,
        "version_mismatch",
    );
    assert_eq!(reply.json["current_revision"], revision.as_str());
    assert_eq!(app.send(keyed("k", &legal[0])).await.status, 200);
    saw(
        &mut seen,
        app.send(keyed("k", &json!({"type": "pass"}))).await,
        "idempotency_key_reused",
    );
    let log = app.get(&format!("{path}/events?after=0"), None).await;
    let last_seq = log.json["next_after"].as_u64().expect("next_after");
    let reply = saw(
        &mut seen,
        app.get(&format!("{path}/events?after={}", last_seq + 1), None)
            .await,
        "cursor_ahead",
    );
    assert_eq!(reply.json["last_seq"], last_seq, "{}", reply.body);
    let finished = app.create("shrewd-producer", 3, 13).await;
    let (last_seat, last_action) = play_to_the_end(&app, &finished).await;
    saw(
        &mut seen,
        app.act(&finished, last_seat, &last_action).await,
        "game_over",
    );

    // 413
    let huge = format!("{{\"ruleset\": \"{}\", \"seats\": 3}}", "x".repeat(4096));
    saw(&mut seen, app.send(body(&huge)).await, "payload_too_large");

    // 422
    let (seat, now_legal) = app.turn(&game).await.expect("the game goes on");
    let offered_before = legal.iter().find(|a| !now_legal.contains(a)).cloned();
    if let Some(unlisted) = offered_before {
        let reply = saw(&mut seen, app.act(&game, seat, &unlisted).await, "illegal_action");
        assert_eq!(reply.json["legal_actions"], Value::Array(now_legal.clone()));
    }
    saw(
        &mut seen,
        app.post(
            "/v1/games",
            None,
            &json!({"ruleset": "shrewd-producer", "seats": 9}),
        )
        .await,
        "invalid_seats",
    );
    saw(
        &mut seen,
        app.post(
            "/v1/games",
            None,
            &json!({"ruleset": "shrewd-producer", "seats": 3, "options": {"nope": 1}}),
        )
        .await,
        "invalid_options",
    );
    saw(
        &mut seen,
        app.post(
            "/v1/games",
            None,
            &json!({"ruleset": "shrewd-producer", "seats": 3, "seed": 9_007_199_254_740_992u64}),
        )
        .await,
        "invalid_seed",
    );
    saw(
        &mut seen,
        app.post(
            "/v1/games",
            None,
            &json!({"ruleset": "shrewd-producer", "seats": 3, "webhook": {"url": "http://127.0.0.1:1/hook"}}),
        )
        .await,
        "invalid_webhook",
    );
    saw(
        &mut seen,
        app.post(
            "/v1/games",
            None,
            &json!({"ruleset": "shrewd-producer", "seats": 3, "clock": {"per_decision_secs": 0}}),
        )
        .await,
        "invalid_clock",
    );

    // 429: services with tight limits, one limit each.
    let one_connection = TestApp::spawn(&[("ROADIE_MAX_CONNECTIONS_PER_ADDRESS", "1")]).await;
    let held = tokio::net::TcpStream::connect(("127.0.0.1", one_connection.port))
        .await
        .expect("connect");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let answer = raw(
        &one_connection,
        "GET /healthz HTTP/1.1\r\nHost: roadie\r\n\r\n",
        None,
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(answer.contains("too_many_connections"), "{answer}");
    seen.insert("too_many_connections".into());
    drop(held);

    // Seats: joined by name, resigned, reissued.
    let seated = app.create("shrewd-producer", 3, 14).await;
    let seats = |rest: &str| format!("/v1/games/{}/seats{rest}", seated.id);
    let name = json!({"name": "Ann"});
    saw(&mut seen, app.post(&seats("/0"), None, &name).await, "seat_taken");
    saw(&mut seen, app.post(&seats(""), None, &name).await, "no_open_seat");
    saw(
        &mut seen,
        app.post(&seats("/7"), None, &name).await,
        "seat_not_found",
    );
    saw(
        &mut seen,
        app.post(&seats("/0/resign"), Some(&seated.tokens[1]), &json!({}))
            .await,
        "not_your_seat",
    );
    let open = app
        .post(
            "/v1/games",
            None,
            &json!({"ruleset": "shrewd-producer", "seats": 3, "open": true}),
        )
        .await;
    let open_id = open.json["id"].as_str().expect("id");
    let open_host = open.json["host_token"].as_str().expect("host");
    saw(
        &mut seen,
        app.post(
            &format!("/v1/games/{open_id}/seats/0"),
            None,
            &json!({"name": "\n"}),
        )
        .await,
        "invalid_name",
    );
    saw(
        &mut seen,
        app.post(
            &format!("/v1/games/{open_id}/seats/0/token"),
            Some(open_host),
            &json!({}),
        )
        .await,
        "seat_not_played",
    );
    let reissued = app.post(&seats("/2/token"), Some(&seated.host), &json!({})).await;
    assert_eq!(reissued.status, 201, "{}", reissued.body);
    saw(
        &mut seen,
        app.get(&format!("/v1/games/{}", seated.id), Some(&seated.tokens[2]))
            .await,
        "token_revoked",
    );

    let ticket = json!({"ruleset": "shrewd-producer", "seats": 3, "name": "Ann"});
    saw(
        &mut seen,
        app.post(
            "/v1/tickets",
            None,
            &json!({"ruleset": "shrewd-producer", "seats": 3, "name": "Ann", "bots_after_secs": 100_000}),
        )
        .await,
        "invalid_ticket",
    );
    saw(
        &mut seen,
        app.get(&format!("/v1/tickets/{}", "0".repeat(32)), Some("any"))
            .await,
        "ticket_not_found",
    );
    let first = app.post("/v1/tickets", None, &ticket).await;
    assert_eq!(first.status, 201, "{}", first.body);
    for _ in 0..2 {
        let other = app.post("/v1/tickets", None, &ticket).await;
        assert_eq!(other.status, 201, "{}", other.body);
    }
    let cancel = app
        .send(
            app.http
                .delete(app.url(&format!("/v1/tickets/{}", first.json["id"].as_str().expect("id"))))
                .bearer_auth(first.json["token"].as_str().expect("token")),
        )
        .await;
    saw(&mut seen, cancel, "ticket_matched");

    let one_game = TestApp::spawn(&[("ROADIE_CREATE_RATE", "0.1"), ("ROADIE_CREATE_BURST", "1")]).await;
    let create = json!({"ruleset": "shrewd-producer", "seats": 3});
    let first = one_game.post("/v1/games", None, &create).await;
    assert_eq!(first.status, 201, "{}", first.body);
    let reply = saw(
        &mut seen,
        one_game.post("/v1/games", None, &create).await,
        "rate_limited",
    );
    assert!(reply.header("retry-after").is_some());

    // An app's limits, and a player holding two seats of one game.
    let dir = std::env::temp_dir().join(format!("roadie-problems-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let der = dir.join("p.der");
    let openssl = |args: &[&str]| {
        let out = std::process::Command::new("openssl")
            .args(args)
            .output()
            .expect("openssl");
        assert!(out.status.success(), "openssl {args:?}");
        out.stdout
    };
    let der_path = der.to_str().expect("path");
    openssl(&[
        "genpkey",
        "-algorithm",
        "ed25519",
        "-outform",
        "DER",
        "-out",
        der_path,
    ]);
    let public = openssl(&[
        "pkey", "-inform", "DER", "-in", der_path, "-pubout", "-outform", "DER",
    ]);
    use base64::Engine;
    let x = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&public[public.len() - 32..]);
    let key = roadie_api::apps::new_key();
    std::fs::write(
        dir.join("apps.toml"),
        format!(
            "[[apps]]\nid = \"acme\"\nname = \"Acme\"\napi_keys = [\"{}\"]\nalgorithms = [\"EdDSA\"]\n\
             jwks = {{ keys = [{{ kty = \"OKP\", crv = \"Ed25519\", x = \"{x}\", kid = \"k\" }}] }}\n\
             [apps.limits]\nlive_games = 1\nrulesets = [\"shrewd-producer\"]\n",
            roadie_api::apps::key_hash_line(&key)
        ),
    )
    .expect("apps file");
    let apps_file = dir.join("apps.toml");
    let with_apps = TestApp::spawn(&[("ROADIE_APPS", apps_file.to_str().expect("path"))]).await;
    saw(
        &mut seen,
        with_apps.post("/v1/games", None, &create).await,
        "app_required",
    );
    saw(
        &mut seen,
        with_apps
            .post(
                "/v1/games",
                Some(&key),
                &json!({"ruleset": "rock-the-world", "seats": 2}),
            )
            .await,
        "ruleset_not_allowed",
    );
    let twice =
        json!({"ruleset": "shrewd-producer", "seats": [{"player": "p"}, {"player": "p"}, {"bot": "random"}]});
    let game = with_apps.post("/v1/games", Some(&key), &twice).await;
    assert_eq!(game.status, 201, "{}", game.body);
    saw(
        &mut seen,
        with_apps.post("/v1/games", Some(&key), &twice).await,
        "app_limit_reached",
    );
    let mut header = Header::new(jsonwebtoken::Algorithm::EdDSA);
    header.kid = Some("k".into());
    let exp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .as_secs()
        + 600;
    let player = jsonwebtoken::encode(
        &header,
        &json!({"iss": "acme", "sub": "p", "aud": "roadie", "exp": exp}),
        &EncodingKey::from_ed_der(&std::fs::read(&der).expect("key")),
    )
    .expect("signed");
    let id = game.json["id"].as_str().expect("id");
    saw(
        &mut seen,
        with_apps
            .get(&format!("/v1/games/{id}/actions"), Some(&player))
            .await,
        "seat_ambiguous",
    );
    let one = with_apps
        .get(&format!("/v1/games/{id}/actions?seat=1"), Some(&player))
        .await;
    assert_eq!(one.status, 200, "a named seat is found: {}", one.body);
    let open_seat = json!({"ruleset": "shrewd-producer", "seats": [{"player": "p"}, {"open": true}, {"bot": "greedy"}], "rated": true});
    saw(
        &mut seen,
        with_apps.post("/v1/games", Some(&key), &open_seat).await,
        "not_ratable",
    );
    saw(
        &mut seen,
        with_apps.get("/v1/players/nobody", Some(&player)).await,
        "player_not_found",
    );
    std::fs::remove_dir_all(dir).ok();

    let expected: BTreeSet<String> = Code::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .filter(|c| !NOT_IN_PROCESS.iter().any(|(code, _)| code == c))
        .collect();
    assert_eq!(seen, expected, "codes provoked in process");
    for (code, _) in NOT_IN_PROCESS {
        assert!(
            Code::ALL.iter().any(|c| c.as_str() == *code),
            "{code} is not a code"
        );
    }
}
