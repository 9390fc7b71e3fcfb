//! Work due, in memory: the same rules as Redis's (see [`crate::store::DueWork`]).

use std::collections::HashMap;
use std::time::Duration;

use async_trait::async_trait;

use super::MemoryStore;
use crate::store::due::millis;
use crate::store::{DueClaim, DueEnd, DueWork, StoreError, Work};

/// A game's entry in an index.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    /// From when it may be claimed (Unix ms).
    due_ms: u64,
    /// When it was last filed (Unix ms).
    filed_ms: u64,
}

/// Each kind of work's index: its entries by game.
pub(super) type Indexes = HashMap<Work, HashMap<String, Entry>>;

impl MemoryStore {
    fn work_due(&self) -> Result<std::sync::MutexGuard<'_, Indexes>, StoreError> {
        self.due_work
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))
    }
}

impl MemoryStore {
    /// Whether game `id` is filed for `work`.
    pub(super) fn work_filed(&self, work: Work, id: &str) -> Result<bool, StoreError> {
        Ok(self
            .work_due()?
            .get(&work)
            .is_some_and(|entries| entries.contains_key(id)))
    }
}

#[async_trait]
impl DueWork for MemoryStore {
    async fn file_work(&self, work: Work, id: &str, now_ms: u64) -> Result<(), StoreError> {
        self.work_due()?.entry(work).or_default().insert(
            id.to_owned(),
            Entry {
                due_ms: now_ms,
                filed_ms: now_ms,
            },
        );
        Ok(())
    }

    async fn claim_work(
        &self,
        work: Work,
        now_ms: u64,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<DueClaim>, StoreError> {
        let mut indexes = self.work_due()?;
        let entries = indexes.entry(work).or_default();
        let mut due: Vec<(u64, String)> = entries
            .iter()
            .filter(|(_, entry)| entry.due_ms <= now_ms)
            .map(|(id, entry)| (entry.due_ms, id.clone()))
            .collect();
        due.sort();
        let until_ms = now_ms.saturating_add(millis(lease));
        Ok(due
            .into_iter()
            .take(limit)
            .filter_map(|(_, id)| {
                let entry = entries.get_mut(&id)?;
                entry.due_ms = until_ms;
                Some(DueClaim {
                    work,
                    id,
                    at_ms: now_ms,
                    until_ms,
                })
            })
            .collect())
    }

    async fn release_work(&self, claim: &DueClaim, end: DueEnd) -> Result<(), StoreError> {
        let mut indexes = self.work_due()?;
        let entries = indexes.entry(claim.work).or_default();
        let Some(entry) = entries.get_mut(&claim.id) else {
            return Ok(());
        };
        if entry.due_ms != claim.until_ms {
            return Ok(());
        }
        match end {
            DueEnd::Idle { grace } if entry.filed_ms.saturating_add(millis(grace)) > claim.at_ms => {
                entry.due_ms = entry.filed_ms.saturating_add(millis(grace));
            }
            _ => {
                entries.remove(&claim.id);
            }
        }
        Ok(())
    }

    async fn work_backlog(&self, work: Work) -> Result<u64, StoreError> {
        Ok(self
            .work_due()?
            .get(&work)
            .map_or(0, |entries| entries.len() as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Retention;

    const LEASE: Duration = Duration::from_millis(1_000);
    const GRACE: Duration = Duration::from_millis(5_000);

    fn store() -> MemoryStore {
        MemoryStore::new(Retention {
            idle: Duration::from_secs(60),
            finished: Duration::from_secs(60),
        })
    }

    #[tokio::test]
    async fn a_claim_holds_a_turn_for_its_lease_and_a_lapsed_one_is_taken_again() {
        let store = store();
        store.file_work(Work::BotTurn, "g", 100).await.expect("filed");
        assert!(
            store
                .claim_work(Work::BotTurn, 99, LEASE, 10)
                .await
                .expect("claim")
                .is_empty()
        );
        let first = store
            .claim_work(Work::BotTurn, 100, LEASE, 10)
            .await
            .expect("claim");
        assert_eq!(first.len(), 1);
        assert!(
            store
                .claim_work(Work::BotTurn, 1_099, LEASE, 10)
                .await
                .expect("claim")
                .is_empty()
        );
        let again = store
            .claim_work(Work::BotTurn, 1_100, LEASE, 10)
            .await
            .expect("claim");
        assert_eq!(again[0].id, "g");
        // The lapsed claim no longer holds the entry: ending it changes nothing.
        store
            .release_work(&first[0], DueEnd::Done)
            .await
            .expect("released");
        assert!(store.work_due().expect("due")[&Work::BotTurn].contains_key("g"));
        store
            .release_work(&again[0], DueEnd::Done)
            .await
            .expect("released");
        assert!(!store.work_due().expect("due")[&Work::BotTurn].contains_key("g"));
    }

    #[tokio::test]
    async fn a_turn_filed_during_a_claim_stays_due_when_the_claim_ends() {
        let store = store();
        store.file_work(Work::BotTurn, "g", 100).await.expect("filed");
        let claim = store
            .claim_work(Work::BotTurn, 10_000, LEASE, 10)
            .await
            .expect("claim");
        store
            .file_work(Work::BotTurn, "g", 10_050)
            .await
            .expect("filed again");
        store
            .release_work(&claim[0], DueEnd::Done)
            .await
            .expect("released");
        let next = store
            .claim_work(Work::BotTurn, 10_050, LEASE, 10)
            .await
            .expect("claim");
        assert_eq!(next.len(), 1, "the turn filed meanwhile was lost");
    }

    #[tokio::test]
    async fn a_claim_that_wrote_nothing_keeps_a_recent_filing_due_for_the_grace() {
        let store = store();
        store.file_work(Work::BotTurn, "g", 10_000).await.expect("filed");
        let claim = store
            .claim_work(Work::BotTurn, 10_010, LEASE, 10)
            .await
            .expect("claim");
        store
            .release_work(&claim[0], DueEnd::Idle { grace: GRACE })
            .await
            .expect("released");
        assert!(
            store
                .claim_work(Work::BotTurn, 14_999, LEASE, 10)
                .await
                .expect("claim")
                .is_empty()
        );
        let late = store
            .claim_work(Work::BotTurn, 15_000, LEASE, 10)
            .await
            .expect("claim");
        assert_eq!(
            late.len(),
            1,
            "a write filed just before the claim may not have landed"
        );
        store
            .release_work(&late[0], DueEnd::Idle { grace: GRACE })
            .await
            .expect("released");
        assert!(!store.work_due().expect("due")[&Work::BotTurn].contains_key("g"));
    }
}
