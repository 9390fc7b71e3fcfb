//! The service: the only code that reads and writes the store. Each verb takes a command parsed
//! at the edge, reads the table, hands a change to the core ([`crate::table`]) and writes the
//! result through the one write path ([`write`]).

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::metrics::Metrics;
use crate::records::RecordKeys;
use crate::store::{GameStore, Revision, StoreError, WriteOutcome};
use crate::table::{Code, GameId, Refusal};
use crate::tokens::Keys;

mod abort;
pub mod archiving;
pub mod bots;
pub mod cache;
mod create;
mod due;
pub mod headroom;
pub mod lobby;
pub mod matching;
mod owners;
mod post;
pub mod ratings;
mod read;
pub mod reconciler;
mod records;
pub mod rules;
mod seats;
pub mod sweeper;
pub mod webhooks;
mod write;

pub use create::{Fork, ForkSource, MAX_SEED, NewGame};
pub use lobby::Listing;
pub use matching::{MatchConfig, NewTicket, OpenedTicket, TicketView};
pub use owners::{Cursor, GamesPage, Shown};
pub use post::{ActionCommand, ActionReply, Representation};
pub use read::{MAX_EVENTS_PER_READ, MAX_WAIT, Seen, StreamStep};
pub use seats::Wanted;

use archiving::Archiving;
use bots::{BotConfig, BotWorkers};
use cache::GameCache;
use headroom::Headroom;
use rules::RulesServed;
use webhooks::WebhookConfig;

/// How often the fate of a write whose answer was lost is asked before giving up.
const RESOLVE_TRIES: u32 = 3;

/// Milliseconds since the Unix epoch, by this process's clock: the `now` every change is
/// applied at.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// The service: the store, the token keys, the metrics and this process's copies of games.
pub struct Games {
    store: Arc<dyn GameStore>,
    keys: Arc<Keys>,
    metrics: Arc<Metrics>,
    headroom: Arc<Headroom>,
    cas_retries: u32,
    cache: Option<GameCache>,
    webhooks: Arc<WebhookConfig>,
    matching: MatchConfig,
    bots: Arc<BotWorkers>,
    /// Apps whose creation bucket the store found empty, and until when (Unix ms): a creation
    /// before then is refused here, without asking the store (which could only say the same,
    /// as other processes only take tokens from the bucket).
    spent_apps: std::sync::Mutex<std::collections::HashMap<Arc<str>, u64>>,
    /// The keys that sign game records.
    record_keys: Arc<RecordKeys>,
    /// Where finished games go, when an archive is configured.
    archiving: Option<Arc<Archiving>>,
    /// The version of each ruleset's rules this process plays.
    rules: RulesServed,
}

impl From<StoreError> for Refusal {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Unavailable(cause) | StoreError::Refused(cause) => {
                tracing::warn!(%cause, "store unavailable");
                Refusal::store_unavailable()
            }
            StoreError::Full(cause) => {
                tracing::warn!(%cause, "store full");
                Refusal::new(
                    Code::StoreFull,
                    "the game store is full and refused the write; nothing was changed",
                )
            }
            StoreError::Corrupt(cause) => {
                tracing::error!(%cause, "stored game does not read back");
                Refusal::internal()
            }
        }
    }
}

impl Games {
    /// The service over `store`, keeping decoded copies of up to `cached_games` games.
    pub fn new(
        store: Arc<dyn GameStore>,
        keys: Arc<Keys>,
        metrics: Arc<Metrics>,
        headroom: Arc<Headroom>,
        cas_retries: u32,
        cached_games: usize,
    ) -> Self {
        Self {
            store,
            keys,
            metrics,
            headroom,
            cas_retries,
            cache: GameCache::new(cached_games),
            webhooks: Arc::new(WebhookConfig::default()),
            matching: MatchConfig::default(),
            bots: Arc::new(BotWorkers::new(BotConfig::default())),
            spent_apps: std::sync::Mutex::default(),
            record_keys: Arc::new(RecordKeys::generate()),
            archiving: None,
            rules: RulesServed::default(),
        }
    }

    /// The same service, playing the rules versions `rules` names.
    pub fn with_rules(mut self, rules: RulesServed) -> Self {
        self.rules = rules;
        self
    }

    /// The version of each ruleset's rules this process plays.
    pub fn rules(&self) -> &RulesServed {
        &self.rules
    }

    /// The same service, writing finished games to an archive as `archiving` says, and reading
    /// them back from it once the store has forgotten them.
    pub fn with_archiving(mut self, archiving: Archiving) -> Self {
        self.archiving = Some(Arc::new(archiving));
        self
    }

