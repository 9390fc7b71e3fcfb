//! The bot workers: every process claims the bot turns due in the store ([`crate::store::DueWork`])
//! and plays them apart from any request, through the one write path, so that a person's post
//! never waits for a bot that searches, and each move is written exactly once whichever process
//! chose it or died choosing it. The same workers answer hints.
//!
//! A decision runs on a bot thread, never on an HTTP worker, at the lowest CPU priority, and each
//! process runs at most [`BotConfig::workers`] at once.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use roadie_engine::{AnyGame, BotLevel, Budget, Seat};
use serde_json::value::RawValue;
use tokio::sync::{Notify, Semaphore};

use crate::store::{DueClaim, DueEnd, HeldShards, Quota, Work};
use crate::table::bots::{guarded, turn_due};
use crate::table::{BotMove, Code, GameId, Pass, Refusal};
use crate::wire::hints::{ConsideredAction, Hint};

use super::write::{Start, Written};
use super::{Games, now_ms};

/// How many of the actions it weighed a hint lists.
const MAX_CONSIDERED: usize = 5;

/// How often the workers' loop reads the backlog of bot turns for the metrics, at most.
const BACKLOG_EVERY: Duration = Duration::from_secs(1);

/// How bots that search are played, and hints given.
#[derive(Clone, Copy, Debug)]
pub struct BotConfig {
    /// How many decisions (moves and hints) one process runs at once.
    pub workers: usize,
    /// How long the expert may think about one decision, at most.
    pub expert_time: Duration,
    /// How many search iterations the expert runs for one decision, at most.
    pub expert_iterations: u32,
    /// How long a process holds a claimed turn before another may take it.
    pub lease: Duration,
    /// How often each process looks for turns due besides those its own writes file.
    pub sweep: Duration,
    /// Within how long any write has landed or failed: a claim that wrote nothing keeps a game
    /// filed more recently due.
    pub write_grace: Duration,
    /// How many hints one seat may ask for (`None`: no limit).
    pub hints: Option<Quota>,
}

impl Default for BotConfig {
    fn default() -> Self {
        Self {
            workers: 2,
            expert_time: roadie_engine::search::DEFAULT_TIME,
            expert_iterations: roadie_engine::search::DEFAULT_ITERATIONS,
            lease: Duration::from_secs(10),
            sweep: Duration::from_millis(250),
            write_grace: Duration::from_secs(5),
            hints: Some(Quota {
                per_second: 0.5,
                burst: 5,
            }),
        }
    }
}

impl BotConfig {
    /// The expert's budget for one decision.
    pub fn budget(&self) -> Budget {
        Budget {
            iterations: self.expert_iterations.max(1),
            time: Some(self.expert_time),
            ..Budget::DEFAULT
        }
    }
}

/// The workers' shared state in one process.
pub(crate) struct BotWorkers {
    pub(crate) config: BotConfig,
    /// One permit per decision that may run at once.
    permits: Arc<Semaphore>,
    /// Woken when this process filed a turn or a decision ended.
    wake: Notify,
    /// The threads that run decisions, started with the first.
    pool: std::sync::OnceLock<Pool>,
}

impl BotWorkers {
    pub(crate) fn new(config: BotConfig) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(config.workers.max(1))),
            config,
            wake: Notify::new(),
            pool: std::sync::OnceLock::new(),
        }
    }

    /// Wakes this process's workers: a turn is due.
    pub(crate) fn wake(&self) {
        self.wake.notify_one();
    }
}

/// A decision to run on a bot thread.
type Job = Box<dyn FnOnce() + Send>;

/// Puts the calling thread at the lowest CPU priority there is. On Linux that is the `SCHED_IDLE`
/// policy: a thread of any other policy that wakes takes the core from it at once, where a thread
/// at niceness 19 keeps the core until the scheduler's next tick and so adds milliseconds to a
/// request's answer. Elsewhere, or where the policy is refused, the lowest niceness.
fn lowest_priority() -> Result<(), thread_priority::Error> {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::unix::{
            NormalThreadSchedulePolicy, ThreadSchedulePolicy, set_thread_priority_and_policy,
            thread_native_id,
        };
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        if set_thread_priority_and_policy(thread_native_id(), thread_priority::ThreadPriority::Min, idle)
            .is_ok()
        {
            return Ok(());
        }
    }
    thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min)
}

