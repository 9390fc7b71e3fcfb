//! The bodies of the seat routes.

use roadie_engine::{BotLevel, Seat};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::table::seats::SeatInfo;

/// A seat's token, answered once when it is taken or reissued.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatGrant {
    /// The game's id.
    pub id: String,
    /// The game's version after the change.
    pub version: u64,
    /// The game's revision after the change (its `ETag`).
    pub revision: String,
    /// The seat.
    pub seat: Seat,
    /// Its bearer token (`Authorization: Bearer <token>`), given only in this answer.
    pub token: String,
}

/// Join a seat.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Ann"}))]
pub struct JoinSeat {
    /// The display name: plain text of 1 to 32 characters, not all spaces (trimmed when kept).
    #[schema(
        min_length = 1,
        max_length = 32,
        pattern = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$"
    )]
    pub name: String,
}

/// Give a seat to a bot (`{"bot": "greedy"}`), or, with the game's app key, to one of the
/// app's players (`{"player": "u456", "name": "Bea"}`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"bot": "greedy"}))]
pub struct ReplaceSeat {
    /// The bot's level.
    #[serde(default)]
    pub bot: Option<BotLevel>,
    /// The app's id of the player who takes the seat (1 to 128 bytes; the game's app key only).
    #[serde(default)]
    #[schema(min_length = 1, max_length = 128)]
    pub player: Option<String>,
    /// The player's display name, with `player`.
    #[serde(default)]
    #[schema(
        min_length = 1,
        max_length = 32,
        pattern = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$"
    )]
    pub name: Option<String>,
}

/// A seat after a resignation or a replacement.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatChanged {
    /// The game's id.
    pub id: String,
    /// The game's version after the change (the bots' moves included).
    pub version: u64,
    /// The game's revision after the change (its `ETag`).
    pub revision: String,
    /// The seat as everyone now sees it.
    pub seat: SeatInfo,
}
