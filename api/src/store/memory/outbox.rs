//! Webhook outboxes in memory, with the due set's rules of the Redis store (one process).

use std::time::Duration;

use async_trait::async_trait;

use super::MemoryStore;
use crate::store::{Claim, Failure, Outbox, OutboxNotice, Pending, StoreError};

/// A game of the due set, in milliseconds since the store's epoch.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Due {
    /// From when it may be claimed.
    at: u64,
    /// When a write last marked it.
    marked: u64,
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl MemoryStore {
    fn now_ms(&self) -> u64 {
        millis(self.epoch.elapsed())
    }

    fn due(&self) -> Result<std::sync::MutexGuard<'_, std::collections::HashMap<String, Due>>, StoreError> {
        self.due
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))
    }
}

#[async_trait]
impl Outbox for MemoryStore {
    async fn mark_due(&self, id: &str) -> Result<(), StoreError> {
        let now = self.now_ms();
        let mut due = self.due()?;
        let entry = due.entry(id.to_owned()).or_default();
        entry.at += 1;
        entry.marked = now;
        Ok(())
    }

    async fn claim_due(&self, limit: usize, lease: Duration) -> Result<Vec<Claim>, StoreError> {
        let now = self.now_ms();
        let lease_until = now.saturating_add(millis(lease).max(1));
        let mut due = self.due()?;
        let mut ready: Vec<(u64, String)> = due
            .iter()
            .filter(|(_, due)| due.at <= now)
            .map(|(game, due)| (due.at, game.clone()))
            .collect();
        ready.sort();
        ready.truncate(limit);
        Ok(ready
            .into_iter()
            .map(|(_, game)| {
                if let Some(entry) = due.get_mut(&game) {
                    entry.at = lease_until;
                }
                Claim { game, lease_until }
            })
            .collect())
    }

    async fn pending(&self, id: &str, limit: usize) -> Result<Option<Pending>, StoreError> {
        let mut games = self.lock()?;
        Ok(Self::live(&mut games, id).and_then(|entry| {
            let webhook = entry.game.webhook.clone()?;
            Some(Pending {
                webhook,
                notices: entry.outbox.iter().take(limit).cloned().collect(),
            })
        }))
    }

    async fn delivered(&self, id: &str, notice: &OutboxNotice) -> Result<(), StoreError> {
        let mut games = self.lock()?;
        if let Some(entry) = Self::live(&mut games, id) {
            entry.outbox.retain(|n| n.id != notice.id);
            entry.outbox_tries.remove(&notice.id);
        }
        Ok(())
    }

    async fn failed(
        &self,
        id: &str,
        notice: &OutboxNotice,
        max_attempts: u32,
    ) -> Result<Failure, StoreError> {
        let mut games = self.lock()?;
        let Some(entry) = Self::live(&mut games, id) else {
            return Ok(Failure {
                attempts: 1,
                dropped: true,
            });
        };
        let attempts = entry.outbox_tries.entry(notice.id.clone()).or_insert(0);
        *attempts += 1;
        let attempts = *attempts;
        let dropped = attempts >= max_attempts.max(1);
        if dropped {
            entry.outbox.retain(|n| n.id != notice.id);
            entry.outbox_tries.remove(&notice.id);
        }
        Ok(Failure { attempts, dropped })
    }

    async fn release(
        &self,
        claim: &Claim,
        lease: Duration,
        retry_in: Option<Duration>,
        grace: Duration,
    ) -> Result<(), StoreError> {
        let now = self.now_ms();
        let mut due = self.due()?;
        let (score, marked) = match due.get(&claim.game) {
            Some(entry) => (Some(entry.at), entry.marked),
            None => (None, 0),
        };
        if score.is_some_and(|s| s >= claim.lease_until.saturating_add(millis(lease).max(1))) {
            return Ok(());
        }
        let grace = millis(grace);
        let at = match retry_in {
            Some(delay) => now.saturating_add(millis(delay)),
            None if score == Some(claim.lease_until) && now.saturating_sub(marked) >= grace => {
                due.remove(&claim.game);
                return Ok(());
            }
            None if score == Some(claim.lease_until) => marked.saturating_add(grace),
            None => now,
        };
        due.entry(claim.game.clone()).or_default().at = at;
        Ok(())
    }
}
