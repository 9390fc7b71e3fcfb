//! The Grafana dashboard (`docker/grafana/dashboards/roadie.json`) against a real Prometheus:
//! the real binary on a real Redis, under ~15 s of every kind of load (posts, games of bots with
//! experts, hints, matchmaking tickets that match, expire and are cancelled, webhooks, an
//! archive), scraped every second by Debian's `prometheus`; then every panel's every query must
//! answer data, and Prometheus's own graph page is screenshotted under load for the docs.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use reqwest::blocking::Client;
use serde_json::{Value, json};

use crate::browser::Driver;
use crate::support::{Created, Redis, Roadie, ensure_installed, free_port, rulesets, scratch, send};

/// How long the load runs.
const LOAD_FOR: Duration = Duration::from_secs(15);

/// Within how long a query must answer data once the load is over.
const ANSWER_WITHIN: Duration = Duration::from_secs(20);

/// Small searches, so that bot turns and hints come fast.
const QUICK: [(&str, &str); 2] = [
    ("ROADIE_BOT_EXPERT_MS", "10"),
    ("ROADIE_BOT_EXPERT_ITERATIONS", "50"),
];

/// The ruleset the tickets ask for.
const TICKETS_RULESET: &str = "shrewd-producer";

/// The screenshots of Prometheus's graph page under load: each its name and headline queries
/// (two graphs a window), over the range the load has filled.
const SCREENSHOTS: [(&str, [&str; 2]); 2] = [
    (
        "monitoring",
        [
            "sum by (route) (rate(roadie_http_requests_total[5s]))",
            "histogram_quantile(0.99, sum by (route, le) (rate(roadie_http_request_duration_seconds_bucket[5s])))",
        ],
    ),
    (
        "monitoring-bots",
        [
            "sum by (level) (rate(roadie_bot_moves_total[5s]))",
            "sum by (result) (rate(roadie_tickets_total[5s]))",
        ],
    ),
];

/// The range of the screenshots' graphs.
const SCREENSHOT_RANGE: &str = "10s";

/// A `prometheus` of our own on a free loopback port, scraping one server every second; killed
/// when dropped.
struct Prometheus {
    child: Child,
    base: String,
    http: Client,
}

