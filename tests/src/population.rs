//! A simulated population for measuring ratings and matchmaking by rating: players of known
//! hidden strength open tickets in one queue over simulated time, are seated by the service's
//! own batch rule (`table::tickets::batch`), play, and are rated by the service's own
//! `rating::places` and `rating::update`. The `ratings` binary prints what it measures
//! (`docs/benchmarks.md`, "Ratings and matchmaking by rating").
//!
//! The model:
//!
//! - Each player's strength is drawn once from a normal distribution (mean 1,500, standard
//!   deviation [`Model::spread`] points) and never changes; the ratings never see it.
//! - A game's places come from each seat's performance, its strength plus normal noise of
//!   standard deviation β = 250 (the rating model's own β): the higher performance places
//!   ahead (Thurstone–Mosteller, the generative model Weng–Lin approximates).
//! - A player idles for an exponential time (mean [`Model::idle_mean_ms`]), opens a ticket
//!   carrying its shown rating, waits to be seated, plays for a time drawn evenly from
//!   [`Model::game_ms`], is rated when the game ends, and idles again. Nobody asks for bots.
//! - The queue is looked at whenever a ticket opens or a game ends, and every
//!   `WIDEN_LOOK_MS` while tickets wait (as the service looks again while windows widen); each
//!   look seats batches until none fits.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use roadie_api::table::rating::{self, START, Skill};
use roadie_api::table::tickets::{self, MatchWindow, WIDEN_LOOK_MS, Waiting};
use roadie_engine::{BotLevel, Outcome, Seat, SeatScore};

/// The noise of a seat's performance in one game, in rating points: the rating model's β.
pub const BETA: f64 = 250.0;

/// The mean of the players' strengths: a new player's `mu`.
pub const MEAN_STRENGTH: f64 = 1_500.0;

/// What is simulated.
#[derive(Clone, Debug)]
pub struct Model {
    /// Players.
    pub players: usize,
    /// The standard deviation of their strengths, in rating points.
    pub spread: f64,
    /// Seats at every table (one queue).
    pub seats: usize,
    /// The batch rule's window; `None` seats tickets without looking at ratings.
    pub window: Option<MatchWindow>,
    /// Games per player (the mean over players) at which to measure, ascending; the run stops
    /// at the last.
    pub checkpoints: Vec<u32>,
    /// The mean idle time between a player's games (ms).
    pub idle_mean_ms: f64,
    /// The shortest and longest game (ms).
    pub game_ms: (u64, u64),
    /// Everything random is drawn from this seed.
    pub seed: u64,
}

impl Model {
    /// 200 players of strength 1,500 ± `spread`, four seats a table, games of 8 to 12
    /// minutes, 5 minutes' idle on average, measured at 10, 20 and 40 games a player.
    pub fn new(spread: f64, seats: usize, window: Option<MatchWindow>, seed: u64) -> Self {
        Self {
            players: 200,
            spread,
            seats,
            window,
            checkpoints: vec![10, 20, 40],
            idle_mean_ms: 300_000.0,
            game_ms: (480_000, 720_000),
            seed,
        }
    }
}

/// What was measured between two checkpoints, and at the second.
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    /// The checkpoint: games per player, on average, at its end.
    pub games_per_player: u32,
    /// The fewest games any player had played by then.
    pub fewest_games: u32,
    /// Spearman's rank correlation of the shown rating with the true strength, at the end.
    pub spearman: f64,
    /// Spearman's rank correlation of `mu` with the true strength, at the end.
    pub spearman_mu: f64,
    /// Tables seated in the phase.
    pub tables: usize,
    /// The mean, over those tables, of the highest shown rating less the lowest at seating.
    pub rating_spread: f64,
    /// The same of the true strengths.
    pub strength_spread: f64,
    /// The median and 99th percentile of the waits of the tickets seated in the phase (s).
    pub wait_p50_s: f64,
    /// See `wait_p50_s`.
    pub wait_p99_s: f64,
}

