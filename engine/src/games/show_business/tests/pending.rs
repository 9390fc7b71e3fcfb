//! A seat sees what it decides on: the view's `pending` shows the decision in progress.

use super::*;

fn scenario() -> Scenario {
    Scenario::new(Options::default(), 2, 7).expect("setup")
}

fn pending(g: &ShowBusiness, viewer: Viewer) -> serde_json::Value {
    serde_json::to_value(g.view(viewer).pending).expect("pending")
}

#[test]
fn the_view_shows_the_chart_the_tied_songs_trend_points_and_the_running_sponsor_sums() {
    let entry = |owner, style, v| ChartEntry {
        owner,
        style,
        lyrics: v,
        tempo: v,
        volume: v,
        experience: 0,
        disclosed: false,
    };
    let s = scenario().dice([None; 4]);
    let (s, one) = s.chart_song(1, entry(Seat::new(0), Style::Rock, 0));
    let (s, two) = s.chart_song(2, entry(Seat::new(1), Style::Pop, 1));
    assert_eq!((one, two), (SongId(1), SongId(2)));
    let mut g = s
        .hand(Seat::new(0), &["I65"])
        .build(Start::QuarterEnd)
        .expect("a valid position");
    for viewer in [
        Viewer::Seat(Seat::new(0)),
        Viewer::Seat(Seat::new(1)),
        Viewer::Spectator,
    ] {
        let view = g.view(viewer);
        let songs: Vec<SongId> = view.chart.iter().flatten().map(|s| s.id).collect();
        assert_eq!(
            songs,
            vec![SongId(1), SongId(2)],
            "{viewer:?} sees the chart while the tie is settled"
        );
        assert!(view.chart.iter().flatten().all(|s| s.content.is_some()));
    }
    play(&mut g, Seat::new(0), Action::SponsorTie { card: card("I65") });
    assert_eq!(
        pending(&g, Viewer::Seat(Seat::new(1))),
        serde_json::json!({
            "kind": "charts",
            "placed": [],
            "tied": [
                {"song": 1, "owner": 0, "score": 10, "trend_points": 10},
                {"song": 2, "owner": 1, "score": 10, "trend_points": 10},
            ],
            "lap_seats": [0, 1],
            "lap_sums": [1, 0],
            "lap_turn": 0,
            "chooser": null,
        })
    );
}

#[test]
fn the_view_shows_the_amount_owed_while_advertising() {
    let g = scenario()
        .cash(Seat::new(0), 2)
        .build(Start::Pay {
            seat: Seat::new(0),
            amount: 12,
            reason: Payment::Salaries,
        })
        .expect("a valid position");
    assert_eq!(
        pending(&g, Viewer::Spectator),
        serde_json::json!({"kind": "advertise", "seat": 0, "due": 12, "reason": {"kind": "salaries"}})
    );
}

#[test]
fn the_view_shows_the_pending_attack_during_a_defence() {
    let mut g = scenario()
        .field(Seat::new(0), &["I01"])
        .build(Start::ChooseAction { seat: Seat::new(0) })
        .expect("a valid position");
    play(&mut g, Seat::new(0), Action::AAndR { target: Seat::new(1) });
    assert_eq!(
        pending(&g, Viewer::Seat(Seat::new(1))),
        serde_json::json!({"kind": "defend", "attacker": 0, "target": 1, "card": "I01", "attack": {"kind": "a_and_r"}})
    );
}

#[test]
fn the_view_shows_femme_fatales_best_drawn_power() {
    let mut g = scenario()
        .field(Seat::new(0), &["I29"])
        .pile_top(&["I10", "I12"])
        .build(Start::ChooseAction { seat: Seat::new(0) })
        .expect("a valid position");
    play(&mut g, Seat::new(0), Action::FemmeFatale);
    let best = [card("I10"), card("I12")].map(|c| c.power()).into_iter().max();
    assert_eq!(
        pending(&g, Viewer::Seat(Seat::new(0))),
        serde_json::json!({"kind": "femme_fatale", "seat": 0, "power": best})
    );
}

#[test]
fn the_view_shows_pilots_and_groupies_choices_so_far() {
    let mut g = scenario()
        .map(&["T47", "T12"])
        .field(Seat::new(0), &["I52"])
        .build(Start::ChooseAction { seat: Seat::new(0) })
        .expect("a valid position");
    play(&mut g, Seat::new(0), Action::PilotToken { token: token("T12") });
    if g.phase() == "place_token" {
        play(&mut g, Seat::new(0), Action::DiscardToken);
    }
    assert_eq!(
        pending(&g, Viewer::Spectator),
        serde_json::json!({"kind": "pilot", "seat": 0, "cities": ["C"], "stopped": false})
    );

    let mut g = scenario()
        .field(Seat::new(0), &["I34"])
        .build(Start::ChooseAction { seat: Seat::new(0) })
        .expect("a valid position");
    play(&mut g, Seat::new(0), Action::Groupie { target: Seat::new(1) });
    play(
        &mut g,
        Seat::new(0),
        Action::GroupieTake {
            artist: artist("AR05"),
        },
    );
    assert_eq!(
        pending(&g, Viewer::Seat(Seat::new(1))),
        serde_json::json!({"kind": "groupie", "seat": 0, "target": 1, "take": "AR05", "give": null, "mine": null})
    );
}

#[test]
fn the_view_shows_which_time_lapse_is_pending() {
    let g = scenario()
        .build(Start::TimeLapse {
            seat: Seat::new(0),
            nth: 2,
        })
        .expect("a valid position");
    assert_eq!(
        pending(&g, Viewer::Spectator),
        serde_json::json!({"kind": "time_lapse", "seat": 0, "nth": 2})
    );
}
