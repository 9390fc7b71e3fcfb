//! Apps: who owns games, and how their players prove who they are.
//!
//! An apps file (`ROADIE_APPS`, TOML) lists each app: its id and name, the SHA-256 hashes of its
//! API keys, the public keys (a JWKS) with which it signs its players' tokens and the algorithms
//! it may sign with, an optional webhook secret file, and its limits. Without the file Roadie is
//! open: anyone may create games, as a seat token is all a game needs.
//!
//! The file holds no usable secret: an API key is checked by its hash, a player token by the
//! app's public key. It is read at start (a broken file stops the start) and again on `SIGHUP`
//! ([`Registry::reload`]): a broken file then keeps the apps in force and logs why, and a key
//! removed from a good one stops working at once, since every verified token is forgotten.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use arc_swap::ArcSwap;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, JwkSet, KeyAlgorithm};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use quick_cache::sync::Cache;
use rand::RngCore;
use secrecy::SecretString;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::store::Quota;
use crate::table::seats::display_name;
use crate::table::{Code, PlayerRef, Refusal};

/// The audience every player token names.
pub const AUDIENCE: &str = "roadie";

/// The longest player id, in bytes.
pub const MAX_PLAYER_ID_BYTES: usize = 128;

/// The longest token read at all, in bytes: a larger one is refused before it is decoded.
pub const MAX_TOKEN_BYTES: usize = 8192;

/// The smallest RSA modulus accepted, in bits.
pub const MIN_RSA_BITS: usize = 2048;

/// How far a player token's `exp` and `nbf` may be off the server's clock, in seconds.
pub const LEEWAY_SECS: u64 = 30;

/// What an API key starts with, so that it is told from a token at a glance.
pub const KEY_PREFIX: &str = "rk_";

/// Verified player tokens each apps file keeps, so a token's signature is checked once.
const VERIFIED_TOKENS: usize = 100_000;

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Why an apps file cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("apps file {path}: {reason}")]
pub struct AppsError {
    path: String,
    reason: String,
}

/// The apps file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AppsFile {
    #[serde(default)]
    apps: Vec<AppEntry>,
}

/// One app as written in the file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AppEntry {
    id: String,
    name: String,
    #[serde(default)]
    api_keys: Vec<String>,
    #[serde(default)]
    algorithms: Vec<String>,
    #[serde(default)]
    jwks: Option<JwkSet>,
    #[serde(default)]
    jwks_file: Option<PathBuf>,
    #[serde(default)]
    webhook_secret_file: Option<PathBuf>,
    #[serde(default)]
    limits: LimitsEntry,
}

/// An app's limits as written in the file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LimitsEntry {
    live_games: Option<u64>,
    creations_per_second: Option<f64>,
    creation_burst: Option<u32>,
    rulesets: Option<Vec<String>>,
}

/// What an app may take.
#[derive(Clone, Debug, Default)]
pub struct AppLimits {
    /// Games of the app that may be running at once (`None`: no limit).
    pub live_games: Option<u64>,
    /// Games the app may create per second, and at once, counted in the store (`None`: no limit).
    pub creations: Option<Quota>,
    /// The rulesets its games may be of (`None`: every ruleset).
    pub rulesets: Option<Vec<String>>,
}

/// One verification key of an app.
struct PlayerKey {
    algorithm: Algorithm,
    key: DecodingKey,
}

/// An app, loaded.
pub struct App {
    /// Its id: the `iss` of its players' tokens.
    pub id: Arc<str>,
    /// Its name, for people.
    pub name: String,
    /// What it may take.
    pub limits: AppLimits,
    /// The secret that signs its games' webhook notices, when it has one.
    pub webhook_secret: Option<SecretString>,
    algorithms: Vec<Algorithm>,
    keys: HashMap<String, PlayerKey>,
    key_hashes: Vec<[u8; 32]>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("limits", &self.limits)
            .field("algorithms", &self.algorithms)
            .field("kids", &self.keys.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

/// A player, proven by a token its app signed.
#[derive(Clone, Debug)]
pub struct Player {
    /// The app and the player's id in it.
    pub who: PlayerRef,
    /// The display name the token gave, checked.
    pub name: Option<String>,
    /// When the token expires (seconds since the epoch).
    expires: u64,
}

/// The claims of a player token that Roadie reads; `aud`, `exp` and `nbf` are checked by the
/// verifier.
#[derive(Deserialize)]
struct PlayerClaims {
    sub: String,
    exp: u64,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
struct Issuer {
    iss: String,
}

/// The apps of one reading of the file.
pub struct Apps {
    apps: HashMap<Arc<str>, Arc<App>>,
    by_key_hash: HashMap<[u8; 32], Arc<App>>,
    verified: Cache<Box<str>, Player>,
}

fn invalid(detail: &str) -> Refusal {
    Refusal::new(
        Code::TokenInvalid,
        format!("the player token is refused: {detail}"),
    )
}

/// The SHA-256 of an API key, as the file writes it: `sha256:` and 64 hex digits.
pub fn key_hash_line(key: &str) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(key.as_bytes())))
}

