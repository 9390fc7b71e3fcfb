//! Measures ratings and matchmaking by rating on a simulated population
//! ([`roadie_tests::population`]): players of known hidden strength queue, are seated by the
//! service's batch rule with the default window (±50 at once, ±300 after 30 s, wider on at that pace) and without
//! one, and are rated by the service's own update. For each seat count it prints, at each
//! checkpoint of games per player, Spearman's correlation of the shown rating (and of `mu`)
//! with the true strength, the mean spread of shown ratings and of true strengths within the
//! tables seated since the last checkpoint, and those tickets' wait p50 and p99.
//!
//! `cargo run --release -p roadie-tests --bin ratings`

use clap::Parser;
use roadie_api::table::tickets::MatchWindow;
use roadie_tests::population::{Model, simulate};

#[derive(Parser)]
#[command(about = "Ratings and matchmaking by rating, on a simulated population")]
struct Args {
    /// Players.
    #[arg(long, default_value_t = 200)]
    players: usize,
    /// The standard deviation of their hidden strengths, in rating points (β is 250).
    #[arg(long, default_value_t = 250.0)]
    spread: f64,
    /// Seat counts to simulate, each its own queue and run.
    #[arg(long, value_delimiter = ',', default_value = "3,4")]
    seats: Vec<usize>,
    /// Games per player at which to measure.
    #[arg(long, value_delimiter = ',', default_value = "10,20,40")]
    checkpoints: Vec<u32>,
    /// The seed of everything random.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() {
    let args = Args::parse();
    let started = std::time::Instant::now();
    println!(
        "{} players, strength 1500 ± {} (one standard deviation), β 250; games 8-12 min, idle 5 min on average; seed {}",
        args.players, args.spread, args.seed
    );
    println!(
        "{:>5} {:<7} {:>6} {:>6} {:>8} {:>8} {:>6} {:>13} {:>15} {:>8} {:>8}",
        "seats",
        "window",
        "games",
        "fewest",
        "spearman",
        "(of mu)",
        "tables",
        "rating spread",
        "strength spread",
        "wait p50",
        "wait p99"
    );
    let mut totals = Vec::new();
    for &seats in &args.seats {
        for (name, window) in [
            ("±50, +250 per 30 s", Some(MatchWindow::default())),
            ("none", None),
        ] {
            let mut model = Model::new(args.spread, seats, window, args.seed);
            model.players = args.players;
            model.checkpoints = args.checkpoints.clone();
            let report = simulate(&model);
            for phase in &report.phases {
                println!(
                    "{:>5} {:<7} {:>6} {:>6} {:>8.3} {:>8.3} {:>6} {:>13.0} {:>15.0} {:>7.0}s {:>7.0}s",
                    seats,
                    name,
                    phase.games_per_player,
                    phase.fewest_games,
                    phase.spearman,
                    phase.spearman_mu,
                    phase.tables,
                    phase.rating_spread,
                    phase.strength_spread,
                    phase.wait_p50_s,
                    phase.wait_p99_s,
                );
            }
            if report.phases.len() < args.checkpoints.len() {
                println!("{seats:>5} {name:<7} stopped before its last checkpoint");
            }
            totals.push(format!(
                "{seats} seats, window {name}: {} games in {:.1} simulated hours, every wait p50 {:.0} s, p99 {:.0} s, longest {:.0} s",
                report.games,
                report.simulated_s / 3600.0,
                report.wait_p50_s,
                report.wait_p99_s,
                report.wait_max_s
            ));
        }
    }
    for total in totals {
        println!("{total}");
    }
    println!("{:.1} s", started.elapsed().as_secs_f64());
}
