//! schemathesis (pinned in `scripts/requirements.txt`) over the served document (its links'
//! `x-request-body` given as `requestBody`), against the
//! real binary with Redis: every phase, every check (with the statuses of
//! [`DOCUMENTED_REFUSALS`] accepted where the document gives them), zero failures.
//!
//! The examples, coverage and fuzzing phases send a real seat token of a game created first;
//! the stateful phase chains calls through the document's links (create -> actions -> post ->
//! events), which carry each new game's id and tokens. Both runs have a fixed seed and a bounded
//! number of examples, so they repeat and stay short.

use std::process::Command;

use crate::support::{Redis, Roadie, python, scratch};

/// The documented statuses that a request valid by the document may still earn, per operation
/// (`schemathesis.toml`); every check runs, none is turned off.
/// - `post_action`: the body's schema is every ruleset's actions, but the game named in the path
///   takes its own ruleset's only (`400 malformed_action`) and only those legal now (`422
///   illegal_action`), which no schema can say; and `If-Match` is judged before the body, so a
///   wrong body under a stale `If-Match` answers `412`.
/// - `create_game`: options that name seats or give one value per seat are judged with the seat
///   count (`422 invalid_options`, as the operation says), and creation is rate limited (`429`).
/// - `replay_record`, `verify_record`: a record valid by the document need not be one that
///   replays (its seed may not match its commitment, its steps may be illegal: `422
///   invalid_record` for a replay, `200` with the failed check for a verification), and the
///   document cannot bound everything a record holds (a seat number past what the server reads,
///   a field a record does not have): `400 malformed_json`.
/// - `create_ticket`: a ticket's body names any ruleset (`404 ruleset_not_found` for one that does
///   not exist), so its seat count and options are judged against the ruleset named (`422
///   invalid_seats`, `invalid_options`) and its wait for bots against the ticket's lifetime (`422
///   invalid_ticket`); tickets are rate limited (`429`).
const DOCUMENTED_REFUSALS: &str = r#"
[[operations]]
include-operation-id = "post_action"
checks.positive_data_acceptance.expected-statuses = [200, 400, 401, 403, 404, 409, 412, 422, 429]
checks.negative_data_rejection.expected-statuses = [400, 401, 403, 404, 405, 406, 409, 412, 413, 415, 422, 428, 429]

[[operations]]
include-operation-id = "create_game"
checks.positive_data_acceptance.expected-statuses = [201, 422, 429]

[[operations]]
include-operation-id = "replay_record"
checks.positive_data_acceptance.expected-statuses = [200, 400, 422]

[[operations]]
include-operation-id = "verify_record"
checks.positive_data_acceptance.expected-statuses = [200, 400]

[[operations]]
include-operation-id = "create_ticket"
checks.positive_data_acceptance.expected-statuses = [201, 404, 422, 429]
"#;

/// Values held fixed, so that a run stays near a minute:
/// - `wait` at its documented example (1 s): with `If-None-Match: *`, which the document
///   allows, a call would otherwise wait up to 30 s for a change.
/// - `If-None-Match` at an entity tag that names no revision (so `GET` answers `200`; `*` and
///   a held revision are checked in `api/tests/api/routes.rs`): schemathesis 4.32.5's coverage
///   phase draws header values from letters and digits only, and for a pattern that needs
///   quotes it sends `0` as if it were valid.
/// - `seat` (a player token's choice of seat; the run's seat token plays seat 0) at 0: its wrong
///   values are checked in `api/tests/api/problems.rs`, and a query's unknown parameters are
///   ignored by design (a cache buster, say), which the coverage phase would call a failure.
const HELD: &str = "\"query.wait\" = 1\n\"query.seat\" = 0\n\"header.If-None-Match\" = '\"0.0\"'";

/// The stream never ends by itself; schemathesis reads it until its request timeout (10 s by
/// default, here 1 s), which is the run's longest wait otherwise.
const SHORT_STREAM: &str = r#"
[[operations]]
include-operation-id = "stream_game"
request-timeout = 1
"#;

