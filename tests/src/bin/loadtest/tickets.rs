//! `--flow tickets`: matchmaking throughput. `--games` × `--seats` tickets are posted by
//! `--connections` connections, alternately to `--url` and `--second-url`; each connection then
//! long-polls its ticket until it is matched, and takes the next. Reports tickets matched per
//! second, and the time from the sending of the last ticket of each game to each of its tickets'
//! `matched` answer. Fails on any refused or broken call, a game that does not get exactly one
//! ticket per seat, or a ticket not matched within the time limit.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use hdrhistogram::Histogram;
use hyper::Method;
use roadie_api::wire::tickets::{CreatedTicket, TicketInfo, TicketStatus};
use serde::Serialize;

use crate::client::Server;
use crate::http::{Connection, Request};

/// What one run of the flow asks for.
pub struct TicketPlan {
    pub ruleset: String,
    pub seats: usize,
    pub tickets: usize,
    pub deadline: Instant,
}

/// One ticket's life, as a connection saw it.
struct Seated {
    game: String,
    seat: u64,
    sent: Instant,
    matched: Instant,
}

/// The flow's summary.
#[derive(Serialize)]
pub struct TicketSummary {
    pub flow: &'static str,
    pub servers: usize,
    pub tickets: usize,
    pub games: usize,
    pub elapsed_secs: f64,
    pub tickets_per_sec: f64,
    /// From the sending of a game's last ticket to each of its tickets' `matched` answer.
    pub last_to_matched_ms_p50: f64,
    pub last_to_matched_ms_p99: f64,
    pub last_to_matched_ms_max: f64,
    pub failures: Vec<String>,
    pub passed: bool,
}

impl TicketSummary {
    pub fn table(&self) -> String {
        let mut out = format!(
            "tickets {} through {} process(es) into {} games in {:.2} s: {:.0} tickets/s\n\
             last ticket of a game sent -> matched answer: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms\n",
            self.tickets,
            self.servers,
            self.games,
            self.elapsed_secs,
            self.tickets_per_sec,
            self.last_to_matched_ms_p50,
            self.last_to_matched_ms_p99,
            self.last_to_matched_ms_max,
        );
        for failure in &self.failures {
            out.push_str(&format!("FAILED: {failure}\n"));
        }
        out.push_str(if self.passed { "passed\n" } else { "failed\n" });
        out
    }
}

async fn call(conn: &mut Connection, request: Request<'_>) -> Result<Bytes, String> {
    let path = request.path.to_owned();
    match conn.send(request).await {
        Ok((status, body)) if (200..300).contains(&status) => Ok(body),
        Ok((status, body)) => Err(format!("{path}: {status} {}", String::from_utf8_lossy(&body))),
        Err(e) => Err(format!("{path}: {e}")),
    }
}

/// Posts tickets and waits for each until none is left; answers what each became.
async fn worker(
    mut conns: Vec<Connection>,
    plan: Arc<TicketPlan>,
    next: Arc<AtomicUsize>,
) -> Result<Vec<Seated>, String> {
    let mut seated = Vec::new();
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= plan.tickets {
            return Ok(seated);
        }
        let conn = &mut conns[i % 2];
        let body = serde_json::json!({"ruleset": plan.ruleset, "seats": plan.seats, "name": format!("t{i}")});
        let sent = Instant::now();
        let created: CreatedTicket = serde_json::from_slice(
            &call(
                conn,
                Request {
                    method: Method::POST,
                    path: "/v1/tickets",
                    token: None,
                    header: None,
                    body: Some(Bytes::from(body.to_string())),
                },
            )
            .await?,
        )
        .map_err(|e| format!("POST /v1/tickets: {e}"))?;
        let path = format!("/v1/tickets/{}?wait=30", created.id);
        loop {
            if Instant::now() > plan.deadline {
                return Err(format!("ticket {} was not matched in time", created.id));
            }
            let info: TicketInfo = serde_json::from_slice(
                &call(
                    conn,
                    Request {
                        method: Method::GET,
                        path: &path,
                        token: Some(&created.token),
                        header: None,
                        body: None,
                    },
                )
                .await?,
            )
            .map_err(|e| format!("GET {path}: {e}"))?;
            match (info.status, info.game, info.seat) {
                (TicketStatus::Waiting, _, _) => continue,
                (TicketStatus::Matched, Some(game), Some(seat)) => {
                    seated.push(Seated {
                        game,
                        seat: seat.index() as u64,
                        sent,
                        matched: Instant::now(),
                    });
                    break;
                }
                (status, _, _) => return Err(format!("ticket {} ended {status:?}", created.id)),
            }
        }
    }
}

/// Runs the flow: `connections` connections (at least one game's worth, since each holds one
/// waiting ticket at a time) against `servers`.
pub async fn run(
    servers: &[Server],
    plan: TicketPlan,
    connections: usize,
    timeout: Duration,
) -> TicketSummary {
    let plan = Arc::new(plan);
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(connections);
    for _ in 0..connections {
        let conns = (0..2)
            .map(|k| {
                let server = &servers[k % servers.len()];
                Connection::new(server.addr, &server.host, timeout)
            })
            .collect();
        tasks.push(tokio::spawn(worker(conns, Arc::clone(&plan), Arc::clone(&next))));
    }
    let mut failures = Vec::new();
    let mut seated = Vec::new();
    for task in tasks {
        match task.await {
            Ok(Ok(done)) => seated.extend(done),
            Ok(Err(why)) => failures.push(why),
            Err(e) => failures.push(format!("a connection's task ended abnormally: {e}")),
        }
    }
    let elapsed = started.elapsed();
    let mut games: HashMap<&str, Vec<&Seated>> = HashMap::new();
    for s in &seated {
        games.entry(&s.game).or_default().push(s);
    }
    let mut latency = Histogram::<u64>::new_with_bounds(1, 600_000_000, 3).expect("valid bounds");
    for (game, tickets) in &games {
        let mut seats: Vec<u64> = tickets.iter().map(|t| t.seat).collect();
        seats.sort_unstable();
        if seats != (0..plan.seats as u64).collect::<Vec<_>>() {
            failures.push(format!("game {game} seated {seats:?}"));
        }
        let last_sent = tickets.iter().map(|t| t.sent).max().unwrap_or(started);
        for t in tickets {
            let micros = t.matched.saturating_duration_since(last_sent).as_micros();
            latency.saturating_record(u64::try_from(micros).unwrap_or(u64::MAX).max(1));
        }
    }
    if seated.len() != plan.tickets {
        failures.push(format!(
            "{} of {} tickets were matched",
            seated.len(),
            plan.tickets
        ));
    }
    let ms = |q: f64| latency.value_at_quantile(q) as f64 / 1000.0;
    TicketSummary {
        flow: "tickets",
        servers: servers.len(),
        tickets: seated.len(),
        games: games.len(),
        elapsed_secs: elapsed.as_secs_f64(),
        tickets_per_sec: seated.len() as f64 / elapsed.as_secs_f64().max(1e-9),
        last_to_matched_ms_p50: ms(0.5),
        last_to_matched_ms_p99: ms(0.99),
        last_to_matched_ms_max: latency.max() as f64 / 1000.0,
        passed: failures.is_empty(),
        failures,
    }
}
