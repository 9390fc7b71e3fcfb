//! Matchmaking tickets as values: a ticket's id (which names its queue), its record in the
//! store, the queue it waits in, and a claim (a full batch taken from a queue to be seated in
//! one game). Nothing here touches the store: the stores keep these, the service moves them.

use rand::RngCore;
use roadie_engine::{BotLevel, Seat};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::ID_BYTES;
use super::refusal::{Code, Refusal};

/// Hex characters of a queue's key (the first 64 bits of SHA-256 of what it matches).
pub const QUEUE_HEX: usize = 16;

/// Hex characters of a ticket's own part of its id.
const OWN_HEX: usize = 16;

/// What tickets of one queue all asked for: the same ruleset, seat count and options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueueSpec {
    /// The ruleset's slug.
    pub ruleset: String,
    /// How many seats the game has.
    pub seats: usize,
    /// The ruleset's options, as the first ticket wrote them (`null`: none).
    #[serde(default)]
    pub options: Option<serde_json::Value>,
    /// The app whose players wait in the queue: each app's tickets are matched among its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app: Option<String>,
}

impl QueueSpec {
    /// The queue's key: the same for every ticket that asks for the same game. Options are
    /// hashed as canonical JSON (`serde_json` sorts object keys), so their field order does not
    /// split a queue.
    pub fn key(&self) -> String {
        let options = self.options.as_ref().map(|o| o.to_string()).unwrap_or_default();
        let digest = match &self.app {
            None => Sha256::digest(format!("{}\n{}\n{}", self.ruleset, self.seats, options)),
            Some(app) => Sha256::digest(format!("{}\n{}\n{}\n{app}", self.ruleset, self.seats, options)),
        };
        hex::encode(&digest[..QUEUE_HEX / 2])
    }
}

/// A ticket's id: its queue's key followed by random hex, so that the id alone finds the
/// queue (and the store's slot) the ticket lives in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicketId(String);

impl TicketId {
    /// A new id in `queue`.
    pub fn random(queue: &str) -> Self {
        let mut own = [0u8; OWN_HEX / 2];
        rand::rng().fill_bytes(&mut own);
        Self(format!("{queue}{}", hex::encode(own)))
    }

    /// `404 ticket_not_found` unless `id` has the shape of a ticket's id.
    pub fn parse(id: &str) -> Result<Self, Refusal> {
        let shaped = id.len() == QUEUE_HEX + OWN_HEX
            && id
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if shaped {
            Ok(Self(id.to_owned()))
        } else {
            Err(Refusal::ticket_not_found(id))
        }
    }

    /// The key of the queue the ticket waits in.
    pub fn queue(&self) -> &str {
        &self.0[..QUEUE_HEX]
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for TicketId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where a ticket is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TicketState {
    /// In its queue.
    Waiting,
    /// Taken in a claim whose game is being created: no longer cancellable.
    Claimed,
    /// Seated: the record holds the game, the seat and the seat's token.
    Matched,
    /// Cancelled by its holder.
    Cancelled,
    /// Its time ran out while it waited.
    Expired,
}

/// A ticket as the store keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ticket {
    /// Where it is.
    pub state: TicketState,
    /// The display name its seat gets.
    pub name: String,
    /// The app's id of the player, when a player token opened it: the player is seated by id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// SHA-256 (hex) of the ticket's bearer token: the token itself is never kept.
    pub token_hash: String,
    /// When it stops waiting (Unix ms).
    pub expires_ms: u64,
    /// From when its game may be completed with bots (Unix ms; 0: never).
    pub bots_ms: u64,
    /// The level of those bots.
    pub bot_level: BotLevel,
    /// Its player's rating in the queue's ruleset when it was opened, for an app's player: it
    /// waits for players near it ([`MatchWindow`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i64>,
    /// When it was opened (Unix ms).
    #[serde(default)]
    pub opened_ms: u64,
    /// Its game, once matched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Its seat, once matched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// Its seat's token, once matched: shown only to the ticket's holder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_token: Option<String>,
}

impl Ticket {
    /// The state its holder sees at `now_ms`: a waiting ticket past its time has expired, and a
    /// claimed one is still waiting to them.
    pub fn shown_state(&self, now_ms: u64) -> TicketState {
        match self.state {
            TicketState::Waiting if self.expires_ms <= now_ms => TicketState::Expired,
            TicketState::Claimed => TicketState::Waiting,
            state => state,
        }
    }