/// A run's measurements.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// One per checkpoint reached, in order.
    pub phases: Vec<Phase>,
    /// The median and 99th percentile of every ticket's wait (s), and the longest.
    pub wait_p50_s: f64,
    /// See `wait_p50_s`.
    pub wait_p99_s: f64,
    /// See `wait_p50_s`.
    pub wait_max_s: f64,
    /// Games played.
    pub games: usize,
    /// Simulated time (s).
    pub simulated_s: f64,
}

#[derive(Clone, Copy)]
enum State {
    Idle { until: u64 },
    Waiting,
    Playing,
}

struct Player {
    strength: f64,
    skill: Skill,
    games: u32,
    state: State,
}

struct Table {
    id: usize,
    players: Vec<usize>,
    until: u64,
}

/// A draw from the standard normal distribution (Box–Muller).
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>();
    let v: f64 = rng.random::<f64>();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A draw from the exponential distribution of mean `mean`.
fn exponential(rng: &mut ChaCha8Rng, mean: f64) -> u64 {
    let u: f64 = 1.0 - rng.random::<f64>();
    (-mean * u.ln()).round() as u64
}

/// The ranks of `values`, 1 for the smallest, ties sharing the mean of their ranks.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let shared = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            ranks[k] = shared;
        }
        i = j + 1;
    }
    ranks
}

/// Spearman's rank correlation of `a` and `b` (the Pearson correlation of their ranks, ties
/// sharing a rank); 0 when either is constant.
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len().min(rb.len()) as f64;
    if n < 2.0 {
        return 0.0;
    }
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let (mut cov, mut va, mut vb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        cov += (x - ma) * (y - mb);
        va += (x - ma) * (x - ma);
        vb += (y - mb) * (y - mb);
    }
    if va == 0.0 || vb == 0.0 {
        return 0.0;
    }
    cov / (va * vb).sqrt()
}

/// The `p` quantile of `sorted` (nearest rank), 0 when empty.
fn quantile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1] as f64 / 1000.0
}

/// The places of a game whose seats performed `performances`: the engine's ranks (1 for the
/// best, equal performances sharing one) read by the service's `rating::places`.
pub fn places_of(performances: &[f64]) -> Vec<usize> {
    let scores = performances
        .iter()
        .enumerate()
        .map(|(i, p)| SeatScore {
            seat: Seat::new(i),
            total: 0,
            lines: Vec::new(),
            tiebreaks: Vec::new(),
            rank: 1 + performances.iter().filter(|q| *q > p).count(),
        })
        .collect();
    rating::places(
        &Outcome {
            scores,
            winners: Vec::new(),
        },
        &[],
    )
}

struct PhaseTally {
    tables: usize,
    rating_spread: i64,
    strength_spread: f64,
    waits: Vec<u64>,
}

impl PhaseTally {
    fn new() -> Self {
        Self {
            tables: 0,
            rating_spread: 0,
            strength_spread: 0.0,
            waits: Vec::new(),
        }
    }
}

