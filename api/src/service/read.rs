//! Reads: a game as a caller may see it, its legal actions, its log and the steps of a push
//! stream, from this process's copy when the store confirms it is current.

use std::sync::Arc;
use std::time::Duration;

use roadie_engine::{Seat, Viewer};

use crate::metrics::CacheRead;
use crate::store::{Freshness, IdempotentRecord, Revision, StoredEvent};
use crate::table::{Code, GameId, Pass, Precondition, Refusal, Table, seed_commitment};
use crate::wire::{EventLog, GameState, LegalActions, SequencedEvent, Status};

use super::Games;

/// The longest a read may wait for a game to change.
pub const MAX_WAIT: Duration = Duration::from_secs(30);

/// The most events one read of the log returns.
pub const MAX_EVENTS_PER_READ: u64 = 5_000;

/// One step of a push stream: see [`Games::stream_step`].
#[derive(Debug)]
pub struct StreamStep {
    /// The revision the events were read at.
    pub revision: Revision,
    /// Whether the game goes on at that revision.
    pub status: Status,
    /// The seats that may act at that revision.
    pub to_act: Vec<Seat>,
    /// Whether the log holds nothing after `next_after` at that revision.
    pub caught_up: bool,
    /// The sequence number of the last event read (seen by the caller or not).
    pub next_after: u64,
    /// The events the caller may see, in order.
    pub events: Vec<SequencedEvent>,
}

pub(crate) fn state_of(stored: &Table, viewer: Viewer) -> Result<GameState, Refusal> {
    let game = &stored.game;
    let finished = game.is_over();
    Ok(GameState {
        id: stored.id.clone(),
        ruleset: game.ruleset().slug.into(),
        version: stored.revision.number,
        revision: stored.revision.to_string(),
        status: Status::of_table(stored),
        phase: game.phase().into(),
        to_act: if stored.aborted { Vec::new() } else { game.to_act() },
        seats: game.seat_count(),
        occupants: stored.seats.describe(game.seat_count()),
        seat: viewer.seat(),
        view: game.view(viewer),
        outcome: game.outcome(),
        seed_commitment: seed_commitment(stored.seed, &stored.salt),
        seed: finished.then_some(stored.seed),
        seed_salt: finished.then(|| stored.salt.clone()),
        clock: stored.clock.as_ref().map(|clock| clock.view()),
        forked_from: stored.forked_from.clone(),
        rated: stored.rated.is_some(),
        ratings: stored.rated.as_ref().and_then(|rated| rated.changes.clone()),
    })
}

pub(crate) fn sequenced(
    events: impl IntoIterator<Item = (u64, StoredEvent)>,
    viewer: Viewer,
    finished: bool,
) -> Vec<SequencedEvent> {
    events
        .into_iter()
        .filter(|(_, e)| e.audience.admits(viewer, finished))
        .map(|(seq, e)| SequencedEvent {
            seq,
            audience: e.audience,
            body: e.body,
        })
        .collect()
}

/// What a read of a game found.
#[derive(Debug)]
pub enum Seen {
    /// The game as the caller may see it.
    Changed(Box<GameState>),
    /// The game is still at the revision the caller holds.
    Unchanged {
        /// That revision.
        revision: Revision,
    },
}

impl Games {
    pub(crate) async fn load(
        &self,
        id: &GameId,
        idempotency_key: Option<&str>,
    ) -> Result<(Table, Option<IdempotentRecord>), Refusal> {
        match self.counted(self.store.load(id.as_str(), idempotency_key).await)? {
            (Some(game), record) => Ok((game, record)),
            (None, _) => Err(Refusal::game_not_found(id.as_str())),
        }
    }

    /// The game as the store holds it now: this process's copy when the store confirms its
    /// revision, else a fresh read.
    pub(crate) async fn read(&self, id: &GameId) -> Result<Arc<Table>, Refusal> {
        let Some(cache) = &self.cache else {
            return Ok(Arc::new(self.load(id, None).await?.0));
        };
        let Some(held) = cache.get(id.as_str()) else {
            self.metrics.cache_read(CacheRead::Miss);
            let game = Arc::new(self.load(id, None).await?.0);
            cache.offer(game.clone());
            return Ok(game);
        };
        match self.counted(self.store.load_if_changed(id.as_str(), &held.revision).await)? {
            Freshness::Unchanged => {
                self.metrics.cache_read(CacheRead::Hit);
                Ok(held)
            }
            Freshness::Changed(game) => {
                self.metrics.cache_read(CacheRead::Stale);
                let game: Arc<Table> = Arc::from(game);
                cache.offer(game.clone());
                Ok(game)
            }
            Freshness::Missing => {
                cache.forget(id.as_str());
                Err(Refusal::game_not_found(id.as_str()))
            }
        }
    }

