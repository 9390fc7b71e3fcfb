//! Configuration, read once from the environment at start.

use std::time::Duration;

use rand::RngCore;
use roadie_engine::search;
use secrecy::{SecretSlice, SecretString};

use crate::http::limits::{ClientAddress, LimitsConfig};
use crate::service::bots::BotConfig;
use crate::service::webhooks::WebhookConfig;
use crate::store::{DEFAULT_DUE_SHARDS, Quota};
use crate::table::tickets::MatchWindow;

/// The shortest `ROADIE_JWT_SECRET` accepted, in bytes: HS256 with a short or guessable secret
/// lets any player who holds a token find the secret by trying, and forge every other token.
pub const MIN_SECRET_BYTES: usize = 32;

/// Every knob of the service, grouped by what it governs. Each field names the variable that
/// sets it; the secrets are `secrecy` types, so the derived `Debug` shows every setting but them.
#[derive(Clone, Debug)]
pub struct Config {
    /// `ROADIE_LOG_FORMAT`: `text` (default) or `json`. The filter is `RUST_LOG` (default `info`).
    pub log_json: bool,
    /// The listener and its requests.
    pub http: HttpConfig,
    /// The store of games.
    pub store: StoreConfig,
    /// Seat and host tokens.
    pub tokens: TokenConfig,
    /// `ROADIE_CREATE_RATE`, `ROADIE_CREATE_BURST`, `ROADIE_TOKEN_RATE`, `ROADIE_TOKEN_BURST`,
    /// `ROADIE_MAX_CONNECTIONS_PER_ADDRESS` and `ROADIE_CLIENT_ADDRESS_HEADER`.
    pub limits: LimitsConfig,
    /// `ROADIE_WEBHOOK_HOSTS`, `ROADIE_WEBHOOK_TIMEOUT_MS`, `ROADIE_WEBHOOK_ATTEMPTS`,
    /// `ROADIE_WEBHOOK_BACKOFF_MS` and `ROADIE_WEBHOOK_SWEEP_MS`.
    pub webhooks: WebhookConfig,
    /// `ROADIE_BOT_WORKERS`, `ROADIE_BOT_EXPERT_MS`, `ROADIE_BOT_EXPERT_ITERATIONS`,
    /// `ROADIE_BOT_LEASE_MS`, `ROADIE_BOT_SWEEP_MS`, `ROADIE_HINT_RATE` and `ROADIE_HINT_BURST`.
    pub bots: BotConfig,
    /// `ROADIE_APPS`: the apps file (TOML); unset, the server is open: anyone may create games.
    pub apps: Option<std::path::PathBuf>,
    /// `ROADIE_REPAIR_EVERY_MS`: how often each process's reconciler sweeps the active games for
    /// missing due entries (default 60000).
    pub repair_every: Duration,
    /// `ROADIE_RULES_VERSIONS`: rules versions this process declares it plays instead of the
    /// build's (`slug=version`, separated by commas), for upgrade drills and their tests.
    pub rules_versions: String,
    /// `ROADIE_RECORD_KEY`, `ROADIE_RECORD_LIMIT`, `ROADIE_ARCHIVE_URL`,
    /// `ROADIE_ARCHIVE_SWEEP_MS` and `ROADIE_ARCHIVE_LEASE_MS`.
    pub records: RecordsConfig,
    /// `ROADIE_MATCH_WINDOW`, `ROADIE_RATING_SWEEP_MS` and `ROADIE_RATING_LEASE_MS`.
    pub ratings: RatingsConfig,
}

/// How ratings are written and used by matchmaking.
#[derive(Clone, Debug)]
pub struct RatingsConfig {
    /// `ROADIE_MATCH_WINDOW`: how near in rating the tickets of an app's players must be to sit
    /// together, `start,later,secs` (default `50,300,30`: ±50 at once, ±300 after 30 s of
    /// waiting, and wider at that pace for as long as a ticket waits); `off` seats them whatever
    /// their ratings.
    pub match_window: Option<MatchWindow>,
    /// `ROADIE_RATING_SWEEP_MS`: how often each process looks for finished rated games to rate
    /// (default 250).
    pub sweep: Duration,
    /// `ROADIE_RATING_LEASE_MS`: how long a process's claim on a game to rate holds before
    /// another may take it (default 10000).
    pub lease: Duration,
}

