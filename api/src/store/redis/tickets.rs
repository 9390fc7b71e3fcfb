//! Matchmaking in Redis. The keys of queue `<q>` share the hash tag `{<q>}`, so each script
//! below runs on one Cluster slot:
//!
//! | key | holds |
//! | --- | --- |
//! | `roadie:mm:{<q>}:spec` | the [`QueueSpec`] as JSON |
//! | `roadie:mm:{<q>}:queue` | a sorted set of waiting ticket ids, scored by arrival (Unix ms) |
//! | `roadie:mm:{<q>}:claims` | a hash of [`Claim`]s as JSON, by claim id |
//! | `roadie:mm:{<q>}:t:<ticket>` | a hash of the ticket's fields |
//!
//! The index of queues is split into [`due_shards`](crate::store::due_shards) shards, a queue in the one of its key's first
//! byte ([`due_shard`]): the sorted set `roadie:{mm:<NN>}:due` (queue keys scored by when each next
//! needs a look, Unix ms) with the hash `roadie:{mm:<NN>}:touched` of each queue's count of
//! touches, both under the shard's own hash tag (so the shards spread over a Cluster's slots), and
//! `roadie:{mm:<NN>}:lease`, the sweep's lease on the shard. Earlier versions kept one index,
//! `roadie:{mm}:due` with `roadie:{mm}:touched`; its queues are moved into their shards as they
//! are found there ([`Matchmaking::move_unsharded_queues`]).

use std::collections::HashMap;
use std::sync::LazyLock;
use std::time::Duration;

use async_trait::async_trait;
use redis::Script;
use redis::aio::ConnectionLike;
use roadie_engine::{BotLevel, Seat};

use super::{RedisStore, ttl_secs};
use crate::store::{Matchmaking, StoreError, due_shard};
use crate::table::tickets::{
    Claim, Look, MatchWindow, QueueSpec, Seated, Ticket, TicketId, TicketState, WIDEN_LOOK_MS,
};

/// The single index of queues that earlier versions kept, drained into the shards.
const UNSHARDED_DUE: &str = "roadie:{mm}:due";

/// The single index's counts of touches.
const UNSHARDED_TOUCHED: &str = "roadie:{mm}:touched";

/// Shard `shard` of the index of queues.
fn due(shard: u16) -> String {
    format!("roadie:{{mm:{shard:02}}}:due")
}

/// The counts of touches of the queues of shard `shard`.
fn touched(shard: u16) -> String {
    format!("roadie:{{mm:{shard:02}}}:touched")
}

/// How many tickets of a queue one look reads at most.
const LOOK_SCAN: usize = 1000;

fn queue_key(queue: &str, what: &str) -> String {
    format!("roadie:mm:{{{queue}}}:{what}")
}

fn ticket_prefix(queue: &str) -> String {
    format!("roadie:mm:{{{queue}}}:t:")
}

/// Writes a ticket and appends it to its queue.
/// KEYS: ticket, queue, spec, claims. ARGV: id, arrival ms, keep secs, name, token hash,
/// expires ms, bots ms, bot level, spec, player id ('' for none), rating ('' for none).
static ENQUEUE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
redis.call('HSET', KEYS[1], 'state', 'waiting', 'name', ARGV[4], 'token', ARGV[5], 'expires', ARGV[6], 'bots', ARGV[7], 'level', ARGV[8])
if ARGV[10] ~= '' then redis.call('HSET', KEYS[1], 'player', ARGV[10]) end
if ARGV[11] ~= '' then redis.call('HSET', KEYS[1], 'rating', ARGV[11]) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('SET', KEYS[3], ARGV[9], 'EX', ARGV[3])
redis.call('EXPIRE', KEYS[4], ARGV[3])
return 1
",
    )
});

/// Files a queue as due now and counts the touch. KEYS: due, touched. ARGV: queue, now ms.
static TOUCH: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
redis.call('ZADD', KEYS[1], 'LT', ARGV[2], ARGV[1])
return 1
",
    )
});

