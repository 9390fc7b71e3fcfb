//! The embedded store: games in this process's memory, gone when it stops.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use async_trait::async_trait;

use super::OutboxNotice;
use super::redis::RECENT_WRITES;

mod active;
mod due;
mod indexes;
mod outbox;
mod ratings;
mod tickets;
use super::{
    Freshness, GameStore, IdempotentRecord, IdempotentWrite, LoggedAction, MemoryUse, Played, Quota,
    Retention, Revision, Saved, StoreError, StoredEvent, Table, WriteOutcome,
};

struct Entry {
    game: Table,
    /// The revision, for those waiting for the game to change.
    updates: tokio::sync::watch::Sender<Revision>,
    events: Vec<StoredEvent>,
    /// The log of actions.
    actions: Vec<LoggedAction>,
    idempotent: HashMap<String, IdempotentRecord>,
    /// The last writes' revisions, newest first.
    recent: VecDeque<Revision>,
    expires: Instant,
    /// Undelivered webhook notices, oldest first.
    outbox: VecDeque<OutboxNotice>,
    /// Failed deliveries by notice id.
    outbox_tries: HashMap<String, u32>,
}

/// The log entries of `actions`, written with `events` more events to reach `game`.
fn logged(game: &Table, events: usize, actions: &[Played]) -> Vec<LoggedAction> {
    let first_seq = game.events + 1 - events as u64;
    actions.iter().map(|played| played.logged(first_seq)).collect()
}

/// The active games (one set for every shard: a page is a shard's games), and who holds each
/// shard's lease until when.
#[derive(Default)]
struct ActiveSets {
    games: HashSet<String>,
    leases: HashMap<u16, (String, Instant)>,
}

/// Now plus `ttl`, or a century from now when that overflows.
fn deadline(ttl: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(ttl)
        .or_else(|| now.checked_add(Duration::from_secs(100 * 365 * 86_400)))
        .unwrap_or(now)
}

/// Games in memory, with the same compare-and-set semantics as Redis.
pub struct MemoryStore {
    games: Mutex<HashMap<String, Entry>>,
    /// Writes given up on: never to be written.
    fenced: Mutex<HashSet<Revision>>,
    /// Rate-limit buckets: the theoretical arrival time of the next token, in milliseconds
    /// since `epoch`.
    buckets: Mutex<HashMap<String, f64>>,
    epoch: Instant,
    retention: Retention,
    /// The games with open seats, by ruleset: until when each is listed.
    listed: Mutex<HashMap<String, HashMap<String, Instant>>>,
    /// Games with webhook notices: the millisecond since `epoch` from which each may be claimed,
    /// and when it was last marked.
    due: Mutex<HashMap<String, outbox::Due>>,
    /// The index of clocks: each game's earliest deadline (Unix ms).
    clocks: Mutex<HashMap<String, u64>>,
    /// Matchmaking queues and tickets.
    matching: Mutex<tickets::Matching>,
    /// Woken whenever tickets are seated, for their long polls.
    seated: tokio::sync::Notify,
    /// Work due, by kind and game.
    due_work: Mutex<due::Indexes>,
    /// The active games, and the reconciler's leases on their shards.
    active: Mutex<ActiveSets>,
    /// Indexes of games by owner.
    indexes: Mutex<indexes::Sets>,
    /// Ratings, by (app, ruleset).
    ratings: Mutex<ratings::Sheets>,
}

impl MemoryStore {
    /// An empty store that forgets games after `retention`.
    pub fn new(retention: Retention) -> Self {
        Self {
            games: Mutex::new(HashMap::new()),
            fenced: Mutex::default(),
            buckets: Mutex::default(),
            epoch: Instant::now(),
            retention,
            listed: Mutex::default(),
            due: Mutex::default(),
            clocks: Mutex::default(),
            matching: Mutex::default(),
            seated: tokio::sync::Notify::new(),
            due_work: Mutex::default(),
            active: Mutex::default(),
            indexes: Mutex::default(),
            ratings: Mutex::default(),
        }
    }

    fn clocks(&self) -> Result<std::sync::MutexGuard<'_, HashMap<String, u64>>, StoreError> {
        self.clocks
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))
    }

    fn lock(&self) -> Result<std::sync::MutexGuard<'_, HashMap<String, Entry>>, StoreError> {
        self.games
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))
    }

    /// Drops every game whose lifetime has passed.
    pub fn sweep(&self) -> Result<usize, StoreError> {
        let mut games = self.lock()?;
        let before = games.len();
        let now = Instant::now();
        games.retain(|_, entry| entry.expires > now);
        let now_ms = now.duration_since(self.epoch).as_secs_f64() * 1000.0;
        if let Ok(mut buckets) = self.buckets.lock() {
            buckets.retain(|_, tat| *tat > now_ms);
        }
        if let Ok(mut matching) = self.matching.lock() {
            matching.forget_ended(now);
        }
        Ok(before - games.len())
    }

    fn is_fenced(&self, revision: &Revision) -> Result<bool, StoreError> {
        Ok(self
            .fenced
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))?
            .contains(revision))
    }

    fn live<'a>(games: &'a mut HashMap<String, Entry>, id: &str) -> Option<&'a mut Entry> {
        if games.get(id).is_some_and(|e| e.expires <= Instant::now()) {
            games.remove(id);
        }
        games.get_mut(id)
    }
}

