//! Where games live: the [`GameStore`] trait, in Redis or in memory.
//!
//! A game is a [`Table`] (the typed position, its version and its seed) plus an
//! append-only list of [`StoredEvent`]s whose sequence numbers are their positions (1-based).
//! Every write is a compare-and-set on the version: it succeeds only if nobody wrote since the
//! writer read, and it appends the write's events in the same step.

use std::time::Duration;

use async_trait::async_trait;
use roadie_engine::Seat;
use serde::{Deserialize, Serialize};

mod active;
mod due;
mod indexes;
mod memory;
mod outbox;
pub mod ratings;
pub mod redis;
mod tickets;
mod updates;

pub use crate::table::{LoggedAction, MalformedRevision, Played, Revision, StoredEvent, Table};
pub use active::{ACTIVE_SHARDS, ActiveGames, ActivePage, shard_of};
pub use due::{
    DEFAULT_DUE_SHARDS, DueClaim, DueEnd, DueWork, HeldShards, MAX_DUE_SHARDS, Work, due_shard, due_shards,
    set_due_shards,
};
pub use indexes::{Indexed, Indexes};
pub use memory::MemoryStore;
pub use outbox::{CLAIM_SCAN, Claim, Failure, Outbox, OutboxNotice, Pending, Room, Webhook, superseded};
pub use ratings::Ratings;
pub use redis::RedisStore;
pub use tickets::Matchmaking;

/// What is kept of the first answer to a post that carried an `Idempotency-Key`: enough to
/// answer again (the events themselves are read back from the log), a few hundred bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdempotentRecord {
    /// The first 64 bits of SHA-256 of the action the key was first used with, in canonical
    /// JSON: enough to tell another action sent with the same key.
    pub fingerprint: u64,
    /// The revision that answer produced.
    pub revision: Revision,
    /// The sequence number of the first event the action caused.
    pub first_event: u64,
    /// How many events it caused.
    pub events: u64,
    /// Whether the action ended the game.
    pub finished: bool,
    /// The seats that could act after it.
    pub to_act: Vec<Seat>,
}

/// An idempotency record to write with a save, under `key`.
pub struct IdempotentWrite<'a> {
    /// The client's key, already scoped to the seat.
    pub key: &'a str,
    /// What to keep.
    pub record: &'a IdempotentRecord,
}

/// What a compare-and-set did.
#[derive(Debug)]
pub enum Saved {
    /// Written: the game is at the new revision.
    Written,
    /// Someone wrote first: the game is at `current` (`None`: it is gone); nothing was written.
    Conflict {
        /// The revision now stored.
        current: Option<Revision>,
    },
    /// The idempotency key was used already: its first answer, and nothing was written.
    Replayed(IdempotentRecord),
    /// The write was fenced off by [`GameStore::resolve`] after its caller gave up waiting:
    /// nothing was written, and it never will be.
    Fenced,
}

/// What became of a write whose answer never came (the store timed out or the connection
/// broke while it was in flight).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteOutcome {
    /// It was written.
    Applied,
    /// It was not written, and it is fenced off so that it never will be.
    NotApplied,
    /// The store cannot tell any more (so many writes came after it that it fell out of the
    /// record of recent writes).
    Unknown,
}

/// How much memory the store uses, and how much it may.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct MemoryUse {
    /// Bytes in use (the fullest node of a Cluster).
    pub used_bytes: u64,
    /// The store's `maxmemory`; `0` when it has no limit.
    pub max_bytes: u64,
}

/// A token bucket: `per_second` tokens flow in, at most `burst` are held.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quota {
    /// Tokens added per second.
    pub per_second: f64,
    /// Tokens a bucket holds at most (requests that may come at once).
    pub burst: u32,
}

impl Quota {
    /// Milliseconds between two tokens.
    pub fn interval_ms(&self) -> f64 {
        1000.0 / self.per_second
    }
}

/// What a read that already holds one version of a game finds in the store.
#[derive(Debug)]
pub enum Freshness {
    /// The store is still at the version held.
    Unchanged,
    /// The store has moved on: the game as it is now.
    Changed(Box<Table>),
    /// The game is gone (deleted or expired).
    Missing,
}

/// The store failed. `Unavailable` becomes `503`.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store did not answer, or answered with an error. A write that fails so may or may
    /// not have been applied.
    #[error("store unavailable: {0}")]
    Unavailable(String),
    /// No connection to the store could be made: nothing was sent.
    #[error("store refused the connection: {0}")]
    Refused(String),
    /// The store is out of room and refused the write before applying any of it: Redis's `OOM`
    /// reply, or a creation refused by the store over the share of its memory kept for running
    /// games.
    #[error("store full: {0}")]
    Full(String),
    /// What the store holds does not read back as a game.
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

