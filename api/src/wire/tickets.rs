//! The bodies and query of the matchmaking routes.

use roadie_engine::{BotLevel, Seat};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::table::tickets::TicketState;

/// Ask to be seated in a game with others who want the same one.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"ruleset": "shrewd-producer", "seats": 4, "name": "Ann", "bots_after_secs": 30}))]
pub struct CreateTicket {
    /// The ruleset's slug (see `GET /v1/rulesets`).
    #[serde(deserialize_with = "super::ruleset_slug")]
    pub ruleset: String,
    /// How many seats the game has; tickets match only tickets with the same ruleset, seat
    /// count and options.
    #[schema(minimum = 0, maximum = 65535)]
    #[serde(deserialize_with = "seat_count")]
    pub seats: usize,
    /// The ruleset's options; omitted ones keep their defaults.
    #[schema(value_type = Option<Object>)]
    pub options: Option<serde_json::Value>,
    /// The display name the seat gets (1 to 32 characters).
    pub name: String,
    /// After waiting this many seconds (at most the ticket's lifetime), the game starts with
    /// bots in the seats no other ticket took. Never, when omitted.
    #[schema(minimum = 0, maximum = 9_007_199_254_740_991_u64)]
    #[serde(default, deserialize_with = "seconds")]
    pub bots_after_secs: Option<u64>,
    /// The level of those bots (default `random`).
    pub bot_level: Option<BotLevel>,
}

/// A whole number of seats, written as JSON writes it (`4` or `4.0`).
fn seat_count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    super::whole_number(d, "seats", u16::MAX.into()).map(|n| n as usize)
}

/// Whole seconds, or none.
fn seconds<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Option::<serde_json::Value>::deserialize(d)?
        .filter(|v| !v.is_null())
        .map(|v| {
            super::whole_number(v, "bots_after_secs", super::MAX_SAFE_INTEGER)
                .map_err(serde::de::Error::custom)
        })
        .transpose()
}

/// Where a ticket is, as its holder sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TicketStatus {
    /// In its queue, or being seated.
    Waiting,
    /// Seated: `game`, `seat` and `seat_token` say where.
    Matched,
    /// Cancelled by its holder.
    Cancelled,
    /// Its time ran out before a game could start.
    Expired,
}

impl From<TicketState> for TicketStatus {
    fn from(state: TicketState) -> Self {
        match state {
            TicketState::Waiting | TicketState::Claimed => Self::Waiting,
            TicketState::Matched => Self::Matched,
            TicketState::Cancelled => Self::Cancelled,
            TicketState::Expired => Self::Expired,
        }
    }
}

/// A ticket just opened. Its `token` is shown only here.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CreatedTicket {
    /// The ticket's id.
    pub id: String,
    /// The ticket's bearer token: `GET` and `DELETE /v1/tickets/{id}` need it.
    pub token: String,
    /// `waiting`: `GET /v1/tickets/{id}` says when it is matched (possibly at once).
    pub status: TicketStatus,
    /// When the ticket expires if no game starts (Unix seconds).
    pub expires_at: u64,
}

/// A ticket, as its holder sees it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TicketInfo {
    /// The ticket's id.
    pub id: String,
    /// Where it is.
    pub status: TicketStatus,
    /// When the ticket expires if no game starts (Unix seconds).
    pub expires_at: u64,
    /// The game it was seated in, once matched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Its seat, once matched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The seat's bearer token, once matched (shown to this ticket only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_token: Option<String>,
    /// While waiting, the ticket's place in its queue (1: the first); absent while its game is
    /// being created.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1)]
    pub position: Option<u64>,
}

/// How long to wait for a ticket to be matched. Other query parameters are ignored.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TicketQuery {
    /// Wait up to this many seconds (at most 30) while the ticket is waiting; the answer comes
    /// as soon as it is matched, cancelled or expired.
    #[param(minimum = 0, maximum = 30, example = 10)]
    pub wait: Option<u64>,
}
