//! Indexes of games by owner: every game of an app, and every game of an app's player, each a
//! set ordered by creation time, shared by every process.
//!
//! An entry is added when its game is created and outlives it: readers load the games of a page
//! and prune the entries whose game has expired ([`Indexes::unindex`]), so that an index never
//! needs a write in the same step as its game's.

use async_trait::async_trait;

use super::StoreError;

/// An entry of an index: a game, and when it was created (Unix ms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Indexed {
    /// The game's id.
    pub id: String,
    /// When it was created (Unix ms).
    pub created_ms: u64,
}

/// Indexes of games, by name (`app:<id>` or `app:<id>:player:<hash>`).
#[async_trait]
pub trait Indexes {
    /// Files game `id`, created at `created_ms`, in each of `indexes`.
    async fn index(&self, indexes: &[String], id: &str, created_ms: u64) -> Result<(), StoreError>;

    /// Takes game `id` out of `index`.
    async fn unindex(&self, index: &str, id: &str) -> Result<(), StoreError>;

    /// Up to `limit` entries of `index`, the newest first, strictly older than `before` (an
    /// entry's creation time and id) when it is given.
    async fn indexed(
        &self,
        index: &str,
        before: Option<&Indexed>,
        limit: usize,
    ) -> Result<Vec<Indexed>, StoreError>;

    /// How many entries `index` holds (games expired but not yet pruned included).
    async fn indexed_count(&self, index: &str) -> Result<u64, StoreError>;
}

/// Whether `entry` comes after `before` in an index's order (newest first, then by id, highest
/// first, as Redis orders equal scores in reverse).
pub fn after(entry: &Indexed, before: &Indexed) -> bool {
    (entry.created_ms, entry.id.as_str()) < (before.created_ms, before.id.as_str())
}