    /// `401 token_invalid` unless `token` is this ticket's.
    pub fn admit(&self, token: &str) -> Result<(), Refusal> {
        if token_hash(token) == self.token_hash {
            Ok(())
        } else {
            // As if there were no such ticket: its existence is the holder's to know.
            Err(Refusal::new(
                Code::TicketNotFound,
                "no matchmaking ticket has this id, or the token is not its",
            ))
        }
    }
}

/// A new ticket's bearer token: 128 random bits in hex.
pub fn ticket_token() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// SHA-256 (hex) of a ticket's token, as its record keeps it.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// One ticket of a claim, in seat order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claimed {
    /// The ticket's id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// The app's id of its player, when a player token opened it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

/// A batch taken from a queue by one process, to be seated in one game. The claim's id is the
/// game's id, so whichever process completes it creates the same game at most once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// The claim's id, and its game's.
    pub id: String,
    /// The tickets, the first in seat 0.
    pub tickets: Vec<Claimed>,
    /// How many seats after the tickets' get bots (0 when the tickets fill the game).
    pub bots: usize,
    /// The level of those bots.
    pub level: BotLevel,
    /// Until when (Unix ms) the process that holds the claim may complete it; after that
    /// another process takes it over.
    pub lease: u64,
}

/// A new claim's id: a game id's worth of random hex.
pub fn claim_id() -> String {
    let mut bytes = [0u8; ID_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// What a look at a queue found.
#[derive(Debug, Default)]
pub struct Look {
    /// The claim to complete now: a new batch, or one whose lease ran out.
    pub claim: Option<Claim>,
    /// When the queue next needs a look (Unix ms), if ever: a ticket's bots or expiry coming
    /// due, or a claim's lease running out.
    pub next_ms: Option<u64>,
}

/// A ticket's seat, once its game exists.
#[derive(Clone, Debug)]
pub struct Seated {
    /// The ticket's id.
    pub ticket: String,
    /// The game.
    pub game: String,
    /// The seat.
    pub seat: Seat,
    /// The seat's token.
    pub seat_token: String,
}

/// The tickets a queue's next claim takes, and the seats left to bots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Positions in the waiting list (arrival order), ascending.
    pub taken: Vec<usize>,
    /// Seats given to bots.
    pub bots: usize,
    /// The bots' level.
    pub level: BotLevel,
}

/// How soon a queue with enough tickets but no table that fits their windows is looked at
/// again, as the windows widen (ms).
pub const WIDEN_LOOK_MS: u64 = 1_000;

/// A ticket waiting in its queue, as a look at the queue sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// From when it accepts bots (Unix ms; 0: never).
    pub bots_ms: u64,
    /// The level of those bots.
    pub level: BotLevel,
    /// Its player's rating in the queue's ruleset, when an app's player opened it.
    pub rating: Option<i64>,
    /// When it was opened (Unix ms).
    pub opened_ms: u64,
}

/// How near in rating tickets must be to sit at one table: `start` points either way at once,
/// widening evenly to `later` after `widen_ms` of waiting, and on at that pace for as long as
/// the ticket waits, so that a player far from everyone else's rating still finds a table
/// (`ROADIE_MATCH_WINDOW`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchWindow {
    /// The window at once, in rating points either way.
    pub start: i64,
    /// The window after `widen_ms`, in rating points either way.
    pub later: i64,
    /// How long a ticket waits for its window to grow from `start` to `later` (ms); `0` keeps
    /// it at `later`.
    pub widen_ms: u64,
}

impl Default for MatchWindow {
    /// ±50 at once, ±300 after 30 s, ±550 after a minute.
    fn default() -> Self {
        Self {
            start: 50,
            later: 300,
            widen_ms: 30_000,
        }
    }
}

impl MatchWindow {
    /// The window of a ticket that has waited `waited_ms`.
    pub fn at(&self, waited_ms: u64) -> i64 {
        if self.widen_ms == 0 {
            return self.later.max(self.start);
        }
        let grown =
            (self.later - self.start).max(0) as i128 * i128::from(waited_ms) / i128::from(self.widen_ms);
        i64::try_from(i128::from(self.start) + grown).unwrap_or(i64::MAX)
    }
}

