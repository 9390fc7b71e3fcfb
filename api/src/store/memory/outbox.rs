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
        match due.get_mut(id) {
            Some(entry) => {
                entry.at += 1;
                entry.marked = now;
            }
            None => {
                due.insert(id.to_owned(), Due { at: now, marked: now });
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Retention;

    fn store() -> MemoryStore {
        MemoryStore::new(Retention {
            idle: Duration::from_secs(60),
            finished: Duration::from_secs(60),
        })
    }

    const LEASE: Duration = Duration::from_secs(30);

    async fn claimed(store: &MemoryStore) -> Vec<String> {
        let claims = store.claim_due(10, LEASE).await.expect("claim");
        claims.into_iter().map(|c| c.game).collect()
    }

    #[tokio::test]
    async fn a_claimed_game_is_nobody_elses_until_released_even_when_marked_again() {
        let store = store();
        store.mark_due("g").await.expect("mark");
        let claims = store.claim_due(10, LEASE).await.expect("claim");
        assert_eq!(claims.len(), 1);
        assert!(claimed(&store).await.is_empty(), "claimed twice");
        store.mark_due("g").await.expect("mark");
        assert!(claimed(&store).await.is_empty(), "a mark broke the lease");
        // Released with an empty outbox: the mark during the lease makes it due at once.
        store
            .release(&claims[0], LEASE, None, Duration::ZERO)
            .await
            .expect("release");
        assert_eq!(claimed(&store).await, ["g"]);
    }

    #[tokio::test]
    async fn an_empty_outbox_keeps_its_game_due_while_a_write_marked_just_before_may_land() {
        let store = store();
        let grace = Duration::from_millis(200);
        store.mark_due("g").await.expect("mark");
        let claims = store.claim_due(10, LEASE).await.expect("claim");
        store
            .release(&claims[0], LEASE, None, grace)
            .await
            .expect("release");
        assert!(claimed(&store).await.is_empty(), "due again before the grace");
        tokio::time::sleep(grace + Duration::from_millis(50)).await;
        let claims = store.claim_due(10, LEASE).await.expect("claim");
        assert_eq!(claims.len(), 1, "the game was dropped within the grace");
        store
            .release(&claims[0], LEASE, None, grace)
            .await
            .expect("release");
        tokio::time::sleep(grace + Duration::from_millis(50)).await;
        assert!(claimed(&store).await.is_empty(), "an empty outbox stays due");
    }

    #[tokio::test]
    async fn a_failed_game_is_due_again_after_its_delay() {
        let store = store();
        store.mark_due("g").await.expect("mark");
        let claims = store.claim_due(10, LEASE).await.expect("claim");
        let delay = Duration::from_millis(100);
        store
            .release(&claims[0], LEASE, Some(delay), Duration::ZERO)
            .await
            .expect("release");
        assert!(claimed(&store).await.is_empty());
        tokio::time::sleep(delay + Duration::from_millis(50)).await;
        assert_eq!(claimed(&store).await, ["g"]);
    }
}
