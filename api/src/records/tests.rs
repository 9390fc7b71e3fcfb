//! Records of games played here by bots, built, signed, played again, and tampered with.

use roadie_engine::{AnyGame, BotLevel, RULESETS};
use serde_json::{Value, json};

use super::{FORMAT, Record, RecordKeys, build, sign, verify};
use crate::table::bots::play_bots;
use crate::table::seats::{SeatSpec, table_of};
use crate::table::{Log, LoggedAction, Revision, StoredEvent, Table};

/// A game of `seats` random bots of `slug` played to its end from `seed`, as the store would
/// hold it: the table, its event log and its log of actions.
fn bot_game(slug: &str, seats: usize, seed: u64) -> (Table, Vec<StoredEvent>, Vec<LoggedAction>) {
    let specs = vec![SeatSpec::Bot(BotLevel::Random); seats];
    let seat_table = table_of(seats, Some(&specs), false, 0).expect("seats");
    let (mut game, setup) = AnyGame::setup(slug, None, seats, seed).expect("setup");
    let mut log = Log::default();
    for event in setup {
        log.note(StoredEvent::from(event));
    }
    log.append(play_bots(&mut game, |seat| seat_table.bot(seat), 1_000 + seed));
    assert!(game.is_over(), "{slug}: random bots finish a game");
    let table = Table {
        id: format!("{seed:024x}"),
        revision: Revision::first(),
        events: log.len() as u64,
        seed,
        salt: "5a17".into(),
        clock: None,
        game,
        seats: seat_table,
        webhook: None,
        app: None,
        options: None,
        rules_version: 1,
        forked_from: None,
        aborted: false,
        rated: None,
        notices: Vec::new(),
    };
    let actions = log.actions.iter().map(|played| played.logged(1)).collect();
    (table, log.events, actions)
}

fn signed_record(slug: &str, seats: usize, seed: u64, keys: &RecordKeys) -> Record {
    let (table, events, actions) = bot_game(slug, seats, seed);
    sign(
        build(&table, &events, &actions).expect("a finished game's record"),
        keys,
    )
    .expect("signed")
}

/// How many random-bot games per ruleset and seat count the whole-suite check plays
/// (`RECORDS_PER_CELL`, default 12).
fn games_per_cell() -> u64 {
    std::env::var("RECORDS_PER_CELL")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(12)
}

#[test]
fn every_record_of_random_bot_games_verifies_with_its_signature() {
    let keys = RecordKeys::generate();
    let mut checked = 0;
    for ruleset in RULESETS {
        for seats in ruleset.seats.clone() {
            for seed in 0..games_per_cell() {
                let record = signed_record(ruleset.slug, seats, seed * 7 + seats as u64, &keys);
                assert_eq!(record.format, FORMAT);
                assert!(record.steps.iter().any(|s| s.action.is_some()));
                let verdict = verify(&record, keys.known(), None);
                assert!(
                    verdict.ok,
                    "{} at {seats}, seed {seed}: {verdict:?}",
                    ruleset.slug
                );
                assert_eq!(verdict.signature, "valid");
                checked += 1;
            }
        }
    }
    assert!(checked >= 3 * games_per_cell());
}

#[test]
fn a_record_written_out_and_read_back_in_another_layout_still_verifies() {
    let keys = RecordKeys::generate();
    let record = signed_record("shrewd-producer", 3, 4, &keys);
    let pretty = serde_json::to_string_pretty(&record).expect("json");
    let back: Record = serde_json::from_str(&pretty).expect("a record");
    assert_eq!(back, record);
    assert!(verify(&back, keys.known(), None).ok);
}

/// `record` with `edit` applied to its JSON.
fn edited(record: &Record, edit: impl FnOnce(&mut Value)) -> Record {
    let mut value = serde_json::to_value(record).expect("json");
    edit(&mut value);
    serde_json::from_value(value).expect("still a record")
}

