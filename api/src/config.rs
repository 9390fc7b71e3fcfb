//! Configuration, read once from the environment at start.

use std::time::Duration;

use rand::RngCore;

/// Every knob of the service. Each field names the variable that sets it.
#[derive(Clone)]
pub struct Config {
    /// `ROADIE_ADDR`: where to listen (default `127.0.0.1:8080`).
    pub addr: String,
    /// `ROADIE_REDIS_URL`: the Redis store (`redis://host:port/db`, `redis+unix:///path`, or
    /// `redis+cluster://host:port,host:port` for Redis Cluster). Unset: the in-memory store.
    pub redis_url: Option<String>,
    /// `ROADIE_JWT_SECRET`: the HS256 key that signs seat tokens. Unset: a random one per start.
    pub jwt_secret: Vec<u8>,
    /// True when `jwt_secret` was made at start because `ROADIE_JWT_SECRET` was unset.
    pub jwt_secret_generated: bool,
    /// `ROADIE_TOKEN_TTL_SECS`: how long a seat or host token is valid (default 7 days).
    pub token_ttl: Duration,
    /// `ROADIE_BODY_LIMIT`: the largest request body in bytes (default 65536).
    pub body_limit: usize,
    /// `ROADIE_GAME_TTL_SECS`: a game untouched this long is forgotten (default 7 days).
    pub game_ttl: Duration,
    /// `ROADIE_FINISHED_TTL_SECS`: a finished game is kept this long after its last action
    /// (default 1 day).
    pub finished_ttl: Duration,
    /// `ROADIE_CAS_RETRIES`: how often a post that lost a race is re-applied to the newer state
    /// before the client gets `409 contention` (default 16).
    pub cas_retries: u32,
    /// `ROADIE_CACHE_GAMES`: how many decoded games each process keeps between requests, checked
    /// against the store's version before use (default 10000; `0` turns the cache off).
    pub cache_games: usize,
    /// `ROADIE_CACHE_TOKENS`: how many verified tokens each process remembers, so a token's
    /// signature is checked once (default 100000; `0` checks every request).
    pub cache_tokens: usize,
    /// `ROADIE_STORE_TIMEOUT_MS`: how long one store call may take before the request gets
    /// `503` (default 2000).
    pub store_timeout: Duration,
    /// `ROADIE_WORKERS`: HTTP worker threads (default: one per core).
    pub workers: Option<usize>,
    /// `ROADIE_SHUTDOWN_TIMEOUT_SECS`: how long a graceful shutdown waits for requests in flight
    /// (default 10).
    pub shutdown_timeout: u64,
    /// `ROADIE_LOG_FORMAT`: `text` (default) or `json`. The filter is `RUST_LOG` (default `info`).
    pub log_json: bool,
}

/// A variable that is set but cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{name}={value:?}: {reason}")]
pub struct ConfigError {
    name: &'static str,
    value: String,
    reason: &'static str,
}

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads variables through `lookup` (the environment, or a map in tests).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let get = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        let number = |name: &'static str, default: u64| -> Result<u64, ConfigError> {
            match get(name) {
                None => Ok(default),
                Some(v) => v.trim().parse().map_err(|_| ConfigError {
                    name,
                    value: v,
                    reason: "not a whole number",
                }),
            }
        };
        let (jwt_secret, jwt_secret_generated) = match get("ROADIE_JWT_SECRET") {
            Some(secret) => (secret.into_bytes(), false),
            None => {
                let mut secret = vec![0u8; 32];
                rand::rng().fill_bytes(&mut secret);
                (secret, true)
            }
        };
        let log_json = match get("ROADIE_LOG_FORMAT").as_deref() {
            None | Some("text") => false,
            Some("json") => true,
            Some(other) => {
                return Err(ConfigError {
                    name: "ROADIE_LOG_FORMAT",
                    value: other.to_owned(),
                    reason: "expected text or json",
                });
            }
        };
        let workers = match number("ROADIE_WORKERS", 0)? {
            0 => None,
            n => Some(n as usize),
        };
        Ok(Self {
            addr: get("ROADIE_ADDR").unwrap_or_else(|| "127.0.0.1:8080".into()),
            redis_url: get("ROADIE_REDIS_URL"),
            jwt_secret,
            jwt_secret_generated,
            token_ttl: Duration::from_secs(number("ROADIE_TOKEN_TTL_SECS", 7 * 86_400)?),
            body_limit: number("ROADIE_BODY_LIMIT", 65_536)? as usize,
            game_ttl: Duration::from_secs(number("ROADIE_GAME_TTL_SECS", 7 * 86_400)?.max(1)),
            finished_ttl: Duration::from_secs(number("ROADIE_FINISHED_TTL_SECS", 86_400)?.max(1)),
            cas_retries: number("ROADIE_CAS_RETRIES", 16)?.min(u32::MAX as u64) as u32,
            cache_games: number("ROADIE_CACHE_GAMES", 10_000)? as usize,
            cache_tokens: number("ROADIE_CACHE_TOKENS", 100_000)? as usize,
            store_timeout: Duration::from_millis(number("ROADIE_STORE_TIMEOUT_MS", 2_000)?.max(1)),
            workers,
            shutdown_timeout: number("ROADIE_SHUTDOWN_TIMEOUT_SECS", 10)?,
            log_json,
        })
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("addr", &self.addr)
            .field(
                "store",
                &if self.redis_url.is_some() {
                    "redis"
                } else {
                    "memory"
                },
            )
            .field("jwt_secret", &"<redacted>")
            .field("token_ttl", &self.token_ttl)
            .field("body_limit", &self.body_limit)
            .field("game_ttl", &self.game_ttl)
            .field("finished_ttl", &self.finished_ttl)
            .field("cas_retries", &self.cas_retries)
            .field("cache_games", &self.cache_games)
            .field("cache_tokens", &self.cache_tokens)
            .field("store_timeout", &self.store_timeout)
            .field("workers", &self.workers)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_need_no_environment_and_make_a_secret() {
        let config = Config::from_lookup(|_| None).expect("defaults");
        assert_eq!(config.addr, "127.0.0.1:8080");
        assert!(config.redis_url.is_none());
        assert!(config.jwt_secret_generated);
        assert_eq!(config.jwt_secret.len(), 32);
    }

    #[test]
    fn a_number_that_is_not_one_is_refused() {
        let err = Config::from_lookup(|name| (name == "ROADIE_BODY_LIMIT").then(|| "lots".into()));
        assert!(err.is_err());
    }

    #[test]
    fn the_debug_form_never_shows_the_secret() {
        let config = Config::from_lookup(|name| (name == "ROADIE_JWT_SECRET").then(|| "hunter2".into()))
            .expect("config");
        assert!(!format!("{config:?}").contains("hunter2"));
    }
}
