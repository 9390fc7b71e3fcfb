//! Every mounted route is documented, every documented operation is mounted, and each answers.

use std::collections::BTreeSet;

use roadie_api::http::routes::ROUTES;
use serde_json::json;

use crate::helpers::TestApp;

/// A concrete path for a route pattern.
fn concrete(pattern: &str, game: &str) -> String {
    pattern
        .replace("{ruleset}", "shrewd-producer")
        .replace("{id}", game)
}

#[actix_web::test]
async fn the_document_lists_exactly_the_mounted_routes_and_methods() {
    let app = TestApp::spawn(&[]).await;
    let game = app.create("shrewd-producer", 3, 1).await;
    let document = app.get("/api-docs/openapi.json", None).await;
    assert_eq!(document.status, 200);
    let documented: BTreeSet<(String, String)> = document.json["paths"]
        .as_object()
        .expect("paths")
        .iter()
        .flat_map(|(path, operations)| {
            operations
                .as_object()
                .expect("operations")
                .keys()
                .map(|method| (path.clone(), method.to_uppercase()))
                .collect::<Vec<_>>()
        })
        .collect();
    let mounted: BTreeSet<(String, String)> = ROUTES
        .iter()
        .flat_map(|(path, methods)| methods.iter().map(|m| ((*path).to_owned(), (*m).to_owned())))
        .collect();
    assert_eq!(documented, mounted);
    for (pattern, methods) in ROUTES {
        let path = concrete(pattern, &game.id);
        // Each route is really mounted: another method gets 405 naming exactly its methods.
        let wrong = app.send(app.http.patch(app.url(&path))).await;
        assert_eq!(wrong.status, 405, "{path}: {}", wrong.body);
        assert_eq!(wrong.code(), "method_not_allowed");
        let mut allow = methods.to_vec();
        if methods.contains(&"GET") {
            allow.push("HEAD");
        }
        assert_eq!(wrong.header("allow"), Some(allow.join(", ").as_str()), "{path}");
    }
}

#[actix_web::test]
async fn every_route_answers_its_documented_success() {
    let app = TestApp::spawn(&[]).await;
    let list = app.get("/v1/rulesets", None).await;
    assert_eq!(list.status, 200);
    for ruleset in list.json["rulesets"].as_array().expect("rulesets") {
        let slug = ruleset["slug"].as_str().expect("slug");
        let detail = app.get(&format!("/v1/rulesets/{slug}"), None).await;
        assert_eq!(detail.status, 200, "{}", detail.body);
        assert_eq!(detail.json["slug"], slug);
    }
    let game = app.create("shrewd-producer", 3, 7).await;
    let path = format!("/v1/games/{}", game.id);
    let state = app.get(&path, Some(&game.tokens[0])).await;
    assert_eq!(state.status, 200);
    let etag = state.header("etag").expect("an ETag").to_owned();
    let unchanged = app
        .send(
            app.http
                .get(app.url(&path))
                .bearer_auth(&game.tokens[0])
                .header("If-None-Match", &etag),
        )
        .await;
    assert_eq!(unchanged.status, 304);
    let (seat, actions) = app.turn(&game).await.expect("someone acts");
    let posted = app
        .send(
            app.http
                .post(app.url(&format!("{path}/actions")))
                .bearer_auth(&game.tokens[seat])
                .header("If-Match", &etag)
                .header("Idempotency-Key", "one")
                .header("Prefer", "return=minimal")
                .json(&json!({ "action": actions[0] })),
        )
        .await;
    assert_eq!(posted.status, 200, "{}", posted.body);
    assert_eq!(posted.json["version"], 2);
    assert_eq!(posted.header("preference-applied"), Some("return=minimal"));
    let events = app.get(&format!("{path}/events?after=0&limit=3"), None).await;
    assert_eq!(events.status, 200);
    assert!(events.json["events"].as_array().is_some_and(|e| e.len() <= 3));
    for probe in ["/healthz", "/readyz", "/metrics"] {
        assert_eq!(app.get(probe, None).await.status, 200, "{probe}");
    }
    let deleted = app
        .send(app.http.delete(app.url(&path)).bearer_auth(&game.host))
        .await;
    assert_eq!(deleted.status, 204);
    assert_eq!(app.get(&path, None).await.status, 404);
}

