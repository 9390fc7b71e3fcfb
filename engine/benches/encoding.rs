//! Storage encodings of a game: serialize + deserialize of a mid-game state as JSON (what the
//! service stores today) against two compact binary serde formats, per ruleset:
//!
//! - MessagePack (`rmp-serde`, structs as arrays) of the [`AnyGame`] the service stores;
//! - postcard of the typed game. Postcard cannot decode [`AnyGame`] itself: its adjacently
//!   tagged enum needs `deserialize_identifier`, which postcard does not implement
//!   (`WontImplement`), so the ruleset would be stored beside the bytes; nor a typed state
//!   that holds internally tagged enums (then only its size is printed).
//!
//! A second group times the CPU of one post without I/O (decode the state, apply one action,
//! build the seat's view, encode the state) to show the engine's share of a request.
//!
//! `cargo bench -p roadie-engine --bench encoding` (sizes are printed first).

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use roadie_engine::{AnyGame, EachGame, Game, Viewer, for_each_game};

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

/// The typed game inside `game`, through its stored JSON.
fn typed<G: Game>(game: &AnyGame) -> G {
    let value = serde_json::to_value(game).expect("encodes");
    serde_json::from_value(value["state"].clone()).expect("the state of this ruleset")
}

fn encoding_of<G: Game>(c: &mut Criterion) {
    let seats = *G::SEATS.end();
    let (_, length) = play(G::SLUG, seats, usize::MAX);
    let (game, _) = play(G::SLUG, seats, length / 2);
    let seat = game.to_act()[0];
    let action = game.legal_action_list(seat)[0].get().to_owned();
    let inner: G = typed(&game);

    let json = serde_json::to_vec(&game).expect("JSON encodes");
    let msgpack = rmp_serde::to_vec(&game).expect("MessagePack encodes");
    let postcard = postcard::to_allocvec(&inner).expect("postcard encodes");
    assert_eq!(
        serde_json::from_slice::<AnyGame>(&json).expect("JSON decodes"),
        game
    );
    assert_eq!(
        rmp_serde::from_slice::<AnyGame>(&msgpack).expect("MessagePack decodes"),
        game
    );
    // Postcard is not self-describing: a state with internally tagged or untagged enums does not
    // decode from it at all.
    let postcard_decodes = match postcard::from_bytes::<G>(&postcard) {
        Ok(decoded) => decoded == inner,
        Err(e) => {
            println!(
                "{}: postcard cannot decode this state ({e}); its timings are skipped",
                G::SLUG
            );
            false
        }
    };
    let percent = |n: usize| 100.0 * n as f64 / json.len() as f64;
    println!(
        "{}: {seats} seats, state after {} of {length} actions: JSON {} bytes, MessagePack {} bytes ({:.0}%), \
         postcard {} bytes ({:.0}%); seat view {} bytes",
        G::SLUG,
        length / 2,
        json.len(),
        msgpack.len(),
        percent(msgpack.len()),
        postcard.len(),
        percent(postcard.len()),
        game.view(Viewer::Seat(seat)).get().len()
    );

    let mut group = c.benchmark_group(format!("encoding/{}", G::SLUG));
    group.bench_function("json/serialize", |b| {
        b.iter(|| serde_json::to_vec(black_box(&game)))
    });
    group.bench_function("json/deserialize", |b| {
        b.iter(|| serde_json::from_slice::<AnyGame>(black_box(&json)))
    });
    group.bench_function("msgpack/serialize", |b| {
        b.iter(|| rmp_serde::to_vec(black_box(&game)))
    });
    group.bench_function("msgpack/deserialize", |b| {
        b.iter(|| rmp_serde::from_slice::<AnyGame>(black_box(&msgpack)))
    });
    if postcard_decodes {
        group.bench_function("postcard/serialize", |b| {
            b.iter(|| postcard::to_allocvec(black_box(&inner)))
        });
        group.bench_function("postcard/deserialize", |b| {
            b.iter(|| postcard::from_bytes::<G>(black_box(&postcard)))
        });
    }
    group.finish();

    let mut group = c.benchmark_group(format!("post-cpu/{}", G::SLUG));
    group.bench_function("engine/apply+to_act+view+outcome", |b| {
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
    group.bench_function("msgpack/decode+apply+view+encode", |b| {
        b.iter(|| {
            let mut g: AnyGame = rmp_serde::from_slice(black_box(&msgpack)).expect("decodes");
            let events = g.apply(seat, &action).expect("accepted");
            let view = g.view(Viewer::Seat(seat));
            (events, view, rmp_serde::to_vec(&g))
        })
    });
    group.finish();
}

struct Encoding<'a>(&'a mut Criterion);

impl EachGame for Encoding<'_> {
    fn visit<G: Game>(&mut self) {
        encoding_of::<G>(self.0);
    }
}

fn encoding(c: &mut Criterion) {
    for_each_game(&mut Encoding(c));
}

criterion_group!(benches, encoding);
criterion_main!(benches);
