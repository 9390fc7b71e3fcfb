//! Why the core says no: a [`Refusal`] is a [`Code`] from one closed list, a detail for a person,
//! and what some codes carry. It knows nothing of HTTP: the edge maps each [`Kind`] to a status
//! (`http::problem`).

use roadie_engine::{Rejection, RejectionCode, Seat};
use serde::Serialize;
use serde_json::value::RawValue;

use super::Revision;

/// The kinds of refusal, each answered with one HTTP status at the edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The request cannot be read (400).
    Malformed,
    /// No valid token came with it (401).
    Unauthenticated,
    /// The token does not allow it (403).
    Forbidden,
    /// What it names does not exist (404).
    NotFound,
    /// The route does not take the method (405).
    WrongMethod,
    /// The body came too slowly (408).
    TooSlow,
    /// The game's state does not allow it now (409).
    Conflict,
    /// A precondition names a revision the game is not at (412).
    Stale,
    /// The body is too large (413).
    TooLarge,
    /// The request is well formed but its values are refused (422).
    Invalid,
    /// Over a limit: try again later (429).
    Throttled,
    /// The store cannot serve it now (503).
    Unavailable,
    /// A fault of the server (500).
    Fault,
}

macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $text:literal, $kind:ident, $advice:literal;)+) => {
        /// Every problem the service reports. Each code is of one [`Kind`], and a client can act on
        /// the code alone; `detail` says more, for a person.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $($(#[$doc])* #[doc = $advice] $variant,)+
        }

        impl Code {
            /// Every code, in the order the document lists them.
            pub const ALL: &'static [Code] = &[$(Code::$variant),+];

            /// The code as sent in `code` and `type`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $text,)+
                }
            }

            /// The kind of refusal every problem with this code is.
            pub fn kind(self) -> Kind {
                match self {
                    $(Code::$variant => Kind::$kind,)+
                }
            }

            /// What the code means and what the client should do.
            pub fn advice(self) -> &'static str {
                match self {
                    $(Code::$variant => $advice,)+
                }
            }
        }
    };
}