/// A window as `ROADIE_MATCH_WINDOW` writes it: `start,later,secs`.
fn match_window(text: &str) -> Option<MatchWindow> {
    let mut parts = text.split(',').map(str::trim);
    let start: i64 = parts.next()?.parse().ok()?;
    let later: i64 = parts.next()?.parse().ok()?;
    let secs: u64 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || start < 0 || later < start || secs > 86_400 {
        return None;
    }
    Some(MatchWindow {
        start,
        later,
        widen_ms: secs * 1000,
    })
}

/// How game records are signed and read.
#[derive(Clone, Debug)]
pub struct RecordsConfig {
    /// `ROADIE_RECORD_KEY`: a PEM file whose first Ed25519 `PRIVATE KEY` signs game records,
    /// any further keys being retired ones still listed (default: a key made at start).
    pub key: Option<std::path::PathBuf>,
    /// `ROADIE_RECORD_LIMIT`: the largest record `POST /v1/records/verify` reads, in bytes
    /// (default 8388608).
    pub max_bytes: usize,
    /// `ROADIE_ARCHIVE_URL`: where finished games are archived, `file:///dir` or
    /// `s3://bucket/prefix` (the S3 endpoint, region and keys from the `AWS_*` variables);
    /// unset, none are.
    pub archive_url: Option<String>,
    /// `ROADIE_ARCHIVE_SWEEP_MS`: how often each process looks for finished games to archive
    /// (default 500).
    pub archive_sweep: Duration,
    /// `ROADIE_ARCHIVE_LEASE_MS`: how long a process's claim on a game to archive holds before
    /// another may take it (default 30000).
    pub archive_lease: Duration,
}

/// The listener, its workers and how long a request may take to arrive.
#[derive(Clone, Debug)]
pub struct HttpConfig {
    /// `ROADIE_ADDR`: where to listen (default `127.0.0.1:8080`).
    pub addr: String,
    /// `ROADIE_WORKERS`: HTTP worker threads (default: one per core).
    pub workers: Option<usize>,
    /// `ROADIE_MAX_CONNECTIONS`: open connections per worker (default: the open-file limit,
    /// shared among the workers, less a reserve for the store).
    pub max_connections: Option<usize>,
    /// `ROADIE_BODY_LIMIT`: the largest request body in bytes (default 65536).
    pub body_limit: usize,
    /// `ROADIE_BODY_TIMEOUT_MS`: how long a request body may take to arrive whole (default
    /// 10000); later, `408` and the connection is closed.
    pub body_timeout: Duration,
    /// `ROADIE_HEADER_TIMEOUT_MS`: how long a request's headers may take (default 5000).
    pub header_timeout: Duration,
    /// `ROADIE_SHUTDOWN_TIMEOUT_SECS`: how long a graceful shutdown waits for requests in flight
    /// (default 10).
    pub shutdown_timeout: u64,
    /// `ROADIE_CORS_ORIGINS`: origins (`https://host:port`, separated by commas) whose pages may
    /// call the API from a browser (default none: only pages the service itself serves).
    pub cors_origins: Vec<String>,
}

/// Where games are kept, for how long, and how the process uses the store.
#[derive(Clone, Debug)]
pub struct StoreConfig {
    /// `ROADIE_REDIS_URL`: the Redis store (`redis://host:port/db`, `redis+unix:///path`, or
    /// `redis+cluster://host:port,host:port` for Redis Cluster). Unset: the in-memory store.
    /// Secret: it may hold a password.
    pub redis_url: Option<SecretString>,
    /// `ROADIE_STORE_TIMEOUT_MS`: how long one store call may take before the request gets
    /// `503` (default 2000).
    pub timeout: Duration,
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
    /// `ROADIE_STORE_CREATE_LIMIT_PERCENT`: the share of the store's `maxmemory` from which new
    /// games are refused (default 80; `0` never refuses).
    pub create_limit_percent: u64,
    /// `ROADIE_CLOCK_SWEEP_MS`: how often each process looks for games whose clock ran out
    /// (default 250): a timeout is played at most this long after its deadline.
    pub clock_sweep: Duration,
    /// `ROADIE_TICKET_TTL_SECS`: how long a matchmaking ticket waits before it expires, and how
    /// long an ended ticket is kept to be read (default 300).
    pub ticket_ttl: Duration,
    /// `ROADIE_TICKET_LEASE_MS`: how long a process holds a batch of tickets it is seating before
    /// another process may complete it (default 10000).
    pub ticket_lease: Duration,
    /// `ROADIE_TICKET_SWEEP_MS`: how often each process looks at the matchmaking queues that are
    /// due (default 250): bots and expiries come at most this late.
    pub ticket_sweep: Duration,
    /// `ROADIE_DUE_SHARDS`: how many shards each index of due work is spread over (default 16,
    /// 1 to 256); every process on one store must say the same.
    pub due_shards: u16,
}