#[actix_web::test]
async fn unknown_query_parameters_are_ignored_and_bounds_are_the_documented_ones() {
    let app = TestApp::spawn(&[]).await;
    let game = app.create("shrewd-producer", 3, 3).await;
    let path = format!("/v1/games/{}", game.id);
    assert_eq!(app.get(&format!("{path}?_=1700000000"), None).await.status, 200);
    assert_eq!(
        app.get(&format!("{path}/events?_=1&limit=5000"), None)
            .await
            .status,
        200
    );
    for query in [
        "?wait=31",
        "/events?limit=0",
        "/events?limit=5001",
        "/events?after=-1",
    ] {
        let reply = app.get(&format!("{path}{query}"), None).await;
        assert_eq!(reply.status, 400, "{query}: {}", reply.body);
        assert_eq!(reply.code(), "malformed_query", "{query}");
        assert!(!reply.body.contains("u64"), "a Rust type name in {}", reply.body);
    }
    for (query, range) in [
        ("/v1/games?limit=abc", "from 1 to 100;"),
        ("/v1/games?limit=101", "from 1 to 100;"),
        (&format!("{path}/events?limit=abc"), "from 1 to 5000;"),
    ] {
        let reply = app.get(query, None).await;
        assert_eq!(reply.status, 400, "{query}: {}", reply.body);
        assert_eq!(reply.code(), "malformed_query", "{query}");
        assert!(reply.body.contains(range), "{query}: {}", reply.body);
    }
}

#[actix_web::test]
async fn pages_of_the_configured_origins_may_call_from_a_browser() {
    let origin = "https://table.example";
    let app = TestApp::spawn(&[(
        "ROADIE_CORS_ORIGINS",
        "https://table.example, https://other.example",
    )])
    .await;
    let preflight = app
        .send(
            app.http
                .request(reqwest::Method::OPTIONS, app.url("/v1/games"))
                .header("Origin", origin)
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type, idempotency-key"),
        )
        .await;
    assert!(preflight.status < 300, "{}", preflight.body);
    assert_eq!(preflight.header("access-control-allow-origin"), Some(origin));
    let created = app
        .send(
            app.http
                .post(app.url("/v1/games"))
                .header("Origin", origin)
                .json(&json!({"ruleset": "shrewd-producer", "seats": 3})),
        )
        .await;
    assert_eq!(created.status, 201);
    assert_eq!(created.header("access-control-allow-origin"), Some(origin));
    let exposed = created
        .header("access-control-expose-headers")
        .unwrap_or_default()
        .to_lowercase();
    for header in ["etag", "location", "retry-after"] {
        assert!(exposed.contains(header), "{header} is not exposed: {exposed}");
    }
    let stranger = app
        .send(
            app.http
                .get(app.url("/v1/rulesets"))
                .header("Origin", "https://evil.example"),
        )
        .await;
    assert_eq!(stranger.header("access-control-allow-origin"), None);

    let closed = TestApp::spawn(&[]).await;
    let reply = closed
        .send(
            closed
                .http
                .get(closed.url("/v1/rulesets"))
                .header("Origin", origin),
        )
        .await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.header("access-control-allow-origin"),
        None,
        "no origin is allowed by default"
    );
}

/// RFC 9110 13.1.2: `If-None-Match: *` is false when the resource has any current
/// representation, so a GET of a game that exists answers `304`, after the wait when one is
/// asked; a game that is gone is `404`.
#[actix_web::test]
async fn if_none_match_any_is_not_modified_while_the_game_exists() {
    let app = TestApp::spawn(&[]).await;
    let game = app.create("shrewd-producer", 3, 7).await;
    let path = format!("/v1/games/{}", game.id);
    let current = app.get(&path, None).await;
    let etag = current.header("etag").expect("an ETag").to_owned();
    for query in ["", "?wait=1"] {
        let any = app
            .send(
                app.http
                    .get(app.url(&format!("{path}{query}")))
                    .bearer_auth(&game.tokens[0])
                    .header("If-None-Match", "*"),
            )
            .await;
        assert_eq!(any.status, 304, "{query}: {}", any.body);
        assert_eq!(any.header("etag"), Some(etag.as_str()), "{query}");
    }
    let deleted = app
        .send(app.http.delete(app.url(&path)).bearer_auth(&game.host))
        .await;
    assert_eq!(deleted.status, 204);
    let gone = app
        .send(app.http.get(app.url(&path)).header("If-None-Match", "*"))
        .await;
    assert_eq!(gone.status, 404, "{}", gone.body);
}