/// Whether `group` (positions in `waiting`) may sit at one table at `now_ms`: the ratings it
/// has lie within the narrowest window among their tickets (a ticket without a rating sits
/// with anyone).
fn fits(waiting: &[Waiting], group: &[usize], now_ms: u64, window: Option<&MatchWindow>) -> bool {
    let Some(window) = window else {
        return true;
    };
    let rated = group
        .iter()
        .filter_map(|&i| waiting[i].rating.map(|r| (r, &waiting[i])));
    let (mut low, mut high, mut narrowest) = (i64::MAX, i64::MIN, i64::MAX);
    for (rating, ticket) in rated {
        low = low.min(rating);
        high = high.max(rating);
        narrowest = narrowest.min(window.at(now_ms.saturating_sub(ticket.opened_ms)));
    }
    low > high || high - low <= narrowest
}

/// The largest group (up to `most`) around `waiting[anchor]` drawn from `among`: the nearest in
/// rating first (then the earliest), each kept while the group still [`fits`].
fn group_around(
    waiting: &[Waiting],
    anchor: usize,
    among: &[usize],
    most: usize,
    now_ms: u64,
    window: Option<&MatchWindow>,
) -> Vec<usize> {
    let mut group = vec![anchor];
    let mut others: Vec<usize> = among.iter().copied().filter(|&i| i != anchor).collect();
    if let Some(rating) = waiting[anchor].rating {
        others.sort_by_key(|&i| waiting[i].rating.map_or(0, |r| (r - rating).abs()));
    }
    for i in others {
        if group.len() >= most {
            break;
        }
        group.push(i);
        if !fits(waiting, &group, now_ms, window) {
            group.pop();
        }
    }
    group.sort_unstable();
    group
}

