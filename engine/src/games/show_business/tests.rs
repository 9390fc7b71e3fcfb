//! Show Business: the rulebook's worked examples and the rulings, as tests.

use super::*;
use crate::conformance::{self, Config};

#[test]
fn conformance_random_games_play_to_the_end() {
    let config = Config {
        games: 100,
        seed: 1,
        max_steps: 20_000,
        exhaustive: false,
    };
    let report = conformance::run::<ShowBusiness>(&config, |i| 2 + i % 4, |_| Options::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.games, 100);
    eprintln!("{report:?}");
}

/// A random player that plays like a careful manager: it advertises only what it must, rarely
/// reviews or fires, and bids little, so games run to week 56.
fn careful_pick(g: &ShowBusiness, list: &[Action], r: &mut crate::rng::GameRng) -> Action {
    if let Some(a) = list.iter().find(|a| matches!(a, Action::Advertise { .. })) {
        return a.clone();
    }
    let calm: Vec<&Action> = list
        .iter()
        .filter(|a| match a {
            Action::Dismiss { .. } | Action::Flip { .. } | Action::Regroup { .. } => r.below(40) == 0,
            Action::Remove { .. } => r.below(10) == 0,
            Action::Bid { amount } => *amount <= 3,
            Action::GiveUp | Action::Pass => r.below(4) == 0,
            _ => true,
        })
        .collect();
    let _ = g;
    if calm.is_empty() {
        list[r.below(list.len())].clone()
    } else {
        calm[r.below(calm.len())].clone()
    }
}

/// Plays one careful game; returns whether the last turn was reached.
fn careful_game(seats: usize, seed: u64) -> (ShowBusiness, usize) {
    use crate::Game;
    let (mut g, _) = ShowBusiness::setup(Options::default(), seats, seed).expect("setup");
    let mut r = crate::rng::GameRng::new(seed ^ 0x5eed);
    let mut steps = 0;
    while !g.is_over() {
        assert!(steps < 20_000, "seed {seed}: too long");
        g.check_invariants()
            .unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e}"));
        let to_act = g.to_act();
        assert!(!to_act.is_empty(), "seed {seed}: stuck in {}", g.phase());
        for s in 0..seats {
            assert_eq!(
                to_act.contains(&s),
                !g.legal_actions(s).is_empty(),
                "seed {seed} step {steps}"
            );
        }
        let s = to_act[r.below(to_act.len())];
        let l = g.legal_actions(s);
        let a = careful_pick(&g, &l, &mut r);
        if std::env::var("SB_STATS").is_ok() {
            eprintln!("KIND {} {}", a.kind(), g.phase());
        }
        g.apply(s, &a)
            .unwrap_or_else(|e| panic!("seed {seed} step {steps}: {a:?} refused: {e}"));
        steps += 1;
    }
    g.check_invariants()
        .unwrap_or_else(|e| panic!("seed {seed} at the end: {e}"));
    (g, steps)
}

#[test]
fn careful_games_reach_week_56() {
    let mut full = 0;
    for seed in 0..40 {
        let (g, _) = careful_game(2 + seed as usize % 4, seed);
        if g.last_turn {
            full += 1;
        }
    }
    assert!(full >= 10, "only {full} of 40 careful games reached week 56");
}

#[test]
#[ignore]
fn debug_one_game() {
    use crate::Game;
    use crate::rng::GameRng;
    let seed: u64 = std::env::var("SB_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let seats: usize = std::env::var("SB_SEATS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let (mut g, _) = ShowBusiness::setup(Options::default(), seats, seed).expect("setup");
    let mut r = GameRng::new(seed);
    let mut steps = 0;
    while !g.is_over() && steps < 5000 {
        let to_act = g.to_act();
        assert!(!to_act.is_empty(), "stuck in {}", g.phase());
        let s = to_act[r.below(to_act.len())];
        let l = g.legal_actions(s);
        assert!(!l.is_empty(), "no actions for {s} in {}", g.phase());
        let a = l[r.below(l.len())].clone();
        if steps > 4900 {
            eprintln!(
                "{steps} {} seat {s} {:?} time {:?}",
                g.phase(),
                a,
                g.players.iter().map(|p| p.time).collect::<Vec<_>>()
            );
        }
        g.apply(s, &a).unwrap_or_else(|e| panic!("{e}"));
        steps += 1;
    }
    eprintln!(
        "steps {steps} over {} players {:?}",
        g.is_over(),
        g.players
            .iter()
            .map(|p| (p.time, p.popularity, p.cash, p.bankrupt))
            .collect::<Vec<_>>()
    );
}
