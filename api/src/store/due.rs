//! Work due apart from requests (a bot's turn, a finished game's archiving), shared by every
//! process: one index per kind of [`Work`].
//!
//! An index files each game under the time (Unix ms) from which a worker may claim it. A write
//! that leaves work to do files its game before it writes ([`DueWork::file_work`]: an early entry
//! is harmless, a missing one is not), with the time of the filing. A claim moves the entry to
//! the end of a lease, so that no other process takes the game while the work is done; a process
//! that dies holding one loses it when the lease runs out. The worker then writes through the
//! one write path (or to the archive) and ends its claim ([`DueWork::release_work`]), which
//! removes the entry only while it is still the claim's: a game filed again meanwhile stays due.
//! When the worker did nothing, a filing newer than `grace` before its claim keeps the entry too
//! (due at the filing plus the grace), since the write filed then may not have landed when the
//! worker read the game.

use std::time::Duration;

use async_trait::async_trait;

use super::StoreError;

/// A kind of work done apart from requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Work {
    /// A bot that searches is to act ([`crate::table::bots::turn_due`]).
    BotTurn,
    /// A finished game is to be written to the archive.
    Archive,
}

impl Work {
    /// The index's name: the hash tag of its keys.
    pub fn name(self) -> &'static str {
        match self {
            Work::BotTurn => "bots",
            Work::Archive => "archive",
        }
    }
}

/// A game claimed by a worker, until the lease runs out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DueClaim {
    /// The kind of work.
    pub work: Work,
    /// The game.
    pub id: String,
    /// When the claim was taken (Unix ms).
    pub at_ms: u64,
    /// When its lease runs out (Unix ms): the entry's score while the claim holds.
    pub until_ms: u64,
}

/// How a claim ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DueEnd {
    /// The worker did the work: any write filed before the claim has landed or lost its race to
    /// it.
    Done,
    /// The worker did nothing: a filing within `grace` before the claim may belong to a write
    /// still in flight.
    Idle {
        /// Within how long any write has landed or failed.
        grace: Duration,
    },
}

/// The indexes of work due.
#[async_trait]
pub trait DueWork {
    /// Files game `id` as due for `work` at `now_ms`, whatever its entry was (a claim included:
    /// the work must be looked at again).
    async fn file_work(&self, work: Work, id: &str, now_ms: u64) -> Result<(), StoreError>;

    /// Claims up to `limit` games due for `work` at `now_ms`, each leased for `lease`, earliest
    /// first.
    async fn claim_work(
        &self,
        work: Work,
        now_ms: u64,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<DueClaim>, StoreError>;

    /// Ends `claim` as `end` says (see the module's documentation).
    async fn release_work(&self, claim: &DueClaim, end: DueEnd) -> Result<(), StoreError>;

    /// How many games are filed for `work`, claimed or not: its backlog.
    async fn work_backlog(&self, work: Work) -> Result<u64, StoreError>;
}

/// Milliseconds in `d`, saturating.
pub(super) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
