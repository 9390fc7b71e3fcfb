//! Prometheus metrics: handles of the `metrics` crate, rendered by `metrics-exporter-prometheus`
//! in the text format (version 0.0.4) under the names dashboards already read.
//!
//! Counting takes no lock. A handle is an atomic (a histogram's samples go to a lock-free bucket
//! that the exporter folds into its buckets at upkeep and render). Handles whose labels are only
//! known at run time (route and status, ruleset) are found in maps that readers load without a
//! lock; the first request with a new label registers its handle and swaps in a copy of the map.

use std::borrow::{Borrow, Cow};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use arc_swap::ArcSwap;
use metrics::{Counter, Gauge, Histogram, Key, KeyName, Label, Level, Metadata, Recorder, SharedString};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle, PrometheusRecorder};
use roadie_engine::BotLevel;

use crate::store::{MemoryUse, WriteOutcome};

/// Upper bounds of the latency histogram's buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// Upper bounds of the buckets of the histograms of work that may take seconds (a bot's search,
/// a hint, a bot turn's lag), in seconds.
const SLOW_BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// Upper bounds of the buckets of a matched ticket's wait, in seconds.
const WAIT_BUCKETS: [f64; 12] = [
    0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// How often the samples of the latency histograms are folded into their buckets.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

const METADATA: Metadata<'static> = Metadata::new(module_path!(), Level::INFO, Some(module_path!()));

const HTTP_REQUESTS: &str = "roadie_http_requests_total";
const HTTP_DURATION: &str = "roadie_http_request_duration_seconds";
const ACTIONS_APPLIED: &str = "roadie_actions_applied_total";
const GAMES_CREATED: &str = "roadie_games_created_total";
const CACHE_READS: &str = "roadie_game_cache_reads_total";
const CAS_CONFLICTS: &str = "roadie_cas_conflicts_total";
const CAS_RETRIES: &str = "roadie_cas_retries_total";
const STORE_ERRORS: &str = "roadie_store_errors_total";
const RATE_LIMITED: &str = "roadie_rate_limited_total";
const BODY_TIMEOUTS: &str = "roadie_body_timeouts_total";
const WRITES_RESOLVED: &str = "roadie_writes_resolved_total";
const WEBHOOK_NOTICES: &str = "roadie_webhook_notices_total";
const STORE_USED_MEMORY: &str = "roadie_store_used_memory_bytes";
const STORE_MAX_MEMORY: &str = "roadie_store_max_memory_bytes";
const TICKETS_MATCHED: &str = "roadie_tickets_matched_total";
const GAMES_ARCHIVED: &str = "roadie_games_archived_total";
const REPAIRS: &str = "roadie_repairs_total";
const ARCHIVE_BACKLOG: &str = "roadie_archive_backlog";
const GAMES_RATED: &str = "roadie_games_rated_total";
const RATING_BACKLOG: &str = "roadie_rating_backlog";
const BOT_MOVES: &str = "roadie_bot_moves_total";
const BOT_DECISION: &str = "roadie_bot_decision_seconds";
const BOT_BACKLOG: &str = "roadie_bot_backlog";
const BOT_LAG: &str = "roadie_bot_lag_seconds";
const HINTS: &str = "roadie_hints_total";
const HINT_DURATION: &str = "roadie_hint_seconds";
const TICKETS: &str = "roadie_tickets_total";
const TICKET_WAIT: &str = "roadie_ticket_wait_seconds";

const COUNTERS: [(&str, &str); 18] = [
    (
        REPAIRS,
        "Due entries the reconciler found missing and put back, by kind: bot_turn, clock, archive, rating.",
    ),
    (
        GAMES_RATED,
        "Finished rated games whose ratings this process wrote.",
    ),
    (
        BOT_MOVES,
        "Moves of bots written by this process, by level and ruleset (inline bots' with the change that let them act).",
    ),
    (HINTS, "Hints this process served, by ruleset."),
    (
        TICKETS,
        "Matchmaking tickets by result: opened, matched (seated by this process), cancelled, expired (as their holders found them).",
    ),
    (
        GAMES_ARCHIVED,
        "Finished games this process wrote to the archive, by result: archived, or failed (tried again after the lease).",
    ),
    (
        TICKETS_MATCHED,
        "Matchmaking tickets seated in a game by this process.",
    ),
    (HTTP_REQUESTS, "HTTP requests by route, method and status."),
    (ACTIONS_APPLIED, "Actions applied, by ruleset."),
    (GAMES_CREATED, "Games created, by ruleset."),
    (CACHE_READS, "Uses of this process's copies of games, by result."),
    (CAS_CONFLICTS, "Writes that lost a compare-and-set race."),
    (
        CAS_RETRIES,
        "Posts re-applied to a newer state after losing a race.",
    ),
    (STORE_ERRORS, "Store calls that failed."),
    (RATE_LIMITED, "Requests refused by a rate limit."),
    (
        BODY_TIMEOUTS,
        "Requests whose body did not arrive within ROADIE_BODY_TIMEOUT_MS.",
    ),
    (
        WRITES_RESOLVED,
        "Writes whose answer was lost, by what became of them.",
    ),
    (
        WEBHOOK_NOTICES,
        "Webhook deliveries by result: delivered, failed (to be retried or dropped), dropped after the last attempt.",
    ),
];

/// What became of one webhook delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeResult {
    /// The receiver answered `2xx`.
    Delivered,
    /// It did not.
    Failed,
    /// The notice was dropped after its last attempt.
    Dropped,
}

