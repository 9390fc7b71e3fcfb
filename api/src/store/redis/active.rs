//! The sets of active games in Redis: `roadie:{active:<shard>}` (a set of game ids per shard),
//! and each shard's reconciler lease `roadie:{active:<shard>}:lease`.

use std::time::Duration;

use async_trait::async_trait;
use redis::aio::ConnectionLike;

use super::due::due;
use super::{RedisStore, clocks_key};
use crate::store::active::{ActiveGames, ActivePage, shard_of};
use crate::store::due::millis;
use crate::store::{ACTIVE_SHARDS, StoreError, Work, due_shard};

/// Takes a shard's lease for a holder, or renews it when the holder has it already: a sweep that
/// comes back every period finds its own lease, set a little later in the last sweep, still
/// running. KEYS: lease. ARGV: holder, lease ms. Returns 1 taken, 0 held by another.
static LEASE: std::sync::LazyLock<redis::Script> = std::sync::LazyLock::new(|| {
    redis::Script::new(
        r"
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
",
    )
});

fn shard_key(shard: u16) -> String {
    format!("roadie:{{active:{shard:02}}}")
}

#[async_trait]
impl<C> ActiveGames for RedisStore<C>
where
    C: ConnectionLike + Clone + Send + Sync + 'static,
{
    async fn track(&self, id: &str) -> Result<(), StoreError> {
        let _: i64 = self
            .run(async |conn| {
                redis::cmd("SADD")
                    .arg(shard_key(shard_of(id, ACTIVE_SHARDS)))
                    .arg(id)
                    .query_async(conn)
                    .await
            })
            .await?;
        Ok(())
    }

    async fn untrack(&self, id: &str) -> Result<(), StoreError> {
        let _: i64 = self
            .run(async |conn| {
                redis::cmd("SREM")
                    .arg(shard_key(shard_of(id, ACTIVE_SHARDS)))
                    .arg(id)
                    .query_async(conn)
                    .await
            })
            .await?;
        Ok(())
    }

    async fn active_page(&self, shard: u16, cursor: u64, count: usize) -> Result<ActivePage, StoreError> {
        let (cursor, ids): (u64, Vec<String>) = self
            .run(async |conn| {
                redis::cmd("SSCAN")
                    .arg(shard_key(shard))
                    .arg(cursor)
                    .arg("COUNT")
                    .arg(count)
                    .query_async(conn)
                    .await
            })
            .await?;
        Ok(ActivePage { cursor, ids })
    }

    async fn lease_shard(&self, shard: u16, holder: &str, lease: Duration) -> Result<bool, StoreError> {
        let taken: i64 = self
            .run(async |conn| {
                LEASE
                    .key(format!("{}:lease", shard_key(shard)))
                    .arg(holder)
                    .arg(millis(lease).max(1))
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(taken == 1)
    }

    async fn is_due(&self, work: Work, id: &str) -> Result<bool, StoreError> {
        let score: Option<f64> = self
            .run(async |conn| {
                redis::cmd("ZSCORE")
                    .arg(due(work, due_shard(id)))
                    .arg(id)
                    .query_async(conn)
                    .await
            })
            .await?;
        Ok(score.is_some())
    }

    async fn clock_filed(&self, id: &str) -> Result<bool, StoreError> {
        let score: Option<f64> = self
            .run(async |conn| {
                redis::cmd("ZSCORE")
                    .arg(clocks_key(due_shard(id)))
                    .arg(id)
                    .query_async(conn)
                    .await
            })
            .await?;
        Ok(score.is_some())
    }
}
