//! The clock sweep: each process reads the shards of the store's index of clocks it holds a lease
//! on (taken for two sweep periods, so that two processes never sweep one shard at once) and
//! writes the timeouts of each game due through the one write path, so exactly one process plays
//! each timeout.

use std::sync::Arc;
use std::time::Duration;

use crate::store::HeldShards;
use crate::table::{Code, Expire, GameId, Refusal};

use super::write::{Start, Written};
use super::{Games, now_ms};

/// How many due games one sweep reads at most.
const SWEEP_BATCH: usize = 100;

/// What one look at a due game did.
#[derive(Debug, PartialEq, Eq)]
pub enum Expiry {
    /// Timeouts were written: this many events.
    Played(usize),
    /// Nothing was due yet: the index entry was moved on.
    NotDue,
    /// The game is gone, over or has no clock: its entry was removed.
    Dropped,
}

impl Games {
    /// Looks at game `id`, filed as due in the index of clocks, at `now`: writes its timeouts
    /// if any came due, and moves or removes its entry.
    pub async fn expire(&self, id: &str) -> Result<Expiry, Refusal> {
        let Ok(game) = GameId::parse(id) else {
            self.counted(self.store.unschedule_clock(id).await)?;
            return Ok(Expiry::Dropped);
        };
        match self.write(&game, &Expire, Start::Fresh, None).await {
            Ok(Written::Applied { next, events, .. }) => {
                tracing::info!(game = %id, version = next.revision.number, events = events.len(), "a clock ran out; its timeout was played");
                if next.is_over() {
                    self.counted(self.store.unschedule_clock(id).await)?;
                }
                Ok(Expiry::Played(events.len()))
            }
            Ok(Written::Unchanged(table)) => {
                let look = match &table.clock {
                    Some(clock) if !table.is_over() => clock.next_look(now_ms()),
                    _ => None,
                };
                match look {
                    Some(at) => {
                        self.counted(self.store.schedule_clock(id, at, false).await)?;
                        Ok(Expiry::NotDue)
                    }
                    None => {
                        self.counted(self.store.unschedule_clock(id).await)?;
                        Ok(Expiry::Dropped)
                    }
                }
            }
            Ok(Written::Replayed { .. }) => Err(Refusal::internal()),
            Err(refusal) if refusal.code() == Code::GameNotFound => {
                self.counted(self.store.unschedule_clock(id).await)?;
                Ok(Expiry::Dropped)
            }
            Err(refusal) => Err(refusal),
        }
    }

    /// One sweep: in every shard of the index of clocks this process holds (or can lease now),
    /// every game due now (at most [`SWEEP_BATCH`] a shard); how many had timeouts played.
    pub async fn sweep(&self, held: &mut HeldShards) -> Result<usize, Refusal> {
        let mut played = 0;
        for shard in held.rotation() {
            let store = &self.store;
            let mine = held
                .hold(shard, async |holder, lease| {
                    store.lease_clock_shard(shard, holder, lease).await
                })
                .await;
            if !self.counted(mine)? {
                continue;
            }
            let due = self.counted(self.store.due_clocks(shard, now_ms(), SWEEP_BATCH).await)?;
            for id in &due {
                match self.expire(id).await {
                    Ok(Expiry::Played(_)) => played += 1,
                    Ok(_) => {}
                    Err(e) => tracing::warn!(game = %id, error = %e, "could not look at a due clock"),
                }
            }
        }
        Ok(played)
    }
}

/// Sweeps every `interval`, for as long as the process runs, under shard leases of twice that.
pub fn spawn_sweeper(games: Arc<Games>, interval: Duration) {
    actix_web::rt::spawn(async move {
        let mut held = HeldShards::new(interval * 2);
        let mut tick = tokio::time::interval(interval);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if let Err(e) = games.sweep(&mut held).await {
                tracing::warn!(error = %e, "the clock sweep could not read the store");
            }
        }
    });
}
