//! Show Business: the rulebook's worked examples and the rulings, as tests.

use std::collections::BTreeSet;

use super::rules;
use super::state::Song;
use super::*;
use crate::conformance::{self, Config};
use crate::{Game, Viewer};

mod events;
mod pending;
mod reshuffle;
mod rulings;
mod stored;

fn fresh(seats: usize) -> ShowBusiness {
    ShowBusiness::setup(Options::default(), seats, 7)
        .expect("setup")
        .0
}

fn card(id: &str) -> CardId {
    CardId::find(id).expect("card id")
}

fn token(id: &str) -> TokenId {
    TokenId::find(id).expect("token id")
}

fn artist(id: &str) -> ArtistId {
    ArtistId::find(id).expect("artist id")
}

fn city(letter: &str) -> CityId {
    CityId::find(letter).expect("city")
}

fn scenario(seats: usize) -> Scenario {
    Scenario::new(Options::default(), seats, 7).expect("setup")
}

fn built(s: Scenario, start: Start) -> ShowBusiness {
    s.build(start).expect("a valid position")
}

/// Moves a position reached by play on to `start`.
fn at(g: &mut ShowBusiness, start: Start) {
    *g = built(Scenario::from_game(g.clone()), start);
}

/// The artist ids of the seat's band in a fresh game, in band order.
fn fresh_band(seats: usize, seat: Seat) -> Vec<String> {
    fresh(seats).players[seat]
        .band
        .iter()
        .map(|a| a.card.id().to_owned())
        .collect()
}

/// The id of the seat's first hand card in a fresh game.
fn fresh_first_card(seats: usize, seat: Seat) -> String {
    fresh(seats).players[seat].hand[0].id().to_owned()
}

fn entry(owner: Seat, style: Style, lyrics: u8, tempo: u8, volume: u8, experience: u32) -> ChartEntry {
    ChartEntry {
        owner,
        style,
        lyrics,
        tempo,
        volume,
        experience,
        disclosed: false,
    }
}

fn entry_of(song: &Song) -> ChartEntry {
    entry(
        song.owner,
        song.style,
        song.lyrics,
        song.tempo,
        song.volume,
        song.experience,
    )
}