impl Prometheus {
    fn start(target: &str) -> Self {
        ensure_installed("/usr/bin/prometheus", "prometheus");
        let dir = scratch("dashboard_prometheus");
        let config = dir.join("prometheus.yml");
        std::fs::write(
            &config,
            format!(
                "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n\
                 scrape_configs:\n  - job_name: roadie\n    metrics_path: /metrics\n    \
                 static_configs:\n      - targets: ['{target}']\n"
            ),
        )
        .expect("write prometheus.yml");
        let port = free_port();
        let log = std::fs::File::create(dir.join("prometheus.log")).expect("prometheus log");
        let child = Command::new("/usr/bin/prometheus")
            .arg(format!("--config.file={}", config.display()))
            .arg(format!("--storage.tsdb.path={}", dir.join("data").display()))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start prometheus");
        let prometheus = Prometheus {
            child,
            base: format!("http://127.0.0.1:{port}"),
            http: Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .expect("client"),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while !prometheus
            .http
            .get(format!("{}/-/ready", prometheus.base))
            .send()
            .is_ok_and(|r| r.status().is_success())
        {
            assert!(
                Instant::now() < deadline,
                "prometheus did not get ready; log:\n{}",
                std::fs::read_to_string(dir.join("prometheus.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        // Targets are synced a few seconds after the start: the load waits for the first scrape.
        let deadline = Instant::now() + Duration::from_secs(30);
        while prometheus.query("up{job=\"roadie\"} == 1").is_err() {
            assert!(Instant::now() < deadline, "prometheus did not scrape {target}");
            std::thread::sleep(Duration::from_millis(200));
        }
        prometheus
    }

    /// An instant query's answer (`data.result`), or why there is none.
    fn query(&self, expr: &str) -> Result<Vec<Value>, String> {
        let url = reqwest::Url::parse_with_params(&format!("{}/api/v1/query", self.base), [("query", expr)])
            .map_err(|e| e.to_string())?;
        let reply = self.http.get(url).send().map_err(|e| e.to_string())?;
        let body: Value = reply.json().map_err(|e| e.to_string())?;
        if body["status"] != "success" {
            return Err(format!("status {}: {}", body["status"], body["error"]));
        }
        match body["data"]["result"].as_array() {
            Some(result) if !result.is_empty() => Ok(result.clone()),
            _ => Err(format!("no data: {body}")),
        }
    }

    /// The query's answer once it has data, waiting up to [`ANSWER_WITHIN`].
    fn answered(&self, expr: &str, deadline: Instant) -> Result<Vec<Value>, String> {
        loop {
            match self.query(expr) {
                Ok(result) => return Ok(result),
                Err(e) if Instant::now() > deadline => return Err(e),
                Err(_) => std::thread::sleep(Duration::from_millis(500)),
            }
        }
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A webhook receiver that answers `204` to every request, one at a time, until dropped.
struct Receiver {
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Receiver {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the receiver");
        listener.set_nonblocking(true).expect("nonblocking");
        let port = listener.local_addr().expect("address").port();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((mut stream, _)) => {
                        let _ = stream.set_nonblocking(false);
                        let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
                        let mut request = Vec::new();
                        let mut buf = [0u8; 4096];
                        // The head, then as much body as it announces.
                        let complete = loop {
                            match stream.read(&mut buf) {
                                Ok(0) | Err(_) => break false,
                                Ok(n) => request.extend_from_slice(&buf[..n]),
                            }
                            let text = String::from_utf8_lossy(&request);
                            if let Some(end) = text.find("\r\n\r\n") {
                                let length = text[..end]
                                    .lines()
                                    .filter_map(|l| l.split_once(':'))
                                    .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
                                    .and_then(|(_, value)| value.trim().parse::<usize>().ok())
                                    .unwrap_or(0);
                                if request.len() >= end + 4 + length {
                                    break true;
                                }
                            }
                        };
                        if complete {
                            let _ = stream.write_all(
                                b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                            );
                        }
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            }
        });
        Receiver {
            port,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn create(roadie: &Roadie, body: &Value) -> Created {
    let reply = roadie.post("/v1/games", None, body);
    assert_eq!(reply.status, 201, "{}", reply.body);
    Created::from(&reply.json)
}

/// Plays the `people` seats of `game` (each its first legal action) until it ends, `moves`
/// were posted or `deadline` passes; the other seats are bots. Answers the moves posted.
fn play(roadie: &Roadie, game: &Created, people: &[usize], moves: usize, deadline: Instant) -> usize {
    let mut posted = 0;
    while posted < moves && Instant::now() < deadline {
        let view = roadie.get(&format!("/v1/games/{}", game.id), None);
        assert_eq!(view.status, 200, "{}", view.body);
        if view.json["status"] == "finished" {
            break;
        }
        let to_act: Vec<usize> = view.json["to_act"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_u64)
            .map(|s| s as usize)
            .filter(|s| people.contains(s))
            .collect();
        if to_act.is_empty() {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        for seat in to_act {
            let actions = roadie.actions(game, seat);
            if let Some(action) = actions.first() {
                let reply = roadie.act(game, seat, action);
                assert!(
                    reply.status == 200 || reply.status == 409 || reply.status == 412,
                    "{}",
                    reply.body
                );
                posted += 1;
            }
        }
    }
    posted
}

/// Games of people with inline bots (some with a webhook), and games of people alone.
fn play_games(roadie: &Roadie, webhook: &str, until: Instant) -> usize {
    let rulesets = rulesets(roadie);
    let mut moves = 0;
    for round in 0.. {
        if Instant::now() >= until {
            break;
        }
        let (slug, min, _) = &rulesets[round % rulesets.len()];
        let mut body = if round % 2 == 0 {
            let seats: Vec<Value> = (0..*min)
                .map(|i| match i {
                    0 => json!({"name": "Ana"}),
                    i if i % 2 == 1 => json!({"bot": "greedy"}),
                    _ => json!({"bot": "random"}),
                })
                .collect();
            json!({"ruleset": slug, "seats": seats})
        } else {
            json!({"ruleset": slug, "seats": min})
        };
        if round % 3 == 0 {
            body["webhook"] = json!({ "url": webhook });
        }
        let game = create(roadie, &body);
        let people: Vec<usize> = if round % 2 == 0 {
            vec![0]
        } else {
            (0..*min).collect()
        };
        moves += play(roadie, &game, &people, 40, until);
    }
    moves
}

/// Games of bots alone, an expert among them: the bot workers play the experts.
fn bot_games(roadie: &Roadie, until: Instant) -> usize {
    let rulesets = rulesets(roadie);
    let mut created = 0;
    while Instant::now() < until && created < 40 {
        let (slug, min, _) = &rulesets[created % rulesets.len()];
        let seats: Vec<Value> = (0..*min)
            .map(|i| json!({"bot": if i == 0 { "expert" } else { "greedy" }}))
            .collect();
        create(roadie, &json!({"ruleset": slug, "seats": seats}));
        created += 1;
        std::thread::sleep(Duration::from_millis(400));
    }
    created
}

/// Hints for the seat to act in fresh games of people.
fn hints(roadie: &Roadie, until: Instant) -> usize {
    let rulesets = rulesets(roadie);
    let mut served = 0;
    let mut round = 0;
    while Instant::now() < until && served < 60 {
        let (slug, min, _) = &rulesets[round % rulesets.len()];
        round += 1;
        let game = create(roadie, &json!({"ruleset": slug, "seats": min}));
        for seat in 0..*min {
            let hint = roadie.get(&format!("/v1/games/{}/hint", game.id), Some(&game.tokens[seat]));
            if hint.status == 200 {
                served += 1;
            } else {
                assert_eq!(hint.status, 409, "{}", hint.body);
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    served
}

/// Posts a ticket: its id and token.
fn open_ticket(roadie: &Roadie, seats: usize, name: &str) -> (String, String) {
    let reply = roadie.post(
        "/v1/tickets",
        None,
        &json!({"ruleset": TICKETS_RULESET, "seats": seats, "name": name}),
    );
    assert_eq!(reply.status, 201, "{}", reply.body);
    (
        reply.json["id"].as_str().expect("id").to_owned(),
        reply.json["token"].as_str().expect("token").to_owned(),
    )
}

/// The ticket once it stops waiting (long polls, within a bound).
fn ticket_settled(roadie: &Roadie, (id, token): &(String, String)) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let reply = send(
            roadie
                .http
                .get(roadie.url(&format!("/v1/tickets/{id}?wait=2")))
                .bearer_auth(token),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
        if reply.json["status"] != "waiting" || Instant::now() > deadline {
            return reply.json;
        }
    }
}

/// Rounds of tickets: four that fill a game, one cancelled, one left to expire (the ticket
/// lifetime is 2 s). Answers how many rounds ran.
fn tickets(roadie: &Roadie, until: Instant) -> usize {
    let mut rounds = 0;
    while Instant::now() < until && rounds < 10 {
        let full: Vec<(String, String)> = (0..4)
            .map(|i| open_ticket(roadie, 4, &format!("player {rounds}.{i}")))
            .collect();
        let lonely = open_ticket(roadie, 3, &format!("lonely {rounds}"));
        let quitter = open_ticket(roadie, 3, &format!("quitter {rounds}"));
        let cancelled = send(
            roadie
                .http
                .delete(roadie.url(&format!("/v1/tickets/{}", quitter.0)))
                .bearer_auth(&quitter.1),
        );
        assert_eq!(cancelled.status, 204, "{}", cancelled.body);
        for ticket in &full {
            assert_eq!(ticket_settled(roadie, ticket)["status"], "matched");
        }
        assert_eq!(ticket_settled(roadie, &lonely)["status"], "expired");
        rounds += 1;
    }
    rounds
}

/// Every query of every panel of the dashboard, with Grafana's variables replaced: its panel's
/// title and the query.
fn dashboard_queries() -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docker/grafana/dashboards/roadie.json");
    let text = std::fs::read_to_string(&path).expect("read the dashboard");
    let dashboard: Value = serde_json::from_str(&text).expect("the dashboard is JSON");
    let mut panels: Vec<&Value> = Vec::new();
    for panel in dashboard["panels"].as_array().expect("panels") {
        panels.push(panel);
        panels.extend(panel["panels"].as_array().into_iter().flatten());
    }
    let mut queries = Vec::new();
    for panel in panels {
        if panel["type"] == "row" {
            continue;
        }
        let title = panel["title"].as_str().expect("a panel has a title");
        let targets = panel["targets"].as_array().expect("a panel has targets");
        assert!(!targets.is_empty(), "panel {title:?} has no query");
        for target in targets {
            let expr = target["expr"]
                .as_str()
                .unwrap_or_else(|| panic!("panel {title:?}: a target with no expr"));
            let expr = expr
                .replace("$__rate_interval", "30s")
                .replace("$__interval", "15s")
                .replace("$__range", "5m");
            assert!(
                !expr.contains('$'),
                "panel {title:?}: a variable is left in {expr}"
            );
            queries.push((title.to_owned(), expr));
        }
    }
    queries
}

/// Saves a screenshot under `target/`; with `ROADIE_UPDATE_SCREENSHOTS` set, also as
/// `docs/{name}.png`.
fn save_screenshot(png: &[u8], name: &str) -> PathBuf {
    assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
    assert!(
        png.len() > 20_000,
        "{name}: a {} byte screenshot is a blank page",
        png.len()
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, png).expect("write screenshot");
    if std::env::var_os("ROADIE_UPDATE_SCREENSHOTS").is_some() {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
        std::fs::write(docs.join(format!("{name}.png")), png).expect("write docs screenshot");
    }
    path
}

/// Prometheus's graph page (Debian's build serves the classic one) with the headline queries,
/// screenshotted at `at` (the browser started before), once every graph is drawn.
fn screenshots(prometheus: &Prometheus, at: Instant) -> Vec<PathBuf> {
    let driver = Driver::start();
    let browser = driver.browser("dashboard", (1280, 1900));
    std::thread::sleep(at.saturating_duration_since(Instant::now()));
    let mut saved = Vec::new();
    for (name, queries) in SCREENSHOTS {
        let mut url = reqwest::Url::parse(&format!("{}/classic/graph", prometheus.base)).expect("a URL");
        for (i, query) in queries.iter().enumerate() {
            url.query_pairs_mut()
                .append_pair(&format!("g{i}.expr"), query)
                .append_pair(&format!("g{i}.tab"), "0")
                .append_pair(&format!("g{i}.range_input"), SCREENSHOT_RANGE)
                .append_pair(&format!("g{i}.stacked"), "0");
        }
        let url = url.to_string();
        browser.open(&url);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let drawn = browser.read("document.querySelectorAll('.graph_area svg path.path').length");
            if drawn.as_u64().unwrap_or(0) >= queries.len() as u64 {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the graphs were not drawn ({drawn}) at {url}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        // The page focuses its last query, scrolled into view: back to the top, unfocused.
        browser.run_async(
            "document.activeElement.blur(); window.scrollTo(0, 0); \
             arguments[arguments.length - 1](true);",
            vec![],
        );
        std::thread::sleep(Duration::from_millis(300));
        saved.push(save_screenshot(&browser.screenshot(), name));
    }
    saved
}

#[test]
fn every_dashboard_panel_has_data_in_prometheus_under_load() {
    let started = Instant::now();
    let queries = dashboard_queries();
    let redis = Redis::start();
    let receiver = Receiver::start();
    let hosts = format!("127.0.0.1:{}", receiver.port);
    let archive = scratch("dashboard_archive");
    let archive_url = format!("file://{}", archive.display());
    let mut env: Vec<(&str, &str)> = QUICK.to_vec();
    env.extend([
        ("ROADIE_TICKET_TTL_SECS", "2"),
        ("ROADIE_TICKET_SWEEP_MS", "100"),
        ("ROADIE_ARCHIVE_URL", archive_url.as_str()),
        ("ROADIE_ARCHIVE_SWEEP_MS", "200"),
        ("ROADIE_WEBHOOK_HOSTS", hosts.as_str()),
        ("ROADIE_WEBHOOK_SWEEP_MS", "100"),
        ("RUST_LOG", "warn"),
    ]);
    let roadie = Roadie::start("dashboard", Some(&redis), &env);
    let prometheus = Prometheus::start(roadie.base.trim_start_matches("http://"));
    let webhook = format!("http://127.0.0.1:{}/hook", receiver.port);

    let until = Instant::now() + LOAD_FOR;
    let (moves, bots, hints, rounds) = std::thread::scope(|scope| {
        let moves = scope.spawn(|| play_games(&roadie, &webhook, until));
        let bots = scope.spawn(|| bot_games(&roadie, until));
        let hinted = scope.spawn(|| hints(&roadie, until));
        let rounds = scope.spawn(|| tickets(&roadie, until));
        let shot = scope.spawn(|| {
            // The graph page under load: seconds of data drawn, the load still running.
            screenshots(&prometheus, until - Duration::from_secs(3))
        });
        let counts = (
            moves.join().expect("players"),
            bots.join().expect("bots"),
            hinted.join().expect("hints"),
            rounds.join().expect("tickets"),
        );
        for path in shot.join().expect("screenshots") {
            eprintln!("screenshot: {}", path.display());
        }
        counts
    });
    assert!(moves > 0 && bots > 0 && hints > 0 && rounds > 0);

    // Each panel's queries, and that the new families moved (not only exist).
    let deadline = Instant::now() + ANSWER_WITHIN;
    let mut missing = Vec::new();
    for (title, expr) in &queries {
        if let Err(why) = prometheus.answered(expr, deadline) {
            missing.push(format!("panel {title:?}: {expr}: {why}"));
        }
    }
    for expr in [
        "sum(roadie_bot_moves_total{level=\"expert\"}) > 0",
        "sum(roadie_bot_moves_total{level=\"greedy\"}) > 0",
        "sum(roadie_bot_decision_seconds_count{level=\"expert\"}) > 0",
        "roadie_bot_lag_seconds_count > 0",
        "roadie_bot_backlog",
        "sum(roadie_hints_total) > 0",
        "roadie_hint_seconds_count > 0",
        "roadie_tickets_total{result=\"opened\"} > 0",
        "roadie_tickets_total{result=\"matched\"} > 0",
        "roadie_tickets_total{result=\"expired\"} > 0",
        "roadie_tickets_total{result=\"cancelled\"} > 0",
        "roadie_ticket_wait_seconds_count > 0",
        "roadie_games_archived_total{result=\"archived\"} > 0",
        "roadie_archive_backlog",
        "roadie_webhook_notices_total{result=\"delivered\"} > 0",
        "roadie_store_used_memory_bytes > 0",
    ] {
        if let Err(why) = prometheus.answered(expr, deadline) {
            missing.push(format!("{expr}: {why}"));
        }
    }
    assert!(
        missing.is_empty(),
        "{} of {} queries answered no data:\n{}\nroadie's log:\n{}",
        missing.len(),
        queries.len(),
        missing.join("\n"),
        roadie.log_text()
    );
    eprintln!(
        "{} panel queries answered; {moves} moves, {bots} games of bots, {hints} hints, {rounds} rounds of tickets; {:?}",
        queries.len(),
        started.elapsed()
    );
}