const NOTICE_RESULTS: [&str; 3] = ["delivered", "failed", "dropped"];

/// What became of a matchmaking ticket, as `roadie_tickets_total` counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TicketResult {
    /// It was opened.
    Opened,
    /// It was seated in a game.
    Matched,
    /// Its holder found it expired.
    Expired,
    /// Its holder cancelled it.
    Cancelled,
}

const TICKET_RESULTS: [&str; 4] = ["opened", "matched", "expired", "cancelled"];

const HISTOGRAMS: [(&str, &str); 5] = [
    (HTTP_DURATION, "Request latency by route."),
    (
        BOT_DECISION,
        "How long a bot that searches took to choose its move, by level.",
    ),
    (
        BOT_LAG,
        "From a bot turn's claim by a worker to its move written (the read, the search and the write).",
    ),
    (HINT_DURATION, "How long a served hint took, its search included."),
    (
        TICKET_WAIT,
        "How long matched tickets waited, from their opening to their seats.",
    ),
];

/// The histograms whose work may take seconds, with their buckets.
const SLOW_HISTOGRAMS: [(&str, &[f64]); 4] = [
    (BOT_DECISION, &SLOW_BUCKETS),
    (BOT_LAG, &SLOW_BUCKETS),
    (HINT_DURATION, &SLOW_BUCKETS),
    (TICKET_WAIT, &WAIT_BUCKETS),
];

const GAUGES: [(&str, &str); 2] = [
    (STORE_USED_MEMORY, "Memory the store uses (its fullest node)."),
    (STORE_MAX_MEMORY, "The store's maxmemory (0: no limit)."),
];

/// The gauges registered at their first reading: a process that never reads one exports none.
const LATE_GAUGES: [(&str, &str); 3] = [
    (
        RATING_BACKLOG,
        "Finished rated games waiting for their ratings to be written, in the store (every process's).",
    ),
    (
        ARCHIVE_BACKLOG,
        "Finished games waiting to be written to the archive, in the store (every process's).",
    ),
    (
        BOT_BACKLOG,
        "Bot turns due or being played, in the store (every process's).",
    ),
];

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

/// The label of each outcome, at the index `outcome_index` gives it.
const OUTCOMES: [&str; 3] = ["applied", "not_applied", "unknown"];

fn outcome_index(outcome: WriteOutcome) -> usize {
    match outcome {
        WriteOutcome::Applied => 0,
        WriteOutcome::NotApplied => 1,
        WriteOutcome::Unknown => 2,
    }
}

fn method_label(method: &actix_web::http::Method) -> &'static str {
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

/// Handles by label, read without a lock. A label seen for the first time is added to a copy
/// of the map that replaces it; the few labels a process ever sees make that rare.
struct Labelled<K, V> {
    handles: ArcSwap<HashMap<K, V>>,
}

impl<K, V> Default for Labelled<K, V> {
    fn default() -> Self {
        Self {
            handles: ArcSwap::from_pointee(HashMap::new()),
        }
    }
}

