//! The core: a game's table (position, seats, clock, webhook) and every change to it, as values
//! applied by pure functions. Nothing here reads a clock, touches the store or speaks HTTP: `now`
//! is passed in, and a change either yields a [`Transition`] to write or a [`Refusal`].

pub use roadie_engine::Viewer;
use roadie_engine::{AnyGame, Audience, Event, Seat};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

pub mod abort;
pub mod bot_move;
pub mod bots;
pub mod clock;
pub mod notices;
pub mod post;
pub mod rating;
pub mod refusal;
mod revision;
pub mod seats;
pub mod tickets;

pub use bot_move::BotMove;
pub use clock::{Clock, Expire};
pub use notices::{OutboxNotice, Webhook};
pub use post::Post;
pub use refusal::{Code, Refusal};
pub use revision::{MalformedRevision, Revision, RevisionText};
pub use seats::{Credential, Holder, Pass, PlayerRef, SeatChange, SeatTable};

/// Game ids are this many random bytes, in hex.
pub const ID_BYTES: usize = 12;

/// The largest integer every JSON reader keeps exactly: 2^53 - 1.
pub const MAX_SAFE_INTEGER: u64 = 9_007_199_254_740_991;

/// A whole number from 0 to `max`, written as JSON's integer or as a float with no fraction
/// (`3.0`): JSON Schema's `integer` allows both. The error names the field.
pub fn whole_number<'de, D: serde::Deserializer<'de>>(d: D, field: &str, max: u64) -> Result<u64, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    let whole = match &value {
        serde_json::Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && (0.0..=max as f64).contains(f))
                .map(|f| f as u64)
        }),
        _ => None,
    };
    whole.filter(|n| *n <= max).ok_or_else(|| {
        serde::de::Error::custom(format!(
            "{field} is a whole number from 0 to {max}; it was {value}"
        ))
    })
}

/// A game as stored: read and written whole, typed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Table {
    /// The game's id.
    pub id: String,
    /// The write that produced this state: its number is incremented by every write.
    pub revision: Revision,
    /// How many events the game's log holds.
    pub events: u64,
    /// The seed the game was set up with: revealed only once the game is over.
    pub seed: u64,
    /// The random salt of the seed's commitment (hex): revealed with the seed.
    pub salt: String,
    /// The game's clocks, when it was created with a time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// The position.
    pub game: AnyGame,
    /// Who sits in each seat, and each seat's token generation.
    #[serde(default)]
    pub seats: SeatTable,
    /// Where the game's webhook notices go, if its creator asked for them.
    #[serde(default)]
    pub webhook: Option<Webhook>,
    /// The app that owns the game, when apps are configured: only its credentials (and the
    /// game's own tokens) reach it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app: Option<String>,
    /// The options it was set up with (JSON), when they were not the defaults: a record replays
    /// its setup from them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<String>,
    /// The version of its ruleset's rules it started under: only a process that plays it writes
    /// the game (1 for games from before versions were kept).
    #[serde(
        default = "first_rules_version",
        skip_serializing_if = "is_first_rules_version"
    )]
    pub rules_version: u32,
    /// The game or record it was forked from, and after how many of its actions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<ForkedFrom>,
    /// Whether its host or its app aborted it: it ended where it stood, and nobody won.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aborted: bool,
    /// Whether it is rated, who each seat counts for, and its ratings' change once rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<rating::Rated>,
    /// The notices this write adds to the webhook's outbox, written in the same atomic step
    /// (never part of the stored state).
    #[serde(skip)]
    pub notices: Vec<OutboxNotice>,
}

impl Table {
    /// `404 game_not_found` unless an app credential's app owns the game (another app learns
    /// nothing of it); `403 no_such_seat` unless `viewer` is a spectator or a seat the game has
    /// (a token of a game set up with fewer seats, say); `401 token_revoked` unless a seat
    /// token's credential is the seat's; `403 not_your_seat` unless a player token's player
    /// holds the seat.
    pub fn admit(&self, viewer: Viewer, holder: &Holder) -> Result<(), Refusal> {
        match holder {
            Holder::Token(credential) => self.seats.admit(viewer, *credential)?,
            Holder::App(app) => {
                self.owned_by(app)?;
                if let Viewer::Seat(seat) = viewer {
                    return Err(Refusal::new(
                        Code::SeatRequired,
                        format!(
                            "an app's key plays no seat; seat {seat} is played by its own token or its player's"
                        ),
                    ));
                }
            }
            Holder::Player(who) => {
                self.owned_by(&who.app)?;
                if let Viewer::Seat(seat) = viewer
                    && !self.seats.seats_of(&who.player).contains(&seat)
                {
                    return Err(Refusal::new(
                        Code::NotYourSeat,
                        format!("the player does not hold seat {seat} of this game"),
                    ));
                }
            }
        }
        match viewer {
            Viewer::Seat(seat) if seat.index() >= self.game.seat_count() => Err(Refusal::new(
                Code::NoSuchSeat,
                format!("seat {seat} does not exist in this game"),
            )),
            _ => Ok(()),
        }
    }