fn play(g: &mut ShowBusiness, seat: Seat, a: Action) {
    g.apply(seat, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    g.check_invariants()
        .unwrap_or_else(|e| panic!("after {a:?}: {e}"));
}

fn song(id: SongId, owner: Seat, style: Style, lyrics: u8, tempo: u8, volume: u8, experience: u32) -> Song {
    Song {
        id,
        owner,
        style,
        lyrics,
        tempo,
        volume,
        experience,
    }
}

// ----- Component ids on the wire -----

/// An action's card, artist, token or city is parsed as that kind of component: an id of
/// another kind or of no component is refused before the rules see it, naming what was sent.
#[test]
fn an_action_naming_an_unknown_component_is_malformed_and_changes_nothing() {
    let g = built(
        scenario(2).hand(Seat::new(0), &["I07"]),
        Start::TimeLapse {
            seat: Seat::new(0),
            nth: 1,
        },
    );
    let mut any = crate::AnyGame::ShowBusiness(Box::new(g));
    let before = any.view(Viewer::Spectator).get().to_owned();
    for (action, id) in [
        (r#"{"type": "play", "card": "I99"}"#, "I99"),
        (r#"{"type": "play", "card": "AR01"}"#, "AR01"),
        (r#"{"type": "move", "city": "Z"}"#, "Z"),
        (r#"{"type": "pick_token", "token": "I07"}"#, "I07"),
        (r#"{"type": "dismiss", "artist": "T01"}"#, "T01"),
    ] {
        let refused = any.apply(Seat::new(0), action).expect_err(action);
        assert_eq!(refused.code, crate::RejectionCode::MalformedAction, "{action}");
        assert!(
            refused.reason.contains(&format!("\"{id}\"")),
            "{action}: {}",
            refused.reason
        );
        assert_eq!(any.view(Viewer::Spectator).get(), before, "{action}");
    }
    any.apply(Seat::new(0), r#"{"type": "play", "card": "I07"}"#)
        .expect("the card in hand is played");
}

// ----- TOURNEE example (yellow band in L; L yellow 10, G blue 10, C white 15) -----

fn tournee_at_l(power_card: &str) -> ShowBusiness {
    scenario(2)
        .map(&["T47", "T27", "T12"])
        .car(Seat::new(1), "L")
        .turn(1)
        .field(Seat::new(1), &[power_card])
        .build(Start::ChooseAction { seat: Seat::new(1) })
        .expect("a valid position")
}

fn income(g: &ShowBusiness, before: i64) -> i64 {
    let spent: i64 = g.players[Seat::new(1)]
        .influence_field
        .iter()
        .map(|&c| c.power() as i64)
        .sum();
    g.players[Seat::new(1)].cash - before - spent
}

#[test]
fn tournee_option_1_power_1_concert_in_l_income_9() {
    let mut g = tournee_at_l("I12");
    let before = g.players[Seat::new(1)].cash;
    play(&mut g, Seat::new(1), Action::PickToken { token: token("T47") });
    // The yellow token fits a yellow (Pop) artist's experience field.
    assert!(g.legal_actions(Seat::new(1)).contains(&Action::PlaceToken {
        artist: artist("AR06")
    }));
    play(
        &mut g,
        Seat::new(1),
        Action::PlaceToken {
            artist: artist("AR06"),
        },
    );
    assert_eq!(
        g.legal_actions(Seat::new(1))
            .iter()
            .filter(|a| !matches!(
                a,
                Action::Dismiss { .. } | Action::Flip { .. } | Action::Regroup { .. }
            ))
            .count(),
        1
    );
    play(&mut g, Seat::new(1), Action::EndAction);
    assert_eq!(income(&g, before), 9);
}

#[test]
fn tournee_option_2_power_3_concerts_in_l_and_g_income_17() {
    let mut g = tournee_at_l("I10");
    let before = g.players[Seat::new(1)].cash;
    play(&mut g, Seat::new(1), Action::PickToken { token: token("T47") });
    play(
        &mut g,
        Seat::new(1),
        Action::PlaceToken {
            artist: artist("AR06"),
        },
    );
    play(&mut g, Seat::new(1), Action::Move { city: city("G") });
    play(&mut g, Seat::new(1), Action::PickToken { token: token("T27") });
    // The blue token needs a blue (Jazz) field: only after turning Candy Chorus (Pop/Jazz) over.
    assert!(!g.legal_actions(Seat::new(1)).contains(&Action::PlaceToken {
        artist: artist("AR04")
    }));
    play(
        &mut g,
        Seat::new(1),
        Action::Flip {
            artist: artist("AR04"),
        },
    );
    play(
        &mut g,
        Seat::new(1),
        Action::PlaceToken {
            artist: artist("AR04"),
        },
    );
    assert_eq!(
        g.legal_actions(Seat::new(1))
            .iter()
            .filter(|a| matches!(a, Action::Move { .. } | Action::PickToken { .. }))
            .count(),
        0
    );
    play(&mut g, Seat::new(1), Action::EndAction);
    assert_eq!(income(&g, before), 17);
    assert_eq!(g.tokens_on_band(Seat::new(1)), 2);
}

#[test]
fn tournee_option_3_power_4_concerts_in_g_and_c_income_21() {
    let mut g = tournee_at_l("I11");
    let before = g.players[Seat::new(1)].cash;
    play(&mut g, Seat::new(1), Action::Move { city: city("G") });
    play(&mut g, Seat::new(1), Action::PickToken { token: token("T27") });
    play(&mut g, Seat::new(1), Action::DiscardToken);
    play(&mut g, Seat::new(1), Action::Move { city: city("C") });
    // The white token pays and goes to the used pool at once.
    play(&mut g, Seat::new(1), Action::PickToken { token: token("T12") });
    assert!(g.used_tokens.contains(&token("T12")));
    assert_eq!(g.phase(), "tournee");
    play(&mut g, Seat::new(1), Action::EndAction);
    assert_eq!(income(&g, before), 21);
}

#[test]
fn s17_tournee_incomplete_band_may_only_travel() {
    let mut g = tournee_at_l("I11");
    play(
        &mut g,
        Seat::new(1),
        Action::Dismiss {
            artist: artist("AR05"),
        },
    );
    let legal = g.legal_actions(Seat::new(1));
    assert!(legal.contains(&Action::Move { city: city("G") }));
    assert!(!legal.contains(&Action::PickToken { token: token("T47") }));
}

// ----- PROMOTION example -----

fn promotion_with(power_card: &str) -> (ShowBusiness, SongId) {
    let (s, _) = scenario(2).chart_song(1, entry(Seat::new(1), Style::Rock, 0, 0, 0, 0));
    let (s, _) = s.chart_song(2, entry(Seat::new(1), Style::Pop, 0, 0, 0, 0));
    let (s, song) = s.song(entry(Seat::new(0), Style::Rock, 1, 1, 1, 0));
    let g = built(
        s.field(Seat::new(0), &[power_card]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    (g, song)
}

#[test]
fn promotion_field_3_needs_power_3_and_costs_5() {
    let (mut g, song) = promotion_with("I10");
    let before = g.players[Seat::new(0)].cash;
    play(&mut g, Seat::new(0), Action::Promote { song });
    assert_eq!(g.players[Seat::new(0)].cash, before - 5);
    assert_eq!(g.chart[2].len(), 1);
    assert_eq!(g.chart[2][0].song.id, song);
    assert!(g.players[Seat::new(0)].songs.is_empty());

    let (g, song) = promotion_with("I09");
    assert!(!g.legal_actions(Seat::new(0)).contains(&Action::Promote { song }));
    assert!(g.clone().apply(Seat::new(0), &Action::Promote { song }).is_err());
}

#[test]
fn s02_promotion_song_stays_face_down_until_the_charts() {
    let (mut g, song) = promotion_with("I10");
    play(&mut g, Seat::new(0), Action::Promote { song });
    let other = serde_json::to_string(&g.view(Viewer::Seat(Seat::new(1)))).expect("view");
    let label = view::content(&g.chart[2][0].song).label;
    assert!(!other.contains(&label));
    assert!(g.secrets(Viewer::Seat(Seat::new(1))).contains(&label));
    let own = serde_json::to_string(&g.view(Viewer::Seat(Seat::new(0)))).expect("view");
    assert!(own.contains(&label));
}

// ----- Chart fields (RULINGS "Chart fields (1-10)") -----

#[test]
fn chart_fields_ascending_is_the_rulings_table() {
    let table: Vec<(u8, u32)> = (0..10)
        .map(|f| fresh(2).chart_field(f))
        .map(|c| (c.power, c.cost))
        .collect();
    assert_eq!(
        table,
        vec![
            (1, 3),
            (2, 4),
            (3, 5),
            (4, 6),
            (4, 7),
            (4, 8),
            (4, 9),
            (4, 10),
            (4, 11),
            (4, 12)
        ]
    );
}

#[test]
fn chart_fields_descending_keeps_field_3_at_power_3_cost_5_and_descends() {
    let g = descending(Scenario::new(
        Options {
            chart_fields: ChartFields::Descending,
            ..Options::default()
        },
        2,
        7,
    ));
    let table: Vec<(u8, u32)> = (0..10)
        .map(|f| g.chart_field(f))
        .map(|c| (c.power, c.cost))
        .collect();
    assert_eq!(
        table,
        vec![
            (4, 7),
            (4, 6),
            (3, 5),
            (2, 4),
            (1, 3),
            (1, 2),
            (1, 1),
            (1, 1),
            (1, 1),
            (1, 1)
        ]
    );
}

#[test]
fn chart_fields_the_view_shows_each_fields_power_and_cost_under_the_games_option() {
    for (option, first) in [
        (ChartFields::Ascending, (1, 3)),
        (ChartFields::Descending, (4, 7)),
    ] {
        let g = ShowBusiness::setup(
            Options {
                chart_fields: option,
                ..Options::default()
            },
            2,
            7,
        )
        .expect("setup")
        .0;
        let fields = g.view(Viewer::Spectator).chart_fields;
        assert_eq!(fields.len(), 10);
        assert_eq!((fields[0].power, fields[0].cost), first);
        assert_eq!((fields[2].power, fields[2].cost), (3, 5));
        assert_eq!(fields, (0..10).map(|f| g.chart_field(f)).collect::<Vec<_>>());
    }
}

fn descending(s: Result<Scenario, SetupError>) -> ShowBusiness {
    built(s.expect("setup"), Start::ChooseAction { seat: Seat::new(0) })
}

fn descending_promotion(power_card: &str, filled: usize) -> (ShowBusiness, SongId) {
    let mut s = Scenario::new(
        Options {
            chart_fields: ChartFields::Descending,
            ..Options::default()
        },
        2,
        7,
    )
    .expect("setup");
    for f in 0..filled {
        s = s
            .chart_song(f + 1, entry(Seat::new(1), Style::Rock, f as u8, 0, 0, 0))
            .0;
    }
    let (s, song) = s.song(entry(Seat::new(0), Style::Rock, 1, 1, 1, 0));
    let g = built(
        s.field(Seat::new(0), &[power_card]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    (g, song)
}

#[test]
fn chart_fields_descending_field_1_needs_power_4_and_costs_7() {
    let (g, song) = descending_promotion("I10", 0);
    assert!(!g.legal_actions(Seat::new(0)).contains(&Action::Promote { song }));
    let (mut g, song) = descending_promotion("I11", 0);
    play(&mut g, Seat::new(0), Action::Promote { song });
    assert_eq!(g.players[Seat::new(0)].cash, 20 - 7);
    assert_eq!(g.chart[0][0].song.id, song);
}

#[test]
fn chart_fields_descending_promotion_example_field_3_power_3_cost_5_and_field_6_power_1_cost_2() {
    let (g, song) = descending_promotion("I09", 2);
    assert!(!g.legal_actions(Seat::new(0)).contains(&Action::Promote { song }));
    let (mut g, song) = descending_promotion("I10", 2);
    play(&mut g, Seat::new(0), Action::Promote { song });
    assert_eq!(g.players[Seat::new(0)].cash, 20 - 5);
    let (mut g, song) = descending_promotion("I12", 5);
    play(&mut g, Seat::new(0), Action::Promote { song });
    assert_eq!(g.players[Seat::new(0)].cash, 20 - 2);
    assert_eq!(g.chart[5][0].song.id, song);
}

// ----- CHARTS examples -----

#[test]
fn charts_examples_11_vs_11_by_trend_8_vs_8_by_sponsor_and_2() {
    // White = Black, blue = Love, yellow = Fast, red = Loud.
    let mut s = scenario(5).dice([Some(2), Some(1), Some(3), Some(3)]);
    let yellow = song(SongId(1), Seat::new(1), Style::Pop, 0, 3, 1, 0);
    let gray = song(SongId(2), Seat::new(2), Style::Black, 1, 3, 3, 1);
    let blue = song(SongId(3), Seat::new(3), Style::Jazz, 1, 3, 3, 5);
    let green = song(SongId(4), Seat::new(4), Style::Black, 1, 1, 1, 1);
    let red = song(SongId(5), Seat::new(0), Style::Black, 1, 0, 0, 1);
    let g = s.position();
    assert_eq!(g.song_score(&gray), 11);
    assert_eq!(g.song_score(&blue), 11);
    assert_eq!((g.trend_points(&gray), g.trend_points(&blue)), (10, 6));
    assert_eq!((g.song_score(&green), g.song_score(&red)), (8, 8));
    assert_eq!(g.song_score(&yellow), 2);
    let mut id = std::collections::HashMap::new();
    for (field, x) in [&yellow, &green, &red, &blue, &gray].into_iter().enumerate() {
        let (next, n) = s.chart_song(field + 1, entry_of(x));
        s = next;
        id.insert(x.id, n);
    }
    for seat in 0..5 {
        s = s.discard_characters(Seat::new(seat), &[Character::Sponsor]);
    }
    let s = s.hand(Seat::new(0), &["I65"]);
    let before: Vec<i64> = s.position().players.iter().map(|p| p.popularity).collect();
    let mut g = built(s, Start::QuarterEnd);
    // 11 vs 11: gray and blue, in turn order; nobody discards a SPONSOR card.
    assert_eq!(g.to_act(), vec![Seat::new(2)]);
    play(&mut g, Seat::new(2), Action::Done);
    play(&mut g, Seat::new(3), Action::Done);
    // 8 vs 8: red discards a SPONSOR card with POWER 1 and wins the tie.
    assert_eq!(g.to_act(), vec![Seat::new(0)]);
    play(&mut g, Seat::new(0), Action::SponsorTie { card: card("I65") });
    play(&mut g, Seat::new(0), Action::Done);
    play(&mut g, Seat::new(4), Action::Done);
    assert_eq!(
        g.legal_actions(Seat::new(0)),
        vec![
            Action::ChooseSong { song: id[&SongId(4)] },
            Action::ChooseSong { song: id[&SongId(5)] }
        ]
    );
    play(&mut g, Seat::new(0), Action::ChooseSong { song: id[&SongId(5)] });
    let ranking: Vec<SongId> = g.chart.iter().take(5).map(|f| f[0].song.id).collect();
    assert_eq!(ranking, [2, 3, 5, 4, 1].map(|s| id[&SongId(s)]));
    let gained: Vec<i64> = g
        .players
        .iter()
        .zip(&before)
        .map(|(p, b)| p.popularity - b)
        .collect();
    // Red: field III 3+1; yellow: field V 1; gray: field I 5+1+2; blue: field II 4; green: field IV 2.
    assert_eq!(gained, vec![4, 1, 8, 4, 2]);
}

#[test]
fn charts_identical_songs_of_one_player_leave_but_one() {
    let (s, _) = scenario(2).chart_song(
        1,
        ChartEntry {
            disclosed: true,
            ..entry(Seat::new(0), Style::Rock, 0, 0, 0, 0)
        },
    );
    let (s, _) = s.chart_song(2, entry(Seat::new(0), Style::Rock, 0, 0, 0, 0));
    let g = built(s, Start::QuarterEnd);
    let left: usize = g.chart.iter().map(Vec::len).sum();
    assert_eq!(left, 1);
}

#[test]
fn s36_charts_unresolved_tie_shares_a_field_and_splits_points() {
    let (s, _) = scenario(2)
        .dice([None, None, None, None])
        .chart_song(1, entry(Seat::new(0), Style::Rock, 0, 0, 0, 0));
    let (s, _) = s.chart_song(2, entry(Seat::new(1), Style::Pop, 1, 1, 1, 0));
    let s = s
        .discard_characters(Seat::new(0), &[Character::Sponsor])
        .discard_characters(Seat::new(1), &[Character::Sponsor]);
    let mut g = built(s, Start::QuarterEnd);
    play(&mut g, Seat::new(0), Action::Done);
    play(&mut g, Seat::new(1), Action::Done);
    assert_eq!(g.chart[0].len(), 2);
    // Field I's 5 points split: 2 each, no bonus.
    assert_eq!(g.players[Seat::new(0)].popularity, 2);
    assert_eq!(g.players[Seat::new(1)].popularity, 2);
}

// ----- RECORDING example -----

fn recording_band() -> Scenario {
    scenario(2)
        .dismiss_band(Seat::new(0))
        .hire(Seat::new(0), "AR16", vec![0])
        .hire(Seat::new(0), "AR30", vec![1])
        .tokens("AR30", &["T11", "T15"])
        .hire(Seat::new(0), "AR08", vec![2])
        .tokens("AR08", &["T09"])
        .hire(Seat::new(0), "AR09", vec![3])
}

#[test]
fn recording_example_experience_1_for_black_2_for_club_0_otherwise() {
    let g = built(recording_band(), Start::ChooseAction { seat: Seat::new(0) });
    assert_eq!(g.song_experience(Seat::new(0), Style::Black), 1);
    assert_eq!(g.song_experience(Seat::new(0), Style::Club), 2);
    for s in [Style::Rock, Style::Jazz, Style::Pop] {
        assert_eq!(g.song_experience(Seat::new(0), s), 0);
    }
}

#[test]
fn s20_recording_fills_the_song_field_by_field_in_the_studio() {
    let mut g = built(
        recording_band()
            .car(Seat::new(0), "B")
            .field(Seat::new(0), &["I12"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    play(&mut g, Seat::new(0), Action::PickSong { studio: city("B") });
    assert_eq!(g.phase(), "recording");
    assert!(
        g.legal_actions(Seat::new(0))
            .iter()
            .all(|a| matches!(a, Action::RecordStyle { .. }))
    );
    play(&mut g, Seat::new(0), Action::RecordStyle { style: Style::Club });
    play(&mut g, Seat::new(0), Action::RecordLyrics { lyrics: Lyrics::Fun });
    play(&mut g, Seat::new(0), Action::RecordTempo { tempo: Tempo::Fast });
    play(
        &mut g,
        Seat::new(0),
        Action::RecordVolume { volume: Volume::Loud },
    );
    assert_eq!(g.players[Seat::new(0)].songs.len(), 1);
    assert_eq!(g.players[Seat::new(0)].songs[0].experience, 2);
    assert!(!g.players[Seat::new(0)].blanks[0]);
}

// ----- Activation example -----

#[test]
fn activation_example_power_2_card_may_take_market_field_1_or_2() {
    let mut g = built(
        scenario(2).hand(Seat::new(0), &["I09"]),
        Start::TimeLapse {
            seat: Seat::new(0),
            nth: 1,
        },
    );
    play(&mut g, Seat::new(0), Action::Play { card: card("I09") });
    assert_eq!(g.players[Seat::new(0)].time, Some(2));
    let legal: Vec<Action> = g
        .legal_actions(Seat::new(0))
        .into_iter()
        .filter(|a| {
            !matches!(
                a,
                Action::Dismiss { .. } | Action::Flip { .. } | Action::Regroup { .. }
            )
        })
        .collect();
    assert_eq!(
        legal,
        vec![
            Action::ActivateHand,
            Action::TakeMarket { field: 1 },
            Action::TakeMarket { field: 2 }
        ]
    );
    let taken = g.influence_market[1].expect("market field 2");
    play(&mut g, Seat::new(0), Action::TakeMarket { field: 2 });
    assert_eq!(g.players[Seat::new(0)].influence_field, vec![card("I09"), taken]);
    assert_eq!(g.influence_market[1], None);
    // The view lists the occupied fields only, each with its number: field 2 is not among them.
    let view = serde_json::to_value(g.view(Viewer::Spectator)).expect("view");
    let listed: Vec<(u64, String)> = view["influence_market"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|o| {
            let field = o["field"].as_u64().expect("a field number");
            (field, o["card"].as_str().expect("a card").to_owned())
        })
        .collect();
    let occupied: Vec<(u64, String)> = (1..)
        .zip(g.influence_market)
        .filter_map(|(field, c)| c.map(|c| (field, c.id().to_owned())))
        .collect();
    assert_eq!(listed, occupied);
    assert!(listed.iter().all(|(field, _)| *field != 2), "{listed:?}");
}

#[test]
fn the_view_names_a_blank_die_blank_and_a_turned_one_by_its_face() {
    let g = built(
        scenario(2).dice([None, Some(1), None, Some(0)]),
        Start::TimeLapse {
            seat: Seat::new(0),
            nth: 1,
        },
    );
    let view = serde_json::to_value(g.view(Viewer::Spectator)).expect("view");
    let faces: Vec<String> = Die::ALL
        .iter()
        .zip(g.dice)
        .map(|(die, face)| face.map_or_else(|| BLANK_FACE.to_owned(), |v| die.face_name(v)))
        .collect();
    assert_eq!(view["dice"], serde_json::json!(faces));
    assert_eq!(view["dice"][0], "blank");
    assert_eq!(view["dice"][2], "blank");
    assert_ne!(view["dice"][1], "blank");
}

// ----- Rulings -----

#[test]
fn s05_setup_10_opening_bids_are_sealed_until_all_are_in_and_ties_rebid() {
    let mut g = fresh(3);
    assert_eq!(g.phase(), "opening_bid");
    assert_eq!(g.to_act(), vec![Seat::new(0), Seat::new(1), Seat::new(2)]);
    play(&mut g, Seat::new(0), Action::Bid { amount: 5 });
    assert_eq!(g.view(Viewer::Seat(Seat::new(0))).my_bid, Some(5));
    assert_eq!(g.view(Viewer::Seat(Seat::new(1))).my_bid, None);
    assert!(
        g.secrets(Viewer::Seat(Seat::new(1)))
            .iter()
            .any(|s| s.ends_with(": 5"))
    );
    assert_eq!(g.to_act(), vec![Seat::new(1), Seat::new(2)]);
    play(&mut g, Seat::new(1), Action::Bid { amount: 5 });
    play(&mut g, Seat::new(2), Action::Bid { amount: 3 });
    assert_eq!(
        g.players.iter().map(|p| p.cash).collect::<Vec<_>>(),
        vec![15, 15, 17]
    );
    assert_eq!(g.to_act(), vec![Seat::new(0), Seat::new(1)]);
    play(&mut g, Seat::new(0), Action::Bid { amount: 1 });
    play(&mut g, Seat::new(1), Action::Bid { amount: 0 });
    assert_eq!(g.phase(), "choose_first");
    play(&mut g, Seat::new(0), Action::ChooseFirst { seat: Seat::new(2) });
    assert_eq!(g.order, vec![Seat::new(2), Seat::new(0), Seat::new(1)]);
    assert_eq!(g.phase(), "market_review");
    assert_eq!(g.to_act(), vec![Seat::new(2)]);
}

#[test]
fn s15_step_10_a_quarter_end_field_triggers_once_and_forbids_a_second_card() {
    let mut g = built(
        scenario(2)
            .week(Seat::new(0), 12)
            .hand(Seat::new(0), &["I09"])
            .then(Start::Influences { seat: Seat::new(0) }),
        Start::TimeLapse {
            seat: Seat::new(0),
            nth: 1,
        },
    );
    play(&mut g, Seat::new(0), Action::Play { card: card("I09") });
    assert!(g.qe_done[0] && g.qe_pending && g.triggered_this_round);
    play(&mut g, Seat::new(0), Action::ActivateHand);
    play(&mut g, Seat::new(0), Action::Pass);
    assert_ne!(g.phase(), "time_lapse");
    let mut g = built(
        Scenario::from_game(g)
            .week(Seat::new(1), 13)
            .hand(Seat::new(1), &["I10"])
            .quarter_end_pending(false),
        Start::TimeLapse {
            seat: Seat::new(1),
            nth: 1,
        },
    );
    play(&mut g, Seat::new(1), Action::Play { card: card("I10") });
    assert!(!g.qe_pending);
}

#[test]
fn s23_no_hostile_activity_once_the_last_turn_began() {
    let choose = Start::ChooseAction { seat: Seat::new(0) };
    let mut g = built(scenario(2).field(Seat::new(0), &["I01"]), choose.clone());
    assert!(
        g.legal_actions(Seat::new(0))
            .contains(&Action::AAndR { target: Seat::new(1) })
    );
    g = built(Scenario::from_game(g).last_turn(true), choose.clone());
    assert!(
        !g.legal_actions(Seat::new(0))
            .iter()
            .any(|a| matches!(a, Action::AAndR { .. }))
    );
    for (id, hostile) in [
        ("I34", Action::Groupie { target: Seat::new(1) }),
        ("I66", Action::Sponsor { target: Seat::new(1) }),
    ] {
        let s = Scenario::from_game(g).field(Seat::new(0), &[id]);
        g = built(s.clone().last_turn(false), choose.clone());
        assert!(decisions(&g, Seat::new(0)).contains(&hostile));
        g = built(s.last_turn(true), choose.clone());
        assert!(!decisions(&g, Seat::new(0)).contains(&hostile));
    }
    at(
        &mut g,
        Start::FemmeChoice {
            seat: Seat::new(0),
            best: 2,
        },
    );
    assert_eq!(decisions(&g, Seat::new(0)), vec![Action::Integration]);
}

#[test]
fn s22_a_and_r_swaps_time_markers_unless_a_bodyguard_defends() {
    let mut g = built(
        scenario(2)
            .week(Seat::new(0), 3)
            .week(Seat::new(1), 9)
            .field(Seat::new(0), &["I01"])
            .hand(Seat::new(1), &["I12"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    let snapshot = g.clone();
    play(&mut g, Seat::new(0), Action::AAndR { target: Seat::new(1) });
    assert_eq!(g.phase(), "defence");
    assert!(
        g.legal_actions(Seat::new(1))
            .contains(&Action::Defend { card: card("I12") })
    );
    play(&mut g, Seat::new(1), Action::Decline);
    assert_eq!(
        (g.players[Seat::new(0)].time, g.players[Seat::new(1)].time),
        (Some(9), Some(3))
    );

    let mut g = snapshot;
    play(&mut g, Seat::new(0), Action::AAndR { target: Seat::new(1) });
    play(&mut g, Seat::new(1), Action::Defend { card: card("I12") });
    assert_eq!(
        (g.players[Seat::new(0)].time, g.players[Seat::new(1)].time),
        (Some(3), Some(9))
    );
    assert_eq!(g.players[Seat::new(1)].influence_field.last(), Some(&card("I12")));
}

#[test]
fn s24_sponsor_shows_the_hand_to_the_attacker_only_and_swaps_up_to_power() {
    let mut g = built(
        scenario(3)
            .field(Seat::new(0), &["I66"])
            .discard_characters(Seat::new(1), &[Character::Bodyguard, Character::Sponsor]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    play(&mut g, Seat::new(0), Action::Sponsor { target: Seat::new(1) });
    play(&mut g, Seat::new(1), Action::Decline);
    let theirs = g.players[Seat::new(1)].hand.clone();
    let seen = g.view(Viewer::Seat(Seat::new(0))).players[1].hand.clone();
    assert_eq!(seen.len(), theirs.len());
    assert!(g.view(Viewer::Seat(Seat::new(2))).players[1].hand.is_empty());
    let give = g.players[Seat::new(0)].hand[0];
    let take = theirs[0];
    play(&mut g, Seat::new(0), Action::Swap { give, take });
    assert!(g.players[Seat::new(1)].hand.contains(&give) && g.players[Seat::new(0)].hand.contains(&take));
    assert!(g.legal_actions(Seat::new(0)).contains(&Action::Stop));
}

#[test]
fn s29_trend_expert_blocks_the_trend_action_and_returns_at_quarter_end() {
    let mut g = built(
        scenario(2).field(Seat::new(0), &["I73"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    assert!(g.legal_actions(Seat::new(0)).contains(&Action::SetDie));
    play(&mut g, Seat::new(0), Action::TrendExpertPlace);
    assert_eq!(g.trend_expert, Some((card("I73"), Seat::new(0))));
    g = built(
        Scenario::from_game(g).field(Seat::new(1), &["I02"]),
        Start::ChooseAction { seat: Seat::new(1) },
    );
    assert!(!g.legal_actions(Seat::new(1)).contains(&Action::SetDie));
    at(&mut g, Start::QuarterEnd);
    assert_eq!(g.trend_expert, None);
}

#[test]
fn hand_limit_is_the_number_of_artists_at_least_3() {
    assert_eq!(fresh(2).hand_limit(Seat::new(0)), 3);
    let g = built(
        scenario(2).hire(Seat::new(0), "AR42", vec![4]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    assert_eq!(g.hand_limit(Seat::new(0)), 4);
}

#[test]
fn s33_perform_in_advertising_covers_a_salary_and_bankruptcy_when_it_cannot() {
    let mut g = built(
        scenario(2).cash(Seat::new(0), 2).popularity(Seat::new(0), 0),
        Start::Pay {
            seat: Seat::new(0),
            amount: 12,
            reason: Payment::Salaries,
        },
    );
    assert_eq!(g.phase(), "advertising");
    let legal = g.legal_actions(Seat::new(0));
    assert_eq!(legal.first(), Some(&Action::Advertise { fields: 2 }));
    assert_eq!(legal.last(), Some(&Action::Advertise { fields: 25 }));
    play(&mut g, Seat::new(0), Action::Advertise { fields: 2 });
    assert_eq!(
        (g.players[Seat::new(0)].cash, g.players[Seat::new(0)].popularity),
        (0, -2)
    );

    let g = built(
        scenario(2).cash(Seat::new(0), 0).popularity(Seat::new(0), -25),
        Start::Pay {
            seat: Seat::new(0),
            amount: 5,
            reason: Payment::Salaries,
        },
    );
    assert!(g.players[Seat::new(0)].bankrupt.is_some());
    assert!(g.players[Seat::new(0)].hand.is_empty() && g.players[Seat::new(0)].band.is_empty());
    g.check_invariants().expect("bankrupt discards everything");
}

#[test]
fn s39_end_of_game_score_is_popularity_plus_tenth_of_cash_ties_by_popularity() {
    let g = built(
        scenario(3)
            .popularity(Seat::new(0), 20)
            .cash(Seat::new(0), 59)
            .popularity(Seat::new(1), 22)
            .cash(Seat::new(1), 39)
            .popularity(Seat::new(2), 10)
            .cash(Seat::new(2), 500),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    let o = g.compute_outcome();
    assert_eq!(
        o.scores.iter().map(|s| s.total).collect::<Vec<_>>(),
        vec![25, 25, 60]
    );
    assert_eq!(o.winners, vec![Seat::new(2)]);
    assert_eq!(o.scores[1].rank, 2);
    assert_eq!(o.scores[0].rank, 3);
}

#[test]
fn end_of_game_penalties_for_satisfaction_and_missing_mandatory_artists() {
    let drummer = fresh_band(2, Seat::new(0)).pop().expect("a drummer");
    let g = built(
        scenario(2)
            .popularity(Seat::new(0), 10)
            .satisfaction(Seat::new(0), 3)
            .dismiss(&drummer),
        Start::EndPenalty { seat: Seat::new(0) },
    );
    assert_eq!(g.players[Seat::new(0)].popularity, 10 - 2 - 1);
}

fn options_for(i: usize) -> Options {
    Options {
        paparazzi_block: if i % 7 == 3 {
            PaparazziBlock::Time
        } else {
            PaparazziBlock::Popularity
        },
        royalties: if i % 5 == 2 {
            RoyaltyBasis::PrintedField
        } else {
            RoyaltyBasis::TrueValue
        },
        restock: if i % 6 == 4 {
            Restock::QuarterEnd
        } else {
            Restock::NextRound
        },
        chart_fields: if i % 4 == 1 {
            ChartFields::Descending
        } else {
            ChartFields::Ascending
        },
    }
}

/// 125 random games at one seat count; the four seat counts run as four tests (500 games).
fn conformance_at(seats: usize) {
    let config = Config {
        games: 125,
        seed: 1 + 1_000 * seats as u64,
        max_steps: 20_000,
        exhaustive: false,
    };
    let report =
        conformance::run::<ShowBusiness>(&config, |_| seats, options_for).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.games, 125);
}

#[test]
fn conformance_125_random_games_with_2_seats() {
    conformance_at(2);
}

#[test]
fn conformance_125_random_games_with_3_seats() {
    conformance_at(3);
}

#[test]
fn conformance_125_random_games_with_4_seats() {
    conformance_at(4);
}

#[test]
fn conformance_125_random_games_with_5_seats() {
    conformance_at(5);
}

#[test]
#[ignore = "long run: cargo test -p roadie-engine show_business -- --ignored"]
fn conformance_long_run() {
    let config = Config {
        games: 5_000,
        seed: 10_000,
        max_steps: 50_000,
        exhaustive: false,
    };
    let report = conformance::run::<ShowBusiness>(&config, |i| 2 + i % 4, options_for)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.games, 5_000);
}

/// A mildly sensible random manager: it advertises no more than it must, keeps its band and
/// its cash (no firing, reviews, big bids or purchases when a free draw exists, few hires),
/// and likes concerts, so most games run to week 56. Among the actions it likes it picks at
/// random, weighted; when it likes none it picks uniformly.
fn careful(g: &ShowBusiness, seat: Seat, list: &[Action], r: &mut crate::rng::GameRng) -> usize {
    if let Some(i) = list.iter().position(|a| matches!(a, Action::Advertise { .. })) {
        return i;
    }
    let p = &g.players[seat];
    let can_draw = list.contains(&Action::Draw);
    let weight = |a: &Action| -> u32 {
        match a {
            Action::Dismiss { .. } | Action::Flip { .. } | Action::Regroup { .. } | Action::Remove { .. } => {
                0
            }
            Action::Bid { amount } => u32::from(*amount <= 1),
            Action::JoinBid => 1,
            Action::GiveUpBid => 4,
            Action::GiveUp => 0,
            Action::Buy { .. } if can_draw => 0,
            Action::Recruit { .. } if p.band.len() >= 4 => 0,
            Action::Promote { .. } if p.cash < 15 => 0,
            Action::Promote { .. } | Action::PickSong { .. } | Action::PilotSong { .. } => 12,
            Action::PickToken { .. } | Action::PilotToken { .. } => 30,
            Action::PlaceToken { .. } | Action::Move { .. } => 6,
            Action::Pass | Action::SetDie => 1,
            _ => 3,
        }
    };
    let weights: Vec<u32> = list.iter().map(weight).collect();
    let total: u32 = weights.iter().sum();
    if total == 0 {
        return r.below(list.len());
    }
    let mut pick = r.below(total as usize) as u32;
    for (i, w) in weights.iter().enumerate() {
        if pick < *w {
            return i;
        }
        pick -= w;
    }
    list.len() - 1
}

/// Whether a finished game reached its natural end (S38): the last quarter end ran, a solvent
/// seat stands on week 56, and the outcome scores popularity + 10% of cash (S39).
fn natural_end(g: &ShowBusiness) -> bool {
    let Some(o) = g.outcome() else { return false };
    let scored = o.scores.iter().all(|s| {
        let p = &g.players[s.seat];
        s.total == p.popularity + p.cash / 10
    });
    g.last_turn
        && g.qe_done.iter().all(|&q| q)
        && g.players.iter().any(|p| p.time == Some(rules::LAST_WEEK))
        && scored
}

/// Plays `games` careful games under the conformance checks; returns how many reached week 56
/// and every phase seen on the way.
fn careful_games(games: u64, first_seed: u64) -> (u64, BTreeSet<&'static str>) {
    let config = Config {
        games: 1,
        seed: first_seed,
        max_steps: 20_000,
        exhaustive: false,
    };
    let mut natural = 0;
    let mut phases = BTreeSet::new();
    for i in 0..games {
        let seats = 2 + i as usize % 4;
        let seed = first_seed + i;
        let mut policy = |g: &ShowBusiness, seat: Seat, list: &[Action], r: &mut crate::rng::GameRng| {
            phases.insert(g.phase());
            careful(g, seat, list, r)
        };
        let (_, g) = conformance::play_one_with::<ShowBusiness>(
            &config,
            options_for(i as usize),
            seats,
            seed,
            &mut policy,
        )
        .unwrap_or_else(|e| panic!("careful game {i} ({seats} seats, seed {seed}): {e}"));
        natural += u64::from(natural_end(&g));
    }
    (natural, phases)
}

/// S38/S39 under the conformance checks: uniform random play mostly ends in bankruptcies, so
/// careful games carry the last quarters, the last turn, the end penalties and the final score.
/// They also reach every decision phase of the phase machine.
#[test]
fn s38_s39_careful_games_reach_week_56_under_the_conformance_checks() {
    let (natural, phases) = careful_games(40, 500);
    println!("{natural} of 40 careful games reached week 56");
    assert!(
        natural >= 30,
        "only {natural} of 40 careful games reached week 56"
    );
    let unseen: Vec<&str> = ShowBusiness::machine()
        .phases
        .iter()
        .filter(|p| !p.actions.is_empty() && !phases.contains(p.name))
        .map(|p| p.name)
        .collect();
    assert!(unseen.is_empty(), "decision phases never reached: {unseen:?}");
}

/// The share over more games: `cargo test -p roadie-engine careful_share -- --ignored --nocapture`.
#[test]
#[ignore = "measurement: prints the share of careful games that reach week 56"]
fn careful_share() {
    let (natural, _) = careful_games(400, 10_000);
    println!("{natural} of 400 careful games reached week 56");
}

fn decisions(g: &ShowBusiness, seat: Seat) -> Vec<Action> {
    g.legal_actions(seat)
        .into_iter()
        .filter(|a| {
            !matches!(
                a,
                Action::Dismiss { .. } | Action::Flip { .. } | Action::Regroup { .. }
            )
        })
        .collect()
}

#[test]
fn step_1_concerts_fill_the_map_to_5_from_the_market_in_field_order() {
    let s = scenario(2).map(&["T47", "T27", "T12"]);
    let first_two: Vec<TokenId> = s.position().concert_market[..2]
        .iter()
        .flatten()
        .copied()
        .collect();
    let third = s.position().concert_market[2];
    let g = built(s, Start::Round { seat: Seat::new(0) });
    assert_eq!(g.map_tokens.len(), 5);
    assert_eq!(&g.map_tokens[3..], &first_two[..]);
    assert_eq!(g.concert_market[0], third);
    assert!(g.concert_market.iter().all(Option::is_some));
    assert_eq!(g.phase(), "market_review");
}

#[test]
fn s12_step_2_market_review_pays_the_field_number_and_refills_at_the_end() {
    let mut g = built(
        scenario(2).then(Start::TimeLapse {
            seat: Seat::new(0),
            nth: 1,
        }),
        Start::Review { seat: Seat::new(0) },
    );
    let fourth = g.influence_market[3];
    play(
        &mut g,
        Seat::new(0),
        Action::Remove {
            market: Market::Influence,
            field: 3,
        },
    );
    assert_eq!(g.players[Seat::new(0)].cash, 17);
    assert_eq!(g.influence_market[2], None);
    assert!(!g.legal_actions(Seat::new(0)).contains(&Action::Remove {
        market: Market::Influence,
        field: 3
    }));
    play(
        &mut g,
        Seat::new(0),
        Action::Remove {
            market: Market::Artist,
            field: 1,
        },
    );
    assert_eq!(g.players[Seat::new(0)].cash, 16);
    play(&mut g, Seat::new(0), Action::EndReview);
    assert_eq!(g.influence_market[2], fourth);
    assert!(g.influence_market.iter().all(Option::is_some) && g.artist_market.iter().all(Option::is_some));
    assert_eq!(g.phase(), "time_lapse");
}

#[test]
fn s31_step_5_influences_draw_free_or_buy_up_to_the_hand_limit() {
    let mut g = built(
        scenario(2)
            .only_hand(Seat::new(0), &[&fresh_first_card(2, Seat::new(0))])
            .then(Start::EndRound { seat: Seat::new(0) }),
        Start::Influences { seat: Seat::new(0) },
    );
    let bought = g.influence_market[1].expect("field 2");
    play(&mut g, Seat::new(0), Action::Buy { field: 2 });
    assert_eq!(g.players[Seat::new(0)].cash, 18);
    assert!(g.players[Seat::new(0)].hand.contains(&bought));
    // Everyone saw the card leave the market: it is no secret in that hand.
    assert!(
        !g.secrets(Viewer::Seat(Seat::new(1)))
            .contains(&bought.id().to_owned())
    );
    assert_eq!(g.influence_market[1], None);
    play(&mut g, Seat::new(0), Action::Draw);
    assert_eq!(g.players[Seat::new(0)].hand.len(), 3);
    assert_eq!(g.phase(), "end_round");
}

#[test]
fn step_7_market_change_discards_field_1_and_moves_the_rest_down() {
    let s = scenario(2);
    let influence = s.position().influence_market;
    let artists = s.position().artist_market;
    let g = built(s, Start::MarketChange);
    assert_eq!(&g.influence_market[..3], &influence[1..]);
    assert_eq!(&g.artist_market[..3], &artists[1..]);
    assert!(g.influence_discard.contains(&influence[0].expect("field 1")));
    assert!(g.influence_market[3].is_some() && g.artist_market[3].is_some());
}

#[test]
fn salaries_cost_5_per_artist_and_1_per_token_then_satisfaction_rises() {
    let g = built(
        scenario(2)
            .tokens(&fresh_band(2, Seat::new(0))[0], &["T01"])
            .satisfaction(Seat::new(0), 3),
        Start::Salary { seat: Seat::new(0) },
    );
    assert_eq!(g.players[Seat::new(0)].cash, 20 - 15 - 1);
    assert_eq!(g.players[Seat::new(0)].satisfaction, 4);
}

#[test]
fn integration_control_artists_more_independent_than_satisfaction_leave() {
    let g = built(
        scenario(2)
            .hand(Seat::new(0), &["I01"])
            .satisfaction(Seat::new(0), 1),
        Start::Integration { seat: Seat::new(0) },
    );
    // Johnny Thunder and Kit Kaboom (independence 2) leave; Mo Lowdown (1) stays.
    assert_eq!(g.players[Seat::new(0)].band.len(), 1);
    assert_eq!(g.players[Seat::new(0)].band[0].card, artist("AR02"));
    assert_eq!(g.players[Seat::new(0)].satisfaction, 1);
    // Four cards, limit 3: the owner discards one.
    assert_eq!(g.phase(), "hand_discard");
    assert_eq!(g.to_act(), vec![Seat::new(0)]);
}

#[test]
fn royalties_pay_the_popularity_and_charge_a_negative_one() {
    let g = built(
        scenario(2)
            .popularity(Seat::new(0), 12)
            .popularity(Seat::new(1), -4)
            .then(Start::Royalty { seat: Seat::new(1) }),
        Start::Royalty { seat: Seat::new(0) },
    );
    assert_eq!(
        (g.players[Seat::new(0)].cash, g.players[Seat::new(1)].cash),
        (32, 16)
    );
}

#[test]
fn popularity_check_doubles_for_a_scandal_without_a_chart_song() {
    let g = built(
        scenario(2)
            .popularity(Seat::new(0), 20)
            .scandal(Seat::new(0))
            .popularity(Seat::new(1), 20)
            .pile_top(&["I11", "I09"])
            .then(Start::PopCheck { seat: Seat::new(1) })
            .then(Start::ScandalsUpright),
        Start::PopCheck { seat: Seat::new(0) },
    );
    assert_eq!(g.players[Seat::new(0)].popularity, 20 - 2 * 2);
    assert_eq!(g.players[Seat::new(1)].popularity, 20 - 4);
    assert!(!g.players[Seat::new(0)].scandal);
}

#[test]
fn s30_reporter_moves_the_rondel_power_fields_and_no_event_happens() {
    let mut g = built(
        scenario(2).field(Seat::new(0), &["I60"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    let dice = g.dice;
    play(&mut g, Seat::new(0), Action::Reporter);
    assert_eq!(g.rondel, 3);
    assert_eq!(g.dice, dice);
    assert_eq!(g.players[Seat::new(0)].cash, 20);
}

#[test]
fn paparazzi_scandal_gains_the_highest_drawn_power() {
    let mut g = built(
        scenario(2)
            .field(Seat::new(0), &["I41"])
            .pile_top(&["I11", "I09"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    play(&mut g, Seat::new(0), Action::Paparazzi);
    assert!(g.players[Seat::new(0)].scandal);
    assert_eq!(g.players[Seat::new(0)].popularity, 4);
    assert!(g.influence_discard.contains(&card("I11")));
    at(&mut g, Start::ChooseAction { seat: Seat::new(0) });
    assert!(!g.legal_actions(Seat::new(0)).contains(&Action::Paparazzi));
}

#[test]
fn s26_femme_fatale_draws_first_then_integration_or_disorder() {
    let mut g = built(
        scenario(2)
            .field(Seat::new(0), &["I29"])
            .pile_top(&["I10", "I12"])
            .satisfaction(Seat::new(0), 1)
            .satisfaction(Seat::new(1), 5),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    let snapshot = g.clone();
    play(&mut g, Seat::new(0), Action::FemmeFatale);
    assert_eq!(
        decisions(&g, Seat::new(0)),
        vec![Action::Integration, Action::Disorder { target: Seat::new(1) }]
    );
    play(&mut g, Seat::new(0), Action::Integration);
    assert_eq!(g.players[Seat::new(0)].satisfaction, 4);

    let mut g = snapshot;
    play(&mut g, Seat::new(0), Action::FemmeFatale);
    play(&mut g, Seat::new(0), Action::Disorder { target: Seat::new(1) });
    play(&mut g, Seat::new(1), Action::Decline);
    assert_eq!(g.players[Seat::new(1)].satisfaction, 2);
}

#[test]
fn s28_dj_replaces_map_tokens_from_the_market_or_the_bag() {
    let mut g = built(
        scenario(2)
            .map(&["T47", "T27", "T12", "T01", "T02"])
            .field(Seat::new(0), &["I20"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    play(&mut g, Seat::new(0), Action::DjRemove { token: token("T47") });
    play(&mut g, Seat::new(0), Action::DjRemove { token: token("T27") });
    play(&mut g, Seat::new(0), Action::DjDone);
    let m3 = g.concert_market[2].expect("field 3");
    play(&mut g, Seat::new(0), Action::DjFromMarket { field: 3 });
    assert_eq!(g.concert_market[2], None);
    play(&mut g, Seat::new(0), Action::DjFromBag);
    assert_eq!(g.map_tokens.len(), 5);
    assert!(g.map_tokens.contains(&m3));
    assert!(g.used_tokens.contains(&token("T47")));
    assert!(g.concert_market.iter().all(Option::is_some));
}

#[test]
fn s27_pilot_picks_two_elements_anywhere_and_lands_in_one_of_their_cities() {
    let mut g = built(
        scenario(2).map(&["T47", "T12"]).field(Seat::new(0), &["I52"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    play(&mut g, Seat::new(0), Action::PilotToken { token: token("T12") });
    play(&mut g, Seat::new(0), Action::PilotSong { studio: city("P") });
    play(&mut g, Seat::new(0), Action::RecordStyle { style: Style::Rock });
    play(
        &mut g,
        Seat::new(0),
        Action::RecordLyrics { lyrics: Lyrics::Love },
    );
    play(&mut g, Seat::new(0), Action::RecordTempo { tempo: Tempo::Slow });
    play(
        &mut g,
        Seat::new(0),
        Action::RecordVolume { volume: Volume::Loud },
    );
    assert_eq!(
        decisions(&g, Seat::new(0)),
        vec![
            Action::CarTo { city: city("C") },
            Action::CarTo { city: city("P") }
        ]
    );
    play(&mut g, Seat::new(0), Action::CarTo { city: city("P") });
    assert_eq!(g.players[Seat::new(0)].car, city("P"));
    assert_eq!(g.players[Seat::new(0)].cash, 35);
    assert_eq!(g.players[Seat::new(0)].songs.len(), 1);
}

#[test]
fn s25_groupie_exchanges_artists_of_the_same_mandatory_instrument() {
    let mut g = built(
        scenario(2).field(Seat::new(0), &["I34"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    play(&mut g, Seat::new(0), Action::Groupie { target: Seat::new(1) });
    play(
        &mut g,
        Seat::new(0),
        Action::GroupieTake {
            artist: artist("AR05"),
        },
    );
    // Only the bassist may be given for a bassist.
    assert_eq!(
        decisions(&g, Seat::new(0)),
        vec![Action::GroupieGive {
            artist: artist("AR02")
        }]
    );
    play(
        &mut g,
        Seat::new(0),
        Action::GroupieGive {
            artist: artist("AR02"),
        },
    );
    play(&mut g, Seat::new(0), Action::GroupiePlaceMine { fields: vec![2] });
    play(
        &mut g,
        Seat::new(0),
        Action::GroupiePlaceTheirs { fields: vec![2] },
    );
    play(&mut g, Seat::new(1), Action::Decline);
    assert!(
        g.players[Seat::new(0)]
            .band
            .iter()
            .any(|a| a.card == artist("AR05"))
    );
    assert!(
        g.players[Seat::new(1)]
            .band
            .iter()
            .any(|a| a.card == artist("AR02"))
    );
}

#[test]
fn s09_s11_dismissal_lowers_satisfaction_and_forces_hand_discards() {
    let mut g = built(
        scenario(2)
            .hire(Seat::new(0), "AR42", vec![4])
            .hand(Seat::new(0), &["I01"]),
        Start::EndRound { seat: Seat::new(0) },
    );
    play(
        &mut g,
        Seat::new(0),
        Action::Dismiss {
            artist: artist("AR42"),
        },
    );
    assert_eq!(g.players[Seat::new(0)].satisfaction, 4);
    assert_eq!(g.phase(), "hand_discard");
    play(&mut g, Seat::new(0), Action::Discard { card: card("I01") });
    assert_eq!(g.phase(), "end_round");
}

#[test]
fn s09_style_change_discards_tokens_except_the_multicolour_f() {
    let drummer = fresh_band(2, Seat::new(0)).pop().expect("drummer");
    let mut g = built(
        scenario(2)
            .dismiss(&drummer)
            .hire(Seat::new(0), "AR40", vec![3])
            .tokens("AR40", &["T21", "T11"]),
        Start::EndRound { seat: Seat::new(0) },
    );
    play(
        &mut g,
        Seat::new(0),
        Action::Flip {
            artist: artist("AR40"),
        },
    );
    let a = g.players[Seat::new(0)]
        .band
        .iter()
        .find(|a| a.card == artist("AR40"))
        .expect("AR40");
    assert_eq!(a.tokens, vec![token("T21")]);
    assert!(a.side_b);
}

#[test]
fn s18_recruitment_takes_fields_up_to_power_and_raises_satisfaction() {
    let mut g = built(
        scenario(2)
            .artist_market(2, "AR42")
            .satisfaction(Seat::new(0), 3)
            .field(Seat::new(0), &["I09"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    assert!(
        !g.legal_actions(Seat::new(0))
            .iter()
            .any(|a| matches!(a, Action::Recruit { field: 3 | 4, .. }))
    );
    play(
        &mut g,
        Seat::new(0),
        Action::Recruit {
            field: 2,
            side_b: true,
            fields: vec![5],
        },
    );
    assert_eq!(g.players[Seat::new(0)].satisfaction, 4);
    assert_eq!(g.players[Seat::new(0)].band.len(), 4);
    assert_eq!(g.hand_limit(Seat::new(0)), 4);
}

#[test]
fn trend_action_turns_the_cards_die_to_its_value() {
    let mut g = built(
        scenario(2).field(Seat::new(0), &["I02"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    play(&mut g, Seat::new(0), Action::SetDie);
    assert_eq!(g.dice[1], Some(1));
}

#[test]
fn s06_step_9_sequence_bid_everyone_giving_up_keeps_the_sequence() {
    let mut g = built(
        scenario(3).order(&[Seat::new(1), Seat::new(2), Seat::new(0)]),
        Start::SequenceBid,
    );
    assert_eq!(g.to_act(), vec![Seat::new(0), Seat::new(1), Seat::new(2)]);
    for s in 0..3 {
        play(&mut g, Seat::new(s), Action::GiveUpBid);
    }
    assert_eq!(g.order, vec![Seat::new(1), Seat::new(2), Seat::new(0)]);
    assert!(g.players.iter().all(|p| p.cash == 20));
}

#[test]
fn s38_the_turn_in_which_a_marker_reaches_56_is_finished_then_the_game_is_scored() {
    let mut g = built(
        scenario(2)
            .order(&[Seat::new(0), Seat::new(1)])
            .turn(0)
            .quarter_ends([true, true, true, false], false)
            .week(Seat::new(0), 54)
            .hand(Seat::new(0), &["I09"]),
        Start::Round { seat: Seat::new(0) },
    );
    let mut seat_1_reviewed_after_56 = false;
    let mut steps = 0;
    while !g.is_over() {
        steps += 1;
        assert!(steps < 500, "stuck in {}", g.phase());
        let seat = g.to_act()[0];
        if seat == Seat::new(1) && g.phase() == "market_review" && g.last_turn {
            seat_1_reviewed_after_56 = true;
        }
        let legal = g.legal_actions(seat);
        let pick = [
            Action::Play { card: card("I09") },
            Action::EndReview,
            Action::ActivateHand,
            Action::Pass,
            Action::GiveUp,
            Action::Draw,
            Action::EndRound,
            Action::Decline,
            Action::Done,
        ]
        .into_iter()
        .find(|a| legal.contains(a))
        .unwrap_or_else(|| legal[0].clone());
        play(&mut g, seat, pick);
        if steps == 3 {
            assert!(g.last_turn && g.qe_pending);
        }
    }
    assert!(seat_1_reviewed_after_56);
    assert_eq!(g.players[Seat::new(0)].time, Some(56));
    assert!(g.qe_done.iter().all(|&q| q));
    let o = g.outcome().expect("scored");
    for s in &o.scores {
        let p = &g.players[s.seat];
        assert_eq!(s.total, p.popularity + p.cash / 10);
    }
}

#[test]
fn registry_hosts_show_business_by_slug_with_named_schemas() {
    let rules = crate::Ruleset::find("show-business").expect("registered");
    assert_eq!(rules.seats, 2..=5);
    let schemas = (rules.schemas)();
    assert_eq!(schemas.action, "ShowBusinessAction");
    let names: Vec<&String> = schemas.all.iter().map(|(n, _)| n).collect();
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("ShowBusiness") || *n == "Seat"),
        "{names:?}"
    );
    assert_eq!((rules.default_options)()["paparazzi_block"], "popularity");
    let (mut game, _) = crate::AnyGame::setup("show-business", None, 3, 42).expect("setup");
    assert_eq!(game.phase(), "opening_bid");
    game.apply(Seat::new(0), r#"{"type":"bid","amount":2}"#)
        .expect("a bid is accepted");
    let refused = game
        .apply(Seat::new(0), r#"{"type":"bid","amount":1}"#)
        .expect_err("one bid per seat");
    assert_eq!(refused.code, crate::RejectionCode::NotYourTurn);
    let refused = game
        .apply(Seat::new(1), r#"{"type":"bid","amount":99}"#)
        .expect_err("more than the cash");
    assert_eq!(refused.code, crate::RejectionCode::IllegalAction);
}

// ----- Rulebook sections without a ruling of their own -----

#[test]
fn step_6_market_refreshment_closes_up_and_refills_after_step_5() {
    let s = scenario(2)
        .only_hand(Seat::new(0), &[&fresh_first_card(2, Seat::new(0))])
        .then(Start::RefillMarkets)
        .then(Start::EndRound { seat: Seat::new(0) });
    let fourth = s.position().influence_market[3];
    let mut g = built(s, Start::Influences { seat: Seat::new(0) });
    play(&mut g, Seat::new(0), Action::Buy { field: 1 });
    assert_eq!(g.influence_market[0], None, "no refill during step 5");
    play(&mut g, Seat::new(0), Action::Draw);
    assert_eq!(g.phase(), "end_round");
    assert!(g.influence_market.iter().all(Option::is_some));
    assert_eq!(g.influence_market[2], fourth);
}

#[test]
fn step_8_event_rondel_moves_one_field_and_applies_its_event_to_every_seat() {
    let mut s = scenario(3).rondel(3);
    for (seat, pop) in [(0, 7), (1, 0), (2, 12)] {
        s = s.popularity(Seat::new(seat), pop);
    }
    let g = built(s, Start::RondelStep);
    assert_eq!(g.view(Viewer::Spectator).rondel, "royalties");
    let cash: Vec<i64> = g.players.iter().map(|p| p.cash).collect();
    assert_eq!(cash, vec![27, 20, 32]);
}

#[test]
fn trend_change_rerolls_the_dice_unless_a_trend_expert_stands() {
    let (g, events) = scenario(2)
        .dice([Some(9), Some(9), Some(9), Some(9)])
        .build_events(Start::TrendChange)
        .expect("a valid position");
    let rolls = events
        .iter()
        .filter(|e| matches!(e.body, GameEvent::Rolled { .. }))
        .count();
    assert_eq!(rolls, 4);
    assert!(g.dice.iter().all(|d| d.is_none_or(|v| v < 5)));

    let s = scenario(2).trend_expert("I73", Seat::new(1));
    let dice = s.position().dice;
    let g = built(s, Start::TrendChange);
    assert_eq!(g.dice, dice);
}

#[test]
fn quarter_end_2_popularity_one_point_per_concert_token_of_any_colour() {
    let g = built(
        scenario(2)
            .dismiss("AR03")
            .hire(Seat::new(0), "AR40", vec![3])
            .tokens("AR40", &["T21", "T11"]),
        Start::QePopularity,
    );
    assert_eq!(g.players[Seat::new(0)].popularity, 2);
    assert_eq!(g.players[Seat::new(1)].popularity, 0);
}

#[test]
fn quarter_end_3_satisfaction_check_counts_artists_off_the_best_songs_style_or_all_without_one() {
    let (s, _) = scenario(2).chart_song(
        2,
        ChartEntry {
            disclosed: true,
            ..entry(Seat::new(0), Style::Rock, 0, 0, 0, 0)
        },
    );
    let g = built(s.side_b("AR02"), Start::SatisfactionCheck);
    // Red band: two Rock artists and Mo Lowdown turned to Black; yellow band: no song, 3 artists.
    assert_eq!(g.players[Seat::new(0)].satisfaction, 4);
    assert_eq!(g.players[Seat::new(1)].satisfaction, 2);
}

#[test]
fn quarter_end_4_clearing_pays_the_powers_on_the_influence_field_and_discards_them() {
    let g = built(
        scenario(2).field(Seat::new(0), &["I11", "I12"]),
        Start::Clearing { seat: Seat::new(0) },
    );
    assert_eq!(g.players[Seat::new(0)].cash, 20 - 5);
    assert!(g.players[Seat::new(0)].influence_field.is_empty());
    assert!(g.influence_discard.ends_with(&[card("I11"), card("I12")]));
}

#[test]
fn band_an_artist_takes_only_a_field_of_its_instruments() {
    let g = built(
        scenario(2).artist_market(1, "AR42").field(Seat::new(0), &["I12"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    let fields: Vec<Vec<u8>> = g
        .legal_actions(Seat::new(0))
        .into_iter()
        .filter_map(|a| match a {
            Action::Recruit { fields, .. } => Some(fields),
            _ => None,
        })
        .collect();
    assert!(!fields.is_empty());
    assert!(fields.iter().all(|f| f == &vec![4] || f == &vec![5]));
}

// ----- The phase machine -----

#[test]
fn phase_machine_is_closed_and_declares_every_action_type() {
    let machine = ShowBusiness::machine();
    assert_eq!(machine.initial, fresh(3).phase());
    for phase in &machine.phases {
        for t in &phase.transitions {
            assert!(
                machine.phase(t.to).is_some(),
                "{} leads to unknown {}",
                phase.name,
                t.to
            );
        }
        for a in &phase.actions {
            assert!(
                actions::ACTION_TYPES.contains(a),
                "{}: unknown action {a}",
                phase.name
            );
        }
        assert!(
            !phase.transitions.is_empty() || phase.name == "over",
            "{} leads nowhere",
            phase.name
        );
    }
    for kind in actions::ACTION_TYPES {
        assert!(
            machine.phases.iter().any(|p| p.actions.contains(kind)),
            "no phase allows {kind}"
        );
    }
    let diagram = machine.mermaid();
    assert!(diagram.contains("round_tail --> [*]"));
    assert!(diagram.contains("part_round --> part_round_end"));
    assert!(diagram.contains("over --> [*]"));
}

#[test]
fn phase_machine_refuses_an_undeclared_change_and_accepts_one_through_automatic_phases() {
    let machine = ShowBusiness::machine();
    conformance::check_transition(&machine, "end_round", "sequence_bid_poll")
        .expect("end_round, then the automatic round tail and rondel, then step 9");
    conformance::check_transition(&machine, "charts", "market_review")
        .expect("the quarter end finishes and the next round starts");
    assert!(conformance::check_transition(&machine, "recording", "sequence_bid").is_err());
    assert!(conformance::check_transition(&machine, "over", "market_review").is_err());
}

#[test]
fn the_scenario_builder_refuses_unknown_components_and_positions_that_break_the_invariants() {
    let s = || scenario(2);
    let start = Start::ChooseAction { seat: Seat::new(0) };
    assert!(s().hand(Seat::new(0), &["I99x"]).build(start.clone()).is_err());
    assert!(s().hand(Seat::new(5), &["I01"]).build(start.clone()).is_err());
    assert!(s().map(&["nope"]).build(start.clone()).is_err());
    assert!(s().car(Seat::new(0), "Atlantis").build(start.clone()).is_err());
    assert!(s().build(Start::ChooseAction { seat: Seat::new(9) }).is_err());
    assert!(
        s().cash(Seat::new(0), -1).build(start.clone()).is_err(),
        "negative cash"
    );
    assert!(
        s().order(&[Seat::new(0), Seat::new(0)])
            .build(start.clone())
            .is_err()
    );
    assert!(s().rondel(5).build(start.clone()).is_err());
    assert!(
        s().tokens("AR42", &["T01"]).build(start.clone()).is_err(),
        "AR42 is in no band"
    );
    assert!(s().artist_market(5, "AR42").build(start.clone()).is_err());
    assert!(
        s().then(Start::EndRound { seat: Seat::new(0) })
            .build_here()
            .is_err()
    );
    let g = s()
        .hand(Seat::new(1), &["I01", "I02"])
        .build(start)
        .expect("a valid position");
    assert!(
        g.players[Seat::new(1)]
            .hand
            .ends_with(&[card("I01"), card("I02")])
    );
    assert_eq!(g.to_act(), vec![Seat::new(0)]);
}