impl<K: Clone + Eq + Hash, V: Clone> Labelled<K, V> {
    /// Calls `f` with the handle of `label`, registered by `register` if it is new.
    fn with<Q, R>(&self, label: &Q, register: impl FnOnce() -> (K, V), f: impl FnOnce(&V) -> R) -> R
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        if let Some(handle) = self.handles.load().get(label) {
            return f(handle);
        }
        let (key, handle) = register();
        self.handles.rcu(|handles| {
            let mut handles = HashMap::clone(handles);
            handles.entry(key.clone()).or_insert_with(|| handle.clone());
            handles
        });
        f(&handle)
    }
}

/// The handles of one route.
struct RouteMetrics {
    latency: Histogram,
    /// Requests by method and status.
    requests: Labelled<(&'static str, u16), Counter>,
}

/// Every metric the service exports at `/metrics`.
pub struct Metrics {
    recorder: PrometheusRecorder,
    exposition: PrometheusHandle,
    routes: Labelled<Cow<'static, str>, Arc<RouteMetrics>>,
    actions: Labelled<&'static str, Counter>,
    games_created: Labelled<&'static str, Counter>,
    cache_reads: [Counter; CacheRead::ALL.len()],
    cas_conflicts: Counter,
    tickets_matched: Counter,
    cas_retries: Counter,
    store_errors: Counter,
    /// Writes whose answer was lost, by `outcome_index`.
    writes_resolved: [Counter; OUTCOMES.len()],
    rate_limited: Counter,
    bodies_timed_out: Counter,
    /// Webhook deliveries, by `NoticeResult`.
    webhook_notices: [Counter; NOTICE_RESULTS.len()],
    /// The store's used and maximum memory, registered at the first reading so that a store
    /// that never reports one exports neither.
    memory: OnceLock<[Gauge; 2]>,
    /// Archive writes, by result: archived, failed.
    archived: [Counter; 2],
    /// Due entries the reconciler put back, by kind.
    repairs: Labelled<&'static str, Counter>,
    /// Games rated by this process.
    rated: Counter,
    /// The games waiting for their ratings, registered at the first reading.
    rating_backlog: OnceLock<Gauge>,
    /// The games waiting for the archive, registered at the first reading (a server with no
    /// archive exports none).
    archive_backlog: OnceLock<Gauge>,
    /// Bots' moves, by level and ruleset.
    bot_moves: Labelled<(&'static str, &'static str), Counter>,
    /// How long searches took, by level.
    bot_decisions: Labelled<&'static str, Histogram>,
    /// The bot turns due, registered at the first reading.
    bot_backlog: OnceLock<Gauge>,
    bot_lag: Histogram,
    /// Hints served, by ruleset.
    hints: Labelled<&'static str, Counter>,
    hint_duration: Histogram,
    /// Tickets, by `TicketResult`.
    tickets: [Counter; TICKET_RESULTS.len()],
    ticket_wait: Histogram,
}

impl Default for Metrics {
    fn default() -> Self {
        let builder = PrometheusBuilder::new()
            .set_buckets(&BUCKETS)
            .expect("the latency buckets are not empty");
        let recorder = SLOW_HISTOGRAMS
            .iter()
            .fold(builder, |builder, (name, buckets)| {
                builder
                    .set_buckets_for_metric(Matcher::Full((*name).to_owned()), buckets)
                    .expect("the buckets are not empty")
            })
            .build_recorder();
        for (name, help) in COUNTERS {
            recorder.describe_counter(KeyName::from_const_str(name), None, SharedString::const_str(help));
        }
        for (name, help) in HISTOGRAMS {
            recorder.describe_histogram(KeyName::from_const_str(name), None, SharedString::const_str(help));
        }
        for (name, help) in GAUGES.iter().chain(&LATE_GAUGES) {
            recorder.describe_gauge(KeyName::from_const_str(name), None, SharedString::const_str(help));
        }
        let histogram =
            |name: &'static str| recorder.register_histogram(&Key::from_static_name(name), &METADATA);
        let counter = |name: &'static str| recorder.register_counter(&Key::from_static_name(name), &METADATA);
        let labelled = |name: &'static str, label: &'static str, value: &'static str| {
            recorder.register_counter(
                &Key::from_parts(name, vec![Label::from_static_parts(label, value)]),
                &METADATA,
            )
        };
        Self {
            exposition: recorder.handle(),
            routes: Labelled::default(),
            actions: Labelled::default(),
            games_created: Labelled::default(),
            cache_reads: CacheRead::ALL.map(|read| labelled(CACHE_READS, "result", read.label())),
            cas_conflicts: counter(CAS_CONFLICTS),
            tickets_matched: counter(TICKETS_MATCHED),
            cas_retries: counter(CAS_RETRIES),
            store_errors: counter(STORE_ERRORS),
            writes_resolved: OUTCOMES.map(|outcome| labelled(WRITES_RESOLVED, "outcome", outcome)),
            rate_limited: counter(RATE_LIMITED),
            bodies_timed_out: counter(BODY_TIMEOUTS),
            webhook_notices: NOTICE_RESULTS.map(|result| labelled(WEBHOOK_NOTICES, "result", result)),
            memory: OnceLock::new(),
            archived: ["archived", "failed"].map(|result| labelled(GAMES_ARCHIVED, "result", result)),
            archive_backlog: OnceLock::new(),
            repairs: Labelled::default(),
            rated: counter(GAMES_RATED),
            rating_backlog: OnceLock::new(),
            bot_moves: Labelled::default(),
            bot_decisions: Labelled::default(),
            bot_backlog: OnceLock::new(),
            bot_lag: histogram(BOT_LAG),
            hints: Labelled::default(),
            hint_duration: histogram(HINT_DURATION),
            tickets: TICKET_RESULTS.map(|result| labelled(TICKETS, "result", result)),
            ticket_wait: histogram(TICKET_WAIT),
            recorder,
        }
    }
}

