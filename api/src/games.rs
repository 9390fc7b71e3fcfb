//! The service's verbs: create a game, show it, list and apply actions, read events.
//!
//! Handlers call exactly one of these; everything here speaks [`ApiError`].

use std::sync::Arc;
use std::time::Duration;

use rand::RngCore;
use roadie_engine::{AnyGame, Ruleset, SetupError, Viewer};
use sha2::{Digest, Sha256};

use crate::auth::Keys;
use crate::cache::GameCache;
use crate::error::ApiError;
use crate::metrics::{CacheRead, Metrics};
use crate::model::{
    ActionResult, CreateGame, CreatedGame, EventLog, GameState, LegalActions, SeatToken, SequencedEvent,
    Status,
};
use crate::store::{
    Freshness, GameStore, IdempotentRecord, IdempotentWrite, Saved, StoreError, StoredEvent, StoredGame,
};

/// The longest a read may wait for a game to change.
pub const MAX_WAIT: Duration = Duration::from_secs(30);

/// The most events one read of the log returns.
pub const MAX_EVENTS_PER_READ: u64 = 5_000;

/// Game ids are this many random bytes, in hex.
const ID_BYTES: usize = 12;

/// The longest `Idempotency-Key` accepted.
const MAX_IDEMPOTENCY_KEY: usize = 200;

/// The domain: the store, the token keys and the metrics.
pub struct Games {
    store: Arc<dyn GameStore>,
    keys: Arc<Keys>,
    metrics: Arc<Metrics>,
    cas_retries: u32,
    cache: Option<GameCache>,
}

/// The answer to a post, serialized once (it may be replayed byte for byte).
pub struct ActionReply {
    /// The game's version after the action.
    pub version: u64,
    /// The [`ActionResult`] as JSON.
    pub body: String,
    /// True when this is the stored first answer to an `Idempotency-Key`.
    pub replayed: bool,
}

/// Hex of SHA-256 of the seed's decimal string: the commitment published at creation.
pub fn seed_commitment(seed: u64) -> String {
    hex::encode(Sha256::digest(seed.to_string().as_bytes()))
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
        ruleset: game.ruleset().slug,
        version: stored.version,
        status: Status::of(finished),
        phase: game.phase(),
        to_act: game.to_act(),
        seats: game.seat_count(),
        seat: viewer.seat(),
        view: game.view(viewer),
        outcome: game.outcome(),
        seed_commitment: seed_commitment(stored.seed),
        seed: finished.then_some(stored.seed),
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
    /// The game is still at the version the caller holds.
    Unchanged {
        /// That version.
        version: u64,
    },
}

/// Whether an `If-None-Match` value (`*`, or entity tags separated by commas) names `version`.
pub fn matches_version(tags: &str, version: u64) -> bool {
    tags.split(',')
        .any(|tag| parse_if_match(tag).is_none_or(|v| v == version))
}

/// Parses an `If-Match` value: `"7"`, `W/"7"` or `7`. `*` matches any version (`None`); a
/// value that names no version of ours matches none (`Some(u64::MAX)` never equals one).
pub fn parse_if_match(value: &str) -> Option<u64> {
    let value = value.trim();
    if value == "*" {
        return None;
    }
    let value = value.strip_prefix("W/").unwrap_or(value).trim_matches('"');
    Some(value.parse().unwrap_or(u64::MAX))
}

impl Games {
    /// The domain over `store`, keeping decoded copies of up to `cached_games` games.
    pub fn new(
        store: Arc<dyn GameStore>,
        keys: Arc<Keys>,
        metrics: Arc<Metrics>,
        cas_retries: u32,
        cached_games: usize,
    ) -> Self {
        Self {
            store,
            keys,
            metrics,
            cas_retries,
            cache: GameCache::new(cached_games),
        }
    }

    /// The store, for readiness.
    pub fn store(&self) -> &dyn GameStore {
        self.store.as_ref()
    }

    fn counted<T>(&self, result: Result<T, StoreError>) -> Result<T, ApiError> {
        result.map_err(|e| {
            self.metrics.store_error();
            ApiError::from(e)
        })
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
    /// version, else a fresh read.
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
        match self.counted(self.store.load_if_changed(id, held.version).await)? {
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
        let seed = request.seed.unwrap_or_else(|| rand::rng().next_u64());
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
        let mut stored = StoredGame {
            id: String::new(),
            version: 1,
            events: events.len() as u64,
            seed,
            game,
        };
        let mut created = false;
        for _ in 0..4 {
            let mut bytes = [0u8; ID_BYTES];
            rand::rng().fill_bytes(&mut bytes);
            stored.id = hex::encode(bytes);
            if self.counted(self.store.create(&stored, &events).await)? {
                created = true;
                break;
            }
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
            ruleset: ruleset.slug,
            version: stored.version,
            seats,
            host_token,
            seed_commitment: seed_commitment(seed),
        })
    }