/// A page of a configured origin may send every method and request header the document uses:
/// each operation's preflight, asking for its method, `Authorization`, `Content-Type` and its
/// header parameters (`Last-Event-ID`, `If-Match`, `Idempotency-Key`, `Prefer`...), is granted.
#[actix_web::test]
async fn a_configured_origin_may_send_every_method_and_header_the_document_uses() {
    let origin = "https://table.example";
    let app = TestApp::spawn(&[("ROADIE_CORS_ORIGINS", origin)]).await;
    let document = app.get("/api-docs/openapi.json", None).await;
    let mut refused = Vec::new();
    let mut headers_seen = BTreeSet::new();
    for (path, item) in document.json["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            let mut headers = vec!["authorization".to_owned(), "content-type".to_owned()];
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                if parameter["in"] == "header" {
                    let name = parameter["name"].as_str().expect("name").to_lowercase();
                    headers_seen.insert(name.clone());
                    headers.push(name);
                }
            }
            let preflight = app
                .send(
                    app.http
                        .request(reqwest::Method::OPTIONS, app.url(&concrete(path, "g")))
                        .header("Origin", origin)
                        .header("Access-Control-Request-Method", method.to_uppercase())
                        .header("Access-Control-Request-Headers", headers.join(",")),
                )
                .await;
            let allowed_methods = preflight
                .header("access-control-allow-methods")
                .unwrap_or_default()
                .to_uppercase();
            let allowed_headers = preflight
                .header("access-control-allow-headers")
                .unwrap_or_default()
                .to_lowercase();
            if preflight.status >= 300
                || preflight.header("access-control-allow-origin") != Some(origin)
                || !allowed_methods.contains(&method.to_uppercase())
                || headers.iter().any(|h| !allowed_headers.contains(h.as_str()))
            {
                refused.push(format!(
                    "{method} {path} with {headers:?}: {} {allowed_methods} / {allowed_headers}",
                    preflight.status
                ));
            }
        }
    }
    assert!(
        headers_seen.contains("last-event-id") && headers_seen.contains("if-match"),
        "{headers_seen:?}"
    );
    assert!(refused.is_empty(), "refused preflights: {refused:#?}");
}

/// `HEAD` is answered wherever `GET` is: the same status and headers, no body; the push stream's
/// head comes at once, and the connection serves the next request.
#[actix_web::test]
async fn head_is_answered_wherever_get_is() {
    let app = TestApp::spawn(&[]).await;
    let game = app.create("shrewd-producer", 3, 3).await;
    let mut paths: Vec<String> = ROUTES
        .iter()
        .filter(|(_, methods)| methods.contains(&"GET"))
        .map(|(pattern, _)| concrete(pattern, &game.id))
        .collect();
    paths.extend(
        [
            "/swagger-ui/",
            "/api-docs/openapi.json",
            "/play/",
            "/play/assets/table.js",
            &format!("/play/{}", game.id),
        ]
        .map(str::to_owned),
    );
    let token = &game.tokens[0];
    let stream = format!("/v1/games/{}/stream", game.id);
    for path in paths {
        let head = app.send(app.http.head(app.url(&path)).bearer_auth(token)).await;
        assert!(head.body.is_empty(), "HEAD {path} sent a body");
        if path == stream {
            assert_eq!(head.status, 200, "HEAD {path}");
            assert_eq!(head.header("content-type"), Some("text/event-stream"));
            continue;
        }
        let get = app.send(app.http.get(app.url(&path)).bearer_auth(token)).await;
        assert_eq!(head.status, get.status, "HEAD {path}");
        assert_eq!(
            head.header("content-type"),
            get.header("content-type"),
            "HEAD {path}"
        );
        assert_eq!(head.header("etag"), get.header("etag"), "HEAD {path}");
    }
    let healthz = app.send(app.http.head(app.url("/healthz"))).await;
    let length = app.get("/healthz", None).await.body.len().to_string();
    assert_eq!(healthz.status, 200);
    assert_eq!(healthz.header("content-length"), Some(length.as_str()));
}
