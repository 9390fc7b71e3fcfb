//! Measures each ruleset's bot of one level against bots of another: by default greedy against
//! random, or, say, `--level expert --against greedy`.
//!
//! For every ruleset and seat count (or, with `--seats K`, at K seats or the ruleset's fewest
//! when K is below them) it plays `--games` seeded games with one `--level` seat (rotating
//! through the seats) and `--against` bots in the others, and, for the text table, as many
//! all-`--against` games as a control, through the engine's registry and
//! `AnyGame::bot_action_within`, the method bot seats in the service call. It prints the tracked
//! seat's win share with its 95% Wilson interval beside the baseline 1/seats; `--json` prints a
//! JSON list of rows (`ruleset`, `seats`, `level`, `against`, `games`, `win_share`, `ci_low`,
//! `ci_high`, and the tracked level's mean and longest time per decision, `ms_per_decision` and
//! `ms_longest`) instead, without the control. The expert searches `--iterations` playouts a
//! decision (by default those of `Budget::DEFAULT`) and, with `--ms`, at most that long. A shared first place counts 1/k for each of the k
//! winners, so every finished game hands out exactly one win.
//!
//! `cargo run --release -p roadie-tests --bin bots -- --games 2000`
//! `cargo run --release -p roadie-tests --bin bots -- --level expert --against greedy --games 100 --seats 2 --json`

use clap::{Parser, ValueEnum};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use roadie_engine::{AnyGame, BotLevel, Budget, RULESETS, Seat};

/// A bot level, as the command line names it.
#[derive(Clone, Copy, ValueEnum)]
enum Level {
    Random,
    Greedy,
    Expert,
}

impl From<Level> for BotLevel {
    fn from(level: Level) -> Self {
        match level {
            Level::Random => BotLevel::Random,
            Level::Greedy => BotLevel::Greedy,
            Level::Expert => BotLevel::Expert,
        }
    }
}

