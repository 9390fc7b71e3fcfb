//! The served OpenAPI document is the contract: seeded full games of every ruleset are played
//! over HTTP and every response (created game, each seat's and the spectator's game, action
//! lists, post answers, hints, event pages, rulesets, problems) and every listed action is validated
//! against it by a strict JSON Schema 2020-12 validator (`contract.py`, Python `jsonschema`).

use std::io::Write;
use std::path::Path;
use std::process::Command;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

use crate::support::{Created, Redis, Reply, Roadie, python, rulesets, scratch};

/// Steps after which a game that has not ended fails the test.
const MAX_STEPS: usize = 20_000;

/// Every this many steps, each seat's and the spectator's game and events are read.
const EVERYONE_EVERY: usize = 10;

/// Every this many steps, the acting seat's hint is read.
const HINT_EVERY: usize = 25;

/// What the validator checks: responses of documented operations and instances of named schemas.
#[derive(Default)]
struct Records {
    lines: Vec<String>,
    seen: std::collections::HashSet<String>,
}

impl Records {
    fn response(&mut self, method: &str, path: &str, reply: &Reply) {
        self.push(json!({
            "method": method,
            "path": path,
            "status": reply.status,
            "content_type": reply.header("content-type").unwrap_or_default(),
            "body": reply.json,
        }));
    }

    fn instance(&mut self, schema: &str, body: &Value, expect: &str, label: &str) {
        self.push(json!({"schema": schema, "body": body, "expect": expect, "label": label}));
    }

    fn wrong_response(&mut self, method: &str, path: &str, reply: &Reply, body: Value, label: &str) {
        self.push(json!({
            "method": method,
            "path": path,
            "status": reply.status,
            "content_type": reply.header("content-type").unwrap_or_default(),
            "body": body,
            "expect": "invalid",
            "label": label,
        }));
    }

    fn push(&mut self, record: Value) {
        let line = record.to_string();
        if self.seen.insert(line.clone()) {
            self.lines.push(line);
        }
    }
}

const POST_BODY: &str = "/paths/~1v1~1games~1{id}~1actions/post/requestBody/content/application~1json/schema";

struct Played {
    game: Value,
    legal: Value,
    events: Value,
    answer: Value,
}

fn play(roadie: &Roadie, records: &mut Records, slug: &str, seats: usize, seed: u64) -> Played {
    let create = roadie.post(
        "/v1/games",
        None,
        &json!({"ruleset": slug, "seats": seats, "seed": seed}),
    );
    assert_eq!(create.status, 201, "{}", create.body);
    records.response("post", "/v1/games", &create);
    let created = Created::from(&create.json);
    let detail = roadie.get(&format!("/v1/rulesets/{slug}"), None);
    records.response("get", "/v1/rulesets/{ruleset}", &detail);
    let action_schema = format!(
        "/components/schemas/{}",
        detail.json["schemas"]["action"].as_str().expect("action schema")
    );
    let game_path = format!("/v1/games/{}", created.id);
    let mut read = vec![0_u64; seats + 1];
    let mut rng = StdRng::seed_from_u64(seed);
    let mut played = Played {
        game: Value::Null,
        legal: Value::Null,
        events: Value::Null,
        answer: Value::Null,
    };
    let mut to_act: Vec<usize> = Vec::new();
    let mut finished = false;
    for step in 0.. {
        assert!(
            step < MAX_STEPS,
            "{slug} seed {seed}: no end after {MAX_STEPS} steps"
        );
        if step % EVERYONE_EVERY == 0 || finished {
            let spectator = roadie.get(&game_path, Some(&created.host_token));
            assert_eq!(spectator.status, 200, "{}", spectator.body);
            records.response("get", "/v1/games/{id}", &spectator);
            to_act = serde_json::from_value(spectator.json["to_act"].clone()).expect("to_act");
            finished = spectator.json["status"] == "finished";
            for (seat, read) in read.iter_mut().enumerate() {
                let token = created.tokens.get(seat).unwrap_or(&created.host_token);
                if seat < seats {
                    let game = roadie.get(&game_path, Some(token));
                    assert_eq!(game.status, 200, "{}", game.body);
                    records.response("get", "/v1/games/{id}", &game);
                    played.game = game.json;
                }
                loop {
                    let page = roadie.get(&format!("{game_path}/events?after={read}&limit=50"), Some(token));
                    assert_eq!(page.status, 200, "{}", page.body);
                    records.response("get", "/v1/games/{id}/events", &page);
                    let next = page.json["next_after"].as_u64().expect("next_after");
                    if next == *read {
                        break;
                    }
                    *read = next;
                    played.events = page.json;
                }
            }
        }
        if finished {
            return played;
        }
        let seat = to_act[rng.random_range(0..to_act.len())];
        let legal = roadie.get(&format!("{game_path}/actions"), Some(&created.tokens[seat]));
        assert_eq!(legal.status, 200, "{}", legal.body);
        records.response("get", "/v1/games/{id}/actions", &legal);
        let actions = legal.json["actions"].as_array().expect("actions").clone();
        assert!(!actions.is_empty(), "{slug}: seat {seat} to act with no action");
        for action in &actions {
            records.instance(&action_schema, action, "valid", "a listed action");
            records.instance(
                POST_BODY,
                &json!({ "action": action }),
                "valid",
                "a listed action posted",
            );
        }
        if step % HINT_EVERY == 0 {
            let hint = roadie.get(&format!("{game_path}/hint"), Some(&created.tokens[seat]));
            assert_eq!(hint.status, 200, "{}", hint.body);
            records.response("get", "/v1/games/{id}/hint", &hint);
            assert!(
                actions.contains(&hint.json["action"]),
                "{slug}: the hint is not listed: {}",
                hint.body
            );
        }
        played.legal = legal.json;
        let action = &actions[rng.random_range(0..actions.len())];
        let answer = roadie.act(&created, seat, action);
        assert_eq!(answer.status, 200, "{slug}: {action} refused: {}", answer.body);
        records.response("post", "/v1/games/{id}/actions", &answer);
        to_act = serde_json::from_value(answer.json["to_act"].clone()).expect("to_act");
        finished = answer.json["status"] == "finished";
        played.answer = answer.json;
    }
    unreachable!()
}

