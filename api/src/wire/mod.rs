//! What goes over the wire: request and response bodies, as named OpenAPI schemas.

pub mod catalogue;
pub mod hints;
pub mod lobby;
pub mod ratings;
pub mod seats;
pub mod tickets;

use std::borrow::Cow;

use roadie_engine::registry::RulesetSchemas;
use roadie_engine::{Audience, Outcome, RULESETS, Seat};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::table::Webhook;
use crate::table::seats::{SeatInfo, SeatSpec};
use utoipa::openapi::schema::{OneOf, Schema};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

pub use crate::table::{MAX_SAFE_INTEGER, whole_number};

/// The seats a game is created with: how many (every seat a player, or every seat open with
/// `"open": true`), or one spec per seat.
#[derive(Debug)]
pub enum SeatsRequest {
    /// This many seats.
    Count(usize),
    /// These seats, in order.
    Specs(Vec<SeatSpec>),
}

impl SeatsRequest {
    /// How many seats.
    pub fn count(&self) -> usize {
        match self {
            SeatsRequest::Count(n) => *n,
            SeatsRequest::Specs(specs) => specs.len(),
        }
    }

    /// How many seats, and who sits in each when the request said so seat by seat.
    pub fn into_parts(self) -> (usize, Option<Vec<SeatSpec>>) {
        match self {
            SeatsRequest::Count(n) => (n, None),
            SeatsRequest::Specs(specs) => (specs.len(), Some(specs)),
        }
    }
}

impl<'de> Deserialize<'de> for SeatsRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        if value.is_array() {
            let specs = Vec::<SeatSpec>::deserialize(value).map_err(serde::de::Error::custom)?;
            if specs.len() > MAX_SEAT_SPECS {
                return Err(serde::de::Error::custom(format!(
                    "seats lists at most {MAX_SEAT_SPECS} seats"
                )));
            }
            return Ok(SeatsRequest::Specs(specs));
        }
        whole_number(value, "seats", u16::MAX.into())
            .map(|n| SeatsRequest::Count(n as usize))
            .map_err(|e| {
                serde::de::Error::custom(format!(
                    "{e}; or a list of seats ({{\"open\": true}}, {{\"name\": ...}}, {{\"bot\": ...}})"
                ))
            })
    }
}

/// The most seat specs a creation may list (far more than any ruleset seats).
const MAX_SEAT_SPECS: usize = 64;

fn seed<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Option::<serde_json::Value>::deserialize(d)?
        .filter(|v| !v.is_null())
        .map(|v| whole_number(v, "seed", u64::MAX).map_err(serde::de::Error::custom))
        .transpose()
}

pub(crate) fn ruleset_slug<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(slug) => Ok(slug),
        other => Err(serde::de::Error::custom(format!(
            "ruleset is a slug of `GET /v1/rulesets`, a string; it was {other}"
        ))),
    }
}

/// Create a game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"ruleset": "shrewd-producer", "seats": 4, "seed": 42}))]
pub struct CreateGame {
    /// The ruleset's slug (see `GET /v1/rulesets`).
    #[serde(deserialize_with = "ruleset_slug")]
    pub ruleset: String,
    /// How many seats (each a player whose token the creation returns), or one entry per seat:
    /// `{"open": true}` (anyone may join it), `{"name": "Ann"}` (a named player) or
    /// `{"bot": "random" | "greedy"}`. The ruleset says how many seats it allows.
    #[schema(value_type = SeatsSchema)]
    pub seats: SeatsRequest,
    /// With a number of seats: leave every seat open, to be joined by name (no seat token is
    /// returned).
    #[serde(default)]
    pub open: bool,
    /// The ruleset's options; omitted ones keep their defaults.
    #[schema(value_type = Option<AnyOptions>)]
    pub options: Option<serde_json::Value>,
    /// The seed of the game's random generator (at most 2^53 - 1, so that every JSON reader
    /// keeps it exactly); a random one when omitted. Either way it stays secret until the game
    /// ends; `seed_commitment` commits to it. A creator who chooses the seed can work out every
    /// hand: choose one for tests and replays, never for play among strangers.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    #[serde(default, deserialize_with = "seed")]
    pub seed: Option<u64>,
    /// Where to post the game's `your_turn` and `game_over` notices (see the operation's
    /// description); the answer gives the secret they are signed with.
    #[serde(default)]
    pub webhook: Option<WebhookOption>,
    /// A time control: each seat to act has a deadline, after which the ruleset's timeout
    /// plays for it (see its machine's `on_timeout`). No clock when omitted.
    #[serde(default)]
    pub clock: Option<crate::table::clock::TimeControl>,
    /// Fork another game: start at the position after `at` of its actions (see the operation's
    /// description).
    #[serde(default)]
    pub from: Option<ForkFrom>,
    /// With `from`: how many of its actions the fork starts after (default 0, its setup).
    #[serde(default, deserialize_with = "fork_at")]
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub at: Option<u64>,
    /// Rate the game: its end updates each player's rating in the ruleset (see `GET
    /// /v1/rulesets/{ruleset}/leaderboard`). Every seat is then one of the app's players
    /// (`{"player": id}`, each once) or a bot, whose fixed rating anchors the others'; an abort
    /// rates nobody. Needs an app's credential; a fork is never rated.
    #[serde(default)]
    pub rated: bool,
}

