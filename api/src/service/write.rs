//! The one write path: every change to a game (a post, a seat change, the timeouts of a due
//! clock) is applied by the core to the table as read, then written with a compare-and-set;
//! a lost race applies it again to the newer table, a lost answer is resolved before anything
//! is said about it, and a written change updates this process's copy, the lobby and the
//! metrics. This is the only caller of the store's save.

use std::sync::Arc;

use crate::metrics::CacheRead;
use crate::store::{IdempotentRecord, IdempotentWrite, Saved, Work};
use crate::table::bots::turn_due;
use crate::table::{Change, Code, GameId, Refusal, Refused, StoredEvent, Table, Transition};

use super::{Games, now_ms};

/// What the first attempt of a write starts from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Start<'a> {
    /// This process's copy, with no read at all when it holds one; a copy that turns out to be
    /// behind is replaced and the change applied again without spending a retry.
    Copy,
    /// The store's table, read past this process's copy.
    Fresh,
    /// The store's table read with the idempotency record kept under this (scoped) key: a key
    /// used before answers its first outcome instead.
    Keyed(&'a str),
}

/// The idempotency key a write keeps its outcome under, with the fingerprint of the request.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Idempotency<'a> {
    /// The key, scoped to the seat.
    pub key: &'a str,
    /// The request's fingerprint.
    pub fingerprint: u64,
}

/// What a write did.
#[derive(Debug)]
pub(crate) enum Written {
    /// The change was written over `prior`.
    Applied {
        /// The table it was applied to.
        prior: Arc<Table>,
        /// The table written.
        next: Arc<Table>,
        /// The events written, the first of them numbered `prior.events + 1`.
        events: Vec<StoredEvent>,
    },
    /// The change had nothing to write to the table as it is.
    Unchanged(Arc<Table>),
    /// The idempotency key was used before: its first outcome, and nothing was written.
    Replayed {
        /// The game's ruleset.
        ruleset: &'static str,
        /// What was kept of the first outcome.
        record: IdempotentRecord,
    },
}

impl Games {
    /// Writes `change` to game `id`: see the module's documentation. At most `cas_retries`
    /// lost races are applied again, unless the change is pinned to the revision it was meant
    /// for (then the first is `412 version_mismatch`).
    pub(crate) async fn write(
        &self,
        id: &GameId,
        change: &(dyn Change + Sync),
        start: Start<'_>,
        idempotency: Option<Idempotency<'_>>,
    ) -> Result<Written, Refusal> {
        let mut copy = match (&self.cache, start) {
            (Some(cache), Start::Copy) => cache.get(id.as_str()),
            _ => None,
        };
        let mut retries = 0;
        loop {
            let from_copy = copy.is_some();
            let table = match copy.take() {
                Some(held) => held,
                None => match start {
                    Start::Copy => self.read(id).await?,
                    Start::Fresh => self.fresh(id).await?,
                    Start::Keyed(key) => {
                        let (table, prior) = self.load(id, Some(key)).await?;
                        if let Some(record) = prior {
                            let ruleset = table.game.ruleset().slug;
                            return Ok(Written::Replayed { ruleset, record });
                        }
                        Arc::new(table)
                    }
                },
            };
            self.rules.check(&table)?;
            let now = now_ms();
            let transition = match change.apply(&table, now) {
                Ok(Some(transition)) => transition,
                Ok(None) => return Ok(Written::Unchanged(table)),
                Err(_) if from_copy => continue,
                Err(Refused {
                    refusal,
                    timeouts: None,
                }) => return Err(refusal),
                Err(Refused {
                    refusal,
                    timeouts: Some(timeouts),
                }) => {
                    // The timeouts due before a refused change are written on their own.
                    match self.commit(&table, &timeouts, None, change, now).await? {
                        Saved::Written => {
                            tracing::info!(game = %id, version = timeouts.next.revision.number, "a clock ran out before a change; its timeout was played");
                            let mut next = timeouts.next;
                            next.notices.clear();
                            self.settled(&table, &Arc::new(next)).await;
                            return Err(refusal);
                        }
                        Saved::Conflict { current: None } => return Err(self.gone(id)),
                        Saved::Fenced => return Err(Refusal::store_unavailable()),
                        Saved::Conflict { .. } | Saved::Replayed(_) => {
                            self.lost_race(id, &mut retries)?;
                            continue;
                        }
                    }
                }
            };
            let record = idempotency.map(|idempotency| IdempotentRecord {
                fingerprint: idempotency.fingerprint,
                revision: transition.next.revision,
                first_event: transition.first_seq(),
                events: transition.events.len() as u64,
                finished: transition.next.game.is_over(),
                to_act: transition.next.game.to_act(),
            });
            let kept = match (&idempotency, &record) {
                (Some(idempotency), Some(record)) => Some(IdempotentWrite {
                    key: idempotency.key,
                    record,
                }),
                _ => None,
            };
            match self.commit(&table, &transition, kept, change, now).await? {
                Saved::Written => {
                    self.count_bot_moves(&transition);
                    let Transition { mut next, events, .. } = transition;
                    next.notices.clear();
                    let next = Arc::new(next);
                    self.settled(&table, &next).await;
                    return Ok(Written::Applied {
                        prior: table,
                        next,
                        events,
                    });
                }
                Saved::Replayed(record) => {
                    let ruleset = table.game.ruleset().slug;
                    return Ok(Written::Replayed { ruleset, record });
                }
                Saved::Fenced => return Err(Refusal::store_unavailable()),
                Saved::Conflict { current: None } => return Err(self.gone(id)),
                Saved::Conflict { .. } if from_copy => self.metrics.cache_read(CacheRead::Stale),
                Saved::Conflict {
                    current: Some(current),
                } => {
                    self.metrics.cas_conflict();
                    if change.pinned() {
                        return Err(Refusal::version_mismatch(current));
                    }
                    self.lost_race(id, &mut retries)?;
                    self.metrics.cas_retry();
                }
            }
        }
    }

