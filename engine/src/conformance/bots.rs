//! Bots of every level finish games of every registered ruleset, choose only listed actions,
//! and decide from what the seat may know alone: its view and legal actions, and for the expert
//! the positions [`crate::Game::determinize`] samples for it.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::rng::GameRng;
use crate::{AnyGame, BotLevel, Budget, EachGame, Game, RULESETS, Seat, Viewer};

const MAX_STEPS: usize = 100_000;

/// The expert's budget in these checks: small, so that they stay fast; the search is the same
/// at any budget.
const TEST_BUDGET: Budget = Budget::iterations(3);

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
            .bot_action_within(seat, level, TEST_BUDGET, &mut rng)
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
                for level in [BotLevel::Random, BotLevel::Greedy] {
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

/// Every level at every seat count: each seat of a seeded game of every ruleset, at each seat
/// count it allows, held by a level in turn (random, greedy, expert, random...), so that the
/// expert sits at tables of every size beside both other levels, and every game ends without a
/// refused choice.
#[test]
fn bots_of_every_level_together_finish_games_at_every_seat_count() {
    for ruleset in RULESETS {
        for seats in ruleset.seats.clone() {
            for seed in 0..3u64 {
                let steps = play_out(ruleset.slug, seats, 100 + seed, |s| {
                    BotLevel::ALL[(s.index() + seed as usize) % BotLevel::ALL.len()]
                });
                assert!(steps > 0, "{} at {seats} seats ended before a move", ruleset.slug);
            }
        }
    }
}

/// The expert's choice is one of the seat's listed actions, and the first of what it considered
/// (listed actions whose shares sum to 1), at every kind of decision a game of greedy seats meets: asked at a spread of positions of a seeded game of each ruleset at its
/// fewest seats, and played there.
#[test]
fn the_expert_chooses_a_listed_action_in_every_ruleset() {
    for ruleset in RULESETS {
        let seats = *ruleset.seats.start();
        let (mut game, _) = AnyGame::setup(ruleset.slug, None, seats, 5).expect("setup");
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut asked = 0;
        for step in 0..MAX_STEPS {
            if game.is_over() {
                break;
            }
            let seat = game.to_act()[0];
            let listed: Vec<String> = game
                .legal_action_list(seat)
                .iter()
                .map(|a| a.get().to_owned())
                .collect();
            let level = if step % 7 == 0 && listed.len() > 1 {
                asked += 1;
                BotLevel::Expert
            } else {
                BotLevel::Greedy
            };
            if level == BotLevel::Expert {
                let considered =
                    game.deliberate(seat, TEST_BUDGET, &mut ChaCha8Rng::seed_from_u64(step as u64));
                let chosen = game
                    .bot_action_within(
                        seat,
                        level,
                        TEST_BUDGET,
                        &mut ChaCha8Rng::seed_from_u64(step as u64),
                    )
                    .expect("a seat to act has an action");
                assert_eq!(
                    considered.first().map(|c| c.action.get()),
                    Some(chosen.get()),
                    "{} step {step}: the expert's first consideration is its choice",
                    ruleset.slug
                );
                let shares: f64 = considered.iter().map(|c| c.share).sum();
                assert!(
                    (shares - 1.0).abs() < 1e-9
                        && considered
                            .iter()
                            .all(|c| listed.iter().any(|a| a == c.action.get())),
                    "{} step {step}: considered {considered:?}, shares summing to {shares}",
                    ruleset.slug
                );
            }
            let action = game
                .bot_action_within(seat, level, TEST_BUDGET, &mut rng)
                .expect("a seat to act has an action");
            assert!(
                listed.iter().any(|a| a == action.get()),
                "{} step {step}: the {} bot chose {}, not a listed action",
                ruleset.slug,
                level.as_str(),
                action.get()
            );
            game.apply(seat, action.get()).expect("a listed action applies");
        }
        assert!(game.is_over(), "{}: not over", ruleset.slug);
        assert!(
            asked >= 10,
            "{}: the expert was asked only {asked} times",
            ruleset.slug
        );
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

/// Deals the hand cards of every seat but `seat` anew: pooled, reversed and dealt back at the
/// same sizes (a key `hand` in the `players` list). Hidden state `seat` must not be able to tell
/// apart, unless it was shown a card (then its view differs and the position is not compared).
fn scramble_hands(value: &mut Value, seat: Seat) -> bool {
    let Some(players) = value
        .get_mut("state")
        .and_then(|s| s.get_mut("players"))
        .and_then(Value::as_array_mut)
    else {
        return false;
    };
    let before = players.clone();
    let others = |players: &mut Vec<Value>| -> Vec<(usize, usize)> {
        players
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != seat.index())
            .filter_map(|(i, p)| Some((i, p.get("hand")?.as_array()?.len())))
            .collect()
    };
    let sizes = others(players);
    let mut pool: Vec<Value> = Vec::new();
    for &(i, _) in &sizes {
        if let Some(hand) = players[i].get_mut("hand").and_then(Value::as_array_mut) {
            pool.append(hand);
        }
    }
    pool.reverse();
    for (i, len) in sizes {
        let dealt: Vec<Value> = pool.drain(..len.min(pool.len())).collect();
        if let Some(hand) = players[i].get_mut("hand").and_then(Value::as_array_mut) {
            *hand = dealt;
            hand.sort_by_key(|card| card.to_string());
        }
    }
    *players != before
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
/// piles, the dice to come, the cards in other seats' hands) give its bot the same view, and so
/// the same choice with the same rng seed, at every level. A bot that peeked at the top of a
/// deck, the next roll or another hand would choose apart.
#[test]
fn a_bots_choice_depends_only_on_its_view_and_legal_actions() {
    for ruleset in RULESETS {
        let seats = *ruleset.seats.end();
        let (mut game, _) = AnyGame::setup(ruleset.slug, None, seats, 21).expect("setup");
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let mut compared = 0;
        let mut dealt_hands = 0;
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
                    if level == BotLevel::Expert && step % 4 != 0 {
                        continue;
                    }
                    assert_eq!(
                        pick(&game, seat, level, step),
                        pick(&twin, seat, level, step),
                        "{} step {step}, {}",
                        ruleset.slug,
                        level.as_str()
                    );
                }
                compared += 1;
            }
            let mut dealt = serde_json::to_value(&game).expect("a game serializes");
            let changed = scramble_hands(&mut dealt, seat);
            scramble_hidden(&mut dealt, 2000 + step);
            let other: AnyGame = serde_json::from_value(dealt).expect("the dealt game reads back");
            if changed && other.view(Viewer::Seat(seat)).get() == view.get() && step % 4 == 0 {
                for level in BotLevel::ALL {
                    assert_eq!(
                        pick(&game, seat, level, step),
                        pick(&other, seat, level, step),
                        "{} step {step}, {}, other hands",
                        ruleset.slug,
                        level.as_str()
                    );
                }
                dealt_hands += 1;
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
        if ruleset.slug != "rock-the-world" {
            assert!(
                dealt_hands >= 5,
                "{}: only {dealt_hands} positions with other hands compared",
                ruleset.slug
            );
        }
    }
}

/// The action a `level` bot in `seat` picks with the rng seeded `seed`; the expert within the
/// test budget.
fn pick(game: &AnyGame, seat: Seat, level: BotLevel, seed: u64) -> Option<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    game.bot_action_within(seat, level, TEST_BUDGET, &mut rng)
        .map(|a| a.get().to_owned())
}

/// [`Game::greedy_pick_in`], the heuristic read from the state for the expert's playouts, makes
/// the same pick as [`Game::greedy_pick`] from the seat's view, with the same rng, at every
/// position of seeded greedy games of every ruleset and seat count: the playouts model greedy
/// seats exactly, and read only what a seat's view shows. [`Game::greedy_action`], the action a
/// playout plays, is that pick among the legal actions, from the same draws.
#[test]
fn the_heuristic_read_from_the_state_picks_as_from_the_view() {
    struct Agree;
    impl EachGame for Agree {
        fn visit<G: Game>(&mut self) {
            for seats in G::SEATS {
                for seed in 0..2u64 {
                    let (mut game, _) = G::setup(G::Options::default(), seats, seed).expect("setup");
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let mut step = 0u64;
                    while !game.is_over() && step < MAX_STEPS as u64 {
                        let seat = game.to_act()[0];
                        let legal = game.legal_actions(seat);
                        let from_view = G::greedy_pick(
                            &game.view(Viewer::Seat(seat)),
                            &legal,
                            &mut ChaCha8Rng::seed_from_u64(step),
                        );
                        let from_state =
                            game.greedy_pick_in(seat, &legal, &mut ChaCha8Rng::seed_from_u64(step));
                        assert_eq!(
                            from_view,
                            from_state,
                            "{} seats {seats} seed {seed} step {step}",
                            G::SLUG
                        );
                        let (mut listed_rng, mut playout_rng) =
                            (ChaCha8Rng::seed_from_u64(step), ChaCha8Rng::seed_from_u64(step));
                        assert_eq!(
                            crate::search::greedy_among(&game, seat, legal.clone(), &mut listed_rng),
                            game.greedy_action(seat, &mut playout_rng),
                            "{} seats {seats} seed {seed} step {step}: the playouts' action",
                            G::SLUG
                        );
                        assert_eq!(
                            listed_rng.next_u64(),
                            playout_rng.next_u64(),
                            "{} seats {seats} seed {seed} step {step}: the playouts' draws",
                            G::SLUG
                        );
                        let action = game
                            .bot_action(seat, BotLevel::Greedy, &mut rng)
                            .expect("an action");
                        game.apply(seat, &action).expect("a bot's choice is legal");
                        step += 1;
                    }
                }
            }
        }
    }
    crate::for_each_game(&mut Agree);
}