fn fork_at<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Option::<serde_json::Value>::deserialize(d)?
        .filter(|v| !v.is_null())
        .map(|v| whole_number(v, "at", MAX_SAFE_INTEGER).map_err(serde::de::Error::custom))
        .transpose()
}

/// What a fork starts from: a finished game of this server, or a record.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ForkFrom {
    /// A finished game's id.
    #[serde(default)]
    pub game: Option<String>,
    /// A record, as `GET /v1/games/{id}/record` gives it (`422 invalid_record` when it is not
    /// one).
    #[serde(default)]
    #[schema(value_type = Option<crate::records::Record>)]
    pub record: Option<serde_json::Value>,
}

/// How many seats, or one spec per seat.
pub struct SeatsSchema;

impl PartialSchema for SeatsSchema {
    fn schema() -> RefOr<Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)))
            .item(
                ArrayBuilder::new()
                    .items(Ref::from_schema_name("SeatSpec"))
                    .max_items(Some(MAX_SEAT_SPECS)),
            )
            .into()
    }
}

impl ToSchema for SeatsSchema {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push(("SeatSpec".into(), SeatSpec::schema()));
    }
}

/// One seat's token.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatToken {
    /// The seat.
    pub seat: Seat,
    /// Its bearer token: `Authorization: Bearer <token>`.
    pub token: String,
}

/// A new game and its tokens. Hand each seat its own token.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CreatedGame {
    /// The game's id.
    pub id: String,
    /// The ruleset's slug.
    pub ruleset: Cow<'static, str>,
    /// The game's version (`1` after creation).
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub version: u64,
    /// The game's revision: the version and the write's random id; the `ETag`.
    pub revision: String,
    /// One token per player seat (open and bot seats have none: an open seat's token is
    /// answered to whoever joins it).
    pub seats: Vec<SeatToken>,
    /// The host's token: no seat, sees the spectator view, may delete the game.
    pub host_token: String,
    /// Hex of SHA-256 of `<seed_salt>:<seed>`: `printf '%s:%s' "$seed_salt" "$seed" |
    /// sha256sum`. The seed and its salt are revealed when the game ends.
    pub seed_commitment: String,
    /// The game's webhook and its signing secret, when one was asked for; shown only here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<CreatedWebhook>,
}

/// Whether the game is still being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Being played.
    Active,
    /// Over: the outcome is set, the seed revealed and every event public.
    Finished,
    /// Aborted by its host or its app where it stood: nobody won, nothing more can be played,
    /// and what was hidden stays hidden.
    Aborted,
}

impl Status {
    /// `Finished` when the game is over, else `Active`.
    pub fn of(finished: bool) -> Self {
        if finished { Self::Finished } else { Self::Active }
    }

    /// The status of a stored game: `Aborted` once aborted.
    pub fn of_table(table: &crate::table::Table) -> Self {
        if table.aborted {
            Self::Aborted
        } else {
            Self::of(table.game.is_over())
        }
    }
}

