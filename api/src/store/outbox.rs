//! Webhook notices waiting to be delivered, and who delivers them.
//!
//! A write that causes notices carries them in [`Table::notices`]; the store appends them
//! to the game's outbox in the same atomic write as the game itself, so a notice exists exactly
//! when its write does. Before such a write, the game is marked in a due set shared by every
//! process ([`Outbox::mark_due`]); a sweeper claims due games with a lease
//! ([`Outbox::claim_due`]), delivers their notices, and releases them ([`Outbox::release`]).
//! The due set is split into [`due_shards`](crate::store::due_shards) shards, a game in the one
//! of its id ([`due_shard`](crate::store::due_shard)), so that on a Redis Cluster the shards spread
//! over the nodes; a sweeper claims only in the shards it holds a lease on
//! ([`Outbox::lease_outbox_shard`]), as the indexes of due work are leased.
//!
//! The due set's score is the time (milliseconds, the store's clock) from which a game may be
//! claimed. A claim moves it to the end of the lease, so no other process claims the game while
//! it is being delivered; a process that dies holding a lease loses it when the lease runs out.
//! [`Outbox::mark_due`] nudges the score without making a leased game claimable, and records
//! when it did and the game's receiver ([`Webhook::receiver`]), so that a claim can pass over the
//! games of a receiver that holds its share of a process's delivery slots ([`Room`]). [`Outbox::release`] removes a game only when its score is still the one its claim
//! set (a notice written while the outbox was being delivered is never left unmarked) and its
//! last mark is older than a grace within which any write marked before it has landed or failed
//! (a write marked just before the claim may not have landed when the outbox was read).
//!
//!
//! A write that adds notices also coalesces the outbox, in the same atomic write
//! ([`superseded`]): "a `your_turn` notice that a later notice supersedes is coalesced", so an
//! outbox holds at most one `your_turn` notice per seat, and `game_over`, however long its
//! receiver is down. A notice removed so while a sweeper posts it is simply not found again:
//! removing it after its delivery, or counting its failure, changes nothing else.
//!
//! [`Table::notices`]: crate::table::Table::notices

use std::collections::HashSet;
use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;

use super::StoreError;
pub use crate::table::notices::{OutboxNotice, Webhook};

/// The part of a notice's body that coalescing reads.
#[derive(Deserialize)]
struct Heading {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    seats: Vec<u64>,
}

/// The ids of the notices of `outbox` (oldest first) that later ones supersede: "a later
/// `your_turn` for the same seat supersedes the earlier one; `game_over` supersedes all pending
/// `your_turn` notices". A `your_turn` notice goes once every seat it names is named by a later
/// `your_turn` notice, or once a `game_over` notice follows it; so each one kept is the latest of
/// at least one seat. Any other notice, or one whose body does not read, is kept. The Redis store
/// runs the same rule in its write script.
pub fn superseded<'a>(outbox: impl DoubleEndedIterator<Item = &'a OutboxNotice>) -> Vec<String> {
    let mut named = HashSet::new();
    let mut over = false;
    let mut gone = Vec::new();
    for notice in outbox.rev() {
        let Ok(heading) = serde_json::from_str::<Heading>(&notice.body) else {
            continue;
        };
        match heading.kind.as_str() {
            "game_over" => over = true,
            "your_turn" => {
                let mut latest = false;
                for seat in &heading.seats {
                    latest |= named.insert(*seat);
                }
                if over || (!latest && !heading.seats.is_empty()) {
                    gone.push(notice.id.clone());
                }
            }
            _ => {}
        }
    }
    gone
}

/// A game claimed for delivery, until the lease runs out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The game.
    pub game: String,
    /// The due set's score the claim set: the end of the lease, in the store's milliseconds.
    pub lease_until: u64,
    /// The receiver its last mark named ("" for a game marked without one).
    pub receiver: String,
}

