//! The Redis store: one Redis, or a Redis Cluster, through the same code.
//!
//! Keys of game `<id>` share the hash tag `{<id>}`, so every script touches one slot:
//!
//! | key | holds |
//! | --- | --- |
//! | `roadie:{<id>}:version` | the [`Revision`] as text: the compare-and-set checks it alone |
//! | `roadie:{<id>}:state` | the [`Table`] as MessagePack (a third of the JSON's size, three times faster to decode) |
//! | `roadie:{<id>}:events` | a list of [`StoredEvent`]s, each an audience letter and the body's JSON (see `events.rs`); position + 1 is the sequence number |
//! | `roadie:{<id>}:idem` | a hash of [`IdempotentRecord`]s as MessagePack arrays, by `<seat>:<key>` |
//! | `roadie:{<id>}:writes` | the revisions of the last [`RECENT_WRITES`] writes or more, newest first (trimmed back to 64 once it holds 97, so that a write seldom pays for an `LTRIM`) |
//! | `roadie:{<id>}:actions` | the game's log of actions: each a [`LoggedAction`] as JSON, in the order played |
//! | `roadie:{<id>}:fenced` | revisions whose writes were given up on and may never be written |
//! | `roadie:{<id>}:webhook`, `:outbox`, `:outbox_tries` | the game's [`Webhook`](super::Webhook), its undelivered notices (oldest first), failed deliveries by notice id |
//!
//! Each write publishes the new revision on the channel `roadie:{<id>}:updates`. The version and
//! state get the game's lifetime again on each write; its logs (`events`, `actions`, `writes`, `idem`) live
//! up to [`RENEW_LOGS_EVERY_SECS`] longer, so that a write renews them only about once in that
//! span; the webhook's keys are renewed on each write. They are deleted together. State,
//! events and records are written by the same script, so a store that loses recent writes
//! loses them together.
//!
//! Rate-limit buckets are `roadie:limit:{<bucket>}`. The games of a ruleset with open seats are
//! the sorted set `roadie:open:{<ruleset>}` (one slot), scored by when each would expire
//! untouched (seconds on Redis's clock), so that stale entries are pruned as the list is read.
//! Games with notices to deliver are in the sorted sets `roadie:{webhooks:<shard>}:due`, a game
//! in its id's shard (see [`super::Outbox`]). The index of clocks is [`super::due_shards`] sorted sets
//! `roadie:{clocks:<shard>}` ([`clocks_key`]): game ids scored by their earliest deadline (Unix
//! ms), a game in its id's shard; the clock sweep's lease on a shard is
//! `roadie:{clocks:<shard>}:lease`.

use std::time::Duration;

use async_trait::async_trait;
use redis::aio::ConnectionLike;
use redis::{RedisWrite, Script, ToRedisArgs, Value};

use super::updates::Updates;

mod active;
mod due;
mod events;
mod indexes;
mod msgpack;
mod outbox;
mod per_thread;
mod ratings;
mod tickets;
use super::{
    Freshness, GameStore, IdempotentRecord, IdempotentWrite, LoggedAction, MemoryUse, Played, Quota,
    Retention, Revision, Saved, StoreError, StoredEvent, Table, WriteOutcome, due_shard,
};
use events::{EventEntry, decode_event, entry_len};
pub use per_thread::PerThread;

/// How many recent writes each game remembers at least, so that a write whose answer was lost
/// can be found out.
pub const RECENT_WRITES: usize = 64;

/// Seconds, at most, by which a game's logs (`events`, `writes`, `idem`) outlive its state, so
/// that a write renews their lifetimes only about once in this span: the save script asks how
/// long `writes` has left (one `PTTL`) and renews all three only when that is less than the
/// game's lifetime or more than the lifetime plus the span (a lifetime shortened, as when the
/// game ends). A lifetime shorter than the span uses its own length instead. Every `EXPIRE`
/// inside a script costs Redis about as much as the command itself again, and a write made three
/// of them.
pub const RENEW_LOGS_EVERY_SECS: u64 = 60;

/// A write script's `body` with `RENEW_EVERY` declared as [`RENEW_LOGS_EVERY_SECS`].
fn renewing(body: &str) -> String {
    format!("local RENEW_EVERY = {RENEW_LOGS_EVERY_SECS}\n{body}")
}

