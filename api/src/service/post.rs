//! A seat's post of an action: idempotency (a key scoped to the seat, the action's fingerprint,
//! the first answer replayed) around the one write path.

use roadie_engine::{Seat, Viewer};
use sha2::{Digest, Sha256};

use crate::store::IdempotentRecord;
use crate::table::{Code, GameId, Holder, Pass, Post, Precondition, Refusal, Revision, Table};
use crate::wire::{ActionResult, Status};

use super::Games;
use super::read::{sequenced, state_of};
use super::write::{Idempotency, Start, Written};

/// The answer to a post, serialized once.
pub struct ActionReply {
    /// The game's revision after the action.
    pub revision: Revision,
    /// The [`ActionResult`] as JSON.
    pub body: String,
    /// True when this answers a repeated `Idempotency-Key`.
    pub replayed: bool,
}

/// How much of the game an answer carries (`Prefer: return=minimal`, RFC 7240).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Representation {
    /// With the game's view (the default).
    Full,
    /// Without it.
    Minimal,
}

/// The first 64 bits of SHA-256 of an action's canonical JSON (object keys sorted, no spaces),
/// so that the same action written with its keys in another order is the same action.
fn fingerprint(action: &str) -> Result<u64, Refusal> {
    fn canonical(value: &serde_json::Value, out: &mut String) {
        match value {
            serde_json::Value::Object(map) => {
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                out.push('{');
                for (i, (key, value)) in entries.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::Value::String(key.clone()).to_string());
                    out.push(':');
                    canonical(value, out);
                }
                out.push('}');
            }
            serde_json::Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    canonical(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let value: serde_json::Value = serde_json::from_str(action)
        .map_err(|_| Refusal::new(Code::MalformedAction, "the action is not JSON"))?;
    let mut text = String::new();
    canonical(&value, &mut text);
    let digest = Sha256::digest(text.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    Ok(u64::from_be_bytes(first))
}

/// An `Idempotency-Key` scoped to who posts: a seat token's seat (`0:key`, as keys were
/// always scoped), or a player and the seat it names (`p<hash>/<seat>:key`).
fn idempotency_scope(pass: &Pass, key: &str) -> String {
    match (&pass.holder, pass.seat) {
        (Holder::Player(who), seat) => {
            let digest = Sha256::digest(who.player.as_bytes());
            let seat = seat.map(|s| s.to_string()).unwrap_or_default();
            format!("p{}/{seat}:{key}", hex::encode(&digest[..8]))
        }
        (_, Some(seat)) => format!("{seat}:{key}"),
        (_, None) => format!("-:{key}"),
    }
}

/// One post of an action, as the edge hands it to the domain.
#[derive(Debug)]
pub struct ActionCommand {
    /// The game.
    pub game: GameId,
    /// The caller's pass: a seat token, or a player token (naming its seat or not).
    pub pass: Pass,
    /// The action, as the client wrote it (valid JSON).
    pub action: Box<serde_json::value::RawValue>,
    /// `If-Match`: apply only at these revisions.
    pub precondition: Option<Precondition>,
    /// `Idempotency-Key`: a retry with it answers with the first outcome.
    pub idempotency_key: Option<String>,
    /// Whether the answer carries the game's view.
    pub representation: Representation,
}

fn serialize<T: serde::Serialize>(value: &T) -> Result<String, Refusal> {
    serde_json::to_string(value).map_err(|e| {
        tracing::error!(error = %e, "could not serialize an answer");
        Refusal::internal()
    })
}

impl Games {
    /// The answer again to a post whose `Idempotency-Key` was used before: the first answer's
    /// revision, status, seats to act and events (read back from the log), without the game.
    async fn replay(
        &self,
        id: &GameId,
        ruleset: &'static str,
        seat: Seat,
        fingerprint: Option<u64>,
        record: IdempotentRecord,
    ) -> Result<ActionReply, Refusal> {
        if Some(record.fingerprint) != fingerprint {
            return Err(Refusal::new(
                Code::IdempotencyKeyReused,
                "this Idempotency-Key was used for another action",
            ));
        }
        let after = record.first_event.saturating_sub(1);
        let events = self.counted(self.store.events(id.as_str(), after, record.events).await)?;
        let result = ActionResult {
            ruleset: ruleset.into(),
            version: record.revision.number,
            revision: record.revision.to_string(),
            status: Status::of(record.finished),
            to_act: record.to_act,
            events: sequenced(
                (record.first_event..).zip(events),
                Viewer::Seat(seat),
                record.finished,
            ),
            game: None,
        };
        Ok(ActionReply {
            revision: record.revision,
            body: serialize(&result)?,
            replayed: true,
        })
    }

    /// Applies one action through the one write path. The first attempt starts from this
    /// process's copy (no read at all) unless an idempotency key needs the store's word on
    /// whether it was used; a lost race applies the action again to the newer game, unless
    /// `If-Match` pinned the revision it was meant for.
    pub async fn post(&self, command: ActionCommand) -> Result<ActionReply, Refusal> {
        let id = &command.game;
        let scoped_key = command
            .idempotency_key
            .as_ref()
            .map(|key| idempotency_scope(&command.pass, key));
        let fingerprint = scoped_key
            .as_ref()
            .map(|_| fingerprint(command.action.get()))
            .transpose()?;
        let post = Post {
            pass: &command.pass,
            action: command.action.get(),
            precondition: command.precondition.as_ref(),
        };
        let (start, idempotency) = match (&scoped_key, fingerprint) {
            (Some(key), Some(fingerprint)) => (Start::Keyed(key), Some(Idempotency { key, fingerprint })),
            _ => (Start::Copy, None),
        };
        match self.write(id, &post, start, idempotency).await? {
            Written::Applied { next, events, .. } => {
                let ruleset = next.game.ruleset().slug;
                self.metrics.action_applied(ruleset);
                if next.game.is_over() {
                    tracing::debug!(game = %id, ruleset, version = next.revision.number, "game finished");
                }
                let first_seq = next.events - events.len() as u64 + 1;
                let seat = match command.pass.token_seat() {
                    Some(seat) => seat,
                    None => next.seat_of(&command.pass)?,
                };
                let body = render(&next, first_seq, events, seat, command.representation)?;
                Ok(ActionReply {
                    revision: next.revision,
                    body,
                    replayed: false,
                })
            }
            Written::Replayed { ruleset, record } => {
                let seat = match command.pass.token_seat() {
                    Some(seat) => seat,
                    None => self.read(id).await?.seat_of(&command.pass)?,
                };
                self.replay(id, ruleset, seat, fingerprint, record).await
            }
            Written::Unchanged(_) => Err(Refusal::internal()),
        }
    }
}

/// The answer to an applied action, serialized once.
fn render(
    next: &Table,
    first_seq: u64,
    events: Vec<crate::table::StoredEvent>,
    seat: Seat,
    representation: Representation,
) -> Result<String, Refusal> {
    let finished = next.game.is_over();
    let viewer = Viewer::Seat(seat);
    let result = ActionResult {
        ruleset: next.game.ruleset().slug.into(),
        version: next.revision.number,
        revision: next.revision.to_string(),
        status: Status::of(finished),
        to_act: next.game.to_act(),
        events: sequenced((first_seq..).zip(events), viewer, finished),
        game: match representation {
            Representation::Minimal => None,
            Representation::Full => Some(state_of(next, viewer)?),
        },
    };
    serialize(&result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_with_its_keys_reordered_has_the_same_fingerprint() {
        let a = fingerprint(r#"{"type":"bid","cards":["a","b"],"amount":3}"#).expect("json");
        let b = fingerprint(r#"{ "amount": 3, "type": "bid", "cards": ["a", "b"] }"#).expect("json");
        let c = fingerprint(r#"{"type":"bid","cards":["b","a"],"amount":3}"#).expect("json");
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