    /// The same service, signing game records with `keys` (by default, a key made at start).
    pub fn with_record_keys(mut self, keys: Arc<RecordKeys>) -> Self {
        self.record_keys = keys;
        self
    }

    /// The same service, with tickets living as `config` says.
    pub fn with_matching(mut self, config: MatchConfig) -> Self {
        self.matching = config;
        self
    }

    /// The same service, playing bots that search and giving hints as `config` says.
    pub fn with_bots(mut self, config: BotConfig) -> Self {
        self.bots = Arc::new(BotWorkers::new(config));
        self
    }

    /// The same service, accepting webhooks as `config` allows (by default it refuses them).
    pub fn with_webhooks(mut self, config: Arc<WebhookConfig>) -> Self {
        self.webhooks = config;
        self
    }

    /// The store, for readiness and rate limits.
    pub fn store(&self) -> &dyn GameStore {
        self.store.as_ref()
    }

    fn counted<T>(&self, result: Result<T, StoreError>) -> Result<T, Refusal> {
        result.map_err(|e| {
            self.metrics.store_error();
            Refusal::from(e)
        })
    }

    /// What became of a write whose answer never came: asked again a few times, since the
    /// store that did not answer may answer now. A write found not applied is fenced off.
    async fn resolve(&self, id: &str, revision: &Revision) -> WriteOutcome {
        for _ in 0..RESOLVE_TRIES {
            match self.store.resolve(id, revision).await {
                Ok(outcome) => {
                    self.metrics.write_resolved(outcome);
                    return outcome;
                }
                Err(e) => {
                    self.metrics.store_error();
                    tracing::warn!(game = %id, error = %e, "could not yet find out whether a write happened");
                }
            }
        }
        self.metrics.write_resolved(WriteOutcome::Unknown);
        WriteOutcome::Unknown
    }

    /// Turns a failed write into the answer that tells the truth about it: if the store cannot
    /// say whether it was written, `503 outcome_unknown`; `503 store_unavailable` only when it
    /// is known not to have been (and never to be); `503 store_full` when the store refused it
    /// for room, which it does before applying any of it.
    async fn after_lost_answer(
        &self,
        id: &str,
        revision: &Revision,
        cause: StoreError,
    ) -> Result<(), Refusal> {
        self.metrics.store_error();
        match cause {
            StoreError::Unavailable(cause) => {
                tracing::warn!(game = %id, %cause, "a write's answer was lost; asking whether it happened");
                match self.resolve(id, revision).await {
                    WriteOutcome::Applied => Ok(()),
                    WriteOutcome::NotApplied => Err(Refusal::store_unavailable()),
                    WriteOutcome::Unknown => Err(Refusal::outcome_unknown()),
                }
            }
            // Refused before anything was applied: nothing to find out.
            refused @ (StoreError::Refused(_) | StoreError::Full(_)) => Err(Refusal::from(refused)),
            corrupt @ StoreError::Corrupt(_) => Err(Refusal::from(corrupt)),
        }
    }

    /// Returns once game `id` may have moved on from `known`, or after `within`.
    pub async fn wait_for_change(
        &self,
        id: &GameId,
        known: &Revision,
        within: Duration,
    ) -> Result<(), Refusal> {
        self.counted(self.store.wait_for_change(id.as_str(), known, within).await)
    }

    /// Forgets a game (the host's call).
    pub async fn delete(&self, id: &GameId) -> Result<(), Refusal> {
        if let Some(cache) = &self.cache {
            cache.forget(id.as_str());
        }
        let deleted = match self.store.delete(id.as_str()).await {
            Ok(deleted) => deleted,
            // The delete may have reached the store: say so, and that repeating it is safe.
            Err(StoreError::Unavailable(cause)) => {
                self.metrics.store_error();
                tracing::warn!(game = %id, %cause, "a delete's answer was lost");
                return Err(Refusal::new(
                    Code::OutcomeUnknown,
                    "the store did not confirm the delete and the game may be gone; DELETE again, which is safe to repeat",
                ));
            }
            Err(e) => return Err(self.counted(Err(e))?),
        };
        if !deleted {
            return Err(Refusal::game_not_found(id.as_str()));
        }
        tracing::info!(game = %id, "game deleted by its host");
        Ok(())
    }

    /// Whether the store answers.
    pub async fn ready(&self) -> Result<(), Refusal> {
        self.counted(self.store.ping().await)
    }
}
