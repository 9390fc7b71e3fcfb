//! The keys that sign game records: an Ed25519 key signs, and every key the server has signed
//! with is listed at `GET /.well-known/jwks.json`, so a record signed before a rotation still
//! checks.
//!
//! A record's `signature` is a JWS with a detached payload (RFC 7515, appendix F): the compact
//! form `<header>..<signature>`, where the header is `{"alg":"EdDSA","kid":...}` and the payload
//! left out is the canonical JSON of the record without its `signature`. A key's `kid` is its
//! JWK thumbprint (RFC 7638).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey};
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The key that signs records, and every key whose signatures still check.
pub struct RecordKeys {
    signer: SigningKey,
    known: KnownKeys,
}

/// Public keys by `kid`: what checks a record's signature.
#[derive(Clone, Debug, Default)]
pub struct KnownKeys(Vec<(String, VerifyingKey)>);

impl RecordKeys {
    /// A fresh key, kept only as long as the process runs.
    pub fn generate() -> Self {
        let mut secret = [0u8; 32];
        rand::RngCore::fill_bytes(&mut rand::rng(), &mut secret);
        Self::with(SigningKey::from_bytes(&secret), Vec::new())
    }

    fn with(signer: SigningKey, retired: Vec<VerifyingKey>) -> Self {
        let mut known = KnownKeys::default();
        known.add(signer.verifying_key());
        for key in retired {
            known.add(key);
        }
        Self { signer, known }
    }

    /// The keys of a PEM text: its first `PRIVATE KEY` (PKCS#8, Ed25519) signs; every further
    /// block, a `PRIVATE KEY` or a `PUBLIC KEY`, is a retired key whose signatures still check.
    pub fn from_pem(text: &str) -> Result<Self, String> {
        let mut signer = None;
        let mut retired = Vec::new();
        for (label, block) in pem_blocks(text) {
            match label {
                "PRIVATE KEY" => {
                    let key = SigningKey::from_pkcs8_pem(block)
                        .map_err(|e| format!("a PRIVATE KEY is not an Ed25519 key in PKCS#8: {e}"))?;
                    if signer.is_none() {
                        signer = Some(key);
                    } else {
                        retired.push(key.verifying_key());
                    }
                }
                "PUBLIC KEY" => retired.push(
                    VerifyingKey::from_public_key_pem(block)
                        .map_err(|e| format!("a PUBLIC KEY is not an Ed25519 key: {e}"))?,
                ),
                other => return Err(format!("a `{other}` block is not a key this file may hold")),
            }
        }
        let signer = signer.ok_or("the file holds no PRIVATE KEY to sign with")?;
        Ok(Self::with(signer, retired))
    }

    /// The keys in the PEM file at `path` (see [`RecordKeys::from_pem`]).
    pub fn load(path: &str) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        Self::from_pem(&text).map_err(|e| format!("{path}: {e}"))
    }

    /// The signing key as a PKCS#8 PEM, for a file that `ROADIE_RECORD_KEY` names.
    pub fn pem(&self) -> Result<String, String> {
        self.signer
            .to_pkcs8_pem(ed25519_dalek::pkcs8::spki::der::pem::LineEnding::LF)
            .map(|pem| pem.to_string())
            .map_err(|e| e.to_string())
    }

    /// The `kid` of the signing key.
    pub fn kid(&self) -> String {
        thumbprint(&self.signer.verifying_key())
    }

    /// The detached JWS of `payload`.
    pub fn sign(&self, payload: &[u8]) -> String {
        let header = URL_SAFE_NO_PAD.encode(json!({"alg": "EdDSA", "kid": self.kid()}).to_string());
        let input = format!("{header}.{}", URL_SAFE_NO_PAD.encode(payload));
        let signature = self.signer.sign(input.as_bytes());
        format!("{header}..{}", URL_SAFE_NO_PAD.encode(signature.to_bytes()))
    }

    /// Every key whose signatures check.
    pub fn known(&self) -> &KnownKeys {
        &self.known
    }
}

impl KnownKeys {
    fn add(&mut self, key: VerifyingKey) {
        let kid = thumbprint(&key);
        if !self.0.iter().any(|(k, _)| *k == kid) {
            self.0.push((kid, key));
        }
    }

    /// The keys as a JWK Set.
    pub fn jwks(&self) -> Value {
        json!({"keys": self.0.iter().map(|(kid, key)| json!({
            "kty": "OKP",
            "crv": "Ed25519",
            "x": URL_SAFE_NO_PAD.encode(key.as_bytes()),
            "kid": kid,
            "alg": "EdDSA",
            "use": "sig",
        })).collect::<Vec<_>>()})
    }