/// How many games a claim may take: at most `games` in all, at most `per_receiver`'s figure of
/// each receiver listed there, and at most `other` of each receiver not listed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Room {
    /// Games in all.
    pub games: usize,
    /// Games of each of these receivers.
    pub per_receiver: Vec<(String, usize)>,
    /// Games of each receiver not in `per_receiver`.
    pub other: usize,
}

/// How many due games a claim looks at, at most, for games it may take.
pub const CLAIM_SCAN: usize = 1_024;

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
    /// Whether the notice had already left the outbox, superseded by a later one (then nothing
    /// was counted).
    pub superseded: bool,
}

/// Games' webhook outboxes and the due set.
#[async_trait]
pub trait Outbox: Send + Sync {
    /// Marks game `id`, whose notices go to `receiver`, due (now, or when its current lease or
    /// back-off ends). Called before a write that adds notices: if the write then fails, a sweep
    /// finds an empty outbox.
    async fn mark_due(&self, id: &str, receiver: &str) -> Result<(), StoreError>;

    /// Claims due games of `shard`, earliest due first, each for `lease`, as many as `room`
    /// allows; a game whose receiver has no room left stays due for a later claim. Looks at the
    /// first [`CLAIM_SCAN`] due games of the shard at most.
    async fn claim_due(&self, shard: u16, room: &Room, lease: Duration) -> Result<Vec<Claim>, StoreError>;

    /// Game `id`'s webhook and up to `limit` of its oldest notices; `None` when the game is gone
    /// or has no webhook.
    async fn pending(&self, id: &str, limit: usize) -> Result<Option<Pending>, StoreError>;

    /// Removes a delivered notice (if a later one has not superseded it meanwhile).
    async fn delivered(&self, id: &str, notice: &OutboxNotice) -> Result<(), StoreError>;

    /// Counts a failed delivery of `notice`; drops it once `max_attempts` have failed. A notice
    /// no longer in the outbox is not counted.
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

    /// Takes `shard` of the due set for the sweep for `lease`, unless it is held (by anyone: a
    /// lease is never extended): whether `holder` has it now.
    async fn lease_outbox_shard(&self, shard: u16, holder: &str, lease: Duration)
    -> Result<bool, StoreError>;

    /// Moves up to `limit` games from the single due set that earlier versions kept into their
    /// shards (a game leased there keeps its lease); a game marked or claimed there meanwhile (by
    /// a process of an earlier version, during a rolling upgrade) stays for the next call, filed
    /// in both. Answers how many left the single set (none, once no process of an earlier
    /// version runs).
    async fn move_unsharded_outboxes(&self, limit: usize) -> Result<u64, StoreError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(id: &str, kind: &str, seats: &[u64]) -> OutboxNotice {
        OutboxNotice {
            id: id.into(),
            body: serde_json::json!({"id": id, "game": "g", "type": kind, "version": 1, "timestamp": 0,
                "seats": seats, "to_act": seats})
            .to_string(),
        }
    }

    #[test]
    fn a_your_turn_notice_goes_once_each_of_its_seats_is_named_later_or_the_game_ended() {
        let outbox = [
            notice("a", "your_turn", &[0]),
            notice("b", "your_turn", &[1, 2]),
            notice("c", "your_turn", &[0]),
            notice("d", "your_turn", &[1]),
        ];
        // `b` is still the latest of seat 2.
        assert_eq!(superseded(outbox.iter()), ["a"]);
        let mut outbox = outbox.to_vec();
        outbox.push(notice("e", "your_turn", &[2]));
        let mut gone = superseded(outbox.iter());
        gone.sort();
        assert_eq!(gone, ["a", "b"]);
        outbox.push(notice("f", "game_over", &[]));
        assert_eq!(superseded(outbox.iter()).len(), 5);
        let unreadable = OutboxNotice {
            id: "x".into(),
            body: "not json".into(),
        };
        assert!(superseded([unreadable, notice("y", "your_turn", &[])].iter()).is_empty());
    }
}