    /// Counts the moves of bots a written transition holds: those of inline bots, played with
    /// the change that let them act, and a worker's move of a bot that searches. A game with no
    /// bot costs one look at its seats.
    fn count_bot_moves(&self, transition: &Transition) {
        let seats = &transition.next.seats;
        if transition.actions.is_empty() || !seats.has_bot(|_| true) {
            return;
        }
        let ruleset = transition.next.game.ruleset().slug;
        for played in &transition.actions {
            if let Some(level) = seats.bot(played.seat) {
                self.metrics.bot_moved(level, ruleset);
            }
        }
    }

    /// Counts a lost race: `409 contention` once `cas_retries` were spent.
    fn lost_race(&self, id: &GameId, retries: &mut u32) -> Result<(), Refusal> {
        if *retries >= self.cas_retries {
            return Err(Refusal::new(
                Code::Contention,
                format!("the game changed {retries} times while this change was applied; retry"),
            ));
        }
        *retries += 1;
        tracing::debug!(game = %id, retries = *retries, "lost a race; applying the change again to the newer table");
        Ok(())
    }

    /// `404` for a game found gone by a write, forgotten by this process too.
    fn gone(&self, id: &GameId) -> Refusal {
        if let Some(cache) = &self.cache {
            cache.forget(id.as_str());
        }
        Refusal::game_not_found(id.as_str())
    }

    /// Writes `transition` over `table` with a compare-and-set, after marking the game due for
    /// its webhook notices and filing its clock (both before the write: an early mark or entry
    /// is harmless, a missing one is not). A write whose answer was lost is resolved before
    /// anything is said about it.
    async fn commit(
        &self,
        table: &Table,
        transition: &Transition,
        idempotency: Option<IdempotentWrite<'_>>,
        change: &(dyn Change + Sync),
        now: u64,
    ) -> Result<Saved, Refusal> {
        let next = &transition.next;
        if !next.notices.is_empty() {
            self.counted(self.store.mark_due(&table.id, &next.receiver()).await)?;
        }
        if let Some((at, earlier_only)) = change.clock_entry(next, now) {
            self.counted(self.store.schedule_clock(&table.id, at, earlier_only).await)?;
        }
        let bot_due = turn_due(next).is_some();
        if bot_due {
            self.counted(self.store.file_work(Work::BotTurn, &table.id, now).await)?;
        }
        if next.awaits_rating() && !table.awaits_rating() {
            self.counted(self.store.file_work(Work::Rate, &table.id, now).await)?;
        }
        // A rated game is archived once its ratings are in it.
        let settled = |t: &Table| t.is_over() && !t.awaits_rating();
        if self.archiving.is_some() && settled(next) && !settled(table) {
            self.counted(self.store.file_work(Work::Archive, &table.id, now).await)?;
        }
        let saved = match self
            .store
            .save(
                &table.revision,
                next,
                &transition.events,
                &transition.actions,
                idempotency,
            )
            .await
        {
            Ok(saved) => saved,
            Err(e) => {
                self.after_lost_answer(&table.id, &next.revision, e).await?;
                Saved::Written
            }
        };
        if bot_due && matches!(saved, Saved::Written) {
            self.bots.wake();
        }
        Ok(saved)
    }

    /// What follows a written change of `prior` to `next`: the lobby, when either has an open
    /// seat, and this process's copy.
    async fn settled(&self, prior: &Table, next: &Arc<Table>) {
        if prior.seats.has_open_seat() || next.seats.has_open_seat() {
            self.relist(next).await;
        }
        if let Some(cache) = &self.cache {
            cache.offer(next.clone());
        }
    }
}