/// A game as its caller may see it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameState {
    /// The game's id.
    pub id: String,
    /// The ruleset's slug.
    pub ruleset: Cow<'static, str>,
    /// The version: the number of writes, incremented by every applied action.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub version: u64,
    /// The revision: the version and the write's random id, `<version>.<32 hex digits>`. It is
    /// the `ETag`; it names one write, and never recurs even if the store loses recent writes.
    pub revision: String,
    /// `active` or `finished`.
    pub status: Status,
    /// The current phase (see the ruleset's phase machine).
    pub phase: Cow<'static, str>,
    /// The seats that may act now; empty once the game is over.
    pub to_act: Vec<Seat>,
    /// How many seats the game has.
    pub seats: usize,
    /// Who sits in each seat: a player (with its name), an open seat, or a bot (with its level).
    pub occupants: Vec<SeatInfo>,
    /// The caller's seat; absent for a spectator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// What the caller may see: other seats' hidden cards and the deck never appear.
    #[schema(value_type = AnyView)]
    pub view: Box<RawValue>,
    /// Final scores and winners once the game is over, else `null`.
    pub outcome: Option<Outcome>,
    /// Hex of SHA-256 of `<seed_salt>:<seed>` (the salt in hex, the seed in decimal).
    pub seed_commitment: String,
    /// The seed, once the game is over (check it against `seed_commitment`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub seed: Option<u64>,
    /// The commitment's salt, once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_salt: Option<String>,
    /// The seats' deadlines and banks, for a game created with a `clock`; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<crate::table::clock::ClockView>,
    /// Where a forked game started; absent for a game set up afresh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<crate::table::ForkedFrom>,
    /// Whether the game's end rates its players (see `ratings`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// Once a rated game is over and rated: each seat's rating before and after. A rated game
    /// that is over shows none for the moment its ratings take to be written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<Vec<crate::table::rating::RatingChange>>,
}

/// What a seat may do now.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LegalActions {
    /// The ruleset's slug.
    pub ruleset: Cow<'static, str>,
    /// The game's version these actions are legal at.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub version: u64,
    /// The game's revision these actions are legal at (its `ETag`).
    pub revision: String,
    /// The seat.
    pub seat: Seat,
    /// Every legal action, each exactly the `action` to post. Empty when the seat may not act.
    #[schema(value_type = Vec<AnyAction>)]
    pub actions: Box<RawValue>,
}

/// Post one action.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PostAction {
    /// One element of `GET /v1/games/{id}/actions`.
    #[schema(value_type = AnyAction)]
    pub action: Box<RawValue>,
}

/// An event of the game's log.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SequencedEvent {
    /// Its position in the game's log, from 1.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub seq: u64,
    /// Who may see it while the game runs.
    pub audience: Audience,
    /// What happened.
    #[schema(value_type = AnyEvent)]
    pub body: Box<RawValue>,
}

/// The result of an applied action.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ActionResult {
    /// The ruleset's slug.
    pub ruleset: Cow<'static, str>,
    /// The game's new version.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub version: u64,
    /// The game's new revision (its `ETag`).
    pub revision: String,
    /// Whether the game goes on.
    pub status: Status,
    /// The seats that may act now.
    pub to_act: Vec<Seat>,
    /// The events the action caused that the seat may see.
    pub events: Vec<SequencedEvent>,
    /// The game afterwards, as `GET /v1/games/{id}` shows it to the seat; left out when the
    /// post asked for `Prefer: return=minimal`, and when this answers a repeated
    /// `Idempotency-Key` (read the game for how it is now).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<GameState>,
}

/// A slice of the game's log, redacted for the caller.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventLog {
    /// The game's id.
    pub id: String,
    /// The ruleset's slug.
    pub ruleset: Cow<'static, str>,
    /// The game's version when read.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub version: u64,
    /// The game's revision when read.
    pub revision: String,
    /// Whether the game is over (then every event is public).
    pub finished: bool,
    /// Pass this as `after` to read on.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub next_after: u64,
    /// The events the caller may see, in order.
    pub events: Vec<SequencedEvent>,
}

/// The seats a ruleset allows.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatRange {
    /// Fewest seats.
    pub min: usize,
    /// Most seats.
    pub max: usize,
}

/// A ruleset in the list.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulesetSummary {
    /// The slug games are created with.
    pub slug: &'static str,
    /// The game's title.
    pub title: &'static str,
    /// The seats it allows.
    pub seats: SeatRange,
    /// The version of its rules this process plays: a game is written only by a process that
    /// plays the version it started under.
    pub rules_version: u32,
}

