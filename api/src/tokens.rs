//! Seat and host tokens (HS256 JWTs): issued with a seat's credential, verified to their
//! claims. A forged, garbled or expired token is refused here (`401`); the edge's callers
//! (`http::caller`) check what it may do.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use quick_cache::sync::Cache;
use roadie_engine::Seat;
use serde::{Deserialize, Serialize};

use crate::table::{Code, Credential, Refusal};

/// What a token grants, as signed into it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The game the token opens.
    pub game: String,
    /// The seat it plays, or absent for the host token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The seat's token generation: a token of an older generation than the game's seat
    /// table holds was replaced and is refused.
    #[serde(default)]
    pub r#gen: u32,
    /// The random number of the grant that issued the token (creation, join, reissue): a
    /// token whose grant the seat table does not hold is refused, so a grant that the store
    /// lost never matches a later one. Absent from tokens issued before grants were numbered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grant: Option<u64>,
    /// Issued at (seconds since the epoch).
    pub iat: u64,
    /// Expires at (seconds since the epoch); absent when tokens live as long as their game
    /// (`ROADIE_TOKEN_TTL_SECS=0`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exp: Option<u64>,
}

/// The signing and checking keys, made once at start.
pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    ttl: Duration,
    /// Tokens whose signature was checked, with their claims: a client sends the same token
    /// with every call, and the HMAC check is a tenth of a post's work.
    verified: Option<Cache<Box<str>, Claims>>,
    /// The encoded header (and its dot) every token signed here starts with.
    header: String,
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn expired() -> Refusal {
    Refusal::new(Code::TokenExpired, "the token has expired")
}

/// A secret that cannot sign (empty).
#[derive(Debug, thiserror::Error)]
#[error("the JWT secret cannot be used: {0}")]
pub struct KeyError(#[from] jsonwebtoken::errors::Error);

impl Keys {
    /// Keys from the HS256 secret; tokens live `ttl` (zero: as long as their game); up to `cached` verified tokens are
    /// remembered (0: every call checks the signature).
    pub fn new(secret: &[u8], ttl: Duration, cached: usize) -> Result<Self, KeyError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims::<&str>(&[]);
        let header = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &serde_json::json!({}),
            &EncodingKey::from_secret(secret)?,
        )?;
        let header = header.split_inclusive('.').next().unwrap_or_default().to_owned();
        Ok(Self {
            header,
            encoding: EncodingKey::from_secret(secret)?,
            decoding: DecodingKey::from_secret(secret)?,
            validation,
            ttl,
            verified: (cached > 0).then(|| Cache::new(cached)),
        })
    }

    /// Signs the host's token of `game`.
    pub fn issue(&self, game: &str, seat: Option<Seat>) -> Result<String, Refusal> {
        self.sign(game, seat, Credential::default())
    }

    /// Signs a token for `seat` of `game` carrying the seat's current `credential`.
    pub fn issue_seat(&self, game: &str, seat: Seat, credential: Credential) -> Result<String, Refusal> {
        self.sign(game, Some(seat), credential)
    }

    fn sign(&self, game: &str, seat: Option<Seat>, credential: Credential) -> Result<String, Refusal> {
        let now = now_secs();
        let claims = Claims {
            game: game.to_owned(),
            seat,
            r#gen: credential.generation,
            grant: credential.grant,
            iat: now,
            exp: (!self.ttl.is_zero()).then(|| now.saturating_add(self.ttl.as_secs())),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding).map_err(|e| {
            tracing::error!(error = %e, "could not sign a token");
            Refusal::internal()
        })
    }

    /// Whether `token` has the header of the tokens signed here: a seat or host token, not an
    /// app's player token or key. Only [`Keys::verify`] tells whether it is genuine.
    pub fn signed_here(&self, token: &str) -> bool {
        token.starts_with(&self.header)
    }

    /// Checks a token's signature and expiry. A token seen before skips the signature check
    /// (the exact bytes were verified), never the expiry.
    pub fn verify(&self, token: &str) -> Result<Claims, Refusal> {
        if let Some(claims) = self.verified.as_ref().and_then(|cache| cache.get(token)) {
            return if claims.exp.is_some_and(|exp| exp < now_secs()) {
                Err(expired())
            } else {
                Ok(claims)
            };
        }
        let claims = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map(|data| data.claims)
            .map_err(|e| match e.kind() {
                ErrorKind::ExpiredSignature => expired(),
                _ => Refusal::new(Code::TokenInvalid, "the token is not one this service signed"),
            })?;
        if let Some(cache) = &self.verified {
            cache.insert(token.into(), claims.clone());
        }
        Ok(claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signed_seat_token_verifies_with_its_claims() {
        let keys = Keys::new(b"a test secret", Duration::from_secs(60), 16).expect("keys");
        let token = keys.issue("g1", Some(Seat::new(2))).expect("signed");
        let claims = keys.verify(&token).expect("verified");
        assert_eq!(claims.game, "g1");
        assert_eq!(claims.seat, Some(Seat::new(2)));
        assert!(claims.exp.is_some_and(|exp| exp > claims.iat));
    }

    #[test]
    fn a_token_signed_with_another_secret_is_invalid() {
        let ours = Keys::new(b"ours", Duration::from_secs(60), 16).expect("keys");
        let theirs = Keys::new(b"theirs", Duration::from_secs(60), 16).expect("keys");
        let token = theirs.issue("g1", None).expect("signed");
        let err = ours.verify(&token).expect_err("refused");
        assert_eq!(err.code(), Code::TokenInvalid);
    }

    #[test]
    fn an_expired_token_is_refused_as_expired() {
        let keys = Keys::new(b"secret", Duration::from_secs(0), 16).expect("keys");
        let claims = Claims {
            game: "g1".into(),
            seat: Some(Seat::new(0)),
            r#gen: 0,
            grant: None,
            iat: 1,
            exp: Some(2),
        };
        let token =
            jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &keys.encoding).expect("signed");
        assert_eq!(
            keys.verify(&token).expect_err("refused").code(),
            Code::TokenExpired
        );
    }

    #[test]
    fn an_empty_secret_cannot_make_keys() {
        assert!(Keys::new(b"", Duration::from_secs(1), 16).is_err());
    }

    #[test]
    fn a_remembered_token_still_expires() {
        let keys = Keys::new(b"secret", Duration::from_secs(60), 16).expect("keys");
        let stale = Claims {
            game: "g1".into(),
            seat: Some(Seat::new(0)),
            r#gen: 0,
            grant: None,
            iat: 1,
            exp: Some(2),
        };
        if let Some(cache) = &keys.verified {
            cache.insert("remembered".into(), stale);
        }
        assert_eq!(
            keys.verify("remembered").expect_err("refused").code(),
            Code::TokenExpired
        );
    }

    #[test]
    fn a_remembered_token_vouches_for_no_other_bytes() {
        let keys = Keys::new(b"secret", Duration::from_secs(60), 16).expect("keys");
        let token = keys.issue("g1", Some(Seat::new(1))).expect("signed");
        keys.verify(&token).expect("verified and remembered");
        let mut forged = token.clone();
        forged.pop();
        forged.push(if token.ends_with('A') { 'B' } else { 'A' });
        assert_eq!(
            keys.verify(&forged).expect_err("refused").code(),
            Code::TokenInvalid
        );
        assert_eq!(keys.verify(&token).expect("still good").seat, Some(Seat::new(1)));
    }
}
