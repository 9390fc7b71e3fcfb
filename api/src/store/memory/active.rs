//! The sets of active games, in memory: the same rules as Redis's (see
//! [`crate::store::ActiveGames`]), one set for every shard.

use std::time::{Duration, Instant};

use async_trait::async_trait;

use super::MemoryStore;
use crate::store::active::{ActiveGames, ActivePage, shard_of};
use crate::store::{ACTIVE_SHARDS, StoreError, Work};

impl MemoryStore {
    fn active(&self) -> Result<std::sync::MutexGuard<'_, super::ActiveSets>, StoreError> {
        self.active
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))
    }
}

#[async_trait]
impl ActiveGames for MemoryStore {
    async fn track(&self, id: &str) -> Result<(), StoreError> {
        self.active()?.games.insert(id.to_owned());
        Ok(())
    }

    async fn untrack(&self, id: &str) -> Result<(), StoreError> {
        self.active()?.games.remove(id);
        Ok(())
    }

    async fn active_page(&self, shard: u16, _cursor: u64, _count: usize) -> Result<ActivePage, StoreError> {
        let ids = self
            .active()?
            .games
            .iter()
            .filter(|id| shard_of(id, ACTIVE_SHARDS) == shard)
            .cloned()
            .collect();
        Ok(ActivePage { cursor: 0, ids })
    }

    async fn lease_shard(&self, shard: u16, holder: &str, lease: Duration) -> Result<bool, StoreError> {
        let mut active = self.active()?;
        let now = Instant::now();
        if active
            .leases
            .get(&shard)
            .is_some_and(|(by, until)| *until > now && by != holder)
        {
            return Ok(false);
        }
        active.leases.insert(shard, (holder.to_owned(), now + lease));
        Ok(true)
    }

    async fn is_due(&self, work: Work, id: &str) -> Result<bool, StoreError> {
        self.work_filed(work, id)
    }

    async fn clock_filed(&self, id: &str) -> Result<bool, StoreError> {
        Ok(self.clocks()?.contains_key(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Retention;

    #[tokio::test]
    async fn a_shards_lease_is_renewed_by_its_holder_and_refused_to_another_until_it_lapses() {
        let store = MemoryStore::new(Retention {
            idle: Duration::from_secs(60),
            finished: Duration::from_secs(60),
        });
        let lease = Duration::from_millis(200);
        assert!(store.lease_shard(3, "a", lease).await.expect("lease"));
        assert!(
            store.lease_shard(3, "a", lease).await.expect("renewed"),
            "its holder keeps it"
        );
        assert!(
            !store.lease_shard(3, "b", lease).await.expect("lease"),
            "another waits"
        );
        assert!(store.lease_shard(4, "b", lease).await.expect("another shard"));
        tokio::time::sleep(Duration::from_millis(250)).await;
        assert!(
            store.lease_shard(3, "b", lease).await.expect("lapsed"),
            "a lapsed lease is free"
        );
    }
}
