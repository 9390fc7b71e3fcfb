//! What a run measured: latency histograms per endpoint, errors by status and code, and the
//! summary printed at the end (as a table, or as JSON for machines).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;

use crate::client::Endpoint;
use crate::cpu::CpuSummary;
use crate::stream::StreamStats;
use crate::{Args, Flow};

/// Failures kept word for word; past this many only the count grows.
const KEPT_FAILURES: usize = 20;

/// One connection's tallies; merged into one at the end.
#[derive(Default)]
pub struct Stats {
    latency: BTreeMap<Endpoint, Histogram<u64>>,
    /// `(endpoint, status, code)` of every non-2xx answer; status 0 is a transport error.
    errors: BTreeMap<(Endpoint, u16, String), u64>,
    failures: Vec<String>,
    failure_count: u64,
    pub games_created: u64,
    pub games_finished: u64,
    pub actions: u64,
    pub lost: u64,
}

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 600_000_000, 3).expect("1 us to 10 min at 3 digits are valid bounds")
}

impl Stats {
    pub fn record(&mut self, endpoint: Endpoint, elapsed: Duration) {
        let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX).max(1);
        self.latency
            .entry(endpoint)
            .or_insert_with(histogram)
            .saturating_record(micros);
    }

    /// Tallies a non-2xx answer; the caller decides whether it fails the run.
    pub fn refused(&mut self, endpoint: Endpoint, status: u16, code: &str) {
        *self
            .errors
            .entry((endpoint, status, code.to_owned()))
            .or_default() += 1;
    }

    /// Tallies a request that got no answer; the caller fails the run.
    pub fn transport_error(&mut self, endpoint: Endpoint, kind: &str) {
        *self.errors.entry((endpoint, 0, kind.to_owned())).or_default() += 1;
    }

    pub fn fail(&mut self, why: String) {
        self.failure_count += 1;
        if self.failures.len() < KEPT_FAILURES {
            self.failures.push(why);
        }
    }

    pub fn merge(&mut self, other: Stats) {
        for (endpoint, h) in other.latency {
            let mine = self.latency.entry(endpoint).or_insert_with(histogram);
            // Same bounds on both sides, so adding cannot fail.
            let _ = mine.add(&h);
        }
        for (key, n) in other.errors {
            *self.errors.entry(key).or_default() += n;
        }
        for why in other.failures {
            if self.failures.len() < KEPT_FAILURES {
                self.failures.push(why);
            }
        }
        self.failure_count += other.failure_count;
        self.games_created += other.games_created;
        self.games_finished += other.games_finished;
        self.actions += other.actions;
        self.lost += other.lost;
    }

    fn requests(&self) -> u64 {
        self.latency.values().map(|h| h.len()).sum::<u64>()
            + self
                .errors
                .iter()
                .filter(|((_, s, _), _)| *s == 0)
                .map(|(_, n)| n)
                .sum::<u64>()
    }
}