    /// Whether the rules ended a rated game whose ratings are not written yet.
    pub fn awaits_rating(&self) -> bool {
        !self.aborted
            && self.game.is_over()
            && self.rated.as_ref().is_some_and(|rated| rated.changes.is_none())
    }

    /// Whether nothing more can be played: the rules ended the game, or it was aborted.
    pub fn is_over(&self) -> bool {
        self.aborted || self.game.is_over()
    }

    /// `404 game_not_found` unless `app` owns the game.
    pub fn owned_by(&self, app: &str) -> Result<(), Refusal> {
        if self.app.as_deref() == Some(app) {
            Ok(())
        } else {
            Err(Refusal::game_not_found(&self.id))
        }
    }

    /// The viewer a pass is for this game: a seat token's seat (a spectator without one), a
    /// player's seat (the one it names, or the only one it holds; a spectator if it holds
    /// none), or a spectator for an app's key. Refused as [`Table::admit`] refuses, and `409
    /// seat_ambiguous` for a player holding several seats without naming one.
    pub fn viewer_of(&self, pass: &Pass) -> Result<Viewer, Refusal> {
        let viewer = match (&pass.holder, pass.seat) {
            (Holder::Player(who), None) => {
                self.owned_by(&who.app)?;
                match self.seats.seats_of(&who.player).as_slice() {
                    [] => Viewer::Spectator,
                    [seat] => Viewer::Seat(*seat),
                    held => {
                        return Err(Refusal::new(
                            Code::SeatAmbiguous,
                            format!(
                                "the player holds seats {} of this game: name one with `?seat=N`",
                                held.iter()
                                    .map(ToString::to_string)
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        ));
                    }
                }
            }
            (Holder::App(_), _) | (_, None) => Viewer::Spectator,
            (_, Some(seat)) => Viewer::Seat(seat),
        };
        self.admit(viewer, &pass.holder)?;
        Ok(viewer)
    }

    /// The seat a pass plays in this game, as [`Table::viewer_of`] finds it: `403
    /// seat_required` when it is a spectator's.
    pub fn seat_of(&self, pass: &Pass) -> Result<Seat, Refusal> {
        match self.viewer_of(pass)? {
            Viewer::Seat(seat) => Ok(seat),
            Viewer::Spectator => Err(Refusal::new(
                Code::SeatRequired,
                match pass.holder {
                    Holder::Player(_) => "the player holds no seat of this game",
                    Holder::App(_) => "this call needs a seat: an app's key has none",
                    Holder::Token(_) => "this call needs a seat's token; the host token has no seat",
                },
            )),
        }
    }

    /// The receiver of the game's notices ([`Webhook::receiver`]; "" without a webhook).
    pub fn receiver(&self) -> String {
        self.webhook.as_ref().map(Webhook::receiver).unwrap_or_default()
    }

    /// The write after this one, at `now_ms`: `game` with `events` more entries in its log,
    /// `clock`, the seat table and webhook carried over, and the webhook notices the change
    /// calls for.
    pub fn succeeded_by(&self, game: AnyGame, events: u64, clock: Option<Clock>, now_ms: u64) -> Table {
        let mut next = Table {
            id: self.id.clone(),
            revision: self.revision.next(),
            events: self.events + events,
            seed: self.seed,
            salt: self.salt.clone(),
            clock,
            game,
            seats: self.seats.clone(),
            webhook: self.webhook.clone(),
            app: self.app.clone(),
            options: self.options.clone(),
            rules_version: self.rules_version,
            forked_from: self.forked_from.clone(),
            aborted: self.aborted,
            rated: self.rated.clone(),
            notices: Vec::new(),
        };
        next.notices = notices::notices(Some(&self.game), &next, now_ms);
        next
    }
}

/// Where a forked game started: the position after `at` actions of another game (its `game`
/// id, when it was one of this server's; none for a record sent whole).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ForkedFrom {
    /// The game it was forked from, when it named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// How many of that game's actions it starts after.
    pub at: u64,
}

fn first_rules_version() -> u32 {
    1
}

fn is_first_rules_version(version: &u32) -> bool {
    *version == 1
}

/// One entry of a game's event log.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StoredEvent {
    /// Who may see it while the game runs.
    pub audience: Audience,
    /// What happened, as the ruleset reports it.
    pub body: Box<RawValue>,
}

impl From<Event<Box<RawValue>>> for StoredEvent {
    fn from(event: Event<Box<RawValue>>) -> Self {
        Self {
            audience: event.audience,
            body: event.body,
        }
    }
}

/// An action a seat played (posted, by its bot, or by its timeout): kept in the game's log of
/// actions, so that the game's record can replay it.
#[derive(Clone, Debug)]
pub struct Played {
    /// The seat that played it.
    pub seat: Seat,
    /// The action's JSON, as the rules accepted it.
    pub action: Box<RawValue>,
    /// When it was played (Unix ms): the write's `now`.
    pub at: u64,
    /// Where its events start among the events of its write (0-based).
    pub first: usize,
    /// How many events it caused.
    pub events: usize,
}

