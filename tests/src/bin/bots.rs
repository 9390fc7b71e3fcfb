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
//! `ci_high`, `par`, `iterations`, `against_iterations`, `against_every_playout`, `unfinished`,
//! the tracked level's mean, median, 99th percentile and longest time per decision,
//! `ms_per_decision`, `ms_median`, `ms_p99` and `ms_longest`, and the other seats' mean and
//! median, `against_ms_per_decision` and `against_ms_median`) instead, without the control, and `--markdown` the same rows as the
//! strength table of docs/playing.md. The expert searches `--iterations` playouts a decision (by
//! default those of `Budget::DEFAULT`), experts in the other seats `--against-iterations` (half
//! of it shows whether more search still helps), and, with `--ms`, at most that long;
//! `--against-every-playout` makes the other experts play every playout of their budget, as the
//! expert did before it stopped early, so that one run sets the expert against its former self.
//! The tool allocates with mimalloc, as the service does, so its times are the service's. A shared
//! first place counts 1/k for each of the k winners, so every finished game hands out exactly one
//! win.
//!
//! `bots rate` measures the levels' ratings instead: see [`RateArgs`].
//!
//! `cargo run --release -p roadie-tests --bin bots -- --games 2000`
//! `cargo run --release -p roadie-tests --bin bots -- --level expert --against greedy --games 100 --seats 2 --json`
//! `cargo run --release -p roadie-tests --bin bots -- rate --games 300`

use clap::{Parser, Subcommand, ValueEnum};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use roadie_api::table::rating::{self, START, Skill};
use roadie_engine::{AnyGame, BotLevel, Budget, Outcome, RULESETS, Seat};

/// mimalloc, the service's allocator, so that the times per decision are the service's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
#[command(
    about = "Win rate of each ruleset's bot of one level against bots of another",
    args_conflicts_with_subcommands = true
)]
struct Args {
    #[command(subcommand)]
    mode: Option<Mode>,
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
    /// The search iterations per decision of `--against` experts, when they are experts: half
    /// of `--iterations` shows whether more search still helps. `--iterations` unless set.
    #[arg(long)]
    against_iterations: Option<u32>,
    /// `--against` experts play every playout of their budget instead of stopping early
    /// (`Budget::every_playout`): the expert as it searched before.
    #[arg(long)]
    against_every_playout: bool,
    /// The expert's time bound per decision, in milliseconds; none by default, so that a run is
    /// reproducible (the service's default budget has one: `Budget::DEFAULT`).
    #[arg(long)]
    ms: Option<u64>,
    /// Print the rows as a JSON list, without the control.
    #[arg(long)]
    json: bool,
    /// Print the rows as a Markdown table, without the control: the strength table of
    /// docs/playing.md.
    #[arg(long, conflicts_with = "json")]
    markdown: bool,
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
#[derive(Clone, Default)]
struct Tally {
    games: usize,
    wins: f64,
    unfinished: usize,
    /// Decisions of the tracked level, and the time they took.
    decisions: usize,
    thinking: std::time::Duration,
    longest: std::time::Duration,
    /// Each of those decisions' time, for the median and the 99th percentile.
    times: Vec<std::time::Duration>,
    /// The time of each decision of the `--against` bots.
    against_times: Vec<std::time::Duration>,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.unfinished += other.unfinished;
        self.decisions += other.decisions;
        self.thinking += other.thinking;
        self.longest = self.longest.max(other.longest);
        self.times.extend(other.times);
        self.against_times.extend(other.against_times);
    }

