//! Structured logs with `tracing`. Hands, tokens and seeds are never logged.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber: `RUST_LOG` filters (default `info`), JSON lines or text on
/// stderr, coloured only when stderr is a terminal (a file or a log collector gets plain text).
/// A second call does nothing.
pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}
