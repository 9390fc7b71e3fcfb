//! Bot turns due, in memory: the same rules as Redis's (see [`crate::store::BotTurns`]).

use std::time::Duration;

use async_trait::async_trait;

use super::MemoryStore;
use crate::store::bot_turns::millis;
use crate::store::{BotTurns, StoreError, TurnClaim, TurnEnd};

/// A game's entry in the index.
#[derive(Clone, Copy, Debug)]
pub(super) struct Turn {
    /// From when it may be claimed (Unix ms).
    due_ms: u64,
    /// When it was last filed (Unix ms).
    filed_ms: u64,
}

impl MemoryStore {
    fn turns(
        &self,
    ) -> Result<std::sync::MutexGuard<'_, std::collections::HashMap<String, Turn>>, StoreError> {
        self.turns
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))
    }
}

#[async_trait]
impl BotTurns for MemoryStore {
    async fn file_turn(&self, id: &str, now_ms: u64) -> Result<(), StoreError> {
        self.turns()?.insert(
            id.to_owned(),
            Turn {
                due_ms: now_ms,
                filed_ms: now_ms,
            },
        );
        Ok(())
    }

    async fn claim_turns(
        &self,
        now_ms: u64,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<TurnClaim>, StoreError> {
        let mut turns = self.turns()?;
        let mut due: Vec<(u64, String)> = turns
            .iter()
            .filter(|(_, turn)| turn.due_ms <= now_ms)
            .map(|(id, turn)| (turn.due_ms, id.clone()))
            .collect();
        due.sort();
        let until_ms = now_ms.saturating_add(millis(lease));
        Ok(due
            .into_iter()
            .take(limit)
            .filter_map(|(_, id)| {
                let turn = turns.get_mut(&id)?;
                turn.due_ms = until_ms;
                Some(TurnClaim {
                    id,
                    at_ms: now_ms,
                    until_ms,
                })
            })
            .collect())
    }

    async fn release_turn(&self, claim: &TurnClaim, end: TurnEnd) -> Result<(), StoreError> {
        let mut turns = self.turns()?;
        let Some(turn) = turns.get_mut(&claim.id) else {
            return Ok(());
        };
        if turn.due_ms != claim.until_ms {
            return Ok(());
        }
        match end {
            TurnEnd::Idle { grace } if turn.filed_ms.saturating_add(millis(grace)) > claim.at_ms => {
                turn.due_ms = turn.filed_ms.saturating_add(millis(grace));
            }
            _ => {
                turns.remove(&claim.id);
            }
        }
        Ok(())
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
        store.file_turn("g", 100).await.expect("filed");
        assert!(store.claim_turns(99, LEASE, 10).await.expect("claim").is_empty());
        let first = store.claim_turns(100, LEASE, 10).await.expect("claim");
        assert_eq!(first.len(), 1);
        assert!(
            store
                .claim_turns(1_099, LEASE, 10)
                .await
                .expect("claim")
                .is_empty()
        );
        let again = store.claim_turns(1_100, LEASE, 10).await.expect("claim");
        assert_eq!(again[0].id, "g");
        // The lapsed claim no longer holds the entry: ending it changes nothing.
        store
            .release_turn(&first[0], TurnEnd::Moved)
            .await
            .expect("released");
        assert!(store.turns().expect("turns").contains_key("g"));
        store
            .release_turn(&again[0], TurnEnd::Moved)
            .await
            .expect("released");
        assert!(!store.turns().expect("turns").contains_key("g"));
    }

    #[tokio::test]
    async fn a_turn_filed_during_a_claim_stays_due_when_the_claim_ends() {
        let store = store();
        store.file_turn("g", 100).await.expect("filed");
        let claim = store.claim_turns(10_000, LEASE, 10).await.expect("claim");
        store.file_turn("g", 10_050).await.expect("filed again");
        store
            .release_turn(&claim[0], TurnEnd::Moved)
            .await
            .expect("released");
        let next = store.claim_turns(10_050, LEASE, 10).await.expect("claim");
        assert_eq!(next.len(), 1, "the turn filed meanwhile was lost");
    }

    #[tokio::test]
    async fn a_claim_that_wrote_nothing_keeps_a_recent_filing_due_for_the_grace() {
        let store = store();
        store.file_turn("g", 10_000).await.expect("filed");
        let claim = store.claim_turns(10_010, LEASE, 10).await.expect("claim");
        store
            .release_turn(&claim[0], TurnEnd::Idle { grace: GRACE })
            .await
            .expect("released");
        assert!(
            store
                .claim_turns(14_999, LEASE, 10)
                .await
                .expect("claim")
                .is_empty()
        );
        let late = store.claim_turns(15_000, LEASE, 10).await.expect("claim");
        assert_eq!(
            late.len(),
            1,
            "a write filed just before the claim may not have landed"
        );
        store
            .release_turn(&late[0], TurnEnd::Idle { grace: GRACE })
            .await
            .expect("released");
        assert!(!store.turns().expect("turns").contains_key("g"));
    }
}
