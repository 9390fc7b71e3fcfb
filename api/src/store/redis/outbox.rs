//! Webhook outboxes in Redis: each game's notices under its own hash tag, and the due set, split
//! into [`due_shards`](crate::store::due_shards) shards by game id
//! ([`due_shard`](crate::store::due_shard)): for shard `<NN>`, the sorted set
//! `roadie:{webhooks:<NN>}:due` of games with notices due, scored by the millisecond (Redis's
//! clock) from which each may be claimed, with the hashes `roadie:{webhooks:<NN>}:marked` of when
//! each was last marked and `roadie:{webhooks:<NN>}:receivers` of the receiver each last mark
//! named, and `roadie:{webhooks:<NN>}:lease`, the sweep's lease on the shard. Scripts touch either
//! a game's keys or one shard's, never both, so each runs on one Cluster slot, and the shards'
//! tags spread over the Cluster's slots. The coalescing of an outbox is in the write script
//! (`SAVE` in the parent module).
//!
//! Earlier versions kept one due set, `roadie:{webhooks}:due` with `roadie:{webhooks}:marked` and
//! `roadie:{webhooks}:receivers`; its games are moved into their shards as they are found there
//! ([`Outbox::move_unsharded_outboxes`]).

use std::sync::LazyLock;
use std::time::Duration;

use async_trait::async_trait;
use redis::aio::ConnectionLike;
use redis::{Script, Value};

use super::{RedisStore, bytes_of, decode, key, ttl_secs};
use crate::store::{
    CLAIM_SCAN, Claim, Failure, Outbox, OutboxNotice, Pending, Room, StoreError, Webhook, due_shard,
};

/// The single due set of earlier versions, and its hashes of marks and receivers.
const UNSHARDED: [&str; 3] = [
    "roadie:{webhooks}:due",
    "roadie:{webhooks}:marked",
    "roadie:{webhooks}:receivers",
];

/// Shard `shard` of the due set, and its hashes: when each game was last marked (in Redis's
/// milliseconds), and the receiver each last mark named.
fn shard_keys(shard: u16) -> [String; 3] {
    ["due", "marked", "receivers"].map(|what| format!("roadie:{{webhooks:{shard:02}}}:{what}"))
}

/// The keys of game `id`'s shard of the due set.
fn keys_of(id: &str) -> [String; 3] {
    shard_keys(due_shard(id))
}

/// Marks a game due. KEYS: due, marked, receivers. ARGV: game, receiver.
static MARK: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local t = redis.call('TIME')
redis.call('HSET', KEYS[2], ARGV[1], tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('ZINCRBY', KEYS[1], 1, ARGV[1])
return 1
",
    )
});

/// Claims due games, earliest first, as many as there is room for: each one's score moves to the
/// end of its lease; a game whose receiver has no room left is passed over.
/// KEYS: due, receivers. ARGV: lease in milliseconds, most games, most due games looked at, games
/// of a receiver not listed, then receiver, games, ... Returns {game, lease end, receiver, ...}.
static CLAIM: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ms = now + tonumber(ARGV[1])
local want = tonumber(ARGV[2])
local other = tonumber(ARGV[4])
local left = {}
for i = 5, #ARGV - 1, 2 do
  left[ARGV[i]] = tonumber(ARGV[i + 1])
end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[3]))
local claimed = {}
local taken = 0
for i = 1, #due do
  if taken >= want then break end
  local receiver = redis.call('HGET', KEYS[2], due[i]) or ''
  local room = left[receiver]
  if room == nil then room = other end
  if room > 0 then
    left[receiver] = room - 1
    taken = taken + 1
    redis.call('ZADD', KEYS[1], until_ms, due[i])
    claimed[#claimed + 1] = due[i]
    claimed[#claimed + 1] = until_ms
    claimed[#claimed + 1] = receiver
  end
end
return claimed
",
    )
});

/// Ends a claim. KEYS: due, marked, receivers. ARGV: game, the claim's lease end, lease in milliseconds,
/// delay in milliseconds or '' when the outbox was found empty, grace in milliseconds.
/// Returns 0 removed, 1 due now (marked since the claim), 2 due after the delay, 3 claimed by
/// another process since (this lease ran out), left alone, 4 due again once a write marked
/// within the grace has surely landed or failed.
static RELEASE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
local mine = tonumber(ARGV[2])
if score and tonumber(score) >= mine + tonumber(ARGV[3]) then return 3 end
if ARGV[4] ~= '' then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
  return 2
end
if score and tonumber(score) == mine then
  local marked = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
  if now - marked < tonumber(ARGV[5]) then
    redis.call('ZADD', KEYS[1], marked + tonumber(ARGV[5]), ARGV[1])
    return 4
  end
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
  return 0