/// Latency of one endpoint, in milliseconds.
#[derive(Serialize)]
pub struct Latency {
    pub endpoint: &'static str,
    pub count: u64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl Latency {
    fn of(endpoint: Endpoint, h: &Histogram<u64>) -> Self {
        let ms = |micros: u64| micros as f64 / 1000.0;
        Self {
            endpoint: endpoint.label(),
            count: h.len(),
            p50_ms: ms(h.value_at_quantile(0.50)),
            p90_ms: ms(h.value_at_quantile(0.90)),
            p99_ms: ms(h.value_at_quantile(0.99)),
            max_ms: ms(h.max()),
        }
    }
}

/// Non-2xx answers of one kind.
#[derive(Serialize)]
pub struct ErrorCount {
    pub endpoint: &'static str,
    /// HTTP status; 0 for no answer at all (connect, timeout, broken body).
    pub status: u16,
    pub code: String,
    pub count: u64,
}

/// The `GET /healthz` floor: what the server does with no game work at all.
#[derive(Serialize)]
pub struct Floor {
    pub seconds: f64,
    pub connections: usize,
    pub requests: u64,
    pub per_second: f64,
    pub latency: Option<Latency>,
    pub errors: u64,
    #[serde(skip)]
    failures: Vec<String>,
}

impl Floor {
    pub fn new(stats: Stats, elapsed: Duration, connections: usize) -> Self {
        let h = stats.latency.get(&Endpoint::Healthz);
        let requests = h.map_or(0, |h| h.len());
        Self {
            seconds: elapsed.as_secs_f64(),
            connections,
            requests,
            per_second: requests as f64 / elapsed.as_secs_f64().max(1e-9),
            latency: h.map(|h| Latency::of(Endpoint::Healthz, h)),
            errors: stats.errors.values().sum(),
            failures: stats.failures,
        }
    }
}

/// Everything a run reports.
#[derive(Serialize)]
pub struct Summary {
    pub url: String,
    pub ruleset: String,
    pub flow: Flow,
    pub seats: usize,
    pub connections: usize,
    pub games: usize,
    pub games_created: u64,
    pub games_finished: u64,
    pub seconds: f64,
    pub actions: u64,
    pub actions_per_second: f64,
    pub games_per_second: f64,
    pub actions_per_game: f64,
    pub requests: u64,
    pub requests_per_second: f64,
    pub latency: Vec<Latency>,
    pub errors: Vec<ErrorCount>,
    pub lost_actions: u64,
    pub floor: Option<Floor>,
    /// actions/s divided by healthz/s.
    pub floor_ratio: Option<f64>,
    pub passed: bool,
    pub failure_count: u64,
    pub failures: Vec<String>,
    /// What the spectator push streams delivered, when there were any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub streams: Option<StreamSummary>,
    /// CPU time of the play phase, per posted action: the generator's, and the server's and the
    /// store's when their pids were given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuSummary>,
}

/// The push streams of a run.
#[derive(Debug, Serialize)]
pub struct StreamSummary {
    pub streams: u64,
    pub streams_per_game: usize,
    pub events: u64,
    /// Events delivered per second of the play phase, over all streams.
    pub events_per_second: f64,
    pub bytes: u64,
}

impl Summary {
    /// Adds what the push streams delivered; a failed stream fails the run.
    pub fn add_streams(&mut self, streams: StreamStats) {
        self.failure_count += streams.failure_count;
        self.failures.extend(streams.failures);
        self.passed = self.failure_count == 0;
        let per_game = (streams.streams as usize)
            .checked_div(self.games_created as usize)
            .unwrap_or(0);
        self.streams = Some(StreamSummary {
            streams: streams.streams,
            streams_per_game: per_game,
            events: streams.events,
            events_per_second: streams.events as f64 / self.seconds,
            bytes: streams.bytes,
        });
    }

    /// Adds the CPU the play phase cost; a process that could not be read fails the run.
    pub fn add_cpu(&mut self, cpu: Result<CpuSummary, String>) {
        match cpu {
            Ok(cpu) => self.cpu = Some(cpu),
            Err(why) => {
                self.failure_count += 1;
                self.failures.push(format!("CPU per action: {why}"));
                self.passed = false;
            }
        }
    }

    pub fn new(args: &Args, url: &str, elapsed: Duration, stats: Stats, floor: Option<Floor>) -> Self {
        let secs = elapsed.as_secs_f64().max(1e-9);
        let mut failures = stats.failures.clone();
        let mut failure_count = stats.failure_count;
        if stats.games_finished < args.games as u64 {
            let why = format!(
                "{} of {} games did not finish",
                args.games as u64 - stats.games_finished,
                args.games
            );
            failures.push(why);
            failure_count += 1;
        }
        if let Some(f) = &floor {
            failure_count += f.failures.len() as u64;
            failures.extend(f.failures.iter().take(KEPT_FAILURES).cloned());
        }
        let actions_per_second = stats.actions as f64 / secs;
        let floor_ratio = floor
            .as_ref()
            .filter(|f| f.per_second > 0.0)
            .map(|f| actions_per_second / f.per_second);
        Self {
            url: url.to_owned(),
            ruleset: args.ruleset.clone(),
            flow: args.flow,
            seats: args.seats,
            connections: args.connections,
            games: args.games,
            games_created: stats.games_created,
            games_finished: stats.games_finished,
            seconds: secs,
            actions: stats.actions,
            actions_per_second,
            games_per_second: stats.games_finished as f64 / secs,
            actions_per_game: stats.actions as f64 / (stats.games_finished.max(1)) as f64,
            requests: stats.requests(),
            requests_per_second: stats.requests() as f64 / secs,
            latency: Endpoint::ALL
                .iter()
                .filter(|e| **e != Endpoint::Healthz)
                .filter_map(|e| stats.latency.get(e).map(|h| Latency::of(*e, h)))
                .collect(),
            errors: stats
                .errors
                .iter()
                .map(|((endpoint, status, code), count)| ErrorCount {
                    endpoint: endpoint.label(),
                    status: *status,
                    code: code.clone(),
                    count: *count,
                })
                .collect(),
            lost_actions: stats.lost,
            floor,
            floor_ratio,
            passed: failure_count == 0,
            failure_count,
            failures,
            streams: None,
            cpu: None,
        }
    }