/// Creates a game unless its version key exists, the creation was fenced off, or Redis uses
/// `limit` percent of its `maxmemory` or more: "the room check and the creation must be one
/// decision", so no burst of creations can take the room kept for running games. `INFO memory`
/// is read inside the script, so that every creation sees the ones before it. Its two figures
/// are found with a plain `string.find`: a pattern that starts with a class is tried at every
/// byte of the answer, and that was a third of a creation's instructions in Redis.
/// KEYS: version, state, events, writes, fenced, outbox, webhook, actions.
/// ARGV: revision, state, ttl, webhook or '', limit (0: none), notice count, action count,
/// notices..., actions..., events...
/// Returns 1 created, 0 taken or fenced, 2 refused for room.
const CREATE: &str = r"
local function field(info, name)
  local at = string.find(info, name, 1, true)
  if not at then return nil end
  return tonumber(string.match(info, '^%d+', at + #name))
end
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('SISMEMBER', KEYS[5], ARGV[1]) == 1 then return 0 end
local limit = tonumber(ARGV[5])
if limit > 0 then
  local memory = redis.call('INFO', 'memory')
  local used = field(memory, '\nused_memory:')
  local max = field(memory, '\nmaxmemory:')
  if used and max and max > 0 and used * 100 >= max * limit then return 2 end
end
local logs = tonumber(ARGV[3]) + math.min(RENEW_EVERY, tonumber(ARGV[3]))
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
redis.call('LPUSH', KEYS[4], ARGV[1])
redis.call('EXPIRE', KEYS[4], logs)
if ARGV[4] ~= '' then
  redis.call('SET', KEYS[7], ARGV[4], 'EX', ARGV[3])
end
local notices = tonumber(ARGV[6])
if notices > 0 then
  redis.call('RPUSH', KEYS[6], unpack(ARGV, 8, 7 + notices))
  redis.call('EXPIRE', KEYS[6], ARGV[3])
end
local acts = tonumber(ARGV[7])
if acts > 0 then
  redis.call('RPUSH', KEYS[8], unpack(ARGV, 8 + notices, 7 + notices + acts))
  redis.call('EXPIRE', KEYS[8], logs)
end
if #ARGV > 7 + notices + acts then
  redis.call('RPUSH', KEYS[3], unpack(ARGV, 8 + notices + acts))
  redis.call('EXPIRE', KEYS[3], logs)
end
return 1
";

/// The compare-and-set of one write. A write that adds notices coalesces the outbox by the rule
/// of [`super::superseded`]: from the newest notice back, a `your_turn` notice goes (with its
/// count of failed deliveries) when a `game_over` follows it or when every seat it names is named
/// by a later one.
/// The state and version get the game's lifetime; the logs get it plus the
/// [`RENEW_LOGS_EVERY_SECS`] span (`RENEW_EVERY`, declared by [`renewing`]),
/// renewed only when `writes` has less than the lifetime left, or more than that span beyond it;
/// a log key the write creates gets it at once. Each call is given the lifetime as the text it was
/// sent: a Lua number passed to `redis.call` is formatted back into text on every call.
/// KEYS: version, state, events, idem, writes, fenced, for a game with a webhook outbox,
/// webhook, outbox_tries, and last the log of actions.
/// ARGV: expected revision, new revision, state, ttl, channel, record field or '', record or '',
/// notice count (-1: the game has no webhook), action count, notices..., actions..., events...
/// Returns 0 written (a bare number, the quickest reply to read), {1, current or ''} conflict,
/// {2, record} replayed, {3, ''} fenced.
const SAVE: &str = r"
if ARGV[6] ~= '' then
  local prior = redis.call('HGET', KEYS[4], ARGV[6])
  if prior then return {2, prior} end
end
local current = redis.call('GET', KEYS[1])
if not current then return {1, ''} end
if current ~= ARGV[1] then return {1, current} end
if redis.call('SISMEMBER', KEYS[6], ARGV[2]) == 1 then return {3, ''} end
local ttl = tonumber(ARGV[4])
local logs = ttl + math.min(RENEW_EVERY, ttl)
local left = redis.call('PTTL', KEYS[5])
local renew = left < ttl * 1000 or left > logs * 1000
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[4])
redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4])
local notices = tonumber(ARGV[8])
if notices > 0 then
  redis.call('RPUSH', KEYS[7], unpack(ARGV, 10, 9 + notices))
  local outbox = redis.call('LRANGE', KEYS[7], 0, -1)
  local named = {}
  local over = false
  for i = #outbox, 1, -1 do
    local ok, notice = pcall(cjson.decode, outbox[i])
    if ok and type(notice) == 'table' then
      if notice.type == 'game_over' then
        over = true
      elseif notice.type == 'your_turn' then
        local latest = false
        local seats = 0
        if type(notice.seats) == 'table' then
          for _, seat in ipairs(notice.seats) do
            seats = seats + 1
            if not named[seat] then
              named[seat] = true
              latest = true
            end
          end
        end
        if over or (not latest and seats > 0) then
          redis.call('LREM', KEYS[7], 1, outbox[i])
          if type(notice.id) == 'string' then
            redis.call('HDEL', KEYS[9], notice.id)
          end
        end
      end
    end
  end
end
if notices >= 0 then
  redis.call('EXPIRE', KEYS[7], ARGV[4])
  redis.call('EXPIRE', KEYS[8], ARGV[4])
  redis.call('EXPIRE', KEYS[9], ARGV[4])
end
local actions = KEYS[#KEYS]
local first = 10 + math.max(notices, 0)
local acts = tonumber(ARGV[9])
if acts > 0 then
  if redis.call('RPUSH', actions, unpack(ARGV, first, first + acts - 1)) == acts and not renew then
    redis.call('EXPIRE', actions, logs)
  end
  first = first + acts
end
if #ARGV >= first then
  local pushed = #ARGV - first + 1
  if redis.call('RPUSH', KEYS[3], unpack(ARGV, first)) == pushed and not renew then
    redis.call('EXPIRE', KEYS[3], logs)
  end
end
if redis.call('LPUSH', KEYS[5], ARGV[2]) > 96 then
  redis.call('LTRIM', KEYS[5], '0', '63')
end
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[4], ARGV[6], ARGV[7])
  if not renew then redis.call('EXPIRE', KEYS[4], logs) end
end
if renew then
  redis.call('EXPIRE', KEYS[3], logs)
  redis.call('EXPIRE', KEYS[4], logs)
  redis.call('EXPIRE', KEYS[5], logs)
  redis.call('EXPIRE', actions, logs)
end
redis.call('PUBLISH', ARGV[5], ARGV[2])
return 0
";

/// Shortens the lifetime of every key of a game to at most `ttl` seconds: `EXPIRE ... LT` leaves
/// a shorter lifetime as it is, and would leave a key that has none without one, so such a key
/// is given `ttl` plainly (a missing key is left missing either way).
/// KEYS: the game's keys. ARGV: ttl.
static SHORTEN: std::sync::LazyLock<Script> = std::sync::LazyLock::new(|| {
    Script::new(
        r"
for _, key in ipairs(KEYS) do
  if redis.call('TTL', key) == -1 then
    redis.call('EXPIRE', key, ARGV[1])
  else
    redis.call('EXPIRE', key, ARGV[1], 'LT')
  end
end
return 1
",
    )
});

/// Whether the write of a revision happened; if not, fences it off.
/// KEYS: version, writes, fenced. ARGV: revision, its number, ttl.
/// Returns 1 applied, 0 not applied (and now fenced), 2 unknown.
const RESOLVE: &str = r"
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then return 1 end
local recent = redis.call('LRANGE', KEYS[2], 0, -1)
for i = 1, #recent do
  if recent[i] == ARGV[1] then return 1 end
