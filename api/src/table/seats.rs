//! The seat table: who sits in each seat of a game (a named player, nobody yet, or a bot), each
//! seat's token generation, and the rules for joining, resigning, replacing and reissuing.
//!
//! A seat token carries its seat's generation (`gen`); a reissue, a resignation or a
//! replacement by a bot bumps it, so every older token of that seat is refused (`401
//! token_revoked`) by whichever process loads the game next. It also carries the random number
//! of the grant that issued it (`grant`): every change of a seat (creation, join, reissue,
//! resignation, replacement) draws a new one, so a token granted by a write that the store later
//! lost (Redis restarted from an older snapshot) never matches the seat again, even when the
//! generation counts up to the same number a second time.

use std::sync::Arc;

use roadie_engine::BotLevel;
use roadie_engine::{Audience, Seat, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;

use super::bots::play_bots;
use super::clock;
use super::rating::RatedSeat;
use super::refusal::{Code, Refusal};
use super::{Change, Refused, StoredEvent, Table, Transition};

/// The longest a display name may be, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// What a seat token shows of the grant that issued it, checked against the seat table where
/// the game is loaded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Credential {
    /// The seat's token generation when the token was issued.
    pub generation: u32,
    /// The grant's random number (`None` in tokens issued before grants were numbered).
    pub grant: Option<u64>,
}

/// An app's player, by the id the app gives it: what a player token proves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerRef {
    /// The app.
    pub app: Arc<str>,
    /// The player's id in the app (opaque, 1 to 128 bytes).
    pub player: Arc<str>,
}

/// What a caller holds for a game, proven at the edge and checked against the table.
#[derive(Clone, Debug)]
pub enum Holder {
    /// A seat token of the game, with its credential; or nothing (a spectator), with the
    /// default credential.
    Token(Credential),
    /// A player token of an app: it opens the seats that player holds in the app's games.
    Player(PlayerRef),
    /// An app's API key: it sees and manages the app's games.
    App(Arc<str>),
}

impl Default for Holder {
    fn default() -> Self {
        Self::Token(Credential::default())
    }
}

/// What a caller presents for a game: what it holds, and the seat its seat token plays or its
/// player names (`?seat=N`, or a seat in the path). Nothing at all is a spectator's pass.
#[derive(Clone, Debug, Default)]
pub struct Pass {
    /// What the caller holds.
    pub holder: Holder,
    /// A seat token's seat, or the seat a player names.
    pub seat: Option<Seat>,
}

impl Pass {
    /// The seat a seat token plays, known without the game.
    pub fn token_seat(&self) -> Option<Seat> {
        match (&self.holder, self.seat) {
            (Holder::Token(_), Some(seat)) => Some(seat),
            _ => None,
        }
    }

    /// A seat token's pass.
    pub fn token(seat: Seat, credential: Credential) -> Self {
        Self {
            holder: Holder::Token(credential),
            seat: Some(seat),
        }
    }
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Occupant {
    /// A person (or program) holding the seat's token; games created before names existed
    /// have players without one.
    Player {
        /// The display name given at creation or when joining.
        name: Option<String>,
        /// The app's id of the player, when the game's app seated one by id: that player's
        /// token opens the seat.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
    },
    /// Nobody yet: anyone may join it.
    Open,
    /// A bot, which plays inside the request that hands it the turn.
    Bot {
        /// How well it plays.
        level: BotLevel,
    },
}

/// One seat of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatEntry {
    /// Who sits there.
    pub occupant: Occupant,
    /// The generation a token of this seat must carry to be honoured.
    pub generation: u32,
    /// The random number of the seat's last grant, which its token must carry; `None` for a
    /// seat last granted before grants were numbered, whose tokens carry none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grant: Option<u64>,
}

impl SeatEntry {
    fn player(name: Option<String>) -> Self {
        Self {
            occupant: Occupant::Player { name, player: None },
            generation: 0,
            grant: None,
        }
    }

