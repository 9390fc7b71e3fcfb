//! Seeds anyone can check: a finished game's every shuffle, roll and draw, recomputed in plain
//! Python (`scripts/seeds/recompute.py`, written from docs/integrating.md's "Randomness") from the
//! revealed seed and compared with the public event log; and every id the game showed resolves
//! in its ruleset's component catalogue.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use roadie_engine::catalogue::IdCheck;
use serde_json::Value;

use crate::support::{Created, Redis, Roadie, python, rulesets};

/// Plays random legal actions until the game ends; hands every view, listed action and post
/// answer seen on the way to `seen`.
pub fn play_randomly(roadie: &Roadie, game: &Created, seed: u64, mut seen: impl FnMut(&Value)) {
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..20_000 {
        let state = roadie.game(game, None);
        assert_eq!(state.status, 200, "{}", state.body);
        seen(&state.json["view"]);
        if state.json["status"] == "finished" {
            return;
        }
        let to_act = state.json["to_act"].as_array().expect("to_act").clone();
        let seat = to_act[rng.random_range(0..to_act.len())]
            .as_u64()
            .expect("a seat") as usize;
        let actions = roadie.actions(game, seat);
        actions.iter().for_each(&mut seen);
        let action = &actions[rng.random_range(0..actions.len())];
        let reply = roadie.act(game, seat, action);
        assert_eq!(reply.status, 200, "{action}: {}", reply.body);
        seen(&reply.json["events"]);
        seen(&reply.json["game"]["view"]);
    }
    panic!("the game did not end in 20000 steps");
}

/// Plays as [`play_randomly`] does, except that a seat offered a DJ's step (taking a token off
/// the map, drawing one from the bag) or a DJ card (played, activated or taken from the market)
/// picks one of those at random: tokens then cycle through the bag fast enough to empty it.
fn play_djs(roadie: &Roadie, game: &Created, seed: u64, djs: &BTreeSet<String>) {
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..20_000 {
        let state = roadie.game(game, None);
        assert_eq!(state.status, 200, "{}", state.body);
        if state.json["status"] == "finished" {
            return;
        }
        let view = &state.json["view"];
        let to_act = state.json["to_act"].as_array().expect("to_act").clone();
        let seat = to_act[rng.random_range(0..to_act.len())]
            .as_u64()
            .expect("a seat") as usize;
        let is_dj = |card: &Value| card.as_str().is_some_and(|c| djs.contains(c));
        let top_is_dj = view["players"][seat]["influence_field"]
            .as_array()
            .and_then(|field| field.last())
            .is_some_and(is_dj);
        let actions = roadie.actions(game, seat);
        let steered: Vec<usize> = (0..actions.len())
            .filter(|&i| {
                let action = &actions[i];
                match action["type"].as_str().unwrap_or("") {
                    "dj_remove" | "dj_from_bag" => true,
                    "play" => is_dj(&action["card"]),
                    "activate_hand" => top_is_dj,
                    "take_market" => action["field"].as_u64().is_some_and(|f| {
                        view["influence_market"]
                            .as_array()
                            .and_then(|market| market.iter().find(|o| o["field"].as_u64() == Some(f)))
                            .is_some_and(|o| is_dj(&o["card"]))
                    }),
                    _ => false,
                }
            })
            .collect();
        let pick = if steered.is_empty() {
            rng.random_range(0..actions.len())
        } else {
            steered[rng.random_range(0..steered.len())]
        };
        let action = &actions[pick];
        let reply = roadie.act(game, seat, action);
        assert_eq!(reply.status, 200, "{action}: {}", reply.body);
    }
    panic!("the game did not end in 20000 steps");
}

fn recompute(roadie: &Roadie, game: &Created, seed: Option<u64>) -> std::process::Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/seeds/recompute.py");
    let mut command = Command::new(python());
    command
        .arg(script)
        .args(["--url", &roadie.url(""), "--game", &game.id]);
    if let Some(seed) = seed {
        command.args(["--seed", &seed.to_string()]);
    }
    command.output().expect("python runs")
}

