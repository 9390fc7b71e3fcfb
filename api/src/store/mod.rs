//! Where games live: the [`GameStore`] trait, in Redis or in memory.
//!
//! A game is a [`StoredGame`] (the typed position, its version and its seed) plus an
//! append-only list of [`StoredEvent`]s whose sequence numbers are their positions (1-based).
//! Every write is a compare-and-set on the version: it succeeds only if nobody wrote since the
//! writer read, and it appends the write's events in the same step.

use std::time::Duration;

use async_trait::async_trait;
use roadie_engine::{AnyGame, Audience, Event};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

mod memory;
pub mod redis;
mod updates;

pub use memory::MemoryStore;
pub use redis::RedisStore;

/// A game as stored: read and written whole, typed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StoredGame {
    /// The game's id.
    pub id: String,
    /// Incremented by every write; `1` after creation.
    pub version: u64,
    /// How many events the game's log holds.
    pub events: u64,
    /// The seed the game was set up with: revealed only once the game is over.
    pub seed: u64,
    /// The position.
    pub game: AnyGame,
}

/// One entry of a game's event log.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StoredEvent {
    /// Who may see it while the game runs.
    pub audience: Audience,
    /// What happened, as the ruleset reports it.
    pub body: Box<RawValue>,
}

impl From<Event<Box<RawValue>>> for StoredEvent {
    fn from(event: Event<Box<RawValue>>) -> Self {
        Self {
            audience: event.audience,
            body: event.body,
        }
    }
}

/// The first answer to a post that carried an `Idempotency-Key`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IdempotentRecord {
    /// SHA-256 of the action the key was first used with.
    pub fingerprint: String,
    /// The game's version that answer produced.
    pub version: u64,
    /// The response body sent then.
    pub response: String,
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
    /// Written: the game is at the new version.
    Written,
    /// Someone wrote first: the game is at `current`; nothing was written.
    Conflict {
        /// The version now stored (0 if the game is gone).
        current: u64,
    },
    /// The idempotency key was used already: its first answer, and nothing was written.
    Replayed(IdempotentRecord),
}

/// What a read that already holds one version of a game finds in the store.
#[derive(Debug)]
pub enum Freshness {
    /// The store is still at the version held.
    Unchanged,
    /// The store has moved on: the game as it is now.
    Changed(StoredGame),
    /// The game is gone (deleted or expired).
    Missing,
}

/// The store failed. `Unavailable` becomes `503`.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store did not answer, or answered with an error.
    #[error("store unavailable: {0}")]
    Unavailable(String),
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
    pub fn for_game(&self, game: &StoredGame) -> Duration {
        if game.game.is_over() {
            self.finished
        } else {
            self.idle
        }
    }
}

/// Games, by id. Implementations are shared by every worker.
#[async_trait]
pub trait GameStore: Send + Sync + 'static {
    /// Stores a new game with its setup events. `false` if the id is taken.
    async fn create(&self, game: &StoredGame, events: &[StoredEvent]) -> Result<bool, StoreError>;

    /// The game, and the idempotency record under `idempotency_key` if one is asked for, in
    /// one read.
    async fn load(
        &self,
        id: &str,
        idempotency_key: Option<&str>,
    ) -> Result<(Option<StoredGame>, Option<IdempotentRecord>), StoreError>;

    /// The game if its version is no longer `known`, in one read that sends nothing more than
    /// the answer "unchanged" when it is.
    async fn load_if_changed(&self, id: &str, known: u64) -> Result<Freshness, StoreError>;

    /// Writes `game` (whose version is `expected + 1`) and appends `events`, only if the stored
    /// version is still `expected` and the idempotency key (if any) is unused.
    async fn save(
        &self,
        expected: u64,
        game: &StoredGame,
        events: &[StoredEvent],
        idempotency: Option<IdempotentWrite<'_>>,
    ) -> Result<Saved, StoreError>;

    /// Returns once game `id` may have moved past version `known`, or after `within` at the
    /// latest (the caller reads the game again either way).
    async fn wait_for_change(&self, id: &str, known: u64, within: Duration) -> Result<(), StoreError>;

    /// Events with sequence numbers `after + 1 ..= after + limit`, in order.
    async fn events(&self, id: &str, after: u64, limit: u64) -> Result<Vec<StoredEvent>, StoreError>;

    /// Forgets a game. `false` if there was none.
    async fn delete(&self, id: &str) -> Result<bool, StoreError>;

    /// Whether the store answers.
    async fn ping(&self) -> Result<(), StoreError>;

    /// `memory` or `redis`, for logs and metrics.
    fn kind(&self) -> &'static str;
}