/// Picks the batch a queue's next claim takes from its `waiting` tickets (in arrival order):
/// the first full game's worth whose ratings lie within their windows, each ticket from the
/// earliest on tried as the one the others gather round; else, once some tickets' wait for bots
/// is over at `now_ms`, the first of them and those of them near it in rating, with bots in
/// the other seats (at the level of the first). A ticket that asked for no bots, or whose wait
/// is not over, is never seated beside bots. `None` when no game can start yet. Without a
/// window, ratings are not looked at.
pub fn batch(waiting: &[Waiting], seats: usize, now_ms: u64, window: Option<&MatchWindow>) -> Option<Batch> {
    if seats == 0 || waiting.is_empty() {
        return None;
    }
    if waiting.len() >= seats {
        let everyone: Vec<usize> = (0..waiting.len()).collect();
        for anchor in 0..waiting.len() {
            let group = group_around(waiting, anchor, &everyone, seats, now_ms, window);
            if group.len() == seats {
                return Some(Batch {
                    taken: group,
                    bots: 0,
                    level: BotLevel::Random,
                });
            }
        }
    }
    let due: Vec<usize> = (0..waiting.len())
        .filter(|&i| waiting[i].bots_ms > 0 && waiting[i].bots_ms <= now_ms)
        .collect();
    let first = *due.first()?;
    let taken = group_around(
        waiting,
        first,
        &due,
        seats.saturating_sub(1).max(1),
        now_ms,
        window,
    );
    Some(Batch {
        bots: seats - taken.len(),
        taken,
        level: waiting[first].level,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ticket_id_names_its_queue() {
        let spec = QueueSpec {
            ruleset: "shrewd-producer".into(),
            seats: 4,
            options: None,
            app: None,
        };
        let id = TicketId::random(&spec.key());
        let parsed = TicketId::parse(id.as_str()).expect("parses");
        assert_eq!(parsed.queue(), spec.key());
        assert!(TicketId::parse("nope").is_err());
        assert!(TicketId::parse(&"G".repeat(32)).is_err());
    }

    #[test]
    fn options_in_another_order_make_the_same_queue() {
        let a = QueueSpec {
            ruleset: "r".into(),
            seats: 2,
            options: Some(serde_json::json!({"a": 1, "b": 2})),
            app: None,
        };
        let b = QueueSpec {
            options: serde_json::from_str(r#"{"b": 2, "a": 1}"#).ok(),
            ..a.clone()
        };
        assert_eq!(a.key(), b.key());
        assert_ne!(
            a.key(),
            QueueSpec {
                seats: 3,
                ..a.clone()
            }
            .key()
        );
    }

    fn t(bots_ms: u64) -> Waiting {
        Waiting {
            bots_ms,
            level: BotLevel::Greedy,
            rating: None,
            opened_ms: 0,
        }
    }

    #[test]
    fn a_batch_is_a_full_game_or_the_tickets_due_for_bots() {
        assert_eq!(batch(&[t(0), t(0)], 3, 100, None), None);
        assert_eq!(
            batch(&[t(0), t(0), t(0), t(0)], 3, 100, None),
            Some(Batch {
                taken: vec![0, 1, 2],
                bots: 0,
                level: BotLevel::Random
            })
        );
        // Only the ticket whose wait is over is seated with bots: one that asked for none, and
        // one whose wait is not over, keep waiting for people.
        assert_eq!(
            batch(&[t(0), t(50), t(150)], 4, 100, None),
            Some(Batch {
                taken: vec![1],
                bots: 3,
                level: BotLevel::Greedy
            })
        );
        assert_eq!(
            batch(&[t(40), t(0), t(50)], 4, 100, None),
            Some(Batch {
                taken: vec![0, 2],
                bots: 2,
                level: BotLevel::Greedy
            })
        );
        assert_eq!(batch(&[t(0), t(150)], 3, 100, None), None);
    }

    fn rated(rating: i64, opened_ms: u64) -> Waiting {
        Waiting {
            rating: Some(rating),
            opened_ms,
            ..t(0)
        }
    }

    #[test]
    fn a_window_widens_from_its_start_and_on_at_the_same_pace() {
        let window = MatchWindow::default();
        assert_eq!(window.at(0), 50);
        assert_eq!(window.at(15_000), 175);
        assert_eq!(window.at(30_000), 300);
        assert_eq!(window.at(90_000), 800);
        assert!(window.at(u64::MAX) > window.at(90_000), "no overflow at any wait");
    }

    #[test]
    fn tickets_sit_together_only_within_their_windows() {
        let window = MatchWindow::default();
        let w = Some(&window);
        let now = 100_000;
        // Three fresh tickets: 0 and 2 are 40 apart, 1 is 500 away from both.
        let fresh = [
            rated(1000, now),
            rated(1500, now),
            rated(1040, now),
            rated(1020, now),
        ];
        assert_eq!(batch(&fresh[..3], 2, now, w).map(|b| b.taken), Some(vec![0, 2]));
        assert_eq!(batch(&fresh[..3], 3, now, w), None);
        assert_eq!(batch(&fresh, 3, now, w).map(|b| b.taken), Some(vec![0, 2, 3]));
        // Without a window ratings are not looked at.
        assert_eq!(
            batch(&fresh[..3], 3, now, None).map(|b| b.taken),
            Some(vec![0, 1, 2])
        );
        // After 30 s of waiting the window is ±300: 1000 and 1290 sit together, 1000 and 1310 not
        // yet.
        let waited = now - 30_000;
        assert!(batch(&[rated(1000, waited), rated(1290, waited)], 2, now, w).is_some());
        assert!(batch(&[rated(1000, waited), rated(1310, waited)], 2, now, w).is_none());
        // The narrowest window of a group counts: a fresh ticket keeps an old one near it.
        assert!(batch(&[rated(1000, waited), rated(1290, now)], 2, now, w).is_none());
        // A ticket without a rating sits with anyone.
        let anyone = Waiting {
            rating: None,
            ..rated(0, now)
        };
        assert_eq!(
            batch(&[rated(1000, now), anyone, rated(2000, now)], 2, now, w).map(|b| b.taken),
            Some(vec![0, 1])
        );
    }

    #[test]
    fn tickets_due_for_bots_take_bots_beside_those_near_them() {
        let window = MatchWindow::default();
        let now = 100_000;
        let due = |rating| Waiting {
            bots_ms: now - 1,
            ..rated(rating, now)
        };
        let b = batch(&[due(1000), due(2000), due(1030)], 4, now, Some(&window)).expect("bots");
        assert_eq!((b.taken, b.bots), (vec![0, 2], 2));
    }
}
