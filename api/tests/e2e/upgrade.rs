//! A rolling upgrade: two processes on one Redis, one playing a newer version of a ruleset's
//! rules (declared with `ROADIE_RULES_VERSIONS`, as a new build would). Each game is written only
//! by the process that plays the version it started under; the other refuses with `503
//! rules_version_unavailable` and `Retry-After`, and changes nothing. Reads work on both.

use serde_json::{Value, json};

use crate::support::{Created, Redis, Roadie};

const SLUG: &str = "shrewd-producer";

fn people(roadie: &Roadie) -> Created {
    let reply = roadie.post("/v1/games", None, &json!({"ruleset": SLUG, "seats": 3}));
    assert_eq!(reply.status, 201, "{}", reply.body);
    Created::from(&reply.json)
}

/// The seat to act and its first listed action, as `roadie` sees them.
fn next_move(roadie: &Roadie, game: &Created) -> Option<(usize, Value)> {
    let state = roadie.game(game, None).json;
    let seat = state["to_act"].as_array()?.first()?.as_u64()? as usize;
    Some((seat, roadie.actions(game, seat).first()?.clone()))
}

#[test]
fn each_game_is_written_only_by_a_process_that_plays_its_rules_version() {
    let redis = Redis::start();
    let old = Roadie::start("upgrade_old", Some(&redis), &[]);
    let new = Roadie::start(
        "upgrade_new",
        Some(&redis),
        &[("ROADIE_RULES_VERSIONS", &format!("{SLUG}=2"))],
    );
    let ready = new.get("/readyz", None);
    assert_eq!(ready.json["rules_versions"][SLUG], 2, "{}", ready.body);
    assert_eq!(old.get("/readyz", None).json["rules_versions"][SLUG], 1);
    let listed = new.get("/v1/rulesets", None).json;
    let entry = listed["rulesets"]
        .as_array()
        .and_then(|all| all.iter().find(|r| r["slug"] == SLUG))
        .cloned()
        .unwrap_or_default();
    assert_eq!(entry["rules_version"], 2, "{listed}");

    let v1 = people(&old);
    let v2 = people(&new);
    let mut writes = [0usize; 2];
    for (game, owner, stranger, version) in [(&v1, &old, &new, 1), (&v2, &new, &old, 2)] {
        let mut turn = 0;
        while let Some((seat, action)) = next_move(owner, game) {
            // Every other move is first sent to the process of the other version.
            if turn % 2 == 0 {
                let before = stranger.game(game, None).json["version"].clone();
                let refused = stranger.act(game, seat, &action);
                refused.assert_problem(503, "rules_version_unavailable");
                assert_eq!(refused.header("retry-after"), Some("5"), "{}", refused.body);
                assert_eq!(owner.game(game, None).json["version"], before, "nothing changed");
            }
            let reply = owner.act(game, seat, &action);
            assert_eq!(reply.status, 200, "version {version}: {}", reply.body);
            writes[version - 1] += 1;
            turn += 1;
            assert!(turn < 2_000, "the game does not end");
        }
        let end = stranger.game(game, None);
        assert_eq!(end.status, 200, "reads work on either process: {}", end.body);
        assert_eq!(end.json["status"], "finished");
        let record = owner.get(&format!("/v1/games/{}/record", game.id), None).json;
        assert_eq!(record["rules_version"], version);
    }
    assert!(writes.iter().all(|&n| n > 10), "{writes:?}");
    // The host's calls that write are refused alike; deleting a game is not a rules change.
    let v1b = people(&old);
    let refused = new.post(
        &format!("/v1/games/{}/abort", v1b.id),
        Some(&v1b.host_token),
        &json!({}),
    );
    refused.assert_problem(503, "rules_version_unavailable");
    let aborted = old.post(
        &format!("/v1/games/{}/abort", v1b.id),
        Some(&v1b.host_token),
        &json!({}),
    );
    assert_eq!(aborted.status, 200, "{}", aborted.body);
}
