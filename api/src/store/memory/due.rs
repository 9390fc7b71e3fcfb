//! Work due, in memory: the same rules as Redis's (see [`crate::store::DueWork`]), one map for
//! each kind of work whose entries are in their game's shard by id, and the sweepers' leases.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use async_trait::async_trait;

use super::MemoryStore;
use crate::store::due::millis;
use crate::store::{DueClaim, DueEnd, DueWork, StoreError, Work, due_shard};

/// A game's entry in an index.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    /// From when it may be claimed (Unix ms).
    due_ms: u64,
    /// When it was last filed (Unix ms).
    filed_ms: u64,
}

/// Each kind of work's index (its entries by game), and the sweepers' leases on shards.
#[derive(Debug, Default)]
pub(super) struct Indexes {
    entries: HashMap<Work, HashMap<String, Entry>>,
    /// Until when each shard is leased, by index (`bots`, `archive`, `clocks`, `mm`, `webhooks`)
    /// and shard.
    leases: HashMap<(&'static str, u16), Instant>,
}

impl Indexes {
    /// Takes the lease on `shard` of index `index` for `lease` unless it is held.
    fn lease(&mut self, index: &'static str, shard: u16, lease: Duration) -> bool {
        let now = Instant::now();
        if self.leases.get(&(index, shard)).is_some_and(|until| *until > now) {
            return false;
        }
        self.leases.insert((index, shard), now + lease);
        true
    }
}

impl MemoryStore {
    fn work_due(&self) -> Result<std::sync::MutexGuard<'_, Indexes>, StoreError> {
        self.due_work
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))
    }
}

impl MemoryStore {
    /// Takes the lease on `shard` of index `index` for `lease` unless it is held.
    pub(super) fn lease_index(
        &self,
        index: &'static str,
        shard: u16,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        Ok(self.work_due()?.lease(index, shard, lease))
    }

    /// Whether game `id` is filed for `work`.
    pub(super) fn work_filed(&self, work: Work, id: &str) -> Result<bool, StoreError> {
        Ok(self
            .work_due()?
            .entries
            .get(&work)
            .is_some_and(|entries| entries.contains_key(id)))
    }
}