/// Seat and host tokens.
#[derive(Clone, Debug)]
pub struct TokenConfig {
    /// `ROADIE_JWT_SECRET`: the HS256 key that signs seat tokens. Unset: a random one per start.
    pub jwt_secret: SecretSlice<u8>,
    /// True when `jwt_secret` was made at start because `ROADIE_JWT_SECRET` was unset.
    pub jwt_secret_generated: bool,
    /// `ROADIE_TOKEN_TTL_SECS`: a cap on how long a seat or host token is valid; `0` (the
    /// default): as long as its game, since every token is checked against its game's existence
    /// and, for a seat, the seat's token generation.
    pub ttl: Duration,
    /// `ROADIE_CACHE_TOKENS`: how many verified tokens each process remembers, so a token's
    /// signature is checked once (default 100000; `0` checks every request).
    pub cache: usize,
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
        let decimal = |name: &'static str, default: f64| -> Result<f64, ConfigError> {
            match get(name) {
                None => Ok(default),
                Some(v) => v
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|n| n.is_finite() && *n >= 0.0)
                    .ok_or(ConfigError {
                        name,
                        value: v,
                        reason: "not a number of zero or more",
                    }),
            }
        };
        let quota = |rate: &'static str, default_rate: f64, burst: &'static str, default_burst: u64| {
            let per_second = decimal(rate, default_rate)?;
            let burst = number(burst, default_burst)?.clamp(1, u64::from(u32::MAX)) as u32;
            Ok::<_, ConfigError>((per_second > 0.0).then_some(Quota { per_second, burst }))
        };
        let (jwt_secret, jwt_secret_generated) = match get("ROADIE_JWT_SECRET") {
            Some(secret) if secret.len() < MIN_SECRET_BYTES => {
                return Err(ConfigError {
                    name: "ROADIE_JWT_SECRET",
                    value: "<redacted>".into(),
                    reason: "shorter than 32 bytes: anyone holding a token could find it by trying; \
                             make one with `openssl rand -hex 32`",
                });
            }
            Some(secret) if distinct_bytes(secret.as_bytes()) < 8 => {
                return Err(ConfigError {
                    name: "ROADIE_JWT_SECRET",
                    value: "<redacted>".into(),
                    reason: "fewer than 8 different characters: too easy to guess; \
                             make one with `openssl rand -hex 32`",
                });
            }
            Some(secret) if patterned(secret.as_bytes()) => {
                return Err(ConfigError {
                    name: "ROADIE_JWT_SECRET",
                    value: "<redacted>".into(),
                    reason: "its characters repeat a short pattern or run in sequence: too easy to \
                             guess; make one with `openssl rand -hex 32`",
                });
            }
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
            log_json,
            http: HttpConfig {
                addr: get("ROADIE_ADDR").unwrap_or_else(|| "127.0.0.1:8080".into()),
                workers,
                max_connections: match number("ROADIE_MAX_CONNECTIONS", 0)? {
                    0 => None,
                    n => Some(n as usize),
                },
                body_limit: number("ROADIE_BODY_LIMIT", 65_536)? as usize,
                body_timeout: Duration::from_millis(number("ROADIE_BODY_TIMEOUT_MS", 10_000)?.max(1)),
                header_timeout: Duration::from_millis(number("ROADIE_HEADER_TIMEOUT_MS", 5_000)?.max(1)),
                shutdown_timeout: number("ROADIE_SHUTDOWN_TIMEOUT_SECS", 10)?,
                cors_origins: get("ROADIE_CORS_ORIGINS")
                    .map(|list| {
                        list.split(',')
                            .map(|origin| origin.trim().trim_end_matches('/').to_owned())
                            .filter(|origin| !origin.is_empty())
                            .collect()
                    })
                    .unwrap_or_default(),
            },
            store: StoreConfig {
                redis_url: get("ROADIE_REDIS_URL").map(SecretString::from),
                timeout: Duration::from_millis(number("ROADIE_STORE_TIMEOUT_MS", 2_000)?.max(1)),
                game_ttl: Duration::from_secs(number("ROADIE_GAME_TTL_SECS", 7 * 86_400)?.max(1)),
                finished_ttl: Duration::from_secs(number("ROADIE_FINISHED_TTL_SECS", 86_400)?.max(1)),
                cas_retries: number("ROADIE_CAS_RETRIES", 16)?.min(u32::MAX as u64) as u32,
                cache_games: number("ROADIE_CACHE_GAMES", 10_000)? as usize,
                create_limit_percent: number("ROADIE_STORE_CREATE_LIMIT_PERCENT", 80)?.min(100),
                clock_sweep: Duration::from_millis(number("ROADIE_CLOCK_SWEEP_MS", 250)?.max(10)),
                ticket_ttl: Duration::from_secs(number("ROADIE_TICKET_TTL_SECS", 300)?.max(1)),
                ticket_lease: Duration::from_millis(number("ROADIE_TICKET_LEASE_MS", 10_000)?.max(100)),
                ticket_sweep: Duration::from_millis(number("ROADIE_TICKET_SWEEP_MS", 250)?.max(10)),
                due_shards: match number("ROADIE_DUE_SHARDS", u64::from(DEFAULT_DUE_SHARDS))? {
                    n @ 1..=256 => n as u16,
                    n => {
                        return Err(ConfigError {
                            name: "ROADIE_DUE_SHARDS",
                            value: n.to_string(),
                            reason: "is from 1 to 256",
                        });
                    }
                },
            },
            tokens: TokenConfig {
                jwt_secret: SecretSlice::from(jwt_secret),
                jwt_secret_generated,
                ttl: Duration::from_secs(number("ROADIE_TOKEN_TTL_SECS", 0)?),
                cache: number("ROADIE_CACHE_TOKENS", 100_000)? as usize,
            },
            limits: LimitsConfig {
                creation: quota("ROADIE_CREATE_RATE", 2.0, "ROADIE_CREATE_BURST", 20)?,
                per_token: quota("ROADIE_TOKEN_RATE", 100.0, "ROADIE_TOKEN_BURST", 200)?,
                connections_per_address: number("ROADIE_MAX_CONNECTIONS_PER_ADDRESS", 256)? as usize,
                client_address: match get("ROADIE_CLIENT_ADDRESS_HEADER") {
                    None => ClientAddress::Peer,
                    Some(name) => ClientAddress::Header(name.trim().to_ascii_lowercase()),
                },
            },
            bots: BotConfig {
                workers: number("ROADIE_BOT_WORKERS", 2)?.clamp(1, 1024) as usize,
                expert_time: Duration::from_millis(
                    number("ROADIE_BOT_EXPERT_MS", search::DEFAULT_TIME.as_millis() as u64)?.clamp(1, 60_000),
                ),
                expert_iterations: number(
                    "ROADIE_BOT_EXPERT_ITERATIONS",
                    u64::from(search::DEFAULT_ITERATIONS),
                )?
                .clamp(1, u64::from(u32::MAX)) as u32,
                lease: Duration::from_millis(number("ROADIE_BOT_LEASE_MS", 10_000)?.max(100)),
                sweep: Duration::from_millis(number("ROADIE_BOT_SWEEP_MS", 250)?.max(10)),
                write_grace: Duration::from_secs(5),
                hints: quota("ROADIE_HINT_RATE", 0.5, "ROADIE_HINT_BURST", 5)?,
            },
            apps: get("ROADIE_APPS").map(|path| std::path::PathBuf::from(path.trim())),
            rules_versions: get("ROADIE_RULES_VERSIONS").unwrap_or_default(),
            repair_every: Duration::from_millis(number("ROADIE_REPAIR_EVERY_MS", 60_000)?.max(100)),
            records: RecordsConfig {
                key: get("ROADIE_RECORD_KEY").map(|path| std::path::PathBuf::from(path.trim())),
                max_bytes: number("ROADIE_RECORD_LIMIT", 8 << 20)? as usize,
                archive_url: get("ROADIE_ARCHIVE_URL")
                    .map(|url| url.trim().to_owned())
                    .filter(|url| !url.is_empty()),
                archive_sweep: Duration::from_millis(number("ROADIE_ARCHIVE_SWEEP_MS", 500)?.max(10)),
                archive_lease: Duration::from_millis(number("ROADIE_ARCHIVE_LEASE_MS", 30_000)?.max(100)),
            },
            ratings: RatingsConfig {
                match_window: match get("ROADIE_MATCH_WINDOW") {
                    None => Some(MatchWindow::default()),
                    Some(text) if text.trim() == "off" => None,
                    Some(text) => Some(match_window(&text).ok_or(ConfigError {
                        name: "ROADIE_MATCH_WINDOW",
                        value: text.clone(),
                        reason: "is `start,later,secs` (points either way, 0 <= start <= later; secs up to 86400), or `off`",
                    })?),
                },
                sweep: Duration::from_millis(number("ROADIE_RATING_SWEEP_MS", 250)?.max(10)),
                lease: Duration::from_millis(number("ROADIE_RATING_LEASE_MS", 10_000)?.max(100)),
            },
            webhooks: WebhookConfig {
                hosts: get("ROADIE_WEBHOOK_HOSTS")
                    .map(|list| {
                        list.split(',')
                            .map(|host| host.trim().to_ascii_lowercase())
                            .filter(|host| !host.is_empty())
                            .collect()
                    })
                    .unwrap_or_default(),
                timeout: Duration::from_millis(number("ROADIE_WEBHOOK_TIMEOUT_MS", 5_000)?.max(1)),
                attempts: number("ROADIE_WEBHOOK_ATTEMPTS", 10)?.clamp(1, 100) as u32,
                backoff: Duration::from_millis(number("ROADIE_WEBHOOK_BACKOFF_MS", 1_000)?),
                sweep_every: Duration::from_millis(number("ROADIE_WEBHOOK_SWEEP_MS", 500)?.max(10)),
                write_grace: Duration::from_millis(number("ROADIE_STORE_TIMEOUT_MS", 2_000)?.max(1)) * 2
                    + Duration::from_secs(1),
            },
        })
    }
}

