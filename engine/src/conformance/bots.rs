//! Bots of every level finish games of every registered ruleset, and decide from the seat's
//! view and legal actions alone.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::rng::GameRng;
use crate::{AnyGame, BotLevel, RULESETS, Seat, Viewer};

const MAX_STEPS: usize = 100_000;

/// Plays a seeded game to its end, seat `s` held by `levels(s)`; panics on a refused choice.
/// Returns how many actions it took.
fn play_out(slug: &str, seats: usize, seed: u64, levels: impl Fn(Seat) -> BotLevel) -> usize {
    let (mut game, _) = AnyGame::setup(slug, None, seats, seed).expect("setup");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for step in 0..MAX_STEPS {
        if game.is_over() {
            return step;
        }
        let seat = game.to_act()[0];
        let level = levels(seat);
        let action = game
            .bot_action(seat, level, &mut rng)
            .unwrap_or_else(|| panic!("{slug}: seat {seat} is to act but its bot has no action"));
        if let Err(refused) = game.apply(seat, action.get()) {
            panic!(
                "{slug} seed {seed}: the {} bot played {} : {refused}",
                level.as_str(),
                action.get()
            );
        }
    }
    panic!("{slug} seed {seed}: not over after {MAX_STEPS} actions");
}

#[test]
fn bots_of_every_level_finish_seeded_games_of_every_ruleset_and_seat_count() {
    for ruleset in RULESETS {
        for seats in ruleset.seats.clone() {
            for seed in 0..3u64 {
                for level in BotLevel::ALL {
                    play_out(ruleset.slug, seats, seed, |_| level);
                }
                let greedy = Seat::new(seed as usize % seats);
                play_out(ruleset.slug, seats, seed, |s| {
                    if s == greedy {
                        BotLevel::Greedy
                    } else {
                        BotLevel::Random
                    }
                });
            }
        }
    }
}

#[test]
fn a_seat_with_nothing_to_do_gets_no_action() {
    for ruleset in RULESETS {
        let (game, _) = AnyGame::setup(ruleset.slug, None, *ruleset.seats.end(), 9).expect("setup");
        let waiting: Vec<Seat> = Seat::all(game.seat_count())
            .filter(|&s| game.legal_action_list(s).is_empty())
            .collect();
        for seat in waiting {
            for level in BotLevel::ALL {
                let mut rng = ChaCha8Rng::seed_from_u64(1);
                assert!(
                    game.bot_action(seat, level, &mut rng).is_none(),
                    "{}",
                    ruleset.slug
                );
            }
        }
    }
}

/// Reverses every face-down pile (a key naming a deck, pile or bag) and reseeds the game's
/// dice: hidden state a seat must not be able to tell apart.
fn scramble_hidden(value: &mut Value, reseed: u64) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map.iter_mut() {
                let hidden = ["deck", "pile", "bag"].iter().any(|k| key.contains(k));
                match inner {
                    Value::Array(items) if hidden && items.len() > 1 => items.reverse(),
                    _ if key == "rng" => {
                        *inner = serde_json::to_value(GameRng::new(reseed)).expect("rng serializes")
                    }
                    _ => scramble_hidden(inner, reseed),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| scramble_hidden(v, reseed)),
        _ => {}
    }
}

/// Two games that differ only in what the seat to act cannot see (the order of the face-down
/// piles, the dice to come) give its bot the same view, and so the same choice with the same
/// rng seed. A bot that peeked at the top of a deck or the next roll would choose apart.
#[test]
fn a_bots_choice_depends_only_on_its_view_and_legal_actions() {
    for ruleset in RULESETS {
        let seats = *ruleset.seats.end();
        let (mut game, _) = AnyGame::setup(ruleset.slug, None, seats, 21).expect("setup");
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let mut compared = 0;
        for step in 0..400u64 {
            if game.is_over() {
                break;
            }
            let seat = game.to_act()[0];
            let mut state = serde_json::to_value(&game).expect("a game serializes");
            scramble_hidden(&mut state, 1000 + step);
            let twin: AnyGame = serde_json::from_value(state).expect("the scrambled game reads back");
            let view = game.view(Viewer::Seat(seat));
            if twin != game && twin.view(Viewer::Seat(seat)).get() == view.get() {
                assert_eq!(
                    twin.legal_actions(seat).get(),
                    game.legal_actions(seat).get(),
                    "{}",
                    ruleset.slug
                );
                for level in BotLevel::ALL {
                    let pick = |g: &AnyGame| {
                        let mut bot_rng = ChaCha8Rng::seed_from_u64(step);
                        g.bot_action(seat, level, &mut bot_rng)
                            .map(|a| a.get().to_owned())
                    };
                    assert_eq!(pick(&game), pick(&twin), "{} step {step}", ruleset.slug);
                }
                compared += 1;
            }
            let action = game
                .bot_action(seat, BotLevel::Greedy, &mut rng)
                .expect("an action");
            game.apply(seat, action.get()).expect("a bot's choice is legal");
        }
        assert!(
            compared >= 50,
            "{}: only {compared} positions compared",
            ruleset.slug
        );
    }
}