    /// A seat of `occupant` granted now: a fresh grant number at generation 0.
    fn granted(occupant: Occupant) -> Self {
        Self {
            occupant,
            generation: 0,
            grant: Some(rand::random()),
        }
    }

    /// What a token of this seat must carry.
    pub fn credential(&self) -> Credential {
        Credential {
            generation: self.generation,
            grant: self.grant,
        }
    }
}

/// Every seat of a game, in seat order, and when the game was created. Empty for a game stored
/// before seats had occupants: then every seat is an unnamed player at generation 0.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatTable {
    entries: Vec<SeatEntry>,
    /// When the game was created (seconds since the epoch; 0 if unknown).
    #[serde(default)]
    pub created: u64,
}

impl SeatTable {
    /// The entry of `seat`.
    pub fn entry(&self, seat: Seat) -> SeatEntry {
        self.entries
            .get(seat.index())
            .cloned()
            .unwrap_or_else(|| SeatEntry::player(None))
    }

    fn entry_mut(&mut self, seat: Seat, seats: usize) -> &mut SeatEntry {
        while self.entries.len() < seats {
            self.entries.push(SeatEntry::player(None));
        }
        &mut self.entries[seat.index()]
    }

    /// The bot level of `seat`, if a bot sits there.
    pub fn bot(&self, seat: Seat) -> Option<BotLevel> {
        match self.entries.get(seat.index())?.occupant {
            Occupant::Bot { level } => Some(level),
            _ => None,
        }
    }

    /// The seats `player` holds, in order.
    pub fn seats_of(&self, player: &str) -> Vec<Seat> {
        Seat::all(self.entries.len())
            .zip(&self.entries)
            .filter(|(_, entry)| {
                matches!(&entry.occupant, Occupant::Player { player: Some(p), .. } if p == player)
            })
            .map(|(seat, _)| seat)
            .collect()
    }

    /// Every player id seated, in seat order (a player holding two seats is listed twice).
    pub fn player_ids(&self) -> impl Iterator<Item = &str> + '_ {
        self.entries.iter().filter_map(|entry| match &entry.occupant {
            Occupant::Player { player: Some(p), .. } => Some(p.as_str()),
            _ => None,
        })
    }

    /// The open seats, in order.
    pub fn open_seats(&self) -> Vec<Seat> {
        Seat::all(self.entries.len())
            .zip(&self.entries)
            .filter(|(_, entry)| entry.occupant == Occupant::Open)
            .map(|(seat, _)| seat)
            .collect()
    }

    /// The seats a player holds, in order.
    pub fn players(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::all(self.entries.len())
            .zip(&self.entries)
            .filter(|(_, entry)| matches!(entry.occupant, Occupant::Player { .. }))
            .map(|(seat, _)| seat)
    }

    /// The seat whose grant differs from its grant in `before`: the seat a seat change changed
    /// (timeouts and bots draw no grant).
    pub fn regranted(&self, before: &SeatTable) -> Option<Seat> {
        Seat::all(self.entries.len()).find(|&seat| self.entry(seat).grant != before.entry(seat).grant)
    }

    /// Whether any seat is held by a bot of a level `held` accepts.
    pub fn has_bot(&self, held: impl Fn(BotLevel) -> bool) -> bool {
        self.entries
            .iter()
            .any(|e| matches!(e.occupant, Occupant::Bot { level } if held(level)))
    }

    /// Whether any seat is open.
    pub fn has_open_seat(&self) -> bool {
        self.entries.iter().any(|e| e.occupant == Occupant::Open)
    }

    /// The public description of every seat of a game of `seats` seats.
    pub fn describe(&self, seats: usize) -> Vec<SeatInfo> {
        Seat::all(seats)
            .map(|seat| {
                let entry = self.entry(seat);
                let (occupant, name, player, level) = match entry.occupant {
                    Occupant::Player { name, player } => (OccupantKind::Player, name, player, None),
                    Occupant::Open => (OccupantKind::Open, None, None, None),
                    Occupant::Bot { level } => (OccupantKind::Bot, None, None, Some(level)),
                };
                SeatInfo {
                    seat,
                    occupant,
                    name,
                    player,
                    level,
                }
            })
            .collect()
    }

    /// `401 token_revoked` unless a token of `viewer`'s seat carrying `credential` is still
    /// honoured: its generation is the seat's, and so is its grant when the seat's last grant
    /// was numbered. A seat last granted by a process from before grants were numbered (during
    /// a rolling upgrade, say) holds none, and its generation alone decides, as it did then.
    pub fn admit(&self, viewer: Viewer, credential: Credential) -> Result<(), Refusal> {
        let Viewer::Seat(seat) = viewer else {
            return Ok(());
        };
        let entry = self.entry(seat);
        let honoured = entry.generation == credential.generation
            && (entry.grant.is_none() || entry.grant == credential.grant);
        if honoured {
            return Ok(());
        }
        Err(Refusal::new(
            Code::TokenRevoked,
            format!(
                "this token of seat {seat} was replaced (reissued, resigned, given to a bot, or \
                 granted by a change the game no longer holds)"
            ),
        ))
    }
}