/// The threads that run decisions: apart from the HTTP workers and at the lowest CPU priority
/// ([`lowest_priority`]), so that a search takes only the CPU the requests leave.
struct Pool {
    jobs: std::sync::mpsc::Sender<Job>,
}

impl Pool {
    fn start(threads: usize) -> Self {
        let (sender, receiver) = std::sync::mpsc::channel::<Job>();
        let receiver = Arc::new(std::sync::Mutex::new(receiver));
        for n in 0..threads {
            let receiver = receiver.clone();
            let started = std::thread::Builder::new()
                .name(format!("roadie-bot-{n}"))
                .spawn(move || {
                    if let Err(e) = lowest_priority() {
                        tracing::warn!(error = ?e, "a bot thread runs at the normal priority");
                    }
                    loop {
                        let job = match receiver.lock() {
                            Ok(jobs) => jobs.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                });
            if let Err(e) = started {
                tracing::error!(error = %e, "a bot thread could not start");
            }
        }
        Self { jobs: sender }
    }
}

impl BotWorkers {
    /// `work` run on a bot thread within a permit: its answer, or `500` if it panicked.
    async fn decide<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refusal> {
        let pool = self.pool.get_or_init(|| Pool::start(self.config.workers.max(1)));
        let _permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Refusal::internal())?;
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = answer.send(guarded(work));
        });
        if pool.jobs.send(job).is_err() {
            tracing::error!("the bot threads are gone");
            return Err(Refusal::internal());
        }
        match answered.await {
            Ok(Ok(answer)) => Ok(answer),
            _ => {
                tracing::error!("a bot's decision panicked");
                Err(Refusal::internal())
            }
        }
    }
}

impl Games {
    /// The move of the bot in `seat` of `game`, chosen on a worker thread: it reads only what
    /// the seat may know (see [`AnyGame::bot_action_within`]).
    async fn choose(&self, game: &AnyGame, seat: Seat, level: BotLevel) -> Result<Box<RawValue>, Refusal> {
        let game = game.clone();
        let budget = self.bots.config.budget();
        let (chosen, took) = self
            .bots
            .decide(move || {
                let mut rng = rand::rngs::StdRng::from_os_rng();
                let started = Instant::now();
                let chosen = game.bot_action_within(seat, level, budget, &mut rng);
                (chosen, started.elapsed())
            })
            .await?;
        self.metrics.bot_decided(level, took);
        chosen.ok_or_else(|| {
            tracing::error!(seat = seat.index(), "a bot to act found no legal action");
            Refusal::internal()
        })
    }

    /// Plays the bot turn of game `id` if one is due: `true` when this call wrote its move.
    async fn play_turn(&self, id: &str) -> Result<bool, Refusal> {
        let Ok(game) = GameId::parse(id) else {
            return Ok(false);
        };
        let table = match self.fresh(&game).await {
            Ok(table) => table,
            Err(refusal) if refusal.code() == Code::GameNotFound => return Ok(false),
            Err(refusal) => return Err(refusal),
        };
        let Some((seat, level)) = turn_due(&table) else {
            return Ok(false);
        };
        let action = self.choose(&table.game, seat, level).await?;
        let change = BotMove {
            seat,
            revision: table.revision,
            action,
        };
        match self.write(&game, &change, Start::Fresh, None).await {
            Ok(Written::Applied { next, events, .. }) => {
                tracing::debug!(game = %id, seat = seat.index(), version = next.revision.number, events = events.len(), "a bot played");
                Ok(true)
            }
            Ok(_) => Ok(false),
            Err(refusal) if matches!(refusal.code(), Code::VersionMismatch | Code::GameNotFound) => Ok(false),
            Err(refusal) => Err(refusal),
        }
    }