impl Metrics {
    /// Folds the latency samples into their buckets every few seconds, for as long as `metrics`
    /// lives, so that a service nobody scrapes does not keep them all.
    pub fn keep_up(metrics: &Arc<Self>) {
        let metrics = Arc::downgrade(metrics);
        actix_web::rt::spawn(async move {
            let mut tick = tokio::time::interval(UPKEEP_EVERY);
            loop {
                tick.tick().await;
                match metrics.upgrade() {
                    Some(metrics) => metrics.exposition.run_upkeep(),
                    None => return,
                }
            }
        });
    }

    fn route(&self, route: &str, f: impl FnOnce(&RouteMetrics)) {
        self.routes.with(
            route,
            || {
                let route: Cow<'static, str> = Cow::Owned(route.to_owned());
                let latency = self.recorder.register_histogram(
                    &Key::from_parts(HTTP_DURATION, vec![Label::new("route", route.clone())]),
                    &METADATA,
                );
                let handles = RouteMetrics {
                    latency,
                    requests: Labelled::default(),
                };
                (route, Arc::new(handles))
            },
            |handles| f(handles),
        );
    }

    /// Counts one request to `route` (its pattern, never the concrete path) and its latency.
    pub fn observe_request(
        &self,
        route: &str,
        method: &actix_web::http::Method,
        status: u16,
        took: Duration,
    ) {
        let method = method_label(method);
        self.route(route, |handles| {
            handles.latency.record(took.as_secs_f64());
            handles.requests.with(
                &(method, status),
                || {
                    let labels = vec![
                        Label::new("route", route.to_owned()),
                        Label::from_static_parts("method", method),
                        Label::new("status", status.to_string()),
                    ];
                    let counter = self
                        .recorder
                        .register_counter(&Key::from_parts(HTTP_REQUESTS, labels), &METADATA);
                    ((method, status), counter)
                },
                |counter| counter.increment(1),
            );
        });
    }

    fn by_ruleset(
        &self,
        handles: &Labelled<&'static str, Counter>,
        name: &'static str,
        ruleset: &'static str,
    ) {
        handles.with(
            ruleset,
            || {
                let key = Key::from_parts(name, vec![Label::from_static_parts("ruleset", ruleset)]);
                (ruleset, self.recorder.register_counter(&key, &METADATA))
            },
            |counter| counter.increment(1),
        );
    }

