//! The service's verbs: create a game, show it, list and apply actions, read events.
//!
//! Handlers call exactly one of these; everything here speaks [`ApiError`].

use std::sync::Arc;
use std::time::Duration;

use rand::{Rng, RngCore};
use roadie_engine::{AnyGame, Ruleset, SetupError, Viewer};
use sha2::{Digest, Sha256};

use crate::auth::Keys;
use crate::cache::GameCache;
use crate::error::ApiError;
use crate::headroom::Headroom;
use crate::metrics::{CacheRead, Metrics};
use crate::model::{
    ActionResult, CreateGame, CreatedGame, EventLog, GameState, LegalActions, SeatToken, SequencedEvent,
    Status,
};
use crate::store::{
    Freshness, GameStore, IdempotentRecord, IdempotentWrite, Revision, Saved, StoreError, StoredEvent,
    StoredGame, WriteOutcome,
};

/// The longest a read may wait for a game to change.
pub const MAX_WAIT: Duration = Duration::from_secs(30);

/// The most events one read of the log returns.
pub const MAX_EVENTS_PER_READ: u64 = 5_000;

/// The largest seed: 2^53 - 1, the largest integer that JSON readers which hold numbers as
/// doubles (JavaScript, jq 1.6) keep exactly.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// Game ids are this many random bytes, in hex.
const ID_BYTES: usize = 12;

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
        .map_err(|_| ApiError::bad_request("malformed_action", "the action is not JSON"))?;
    let mut text = String::new();
    canonical(&value, &mut text);
    let digest = Sha256::digest(text.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    Ok(u64::from_be_bytes(first))
}

