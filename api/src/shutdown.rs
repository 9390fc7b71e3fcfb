//! How the process stops: "on SIGTERM, each stream gets a final message telling it to
//! reconnect, and the process exits within about 2 s when nothing but streams is open".
//!
//! SIGTERM (or SIGINT) first tells every push stream to end with a `reconnect` message, then
//! stops the server gracefully: it stops accepting, closes idle keep-alive connections, and waits
//! up to `ROADIE_SHUTDOWN_TIMEOUT_SECS` for the other requests in flight. A stream holds nothing
//! a reconnect to another process would not find in the store, so it need not be waited for.

use std::future::Future;

use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::watch;

/// Whether the process is stopping, for the requests that would otherwise outlive it.
#[derive(Debug)]
pub struct Draining(watch::Sender<bool>);

impl Default for Draining {
    fn default() -> Self {
        Self(watch::channel(false).0)
    }
}

impl Draining {
    /// Tells every subscriber, present and future, that the process is stopping.
    pub fn begin(&self) {
        self.0.send_replace(true);
    }

    /// A receiver that holds `true` once the process is stopping.
    pub fn subscribe(&self) -> watch::Receiver<bool> {
        self.0.subscribe()
    }
}

/// Resolves on the first SIGTERM or SIGINT, once `draining` has begun. The handlers are in
/// place when this returns, so that a signal sent from then on is never lost.
pub fn on_signal(
    draining: std::sync::Arc<Draining>,
) -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        let name = tokio::select! {
            _ = terminate.recv() => "SIGTERM",
            _ = interrupt.recv() => "SIGINT",
        };
        tracing::info!(signal = name, "stopping: streams are told to reconnect");
        draining.begin();
    })
}

/// Resolves once `draining` holds `true`.
pub async fn stopping(draining: &mut watch::Receiver<bool>) {
    if draining.wait_for(|stopping| *stopping).await.is_err() {
        // The sender is gone with the server: nothing will say stop any more.
        std::future::pending::<()>().await;
    }
}