/// One look at a queue (see [`Matchmaking::look`]); the batch is chosen as
/// [`crate::table::tickets::batch`] chooses it.
/// KEYS: queue, claims, spec. ARGV: now ms, lease ms, new claim id, ticket key prefix, keep
/// secs, most tickets read, then the rating window's start, later and widening ms ('' for no
/// window), and the ms after which a queue whose tickets do not fit is looked at again.
/// Returns {spec or '', claim or '', next look ms or ''}.
static LOOK: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local now = tonumber(ARGV[1])
local lease = tonumber(ARGV[2])
local spec = redis.call('GET', KEYS[3])
if not spec then return {'', '', ''} end
local seats = tonumber(cjson.decode(spec).seats)
local handed = ''
local claims = redis.call('HGETALL', KEYS[2])
for i = 1, #claims, 2 do
  local c = cjson.decode(claims[i + 1])
  if c.lease <= now then
    c.lease = now + lease
    handed = cjson.encode(c)
    redis.call('HSET', KEYS[2], claims[i], handed)
    break
  end
end
local waiting = {}
local ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[6]) - 1, 'WITHSCORES')
for k = 1, #ids, 2 do
  local id = ids[k]
  local key = ARGV[4] .. id
  local t = redis.call('HMGET', key, 'state', 'expires', 'bots', 'level', 'name', 'player', 'rating')
  if t[1] ~= 'waiting' then
    redis.call('ZREM', KEYS[1], id)
  elseif tonumber(t[2]) <= now then
    redis.call('HSET', key, 'state', 'expired')
    redis.call('ZREM', KEYS[1], id)
  else
    table.insert(waiting, {id = id, expires = tonumber(t[2]), bots = tonumber(t[3]), level = t[4], name = t[5], player = t[6], rating = tonumber(t[7]), opened = tonumber(ids[k + 1])})
  end
end
local wstart, later, widen = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local function window(w)
  local waited = now - w.opened
  if widen == 0 then return math.max(later, wstart) end
  return wstart + math.floor(math.max(later - wstart, 0) * waited / widen)
end
local function fits(group)
  if not wstart then return true end
  local low, high, narrowest = nil, nil, nil
  for _, i in ipairs(group) do
    local w = waiting[i]
    if w.rating then
      if not low or w.rating < low then low = w.rating end
      if not high or w.rating > high then high = w.rating end
      local at = window(w)
      if not narrowest or at < narrowest then narrowest = at end
    end
  end
  return not low or high - low <= narrowest
end
local function around(anchor, among, most)
  local group = {anchor}
  local others = {}
  for _, i in ipairs(among) do if i ~= anchor then table.insert(others, i) end end
  local r = waiting[anchor].rating
  if r then
    local function gap(i) local o = waiting[i].rating; if o then return math.abs(o - r) end return 0 end
    table.sort(others, function(x, y) local a, b = gap(x), gap(y); if a ~= b then return a < b end return x < y end)
  end
  for _, i in ipairs(others) do
    if #group >= most then break end
    table.insert(group, i)
    if not fits(group) then table.remove(group) end
  end
  table.sort(group)
  return group
end
local formed = false
if handed == '' then
  local chosen, bots, level = {}, 0, 'random'
  if #waiting >= seats then
    local everyone = {}
    for i = 1, #waiting do table.insert(everyone, i) end
    for anchor = 1, #waiting do
      local group = around(anchor, everyone, seats)
      if #group == seats then chosen = group; break end
    end
  end
  if #chosen == 0 then
    local due = {}
    for i, w in ipairs(waiting) do
      if w.bots > 0 and w.bots <= now then table.insert(due, i) end
    end
    if #due > 0 then
      level = waiting[due[1]].level
      chosen = around(due[1], due, math.max(seats - 1, 1))
      bots = seats - #chosen
    end
  end
  if #chosen > 0 then
    formed = true
    local tickets = {}
    for _, i in ipairs(chosen) do
      local w = waiting[i]
      redis.call('HSET', ARGV[4] .. w.id, 'state', 'claimed')
      redis.call('ZREM', KEYS[1], w.id)
      table.insert(tickets, {id = w.id, name = w.name, player = w.player or nil})
    end
    for k = #chosen, 1, -1 do table.remove(waiting, chosen[k]) end
    handed = cjson.encode({id = ARGV[3], tickets = tickets, bots = bots, level = level, lease = now + lease})
    redis.call('HSET', KEYS[2], ARGV[3], handed)
    redis.call('EXPIRE', KEYS[2], ARGV[5])
  end
end
local next = nil
for _, v in ipairs(redis.call('HVALS', KEYS[2])) do
  local c = cjson.decode(v)
  if not next or c.lease < next then next = c.lease end
