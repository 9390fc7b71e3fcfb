//! Work due, in Redis: for each kind of work and each of its [`crate::store::due_shards`] shards, the sorted
//! set `roadie:{<work>:<shard>}:due` (game ids scored by the time from which each may be
//! claimed, Unix ms) and the hash `roadie:{<work>:<shard>}:filed` (when each was last filed);
//! `<work>` is `bots` or `archive`, `<shard>` two digits ([`crate::store::due_shard`] of the game's
//! id). Both keys of a shard share a hash tag, so each script below runs on one Cluster slot, and
//! the shards' tags spread over the Cluster's slots. `roadie:{<work>:<shard>}:lease` is the
//! shard's sweeper lease, and `roadie:{clocks:<shard>}:lease` the clock sweep's.

use std::sync::LazyLock;
use std::time::Duration;

use async_trait::async_trait;
use redis::Script;
use redis::aio::ConnectionLike;

use super::{RedisStore, clocks_key};
use crate::store::due::millis;
use crate::store::{DueClaim, DueEnd, DueWork, StoreError, Work, due_shard, due_shards};

/// Shard `shard` of the index of `work` due.
pub(super) fn due(work: Work, shard: u16) -> String {
    format!("roadie:{{{}:{shard:02}}}:due", work.name())
}

/// When each game of shard `shard` of `work`'s index was last filed.
fn filed(work: Work, shard: u16) -> String {
    format!("roadie:{{{}:{shard:02}}}:filed", work.name())
}

/// Files a game as due now. KEYS: due, filed. ARGV: id, now ms.
static FILE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
",
    )
});

/// Claims the games due. KEYS: due. ARGV: now ms, lease end ms, most games.
static CLAIM: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local ids = redis.call('ZRANGE', KEYS[1], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  redis.call('ZADD', KEYS[1], ARGV[2], id)
end
return ids
",
    )
});

/// Ends a claim. KEYS: due, filed. ARGV: id, the claim's lease end ms, the claim's time ms,
/// grace ms ('' when the worker wrote the move). Returns 1 if the entry was removed, 2 if it
/// was kept due after a recent filing, 0 if the claim was no longer the entry's.
static RELEASE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then
  return 0
end
if ARGV[4] ~= '' then
  local filed = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
  local grace = tonumber(ARGV[4])
  if filed + grace > tonumber(ARGV[3]) then
    redis.call('ZADD', KEYS[1], filed + grace, ARGV[1])
    return 2
  end
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
",
    )
});

#[async_trait]
impl<C> DueWork for RedisStore<C>
where
    C: ConnectionLike + Clone + Send + Sync + 'static,
{
    async fn file_work(&self, work: Work, id: &str, now_ms: u64) -> Result<(), StoreError> {
        let shard = due_shard(id);
        let _: i64 = self
            .run(async |conn| {
                FILE.key(due(work, shard))
                    .key(filed(work, shard))
                    .arg(id)
                    .arg(now_ms)
                    .invoke_async(conn)
                    .await
            })
            .await?;
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
        let until_ms = now_ms.saturating_add(millis(lease));
        let ids: Vec<String> = self
            .run(async |conn| {
                CLAIM
                    .key(due(work, shard))
                    .arg(now_ms)
                    .arg(until_ms)
                    .arg(limit)
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(ids
            .into_iter()
            .map(|id| DueClaim {
                work,
                id,
                shard,
                at_ms: now_ms,
                until_ms,
            })
            .collect())
    }

    async fn release_work(&self, claim: &DueClaim, end: DueEnd) -> Result<(), StoreError> {
        let grace = match end {
            DueEnd::Done => String::new(),
            DueEnd::Idle { grace } => millis(grace).to_string(),
        };
        let _: i64 = self
            .run(async |conn| {
                RELEASE
                    .key(due(claim.work, claim.shard))
                    .key(filed(claim.work, claim.shard))
                    .arg(&claim.id)
                    .arg(claim.until_ms)
                    .arg(claim.at_ms)
                    .arg(&grace)
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(())
    }

    async fn work_backlog(&self, work: Work) -> Result<u64, StoreError> {
        let mut total = 0;
        for shard in 0..due_shards() {
            let count: u64 = self
                .run(async |conn| redis::cmd("ZCARD").arg(due(work, shard)).query_async(conn).await)
                .await?;
            total += count;
        }
        Ok(total)
    }

    async fn lease_due_shard(
        &self,
        work: Work,
        shard: u16,
        holder: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        self.take_lease(
            format!("roadie:{{{}:{shard:02}}}:lease", work.name()),
            holder,
            lease,
        )
        .await
    }

    async fn lease_clock_shard(&self, shard: u16, holder: &str, lease: Duration) -> Result<bool, StoreError> {
        self.take_lease(format!("{}:lease", clocks_key(shard)), holder, lease)
            .await
    }
}

impl<C> RedisStore<C>
where
    C: ConnectionLike + Clone + Send + Sync + 'static,
{
    /// Sets `key` to `holder` for `lease` unless it is set: whether it was.
    pub(super) async fn take_lease(
        &self,
        key: String,
        holder: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let taken: Option<String> = self
            .run(async |conn| {
                redis::cmd("SET")
                    .arg(&key)
                    .arg(holder)
                    .arg("NX")
                    .arg("PX")
                    .arg(millis(lease).max(1))
                    .query_async(conn)
                    .await
            })
            .await?;
        Ok(taken.is_some())
    }
}