#[test]
fn a_tampered_record_is_refused_at_the_check_it_breaks() {
    let keys = RecordKeys::generate();
    let record = signed_record("rock-the-world", 3, 11, &keys);
    let none = super::KnownKeys::default();
    assert!(verify(&record, &none, None).ok, "unsigned checks pass");

    let bad_seed = edited(&record, |r| r["seed"] = json!(record.seed + 1));
    assert_eq!(
        verify(&bad_seed, &none, None).failed.as_deref(),
        Some("commitment")
    );

    let changed_score = edited(&record, |r| {
        let total = r["outcome"]["scores"][0]["total"].as_i64().expect("a total");
        r["outcome"]["scores"][0]["total"] = json!(total + 1);
    });
    assert_eq!(
        verify(&changed_score, &none, None).failed.as_deref(),
        Some("outcome")
    );

    // Each action replaced by another, the one after it: refused at that step or, where the
    // other is legal too, by the outcome or the event log it leads to.
    let actions: Vec<usize> = (0..record.steps.len())
        .filter(|&i| record.steps[i].action.is_some())
        .collect();
    let mut at_the_step = 0;
    for pair in actions.windows(2).step_by(5) {
        let (i, j) = (pair[0], pair[1]);
        if record.steps[i].action == record.steps[j].action {
            continue;
        }
        let swapped = edited(&record, |r| {
            r["steps"][i]["action"] = r["steps"][j]["action"].clone()
        });
        let verdict = verify(&swapped, &none, None);
        assert!(!verdict.ok, "step {i} changed: {verdict:?}");
        assert!(
            matches!(verdict.failed.as_deref(), Some("step" | "outcome" | "events")),
            "{verdict:?}"
        );
        if verdict.failed.as_deref() == Some("step") {
            assert!(verdict.step.is_some_and(|s| s >= i), "{verdict:?}");
            at_the_step += 1;
        }
    }
    assert!(at_the_step > 0, "some changed action is illegal where it stands");

    let one_event_more = edited(&record, |r| r["events"]["count"] = json!(record.events.count + 1));
    assert_eq!(
        verify(&one_event_more, &none, None).failed.as_deref(),
        Some("events")
    );

    // Ratings no `ratings_changed` step announced: the signature would cover them, but the
    // record contradicts its own steps.
    let change = json!({
        "seat": 0, "player": "p1", "place": 1,
        "before": {"rating": 0, "mu_milli": 1_500_000, "sigma_milli": 500_000, "games": 0},
        "after": {"rating": 45, "mu_milli": 1_527_635, "sigma_milli": 494_000, "games": 1}
    });
    let rated = edited(&record, |r| r["ratings"] = json!([change]));
    let verdict = verify(&rated, &none, None);
    assert_eq!(verdict.failed.as_deref(), Some("ratings"), "{verdict:?}");

    let other = RecordKeys::generate();
    let resigned = sign(record.clone(), &other).expect("signed");
    let verdict = verify(&resigned, keys.known(), None);
    assert_eq!(verdict.failed.as_deref(), Some("signature"), "{verdict:?}");
    let unsigned = Record {
        signature: None,
        ..record.clone()
    };
    assert_eq!(
        verify(&unsigned, keys.known(), None).failed.as_deref(),
        Some("signature")
    );
    let retitled = edited(&record, |r| r["seats"][0]["name"] = json!("Mallory"));
    assert_eq!(
        verify(&retitled, keys.known(), None).failed.as_deref(),
        Some("signature")
    );
}

#[test]
fn a_running_game_has_no_record_yet() {
    let (mut table, events, actions) = bot_game("shrewd-producer", 3, 2);
    let (fresh, _) = AnyGame::setup("shrewd-producer", None, 3, 2).expect("setup");
    table.game = fresh;
    let refused = build(&table, &events, &actions).expect_err("running");
    assert_eq!(refused.code, crate::table::Code::GameNotFinished);
}
