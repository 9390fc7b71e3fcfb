//! Engine benchmarks, for every registered game: random full games per second, and the cost of
//! one step (listing the legal actions of a seat to act and applying one of them).
//!
//! `cargo bench -p roadie-engine`

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use roadie_engine::rng::GameRng;
use roadie_engine::{EachGame, Game, for_each_game};

/// Plays one game to the end with random listed actions; returns the actions played.
fn play<G: Game>(seats: usize, seed: u64, mut visit: impl FnMut(&G)) -> usize {
    let (mut game, _) = G::setup(G::Options::default(), seats, seed).expect("valid setup");
    let mut chooser = GameRng::new(seed);
    let mut steps = 0;
    while !game.is_over() {
        visit(&game);
        let to_act = game.to_act();
        let seat = to_act[chooser.below(to_act.len())];
        let actions = game.legal_actions(seat);
        let action = &actions[chooser.below(actions.len())];
        game.apply(seat, action).expect("listed actions are legal");
        steps += 1;
    }
    steps
}

fn bench_game<G: Game>(c: &mut Criterion) {
    let seats = *G::SEATS.end();
    let mut group = c.benchmark_group(G::SLUG);

    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function(format!("random_game_{seats}_seats"), |b| {
        b.iter(|| {
            seed += 1;
            black_box(play::<G>(seats, seed, |_| {}))
        })
    });

    let mut positions = Vec::new();
    for seed in 0..20 {
        play::<G>(seats, 1_000 + seed, |g| positions.push(g.clone()));
    }
    let mut chooser = GameRng::new(7);
    group.throughput(Throughput::Elements(1));
    group.bench_function("legal_actions_and_apply", |b| {
        b.iter_batched(
            || positions[chooser.below(positions.len())].clone(),
            |mut game| {
                let seat = game.to_act()[0];
                let actions = game.legal_actions(seat);
                let action = &actions[actions.len() / 2];
                black_box(game.apply(seat, action).is_ok())
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

struct Bench<'a>(&'a mut Criterion);

impl EachGame for Bench<'_> {
    fn visit<G: Game>(&mut self) {
        bench_game::<G>(self.0);
    }
}

fn engine(c: &mut Criterion) {
    for_each_game(&mut Bench(c));
}

criterion_group!(benches, engine);
criterion_main!(benches);