impl Played {
    /// Its entry in the game's log of actions, for a write whose first event has sequence
    /// number `first_seq`.
    pub fn logged(&self, first_seq: u64) -> LoggedAction {
        LoggedAction {
            seat: self.seat,
            at: self.at,
            seq: first_seq + self.first as u64,
            events: self.events as u64,
            action: self.action.clone(),
        }
    }
}

/// An entry of a game's log of actions, as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LoggedAction {
    /// The seat that played it.
    pub seat: Seat,
    /// When (Unix ms).
    pub at: u64,
    /// The sequence number of the first event it caused.
    pub seq: u64,
    /// How many events it caused.
    pub events: u64,
    /// The action's JSON.
    pub action: Box<RawValue>,
}

/// What a change adds to a game's logs, in order: its events, and the actions that caused some
/// of them (the others are the service's own: seat changes, timeouts, an abort).
#[derive(Debug, Default)]
pub struct Log {
    /// Every event, in order.
    pub events: Vec<StoredEvent>,
    /// The actions among their causes, in order.
    pub actions: Vec<Played>,
}

impl Log {
    /// An event with no action behind it.
    pub fn note(&mut self, event: StoredEvent) {
        self.events.push(event);
    }

    /// `action` played by `seat` at `at`, and the events it caused.
    pub fn play(&mut self, seat: Seat, action: Box<RawValue>, at: u64, caused: Vec<Event<Box<RawValue>>>) {
        self.actions.push(Played {
            seat,
            action,
            at,
            first: self.events.len(),
            events: caused.len(),
        });
        self.events.extend(caused.into_iter().map(StoredEvent::from));
    }

    /// `later` after this log.
    pub fn append(&mut self, later: Log) {
        let offset = self.events.len();
        self.events.extend(later.events);
        self.actions
            .extend(later.actions.into_iter().map(|played| Played {
                first: played.first + offset,
                ..played
            }));
    }

    /// How many events it holds.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether it holds no event.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

/// A change applied to a table, not yet written: the table afterwards and what the change
/// caused, in order.
#[derive(Debug)]
pub struct Transition {
    /// The table afterwards.
    pub next: Table,
    /// What the change caused.
    pub events: Vec<StoredEvent>,
    /// The actions among the causes.
    pub actions: Vec<Played>,
}

impl Transition {
    /// `next`, with what `log` holds.
    pub fn new(next: Table, log: Log) -> Self {
        Self {
            next,
            events: log.events,
            actions: log.actions,
        }
    }

    /// The sequence number of the first of its events.
    pub fn first_seq(&self) -> u64 {
        self.next.events - self.events.len() as u64 + 1
    }
}

/// The id of a game: lower-case hex of [`ID_BYTES`] bytes. Anything else names no game (`404
/// game_not_found`) and never reaches a store key, where a `}` would break the hash tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameId(String);

impl GameId {
    /// `id` if it could name a game.
    pub fn parse(id: &str) -> Result<Self, Refusal> {
        let valid = id.len() == ID_BYTES * 2
            && id
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if valid {
            Ok(Self(id.to_owned()))
        } else {
            Err(Refusal::game_not_found(id))
        }
    }

    /// A fresh random id.
    pub fn random() -> Self {
        use rand::RngCore;
        let mut bytes = [0u8; ID_BYTES];
        rand::rng().fill_bytes(&mut bytes);
        Self(hex::encode(bytes))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
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

/// Why a change was not applied, with the timeouts that came due before it: those are due
/// whatever the change's fate, and are written on their own.
#[derive(Debug)]
pub struct Refused {
    /// Why not.
    pub refusal: Refusal,
    /// The table after the timeouts due by the change's `now`, if any were.
    pub timeouts: Option<Box<Transition>>,
}

impl From<Refusal> for Refused {
    fn from(refusal: Refusal) -> Self {
        Self {
            refusal,
            timeouts: None,
        }
    }
}

/// A change to a table, as a value: a post, a seat change or the timeouts of due clocks.
pub trait Change {
    /// The change applied to `table` at `now`: the transition to write, `None` when there is
    /// nothing to write, or why not.
    fn apply(&self, table: &Table, now: u64) -> Result<Option<Transition>, Refused>;

    /// Whether the change was meant for the revision it was applied to alone (`If-Match`): a
    /// lost race then answers `version_mismatch` instead of applying it again.
    fn pinned(&self) -> bool {
        false
    }

    /// Where the index of clocks files `next` before the write that produces it: the deadline,
    /// and whether only an earlier one than the entry's may replace it. An entry earlier than
    /// the game's is harmless; a missing one is not.
    fn clock_entry(&self, next: &Table, _now: u64) -> Option<(u64, bool)> {
        next.clock.as_ref()?.earliest().map(|deadline| (deadline, true))
    }
}

#[cfg(test)]
mod tests;