    /// The summary as a table for people.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Roadie load test: {} ({} seats), {} games, {} connections, {:?} flow, {}",
            self.ruleset, self.seats, self.games, self.connections, self.flow, self.url
        );
        let _ = writeln!(
            out,
            "  games      {}/{} finished in {:.2} s: {:.1} games/s",
            self.games_finished, self.games, self.seconds, self.games_per_second
        );
        let _ = writeln!(
            out,
            "  actions    {} posted and accepted: {:.0} actions/s ({:.1} per game)",
            self.actions, self.actions_per_second, self.actions_per_game
        );
        let _ = writeln!(
            out,
            "  requests   {}: {:.0} req/s",
            self.requests, self.requests_per_second
        );
        let _ = writeln!(
            out,
            "  latency ms {:<28} {:>8} {:>8} {:>8} {:>8} {:>8}",
            "", "count", "p50", "p90", "p99", "max"
        );
        let floor_latency = self.floor.as_ref().and_then(|f| f.latency.as_ref());
        for l in self.latency.iter().chain(floor_latency) {
            let _ = writeln!(
                out,
                "             {:<28} {:>8} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
                l.endpoint, l.count, l.p50_ms, l.p90_ms, l.p99_ms, l.max_ms
            );
        }
        if self.errors.is_empty() {
            let _ = writeln!(out, "  errors     none");
        } else {
            let _ = writeln!(out, "  errors");
            for e in &self.errors {
                let status = if e.status == 0 {
                    "---".to_owned()
                } else {
                    e.status.to_string()
                };
                let _ = writeln!(
                    out,
                    "             {:<28} {status} {:<20} {}",
                    e.endpoint, e.code, e.count
                );
            }
        }
        let _ = writeln!(out, "  lost       {} actions", self.lost_actions);
        if let Some(f) = &self.floor {
            let _ = writeln!(
                out,
                "  floor      GET /healthz {:.0} req/s over {:.1} s at {} connections",
                f.per_second, f.seconds, f.connections
            );
        }
        if let Some(r) = self.floor_ratio {
            let _ = writeln!(out, "  ratio      actions/s : healthz/s = {r:.3}");
        }
        if let Some(s) = &self.streams {
            let _ = writeln!(
                out,
                "  streams    {} ({} per game): {} events delivered, {:.0} events/s, {:.1} MB",
                s.streams,
                s.streams_per_game,
                s.events,
                s.events_per_second,
                s.bytes as f64 / 1e6
            );
        }
        if let Some(c) = &self.cpu {
            let mut parts = Vec::new();
            if let Some(us) = c.server_us_per_action {
                parts.push(format!("server {us:.1} µs"));
            }
            if let Some(us) = c.store_us_per_action {
                parts.push(format!("store {us:.1} µs"));
            }
            parts.push(format!("generator {:.1} µs", c.generator_us_per_action));
            let _ = writeln!(
                out,
                "  cpu        per action: {} (/proc, {} ticks/s)",
                parts.join(", "),
                c.clock_ticks_per_second
            );
        }
        if self.passed {
            let _ = writeln!(out, "  result     PASS");
        } else {
            let _ = writeln!(out, "  result     FAIL ({} problems)", self.failure_count);
            for why in &self.failures {
                let _ = writeln!(out, "             {why}");
            }
        }
        out
    }
}