end
if #waiting >= seats then
  local at = now
  if not formed then at = now + tonumber(ARGV[10]) end
  if not next or at < next then next = at end
end
for _, w in ipairs(waiting) do
  local at = w.expires
  if w.bots > 0 and w.bots < at then at = w.bots end
  if not next or at < next then next = at end
end
if next then next = string.format('%d', next) else next = '' end
return {spec, handed, next}
",
    )
});

/// Seats a claim's tickets and ends the claim, if it is still held.
/// The seating is announced on the queue's channel `roadie:mm:{<q>}:updates` (the claim's id),
/// which the long polls of its tickets wait on.
/// KEYS: claims. ARGV: claim id, keep secs, ticket key prefix, then ticket, game, seat, seat
/// token for each ticket. Returns 1 seated, 0 the claim was ended already.
static SEAT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('PUBLISH', string.sub(KEYS[1], 1, -7) .. 'updates', ARGV[1])
for i = 4, #ARGV, 4 do
  local key = ARGV[3] .. ARGV[i]
  if redis.call('EXISTS', key) == 1 then
    redis.call('HSET', key, 'state', 'matched', 'game', ARGV[i + 1], 'seat', ARGV[i + 2], 'seat_token', ARGV[i + 3])
    redis.call('EXPIRE', key, ARGV[2])
  end
end
return 1
",
    )
});

/// A ticket's fields and its rank in its queue (nil when it is not there).
/// KEYS: ticket, queue. ARGV: ticket id.
static READ: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"#!lua flags=no-writes
return {redis.call('HGETALL', KEYS[1]), redis.call('ZRANK', KEYS[2], ARGV[1])}
",
    )
});

/// Cancels a waiting ticket. KEYS: ticket, queue. ARGV: ticket id.
/// Returns the state the ticket was found in, or '' when there is none.
static CANCEL: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return '' end
if state == 'waiting' then
  redis.call('HSET', KEYS[1], 'state', 'cancelled')
  redis.call('ZREM', KEYS[2], ARGV[1])
end
return state
",
    )
});

/// The queues due, with their counts of touches. KEYS: due, touched. ARGV: now ms, most.
/// Returns {queue, count, ...}.
static DUE_QUEUES: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"#!lua flags=no-writes
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, q in ipairs(due) do
  table.insert(out, q)
  table.insert(out, redis.call('HGET', KEYS[2], q) or '0')
end
return out
",
    )
});

/// Files a queue under its next look (or takes it out), unless a ticket touched it since.
/// KEYS: due, touched. ARGV: queue, count seen, next ms or ''.
static RESCHEDULE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local touched = redis.call('HGET', KEYS[2], ARGV[1]) or '0'
if touched ~= ARGV[2] then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
",
    )
});

fn corrupt(what: &str) -> StoreError {
    StoreError::Corrupt(format!("a matchmaking ticket's {what} does not read back"))
}

fn state_of(text: &str) -> Result<TicketState, StoreError> {
    serde_json::from_value(serde_json::Value::String(text.to_owned())).map_err(|_| corrupt("state"))
}

fn level_of(text: &str) -> Result<BotLevel, StoreError> {
    serde_json::from_value(serde_json::Value::String(text.to_owned())).map_err(|_| corrupt("bot level"))
}

