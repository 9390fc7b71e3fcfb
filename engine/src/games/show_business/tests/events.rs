//! Every change is a typed event: in seeded games, each public field of the spectator's view
//! that changes in a step is announced by a public event of that step, and an event that
//! concerns a seat names it.

use serde_json::Value;

use super::*;
use crate::{Audience, Event};

/// Which view fields each event type announces; a field of a per-seat list (`players`) is
/// written `players.cash`.
pub(crate) struct Announcements<'a> {
    /// `(event type, view fields)`.
    pub(crate) table: &'a [(&'a str, &'a [&'a str])],
    /// View fields that follow the flow of decisions (whose turn, which phase) and need no event.
    pub(crate) flow: &'a [&'a str],
    /// Event fields that name seats.
    pub(crate) seat_keys: &'a [&'a str],
}

/// A changed view field, and the seat it belongs to for a per-seat field.
#[derive(Debug)]
pub(crate) struct Change {
    field: String,
    seat: Option<u64>,
}

/// The fields that differ between two views, per seat inside lists of objects with a `seat`.
pub(crate) fn view_changes(before: &Value, after: &Value, flow: &[&str]) -> Vec<Change> {
    let mut out = Vec::new();
    let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
        return out;
    };
    for (key, va) in a {
        let vb = b.get(key).unwrap_or(&Value::Null);
        if flow.contains(&key.as_str()) || va == vb {
            continue;
        }
        match (vb.as_array(), va.as_array()) {
            (Some(lb), Some(la))
                if lb.len() == la.len() && la.iter().all(|x| x.get("seat").is_some_and(Value::is_u64)) =>
            {
                for (xb, xa) in lb.iter().zip(la) {
                    let seat = xa.get("seat").and_then(Value::as_u64);
                    for (k, v) in xa.as_object().into_iter().flatten() {
                        if xb.get(k) != Some(v) {
                            out.push(Change {
                                field: format!("{key}.{k}"),
                                seat,
                            });
                        }
                    }
                }
            }
            _ => out.push(Change {
                field: key.clone(),
                seat: None,
            }),
        }
    }
    out
}

/// Whether an event names `seat` under one of `keys`, as a number, in a list, or first in a pair.
fn names_seat(v: &Value, seat: u64, keys: &[&str]) -> bool {
    let is = |x: &Value| {
        x.as_u64() == Some(seat)
            || x.as_array().is_some_and(|l| {
                l.iter().any(|y| {
                    y.as_u64() == Some(seat) || y.as_array().and_then(|p| p.first()?.as_u64()) == Some(seat)
                })
            })
    };
    match v {
        Value::Object(m) => m
            .iter()
            .any(|(k, x)| (keys.contains(&k.as_str()) && is(x)) || names_seat(x, seat, keys)),
        Value::Array(l) => l.iter().any(|x| names_seat(x, seat, keys)),
        _ => false,
    }
}

/// The event's type tag.
pub(crate) fn kind(body: &Value) -> &str {
    body.get("type").and_then(Value::as_str).unwrap_or("")
}