    /// The tracked level's time per decision at quantile `q` (0 to 1), in milliseconds.
    fn ms_at(&self, q: f64) -> f64 {
        quantile_ms(&self.times, q)
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

/// The mean of `times`, in milliseconds; 0 for none.
fn mean_ms(times: &[std::time::Duration]) -> f64 {
    let total: std::time::Duration = times.iter().sum();
    total.as_secs_f64() * 1000.0 / times.len().max(1) as f64
}

/// The time at quantile `q` (0 to 1) of `times`, in milliseconds; 0 for none.
fn quantile_ms(times: &[std::time::Duration], q: f64) -> f64 {
    let mut times = times.to_vec();
    times.sort();
    let Some(last) = times.len().checked_sub(1) else {
        return 0.0;
    };
    let at = ((last as f64) * q).round() as usize;
    times[at.min(last)].as_secs_f64() * 1000.0
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
    let time = args.ms.map(std::time::Duration::from_millis);
    let lead_budget = Budget {
        time,
        ..Budget::iterations(args.iterations)
    };
    let against_budget = Budget {
        time,
        stop_early: !args.against_every_playout,
        ..Budget::iterations(args.against_iterations.unwrap_or(args.iterations))
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
        let budget = if lead == Some(seat) {
            lead_budget
        } else {
            against_budget
        };
        let action = game.bot_action_within(seat, level, budget, &mut rng)?;
        if lead == Some(seat) {
            let took = started.elapsed();
            tally.decisions += 1;
            tally.thinking += took;
            tally.longest = tally.longest.max(took);
            tally.times.push(took);
        } else {
            tally.against_times.push(started.elapsed());
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
    /// 1/seats: the share a seat wins among equals.
    par: f64,
    /// The search iterations per decision of the tracked seat and of the others.
    iterations: u32,
    against_iterations: u32,
    /// Whether the `--against` experts played every playout (`--against-every-playout`).
    against_every_playout: bool,
    /// Games that did not end within `--max-steps` (counted as lost).
    unfinished: usize,
    /// The `--level` bot's mean, median, 99th percentile and longest time per decision, in
    /// milliseconds.
    ms_per_decision: f64,
    ms_median: f64,
    ms_p99: f64,
    ms_longest: f64,
    /// The `--against` bots' mean and median time per decision, in milliseconds.
    against_ms_per_decision: f64,
    against_ms_median: f64,
}

/// The rows as a Markdown table: one line each, its win share, interval, par and whether the
/// interval lies above par, and the tracked level's median and 99th percentile per decision.
fn print_markdown(rows: &[Row]) {
    println!(
        "| ruleset | seats | {} (iterations) | against | games | win share | 95% CI | par | above par | ms per decision: median / p99 |",
        rows.first().map_or("level", |row| row.level)
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for row in rows {
        let against = if row.against == "expert" {
            format!(
                "{} ({}{}; median {:.1} ms)",
                row.against,
                row.against_iterations,
                if row.against_every_playout {
                    ", every playout"
                } else {
                    ""
                },
                row.against_ms_median
            )
        } else {
            row.against.to_owned()
        };
        println!(
            "| {} | {} | {} ({}) | {} | {} | {:.3} | [{:.3}, {:.3}] | {:.3} | {} | {:.1} / {:.1} |",
            row.ruleset,
            row.seats,
            row.level,
            row.iterations,
            against,
            row.games,
            row.win_share,
            row.ci_low,
            row.ci_high,
            row.par,
            if row.ci_low > row.par { "yes" } else { "no" },
            row.ms_median,
            row.ms_p99,
        );
    }
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
    if let Some(Mode::Rate(rate)) = &args.mode {
        rate_levels(rate);
        return;
    }
    let (level, against) = (BotLevel::from(args.level), BotLevel::from(args.against));
    if args.json || args.markdown {
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
                    par: 1.0 / seats as f64,
                    iterations: args.iterations,
                    against_iterations: args.against_iterations.unwrap_or(args.iterations),
                    unfinished: tally.unfinished,
                    ms_per_decision: tally.ms_per_decision(),
                    ms_median: tally.ms_at(0.5),
                    ms_p99: tally.ms_at(0.99),
                    ms_longest: tally.longest.as_secs_f64() * 1000.0,
                    against_ms_per_decision: mean_ms(&tally.against_times),
                    against_ms_median: quantile_ms(&tally.against_times, 0.5),
                    against_every_playout: args.against_every_playout,
                });
            }
        }
        if args.json {
            println!("{}", serde_json::to_string_pretty(&rows).expect("rows serialize"));
        } else {
            print_markdown(&rows);
        }
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

#[derive(Subcommand)]
enum Mode {
    /// Rate each level as a player: see `RateArgs`.
    Rate(RateArgs),
}

/// `bots rate`: each level's rating, measured the way players are rated.
///
/// For every ruleset it plays `--games` seeded games at `--seats` seats (3 by default, or the
/// ruleset's nearest), the seats shared among the three levels at random: game i (seed
/// `--seed` + i) deals the levels to the seats in a random order, one seat each, and any seats
/// beyond three to levels drawn at random. Each level is one player, starting at the service's
/// start (1,500 ± 500), nobody anchored, rated after every game in game order with the
/// service's own `rating::places` and `rating::update`. A level that held several seats of one
/// game takes the mean of those seats' updates. The expert searches `--iterations` playouts a
/// decision with no time bound, so a run is reproducible whatever the machine's load.
#[derive(clap::Args)]
struct RateArgs {
    /// Games per ruleset.
    #[arg(long, default_value_t = 300)]
    games: usize,
    /// Seats per game (the ruleset's fewest when below them, its most when above).
    #[arg(long, default_value_t = 3)]
    seats: usize,
    /// The expert's search iterations per decision.
    #[arg(long, default_value_t = Budget::DEFAULT.iterations)]
    iterations: u32,
    /// First game seed; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only this ruleset (slug).
    #[arg(long)]
    ruleset: Option<String>,
    /// Actions after which a game counts as unfinished (and is not rated).
    #[arg(long, default_value_t = 100_000)]
    max_steps: usize,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Print the rows as a JSON list.
    #[arg(long)]
    json: bool,
}

/// The levels of one game's seats, in seat order: every level once, in an order drawn from
/// `seed`, then levels drawn at random for any seats beyond three (and only the first `seats`
/// when there are fewer).
fn deal_levels(seats: usize, seed: u64) -> Vec<BotLevel> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0de1_1e7e);
    let mut levels = BotLevel::ALL.to_vec();
    while levels.len() < seats {
        levels.push(BotLevel::ALL[rng.random_range(0..BotLevel::ALL.len())]);
    }
    levels.shuffle(&mut rng);
    levels.truncate(seats);
    levels
}

/// A played game of `rate`: its seats' levels and outcome, and the expert's thinking.
struct Played {
    levels: Vec<BotLevel>,
    outcome: Option<Outcome>,
    expert_decisions: usize,
    expert_thinking: std::time::Duration,
}

/// Plays game `seed` of `slug` at `seats` seats among the levels [`deal_levels`] gives.
fn play_levels(slug: &str, seats: usize, seed: u64, args: &RateArgs) -> Played {
    let levels = deal_levels(seats, seed);
    let mut played = Played {
        levels: levels.clone(),
        outcome: None,
        expert_decisions: 0,
        expert_thinking: std::time::Duration::ZERO,
    };
    let Ok((mut game, _)) = AnyGame::setup(slug, None, seats, seed) else {
        return played;
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_b075);
    let budget = Budget::iterations(args.iterations);
    for _ in 0..args.max_steps {
        if let Some(outcome) = game.outcome() {
            played.outcome = Some(outcome);
            return played;
        }
        let Some(&seat) = game.to_act().first() else {
            return played;
        };
        let Some(&level) = levels.get(seat.index()) else {
            return played;
        };
        let started = std::time::Instant::now();
        let Some(action) = game.bot_action_within(seat, level, budget, &mut rng) else {
            return played;
        };
        if level == BotLevel::Expert {
            played.expert_decisions += 1;
            played.expert_thinking += started.elapsed();
        }
        if let Err(refused) = game.apply(seat, action.get()) {
            panic!(
                "{slug} seed {seed}: the {} bot's {} was refused: {refused}",
                level.as_str(),
                action.get()
            );
        }
    }
    played
}

/// Each level's rating (in the order of `BotLevel::ALL`) after rating `games` in order, each
/// level a player starting at `START`; games that did not finish are skipped.
fn rate_games<'a>(games: impl IntoIterator<Item = (&'a [BotLevel], &'a Outcome)>) -> [Skill; 3] {
    let mut skills = [START; 3];
    let slot = |level: BotLevel| BotLevel::ALL.iter().position(|&l| l == level).unwrap_or(0);
    for (levels, outcome) in games {
        let before: Vec<Skill> = levels.iter().map(|&l| skills[slot(l)]).collect();
        let places = rating::places(outcome, &[]);
        let after = rating::update(&before, &places, &vec![false; levels.len()]);
        for (k, level) in BotLevel::ALL.iter().enumerate() {
            let held: Vec<&Skill> = levels
                .iter()
                .zip(&after)
                .filter(|(l, _)| *l == level)
                .map(|(_, skill)| skill)
                .collect();
            if held.is_empty() {
                continue;
            }
            let n = held.len() as i64;
            skills[k] = Skill {
                mu_milli: held.iter().map(|s| s.mu_milli).sum::<i64>() / n,
                sigma_milli: held.iter().map(|s| s.sigma_milli).sum::<i64>() / n,
            };
        }
    }
    skills
}

