//! Every change is a typed event: each public field of the spectator's view that changes in a
//! step is announced by a public event of that step, as the game's [`Announcements`] table says,
//! and an event that announces a seat's field names the seat.
//!
//! [`check_step`] runs after every step of the conformance suite; [`record`] keeps seeded games'
//! steps so that a test can show that the check fails once an event is removed ([`removal_caught`]).
//!
//! Events also describe the changes in the order they happened: [`check_replay`], after every
//! step too, applies the step's public events in order to the view before it with the game's
//! [`Replay`] and compares the fields it keeps with the view after it.

use serde_json::Value;

use super::Policy;
use crate::rng::GameRng;
use crate::{Announcements, Audience, Event, Game, Replay, Seat, Viewer};

/// A changed view field, and the seat it belongs to for a per-seat field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// `field`, or `list.field` inside a per-seat list.
    pub field: String,
    /// The seat, for a field of a per-seat list.
    pub seat: Option<u64>,
}

/// The fields that differ between two views (as JSON), per seat inside lists of objects that
/// carry a `seat`; `flow` fields are left out.
pub fn view_changes(before: &Value, after: &Value, flow: &[&str]) -> Vec<Change> {
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

/// An event's `type` tag.
pub fn kind(body: &Value) -> &str {
    body.get("type").and_then(Value::as_str).unwrap_or("")
}

/// The bodies of the events everyone may see, as JSON.
pub fn public_bodies<E: serde::Serialize>(events: &[Event<E>]) -> Result<Vec<Value>, String> {
    events
        .iter()
        .filter(|e| e.audience == Audience::Everyone)
        .map(|e| serde_json::to_value(&e.body).map_err(|e| format!("an event does not serialize: {e}")))
        .collect()
}

/// The spectator's view of `game`, as JSON.
pub fn spectator_view<G: Game>(game: &G) -> Result<Value, String> {
    serde_json::to_value(game.view(Viewer::Spectator))
        .map_err(|e| format!("the view does not serialize: {e}"))
}

/// Checks one step of a game of `G`: every public view field that changed from `before` to
/// `after` (the spectator's views, as JSON) is announced by one of the public `events`.
pub fn check_step<G: Game>(before: &Value, after: &Value, events: &[Event<G::Event>]) -> Result<(), String> {
    let changes = view_changes(before, after, G::ANNOUNCEMENTS.flow);
    if changes.is_empty() {
        return Ok(());
    }
    announced(&changes, &public_bodies(events)?, &G::ANNOUNCEMENTS)
}

/// The check on the changes of one step and its public event bodies.
pub fn announced(
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

/// Checks one step of a game of `G`: the spectator's view `before`, with the step's public
/// `events` applied one by one in their order by the game's [`Replay`], shows every replayed
/// field as the view `after` does.
pub fn check_replay<G: Game>(
    before: &Value,
    after: &Value,
    events: &[Event<G::Event>],
) -> Result<(), String> {
    replayed(before, after, &public_bodies(events)?, &G::REPLAY)
}

/// The check on a step's views and its public event bodies, in order.
pub fn replayed(before: &Value, after: &Value, public: &[Value], replay: &Replay) -> Result<(), String> {
    let mut view = before.clone();
    for (i, event) in public.iter().enumerate() {
        (replay.apply)(&mut view, event)
            .map_err(|e| format!("public event {i} ({}) does not apply: {e}", kind(event)))?;
    }
    let wrong: Vec<String> = replay
        .fields
        .iter()
        .filter(|f| view.get(**f) != after.get(**f))
        .map(|f| {
            let show = |v: &Value| v.get(*f).map_or("nothing".into(), Value::to_string);
            format!(
                "{f}: the events give {}, the view shows {}",
                show(&view),
                show(after)
            )
        })
        .collect();
    if wrong.is_empty() {
        Ok(())
    } else {
        let kinds: Vec<&str> = public.iter().map(kind).collect();
        Err(format!(
            "the public events {kinds:?}, applied in order, do not give the view: {}",
            wrong.join("; ")
        ))
    }
}

/// One recorded step of a game: the changes of the spectator's view and the public events.
#[derive(Clone, Debug)]
pub struct Step {
    /// The view fields that changed.
    pub changes: Vec<Change>,
    /// The public events' bodies.
    pub public: Vec<Value>,
}

/// Plays `games` seeded games of `G` (game `i`: `seats_for(i)` seats, `options_for(i)`, seed
/// `first_seed + i`) with the actions `policy` picks, checks every step with [`check_step`] and
/// returns the steps, for [`removal_caught`].
pub fn record<G: Game>(
    games: usize,
    first_seed: u64,
    seats_for: impl Fn(usize) -> usize,
    options_for: impl Fn(usize) -> G::Options,
    policy: &mut Policy<'_, G>,
) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    for i in 0..games {
        let seats = seats_for(i);
        let seed = first_seed.wrapping_add(i as u64);
        let at =
            |n: usize, e: String| format!("{} game {i} ({seats} seats, seed {seed}), step {n}: {e}", G::SLUG);
        let (mut game, _) = G::setup(options_for(i), seats, seed).map_err(|e| at(0, e.to_string()))?;
        let mut chooser = GameRng::new(seed ^ 0x5eed);
        let mut before = spectator_view(&game).map_err(|e| at(0, e))?;
        let mut n = 0;
        while !game.is_over() {
            n += 1;
            if n > 50_000 {
                return Err(at(n, "still running".into()));
            }
            let to_act = game.to_act();
            let seat: Seat = to_act[chooser.below(to_act.len())];
            let list = game.legal_actions(seat);
            let pick = policy(&game, seat, &list, &mut chooser);
            let action = list
                .get(pick)
                .ok_or_else(|| at(n, format!("the policy picked {pick}")))?;
            let events = game.apply(seat, action).map_err(|r| at(n, r.to_string()))?;
            let after = spectator_view(&game).map_err(|e| at(n, e))?;
            check_step::<G>(&before, &after, &events).map_err(|e| at(n, e))?;
            check_replay::<G>(&before, &after, &events).map_err(|e| at(n, e))?;
            steps.push(Step {
                changes: view_changes(&before, &after, G::ANNOUNCEMENTS.flow),
                public: public_bodies(&events).map_err(|e| at(n, e))?,
            });
            before = after;
        }
    }
    Ok(steps)
}

/// `Ok` when the recorded `steps`, which pass the check with `announcements`, fail it both
/// without the table's entry for the event type `gone` and without the events of that type.
pub fn removal_caught(steps: &[Step], announcements: &Announcements<'_>, gone: &str) -> Result<(), String> {
    let table: Vec<(&str, &[&str])> = announcements
        .table
        .iter()
        .copied()
        .filter(|(k, _)| *k != gone)
        .collect();
    let weaker = Announcements {
        table: &table,
        ..*announcements
    };
    if !steps
        .iter()
        .any(|s| announced(&s.changes, &s.public, &weaker).is_err())
    {
        return Err(format!("removing {gone} from the table went unnoticed"));
    }
    let caught = steps.iter().any(|s| {
        let kept: Vec<Value> = s.public.iter().filter(|e| kind(e) != gone).cloned().collect();
        announced(&s.changes, &kept, announcements).is_err()
    });
    if !caught {
        return Err(format!("games without {gone} events went unnoticed"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const TABLE: Announcements<'static> = Announcements {
        table: &[("paid", &["players.cash"]), ("moved", &["board"])],
        flow: &["to_act"],
        seat_keys: &["seat", "seats"],
    };

    #[test]
    fn per_seat_fields_need_an_event_naming_the_seat_and_flow_fields_need_none() {
        let before =
            json!({"to_act": [0], "board": 1, "players": [{"seat": 0, "cash": 5}, {"seat": 1, "cash": 5}]});
        let after =
            json!({"to_act": [1], "board": 2, "players": [{"seat": 0, "cash": 5}, {"seat": 1, "cash": 7}]});
        let changes = view_changes(&before, &after, TABLE.flow);
        assert_eq!(
            changes,
            vec![
                Change {
                    field: "board".into(),
                    seat: None
                },
                Change {
                    field: "players.cash".into(),
                    seat: Some(1)
                },
            ]
        );
        let moved = json!({"type": "moved"});
        assert!(
            announced(
                &changes,
                &[moved.clone(), json!({"type": "paid", "seat": 1})],
                &TABLE
            )
            .is_ok()
        );
        assert!(
            announced(
                &changes,
                &[moved.clone(), json!({"type": "paid", "seats": [2, 1]})],
                &TABLE
            )
            .is_ok()
        );
        assert!(
            announced(
                &changes,
                &[moved.clone(), json!({"type": "paid", "seat": 0})],
                &TABLE
            )
            .is_err()
        );
        assert!(announced(&changes, &[moved, json!({"type": "earned", "seat": 1})], &TABLE).is_err());
        assert!(announced(&changes, &[json!({"type": "paid", "seat": 1})], &TABLE).is_err());
    }

    /// A pile a reshuffle forms with `size` cards and each draw takes one from.
    const PILE: Replay = Replay {
        fields: &["pile"],
        apply: |view, event| match kind(event) {
            "reshuffled" => {
                view["pile"] = event["size"].clone();
                Ok(())
            }
            "drew" => Replay::count(view, "pile", -1),
            _ => Ok(()),
        },
    };

    #[test]
    fn events_replayed_in_their_order_give_the_view_and_in_another_order_do_not() {
        // The last card is drawn, the pile is formed again with 10 cards, one more is drawn.
        let (before, after) = (json!({"pile": 1}), json!({"pile": 9}));
        let (drew, formed) = (json!({"type": "drew"}), json!({"type": "reshuffled", "size": 10}));
        let in_order = [drew.clone(), formed.clone(), drew.clone()];
        assert!(replayed(&before, &after, &in_order, &PILE).is_ok());
        let formed_first = [formed, drew.clone(), drew.clone()];
        let wrong = replayed(&before, &after, &formed_first, &PILE).expect_err("one short");
        assert!(
            wrong.contains("pile: the events give 8, the view shows 9"),
            "{wrong}"
        );
        assert!(replayed(&json!({"pile": 0}), &after, &[drew], &PILE).is_err());
    }

    #[test]
    fn removing_an_event_type_that_alone_announces_a_change_is_caught() {
        let steps = [Step {
            changes: vec![Change {
                field: "board".into(),
                seat: None,
            }],
            public: vec![json!({"type": "moved"})],
        }];
        assert!(removal_caught(&steps, &TABLE, "moved").is_ok());
        assert!(removal_caught(&steps, &TABLE, "paid").is_err());
    }
}
