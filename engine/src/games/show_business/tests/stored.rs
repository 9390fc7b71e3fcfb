//! A game the store kept before Show Business's ids were typed (cards, artists, tokens and cities
//! as table indices, sealed bids and poll answers as plain lists) still loads, and shows and
//! offers exactly what it did then. `stored_before_typed_ids.json` holds positions written by
//! that build (commit 857fe2b, seeded random play) as the store writes them (MessagePack of
//! [`AnyGame`]), at a sealed bid, a poll, a GROUPIE, a PILOT and a tournee, each with the
//! spectator's view and every legal action then. The views are kept as that build wrote them;
//! [`in_todays_shape`] writes them as the view is shaped since (markets as their occupied fields,
//! a blank die as `blank`), and changes nothing else.

use serde_json::Value;

use super::super::state::Lap;
use crate::{AnyGame, Seat, Viewer};

fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect()
}

fn json(raw: &serde_json::value::RawValue) -> Value {
    serde_json::from_str(raw.get()).expect("JSON")
}

/// A view as the build of the fixture wrote it, in today's shape: each market (a list of its
/// fields, `null` where empty) becomes the list of its occupied fields, `{"field": <from 1>,
/// <card|artist|token>: ...}`, and a blank die (`null`) becomes `"blank"`.
fn in_todays_shape(mut view: Value) -> Value {
    for (market, key) in [
        ("influence_market", "card"),
        ("artist_market", "artist"),
        ("concert_market", "token"),
    ] {
        let fields = view[market].as_array().cloned().unwrap_or_default();
        view[market] = (1..)
            .zip(fields)
            .filter(|(_, on)| !on.is_null())
            .map(|(field, on)| serde_json::json!({"field": field, key: on}))
            .collect();
    }
    let dice = view["dice"].as_array().cloned().unwrap_or_default();
    view["dice"] = dice
        .into_iter()
        .map(|face| {
            if face.is_null() {
                Value::from(crate::games::show_business::BLANK_FACE)
            } else {
                face
            }
        })
        .collect();
    view
}

#[test]
fn a_game_stored_before_ids_were_typed_loads_and_shows_and_offers_the_same() {
    let fixture: Vec<Value> =
        serde_json::from_str(include_str!("stored_before_typed_ids.json")).expect("the fixture is JSON");
    assert!(fixture.len() >= 5, "{} positions", fixture.len());
    for (i, position) in fixture.iter().enumerate() {
        let stored = bytes(position["stored"].as_str().expect("stored"));
        let game: AnyGame =
            rmp_serde::from_slice(&stored).unwrap_or_else(|e| panic!("position {i} does not load: {e}"));
        assert_eq!(
            json(&game.view(Viewer::Spectator)),
            in_todays_shape(position["spectator"].clone()),
            "position {i}"
        );
        let offered = position["to_act"].as_array().expect("to_act");
        assert_eq!(game.to_act().len(), offered.len(), "position {i}");
        for entry in offered {
            let seat = Seat::new(entry["seat"].as_u64().expect("seat") as usize);
            assert_eq!(
                json(&game.legal_actions(seat)),
                entry["actions"],
                "position {i}, seat {seat}"
            );
        }
        let again = rmp_serde::to_vec_named(&game).expect("encodes");
        let reloaded: AnyGame = rmp_serde::from_slice(&again).expect("the new encoding loads");
        assert_eq!(reloaded, game, "position {i}");
    }
}

#[test]
fn a_sponsor_lap_stored_as_parallel_lists_loads_as_pairs() {
    let old = serde_json::json!({"seats": [2, 0], "at": 1, "sums": [4, 7], "chooser": null});
    let lap: Lap = rmp_serde::from_slice(&rmp_serde::to_vec_named(&old).expect("encodes")).expect("loads");
    assert_eq!(lap.sums, vec![(Seat::new(2), 4), (Seat::new(0), 7)]);
    assert_eq!(lap.at, 1);
    let new = rmp_serde::to_vec_named(&lap).expect("encodes");
    assert_eq!(rmp_serde::from_slice::<Lap>(&new).expect("loads"), lap);
    let uneven = serde_json::json!({"seats": [2], "at": 0, "sums": [4, 7], "chooser": null});
    assert!(rmp_serde::from_slice::<Lap>(&rmp_serde::to_vec_named(&uneven).expect("encodes")).is_err());
}

#[test]
fn a_table_index_is_read_from_the_store_but_never_from_a_client() {
    use super::super::components::CardId;
    let eighth = CardId::all().nth(7).expect("80 cards");
    let index = rmp_serde::to_vec(&7u8).expect("encodes");
    assert_eq!(rmp_serde::from_slice::<CardId>(&index).expect("loads"), eighth);
    let beyond = rmp_serde::to_vec(&200u8).expect("encodes");
    assert!(rmp_serde::from_slice::<CardId>(&beyond).is_err());
    assert!(serde_json::from_str::<CardId>("7").is_err());
    let id = serde_json::to_string(&eighth).expect("encodes");
    assert_eq!(serde_json::from_str::<CardId>(&id).expect("loads"), eighth);
}