/// Checks one step of any game: every public view field that changed from `before` to `after`
/// is announced by a public event of `events` whose type the table lists for that field, and
/// for a per-seat field that event names the seat.
pub(crate) fn events_announce_view_changes<G: Game>(
    before: &G::View,
    after: &G::View,
    events: &[Event<G::Event>],
    announcements: &Announcements<'_>,
) -> Result<(), String> {
    let before = serde_json::to_value(before).map_err(|e| e.to_string())?;
    let after = serde_json::to_value(after).map_err(|e| e.to_string())?;
    let public: Vec<Value> = events
        .iter()
        .filter(|e| e.audience == Audience::Everyone)
        .map(|e| serde_json::to_value(&e.body).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let changes = view_changes(&before, &after, announcements.flow);
    announced(&changes, &public, announcements)
}

/// The check on precomputed changes and public event bodies.
pub(crate) fn announced(
    changes: &[Change],
    public: &[Value],
    announcements: &Announcements<'_>,
) -> Result<(), String> {
    let mut missing = Vec::new();
    for c in changes {
        let ok = public.iter().any(|e| {
            announcements
                .table
                .iter()
                .any(|(k, fields)| *k == kind(e) && fields.contains(&c.field.as_str()))
                && c.seat.is_none_or(|s| names_seat(e, s, announcements.seat_keys))
        });
        if !ok {
            missing.push(format!("{} (seat {:?})", c.field, c.seat));
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        let kinds: Vec<&str> = public.iter().map(kind).collect();
        Err(format!(
            "unannounced view changes {missing:?}; public events {kinds:?}"
        ))
    }
}

const DISCARD: [&str; 2] = ["influence_discard", "influence_discard_top"];

/// Show Business: which event announces which view field.
pub(crate) const SHOW_BUSINESS: Announcements<'static> = Announcements {
    table: &[
        ("starting_band", &["players.band", "players.cash"]),
        (
            "reshuffled",
            &[
                "influence_pile",
                DISCARD[0],
                DISCARD[1],
                "artist_pile",
                "artist_discard",
                "bag",
                "used_tokens",
            ],
        ),
        ("drew", &["players.hand_count", "influence_pile"]),
        (
            "market_refilled",
            &[
                "influence_market",
                "artist_market",
                "concert_market",
                "influence_pile",
                "artist_pile",
                "bag",
            ],
        ),
        (
            "market_discard",
            &[
                "influence_market",
                "artist_market",
                DISCARD[0],
                DISCARD[1],
                "artist_discard",
            ],
        ),
        ("die_shows", &["dice"]),
        ("token_to_map", &["map_tokens", "concert_market", "bag"]),
        ("token_off_map", &["map_tokens", "used_tokens"]),
        ("paid", &["players.cash"]),
        ("earned", &["players.cash"]),
        ("advertised", &["players.cash", "players.popularity"]),
        ("satisfaction", &["players.satisfaction"]),
        ("popularity", &["players.popularity"]),
        ("scandal", &["players.scandal"]),
        ("shown", &["revealed", "influence_pile"]),
        ("shown_discarded", &["revealed", DISCARD[0], DISCARD[1]]),
        ("discarded", &["players.hand_count", DISCARD[0], DISCARD[1]]),
        (
            "field_discarded",
            &["players.influence_field", DISCARD[0], DISCARD[1]],
        ),
        (
            "bankrupt",
            &[
                "players.cash",
                "players.time",
                "players.last_in_turn",
                "players.hand_count",
                "players.influence_field",
                "players.band",
                "players.songs",
                "players.blanks",
                "players.bankrupt",
                DISCARD[0],
                DISCARD[1],
                "artist_discard",
                "used_tokens",
            ],
        ),
        ("round_begins", &["players.blanks"]),
        (
            "time_lapse",
            &["players.time", "players.hand_count", "players.influence_field"],
        ),
        (
            "quarter_end_reached",
            &["quarter_ends", "quarter_end_pending", "last_turn"],
        ),
        (
            "activated_from_market",
            &["influence_market", "players.influence_field"],
        ),
        ("bought", &["influence_market", "players.hand_count"]),
        ("recruited", &["artist_market", "players.band"]),
        ("car_moved", &["players.car"]),
        ("concert", &["map_tokens"]),
        ("token_on_artist", &["players.band"]),
        ("token_discarded", &["used_tokens"]),
        ("studio_used", &["players.blanks"]),
        ("song_recorded", &["players.songs"]),
        ("promoted", &["players.songs", "chart"]),
        ("defence", &["players.hand_count", "players.influence_field"]),
        ("time_swapped", &["players.time"]),
        ("artists_exchanged", &["players.band"]),
        ("dismissed", &["players.band", "artist_discard", "used_tokens"]),
        ("artist_left", &["players.band", "artist_discard", "used_tokens"]),
        ("style_changed", &["players.band", "used_tokens"]),
        ("regrouped", &["players.band"]),
        ("rondel_moved", &["rondel"]),
        (
            "trend_expert_placed",
            &["trend_expert", "players.influence_field"],
        ),
        (
            "trend_expert_returned",
            &["trend_expert", "players.influence_field", DISCARD[0], DISCARD[1]],
        ),
        ("bids_revealed", &["players.cash"]),
        ("sequence", &["order", "players.last_in_turn"]),
        ("quarter_end", &["quarter_end_pending", "players.blanks"]),
        ("disclosed", &["chart"]),
        ("chart_scores", &["chart"]),
        ("chart_placed", &["chart"]),
        ("sponsor_card", &["players.hand_count", "players.influence_field"]),
        ("charts_done", &["chart"]),
        ("game_over", &["players.songs", "chart"]),
    ],
    flow: &[
        "me",
        "phase",
        "to_act",
        "active",
        "my_bid",
        "power_left",
        "pending",
    ],
    seat_keys: &[
        "seat",
        "seats",
        "restocked",
        "attacker",
        "target",
        "first",
        "order",
        "bids",
        "winners",
    ],
};

/// One recorded step of a seeded game: the view changes and the public events.
struct Step {
    changes: Vec<Change>,
    public: Vec<Value>,
}

/// Plays careful seeded games and records every step (the views are checked as they go).
fn recorded_games(games: u64, first_seed: u64) -> Vec<Step> {
    let mut steps = Vec::new();
    for i in 0..games {
        let seats = 2 + i as usize % 4;
        let seed = first_seed + i;
        let (mut g, _) = ShowBusiness::setup(options_for(i as usize), seats, seed).expect("setup");
        let mut r = crate::rng::GameRng::new(seed ^ 0x5eed);
        let mut n = 0;
        while !g.is_over() && n < 20_000 {
            n += 1;
            let to_act = g.to_act();
            let seat = to_act[r.below(to_act.len())];
            let list = g.legal_actions(seat);
            let action = list[careful(&g, seat, &list, &mut r)].clone();
            let before = g.view(Viewer::Spectator);
            let events = g.apply(seat, &action).expect("a legal action");
            let after = g.view(Viewer::Spectator);
            if let Err(e) =
                events_announce_view_changes::<ShowBusiness>(&before, &after, &events, &SHOW_BUSINESS)
            {
                panic!("game {i} ({seats} seats, seed {seed}), step {n}, {action:?}: {e}");
            }
            let before = serde_json::to_value(&before).expect("view");
            let after = serde_json::to_value(&after).expect("view");
            steps.push(Step {
                changes: view_changes(&before, &after, SHOW_BUSINESS.flow),
                public: events
                    .iter()
                    .filter(|e| e.audience == Audience::Everyone)
                    .map(|e| serde_json::to_value(&e.body).expect("event"))
                    .collect(),
            });
        }
    }
    steps
}

#[test]
fn every_public_view_change_is_announced_by_a_typed_event_and_removing_one_is_caught() {
    let steps = recorded_games(24, 900);
    // Without one event type's evidence the same games fail the check.
    for gone in [
        "paid",
        "earned",
        "popularity",
        "satisfaction",
        "die_shows",
        "market_refilled",
        "time_lapse",
        "rondel_moved",
        "token_to_map",
        "drew",
        "field_discarded",
    ] {
        let table: Vec<(&str, &[&str])> = SHOW_BUSINESS
            .table
            .iter()
            .copied()
            .filter(|(k, _)| *k != gone)
            .collect();
        let weaker = Announcements {
            table: &table,
            ..SHOW_BUSINESS
        };
        let caught = steps
            .iter()
            .any(|s| announced(&s.changes, &s.public, &weaker).is_err());
        assert!(caught, "removing {gone} from the table went unnoticed");
        let caught = steps.iter().any(|s| {
            let kept: Vec<Value> = s.public.iter().filter(|e| kind(e) != gone).cloned().collect();
            announced(&s.changes, &kept, &SHOW_BUSINESS).is_err()
        });
        assert!(caught, "games without {gone} events went unnoticed");
    }
}