end
if #recent >= 64 then
  local oldest = tonumber(string.match(recent[#recent], '^%d+'))
  if oldest and oldest > tonumber(ARGV[2]) then return 2 end
end
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('EXPIRE', KEYS[3], ARGV[3])
return 0
";

/// The state unless the caller already holds its revision.
/// KEYS: version, state. ARGV: the revision held.
/// Returns 0 when there is no game, 1 when the revision is the one held, else the state.
/// Read-only (Redis 7's `no-writes` flag), so it runs while writes are paused or memory is full.
const LOAD_IF_CHANGED: &str = r"#!lua flags=no-writes
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if current == ARGV[1] then return 1 end
local state = redis.call('GET', KEYS[2])
if not state then return 0 end
return state
";

/// The state and one idempotency record, in one read. Read-only, like [`LOAD_IF_CHANGED`].
/// KEYS: state, idem. ARGV: the record's field.
const LOAD_WITH_RECORD: &str = r"#!lua flags=no-writes
return {redis.call('GET', KEYS[1]), redis.call('HGET', KEYS[2], ARGV[1])}
";

/// A token bucket kept as its theoretical arrival time (GCRA), on Redis's clock so that every
/// process agrees. KEYS: the bucket. ARGV: milliseconds per token, burst.
/// Returns 0 when a token was taken, else the milliseconds until one will be.
const TAKE_TOKEN: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local next_tat = tat + interval
local wait = next_tat - interval * tonumber(ARGV[2]) - now
if wait > 0.001 then return math.ceil(wait) end
redis.call('SET', KEYS[1], string.format('%.3f', next_tat), 'PX', math.ceil(next_tat - now) + 1)
return 0
";

/// Lists a game until it would expire, or takes it off the list.
/// KEYS: the ruleset's list. ARGV: id, ttl, 1 to list or 0 to take off.
const SET_LISTED: &str = r"
if ARGV[3] == '1' then
  local t = redis.call('TIME')
  redis.call('ZADD', KEYS[1], tonumber(t[1]) + tonumber(ARGV[2]), ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[2])
else
  redis.call('ZREM', KEYS[1], ARGV[1])
end
return 1
";

/// Prunes the entries whose games have expired and answers the latest listed.
/// KEYS: the ruleset's list. ARGV: how many.
const LIST_OPEN: &str = r"
local t = redis.call('TIME')
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. t[1])
return redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
";

fn listing_key(ruleset: &str) -> String {
    format!("roadie:open:{{{ruleset}}}")
}

/// Shard `shard` of the index of clocks, `roadie:{clocks:<shard>}`: a sorted set of the games of
/// that shard ([`crate::store::due_shard`]), written on its own (never in a game's script, so
/// that it need not share a Cluster slot with any game).
pub fn clocks_key(shard: u16) -> String {
    format!("roadie:{{clocks:{shard:02}}}")
}

/// Key `what` of game `id`.
fn key<'a>(id: &'a str, what: &'static str) -> GameKey<'a> {
    GameKey { id, what }
}

/// Key `what` of game `id`, `roadie:{<id>}:<what>`, written straight into the command that
/// names it: a write names six or nine, and each was a `String` of its own.
#[derive(Clone, Copy, Debug)]
struct GameKey<'a> {
    id: &'a str,
    what: &'static str,
}

impl GameKey<'_> {
    fn parts(&self) -> [&str; 4] {
        ["roadie:{", self.id, "}:", self.what]
    }
}

impl std::fmt::Display for GameKey<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.parts().iter().try_for_each(|part| f.write_str(part))
    }
}

impl ToRedisArgs for GameKey<'_> {
    fn write_redis_args<W: ?Sized + RedisWrite>(&self, out: &mut W) {
        use std::io::Write;
        let mut arg = out.writer_for_next_arg();
        for part in self.parts() {
            // Writing to the command's own buffer cannot fail.
            let _ = arg.write_all(part.as_bytes());
        }
    }

    fn num_of_args(&self) -> usize {
        1
    }
}

/// Every key of game `id`.
fn keys_of(id: &str) -> [GameKey<'_>; 10] {
    [
        "version",
        "state",
        "events",
        "idem",
        "writes",
        "fenced",
        "outbox",
        "webhook",
        "outbox_tries",
        "actions",
    ]
    .map(|what| key(id, what))
}

/// Games in Redis (or Redis Cluster), over any multiplexed async connection.
pub struct RedisStore<C> {
    conn: C,
    create: Script,
    save: Script,
    resolve: Script,
    load_if_changed: Script,
    load_with_record: Script,
    take_token: Script,
    retention: Retention,
    /// Percent of `maxmemory` from which the create script refuses new games; `0` never does.
    create_limit_percent: u64,
    timeout: Duration,
    updates: std::sync::Arc<Updates>,
    /// Where `INFO memory` is asked: the one Redis, or the listed nodes of a Cluster.
    nodes: Vec<redis::aio::ConnectionManager>,
}

impl<C> RedisStore<C>
where
    C: ConnectionLike + Clone + Send + Sync + 'static,
{
    /// A store over `conn`, hearing of writes through `updates` and reading memory figures from
    /// `nodes`; each call fails as unavailable after `timeout`. New games are refused from
    /// `create_limit_percent` of `maxmemory` on (`0`: never).
    pub fn new(
        conn: C,
        retention: Retention,
        create_limit_percent: u64,
        timeout: Duration,
        updates: std::sync::Arc<Updates>,
        nodes: Vec<redis::aio::ConnectionManager>,
    ) -> Self {
        Self {
            conn,
            create: Script::new(&renewing(CREATE)),
            save: Script::new(&renewing(SAVE)),
            resolve: Script::new(RESOLVE),
            load_if_changed: Script::new(LOAD_IF_CHANGED),
            load_with_record: Script::new(LOAD_WITH_RECORD),
            take_token: Script::new(TAKE_TOKEN),
            retention,
            create_limit_percent,
            timeout,
            updates,
            nodes,
        }
    }

    async fn run<T>(&self, f: impl AsyncFnOnce(&mut C) -> redis::RedisResult<T>) -> Result<T, StoreError> {
        let mut conn = self.conn.clone();
        match tokio::time::timeout(self.timeout, f(&mut conn)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) if e.is_connection_refusal() => Err(StoreError::Refused(e.to_string())),
            // Redis refuses a write when over `maxmemory` before applying any of it (a script's
            // first write, or a script with flags before it runs).
            Ok(Err(e)) if e.code() == Some("OOM") => Err(StoreError::Full(e.to_string())),
            Ok(Err(e)) => Err(StoreError::Unavailable(e.to_string())),
            Err(_) => Err(StoreError::Unavailable("timed out".into())),
        }
    }
}

