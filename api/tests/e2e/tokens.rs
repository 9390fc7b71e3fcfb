//! Seat tokens: each opens one seat of one game, and only until it expires.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use crate::support::{Roadie, rulesets};

/// The token with its claims rewritten (the signature left as it was).
fn tamper(token: &str, change: impl FnOnce(&mut Value)) -> String {
    let parts: Vec<&str> = token.split('.').collect();
    assert_eq!(parts.len(), 3);
    let mut claims: Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).expect("base64")).expect("claims");
    change(&mut claims);
    let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims).expect("json"));
    format!("{}.{payload}.{}", parts[0], parts[2])
}

#[test]
fn a_seat_token_opens_only_its_own_seat_of_its_own_game() {
    let roadie = Roadie::start("tokens", None, &[]);
    let (slug, _, max) = rulesets(&roadie).into_iter().next().expect("a ruleset");
    assert!(max >= 3);
    let game = roadie.create(&slug, max, Some(1));
    let other = roadie.create(&slug, max, Some(2));

    // Seat 1's token shows seat 1, never seat 2.
    let mine = roadie.get(&format!("/v1/games/{}", game.id), Some(&game.tokens[1]));
    assert_eq!(mine.json["seat"], 1);
    assert_eq!(
        mine.header("vary"),
        Some("Authorization"),
        "views differ by token"
    );
    let actions = roadie.get(&format!("/v1/games/{}/actions", game.id), Some(&game.tokens[1]));
    assert_eq!(actions.json["seat"], 1);

    // Rewriting the seat (or the game) in seat 1's token breaks its signature.
    let as_seat_2 = tamper(&game.tokens[1], |c| c["seat"] = json!(2));
    roadie
        .get(&format!("/v1/games/{}/actions", game.id), Some(&as_seat_2))
        .assert_problem(401, "token_invalid");
    let as_other_game = tamper(&game.tokens[1], |c| c["game"] = json!(other.id));
    roadie
        .get(&format!("/v1/games/{}/actions", other.id), Some(&as_other_game))
        .assert_problem(401, "token_invalid");
    let forever = tamper(&game.tokens[1], |c| c["exp"] = json!(u32::MAX));
    roadie
        .get(&format!("/v1/games/{}", game.id), Some(&forever))
        .assert_problem(401, "token_invalid");

    // Seat 1's genuine token is refused by another game.
    roadie
        .get(&format!("/v1/games/{}/actions", other.id), Some(&game.tokens[1]))
        .assert_problem(403, "wrong_game");
    roadie
        .get(&format!("/v1/games/{}", other.id), Some(&game.tokens[1]))
        .assert_problem(403, "wrong_game");

    // Seat 1 cannot play seat 2's turn: whatever it posts is its own seat's.
    let state = roadie.game(&game, None);
    if let Some(acting) = state.json["to_act"]
        .as_array()
        .and_then(|a| a.first())
        .and_then(Value::as_u64)
    {
        let acting = acting as usize;
        let impostor = (0..max).find(|s| {
            *s != acting
                && !state.json["to_act"]
                    .as_array()
                    .is_some_and(|a| a.contains(&json!(s)))
        });
        if let Some(impostor) = impostor {
            let action = roadie.actions(&game, acting)[0].clone();
            roadie
                .act(&game, impostor, &action)
                .assert_problem(409, "not_your_turn");
        }
    }

    // A token signed with another secret is refused.
    let stranger = Roadie::start(
        "tokens_stranger",
        None,
        &[("ROADIE_JWT_SECRET", "another secret, also at least 32 bytes long")],
    );
    let foreign = stranger.create(&slug, max, Some(1));
    roadie
        .get(&format!("/v1/games/{}", foreign.id), Some(&foreign.tokens[0]))
        .assert_problem(401, "token_invalid");
}

#[test]
fn an_expired_token_is_refused() {
    let roadie = Roadie::start("expiry", None, &[("ROADIE_TOKEN_TTL_SECS", "1")]);
    let (slug, _, max) = rulesets(&roadie).into_iter().next().expect("a ruleset");
    let game = roadie.create(&slug, max, Some(1));
    let fresh = roadie.get(&format!("/v1/games/{}/actions", game.id), Some(&game.tokens[0]));
    assert_eq!(fresh.status, 200, "{}", fresh.body);
    std::thread::sleep(std::time::Duration::from_millis(2_100));
    roadie
        .get(&format!("/v1/games/{}/actions", game.id), Some(&game.tokens[0]))
        .assert_problem(401, "token_expired");
}

#[test]
fn a_secret_a_player_could_guess_is_refused_at_start() {
    for secret in [
        "s",
        "change-me",
        "abababababababababababababababababab",
        "01234567890123456789012345678901",
    ] {
        let out = std::process::Command::new(crate::support::roadie_binary())
            .env("ROADIE_ADDR", "127.0.0.1:0")
            .env("ROADIE_JWT_SECRET", secret)
            .output()
            .expect("run roadie");
        assert!(!out.status.success(), "{secret:?} was accepted");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("ROADIE_JWT_SECRET"), "{said}");
        assert!(said.contains("openssl rand -hex 32"), "{said}");
    }
}

#[test]
fn a_chosen_seed_cannot_be_found_from_its_commitment_and_big_seeds_are_refused() {
    use sha2::{Digest, Sha256};
    let roadie = Roadie::start("seeds", None, &[]);
    let game = roadie.create("shrewd-producer", 3, Some(42));
    let commitment = game.seed_commitment.clone();
    let found = (0u64..100_000).find(|s| hex::encode(Sha256::digest(s.to_string().as_bytes())) == commitment);
    assert_eq!(found, None, "the seed was found by trying small numbers");
    let other = roadie.create("shrewd-producer", 3, Some(42));
    assert_ne!(
        other.seed_commitment, commitment,
        "the same seed commits differently each time"
    );
    roadie
        .post(
            "/v1/games",
            None,
            &serde_json::json!({"ruleset": "shrewd-producer", "seats": 3, "seed": 9_007_199_254_740_992u64}),
        )
        .assert_problem(422, "invalid_seed");
    for _ in 0..20 {
        let drawn = roadie.create("shrewd-producer", 3, None);
        let state = roadie.game(&drawn, None);
        assert_eq!(state.status, 200);
        assert!(
            state.json.get("seed").is_none(),
            "the seed stays secret while the game runs"
        );
    }
}
