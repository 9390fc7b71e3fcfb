//! `loadtest`: plays many games of one ruleset to the end against a running Roadie, with a fixed
//! number of connections each choosing random legal actions, then measures the `GET /healthz`
//! floor of the same server and prints a summary.
//!
//! ```text
//! cargo run -p roadie-tests --release --bin loadtest -- \
//!     --url http://127.0.0.1:8080 --ruleset shrewd-producer --games 200 --connections 64
//! ```
//!
//! `--streams-per-game K` also watches each game with `K` spectator push streams and reports the
//! events they delivered per second.
//!
//! `--server-pid PID` and `--store-pid PID` also report the CPU per posted action of the server and
//! of its store, read from `/proc` around the play phase, beside the generator's own.
//!
//! `--flow listed` (the default) lists the seat's actions before each post; `--flow mirrored`
//! plays from a local copy of the rules and posts only, one request per action.
//!
//! `--flow spectate --streams N --rate R --hold-secs S` holds `N` idle spectator streams over
//! `--games` games, then posts `R` actions a second for `S` seconds and reports how soon each
//! write reached the streams, and the server's memory (see `spectate.rs`).
//!
//! The run fails (exit status 1) on any 5xx, transport error, refused listed action, lost action
//! (a version that does not advance by exactly one per accepted post) or game that does not finish.
//! It only talks to loopback addresses, and every loop in it is bounded in count and in time.

mod client;
mod cpu;
mod http;
mod lean;
mod mirror;
mod play;
mod report;
mod spectate;
mod stream;
mod tickets;

use std::net::{IpAddr, ToSocketAddrs};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use url::Url;

use crate::client::{Client, Server};
use crate::cpu::{Meters, Process};
use crate::play::{Plan, Shared};
use crate::report::{Floor, Stats, Summary};
use crate::stream::{StreamStats, Watchers};

/// The generator shares the machine with the server it measures, so it should cost as little
/// as it can: mimalloc measured about a tenth less of its CPU than glibc's malloc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Bounds of one run: the generator always stops by itself.
const MAX_GAMES: usize = 100_000;
const MAX_CONNECTIONS: usize = 1_024;
const MAX_SECONDS: u64 = 3_600;
const MAX_STREAMS_PER_GAME: usize = 64;
const MAX_STREAMS: usize = 50_000;
const MAX_RATE: f64 = 20_000.0;

/// How each connection learns what it may post.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Flow {
    /// Two requests per action: `GET /v1/games/{id}/actions`, then the post, answered with the
    /// whole game. What a client that knows no rules does.
    Listed,
    /// One request per action: the client keeps its own copy of the rules (it chose the games'
    /// seeds), picks from that, and posts with `Prefer: return=minimal`. Every reply is checked
    /// against the copy, so a refusal or a different `to_act` fails the run.
    Mirrored,
    /// Matchmaking: `--games` × `--seats` tickets, posted alternately to `--url` and
    /// `--second-url`, each long-polled until matched (see `tickets.rs`).
    Tickets,
    /// Spectators: `--streams` idle push streams over `--games` games, then `--rate` posts a
    /// second for `--hold-secs`, timing each write's arrival on the streams (see `spectate.rs`).
    Spectate,
}

