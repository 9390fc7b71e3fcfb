//! Prometheus metrics, kept by hand: a few counters and one latency histogram.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::store::{MemoryUse, WriteOutcome};

/// Upper bounds of the latency histogram's buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

#[derive(Default)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// What a use of the process's copy of a game found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheRead {
    /// The store confirmed the copy.
    Hit,
    /// The store had moved on.
    Stale,
    /// There was no copy.
    Miss,
}

impl CacheRead {
    const ALL: [CacheRead; 3] = [CacheRead::Hit, CacheRead::Stale, CacheRead::Miss];

    fn label(self) -> &'static str {
        match self {
            CacheRead::Hit => "hit",
            CacheRead::Stale => "stale",
            CacheRead::Miss => "miss",
        }
    }
}

/// Every metric the service exports at `/metrics`.
#[derive(Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, &'static str, u16), u64>>,
    latency: Mutex<BTreeMap<String, Histogram>>,
    actions: Mutex<BTreeMap<&'static str, u64>>,
    games_created: Mutex<BTreeMap<&'static str, u64>>,
    cache_reads: [AtomicU64; CacheRead::ALL.len()],
    cas_conflicts: AtomicU64,
    cas_retries: AtomicU64,
    store_errors: AtomicU64,
    /// Writes whose answer was lost, by what became of them: applied, not applied, unknown.
    writes_resolved: [AtomicU64; 3],
    rate_limited: AtomicU64,
    bodies_timed_out: AtomicU64,
}

fn method_name(method: &actix_web::http::Method) -> &'static str {
    use actix_web::http::Method;
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "OTHER",
    }
}

impl Metrics {
    /// Counts one request to `route` (its pattern, never the concrete path) and its latency.
    pub fn observe_request(
        &self,
        route: &str,
        method: &actix_web::http::Method,
        status: u16,
        took: Duration,
    ) {
        if let Ok(mut requests) = self.requests.lock() {
            *requests
                .entry((route.to_owned(), method_name(method), status))
                .or_default() += 1;
        }
        if let Ok(mut latency) = self.latency.lock() {
            let secs = took.as_secs_f64();
            let histogram = latency.entry(route.to_owned()).or_default();
            histogram.count += 1;
            histogram.sum += secs;
            for (bound, count) in BUCKETS.iter().zip(histogram.counts.iter_mut()) {
                if secs <= *bound {
                    *count += 1;
                }
            }
        }
    }

    /// Counts one applied action of `ruleset`.
    pub fn action_applied(&self, ruleset: &'static str) {
        if let Ok(mut actions) = self.actions.lock() {
            *actions.entry(ruleset).or_default() += 1;
        }
    }

    /// Counts one game created of `ruleset`.
    pub fn game_created(&self, ruleset: &'static str) {
        if let Ok(mut games) = self.games_created.lock() {
            *games.entry(ruleset).or_default() += 1;
        }
    }

