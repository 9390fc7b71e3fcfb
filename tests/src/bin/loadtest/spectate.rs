//! `--flow spectate`: many idle spectator push streams held by one server, and how soon a write's
//! news reaches them. `--games` games are created, then `--streams` spectator streams are opened
//! over them (stream `i` watches game `i mod games`, from a loopback source address of its own
//! among 64, so no address runs short of ports), and once all are open the server's resident
//! memory is read (`VmRSS` in `/proc/PID/status`, with `--server-pid`). Then `--connections`
//! connections post random legal actions (chosen from a local copy of each game, as
//! `--flow mirrored` does) at `--rate` posts per second in all for `--hold-secs`, round the games,
//! while every stream reads on. For each `state` message a stream receives, the time from the
//! sending of the post that made that version to its arrival is one delivery; the summary gives
//! their percentiles, the memory again, and the server's CPU over the posting. The run fails on
//! any refused or broken call, a stream that could not open or closed early, or a stream that had
//! not seen its game's last version a few seconds after the last post.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use roadie_engine::Seat;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;
use tokio::sync::Semaphore;

use crate::client::{CallError, Client, SeatKey, Server};
use crate::cpu::{Meter, Process, ticks_per_second};
use crate::mirror::{self, Mirror};
use crate::report::Stats;

/// Streams being opened at once (each until its first `state` message).
const OPENING_AT_ONCE: usize = 256;

/// Loopback source addresses the streams are spread over (127.0.0.2 onwards).
const SOURCES: u8 = 64;

/// How long the streams have to see their games' last versions once the posts stop.
const CATCH_UP: Duration = Duration::from_secs(10);

/// What one run of the flow asks for.
pub struct SpectatePlan {
    pub ruleset: String,
    pub seats: usize,
    pub seed: u64,
    pub games: usize,
    pub streams: usize,
    /// Posts per second, over every game.
    pub rate: f64,
    /// How long the posts go on.
    pub hold: Duration,
    pub posters: usize,
    pub server_pid: Option<u32>,
    pub timeout: Duration,
    pub deadline: Instant,
}

/// One watched game, as the streams see it: when each of its versions was posted.
struct Watched {
    sent: Mutex<HashMap<u64, Instant>>,
    /// The game's version after its last accepted post.
    last: AtomicU64,
}

/// One game as its poster plays it.
struct Played {
    id: String,
    watched: Arc<Watched>,
    keys: Vec<SeatKey>,
    local: Box<dyn Mirror>,
    rng: ChaCha8Rng,
    version: u64,
}

/// What the streams saw, together.
#[derive(Default)]
struct Seen {
    opened: AtomicUsize,
    failed: AtomicUsize,
    deliveries: AtomicU64,
    failures: Mutex<Vec<String>>,
    latency: Mutex<Option<Histogram<u64>>>,
}

impl Seen {
    fn fail(&self, why: String) {
        self.failed.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut failures) = self.failures.lock()
            && failures.len() < 8
        {
            failures.push(why);
        }
    }

    fn delivered(&self, after: Duration) {
        self.deliveries.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut latency) = self.latency.lock()
            && let Some(histogram) = latency.as_mut()
        {
            let _ = histogram.record(u64::try_from(after.as_micros()).unwrap_or(u64::MAX).max(1));
        }
    }
}