fn encode<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// The log entries of `actions`, as JSON, written with `events` more events to reach `game`.
fn logged_actions(game: &Table, events: usize, actions: &[Played]) -> Result<Vec<String>, StoreError> {
    let first_seq = game.events + 1 - events as u64;
    actions
        .iter()
        .map(|played| encode(&played.logged(first_seq)))
        .collect()
}

fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// The state is read and written on every post: MessagePack, measured about three times faster
/// to decode than JSON (`cargo bench -p roadie-engine --bench encoding`). Events and idempotency
/// records stay JSON, because they carry the API's JSON as it was sent.
///
/// Structs keep their field names: without them a field skipped when empty would shift every
/// later one, and a field could not be added to a stored game.
/// Written by [`msgpack`], byte for byte as `rmp_serde::encode::write_named` would, in about a
/// third of the instructions.
fn encode_state(game: &Table) -> Result<Vec<u8>, StoreError> {
    // A mid-game state is one to three kilobytes: starting there spares the doublings from zero.
    msgpack::to_vec_named(game, STATE_CAPACITY).map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// The first allocation for an encoded state.
const STATE_CAPACITY: usize = 2048;

/// `EVALSHA` of `script` over `keys`, its arguments to follow. Built as one command, where
/// [`Script::prepare_invoke`] gathers every argument into vectors of its own and then copies them
/// into the command.
fn evalsha(script: &Script, keys: &[GameKey<'_>], args: usize, bytes: usize) -> redis::Cmd {
    let key_bytes: usize = keys.iter().flat_map(GameKey::parts).map(str::len).sum();
    let mut cmd = redis::Cmd::with_capacity(3 + keys.len() + args, 64 + key_bytes + bytes);
    cmd.arg("EVALSHA").arg(script.get_hash()).arg(keys.len());
    for key in keys {
        cmd.arg(key);
    }
    cmd
}

/// Runs an [`evalsha`] command, loading the script first when Redis does not know it (after a
/// restart, a failover or `SCRIPT FLUSH`); the same command then runs once more.
async fn invoke<T: redis::FromRedisValue>(
    conn: &mut impl ConnectionLike,
    script: &Script,
    cmd: &redis::Cmd,
) -> redis::RedisResult<T> {
    match cmd.query_async(conn).await {
        Err(e) if e.kind() == redis::ErrorKind::Server(redis::ServerErrorKind::NoScript) => {
            script.load_async(conn).await?;
            cmd.query_async(conn).await
        }
        other => other,
    }
}

fn decode_state(bytes: &[u8]) -> Result<Table, StoreError> {
    rmp_serde::from_slice(bytes).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn ttl_secs(ttl: Duration) -> u64 {
    ttl.as_secs().max(1)
}

fn bytes_of(value: Value) -> Result<Option<Vec<u8>>, StoreError> {
    match value {
        Value::Nil => Ok(None),
        Value::BulkString(bytes) => Ok(Some(bytes)),
        Value::SimpleString(s) => Ok(Some(s.into_bytes())),
        other => Err(StoreError::Corrupt(format!("unexpected script reply {other:?}"))),
    }
}

/// A number from `INFO memory`'s `name:value` lines.
fn info_field(info: &str, name: &str) -> Option<u64> {
    info.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key == name).then(|| value.trim().parse().ok()).flatten()
    })
}