    /// Counts one applied action of `ruleset`.
    pub fn action_applied(&self, ruleset: &'static str) {
        self.by_ruleset(&self.actions, ACTIONS_APPLIED, ruleset);
    }

    /// Counts one game created of `ruleset`.
    pub fn game_created(&self, ruleset: &'static str) {
        self.by_ruleset(&self.games_created, GAMES_CREATED, ruleset);
    }

    /// Counts a use of the process's copy of a game.
    pub fn cache_read(&self, result: CacheRead) {
        self.cache_reads[result as usize].increment(1);
    }

    /// Counts `n` tickets seated by this process.
    pub fn tickets_matched(&self, n: usize) {
        self.tickets_matched.increment(n as u64);
        self.tickets[TicketResult::Matched as usize].increment(n as u64);
    }

    /// Counts a ticket opened, cancelled or found expired (a matched one: `tickets_matched`).
    pub fn ticket(&self, result: TicketResult) {
        self.tickets[result as usize].increment(1);
    }

    /// How long a matched ticket waited for its seat.
    pub fn ticket_waited(&self, waited: Duration) {
        self.ticket_wait.record(waited.as_secs_f64());
    }

    /// Counts a move of a bot of `level` in a game of `ruleset`.
    pub fn bot_moved(&self, level: BotLevel, ruleset: &'static str) {
        let level = level.as_str();
        self.bot_moves.with(
            &(level, ruleset),
            || {
                let labels = vec![
                    Label::from_static_parts("level", level),
                    Label::from_static_parts("ruleset", ruleset),
                ];
                let counter = self
                    .recorder
                    .register_counter(&Key::from_parts(BOT_MOVES, labels), &METADATA);
                ((level, ruleset), counter)
            },
            |counter| counter.increment(1),
        );
    }

    /// How long a bot of `level` searched for its move.
    pub fn bot_decided(&self, level: BotLevel, took: Duration) {
        let level = level.as_str();
        self.bot_decisions.with(
            level,
            || {
                let key = Key::from_parts(BOT_DECISION, vec![Label::from_static_parts("level", level)]);
                (level, self.recorder.register_histogram(&key, &METADATA))
            },
            |histogram| histogram.record(took.as_secs_f64()),
        );
    }

    /// How long a bot turn took from its claim to its move written.
    pub fn bot_lag(&self, took: Duration) {
        self.bot_lag.record(took.as_secs_f64());
    }

    /// How many bot turns are due or being played, as the store counts them now.
    pub fn bot_backlog(&self, turns: u64) {
        self.bot_backlog
            .get_or_init(|| {
                self.recorder
                    .register_gauge(&Key::from_static_name(BOT_BACKLOG), &METADATA)
            })
            .set(turns as f64);
    }

    /// Counts a hint served for a game of `ruleset`, and how long it took.
    pub fn hint_served(&self, ruleset: &'static str, took: Duration) {
        self.by_ruleset(&self.hints, HINTS, ruleset);
        self.hint_duration.record(took.as_secs_f64());
    }

    /// Counts a compare-and-set that lost a race.
    pub fn cas_conflict(&self) {
        self.cas_conflicts.increment(1);
    }

    /// Counts a post re-applied after losing a race.
    pub fn cas_retry(&self) {
        self.cas_retries.increment(1);
    }

    /// Counts a failed store call.
    pub fn store_error(&self) {
        self.store_errors.increment(1);
    }

    /// Counts a write whose answer was lost, by what became of it.
    pub fn write_resolved(&self, outcome: WriteOutcome) {
        self.writes_resolved[outcome_index(outcome)].increment(1);
    }

    /// Counts a request refused by a rate limit.
    pub fn rate_limited(&self) {
        self.rate_limited.increment(1);
    }

    /// Counts a webhook delivery by its result.
    pub fn webhook_notice(&self, result: NoticeResult) {
        self.webhook_notices[result as usize].increment(1);
    }

    /// Counts a finished game written to the archive (`true`), or a write that failed.
    pub fn game_archived(&self, archived: bool) {
        self.archived[usize::from(!archived)].increment(1);
    }