#[async_trait]
impl DueWork for MemoryStore {
    async fn file_work(&self, work: Work, id: &str, now_ms: u64) -> Result<(), StoreError> {
        self.work_due()?.entries.entry(work).or_default().insert(
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
        shard: u16,
        now_ms: u64,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<DueClaim>, StoreError> {
        let mut indexes = self.work_due()?;
        let entries = indexes.entries.entry(work).or_default();
        let mut due: Vec<(u64, String)> = entries
            .iter()
            .filter(|(id, entry)| entry.due_ms <= now_ms && due_shard(id) == shard)
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
                    shard,
                    at_ms: now_ms,
                    until_ms,
                })
            })
            .collect())
    }

    async fn release_work(&self, claim: &DueClaim, end: DueEnd) -> Result<(), StoreError> {
        let mut indexes = self.work_due()?;
        let entries = indexes.entries.entry(claim.work).or_default();
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
            .entries
            .get(&work)
            .map_or(0, |entries| entries.len() as u64))
    }

    async fn lease_due_shard(
        &self,
        work: Work,
        shard: u16,
        _holder: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        Ok(self.work_due()?.lease(work.name(), shard, lease))
    }

    async fn lease_clock_shard(
        &self,
        shard: u16,
        _holder: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        Ok(self.work_due()?.lease("clocks", shard, lease))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{ActiveGames, HeldShards, Retention};

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
                .claim_work(Work::BotTurn, due_shard("g"), 99, LEASE, 10)
                .await
                .expect("claim")
                .is_empty()
        );
        let first = store
            .claim_work(Work::BotTurn, due_shard("g"), 100, LEASE, 10)
            .await
            .expect("claim");
        assert_eq!(first.len(), 1);
        assert!(
            store
                .claim_work(Work::BotTurn, due_shard("g"), 1_099, LEASE, 10)
                .await
                .expect("claim")
                .is_empty()
        );
        let again = store
            .claim_work(Work::BotTurn, due_shard("g"), 1_100, LEASE, 10)
            .await
            .expect("claim");
        assert_eq!(again[0].id, "g");
        // The lapsed claim no longer holds the entry: ending it changes nothing.
        store
            .release_work(&first[0], DueEnd::Done)
            .await
            .expect("released");
        assert!(store.work_due().expect("due").entries[&Work::BotTurn].contains_key("g"));
        store
            .release_work(&again[0], DueEnd::Done)
            .await
            .expect("released");
        assert!(!store.work_due().expect("due").entries[&Work::BotTurn].contains_key("g"));
    }

    #[tokio::test]
    async fn a_turn_filed_during_a_claim_stays_due_when_the_claim_ends() {
        let store = store();
        store.file_work(Work::BotTurn, "g", 100).await.expect("filed");
        let claim = store
            .claim_work(Work::BotTurn, due_shard("g"), 10_000, LEASE, 10)
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
            .claim_work(Work::BotTurn, due_shard("g"), 10_050, LEASE, 10)
            .await
            .expect("claim");
        assert_eq!(next.len(), 1, "the turn filed meanwhile was lost");
    }

    #[tokio::test]
    async fn a_claim_that_wrote_nothing_keeps_a_recent_filing_due_for_the_grace() {
        let store = store();
        store.file_work(Work::BotTurn, "g", 10_000).await.expect("filed");
        let claim = store
            .claim_work(Work::BotTurn, due_shard("g"), 10_010, LEASE, 10)
            .await
            .expect("claim");
        store
            .release_work(&claim[0], DueEnd::Idle { grace: GRACE })
            .await
            .expect("released");
        assert!(
            store
                .claim_work(Work::BotTurn, due_shard("g"), 14_999, LEASE, 10)
                .await
                .expect("claim")
                .is_empty()
        );
        let late = store
            .claim_work(Work::BotTurn, due_shard("g"), 15_000, LEASE, 10)
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
        assert!(!store.work_due().expect("due").entries[&Work::BotTurn].contains_key("g"));
    }

    #[tokio::test]
    async fn a_claim_in_one_shard_leaves_the_other_shards_games() {
        let store = store();
        // Ids whose first byte differs by one fall in neighbouring shards.
        let (a, b) = ("00aa", "01bb");
        assert_ne!(due_shard(a), due_shard(b));
        store.file_work(Work::BotTurn, a, 100).await.expect("filed");
        store.file_work(Work::BotTurn, b, 100).await.expect("filed");
        store.file_work(Work::Archive, a, 100).await.expect("filed");
        let claims = store
            .claim_work(Work::BotTurn, due_shard(a), 200, LEASE, 10)
            .await
            .expect("claim");
        assert_eq!(claims.len(), 1);
        assert_eq!((claims[0].id.as_str(), claims[0].shard), (a, due_shard(a)));
        let other = store
            .claim_work(Work::BotTurn, due_shard(b), 200, LEASE, 10)
            .await
            .expect("claim");
        assert_eq!(other.len(), 1, "the other shard's game was taken");
        assert_eq!(other[0].id, b);
        assert_eq!(store.work_backlog(Work::BotTurn).await.expect("backlog"), 2);
        assert!(store.is_due(Work::BotTurn, a).await.expect("due"));
        store
            .release_work(&claims[0], DueEnd::Done)
            .await
            .expect("released");
        assert!(!store.is_due(Work::BotTurn, a).await.expect("due"));
        assert!(store.is_due(Work::BotTurn, b).await.expect("due"));
        assert_eq!(store.work_backlog(Work::BotTurn).await.expect("backlog"), 1);
        // The other kind of work is an index of its own.
        assert_eq!(store.work_backlog(Work::Archive).await.expect("backlog"), 1);
    }

    #[tokio::test]
    async fn a_shard_leased_by_one_holder_is_refused_to_another_until_the_lease_lapses() {
        let store = store();
        let lease = Duration::from_millis(150);
        assert!(
            store
                .lease_due_shard(Work::BotTurn, 3, "a", lease)
                .await
                .expect("lease")
        );
        assert!(
            !store
                .lease_due_shard(Work::BotTurn, 3, "b", lease)
                .await
                .expect("lease")
        );
        // Other shards, other kinds of work and the clocks' shards are leased apart.
        assert!(
            store
                .lease_due_shard(Work::BotTurn, 4, "b", lease)
                .await
                .expect("lease")
        );
        assert!(
            store
                .lease_due_shard(Work::Archive, 3, "b", lease)
                .await
                .expect("lease")
        );
        assert!(store.lease_clock_shard(3, "b", lease).await.expect("lease"));
        assert!(!store.lease_clock_shard(3, "a", lease).await.expect("lease"));
        tokio::time::sleep(lease + Duration::from_millis(20)).await;
        assert!(
            store
                .lease_due_shard(Work::BotTurn, 3, "b", lease)
                .await
                .expect("lease")
        );
        assert!(
            !store
                .lease_due_shard(Work::BotTurn, 3, "a", lease)
                .await
                .expect("lease")
        );
    }

    #[tokio::test]
    async fn held_shards_take_a_lease_once_and_sweep_under_it_until_it_nears_its_end() {
        let store = store();
        let mut mine = HeldShards::new(Duration::from_millis(200));
        let mut theirs = HeldShards::new(Duration::from_millis(200));
        let take = async |held: &mut HeldShards, shard| {
            held.hold(shard, async |holder, lease| {
                store.lease_due_shard(Work::BotTurn, shard, holder, lease).await
            })
            .await
            .expect("lease")
        };
        assert!(take(&mut mine, 5).await);
        assert!(take(&mut mine, 5).await, "a lease taken is swept under");
        assert!(!take(&mut theirs, 5).await);
        tokio::time::sleep(Duration::from_millis(220)).await;
        assert!(take(&mut theirs, 5).await, "a lapsed lease is anyone's");
        assert!(!take(&mut mine, 5).await);
        let rotation: Vec<u16> = mine.rotation().collect();
        assert_eq!(rotation.len(), usize::from(crate::store::due_shards()));
        assert_ne!(mine.rotation().next(), Some(rotation[0]));
    }
}
