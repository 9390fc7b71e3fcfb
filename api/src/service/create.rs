//! Creation: a new game set up from a command parsed at the edge, stored with its setup
//! events, and its seats' tokens.

use std::sync::Arc;

use rand::{Rng, RngCore};
use roadie_engine::{AnyGame, Ruleset, SetupError};

use crate::apps::App;
use crate::records::{self, Record};
use crate::store::{StoreError, StoredEvent, Work};
use crate::table::bots::{play_bots, turn_due};
use crate::table::clock::TimeControl;
use crate::table::notices::notices;
use crate::table::rating::Rated;
use crate::table::refusal::plain_types;
use crate::table::seats::{SeatSpec, seats_taken, table_of};
use crate::table::{Clock, Code, ForkedFrom, GameId, Log, Refusal, Revision, Table, seed_commitment};
use crate::wire::{CreatedGame, SeatToken};

use super::{Games, now_ms};

/// The largest seed: 2^53 - 1, the largest integer that JSON readers which hold numbers as
/// doubles (JavaScript, jq 1.6) keep exactly.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// Random bytes of a seed commitment's salt.
const SALT_BYTES: usize = 16;

/// A new game, as the edge parsed it from the creation's body.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The ruleset's slug (checked here: `404 ruleset_not_found`).
    pub ruleset: String,
    /// How many seats.
    pub seats: usize,
    /// Who sits in each seat, when the creator said so seat by seat.
    pub specs: Option<Vec<SeatSpec>>,
    /// Whether every seat is open (with a number of seats).
    pub open: bool,
    /// The ruleset's options, as the client wrote them.
    pub options: Option<serde_json::Value>,
    /// The seed, or `None` for a random one.
    pub seed: Option<u64>,
    /// Where to post the game's notices.
    pub webhook: Option<String>,
    /// The time control.
    pub clock: Option<TimeControl>,
    /// Whether the log says who was seated (`seat_taken` for each named seat, after the setup
    /// events): for players seated by matchmaking rather than by a creator who named them.
    pub announce_seats: bool,
    /// The game's id, when the caller derived it (a matchmaking claim's): creating it again
    /// answers the game already created under it instead of a second one.
    pub id: Option<GameId>,
    /// The app that creates it, where apps are configured: it owns the game, within its limits.
    pub app: Option<Arc<App>>,
    /// The app that owns it without creating it (a matchmaking claim's app): no limit applies.
    pub owner: Option<String>,
    /// Where it starts, when it is a fork of another game's position.
    pub fork: Option<Fork>,
    /// Whether its end rates its players.
    pub rated: bool,
}

/// A fork: a new game at the position after `at` actions of a finished game or a record.
#[derive(Clone, Debug)]
pub struct Fork {
    /// What it is forked from.
    pub source: ForkSource,
    /// How many of its actions the fork starts after.
    pub at: u64,
}

/// What a fork starts from.
#[derive(Clone, Debug)]
pub enum ForkSource {
    /// A finished game of this server, which the creator may look at.
    Game(GameId),
    /// A record, sent whole.
    Record(Box<Record>),
}

/// `422 invalid_record` for a record a fork cannot start from.
fn unforkable(reason: impl std::fmt::Display) -> Refusal {
    Refusal::new(
        Code::InvalidRecord,
        format!("the game cannot be forked: {reason}"),
    )
}

/// Why a ruleset refused to set a game up, as a refusal with its code.
pub(super) fn setup_refused(e: SetupError) -> Refusal {
    match e {
        SetupError::Seats { .. } => Refusal::new(Code::InvalidSeats, e.to_string()),
        SetupError::Options(_) => Refusal::new(Code::InvalidOptions, plain_types(&e.to_string())),
        SetupError::UnknownRuleset(_) => Refusal::new(Code::RulesetNotFound, e.to_string()),
    }
}

/// `404 ruleset_not_found` unless a ruleset is called `slug`.
pub(super) fn find_ruleset(slug: &str) -> Result<&'static Ruleset, Refusal> {
    Ruleset::find(slug).ok_or_else(|| {
        Refusal::new(
            Code::RulesetNotFound,
            format!("no ruleset is called {slug:?}; see GET /v1/rulesets"),
        )
    })
}