/// Every ruleset.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulesetList {
    /// The rulesets, in registry order.
    pub rulesets: Vec<RulesetSummary>,
}

/// The names of a ruleset's schemas in the OpenAPI document (`#/components/schemas/<name>`).
#[derive(Debug, Serialize, ToSchema)]
pub struct RulesetSchemaNames {
    /// Its options.
    pub options: String,
    /// One action.
    pub action: String,
    /// One event.
    pub event: String,
    /// A view.
    pub view: String,
}

/// A ruleset in full.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulesetDetail {
    /// The slug games are created with.
    pub slug: &'static str,
    /// The game's title.
    pub title: &'static str,
    /// The seats it allows.
    pub seats: SeatRange,
    /// The options with their defaults.
    #[schema(value_type = AnyOptions)]
    pub options: serde_json::Value,
    /// Where its schemas are in the OpenAPI document.
    pub schemas: RulesetSchemaNames,
    /// The phase machine.
    pub machine: roadie_engine::Machine,
    /// The phase machine as a Mermaid state diagram.
    pub mermaid: String,
    /// A sentence template for every event type of the ruleset's log (its own events, the seat
    /// events and `clock_expired`), by type: `{path}` is a field of the event (dotted for a nested
    /// one), `{path|seat}` a seat shown as its occupant, `{path|name}` a component id shown as its
    /// catalogue name; alternatives are separated by ` || `, the first whose fields are all
    /// present is used.
    #[schema(example = json!({"raised": "{seat|seat} raised ${amount} (total ${total})"}))]
    pub messages: std::collections::BTreeMap<String, String>,
}

/// Liveness or readiness.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable`.
    pub status: &'static str,
    /// The store (`memory` or `redis`), for readiness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub store: Option<&'static str>,
    /// The store's memory as last read (Redis only), for readiness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub store_memory: Option<crate::store::MemoryUse>,
    /// Whether new games are accepted (`false` while the store is nearly full), for readiness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creating: Option<bool>,
    /// The version of each ruleset's rules this process plays, by slug, for readiness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules_versions: Option<std::collections::BTreeMap<&'static str, u32>>,
}

// The placeholders for what each ruleset defines: `oneOf` the rulesets' own schemas.

fn one_of(pick: fn(&RulesetSchemas) -> &String, description: &str) -> RefOr<Schema> {
    let mut one = OneOf::new();
    for ruleset in RULESETS {
        one.items
            .push(Ref::from_schema_name(pick(&(ruleset.schemas)())).into());
    }
    one.description = Some(description.to_owned());
    Schema::OneOf(one).into()
}

fn all_ruleset_schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
    for ruleset in RULESETS {
        schemas.extend((ruleset.schemas)().all);
    }
}

macro_rules! any_schema {
    ($name:ident, $field:ident, $doc:literal) => {
        #[doc = $doc]
        pub struct $name;

        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                one_of(|s| &s.$field, $doc)
            }
        }

        impl ToSchema for $name {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($name))
            }

            fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
                all_ruleset_schemas(schemas);
            }
        }
    };
}

any_schema!(
    AnyAction,
    action,
    "An action of the game's ruleset: one of the rulesets' action schemas."
);
any_schema!(
    AnyEvent,
    event,
    "An event of the game's ruleset: one of the rulesets' event schemas."
);
any_schema!(
    AnyView,
    view,
    "What the caller may see of a game: one of the rulesets' view schemas."
);
any_schema!(
    AnyOptions,
    options,
    "Options of a ruleset: one of the rulesets' option schemas."
);

/// The `webhook` option of a new game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookOption {
    /// Where to post the game's notices: an `http` or `https` URL (at most 2048 bytes) whose host
    /// the server's operator allows (`ROADIE_WEBHOOK_HOSTS`).
    #[schema(example = "https://bots.example.com/roadie")]
    pub url: String,
}

/// The game's webhook, in the creation's answer.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CreatedWebhook {
    /// The URL notices go to.
    pub url: String,
    /// The HMAC-SHA256 key of the game's notices (64 hex digits, used as these ASCII bytes).
    /// Shown only here: keep it.
    pub secret: String,
}

impl From<&Webhook> for CreatedWebhook {
    fn from(webhook: &Webhook) -> Self {
        Self {
            url: webhook.url.clone(),
            secret: webhook.secret.clone(),
        }
    }
}