#[test]
fn python_recomputes_every_shuffle_roll_and_draw_of_a_finished_game_from_its_seed() {
    let redis = Redis::start();
    let roadie = Roadie::start("seeds", Some(&redis), &[]);
    for (slug, min, max) in rulesets(&roadie) {
        let seed = 9_007_199_254_740_000 + max as u64;
        let game = roadie.create(&slug, max.max(min), Some(seed));
        let catalogue = roadie.get(&format!("/v1/rulesets/{slug}/components"), None);
        assert_eq!(catalogue.status, 200, "{}", catalogue.body);
        assert_eq!(catalogue.json["ruleset"], slug.as_str());
        let components = catalogue.json["components"]
            .as_object()
            .expect("components")
            .clone();
        let check = IdCheck::new(&slug, &components);
        let mut missing = BTreeSet::new();
        play_randomly(&roadie, &game, seed, |value| {
            check.unresolved(value, &mut missing)
        });
        let log = roadie.events(&game, None);
        for event in &log {
            check.unresolved(&event["body"], &mut missing);
        }
        assert!(missing.is_empty(), "{slug}: ids the catalogue lacks: {missing:?}");

        let finished = roadie.game(&game, None);
        assert_eq!(finished.json["seed"], seed, "the seed goes out exactly");
        let run = recompute(&roadie, &game, None);
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success(),
            "{slug}: {stdout}{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let counts: Value = serde_json::from_str(stdout.trim()).expect("a JSON summary");
        let sealed = log.iter().filter(|e| e["audience"]["to"] == "nobody").count() as u64;
        let checked = ["shuffles", "rolls", "draws"]
            .iter()
            .map(|k| counts[k].as_u64().expect("a count"))
            .sum::<u64>();
        assert!(counts["shuffles"].as_u64() >= Some(1), "{slug}: {counts}");
        assert_eq!(
            checked, sealed,
            "{slug}: every sealed event is a recomputed outcome: {counts}"
        );

        let wrong = recompute(&roadie, &game, Some(seed + 1));
        assert_eq!(
            wrong.status.code(),
            Some(1),
            "{slug}: another seed must not match"
        );
        assert!(String::from_utf8_lossy(&wrong.stderr).contains("mismatch"));
    }
}

/// A Show Business bag emptied and refilled from the used pool holds the used tokens in the
/// order they reached the pool (`randomness.md`): the script follows the pool through the log and
/// checks every draw after the refill against it. The seed and the DJ-heavy play are chosen so
/// that the bag runs out.
#[test]
fn python_recomputes_the_bag_draws_after_a_refill_from_the_used_pool() {
    let redis = Redis::start();
    let roadie = Roadie::start("seeds_bag", Some(&redis), &[]);
    let seed = 9_007_199_254_740_801;
    let game = roadie.create("show-business", 5, Some(seed));
    let catalogue = roadie.get("/v1/rulesets/show-business/components", None);
    assert_eq!(catalogue.status, 200, "{}", catalogue.body);
    let djs: BTreeSet<String> = catalogue.json["components"]["influence_cards"]
        .as_array()
        .expect("influence cards")
        .iter()
        .filter(|card| card["character"] == "dj")
        .filter_map(|card| card["id"].as_str().map(str::to_owned))
        .collect();
    assert!(!djs.is_empty(), "the catalogue names the DJ cards");
    play_djs(&roadie, &game, seed, &djs);

    let run = recompute(&roadie, &game, None);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let counts: Value = serde_json::from_str(stdout.trim()).expect("a JSON summary");
    assert!(
        counts["bag_refills"].as_u64() >= Some(1),
        "the bag was refilled: {counts}"
    );
    let log = roadie.events(&game, None);
    let refill = log
        .iter()
        .position(|e| e["body"]["type"] == "reshuffled" && e["body"]["pile"] == "bag")
        .expect("a refill in the log");
    let later: u64 = log[refill..]
        .iter()
        .filter(|e| e["body"]["type"] == "bag_draw")
        .count() as u64;
    assert!(later >= 1, "the game drew from the refilled bag");
    assert_eq!(
        counts["draws_after_refill"].as_u64(),
        Some(later),
        "every draw after the refill was checked: {counts}"
    );
}

#[test]
fn an_unknown_ruleset_has_no_components() {
    let roadie = Roadie::start("components_404", None, &[]);
    roadie
        .get("/v1/rulesets/no-such-game/components", None)
        .assert_problem(404, "ruleset_not_found");
}