/// Whether `bytes` is made by a rule rather than by chance: a short pattern repeated (it equals
/// itself shifted by at most half its length, as `0123456789012...` does by ten), or a run in
/// which most steps from one character to the next are the same (`abcdefgh...`, `13579...`,
/// `zyxw...`). Neither happens to 32 random bytes, nor to `openssl rand -hex 32`.
fn patterned(bytes: &[u8]) -> bool {
    let repeats = (1..=bytes.len() / 2).any(|period| bytes.iter().zip(&bytes[period..]).all(|(a, b)| a == b));
    let mut steps = [0usize; 511];
    for pair in bytes.windows(2) {
        steps[usize::from(pair[1]) + 255 - usize::from(pair[0])] += 1;
    }
    let commonest = steps.iter().copied().max().unwrap_or(0);
    repeats || 2 * commonest > bytes.len().saturating_sub(1)
}

fn distinct_bytes(bytes: &[u8]) -> usize {
    let mut seen = [false; 256];
    bytes.iter().for_each(|&b| seen[usize::from(b)] = true);
    seen.iter().filter(|&&s| s).count()
}

#[cfg(test)]
mod tests {
    use secrecy::ExposeSecret;

    use super::*;

    #[test]
    fn defaults_need_no_environment_and_make_a_secret() {
        let config = Config::from_lookup(|_| None).expect("defaults");
        assert_eq!(config.http.addr, "127.0.0.1:8080");
        assert!(config.store.redis_url.is_none());
        assert!(config.tokens.jwt_secret_generated);
        assert_eq!(config.tokens.jwt_secret.expose_secret().len(), 32);
    }

