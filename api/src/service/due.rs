//! Claiming due work: the one way a sweep of bot turns, archiving or ratings takes what is due in
//! the shards its process holds (leasing any it can now), so that two processes never sweep one
//! shard at once and each claim is leased to one of them.

use std::time::Duration;

use crate::store::{DueClaim, HeldShards, Work};

use super::{Games, now_ms};

impl Games {
    /// Claims up to `limit` entries of `work` due now, shard by shard in `held`'s rotation, each
    /// leased for `lease`. A shard another process holds is passed over; a store error ends the
    /// sweep with what was claimed before it, which the caller must still work.
    pub(super) async fn claim_due(
        &self,
        work: Work,
        held: &mut HeldShards,
        lease: Duration,
        limit: usize,
    ) -> Vec<DueClaim> {
        let mut claims = Vec::new();
        for shard in held.rotation() {
            if claims.len() >= limit {
                break;
            }
            let store = &self.store;
            let mine = held
                .hold(shard, async |holder, shard_lease| {
                    store.lease_due_shard(work, shard, holder, shard_lease).await
                })
                .await;
            let claimed = match mine {
                Ok(true) => {
                    self.store
                        .claim_work(work, shard, now_ms(), lease, limit - claims.len())
                        .await
                }
                Ok(false) => continue,
                Err(e) => Err(e),
            };
            match claimed {
                Ok(more) => claims.extend(more),
                Err(e) => {
                    self.metrics.store_error();
                    tracing::warn!(error = %e, work = ?work, "the work due could not be claimed");
                    break;
                }
            }
        }
        claims
    }
}