#[async_trait]
impl<C> GameStore for RedisStore<C>
where
    C: ConnectionLike + Clone + Send + Sync + 'static,
{
    async fn create(
        &self,
        game: &Table,
        events: &[StoredEvent],
        actions: &[Played],
    ) -> Result<bool, StoreError> {
        let state = encode_state(game)?;
        let ttl = ttl_secs(self.retention.for_game(game));
        let [
            version,
            state_key,
            events_key,
            _,
            writes,
            fenced,
            outbox,
            webhook,
            _,
            actions_key,
        ] = keys_of(&game.id);
        // KEYS in the order CREATE names them.
        let keys = [
            version,
            state_key,
            events_key,
            writes,
            fenced,
            outbox,
            webhook,
            actions_key,
        ];
        let target = game.webhook.as_ref().map(encode).transpose()?.unwrap_or_default();
        let logged = logged_actions(game, events.len(), actions)?;
        let bytes = state.len()
            + target.len()
            + events.iter().map(entry_len).sum::<usize>()
            + logged.iter().map(String::len).sum::<usize>()
            + game.notices.iter().map(|n| n.body.len()).sum::<usize>()
            + 96;
        let args = 7 + game.notices.len() + logged.len() + events.len();
        let mut cmd = evalsha(&self.create, &keys, args, bytes);
        cmd.arg(game.revision.text().as_str())
            .arg(&state)
            .arg(ttl)
            .arg(&target)
            .arg(self.create_limit_percent)
            .arg(game.notices.len())
            .arg(logged.len());
        for notice in &game.notices {
            cmd.arg(&notice.body);
        }
        for entry in &logged {
            cmd.arg(entry);
        }
        for event in events {
            cmd.arg(EventEntry(event));
        }
        let created: i64 = self
            .run(async |conn| invoke(conn, &self.create, &cmd).await)
            .await?;
        match created {
            1 => Ok(true),
            0 => Ok(false),
            2 => Err(StoreError::Full(format!(
                "Redis uses {}% of its maxmemory or more",
                self.create_limit_percent
            ))),
            other => Err(StoreError::Corrupt(format!("unexpected create status {other}"))),
        }
    }

    async fn load(
        &self,
        id: &str,
        idempotency_key: Option<&str>,
    ) -> Result<(Option<Table>, Option<IdempotentRecord>), StoreError> {
        let (state, record): (Option<Vec<u8>>, Option<Vec<u8>>) = match idempotency_key {
            None => {
                let state = self
                    .run(async |conn| redis::cmd("GET").arg(key(id, "state")).query_async(conn).await)
                    .await?;
                (state, None)
            }
            Some(field) => {
                let reply: Vec<Value> = self
                    .run(async |conn| {
                        self.load_with_record
                            .key(key(id, "state"))
                            .key(key(id, "idem"))
                            .arg(field)
                            .invoke_async(conn)
                            .await
                    })
                    .await?;
                let mut reply = reply.into_iter();
                let state = reply.next().map(bytes_of).transpose()?.flatten();
                let record = reply.next().map(bytes_of).transpose()?.flatten();
                (state, record)
            }
        };
        let game = state.as_deref().map(decode_state).transpose()?;
        let record = record.as_deref().map(decode_record).transpose()?;
        Ok((game, record))
    }

    async fn load_if_changed(&self, id: &str, known: &Revision) -> Result<Freshness, StoreError> {
        let reply: Value = self
            .run(async |conn| {
                self.load_if_changed
                    .key(key(id, "version"))
                    .key(key(id, "state"))
                    .arg(known.text().as_str())
                    .invoke_async(conn)
                    .await
            })
            .await?;
        match reply {
            Value::Int(0) | Value::Nil => Ok(Freshness::Missing),
            Value::Int(1) => Ok(Freshness::Unchanged),
            Value::BulkString(bytes) => Ok(Freshness::Changed(Box::new(decode_state(&bytes)?))),
            other => Err(StoreError::Corrupt(format!("unexpected script reply {other:?}"))),
        }
    }

    async fn save(
        &self,
        expected: &Revision,
        game: &Table,
        events: &[StoredEvent],
        actions: &[Played],
        idempotency: Option<IdempotentWrite<'_>>,
    ) -> Result<Saved, StoreError> {
        let state = encode_state(game)?;
        let ttl = ttl_secs(self.retention.for_game(game));
        let (field, record) = match &idempotency {
            Some(write) => (write.key, encode_record(write.record)?),
            None => ("", Vec::new()),
        };
        let notices: i64 = match &game.webhook {
            Some(_) => game.notices.len() as i64,
            None => -1,
        };
        // KEYS in the order SAVE names them: version, state, events, idem, writes, fenced, for
        // a game with a webhook outbox, webhook, outbox_tries (every key the script is passed
        // is hashed into a Lua string, and a game without one never reads them), and actions:
        // every key of the game, or all but the webhook's three.
        let all = keys_of(&game.id);
        let short;
        let keys: &[GameKey<'_>] = if game.webhook.is_some() {
            &all
        } else {
            let [
                version,
                state_key,
                events_key,
                idem,
                writes,
                fenced,
                _,
                _,
                _,
                actions_key,
            ] = keys_of(&game.id);
            short = [version, state_key, events_key, idem, writes, fenced, actions_key];
            &short
        };
        let logged = logged_actions(game, events.len(), actions)?;
        let notice_bodies: &[_] = if game.webhook.is_some() {
            &game.notices
        } else {
            &[]
        };
        let bytes = state.len()
            + record.len()
            + events.iter().map(entry_len).sum::<usize>()
            + logged.iter().map(String::len).sum::<usize>()
            + notice_bodies.iter().map(|n| n.body.len()).sum::<usize>()
            + 160;
        let args = 9 + notice_bodies.len() + logged.len() + events.len();
        let mut cmd = evalsha(&self.save, keys, args, bytes);
        cmd.arg(expected.text().as_str())
            .arg(game.revision.text().as_str())
            .arg(&state)
            .arg(ttl)
            .arg(key(&game.id, "updates"))
            .arg(field)
            .arg(&record)
            .arg(notices)
            .arg(logged.len());
        for notice in notice_bodies {
            cmd.arg(&notice.body);
        }
        for entry in &logged {
            cmd.arg(entry);
        }
        for event in events {
            cmd.arg(EventEntry(event));
        }
        let reply: Value = self
            .run(async |conn| invoke(conn, &self.save, &cmd).await)
            .await?;
        if matches!(reply, Value::Int(0)) {
            return Ok(Saved::Written);
        }
        let (status, value): (i64, Value) = redis::from_redis_value(reply)
            .map_err(|e| StoreError::Corrupt(format!("unexpected script reply: {e}")))?;
        let text = bytes_of(value)?.unwrap_or_default();
        match status {
            1 if text.is_empty() => Ok(Saved::Conflict { current: None }),
            1 => {
                let current = std::str::from_utf8(&text)
                    .ok()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| StoreError::Corrupt("the stored revision does not read".into()))?;
                Ok(Saved::Conflict {
                    current: Some(current),
                })
            }
            2 => Ok(Saved::Replayed(decode_record(&text)?)),
            3 => Ok(Saved::Fenced),
            other => Err(StoreError::Corrupt(format!("unexpected script status {other}"))),
        }
    }

    async fn resolve(&self, id: &str, revision: &Revision) -> Result<WriteOutcome, StoreError> {
        let ttl = ttl_secs(self.retention.idle);
        let outcome: i64 = self
            .run(async |conn| {
                self.resolve
                    .key(key(id, "version"))
                    .key(key(id, "writes"))
                    .key(key(id, "fenced"))
                    .arg(revision.text().as_str())
                    .arg(revision.number)
                    .arg(ttl)
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(match outcome {
            1 => WriteOutcome::Applied,
            0 => WriteOutcome::NotApplied,
            _ => WriteOutcome::Unknown,
        })
    }

    async fn wait_for_change(&self, id: &str, known: &Revision, within: Duration) -> Result<(), StoreError> {
        let current = async || -> Result<Option<String>, StoreError> {
            self.run(async |conn| redis::cmd("GET").arg(key(id, "version")).query_async(conn).await)
                .await
        };
        self.updates
            .wait(key(id, "updates").to_string(), known.to_string(), within, current)
            .await
    }

    async fn events(&self, id: &str, after: u64, limit: u64) -> Result<Vec<StoredEvent>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let start = i64::try_from(after).unwrap_or(i64::MAX);
        let stop = i64::try_from(after.saturating_add(limit - 1)).unwrap_or(i64::MAX);
        let raw: Vec<Vec<u8>> = self
            .run(async |conn| {
                redis::cmd("LRANGE")
                    .arg(key(id, "events"))
                    .arg(start)
                    .arg(stop)
                    .query_async(conn)
                    .await
            })
            .await?;
        raw.iter().map(|entry| decode_event(entry)).collect()
    }

    async fn actions(&self, id: &str) -> Result<Vec<LoggedAction>, StoreError> {
        let raw: Vec<Vec<u8>> = self
            .run(async |conn| {
                redis::cmd("LRANGE")
                    .arg(key(id, "actions"))
                    .arg(0)
                    .arg(-1)
                    .query_async(conn)
                    .await
            })
            .await?;
        raw.iter().map(|entry| decode(entry)).collect()
    }

    async fn delete(&self, id: &str) -> Result<bool, StoreError> {
        let removed: i64 = self
            .run(async |conn| redis::cmd("DEL").arg(&keys_of(id)[..]).query_async(conn).await)
            .await?;
        Ok(removed > 0)
    }

    async fn shorten(&self, id: &str, ttl: Duration) -> Result<(), StoreError> {
        let _: i64 = self
            .run(async |conn| {
                let mut call = SHORTEN.prepare_invoke();
                for key in keys_of(id) {
                    call.key(key);
                }
                call.arg(ttl_secs(ttl)).invoke_async(conn).await
            })
            .await?;
        Ok(())
    }

    async fn set_listed(&self, ruleset: &str, id: &str, listed: bool) -> Result<(), StoreError> {
        let ttl = ttl_secs(self.retention.idle);
        let _: i64 = self
            .run(async |conn| {
                Script::new(SET_LISTED)
                    .key(listing_key(ruleset))
                    .arg(id)
                    .arg(ttl)
                    .arg(u8::from(listed))
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok(())
    }

    async fn listed(&self, ruleset: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        self.run(async |conn| {
            Script::new(LIST_OPEN)
                .key(listing_key(ruleset))
                .arg(limit.max(1))
                .invoke_async(conn)
                .await
        })
        .await
    }

    async fn schedule_clock(&self, id: &str, deadline_ms: u64, earlier_only: bool) -> Result<(), StoreError> {
        let _: i64 = self
            .run(async |conn| {
                let mut cmd = redis::cmd("ZADD");
                cmd.arg(clocks_key(due_shard(id)));
                if earlier_only {
                    cmd.arg("LT");
                }
                cmd.arg(deadline_ms).arg(id).query_async(conn).await
            })
            .await?;
        Ok(())
    }

    async fn unschedule_clock(&self, id: &str) -> Result<(), StoreError> {
        let _: i64 = self
            .run(async |conn| {
                redis::cmd("ZREM")
                    .arg(clocks_key(due_shard(id)))
                    .arg(id)
                    .query_async(conn)
                    .await
            })
            .await?;
        Ok(())
    }

    async fn due_clocks(&self, shard: u16, now_ms: u64, limit: usize) -> Result<Vec<String>, StoreError> {
        self.run(async |conn| {
            redis::cmd("ZRANGE")
                .arg(clocks_key(shard))
                .arg("-inf")
                .arg(now_ms)
                .arg("BYSCORE")
                .arg("LIMIT")
                .arg(0)
                .arg(limit)
                .query_async(conn)
                .await
        })
        .await
    }

    async fn take_token(&self, bucket: &str, quota: Quota) -> Result<Option<Duration>, StoreError> {
        let wait_ms: u64 = self
            .run(async |conn| {
                self.take_token
                    .key(format!("roadie:limit:{{{bucket}}}"))
                    .arg(quota.interval_ms())
                    .arg(quota.burst.max(1))
                    .invoke_async(conn)
                    .await
            })
            .await?;
        Ok((wait_ms > 0).then(|| Duration::from_millis(wait_ms)))
    }

    async fn memory(&self) -> Result<Option<MemoryUse>, StoreError> {
        let mut fullest: Option<MemoryUse> = None;
        for node in &self.nodes {
            let mut conn = node.clone();
            let info: String = match tokio::time::timeout(
                self.timeout,
                redis::cmd("INFO").arg("memory").query_async(&mut conn),
            )
            .await
            {
                Ok(Ok(info)) => info,
                Ok(Err(e)) => return Err(StoreError::Unavailable(e.to_string())),
                Err(_) => return Err(StoreError::Unavailable("timed out".into())),
            };
            let (Some(used), Some(max)) = (info_field(&info, "used_memory"), info_field(&info, "maxmemory"))
            else {
                continue;
            };
            let share = |m: &MemoryUse| {
                if m.max_bytes == 0 {
                    0.0
                } else {
                    m.used_bytes as f64 / m.max_bytes as f64
                }
            };
            let this = MemoryUse {
                used_bytes: used,
                max_bytes: max,
            };
            if fullest.is_none_or(|f| {
                share(&this) > share(&f) || (f.max_bytes == 0 && max == 0 && used > f.used_bytes)
            }) {
                fullest = Some(this);
            }
        }
        Ok(fullest)
    }

    async fn ping(&self) -> Result<(), StoreError> {
        let pong: String = self
            .run(async |conn| redis::cmd("PING").query_async(conn).await)
            .await?;
        if pong == "PONG" {
            Ok(())
        } else {
            Err(StoreError::Unavailable(format!("PING answered {pong:?}")))
        }
    }

    fn kind(&self) -> &'static str {
        "redis"
    }
}

/// An [`IdempotentRecord`] as stored: a MessagePack array of fingerprint, revision number, the
/// write id's two halves, first event, event count, finished and seats to act (about 50 bytes,
/// where named JSON took about 200).
#[derive(serde::Serialize, serde::Deserialize)]
struct CompactRecord(u64, u64, u64, u64, u64, u64, bool, Vec<roadie_engine::Seat>);

fn encode_record(record: &IdempotentRecord) -> Result<Vec<u8>, StoreError> {
    let compact = CompactRecord(
        record.fingerprint,
        record.revision.number,
        (record.revision.write >> 64) as u64,
        record.revision.write as u64,
        record.first_event,
        record.events,
        record.finished,
        record.to_act.clone(),
    );
    rmp_serde::to_vec(&compact).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn decode_record(bytes: &[u8]) -> Result<IdempotentRecord, StoreError> {
    let CompactRecord(fingerprint, number, high, low, first_event, events, finished, to_act) =
        rmp_serde::from_slice(bytes).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    Ok(IdempotentRecord {
        fingerprint,
        revision: Revision {
            number,
            write: (u128::from(high) << 64) | u128::from(low),
        },
        first_event,
        events,
        finished,
        to_act,
    })
}

/// A lazily connecting, self-healing connection to one Redis.
fn manager(url: &str, timeout: Duration) -> Result<redis::aio::ConnectionManager, StoreError> {
    open_manager(url, timeout).map_err(|e| StoreError::Unavailable(e.to_string()))
}

fn open_manager(url: &str, timeout: Duration) -> redis::RedisResult<redis::aio::ConnectionManager> {
    let config = redis::aio::ConnectionManagerConfig::new()
        .set_connection_timeout(Some(timeout))
        .set_response_timeout(Some(timeout))
        .set_number_of_retries(1)
        .set_max_delay(Duration::from_millis(500));
    redis::aio::ConnectionManager::new_lazy_with_config(redis::Client::open(url)?, config)
}

/// Connects to `url`: `redis+cluster://host:port,host:port` names a
/// Redis Cluster by some of its nodes; anything else is one Redis (`redis://`, `redis+unix://`).
pub async fn connect(
    url: &str,
    retention: Retention,
    create_limit_percent: u64,
    timeout: Duration,
) -> Result<std::sync::Arc<dyn GameStore>, StoreError> {
    let unavailable = |e: redis::RedisError| StoreError::Unavailable(e.to_string());
    if let Some(rest) = url.strip_prefix("redis+cluster://") {
        let nodes: Vec<String> = rest
            .split(',')
            .filter(|n| !n.trim().is_empty())
            .map(|n| format!("redis://{}", n.trim()))
            .collect();
        let first = nodes
            .first()
            .cloned()
            .ok_or_else(|| StoreError::Unavailable("redis+cluster:// names no node".into()))?;
        let client = redis::cluster::ClusterClientBuilder::new(nodes.clone())
            .connection_timeout(timeout)
            .response_timeout(timeout)
            .build()
            .map_err(unavailable)?;
        let conn = client.get_async_connection().await.map_err(unavailable)?;
        // PUBLISH reaches every node of a cluster, so one node's subscriptions hear every game.
        let updates = Updates::connect(&first, timeout)?;
        let probes = nodes
            .iter()
            .map(|node| manager(node, timeout))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(std::sync::Arc::new(RedisStore::new(
            conn,
            retention,
            create_limit_percent,
            timeout,
            updates,
            probes,
        )));
    }
    let probe = manager(url, timeout)?;
    let updates = Updates::connect(url, timeout)?;
    let url = url.to_owned();
    let conn = PerThread::new(move || open_manager(&url, timeout));
    Ok(std::sync::Arc::new(RedisStore::new(
        conn,
        retention,
        create_limit_percent,
        timeout,
        updates,
        vec![probe],
    )))
}

#[cfg(test)]
mod tests {
    use roadie_engine::{AnyGame, RULESETS};

    use super::*;

    #[test]
    fn an_idempotency_record_round_trips_in_few_bytes() {
        let record = IdempotentRecord {
            fingerprint: u64::MAX - 3,
            revision: Revision::first().next(),
            first_event: 1_234,
            events: 3,
            finished: true,
            to_act: vec![roadie_engine::Seat::new(0), roadie_engine::Seat::new(2)],
        };
        let bytes = encode_record(&record).expect("encodes");
        assert!(bytes.len() <= 64, "{} bytes", bytes.len());
        assert_eq!(decode_record(&bytes).expect("decodes"), record);
    }

    /// Ruleset `slug` at its largest seat count, 40 middle actions in, with a clock.
    fn mid_game_table(slug: &str, seats: usize) -> Table {
        let (mut game, _) = AnyGame::setup(slug, None, seats, 11).expect("setup");
        for _ in 0..40 {
            let Some(&seat) = game.to_act().first() else { break };
            let actions: Vec<serde_json::Value> =
                serde_json::from_str(game.legal_actions(seat).get()).expect("actions are JSON");
            let action = serde_json::to_string(&actions[actions.len() / 2]).expect("serializes");
            game.apply(seat, &action).expect("a listed action is legal");
        }
        Table {
            id: "g".into(),
            revision: Revision::first().next(),
            events: 7,
            seed: 11,
            salt: "00ff".into(),
            clock: Some(crate::table::clock::Clock::start(
                crate::table::clock::TimeControl {
                    per_decision_secs: 30,
                    bank_secs: 60,
                },
                game.seat_count(),
                &game.to_act(),
                1_700_000_000_000,
            )),
            game,
            seats: Default::default(),
            webhook: None,
            app: None,
            options: None,
            rules_version: 1,
            forked_from: None,
            aborted: false,
            rated: None,
            notices: Vec::new(),
        }
    }

    #[test]
    fn every_ruleset_state_round_trips_through_messagepack_mid_game() {
        for ruleset in RULESETS {
            let stored = mid_game_table(ruleset.slug, *ruleset.seats.end());
            let back = decode_state(&encode_state(&stored).expect("encodes")).expect("decodes");
            assert_eq!(back.game, stored.game, "{}", ruleset.slug);
            assert_eq!(back.clock, stored.clock, "{}", ruleset.slug);
            assert_eq!(
                (back.revision, back.events, back.seed, back.salt.as_str()),
                (stored.revision, 7, 11, "00ff")
            );
        }
    }

    /// Every state of played games, at every seat count, is written byte for byte as
    /// `rmp_serde` writes it: the fixtures below pin one state per ruleset, this the rest.
    #[test]
    fn states_of_played_games_are_written_as_rmp_serde_writes_them() {
        for ruleset in RULESETS {
            for seats in ruleset.seats.clone() {
                for seed in 0..3u64 {
                    let mut table = mid_game_table(ruleset.slug, seats);
                    let (game, _) = AnyGame::setup(ruleset.slug, None, seats, seed).expect("setup");
                    table.game = game;
                    for step in 0.. {
                        let mut expected = Vec::new();
                        rmp_serde::encode::write_named(&mut expected, &table).expect("rmp_serde writes it");
                        assert_eq!(
                            encode_state(&table).expect("encodes"),
                            expected,
                            "{} at {seats} seats, seed {seed}, step {step}",
                            ruleset.slug
                        );
                        let Some(&seat) = table.game.to_act().first() else {
                            break;
                        };
                        if step == 400 {
                            break;
                        }
                        let actions: Vec<serde_json::Value> =
                            serde_json::from_str(table.game.legal_actions(seat).get())
                                .expect("actions are JSON");
                        let pick = (seed as usize + step * 7) % actions.len();
                        let action = serde_json::to_string(&actions[pick]).expect("serializes");
                        table.game.apply(seat, &action).expect("a listed action is legal");
                        table.revision = table.revision.next();
                        table.events += 1;
                    }
                }
            }
        }
    }

    /// A stored state kept as hex text.
    fn fixture(path: &std::path::Path) -> Vec<u8> {
        let hex = std::fs::read_to_string(path).expect("the fixture exists");
        let hex = hex.trim();
        (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
            .collect()
    }

    /// States written by this version must read in every later one: games outlive a deploy, so
    /// a field may be added to a stored struct only with a default. Each ruleset's mid-game state
    /// as this build writes it is kept in `fixtures/`; it must decode, and encode again to the
    /// same bytes (nothing read is dropped). After a deliberate change of the form,
    /// `ROADIE_UPDATE_FIXTURES=1 cargo test -p roadie-api --lib stored_states` writes them again.
    #[test]
    fn stored_states_of_this_form_still_read() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store/redis/fixtures");
        for ruleset in RULESETS {
            let path = dir.join(format!("{}.msgpack.hex", ruleset.slug));
            if std::env::var_os("ROADIE_UPDATE_FIXTURES").is_some() {
                let bytes =
                    encode_state(&mid_game_table(ruleset.slug, *ruleset.seats.end())).expect("encodes");
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                std::fs::create_dir_all(&dir).expect("fixtures directory");
                std::fs::write(&path, hex + "\n").expect("writes the fixture");
            }
            let bytes = fixture(&path);
            let table = decode_state(&bytes).unwrap_or_else(|e| {
                panic!(
                    "{}: a state stored by an earlier build no longer reads: {e}",
                    ruleset.slug
                )
            });
            assert_eq!(table.game.ruleset().slug, ruleset.slug);
            assert_eq!(encode_state(&table).expect("encodes"), bytes, "{}", ruleset.slug);
        }
    }

    /// The same mid-game states as an earlier build wrote them, with every typed id as its
    /// string (`fixtures/ids-as-strings/`): each must read as the game the current form holds, so
    /// that written again it is byte for byte the current fixture (but for the write id, which
    /// each fixture's game drew on its own).
    #[test]
    fn states_stored_with_id_strings_read_as_the_same_games() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store/redis/fixtures");
        for ruleset in RULESETS {
            let file = format!("{}.msgpack.hex", ruleset.slug);
            let earlier = fixture(&dir.join("ids-as-strings").join(&file));
            let current = fixture(&dir.join(&file));
            assert!(
                earlier.len() > current.len(),
                "{}: the id strings took more room",
                ruleset.slug
            );
            let mut table = decode_state(&earlier).unwrap_or_else(|e| panic!("{}: {e}", ruleset.slug));
            // Each fixture's game drew its own write id; everything else is the same game.
            table.revision = decode_state(&current).expect("the current form reads").revision;
            assert_eq!(
                encode_state(&table).expect("encodes"),
                current,
                "{}",
                ruleset.slug
            );
        }
    }
}

#[cfg(test)]
mod info {
    use super::info_field;

    #[test]
    fn memory_figures_are_read_from_info() {
        let info = "# Memory\r\nused_memory:1048576\r\nused_memory_human:1.00M\r\nmaxmemory:0\r\n";
        assert_eq!(info_field(info, "used_memory"), Some(1_048_576));
        assert_eq!(info_field(info, "maxmemory"), Some(0));
        assert_eq!(info_field(info, "used_memory_peak"), None);
    }
}

#[cfg(test)]
mod commands {
    use super::*;

    fn args(cmd: &redis::Cmd) -> Vec<String> {
        cmd.args_iter()
            .map(|arg| match arg {
                redis::Arg::Simple(bytes) => String::from_utf8_lossy(bytes).into_owned(),
                _ => panic!("only plain arguments here"),
            })
            .collect()
    }

    #[test]
    fn a_write_names_each_key_of_its_game_once_in_its_order() {
        let cmd = evalsha(&Script::new(SAVE), &keys_of("g1"), 0, 0);
        let named = args(&cmd);
        assert_eq!(named[0], "EVALSHA");
        assert_eq!(named[2], "10");
        assert_eq!(
            named[3..],
            [
                "version",
                "state",
                "events",
                "idem",
                "writes",
                "fenced",
                "outbox",
                "webhook",
                "outbox_tries",
                "actions"
            ]
            .map(|what| format!("roadie:{{g1}}:{what}"))
        );
    }

    #[test]
    fn both_write_scripts_renew_the_logs_on_the_same_span() {
        let declared = format!("local RENEW_EVERY = {RENEW_LOGS_EVERY_SECS}\n");
        assert!(renewing(CREATE).starts_with(&declared) && renewing(SAVE).starts_with(&declared));
        assert!(CREATE.contains("RENEW_EVERY") && SAVE.contains("RENEW_EVERY"));
        assert_eq!(RENEW_LOGS_EVERY_SECS, 60);
    }
}