    #[test]
    fn a_number_that_is_not_one_is_refused() {
        let err = Config::from_lookup(|name| (name == "ROADIE_BODY_LIMIT").then(|| "lots".into()));
        assert!(err.is_err());
    }

    #[test]
    fn the_debug_form_never_shows_the_secrets() {
        let secret = "hunter2-swordfish-correct-horse-battery";
        let url = "redis://:sw0rdfish@redis.internal:6379/0";
        let config = Config::from_lookup(|name| match name {
            "ROADIE_JWT_SECRET" => Some(secret.into()),
            "ROADIE_REDIS_URL" => Some(url.into()),
            _ => None,
        })
        .expect("config");
        let debug = format!("{config:?}");
        assert!(!debug.contains(secret) && !debug.contains("sw0rdfish"), "{debug}");
        assert_eq!(
            config.store.redis_url.as_ref().map(|u| u.expose_secret()),
            Some(url)
        );
    }

    /// The derived form shows every setting, so a new one cannot be left out of the logs.
    #[test]
    fn the_debug_form_shows_every_other_setting() {
        let config = Config::from_lookup(|_| None).expect("defaults");
        let debug = format!("{config:?}");
        for field in [
            "log_json",
            "addr: \"127.0.0.1:8080\"",
            "workers",
            "max_connections",
            "body_limit: 65536",
            "body_timeout",
            "header_timeout",
            "shutdown_timeout: 10",
            "redis_url: None",
            "game_ttl",
            "finished_ttl",
            "cas_retries: 16",
            "cache_games: 10000",
            "create_limit_percent: 80",
            "clock_sweep: 250ms",
            "ticket_ttl: 300s",
            "ticket_lease: 10s",
            "ticket_sweep: 250ms",
            "jwt_secret_generated: true",
            "ttl",
            "cache: 100000",
            "connections_per_address: 256",
        ] {
            assert!(debug.contains(field), "{field} in {debug}");
        }
    }

