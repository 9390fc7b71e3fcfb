//! The Redis store: one Redis, or a Redis Cluster, through the same code.
//!
//! Keys of game `<id>` share the hash tag `{<id>}`, so every script touches one slot:
//!
//! | key | holds |
//! | --- | --- |
//! | `roadie:{<id>}:version` | the version, as a decimal string: the compare-and-set checks it alone |
//! | `roadie:{<id>}:state` | the [`StoredGame`] as MessagePack (a third of the JSON's size, three times faster to decode) |
//! | `roadie:{<id>}:events` | a list of [`StoredEvent`]s as JSON; position + 1 is the sequence number |
//! | `roadie:{<id>}:idem:<seat>:<key>` | an [`IdempotentRecord`] as JSON |
//!
//! Each write publishes the new version on the channel `roadie:{<id>}:updates`. Every key of a
//! game gets the game's lifetime again on each write.

use std::time::Duration;

use async_trait::async_trait;
use redis::aio::ConnectionLike;
use redis::{Script, Value};

use super::updates::Updates;
use super::{
    Freshness, GameStore, IdempotentRecord, IdempotentWrite, Retention, Saved, StoreError, StoredEvent,
    StoredGame,
};

/// Creates a game unless its version key exists.
/// KEYS: version, state, events. ARGV: state, ttl, events...
const CREATE: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], '1', 'EX', ARGV[2])
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2])
if #ARGV > 2 then
  redis.call('RPUSH', KEYS[3], unpack(ARGV, 3))
  redis.call('EXPIRE', KEYS[3], ARGV[2])
end
return 1
";

/// The compare-and-set of one write.
/// KEYS: version, state, events, idempotency (the version key again when there is none).
/// ARGV: expected version, new version, state, ttl, channel, idempotency record or '', events...
/// Returns {0, version} written, {1, current} conflict, {2, record} replayed.
const SAVE: &str = r"
if ARGV[6] ~= '' then
  local prior = redis.call('GET', KEYS[4])
  if prior then return {2, prior} end
end
local current = redis.call('GET', KEYS[1])
if not current then return {1, '0'} end
if current ~= ARGV[1] then return {1, current} end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[4])
redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4])
if #ARGV > 6 then
  redis.call('RPUSH', KEYS[3], unpack(ARGV, 7))
end
redis.call('EXPIRE', KEYS[3], ARGV[4])
if ARGV[6] ~= '' then
  redis.call('SET', KEYS[4], ARGV[6], 'EX', ARGV[4])
end
redis.call('PUBLISH', ARGV[5], ARGV[2])
return {0, ARGV[2]}
";

/// The state unless the caller already holds its version.
/// KEYS: version, state. ARGV: the version held.
/// Returns 0 when there is no game, 1 when the version is the one held, else the state.
const LOAD_IF_CHANGED: &str = r"
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if current == ARGV[1] then return 1 end
local state = redis.call('GET', KEYS[2])
if not state then return 0 end
return state
";

fn key(id: &str, what: &str) -> String {
    format!("roadie:{{{id}}}:{what}")
}

/// Games in Redis (or Redis Cluster), over any multiplexed async connection.
pub struct RedisStore<C> {
    conn: C,
    create: Script,
    save: Script,
    load_if_changed: Script,
    retention: Retention,
    timeout: Duration,
    updates: std::sync::Arc<Updates>,
}

impl<C> RedisStore<C>
where
    C: ConnectionLike + Clone + Send + Sync + 'static,
{
    /// A store over `conn`, hearing of writes through `updates`; each call fails as unavailable
    /// after `timeout`.
    pub fn new(conn: C, retention: Retention, timeout: Duration, updates: std::sync::Arc<Updates>) -> Self {
        Self {
            conn,
            create: Script::new(CREATE),
            save: Script::new(SAVE),
            load_if_changed: Script::new(LOAD_IF_CHANGED),
            retention,
            timeout,
            updates,
        }
    }

    async fn run<T>(&self, f: impl AsyncFnOnce(&mut C) -> redis::RedisResult<T>) -> Result<T, StoreError> {
        let mut conn = self.conn.clone();
        match tokio::time::timeout(self.timeout, f(&mut conn)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(StoreError::Unavailable(e.to_string())),
            Err(_) => Err(StoreError::Unavailable("timed out".into())),
        }
    }
}