codes! {
    MalformedJson = "malformed_json", Malformed,
        "The body is not JSON of the expected shape, or has unknown fields. Fix the request.";
    MalformedAction = "malformed_action", Malformed,
        "The action is not one of the ruleset's actions; `legal_actions` lists what the seat may post.";
    MalformedQuery = "malformed_query", Malformed,
        "A query parameter is not of its documented type. Fix the request.";
    MalformedHeader = "malformed_header", Malformed,
        "A header is not visible ASCII. Fix the request.";
    MalformedPrecondition = "malformed_precondition", Malformed,
        "`If-Match` or `If-None-Match` is not `*` or entity tags. Send the `ETag` as it was given.";
    MalformedIdempotencyKey = "malformed_idempotency_key", Malformed,
        "`Idempotency-Key` is not 1 to 200 visible ASCII characters.";
    UnreadableBody = "unreadable_body", Malformed,
        "The body could not be read (the connection broke while it was sent). Send it again.";
    TokenMissing = "token_missing", Unauthenticated,
        "The call needs `Authorization: Bearer <token>`.";
    TokenInvalid = "token_invalid", Unauthenticated,
        "The token is not one this service signed, or the header is not `Bearer <token>`.";
    TokenExpired = "token_expired", Unauthenticated,
        "The token has expired.";
    TokenRevoked = "token_revoked", Unauthenticated,
        "The seat's token was replaced (the host reissued it, the seat resigned or was given to a bot). Ask the host for the new one.";
    WrongGame = "wrong_game", Forbidden,
        "The token belongs to another game.";
    SeatRequired = "seat_required", Forbidden,
        "The call needs a seat's token; the host token has no seat.";
    HostRequired = "host_required", Forbidden,
        "Only the host token may do this.";
    NotYourSeat = "not_your_seat", Forbidden,
        "The token plays another seat than the path names.";
    AppRequired = "app_required", Unauthenticated,
        "Apps are configured on this server: the call needs an app's credential, its API key or one of its players' tokens (`Authorization: Bearer <key or token>`).";
    RulesetNotAllowed = "ruleset_not_allowed", Forbidden,
        "The app may not create games of this ruleset (its `limits.rulesets`).";
    NoSuchSeat = "no_such_seat", Forbidden,
        "The token names a seat the game does not have.";
    SeatNotFound = "seat_not_found", NotFound,
        "The game has no such seat; `seats` in the game says how many it has.";
    GameNotFound = "game_not_found", NotFound,
        "No game has this id (it never existed, was deleted, or expired).";
    PlayerNotFound = "player_not_found", NotFound,
        "The app has no player by this id with a rated game (or the player is another app's).";
    TicketNotFound = "ticket_not_found", NotFound,
        "No matchmaking ticket has this id (it never existed, or it was forgotten some minutes after it ended).";
    RulesetNotFound = "ruleset_not_found", NotFound,
        "No ruleset has this slug; `GET /v1/rulesets` lists them.";
    RouteNotFound = "route_not_found", NotFound,
        "No route has this path.";
    MethodNotAllowed = "method_not_allowed", WrongMethod,
        "The route does not take this method; `Allow` lists those it takes.";
    BodyTimeout = "body_timeout", TooSlow,
        "The body did not arrive within the server's time; the connection is closed. Send it whole, faster.";
    NotYourTurn = "not_your_turn", Conflict,
        "The seat may not act now; `to_act` lists who may. Wait for the game to change.";
    GameOver = "game_over", Conflict,
        "The game is over: nothing more can be posted.";
    GameNotFinished = "game_not_finished", Conflict,
        "The game is still being played: its record is written when it ends. Follow its events, or ask again once `status` is `finished`.";
    Contention = "contention", Conflict,
        "The game kept changing while the action was applied. Retry.";
    SeatTaken = "seat_taken", Conflict,
        "The seat is not open (someone joined it first, or it is a player's or a bot's). `occupants` in the game says which seats are open.";
    NoOpenSeat = "no_open_seat", Conflict,
        "Every seat of the game is taken. Find another game with `GET /v1/games?status=open`.";
    SeatNotPlayed = "seat_not_played", Conflict,
        "The seat has no player to hold a token (it is open or a bot's).";
    CursorAhead = "cursor_ahead", Conflict,
        "The cursor (`after`, `Last-Event-ID`) is beyond the end of the game's log, which `last_seq` gives: the events it names are not in the log (the store lost recent writes, or the number was made up). Read the game and resume from `last_seq` or earlier.";
    TicketMatched = "ticket_matched", Conflict,
        "The ticket was matched (or is being seated) and can no longer be cancelled; its `game` and `seat_token` are in `GET /v1/tickets/{id}`.";
    SeatAmbiguous = "seat_ambiguous", Conflict,
        "The player holds several seats of this game: name one with `?seat=N`.";
    AppLimitReached = "app_limit_reached", Throttled,
        "The app has as many live games as its `limits.live_games` allows; `detail` names the limit. Finish or abort one first.";
    IdempotencyKeyReused = "idempotency_key_reused", Conflict,
        "This `Idempotency-Key` was used for another action. Use a new key for a new action.";
    VersionMismatch = "version_mismatch", Stale,
        "`If-Match` does not name the game's revision; `current_revision` does. Read the game again.";
    PayloadTooLarge = "payload_too_large", TooLarge,
        "The body is larger than the server accepts.";
    IllegalAction = "illegal_action", Invalid,
        "The rules refuse the action now; `legal_actions` lists what the seat may post.";
    InvalidRecord = "invalid_record", Invalid,
        "The record does not replay to the step asked for (`detail` says where and why); `POST /v1/records/verify` checks it whole.";
    NotRatable = "not_ratable", Invalid,
        "A rated game seats only an app's players (each once) and bots, at least one player, and is not a fork; `detail` says which rule the creation broke.";
    InvalidSeats = "invalid_seats", Invalid,
        "The ruleset does not allow this many seats; `GET /v1/rulesets` says how many it does.";
    InvalidOptions = "invalid_options", Invalid,
        "The ruleset refuses these options; `GET /v1/rulesets/{ruleset}` lists them.";
    InvalidName = "invalid_name", Invalid,
        "A name is plain text of 1 to 32 characters once trimmed, without control characters.";
    InvalidTicket = "invalid_ticket", Invalid,
        "A ticket's `bots_after_secs` is at most the ticket's lifetime (`ROADIE_TICKET_TTL_SECS`); `detail` says which value was refused.";
    InvalidSeed = "invalid_seed", Invalid,
        "A seed is at most 2^53 - 1.";
    InvalidWebhook = "invalid_webhook", Invalid,
        "The webhook URL is not http(s), is over 2048 bytes, or names a host the server's operator does not allow (or the server allows none); `detail` says which.";
    InvalidClock = "invalid_clock", Invalid,
        "A clock gives each decision 1 to 86400 seconds and each seat a bank of 0 to 604800 seconds.";
    RateLimited = "rate_limited", Throttled,
        "Too many requests (games created by this address, or calls by this token). Retry after `Retry-After` seconds.";
    TooManyConnections = "too_many_connections", Throttled,
        "This address holds as many connections as it may; this one is closed. Reuse the others.";
    StoreUnavailable = "store_unavailable", Unavailable,
        "The game store did not answer and nothing was changed. Retry after `Retry-After` seconds.";
    OutcomeUnknown = "outcome_unknown", Unavailable,
        "The store did not confirm a write that may have been applied. Retry only with the same `Idempotency-Key` (it answers with the first outcome), or read the game first.";
    RulesVersionUnavailable = "rules_version_unavailable", Unavailable,
        "The game started under a version of its rules that this process does not play (a rolling upgrade is under way); nothing was changed. Retry after `Retry-After` seconds: a process that plays it answers. Reads work meanwhile.";
    StoreFull = "store_full", Unavailable,
        "The store is full and nothing was changed. New games are refused first, from a share of the store's memory on, so that running games keep room to finish in; a write to a running game is refused so only if the store filled up regardless. Retry later.";
    Internal = "internal", Fault,
        "A fault of the server, never of the request; it is logged.";
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// What some problems carry besides their code and detail.
#[derive(Debug, Default)]
pub enum Extra {
    /// Nothing more.
    #[default]
    Nothing,
    /// The seat's legal actions (`malformed_action`, `illegal_action`).
    LegalActions(Box<RawValue>),
    /// The seats that may act (`not_your_turn`).
    ToAct(Vec<Seat>),
    /// The game's revision (`version_mismatch`).
    Current(Revision),
    /// Seconds until the client may try again (`rate_limited`).
    RetryAfter(u64),
    /// The methods the route takes (`method_not_allowed`).
    Allow(String),
    /// The sequence number of the log's last event (`cursor_ahead`).
    LastSeq(u64),
}

/// Everything a request can fail with: a [`Code`], a detail for a person, and what some codes
/// carry.
#[derive(Debug, thiserror::Error)]
#[error("{detail}")]
pub struct Refusal {
    pub(crate) code: Code,
    pub(crate) detail: String,
    pub(crate) extra: Extra,
}

impl Refusal {
    /// A problem with `code`, explained by `detail`.
    pub fn new(code: Code, detail: impl Into<String>) -> Self {
        Self {
            code,
            detail: detail.into(),
            extra: Extra::Nothing,
        }
    }

    /// The code sent.
    pub fn code(&self) -> Code {
        self.code
    }

    /// `409 cursor_ahead`: `after` names an event beyond the log, whose last is `last_seq`.
    pub fn cursor_ahead(after: u64, last_seq: u64) -> Self {
        let mut error = Self::new(
            Code::CursorAhead,
            format!(
                "the log ends at event {last_seq}, before the cursor {after}: resume from {last_seq} or earlier"
            ),
        );
        error.extra = Extra::LastSeq(last_seq);
        error
    }

    /// With the seat's legal actions.
    pub fn with_legal_actions(mut self, legal_actions: Box<RawValue>) -> Self {
        self.extra = Extra::LegalActions(legal_actions);
        self
    }

    /// With the seats that may act.
    pub fn with_to_act(mut self, to_act: Vec<Seat>) -> Self {
        self.extra = Extra::ToAct(to_act);
        self
    }

    /// `404 game_not_found` for a game id that names no game.
    pub fn game_not_found(id: &str) -> Self {
        Self::new(Code::GameNotFound, format!("no game has the id {id:?}"))
    }

    /// `404`: no ticket has this id.
    pub fn ticket_not_found(id: &str) -> Self {
        Self::new(
            Code::TicketNotFound,
            format!("no matchmaking ticket has the id {id:?}"),
        )
    }

    /// `412`: `If-Match` does not name the game's revision.
    pub fn version_mismatch(current: Revision) -> Self {
        let mut error = Self::new(
            Code::VersionMismatch,
            format!("If-Match does not name the game's revision; the game is at revision {current}"),
        );
        error.extra = Extra::Current(current);
        error
    }

    /// `405`: the route takes only `allow` (methods separated by commas).
    pub fn method_not_allowed(method: &str, allow: &str) -> Self {
        let mut error = Self::new(
            Code::MethodNotAllowed,
            format!("this route does not take {method}; it takes {allow}"),
        );
        error.extra = Extra::Allow(allow.to_owned());
        error
    }

    /// `429`: over a rate limit, for `retry_after` seconds.
    pub fn rate_limited(retry_after: u64, detail: impl Into<String>) -> Self {
        let mut error = Self::new(Code::RateLimited, detail);
        error.extra = Extra::RetryAfter(retry_after.max(1));
        error
    }

    /// `503`: the game's rules version is not this process's; retry after `retry_after` seconds.
    pub fn rules_version_unavailable(retry_after: u64, detail: impl Into<String>) -> Self {
        let mut error = Self::new(Code::RulesVersionUnavailable, detail);
        error.extra = Extra::RetryAfter(retry_after.max(1));
        error
    }

    /// `413`: a body over `limit` bytes.
    pub fn payload_too_large(limit: usize) -> Self {
        Self::new(
            Code::PayloadTooLarge,
            format!("the body is larger than {limit} bytes"),
        )
    }

    /// `503 store_unavailable`: nothing was changed.
    pub fn store_unavailable() -> Self {
        Self::new(
            Code::StoreUnavailable,
            "the game store is unavailable; nothing was changed",
        )
    }

    /// `503 outcome_unknown`: a write may have been applied.
    pub fn outcome_unknown() -> Self {
        Self::new(
            Code::OutcomeUnknown,
            "the store did not confirm the write and it may have been applied; retry with the same \
             Idempotency-Key (or read the game) to learn the outcome",
        )
    }

    /// `503 store_full`: the store has no room for a new game; nothing was changed.
    pub fn store_full() -> Self {
        Self::new(
            Code::StoreFull,
            "the game store is nearly full: no new game is created until room is freed; nothing was changed",
        )
    }

    /// `500`: a fault of the server; the cause is logged where it is known, never sent.
    pub fn internal() -> Self {
        Self::new(Code::Internal, "internal error")
    }

    /// A problem with `code` for a value serde refused: `context`, then serde's message with its
    /// Rust type names said in JSON's words (see [`plain_types`]).
    pub fn refused_by_serde(code: Code, context: &str, err: impl std::fmt::Display) -> Self {
        Self::new(code, format!("{context}: {}", plain_types(&err.to_string())))
    }

    /// Maps an engine rejection, with what the seat may do instead. A malformed action's reason
    /// is serde's message about the posted action, said in JSON's words.
    pub fn from_rejection(rejection: Rejection, legal_actions: Box<RawValue>, to_act: Vec<Seat>) -> Self {
        let detail = rejection.reason;
        match rejection.code {
            RejectionCode::NotYourTurn => Self::new(Code::NotYourTurn, detail).with_to_act(to_act),
            RejectionCode::GameOver => Self::new(Code::GameOver, detail),
            RejectionCode::IllegalAction => {
                Self::new(Code::IllegalAction, detail).with_legal_actions(legal_actions)
            }
            RejectionCode::MalformedAction => {
                Self::new(Code::MalformedAction, plain_types(&detail)).with_legal_actions(legal_actions)
            }
            RejectionCode::NoSuchSeat => Self::new(Code::NoSuchSeat, detail),
        }
    }
}

/// `detail` with the Rust type names serde puts in its messages (`expected usize`, `expected
/// struct CreateGame`) said in JSON's words.
pub fn plain_types(detail: &str) -> String {
    const WORDS: [(&str, &str); 12] = [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u64", "a whole number from 0 to 18446744073709551615"),
        ("usize", "a whole number from 0 to 18446744073709551615"),
        ("i8", "a whole number from -128 to 127"),
        ("i16", "a whole number from -32768 to 32767"),
        ("i32", "a whole number from -2147483648 to 2147483647"),
        ("i64", "a whole number"),
        ("f32", "a number"),
        ("f64", "a number"),
        ("bool", "true or false"),
    ];
    let mut out = String::with_capacity(detail.len());
    let mut rest = detail;
    while let Some(at) = rest.find("expected ") {
        let (before, after) = rest.split_at(at + "expected ".len());
        out.push_str(before);
        let word_end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let word = &after[..word_end];
        if let Some((_, plain)) = WORDS.iter().find(|(rust, _)| *rust == word) {
            out.push_str(plain);
            rest = &after[word_end..];
            continue;
        }
        let named = [
            "struct ",
            "internally tagged enum ",
            "enum ",
            "tuple struct ",
            "unit struct ",
        ]
        .iter()
        .find_map(|kind| after.strip_prefix(kind).map(|tail| (kind, tail)));
        match named {
            Some((kind, tail)) => {
                let name_end = tail
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(tail.len());
                out.push_str(match *kind {
                    "internally tagged enum " => "an object with a `type`",
                    "enum " | "unit struct " => "one of the documented values",
                    "tuple struct " => "an array",
                    _ => "an object",
                });
                rest = &tail[name_end..];
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
    out
}