/// Errors a client can cause, each a documented problem.
fn problems(roadie: &Roadie, records: &mut Records, slug: &str, seats: usize) {
    let created = roadie.create(slug, seats, Some(7));
    let game_path = format!("/v1/games/{}", created.id);
    let cases: [(&str, &str, Reply); 7] = [
        (
            "post",
            "/v1/games",
            roadie.post("/v1/games", None, &json!({"ruleset": slug, "seats": 99})),
        ),
        (
            "post",
            "/v1/games",
            roadie.post("/v1/games", None, &json!({"ruleset": "no-such-game", "seats": 2})),
        ),
        (
            "get",
            "/v1/games/{id}",
            roadie.get("/v1/games/000000000000000000000000", None),
        ),
        (
            "get",
            "/v1/games/{id}/actions",
            roadie.get(&format!("{game_path}/actions"), None),
        ),
        (
            "post",
            "/v1/games/{id}/actions",
            roadie.act(&created, 0, &json!({"type": "no_such_action"})),
        ),
        (
            "get",
            "/v1/games/{id}/events",
            roadie.get(&format!("{game_path}/events?limit=abc"), None),
        ),
        (
            "get",
            "/v1/rulesets/{ruleset}",
            roadie.get("/v1/rulesets/no-such-game", None),
        ),
    ];
    for (method, path, reply) in &cases {
        assert!(
            (400..500).contains(&reply.status),
            "{method} {path}: {}",
            reply.body
        );
        records.response(method, path, reply);
    }
}

/// Responses of one ruleset relabelled as another's, and out-of-range numbers: the validator
/// must refuse each, or a pass above proves nothing.
fn wrong_instances(records: &mut Records, roadie: &Roadie, played: &[(String, Played)]) {
    let slugs: Vec<&str> = played.iter().map(|(s, _)| s.as_str()).collect();
    for (i, (slug, p)) in played.iter().enumerate() {
        let other = slugs[(i + 1) % slugs.len()];
        let template = roadie.get("/v1/rulesets", None);
        let relabel = |value: &Value| {
            let mut v = value.clone();
            v["ruleset"] = json!(other);
            v
        };
        let label = |what: &str| format!("a {slug} {what} labelled {other}");
        records.wrong_response("get", "/v1/games/{id}", &ok(), relabel(&p.game), &label("game"));
        records.wrong_response(
            "get",
            "/v1/games/{id}/actions",
            &ok(),
            relabel(&p.legal),
            &label("action list"),
        );
        records.wrong_response(
            "get",
            "/v1/games/{id}/events",
            &ok(),
            relabel(&p.events),
            &label("events page"),
        );
        records.wrong_response(
            "post",
            "/v1/games/{id}/actions",
            &ok(),
            relabel(&p.answer),
            &label("post answer"),
        );
        let mut negative = p.game.clone();
        negative["version"] = json!(-1);
        records.wrong_response("get", "/v1/games/{id}", &ok(), negative, "a negative version");
        let mut extra = p.legal.clone();
        extra["actions"] = json!([{"type": "no_such_action"}]);
        records.wrong_response("get", "/v1/games/{id}/actions", &ok(), extra, "an unknown action");
        let mut rulesets = template.json.clone();
        rulesets["rulesets"][0]["seats"] = json!("two");
        records.wrong_response("get", "/v1/rulesets", &template, rulesets, "seats as text");
    }
}

