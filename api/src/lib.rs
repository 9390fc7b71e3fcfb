//! Roadie's HTTP service: the engine's games over a REST API, in layers that depend one way:
//!
//! - [`table`], the core: a game's table and every change to it as a value applied by pure
//!   functions with `now` passed in; why it says no is a [`table::Refusal`].
//! - [`store`], where tables live (Redis, or memory when no Redis is configured); it knows the
//!   core's types and nothing above them.
//! - [`service`], the only code that reads and writes the store: each verb hands a change to the
//!   core and writes it through the one write path.
//! - [`http`], the edge: extractors, routes, the OpenAPI document, and the one place a refusal
//!   becomes `application/problem+json`. [`wire`] holds the bodies the service answers with.
#![deny(missing_docs)]

pub mod apps;
pub mod archive;
pub mod config;
pub mod http;
pub mod metrics;
pub mod records;
pub mod service;
pub mod shutdown;
pub mod startup;
pub mod store;
pub mod table;
pub mod telemetry;
pub mod tokens;
pub mod wire;

use config::Config;
use startup::{Application, StartError};

/// Reads the environment, starts the service and serves until a signal stops it.
pub async fn serve() -> Result<(), Box<dyn std::error::Error>> {
    let config = Config::from_env()?;
    telemetry::init(config.log_json);
    let app = Application::build(config)
        .await
        .map_err(|e: StartError| Box::new(e) as Box<dyn std::error::Error>)?;
    app.run_until_stopped().await?;
    tracing::info!("roadie stopped");
    Ok(())
}
