//! Matchmaking in memory, with the rules of the Redis store's scripts (one process).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use async_trait::async_trait;

use super::MemoryStore;
use crate::store::{Matchmaking, StoreError, due_shard};
use crate::table::tickets::{
    Batch, Claim, Claimed, Look, MatchWindow, QueueSpec, Seated, Ticket, TicketId, TicketState,
    WIDEN_LOOK_MS, Waiting, batch,
};

/// A ticket and when it is forgotten.
struct Kept {
    ticket: Ticket,
    until: Instant,
}

/// One queue: its spec, its waiting tickets in arrival order and its claims.
struct Queue {
    spec: QueueSpec,
    waiting: Vec<String>,
    claims: HashMap<String, Claim>,
}

/// Every queue and ticket, and the index of queues: when each next needs a look, and its count
/// of touches.
#[derive(Default)]
pub(super) struct Matching {
    tickets: HashMap<String, Kept>,
    queues: HashMap<String, Queue>,
    due: HashMap<String, (u64, u64)>,
}

impl Matching {
    /// Drops every ticket kept past its time.
    pub(super) fn forget_ended(&mut self, now: Instant) {
        self.tickets.retain(|_, kept| kept.until > now);
    }

    fn live(&mut self, id: &str) -> Option<&mut Ticket> {
        if self.tickets.get(id).is_some_and(|k| k.until <= Instant::now()) {
            self.tickets.remove(id);
        }
        self.tickets.get_mut(id).map(|k| &mut k.ticket)
    }
}

impl MemoryStore {
    fn matching(&self) -> Result<std::sync::MutexGuard<'_, Matching>, StoreError> {
        self.matching
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))
    }
}

#[async_trait]
impl Matchmaking for MemoryStore {
    async fn enqueue(
        &self,
        id: &TicketId,
        spec: &QueueSpec,
        ticket: &Ticket,
        keep: Duration,
        now: u64,
    ) -> Result<(), StoreError> {
        let mut m = self.matching()?;
        m.tickets.insert(
            id.to_string(),
            Kept {
                ticket: ticket.clone(),
                until: Instant::now() + keep,
            },
        );
        let queue = m.queues.entry(id.queue().to_owned()).or_insert_with(|| Queue {
            spec: spec.clone(),
            waiting: Vec::new(),
            claims: HashMap::new(),
        });
        queue.waiting.push(id.to_string());
        let entry = m.due.entry(id.queue().to_owned()).or_insert((now, 0));
        entry.0 = entry.0.min(now);
        entry.1 += 1;
        Ok(())
    }

    async fn ticket(&self, id: &TicketId) -> Result<Option<(Ticket, Option<u64>)>, StoreError> {
        let mut m = self.matching()?;
        let Some(ticket) = m.live(id.as_str()).cloned() else {
            return Ok(None);
        };
        let position = m
            .queues
            .get(id.queue())
            .and_then(|q| q.waiting.iter().position(|t| t == id.as_str()))
            .map(|i| i as u64 + 1);
        Ok(Some((ticket, position)))
    }

    async fn wait_for_ticket(&self, id: &TicketId, within: Duration) -> Result<(), StoreError> {
        let notified = self.seated.notified();
        tokio::pin!(notified);
        // Registered before the ticket is read, so a seating between the two is not missed.
        notified.as_mut().enable();
        let waiting = self
            .matching()?
            .tickets
            .get(id.as_str())
            .is_some_and(|kept| kept.ticket.state == TicketState::Waiting);
        if waiting {
            let _ = tokio::time::timeout(within, notified).await;
        }
        Ok(())
    }

    async fn cancel_ticket(&self, id: &TicketId) -> Result<Option<TicketState>, StoreError> {
        let mut m = self.matching()?;
        let Some(ticket) = m.live(id.as_str()) else {
            return Ok(None);
        };
        let found = ticket.state;
        if found == TicketState::Waiting {
            ticket.state = TicketState::Cancelled;
            if let Some(queue) = m.queues.get_mut(id.queue()) {
                queue.waiting.retain(|t| t != id.as_str());
            }
        }
        Ok(Some(found))
    }