    /// The game as `viewer` may see it, unless it is still at a version in `known` (the
    /// client's `If-None-Match`): then only that version, after waiting up to `wait` for it to
    /// change.
    pub async fn get(
        &self,
        id: &str,
        viewer: Viewer,
        known: Option<&str>,
        wait: Duration,
    ) -> Result<Seen, ApiError> {
        let mut stored = self.read(id).await?;
        seated(&stored.game, viewer)?;
        if let Some(tags) = known
            && matches_version(tags, stored.version)
        {
            if !wait.is_zero() {
                self.counted(self.store.wait_for_change(id, stored.version, wait).await)?;
                stored = self.read(id).await?;
            }
            if matches_version(tags, stored.version) {
                return Ok(Seen::Unchanged {
                    version: stored.version,
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
            version: stored.version,
            seat,
            actions: stored.game.legal_actions(seat),
        })
    }

    /// Applies `action` (JSON) for `seat`. A post that loses a race to another write is
    /// re-applied to the newer state (at most `cas_retries` times) unless `if_match` pins the
    /// version it was meant for. With an idempotency key, a repeat returns the first answer.
    /// `minimal` leaves the game's view out of the answer (`Prefer: return=minimal`).
    pub async fn post(
        &self,
        id: &str,
        seat: usize,
        action: &str,
        if_match: Option<u64>,
        idempotency_key: Option<&str>,
        minimal: bool,
    ) -> Result<ActionReply, ApiError> {
        let scoped_key = match idempotency_key {
            None => None,
            Some(key)
                if !key.is_empty()
                    && key.len() <= MAX_IDEMPOTENCY_KEY
                    && key.bytes().all(|b| b.is_ascii_graphic()) =>
            {
                Some(format!("{seat}:{key}"))
            }
            Some(_) => {
                return Err(ApiError::bad_request(
                    "malformed_idempotency_key",
                    format!("an Idempotency-Key is 1 to {MAX_IDEMPOTENCY_KEY} visible ASCII characters"),
                ));
            }
        };
        let fingerprint = scoped_key
            .as_ref()
            .map(|_| hex::encode(Sha256::digest(action.as_bytes())));
        let replay = |record: IdempotentRecord| -> Result<ActionReply, ApiError> {
            if Some(&record.fingerprint) != fingerprint.as_ref() {
                return Err(ApiError::Conflict {
                    code: "idempotency_key_reused",
                    detail: "this Idempotency-Key was used for another action".into(),
                    to_act: None,
                });
            }
            Ok(ActionReply {
                version: record.version,
                body: record.response,
                replayed: true,
            })
        };
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
                        return replay(record);
                    }
                    Arc::new(stored)
                }
                None => self.read(id).await?,
            };
            if let Some(expected) = if_match
                && expected != stored.version
            {
                if from_copy {
                    continue;
                }
                return Err(ApiError::PreconditionFailed {
                    expected,
                    current: stored.version,
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
                version: stored.version + 1,
                events: stored.events + events.len() as u64,
                seed: stored.seed,
                game,
            };
            let finished = next.game.is_over();
            let viewer = Viewer::Seat(seat);
            let result = ActionResult {
                version: next.version,
                status: Status::of(finished),
                to_act: next.game.to_act(),
                events: sequenced((first_seq..).zip(events.iter().cloned()), viewer, finished),
                game: if minimal {
                    None
                } else {
                    Some(state_of(&next, viewer)?)
                },
            };
            let body = serde_json::to_string(&result).map_err(|e| {
                tracing::error!(error = %e, "could not serialize an action result");
                ApiError::Internal
            })?;
            let record = fingerprint.as_ref().map(|fingerprint| IdempotentRecord {
                fingerprint: fingerprint.clone(),
                version: next.version,
                response: body.clone(),
            });
            let idempotency = match (&scoped_key, &record) {
                (Some(key), Some(record)) => Some(IdempotentWrite { key, record }),
                _ => None,
            };
            match self.counted(self.store.save(stored.version, &next, &events, idempotency).await)? {
                Saved::Written => {
                    self.metrics.action_applied(ruleset);
                    if finished {
                        tracing::info!(game = %next.id, ruleset, version = next.version, "game finished");
                    }
                    let version = next.version;
                    if let Some(cache) = &self.cache {
                        cache.offer(Arc::new(next));
                    }
                    return Ok(ActionReply {
                        version,
                        body,
                        replayed: false,
                    });
                }
                Saved::Replayed(record) => return replay(record),
                Saved::Conflict { current: 0 } => {
                    if let Some(cache) = &self.cache {
                        cache.forget(id);
                    }
                    return Err(ApiError::game_not_found(id));
                }
                // The copy was behind: not a race, so no retry is spent on it.
                Saved::Conflict { .. } if from_copy => self.metrics.cache_read(CacheRead::Stale),
                Saved::Conflict { current } => {
                    self.metrics.cas_conflict();
                    if let Some(expected) = if_match {
                        return Err(ApiError::PreconditionFailed { expected, current });
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
            version: stored.version,
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
    fn the_seed_commitment_is_sha256_of_the_decimal_seed() {
        assert_eq!(
            seed_commitment(42),
            "73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049"
        );
    }

    #[test]
    fn if_match_accepts_strong_weak_and_bare_versions() {
        assert_eq!(parse_if_match("\"7\""), Some(7));
        assert_eq!(parse_if_match("W/\"7\""), Some(7));
        assert_eq!(parse_if_match("7"), Some(7));
        assert_eq!(parse_if_match("*"), None);
        assert_eq!(parse_if_match("\"abc\""), Some(u64::MAX));
    }

    #[test]
    fn if_none_match_finds_the_version_among_several_tags() {
        assert!(matches_version("\"7\"", 7));
        assert!(matches_version("\"5\", W/\"7\"", 7));
        assert!(matches_version("*", 3));
        assert!(!matches_version("\"5\", \"6\"", 7));
        assert!(!matches_version("garbage", 7));
    }

    #[test]
    fn only_hex_ids_of_the_right_length_can_name_a_game() {
        assert!(valid_id("0123456789abcdef01234567"));
        assert!(!valid_id("0123456789abcdef0123456}"));
        assert!(!valid_id("short"));
    }
}
