//! Webhooks: `your_turn` and `game_over` notices posted to a URL the game's creator names,
//! signed with a per-game secret, delivered at least once by exactly one process at a time.
//!
//! A write that causes notices carries them in its [`Table`], and the store puts them in the
//! game's outbox in the same atomic write (see [`crate::store::Outbox`]). Every process runs a
//! [`spawn`]ed sweeper that claims due games with a lease, posts their notices oldest first,
//! removes each one its receiver accepts (any `2xx`), and on a failure (another status, no answer
//! within `ROADIE_WEBHOOK_TIMEOUT_MS`) waits `ROADIE_WEBHOOK_BACKOFF_MS`, doubled after each
//! failure of the same notice (at most [`MAX_BACKOFF`]), before trying again; a notice that failed
//! `ROADIE_WEBHOOK_ATTEMPTS` times is dropped, with a log line and a count in
//! `roadie_webhook_notices_total{result="dropped"}`. A write that adds notices coalesces the
//! outbox in the same atomic write, so that it holds at most one `your_turn` notice per seat and
//! `game_over` (see [`crate::store::superseded`]).
//!
//! A process delivers to 32 games at once, and each receiver gets a fair share of those slots
//! (see `slots`): a claim passes over the games of a receiver that holds its share, so a receiver
//! that never answers holds its share for the timeout and no more. The due set is in shards by
//! game id; a sweeper claims only in the shards it holds a lease on (taken for two sweep periods,
//! as the other sweeps' are), so processes share the shards rather than all reading one key.
//!
//! Only `http` and `https` URLs whose host (or `host:port`) is in `ROADIE_WEBHOOK_HOSTS` are
//! accepted, so that a client cannot aim the server at addresses the operator did not allow;
//! redirects are not followed. The secret is shown once, in the creation's answer, and never
//! appears in a view, an event, a notice or a log.

use std::sync::Arc;
use std::time::{Duration, Instant};

use hmac::{Hmac, Mac};
use rand::RngCore;
use reqwest::Url;
use sha2::Sha256;

use crate::metrics::{Metrics, NoticeResult};
use crate::store::{CLAIM_SCAN, Claim, GameStore, HeldShards, OutboxNotice, Webhook};
use crate::table::{Code, Refusal};

mod slots;
use slots::{Slot, Slots};

/// The longest webhook URL accepted, in bytes.
pub const MAX_URL_BYTES: usize = 2_048;

/// The longest wait between two deliveries of one notice.
pub const MAX_BACKOFF: Duration = Duration::from_secs(600);

/// The header that carries a notice's signature.
pub const SIGNATURE_HEADER: &str = "Roadie-Signature";

/// Notices of one game posted per claim; more wait for the next sweep.
const NOTICES_PER_CLAIM: usize = 16;

/// Games one process delivers to at once: its slots, shared between receivers.
const GAMES_AT_ONCE: usize = 32;

/// Random bytes of a game's secret.
const SECRET_BYTES: usize = 32;

/// The webhook knobs.
#[derive(Clone, Debug)]
pub struct WebhookConfig {
    /// `ROADIE_WEBHOOK_HOSTS`: hosts (`host` for any port, or `host:port`), lower case, that
    /// webhook URLs may name. Empty: webhooks are refused.
    pub hosts: Vec<String>,
    /// `ROADIE_WEBHOOK_TIMEOUT_MS`: how long a receiver has to answer (default 5000).
    pub timeout: Duration,
    /// `ROADIE_WEBHOOK_ATTEMPTS`: deliveries of one notice tried before it is dropped (default 10).
    pub attempts: u32,
    /// `ROADIE_WEBHOOK_BACKOFF_MS`: the wait after a notice's first failed delivery, doubled after
    /// each further one (default 1000).
    pub backoff: Duration,
    /// `ROADIE_WEBHOOK_SWEEP_MS`: how often each process looks for due notices (default 500).
    pub sweep_every: Duration,
    /// Twice `ROADIE_STORE_TIMEOUT_MS` and a second: a write marked longer ago than this has
    /// landed or failed, so an empty outbox then means nothing is on its way.
    pub write_grace: Duration,
}