impl Games {
    /// Sets up a game and stores it; returns its id and tokens.
    pub async fn create(&self, request: NewGame) -> Result<CreatedGame, Refusal> {
        let ruleset = find_ruleset(&request.ruleset)?;
        if let Some(seed) = request.seed
            && seed > MAX_SEED
        {
            return Err(Refusal::new(
                Code::InvalidSeed,
                format!("a seed is at most {MAX_SEED} (2^53 - 1)"),
            ));
        }
        let members = request
            .specs
            .iter()
            .flatten()
            .any(|spec| matches!(spec, SeatSpec::Member { .. }));
        if members && request.app.is_none() && request.owner.is_none() {
            return Err(Refusal::new(
                Code::InvalidSeats,
                "a seat by player id needs an app: this server has no apps configured (ROADIE_APPS)",
            ));
        }
        let rated = if request.rated {
            let refused = |why: &str| Refusal::new(Code::NotRatable, format!("a rated game {why}"));
            if request.app.is_none() && request.owner.is_none() {
                return Err(refused(
                    "belongs to an app: create it with an app's key or player token",
                ));
            }
            if request.fork.is_some() {
                return Err(refused("starts from its setup: a fork is never rated"));
            }
            let specs = request
                .specs
                .as_deref()
                .ok_or_else(|| refused("names every seat: `seats` as a list of players and bots"))?;
            Some(Rated::of_seats(specs)?)
        } else {
            None
        };
        let mut webhook = request
            .webhook
            .as_deref()
            .map(|url| self.webhooks.target(url))
            .transpose()?;
        let app_signs = match (
            &mut webhook,
            request.app.as_deref().and_then(|a| a.webhook_secret.as_ref()),
        ) {
            (Some(webhook), Some(secret)) => {
                webhook.secret = secrecy::ExposeSecret::expose_secret(secret).to_owned();
                true
            }
            _ => false,
        };
        if let Some(app) = &request.app {
            self.admit_app_creation(app, ruleset.slug).await?;
        }
        if let Some(control) = &request.clock {
            control.check()?;
        }
        let fork = match &request.fork {
            None => None,
            Some(fork) => Some(self.fork_source(&request, ruleset.slug, fork).await?),
        };
        // The last reading refuses early; the store's create decides.
        if !self.headroom.creation_allowed() {
            return Err(Refusal::store_full());
        }
        let now = now_ms();
        let table = table_of(request.seats, request.specs.as_deref(), request.open, now)?;
        let (seed, options, mut game, mut log, forked_from) = match fork {
            None => {
                let seed = request
                    .seed
                    .unwrap_or_else(|| rand::rng().random_range(0..=MAX_SEED));
                let (game, events) =
                    AnyGame::setup(ruleset.slug, request.options.as_ref(), request.seats, seed)
                        .map_err(setup_refused)?;
                let mut log = Log::default();
                for event in events {
                    log.note(StoredEvent::from(event));
                }
                (seed, request.options.clone(), game, log, None)
            }
            Some((record, forked_from)) => {
                let at = usize::try_from(forked_from.at).unwrap_or(usize::MAX);
                let (game, log) = records::prefix(&record, at)
                    .map_err(|verdict| unforkable(verdict.reason.unwrap_or_default()))?;
                (record.seed, record.options.clone(), game, log, Some(forked_from))
            }
        };
        if request.announce_seats
            && let Some(specs) = &request.specs
        {
            for event in seats_taken(specs)? {
                log.note(event);
            }
        }
        log.append(play_bots(&mut game, |seat| table.bot(seat), now));
        let mut salt = [0u8; SALT_BYTES];
        rand::rng().fill_bytes(&mut salt);
        let mut stored = Table {
            id: String::new(),
            revision: Revision::first(),
            events: log.len() as u64,
            seed,
            salt: hex::encode(salt),
            clock: None,
            game,
            seats: table,
            webhook,
            app: request
                .app
                .as_ref()
                .map(|app| app.id.to_string())
                .or_else(|| request.owner.clone()),
            options: options
                .as_ref()
                .filter(|options| !options.is_null())
                .map(ToString::to_string),
            rules_version: self.rules.version(ruleset.slug),
            forked_from,
            aborted: false,
            rated,
            notices: Vec::new(),
        };
        stored.clock = request
            .clock
            .map(|control| Clock::start(control, stored.game.seat_count(), &stored.game.to_act(), now));
        let mut created = false;
        let fixed = request.id.is_some();
        for _ in 0..4 {
            stored.id = match &request.id {
                Some(id) => id.to_string(),
                None => GameId::random().to_string(),
            };
            stored.notices = notices(None, &stored, now);
            if !stored.notices.is_empty() {
                self.counted(self.store.mark_due(&stored.id, &stored.receiver()).await)?;
            }
            if let Some(deadline) = stored.clock.as_ref().and_then(Clock::earliest) {
                self.counted(self.store.schedule_clock(&stored.id, deadline, true).await)?;
            }
            if turn_due(&stored).is_some() {
                self.counted(self.store.file_work(Work::BotTurn, &stored.id, now).await)?;
            }
            self.counted(self.store.track(&stored.id).await)?;
            if self.archiving.is_some() && stored.is_over() {
                self.counted(self.store.file_work(Work::Archive, &stored.id, now).await)?;
            }
            match self.store.create(&stored, &log.events, &log.actions).await {
                Ok(true) => created = true,
                Ok(false) if fixed => return self.created_before(&stored.id).await,
                Ok(false) => continue,
                Err(StoreError::Full(cause)) => {
                    tracing::info!(%cause, "a new game was refused for room");
                    self.headroom.store_refused();
                    return Err(Refusal::store_full());
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
            return Err(Refusal::internal());
        }
        if stored.seats.has_open_seat() {
            self.relist(&stored).await;
        }
        if turn_due(&stored).is_some() {
            self.bots.wake();
        }
        self.index_created(&stored).await;
        self.metrics.game_created(ruleset.slug);
        tracing::debug!(game = %stored.id, ruleset = ruleset.slug, "game created");
        let mut created = self.tokens_of(&stored, ruleset.slug)?;
        if app_signs {
            // Its app's own secret signs the notices: never shown in an answer.
            created.webhook = None;
        }
        Ok(created)
    }

    /// The record a fork starts from, checked against the creation: the same ruleset and seat
    /// count, no options or seed of its own; a game named must be finished (`409
    /// game_not_finished`: a running game's position is secret) and one the creator's app owns
    /// (`404` otherwise, as for any game it may not see).
    async fn fork_source(
        &self,
        request: &NewGame,
        slug: &str,
        fork: &Fork,
    ) -> Result<(Box<Record>, ForkedFrom), Refusal> {
        if request.options.is_some() || request.seed.is_some() {
            return Err(unforkable(
                "a fork plays on with its record's options and seed: leave out `options` and `seed`",
            ));
        }
        let (record, game) = match &fork.source {
            ForkSource::Record(record) => (record.clone(), None),
            ForkSource::Game(id) => {
                // A game this caller may not see is no more forkable than one that never was.
                let unseen = || unforkable(format!("no finished game of this caller has the id {id}"));
                let stored = match self.read(id).await {
                    Ok(stored) => stored,
                    Err(missing) if missing.code == Code::GameNotFound => return Err(unseen()),
                    Err(refusal) => return Err(refusal),
                };
                let creator = request
                    .app
                    .as_ref()
                    .map(|app| app.id.to_string())
                    .or_else(|| request.owner.clone());
                if stored.app != creator {
                    return Err(unseen());
                }
                if !stored.is_over() {
                    return Err(Refusal::new(
                        Code::GameNotFinished,
                        "a running game's position is secret: only a finished game can be forked",
                    ));
                }
                let events = self.counted(self.store.events(id.as_str(), 0, u64::MAX).await)?;
                let actions = self.counted(self.store.actions(id.as_str()).await)?;
                (
                    Box::new(records::build(&stored, &events, &actions)?),
                    Some(id.to_string()),
                )
            }
        };
        if record.ruleset != slug {
            return Err(unforkable(format!(
                "the record is a game of {}, not {slug}",
                record.ruleset
            )));
        }
        let served = self.rules.version(slug);
        if record.rules_version != served {
            return Err(unforkable(format!(
                "the record was played under version {} of {slug}'s rules; this process plays version {served}",
                record.rules_version
            )));
        }
        if record.seats.len() != request.seats {
            return Err(Refusal::new(
                Code::InvalidSeats,
                format!(
                    "a fork has the seats of its record: {}, not {}",
                    record.seats.len(),
                    request.seats
                ),
            ));
        }
        Ok((record, ForkedFrom { game, at: fork.at }))
    }

    /// The answer to a creation under an id that holds a game already: that game's tokens, as
    /// its creation answered them (the seats' credentials are the table's).
    async fn created_before(&self, id: &str) -> Result<CreatedGame, Refusal> {
        let (table, _) = self.counted(self.store.load(id, None).await)?;
        let Some(table) = table else {
            tracing::error!(game = %id, "a game id was taken but holds no game (fenced off)");
            return Err(Refusal::internal());
        };
        let slug = table.game.ruleset().slug;
        self.tokens_of(&table, slug)
    }

    /// A created game's id and tokens.
    fn tokens_of(&self, stored: &Table, slug: &'static str) -> Result<CreatedGame, Refusal> {
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
            .collect::<Result<Vec<_>, Refusal>>()?;
        Ok(CreatedGame {
            id: stored.id.clone(),
            ruleset: slug.into(),
            version: stored.revision.number,
            revision: stored.revision.to_string(),
            seats,
            host_token: self.keys.issue(&stored.id, None)?,
            seed_commitment: seed_commitment(stored.seed, &stored.salt),
            webhook: stored.webhook.as_ref().map(Into::into),
        })
    }
}
