//! Measures each ruleset's greedy bot against random ones.
//!
//! For every ruleset and seat count it plays `--games` seeded games with one greedy seat
//! (rotating through the seats) and random bots in the others, and as many all-random games
//! as a control, through the engine's registry and `AnyGame::bot_action`, the method
//! bot seats in the service call. It prints the tracked seat's win share with its 95% Wilson
//! interval beside the baseline 1/seats. A shared first place counts 1/k for each of the k
//! winners, so every finished game hands out exactly one win.
//!
//! `cargo run --release -p roadie-tests --bin bots -- --games 2000`

use clap::Parser;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use roadie_engine::{AnyGame, BotLevel, RULESETS, Seat};

#[derive(Parser)]
#[command(about = "Win rate of each ruleset's greedy bot against random bots")]
struct Args {
    /// Games per ruleset and seat count, for the greedy seat and again for the control.
    #[arg(long, default_value_t = 2000)]
    games: usize,
    /// First game seed; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only this ruleset (slug).
    #[arg(long)]
    ruleset: Option<String>,
    /// Actions after which a game counts as unfinished.
    #[arg(long, default_value_t = 100_000)]
    max_steps: usize,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

/// What the tracked seat won over a run of games.
#[derive(Clone, Copy, Default)]
struct Tally {
    games: usize,
    wins: f64,
    unfinished: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.unfinished += other.unfinished;
    }

    fn rate(&self) -> f64 {
        self.wins / self.games.max(1) as f64
    }

    /// The 95% Wilson score interval of the win share (fractional shared wins included, which
    /// only narrows the true variance, so the interval is if anything wide).
    fn wilson(&self) -> (f64, f64) {
        let n = self.games.max(1) as f64;
        let p = self.rate();
        let z = 1.959_964f64;
        let z2 = z * z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        (centre - half, centre + half)
    }
}

/// Plays one game; `greedy` is the seat the greedy bot holds, if any. Returns the share of the
/// win that `tracked` earned, or `None` when the game did not end within `max_steps`.
fn play(
    slug: &str,
    seats: usize,
    seed: u64,
    greedy: Option<Seat>,
    tracked: Seat,
    max_steps: usize,
) -> Option<f64> {
    let (mut game, _) = AnyGame::setup(slug, None, seats, seed).ok()?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_b075);
    for _ in 0..max_steps {
        if let Some(outcome) = game.outcome() {
            let k = outcome.winners.len().max(1) as f64;
            return Some(if outcome.winners.contains(&tracked) {
                1.0 / k
            } else {
                0.0
            });
        }
        let seat = *game.to_act().first()?;
        let level = if greedy == Some(seat) {
            BotLevel::Greedy
        } else {
            BotLevel::Random
        };
        let action = game.bot_action(seat, level, &mut rng)?;
        if let Err(refused) = game.apply(seat, action.get()) {
            panic!(
                "{slug} seed {seed}: the {} bot's {} was refused: {refused}",
                level.as_str(),
                action.get()
            );
        }
    }
    None
}

fn run(slug: &str, seats: usize, args: &Args, greedy: bool) -> Tally {
    let worker = |from: usize| {
        let mut tally = Tally::default();
        for i in (from..args.games).step_by(args.threads.max(1)) {
            let seat = Seat::new(i % seats);
            let seed = args.seed + i as u64;
            tally.games += 1;
            match play(slug, seats, seed, greedy.then_some(seat), seat, args.max_steps) {
                Some(share) => tally.wins += share,
                None => tally.unfinished += 1,
            }
        }
        tally
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..args.threads.max(1))
            .map(|t| scope.spawn(move || worker(t)))
            .collect();
        let mut total = Tally::default();
        for handle in handles {
            total.add(handle.join().expect("a worker panicked"));
        }
        total
    })
}

fn main() {
    let args = Args::parse();
    println!(
        "{:<16} {:>5} {:>6} {:>26} {:>26} {:>8} {:>10}",
        "ruleset",
        "seats",
        "games",
        "greedy win share [95% CI]",
        "random win share [95% CI]",
        "1/seats",
        "unfinished"
    );
    let mut clear = true;
    for ruleset in RULESETS {
        if args.ruleset.as_deref().is_some_and(|r| r != ruleset.slug) {
            continue;
        }
        for seats in ruleset.seats.clone() {
            let greedy = run(ruleset.slug, seats, &args, true);
            let control = run(ruleset.slug, seats, &args, false);
            let (g_lo, g_hi) = greedy.wilson();
            let (c_lo, c_hi) = control.wilson();
            let baseline = 1.0 / seats as f64;
            clear &= g_lo > baseline && g_lo > control.rate();
            println!(
                "{:<16} {:>5} {:>6} {:>8.3} [{:.3}, {:.3}] {:>8.3} [{:.3}, {:.3}] {:>8.3} {:>4} / {:>4}",
                ruleset.slug,
                seats,
                args.games,
                greedy.rate(),
                g_lo,
                g_hi,
                control.rate(),
                c_lo,
                c_hi,
                baseline,
                greedy.unfinished,
                control.unfinished,
            );
        }
    }
    println!(
        "{}",
        if clear {
            "greedy beats random in every ruleset: the lower end of each interval is above 1/seats and the control"
        } else {
            "greedy does NOT clearly beat random everywhere"
        }
    );
}