/// Runs `model` until its last checkpoint (or until a simulated year has passed, when the
/// queue cannot seat enough players to reach it).
pub fn simulate(model: &Model) -> Report {
    let mut rng = ChaCha8Rng::seed_from_u64(model.seed);
    let seats = model.seats.max(2);
    let players_n = model.players.max(seats);
    let mut players: Vec<Player> = (0..players_n)
        .map(|_| Player {
            strength: MEAN_STRENGTH + model.spread * normal(&mut rng),
            skill: START,
            games: 0,
            state: State::Idle { until: 0 },
        })
        .collect();
    for player in &mut players {
        player.state = State::Idle {
            until: exponential(&mut rng, model.idle_mean_ms),
        };
    }
    let (short, long) = (
        model.game_ms.0.min(model.game_ms.1),
        model.game_ms.0.max(model.game_ms.1),
    );
    let mut queue: Vec<(usize, u64)> = Vec::new();
    let mut tables: Vec<Table> = Vec::new();
    let mut next_table = 0usize;
    let mut seat_games: u64 = 0;
    let mut games = 0usize;
    let mut phases = Vec::new();
    let mut tally = PhaseTally::new();
    let mut all_waits: Vec<u64> = Vec::new();
    let mut next_look: Option<u64> = None;
    let mut now: u64 = 0;
    const YEAR_MS: u64 = 365 * 24 * 3_600_000;
    while phases.len() < model.checkpoints.len() && now < YEAR_MS {
        let next_idle = players
            .iter()
            .filter_map(|p| match p.state {
                State::Idle { until } => Some(until),
                _ => None,
            })
            .min();
        let next_end = tables.iter().map(|t| t.until).min();
        let Some(at) = [next_idle, next_end, next_look].into_iter().flatten().min() else {
            break;
        };
        now = now.max(at);

        // Games that end now are rated, in the order they end.
        let mut ended: Vec<Table> = Vec::new();
        tables.retain(|t| {
            if t.until <= now {
                ended.push(Table {
                    id: t.id,
                    players: t.players.clone(),
                    until: t.until,
                });
                false
            } else {
                true
            }
        });
        ended.sort_by_key(|t| (t.until, t.id));
        for table in ended {
            let performances: Vec<f64> = table
                .players
                .iter()
                .map(|&p| players[p].strength + BETA * normal(&mut rng))
                .collect();
            let places = places_of(&performances);
            let before: Vec<Skill> = table.players.iter().map(|&p| players[p].skill).collect();
            let after = rating::update(&before, &places, &vec![false; before.len()]);
            for (&p, skill) in table.players.iter().zip(after) {
                let idle = exponential(&mut rng, model.idle_mean_ms);
                let player = &mut players[p];
                player.skill = skill;
                player.games += 1;
                player.state = State::Idle { until: now + idle };
            }
            games += 1;
            seat_games += table.players.len() as u64;
            let Some(&checkpoint) = model.checkpoints.get(phases.len()) else {
                continue;
            };
            if seat_games >= u64::from(checkpoint) * players.len() as u64 {
                let strengths: Vec<f64> = players.iter().map(|p| p.strength).collect();
                let shown: Vec<f64> = players.iter().map(|p| p.skill.shown() as f64).collect();
                let mu: Vec<f64> = players.iter().map(|p| p.skill.mu_milli as f64).collect();
                let mut waits = std::mem::take(&mut tally.waits);
                waits.sort_unstable();
                let n = tally.tables.max(1) as f64;
                phases.push(Phase {
                    games_per_player: checkpoint,
                    fewest_games: players.iter().map(|p| p.games).min().unwrap_or(0),
                    spearman: spearman(&shown, &strengths),
                    spearman_mu: spearman(&mu, &strengths),
                    tables: tally.tables,
                    rating_spread: tally.rating_spread as f64 / n,
                    strength_spread: tally.strength_spread / n,
                    wait_p50_s: quantile(&waits, 0.5),
                    wait_p99_s: quantile(&waits, 0.99),
                });
                tally = PhaseTally::new();
                if phases.len() == model.checkpoints.len() {
                    break;
                }
            }
        }

        // Players whose idle time is over open tickets, in the order they open them.
        let mut opening: Vec<(u64, usize)> = players
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p.state {
                State::Idle { until } if until <= now => Some((until, i)),
                _ => None,
            })
            .collect();
        opening.sort_unstable();
        for (opened, i) in opening {
            players[i].state = State::Waiting;
            queue.push((i, opened));
        }

        // Seat every batch that fits now.
        loop {
            let waiting: Vec<Waiting> = queue
                .iter()
                .map(|&(p, opened)| Waiting {
                    bots_ms: 0,
                    level: BotLevel::Random,
                    rating: Some(players[p].skill.shown()),
                    opened_ms: opened,
                })
                .collect();
            let Some(batch) = tickets::batch(&waiting, seats, now, model.window.as_ref()) else {
                break;
            };
            if batch.bots > 0 || batch.taken.len() != seats {
                break;
            }
            let seated: Vec<usize> = batch
                .taken
                .iter()
                .filter_map(|&k| queue.get(k).map(|q| q.0))
                .collect();
            for &k in &batch.taken {
                if let Some(&(_, opened)) = queue.get(k) {
                    let wait = now.saturating_sub(opened);
                    tally.waits.push(wait);
                    all_waits.push(wait);
                }
            }
            let mut k = 0;
            queue.retain(|_| {
                let keep = !batch.taken.contains(&k);
                k += 1;
                keep
            });
            let shown: Vec<i64> = seated.iter().map(|&p| players[p].skill.shown()).collect();
            let strength: Vec<f64> = seated.iter().map(|&p| players[p].strength).collect();
            tally.tables += 1;
            tally.rating_spread += shown.iter().max().unwrap_or(&0) - shown.iter().min().unwrap_or(&0);
            tally.strength_spread += strength.iter().copied().fold(f64::MIN, f64::max)
                - strength.iter().copied().fold(f64::MAX, f64::min);
            for &p in &seated {
                players[p].state = State::Playing;
            }
            tables.push(Table {
                id: next_table,
                players: seated,
                until: now + rng.random_range(short..=long),
            });
            next_table += 1;
        }
        next_look = (!queue.is_empty()).then_some(now + WIDEN_LOOK_MS);
    }
    all_waits.sort_unstable();
    Report {
        phases,
        wait_p50_s: quantile(&all_waits, 0.5),
        wait_p99_s: quantile(&all_waits, 0.99),
        wait_max_s: quantile(&all_waits, 1.0),
        games,
        simulated_s: now as f64 / 1000.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_reads_ranks_and_shares_ties() {
        assert!((spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 300.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        assert_eq!(ranks(&[5.0, 1.0, 5.0, 0.0]), vec![3.5, 2.0, 3.5, 1.0]);
        assert_eq!(spearman(&[1.0, 1.0], &[1.0, 2.0]), 0.0);
    }

    #[test]
    fn the_best_performance_takes_first_place() {
        assert_eq!(places_of(&[1.0, 3.0, 2.0]), vec![3, 1, 2]);
        assert_eq!(places_of(&[2.0, 2.0, 1.0]), vec![1, 1, 3]);
    }

    /// The goal of matchmaking by rating: after 40 games a player, the shown ratings order the
    /// players as their hidden strengths do (Spearman ≥ 0.9, and better than after 10), and the
    /// window seats tables closer in rating and strength than a queue that ignores ratings.
    #[test]
    fn ratings_find_the_strongest_and_the_window_seats_them_together() {
        let mut model = Model::new(250.0, 4, Some(MatchWindow::default()), 7);
        model.players = 100;
        let windowed = simulate(&model);
        let open = simulate(&Model {
            window: None,
            ..model.clone()
        });
        for report in [&windowed, &open] {
            assert_eq!(report.phases.len(), 3, "{report:?}");
            let (first, last) = (&report.phases[0], &report.phases[2]);
            assert!(last.spearman >= 0.9, "{report:?}");
            assert!(last.spearman > first.spearman, "{report:?}");
        }
        let (w, o) = (&windowed.phases[2], &open.phases[2]);
        assert!(w.rating_spread < o.rating_spread / 2.0, "{w:?} {o:?}");
        assert!(w.strength_spread < o.strength_spread, "{w:?} {o:?}");
        assert!(
            windowed.wait_p50_s > open.wait_p50_s,
            "a window is paid for in waiting"
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_run() {
        let mut model = Model::new(250.0, 3, Some(MatchWindow::default()), 3);
        model.players = 24;
        model.checkpoints = vec![5];
        let report = simulate(&model);
        assert_eq!(report.phases.len(), 1);
        assert_eq!(report, simulate(&model));
        model.seed = 4;
        assert_ne!(report, simulate(&model));
    }
}
