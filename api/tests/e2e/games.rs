//! Full games of every registered ruleset, played over HTTP to their outcome.

use crate::play::{Checks, Table};
use crate::support::{Redis, Roadie, rulesets};

#[test]
fn every_ruleset_plays_to_its_outcome_over_http() {
    let redis = Redis::start();
    let roadie = Roadie::start("full_games", Some(&redis), &[]);
    let rulesets = rulesets(&roadie);
    assert!(!rulesets.is_empty());
    for (slug, min, _) in rulesets {
        let mut table = Table::new(&roadie, &slug, min, 1_000 + min as u64);
        table.play_to_end(Checks::Acting);
        table.check_finished();
        let after = roadie.act(&table.created, 0, &serde_json::json!({"type": "anything"}));
        assert!(after.status == 409 || after.status == 400, "{}", after.body);
    }
}

#[test]
fn hidden_cards_never_reach_other_seats_views_or_events() {
    let redis = Redis::start();
    let roadie = Roadie::start("hidden", Some(&redis), &[]);
    for (slug, _, max) in rulesets(&roadie) {
        let mut table = Table::new(&roadie, &slug, max, 77);
        for viewer in roadie_engine::Seat::all(max)
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
    for (slug, min, max) in rulesets(&roadie) {
        let mut table = Table::new(&roadie, &slug, (min + max) / 2, 5);
        while table.steps < 150 && table.step(Checks::Acting) {}
        for viewer in roadie_engine::Seat::all(table.seats).map(roadie_engine::Viewer::Seat) {
            table.check_view(viewer);
        }
    }
}