/// A new API key: [`KEY_PREFIX`] and 32 random bytes in base64url.
pub fn new_key() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    format!("{KEY_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
}

fn algorithm_named(name: &str) -> Option<Algorithm> {
    match name {
        "EdDSA" => Some(Algorithm::EdDSA),
        "ES256" => Some(Algorithm::ES256),
        "RS256" => Some(Algorithm::RS256),
        _ => None,
    }
}

/// The algorithm a key of this shape signs with, and why it is refused if it is.
fn algorithm_of(jwk: &Jwk) -> Result<Algorithm, String> {
    let by_shape = match &jwk.algorithm {
        AlgorithmParameters::OctetKeyPair(p) if p.curve == EllipticCurve::Ed25519 => Algorithm::EdDSA,
        AlgorithmParameters::EllipticCurve(p) if p.curve == EllipticCurve::P256 => Algorithm::ES256,
        AlgorithmParameters::RSA(p) => {
            let modulus = URL_SAFE_NO_PAD
                .decode(p.n.trim_end_matches('='))
                .map_err(|_| "its modulus `n` is not base64url".to_owned())?;
            let leading = modulus.iter().take_while(|b| **b == 0).count();
            let bits = modulus[leading..]
                .first()
                .map_or(0, |b| (modulus.len() - leading) * 8 - b.leading_zeros() as usize);
            if bits < MIN_RSA_BITS {
                return Err(format!(
                    "an RSA key of {bits} bits is too weak: at least {MIN_RSA_BITS}"
                ));
            }
            Algorithm::RS256
        }
        AlgorithmParameters::OctetKey(_) => {
            return Err("a symmetric (`oct`) key is refused: an app publishes public keys only".into());
        }
        _ => return Err("only Ed25519 (OKP), P-256 (EC) and RSA keys are accepted".into()),
    };
    match jwk.common.key_algorithm {
        None => Ok(by_shape),
        Some(KeyAlgorithm::EdDSA) if by_shape == Algorithm::EdDSA => Ok(by_shape),
        Some(KeyAlgorithm::ES256) if by_shape == Algorithm::ES256 => Ok(by_shape),
        Some(KeyAlgorithm::RS256) if by_shape == Algorithm::RS256 => Ok(by_shape),
        Some(other) => Err(format!(
            "its `alg` {other:?} does not match the key or is not accepted"
        )),
    }
}

/// An app id: 1 to 64 of `a-z`, `0-9`, `-` and `_`, so that it sits in store keys unescaped.
fn valid_app_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

impl Apps {
    /// The apps of the file at `path` (files it names are read beside it).
    pub fn load(path: &Path) -> Result<Self, AppsError> {
        let fail = |reason: String| AppsError {
            path: path.display().to_string(),
            reason,
        };
        let text = std::fs::read_to_string(path).map_err(|e| fail(format!("cannot read it: {e}")))?;
        let file: AppsFile = toml::from_str(&text).map_err(|e| fail(e.to_string()))?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut apps = HashMap::new();
        let mut by_key_hash = HashMap::new();
        for entry in file.apps {
            let id = entry.id.clone();
            let app = Arc::new(load_app(entry, dir).map_err(|reason| fail(format!("app {id:?}: {reason}")))?);
            for digest in &app.key_hashes {
                if by_key_hash.insert(*digest, app.clone()).is_some() {
                    return Err(fail(format!("app {id:?}: an API key hash is listed twice")));
                }
            }
            if apps.insert(app.id.clone(), app).is_some() {
                return Err(fail(format!("app {id:?} is listed twice")));
            }
        }
        Ok(Self {
            apps,
            by_key_hash,
            verified: Cache::new(VERIFIED_TOKENS),
        })
    }

    /// The app `id`.
    pub fn app(&self, id: &str) -> Option<&Arc<App>> {
        self.apps.get(id)
    }

    /// How many apps there are.
    pub fn len(&self) -> usize {
        self.apps.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.apps.is_empty()
    }