/// Plays games against a Roadie server and reports throughput, latency and errors.
#[derive(Parser, Debug, Clone)]
#[command(name = "loadtest", version)]
pub struct Args {
    /// Base URL of the server. Only loopback hosts (127.0.0.0/8, ::1, localhost) are accepted.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// A second server (another process on the same store) that `--flow tickets` alternates
    /// with `--url`. Loopback only.
    #[arg(long)]
    second_url: Option<String>,
    /// The ruleset to play.
    #[arg(long, default_value = "shrewd-producer")]
    ruleset: String,
    /// Seats per game.
    #[arg(long, default_value_t = 4)]
    seats: usize,
    /// Bot seats per game (the last ones, `random` bots the server plays inside the requests
    /// that hand them the turn), so only the other seats are remote. Needs `--flow listed`.
    #[arg(long, default_value_t = 0)]
    bots: usize,
    /// Game options as JSON; the ruleset's defaults when absent.
    #[arg(long)]
    options: Option<String>,
    /// `listed`: list the actions, then post (two requests per action); `mirrored`: choose from
    /// a local copy of the rules and post only (one request per action).
    #[arg(long, value_enum, default_value_t = Flow::Listed)]
    flow: Flow,
    /// How many games to create and play to the end.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Concurrent connections (each plays one game at a time).
    #[arg(long, default_value_t = 64)]
    connections: usize,
    /// Game `i` is created with seed `seed + i`, and its random choices are seeded from that too,
    /// so two runs against the same build play the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still running after this many accepted actions counts as one that never finishes.
    #[arg(long, default_value_t = 5_000)]
    max_actions: u64,
    /// Wall-clock limit of the play phase, in seconds; whatever is unfinished then fails the run.
    #[arg(long, default_value_t = 300)]
    time_limit: u64,
    /// Seconds of `GET /healthz` at the same concurrency, for the floor; 0 skips it (at most 60).
    #[arg(long, default_value_t = 3.0)]
    floor_secs: f64,
    /// Timeout of one request, in seconds.
    #[arg(long, default_value_t = 10)]
    request_timeout: u64,
    /// Threads of the generator (it shares the machine with the server): each runs its own
    /// single-threaded runtime with its share of the connections, so a connection's request
    /// and its answer are handled on one thread.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Spectator push streams (`GET /v1/games/{id}/stream`) opened on each game from its
    /// creation to its end, so about this many times `--connections` are open at once; the
    /// summary reports the events they delivered per second (at most 64).
    #[arg(long, default_value_t = 0)]
    streams_per_game: usize,
    /// `--flow spectate`: spectator streams held open over the games, in all (at most 50,000).
    #[arg(long, default_value_t = 1_000)]
    streams: usize,
    /// `--flow spectate`: posted actions per second, over every game (at most 20,000).
    #[arg(long, default_value_t = 100.0)]
    rate: f64,
    /// `--flow spectate`: seconds of posts (at most the time limit).
    #[arg(long, default_value_t = 20)]
    hold_secs: u64,
    /// The server's process id: its CPU time (`/proc/PID/stat`, every thread) over the play phase
    /// is reported per posted action. Must be a process on this machine.
    #[arg(long)]
    server_pid: Option<u32>,
    /// The store's process id (the `redis-server`), reported like `--server-pid`.
    #[arg(long)]
    store_pid: Option<u32>,
    /// Print the summary as JSON on stdout instead of a table.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let base = match loopback_url(&args.url) {
        Ok(url) => url,
        Err(message) => {
            eprintln!("loadtest: {message}");
            return ExitCode::from(2);
        }
    };
    let options = match args
        .options
        .as_deref()
        .map(serde_json::from_str::<serde_json::Value>)
    {
        None => None,
        Some(Ok(value)) => Some(value),
        Some(Err(e)) => {
            eprintln!("loadtest: --options is not JSON: {e}");
            return ExitCode::from(2);
        }
    };
    if args.games == 0 || args.connections == 0 || args.threads == 0 {
        eprintln!("loadtest: --games, --connections and --threads must be at least 1");
        return ExitCode::from(2);
    }
    if args.bots >= args.seats {
        eprintln!("loadtest: --bots must leave at least one of the --seats remote");
        return ExitCode::from(2);
    }
    if args.bots > 0 && args.flow != Flow::Listed {
        eprintln!("loadtest: --bots needs --flow listed (the bots' random moves cannot be mirrored)");
        return ExitCode::from(2);
    }
    if args.streams_per_game > MAX_STREAMS_PER_GAME {
        eprintln!("loadtest: at most {MAX_STREAMS_PER_GAME} streams per game");
        return ExitCode::from(2);
    }
    if args.games > MAX_GAMES || args.connections > MAX_CONNECTIONS || args.time_limit > MAX_SECONDS {
        eprintln!(
            "loadtest: at most {MAX_GAMES} games, {MAX_CONNECTIONS} connections and {MAX_SECONDS} s per run"
        );
        return ExitCode::from(2);
    }
    for (flag, pid) in [("--server-pid", args.server_pid), ("--store-pid", args.store_pid)] {
        if let Some(pid) = pid
            && let Err(e) = Process::Pid(pid).ticks()
        {
            eprintln!("loadtest: {flag} {pid}: {e}");
            return ExitCode::from(2);
        }
    }
    let server = match resolve(&base) {
        Ok(server) => server,
        Err(message) => {
            eprintln!("loadtest: {message}");
            return ExitCode::from(2);
        }
    };
    if args.flow == Flow::Spectate {
        if args.streams > MAX_STREAMS
            || !(args.rate > 0.0 && args.rate <= MAX_RATE)
            || args.hold_secs > args.time_limit
        {
            eprintln!(
                "loadtest: --flow spectate takes at most {MAX_STREAMS} streams, a --rate above 0 and at most {MAX_RATE}, and --hold-secs within --time-limit"
            );
            return ExitCode::from(2);
        }
        let runtime = match tokio::runtime::Builder::new_multi_thread()
            .worker_threads(args.threads)
            .enable_all()
            .build()
        {
            Ok(rt) => rt,
            Err(e) => {
                eprintln!("loadtest: cannot start the runtime: {e}");
                return ExitCode::from(2);
            }
        };
        let plan = spectate::SpectatePlan {
            ruleset: args.ruleset.clone(),
            seats: args.seats,
            seed: args.seed,
            games: args.games,
            streams: args.streams,
            rate: args.rate,
            hold: Duration::from_secs(args.hold_secs),
            posters: args.connections,
            server_pid: args.server_pid,
            timeout: Duration::from_secs(args.request_timeout.max(1)),
            deadline: Instant::now() + Duration::from_secs(args.time_limit),
        };
        let summary = runtime.block_on(spectate::run(&server, plan));
        if args.json {
            match serde_json::to_string_pretty(&summary) {
                Ok(text) => println!("{text}"),
                Err(e) => eprintln!("loadtest: cannot write the summary: {e}"),
            }
        } else {
            print!("{}", summary.table());
        }
        return if summary.passed {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    if args.flow == Flow::Tickets {
        let runtime = match tokio::runtime::Builder::new_multi_thread()
            .worker_threads(args.threads)
            .enable_all()
            .build()
        {
            Ok(rt) => rt,
            Err(e) => {
                eprintln!("loadtest: cannot start the runtime: {e}");
                return ExitCode::from(2);
            }
        };
        return run_tickets(&runtime, &args, server);
    }
    let summary = run(&args, base, server, options);
    if args.json {
        match serde_json::to_string_pretty(&summary) {
            Ok(text) => println!("{text}"),
            Err(e) => eprintln!("loadtest: cannot write the summary: {e}"),
        }
    } else {
        print!("{}", summary.table());
    }
    if summary.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `--flow tickets`: its own run and summary.
fn run_tickets(runtime: &tokio::runtime::Runtime, args: &Args, server: Server) -> ExitCode {
    let mut servers = vec![server];
    if let Some(second) = &args.second_url {
        match loopback_url(second).and_then(|url| resolve(&url)) {
            Ok(second) => servers.push(second),
            Err(message) => {
                eprintln!("loadtest: --second-url: {message}");
                return ExitCode::from(2);
            }
        }
    }
    if args.connections < args.seats {
        eprintln!(
            "loadtest: --flow tickets needs at least --seats connections (each holds one waiting ticket)"
        );
        return ExitCode::from(2);
    }
    let plan = tickets::TicketPlan {
        ruleset: args.ruleset.clone(),
        seats: args.seats,
        tickets: args.games * args.seats,
        deadline: Instant::now() + Duration::from_secs(args.time_limit),
    };
    let timeout = Duration::from_secs(args.request_timeout.max(1)) + Duration::from_secs(30);
    let summary = runtime.block_on(tickets::run(&servers, plan, args.connections, timeout));
    if args.json {
        match serde_json::to_string_pretty(&summary) {
            Ok(text) => println!("{text}"),
            Err(e) => eprintln!("loadtest: cannot write the summary: {e}"),
        }
    } else {
        print!("{}", summary.table());
    }
    if summary.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The base URL, refused unless its host is a loopback address.
fn loopback_url(text: &str) -> Result<Url, String> {
    let url = Url::parse(text).map_err(|e| format!("--url {text:?} is not a URL: {e}"))?;
    if url.scheme() != "http" {
        return Err(format!("--url {text:?}: only http:// is supported"));
    }
    let host = url.host_str().unwrap_or_default();
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if !loopback {
        return Err(format!("--url {text:?}: only loopback hosts are load-tested"));
    }
    Ok(url)
}

/// The loopback address and `Host` of `base`.
fn resolve(base: &Url) -> Result<Server, String> {
    let host = base.host_str().unwrap_or_default().to_owned();
    let port = base.port_or_known_default().unwrap_or(80);
    let addr = (host.trim_start_matches('[').trim_end_matches(']'), port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {host}: {e}"))?
        .find(|a| a.ip().is_loopback())
        .ok_or_else(|| format!("{host} has no loopback address"))?;
    Ok(Server {
        addr,
        host: format!("{host}:{port}"),
    })
}

fn run(args: &Args, base: Url, server: Server, options: Option<serde_json::Value>) -> Summary {
    let timeout = Duration::from_secs(args.request_timeout.max(1));
    let shared = Arc::new(Shared {
        plan: Plan {
            ruleset: args.ruleset.clone(),
            flow: args.flow,
            seats: args.seats,
            bots: args.bots,
            options,
            seed: args.seed,
            games: args.games,
            max_actions: args.max_actions,
            deadline: Instant::now() + Duration::from_secs(args.time_limit),
            streams_per_game: args.streams_per_game,
        },
        next_game: AtomicUsize::new(0),
        actions: AtomicU64::new(0),
        finished: AtomicU64::new(0),
        server: server.clone(),
    });

    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:32}] {pos}/{len} games  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );

    let meters = Meters::start(args.server_pid, args.store_pid);
    let started = Instant::now();
    let play = {
        let shared = Arc::clone(&shared);
        move |connections: usize| {
            let shared = Arc::clone(&shared);
            async move {
                let watchers = Arc::new(Watchers::default());
                let mut workers = Vec::with_capacity(connections);
                for _ in 0..connections {
                    let client = Client::new(&shared.server, timeout);
                    let task = play::worker(client, Arc::clone(&shared), Arc::clone(&watchers));
                    workers.push(tokio::task::spawn_local(task));
                }
                let mut stats = Stats::default();
                for worker in workers {
                    match worker.await {
                        Ok(s) => stats.merge(s),
                        Err(e) => stats.fail(format!("a connection's task ended abnormally: {e}")),
                    }
                }
                (stats, watchers.finish().await)
            }
        }
    };
    let tick = || {
        let actions = shared.actions.load(Ordering::Relaxed);
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        bar.set_position(shared.finished.load(Ordering::Relaxed));
        bar.set_message(format!(
            "{actions} actions, {:.0} actions/s",
            actions as f64 / secs
        ));
    };
    let mut stats = Stats::default();
    let mut streams = StreamStats::default();
    for result in on_threads(args.threads, args.connections, play, tick) {
        match result {
            Ok((s, w)) => {
                stats.merge(s);
                streams.merge(w);
            }
            Err(why) => stats.fail(why),
        }
    }
    let play_elapsed = started.elapsed();
    let cpu = meters.and_then(|m| m.finish(stats.actions));
    bar.set_position(shared.finished.load(Ordering::Relaxed));
    bar.finish_and_clear();

    let floor = if args.floor_secs > 0.0 {
        Some(measure_floor(
            &server,
            args.threads,
            args.connections,
            Duration::from_secs_f64(args.floor_secs),
            timeout,
        ))
    } else {
        None
    };
    let mut summary = Summary::new(args, base.as_str(), play_elapsed, stats, floor);
    if args.streams_per_game > 0 {
        summary.add_streams(streams);
    }
    summary.add_cpu(cpu);
    summary
}

/// Runs `task(n)` on `threads` threads (no more than `connections`), each with its own
/// single-threaded runtime and a `LocalSet` (so tasks may `spawn_local`), the `connections` shared out among them as `n`; calls `tick` every
/// 200 ms until all are done, and answers what each returned, or why it could not run.
fn on_threads<F, Fut, T>(
    threads: usize,
    connections: usize,
    task: F,
    mut tick: impl FnMut(),
) -> Vec<Result<T, String>>
where
    F: Fn(usize) -> Fut + Send + Clone + 'static,
    Fut: Future<Output = T>,
    T: Send + 'static,
{
    let threads = threads.clamp(1, connections.max(1));
    let (done, results) = std::sync::mpsc::channel();
    let mut answers = Vec::with_capacity(threads);
    let mut running = 0;
    for thread in 0..threads {
        let share = connections / threads + usize::from(thread < connections % threads);
        let (task, done) = (task.clone(), done.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("loadtest-{thread}"))
            .spawn(move || {
                let result = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| format!("cannot start a runtime: {e}"))
                    .map(|runtime| tokio::task::LocalSet::new().block_on(&runtime, task(share)));
                let _ = done.send(result);
            });
        match spawned {
            Ok(_) => running += 1,
            Err(e) => answers.push(Err(format!("cannot start a thread: {e}"))),
        }
    }
    drop(done);
    while running > 0 {
        match results.recv_timeout(Duration::from_millis(200)) {
            Ok(answer) => {
                answers.push(answer);
                running -= 1;
            }
            Err(RecvTimeoutError::Timeout) => tick(),
            Err(RecvTimeoutError::Disconnected) => {
                answers.extend(
                    (0..running).map(|_| Err("a thread of the generator ended abnormally".to_owned())),
                );
                running = 0;
            }
        }
    }
    answers
}