    /// The Ed25519 keys of a JWK Set; other keys are passed over.
    pub fn from_jwks(jwks: &Value) -> Result<Self, String> {
        let keys = jwks
            .get("keys")
            .and_then(Value::as_array)
            .ok_or("a JWK Set is an object with a `keys` array")?;
        let mut known = Self::default();
        for jwk in keys {
            if jwk.get("kty") != Some(&json!("OKP")) || jwk.get("crv") != Some(&json!("Ed25519")) {
                continue;
            }
            let x = jwk
                .get("x")
                .and_then(Value::as_str)
                .and_then(|x| URL_SAFE_NO_PAD.decode(x).ok())
                .and_then(|bytes| <[u8; 32]>::try_from(bytes.as_slice()).ok())
                .ok_or("an Ed25519 JWK's `x` is 32 bytes in base64url")?;
            known.add(VerifyingKey::from_bytes(&x).map_err(|e| format!("an Ed25519 JWK is not a key: {e}"))?);
        }
        Ok(known)
    }

    /// Whether there is no key.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Checks the detached JWS `jws` over `payload`: `Err` says why it does not hold.
    pub fn check(&self, jws: &str, payload: &[u8]) -> Result<(), String> {
        let mut parts = jws.split('.');
        let (Some(header), Some(""), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err("the signature is not a detached JWS (`<header>..<signature>`)".into());
        };
        let decoded: Value = URL_SAFE_NO_PAD
            .decode(header)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .ok_or("the signature's header is not base64url JSON")?;
        if decoded.get("alg") != Some(&json!("EdDSA")) {
            return Err("the signature's `alg` is not EdDSA".into());
        }
        let kid = decoded.get("kid").and_then(Value::as_str).unwrap_or_default();
        let key = self
            .0
            .iter()
            .find(|(k, _)| k == kid)
            .map(|(_, key)| key)
            .ok_or_else(|| format!("the signature's key `{kid}` is none of this server's"))?;
        let bytes = URL_SAFE_NO_PAD
            .decode(signature)
            .ok()
            .and_then(|bytes| <[u8; 64]>::try_from(bytes.as_slice()).ok())
            .ok_or("the signature is not 64 bytes in base64url")?;
        let input = format!("{header}.{}", URL_SAFE_NO_PAD.encode(payload));
        key.verify_strict(input.as_bytes(), &Signature::from_bytes(&bytes))
            .map_err(|_| "the signature does not match the record".to_owned())
    }
}

/// The JWK thumbprint (RFC 7638) of an Ed25519 key, in base64url.
fn thumbprint(key: &VerifyingKey) -> String {
    let members = format!(
        r#"{{"crv":"Ed25519","kty":"OKP","x":"{}"}}"#,
        URL_SAFE_NO_PAD.encode(key.as_bytes())
    );
    URL_SAFE_NO_PAD.encode(Sha256::digest(members.as_bytes()))
}

/// The `(label, whole block)` of each PEM block in `text`.
fn pem_blocks(text: &str) -> Vec<(&str, &str)> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("-----BEGIN ") {
        let after = &rest[start + 11..];
        let Some(label_end) = after.find("-----") else {
            break;
        };
        let label = &after[..label_end];
        let end_marker = format!("-----END {label}-----");
        let Some(end) = rest[start..].find(&end_marker) else {
            break;
        };
        let stop = start + end + end_marker.len();
        blocks.push((label, &rest[start..stop]));
        rest = &rest[stop..];
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_checks_with_its_key_and_fails_with_another_or_another_payload() {
        let keys = RecordKeys::generate();
        let jws = keys.sign(b"{\"a\":1}");
        assert!(keys.known().check(&jws, b"{\"a\":1}").is_ok());
        assert!(keys.known().check(&jws, b"{\"a\":2}").is_err());
        let other = RecordKeys::generate();
        let refused = other.known().check(&jws, b"{\"a\":1}").expect_err("another key");
        assert!(refused.contains("none of this server's"), "{refused}");
    }

    #[test]
    fn a_pem_file_signs_with_its_first_key_and_lists_the_retired_ones() {
        let old = RecordKeys::generate();
        let new = RecordKeys::generate();
        let file = format!("{}{}", new.pem().expect("pem"), old.pem().expect("pem"));
        let loaded = RecordKeys::from_pem(&file).expect("keys");
        assert_eq!(loaded.kid(), new.kid());
        let signed_before = old.sign(b"x");
        assert!(loaded.known().check(&signed_before, b"x").is_ok());
        let jwks = loaded.known().jwks();
        assert_eq!(jwks["keys"].as_array().map(Vec::len), Some(2));
        let again = KnownKeys::from_jwks(&jwks).expect("jwks");
        assert!(again.check(&loaded.sign(b"y"), b"y").is_ok());
    }

    #[test]
    fn a_file_without_a_private_key_or_with_another_block_is_refused() {
        assert!(RecordKeys::from_pem("").is_err());
        assert!(
            RecordKeys::from_pem("-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n").is_err()
        );
    }
}