    /// The app whose API key `key` is, if any.
    pub fn app_of_key(&self, key: &str) -> Option<&Arc<App>> {
        let digest: [u8; 32] = Sha256::digest(key.as_bytes()).into();
        self.by_key_hash.get(&digest)
    }

    /// The player a token proves, checked against its issuer's keys: `401 token_invalid` for
    /// anything but a token of a known app, signed by one of its keys with an algorithm it
    /// allows, for audience `roadie`, not yet valid or with a bad player id; `401
    /// token_expired` once it has expired (with [`LEEWAY_SECS`] of leeway).
    pub fn verify_player(&self, token: &str) -> Result<Player, Refusal> {
        let now = now_secs();
        if let Some(player) = self.verified.get(token) {
            return if player.expires + LEEWAY_SECS < now {
                Err(Refusal::new(Code::TokenExpired, "the player token has expired"))
            } else {
                Ok(player)
            };
        }
        let player = self.verify_uncached(token)?;
        self.verified.insert(token.into(), player.clone());
        Ok(player)
    }

    /// [`Apps::verify_player`] without the cache of verified tokens: every call checks the
    /// signature (the benchmark's measure of a first sight of a token).
    pub fn verify_uncached(&self, token: &str) -> Result<Player, Refusal> {
        if token.len() > MAX_TOKEN_BYTES {
            return Err(invalid(&format!("it is longer than {MAX_TOKEN_BYTES} bytes")));
        }
        let header = jsonwebtoken::decode_header(token).map_err(|_| invalid("its header does not read"))?;
        if !matches!(header.alg, Algorithm::EdDSA | Algorithm::ES256 | Algorithm::RS256) {
            return Err(invalid("its `alg` is not EdDSA, ES256 or RS256"));
        }
        let kid = header.kid.ok_or_else(|| invalid("its header names no `kid`"))?;
        let issuer: Issuer = jsonwebtoken::dangerous::insecure_decode_claims(token)
            .map_err(|_| invalid("its claims do not read, or name no `iss`"))?;
        let app = self
            .apps
            .get(issuer.iss.as_str())
            .ok_or_else(|| invalid("its `iss` is not an app of this server"))?;
        if !app.algorithms.contains(&header.alg) {
            return Err(invalid("its app does not sign with this `alg`"));
        }
        let key = app
            .keys
            .get(&kid)
            .filter(|key| key.algorithm == header.alg)
            .ok_or_else(|| invalid("its `kid` names no key of its app for this `alg`"))?;
        let mut validation = Validation::new(header.alg);
        validation.leeway = LEEWAY_SECS;
        validation.validate_nbf = true;
        validation.set_audience(&[AUDIENCE]);
        validation.set_issuer(&[&*app.id]);
        validation.set_required_spec_claims(&["exp", "sub", "aud", "iss"]);
        let claims = jsonwebtoken::decode::<PlayerClaims>(token, &key.key, &validation)
            .map(|data| data.claims)
            .map_err(|e| match e.kind() {
                ErrorKind::ExpiredSignature => {
                    Refusal::new(Code::TokenExpired, "the player token has expired")
                }
                ErrorKind::ImmatureSignature => invalid("it is not valid yet (`nbf`)"),
                ErrorKind::InvalidAudience => invalid("its `aud` is not `roadie`"),
                ErrorKind::InvalidSignature => invalid("its signature does not match"),
                ErrorKind::MissingRequiredClaim(claim) => invalid(&format!("it has no `{claim}`")),
                _ => invalid("it is not a token of its app"),
            })?;
        if claims.sub.is_empty() || claims.sub.len() > MAX_PLAYER_ID_BYTES {
            return Err(invalid(&format!(
                "its `sub` (the player id) is 1 to {MAX_PLAYER_ID_BYTES} bytes"
            )));
        }
        let name = claims
            .name
            .as_deref()
            .map(display_name)
            .transpose()
            .map_err(|e| invalid(&format!("its `name`: {e}")))?;
        Ok(Player {
            who: PlayerRef {
                app: app.id.clone(),
                player: claims.sub.into(),
            },
            name,
            expires: claims.exp,
        })
    }
}

