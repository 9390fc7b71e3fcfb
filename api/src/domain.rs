//! The service's verbs: create a game, show it, list and apply actions, read events.
//!
//! Handlers call exactly one of these; everything here speaks [`ApiError`].

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use rand::{Rng, RngCore};
use roadie_engine::{AnyGame, Ruleset, Seat, SetupError, Viewer};
use sha2::{Digest, Sha256};

use crate::auth::{Credential, Keys};
use crate::cache::GameCache;
use crate::clocks::{self, Clock, now_ms};
use crate::error::{ApiError, Code};
use crate::headroom::Headroom;
use crate::metrics::{CacheRead, Metrics};
use crate::model::{
    ActionResult, CreateGame, CreatedGame, EventLog, GameState, LegalActions, SeatToken, SequencedEvent,
    Status,
};
use crate::request::{GameId, Representation};
use crate::store::{
    Freshness, GameStore, IdempotentRecord, IdempotentWrite, Revision, Saved, StoreError, StoredEvent,
    StoredGame, WriteOutcome,
};
use crate::webhooks::{self, WebhookConfig};

/// The longest a read may wait for a game to change.
pub const MAX_WAIT: Duration = Duration::from_secs(30);

/// The most events one read of the log returns.
pub const MAX_EVENTS_PER_READ: u64 = 5_000;

/// The largest seed: 2^53 - 1, the largest integer that JSON readers which hold numbers as
/// doubles (JavaScript, jq 1.6) keep exactly.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// Random bytes of a seed commitment's salt.
const SALT_BYTES: usize = 16;

/// How often the fate of a write whose answer was lost is asked before giving up.
const RESOLVE_TRIES: u32 = 3;

/// The domain: the store, the token keys and the metrics.
pub struct Games {
    store: Arc<dyn GameStore>,
    keys: Arc<Keys>,
    metrics: Arc<Metrics>,
    headroom: Arc<Headroom>,
    cas_retries: u32,
    cache: Option<GameCache>,
    webhooks: Arc<WebhookConfig>,
}

/// What the seat table ([`crate::seats`]) needs of the domain.
impl Games {
    pub(crate) fn keys(&self) -> &Keys {
        &self.keys
    }

    pub(crate) fn cas_retries(&self) -> u32 {
        self.cas_retries
    }

    /// The game as the store holds it now, read past this process's copy.
    pub(crate) async fn fresh(&self, id: &GameId) -> Result<Arc<StoredGame>, ApiError> {
        Ok(Arc::new(self.load(id, None).await?.0))
    }

    /// Keeps `game` as this process's copy.
    pub(crate) fn remember(&self, game: &StoredGame) {
        if let Some(cache) = &self.cache {
            let mut copy = game.clone();
            copy.notices.clear();
            cache.offer(Arc::new(copy));
        }
    }

    /// Writes `next` over `stored` with a compare-and-set, with `events`.
    pub(crate) async fn save_seats(
        &self,
        stored: &StoredGame,
        next: &StoredGame,
        events: &[StoredEvent],
    ) -> Result<Saved, ApiError> {
        if !next.notices.is_empty() {
            self.counted(self.store.mark_due(&stored.id, &next.receiver()).await)?;
        }
        self.schedule(next).await?;
        match self.store.save(&stored.revision, next, events, None).await {
            Ok(saved) => Ok(saved),
            Err(e) => {
                self.after_lost_answer(&stored.id, &next.revision, e).await?;
                Ok(Saved::Written)
            }
        }
    }
}

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

/// The answer to a post, serialized once.
pub struct ActionReply {
    /// The game's revision after the action.
    pub revision: Revision,
    /// The [`ActionResult`] as JSON.
    pub body: String,
    /// True when this answers a repeated `Idempotency-Key`.
    pub replayed: bool,
}