fn encode<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// The state is read and written on every post: MessagePack, measured about three times faster
/// to decode than JSON (`cargo bench -p roadie-engine --bench encoding`). Events and idempotency
/// records stay JSON, because they carry the API's JSON as it was sent.
fn encode_state(game: &StoredGame) -> Result<Vec<u8>, StoreError> {
    rmp_serde::to_vec_named(game).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn decode_state(bytes: &[u8]) -> Result<StoredGame, StoreError> {
    rmp_serde::from_slice(bytes).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn ttl_secs(ttl: Duration) -> u64 {
    ttl.as_secs().max(1)
}

#[async_trait]
impl<C> GameStore for RedisStore<C>
where
    C: ConnectionLike + Clone + Send + Sync + 'static,
{
    async fn create(&self, game: &StoredGame, events: &[StoredEvent]) -> Result<bool, StoreError> {
        let state = encode_state(game)?;
        let events = events.iter().map(encode).collect::<Result<Vec<_>, _>>()?;
        let ttl = ttl_secs(self.retention.for_game(game));
        let created: i64 = self
            .run(async |conn| {
                let mut call = self.create.prepare_invoke();
                call.key(key(&game.id, "version"))
                    .key(key(&game.id, "state"))
                    .key(key(&game.id, "events"))
                    .arg(&state)
                    .arg(ttl);
                for event in &events {
                    call.arg(event);
                }
                call.invoke_async(conn).await
            })
            .await?;
        Ok(created == 1)
    }

    async fn load(
        &self,
        id: &str,
        idempotency_key: Option<&str>,
    ) -> Result<(Option<StoredGame>, Option<IdempotentRecord>), StoreError> {
        let (state, record): (Option<Vec<u8>>, Option<Vec<u8>>) = match idempotency_key {
            None => {
                let state = self
                    .run(async |conn| redis::cmd("GET").arg(key(id, "state")).query_async(conn).await)
                    .await?;
                (state, None)
            }
            Some(k) => {
                self.run(async |conn| {
                    redis::cmd("MGET")
                        .arg(key(id, "state"))
                        .arg(key(id, &format!("idem:{k}")))
                        .query_async(conn)
                        .await
                })
                .await?
            }
        };
        let game = state.as_deref().map(decode_state).transpose()?;
        let record = record.as_deref().map(decode::<IdempotentRecord>).transpose()?;
        Ok((game, record))
    }

    async fn load_if_changed(&self, id: &str, known: u64) -> Result<Freshness, StoreError> {
        let reply: Value = self
            .run(async |conn| {
                self.load_if_changed
                    .key(key(id, "version"))
                    .key(key(id, "state"))
                    .arg(known)
                    .invoke_async(conn)
                    .await
            })
            .await?;
        match reply {
            Value::Int(0) | Value::Nil => Ok(Freshness::Missing),
            Value::Int(1) => Ok(Freshness::Unchanged),
            Value::BulkString(bytes) => Ok(Freshness::Changed(decode_state(&bytes)?)),
            other => Err(StoreError::Corrupt(format!("unexpected script reply {other:?}"))),
        }
    }

    async fn save(
        &self,
        expected: u64,
        game: &StoredGame,
        events: &[StoredEvent],
        idempotency: Option<IdempotentWrite<'_>>,
    ) -> Result<Saved, StoreError> {
        let state = encode_state(game)?;
        let events = events.iter().map(encode).collect::<Result<Vec<_>, _>>()?;
        let ttl = ttl_secs(self.retention.for_game(game));
        let (idem_key, idem_record) = match &idempotency {
            Some(write) => (
                key(&game.id, &format!("idem:{}", write.key)),
                encode(write.record)?,
            ),
            None => (key(&game.id, "version"), String::new()),
        };
        let (status, value): (i64, Value) = self
            .run(async |conn| {
                let mut call = self.save.prepare_invoke();
                call.key(key(&game.id, "version"))
                    .key(key(&game.id, "state"))
                    .key(key(&game.id, "events"))
                    .key(&idem_key)
                    .arg(expected)
                    .arg(game.version)
                    .arg(&state)
                    .arg(ttl)
                    .arg(key(&game.id, "updates"))
                    .arg(&idem_record);
                for event in &events {
                    call.arg(event);
                }
                call.invoke_async(conn).await
            })
            .await?;
        let text = match value {
            Value::BulkString(bytes) => bytes,
            Value::SimpleString(s) => s.into_bytes(),
            other => return Err(StoreError::Corrupt(format!("unexpected script reply {other:?}"))),
        };
        match status {
            0 => Ok(Saved::Written),
            1 => {
                let current = std::str::from_utf8(&text)
                    .ok()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| StoreError::Corrupt("version is not a number".into()))?;
                Ok(Saved::Conflict { current })
            }
            2 => Ok(Saved::Replayed(decode(&text)?)),
            other => Err(StoreError::Corrupt(format!("unexpected script status {other}"))),
        }
    }

    async fn wait_for_change(&self, id: &str, known: u64, within: Duration) -> Result<(), StoreError> {
        let version = async || -> Result<u64, StoreError> {
            let version: Option<u64> = self
                .run(async |conn| redis::cmd("GET").arg(key(id, "version")).query_async(conn).await)
                .await?;
            Ok(version.unwrap_or(0))
        };
        self.updates
            .wait(key(id, "updates"), known, within, version)
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
        raw.iter().map(|bytes| decode(bytes)).collect()
    }

    async fn delete(&self, id: &str) -> Result<bool, StoreError> {
        let removed: i64 = self
            .run(async |conn| {
                redis::cmd("DEL")
                    .arg(key(id, "version"))
                    .arg(key(id, "state"))
                    .arg(key(id, "events"))
                    .query_async(conn)
                    .await
            })
            .await?;
        Ok(removed > 0)
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

/// Connects to `url`: `redis+cluster://host:port,host:port` names a
/// Redis Cluster by some of its nodes; anything else is one Redis (`redis://`, `redis+unix://`).
pub async fn connect(
    url: &str,
    retention: Retention,
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
        let client = redis::cluster::ClusterClientBuilder::new(nodes)
            .connection_timeout(timeout)
            .response_timeout(timeout)
            .build()
            .map_err(unavailable)?;
        let conn = client.get_async_connection().await.map_err(unavailable)?;
        // PUBLISH reaches every node of a cluster, so one node's subscriptions hear every game.
        let updates = Updates::connect(&first, timeout)?;
        return Ok(std::sync::Arc::new(RedisStore::new(
            conn, retention, timeout, updates,
        )));
    }
    let client = redis::Client::open(url).map_err(unavailable)?;
    let config = redis::aio::ConnectionManagerConfig::new()
        .set_connection_timeout(Some(timeout))
        .set_response_timeout(Some(timeout))
        .set_number_of_retries(1)
        .set_max_delay(Duration::from_millis(500));
    let conn = redis::aio::ConnectionManager::new_lazy_with_config(client, config).map_err(unavailable)?;
    let updates = Updates::connect(url, timeout)?;
    Ok(std::sync::Arc::new(RedisStore::new(
        conn, retention, timeout, updates,
    )))
}

#[cfg(test)]
mod tests {
    use roadie_engine::{AnyGame, RULESETS};

    use super::*;

    #[test]
    fn every_ruleset_state_round_trips_through_messagepack_mid_game() {
        for ruleset in RULESETS {
            let seats = *ruleset.seats.end();
            let (mut game, _) = AnyGame::setup(ruleset.slug, None, seats, 11).expect("setup");
            for _ in 0..40 {
                let Some(&seat) = game.to_act().first() else { break };
                let actions: Vec<serde_json::Value> =
                    serde_json::from_str(game.legal_actions(seat).get()).expect("actions are JSON");
                let action = serde_json::to_string(&actions[actions.len() / 2]).expect("serializes");
                game.apply(seat, &action).expect("a listed action is legal");
            }
            let stored = StoredGame {
                id: "g".into(),
                version: 41,
                events: 7,
                seed: 11,
                game,
            };
            let back = decode_state(&encode_state(&stored).expect("encodes")).expect("decodes");
            assert_eq!(back.game, stored.game, "{}", ruleset.slug);
            assert_eq!((back.version, back.events, back.seed), (41, 7, 11));
        }
    }
}
