//! Self-repair: a periodic sweep (and one at start) that puts back the due entries a game needs
//! and lacks, so that a lost entry (a failover that dropped the index's last writes, say) never
//! leaves a game waiting forever.
//!
//! Each game is tracked from its creation in the sets of active games, walked a page at a time
//! with `SSCAN`; each shard is swept by one process per period, under a lease. For each game the
//! sweep reads the state and asks the indexes:
//! - a bot that searches is to act, and the game is not filed as a bot turn: it is filed;
//! - a clock runs, and the game is not in the index of clocks: it is filed at its deadline;
//! - the game is over and rated, its ratings are not in it, and it is not filed for them: it is
//!   filed;
//! - the game is over (and rated, if it is rated), an archive is configured, the game is not filed
//!   for it and the archive does not hold it: it is filed;
//! - the game is over and nothing is left to do for it (or it is gone): it stops being tracked.
//!
//! Filing is harmless when it was not needed (an entry early or twice is found to have nothing to
//! do), so a repair never needs to know why the entry was missing. Each repair is logged and
//! counted (`roadie_repairs_total{kind}`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::store::{ACTIVE_SHARDS, StoreError, Work};
use crate::table::bots::turn_due;
use crate::table::{Clock, Table};

use super::{Games, now_ms};

/// Games read per page of a shard.
const PAGE: usize = 200;

/// What a sweep found and did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sweep {
    /// Shards swept (those another process held were left to it).
    pub shards: u16,
    /// Games looked at.
    pub games: u64,
    /// Due entries put back.
    pub repairs: u64,
    /// Games no longer tracked.
    pub untracked: u64,
}

/// What one game needs that it lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repair {
    /// A bot turn's entry.
    BotTurn,
    /// A clock's entry, at this deadline.
    Clock(u64),
    /// An archive entry.
    Archive,
    /// A rating entry.
    Rating,
}

impl Repair {
    /// The `kind` label of its count.
    pub fn kind(self) -> &'static str {
        match self {
            Repair::BotTurn => "bot_turn",
            Repair::Clock(_) => "clock",
            Repair::Archive => "archive",
            Repair::Rating => "rating",
        }
    }
}

impl Games {
    /// One sweep of every shard this process can lease for `period`.
    pub async fn reconcile(&self, holder: &str, period: Duration) -> Result<Sweep, StoreError> {
        let mut sweep = Sweep::default();
        for shard in 0..ACTIVE_SHARDS {
            if !self.store.lease_shard(shard, holder, period).await? {
                continue;
            }
            sweep.shards += 1;
            let mut cursor = 0;
            loop {
                let page = self.store.active_page(shard, cursor, PAGE).await?;
                for id in &page.ids {
                    sweep.games += 1;
                    match self.reconcile_game(id).await? {
                        Some(repairs) => sweep.repairs += repairs,
                        None => {
                            self.store.untrack(id).await?;
                            sweep.untracked += 1;
                        }
                    }
                }
                cursor = page.cursor;
                if cursor == 0 {
                    break;
                }
            }
        }
        Ok(sweep)
    }

    /// Puts back what game `id` lacks: how many entries; `None` when it needs nothing more.
    async fn reconcile_game(&self, id: &str) -> Result<Option<u64>, StoreError> {
        let (Some(table), _) = self.store.load(id, None).await? else {
            return Ok(None);
        };
        let mut repairs = 0;
        for repair in self.needed(&table).await? {
            match repair {
                Repair::BotTurn => {
                    self.store.file_work(Work::BotTurn, id, now_ms()).await?;
                    self.bots.wake();
                }
                Repair::Clock(deadline) => self.store.schedule_clock(id, deadline, true).await?,
                Repair::Archive => self.store.file_work(Work::Archive, id, now_ms()).await?,
                Repair::Rating => self.store.file_work(Work::Rate, id, now_ms()).await?,
            }
            tracing::warn!(game = %id, kind = repair.kind(), "a game lacked a due entry; it was put back");
            self.metrics.repaired(repair.kind());
            repairs += 1;
        }
        let done = table.is_over()
            && !table.awaits_rating()
            && (self.archiving.is_none() || self.archived(id).await?);
        Ok((!done).then_some(repairs))
    }

    /// The entries `table` lacks.
    async fn needed(&self, table: &Table) -> Result<Vec<Repair>, StoreError> {
        let id = table.id.as_str();
        let mut needed = Vec::new();
        if turn_due(table).is_some() && !self.store.is_due(Work::BotTurn, id).await? {
            needed.push(Repair::BotTurn);
        }
        if !table.is_over()
            && let Some(deadline) = table.clock.as_ref().and_then(Clock::earliest)
            && !self.store.clock_filed(id).await?
        {
            needed.push(Repair::Clock(deadline));
        }
        if table.awaits_rating() && !self.store.is_due(Work::Rate, id).await? {
            needed.push(Repair::Rating);
        }
        if table.is_over()
            && !table.awaits_rating()
            && self.archiving.is_some()
            && !self.store.is_due(Work::Archive, id).await?
            && !self.archived(id).await?
        {
            needed.push(Repair::Archive);
        }
        Ok(needed)
    }

    /// Whether the archive holds game `id` (an archive that does not answer: not yet).
    async fn archived(&self, id: &str) -> Result<bool, StoreError> {
        let Some(archiving) = &self.archiving else {
            return Ok(false);
        };
        Ok(archiving.archive.has(id).await.unwrap_or(false))
    }
}

/// Starts this process's reconciler: a sweep at start, then one every `period`.
pub fn spawn_reconciler(games: Arc<Games>, period: Duration) {
    let holder = format!("{}:{}", std::process::id(), rand::random::<u32>());
    actix_web::rt::spawn(async move {
        loop {
            let started = Instant::now();
            match games.reconcile(&holder, period).await {
                Ok(sweep) => {
                    tracing::info!(
                        shards = sweep.shards,
                        games = sweep.games,
                        repairs = sweep.repairs,
                        untracked = sweep.untracked,
                        ms = started.elapsed().as_millis() as u64,
                        "reconciled"
                    );
                }
                Err(e) => {
                    tracing::warn!(error = %e, "the reconciler's sweep failed; it sweeps again next period")
                }
            }
            tokio::time::sleep(period.saturating_sub(started.elapsed())).await;
        }
    });
}
