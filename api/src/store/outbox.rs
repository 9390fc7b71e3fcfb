//! Webhook notices waiting to be delivered, and who delivers them.
//!
//! A write that causes notices carries them in [`StoredGame::notices`]; the store appends them
//! to the game's outbox in the same atomic write as the game itself, so a notice exists exactly
//! when its write does. Before such a write, the game is marked in a due set shared by every
//! process ([`Outbox::mark_due`]); a sweeper claims due games with a lease
//! ([`Outbox::claim_due`]), delivers their notices, and releases them ([`Outbox::release`]).
//!
//! The due set's score is the time (milliseconds, the store's clock) from which a game may be
//! claimed. A claim moves it to the end of the lease, so no other process claims the game while
//! it is being delivered; a process that dies holding a lease loses it when the lease runs out.
//! [`Outbox::mark_due`] nudges the score without making a leased game claimable, and records
//! when it did. [`Outbox::release`] removes a game only when its score is still the one its claim
//! set (a notice written while the outbox was being delivered is never left unmarked) and its
//! last mark is older than a grace within which any write marked before it has landed or failed
//! (a write marked just before the claim may not have landed when the outbox was read).
//!
//! [`StoredGame::notices`]: super::StoredGame::notices

use std::time::Duration;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::StoreError;

/// Where a game's notices go, and the key they are signed with.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Webhook {
    /// An `http` or `https` URL whose host the operator allows.
    pub url: String,
    /// The per-game HMAC-SHA256 key, shown once at creation.
    pub secret: String,
}

impl std::fmt::Debug for Webhook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Webhook")
            .field("url", &"<redacted>")
            .field("secret", &"<redacted>")
            .finish()
    }
}

/// One notice of a game's outbox: its id and its body, the exact bytes that are signed and
/// sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxNotice {
    /// The notice's id (also in the body).
    pub id: String,
    /// The JSON body.
    pub body: String,
}

/// A game claimed for delivery, until the lease runs out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The game.
    pub game: String,
    /// The due set's score the claim set: the end of the lease, in the store's milliseconds.
    pub lease_until: u64,
}

/// A game's webhook and the oldest notices of its outbox.
#[derive(Clone, Debug)]
pub struct Pending {
    /// Where they go.
    pub webhook: Webhook,
    /// Oldest first.
    pub notices: Vec<OutboxNotice>,
}

/// What a failed delivery did to its notice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failure {
    /// How many deliveries of the notice have failed.
    pub attempts: u32,
    /// Whether the notice was dropped, having failed `attempts` times.
    pub dropped: bool,
}

/// Games' webhook outboxes and the due set.
#[async_trait]
pub trait Outbox: Send + Sync {
    /// Marks game `id` due (now, or when its current lease or back-off ends). Called before a
    /// write that adds notices: if the write then fails, a sweep finds an empty outbox.
    async fn mark_due(&self, id: &str) -> Result<(), StoreError>;

    /// Claims up to `limit` games that are due, each for `lease`.
    async fn claim_due(&self, limit: usize, lease: Duration) -> Result<Vec<Claim>, StoreError>;

    /// Game `id`'s webhook and up to `limit` of its oldest notices; `None` when the game is gone
    /// or has no webhook.
    async fn pending(&self, id: &str, limit: usize) -> Result<Option<Pending>, StoreError>;

    /// Removes a delivered notice.
    async fn delivered(&self, id: &str, notice: &OutboxNotice) -> Result<(), StoreError>;

    /// Counts a failed delivery of `notice`; drops it once `max_attempts` have failed.
    async fn failed(&self, id: &str, notice: &OutboxNotice, max_attempts: u32)
    -> Result<Failure, StoreError>;

    /// Ends `claim`, taken for `lease`. With `retry_in`, the game is due again after it. Without
    /// (its outbox was found empty), it leaves the due set, unless a write marked it since the
    /// claim (then it is due at once) or within `grace` before (then it is due again when the
    /// grace has passed).
    async fn release(
        &self,
        claim: &Claim,
        lease: Duration,
        retry_in: Option<Duration>,
        grace: Duration,
    ) -> Result<(), StoreError>;
}