    /// The game as the store holds it now, read past this process's copy.
    pub(crate) async fn fresh(&self, id: &GameId) -> Result<Arc<Table>, Refusal> {
        Ok(Arc::new(self.load(id, None).await?.0))
    }

    /// The game as the caller's `pass` may see it, unless it is still at a revision `known` names (the
    /// client's `If-None-Match`): then only that revision, after waiting up to `wait` for it to
    /// change.
    pub async fn get(
        &self,
        id: &GameId,
        pass: &Pass,
        known: Option<&Precondition>,
        wait: Duration,
    ) -> Result<Seen, Refusal> {
        let mut stored = match self.read(id).await {
            Ok(stored) => stored,
            Err(missing) if missing.code == Code::GameNotFound => {
                let state = self.state_from_archive(id, pass, missing).await?;
                return Ok(Seen::Changed(Box::new(state)));
            }
            Err(refusal) => return Err(refusal),
        };
        let mut viewer = stored.viewer_of(pass)?;
        if let Some(known) = known
            && known.names(&stored.revision)
        {
            if !wait.is_zero() {
                self.counted(
                    self.store
                        .wait_for_change(id.as_str(), &stored.revision, wait)
                        .await,
                )?;
                stored = self.read(id).await?;
                viewer = stored.viewer_of(pass)?;
            }
            if known.names(&stored.revision) {
                return Ok(Seen::Unchanged {
                    revision: stored.revision,
                });
            }
        }
        state_of(&stored, viewer).map(|state| Seen::Changed(Box::new(state)))
    }

    /// What the seat of the caller's `pass` may post now.
    pub async fn actions(&self, id: &GameId, pass: &Pass) -> Result<LegalActions, Refusal> {
        let stored = self.read(id).await?;
        let seat = stored.seat_of(pass)?;
        Ok(LegalActions {
            ruleset: stored.game.ruleset().slug.into(),
            version: stored.revision.number,
            revision: stored.revision.to_string(),
            seat,
            actions: stored.game.legal_actions(seat),
        })
    }

    /// The caller's events after sequence number `after` (at most `limit`); `409 cursor_ahead`
    /// when `after` is beyond the log's end, since the events it names are not in the log.
    pub async fn events(
        &self,
        id: &GameId,
        pass: &Pass,
        after: u64,
        limit: u64,
    ) -> Result<EventLog, Refusal> {
        let stored = match self.read(id).await {
            Ok(stored) => stored,
            Err(missing) if missing.code == Code::GameNotFound => {
                return self
                    .events_from_archive(id, pass, after, limit.clamp(1, MAX_EVENTS_PER_READ), missing)
                    .await;
            }
            Err(refusal) => return Err(refusal),
        };
        let viewer = stored.viewer_of(pass)?;
        if after > stored.events {
            return Err(Refusal::cursor_ahead(after, stored.events));
        }
        let limit = limit.clamp(1, MAX_EVENTS_PER_READ);
        let events = self.counted(self.store.events(id.as_str(), after, limit).await)?;
        let finished = stored.game.is_over();
        let next_after = after.saturating_add(events.len() as u64);
        Ok(EventLog {
            id: stored.id.clone(),
            ruleset: stored.game.ruleset().slug.into(),
            version: stored.revision.number,
            revision: stored.revision.to_string(),
            finished,
            next_after,
            events: sequenced((after.saturating_add(1)..).zip(events), viewer, finished),
        })
    }

    /// What a push stream that has sent everything up to sequence number `after` sends next:
    /// the caller's events the log holds at the revision read (at most [`MAX_EVENTS_PER_READ`]),
    /// with that revision and who acts at it, so that the two always agree. `409 cursor_ahead`
    /// when `after` is beyond the log's end (an open stream that meets it ends with `error`).
    pub async fn stream_step(&self, id: &GameId, pass: &Pass, after: u64) -> Result<StreamStep, Refusal> {
        let stored = self.read(id).await?;
        let viewer = stored.viewer_of(pass)?;
        if after > stored.events {
            return Err(Refusal::cursor_ahead(after, stored.events));
        }
        let waiting = stored.events.saturating_sub(after);
        let limit = waiting.min(MAX_EVENTS_PER_READ);
        let events = if limit == 0 {
            Vec::new()
        } else {
            self.counted(self.store.events(id.as_str(), after, limit).await)?
        };
        let finished = stored.game.is_over();
        let next_after = after.saturating_add(events.len() as u64);
        Ok(StreamStep {
            revision: stored.revision,
            status: Status::of_table(&stored),
            to_act: if stored.aborted {
                Vec::new()
            } else {
                stored.game.to_act()
            },
            caught_up: next_after >= stored.events,
            next_after,
            events: sequenced((after.saturating_add(1)..).zip(events), viewer, finished),
        })
    }
}