/// What kind of occupant a seat has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OccupantKind {
    /// A player holding the seat's token.
    Player,
    /// Nobody yet: `POST /v1/games/{id}/seats/{seat}` joins it.
    Open,
    /// A bot: it plays inside the request that hands it the turn.
    Bot,
}

/// A seat as everyone may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatInfo {
    /// The seat.
    pub seat: Seat,
    /// Who sits there.
    pub occupant: OccupantKind,
    /// The player's display name, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The player's id in the game's app, when the app seated a player by id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The bot's level, for a bot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<BotLevel>,
}

/// One seat as a game is created with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatSpec {
    /// `{"open": true}`: left for anyone to join.
    Open,
    /// `{"name": "Ann"}`: a named player, whose token the creation returns.
    Player(String),
    /// `{"player": "u123", "name": "Ann"}`: an app's player, by the app's id of it (the name is
    /// optional); that player's token opens the seat, and the creation returns a seat token too.
    Member {
        /// The app's id of the player.
        player: String,
        /// The display name.
        name: Option<String>,
    },
    /// `{"bot": "random"}`, `{"bot": "greedy"}` or `{"bot": "expert"}`: a bot.
    Bot(BotLevel),
}

impl<'de> Deserialize<'de> for SeatSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// A field that is absent is `None`; one that is present must hold a value (never
        /// `null`, which the document does not allow).
        fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
            d: D,
        ) -> Result<Option<T>, D::Error> {
            T::deserialize(d).map(Some)
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Fields {
            #[serde(default, deserialize_with = "present")]
            open: Option<bool>,
            #[serde(default, deserialize_with = "present")]
            name: Option<String>,
            #[serde(default, deserialize_with = "present")]
            bot: Option<BotLevel>,
            #[serde(default, deserialize_with = "present")]
            player: Option<String>,
        }
        let shape = "a seat is {\"open\": true}, {\"name\": \"...\"}, {\"player\": \"<id>\", \"name\": \"...\"} or {\"bot\": \"random\" | \"greedy\" | \"expert\"}";
        let fields = Fields::deserialize(d).map_err(|e| serde::de::Error::custom(format!("{shape}: {e}")))?;
        match fields {
            Fields {
                open: Some(true),
                name: None,
                bot: None,
                player: None,
            } => Ok(SeatSpec::Open),
            Fields {
                open: None,
                name: Some(name),
                bot: None,
                player: None,
            } => Ok(SeatSpec::Player(name)),
            Fields {
                open: None,
                name,
                bot: None,
                player: Some(player),
            } if (1..=128).contains(&player.len()) => Ok(SeatSpec::Member { player, name }),
            Fields {
                open: None,
                name: None,
                bot: Some(level),
                player: None,
            } => Ok(SeatSpec::Bot(level)),
            _ => Err(serde::de::Error::custom(shape)),
        }
    }
}