fn ok() -> Reply {
    Reply {
        status: 200,
        headers: {
            let mut h = reqwest::header::HeaderMap::new();
            h.insert("content-type", "application/json".parse().expect("header"));
            h
        },
        body: String::new(),
        json: Value::Null,
    }
}

fn validate(roadie: &Roadie, records: &Records, name: &str) -> Value {
    let dir = scratch(name);
    let document = roadie.get("/api-docs/openapi.json", None);
    assert_eq!(document.status, 200);
    std::fs::write(dir.join("openapi.json"), &document.body).expect("write document");
    let mut file = std::fs::File::create(dir.join("records.jsonl")).expect("records");
    for line in &records.lines {
        writeln!(file, "{line}").expect("write record");
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/contract.py");
    let output = Command::new(python())
        .arg(script)
        .arg(dir.join("openapi.json"))
        .arg(dir.join("records.jsonl"))
        .output()
        .expect("run contract.py");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "contract.py failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    report
}

#[test]
fn every_response_of_full_games_and_every_listed_action_matches_the_served_document() {
    let redis = Redis::start();
    // A short think for the hints read along the way; hints are rate-limited per seat.
    let roadie = Roadie::start(
        "contract",
        Some(&redis),
        &[("ROADIE_BOT_EXPERT_MS", "10"), ("ROADIE_HINT_RATE", "0")],
    );
    let mut records = Records::default();
    let list = roadie.get("/v1/rulesets", None);
    records.response("get", "/v1/rulesets", &list);
    let mut played = Vec::new();
    for (slug, min, max) in rulesets(&roadie) {
        for (seats, seed) in [(min, 11), (max, 12)] {
            let p = play(&roadie, &mut records, &slug, seats, seed);
            if seats == max {
                played.push((slug.clone(), p));
            }
        }
        problems(&roadie, &mut records, &slug, min);
    }
    let before = records.lines.len();
    wrong_instances(&mut records, &roadie, &played);
    let wrong = records.lines.len() - before;
    let report = validate(&roadie, &records, "contract");
    assert_eq!(
        report["violations"],
        json!([]),
        "responses that do not match the document:\n{report:#}"
    );
    assert_eq!(
        report["missed"],
        json!([]),
        "deliberately wrong instances the validator accepted:\n{report:#}"
    );
    assert!(wrong > 0);
    let checked = report["checked"].as_u64().expect("checked");
    eprintln!("{checked} records validated, {wrong} of them deliberately wrong and refused");
    assert!(checked as usize > 1000 + wrong, "{checked} records only");
}

#[test]
fn integers_are_json_integers_and_every_refusal_names_its_parameter_in_json_terms() {
    let roadie = Roadie::start("contract_input", None, &[]);
    let (slug, min, _) = rulesets(&roadie).remove(0);
    let integral = roadie.post(
        "/v1/games",
        None,
        &json!({"ruleset": slug, "seats": min as f64, "seed": 5.0}),
    );
    assert_eq!(integral.status, 201, "{}", integral.body);
    let created = Created::from(&integral.json);
    let refusals = [
        (
            roadie.post("/v1/games", None, &json!({"ruleset": slug, "seats": 2.5})),
            "seats is a whole number",
        ),
        (
            roadie.post("/v1/games", None, &json!({"ruleset": slug, "seats": -1})),
            "seats is a whole number",
        ),
        (
            roadie.post("/v1/games", None, &json!({"ruleset": 3, "seats": 2})),
            "ruleset is a slug",
        ),
        (
            roadie.post(
                "/v1/games",
                None,
                &json!({"ruleset": slug, "seats": min, "seed": 2.5}),
            ),
            "seed is a whole number",
        ),
        (
            roadie.get(
                &format!("/v1/games/{}/events?after=abc", created.id),
                Some(&created.host_token),
            ),
            "after is a whole number",
        ),
        (
            roadie.get(
                &format!("/v1/games/{}/events?after=9007199254740992", created.id),
                Some(&created.host_token),
            ),
            "after is from 0 to 9007199254740991",
        ),
        (
            roadie.get(
                &format!("/v1/games/{}/events?limit=x", created.id),
                Some(&created.host_token),
            ),
            "limit is a whole number",
        ),
    ];
    for (reply, says) in refusals {
        assert!((400..500).contains(&reply.status), "{}", reply.body);
        let detail = reply.json["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(says), "{detail:?} does not say {says:?}");
        for rust in ["usize", "u64", "u32", "u8", "struct ", "i64"] {
            assert!(!detail.contains(rust), "{detail:?} names the Rust type {rust}");
        }
    }
}