    /// Plays a claimed turn and ends the claim.
    async fn work_claim(&self, claim: DueClaim) {
        let end = match self.play_turn(&claim.id).await {
            Ok(true) => {
                self.metrics
                    .bot_lag(Duration::from_millis(now_ms().saturating_sub(claim.at_ms)));
                DueEnd::Done
            }
            Ok(false) => DueEnd::Idle {
                grace: self.bots.config.write_grace,
            },
            Err(refusal) => {
                tracing::warn!(game = %claim.id, error = %refusal, "a bot turn could not be played; it is due again when its lease runs out");
                return;
            }
        };
        if let Err(e) = self.store.release_work(&claim, end).await {
            self.metrics.store_error();
            tracing::warn!(game = %claim.id, error = %e, "a bot turn's claim could not be ended; it runs out");
        }
    }

    /// What an expert in the seat of the caller's `pass` would play in game `id` now, and what
    /// else it weighed: `409 not_your_turn` unless the seat may act, `429` past the seat's share
    /// of hints.
    pub async fn hint(&self, id: &GameId, pass: &Pass) -> Result<Hint, Refusal> {
        let started = Instant::now();
        let table = self.read(id).await?;
        let seat = table.seat_of(pass)?;
        if table.is_over() || !table.game.to_act().contains(&seat) {
            return Err(Refusal::new(
                Code::NotYourTurn,
                format!("seat {seat} is not to act: a hint is for a seat that may act"),
            )
            .with_to_act(table.game.to_act()));
        }
        if let Some(quota) = self.bots.config.hints {
            let bucket = format!("hint:{id}:{}", seat.index());
            if let Some(wait) = self.counted(self.store.take_token(&bucket, quota).await)? {
                self.metrics.rate_limited();
                return Err(Refusal::rate_limited(
                    wait.as_secs_f64().ceil() as u64,
                    format!(
                        "seat {seat} asked for hints faster than {} a second (a burst of {})",
                        quota.per_second, quota.burst
                    ),
                ));
            }
        }
        let game = table.game.clone();
        let budget = self.bots.config.budget();
        let considered = self
            .bots
            .decide(move || {
                let mut rng = rand::rngs::StdRng::from_os_rng();
                game.deliberate(seat, budget, &mut rng)
            })
            .await?;
        let mut considered = considered.into_iter().take(MAX_CONSIDERED);
        let Some(best) = considered.next() else {
            return Err(Refusal::new(
                Code::NotYourTurn,
                format!("seat {seat} has nothing to do"),
            ));
        };
        let ruleset = table.game.ruleset().slug;
        self.metrics.hint_served(ruleset, started.elapsed());
        Ok(Hint {
            ruleset: ruleset.into(),
            version: table.revision.number,
            revision: table.revision.to_string(),
            seat,
            action: best.action.clone(),
            level: BotLevel::Expert,
            considered: std::iter::once(best)
                .chain(considered)
                .map(|c| ConsideredAction {
                    action: c.action,
                    share: c.share,
                })
                .collect(),
        })
    }
}

/// Claims and plays the bot turns due, for as long as the process runs: at once when this
/// process files one, and every [`BotConfig::sweep`] for the others'.
pub fn spawn_bot_workers(games: Arc<Games>) {
    actix_web::rt::spawn(async move {
        let config = games.bots.config;
        let mut held = HeldShards::new(config.sweep * 2);
        let mut backlog_read: Option<Instant> = None;
        loop {
            let _ = tokio::time::timeout(config.sweep, games.bots.wake.notified()).await;
            if backlog_read.is_none_or(|at| at.elapsed() >= BACKLOG_EVERY) {
                backlog_read = Some(Instant::now());
                match games.store.work_backlog(Work::BotTurn).await {
                    Ok(turns) => games.metrics.bot_backlog(turns),
                    Err(e) => {
                        games.metrics.store_error();
                        tracing::debug!(error = %e, "could not count the bot turns due");
                    }
                }
            }
            let mut free = games.bots.permits.available_permits();
            if free == 0 {
                continue;
            }
            let claims = games
                .claim_due(Work::BotTurn, &mut held, config.lease, free)
                .await;
            free = free.saturating_sub(claims.len());
            for claim in claims {
                let games = games.clone();
                actix_web::rt::spawn(async move {
                    games.work_claim(claim).await;
                    games.bots.wake();
                });
            }
            if free == 0 {
                games.bots.wake();
            }
        }
    });
}
