//! What checking a player token costs the first time it is seen (its signature, algorithm,
//! `kid`, issuer, audience and times), for each algorithm an app may sign with, against the
//! cost of checking a seat token (HS256) the same way: every call skips the caches of verified
//! tokens. Keys are made here with `openssl`; nothing is committed.
//!
//! `cargo bench -p roadie-api --bench player_tokens`

use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use criterion::{Criterion, criterion_group, criterion_main};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use roadie_api::apps::Apps;
use roadie_api::tokens::Keys;
use roadie_engine::Seat;
use serde_json::{Value, json};

fn openssl(args: &[&str]) -> Vec<u8> {
    let out = Command::new("openssl").args(args).output().expect("openssl");
    assert!(out.status.success(), "openssl {args:?}");
    out.stdout
}

/// An app's signing key, made with openssl: the private half and the public JWK.
fn key(dir: &std::path::Path, algorithm: Algorithm) -> (EncodingKey, Value) {
    let der = dir.join(format!("{algorithm:?}.der"));
    let der = der.to_str().expect("path");
    match algorithm {
        Algorithm::EdDSA => {
            openssl(&["genpkey", "-algorithm", "ed25519", "-outform", "DER", "-out", der]);
            let public = openssl(&["pkey", "-inform", "DER", "-in", der, "-pubout", "-outform", "DER"]);
            let x = URL_SAFE_NO_PAD.encode(&public[public.len() - 32..]);
            (
                EncodingKey::from_ed_der(&std::fs::read(der).expect("key")),
                json!({"kty": "OKP", "crv": "Ed25519", "x": x, "kid": "ed"}),
            )
        }
        Algorithm::ES256 => {
            // SEC1 from openssl, then PKCS#8, the form the signer reads.
            let pem = dir.join("ec.pem");
            let pem = pem.to_str().expect("path");
            openssl(&["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", pem]);
            openssl(&[
                "pkcs8", "-topk8", "-nocrypt", "-in", pem, "-outform", "DER", "-out", der,
            ]);
            let public = openssl(&["ec", "-in", pem, "-pubout", "-outform", "DER"]);
            let point = &public[public.len() - 64..];
            (
                EncodingKey::from_ec_der(&std::fs::read(der).expect("key")),
                json!({"kty": "EC", "crv": "P-256", "x": URL_SAFE_NO_PAD.encode(&point[..32]),
                       "y": URL_SAFE_NO_PAD.encode(&point[32..]), "kid": "es"}),
            )
        }
        _ => {
            let pem = dir.join("rsa.pem");
            let pem = pem.to_str().expect("path");
            openssl(&["genrsa", "-traditional", "-out", pem, "2048"]);
            openssl(&["rsa", "-traditional", "-in", pem, "-outform", "DER", "-out", der]);
            let modulus =
                String::from_utf8(openssl(&["rsa", "-in", pem, "-noout", "-modulus"])).expect("text");
            let n = hex::decode(modulus.trim().trim_start_matches("Modulus=")).expect("hex");
            (
                EncodingKey::from_rsa_der(&std::fs::read(der).expect("key")),
                json!({"kty": "RSA", "n": URL_SAFE_NO_PAD.encode(n), "e": "AQAB", "kid": "rs"}),
            )
        }
    }
}

fn tokens(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("roadie-bench-tokens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let exp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .as_secs()
        + 3600;
    let claims = json!({"iss": "bench", "sub": "player-1", "aud": "roadie", "exp": exp, "name": "Ann"});
    let mut signed = Vec::new();
    let mut jwks = Vec::new();
    for algorithm in [Algorithm::EdDSA, Algorithm::ES256, Algorithm::RS256] {
        let (private, jwk) = key(&dir, algorithm);
        let mut header = Header::new(algorithm);
        header.kid = jwk["kid"].as_str().map(str::to_owned);
        signed.push((
            algorithm,
            jsonwebtoken::encode(&header, &claims, &private).expect("signed"),
        ));
        jwks.push(jwk);
    }
    let file = dir.join("apps.json.toml");
    let keys: Vec<String> = jwks
        .iter()
        .map(|jwk| {
            let fields: Vec<String> = jwk
                .as_object()
                .expect("object")
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect();
            format!("{{ {} }}", fields.join(", "))
        })
        .collect();
    std::fs::write(
        &file,
        format!(
            "[[apps]]\nid = \"bench\"\nname = \"Bench\"\nalgorithms = [\"EdDSA\", \"ES256\", \"RS256\"]\njwks = {{ keys = [{}] }}\n",
            keys.join(", ")
        ),
    )
    .expect("apps file");
    let apps = Apps::load(&file).expect("apps");
    let mut group = c.benchmark_group("verify a token, uncached");
    group.measurement_time(Duration::from_secs(3));
    for (algorithm, token) in &signed {
        apps.verify_uncached(token).expect("a good token");
        group.bench_function(format!("player token, {algorithm:?}"), |b| {
            b.iter(|| apps.verify_uncached(black_box(token)).expect("verified"))
        });
    }
    let seat_keys = Keys::new(b"a bench secret of 32 bytes or more.....", Duration::ZERO, 0).expect("keys");
    let seat_token = seat_keys
        .issue("0123456789abcdef01234567", Some(Seat::new(0)))
        .expect("signed");
    group.bench_function("seat token, HS256", |b| {
        b.iter(|| seat_keys.verify(black_box(&seat_token)).expect("verified"))
    });
    group.finish();
    std::fs::remove_dir_all(dir).ok();
}

criterion_group!(benches, tokens);
criterion_main!(benches);
