//! Storage encodings of a game: serialize + deserialize of a mid-game [`AnyGame`] as JSON (what
//! the service stores today) against postcard (a compact binary serde format), per ruleset.
//! A second group times the CPU of one post without I/O (decode the state, apply one action,
//! build the seat's view, encode the state) to show the engine's share of a request.
//!
//! `cargo bench -p roadie-engine --bench encoding` (the sizes are printed first).

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use roadie_engine::{AnyGame, RULESETS, Viewer};

const SEED: u64 = 7;

/// Plays random legal actions from `seed` for `steps` actions (or to the end); returns the
/// game and how many actions were played.
fn play(slug: &str, seats: usize, steps: usize) -> (AnyGame, usize) {
    let (mut game, _) = AnyGame::setup(slug, None, seats, SEED).expect("default options set up");
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut played = 0;
    while played < steps && !game.is_over() {
        let to_act = game.to_act();
        let seat = to_act[rng.random_range(0..to_act.len())];
        let actions = game.legal_action_list(seat);
        let action = &actions[rng.random_range(0..actions.len())];
        game.apply(seat, action.get())
            .expect("a listed action is accepted");
        played += 1;
    }
    (game, played)
}

/// A game halfway through (by actions) the random game of [`SEED`], with its next move.
fn mid_game(slug: &str, seats: usize) -> (AnyGame, usize, String) {
    let (_, length) = play(slug, seats, usize::MAX);
    let (game, _) = play(slug, seats, length / 2);
    let seat = game.to_act()[0];
    let action = game.legal_action_list(seat)[0].get().to_owned();
    (game, seat, action)
}

fn encoding(c: &mut Criterion) {
    for ruleset in RULESETS {
        let seats = *ruleset.seats.end();
        let (game, seat, action) = mid_game(ruleset.slug, seats);
        let json = serde_json::to_vec(&game).expect("JSON encodes");
        let binary = postcard::to_allocvec(&game).expect("postcard encodes");
        assert_eq!(
            serde_json::from_slice::<AnyGame>(&json).expect("JSON decodes"),
            game
        );
        assert_eq!(
            postcard::from_bytes::<AnyGame>(&binary).expect("postcard decodes"),
            game
        );
        let view = game.view(Viewer::Seat(seat));
        println!(
            "{}: {seats} seats, mid-game state {} bytes as JSON, {} bytes as postcard ({:.0}%); seat view {} bytes",
            ruleset.slug,
            json.len(),
            binary.len(),
            100.0 * binary.len() as f64 / json.len() as f64,
            view.get().len()
        );

        let mut group = c.benchmark_group(format!("encoding/{}", ruleset.slug));
        group.bench_function("json/serialize", |b| {
            b.iter(|| serde_json::to_vec(black_box(&game)))
        });
        group.bench_function("json/deserialize", |b| {
            b.iter(|| serde_json::from_slice::<AnyGame>(black_box(&json)))
        });
        group.bench_function("postcard/serialize", |b| {
            b.iter(|| postcard::to_allocvec(black_box(&game)))
        });
        group.bench_function("postcard/deserialize", |b| {
            b.iter(|| postcard::from_bytes::<AnyGame>(black_box(&binary)))
        });
        group.finish();

        let mut group = c.benchmark_group(format!("post-cpu/{}", ruleset.slug));
        group.bench_function("engine/apply+view", |b| {
            b.iter_batched(
                || game.clone(),
                |mut g| {
                    let events = g.apply(seat, &action).expect("a listed action is accepted");
                    (events, g.to_act(), g.view(Viewer::Seat(seat)), g.outcome())
                },
                BatchSize::SmallInput,
            )
        });
        group.bench_function("engine/legal_actions", |b| {
            b.iter(|| game.legal_actions(black_box(seat)))
        });
        group.bench_function("json/decode+apply+view+encode", |b| {
            b.iter(|| {
                let mut g: AnyGame = serde_json::from_slice(black_box(&json)).expect("decodes");
                let events = g.apply(seat, &action).expect("accepted");
                let view = g.view(Viewer::Seat(seat));
                (events, view, serde_json::to_vec(&g))
            })
        });
        group.bench_function("postcard/decode+apply+view+encode", |b| {
            b.iter(|| {
                let mut g: AnyGame = postcard::from_bytes(black_box(&binary)).expect("decodes");
                let events = g.apply(seat, &action).expect("accepted");
                let view = g.view(Viewer::Seat(seat));
                (events, view, postcard::to_allocvec(&g))
            })
        });
        group.finish();
    }
}

criterion_group!(benches, encoding);
criterion_main!(benches);
