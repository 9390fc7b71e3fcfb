//! Bot turns due: the games whose seat to act is a bot played apart from requests (see
//! [`crate::table::bots::turn_due`]), shared by every process.
//!
//! The index files each such game under the time (Unix ms) from which a bot worker may claim
//! it. A write that leaves a bot to act files its game before it writes ([`BotTurns::file_turn`]:
//! an early entry is harmless, a missing one is not), with the time of the filing. A claim moves
//! the entry to the end of a lease, so that no other process takes the game while its bot
//! thinks; a process that dies holding one loses it when the lease runs out. The worker then
//! plays the move through the one write path and ends its claim ([`BotTurns::release_turn`]),
//! which removes the entry only while it is still the claim's: a game filed again meanwhile
//! stays due. When the worker wrote nothing itself, a filing newer than `grace` before its claim
//! keeps the entry too (due at the filing plus the grace), since the write filed then may not
//! have landed when the worker read the game.

use std::time::Duration;

use async_trait::async_trait;

use super::StoreError;

/// A game claimed by a bot worker, until the lease runs out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnClaim {
    /// The game.
    pub id: String,
    /// When the claim was taken (Unix ms).
    pub at_ms: u64,
    /// When its lease runs out (Unix ms): the entry's score while the claim holds.
    pub until_ms: u64,
}

/// How a claim ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnEnd {
    /// The worker wrote the bot's move: any write filed before the claim has landed or lost its
    /// race to it.
    Moved,
    /// The worker wrote nothing: a filing within `grace` before the claim may belong to a write
    /// still in flight.
    Idle {
        /// Within how long any write has landed or failed.
        grace: Duration,
    },
}

/// The index of bot turns due.
#[async_trait]
pub trait BotTurns {
    /// Files game `id` as due at `now_ms`, whatever its entry was (a claim included: its bot
    /// must look again).
    async fn file_turn(&self, id: &str, now_ms: u64) -> Result<(), StoreError>;

    /// Claims up to `limit` games due at `now_ms`, each leased for `lease`, earliest first.
    async fn claim_turns(
        &self,
        now_ms: u64,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<TurnClaim>, StoreError>;

    /// Ends `claim` as `end` says (see the module's documentation).
    async fn release_turn(&self, claim: &TurnClaim, end: TurnEnd) -> Result<(), StoreError>;
}

/// Milliseconds in `d`, saturating.
pub(super) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