impl Default for WebhookConfig {
    fn default() -> Self {
        Self {
            hosts: Vec::new(),
            timeout: Duration::from_secs(5),
            attempts: 10,
            backoff: Duration::from_secs(1),
            sweep_every: Duration::from_millis(500),
            write_grace: Duration::from_secs(5),
        }
    }
}

impl WebhookConfig {
    /// How long a claim holds a game: long enough for a few posts that each take the whole
    /// timeout.
    pub fn lease(&self) -> Duration {
        self.timeout * 3 + Duration::from_secs(2)
    }

    /// The wait before delivering a notice again after its `attempts`-th failure.
    pub fn backoff_after(&self, attempts: u32) -> Duration {
        let factor = 1u32 << attempts.saturating_sub(1).min(20);
        self.backoff.saturating_mul(factor).min(MAX_BACKOFF)
    }

    /// `url` if it may receive notices: `http` or `https`, at most [`MAX_URL_BYTES`], no user
    /// name or password, and a host the operator allows; else `422 invalid_webhook`.
    pub fn check_url(&self, url: &str) -> Result<Url, Refusal> {
        let refuse = |why: String| Refusal::new(Code::InvalidWebhook, why);
        if self.hosts.is_empty() {
            return Err(refuse(
                "this server sends no webhooks (its operator allows no webhook host)".into(),
            ));
        }
        if url.len() > MAX_URL_BYTES {
            return Err(refuse(format!("a webhook URL is at most {MAX_URL_BYTES} bytes")));
        }
        let parsed = Url::parse(url).map_err(|e| refuse(format!("the webhook URL does not parse: {e}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(refuse("a webhook URL is http:// or https://".into()));
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(refuse("a webhook URL carries no user name or password".into()));
        }
        let (Some(host), Some(port)) = (parsed.host_str(), parsed.port_or_known_default()) else {
            return Err(refuse("a webhook URL names a host".into()));
        };
        let host = host.to_ascii_lowercase();
        let allowed = self.hosts.iter().any(|entry| match entry.rsplit_once(':') {
            Some((name, p)) if p.parse::<u16>().is_ok() => *name == host && p.parse() == Ok(port),
            _ => *entry == host,
        });
        if !allowed {
            return Err(refuse(format!(
                "the webhook host {host}:{port} is not one this server's operator allows"
            )));
        }
        Ok(parsed)
    }

    /// A game's webhook to `url`, with a new random secret.
    pub fn target(&self, url: &str) -> Result<Webhook, Refusal> {
        let url = self.check_url(url)?;
        let mut secret = [0u8; SECRET_BYTES];
        rand::rng().fill_bytes(&mut secret);
        Ok(Webhook {
            url: url.into(),
            secret: hex::encode(secret),
        })
    }
}

/// Hex HMAC-SHA256 of `<timestamp>.<body>` under `secret` (its bytes as written).
pub fn signature(secret: &str, timestamp: u64, body: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// The sweeper of one process.
struct Sweeper {
    store: Arc<dyn GameStore>,
    client: reqwest::Client,
    config: WebhookConfig,
    metrics: Arc<Metrics>,
}

/// Starts this process's sweeper: it claims due games every `sweep_every` and delivers their
/// notices. Fails only when no HTTP client can be made.
pub fn spawn(
    store: Arc<dyn GameStore>,
    config: WebhookConfig,
    metrics: Arc<Metrics>,
) -> Result<(), reqwest::Error> {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(config.timeout)
        .user_agent(concat!("roadie-webhooks/", env!("CARGO_PKG_VERSION")))
        .build()?;
    let sweeper = Arc::new(Sweeper {
        store,
        client,
        config,
        metrics,
    });
    actix_web::rt::spawn(async move { sweeper.run().await });
    Ok(())
}

impl Sweeper {
    async fn run(self: Arc<Self>) {
        let slots = Slots::new(GAMES_AT_ONCE);
        let lease = self.config.lease();
        let mut held = HeldShards::new(self.config.sweep_every * 2);
        let mut tick = tokio::time::interval(self.config.sweep_every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match self.store.move_unsharded_outboxes(CLAIM_SCAN).await {
                Ok(0) => {}
                Ok(moved) => {
                    tracing::info!(
                        games = moved,
                        "games of the unsharded webhook due set moved into their shards"
                    );
                }
                Err(e) => tracing::debug!(error = %e, "could not look at the unsharded webhook due set"),
            }
            for shard in held.rotation() {
                // No slot free: no lease taken, so another process sweeps the shards meanwhile.
                let room = slots.room();
                if room.games == 0 {
                    break;
                }
                let store = &self.store;
                let mine = held
                    .hold(shard, async |holder, lease| {
                        store.lease_outbox_shard(shard, holder, lease).await
                    })
                    .await;
                let claimed_at = Instant::now();
                let claims = match mine {
                    Ok(true) => self.store.claim_due(shard, &room, lease).await,
                    Ok(false) => continue,
                    Err(e) => Err(e),
                };
                let claims = match claims {
                    Ok(claims) => claims,
                    Err(e) => {
                        tracing::debug!(error = %e, "could not claim due webhook notices");
                        break;
                    }
                };
                for claim in claims {
                    let sweeper = self.clone();
                    // The claim respected the room; a slot is missing only when the room changed
                    // in between, and then the game is due again at the next sweep.
                    let slot = slots.take(&claim.receiver);
                    tokio::spawn(async move {
                        match slot {
                            Some(slot) => sweeper.deliver(&claim, claimed_at, slot).await,
                            None => sweeper.release(&claim, Some(sweeper.config.sweep_every)).await,
                        }
                    });
                }
            }
        }
    }

    /// Ends `claim`; with `retry_in`, the game is due again after it.
    async fn release(&self, claim: &Claim, retry_in: Option<Duration>) {
        if let Err(e) = self
            .store
            .release(claim, self.config.lease(), retry_in, self.config.write_grace)
            .await
        {
            tracing::warn!(game = %claim.game, error = %e, "could not release a webhook claim; it lapses with its lease");
        }
    }

    /// Delivers the oldest notices of a claimed game, then releases it and its slot.
    async fn deliver(&self, claim: &Claim, claimed_at: Instant, slot: Slot) {
        let lease = self.config.lease();
        let game = claim.game.as_str();
        let retry_in = match self.store.pending(game, NOTICES_PER_CLAIM).await {
            Err(e) => {
                tracing::warn!(game, error = %e, "could not read a webhook outbox");
                Some(self.config.backoff)
            }
            Ok(None) => None,
            Ok(Some(pending)) => {
                let mut retry_in = (pending.notices.len() == NOTICES_PER_CLAIM).then_some(Duration::ZERO);
                for notice in &pending.notices {
                    // Never post once the lease may run out during the post: another process
                    // could then claim the game and post the same notice at the same time.
                    if claimed_at.elapsed() + self.config.timeout + Duration::from_secs(1) > lease {
                        retry_in = Some(Duration::ZERO);
                        break;
                    }
                    match self.post(&pending.webhook, notice).await {
                        Ok(()) => {
                            self.metrics.webhook_notice(NoticeResult::Delivered);
                            if let Err(e) = self.store.delivered(game, notice).await {
                                tracing::warn!(game, notice = %notice.id, error = %e, "a delivered notice stays in the outbox and will be sent again");
                            }
                        }
                        Err(why) => {
                            self.metrics.webhook_notice(NoticeResult::Failed);
                            match self.store.failed(game, notice, self.config.attempts).await {
                                Ok(failure) if failure.superseded => {
                                    tracing::info!(game, notice = %notice.id, %why, "webhook delivery failed; a later notice superseded this one, and waits");
                                    retry_in = Some(self.config.backoff);
                                    break;
                                }
                                Ok(failure) if failure.dropped => {
                                    self.metrics.webhook_notice(NoticeResult::Dropped);
                                    tracing::warn!(game, notice = %notice.id, attempts = failure.attempts, %why, "webhook notice dropped after its last attempt");
                                }
                                Ok(failure) => {
                                    let wait = self.config.backoff_after(failure.attempts);
                                    tracing::info!(game, notice = %notice.id, attempts = failure.attempts, %why, ?wait, "webhook delivery failed; retrying later");
                                    retry_in = Some(wait);
                                    break;
                                }
                                Err(e) => {
                                    tracing::warn!(game, error = %e, "could not count a failed webhook delivery");
                                    retry_in = Some(self.config.backoff);
                                    break;
                                }
                            }
                        }
                    }
                }
                retry_in
            }
        };
        self.release(claim, retry_in).await;
        drop(slot);
    }

    /// Posts one notice, signed now; `Ok` on a `2xx` answer.
    async fn post(&self, webhook: &Webhook, notice: &OutboxNotice) -> Result<(), String> {
        let t = crate::service::now_ms() / 1000;
        let signed = format!("t={t},v1={}", signature(&webhook.secret, t, &notice.body));
        let answer = self
            .client
            .post(&webhook.url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(SIGNATURE_HEADER, signed)
            .body(notice.body.clone())
            .send()
            .await
            .map_err(|e| {
                if e.is_timeout() {
                    "no answer in time".to_owned()
                } else {
                    "no connection".to_owned()
                }
            })?;
        if answer.status().is_success() {
            Ok(())
        } else {
            Err(format!("answered {}", answer.status().as_u16()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(hosts: &[&str]) -> WebhookConfig {
        WebhookConfig {
            hosts: hosts.iter().map(|h| h.to_string()).collect(),
            ..WebhookConfig::default()
        }
    }

    #[test]
    fn only_allowed_hosts_and_ports_over_http_or_https_are_accepted() {
        let allow = config(&["hooks.example.com", "127.0.0.1:9000", "[::1]:9001"]);
        for ok in [
            "https://hooks.example.com/roadie",
            "http://HOOKS.example.com:8080/x?y=1",
            "http://127.0.0.1:9000/hook",
            "http://[::1]:9001/",
        ] {
            assert!(allow.check_url(ok).is_ok(), "{ok}");
        }
        for refused in [
            "http://127.0.0.1:9001/hook",
            "http://127.0.0.1/hook",
            "http://169.254.169.254/latest/meta-data",
            "ftp://hooks.example.com/",
            "https://user:pw@hooks.example.com/",
            "https://hooks.example.com.evil.test/",
            "not a url",
            "file:///etc/passwd",
        ] {
            let err = allow.check_url(refused).expect_err(refused);
            assert_eq!(err.code(), Code::InvalidWebhook, "{refused}");
        }
        let long = format!("https://hooks.example.com/{}", "a".repeat(MAX_URL_BYTES));
        assert!(allow.check_url(&long).is_err());
        assert!(config(&[]).check_url("https://hooks.example.com/").is_err());
    }

    #[test]
    fn the_signature_is_hmac_sha256_of_the_timestamp_dot_body() {
        // printf '%s' '1700000000.{"a":1}' | openssl dgst -sha256 -hmac key
        assert_eq!(
            signature("key", 1_700_000_000, r#"{"a":1}"#),
            "a438e398bfafc57e4396bb7fc2304422f0f768e965d073ca313cb52e22e6ad03"
        );
        assert_ne!(
            signature("key", 1_700_000_001, r#"{"a":1}"#),
            signature("key", 1_700_000_000, r#"{"a":1}"#)
        );
        assert_ne!(
            signature("other", 1_700_000_000, r#"{"a":1}"#),
            signature("key", 1_700_000_000, r#"{"a":1}"#)
        );
    }

    #[test]
    fn backoff_doubles_up_to_its_bound() {
        let config = WebhookConfig::default();
        assert_eq!(config.backoff_after(1), Duration::from_secs(1));
        assert_eq!(config.backoff_after(2), Duration::from_secs(2));
        assert_eq!(config.backoff_after(4), Duration::from_secs(8));
        assert_eq!(config.backoff_after(30), MAX_BACKOFF);
    }
}
