//! Finished games written to the archive as due work, and read back from it once the store has
//! forgotten them.
//!
//! The write that finishes a game files it as [`Work::Archive`] before it writes (as every due
//! work is filed). Any process's archiver claims it with a lease, writes its final state, its
//! event log and its signed record (the record last: its presence means the game is archived
//! whole), and only then shortens the game's lifetime in the store to the finished games' one:
//! until the archive holds a game, the store keeps it as long as a running game. A process that
//! dies while archiving leaves its claim to lapse, and another writes the same objects again.
//! An archive that fails keeps its games due: the archiver waits twice as long before each
//! next sweep while it fails, up to [`MAX_BACKOFF`].

use std::sync::Arc;
use std::time::Duration;

use roadie_engine::Viewer;

use crate::archive::{Archive, ArchiveError};
use crate::records::{self, Record};
use crate::store::{DueClaim, DueEnd, HeldShards, Work};
use crate::table::{GameId, Holder, Pass, Refusal};
use crate::wire::{EventLog, GameState, SequencedEvent};

use super::Games;
use super::read::{sequenced, state_of};

/// The longest an archiver waits between sweeps while the archive fails.
pub const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// Games claimed by one sweep of one process, at most.
const CLAIMS_PER_SWEEP: usize = 32;

/// Within how long a write that filed a game has landed or failed: a game filed more recently
/// than this and found still running stays due.
const WRITE_GRACE: Duration = Duration::from_secs(5);

/// Where finished games go, and how.
pub struct Archiving {
    /// The archive.
    pub archive: Archive,
    /// How long a finished game stays in the store once the archive holds it.
    pub finished_ttl: Duration,
    /// How long a claim on a game to archive holds.
    pub lease: Duration,
    /// How often each process looks for games to archive.
    pub sweep: Duration,
}

/// An archived game's objects besides its record.
#[derive(Clone, Copy)]
enum Object {
    /// Its final state.
    State,
    /// Its event log.
    Events,
}

/// `value` as JSON bytes.
fn json_bytes<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, ArchiveError> {
    serde_json::to_vec(value).map_err(|e| ArchiveError::Corrupt(e.to_string()))
}

/// What archiving a claimed game did.
enum Archived {
    /// The archive holds it.
    Written,
    /// There was nothing to write: the game runs still, or is gone.
    Nothing,
}

impl Games {
    /// Writes finished game `id` to the archive: its state as a spectator sees it, its event
    /// log (NDJSON, every event public) and its signed record; then gives it the finished games'
    /// lifetime in the store.
    async fn archive_game(&self, archiving: &Archiving, id: &str) -> Result<Archived, ArchiveError> {
        let unavailable = |e: crate::store::StoreError| ArchiveError::Unavailable(format!("the store: {e}"));
        let (Some(table), _) = self.store.load(id, None).await.map_err(unavailable)? else {
            tracing::warn!(game = %id, "a finished game was gone from the store before it was archived");
            return Ok(Archived::Nothing);
        };
        if !table.is_over() {
            return Ok(Archived::Nothing);
        }
        let events = self.store.events(id, 0, u64::MAX).await.map_err(unavailable)?;
        let actions = self.store.actions(id).await.map_err(unavailable)?;
        let refused = |r: Refusal| ArchiveError::Corrupt(format!("game {id}: {}", r.detail));
        let record = records::sign(
            records::build(&table, &events, &actions).map_err(refused)?,
            &self.record_keys,
        )
        .map_err(refused)?;
        let state = state_of(&table, Viewer::Spectator).map_err(refused)?;
        let mut log = Vec::new();
        for event in sequenced((1..).zip(events), Viewer::Spectator, true) {
            log.extend(json_bytes(&event)?);
            log.push(b'\n');
        }
        archiving.archive.put_state(id, &json_bytes(&state)?).await?;
        archiving
            .archive
            .put_game(id, &json_bytes(&record)?, &log)
            .await?;
        self.store
            .shorten(id, archiving.finished_ttl)
            .await
            .map_err(unavailable)?;
        Ok(Archived::Written)
    }

    /// Archives the games of `claims` at once, ending each claim; whether any write failed.
    async fn archive_claims(&self, archiving: &Archiving, claims: Vec<DueClaim>) -> bool {
        let work = claims.into_iter().map(|claim| async move {
            let end = match self.archive_game(archiving, &claim.id).await {
                Ok(Archived::Written) => {
                    self.metrics.game_archived(true);
                    tracing::debug!(game = %claim.id, "archived");
                    DueEnd::Done
                }
                Ok(Archived::Nothing) => DueEnd::Idle { grace: WRITE_GRACE },
                Err(e) => {
                    self.metrics.game_archived(false);
                    tracing::warn!(game = %claim.id, error = %e, "a finished game could not be archived; it is tried again after its lease");
                    return false;
                }
            };
            if let Err(e) = self.store.release_work(&claim, end).await {
                tracing::warn!(game = %claim.id, error = %e, "an archived game's claim could not be ended; it lapses");
            }
            true
        });
        !futures_util::future::join_all(work)
            .await
            .into_iter()
            .all(|ok| ok)
    }