    /// Counts a due entry of `kind` the reconciler put back.
    pub fn repaired(&self, kind: &'static str) {
        self.repairs.with(
            kind,
            || {
                let key = Key::from_parts(REPAIRS, vec![Label::from_static_parts("kind", kind)]);
                (kind, self.recorder.register_counter(&key, &METADATA))
            },
            |counter| counter.increment(1),
        );
    }

    /// How many finished games wait for the archive, as the store counts them now.
    pub fn archive_backlog(&self, games: u64) {
        self.archive_backlog
            .get_or_init(|| {
                self.recorder
                    .register_gauge(&Key::from_static_name(ARCHIVE_BACKLOG), &METADATA)
            })
            .set(games as f64);
    }

    /// Counts a game whose ratings this process wrote.
    pub fn game_rated(&self) {
        self.rated.increment(1);
    }

    /// Sets the count of finished rated games waiting for their ratings.
    pub fn rating_backlog(&self, games: u64) {
        self.rating_backlog
            .get_or_init(|| {
                self.recorder
                    .register_gauge(&Key::from_static_name(RATING_BACKLOG), &METADATA)
            })
            .set(games as f64);
    }

    /// Counts a request whose body did not arrive in time.
    pub fn body_timed_out(&self) {
        self.bodies_timed_out.increment(1);
    }

