//! Indexes of games by owner, in memory: the same order as Redis's (see
//! [`crate::store::Indexes`]).

use std::collections::{BTreeSet, HashMap};
use std::sync::MutexGuard;

use async_trait::async_trait;

use super::MemoryStore;
use crate::store::indexes::after;
use crate::store::{Indexed, Indexes, StoreError};

/// Every index: its entries as (creation time, id).
pub(super) type Sets = HashMap<String, BTreeSet<(u64, String)>>;

impl MemoryStore {
    fn indexes(&self) -> Result<MutexGuard<'_, Sets>, StoreError> {
        self.indexes
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))
    }
}

#[async_trait]
impl Indexes for MemoryStore {
    async fn index(&self, indexes: &[String], id: &str, created_ms: u64) -> Result<(), StoreError> {
        let mut sets = self.indexes()?;
        for index in indexes {
            let set = sets.entry(index.clone()).or_default();
            set.retain(|(_, member)| member != id);
            set.insert((created_ms, id.to_owned()));
        }
        Ok(())
    }

    async fn unindex(&self, index: &str, id: &str) -> Result<(), StoreError> {
        if let Some(set) = self.indexes()?.get_mut(index) {
            set.retain(|(_, member)| member != id);
        }
        Ok(())
    }

    async fn indexed(
        &self,
        index: &str,
        before: Option<&Indexed>,
        limit: usize,
    ) -> Result<Vec<Indexed>, StoreError> {
        let sets = self.indexes()?;
        let Some(set) = sets.get(index) else {
            return Ok(Vec::new());
        };
        Ok(set
            .iter()
            .rev()
            .map(|(created_ms, id)| Indexed {
                id: id.clone(),
                created_ms: *created_ms,
            })
            .filter(|entry| before.is_none_or(|b| after(entry, b)))
            .take(limit)
            .collect())
    }

    async fn indexed_count(&self, index: &str) -> Result<u64, StoreError> {
        Ok(self.indexes()?.get(index).map_or(0, |set| set.len() as u64))
    }
}