    /// The archived game `id` as `pass` may read it, when this server has an archive and it
    /// holds the game: the record, or `missing` (the store's answer) otherwise. Another app's
    /// credential finds nothing, as for a game in the store.
    pub(super) async fn archived_record(
        &self,
        id: &GameId,
        pass: &Pass,
        missing: Refusal,
    ) -> Result<Record, Refusal> {
        let Some(archiving) = &self.archiving else {
            return Err(missing);
        };
        let bytes = match archiving.archive.record(id.as_str()).await {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return Err(missing),
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "the archive could not be read");
                return Err(Refusal::store_unavailable());
            }
        };
        let record: Record = serde_json::from_slice(&bytes).map_err(|e| {
            tracing::error!(game = %id, error = %e, "an archived record does not read");
            Refusal::internal()
        })?;
        let admitted = match &pass.holder {
            Holder::Token(_) => true,
            Holder::App(app) => record.app.as_deref() == Some(&**app),
            Holder::Player(who) => record.app.as_deref() == Some(&*who.app),
        };
        if admitted {
            Ok(record)
        } else {
            Err(Refusal::game_not_found(id.as_str()))
        }
    }

    /// A finished game the store has forgotten, as a spectator saw it at its end, from the
    /// archive.
    pub(super) async fn state_from_archive(
        &self,
        id: &GameId,
        pass: &Pass,
        missing: Refusal,
    ) -> Result<GameState, Refusal> {
        self.archived_record(id, pass, missing).await?;
        let state = self.archived_object(id, Object::State).await?;
        serde_json::from_slice(&state).map_err(|e| {
            tracing::error!(game = %id, error = %e, "an archived state does not read");
            Refusal::internal()
        })
    }

    /// The event log of a finished game the store has forgotten, every event public, from the
    /// archive.
    pub(super) async fn events_from_archive(
        &self,
        id: &GameId,
        pass: &Pass,
        after: u64,
        limit: u64,
        missing: Refusal,
    ) -> Result<EventLog, Refusal> {
        let record = self.archived_record(id, pass, missing).await?;
        let state: GameState = serde_json::from_slice(&self.archived_object(id, Object::State).await?)
            .map_err(|_| Refusal::internal())?;
        let text = self.archived_object(id, Object::Events).await?;
        let count = record.events.count;
        if after > count {
            return Err(Refusal::cursor_ahead(after, count));
        }
        let events = text
            .split(|b| *b == b'\n')
            .filter(|line| !line.is_empty())
            .skip(usize::try_from(after).unwrap_or(usize::MAX))
            .take(usize::try_from(limit).unwrap_or(usize::MAX))
            .map(serde_json::from_slice::<SequencedEvent>)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| {
                tracing::error!(game = %id, error = %e, "an archived event log does not read");
                Refusal::internal()
            })?;
        Ok(EventLog {
            id: state.id,
            ruleset: state.ruleset,
            version: state.version,
            revision: state.revision,
            finished: true,
            next_after: after.saturating_add(events.len() as u64),
            events,
        })
    }

    /// One object of archived game `id`, which its record says is there.
    async fn archived_object(&self, id: &GameId, which: Object) -> Result<Vec<u8>, Refusal> {
        let Some(archiving) = &self.archiving else {
            return Err(Refusal::game_not_found(id.as_str()));
        };
        let read = match which {
            Object::State => archiving.archive.state(id.as_str()).await,
            Object::Events => archiving.archive.events(id.as_str()).await,
        };
        match read {
            Ok(Some(bytes)) => Ok(bytes),
            Ok(None) => {
                tracing::error!(game = %id, "an archived game lacks an object its record promises");
                Err(Refusal::internal())
            }
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "the archive could not be read");
                Err(Refusal::store_unavailable())
            }
        }
    }
}

/// Starts this process's archiver, when the service has an archive: it claims the finished
/// games due every `sweep`, writes them, and reports the backlog.
pub fn spawn_archiver(games: Arc<Games>) {
    let Some(archiving) = games.archiving.clone() else {
        return;
    };
    tracing::info!(archive = %archiving.archive.describe(), "finished games are archived");
    actix_web::rt::spawn(async move {
        let mut wait = archiving.sweep;
        let mut held = HeldShards::new(archiving.sweep * 2);
        loop {
            tokio::time::sleep(wait).await;
            let claims = games
                .claim_due(Work::Archive, &mut held, archiving.lease, CLAIMS_PER_SWEEP)
                .await;
            let failed = !claims.is_empty() && games.archive_claims(&archiving, claims).await;
            if let Ok(backlog) = games.store.work_backlog(Work::Archive).await {
                games.metrics.archive_backlog(backlog);
            }
            wait = if failed {
                (wait * 2).min(MAX_BACKOFF)
            } else {
                archiving.sweep
            };
        }
    });
}