/// Whether `id` could name a game (ids are lower-case hex); anything else cannot, and must
/// never reach a store key (a `}` would break the hash tag).
fn valid_id(id: &str) -> bool {
    id.len() == ID_BYTES * 2
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// `403 no_such_seat` unless `viewer` is a spectator or a seat `game` has (a token of a game
/// set up with fewer seats, say).
fn seated(game: &AnyGame, viewer: Viewer) -> Result<(), ApiError> {
    match viewer {
        Viewer::Seat(seat) if seat >= game.seat_count() => Err(ApiError::Forbidden {
            code: "no_such_seat",
            detail: format!("seat {seat} does not exist in this game"),
        }),
        _ => Ok(()),
    }
}

fn state_of(stored: &StoredGame, viewer: Viewer) -> Result<GameState, ApiError> {
    let game = &stored.game;
    seated(game, viewer)?;
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
        seat: viewer.seat(),
        view: game.view(viewer),
        outcome: game.outcome(),
        seed_commitment: seed_commitment(stored.seed, &stored.salt),
        seed: finished.then_some(stored.seed),
        seed_salt: finished.then(|| stored.salt.clone()),
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
        ApiError::Internal
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
        }
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
    /// is known not to have been (and never to be).
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
                    WriteOutcome::NotApplied => Err(ApiError::StoreUnavailable),
                    WriteOutcome::Unknown => Err(ApiError::OutcomeUnknown),
                }
            }
            refused @ StoreError::Refused(_) => Err(ApiError::from(refused)),
            corrupt @ StoreError::Corrupt(_) => Err(ApiError::from(corrupt)),
        }
    }

    async fn load(
        &self,
        id: &str,
        idempotency_key: Option<&str>,
    ) -> Result<(StoredGame, Option<IdempotentRecord>), ApiError> {
        if !valid_id(id) {
            return Err(ApiError::game_not_found(id));
        }
        match self.counted(self.store.load(id, idempotency_key).await)? {
            (Some(game), record) => Ok((game, record)),
            (None, _) => Err(ApiError::game_not_found(id)),
        }
    }

    /// The game as the store holds it now: this process's copy when the store confirms its
    /// revision, else a fresh read.
    async fn read(&self, id: &str) -> Result<Arc<StoredGame>, ApiError> {
        if !valid_id(id) {
            return Err(ApiError::game_not_found(id));
        }
        let Some(cache) = &self.cache else {
            return Ok(Arc::new(self.load(id, None).await?.0));
        };
        let Some(held) = cache.get(id) else {
            self.metrics.cache_read(CacheRead::Miss);
            let game = Arc::new(self.load(id, None).await?.0);
            cache.offer(game.clone());
            return Ok(game);
        };
        match self.counted(self.store.load_if_changed(id, &held.revision).await)? {
            Freshness::Unchanged => {
                self.metrics.cache_read(CacheRead::Hit);
                Ok(held)
            }
            Freshness::Changed(game) => {
                self.metrics.cache_read(CacheRead::Stale);
                let game = Arc::new(game);
                cache.offer(game.clone());
                Ok(game)
            }
            Freshness::Missing => {
                cache.forget(id);
                Err(ApiError::game_not_found(id))
            }
        }
    }

    /// Sets up a game and stores it; returns its id and tokens.
    pub async fn create(&self, request: CreateGame) -> Result<CreatedGame, ApiError> {
        let ruleset = Ruleset::find(&request.ruleset).ok_or_else(|| ApiError::NotFound {
            code: "ruleset_not_found",
            detail: format!("no ruleset is called {:?}; see GET /v1/rulesets", request.ruleset),
        })?;
        if let Some(seed) = request.seed
            && seed > MAX_SEED
        {
            return Err(ApiError::Unprocessable {
                code: "invalid_seed",
                detail: format!("a seed is at most {MAX_SEED} (2^53 - 1)"),
                legal_actions: None,
            });
        }
        if !self.headroom.creation_allowed() {
            return Err(ApiError::StoreFull);
        }
        let seed = request
            .seed
            .unwrap_or_else(|| rand::rng().random_range(0..=MAX_SEED));
        let (game, events) = AnyGame::setup(ruleset.slug, request.options.as_ref(), request.seats, seed)
            .map_err(|e| match e {
                SetupError::Seats { .. } => ApiError::Unprocessable {
                    code: "invalid_seats",
                    detail: e.to_string(),
                    legal_actions: None,
                },
                SetupError::Options(_) => ApiError::Unprocessable {
                    code: "invalid_options",
                    detail: e.to_string(),
                    legal_actions: None,
                },
                SetupError::UnknownRuleset(_) => ApiError::NotFound {
                    code: "ruleset_not_found",
                    detail: e.to_string(),
                },
            })?;
        let events: Vec<StoredEvent> = events.into_iter().map(StoredEvent::from).collect();
        let mut salt = [0u8; SALT_BYTES];
        rand::rng().fill_bytes(&mut salt);
        let mut stored = StoredGame {
            id: String::new(),
            revision: Revision::first(),
            events: events.len() as u64,
            seed,
            salt: hex::encode(salt),
            game,
        };
        let mut created = false;
        for _ in 0..4 {
            let mut bytes = [0u8; ID_BYTES];
            rand::rng().fill_bytes(&mut bytes);
            stored.id = hex::encode(bytes);
            match self.store.create(&stored, &events).await {
                Ok(true) => created = true,
                Ok(false) => continue,
                Err(e) => {
                    self.after_lost_answer(&stored.id, &stored.revision, e).await?;
                    created = true;
                }
            }
            break;
        }
        if !created {
            tracing::error!("four random game ids were all taken");
            return Err(ApiError::Internal);
        }
        let seats = (0..stored.game.seat_count())
            .map(|seat| {
                Ok(SeatToken {
                    seat,
                    token: self.keys.issue(&stored.id, Some(seat))?,
                })
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
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
        })
    }

    /// The game as `viewer` may see it, unless it is still at a revision `known` names (the
    /// client's `If-None-Match`): then only that revision, after waiting up to `wait` for it to
    /// change.
    pub async fn get(
        &self,
        id: &str,
        viewer: Viewer,
        known: Option<&Precondition>,
        wait: Duration,
    ) -> Result<Seen, ApiError> {
        let mut stored = self.read(id).await?;
        seated(&stored.game, viewer)?;
        if let Some(known) = known
            && known.names(&stored.revision)
        {
            if !wait.is_zero() {
                self.counted(self.store.wait_for_change(id, &stored.revision, wait).await)?;
                stored = self.read(id).await?;
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
    pub async fn actions(&self, id: &str, seat: usize) -> Result<LegalActions, ApiError> {
        let stored = self.read(id).await?;
        seated(&stored.game, Viewer::Seat(seat))?;
        Ok(LegalActions {
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
        id: &str,
        seat: usize,
        fingerprint: Option<u64>,
        record: IdempotentRecord,
    ) -> Result<ActionReply, ApiError> {
        if Some(record.fingerprint) != fingerprint {
            return Err(ApiError::Conflict {
                code: "idempotency_key_reused",
                detail: "this Idempotency-Key was used for another action".into(),
                to_act: None,
            });
        }
        let after = record.first_event.saturating_sub(1);
        let events = self.counted(self.store.events(id, after, record.events).await)?;
        let result = ActionResult {
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

    /// Applies `action` (JSON) for `seat`. A post that loses a race to another write is
    /// re-applied to the newer state (at most `cas_retries` times) unless `if_match` pins the
    /// revision it was meant for. With an idempotency key, a repeat returns the first answer.
    /// `minimal` leaves the game's view out of the answer (`Prefer: return=minimal`).
    pub async fn post(
        &self,
        id: &str,
        seat: usize,
        action: &str,
        if_match: Option<&Precondition>,
        idempotency_key: Option<&str>,
        minimal: bool,
    ) -> Result<ActionReply, ApiError> {
        let scoped_key = idempotency_key.map(|key| format!("{seat}:{key}"));
        let fingerprint = scoped_key.as_ref().map(|_| fingerprint(action)).transpose()?;
        // Without an idempotency key the first attempt starts from this process's copy, with no
        // read at all; the compare-and-set says whether the copy was current. A key needs the
        // store's answer to "was this key used?" before anything is judged, so it reads.
        let mut copy = match (&self.cache, &scoped_key) {
            (Some(cache), None) if valid_id(id) => cache.get(id),
            _ => None,
        };
        let mut attempt = 0;
        loop {
            let from_copy = copy.is_some();
            let stored = match copy.take() {
                Some(held) => held,
                None if scoped_key.is_some() => {
                    let (stored, prior) = self.load(id, scoped_key.as_deref()).await?;
                    if let Some(record) = prior {
                        return self.replay(id, seat, fingerprint, record).await;
                    }
                    Arc::new(stored)
                }
                None => self.read(id).await?,
            };
            if let Some(precondition) = if_match
                && !precondition.names(&stored.revision)
            {
                if from_copy {
                    continue;
                }
                return Err(ApiError::PreconditionFailed {
                    current: stored.revision,
                });
            }
            let ruleset = stored.game.ruleset().slug;
            let mut game = stored.game.clone();
            // A panic in the rules is a bug, never the client's doing: it becomes a logged
            // 500 and the stored game stays as it was.
            let applied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| game.apply(seat, action)));
            let events = match applied {
                Err(_) => {
                    tracing::error!(game = %id, ruleset, "the rules panicked applying an action");
                    return Err(ApiError::Internal);
                }
                Ok(Ok(events)) => events,
                // The copy may be behind the store: only the current game may refuse.
                Ok(Err(_)) if from_copy => continue,
                Ok(Err(rejection)) => {
                    let legal = game.legal_actions(seat);
                    return Err(ApiError::from_rejection(rejection, legal, game.to_act()));
                }
            };
            let first_seq = stored.events + 1;
            let events: Vec<StoredEvent> = events.into_iter().map(StoredEvent::from).collect();
            let next = StoredGame {
                id: stored.id.clone(),
                revision: stored.revision.next(),
                events: stored.events + events.len() as u64,
                seed: stored.seed,
                salt: stored.salt.clone(),
                game,
            };
            let finished = next.game.is_over();
            let viewer = Viewer::Seat(seat);
            let to_act = next.game.to_act();
            let result = ActionResult {
                version: next.revision.number,
                revision: next.revision.to_string(),
                status: Status::of(finished),
                to_act: to_act.clone(),
                events: sequenced((first_seq..).zip(events.iter().cloned()), viewer, finished),
                game: if minimal {
                    None
                } else {
                    Some(state_of(&next, viewer)?)
                },
            };
            let body = serialize(&result)?;
            let record = fingerprint.map(|fingerprint| IdempotentRecord {
                fingerprint,
                revision: next.revision,
                first_event: first_seq,
                events: events.len() as u64,
                finished,
                to_act,
            });
            let idempotency = match (&scoped_key, &record) {
                (Some(key), Some(record)) => Some(IdempotentWrite { key, record }),
                _ => None,
            };
            let saved = match self
                .store
                .save(&stored.revision, &next, &events, idempotency)
                .await
            {
                Ok(saved) => saved,
                Err(e) => {
                    self.after_lost_answer(id, &next.revision, e).await?;
                    Saved::Written
                }
            };
            match saved {
                Saved::Written => {
                    self.metrics.action_applied(ruleset);
                    if finished {
                        tracing::info!(game = %next.id, ruleset, version = next.revision.number, "game finished");
                    }
                    let revision = next.revision;
                    if let Some(cache) = &self.cache {
                        cache.offer(Arc::new(next));
                    }
                    return Ok(ActionReply {
                        revision,
                        body,
                        replayed: false,
                    });
                }
                Saved::Replayed(record) => return self.replay(id, seat, fingerprint, record).await,
                Saved::Fenced => return Err(ApiError::StoreUnavailable),
                Saved::Conflict { current: None } => {
                    if let Some(cache) = &self.cache {
                        cache.forget(id);
                    }
                    return Err(ApiError::game_not_found(id));
                }
                // The copy was behind: not a race, so no retry is spent on it.
                Saved::Conflict { .. } if from_copy => self.metrics.cache_read(CacheRead::Stale),
                Saved::Conflict {
                    current: Some(current),
                } => {
                    self.metrics.cas_conflict();
                    if if_match.is_some() {
                        return Err(ApiError::PreconditionFailed { current });
                    }
                    if attempt >= self.cas_retries {
                        return Err(ApiError::Conflict {
                            code: "contention",
                            detail: format!(
                                "the game changed {attempt} times while this action was applied; retry"
                            ),
                            to_act: None,
                        });
                    }
                    attempt += 1;
                    self.metrics.cas_retry();
                    tracing::debug!(game = %id, attempt, "lost a race; re-applying to the newer state");
                }
            }
        }
    }

    /// The caller's events after sequence number `after` (at most `limit`).
    pub async fn events(
        &self,
        id: &str,
        viewer: Viewer,
        after: u64,
        limit: u64,
    ) -> Result<EventLog, ApiError> {
        let stored = self.read(id).await?;
        seated(&stored.game, viewer)?;
        let limit = limit.clamp(1, MAX_EVENTS_PER_READ);
        let events = self.counted(self.store.events(id, after, limit).await)?;
        let finished = stored.game.is_over();
        let next_after = after.saturating_add(events.len() as u64);
        Ok(EventLog {
            id: stored.id.clone(),
            version: stored.revision.number,
            revision: stored.revision.to_string(),
            finished,
            next_after,
            events: sequenced((after.saturating_add(1)..).zip(events), viewer, finished),
        })
    }

    /// Forgets a game (the host's call).
    pub async fn delete(&self, id: &str) -> Result<(), ApiError> {
        if let Some(cache) = &self.cache {
            cache.forget(id);
        }
        if !valid_id(id) || !self.counted(self.store.delete(id).await)? {
            return Err(ApiError::game_not_found(id));
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

    #[test]
    fn only_hex_ids_of_the_right_length_can_name_a_game() {
        assert!(valid_id("0123456789abcdef01234567"));
        assert!(!valid_id("0123456789abcdef0123456}"));
        assert!(!valid_id("short"));
    }
}