/// The served document, with each link's `x-request-body` (JSON with runtime expressions inside,
/// which openapi-generator's validation refuses as a `requestBody`) given as its `requestBody`,
/// which schemathesis evaluates nested.
fn document_for_schemathesis(roadie: &Roadie) -> serde_json::Value {
    let mut document = roadie.get("/api-docs/openapi.json", None).json;
    let links = document["paths"]
        .as_object_mut()
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(|item| item.as_object_mut())
        .flat_map(|item| item.values_mut())
        .filter_map(|operation| operation.get_mut("responses")?.as_object_mut())
        .flat_map(|responses| responses.values_mut())
        .filter_map(|response| response.get_mut("links")?.as_object_mut())
        .flat_map(|links| links.values_mut())
        .filter_map(|link| link.as_object_mut());
    let mut moved = 0;
    for link in links {
        if let Some(body) = link.remove("x-request-body") {
            link.insert("requestBody".into(), body);
            moved += 1;
        }
    }
    assert!(moved > 0, "no link carries x-request-body");
    document
}

/// Runs `schemathesis run` against `roadie` with `args` and the configuration `config`
/// (`schemathesis.toml`'s format); panics with its report on any failure, and returns the report.
fn schemathesis(roadie: &Roadie, name: &str, config: &str, args: &[&str]) -> String {
    let reports = scratch(name);
    let config_file = reports.join("schemathesis.toml");
    std::fs::write(&config_file, config).expect("write schemathesis.toml");
    let document = reports.join("openapi.json");
    std::fs::write(&document, document_for_schemathesis(roadie).to_string()).expect("write the document");
    let output = Command::new(python())
        .args(["-m", "schemathesis.cli", "--config-file"])
        .arg(&config_file)
        .arg("run")
        .arg(&document)
        .arg("--url")
        .arg(&roadie.base)
        // One worker: with several, Hypothesis parses lambdas' source in parallel threads, which
        // CPython 3.11 can fail with "AST constructor recursion depth mismatch".
        .args([
            "--seed",
            "1",
            "--workers",
            "1",
            "--report",
            "junit",
            "--report-dir",
        ])
        .arg(&reports)
        .args(args)
        .env("SCHEMATHESIS_TELEMETRY", "false")
        // Its cache of found failures goes where its reports go, not into the source tree.
        .current_dir(&reports)
        .output()
        .expect("run schemathesis");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "schemathesis ({name}) failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains(" passed"),
        "schemathesis ({name}) ran no test:\n{stdout}"
    );
    stdout
}

#[test]
fn schemathesis_finds_no_failure_with_a_seat_token() {
    let redis = Redis::start();
    let roadie = Roadie::start("schemathesis_phases", Some(&redis), &[]);
    let game = roadie.create("shrewd-producer", 3, Some(42));
    let seat = roadie.game(&game, None).json["to_act"][0]
        .as_u64()
        .expect("a seat to act") as usize;
    let header = format!("Authorization: Bearer {}", game.tokens[seat]);
    // Every call names that game, so that the token opens it.
    let config = format!(
        "[parameters]\n\"path.id\" = \"{}\"\n{HELD}\n{DOCUMENTED_REFUSALS}{SHORT_STREAM}",
        game.id
    );
    schemathesis(
        &roadie,
        "schemathesis_phases",
        &config,
        &[
            "--phases",
            "examples,coverage,fuzzing",
            "--max-examples",
            "25",
            "--header",
            &header,
        ],
    );
}

#[test]
fn schemathesis_stateful_phase_follows_the_links_without_failure() {
    let redis = Redis::start();
    let roadie = Roadie::start("schemathesis_stateful", Some(&redis), &[]);
    // schemathesis counts a token that a link carried as "generated" credentials and reports
    // every 200 it earns as "API accepts invalid authentication". Whether auth is enforced is
    // checked by the other phases' run, which sends its token explicitly and probes each call
    // without it and with a wrong one.
    let config = format!(
        "[parameters]\n{HELD}\n[checks]\nignored_auth.enabled = false\n{DOCUMENTED_REFUSALS}{SHORT_STREAM}"
    );
    let report = schemathesis(
        &roadie,
        "schemathesis_stateful",
        &config,
        &["--phases", "stateful", "--max-examples", "60"],
    );
    let covered = report
        .lines()
        .find_map(|line| line.trim().strip_prefix("API Links:"))
        .and_then(|links| links.split_whitespace().next())
        .and_then(|n| n.parse::<usize>().ok());
    assert!(
        covered.is_some_and(|n| n >= 4),
        "the stateful phase followed too few of the document's links:\n{report}"
    );
    let log = roadie.log_text();
    assert!(!log.contains("panicked"), "roadie panicked:\n{log}");
}