    async fn look(
        &self,
        queue: &str,
        claim_id: &str,
        now_ms: u64,
        lease: Duration,
        window: Option<&MatchWindow>,
    ) -> Result<(Option<QueueSpec>, Look), StoreError> {
        let lease_ms = u64::try_from(lease.as_millis()).unwrap_or(u64::MAX);
        let mut formed = false;
        let mut m = self.matching()?;
        let Some(mut q) = m.queues.remove(queue) else {
            return Ok((None, Look::default()));
        };
        let mut look = Look::default();
        if let Some(claim) = q.claims.values_mut().find(|c| c.lease <= now_ms) {
            claim.lease = now_ms + lease_ms;
            look.claim = Some(claim.clone());
        } else {
            let mut waiting = Vec::new();
            for id in std::mem::take(&mut q.waiting) {
                let Some(ticket) = m.live(&id) else { continue };
                if ticket.state != TicketState::Waiting {
                    continue;
                }
                if ticket.expires_ms <= now_ms {
                    ticket.state = TicketState::Expired;
                    continue;
                }
                waiting.push((
                    id,
                    Waiting {
                        bots_ms: ticket.bots_ms,
                        level: ticket.bot_level,
                        rating: ticket.rating,
                        opened_ms: ticket.opened_ms,
                    },
                ));
            }
            let seen: Vec<Waiting> = waiting.iter().map(|(_, w)| *w).collect();
            if let Some(Batch { taken, bots, level }) = batch(&seen, q.spec.seats, now_ms, window) {
                formed = true;
                let mut tickets = Vec::new();
                for &i in taken.iter().rev() {
                    let (id, _) = waiting.remove(i);
                    if let Some(ticket) = m.live(&id) {
                        ticket.state = TicketState::Claimed;
                        tickets.push(Claimed {
                            id,
                            name: ticket.name.clone(),
                            player: ticket.player.clone(),
                        });
                    }
                }
                tickets.reverse();
                let claim = Claim {
                    id: claim_id.to_owned(),
                    tickets,
                    bots,
                    level,
                    lease: now_ms + lease_ms,
                };
                q.claims.insert(claim.id.clone(), claim.clone());
                look.claim = Some(claim);
            }
            q.waiting = waiting.into_iter().map(|(id, _)| id).collect();
        }
        let mut next: Option<u64> = q.claims.values().map(|c| c.lease).min();
        if q.waiting.len() >= q.spec.seats {
            // Another batch may start at once; else the windows widen.
            let at = if formed { now_ms } else { now_ms + WIDEN_LOOK_MS };
            next = Some(next.map_or(at, |n| n.min(at)));
        }
        for id in &q.waiting {
            if let Some(ticket) = m.live(id) {
                let at = if ticket.bots_ms > 0 {
                    ticket.bots_ms.min(ticket.expires_ms)
                } else {
                    ticket.expires_ms
                };
                next = Some(next.map_or(at, |n| n.min(at)));
            }
        }
        look.next_ms = next;
        let spec = q.spec.clone();
        if !q.waiting.is_empty() || !q.claims.is_empty() {
            m.queues.insert(queue.to_owned(), q);
        }
        Ok((Some(spec), look))
    }

    async fn seat_tickets(
        &self,
        queue: &str,
        claim: &str,
        seated: &[Seated],
        keep: Duration,
    ) -> Result<bool, StoreError> {
        let mut m = self.matching()?;
        let Some(q) = m.queues.get_mut(queue) else {
            return Ok(false);
        };
        if q.claims.remove(claim).is_none() {
            return Ok(false);
        }
        if q.waiting.is_empty() && q.claims.is_empty() {
            m.queues.remove(queue);
        }
        self.seated.notify_waiters();
        for seat in seated {
            if let Some(kept) = m.tickets.get_mut(&seat.ticket) {
                kept.ticket.state = TicketState::Matched;
                kept.ticket.game = Some(seat.game.clone());
                kept.ticket.seat = Some(seat.seat);
                kept.ticket.seat_token = Some(seat.seat_token.clone());
                kept.until = Instant::now() + keep;
            }
        }
        Ok(true)
    }

    async fn due_queues(
        &self,
        shard: u16,
        now_ms: u64,
        limit: usize,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let m = self.matching()?;
        let mut due: Vec<(u64, String, u64)> = m
            .due
            .iter()
            .filter(|(q, (at, _))| *at <= now_ms && due_shard(q) == shard)
            .map(|(q, (at, touched))| (*at, q.clone(), *touched))
            .collect();
        due.sort();
        Ok(due
            .into_iter()
            .take(limit)
            .map(|(_, q, touched)| (q, touched))
            .collect())
    }

    async fn reschedule_queue(&self, queue: &str, seen: u64, next_ms: Option<u64>) -> Result<(), StoreError> {
        let mut m = self.matching()?;
        if m.due.get(queue).is_some_and(|(_, touched)| *touched == seen) {
            match next_ms {
                Some(at) => {
                    if let Some(entry) = m.due.get_mut(queue) {
                        entry.0 = at;
                    }
                }
                None => {
                    m.due.remove(queue);
                }
            }
        }
        Ok(())
    }

    async fn lease_queue_shard(
        &self,
        shard: u16,
        _holder: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        self.lease_index("mm", shard, lease)
    }

