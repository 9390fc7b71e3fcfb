//! Which webhook notices a change calls for, and where they go. The notices are computed with
//! the change and written with it, in the same atomic step (see `store::outbox`).

use rand::RngCore;
use roadie_engine::{AnyGame, Seat};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Table;

/// Where a game's notices go, and the key they are signed with.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Webhook {
    /// An `http` or `https` URL whose host the operator allows.
    pub url: String,
    /// The per-game HMAC-SHA256 key, shown once at creation.
    pub secret: String,
}

impl Webhook {
    /// Who receives the notices: the URL's `host:port` in lower case (the URL itself if it does
    /// not parse). Delivery slots are shared between receivers.
    pub fn receiver(&self) -> String {
        match url::Url::parse(&self.url) {
            Ok(url) => match (url.host_str(), url.port_or_known_default()) {
                (Some(host), Some(port)) => format!("{}:{port}", host.to_ascii_lowercase()),
                _ => self.url.clone(),
            },
            Err(_) => self.url.clone(),
        }
    }
}

impl std::fmt::Debug for Webhook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Webhook")
            .field("url", &"<redacted>")
            .field("secret", &"<redacted>")
            .finish()
    }
}

/// One notice of a game's outbox: its id and its body, the exact bytes that are signed and
/// sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxNotice {
    /// The notice's id (also in the body).
    pub id: String,
    /// The JSON body.
    pub body: String,
}

/// What a notice tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoticeType {
    /// The write handed `seats` the turn.
    YourTurn,
    /// The write ended the game; `winners` won.
    GameOver,
}

/// The body of a webhook notice, posted as `application/json` with the header
/// `Roadie-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"id": "5f0c2a7e9b4d4e31a8c6f1d2e3b4a596", "game": "8d3f1c2b7a6e5d4c3b2a1f0e",
    "type": "your_turn", "version": 7, "timestamp": 1764556800, "seats": [2], "to_act": [2]}))]
pub struct WebhookNotice {
    /// The notice's id: a delivery repeated (after a lost answer) carries the same id.
    pub id: String,
    /// The game's id.
    pub game: String,
    /// `your_turn` or `game_over`.
    #[serde(rename = "type")]
    pub kind: NoticeType,
    /// The game's version after the write.
    pub version: u64,
    /// When the write happened, in Unix seconds.
    pub timestamp: u64,
    /// `your_turn`: the seats the write handed the turn (a seat that acts and may act again
    /// learns so from its own answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<Vec<Seat>>,
    /// Every seat that may act after the write.
    pub to_act: Vec<Seat>,
    /// `game_over`: the winning seats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<Seat>>,
}

/// The notices a write from `before` (`None`: the creation) to `after` causes, if the game has
/// a webhook, at `now_ms`: `your_turn` when seats that could not act may now, `game_over` when it ended.
pub fn notices(before: Option<&AnyGame>, after: &Table, now_ms: u64) -> Vec<OutboxNotice> {
    if after.webhook.is_none() {
        return Vec::new();
    }
    let to_act = after.game.to_act();
    let acted_before = before.map(|game| game.to_act()).unwrap_or_default();
    let handed: Vec<Seat> = to_act
        .iter()
        .copied()
        .filter(|seat| !acted_before.contains(seat))
        .collect();
    let base = |kind| WebhookNotice {
        id: {
            let mut id = [0u8; 16];
            rand::rng().fill_bytes(&mut id);
            hex::encode(id)
        },
        game: after.id.clone(),
        kind,
        version: after.revision.number,
        timestamp: now_ms / 1000,
        seats: None,
        to_act: to_act.clone(),
        winners: None,
    };
    let mut notices = Vec::new();
    if !handed.is_empty() {
        notices.push(WebhookNotice {
            seats: Some(handed),
            ..base(NoticeType::YourTurn)
        });
    }
    if after.game.is_over() && !before.is_some_and(AnyGame::is_over) {
        notices.push(WebhookNotice {
            winners: Some(after.game.outcome().map(|o| o.winners).unwrap_or_default()),
            ..base(NoticeType::GameOver)
        });
    }
    notices
        .into_iter()
        .filter_map(|notice| {
            let body = serde_json::to_string(&notice).ok()?;
            Some(OutboxNotice { id: notice.id, body })
        })
        .collect()
}