impl utoipa::PartialSchema for SeatSpec {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Type};
        ObjectBuilder::new()
            .property(
                "open",
                ObjectBuilder::new()
                    .schema_type(Type::Boolean)
                    .enum_values(Some([true]))
                    .description(Some("An open seat: anyone may join it.")),
            )
            .property(
                "name",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .min_length(Some(1))
                    .max_length(Some(MAX_NAME_CHARS))
                    .pattern(Some(NAME_PATTERN))
                    .description(Some("A named player: the creation returns its token.")),
            )
            .property(
                "bot",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some(["random", "greedy"]))
                    .description(Some("A bot of this level.")),
            )
            .min_properties(Some(1))
            .max_properties(Some(1))
            .additional_properties(Some(AdditionalProperties::FreeForm(false)))
            .description(Some(
                "One seat as the game is created with it: exactly one of `open`, `name` or `bot`.",
            ))
            .into()
    }
}

impl ToSchema for SeatSpec {}

/// A display name, checked: at most [`MAX_NAME_CHARS`] characters, no control characters, and
/// at least one character once trimmed (the name kept). `422 invalid_name` otherwise.
pub fn display_name(raw: &str) -> Result<String, Refusal> {
    let name = raw.trim();
    let chars = raw.chars().count();
    if name.is_empty() || chars > MAX_NAME_CHARS {
        return Err(Refusal::new(
            Code::InvalidName,
            format!("a name is 1 to {MAX_NAME_CHARS} characters, not all spaces; this one has {chars}"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(Refusal::new(
            Code::InvalidName,
            "a name is plain text: no control characters (line breaks, tabs, escapes)",
        ));
    }
    Ok(name.to_owned())
}

/// The seat table a creation at `now_ms` asks for: `specs` (one per seat), or `count` seats,
/// all open when `open` is set, else all players.
pub fn table_of(
    count: usize,
    specs: Option<&[SeatSpec]>,
    open: bool,
    now_ms: u64,
) -> Result<SeatTable, Refusal> {
    let entries = match specs {
        None => (0..count)
            .map(|_| {
                SeatEntry::granted(if open {
                    Occupant::Open
                } else {
                    Occupant::Player {
                        name: None,
                        player: None,
                    }
                })
            })
            .collect(),
        Some(_) if open => {
            return Err(Refusal::new(
                Code::InvalidSeats,
                "\"open\": true goes with a number of seats; with a list, mark each open seat {\"open\": true}",
            ));
        }
        Some(specs) => specs
            .iter()
            .map(|spec| {
                Ok(SeatEntry::granted(match spec {
                    SeatSpec::Open => Occupant::Open,
                    SeatSpec::Player(name) => Occupant::Player {
                        name: Some(display_name(name)?),
                        player: None,
                    },
                    SeatSpec::Member { player, name } => Occupant::Player {
                        name: name.as_deref().map(display_name).transpose()?,
                        player: Some(player.clone()),
                    },
                    SeatSpec::Bot(level) => Occupant::Bot { level: *level },
                }))
            })
            .collect::<Result<_, Refusal>>()?,
    };
    Ok(SeatTable {
        entries,
        created: now_ms / 1000,
    })
}

/// A seat event: who sits where changed. Public, and in the log like the rules' events.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SeatEvent {
    /// A player joined an open seat.
    SeatTaken {
        /// The seat.
        seat: Seat,
        /// The player's display name.
        name: String,
    },
    /// The seat's player resigned: a bot plays the seat from now on.
    SeatResigned {
        /// The seat.
        seat: Seat,
        /// The bot that took it over.
        level: BotLevel,
    },
    /// The game's app handed the seat to one of its players: that player's token opens it, and
    /// every earlier token of the seat is refused.
    SeatHanded {
        /// The seat.
        seat: Seat,
        /// The app's id of the player.
        player: String,
        /// The player's display name, if the app gave one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// The host gave the seat to a bot.
    SeatReplaced {
        /// The seat.
        seat: Seat,
        /// The bot that sits there now.
        level: BotLevel,
    },
    /// The host issued the seat a new token: every earlier token of the seat is refused from now
    /// on.
    TokenReissued {
        /// The seat.
        seat: Seat,
    },
}

impl SeatEvent {
    fn stored(&self) -> Result<StoredEvent, Refusal> {
        let body = serde_json::to_string(self)
            .and_then(RawValue::from_string)
            .map_err(|e| {
                tracing::error!(error = %e, "could not serialize a seat event");
                Refusal::internal()
            })?;
        Ok(StoredEvent {
            audience: Audience::Everyone,
            body,
        })
    }
}

/// A `seat_taken` event for each named player of `specs`: how a game whose players were seated
/// for them (by matchmaking) says in its log who sits where.
pub fn seats_taken(specs: &[SeatSpec]) -> Result<Vec<StoredEvent>, Refusal> {
    Seat::all(specs.len())
        .zip(specs)
        .filter_map(|(seat, spec)| match spec {
            SeatSpec::Player(name) | SeatSpec::Member { name: Some(name), .. } => Some(
                SeatEvent::SeatTaken {
                    seat,
                    name: name.clone(),
                }
                .stored(),
            ),
            _ => None,
        })
        .collect()
}

/// What a name may hold, as a JSON Schema pattern: no control characters, and something other
/// than spaces.
pub const NAME_PATTERN: &str = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$";

/// Which seat a join asks for.
#[derive(Clone, Copy, Debug)]
pub enum Wanted {
    /// The first open seat.
    FirstOpen,
    /// This seat.
    Seat(Seat),
}

/// A change of one seat, as a value: judged against the game as it is at `now`, after the
/// timeouts that came due before it (a deadline is the rule), and written with them.
#[derive(Clone, Debug)]
pub enum SeatChange {
    /// A person takes an open seat under `name` (already checked by [`display_name`]).
    Join {
        /// Which seat.
        wanted: Wanted,
        /// The display name.
        name: String,
        /// What the joining caller holds: a player token seats its player by id; an app's
        /// credential must be the game's app's.
        holder: Holder,
    },
    /// The host gives the seat's player a new token; every earlier one is refused.
    Reissue {
        /// The seat.
        seat: Seat,
    },
    /// The seat's player, holding `holder`, resigns; a bot of `level` plays on.
    Resign {
        /// The seat.
        seat: Seat,
        /// What the resigning caller holds.
        holder: Holder,
        /// The bot that takes over.
        level: BotLevel,
    },
    /// The host gives the seat to a bot of `level`.
    Replace {
        /// The seat.
        seat: Seat,
        /// The bot that takes over.
        level: BotLevel,
    },
    /// The game's app hands the seat to the player `player` (whose token then opens it); every
    /// earlier token of the seat is refused.
    Hand {
        /// The seat.
        seat: Seat,
        /// The app's id of the player.
        player: String,
        /// The player's display name.
        name: Option<String>,
    },
}

fn seat_of(game: &Table, seat: Seat) -> Result<Seat, Refusal> {
    if seat.index() < game.game.seat_count() {
        Ok(seat)
    } else {
        Err(Refusal::new(
            Code::SeatNotFound,
            format!(
                "this game has seats 0 to {}",
                game.game.seat_count().saturating_sub(1)
            ),
        ))
    }
}

impl SeatChange {
    /// The seat the change is about, its new occupant and announcement, and whether it bumps
    /// the seat's generation (revoking its tokens), judged against `table`.
    fn judge(&self, table: &Table) -> Result<(Seat, Occupant, SeatEvent, bool), Refusal> {
        match self {
            SeatChange::Join { wanted, name, holder } => {
                table.admit(Viewer::Spectator, holder)?;
                let player = match holder {
                    Holder::Player(who) => Some(who.player.to_string()),
                    _ => None,
                };
                let seat = match *wanted {
                    Wanted::Seat(seat) => {
                        let seat = seat_of(table, seat)?;
                        if table.seats.entry(seat).occupant != Occupant::Open {
                            return Err(Refusal::new(Code::SeatTaken, format!("seat {seat} is not open")));
                        }
                        seat
                    }
                    Wanted::FirstOpen => {
                        *table.seats.open_seats().first().ok_or_else(|| {
                            Refusal::new(Code::NoOpenSeat, "every seat of this game is taken")
                        })?
                    }
                };
                if table.is_over() {
                    return Err(Refusal::new(
                        Code::GameOver,
                        "the game is over: no seat can be joined",
                    ));
                }
                let occupant = Occupant::Player {
                    name: Some(name.clone()),
                    player,
                };
                let event = SeatEvent::SeatTaken {
                    seat,
                    name: name.clone(),
                };
                Ok((seat, occupant, event, false))
            }
            SeatChange::Reissue { seat } => {
                let seat = seat_of(table, *seat)?;
                match table.seats.entry(seat).occupant {
                    occupant @ Occupant::Player { .. } => {
                        Ok((seat, occupant, SeatEvent::TokenReissued { seat }, true))
                    }
                    _ => Err(Refusal::new(
                        Code::SeatNotPlayed,
                        format!("seat {seat} has no player to hold a token: join it, or it is a bot's"),
                    )),
                }
            }
            SeatChange::Resign { seat, level, .. } | SeatChange::Replace { seat, level } => {
                let seat = seat_of(table, *seat)?;
                if let SeatChange::Resign { holder, .. } = self {
                    table.admit(Viewer::Seat(seat), holder)?;
                }
                if table.is_over() {
                    return Err(Refusal::new(
                        Code::GameOver,
                        "the game is over: its seats stay as they were",
                    ));
                }
                let event = match self {
                    SeatChange::Resign { .. } => SeatEvent::SeatResigned { seat, level: *level },
                    _ => SeatEvent::SeatReplaced { seat, level: *level },
                };
                Ok((seat, Occupant::Bot { level: *level }, event, true))
            }
            SeatChange::Hand { seat, player, name } => {
                let seat = seat_of(table, *seat)?;
                if table.is_over() {
                    return Err(Refusal::new(
                        Code::GameOver,
                        "the game is over: its seats stay as they were",
                    ));
                }
                let occupant = Occupant::Player {
                    name: name.clone(),
                    player: Some(player.clone()),
                };
                let event = SeatEvent::SeatHanded {
                    seat,
                    player: player.clone(),
                    name: name.clone(),
                };
                Ok((seat, occupant, event, true))
            }
        }
    }

    /// The change applied to `table` at `now`, with the seat it changed: the timeouts due by
    /// `now` first, then the seat's new occupant with a new grant number (and its generation
    /// bumped when its tokens are revoked), its announcement, and the bots' moves it lets
    /// happen.
    pub fn apply(&self, table: &Table, now: u64) -> Result<(Transition, Seat), Refusal> {
        let (base, mut log) = clock::due_at(table, now);
        let (seat, occupant, event, bump) = self.judge(&base)?;
        let mut seats = base.seats.clone();
        let entry = seats.entry_mut(seat, base.game.seat_count());
        entry.occupant = occupant;
        if bump {
            entry.generation = entry.generation.wrapping_add(1);
        }
        entry.grant = Some(rand::random());
        log.note(event.stored()?);
        let mut game = base.game.clone();
        if !game.is_over() {
            log.append(play_bots(&mut game, |seat| seats.bot(seat), now));
        }
        let clock = base
            .clock
            .as_ref()
            .map(|clock| clock.after(None, &game.to_act(), now));
        let mut rated = base.rated.clone();
        if let Some(rated) = &mut rated {
            // A rated seat left by its player (to a bot, or to someone else) is its forfeit.
            let kept = match (&seats.entry(seat).occupant, rated.seats.get(seat.index())) {
                (
                    Occupant::Player {
                        player: Some(now), ..
                    },
                    Some(RatedSeat::Player { player, .. }),
                ) => now == player,
                (Occupant::Bot { .. }, Some(RatedSeat::Bot { .. })) => true,
                _ => false,
            };
            if !kept {
                rated.forfeit(seat);
            }
        }
        let next = Table {
            seats,
            rated,
            ..table.succeeded_by(game, log.len() as u64, clock, now)
        };
        Ok((Transition::new(next, log), seat))
    }
}

impl Change for SeatChange {
    fn apply(&self, table: &Table, now: u64) -> Result<Option<Transition>, Refused> {
        SeatChange::apply(self, table, now)
            .map(|(transition, _)| Some(transition))
            .map_err(Refused::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Revision;
    use crate::table::bots::play_bots;
    use roadie_engine::AnyGame;

    #[test]
    fn a_name_is_trimmed_plain_text_of_one_to_32_characters() {
        assert_eq!(display_name("  Ann ").expect("a name"), "Ann");
        assert_eq!(
            display_name(&"é".repeat(32))
                .expect("32 characters")
                .chars()
                .count(),
            32
        );
        for bad in ["", "   ", "a\nb", "\u{1b}[1mAnn", "tab\there", &"x".repeat(33)] {
            assert_eq!(
                display_name(bad).expect_err(bad).code(),
                Code::InvalidName,
                "{bad:?}"
            );
        }
    }

    #[test]
    fn a_seat_spec_is_exactly_one_of_open_name_or_bot() {
        let parse = |text: &str| serde_json::from_str::<SeatSpec>(text);
        assert_eq!(parse(r#"{"open": true}"#).expect("open"), SeatSpec::Open);
        assert_eq!(
            parse(r#"{"name": "Ann"}"#).expect("name"),
            SeatSpec::Player("Ann".into())
        );
        assert_eq!(
            parse(r#"{"bot": "greedy"}"#).expect("bot"),
            SeatSpec::Bot(BotLevel::Greedy)
        );
        for bad in [
            r#"{}"#,
            r#"{"open": false}"#,
            r#"{"open": true, "bot": "random"}"#,
            r#"{"bot": "smart"}"#,
            r#"{"seat": 1}"#,
            r#"{"bot": "greedy", "open": null}"#,
            r#"{"name": null}"#,
            "3",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    fn at(generation: u32, grant: Option<u64>) -> Credential {
        Credential { generation, grant }
    }

    #[test]
    fn only_the_current_generation_and_grant_of_a_seat_are_admitted() {
        let mut table = table_of(3, None, false, 0).expect("a table");
        let first = table.entry(Seat::new(1)).credential();
        assert!(first.grant.is_some(), "a created seat is granted with a number");
        assert!(table.admit(Viewer::Seat(Seat::new(1)), first).is_ok());
        table.entry_mut(Seat::new(1), 3).generation += 1;
        assert_eq!(
            table
                .admit(Viewer::Seat(Seat::new(1)), first)
                .expect_err("revoked")
                .code(),
            Code::TokenRevoked
        );
        assert!(
            table
                .admit(Viewer::Seat(Seat::new(1)), at(1, first.grant))
                .is_ok()
        );
        assert!(
            table
                .admit(Viewer::Seat(Seat::new(0)), table.entry(Seat::new(0)).credential())
                .is_ok(),
            "other seats keep theirs"
        );
        assert!(table.admit(Viewer::Spectator, Credential::default()).is_ok());
    }

    #[test]
    fn a_token_of_the_right_generation_from_another_grant_is_revoked() {
        let table = table_of(2, None, false, 0).expect("a table");
        let seat = table.entry(Seat::new(0)).credential();
        let lost = at(seat.generation, seat.grant.map(|g| g.wrapping_add(1)));
        assert_eq!(
            table
                .admit(Viewer::Seat(Seat::new(0)), lost)
                .expect_err("revoked")
                .code(),
            Code::TokenRevoked
        );
        assert_eq!(
            table
                .admit(Viewer::Seat(Seat::new(0)), at(seat.generation, None))
                .expect_err("an unnumbered token no longer matches a numbered grant")
                .code(),
            Code::TokenRevoked
        );
    }

    #[test]
    fn every_seat_of_a_new_table_has_its_own_grant() {
        let table = table_of(4, None, false, 0).expect("a table");
        let grants: std::collections::HashSet<_> = Seat::all(4).map(|seat| table.entry(seat).grant).collect();
        assert_eq!(grants.len(), 4, "{grants:?}");
    }

    #[test]
    fn open_with_a_list_is_refused_and_open_with_a_count_opens_every_seat() {
        let open = table_of(3, None, true, 0).expect("open");
        assert_eq!(open.open_seats(), [0, 1, 2].map(Seat::new));
        assert_eq!(open.players().count(), 0);
        let err = table_of(1, Some(&[SeatSpec::Open]), true, 0).expect_err("refused");
        assert_eq!(err.code(), Code::InvalidSeats);
    }

    #[test]
    fn bots_play_until_a_person_is_to_act() {
        let (mut game, _) = AnyGame::setup("shrewd-producer", None, 3, 5).expect("setup");
        let table = table_of(
            3,
            Some(&[
                SeatSpec::Bot(BotLevel::Random),
                SeatSpec::Bot(BotLevel::Random),
                SeatSpec::Bot(BotLevel::Random),
            ]),
            false,
            0,
        )
        .expect("bots");
        let events = play_bots(&mut game, |seat| table.bot(seat), 0);
        assert!(game.is_over(), "three bots play a game to its end");
        assert!(!events.is_empty());
        let (mut game, _) = AnyGame::setup("shrewd-producer", None, 3, 5).expect("setup");
        let one_person = table_of(
            3,
            Some(&[
                SeatSpec::Player("Ann".into()),
                SeatSpec::Bot(BotLevel::Random),
                SeatSpec::Bot(BotLevel::Greedy),
            ]),
            false,
            0,
        )
        .expect("table");
        play_bots(&mut game, |seat| one_person.bot(seat), 0);
        assert!(!game.is_over());
        assert!(
            game.to_act().iter().all(|&seat| one_person.bot(seat).is_none()),
            "{:?}",
            game.to_act()
        );
    }

    #[test]
    fn a_game_stored_before_seat_tables_reads_back_with_every_seat_a_player() {
        let (game, _) = AnyGame::setup("shrewd-producer", None, 3, 5).expect("setup");
        let stored = Table {
            id: "g".into(),
            revision: Revision::first(),
            events: 0,
            seed: 5,
            salt: "00".into(),
            clock: None,
            game,
            seats: SeatTable::default(),
            webhook: None,
            app: None,
            options: None,
            rules_version: 1,
            forked_from: None,
            aborted: false,
            rated: None,
            notices: Vec::new(),
        };
        let mut old = serde_json::to_value(&stored).expect("json");
        old.as_object_mut().expect("an object").remove("seats");
        let bytes = rmp_serde::to_vec_named(&old).expect("messagepack");
        let back: Table = rmp_serde::from_slice(&bytes).expect("an old game still reads");
        assert_eq!(back.seats, SeatTable::default());
        assert_eq!(back.seats.players().count(), 0);
        let seats = back.seats.describe(3);
        assert!(
            seats
                .iter()
                .all(|s| s.occupant == OccupantKind::Player && s.name.is_none())
        );
        assert!(
            back.seats.admit(Viewer::Seat(Seat::new(2)), at(0, None)).is_ok(),
            "its tokens (generation 0, no grant number) still work"
        );
        assert!(
            back.seats
                .admit(Viewer::Seat(Seat::new(2)), at(0, Some(7)))
                .is_ok(),
            "a seat whose entry holds no grant number (written by an older process) is judged by \
             its generation alone, so a rolling upgrade refuses nobody"
        );
        assert_eq!(
            back.seats
                .admit(Viewer::Seat(Seat::new(2)), at(1, Some(7)))
                .expect_err("another generation")
                .code(),
            Code::TokenRevoked
        );
    }
}