    /// Counts a use of the process's copy of a game.
    pub fn cache_read(&self, result: CacheRead) {
        self.cache_reads[result as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a compare-and-set that lost a race.
    pub fn cas_conflict(&self) {
        self.cas_conflicts.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a post re-applied after losing a race.
    pub fn cas_retry(&self) {
        self.cas_retries.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a failed store call.
    pub fn store_error(&self) {
        self.store_errors.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a write whose answer was lost, by what became of it.
    pub fn write_resolved(&self, outcome: WriteOutcome) {
        let index = match outcome {
            WriteOutcome::Applied => 0,
            WriteOutcome::NotApplied => 1,
            WriteOutcome::Unknown => 2,
        };
        self.writes_resolved[index].fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a request refused by a rate limit.
    pub fn rate_limited(&self) {
        self.rate_limited.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a request whose body did not arrive in time.
    pub fn body_timed_out(&self) {
        self.bodies_timed_out.fetch_add(1, Ordering::Relaxed);
    }

    /// The Prometheus text exposition of everything, with the store's memory as last read.
    pub fn render(&self, memory: Option<MemoryUse>) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP roadie_http_requests_total HTTP requests by route, method and status."
        );
        let _ = writeln!(out, "# TYPE roadie_http_requests_total counter");
        if let Ok(requests) = self.requests.lock() {
            for ((route, method, status), n) in requests.iter() {
                let _ = writeln!(
                    out,
                    "roadie_http_requests_total{{route=\"{}\",method=\"{method}\",status=\"{status}\"}} {n}",
                    escape(route)
                );
            }
        }
        let _ = writeln!(
            out,
            "# HELP roadie_http_request_duration_seconds Request latency by route."
        );
        let _ = writeln!(out, "# TYPE roadie_http_request_duration_seconds histogram");
        if let Ok(latency) = self.latency.lock() {
            for (route, h) in latency.iter() {
                let route = escape(route);
                for (bound, count) in BUCKETS.iter().zip(h.counts.iter()) {
                    let _ = writeln!(
                        out,
                        "roadie_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {count}"
                    );
                }
                let _ = writeln!(
                    out,
                    "roadie_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}",
                    h.count
                );
                let _ = writeln!(
                    out,
                    "roadie_http_request_duration_seconds_sum{{route=\"{route}\"}} {}",
                    h.sum
                );
                let _ = writeln!(
                    out,
                    "roadie_http_request_duration_seconds_count{{route=\"{route}\"}} {}",
                    h.count
                );
            }
        }
        for (name, help, map) in [
            (
                "roadie_actions_applied_total",
                "Actions applied, by ruleset.",
                &self.actions,
            ),
            (
                "roadie_games_created_total",
                "Games created, by ruleset.",
                &self.games_created,
            ),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} counter");
            if let Ok(map) = map.lock() {
                for (ruleset, n) in map.iter() {
                    let _ = writeln!(out, "{name}{{ruleset=\"{ruleset}\"}} {n}");
                }
            }
        }
        let _ = writeln!(
            out,
            "# HELP roadie_game_cache_reads_total Uses of this process's copies of games, by result."
        );
        let _ = writeln!(out, "# TYPE roadie_game_cache_reads_total counter");
        for (result, n) in CacheRead::ALL.iter().zip(&self.cache_reads) {
            let _ = writeln!(
                out,
                "roadie_game_cache_reads_total{{result=\"{}\"}} {}",
                result.label(),
                n.load(Ordering::Relaxed)
            );
        }
        for (name, help, value) in [
            (
                "roadie_cas_conflicts_total",
                "Writes that lost a compare-and-set race.",
                &self.cas_conflicts,
            ),
            (
                "roadie_cas_retries_total",
                "Posts re-applied to a newer state after losing a race.",
                &self.cas_retries,
            ),
            (
                "roadie_store_errors_total",
                "Store calls that failed.",
                &self.store_errors,
            ),
            (
                "roadie_rate_limited_total",
                "Requests refused by a rate limit.",
                &self.rate_limited,
            ),
            (
                "roadie_body_timeouts_total",
                "Requests whose body did not arrive within ROADIE_BODY_TIMEOUT_MS.",
                &self.bodies_timed_out,
            ),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} counter");
            let _ = writeln!(out, "{name} {}", value.load(Ordering::Relaxed));
        }
        let _ = writeln!(
            out,
            "# HELP roadie_writes_resolved_total Writes whose answer was lost, by what became of them."
        );
        let _ = writeln!(out, "# TYPE roadie_writes_resolved_total counter");
        for (outcome, n) in ["applied", "not_applied", "unknown"]
            .iter()
            .zip(&self.writes_resolved)
        {
            let _ = writeln!(
                out,
                "roadie_writes_resolved_total{{outcome=\"{outcome}\"}} {}",
                n.load(Ordering::Relaxed)
            );
        }
        if let Some(memory) = memory {
            for (name, help, value) in [
                (
                    "roadie_store_used_memory_bytes",
                    "Memory the store uses (its fullest node).",
                    memory.used_bytes,
                ),
                (
                    "roadie_store_max_memory_bytes",
                    "The store's maxmemory (0: no limit).",
                    memory.max_bytes,
                ),
            ] {
                let _ = writeln!(out, "# HELP {name} {help}");
                let _ = writeln!(out, "# TYPE {name} gauge");
                let _ = writeln!(out, "{name} {value}");
            }
        }
        out
    }
}

fn escape(label: &str) -> String {
    label
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_counted_by_route_and_status_and_timed() {
        let metrics = Metrics::default();
        metrics.observe_request(
            "/v1/games/{id}",
            &actix_web::http::Method::GET,
            200,
            Duration::from_millis(3),
        );
        let text = metrics.render(None);
        assert!(text.contains(
            "roadie_http_requests_total{route=\"/v1/games/{id}\",method=\"GET\",status=\"200\"} 1"
        ));
        assert!(text.contains(
            "roadie_http_request_duration_seconds_bucket{route=\"/v1/games/{id}\",le=\"0.005\"} 1"
        ));
        assert!(text.contains(
            "roadie_http_request_duration_seconds_bucket{route=\"/v1/games/{id}\",le=\"0.0025\"} 0"
        ));
    }

    #[test]
    fn cache_reads_are_counted_by_result() {
        let metrics = Metrics::default();
        metrics.cache_read(CacheRead::Hit);
        metrics.cache_read(CacheRead::Hit);
        metrics.cache_read(CacheRead::Stale);
        let text = metrics.render(None);
        assert!(text.contains("roadie_game_cache_reads_total{result=\"hit\"} 2"));
        assert!(text.contains("roadie_game_cache_reads_total{result=\"stale\"} 1"));
        assert!(text.contains("roadie_game_cache_reads_total{result=\"miss\"} 0"));
    }
}
