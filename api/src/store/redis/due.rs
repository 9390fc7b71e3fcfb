//! Work due, in Redis: for each kind of work, the sorted set `roadie:{<work>}:due` (game ids
//! scored by the time from which each may be claimed, Unix ms) and the hash
//! `roadie:{<work>}:filed` (when each was last filed); `<work>` is `bots` or `archive`. Both keys
//! of a kind share a hash tag, so each script below runs on one Cluster slot.

use std::sync::LazyLock;
use std::time::Duration;

use async_trait::async_trait;
use redis::Script;
use redis::aio::ConnectionLike;

use super::RedisStore;
use crate::store::due::millis;
use crate::store::{DueClaim, DueEnd, DueWork, StoreError, Work};

/// The index of `work` due.
fn due(work: Work) -> String {
    format!("roadie:{{{}}}:due", work.name())
}

/// When each game of `work`'s index was last filed.
fn filed(work: Work) -> String {
    format!("roadie:{{{}}}:filed", work.name())
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
        let _: i64 = self
            .run(async |conn| {
                FILE.key(due(work))
                    .key(filed(work))
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
        now_ms: u64,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<DueClaim>, StoreError> {
        let until_ms = now_ms.saturating_add(millis(lease));
        let ids: Vec<String> = self
            .run(async |conn| {
                CLAIM
                    .key(due(work))
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
                    .key(due(claim.work))
                    .key(filed(claim.work))
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
        self.run(async |conn| redis::cmd("ZCARD").arg(due(work)).query_async(conn).await)
            .await
    }
}