/// Which revisions a request's `If-Match` or `If-None-Match` names: any (`*`), or some.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Precondition {
    /// `*`: whatever the game's revision.
    Any,
    /// These revisions (entity tags that name no revision of ours are left out: they match
    /// nothing).
    Revisions(Vec<Revision>),
}

impl Precondition {
    /// Whether it names `revision`.
    pub fn names(&self, revision: &Revision) -> bool {
        match self {
            Precondition::Any => true,
            Precondition::Revisions(revisions) => revisions.contains(revision),
        }
    }
}

/// Hex of SHA-256 of `<salt>:<seed>` (the salt in hex, the seed in decimal): the commitment
/// published at creation. The salt keeps a seed that is small or guessable from being found by
/// trying seeds; both are revealed when the game ends.
pub fn seed_commitment(seed: u64, salt: &str) -> String {
    hex::encode(Sha256::digest(format!("{salt}:{seed}").as_bytes()))
}

/// The first 64 bits of SHA-256 of an action's canonical JSON (object keys sorted, no spaces),
/// so that the same action written with its keys in another order is the same action.
fn fingerprint(action: &str) -> Result<u64, ApiError> {
    fn canonical(value: &serde_json::Value, out: &mut String) {
        match value {
            serde_json::Value::Object(map) => {
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                out.push('{');
                for (i, (key, value)) in entries.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::Value::String(key.clone()).to_string());
                    out.push(':');
                    canonical(value, out);
                }
                out.push('}');
            }
            serde_json::Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    canonical(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let value: serde_json::Value = serde_json::from_str(action)
        .map_err(|_| ApiError::new(Code::MalformedAction, "the action is not JSON"))?;
    let mut text = String::new();
    canonical(&value, &mut text);
    let digest = Sha256::digest(text.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    Ok(u64::from_be_bytes(first))
}

/// `403 no_such_seat` unless `viewer` is a spectator or a seat the game has (a token of a game
/// set up with fewer seats, say); `401 token_revoked` unless the token's `credential` is the
/// seat's.
fn seated(stored: &StoredGame, viewer: Viewer, credential: Credential) -> Result<(), ApiError> {
    let game = &stored.game;
    stored.seats.admit(viewer, credential)?;
    match viewer {
        Viewer::Seat(seat) if seat.index() >= game.seat_count() => Err(ApiError::new(
            Code::NoSuchSeat,
            format!("seat {seat} does not exist in this game"),
        )),
        _ => Ok(()),
    }
}

fn state_of(stored: &StoredGame, viewer: Viewer) -> Result<GameState, ApiError> {
    let game = &stored.game;
    let finished = game.is_over();
    Ok(GameState {
        id: stored.id.clone(),
        ruleset: game.ruleset().slug.into(),
        version: stored.revision.number,
        revision: stored.revision.to_string(),
        status: Status::of(finished),
        phase: game.phase().into(),
        to_act: game.to_act(),
        seats: game.seat_count(),
        occupants: stored.seats.describe(game.seat_count()),
        seat: viewer.seat(),
        view: game.view(viewer),
        outcome: game.outcome(),
        seed_commitment: seed_commitment(stored.seed, &stored.salt),
        seed: finished.then_some(stored.seed),
        seed_salt: finished.then(|| stored.salt.clone()),
        clock: stored.clock.as_ref().map(|clock| clock.view()),
    })
}

fn sequenced(
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

/// One post of an action, as the edge hands it to the domain.
#[derive(Debug)]
pub struct ActionCommand {
    /// The game.
    pub game: GameId,
    /// The seat whose token posted it.
    pub seat: Seat,
    /// The token's credential.
    pub credential: Credential,
    /// The action, as the client wrote it (valid JSON).
    pub action: Box<serde_json::value::RawValue>,
    /// `If-Match`: apply only at these revisions.
    pub precondition: Option<Precondition>,
    /// `Idempotency-Key`: a retry with it answers with the first outcome.
    pub idempotency_key: Option<String>,
    /// Whether the answer carries the game's view.
    pub representation: Representation,
}

/// An action applied to a copy of the game, not yet written.
struct Applied {
    /// The game afterwards.
    next: StoredGame,
    /// What the action caused.
    events: Vec<StoredEvent>,
    /// The sequence number of the first of them.
    first_seq: u64,
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

fn serialize<T: serde::Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| {
        tracing::error!(error = %e, "could not serialize an answer");
        ApiError::internal()
    })
}

impl Games {
    /// The domain over `store`, keeping decoded copies of up to `cached_games` games.
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
        }
    }

    /// The same domain, accepting webhooks as `config` allows (by default it refuses them).
    pub fn with_webhooks(mut self, config: Arc<WebhookConfig>) -> Self {
        self.webhooks = config;
        self
    }

    /// The store, for readiness and rate limits.
    pub fn store(&self) -> &dyn GameStore {
        self.store.as_ref()
    }

    fn counted<T>(&self, result: Result<T, StoreError>) -> Result<T, ApiError> {
        result.map_err(|e| {
            self.metrics.store_error();
            ApiError::from(e)
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
    ) -> Result<(), ApiError> {
        self.metrics.store_error();
        match cause {
            StoreError::Unavailable(cause) => {
                tracing::warn!(game = %id, %cause, "a write's answer was lost; asking whether it happened");
                match self.resolve(id, revision).await {
                    WriteOutcome::Applied => Ok(()),
                    WriteOutcome::NotApplied => Err(ApiError::store_unavailable()),
                    WriteOutcome::Unknown => Err(ApiError::outcome_unknown()),
                }
            }
            // Refused before anything was applied: nothing to find out.
            refused @ (StoreError::Refused(_) | StoreError::Full(_)) => Err(ApiError::from(refused)),
            corrupt @ StoreError::Corrupt(_) => Err(ApiError::from(corrupt)),
        }
    }

    async fn load(
        &self,
        id: &GameId,
        idempotency_key: Option<&str>,
    ) -> Result<(StoredGame, Option<IdempotentRecord>), ApiError> {
        match self.counted(self.store.load(id.as_str(), idempotency_key).await)? {
            (Some(game), record) => Ok((game, record)),
            (None, _) => Err(ApiError::game_not_found(id.as_str())),
        }
    }

    /// The game as the store holds it now: this process's copy when the store confirms its
    /// revision, else a fresh read.
    async fn read(&self, id: &GameId) -> Result<Arc<StoredGame>, ApiError> {
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
                let game: Arc<StoredGame> = Arc::from(game);
                cache.offer(game.clone());
                Ok(game)
            }
            Freshness::Missing => {
                cache.forget(id.as_str());
                Err(ApiError::game_not_found(id.as_str()))
            }
        }
    }

    /// Sets up a game and stores it; returns its id and tokens.
    pub async fn create(&self, request: CreateGame) -> Result<CreatedGame, ApiError> {
        let ruleset = Ruleset::find(&request.ruleset).ok_or_else(|| {
            ApiError::new(
                Code::RulesetNotFound,
                format!("no ruleset is called {:?}; see GET /v1/rulesets", request.ruleset),
            )
        })?;
        if let Some(seed) = request.seed
            && seed > MAX_SEED
        {
            return Err(ApiError::new(
                Code::InvalidSeed,
                format!("a seed is at most {MAX_SEED} (2^53 - 1)"),
            ));
        }
        let webhook = request
            .webhook
            .as_ref()
            .map(|option| self.webhooks.target(&option.url))
            .transpose()?;
        if let Some(control) = &request.clock {
            control.check()?;
        }
        // The last reading refuses early; the store's create decides.
        if !self.headroom.creation_allowed() {
            return Err(ApiError::store_full());
        }
        let seed = request
            .seed
            .unwrap_or_else(|| rand::rng().random_range(0..=MAX_SEED));
        let table = request.seats.table(request.open)?;
        let (mut game, events) = AnyGame::setup(
            ruleset.slug,
            request.options.as_ref(),
            request.seats.count(),
            seed,
        )
        .map_err(|e| match e {
            SetupError::Seats { .. } => ApiError::new(Code::InvalidSeats, e.to_string()),
            SetupError::Options(_) => {
                ApiError::new(Code::InvalidOptions, crate::error::plain_types(&e.to_string()))
            }
            SetupError::UnknownRuleset(_) => ApiError::new(Code::RulesetNotFound, e.to_string()),
        })?;
        let mut events: Vec<StoredEvent> = events.into_iter().map(StoredEvent::from).collect();
        events.extend(crate::seats::play_bots(&mut game, &table));
        let mut salt = [0u8; SALT_BYTES];
        rand::rng().fill_bytes(&mut salt);
        let mut stored = StoredGame {
            id: String::new(),
            revision: Revision::first(),
            events: events.len() as u64,
            seed,
            salt: hex::encode(salt),
            clock: None,
            game,
            seats: table,
            webhook,
            notices: Vec::new(),
        };
        stored.clock = request
            .clock
            .map(|control| Clock::start(control, stored.game.seat_count(), &stored.game.to_act(), now_ms()));
        let mut created = false;
        for _ in 0..4 {
            stored.id = GameId::random().to_string();
            stored.notices = webhooks::notices(None, &stored);
            if !stored.notices.is_empty() {
                self.counted(self.store.mark_due(&stored.id, &stored.receiver()).await)?;
            }
            self.schedule(&stored).await?;
            match self.store.create(&stored, &events).await {
                Ok(true) => created = true,
                Ok(false) => continue,
                Err(StoreError::Full(cause)) => {
                    tracing::info!(%cause, "a new game was refused for room");
                    self.headroom.store_refused();
                    return Err(ApiError::store_full());
                }
                Err(e) => {
                    self.after_lost_answer(&stored.id, &stored.revision, e).await?;
                    created = true;
                }
            }
            break;
        }
        if !created {
            tracing::error!("four random game ids were all taken");
            return Err(ApiError::internal());
        }
        let seats = stored
            .seats
            .players()
            .map(|seat| {
                Ok(SeatToken {
                    seat,
                    token: self
                        .keys
                        .issue_seat(&stored.id, seat, stored.seats.entry(seat).credential())?,
                })
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        if stored.seats.has_open_seat() {
            self.relist(&stored).await;
        }
        let host_token = self.keys.issue(&stored.id, None)?;
        self.metrics.game_created(ruleset.slug);
        tracing::info!(game = %stored.id, ruleset = ruleset.slug, seats = seats.len(), "game created");
        Ok(CreatedGame {
            id: stored.id,
            ruleset: ruleset.slug.into(),
            version: stored.revision.number,
            revision: stored.revision.to_string(),
            seats,
            host_token,
            seed_commitment: seed_commitment(seed, &stored.salt),
            webhook: stored.webhook.as_ref().map(Into::into),
        })
    }

    /// The game as `viewer` may see it, unless it is still at a revision `known` names (the
    /// client's `If-None-Match`): then only that revision, after waiting up to `wait` for it to
    /// change.
    pub async fn get(
        &self,
        id: &GameId,
        (viewer, credential): (Viewer, Credential),
        known: Option<&Precondition>,
        wait: Duration,
    ) -> Result<Seen, ApiError> {
        let mut stored = self.read(id).await?;
        seated(&stored, viewer, credential)?;
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
                seated(&stored, viewer, credential)?;
            }
            if known.names(&stored.revision) {
                return Ok(Seen::Unchanged {
                    revision: stored.revision,
                });
            }
        }
        state_of(&stored, viewer).map(|state| Seen::Changed(Box::new(state)))
    }

    /// What `seat` may post now.
    pub async fn actions(
        &self,
        id: &GameId,
        seat: Seat,
        credential: Credential,
    ) -> Result<LegalActions, ApiError> {
        let stored = self.read(id).await?;
        seated(&stored, Viewer::Seat(seat), credential)?;
        Ok(LegalActions {
            ruleset: stored.game.ruleset().slug.into(),
            version: stored.revision.number,
            revision: stored.revision.to_string(),
            seat,
            actions: stored.game.legal_actions(seat),
        })
    }

    /// The answer again to a post whose `Idempotency-Key` was used before: the first answer's
    /// revision, status, seats to act and events (read back from the log), without the game.
    async fn replay(
        &self,
        id: &GameId,
        ruleset: &'static str,
        seat: Seat,
        fingerprint: Option<u64>,
        record: IdempotentRecord,
    ) -> Result<ActionReply, ApiError> {
        if Some(record.fingerprint) != fingerprint {
            return Err(ApiError::new(
                Code::IdempotencyKeyReused,
                "this Idempotency-Key was used for another action",
            ));
        }
        let after = record.first_event.saturating_sub(1);
        let events = self.counted(self.store.events(id.as_str(), after, record.events).await)?;
        let result = ActionResult {
            ruleset: ruleset.into(),
            version: record.revision.number,
            revision: record.revision.to_string(),
            status: Status::of(record.finished),
            to_act: record.to_act,
            events: sequenced(
                (record.first_event..).zip(events),
                Viewer::Seat(seat),
                record.finished,
            ),
            game: None,
        };
        Ok(ActionReply {
            revision: record.revision,
            body: serialize(&result)?,
            replayed: true,
        })
    }

    /// Applies one action. The retry policy is this loop: the first attempt starts from this
    /// process's copy (no read at all) unless an idempotency key needs the store's word on
    /// whether it was used; a copy that turns out to be behind is replaced and the action tried
    /// again without spending a retry, since only the current game may refuse; a lost race
    /// re-applies the action to the newer game, at most `cas_retries` times, unless `If-Match`
    /// pinned the revision it was meant for.
    pub async fn post(&self, command: ActionCommand) -> Result<ActionReply, ApiError> {
        let id = &command.game;
        let scoped_key = command
            .idempotency_key
            .as_ref()
            .map(|key| format!("{}:{key}", command.seat));
        let fingerprint = scoped_key
            .as_ref()
            .map(|_| fingerprint(command.action.get()))
            .transpose()?;
        let mut copy = match (&self.cache, &scoped_key) {
            (Some(cache), None) => cache.get(id.as_str()),
            _ => None,
        };
        let mut retries = 0;
        loop {
            let from_copy = copy.is_some();
            let stored = match copy.take() {
                Some(held) => held,
                None if scoped_key.is_some() => {
                    let (stored, prior) = self.load(id, scoped_key.as_deref()).await?;
                    if let Some(record) = prior {
                        let ruleset = stored.game.ruleset().slug;
                        return self.replay(id, ruleset, command.seat, fingerprint, record).await;
                    }
                    Arc::new(stored)
                }
                None => self.read(id).await?,
            };
            let applied = match self.attempt(&stored, &command, now_ms()) {
                Ok(applied) => applied,
                Err(_) if from_copy => continue,
                Err((refusal, None)) => return Err(refusal),
                Err((refusal, Some(timeouts))) => {
                    match self.refuse_after_timeouts(&stored, timeouts, refusal).await? {
                        Some(refusal) => return Err(refusal),
                        None if retries < self.cas_retries => {
                            retries += 1;
                            continue;
                        }
                        None => {
                            return Err(ApiError::new(
                                Code::Contention,
                                format!(
                                    "the game changed {retries} times while this action was applied; retry"
                                ),
                            ));
                        }
                    }
                }
            };
            let (body, record) = self.render(&applied, &command, fingerprint)?;
            self.schedule(&applied.next).await?;
            let idempotency = match (&scoped_key, &record) {
                (Some(key), Some(record)) => Some(IdempotentWrite { key, record }),
                _ => None,
            };
            match self.commit(&stored, &applied, idempotency).await? {
                Saved::Written => {
                    let ruleset = applied.next.game.ruleset().slug;
                    self.metrics.action_applied(ruleset);
                    if applied.next.game.is_over() {
                        tracing::info!(game = %id, ruleset, version = applied.next.revision.number, "game finished");
                    }
                    let revision = applied.next.revision;
                    self.settled(&stored, applied.next).await;
                    return Ok(ActionReply {
                        revision,
                        body,
                        replayed: false,
                    });
                }
                Saved::Replayed(record) => {
                    let ruleset = stored.game.ruleset().slug;
                    return self.replay(id, ruleset, command.seat, fingerprint, record).await;
                }
                Saved::Fenced => return Err(ApiError::store_unavailable()),
                Saved::Conflict { current: None } => {
                    if let Some(cache) = &self.cache {
                        cache.forget(id.as_str());
                    }
                    return Err(ApiError::game_not_found(id.as_str()));
                }
                Saved::Conflict { .. } if from_copy => self.metrics.cache_read(CacheRead::Stale),
                Saved::Conflict {
                    current: Some(current),
                } => {
                    self.metrics.cas_conflict();
                    if command.precondition.is_some() {
                        return Err(ApiError::version_mismatch(current));
                    }
                    if retries >= self.cas_retries {
                        return Err(ApiError::new(
                            Code::Contention,
                            format!("the game changed {retries} times while this action was applied; retry"),
                        ));
                    }
                    retries += 1;
                    self.metrics.cas_retry();
                    tracing::debug!(game = %id, retries, "lost a race; re-applying to the newer state");
                }
            }
        }
    }

    /// The command's action applied to `stored` at `now`, or why not: the precondition, the
    /// token, or the rules.
    ///
    /// A deadline is the rule: when a seat's deadline passed before `now`, its timeout is played
    /// first (as the sweep would), and the action is judged against the game that results, in
    /// the same write. When the rules then refuse the action, the refusal comes with that
    /// write of the timeouts alone, which is due whatever the action's fate.
    fn attempt(
        &self,
        stored: &StoredGame,
        command: &ActionCommand,
        now: u64,
    ) -> Result<Applied, (ApiError, Option<Box<Applied>>)> {
        if let Some(precondition) = &command.precondition
            && !precondition.names(&stored.revision)
        {
            return Err((ApiError::version_mismatch(stored.revision), None));
        }
        seated(stored, Viewer::Seat(command.seat), command.credential).map_err(|e| (e, None))?;
        let (base, mut events) = clocks::due_at(stored, now);
        let mut game = base.game.clone();
        // A panic in the rules is a bug, never the client's doing: it becomes a logged 500 and
        // the stored game stays as it was.
        let applied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            game.apply(command.seat, command.action.get())
        }));
        let played = match applied {
            Err(_) => {
                tracing::error!(game = %stored.id, ruleset = game.ruleset().slug, "the rules panicked applying an action");
                return Err((ApiError::internal(), None));
            }
            Ok(Err(rejection)) => {
                let legal = game.legal_actions(command.seat);
                let refusal = ApiError::from_rejection(rejection, legal, game.to_act());
                let timeouts = match base {
                    Cow::Owned(next) => Some(Box::new(Applied {
                        first_seq: stored.events + 1,
                        next,
                        events,
                    })),
                    Cow::Borrowed(_) => None,
                };
                return Err((refusal, timeouts));
            }
            Ok(Ok(played)) => played,
        };
        events.extend(played.into_iter().map(StoredEvent::from));
        events.extend(crate::seats::play_bots(&mut game, &base.seats));
        let clock = base
            .clock
            .as_ref()
            .map(|clock| clock.after(Some(command.seat), &game.to_act(), now));
        let next = stored.succeeded_by(game, events.len() as u64, clock);
        Ok(Applied {
            first_seq: stored.events + 1,
            next,
            events,
        })
    }

    /// Writes the timeouts that came due before a refused post (see [`Games::attempt`]), then
    /// answers the refusal; a lost race is `None`, for the post to be tried again.
    async fn refuse_after_timeouts(
        &self,
        stored: &StoredGame,
        timeouts: Box<Applied>,
        refusal: ApiError,
    ) -> Result<Option<ApiError>, ApiError> {
        self.schedule(&timeouts.next).await?;
        match self.commit(stored, &timeouts, None).await? {
            Saved::Written => {
                tracing::info!(game = %stored.id, version = timeouts.next.revision.number, "a clock ran out before a post; its timeout was played");
                self.settled(stored, timeouts.next).await;
                Ok(Some(refusal))
            }
            Saved::Conflict { current: None } => Err(ApiError::game_not_found(&stored.id)),
            Saved::Conflict { .. } | Saved::Replayed(_) => Ok(None),
            Saved::Fenced => Err(ApiError::store_unavailable()),
        }
    }

    /// What follows a written change of `stored` to `next`: the lobby and this process's copy.
    async fn settled(&self, stored: &StoredGame, mut next: StoredGame) {
        if stored.seats.has_open_seat() {
            self.relist(&next).await;
        }
        if let Some(cache) = &self.cache {
            next.notices.clear();
            cache.offer(Arc::new(next));
        }
    }

    /// Files `game`'s earliest deadline in the store's index of clocks, before the write that
    /// sets it: an entry earlier than the game's is harmless, a missing one is not.
    async fn schedule(&self, game: &StoredGame) -> Result<(), ApiError> {
        match game.clock.as_ref().and_then(|clock| clock.earliest()) {
            Some(deadline) => self.counted(self.store.schedule_clock(&game.id, deadline, true).await),
            None => Ok(()),
        }
    }

    /// The answer to an applied action, serialized once, and what an idempotency key keeps of it.
    fn render(
        &self,
        applied: &Applied,
        command: &ActionCommand,
        fingerprint: Option<u64>,
    ) -> Result<(String, Option<IdempotentRecord>), ApiError> {
        let next = &applied.next;
        let finished = next.game.is_over();
        let viewer = Viewer::Seat(command.seat);
        let to_act = next.game.to_act();
        let result = ActionResult {
            ruleset: next.game.ruleset().slug.into(),
            version: next.revision.number,
            revision: next.revision.to_string(),
            status: Status::of(finished),
            to_act: to_act.clone(),
            events: sequenced(
                (applied.first_seq..).zip(applied.events.iter().cloned()),
                viewer,
                finished,
            ),
            game: match command.representation {
                Representation::Minimal => None,
                Representation::Full => Some(state_of(next, viewer)?),
            },
        };
        let record = fingerprint.map(|fingerprint| IdempotentRecord {
            fingerprint,
            revision: next.revision,
            first_event: applied.first_seq,
            events: applied.events.len() as u64,
            finished,
            to_act,
        });
        Ok((serialize(&result)?, record))
    }

    /// Writes `applied` over `stored` with a compare-and-set. A write whose answer was lost is
    /// resolved before anything is said about it.
    async fn commit(
        &self,
        stored: &StoredGame,
        applied: &Applied,
        idempotency: Option<IdempotentWrite<'_>>,
    ) -> Result<Saved, ApiError> {
        if !applied.next.notices.is_empty() {
            self.counted(self.store.mark_due(&stored.id, &applied.next.receiver()).await)?;
        }
        match self
            .store
            .save(&stored.revision, &applied.next, &applied.events, idempotency)
            .await
        {
            Ok(saved) => Ok(saved),
            Err(e) => {
                self.after_lost_answer(&stored.id, &applied.next.revision, e)
                    .await?;
                Ok(Saved::Written)
            }
        }
    }

    /// The caller's events after sequence number `after` (at most `limit`); `409 cursor_ahead`
    /// when `after` is beyond the log's end, since the events it names are not in the log.
    pub async fn events(
        &self,
        id: &GameId,
        (viewer, credential): (Viewer, Credential),
        after: u64,
        limit: u64,
    ) -> Result<EventLog, ApiError> {
        let stored = self.read(id).await?;
        seated(&stored, viewer, credential)?;
        if after > stored.events {
            return Err(ApiError::cursor_ahead(after, stored.events));
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
    pub async fn stream_step(
        &self,
        id: &GameId,
        (viewer, credential): (Viewer, Credential),
        after: u64,
    ) -> Result<StreamStep, ApiError> {
        let stored = self.read(id).await?;
        seated(&stored, viewer, credential)?;
        if after > stored.events {
            return Err(ApiError::cursor_ahead(after, stored.events));
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
            status: Status::of(finished),
            to_act: stored.game.to_act(),
            caught_up: next_after >= stored.events,
            next_after,
            events: sequenced((after.saturating_add(1)..).zip(events), viewer, finished),
        })
    }

    /// Returns once game `id` may have moved on from `known`, or after `within`.
    pub async fn wait_for_change(
        &self,
        id: &GameId,
        known: &Revision,
        within: Duration,
    ) -> Result<(), ApiError> {
        self.counted(self.store.wait_for_change(id.as_str(), known, within).await)
    }

    /// Forgets a game (the host's call).
    pub async fn delete(&self, id: &GameId) -> Result<(), ApiError> {
        if let Some(cache) = &self.cache {
            cache.forget(id.as_str());
        }
        let deleted = match self.store.delete(id.as_str()).await {
            Ok(deleted) => deleted,
            // The delete may have reached the store: say so, and that repeating it is safe.
            Err(StoreError::Unavailable(cause)) => {
                self.metrics.store_error();
                tracing::warn!(game = %id, %cause, "a delete's answer was lost");
                return Err(ApiError::new(
                    Code::OutcomeUnknown,
                    "the store did not confirm the delete and the game may be gone; DELETE again, which is safe to repeat",
                ));
            }
            Err(e) => return Err(self.counted(Err(e))?),
        };
        if !deleted {
            return Err(ApiError::game_not_found(id.as_str()));
        }
        tracing::info!(game = %id, "game deleted by its host");
        Ok(())
    }

    /// Whether the store answers.
    pub async fn ready(&self) -> Result<(), ApiError> {
        self.counted(self.store.ping().await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_commitment_is_sha256_of_the_salt_and_the_decimal_seed() {
        // printf '%s:%s' 00ff 42 | sha256sum
        assert_eq!(
            seed_commitment(42, "00ff"),
            hex::encode(Sha256::digest(b"00ff:42"))
        );
        assert_ne!(seed_commitment(42, "00ff"), seed_commitment(42, "0100"));
    }

    #[test]
    fn an_action_with_its_keys_reordered_has_the_same_fingerprint() {
        let a = fingerprint(r#"{"type":"bid","cards":["a","b"],"amount":3}"#).expect("json");
        let b = fingerprint(r#"{ "amount": 3, "type": "bid", "cards": ["a", "b"] }"#).expect("json");
        let c = fingerprint(r#"{"type":"bid","cards":["b","a"],"amount":3}"#).expect("json");
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn a_precondition_names_only_its_revisions() {
        let one = Revision::first();
        let two = one.next();
        let other_two = one.next();
        assert!(Precondition::Any.names(&two));
        assert!(Precondition::Revisions(vec![one, two]).names(&two));
        assert!(!Precondition::Revisions(vec![two]).names(&other_two));
        assert!(!Precondition::Revisions(vec![]).names(&one));
    }
}