#[async_trait]
impl GameStore for MemoryStore {
    async fn create(
        &self,
        game: &Table,
        events: &[StoredEvent],
        actions: &[Played],
    ) -> Result<bool, StoreError> {
        let mut games = self.lock()?;
        if Self::live(&mut games, &game.id).is_some() || self.is_fenced(&game.revision)? {
            return Ok(false);
        }
        let mut stored = game.clone();
        stored.notices.clear();
        games.insert(
            game.id.clone(),
            Entry {
                game: stored,
                updates: tokio::sync::watch::channel(game.revision).0,
                events: events.to_vec(),
                actions: logged(game, events.len(), actions),
                idempotent: HashMap::new(),
                recent: VecDeque::from([game.revision]),
                expires: deadline(self.retention.for_game(game)),
                outbox: game.notices.iter().cloned().collect(),
                outbox_tries: HashMap::new(),
            },
        );
        Ok(true)
    }

    async fn load(
        &self,
        id: &str,
        idempotency_key: Option<&str>,
    ) -> Result<(Option<Table>, Option<IdempotentRecord>), StoreError> {
        let mut games = self.lock()?;
        Ok(match Self::live(&mut games, id) {
            None => (None, None),
            Some(entry) => (
                Some(entry.game.clone()),
                idempotency_key.and_then(|k| entry.idempotent.get(k).cloned()),
            ),
        })
    }

    async fn load_if_changed(&self, id: &str, known: &Revision) -> Result<Freshness, StoreError> {
        let mut games = self.lock()?;
        Ok(match Self::live(&mut games, id) {
            None => Freshness::Missing,
            Some(entry) if entry.game.revision == *known => Freshness::Unchanged,
            Some(entry) => Freshness::Changed(Box::new(entry.game.clone())),
        })
    }

