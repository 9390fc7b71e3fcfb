//! Roadie's HTTP service: the engine's games over a REST API.
//!
//! Handlers in [`routes`] parse, call one verb of [`domain::Games`] and map the result; errors
//! are [`error::ApiError`], turned into `application/problem+json` in one place. Games live in
//! a [`store::GameStore`] (Redis, or memory when no Redis is configured).
#![deny(missing_docs)]

pub mod auth;
pub mod body;
pub mod cache;
pub mod catalogue;
pub mod clocks;
pub mod config;
pub mod domain;
pub mod error;
pub mod headroom;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod model;
pub mod openapi;
pub mod request;
pub mod routes;
pub mod seats;
pub mod shutdown;
pub mod startup;
pub mod store;
pub mod stream;
pub mod telemetry;
pub mod web;
pub mod webhooks;

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