/// `GET /healthz` as fast as `connections` connections go, for `duration`.
fn measure_floor(
    server: &Server,
    threads: usize,
    connections: usize,
    duration: Duration,
    timeout: Duration,
) -> Floor {
    let started = Instant::now();
    let until = started + duration;
    let floor = {
        let server = server.clone();
        move |connections: usize| {
            let server = server.clone();
            async move {
                let mut tasks = Vec::with_capacity(connections);
                for _ in 0..connections {
                    let mut client = Client::new(&server, timeout);
                    tasks.push(tokio::spawn(async move {
                        let mut stats = Stats::default();
                        while Instant::now() < until {
                            if let Err(e) = client.healthz(&mut stats).await {
                                stats.fail(format!("floor: {e}"));
                                break;
                            }
                        }
                        stats
                    }));
                }
                let mut stats = Stats::default();
                for task in tasks {
                    match task.await {
                        Ok(s) => stats.merge(s),
                        Err(e) => stats.fail(format!("a floor task ended abnormally: {e}")),
                    }
                }
                stats
            }
        }
    };
    let mut stats = Stats::default();
    for result in on_threads(threads, connections, floor, || ()) {
        match result {
            Ok(s) => stats.merge(s),
            Err(why) => stats.fail(why),
        }
    }
    Floor::new(stats, started.elapsed(), connections)
}

#[cfg(test)]
mod tests {
    use super::loopback_url;

    #[test]
    fn only_loopback_hosts_are_load_tested() {
        for url in [
            "http://127.0.0.1:8080",
            "http://127.9.9.9",
            "http://localhost:1",
            "http://[::1]:8080",
        ] {
            assert!(loopback_url(url).is_ok(), "{url} is loopback");
        }
        for url in [
            "http://10.0.0.1:8080",
            "http://192.168.1.2",
            "http://example.com",
            "http://[::2]",
        ] {
            assert!(loopback_url(url).is_err(), "{url} is not loopback");
        }
    }

    #[test]
    fn only_plain_http_urls_are_accepted() {
        assert!(loopback_url("https://127.0.0.1").is_err());
        assert!(loopback_url("127.0.0.1:8080").is_err());
    }
}