    /// The Prometheus text exposition (format 0.0.4) of everything, with the store's memory as
    /// last read.
    pub fn render(&self, memory: Option<MemoryUse>) -> String {
        if let Some(memory) = memory {
            let [used, max] = self.memory.get_or_init(|| {
                GAUGES.map(|(name, _)| {
                    self.recorder
                        .register_gauge(&Key::from_static_name(name), &METADATA)
                })
            });
            used.set(memory.used_bytes as f64);
            max.set(memory.max_bytes as f64);
        }
        self.exposition.render()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// The value of each sample line, by series (name and labels as written).
    fn samples(text: &str) -> BTreeMap<&str, &str> {
        text.lines()
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .map(|line| {
                let (series, value) = line.rsplit_once(' ').expect("a sample line has a value");
                (series, value)
            })
            .collect()
    }

    fn family(series: &str) -> &str {
        series.split_once('{').map_or(series, |(name, _)| name)
    }

    #[test]
    fn a_request_is_counted_by_route_and_status_and_timed() {
        let metrics = Metrics::default();
        metrics.observe_request(
            "/v1/games/{id}",
            &actix_web::http::Method::GET,
            200,
            Duration::from_millis(3),
        );
        metrics.observe_request(
            "/v1/games/{id}",
            &actix_web::http::Method::GET,
            200,
            Duration::from_millis(30),
        );
        metrics.observe_request(
            "/v1/games/{id}",
            &actix_web::http::Method::DELETE,
            404,
            Duration::from_millis(1),
        );
        let text = metrics.render(None);
        let samples = samples(&text);
        let get = "roadie_http_requests_total{route=\"/v1/games/{id}\",method=\"GET\",status=\"200\"}";
        assert_eq!(samples.get(get), Some(&"2"), "{text}");
        let delete = "roadie_http_requests_total{route=\"/v1/games/{id}\",method=\"DELETE\",status=\"404\"}";
        assert_eq!(samples.get(delete), Some(&"1"), "{text}");
        let bucket = |le: &str| {
            let series = format!(
                "roadie_http_request_duration_seconds_bucket{{route=\"/v1/games/{{id}}\",le=\"{le}\"}}"
            );
            samples.get(series.as_str()).copied()
        };
        assert_eq!(bucket("0.001"), Some("1"), "{text}");
        assert_eq!(bucket("0.0025"), Some("1"), "{text}");
        assert_eq!(bucket("0.005"), Some("2"), "{text}");
        assert_eq!(bucket("0.05"), Some("3"), "{text}");
        assert_eq!(bucket("+Inf"), Some("3"), "{text}");
        assert_eq!(
            samples.get("roadie_http_request_duration_seconds_count{route=\"/v1/games/{id}\"}"),
            Some(&"3")
        );
        let sum: f64 = samples
            .get("roadie_http_request_duration_seconds_sum{route=\"/v1/games/{id}\"}")
            .and_then(|s| s.parse().ok())
            .expect("the histogram has a sum");
        assert!((sum - 0.034).abs() < 1e-9, "{sum}");
    }

    #[test]
    fn a_route_label_is_escaped() {
        let metrics = Metrics::default();
        metrics.observe_request("/a\"b", &actix_web::http::Method::POST, 500, Duration::ZERO);
        let text = metrics.render(None);
        assert!(
            text.contains("roadie_http_requests_total{route=\"/a\\\"b\",method=\"POST\",status=\"500\"} 1"),
            "{text}"
        );
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

    #[test]
    fn rulesets_outcomes_and_plain_counters_are_counted() {
        let metrics = Metrics::default();
        metrics.action_applied("shrewd-producer");
        metrics.action_applied("shrewd-producer");
        metrics.game_created("show-business");
        metrics.write_resolved(WriteOutcome::NotApplied);
        metrics.cas_conflict();
        metrics.cas_retry();
        metrics.cas_retry();
        metrics.store_error();
        metrics.rate_limited();
        metrics.body_timed_out();
        let text = metrics.render(None);
        let samples = samples(&text);
        for (series, value) in [
            ("roadie_actions_applied_total{ruleset=\"shrewd-producer\"}", "2"),
            ("roadie_games_created_total{ruleset=\"show-business\"}", "1"),
            ("roadie_writes_resolved_total{outcome=\"applied\"}", "0"),
            ("roadie_writes_resolved_total{outcome=\"not_applied\"}", "1"),
            ("roadie_writes_resolved_total{outcome=\"unknown\"}", "0"),
            ("roadie_cas_conflicts_total", "1"),
            ("roadie_cas_retries_total", "2"),
            ("roadie_store_errors_total", "1"),
            ("roadie_rate_limited_total", "1"),
            ("roadie_body_timeouts_total", "1"),
        ] {
            assert_eq!(samples.get(series), Some(&value), "{series} in {text}");
        }
        assert!(!samples.contains_key("roadie_actions_applied_total{ruleset=\"show-business\"}"));
    }

    #[test]
    fn the_store_memory_is_exported_once_read() {
        let metrics = Metrics::default();
        assert!(!metrics.render(None).contains("memory_bytes"));
        let text = metrics.render(Some(MemoryUse {
            used_bytes: 1_048_576,
            max_bytes: 3_145_728,
        }));
        let samples = samples(&text);
        assert_eq!(
            samples.get("roadie_store_used_memory_bytes"),
            Some(&"1048576"),
            "{text}"
        );
        assert_eq!(
            samples.get("roadie_store_max_memory_bytes"),
            Some(&"3145728"),
            "{text}"
        );
        assert!(text.contains("# TYPE roadie_store_max_memory_bytes gauge\n"));
    }

    /// Every family keeps its name, type and help, in the text format Prometheus scrapes (no
    /// OpenMetrics `# EOF`, no suffix added to a name).
    #[test]
    fn every_family_is_typed_and_described_under_its_own_name() {
        let metrics = Metrics::default();
        metrics.observe_request("/healthz", &actix_web::http::Method::GET, 200, Duration::ZERO);
        metrics.action_applied("shrewd-producer");
        metrics.game_created("shrewd-producer");
        metrics.bot_moved(BotLevel::Greedy, "shrewd-producer");
        metrics.bot_decided(BotLevel::Expert, Duration::ZERO);
        metrics.bot_backlog(0);
        metrics.archive_backlog(0);
        metrics.rating_backlog(0);
        metrics.hint_served("shrewd-producer", Duration::ZERO);
        metrics.repaired("clock");
        let text = metrics.render(Some(MemoryUse {
            used_bytes: 1,
            max_bytes: 0,
        }));
        assert!(!text.contains("# EOF"), "{text}");
        for (name, help) in COUNTERS
            .iter()
            .chain(&HISTOGRAMS)
            .chain(&GAUGES)
            .chain(&LATE_GAUGES)
        {
            assert!(
                text.contains(&format!("# HELP {name} {help}\n")),
                "{name} in {text}"
            );
        }
        for (name, kind) in COUNTERS
            .iter()
            .map(|(name, _)| (*name, "counter"))
            .chain(HISTOGRAMS.iter().map(|(name, _)| (*name, "histogram")))
            .chain(
                GAUGES
                    .iter()
                    .chain(&LATE_GAUGES)
                    .map(|(name, _)| (*name, "gauge")),
            )
        {
            assert!(
                text.contains(&format!("# TYPE {name} {kind}\n")),
                "{name} in {text}"
            );
        }
        let known: Vec<&str> = COUNTERS
            .iter()
            .chain(&GAUGES)
            .chain(&LATE_GAUGES)
            .map(|(name, _)| *name)
            .collect();
        let histograms: Vec<&str> = HISTOGRAMS.iter().map(|(name, _)| *name).collect();
        for series in samples(&text).keys() {
            let name = family(series);
            let base = name
                .strip_suffix("_bucket")
                .or_else(|| name.strip_suffix("_sum"))
                .or_else(|| name.strip_suffix("_count"))
                .filter(|base| histograms.contains(base));
            assert!(
                base.is_some() || known.contains(&name),
                "{series} is not a family Roadie exports"
            );
        }
    }

    #[test]
    fn bots_hints_and_tickets_are_counted_and_timed() {
        let metrics = Metrics::default();
        assert!(!metrics.render(None).contains(BOT_BACKLOG));
        metrics.bot_moved(BotLevel::Expert, "shrewd-producer");
        metrics.bot_moved(BotLevel::Expert, "shrewd-producer");
        metrics.bot_moved(BotLevel::Random, "show-business");
        metrics.bot_decided(BotLevel::Expert, Duration::from_millis(400));
        metrics.bot_decided(BotLevel::Expert, Duration::from_secs(4));
        metrics.bot_lag(Duration::from_millis(30));
        metrics.bot_backlog(7);
        metrics.hint_served("shrewd-producer", Duration::from_millis(120));
        metrics.ticket(TicketResult::Opened);
        metrics.ticket(TicketResult::Opened);
        metrics.ticket(TicketResult::Cancelled);
        metrics.tickets_matched(2);
        metrics.ticket_waited(Duration::from_secs(45));
        let text = metrics.render(None);
        let samples = samples(&text);
        for (series, value) in [
            (
                "roadie_bot_moves_total{level=\"expert\",ruleset=\"shrewd-producer\"}",
                "2",
            ),
            (
                "roadie_bot_moves_total{level=\"random\",ruleset=\"show-business\"}",
                "1",
            ),
            ("roadie_bot_decision_seconds_count{level=\"expert\"}", "2"),
            // Slow work has buckets of its own, up to seconds.
            (
                "roadie_bot_decision_seconds_bucket{level=\"expert\",le=\"0.5\"}",
                "1",
            ),
            (
                "roadie_bot_decision_seconds_bucket{level=\"expert\",le=\"5\"}",
                "2",
            ),
            ("roadie_bot_lag_seconds_bucket{le=\"0.05\"}", "1"),
            ("roadie_bot_backlog", "7"),
            ("roadie_hints_total{ruleset=\"shrewd-producer\"}", "1"),
            ("roadie_hint_seconds_bucket{le=\"0.25\"}", "1"),
            ("roadie_hint_seconds_count", "1"),
            ("roadie_tickets_total{result=\"opened\"}", "2"),
            ("roadie_tickets_total{result=\"matched\"}", "2"),
            ("roadie_tickets_total{result=\"cancelled\"}", "1"),
            ("roadie_tickets_total{result=\"expired\"}", "0"),
            ("roadie_tickets_matched_total", "2"),
            ("roadie_ticket_wait_seconds_bucket{le=\"30\"}", "0"),
            ("roadie_ticket_wait_seconds_bucket{le=\"60\"}", "1"),
            // The latency buckets of requests are unchanged.
        ] {
            assert_eq!(samples.get(series), Some(&value), "{series} in {text}");
        }
        assert!(
            !samples.contains_key("roadie_bot_moves_total{level=\"greedy\",ruleset=\"shrewd-producer\"}")
        );
        metrics.observe_request("/healthz", &actix_web::http::Method::GET, 200, Duration::ZERO);
        let text = metrics.render(None);
        assert!(
            text.contains("roadie_http_request_duration_seconds_bucket{route=\"/healthz\",le=\"2.5\"} 1"),
            "{text}"
        );
        assert!(!text.contains("roadie_http_request_duration_seconds_bucket{route=\"/healthz\",le=\"30\"}"));
    }
}