    async fn resolve(&self, id: &str, revision: &Revision) -> Result<WriteOutcome, StoreError> {
        let mut games = self.lock()?;
        if let Some(entry) = Self::live(&mut games, id) {
            if entry.recent.contains(revision) {
                return Ok(WriteOutcome::Applied);
            }
            if entry.recent.len() >= RECENT_WRITES
                && entry
                    .recent
                    .back()
                    .is_some_and(|oldest| oldest.number > revision.number)
            {
                return Ok(WriteOutcome::Unknown);
            }
        }
        self.fenced
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))?
            .insert(*revision);
        Ok(WriteOutcome::NotApplied)
    }

    async fn take_token(&self, bucket: &str, quota: Quota) -> Result<Option<Duration>, StoreError> {
        let now = self.epoch.elapsed().as_secs_f64() * 1000.0;
        let mut buckets = self
            .buckets
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))?;
        let tat = buckets.entry(bucket.to_owned()).or_insert(now);
        let next = tat.max(now) + quota.interval_ms();
        let wait = next - quota.interval_ms() * f64::from(quota.burst.max(1)) - now;
        // Float rounding must not refuse a token that is there: a microsecond of slack.
        if wait > 0.001 {
            return Ok(Some(Duration::from_millis(wait.ceil() as u64)));
        }
        *tat = next;
        Ok(None)
    }

    async fn memory(&self) -> Result<Option<MemoryUse>, StoreError> {
        Ok(None)
    }

    async fn wait_for_change(&self, id: &str, known: &Revision, within: Duration) -> Result<(), StoreError> {
        let mut updates = match Self::live(&mut *self.lock()?, id) {
            Some(entry) => entry.updates.subscribe(),
            None => return Ok(()),
        };
        let _ = tokio::time::timeout(within, updates.wait_for(|v| v != known)).await;
        Ok(())
    }

    async fn save(
        &self,
        expected: &Revision,
        game: &Table,
        events: &[StoredEvent],
        actions: &[Played],
        idempotency: Option<IdempotentWrite<'_>>,
    ) -> Result<Saved, StoreError> {
        let fenced = self.is_fenced(&game.revision)?;
        let mut games = self.lock()?;
        let Some(entry) = Self::live(&mut games, &game.id) else {
            return Ok(Saved::Conflict { current: None });
        };
        if let Some(write) = &idempotency
            && let Some(prior) = entry.idempotent.get(write.key)
        {
            return Ok(Saved::Replayed(prior.clone()));
        }
        if entry.game.revision != *expected {
            return Ok(Saved::Conflict {
                current: Some(entry.game.revision),
            });
        }
        if fenced {
            return Ok(Saved::Fenced);
        }
        entry.game = game.clone();
        entry.game.notices.clear();
        entry.updates.send_replace(game.revision);
        entry.recent.push_front(game.revision);
        entry.recent.truncate(RECENT_WRITES);
        entry.events.extend_from_slice(events);
        entry.actions.extend(logged(game, events.len(), actions));
        if !game.notices.is_empty() {
            entry.outbox.extend(game.notices.iter().cloned());
            for id in super::superseded(entry.outbox.iter()) {
                entry.outbox.retain(|n| n.id != id);
                entry.outbox_tries.remove(&id);
            }
        }
        entry.expires = deadline(self.retention.for_game(game));
        if let Some(write) = idempotency {
            entry
                .idempotent
                .insert(write.key.to_owned(), write.record.clone());
        }
        Ok(Saved::Written)
    }

    async fn events(&self, id: &str, after: u64, limit: u64) -> Result<Vec<StoredEvent>, StoreError> {
        let mut games = self.lock()?;
        Ok(match Self::live(&mut games, id) {
            None => Vec::new(),
            Some(entry) => entry
                .events
                .iter()
                .skip(usize::try_from(after).unwrap_or(usize::MAX))
                .take(usize::try_from(limit).unwrap_or(usize::MAX))
                .cloned()
                .collect(),
        })
    }

    async fn actions(&self, id: &str) -> Result<Vec<LoggedAction>, StoreError> {
        let mut games = self.lock()?;
        Ok(Self::live(&mut games, id)
            .map(|entry| entry.actions.clone())
            .unwrap_or_default())
    }

    async fn shorten(&self, id: &str, ttl: Duration) -> Result<(), StoreError> {
        let mut games = self.lock()?;
        if let Some(entry) = Self::live(&mut games, id) {
            entry.expires = entry.expires.min(deadline(ttl));
        }
        Ok(())
    }

    async fn delete(&self, id: &str) -> Result<bool, StoreError> {
        let mut games = self.lock()?;
        Ok(games.remove(id).is_some())
    }

    async fn set_listed(&self, ruleset: &str, id: &str, listed: bool) -> Result<(), StoreError> {
        let mut lists = self
            .listed
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))?;
        let list = lists.entry(ruleset.to_owned()).or_default();
        if listed {
            list.insert(id.to_owned(), deadline(self.retention.idle));
        } else {
            list.remove(id);
        }
        Ok(())
    }

    async fn listed(&self, ruleset: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let mut lists = self
            .listed
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))?;
        let Some(list) = lists.get_mut(ruleset) else {
            return Ok(Vec::new());
        };
        let now = Instant::now();
        list.retain(|_, until| *until >= now);
        let mut latest: Vec<(&String, &Instant)> = list.iter().collect();
        latest.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        Ok(latest.into_iter().take(limit).map(|(id, _)| id.clone()).collect())
    }

    async fn schedule_clock(&self, id: &str, deadline_ms: u64, earlier_only: bool) -> Result<(), StoreError> {
        let mut clocks = self.clocks()?;
        let entry = clocks.entry(id.to_owned()).or_insert(deadline_ms);
        if !earlier_only || deadline_ms < *entry {
            *entry = deadline_ms;
        }
        Ok(())
    }

    async fn unschedule_clock(&self, id: &str) -> Result<(), StoreError> {
        self.clocks()?.remove(id);
        Ok(())
    }

    async fn due_clocks(&self, shard: u16, now_ms: u64, limit: usize) -> Result<Vec<String>, StoreError> {
        let clocks = self.clocks()?;
        let mut due: Vec<(u64, &String)> = clocks
            .iter()
            .filter(|(id, at)| **at <= now_ms && super::due_shard(id) == shard)
            .map(|(id, at)| (*at, id))
            .collect();
        due.sort_unstable();
        Ok(due.into_iter().take(limit).map(|(_, id)| id.clone()).collect())
    }

    async fn ping(&self) -> Result<(), StoreError> {
        self.lock().map(|_| ())
    }

    fn kind(&self) -> &'static str {
        "memory"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_bucket_gives_exactly_its_burst_at_once() {
        let store = MemoryStore::new(Retention {
            idle: Duration::from_secs(60),
            finished: Duration::from_secs(60),
        });
        for burst in [1, 3, 7] {
            let quota = Quota {
                per_second: 0.1,
                burst,
            };
            let bucket = format!("b{burst}");
            for _ in 0..burst {
                assert_eq!(
                    store.take_token(&bucket, quota).await.ok(),
                    Some(None),
                    "burst {burst}"
                );
            }
            let refused = store.take_token(&bucket, quota).await.ok().flatten();
            assert!(
                refused.is_some_and(|wait| wait > Duration::from_secs(5)),
                "burst {burst}: {refused:?}"
            );
        }
    }
}
