//! Full games of every registered ruleset, played over HTTP to their outcome.

use crate::play::{Checks, Table};
use crate::support::{Redis, Roadie, rulesets};

#[test]
fn every_ruleset_plays_to_its_outcome_over_http() {
    let redis = Redis::start();
    let roadie = Roadie::start("full_games", Some(&redis), &[]);
    let rulesets = rulesets(&roadie);
    assert!(!rulesets.is_empty());
    for (slug, min, max) in rulesets {
        for (i, seats) in [min, max].into_iter().enumerate() {
            if i == 1 && max == min {
                continue;
            }
            let mut table = Table::new(&roadie, &slug, seats, 1_000 + seats as u64);
            table.play_to_end(Checks::Acting);
            table.check_finished();
            let after = roadie.act(&table.created, 0, &serde_json::json!({"type": "anything"}));
            assert!(after.status == 409 || after.status == 400, "{}", after.body);
        }
    }
}

#[test]
fn hidden_cards_never_reach_other_seats_views_or_events() {
    let redis = Redis::start();
    let roadie = Roadie::start("hidden", Some(&redis), &[]);
    for (slug, _, max) in rulesets(&roadie) {
        let mut table = Table::new(&roadie, &slug, max, 77);
        for viewer in (0..max)
            .map(roadie_engine::Viewer::Seat)
            .chain([roadie_engine::Viewer::Spectator])
        {
            table.check_viewer(viewer);
        }
        table.play_to_end(Checks::Everyone);
        table.check_finished();
    }
}

#[test]
fn the_in_memory_store_plays_the_same_games() {
    let roadie = Roadie::start("memory_game", None, &[]);
    for (slug, min, _) in rulesets(&roadie) {
        let mut table = Table::new(&roadie, &slug, min, 5);
        table.play_to_end(Checks::Acting);
        table.check_finished();
    }
}