    #[test]
    fn a_short_or_repetitive_secret_is_refused_without_being_shown() {
        for secret in ["k9", "zq-change-me", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"] {
            let err = Config::from_lookup(|name| (name == "ROADIE_JWT_SECRET").then(|| secret.into()))
                .expect_err(secret);
            assert!(!err.to_string().contains(secret), "{err}");
        }
        let good = "3f1c9a4e8b7d6c5e2a1f0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e";
        assert!(Config::from_lookup(|name| (name == "ROADIE_JWT_SECRET").then(|| good.into())).is_ok());
    }

    #[test]
    fn a_secret_that_repeats_a_pattern_or_runs_in_sequence_is_refused_and_says_how_to_make_one() {
        for secret in [
            "01234567890123456789012345678901",
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ",
            "zyxwvutsrqponmlkjihgfedcbaZYXWVUTS",
            "passwordpasswordpasswordpassword",
            "0a1b2c3d4e5f6g7h0a1b2c3d4e5f6g7h",
            "13579bdfhjlnprtvxz13579bdfhjlnprtvxz",
        ] {
            let err = Config::from_lookup(|name| (name == "ROADIE_JWT_SECRET").then(|| secret.into()))
                .expect_err(secret);
            let said = err.to_string();
            assert!(!said.contains(secret), "{said}");
            assert!(said.contains("openssl rand -hex 32"), "{said}");
        }
        for good in [
            "3f1c9a4e8b7d6c5e2a1f0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e",
            "9b2e71f0c4d85a3e6f1b7c0d2a9e8f4c",
            "Tr0ub4dor&3-correct-horse-battery-staple",
        ] {
            assert!(
                Config::from_lookup(|name| (name == "ROADIE_JWT_SECRET").then(|| good.into())).is_ok(),
                "{good}"
            );
        }
    }

    #[test]
    fn a_rate_of_zero_turns_its_limit_off() {
        let config =
            Config::from_lookup(|name| (name == "ROADIE_CREATE_RATE").then(|| "0".into())).expect("config");
        assert!(config.limits.creation.is_none());
        assert!(config.limits.per_token.is_some());
    }
}