fn load_app(entry: AppEntry, dir: &Path) -> Result<App, String> {
    if !valid_app_id(&entry.id) {
        return Err("an app id is 1 to 64 of a-z, 0-9, - and _".into());
    }
    let mut key_hashes = Vec::new();
    for line in &entry.api_keys {
        let digest = line
            .strip_prefix("sha256:")
            .and_then(|h| hex::decode(h).ok())
            .and_then(|d| <[u8; 32]>::try_from(d).ok())
            .ok_or_else(|| {
                format!("{line:?} is not an API key hash (`sha256:` and 64 hex digits; `roadie apps new-key` makes one)")
            })?;
        key_hashes.push(digest);
    }
    let mut algorithms = Vec::new();
    for name in &entry.algorithms {
        algorithms.push(
            algorithm_named(name)
                .ok_or_else(|| format!("algorithm {name:?} is not EdDSA, ES256 or RS256"))?,
        );
    }
    let jwks = match (entry.jwks, entry.jwks_file) {
        (Some(_), Some(_)) => return Err("give `jwks` or `jwks_file`, not both".into()),
        (Some(set), None) => set,
        (None, Some(file)) => {
            let path = dir.join(file);
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            serde_json::from_str(&text).map_err(|e| format!("{} is not a JWKS: {e}", path.display()))?
        }
        (None, None) => JwkSet { keys: Vec::new() },
    };
    if !jwks.keys.is_empty() && algorithms.is_empty() {
        return Err("it publishes keys but allows no `algorithms`".into());
    }
    let mut keys = HashMap::new();
    for jwk in &jwks.keys {
        let kid = jwk
            .common
            .key_id
            .clone()
            .ok_or("every key of its JWKS needs a `kid`")?;
        let algorithm = algorithm_of(jwk).map_err(|e| format!("key {kid:?}: {e}"))?;
        if !algorithms.contains(&algorithm) {
            return Err(format!(
                "key {kid:?} signs with {algorithm:?}, which `algorithms` does not allow"
            ));
        }
        let key = DecodingKey::from_jwk(jwk).map_err(|e| format!("key {kid:?}: {e}"))?;
        if keys.insert(kid.clone(), PlayerKey { algorithm, key }).is_some() {
            return Err(format!("key {kid:?} is listed twice"));
        }
    }
    let webhook_secret = match entry.webhook_secret_file {
        None => None,
        Some(file) => {
            let path = dir.join(file);
            let secret =
                std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let secret = secret.trim().to_owned();
            if secret.len() < 32 {
                return Err(format!(
                    "the webhook secret in {} is shorter than 32 bytes",
                    path.display()
                ));
            }
            Some(SecretString::from(secret))
        }
    };
    let limits = &entry.limits;
    if let Some(rulesets) = &limits.rulesets {
        for slug in rulesets {
            if roadie_engine::Ruleset::find(slug).is_none() {
                return Err(format!("limits.rulesets names {slug:?}, which is no ruleset"));
            }
        }
    }
    let creations = match limits.creations_per_second {
        Some(rate) if !(rate.is_finite() && rate >= 0.0) => {
            return Err("limits.creations_per_second is a number of zero or more".into());
        }
        Some(rate) if rate > 0.0 => Some(Quota {
            per_second: rate,
            burst: limits.creation_burst.unwrap_or(rate.ceil() as u32).max(1),
        }),
        _ => None,
    };
    Ok(App {
        id: entry.id.into(),
        name: entry.name,
        limits: AppLimits {
            live_games: limits.live_games,
            creations,
            rulesets: limits.rulesets.clone(),
        },
        webhook_secret,
        algorithms,
        keys,
        key_hashes,
    })
}

/// The apps in force: none (open mode) without a file, else the last good reading of it.
pub struct Registry {
    path: Option<PathBuf>,
    current: ArcSwap<Apps>,
}

impl Registry {
    /// Open mode: no apps, anyone may create games.
    pub fn open() -> Self {
        Self {
            path: None,
            current: ArcSwap::from_pointee(Apps {
                apps: HashMap::new(),
                by_key_hash: HashMap::new(),
                verified: Cache::new(1),
            }),
        }
    }

    /// The apps of the file at `path`; a file that cannot be used is an error.
    pub fn load(path: PathBuf) -> Result<Self, AppsError> {
        let apps = Apps::load(&path)?;
        tracing::info!(path = %path.display(), apps = apps.len(), "apps loaded");
        Ok(Self {
            path: Some(path),
            current: ArcSwap::from_pointee(apps),
        })
    }

    /// Whether apps are configured: then creating, listing and matchmaking need an app's
    /// credential.
    pub fn enabled(&self) -> bool {
        self.path.is_some()
    }

    /// The apps in force now.
    pub fn current(&self) -> arc_swap::Guard<Arc<Apps>> {
        self.current.load()
    }