#[derive(Parser)]
#[command(about = "Win rate of each ruleset's bot of one level against bots of another")]
struct Args {
    /// The level of the one tracked seat.
    #[arg(long, value_enum, default_value = "greedy")]
    level: Level,
    /// The level of every other seat.
    #[arg(long, value_enum, default_value = "random")]
    against: Level,
    /// Play each ruleset at this many seats (its fewest when this is below them, its most when
    /// above); every seat count it allows when absent.
    #[arg(long)]
    seats: Option<usize>,
    /// The expert's search iterations per decision (playouts: one action played out from one
    /// sample).
    #[arg(long, default_value_t = Budget::DEFAULT.iterations)]
    iterations: u32,
    /// The expert's time bound per decision, in milliseconds; none by default, so that a run is
    /// reproducible (the service's default budget has one: `Budget::DEFAULT`).
    #[arg(long)]
    ms: Option<u64>,
    /// Print the rows as a JSON list, without the control.
    #[arg(long)]
    json: bool,
    /// Games per ruleset and seat count, for the tracked seat and again for the control.
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
    /// Decisions of the tracked level, and the time they took.
    decisions: usize,
    thinking: std::time::Duration,
    longest: std::time::Duration,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.unfinished += other.unfinished;
        self.decisions += other.decisions;
        self.thinking += other.thinking;
        self.longest = self.longest.max(other.longest);
    }

    /// The tracked level's mean time per decision, in milliseconds.
    fn ms_per_decision(&self) -> f64 {
        self.thinking.as_secs_f64() * 1000.0 / self.decisions.max(1) as f64
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

/// Plays one game; `lead` is the seat the `--level` bot holds, if any, the others are
/// `--against` bots. Returns the share of the win that `tracked` earned, or `None` when the game
/// did not end within `--max-steps`; `tally` counts the `--level` bot's decisions and their time.
fn play(
    slug: &str,
    seats: usize,
    seed: u64,
    lead: Option<Seat>,
    tracked: Seat,
    args: &Args,
    tally: &mut Tally,
) -> Option<f64> {
    let (mut game, _) = AnyGame::setup(slug, None, seats, seed).ok()?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_b075);
    let budget = Budget {
        iterations: args.iterations,
        time: args.ms.map(std::time::Duration::from_millis),
    };
    for _ in 0..args.max_steps {
        if let Some(outcome) = game.outcome() {
            let k = outcome.winners.len().max(1) as f64;
            return Some(if outcome.winners.contains(&tracked) {
                1.0 / k
            } else {
                0.0
            });
        }
        let seat = *game.to_act().first()?;
        let level = BotLevel::from(if lead == Some(seat) {
            args.level
        } else {
            args.against
        });
        let started = std::time::Instant::now();
        let action = game.bot_action_within(seat, level, budget, &mut rng)?;
        if lead == Some(seat) {
            let took = started.elapsed();
            tally.decisions += 1;
            tally.thinking += took;
            tally.longest = tally.longest.max(took);
        }
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

fn run(slug: &str, seats: usize, args: &Args, lead: bool) -> Tally {
    let worker = |from: usize| {
        let mut tally = Tally::default();
        for i in (from..args.games).step_by(args.threads.max(1)) {
            let seat = Seat::new(i % seats);
            let seed = args.seed + i as u64;
            tally.games += 1;
            match play(slug, seats, seed, lead.then_some(seat), seat, args, &mut tally) {
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

/// One row of `--json`.
#[derive(serde::Serialize)]
struct Row<'a> {
    ruleset: &'a str,
    seats: usize,
    level: &'a str,
    against: &'a str,
    games: usize,
    win_share: f64,
    ci_low: f64,
    ci_high: f64,
    /// The `--level` bot's mean and longest time per decision, in milliseconds.
    ms_per_decision: f64,
    ms_longest: f64,
}

/// The seat counts to play `ruleset` at.
fn seat_counts(allowed: &std::ops::RangeInclusive<usize>, asked: Option<usize>) -> Vec<usize> {
    match asked {
        Some(k) => vec![k.clamp(*allowed.start(), *allowed.end())],
        None => allowed.clone().collect(),
    }
}

fn main() {
    let args = Args::parse();
    let (level, against) = (BotLevel::from(args.level), BotLevel::from(args.against));
    if args.json {
        let mut rows = Vec::new();
        for ruleset in RULESETS {
            if args.ruleset.as_deref().is_some_and(|r| r != ruleset.slug) {
                continue;
            }
            for seats in seat_counts(&ruleset.seats, args.seats) {
                let tally = run(ruleset.slug, seats, &args, true);
                let (ci_low, ci_high) = tally.wilson();
                rows.push(Row {
                    ruleset: ruleset.slug,
                    seats,
                    level: level.as_str(),
                    against: against.as_str(),
                    games: tally.games,
                    win_share: tally.rate(),
                    ci_low,
                    ci_high,
                    ms_per_decision: tally.ms_per_decision(),
                    ms_longest: tally.longest.as_secs_f64() * 1000.0,
                });
            }
        }
        println!("{}", serde_json::to_string_pretty(&rows).expect("rows serialize"));
        return;
    }
    let lead = format!("{} win share [95% CI]", level.as_str());
    let control = format!("{} win share [95% CI]", against.as_str());
    println!(
        "{:<16} {:>5} {:>6} {:>26} {:>26} {:>8} {:>10}",
        "ruleset", "seats", "games", lead, control, "1/seats", "unfinished"
    );
    let mut clear = true;
    for ruleset in RULESETS {
        if args.ruleset.as_deref().is_some_and(|r| r != ruleset.slug) {
            continue;
        }
        for seats in seat_counts(&ruleset.seats, args.seats) {
            let tracked = run(ruleset.slug, seats, &args, true);
            let control = run(ruleset.slug, seats, &args, false);
            let (g_lo, g_hi) = tracked.wilson();
            let (c_lo, c_hi) = control.wilson();
            let baseline = 1.0 / seats as f64;
            clear &= g_lo > baseline && g_lo > control.rate();
            println!(
                "{:<16} {:>5} {:>6} {:>8.3} [{:.3}, {:.3}] {:>8.3} [{:.3}, {:.3}] {:>8.3} {:>4} / {:>4}",
                ruleset.slug,
                seats,
                args.games,
                tracked.rate(),
                g_lo,
                g_hi,
                control.rate(),
                c_lo,
                c_hi,
                baseline,
                tracked.unfinished,
                control.unfinished,
            );
        }
    }
    let (level, against) = (level.as_str(), against.as_str());
    if clear {
        println!(
            "{level} beats {against} in every ruleset: the lower end of each interval is above 1/seats and the control"
        );
    } else {
        println!("{level} does NOT clearly beat {against} everywhere");
    }
}