fn ticket_of(mut fields: HashMap<String, String>) -> Result<Option<Ticket>, StoreError> {
    let Some(state) = fields.remove("state") else {
        return Ok(None);
    };
    let number = |fields: &HashMap<String, String>, name: &str| {
        fields
            .get(name)
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or_else(|| corrupt(name))
    };
    Ok(Some(Ticket {
        state: state_of(&state)?,
        expires_ms: number(&fields, "expires")?,
        bots_ms: number(&fields, "bots")?,
        bot_level: level_of(fields.get("level").map(String::as_str).unwrap_or("random"))?,
        seat: match fields.get("seat") {
            Some(seat) => Some(Seat::new(seat.parse::<usize>().map_err(|_| corrupt("seat"))?)),
            None => None,
        },
        name: fields.remove("name").unwrap_or_default(),
        player: fields.remove("player"),
        token_hash: fields.remove("token").unwrap_or_default(),
        game: fields.remove("game"),
        seat_token: fields.remove("seat_token"),
        rating: match fields.get("rating") {
            Some(rating) => Some(rating.parse::<i64>().map_err(|_| corrupt("rating"))?),
            None => None,
        },
        opened_ms: 0,
    }))
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[async_trait]
impl<C> Matchmaking for RedisStore<C>
where
    C: ConnectionLike + Clone + Send + Sync + 'static,
{
    async fn enqueue(
        &self,
        id: &TicketId,
        spec: &QueueSpec,
        ticket: &Ticket,
        keep: Duration,
        now: u64,
    ) -> Result<(), StoreError> {
        let queue = id.queue();
        let spec_json = serde_json::to_string(spec).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let level = ticket.bot_level.as_str();
        let _: i64 = self
            .run(async |conn| {
                ENQUEUE
                    .key(format!("{}{id}", ticket_prefix(queue)))
                    .key(queue_key(queue, "queue"))
                    .key(queue_key(queue, "spec"))
                    .key(queue_key(queue, "claims"))
                    .arg(id.as_str())
                    .arg(now)
                    .arg(ttl_secs(keep))
                    .arg(&ticket.name)
                    .arg(&ticket.token_hash)
                    .arg(ticket.expires_ms)
                    .arg(ticket.bots_ms)
                    .arg(level)
                    .arg(&spec_json)
                    .arg(ticket.player.as_deref().unwrap_or(""))
                    .arg(ticket.rating.map(|r| r.to_string()).unwrap_or_default())
                    .invoke_async(conn)
                    .await
            })
            .await?;
        self.touch_queue(queue, now).await
    }

    async fn ticket(&self, id: &TicketId) -> Result<Option<(Ticket, Option<u64>)>, StoreError> {
        let (fields, rank): (HashMap<String, String>, Option<u64>) = self
            .run(async |conn| {
                READ.key(format!("{}{id}", ticket_prefix(id.queue())))
                    .key(queue_key(id.queue(), "queue"))
                    .arg(id.as_str())
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(ticket_of(fields)?.map(|ticket| (ticket, rank.map(|r| r + 1))))
    }

    async fn wait_for_ticket(&self, id: &TicketId, within: Duration) -> Result<(), StoreError> {
        // One channel for the queue: a process subscribes once for all the tickets it holds
        // there, not once per long poll.
        let key = format!("{}{id}", ticket_prefix(id.queue()));
        // A ticket being seated (`claimed`) still waits for the seating's announcement.
        let current = async || -> Result<Option<String>, StoreError> {
            let state: Option<String> = self
                .run(async |conn| redis::cmd("HGET").arg(&key).arg("state").query_async(conn).await)
                .await?;
            Ok(state.map(|s| if s == "claimed" { "waiting".to_owned() } else { s }))
        };
        self.updates
            .wait(
                queue_key(id.queue(), "updates"),
                "waiting".to_owned(),
                within,
                current,
            )
            .await
    }

    async fn cancel_ticket(&self, id: &TicketId) -> Result<Option<TicketState>, StoreError> {
        let found: String = self
            .run(async |conn| {
                CANCEL
                    .key(format!("{}{id}", ticket_prefix(id.queue())))
                    .key(queue_key(id.queue(), "queue"))
                    .arg(id.as_str())
                    .invoke_async(conn)
                    .await
            })
            .await?;
        if found.is_empty() {
            return Ok(None);
        }
        state_of(&found).map(Some)
    }

    async fn look(
        &self,
        queue: &str,
        claim_id: &str,
        now_ms: u64,
        lease: Duration,
        window: Option<&MatchWindow>,
    ) -> Result<(Option<QueueSpec>, Look), StoreError> {
        let (spec, claim, next): (String, String, String) = self
            .run(async |conn| {
                LOOK.key(queue_key(queue, "queue"))
                    .key(queue_key(queue, "claims"))
                    .key(queue_key(queue, "spec"))
                    .arg(now_ms)
                    .arg(millis(lease).max(1))
                    .arg(claim_id)
                    .arg(ticket_prefix(queue))
                    .arg(ttl_secs(self.retention.idle))
                    .arg(LOOK_SCAN)
                    .arg(window.map(|w| w.start.to_string()).unwrap_or_default())
                    .arg(window.map(|w| w.later.to_string()).unwrap_or_default())
                    .arg(window.map(|w| w.widen_ms.to_string()).unwrap_or_default())
                    .arg(WIDEN_LOOK_MS)
                    .invoke_async(conn)
                    .await
            })
            .await?;
        if spec.is_empty() {
            return Ok((None, Look::default()));
        }
        let spec: QueueSpec = serde_json::from_str(&spec).map_err(|_| corrupt("queue"))?;
        let claim: Option<Claim> = if claim.is_empty() {
            None
        } else {
            Some(serde_json::from_str(&claim).map_err(|_| corrupt("claim"))?)
        };
        let next_ms = next.parse::<u64>().ok();
        Ok((Some(spec), Look { claim, next_ms }))
    }

    async fn seat_tickets(
        &self,
        queue: &str,
        claim: &str,
        seated: &[Seated],
        keep: Duration,
    ) -> Result<bool, StoreError> {
        let done: i64 = self
            .run(async |conn| {
                let mut call = SEAT.prepare_invoke();
                call.key(queue_key(queue, "claims"))
                    .arg(claim)
                    .arg(ttl_secs(keep))
                    .arg(ticket_prefix(queue));
                for seat in seated {
                    call.arg(&seat.ticket)
                        .arg(&seat.game)
                        .arg(seat.seat.index())
                        .arg(&seat.seat_token);
                }
                call.invoke_async(conn).await
            })
            .await?;
        Ok(done == 1)
    }

    async fn due_queues(
        &self,
        shard: u16,
        now_ms: u64,
        limit: usize,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        self.queues_in(&due(shard), &touched(shard), &now_ms.to_string(), limit)
            .await
    }

    async fn reschedule_queue(&self, queue: &str, seen: u64, next_ms: Option<u64>) -> Result<(), StoreError> {
        let next = next_ms.map(|n| n.to_string()).unwrap_or_default();
        let _: i64 = self
            .run(async |conn| {
                RESCHEDULE
                    .key(due(due_shard(queue)))
                    .key(touched(due_shard(queue)))
                    .arg(queue)
                    .arg(seen)
                    .arg(&next)
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(())
    }

    async fn lease_queue_shard(&self, shard: u16, holder: &str, lease: Duration) -> Result<bool, StoreError> {
        self.take_lease(format!("roadie:{{mm:{shard:02}}}:lease"), holder, lease)
            .await
    }

    async fn move_unsharded_queues(&self, limit: usize) -> Result<u64, StoreError> {
        let found = self
            .queues_in(UNSHARDED_DUE, UNSHARDED_TOUCHED, "+inf", limit)
            .await?;
        let mut moved = 0;
        for (queue, seen) in found {
            // Filed in its shard first, due now (an early look finds nothing to do), then taken
            // out of the single index unless an earlier version's process touched it meanwhile.
            self.touch_queue(&queue, 0).await?;
            let removed: i64 = self
                .run(async |conn| {
                    RESCHEDULE
                        .key(UNSHARDED_DUE)
                        .key(UNSHARDED_TOUCHED)
                        .arg(&queue)
                        .arg(seen)
                        .arg("")
                        .invoke_async(conn)
                        .await
                })
                .await?;
            moved += u64::try_from(removed).unwrap_or(0);
        }
        Ok(moved)
    }
}

impl<C> RedisStore<C>
where
    C: ConnectionLike + Clone + Send + Sync + 'static,
{
    /// Files `queue` in its shard as due at `now_ms` (or earlier, if it is already), counting the
    /// touch.
    async fn touch_queue(&self, queue: &str, now_ms: u64) -> Result<(), StoreError> {
        let shard = due_shard(queue);
        let _: i64 = self
            .run(async |conn| {
                TOUCH
                    .key(due(shard))
                    .key(touched(shard))
                    .arg(queue)
                    .arg(now_ms)
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(())
    }

    /// Up to `limit` queues of the index `due` due at `until` (a score, or `+inf`), each with its
    /// count of touches in `touched`.
    async fn queues_in(
        &self,
        due: &str,
        touched: &str,
        until: &str,
        limit: usize,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let flat: Vec<String> = self
            .run(async |conn| {
                DUE_QUEUES
                    .key(due)
                    .key(touched)
                    .arg(until)
                    .arg(limit.max(1))
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(flat
            .chunks(2)
            .filter_map(|pair| match pair {
                [queue, count] => Some((queue.clone(), count.parse().unwrap_or(0))),
                _ => None,
            })
            .collect())
    }
}
