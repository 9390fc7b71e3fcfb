//! Matchmaking queues and tickets, and the index of queues that need a look.
//!
//! A queue holds the tickets that asked for the same game ([`QueueSpec::key`]) in arrival
//! order, and the claims taken from it; a ticket's id names its queue, so a ticket, its queue
//! and the queue's claims live together (one Cluster slot). A look at a queue
//! ([`Matchmaking::look`]) is one atomic step: it hands back a claim whose lease ran out, or takes
//! a full batch (or a batch with bots once a ticket's bots are due) as a new claim with a lease,
//! and says when the queue next needs a look. Whoever holds a claim creates its game (whose id is
//! the claim's) and then seats its tickets ([`Matchmaking::seat_tickets`]), which ends the claim;
//! a process that dies holding one loses it when the lease runs out, and the next look hands it
//! to another process, which finds the game already created or creates it.
//!
//! The index of queues files each queue under when it next needs a look, with a count of the
//! tickets that touched it: a look reschedules the queue only when no ticket came in since the
//! look read its entry, so no ticket is left unindexed. It is split into
//! [`due_shards`](crate::store::due_shards) shards, a queue in the shard of its key
//! ([`due_shard`](crate::store::due_shard): the key is hex of a digest, so queues spread evenly),
//! each shard in its own Cluster slot; a sweep looks only at the shards it holds a lease on
//! ([`Matchmaking::lease_queue_shard`], as the indexes of due work are leased).

use std::time::Duration;

use async_trait::async_trait;

use super::StoreError;
use crate::table::tickets::{Look, MatchWindow, QueueSpec, Seated, Ticket, TicketId, TicketState};

/// Tickets, queues and claims.
#[async_trait]
pub trait Matchmaking {
    /// Puts `ticket` at the end of queue `spec` (kept `keep` in all), then files the queue in
    /// the index as due at `now_ms`.
    async fn enqueue(
        &self,
        id: &TicketId,
        spec: &QueueSpec,
        ticket: &Ticket,
        keep: Duration,
        now_ms: u64,
    ) -> Result<(), StoreError>;

    /// The ticket, if it is kept, and while it waits in its queue its place there (1: next).
    async fn ticket(&self, id: &TicketId) -> Result<Option<(Ticket, Option<u64>)>, StoreError>;

    /// Returns once ticket `id` may no longer be waiting (the write that seats it publishes so), or
    /// after `within` at the latest: the caller reads the ticket again either way.
    async fn wait_for_ticket(&self, id: &TicketId, within: Duration) -> Result<(), StoreError>;

    /// Cancels the ticket if it is waiting. Answers the state it was found in (`None`: no such
    /// ticket).
    async fn cancel_ticket(&self, id: &TicketId) -> Result<Option<TicketState>, StoreError>;

    /// One look at `queue` at `now_ms`, atomically: a claim whose lease ran out is handed over
    /// with a new lease; else tickets past their time expire and a batch that can start becomes
    /// the claim `claim_id`, leased for `lease`, its tickets near each other in rating as
    /// `window` asks ([`crate::table::tickets::batch`]). Also answers the queue's spec.
    async fn look(
        &self,
        queue: &str,
        claim_id: &str,
        now_ms: u64,
        lease: Duration,
        window: Option<&MatchWindow>,
    ) -> Result<(Option<QueueSpec>, Look), StoreError>;

    /// Records each ticket's seat and ends claim `claim` of `queue`, if it is still held by
    /// anyone; seated tickets are kept `keep` more. `false` when the claim was already ended.
    async fn seat_tickets(
        &self,
        queue: &str,
        claim: &str,
        seated: &[Seated],
        keep: Duration,
    ) -> Result<bool, StoreError>;

    /// Up to `limit` queues of `shard` of the index due at `now_ms`, each with its count of
    /// touches.
    async fn due_queues(
        &self,
        shard: u16,
        now_ms: u64,
        limit: usize,
    ) -> Result<Vec<(String, u64)>, StoreError>;

    /// Files `queue` under `next_ms` (or takes it out of the index when `None`), only if no
    /// ticket touched it since its count was `seen`.
    async fn reschedule_queue(&self, queue: &str, seen: u64, next_ms: Option<u64>) -> Result<(), StoreError>;

    /// Takes `shard` of the index of queues for the sweep for `lease`, unless it is held (by
    /// anyone: a lease is never extended): whether `holder` has it now.
    async fn lease_queue_shard(&self, shard: u16, holder: &str, lease: Duration) -> Result<bool, StoreError>;

    /// Moves up to `limit` queues from the single index of queues that earlier versions kept into
    /// their shards, each due at once; a queue touched there meanwhile (by a process of an earlier
    /// version, during a rolling upgrade) stays for the next call, filed in both. Answers how
    /// many left the single index (none, once no process of an earlier version runs).
    async fn move_unsharded_queues(&self, limit: usize) -> Result<u64, StoreError>;
}
