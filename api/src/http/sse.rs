//! The push stream of one game for one viewer, as Server-Sent Events.
//!
//! The stream holds no state that a process death could lose: it is a cursor (the last sequence
//! number sent) over the game's log in the store. Each step reads the caller's events after the
//! cursor at the game's current revision, sends them with `id:` = their sequence number, then the
//! revision and who acts; once caught up it waits on the game's update channel (the one the
//! long-poll uses, so a write through any process wakes it). A client that reconnects anywhere
//! with `Last-Event-ID` resumes from its last event: nothing skipped, nothing repeated.
//!
//! When the process stops, each stream ends with a `reconnect` message instead of being held
//! until the shutdown grace period runs out and then cut without a word.

use std::fmt::Write as _;
use std::time::Duration;

use actix_web::web::{Bytes, Data};
use rand::Rng;
use roadie_engine::Seat;
use serde::Serialize;
use tokio::sync::watch;
use utoipa::ToSchema;

use crate::service::{Games, StreamStep};
use crate::store::Revision;
use crate::table::GameId;
use crate::table::Pass;
use crate::table::{Code, Refusal};
use crate::wire::Status;

/// How long a stream stays silent before it sends a keep-alive comment.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How long a client waits before reconnecting (the SSE `retry:` field), in milliseconds.
const RETRY_MS: u64 = 1_000;

/// The `retry:` of a `reconnect` message is drawn from `RETRY_MS..=RECONNECT_SPREAD_MS`, so that
/// the streams of a stopping process do not all come back in the same instant.
const RECONNECT_SPREAD_MS: u64 = 3_000;

/// The `state` message: the game after the events sent before it.
#[derive(Debug, Serialize, ToSchema)]
pub struct StreamState {
    /// The game's version.
    pub version: u64,
    /// The game's revision (its `ETag`).
    pub revision: String,
    /// Whether the game goes on.
    pub status: Status,
    /// The seats that may act now.
    pub to_act: Vec<Seat>,
}

/// The `error` message that ends a stream the service cannot carry on (the game is gone, the
/// store does not answer): reconnect with `Last-Event-ID` to resume.
#[derive(Debug, Serialize, ToSchema)]
pub struct StreamError {
    /// The problem's code, as an error response would carry it.
    pub code: Code,
}

/// The `reconnect` message that ends every stream of a stopping process: reconnect (to any
/// process) after the `retry:` it carries, with `Last-Event-ID` set to the last `id:` received
/// or `?after=` set to `after`.
#[derive(Debug, Serialize, ToSchema)]
pub struct StreamReconnect {
    /// The stream's place in the game's log: every event up to it was sent or is not the
    /// caller's to see.
    #[schema(minimum = 0, maximum = 9_007_199_254_740_991_u64)]
    pub after: u64,
}

/// Where a stream stands.
pub struct Cursor {
    games: Data<Games>,
    id: GameId,
    /// The caller's pass.
    viewer: Pass,
    /// The sequence number of the last event read.
    after: u64,
    /// The revision of the last `state` sent.
    shown: Option<Revision>,
    /// Set once everything up to this revision is sent: the next step waits for a change first.
    caught_up_at: Option<Revision>,
    /// Turns `true` when the process starts to stop.
    draining: watch::Receiver<bool>,
    done: bool,
}

impl Cursor {
    /// A stream of game `id` for `viewer` (with its token's credential) that has seen every
    /// event up to `after`, and that ends with a `reconnect` message once `draining` turns `true`.
    pub fn new(
        games: Data<Games>,
        id: GameId,
        viewer: Pass,
        after: u64,
        draining: watch::Receiver<bool>,
    ) -> Self {
        Self {
            games,
            id,
            viewer,
            after,
            shown: None,
            caught_up_at: None,
            draining,
            done: false,
        }
    }

    /// The first step, taken before the answer's status is sent, so that an unknown game or a
    /// wrong seat is an error response and not a stream.
    pub async fn open(mut self) -> Result<(Bytes, Self), Refusal> {
        let step = self.games.stream_step(&self.id, &self.viewer, self.after).await?;
        let mut out = format!("retry: {RETRY_MS}\n\n");
        self.record(step, &mut out);
        Ok((Bytes::from(out), self))
    }

    /// The next chunk of the stream, or `None` once it has ended.
    pub async fn next(mut self) -> Option<(Bytes, Self)> {
        if self.done {
            return None;
        }
        if *self.draining.borrow() {
            return Some((self.reconnect(), self));
        }
        let mut out = String::new();
        if let Some(known) = self.caught_up_at.take() {
            let Self {
                games, id, draining, ..
            } = &mut self;
            let changed = tokio::select! {
                biased;
                () = crate::shutdown::stopping(draining) => None,
                changed = games.wait_for_change(id, &known, KEEP_ALIVE) => Some(changed),
            };
            match changed {
                None => return Some((self.reconnect(), self)),
                Some(Err(e)) => return Some((self.fail(&e), self)),
                Some(Ok(())) => {}
            }
        }
        match self.games.stream_step(&self.id, &self.viewer, self.after).await {
            Ok(step) => self.record(step, &mut out),
            Err(e) => return Some((self.fail(&e), self)),
        }
        if out.is_empty() {
            out.push_str(": keep-alive\n\n");
        }
        Some((Bytes::from(out), self))
    }

    /// Writes `step`'s events and, once they reach the revision read and it moved on, its state;
    /// ends the stream after a finished game's last event.
    fn record(&mut self, step: StreamStep, out: &mut String) {
        for event in &step.events {
            frame(out, Some(event.seq), "event", event);
        }
        self.after = step.next_after;
        if step.caught_up && self.shown != Some(step.revision) {
            frame(
                out,
                None,
                "state",
                &StreamState {
                    version: step.revision.number,
                    revision: step.revision.to_string(),
                    status: step.status,
                    to_act: step.to_act.clone(),
                },
            );
            self.shown = Some(step.revision);
        }
        if step.caught_up {
            if step.status == Status::Finished {
                frame(
                    out,
                    None,
                    "end",
                    &StreamState {
                        version: step.revision.number,
                        revision: step.revision.to_string(),
                        status: step.status,
                        to_act: step.to_act,
                    },
                );
                self.done = true;
            } else {
                self.caught_up_at = Some(step.revision);
            }
        }
    }

    /// The `error` message, and the end of the stream.
    fn fail(&mut self, e: &Refusal) -> Bytes {
        self.done = true;
        let mut out = String::new();
        frame(&mut out, None, "error", &StreamError { code: e.code() });
        Bytes::from(out)
    }

    /// The `reconnect` message, and the end of the stream.
    fn reconnect(&mut self) -> Bytes {
        self.done = true;
        let retry = rand::rng().random_range(RETRY_MS..=RECONNECT_SPREAD_MS);
        let mut out = format!("retry: {retry}\n");
        frame(
            &mut out,
            None,
            "reconnect",
            &StreamReconnect { after: self.after },
        );
        Bytes::from(out)
    }
}

/// One SSE message. JSON has no raw newline, so `data` is always one line.
fn frame(out: &mut String, id: Option<u64>, event: &str, data: &impl Serialize) {
    if let Some(id) = id {
        let _ = writeln!(out, "id: {id}");
    }
    let _ = writeln!(out, "event: {event}");
    let data = serde_json::to_string(data).unwrap_or_else(|_| "null".into());
    let _ = write!(out, "data: {data}\n\n");
}