end
redis.call('ZADD', KEYS[1], now, ARGV[1])
return 1
",
    )
});

/// Games of the single due set of earlier versions. KEYS: due, marked, receivers. ARGV: most
/// games. Returns {game, score, marked or '', receiver or '', ...}.
static UNSHARDED_GAMES: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"#!lua flags=no-writes
local games = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
local out = {}
for i = 1, #games, 2 do
  out[#out + 1] = games[i]
  out[#out + 1] = games[i + 1]
  out[#out + 1] = redis.call('HGET', KEYS[2], games[i]) or ''
  out[#out + 1] = redis.call('HGET', KEYS[3], games[i]) or ''
end
return out
",
    )
});

/// Files a game of the single due set in its shard: with its score when the shard lacks it (a
/// lease taken there still holds), and its later mark in either. KEYS: due, marked, receivers
/// of the shard. ARGV: game, score, marked ('' for none), receiver.
static PLACE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
end
if ARGV[3] ~= '' then
  local marked = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
  if tonumber(ARGV[3]) > marked then redis.call('HSET', KEYS[2], ARGV[1], ARGV[3]) end
end
return 1
",
    )
});

/// Takes a game out of the single due set unless it was marked or claimed since it was read.
/// KEYS: due, marked, receivers. ARGV: game, score read, marked read ('' for none).
/// Returns 1 removed, 0 left.
static UNFILE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if (redis.call('HGET', KEYS[2], ARGV[1]) or '') ~= ARGV[3] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
",
    )
});

/// A game's webhook and its oldest notices. KEYS: webhook, outbox. ARGV: most notices.
static PENDING: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"#!lua flags=no-writes
return {redis.call('GET', KEYS[1]), redis.call('LRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1)}
",
    )
});

/// Removes a delivered notice, if a later write has not coalesced it already. KEYS: outbox, outbox_tries. ARGV: body, id.
static DELIVERED: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
redis.call('LREM', KEYS[1], 1, ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[2])
return 1
",
    )
});

/// Counts a failed delivery; drops the notice at the last attempt. A notice a later write has
/// coalesced is not counted.
/// KEYS: outbox, outbox_tries. ARGV: body, id, most attempts, ttl.
/// Returns {attempts, 1 if dropped else 0, 1 if no longer in the outbox else 0}.
static FAILED: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if not redis.call('LPOS', KEYS[1], ARGV[1]) then
  redis.call('HDEL', KEYS[2], ARGV[2])
  return {0, 0, 1}
end
local attempts = redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
if attempts >= tonumber(ARGV[3]) then
  redis.call('LREM', KEYS[1], 1, ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[2])
  return {attempts, 1, 0}
end
redis.call('EXPIRE', KEYS[2], ARGV[4])
return {attempts, 0, 0}
",
    )
});