    async fn move_unsharded_queues(&self, _limit: usize) -> Result<u64, StoreError> {
        // Memory keeps nothing from an earlier version.
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use roadie_engine::{BotLevel, Seat};

    use super::*;

    use crate::store::Retention;
    use crate::table::tickets::token_hash;

    /// The tests' clock: every time is explicit, none read from the wall.
    const T0: u64 = 1_700_000_000_000;

    fn store() -> MemoryStore {
        MemoryStore::new(Retention {
            idle: Duration::from_secs(60),
            finished: Duration::from_secs(60),
        })
    }

    fn spec() -> QueueSpec {
        QueueSpec {
            ruleset: "shrewd-producer".into(),
            seats: 2,
            options: None,
            app: None,
        }
    }

    async fn enqueue(store: &MemoryStore, name: &str, now: u64, bots_ms: u64) -> TicketId {
        let id = TicketId::random(&spec().key());
        let ticket = Ticket {
            state: TicketState::Waiting,
            name: name.into(),
            player: None,
            token_hash: token_hash("t"),
            expires_ms: now + 60_000,
            bots_ms,
            bot_level: BotLevel::Greedy,
            rating: None,
            opened_ms: now,
            game: None,
            seat: None,
            seat_token: None,
        };
        store
            .enqueue(&id, &spec(), &ticket, Duration::from_secs(120), now)
            .await
            .expect("enqueued");
        id
    }

    #[tokio::test]
    async fn a_full_batch_is_claimed_once_and_handed_on_only_when_its_lease_runs_out() {
        let store = store();
        let now = T0;
        let queue = spec().key();
        let first = enqueue(&store, "Ann", now, 0).await;
        let (_, look) = store
            .look(&queue, "c1", now, Duration::from_secs(1), None)
            .await
            .expect("look");
        assert!(look.claim.is_none(), "one ticket of two cannot start a game");
        let second = enqueue(&store, "Bob", now, 0).await;
        let (_, look) = store
            .look(&queue, "c2", now, Duration::from_secs(1), None)
            .await
            .expect("look");
        let claim = look.claim.expect("a claim");
        assert_eq!(claim.id, "c2");
        assert_eq!(
            claim.tickets.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
            ["Ann", "Bob"]
        );
        let (_, again) = store
            .look(&queue, "c3", now + 10, Duration::from_secs(1), None)
            .await
            .expect("look");
        assert!(again.claim.is_none(), "a leased claim is nobody else's");
        assert_eq!(again.next_ms, Some(claim.lease));
        assert_eq!(
            store.cancel_ticket(&first).await.expect("cancel"),
            Some(TicketState::Claimed)
        );
        let (_, late) = store
            .look(&queue, "c4", claim.lease, Duration::from_secs(1), None)
            .await
            .expect("look");
        assert_eq!(
            late.claim.map(|c| c.id),
            Some("c2".into()),
            "handed on after its lease"
        );
        let seated: Vec<Seated> = [(&first, 0), (&second, 1)]
            .into_iter()
            .map(|(id, seat)| Seated {
                ticket: id.to_string(),
                game: "g".into(),
                seat: Seat::new(seat),
                seat_token: format!("s{seat}"),
            })
            .collect();
        let keep = Duration::from_secs(60);
        assert!(
            store
                .seat_tickets(&queue, "c2", &seated, keep)
                .await
                .expect("seat")
        );
        assert!(
            !store
                .seat_tickets(&queue, "c2", &seated, keep)
                .await
                .expect("seat")
        );
        let (ticket, position) = store.ticket(&second).await.expect("read").expect("kept");
        assert_eq!(ticket.state, TicketState::Matched);
        assert_eq!(ticket.seat, Some(Seat::new(1)));
        assert_eq!(position, None);
    }

    #[tokio::test]
    async fn a_lone_ticket_gets_bots_once_they_are_due() {
        let store = store();
        let now = T0;
        let queue = spec().key();
        enqueue(&store, "Ann", now, now + 500).await;
        let (_, look) = store
            .look(&queue, "c1", now, Duration::from_secs(1), None)
            .await
            .expect("look");
        assert!(look.claim.is_none());
        assert_eq!(look.next_ms, Some(now + 500));
        let (_, look) = store
            .look(&queue, "c2", now + 500, Duration::from_secs(1), None)
            .await
            .expect("look");
        let claim = look.claim.expect("a claim with bots");
        assert_eq!(
            (claim.tickets.len(), claim.bots, claim.level),
            (1, 1, BotLevel::Greedy)
        );
    }

    #[tokio::test]
    async fn a_queue_touched_since_it_was_read_is_not_refiled() {
        let store = store();
        let now = T0;
        let queue = spec().key();
        enqueue(&store, "Ann", now, 0).await;
        let due = store
            .due_queues(due_shard(&queue), now + 1, 10)
            .await
            .expect("due");
        let seen = due.iter().find(|(q, _)| *q == queue).expect("filed").1;
        enqueue(&store, "Bob", now, 0).await;
        store
            .reschedule_queue(&queue, seen, None)
            .await
            .expect("reschedule");
        assert!(
            store
                .due_queues(due_shard(&queue), now + 1, 10)
                .await
                .expect("due")
                .iter()
                .any(|(q, _)| *q == queue),
            "a ticket came in after the read: the queue stays due"
        );
        let seen = seen + 1;
        store
            .reschedule_queue(&queue, seen, None)
            .await
            .expect("reschedule");
        assert!(
            store
                .due_queues(due_shard(&queue), now + 1, 10)
                .await
                .expect("due")
                .is_empty()
        );
    }
}
