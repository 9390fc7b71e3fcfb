//! Waiting for a game to change: each write publishes the game's new revision on
//! `roadie:{<id>}:updates`, and a process with clients waiting on a game subscribes to it.
//!
//! One RESP3 connection per process carries every subscription; a task routes each published
//! revision to the game's waiters. A channel is subscribed while somebody waits on it and dropped
//! by a sweep once nobody has for a while. Subscribing and unsubscribing go one at a time, so an
//! old unsubscribe never overtakes a new subscribe.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{IntoConnectionInfo, ProtocolVersion, PushInfo, PushKind, Value};
use tokio::sync::{mpsc, watch};

use super::StoreError;

/// How often channels nobody waits on are unsubscribed.
const SWEEP_EVERY: Duration = Duration::from_secs(30);

struct Channel {
    /// The last revision published.
    latest: watch::Sender<String>,
    waiting: usize,
    subscribed: bool,
}

/// The process's subscriptions to games' update channels.
pub struct Updates {
    conn: ConnectionManager,
    channels: Arc<Mutex<HashMap<String, Channel>>>,
    /// Held while a SUBSCRIBE or UNSUBSCRIBE is sent.
    ops: tokio::sync::Mutex<()>,
}

/// One client waiting on one channel; stops counting as a waiter when dropped.
struct Waiting<'a> {
    channels: &'a Mutex<HashMap<String, Channel>>,
    channel: String,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if let Ok(mut channels) = self.channels.lock()
            && let Some(entry) = channels.get_mut(&self.channel)
        {
            entry.waiting = entry.waiting.saturating_sub(1);
        }
    }
}

fn unavailable(e: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(e.to_string())
}

impl Updates {
    /// Subscriptions over a RESP3 connection to the Redis at `url`.
    pub fn connect(url: &str, timeout: Duration) -> Result<Arc<Self>, StoreError> {
        let info = url.into_connection_info().map_err(unavailable)?;
        let settings = info.redis_settings().clone().set_protocol(ProtocolVersion::RESP3);
        let client = redis::Client::open(info.set_redis_settings(settings)).map_err(unavailable)?;
        let (pushes, mut received) = mpsc::unbounded_channel::<PushInfo>();
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(timeout))
            .set_response_timeout(Some(timeout))
            .set_push_sender(pushes)
            .set_automatic_resubscription();
        let conn = ConnectionManager::new_lazy_with_config(client, config).map_err(unavailable)?;
        let updates = Arc::new(Self {
            conn,
            channels: Arc::default(),
            ops: tokio::sync::Mutex::new(()),
        });
        let channels = Arc::clone(&updates.channels);
        tokio::spawn(async move {
            while let Some(push) = received.recv().await {
                let (PushKind::Message, [Value::BulkString(channel), Value::BulkString(version)]) =
                    (&push.kind, push.data.as_slice())
                else {
                    continue;
                };
                let (Ok(channel), Ok(revision)) =
                    (std::str::from_utf8(channel), std::str::from_utf8(version))
                else {
                    continue;
                };
                if let Ok(channels) = channels.lock()
                    && let Some(entry) = channels.get(channel)
                {
                    entry.latest.send_replace(revision.to_owned());
                }
            }
        });
        let sweeper = Arc::downgrade(&updates);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(SWEEP_EVERY);
            tick.tick().await;
            loop {
                tick.tick().await;
                let Some(updates) = sweeper.upgrade() else { return };
                updates.sweep().await;
            }
        });
        Ok(updates)
    }

    /// Unsubscribes the channels nobody waits on.
    async fn sweep(&self) {
        let _ops = self.ops.lock().await;
        let idle: Vec<String> = match self.channels.lock() {
            Ok(mut channels) => {
                let idle = channels
                    .iter()
                    .filter(|(_, c)| c.waiting == 0)
                    .map(|(name, _)| name.clone())
                    .collect::<Vec<_>>();
                for name in &idle {
                    channels.remove(name);
                }
                idle
            }
            Err(_) => return,
        };
        if !idle.is_empty() {
            let mut conn = self.conn.clone();
            if let Err(e) = conn.unsubscribe(&idle).await {
                tracing::warn!(error = %e, "could not unsubscribe from idle game channels");
            }
        }
    }

    /// Returns once `channel` publishes a revision other than `known`, or after `within`.
    /// `current` reads the game's revision once the subscription stands, so a write that came
    /// just before it is not missed.
    pub async fn wait<F>(
        &self,
        channel: String,
        known: String,
        within: Duration,
        current: F,
    ) -> Result<(), StoreError>
    where
        F: AsyncFnOnce() -> Result<Option<String>, StoreError>,
    {
        let mut latest = {
            let mut channels = self.channels.lock().map_err(|_| unavailable("poisoned"))?;
            let entry = channels.entry(channel.clone()).or_insert_with(|| Channel {
                latest: watch::channel(known.clone()).0,
                waiting: 0,
                subscribed: false,
            });
            entry.waiting += 1;
            entry.latest.subscribe()
        };
        let _waiting = Waiting {
            channels: &self.channels,
            channel: channel.clone(),
        };
        {
            let _ops = self.ops.lock().await;
            let needed = self
                .channels
                .lock()
                .map_err(|_| unavailable("poisoned"))?
                .get(&channel)
                .is_some_and(|c| !c.subscribed);
            if needed {
                let mut conn = self.conn.clone();
                conn.subscribe(&channel).await.map_err(unavailable)?;
                if let Some(entry) = self
                    .channels
                    .lock()
                    .map_err(|_| unavailable("poisoned"))?
                    .get_mut(&channel)
                {
                    entry.subscribed = true;
                }
            }
        }
        if current().await?.as_deref() != Some(known.as_str()) {
            return Ok(());
        }
        let _ = tokio::time::timeout(within, async {
            while latest.changed().await.is_ok() {
                if *latest.borrow_and_update() != known {
                    return;
                }
            }
        })
        .await;
        Ok(())
    }
}