/// The `id` field of a notice's body.
#[derive(serde::Deserialize)]
struct NoticeId {
    id: String,
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[async_trait]
impl<C> Outbox for RedisStore<C>
where
    C: ConnectionLike + Clone + Send + Sync + 'static,
{
    async fn mark_due(&self, id: &str, receiver: &str) -> Result<(), StoreError> {
        let [due, marked, receivers] = keys_of(id);
        let _: i64 = self
            .run(async |conn| {
                MARK.key(&due)
                    .key(&marked)
                    .key(&receivers)
                    .arg(id)
                    .arg(receiver)
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(())
    }

    async fn claim_due(&self, shard: u16, room: &Room, lease: Duration) -> Result<Vec<Claim>, StoreError> {
        let [due, _, receivers] = shard_keys(shard);
        let reply: Vec<Value> = self
            .run(async |conn| {
                let mut call = CLAIM.prepare_invoke();
                call.key(&due)
                    .key(&receivers)
                    .arg(millis(lease).max(1))
                    .arg(room.games)
                    .arg(CLAIM_SCAN)
                    .arg(room.other);
                for (receiver, games) in &room.per_receiver {
                    call.arg(receiver).arg(*games);
                }
                call.invoke_async(conn).await
            })
            .await?;
        reply
            .chunks(3)
            .map(|triple| match triple {
                [Value::BulkString(game), Value::Int(until), receiver] => Ok(Claim {
                    game: String::from_utf8_lossy(game).into_owned(),
                    lease_until: u64::try_from(*until).unwrap_or_default(),
                    receiver: bytes_of(receiver.clone())?
                        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                        .unwrap_or_default(),
                }),
                other => Err(StoreError::Corrupt(format!("unexpected claim reply {other:?}"))),
            })
            .collect()
    }

    async fn pending(&self, id: &str, limit: usize) -> Result<Option<Pending>, StoreError> {
        let (webhook, bodies): (Option<Vec<u8>>, Vec<Vec<u8>>) = self
            .run(async |conn| {
                let reply: Vec<Value> = PENDING
                    .key(key(id, "webhook"))
                    .key(key(id, "outbox"))
                    .arg(limit.max(1))
                    .invoke_async(conn)
                    .await?;
                let mut reply = reply.into_iter();
                let webhook = reply.next().unwrap_or(Value::Nil);
                let bodies = match reply.next() {
                    Some(Value::Array(items)) => items,
                    _ => Vec::new(),
                };
                Ok((
                    match webhook {
                        Value::BulkString(bytes) => Some(bytes),
                        _ => None,
                    },
                    bodies
                        .into_iter()
                        .filter_map(|item| bytes_of(item).ok().flatten())
                        .collect(),
                ))
            })
            .await?;
        let Some(webhook) = webhook else {
            return Ok(None);
        };
        let webhook: Webhook = decode(&webhook)?;
        let notices = bodies
            .into_iter()
            .map(|bytes| {
                let NoticeId { id } = decode(&bytes)?;
                let body = String::from_utf8(bytes).map_err(|e| StoreError::Corrupt(e.to_string()))?;
                Ok(OutboxNotice { id, body })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Some(Pending { webhook, notices }))
    }

    async fn delivered(&self, id: &str, notice: &OutboxNotice) -> Result<(), StoreError> {
        let _: i64 = self
            .run(async |conn| {
                DELIVERED
                    .key(key(id, "outbox"))
                    .key(key(id, "outbox_tries"))
                    .arg(&notice.body)
                    .arg(&notice.id)
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(())
    }

    async fn failed(
        &self,
        id: &str,
        notice: &OutboxNotice,
        max_attempts: u32,
    ) -> Result<Failure, StoreError> {
        let ttl = ttl_secs(self.retention.idle);
        let (attempts, dropped, superseded): (u32, i64, i64) = self
            .run(async |conn| {
                FAILED
                    .key(key(id, "outbox"))
                    .key(key(id, "outbox_tries"))
                    .arg(&notice.body)
                    .arg(&notice.id)
                    .arg(max_attempts.max(1))
                    .arg(ttl)
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(Failure {
            attempts,
            dropped: dropped == 1,
            superseded: superseded == 1,
        })
    }

    async fn release(
        &self,
        claim: &Claim,
        lease: Duration,
        retry_in: Option<Duration>,
        grace: Duration,
    ) -> Result<(), StoreError> {
        let delay = retry_in.map(|d| millis(d).to_string()).unwrap_or_default();
        let [due, marked, receivers] = keys_of(&claim.game);
        let _: i64 = self
            .run(async |conn| {
                RELEASE
                    .key(&due)
                    .key(&marked)
                    .key(&receivers)
                    .arg(&claim.game)
                    .arg(claim.lease_until)
                    .arg(millis(lease).max(1))
                    .arg(&delay)
                    .arg(millis(grace))
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(())
    }

    async fn lease_outbox_shard(
        &self,
        shard: u16,
        holder: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        self.take_lease(format!("roadie:{{webhooks:{shard:02}}}:lease"), holder, lease)
            .await
    }

    async fn move_unsharded_outboxes(&self, limit: usize) -> Result<u64, StoreError> {
        let [due, marked, receivers] = UNSHARDED;
        let flat: Vec<String> = self
            .run(async |conn| {
                UNSHARDED_GAMES
                    .key(due)
                    .key(marked)
                    .key(receivers)
                    .arg(limit.max(1))
                    .invoke_async(conn)
                    .await
            })
            .await?;
        let mut moved = 0;
        for entry in flat.chunks(4) {
            let [game, score, mark, receiver] = entry else {
                continue;
            };
            // Filed in its shard first, then taken out of the single set unless a process of an
            // earlier version marked or claimed it meanwhile (then it is moved again next time).
            let [shard_due, shard_marked, shard_receivers] = keys_of(game);
            let _: i64 = self
                .run(async |conn| {
                    PLACE
                        .key(&shard_due)
                        .key(&shard_marked)
                        .key(&shard_receivers)
                        .arg(game)
                        .arg(score)
                        .arg(mark)
                        .arg(receiver)
                        .invoke_async(conn)
                        .await
                })
                .await?;
            let removed: i64 = self
                .run(async |conn| {
                    UNFILE
                        .key(due)
                        .key(marked)
                        .key(receivers)
                        .arg(game)
                        .arg(score)
                        .arg(mark)
                        .invoke_async(conn)
                        .await
                })
                .await?;
            moved += u64::try_from(removed).unwrap_or(0);
        }
        Ok(moved)
    }
}