/// The resident memory of a process: `VmRSS` and its peak `VmHWM`, in KiB.
fn memory(pid: Option<u32>) -> Option<(u64, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    let field = |name: &str| -> Option<u64> {
        text.lines()
            .find_map(|line| line.strip_prefix(name))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// The flow's summary.
#[derive(Serialize)]
pub struct SpectateSummary {
    pub flow: &'static str,
    pub ruleset: String,
    pub games: usize,
    pub streams: usize,
    pub streams_opened: usize,
    pub open_secs: f64,
    /// The server's `VmRSS` before the streams, with them all open and idle, and after the posts.
    pub rss_kib_before: Option<u64>,
    pub rss_kib_idle: Option<u64>,
    pub rss_kib_after: Option<u64>,
    pub rss_kib_peak: Option<u64>,
    /// (idle - before) / streams.
    pub rss_kib_per_stream: Option<f64>,
    pub posts: u64,
    pub posts_per_sec: f64,
    pub deliveries: u64,
    pub deliveries_per_sec: f64,
    /// From the sending of a post to a stream's `state` message of the version it made.
    pub delivery_ms_p50: f64,
    pub delivery_ms_p90: f64,
    pub delivery_ms_p99: f64,
    pub delivery_ms_max: f64,
    /// The server's CPU over the posts, per second of them.
    pub server_cpu_share: Option<f64>,
    pub lagging_streams: usize,
    pub failures: Vec<String>,
    pub passed: bool,
}

impl SpectateSummary {
    pub fn table(&self) -> String {
        let kib = |v: Option<u64>| v.map_or("-".to_owned(), |v| format!("{:.1} MiB", v as f64 / 1024.0));
        let mut out = format!(
            "{} of {} spectator streams opened over {} {} games in {:.1} s\n\
             server RSS: before {}, idle with the streams {}, after the posts {}, peak {}; {} per stream\n\
             {} posts at {:.0}/s, {} deliveries at {:.0}/s; server CPU {}\n\
             post sent -> stream's state: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms\n",
            self.streams_opened,
            self.streams,
            self.games,
            self.ruleset,
            self.open_secs,
            kib(self.rss_kib_before),
            kib(self.rss_kib_idle),
            kib(self.rss_kib_after),
            kib(self.rss_kib_peak),
            self.rss_kib_per_stream
                .map_or("-".to_owned(), |k| format!("{k:.1} KiB")),
            self.posts,
            self.posts_per_sec,
            self.deliveries,
            self.deliveries_per_sec,
            self.server_cpu_share
                .map_or("-".to_owned(), |s| format!("{:.0}% of a core", s * 100.0)),
            self.delivery_ms_p50,
            self.delivery_ms_p90,
            self.delivery_ms_p99,
            self.delivery_ms_max,
        );
        if self.lagging_streams > 0 {
            out.push_str(&format!(
                "{} streams had not seen their game's last version\n",
                self.lagging_streams
            ));
        }
        for failure in &self.failures {
            out.push_str(&format!("failure: {failure}\n"));
        }
        out.push_str(if self.passed { "PASSED\n" } else { "FAILED\n" });
        out
    }
}

/// Runs the flow (on a multi-threaded runtime): the streams on its threads, the games' posters
/// (whose local copies stay on one thread) on this one.
pub async fn run(server: &Server, plan: SpectatePlan) -> SpectateSummary {
    tokio::task::LocalSet::new()
        .run_until(run_here(server, plan))
        .await
}

async fn run_here(server: &Server, plan: SpectatePlan) -> SpectateSummary {
    let mut failures = Vec::new();
    let posters = plan.posters.clamp(1, plan.games);
    // The games, created by their posters' connections.
    let mut creating = Vec::new();
    for poster in 0..posters {
        let (server, ruleset, seats, seed, games, timeout) = (
            server.clone(),
            plan.ruleset.clone(),
            plan.seats,
            plan.seed,
            plan.games,
            plan.timeout,
        );
        creating.push(tokio::task::spawn_local(async move {
            let mut client = Client::new(&server, timeout);
            let mut stats = Stats::default();
            let mut played = Vec::new();
            for index in (poster..games).step_by(posters) {
                let seed = seed.wrapping_add(index as u64);
                let body = json!({"ruleset": ruleset, "seats": seats, "seed": seed});
                let created = client
                    .create(&mut stats, &body)
                    .await
                    .map_err(|e| format!("create game {index}: {e}"))?;
                let keys = client.seat_keys(&created, true)?;
                let local = mirror::setup(&ruleset, None, seats, seed)?;
                played.push((
                    index,
                    Played {
                        id: created.id.clone(),
                        watched: Arc::new(Watched {
                            sent: Mutex::default(),
                            last: AtomicU64::new(created.version),
                        }),
                        keys,
                        local,
                        rng: ChaCha8Rng::seed_from_u64(seed ^ 0x5bec_7a7e),
                        version: created.version,
                    },
                ));
            }
            Ok::<_, String>((client, played))
        }));
    }
    let mut clients = Vec::new();
    let mut by_index: Vec<Option<(String, Arc<Watched>)>> = vec![None; plan.games];
    for task in creating {
        match task.await {
            Ok(Ok((client, played))) => {
                for (index, game) in &played {
                    by_index[*index] = Some((game.id.clone(), game.watched.clone()));
                }
                clients.push((client, played.into_iter().map(|(_, g)| g).collect::<Vec<_>>()));
            }
            Ok(Err(why)) => failures.push(why),
            Err(e) => failures.push(format!("a poster's task ended abnormally: {e}")),
        }
    }
    let watched: Vec<(String, Arc<Watched>)> = by_index.into_iter().flatten().collect();
    if !failures.is_empty() || watched.is_empty() {
        failures.push("the games could not all be created".into());
        return summary(&plan, failures, Default::default());
    }

    // The streams, opened a few hundred at a time.
    let rss_before = memory(plan.server_pid);
    let seen = Arc::new(Seen {
        latency: Mutex::new(Some(
            Histogram::new_with_bounds(1, 600_000_000, 3)
                .expect("1 us to 10 min at 3 digits are valid bounds"),
        )),
        ..Seen::default()
    });
    let opening = Arc::new(Semaphore::new(OPENING_AT_ONCE));
    let open_started = Instant::now();
    let mut streams = Vec::with_capacity(plan.streams);
    for i in 0..plan.streams {
        let (id, game) = watched[i % watched.len()].clone();
        let last_seen = Arc::new(AtomicU64::new(0));
        let source = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + (i % usize::from(SOURCES)) as u8));
        let (server, seen, opening, last) =
            (server.clone(), seen.clone(), opening.clone(), last_seen.clone());
        let deadline = plan.deadline;
        let task = tokio::spawn(async move {
            let Ok(permit) = opening.acquire_owned().await else {
                return;
            };
            if let Err(why) = watch(&server, source, &id, &game, &seen, permit, &last, deadline).await {
                seen.fail(format!("stream of {id}: {why}"));
            }
        });
        streams.push((i % watched.len(), last_seen, task));
    }
    while seen.opened.load(Ordering::Relaxed) + seen.failed.load(Ordering::Relaxed) < plan.streams {
        if Instant::now() >= plan.deadline {
            failures.push("the streams did not all open within the time limit".into());
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let open_secs = open_started.elapsed().as_secs_f64();
    // Settled: every stream has sent its first message and waits.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let rss_idle = memory(plan.server_pid);

    // The posts, paced over the posters.
    let cpu = plan
        .server_pid
        .and_then(|pid| Meter::start(Process::Pid(pid)).ok());
    let posted = Arc::new(AtomicU64::new(0));
    let posting_started = Instant::now();
    let until = posting_started + plan.hold;
    let every = Duration::from_secs_f64(posters as f64 / plan.rate.max(0.001));
    let mut posting = Vec::new();
    for (client, games) in clients {
        let posted = posted.clone();
        posting.push(tokio::task::spawn_local(post_round(
            client, games, every, until, posted,
        )));
    }
    for task in posting {
        match task.await {
            Ok(Ok(())) => {}
            Ok(Err(why)) => failures.push(why),
            Err(e) => failures.push(format!("a poster's task ended abnormally: {e}")),
        }
    }
    let posting_secs = posting_started.elapsed().as_secs_f64();
    let server_cpu = cpu.and_then(|meter| meter.used(ticks_per_second()).ok());
    let deliveries = seen.deliveries.load(Ordering::Relaxed);

    // Every stream must see its game's last version.
    let caught_up_by = Instant::now() + CATCH_UP;
    let lagging = loop {
        let lagging = streams
            .iter()
            .filter(|(game, last_seen, _)| {
                last_seen.load(Ordering::Relaxed) != watched[*game].1.last.load(Ordering::Relaxed)
            })
            .count();
        if lagging == 0 || Instant::now() >= caught_up_by {
            break lagging;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let rss_after = memory(plan.server_pid);
    for (_, _, task) in &streams {
        task.abort();
    }
    let latency = seen.latency.lock().ok().and_then(|mut h| h.take());
    if let Ok(mut seen_failures) = seen.failures.lock() {
        failures.append(&mut seen_failures);
    }
    let posts = posted.load(Ordering::Relaxed);
    summary(
        &plan,
        failures,
        Measured {
            opened: seen.opened.load(Ordering::Relaxed),
            open_secs,
            rss_before,
            rss_idle,
            rss_after,
            posts,
            posting_secs,
            deliveries,
            latency,
            server_cpu,
            lagging,
        },
    )
}

#[derive(Default)]
struct Measured {
    opened: usize,
    open_secs: f64,
    rss_before: Option<(u64, u64)>,
    rss_idle: Option<(u64, u64)>,
    rss_after: Option<(u64, u64)>,
    posts: u64,
    posting_secs: f64,
    deliveries: u64,
    latency: Option<Histogram<u64>>,
    server_cpu: Option<Duration>,
    lagging: usize,
}

fn summary(plan: &SpectatePlan, failures: Vec<String>, m: Measured) -> SpectateSummary {
    let ms = |q: f64| {
        m.latency
            .as_ref()
            .filter(|h| !h.is_empty())
            .map_or(0.0, |h| h.value_at_quantile(q) as f64 / 1000.0)
    };
    let per_sec = |n: u64| n as f64 / m.posting_secs.max(1e-9);
    let passed = failures.is_empty() && m.opened == plan.streams && m.lagging == 0 && m.posts > 0;
    SpectateSummary {
        flow: "spectate",
        ruleset: plan.ruleset.clone(),
        games: plan.games,
        streams: plan.streams,
        streams_opened: m.opened,
        open_secs: m.open_secs,
        rss_kib_before: m.rss_before.map(|r| r.0),
        rss_kib_idle: m.rss_idle.map(|r| r.0),
        rss_kib_after: m.rss_after.map(|r| r.0),
        rss_kib_peak: m.rss_after.map(|r| r.1),
        rss_kib_per_stream: match (m.rss_before, m.rss_idle) {
            (Some(before), Some(idle)) if plan.streams > 0 => {
                Some(idle.0.saturating_sub(before.0) as f64 / plan.streams as f64)
            }
            _ => None,
        },
        posts: m.posts,
        posts_per_sec: per_sec(m.posts),
        deliveries: m.deliveries,
        deliveries_per_sec: per_sec(m.deliveries),
        delivery_ms_p50: ms(0.5),
        delivery_ms_p90: ms(0.9),
        delivery_ms_p99: ms(0.99),
        delivery_ms_max: ms(1.0),
        server_cpu_share: m
            .server_cpu
            .map(|cpu| cpu.as_secs_f64() / m.posting_secs.max(1e-9)),
        lagging_streams: m.lagging,
        failures,
        passed,
    }
}

/// One poster: every `every`, the next of its games (round them) that is not over gets one random
/// legal action of a seat to act, until `until`.
async fn post_round(
    mut client: Client,
    mut games: Vec<Played>,
    every: Duration,
    until: Instant,
    posted: Arc<AtomicU64>,
) -> Result<(), String> {
    const HEAD: &[u8] = br#"{"action":"#;
    let mut stats = Stats::default();
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut body = Vec::with_capacity(256);
    let mut next = 0;
    while Instant::now() < until {
        tick.tick().await;
        let Some(offset) = (0..games.len()).find(|k| !games[(next + k) % games.len()].local.is_over()) else {
            return Ok(());
        };
        let count = games.len();
        let game = &mut games[(next + offset) % count];
        next = (next + offset + 1) % count;
        let to_act: Vec<Seat> = game.local.to_act();
        let seat = to_act[game.rng.random_range(0..to_act.len())];
        let Some(key) = game.keys.iter().find(|k| k.seat == seat) else {
            return Err(format!("{}: no token for seat {seat}", game.id));
        };
        body.clear();
        body.extend_from_slice(HEAD);
        if !game
            .local
            .pick(seat, &mut game.rng, &mut body)
            .map_err(|e| format!("{}: the local copy's actions: {e}", game.id))?
        {
            return Err(format!(
                "{}: seat {seat} is to act but has no legal action",
                game.id
            ));
        }
        body.push(b'}');
        if let Ok(mut sent) = game.watched.sent.lock() {
            sent.insert(game.version + 1, Instant::now());
        }
        let version = match client.post_minimal(&mut stats, key, &body, |m| m.version).await {
            Ok(version) => version,
            Err(CallError::Refused { status, code }) => {
                return Err(format!(
                    "{}: a legal action was refused: {status} {code}",
                    game.id
                ));
            }
            Err(e) => return Err(format!("{}: post: {e}", game.id)),
        };
        if version != game.version + 1 {
            return Err(format!(
                "{}: an accepted action moved the version from {} to {version}",
                game.id, game.version
            ));
        }
        game.local
            .apply_picked(seat)
            .map_err(|e| format!("{}: the local copy refuses its own action: {e}", game.id))?;
        game.version = version;
        game.watched.last.store(version, Ordering::Relaxed);
        posted.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}

/// The part of a `state` message a stream reads.
#[derive(Deserialize)]
struct StateVersion {
    version: u64,
}

/// One spectator stream of game `id` from `source`, read until it is aborted, `deadline`, or its
/// game's end. `permit` is held until the first `state` message; `last` is the last version seen.
#[allow(clippy::too_many_arguments)]
async fn watch(
    server: &Server,
    source: IpAddr,
    id: &str,
    game: &Watched,
    seen: &Seen,
    permit: tokio::sync::OwnedSemaphorePermit,
    last: &AtomicU64,
    deadline: Instant,
) -> Result<(), String> {
    let socket = TcpSocket::new_v4().map_err(|e| format!("socket: {e}"))?;
    socket
        .bind(SocketAddr::new(source, 0))
        .map_err(|e| format!("bind {source}: {e}"))?;
    let mut stream = socket
        .connect(server.addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let request = format!(
        "GET /v1/games/{id}/stream HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.host
    );
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| format!("send: {e}"))?;
    const STATE: &[u8] = b"event: state\ndata: ";
    let mut permit = Some(permit);
    let mut buffer = vec![0u8; 4 * 1024];
    let mut carried: Vec<u8> = Vec::new();
    let mut head = true;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let read = tokio::time::timeout(left.max(Duration::from_millis(1)), stream.read(&mut buffer))
            .await
            .map_err(|_| "still open at the time limit".to_owned())?
            .map_err(|e| format!("read: {e}"))?;
        if read == 0 {
            return Err("closed by the server".into());
        }
        let arrived = Instant::now();
        carried.extend_from_slice(&buffer[..read]);
        if head {
            if carried.len() < 12 {
                continue;
            }
            if !carried.starts_with(b"HTTP/1.1 200") {
                let line = carried.split(|b| *b == b'\r').next().unwrap_or_default();
                return Err(format!("answered {}", String::from_utf8_lossy(line)));
            }
            head = false;
        }
        let mut done = 0;
        let mut unfinished = None;
        while let Some(at) = find(&carried[done..], STATE) {
            let start = done + at + STATE.len();
            let Some(end) = carried[start..].iter().position(|b| *b == b'\n') else {
                unfinished = Some(done + at);
                break;
            };
            let state: StateVersion = serde_json::from_slice(&carried[start..start + end])
                .map_err(|e| format!("a state message does not read: {e}"))?;
            last.store(state.version, Ordering::Relaxed);
            if permit.take().is_some() {
                seen.opened.fetch_add(1, Ordering::Relaxed);
            } else {
                let sent = game.sent.lock().ok().and_then(|s| s.get(&state.version).copied());
                if let Some(sent) = sent {
                    seen.delivered(arrived.saturating_duration_since(sent));
                }
            }
            done = start + end;
        }
        if find(&carried, b"event: end\n").is_some() {
            return Err("the game ended".into());
        }
        // Kept: an unfinished message, or the tail a marker may straddle.
        let keep_from = unfinished.unwrap_or_else(|| done.max(carried.len().saturating_sub(STATE.len())));
        carried.drain(..keep_from.min(carried.len()));
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
