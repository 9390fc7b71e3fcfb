//! What one client may take: games created per address (counted in the store, so every process
//! shares the count), requests per token (counted by each process), and connections per address.
//!
//! Each refusal is `429` with `Retry-After`, so that one client cannot starve the others.

use std::any::Any;
use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::HttpRequest;
use actix_web::dev::Extensions;
use governor::{DefaultKeyedRateLimiter, Quota as GovernorQuota, RateLimiter};

use crate::metrics::Metrics;
use crate::store::{GameStore, Quota};
use crate::table::{Code, Refusal};

/// Where a client's address is read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientAddress {
    /// The connection's peer.
    Peer,
    /// The last address of this header (the one a trusted proxy in front added), else the peer.
    Header(String),
}

/// The limits, as configured.
#[derive(Clone, Debug)]
pub struct LimitsConfig {
    /// Games one address may create (`None`: no limit).
    pub creation: Option<Quota>,
    /// Requests one token may make to one process (`None`: no limit).
    pub per_token: Option<Quota>,
    /// Connections one address may hold open to one process (`0`: no limit).
    pub connections_per_address: usize,
    /// Where the client's address comes from.
    pub client_address: ClientAddress,
}

/// The limits in force, shared by every worker.
pub struct Limits {
    config: LimitsConfig,
    tokens: Option<DefaultKeyedRateLimiter<(String, Option<usize>)>>,
    connections: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One open connection, counted against its address until it closes.
pub struct ConnectionSlot {
    address: IpAddr,
    /// True when the address already held as many connections as it may.
    pub over_limit: bool,
    connections: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        if let Ok(mut connections) = self.connections.lock()
            && let Some(n) = connections.get_mut(&self.address)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                connections.remove(&self.address);
            }
        }
    }
}

fn rate_limited(retry_after: Duration, detail: String) -> Refusal {
    Refusal::rate_limited(retry_after.as_secs_f64().ceil() as u64, detail)
}

impl Limits {
    /// The limits of `config`.
    pub fn new(config: LimitsConfig) -> Self {
        let tokens = config.per_token.and_then(|quota| {
            let per_second = NonZeroU32::new(quota.per_second.ceil() as u32)?;
            let burst = NonZeroU32::new(quota.burst.max(1)).unwrap_or(NonZeroU32::MIN);
            Some(RateLimiter::dashmap(
                GovernorQuota::per_second(per_second).allow_burst(burst),
            ))
        });
        Self {
            config,
            tokens,
            connections: Arc::default(),
        }
    }

    /// Forgets the token buckets that are full again, so that the table does not grow forever.
    pub fn sweep(&self) {
        if let Some(tokens) = &self.tokens {
            tokens.retain_recent();
            tokens.shrink_to_fit();
        }
    }

    /// The client's address, as the configuration says to read it.
    pub fn client_of(&self, req: &HttpRequest) -> Option<IpAddr> {
        if let ClientAddress::Header(name) = &self.config.client_address
            && let Some(address) = req
                .headers()
                .get_all(name.as_str())
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|a| a.trim().parse::<IpAddr>().ok())
                .last()
        {
            return Some(address);
        }
        req.peer_addr().map(|a| a.ip())
    }

    /// `429` unless the client may create another game now.
    pub async fn admit_creation(
        &self,
        req: &HttpRequest,
        store: &dyn GameStore,
        metrics: &Metrics,
    ) -> Result<(), Refusal> {
        let (Some(quota), Some(client)) = (self.config.creation, self.client_of(req)) else {
            return Ok(());
        };
        match store.take_token(&format!("create:{client}"), quota).await {
            Ok(None) => Ok(()),
            Ok(Some(wait)) => {
                metrics.rate_limited();
                Err(rate_limited(
                    wait,
                    format!(
                        "this address may create {} games at once and {} per second after that",
                        quota.burst, quota.per_second
                    ),
                ))
            }
            Err(e) => {
                metrics.store_error();
                Err(Refusal::from(e))
            }
        }
    }

    /// `429` unless the token of `game` and `seat` (`None`: the host) may make another request.
    pub fn admit_token(&self, game: &str, seat: Option<usize>, metrics: &Metrics) -> Result<(), Refusal> {
        let Some(tokens) = &self.tokens else {
            return Ok(());
        };
        tokens.check_key(&(game.to_owned(), seat)).map_err(|not_until| {
            metrics.rate_limited();
            let wait = not_until.wait_time_from(governor::clock::Clock::now(
                &governor::clock::DefaultClock::default(),
            ));
            rate_limited(wait, "this token is making requests faster than it may".into())
        })
    }

    /// Counts a new connection against its address (the `on_connect` hook of the server).
    pub fn on_connect(&self, connection: &dyn Any, data: &mut Extensions) {
        if self.config.connections_per_address == 0 {
            return;
        }
        let Some(address) = connection
            .downcast_ref::<actix_web::rt::net::TcpStream>()
            .and_then(|tcp| tcp.peer_addr().ok())
            .map(|a| a.ip())
        else {
            return;
        };
        let Ok(mut connections) = self.connections.lock() else {
            return;
        };
        let held = connections.entry(address).or_default();
        *held += 1;
        data.insert(ConnectionSlot {
            address,
            over_limit: *held > self.config.connections_per_address,
            connections: Arc::clone(&self.connections),
        });
    }

    /// `429` (and the connection closed) when the request came on a connection beyond its
    /// address's limit.
    pub fn admit_connection(&self, req: &actix_web::dev::ServiceRequest) -> Result<(), Refusal> {
        match req.conn_data::<ConnectionSlot>() {
            Some(slot) if slot.over_limit => Err(Refusal::new(
                Code::TooManyConnections,
                format!(
                    "this address already holds {} connections; reuse one of them",
                    self.config.connections_per_address
                ),
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_beyond_its_burst_waits() {
        let limits = Limits::new(LimitsConfig {
            creation: None,
            per_token: Some(Quota {
                per_second: 1.0,
                burst: 3,
            }),
            connections_per_address: 0,
            client_address: ClientAddress::Peer,
        });
        let metrics = Metrics::default();
        for _ in 0..3 {
            assert!(limits.admit_token("g", Some(0), &metrics).is_ok());
        }
        assert!(matches!(
            limits.admit_token("g", Some(0), &metrics),
            Err(e) if e.code() == Code::RateLimited
        ));
        assert!(
            limits.admit_token("g", Some(1), &metrics).is_ok(),
            "another seat has its own bucket"
        );
    }
}
