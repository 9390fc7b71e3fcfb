//! Structured logs with `tracing`. Hands, tokens and seeds are never logged.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber: `RUST_LOG` filters (default `info`), JSON lines or text on
/// stderr. A second call does nothing.
pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}