/// How long games are kept.
#[derive(Clone, Copy, Debug)]
pub struct Retention {
    /// A running game untouched this long is forgotten.
    pub idle: Duration,
    /// A finished game is kept this long after its last write.
    pub finished: Duration,
}

impl Retention {
    /// The lifetime a write of `game` gives it.
    pub fn for_game(&self, game: &Table) -> Duration {
        if game.is_over() { self.finished } else { self.idle }
    }
}

/// Games, by id. Implementations are shared by every worker.
#[async_trait]
pub trait GameStore:
    Outbox + Matchmaking + DueWork + ActiveGames + Indexes + Ratings + Send + Sync + 'static
{
    /// Stores a new game with its setup events. `false` if the id is taken; [`StoreError::Full`]
    /// if the store is fuller than the share of its memory from which new games are refused,
    /// checked in the same atomic step as the write.
    async fn create(
        &self,
        game: &Table,
        events: &[StoredEvent],
        actions: &[Played],
    ) -> Result<bool, StoreError>;

    /// The game, and the idempotency record under `idempotency_key` if one is asked for, in
    /// one read.
    async fn load(
        &self,
        id: &str,
        idempotency_key: Option<&str>,
    ) -> Result<(Option<Table>, Option<IdempotentRecord>), StoreError>;

    /// The game if its revision is no longer `known`, in one read that sends nothing more than
    /// the answer "unchanged" when it is.
    async fn load_if_changed(&self, id: &str, known: &Revision) -> Result<Freshness, StoreError>;

    /// Writes `game` (whose revision follows `expected`) and appends `events` and `actions` to
    /// its logs, only if the stored revision is still `expected`, the idempotency key (if any)
    /// is unused and the write was not fenced off.
    async fn save(
        &self,
        expected: &Revision,
        game: &Table,
        events: &[StoredEvent],
        actions: &[Played],
        idempotency: Option<IdempotentWrite<'_>>,
    ) -> Result<Saved, StoreError>;

    /// Whether the write that was to produce `revision` of game `id` (a save or a create whose
    /// answer never came) happened; if it did not, fences it off so that it never can.
    async fn resolve(&self, id: &str, revision: &Revision) -> Result<WriteOutcome, StoreError>;

    /// Returns once game `id` may have moved on from revision `known`, or after `within` at the
    /// latest (the caller reads the game again either way).
    async fn wait_for_change(&self, id: &str, known: &Revision, within: Duration) -> Result<(), StoreError>;

    /// Takes a token from the bucket `bucket` (shared by every process using the store):
    /// `None` when one was there, else how long until one will be.
    async fn take_token(&self, bucket: &str, quota: Quota) -> Result<Option<Duration>, StoreError>;

    /// The store's memory, when it has a limit to report.
    async fn memory(&self) -> Result<Option<MemoryUse>, StoreError>;

    /// Events with sequence numbers `after + 1 ..= after + limit`, in order.
    async fn events(&self, id: &str, after: u64, limit: u64) -> Result<Vec<StoredEvent>, StoreError>;

    /// Every entry of game `id`'s log of actions, in order (empty for a game that is gone).
    async fn actions(&self, id: &str) -> Result<Vec<LoggedAction>, StoreError>;

    /// Files game `id` in its shard ([`due_shard`]) of the index of clocks under `deadline_ms`
    /// (Unix ms): only if that is earlier than its entry when `earlier_only`, else whatever its
    /// entry was.
    async fn schedule_clock(&self, id: &str, deadline_ms: u64, earlier_only: bool) -> Result<(), StoreError>;

    /// Takes game `id` out of its shard of the index of clocks.
    async fn unschedule_clock(&self, id: &str) -> Result<(), StoreError>;

    /// Up to `limit` games of `shard` of the index of clocks filed at or before `now_ms`,
    /// earliest first.
    async fn due_clocks(&self, shard: u16, now_ms: u64, limit: usize) -> Result<Vec<String>, StoreError>;

    /// Forgets a game. `false` if there was none.
    async fn delete(&self, id: &str) -> Result<bool, StoreError>;

    /// Gives every key of game `id` at most `ttl` more to live: a finished game, once the
    /// archive holds it.
    async fn shorten(&self, id: &str, ttl: Duration) -> Result<(), StoreError>;

    /// Puts game `id` of `ruleset` on the list of games with open seats, until it would expire
    /// untouched (`listed`), or takes it off.
    async fn set_listed(&self, ruleset: &str, id: &str, listed: bool) -> Result<(), StoreError>;

    /// Up to `limit` ids of the listed games of `ruleset`, the latest listed first; entries
    /// whose game has expired are pruned first.
    async fn listed(&self, ruleset: &str, limit: usize) -> Result<Vec<String>, StoreError>;

    /// Whether the store answers.
    async fn ping(&self) -> Result<(), StoreError>;

    /// `memory` or `redis`, for logs and metrics.
    fn kind(&self) -> &'static str;
}