/// One row of `rate --json`: a level's rating in a ruleset.
#[derive(serde::Serialize)]
struct RateRow<'a> {
    ruleset: &'a str,
    seats: usize,
    level: &'a str,
    games: usize,
    /// The mean and uncertainty after all the games, in points.
    mu: f64,
    sigma: f64,
    /// The conservative rating shown, `mu − 3σ`.
    shown: i64,
    /// The mean after the first half of the games, to see it settle.
    mu_half: f64,
    /// Its mean place (1 is first).
    mean_place: f64,
    /// The expert's mean time per decision, in milliseconds (the expert's row only).
    #[serde(skip_serializing_if = "Option::is_none")]
    ms_per_decision: Option<f64>,
}

fn rate_levels(args: &RateArgs) {
    let started = std::time::Instant::now();
    let mut rows = Vec::new();
    for ruleset in RULESETS {
        if args.ruleset.as_deref().is_some_and(|r| r != ruleset.slug) {
            continue;
        }
        let seats = args.seats.clamp(*ruleset.seats.start(), *ruleset.seats.end());
        let threads = args.threads.max(1);
        let mut played: Vec<(usize, Played)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    scope.spawn(move || {
                        (t..args.games)
                            .step_by(threads)
                            .map(|i| (i, play_levels(ruleset.slug, seats, args.seed + i as u64, args)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|handle| handle.join().expect("a worker panicked"))
                .collect()
        });
        played.sort_by_key(|(i, _)| *i);
        let finished: Vec<(&[BotLevel], &Outcome)> = played
            .iter()
            .filter_map(|(_, p)| p.outcome.as_ref().map(|o| (&p.levels[..], o)))
            .collect();
        let skills = rate_games(finished.iter().copied());
        let half = rate_games(finished.iter().take(finished.len() / 2).copied());
        let decisions: usize = played.iter().map(|(_, p)| p.expert_decisions).sum();
        let thinking: std::time::Duration = played.iter().map(|(_, p)| p.expert_thinking).sum();
        for (k, level) in BotLevel::ALL.iter().enumerate() {
            let mut places = 0usize;
            let mut seats_held = 0usize;
            for (levels, outcome) in &finished {
                let placed = rating::places(outcome, &[]);
                for (l, place) in levels.iter().zip(placed) {
                    if l == level {
                        places += place;
                        seats_held += 1;
                    }
                }
            }
            rows.push(RateRow {
                ruleset: ruleset.slug,
                seats,
                level: level.as_str(),
                games: finished.len(),
                mu: skills[k].mu_milli as f64 / 1000.0,
                sigma: skills[k].sigma_milli as f64 / 1000.0,
                shown: skills[k].shown(),
                mu_half: half[k].mu_milli as f64 / 1000.0,
                mean_place: places as f64 / seats_held.max(1) as f64,
                ms_per_decision: (*level == BotLevel::Expert)
                    .then(|| thinking.as_secs_f64() * 1000.0 / decisions.max(1) as f64),
            });
        }
        eprintln!(
            "{}: {} of {} games finished, {:.0} s so far",
            ruleset.slug,
            finished.len(),
            args.games,
            started.elapsed().as_secs_f64()
        );
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows).expect("rows serialize"));
        return;
    }
    println!(
        "{:<16} {:>5} {:>6} {:<7} {:>8} {:>6} {:>6} {:>9} {:>10}",
        "ruleset", "seats", "games", "level", "mu", "sigma", "shown", "mu@half", "mean place"
    );
    for row in &rows {
        println!(
            "{:<16} {:>5} {:>6} {:<7} {:>8.0} {:>6.0} {:>6} {:>9.0} {:>10.2}",
            row.ruleset,
            row.seats,
            row.games,
            row.level,
            row.mu,
            row.sigma,
            row.shown,
            row.mu_half,
            row.mean_place
        );
    }
    let expert_ms: Vec<String> = rows
        .iter()
        .filter_map(|row| {
            row.ms_per_decision
                .map(|ms| format!("{} {ms:.1} ms", row.ruleset))
        })
        .collect();
    println!(
        "expert: {} playouts a decision, mean time per decision {}; {:.0} s in all",
        args.iterations,
        expert_ms.join(", "),
        started.elapsed().as_secs_f64()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_and_p99_of_decision_times_are_read_from_the_sorted_times() {
        let tally = Tally {
            times: (1..=100).rev().map(std::time::Duration::from_millis).collect(),
            ..Tally::default()
        };
        assert_eq!(tally.ms_at(0.5), 51.0);
        assert_eq!(tally.ms_at(0.99), 99.0);
        assert_eq!(tally.ms_at(1.0), 100.0);
        assert_eq!(Tally::default().ms_at(0.5), 0.0);
    }

    #[test]
    fn every_level_gets_a_seat_and_the_deal_is_reproducible() {
        for seed in 0..50 {
            let levels = deal_levels(3, seed);
            for level in BotLevel::ALL {
                assert!(levels.contains(&level), "seed {seed}: {levels:?}");
            }
            assert_eq!(levels, deal_levels(3, seed));
            assert_eq!(deal_levels(5, seed).len(), 5);
            assert_eq!(deal_levels(2, seed).len(), 2);
        }
    }

    #[test]
    fn a_level_that_always_wins_rates_above_one_that_always_loses() {
        let levels = [
            BotLevel::Expert,
            BotLevel::Random,
            BotLevel::Greedy,
            BotLevel::Random,
        ];
        let outcome = Outcome {
            scores: [1, 4, 2, 3]
                .iter()
                .enumerate()
                .map(|(i, &rank)| roadie_engine::SeatScore {
                    seat: Seat::new(i),
                    total: 0,
                    lines: Vec::new(),
                    tiebreaks: Vec::new(),
                    rank,
                })
                .collect(),
            winners: vec![Seat::new(0)],
        };
        let games: Vec<(&[BotLevel], &Outcome)> = (0..20).map(|_| (&levels[..], &outcome)).collect();
        let [random, greedy, expert] = rate_games(games);
        assert!(expert.mu_milli > greedy.mu_milli, "{expert:?} {greedy:?}");
        assert!(greedy.mu_milli > random.mu_milli, "{greedy:?} {random:?}");
        assert!(random.sigma_milli < START.sigma_milli);
    }
}