    /// Reads the file again: a good file replaces the apps in force (and every verified token is
    /// forgotten), a broken one keeps them and is logged. `true` when the file was taken.
    pub fn reload(&self) -> bool {
        let Some(path) = &self.path else {
            return false;
        };
        match Apps::load(path) {
            Ok(apps) => {
                tracing::info!(path = %path.display(), apps = apps.len(), "apps reloaded");
                self.current.store(Arc::new(apps));
                true
            }
            Err(e) => {
                tracing::error!(error = %e, "the apps file was not reloaded; the apps in force are kept");
                false
            }
        }
    }

    /// Reloads the file on every `SIGHUP`, for as long as the registry lives.
    pub fn reload_on_hangup(registry: &Arc<Self>) -> std::io::Result<()> {
        if !registry.enabled() {
            return Ok(());
        }
        let mut hangups = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())?;
        let registry = Arc::downgrade(registry);
        actix_web::rt::spawn(async move {
            while hangups.recv().await.is_some() {
                match registry.upgrade() {
                    Some(registry) => {
                        registry.reload();
                    }
                    None => return,
                }
            }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_key_is_found_by_its_hash_line_and_no_other_key_is() {
        let key = new_key();
        assert!(key.starts_with(KEY_PREFIX) && key.len() == KEY_PREFIX.len() + 43);
        let dir = std::env::temp_dir().join(format!("roadie-apps-{}", rand::random::<u64>()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("apps.toml");
        std::fs::write(
            &path,
            format!(
                "[[apps]]\nid = \"acme\"\nname = \"Acme\"\napi_keys = [\"{}\"]\n",
                key_hash_line(&key)
            ),
        )
        .expect("write");
        let apps = Apps::load(&path).expect("loads");
        assert_eq!(apps.app_of_key(&key).map(|a| &*a.id), Some("acme"));
        assert!(apps.app_of_key(&new_key()).is_none());
        assert!(!std::fs::read_to_string(&path).expect("read").contains(&key));
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn any_garbage_as_a_player_token_is_a_401_never_a_panic() {
        use rand::{Rng, SeedableRng};
        let dir = std::env::temp_dir().join(format!("roadie-apps-fuzz-{}", rand::random::<u64>()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("apps.toml");
        std::fs::write(
            &path,
            "[[apps]]\nid = \"acme\"\nname = \"Acme\"\nalgorithms = [\"EdDSA\"]\n\
             jwks = { keys = [{ kty = \"OKP\", crv = \"Ed25519\", x = \"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\", kid = \"k\" }] }\n",
        )
        .expect("write");
        let apps = Apps::load(&path).expect("loads");
        let mut rng = rand::rngs::StdRng::seed_from_u64(42);
        let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ {}\"";
        let header = URL_SAFE_NO_PAD.encode(r#"{"alg":"EdDSA","kid":"k"}"#);
        let claims = URL_SAFE_NO_PAD.encode(r#"{"iss":"acme","sub":"p","aud":"roadie","exp":99999999999}"#);
        for round in 0..5_000 {
            let len = rng.random_range(0..300);
            let noise: String = (0..len)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())] as char)
                .collect();
            let token = match round % 4 {
                0 => noise,
                1 => format!("{header}.{noise}"),
                2 => format!("{header}.{claims}.{noise}"),
                _ => format!("{noise}.{claims}.{noise}"),
            };
            let refused = apps.verify_player(&token).expect_err("garbage is refused");
            assert!(
                matches!(refused.code(), Code::TokenInvalid | Code::TokenExpired),
                "{token:?}: {refused:?}"
            );
        }
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn weak_and_symmetric_keys_are_refused_at_load() {
        let weak: Jwk = serde_json::from_value(serde_json::json!({
            "kty": "RSA", "kid": "k", "e": "AQAB",
            "n": URL_SAFE_NO_PAD.encode([0xffu8; 128]),
        }))
        .expect("jwk");
        assert!(algorithm_of(&weak).expect_err("1024 bits").contains("1024 bits"));
        let strong: Jwk = serde_json::from_value(serde_json::json!({
            "kty": "RSA", "kid": "k", "e": "AQAB",
            "n": URL_SAFE_NO_PAD.encode([0xffu8; 256]),
        }))
        .expect("jwk");
        assert_eq!(algorithm_of(&strong), Ok(Algorithm::RS256));
        let oct: Jwk = serde_json::from_value(serde_json::json!({"kty": "oct", "kid": "k", "k": "c2VjcmV0"}))
            .expect("jwk");
        assert!(algorithm_of(&oct).is_err());
    }
}
