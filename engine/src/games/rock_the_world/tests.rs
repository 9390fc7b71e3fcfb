//! Rock the World: the rulebook's cases, one test per ruling, and the conformance suite.

use super::actions::*;
use super::components::*;
use super::state::*;
use super::*;
use crate::conformance::{self, Config};

fn random_options(i: usize) -> Options {
    Options {
        variant: [Variant::Tournament, Variant::Friendly, Variant::ModifiedFriendly][i % 3],
        gig_after_claim: i % 7 == 3,
        max_turns_per_seat: SUGGESTED_TEST_TURN_CAP,
        ..Options::default()
    }
}

#[test]
fn conformance_random_games_every_variant_and_seat_count() {
    let config = Config {
        games: std::env::var("RTW_GAMES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1_000),
        seed: 1,
        max_steps: 20_000,
        exhaustive: false,
    };
    let report = conformance::run::<RockTheWorld>(&config, |i| 2 + (i / 3) % 3, random_options)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.games >= 1);
    eprintln!("{report:?}");
}
