//! Shrewd Producer: one test per rule and ruling, the rulebook's worked examples with their
//! numbers, and the conformance suite.

use super::actions::Action;
use super::components::*;
use super::components::{ARTISTS, ArtistId, Part, SCOUT_MONEY, SONGS, ScoutId, SongId, Suit};
use super::events::GameEvent;
use super::scenario::Scenario;
use super::scoring::best_assignment;
use super::state::{ScoutBid, Stage};
use super::*;
use crate::conformance::{self, Config};
use crate::{Audience, Event, Game, RejectionCode, Viewer};

fn sc(id: &str) -> ScoutId {
    ScoutId::find(id).expect("a Scout Money id")
}

fn ar(id: &str) -> ArtistId {
    ArtistId::find(id).expect("an artist id")
}

fn so(id: &str) -> SongId {
    SongId::find(id).expect("a song id")
}

fn play(id: &str) -> Action {
    Action::Play { card: sc(id) }
}

fn raise(amount: u32) -> Action {
    Action::Raise { amount }
}

fn new_game(seats: usize, lead: Seat) -> (ShrewdProducer, Vec<Event<GameEvent>>) {
    let options = Options {
        starting_lead: Some(lead),
        ..Options::default()
    };
    ShrewdProducer::setup(options, seats, 42).expect("setup")
}

fn act(g: &mut ShrewdProducer, seat: Seat, action: Action) -> Vec<Event<GameEvent>> {
    g.apply(seat, &action)
        .unwrap_or_else(|r| panic!("seat {seat} {action:?} refused: {r}"))
}

fn bodies(events: &[Event<GameEvent>]) -> Vec<GameEvent> {
    events.iter().map(|e| e.body.clone()).collect()
}

/// The choosing seat signs the first revealed artist.
fn choose_first(g: &mut ShrewdProducer, seat: Seat) -> Vec<Event<GameEvent>> {
    let artist = g.revealed[0];
    act(g, seat, Action::ChooseArtist { artist })
}

/// Plays the draft, every seat keeping the first card of its pair.
fn draft(g: &mut ShrewdProducer) {
    while g.stage == Stage::Draft {
        let seat = g.to_act()[0];
        let first = g.legal_actions(seat)[0];
        act(g, seat, first);
    }
}

fn built(s: Scenario) -> ShrewdProducer {
    s.build().unwrap_or_else(|e| panic!("{e}"))
}

/// Changes `g` through the scenario builder, which checks the position still holds together.
fn change(g: &mut ShrewdProducer, step: impl FnOnce(Scenario) -> Scenario) {
    *g = built(step(Scenario::from_game(g.clone())));
}

/// Changes `g` through the scenario builder into a rulebook example no play reaches (artists
/// already signed in round 1), so the invariants are not checked.
fn change_unchecked(g: &mut ShrewdProducer, step: impl FnOnce(Scenario) -> Scenario) {
    *g = step(Scenario::from_game(g.clone()))
        .build_unchecked()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// A game at the start of round 1's Scout Phase whose hands hold exactly these cards; the
/// other Scout Money is in the discard pile.
fn scout_round(seats: usize, lead: Seat, hands: &[&[&str]]) -> ShrewdProducer {
    scout_round_with(Options::default(), seats, lead, hands)
}

/// As `scout_round`, with these options.
fn scout_round_with(options: Options, seats: usize, lead: Seat, hands: &[&[&str]]) -> ShrewdProducer {
    let options = Options {
        starting_lead: Some(lead),
        ..options
    };
    let (mut g, _) = ShrewdProducer::setup(options, seats, 42).expect("setup");
    draft(&mut g);
    built(Scenario::from_game(g).hands(hands))
}

/// Makes these the two revealed artists (swapping them with the artist pile).
fn reveal(g: &mut ShrewdProducer, ids: [&str; 2]) {
    change(g, |s| s.reveal(ids));
}

/// A game after its last round, ready to be scored.
fn game_over(seats: usize) -> Scenario {
    Scenario::from_game(new_game(seats, Seat::new(0)).0).game_over()
}

/// Four seats, lead 0, every seat with one Red and one Yellow card; plays Red all round:
/// seat 0 $700, seat 1 $300, seat 2 $400, seat 3 $500.
fn all_red_raise() -> ShrewdProducer {
    let mut g = scout_round(
        4,
        Seat::new(0),
        &[
            &["R700a", "Y200a"],
            &["R300a", "Y300a"],
            &["R400a", "Y400a"],
            &["R500a", "Y500a"],
        ],
    );
    act(&mut g, Seat::new(0), play("R700a"));
    act(&mut g, Seat::new(1), play("R300a"));
    act(&mut g, Seat::new(2), play("R400a"));
    act(&mut g, Seat::new(3), play("R500a"));
    g
}

// ---------------------------------------------------------------- components and setup

#[test]
fn derived1_artist_deck_is_24_cards_with_the_rulebooks_parts_and_points() {
    assert_eq!(ARTISTS.len(), 24);
    let carrying = |part: Part| ARTISTS.iter().filter(|a| a.parts.contains(&part)).count();
    assert_eq!(
        [Part::Vo, Part::Gt, Part::Ba, Part::Dr, Part::Ky].map(carrying),
        [7, 6, 6, 5, 4]
    );
    let gt: Vec<u8> = ARTISTS
        .iter()
        .filter(|a| a.parts == [Part::Gt])
        .map(|a| a.pt)
        .collect();
    assert_eq!(gt, [1, 2, 4, 5, 6]);
    assert_eq!(
        ARTISTS.iter().filter(|a| a.parts.len() == 2 && a.pt == 3).count(),
        4
    );
}

#[test]
fn derived2_scout_money_is_24_cards_with_unique_ids() {
    assert_eq!(SCOUT_MONEY.len(), 24);
    for suit in [Suit::Red, Suit::Yellow] {
        let mut values: Vec<u16> = SCOUT_MONEY
            .iter()
            .filter(|c| c.suit == suit)
            .map(|c| c.value)
            .collect();
        values.sort();
        assert_eq!(
            values,
            [200, 200, 300, 300, 300, 400, 400, 400, 500, 500, 600, 700]
        );
    }
    let mut ids: Vec<&str> = SCOUT_MONEY.iter().map(|c| c.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 24);
}

#[test]
fn g1_songs_are_the_rulings_twelve_four_per_level() {
    assert_eq!(SONGS.len(), 12);
    for level in 1..=3u8 {
        let songs: Vec<_> = SONGS.iter().filter(|s| s.level == level).collect();
        assert_eq!(songs.len(), 4);
        assert!(songs.iter().all(|s| s.requires.len() == level as usize + 2));
        let (lo, hi) = [(4, 6), (8, 10), (12, 15)][level as usize - 1];
        assert!(songs.iter().all(|s| (lo..=hi).contains(&s.song_pt)));
    }
    let ballad = so("L1-2").card();
    assert_eq!(
        (ballad.name, ballad.requires, ballad.song_pt),
        ("Street Ballad", &[Part::Vo, Part::Gt, Part::Ba][..], 6)
    );
    assert_eq!(
        so("L2-2").card().requires,
        [Part::Vo, Part::Vo, Part::Gt, Part::Ba]
    );
    assert_eq!(so("L3-4").card().song_pt, 15);
}

#[test]
fn setup_4_players_deals_10_raise_money_each_and_the_supply_starts_empty() {
    let (g, _) = new_game(4, Seat::new(0));
    assert!(g.players.iter().all(|p| p.bills == 10));
    assert_eq!(g.supply, 0);
    assert!(g.scout_removed.is_empty());
    assert!(
        g.players
            .iter()
            .all(|p| p.songs.len() == 1 && p.songs[0].card().level == 1)
    );
    assert_eq!(g.open_songs.len(), 8);
    g.check_invariants().expect("invariants");
}

#[test]
fn setup_3_players_removes_six_scout_cards_deals_13_and_puts_one_bill_in_the_discard() {
    let (g, events) = new_game(3, Seat::new(0));
    assert!(g.players.iter().all(|p| p.bills == 13));
    assert_eq!(g.supply, 1);
    let removed: Vec<&str> = g.scout_removed.iter().map(|c| c.id()).collect();
    assert_eq!(removed, ["R200b", "R300c", "R400c", "Y200b", "Y300c", "Y400c"]);
    assert!(bodies(&events).contains(&GameEvent::ScoutMoneyRemoved {
        cards: g.scout_removed.clone()
    }));
    g.check_invariants().expect("invariants");
}

#[test]
fn derived3_the_draft_gives_each_player_six_scout_cards_with_4_and_3_players() {
    for seats in [4, 3] {
        let (mut g, _) = new_game(seats, Seat::new(1));
        assert!(g.players.iter().all(|p| p.hand.len() == 2 && p.pair.is_some()));
        draft(&mut g);
        assert!(g.players.iter().all(|p| p.hand.len() == 6));
        assert!(g.scout_deck.is_empty());
        assert_eq!((g.stage, g.round), (Stage::Scout, 1));
        g.check_invariants().expect("invariants");
    }
}

#[test]
fn each_round_the_lead_reveals_two_artists() {
    let (mut g, _) = new_game(4, Seat::new(2));
    draft(&mut g);
    assert_eq!(g.revealed.len(), 2);
    assert_eq!(g.artist_deck.len(), 22);
    assert_eq!(g.to_act(), vec![Seat::new(2)]);
}

// ---------------------------------------------------------------- scout phase

#[test]
fn scout_example_red_500_red_300_yellow_is_out_and_a_200_substitute_is_in() {
    // Vo/Ky (3 Pt) and Gt (5 Pt) are revealed. A (lead) bids Red $500, B Red $300, C has no
    // Red and plays Yellow (out), D has no Red and pays $200 of Raise Money (in).
    let mut g = scout_round(
        4,
        Seat::new(0),
        &[
            &["R500a", "Y300a"],
            &["R300a", "Y400a"],
            &["Y200a", "Y600a"],
            &["Y500a", "Y700a"],
        ],
    );
    reveal(&mut g, ["A24", "A07"]);
    assert_eq!(
        (ar("A24").card().parts, ar("A24").card().pt),
        (&[Part::Vo, Part::Ky][..], 3)
    );
    assert_eq!(
        (ar("A07").card().parts, ar("A07").card().pt),
        (&[Part::Gt][..], 5)
    );

    act(&mut g, Seat::new(0), play("R500a"));
    assert_eq!(g.lead_suit(), Some(Suit::Red));
    act(&mut g, Seat::new(1), play("R300a"));
    let c = act(&mut g, Seat::new(2), play("Y200a"));
    assert!(bodies(&c).contains(&GameEvent::ScoutPlayed {
        seat: Seat::new(2),
        card: sc("Y200a"),
        raise_phase: false
    }));
    act(&mut g, Seat::new(3), Action::Substitute);

    assert_eq!(g.stage, Stage::Raise);
    assert_eq!(
        (0..4)
            .map(|s| g.players[Seat::new(s)].participating)
            .collect::<Vec<_>>(),
        [true, true, false, true]
    );
    assert_eq!((g.players[Seat::new(3)].bills, g.supply), (8, 2));
    // Raise order: D ($200), B ($300), A ($500).
    assert_eq!(g.raise_order, [Seat::new(3), Seat::new(1), Seat::new(0)]);
    assert_eq!(
        (
            g.total_bid(Seat::new(0)),
            g.total_bid(Seat::new(1)),
            g.total_bid(Seat::new(3))
        ),
        (500, 300, 200)
    );
}

#[test]
fn a_player_holding_the_lead_suit_must_play_it_at_any_value() {
    let mut g = scout_round(
        4,
        Seat::new(0),
        &[&["R500a"], &["R300a", "R700a", "Y400a"], &["Y200a"], &["Y500a"]],
    );
    act(&mut g, Seat::new(0), play("R500a"));
    assert_eq!(g.legal_actions(Seat::new(1)), vec![play("R300a"), play("R700a")]);
    let refused = g
        .apply(Seat::new(1), &play("Y400a"))
        .expect_err("off-suit refused");
    assert_eq!(refused.code, RejectionCode::IllegalAction);
    assert!(refused.reason.contains("lead suit"), "{}", refused.reason);
}

#[test]
fn without_the_lead_suit_a_player_plays_any_card_and_is_out_or_substitutes_and_is_in() {
    let mut g = scout_round(
        4,
        Seat::new(0),
        &[&["R500a"], &["Y300a", "Y700a"], &["Y200a"], &["Y500a"]],
    );
    act(&mut g, Seat::new(0), play("R500a"));
    assert_eq!(
        g.legal_actions(Seat::new(1)),
        vec![play("Y300a"), play("Y700a"), Action::Substitute]
    );
    act(&mut g, Seat::new(1), play("Y700a"));
    assert!(!g.players[Seat::new(1)].participating);
}

#[test]
fn the_substitute_needs_two_raise_money_bills() {
    let mut g = scout_round(4, Seat::new(0), &[&["R500a"], &["Y300a"], &["Y200a"], &["Y500a"]]);
    let (b0, b1) = (g.players[Seat::new(0)].bills, g.players[Seat::new(1)].bills);
    change(&mut g, |s| {
        s.bills(Seat::new(1), 1).bills(Seat::new(0), b0 + b1 - 1)
    });
    act(&mut g, Seat::new(0), play("R500a"));
    assert_eq!(g.legal_actions(Seat::new(1)), vec![play("Y300a")]);
    let refused = g.apply(Seat::new(1), &Action::Substitute).expect_err("refused");
    assert!(refused.reason.contains("$200"), "{}", refused.reason);
}

// ---------------------------------------------------------------- raise phase

#[test]
fn g5_raise_order_is_ascending_scout_value_ties_to_the_seat_closer_to_the_lead() {
    // Lead 2: seat 3 is at distance 1, seat 1 at distance 3; both play $300.
    let mut g = scout_round(4, Seat::new(2), &[&["R600a"], &["R300a"], &["R400a"], &["R300b"]]);
    act(&mut g, Seat::new(2), play("R400a"));
    act(&mut g, Seat::new(3), play("R300b"));
    act(&mut g, Seat::new(0), play("R600a"));
    act(&mut g, Seat::new(1), play("R300a"));
    assert_eq!(
        g.raise_order,
        [Seat::new(3), Seat::new(1), Seat::new(2), Seat::new(0)]
    );
    assert_eq!(g.to_act(), vec![Seat::new(3)]);
    // Turns cycle through the fixed order, skipping seats that passed.
    act(&mut g, Seat::new(3), raise(100));
    act(&mut g, Seat::new(1), Action::Pass);
    act(&mut g, Seat::new(2), Action::Pass);
    act(&mut g, Seat::new(0), raise(200));
    assert_eq!(g.to_act(), vec![Seat::new(3)]);
    act(&mut g, Seat::new(3), Action::Pass);
    assert_eq!(g.to_act(), vec![Seat::new(0)]);
    act(&mut g, Seat::new(0), Action::Pass);
    assert_eq!(g.stage, Stage::Signing);
}

#[test]
fn g6_a_substitute_counts_as_a_200_bid_or_as_0_with_the_option() {
    for (counts, order, total) in [
        (true, [1, 2, 0].map(Seat::new), 200),
        (false, [2, 1, 0].map(Seat::new), 0),
    ] {
        // Seat 1 plays $200 Red (distance 1); seat 2 substitutes (distance 2).
        let options = Options {
            substitute_counts_200: counts,
            ..Options::default()
        };
        let mut g = scout_round_with(options, 3, Seat::new(0), &[&["R500a"], &["R200a"], &["Y200a"]]);
        act(&mut g, Seat::new(0), play("R500a"));
        act(&mut g, Seat::new(1), play("R200a"));
        act(&mut g, Seat::new(2), Action::Substitute);
        assert_eq!(g.raise_order, order);
        assert_eq!(g.total_bid(Seat::new(2)), total);
    }
}

#[test]
fn g7_only_a_player_without_the_lead_suit_may_go_off_suit_or_substitute_and_may_take_debt_first() {
    let mut g = scout_round(
        4,
        Seat::new(0),
        &[&["R500a"], &["R300a", "Y300a"], &["Y200a"], &["Y500a"]],
    );
    act(&mut g, Seat::new(0), play("R500a"));
    assert!(!g.legal_actions(Seat::new(1)).contains(&Action::Substitute));
    assert!(g.apply(Seat::new(1), &Action::Substitute).is_err());
    act(&mut g, Seat::new(1), play("R300a"));
    // Seat 2 holds no money but the supply can lend: debt first, then substitute.
    change(&mut g, |s| {
        s.bills(Seat::new(2), 0)
            .bills(Seat::new(0), 10)
            .bills(Seat::new(1), 10)
            .bills(Seat::new(3), 10)
    });
    assert_eq!(g.supply, 10);
    g.check_invariants().expect("invariants");
    assert_eq!(
        g.legal_actions(Seat::new(2)),
        vec![play("Y200a"), Action::TakeDebt]
    );
    act(&mut g, Seat::new(2), Action::TakeDebt);
    assert_eq!(g.to_act(), vec![Seat::new(2)]);
    act(&mut g, Seat::new(2), Action::Substitute);
    assert_eq!(
        (
            g.players[Seat::new(2)].bills,
            g.players[Seat::new(2)].debts,
            g.supply
        ),
        (3, 1, 7)
    );
}

#[test]
fn g8_raises_are_multiples_of_100_from_100_to_what_the_seat_holds() {
    let mut g = all_red_raise();
    change(&mut g, |s| s.bills(Seat::new(1), 5));
    assert_eq!(g.supply, 5);
    g.check_invariants().expect("invariants");
    assert_eq!(
        g.legal_actions(Seat::new(1)),
        vec![
            Action::Pass,
            raise(100),
            raise(200),
            raise(300),
            raise(400),
            raise(500),
            Action::TakeDebt
        ]
    );
    for bad in [0, 50, 150, 600] {
        let refused = g.apply(Seat::new(1), &raise(bad)).expect_err("refused");
        assert_eq!(refused.code, RejectionCode::IllegalAction);
    }
    act(&mut g, Seat::new(1), raise(500));
    assert_eq!(
        (
            g.players[Seat::new(1)].bills,
            g.players[Seat::new(1)].raised,
            g.total_bid(Seat::new(1))
        ),
        (0, 5, 800)
    );
}

#[test]
fn raising_need_not_beat_the_high_bid() {
    let mut g = all_red_raise();
    act(&mut g, Seat::new(1), raise(100));
    assert!(g.total_bid(Seat::new(1)) < g.total_bid(Seat::new(0)));
    assert_eq!(g.to_act(), vec![Seat::new(2)]);
}

#[test]
fn a_pass_is_final_and_the_raise_phase_ends_when_all_have_passed() {
    let mut g = all_red_raise();
    act(&mut g, Seat::new(1), Action::Pass);
    act(&mut g, Seat::new(2), raise(100));
    act(&mut g, Seat::new(3), Action::Pass);
    act(&mut g, Seat::new(0), Action::Pass);
    assert_eq!(g.to_act(), vec![Seat::new(2)]);
    assert!(g.legal_actions(Seat::new(1)).is_empty());
    act(&mut g, Seat::new(2), Action::Pass);
    assert_eq!(g.stage, Stage::Signing);
    // Totals: seat 0 $700, seat 2 $500, seat 3 $500 (seat 2 closer to the lead), seat 1 $300.
    assert_eq!(g.ranking, [Seat::new(0), Seat::new(2)]);
}

#[test]
fn ranking_ties_go_to_the_seat_closer_to_the_lead() {
    let mut g = scout_round(4, Seat::new(1), &[&["R500a"], &["R300a"], &["R400a"], &["R500b"]]);
    act(&mut g, Seat::new(1), play("R300a"));
    act(&mut g, Seat::new(2), play("R400a"));
    act(&mut g, Seat::new(3), play("R500b"));
    act(&mut g, Seat::new(0), play("R500a"));
    for seat in [1, 2, 3, 0] {
        act(&mut g, Seat::new(seat), Action::Pass);
    }
    // Seats 3 and 0 both bid $500; seat 3 is closer to lead 1.
    assert_eq!(g.ranking, [Seat::new(3), Seat::new(0)]);
}

// ---------------------------------------------------------------- debt

#[test]
fn derived4_a_debt_takes_500_from_the_supply_only_when_it_holds_500() {
    let mut g = scout_round(4, Seat::new(0), &[&["R500a"], &["Y300a"], &["Y200a"], &["Y500a"]]);
    assert_eq!(g.supply, 0);
    assert!(!g.legal_actions(Seat::new(0)).contains(&Action::TakeDebt));
    let refused = g
        .apply(Seat::new(0), &Action::TakeDebt)
        .expect_err("no money in the supply");
    assert!(refused.reason.contains("supply"), "{}", refused.reason);
    let b1 = g.players[Seat::new(1)].bills;
    change(&mut g, |s| s.bills(Seat::new(1), b1 - 5));
    assert_eq!(g.supply, 5);
    act(&mut g, Seat::new(0), Action::TakeDebt);
    assert_eq!(
        (
            g.players[Seat::new(0)].bills,
            g.players[Seat::new(0)].debts,
            g.supply
        ),
        (15, 1, 0)
    );
    assert!(!g.legal_actions(Seat::new(0)).contains(&Action::TakeDebt));
}

#[test]
fn debt_is_limited_to_five_per_game() {
    let mut g = all_red_raise();
    change(&mut g, |s| Seat::all(4).fold(s, |s, seat| s.bills(seat, 0)));
    assert_eq!(g.supply, 40);
    for _ in 0..MAX_DEBTS {
        act(&mut g, Seat::new(1), Action::TakeDebt);
    }
    assert_eq!(
        (g.players[Seat::new(1)].debts, g.players[Seat::new(1)].bills),
        (5, 25)
    );
    assert!(!g.legal_actions(Seat::new(1)).contains(&Action::TakeDebt));
    let refused = g.apply(Seat::new(1), &Action::TakeDebt).expect_err("sixth debt");
    assert!(refused.reason.contains("maximum"), "{}", refused.reason);
}

#[test]
fn g23_debt_only_on_ones_own_scout_or_raise_turn_and_it_does_not_end_the_turn() {
    let (mut g, _) = new_game(4, Seat::new(0));
    change(&mut g, |s| s.bills(Seat::new(0), 0));
    assert_eq!(g.supply, 10);
    assert!(
        g.legal_actions(Seat::new(0))
            .iter()
            .all(|a| matches!(a, Action::Keep { .. }))
    );
    let refused = g
        .apply(Seat::new(0), &Action::TakeDebt)
        .expect_err("no debt in the draft");
    assert!(refused.reason.contains("G23"), "{}", refused.reason);
    draft(&mut g);
    assert!(g.legal_actions(Seat::new(0)).contains(&Action::TakeDebt));
    assert_eq!(
        g.apply(Seat::new(1), &Action::TakeDebt)
            .expect_err("not seat 1's turn")
            .code,
        RejectionCode::NotYourTurn
    );
    act(&mut g, Seat::new(0), Action::TakeDebt);
    assert_eq!(g.to_act(), vec![Seat::new(0)]);
}

// ---------------------------------------------------------------- signing and money

#[test]
fn first_place_chooses_second_place_signs_the_other_and_both_pay_their_whole_bid() {
    let mut g = all_red_raise();
    reveal(&mut g, ["A03", "A08"]);
    act(&mut g, Seat::new(1), raise(500));
    for seat in [2, 3, 0, 1] {
        act(&mut g, Seat::new(seat), Action::Pass);
    }
    // Seat 1: $300 + $500 = $800 (1st); seat 0: $700 (2nd).
    assert_eq!(g.ranking, [Seat::new(1), Seat::new(0)]);
    assert_eq!(g.to_act(), vec![Seat::new(1)]);
    let events = bodies(&act(
        &mut g,
        Seat::new(1),
        Action::ChooseArtist { artist: ar("A08") },
    ));
    assert!(events.contains(&GameEvent::ArtistSigned {
        seat: Seat::new(1),
        artist: ar("A08"),
        place: 1
    }));
    assert!(events.contains(&GameEvent::ArtistSigned {
        seat: Seat::new(0),
        artist: ar("A03"),
        place: 2
    }));
    assert_eq!(g.players[Seat::new(1)].artists, [ar("A08")]);
    assert_eq!(g.players[Seat::new(0)].artists, [ar("A03")]);
    // Seat 1's $500 of Raise Money went to the discard pile, and every played card too.
    assert_eq!((g.players[Seat::new(1)].bills, g.supply), (5, 5));
    for id in ["R700a", "R300a", "R400a", "R500a"] {
        assert!(g.scout_discard.contains(&sc(id)));
    }
    g.check_invariants().expect("invariants");
}

#[test]
fn g9_non_signer_loses_only_100_of_raise_money() {
    let mut g = all_red_raise();
    act(&mut g, Seat::new(1), raise(300));
    act(&mut g, Seat::new(2), raise(100));
    act(&mut g, Seat::new(3), raise(500));
    for seat in [0, 1, 2, 3] {
        act(&mut g, Seat::new(seat), Action::Pass);
    }
    // Seat 3 $1000, seat 0 $700, seat 1 $600, seat 2 $500.
    assert_eq!(g.ranking, [Seat::new(3), Seat::new(0)]);
    let artist = g.revealed[0];
    let events = bodies(&act(&mut g, Seat::new(3), Action::ChooseArtist { artist }));
    assert!(events.contains(&GameEvent::MoneyProcessed {
        seat: Seat::new(1),
        to_supply: 100,
        returned: 200
    }));
    assert_eq!(g.players[Seat::new(1)].bills, 9);
    assert_eq!(g.players[Seat::new(2)].bills, 9);
    // A participant that raised nothing loses only its Scout card.
    assert!(events.contains(&GameEvent::MoneyProcessed {
        seat: Seat::new(0),
        to_supply: 0,
        returned: 0
    }));
    assert_eq!(g.players[Seat::new(0)].bills, 10);
    assert_eq!(g.players[Seat::new(3)].bills, 5);
    assert_eq!(g.supply, 5 + 1 + 1);
}

#[test]
fn g10_a_single_participant_chooses_one_artist_and_the_other_is_discarded() {
    let mut g = scout_round(4, Seat::new(0), &[&["R500a"], &["Y300a"], &["Y200a"], &["Y500a"]]);
    reveal(&mut g, ["A01", "A20"]);
    act(&mut g, Seat::new(0), play("R500a"));
    act(&mut g, Seat::new(1), play("Y300a"));
    act(&mut g, Seat::new(2), play("Y200a"));
    act(&mut g, Seat::new(3), play("Y500a"));
    assert_eq!(g.raise_order, [Seat::new(0)]);
    act(&mut g, Seat::new(0), raise(200));
    act(&mut g, Seat::new(0), Action::Pass);
    assert_eq!(g.ranking, [Seat::new(0)]);
    let events = bodies(&act(
        &mut g,
        Seat::new(0),
        Action::ChooseArtist { artist: ar("A20") },
    ));
    assert!(events.contains(&GameEvent::ArtistDiscarded { artist: ar("A01") }));
    assert_eq!(g.artist_discard, [ar("A01")]);
    assert_eq!((g.players[Seat::new(0)].bills, g.supply), (8, 2));
    // DERIVED 6: no 1st place over others; the lead continues.
    assert_eq!((g.round, g.lead, g.stage), (2, Seat::new(0), Stage::Scout));
}

#[test]
fn g11_second_place_must_sign_even_at_a_price_driven_up_by_others() {
    let mut g = scout_round(3, Seat::new(0), &[&["R700a"], &["R300a"], &["R400a"]]);
    act(&mut g, Seat::new(0), play("R700a"));
    act(&mut g, Seat::new(1), play("R300a"));
    act(&mut g, Seat::new(2), play("R400a"));
    act(&mut g, Seat::new(1), raise(500));
    act(&mut g, Seat::new(2), Action::Pass);
    act(&mut g, Seat::new(0), Action::Pass);
    act(&mut g, Seat::new(1), Action::Pass);
    // Seat 1 ($800) is 1st, seat 0 ($700) is 2nd and gets the other artist with no choice.
    assert_eq!(g.ranking, [Seat::new(1), Seat::new(0)]);
    assert!(g.legal_actions(Seat::new(0)).is_empty());
    let other = g.revealed[1];
    choose_first(&mut g, Seat::new(1));
    assert_eq!(g.players[Seat::new(0)].artists, [other]);
}

#[test]
fn g25_only_first_place_chooses_an_artist() {
    let mut g = all_red_raise();
    for seat in [1, 2, 3, 0] {
        act(&mut g, Seat::new(seat), Action::Pass);
    }
    assert_eq!(g.ranking, [Seat::new(0), Seat::new(3)]);
    assert_eq!(g.to_act(), vec![Seat::new(0)]);
    let choice = Action::ChooseArtist {
        artist: g.revealed[0],
    };
    assert_eq!(
        g.apply(Seat::new(3), &choice).expect_err("2nd").code,
        RejectionCode::NotYourTurn
    );
    let not_revealed = g.artist_deck[0];
    let refused = g
        .apply(Seat::new(0), &Action::ChooseArtist { artist: not_revealed })
        .expect_err("not revealed");
    assert_eq!(refused.code, RejectionCode::IllegalAction);
}

#[test]
fn the_first_place_signer_leads_the_next_round() {
    let mut g = all_red_raise();
    act(&mut g, Seat::new(1), raise(500));
    for seat in [2, 3, 0, 1] {
        act(&mut g, Seat::new(seat), Action::Pass);
    }
    choose_first(&mut g, Seat::new(1));
    assert_eq!(
        (g.round, g.lead, g.to_act()),
        (2, Seat::new(1), vec![Seat::new(1)])
    );
}

#[test]
fn g18_a_substitute_reaches_the_supply_at_once_raise_bids_only_at_money_processing() {
    let mut g = scout_round(4, Seat::new(0), &[&["R500a"], &["Y300a"], &["R200a"], &["Y500a"]]);
    act(&mut g, Seat::new(0), play("R500a"));
    act(&mut g, Seat::new(1), Action::Substitute);
    assert_eq!(g.supply, 2);
    act(&mut g, Seat::new(2), play("R200a"));
    act(&mut g, Seat::new(3), play("Y500a"));
    // Order: seat 1 ($200 substitute, closer to the lead), seat 2 ($200), seat 0.
    act(&mut g, Seat::new(1), Action::Pass);
    act(&mut g, Seat::new(2), raise(400));
    assert_eq!(g.supply, 2);
    assert_eq!(g.players[Seat::new(2)].raised, 4);
}

#[test]
fn g19_a_participant_without_money_who_cannot_borrow_may_only_pass() {
    let mut g = all_red_raise();
    let (b0, b1) = (g.players[Seat::new(0)].bills, g.players[Seat::new(1)].bills);
    change(&mut g, |s| s.bills(Seat::new(1), 0).bills(Seat::new(0), b0 + b1));
    assert!(g.supply < DEBT_BILLS);
    assert_eq!(g.legal_actions(Seat::new(1)), vec![Action::Pass]);
}

#[test]
fn g27_a_lone_participant_takes_raise_turns_until_it_passes() {
    let mut g = scout_round(3, Seat::new(0), &[&["R500a"], &["Y300a"], &["Y200a"]]);
    act(&mut g, Seat::new(0), play("R500a"));
    act(&mut g, Seat::new(1), play("Y300a"));
    act(&mut g, Seat::new(2), play("Y200a"));
    act(&mut g, Seat::new(0), raise(100));
    assert_eq!((g.stage, g.to_act()), (Stage::Raise, vec![Seat::new(0)]));
    act(&mut g, Seat::new(0), raise(100));
    act(&mut g, Seat::new(0), Action::Pass);
    assert_eq!(g.stage, Stage::Signing);
}

#[test]
fn g24_the_lead_must_play_a_scout_card_and_may_neither_substitute_nor_go_off_suit() {
    let g = scout_round(
        4,
        Seat::new(0),
        &[&["Y500a", "Y300b"], &["R300a"], &["Y200a"], &["Y500b"]],
    );
    assert_eq!(g.legal_actions(Seat::new(0)), vec![play("Y500a"), play("Y300b")]);
    let refused = g
        .clone()
        .apply(Seat::new(0), &Action::Substitute)
        .expect_err("lead");
    assert!(refused.reason.contains("lead"), "{}", refused.reason);
}

// ---------------------------------------------------------------- songs

#[test]
fn g2_a_dual_card_fills_both_its_parts_unless_the_option_says_one_slot() {
    let owned = [ar("A21"), ar("A13")]; // Vo/Gt 3, Ba 6
    let ballad = so("L1-2").card().requires; // Vo Gt Ba
    assert_eq!(
        best_assignment(ballad, &owned, true).map(|a| a.artist_pt),
        Some(9)
    );
    assert_eq!(best_assignment(ballad, &owned, false), None);
    let with_gt = [ar("A21"), ar("A13"), ar("A04")];
    assert_eq!(
        best_assignment(ballad, &with_gt, false).map(|a| a.artist_pt),
        Some(10)
    );
    assert_eq!(DUAL_FILLS_BOTH, Options::default().dual_fills_both);
}

#[test]
fn g3_one_dual_card_cannot_fill_two_vocal_slots() {
    let twin = so("L2-2").card().requires; // Vo Vo Gt Ba
    let owned = [ar("A21"), ar("A13")];
    assert_eq!(best_assignment(twin, &owned, true), None);
    let owned = [ar("A21"), ar("A13"), ar("A01")];
    assert_eq!(best_assignment(twin, &owned, true).map(|a| a.artist_pt), Some(11));
}

#[test]
fn g4_the_assignment_with_the_most_artist_pt_is_scored_and_others_do_not_participate() {
    let ballad = so("L1-2").card().requires;
    let owned = [ar("A01"), ar("A03"), ar("A04"), ar("A08"), ar("A09"), ar("A21")];
    let best = best_assignment(ballad, &owned, true).expect("complete");
    assert_eq!(best.artist_pt, 6 + 6 + 1);
    assert_eq!(best.artists, [ar("A03"), ar("A08"), ar("A09")]);
}

/// Seat 0 leads and will be 1st; its song is Street Ballad and it owns these artists.
fn signing_with_songs(owned: &[&str], reveal_ids: [&str; 2]) -> ShrewdProducer {
    let mut g = all_red_raise();
    let others: Vec<&str> = (0..4u8)
        .map(SongId)
        .filter(|&s| s != so("L1-2"))
        .map(SongId::id)
        .collect();
    change_unchecked(&mut g, |s| {
        s.songs(Seat::new(0), &["L1-2"])
            .songs(Seat::new(1), &[others[0]])
            .songs(Seat::new(2), &[others[1]])
            .songs(Seat::new(3), &[others[2]])
            .signed(Seat::new(0), owned)
            .reveal(reveal_ids)
    });
    for seat in [1, 2, 3, 0] {
        act(&mut g, Seat::new(seat), Action::Pass);
    }
    assert_eq!(g.ranking, [Seat::new(0), Seat::new(3)]);
    g
}

#[test]
fn g12_a_signer_who_completes_its_song_chooses_the_next_level_and_may_chain() {
    // Owned: Vo 6, Gt 6, Dr 6; signing Ba 6 completes Street Ballad and Power Quartet.
    let mut g = signing_with_songs(&["A03", "A08", "A17"], ["A13", "A20"]);
    act(&mut g, Seat::new(0), Action::ChooseArtist { artist: ar("A13") });
    assert_eq!((g.stage, g.to_act()), (Stage::Songs, vec![Seat::new(0)]));
    let level2: Vec<Action> = ["L2-1", "L2-2", "L2-3", "L2-4"]
        .iter()
        .map(|id| Action::TakeSong { song: so(id) })
        .chain([Action::DeclineSong])
        .collect();
    assert_eq!(g.legal_actions(Seat::new(0)), level2);
    act(&mut g, Seat::new(0), Action::TakeSong { song: so("L2-1") });
    // Power Quartet is complete at once: pick again, from Lv.3.
    assert_eq!(g.to_act(), vec![Seat::new(0)]);
    assert!(
        g.legal_actions(Seat::new(0))
            .contains(&Action::TakeSong { song: so("L3-4") })
    );
    assert!(
        !g.legal_actions(Seat::new(0))
            .contains(&Action::TakeSong { song: so("L2-2") })
    );
    act(&mut g, Seat::new(0), Action::TakeSong { song: so("L3-4") });
    assert_eq!(
        g.players[Seat::new(0)].songs,
        [so("L1-2"), so("L2-1"), so("L3-4")]
    );
    assert_eq!((g.stage, g.round), (Stage::Scout, 2));
    assert!(!g.open_songs.contains(&so("L2-1")));
}

#[test]
fn g26_declining_ends_the_chain_and_the_song_is_offered_again_at_the_next_signing() {
    let mut g = signing_with_songs(&["A03", "A08"], ["A13", "A20"]);
    act(&mut g, Seat::new(0), Action::ChooseArtist { artist: ar("A13") });
    act(&mut g, Seat::new(0), Action::DeclineSong);
    assert_eq!((g.stage, g.round), (Stage::Scout, 2));
    assert_eq!(g.players[Seat::new(0)].songs, [so("L1-2")]);
    // Next round seat 0 signs again (alone) and is asked again.
    let hands: [&[&str]; 4] = [&["R600a"], &["Y300b"], &["Y200b"], &["Y500b"]];
    change_unchecked(&mut g, |s| s.hands(&hands));
    act(&mut g, Seat::new(0), play("R600a"));
    act(&mut g, Seat::new(1), play("Y300b"));
    act(&mut g, Seat::new(2), play("Y200b"));
    act(&mut g, Seat::new(3), play("Y500b"));
    act(&mut g, Seat::new(0), Action::Pass);
    choose_first(&mut g, Seat::new(0));
    assert_eq!((g.stage, g.to_act()), (Stage::Songs, vec![Seat::new(0)]));
}

#[test]
fn g26_simultaneous_completions_pick_in_order_of_distance_from_the_lead() {
    // Lead 2; seats 3 (distance 1) and 0 (distance 2) both complete Lv.1 songs.
    let mut g = scout_round(4, Seat::new(2), &[&["R600a"], &["R200a"], &["R400a"], &["R700a"]]);
    change_unchecked(&mut g, |s| {
        s.songs(Seat::new(0), &["L1-2"]) // Vo Gt Ba
            .songs(Seat::new(1), &["L1-3"])
            .songs(Seat::new(2), &["L1-4"])
            .songs(Seat::new(3), &["L1-1"]) // Vo Gt Dr
            .signed(Seat::new(0), &["A03", "A08"])
            .signed(Seat::new(3), &["A02", "A06"])
            .reveal(["A13", "A17"])
    });
    act(&mut g, Seat::new(2), play("R400a"));
    act(&mut g, Seat::new(3), play("R700a"));
    act(&mut g, Seat::new(0), play("R600a"));
    act(&mut g, Seat::new(1), play("R200a"));
    for seat in [1, 2, 0, 3] {
        act(&mut g, Seat::new(seat), Action::Pass);
    }
    assert_eq!(g.ranking, [Seat::new(3), Seat::new(0)]);
    act(&mut g, Seat::new(3), Action::ChooseArtist { artist: ar("A17") });
    assert_eq!(g.song_queue, [Seat::new(3), Seat::new(0)]);
    assert_eq!(g.to_act(), vec![Seat::new(3)]);
    act(&mut g, Seat::new(3), Action::TakeSong { song: so("L2-4") });
    assert_eq!(g.to_act(), vec![Seat::new(0)]);
    assert!(
        !g.legal_actions(Seat::new(0))
            .contains(&Action::TakeSong { song: so("L2-4") })
    );
    act(&mut g, Seat::new(0), Action::TakeSong { song: so("L2-1") });
    assert_eq!((g.stage, g.lead), (Stage::Scout, Seat::new(3)));
}

#[test]
fn only_this_rounds_signers_check_their_songs() {
    let mut g = all_red_raise();
    // Seat 1 holds a complete song but does not sign this round.
    change_unchecked(&mut g, |s| {
        s.songs(Seat::new(1), &["L1-2"])
            .songs(Seat::new(0), &[])
            .signed(Seat::new(1), &["A03", "A08", "A13"])
    });
    for seat in [1, 2, 3, 0] {
        act(&mut g, Seat::new(seat), Action::Pass);
    }
    choose_first(&mut g, Seat::new(0));
    assert_eq!(g.stage, Stage::Scout);
    assert_eq!(g.players[Seat::new(1)].songs.len(), 1);
}

// ---------------------------------------------------------------- scoring

#[test]
fn scoring_example_vo_ky_3_gt_5_ba_5_with_street_ballad_6_is_19() {
    let g = built(
        game_over(4)
            .songs(Seat::new(0), &["L1-2", "L2-2"])
            .signed(Seat::new(0), &["A24", "A07", "A12"]),
    );
    let best = best_assignment(so("L1-2").card().requires, &g.players[Seat::new(0)].artists, true)
        .expect("complete");
    assert_eq!(best.artist_pt, 13);
    let score = g.final_score(Seat::new(0));
    // The Lv.2 song is not completed, so the Lv.1 song scores: 13 + 6 = 19.
    assert_eq!(score.song, Some(so("L1-2")));
    assert_eq!(
        (score.artist_pt, score.song_pt, score.artist_pt + score.song_pt),
        (13, 6, 19)
    );
}

#[test]
fn remaining_money_example_500_scores_2_pt() {
    let (mut g, _) = new_game(4, Seat::new(0));
    change(&mut g, |s| s.bills(Seat::new(0), 5));
    assert_eq!(g.final_score(Seat::new(0)).money_pt, 2);
    change(&mut g, |s| s.bills(Seat::new(0), 1));
    assert_eq!(g.final_score(Seat::new(0)).money_pt, 0);
}

#[test]
fn debt_example_3_checkmarks_score_minus_18() {
    let (mut g, _) = new_game(4, Seat::new(0));
    change(&mut g, |s| s.debts(Seat::new(0), 3));
    assert_eq!(g.final_score(Seat::new(0)).debt_pt, -18);
}

#[test]
fn only_the_highest_level_completed_song_scores() {
    // Street Ballad and Power Quartet both complete: the Lv.2 song scores.
    let g = built(
        game_over(4)
            .songs(Seat::new(0), &["L1-2", "L2-1"])
            .signed(Seat::new(0), &["A03", "A08", "A13", "A14"]),
    );
    let score = g.final_score(Seat::new(0));
    assert_eq!(score.song, Some(so("L2-1")));
    assert_eq!(score.song_pt + score.artist_pt, 8 + 6 + 6 + 6 + 2);
}

#[test]
fn g17_final_score_is_best_song_plus_money_over_200_minus_6_per_debt_with_lines() {
    let g = built(
        game_over(4)
            .songs(Seat::new(0), &["L1-2"])
            .signed(Seat::new(0), &["A24", "A07", "A12"])
            .bills(Seat::new(0), 5)
            .debts(Seat::new(0), 3),
    );
    let outcome = g.outcome().expect("over");
    let s0 = &outcome.scores[0];
    assert_eq!(s0.total, 19 + 2 - 18);
    let points: Vec<i64> = s0.lines.iter().map(|l| l.points).collect();
    assert_eq!(points, [6, 13, 2, -18]);
    assert_eq!(s0.tiebreaks[0].points, 3);
    // A seat with no completed song and $1000 scores 5.
    assert_eq!(outcome.scores[1].total, 5);
}

#[test]
fn a_tie_goes_to_the_most_artists_signed_and_then_is_shared() {
    let mut g = built(
        Seat::all(3)
            .fold(game_over(3), |s, seat| s.bills(seat, 10))
            .signed(Seat::new(1), &["A01"]),
    );
    assert_eq!(g.supply, 10);
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.winners, [Seat::new(1)]);
    assert_eq!(
        outcome.scores.iter().map(|s| s.rank).collect::<Vec<_>>(),
        [2, 1, 2]
    );
    change(&mut g, |s| s.signed(Seat::new(0), &["A04"]));
    assert_eq!(g.outcome().expect("over").winners, [Seat::new(0), Seat::new(1)]);
}

// ---------------------------------------------------------------- setup rulings

#[test]
fn g13_with_3_players_the_leftover_lv1_song_is_removed_face_down() {
    let (g, events) = new_game(3, Seat::new(0));
    assert_eq!(g.removed_songs.len(), 1);
    let removed = g.removed_songs[0].id();
    assert!(bodies(&events).contains(&GameEvent::SongRemoved));
    for viewer in [Viewer::Seat(Seat::new(0)), Viewer::Spectator] {
        let text = serde_json::to_string(&g.view(viewer)).expect("view");
        assert!(!text.contains(&format!("\"{removed}\"")));
        assert!(g.secrets(viewer).contains(&removed.to_owned()));
    }
}

#[test]
fn g14_g28_scout_money_is_redrafted_after_round_6_from_round_7s_lead() {
    let mut g = all_red_raise();
    // Jump to round 6 (ten artists already gone).
    change(&mut g, |s| s.round(6));
    g.check_invariants().expect("invariants");
    act(&mut g, Seat::new(1), raise(500));
    for seat in [2, 3, 0, 1] {
        act(&mut g, Seat::new(seat), Action::Pass);
    }
    let events = choose_first(&mut g, Seat::new(1));
    let bodies = bodies(&events);
    assert!(bodies.contains(&GameEvent::ScoutMoneyGathered));
    assert_eq!((g.stage, g.lead), (Stage::Draft, Seat::new(1)));
    // All 24 cards are redealt, draws starting from the new lead (seat 1).
    let first_draw = bodies.iter().find_map(|b| match b {
        GameEvent::ScoutDrawn { seat, .. } => Some(*seat),
        _ => None,
    });
    assert_eq!(first_draw, Some(Seat::new(1)));
    assert!(events.iter().any(|e| e.audience == Audience::Nobody
        && matches!(&e.body, GameEvent::ScoutMoneyShuffled { order } if order.len() == 24)));
    draft(&mut g);
    assert_eq!(
        (g.round, g.stage, g.to_act()),
        (7, Stage::Scout, vec![Seat::new(1)])
    );
    assert!(g.players.iter().all(|p| p.hand.len() == 6));
    g.check_invariants().expect("invariants");
}

#[test]
fn g15_scout_hands_and_face_down_piles_are_hidden_the_rest_is_public() {
    let (mut g, _) = new_game(4, Seat::new(0));
    draft(&mut g);
    let seat0_card = g.players[Seat::new(0)].hand[0].id();
    let pile_artist = g.artist_deck[0].id();
    let mine = serde_json::to_string(&g.view(Viewer::Seat(Seat::new(0)))).expect("view");
    assert!(mine.contains(&format!("\"{seat0_card}\"")));
    for viewer in [Viewer::Seat(Seat::new(1)), Viewer::Spectator] {
        let text = serde_json::to_string(&g.view(viewer)).expect("view");
        assert!(!text.contains(&format!("\"{seat0_card}\"")));
        assert!(!text.contains(&format!("\"{pile_artist}\"")));
        let secrets = g.secrets(viewer);
        assert!(secrets.contains(&seat0_card.to_owned()) && secrets.contains(&pile_artist.to_owned()));
        // Public: money, debts, songs, revealed artists.
        let view = g.view(viewer);
        assert_eq!(view.players[0].raise_money, 1000);
        assert_eq!(view.players[0].scout_cards, 6);
        assert_eq!(view.players[2].songs.len(), 1);
        assert_eq!(view.artists_revealed.len(), 2);
    }
    assert!(g.view(Viewer::Spectator).hand.is_none());
    assert!(
        !serde_json::to_string(&g.view(Viewer::Spectator))
            .expect("view")
            .contains("\"rng\"")
    );
}

#[test]
fn g16_the_starting_lead_is_an_option_or_drawn_from_the_seed() {
    let (g, events) = new_game(4, Seat::new(3));
    assert_eq!(g.lead, Seat::new(3));
    assert!(bodies(&events).contains(&GameEvent::StartingLead { seat: Seat::new(3) }));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e.body, GameEvent::LeadDrawn { .. }))
    );
    let leads: Vec<Seat> =
        (0..40u64)
            .map(|seed| {
                let (g, events) = ShrewdProducer::setup(Options::default(), 4, seed).expect("setup");
                assert!(events.iter().any(
                    |e| e.audience == Audience::Nobody && e.body == GameEvent::LeadDrawn { seat: g.lead }
                ));
                g.lead
            })
            .collect();
    assert!(Seat::all(4).all(|s| leads.contains(&s)));
    let again = ShrewdProducer::setup(Options::default(), 4, 7)
        .expect("setup")
        .0
        .lead;
    assert_eq!(again, leads[7]);
    let bad = Options {
        starting_lead: Some(Seat::new(3)),
        ..Options::default()
    };
    assert!(matches!(
        ShrewdProducer::setup(bad, 3, 1),
        Err(crate::SetupError::Options(_))
    ));
}

#[test]
fn g20_a_passed_card_goes_to_the_next_seat_clockwise() {
    let (mut g, _) = new_game(4, Seat::new(0));
    let pairs: Vec<[ScoutId; 2]> = g.players.iter().map(|p| p.pair.expect("pair")).collect();
    for (seat, pair) in Seat::all(pairs.len()).zip(&pairs) {
        act(&mut g, seat, Action::Keep { card: pair[0] });
    }
    for seat in Seat::all(4) {
        let from = seat.clockwise(3, 4);
        assert!(g.players[seat].hand.contains(&pairs[from.index()][1]));
        assert!(g.players[seat].hand.contains(&pairs[seat.index()][0]));
        assert!(!g.players[seat].hand.contains(&pairs[seat.index()][1]));
    }
}

#[test]
fn g21_lv1_songs_are_dealt_one_each_from_the_lead_clockwise() {
    let (g, events) = new_game(4, Seat::new(2));
    let order = events
        .iter()
        .find_map(|e| match &e.body {
            GameEvent::SongsShuffled { order } => Some(order.clone()),
            _ => None,
        })
        .expect("shuffle event");
    for (k, song) in order.iter().enumerate() {
        assert_eq!(g.players[Seat::new(2).clockwise(k, 4)].songs, [*song]);
    }
}

#[test]
fn g22_draft_keep_choices_are_simultaneous_and_passed_cards_move_when_all_have_chosen() {
    let (mut g, _) = new_game(4, Seat::new(1));
    assert_eq!(
        g.to_act(),
        vec![Seat::new(0), Seat::new(1), Seat::new(2), Seat::new(3)]
    );
    let pair3 = g.players[Seat::new(3)].pair.expect("pair");
    let events = act(&mut g, Seat::new(3), Action::Keep { card: pair3[1] });
    assert_eq!(g.to_act(), vec![Seat::new(0), Seat::new(1), Seat::new(2)]);
    // Only seat 3 learns which card it kept; nothing has moved to seat 0 yet.
    assert!(
        events
            .iter()
            .any(|e| e.audience == Audience::seat(Seat::new(3))
                && matches!(e.body, GameEvent::KeptCard { .. }))
    );
    assert_eq!(g.players[Seat::new(0)].hand.len(), 2);
    assert_eq!(
        g.apply(Seat::new(3), &Action::Keep { card: pair3[0] })
            .expect_err("chose")
            .code,
        RejectionCode::NotYourTurn
    );
    for seat in [2, 0, 1].map(Seat::new) {
        let card = g.players[seat].pair.expect("pair")[0];
        act(&mut g, seat, Action::Keep { card });
    }
    assert!(g.players[Seat::new(0)].hand.contains(&pair3[0]));
    assert!(g.players.iter().all(|p| p.hand.len() == 4 && p.pair.is_some()));
}

/// Plays random listed actions to the end, checking the rulebook's derived facts on the way.
fn random_game(seats: usize, seed: u64) -> ShrewdProducer {
    let (mut g, _) = ShrewdProducer::setup(Options::default(), seats, seed).expect("setup");
    let mut pick = crate::rng::GameRng::new(seed ^ 0xabcd);
    let mut rounds_seen = Vec::new();
    while !g.is_over() {
        if !rounds_seen.contains(&g.round) {
            rounds_seen.push(g.round);
            if g.round > 0 {
                // DERIVED 5: every player holds a Scout card at the start of every round.
                assert!(g.players.iter().all(|p| !p.hand.is_empty()), "round {}", g.round);
            }
        }
        if g.stage == Stage::Songs {
            // DERIVED 7: the Lv.2 and Lv.3 piles never run out.
            let seat = g.to_act()[0];
            assert!(
                g.legal_actions(seat)
                    .iter()
                    .any(|a| matches!(a, Action::TakeSong { .. }))
            );
        }
        let to_act = g.to_act();
        let seat = to_act[pick.below(to_act.len())];
        let legal = g.legal_actions(seat);
        let action = legal[pick.below(legal.len())];
        act(&mut g, seat, action);
    }
    assert_eq!(rounds_seen, (0..=12).collect::<Vec<u8>>());
    g
}

#[test]
fn the_game_ends_after_round_12_with_every_artist_revealed() {
    for (seats, seed) in [(4, 5), (3, 6), (4, 7), (3, 8)] {
        let mut g = random_game(seats, seed);
        assert_eq!(g.round, ROUNDS);
        assert!(g.artist_deck.is_empty() && g.revealed.is_empty());
        assert_eq!(
            g.apply(Seat::new(0), &Action::Pass).expect_err("over").code,
            RejectionCode::GameOver
        );
        assert!(g.to_act().is_empty());
        assert!(g.outcome().is_some());
        g.check_invariants().expect("invariants");
    }
}

#[test]
fn the_phase_machine_lists_every_action_type_each_phase_allows() {
    let machine = ShrewdProducer::machine();
    assert_eq!(machine.initial, "draft");
    let (mut g, _) = ShrewdProducer::setup(Options::default(), 4, 11).expect("setup");
    let mut pick = crate::rng::GameRng::new(11);
    let mut seen = std::collections::BTreeSet::new();
    while !g.is_over() {
        let phase = machine.phase(g.phase()).expect("phase in the machine");
        for seat in g.to_act() {
            for action in g.legal_actions(seat) {
                let json = serde_json::to_value(action).expect("json");
                let kind = json["type"].as_str().expect("tagged").to_owned();
                assert!(phase.actions.contains(&kind.as_str()), "{kind} in {}", phase.name);
                seen.insert((phase.name, kind));
            }
        }
        let seat = g.to_act()[0];
        let legal = g.legal_actions(seat);
        act(&mut g, seat, legal[pick.below(legal.len())]);
    }
    assert_eq!(g.phase(), "over");
    let listed: usize = machine.phases.iter().map(|p| p.actions.len()).sum();
    assert_eq!(seen.len(), listed, "every listed action type occurs: {seen:?}");
}

#[test]
fn scout_bids_go_back_to_none_and_every_played_card_is_discarded_after_the_round() {
    let mut g = all_red_raise();
    for seat in [1, 2, 3, 0] {
        act(&mut g, Seat::new(seat), Action::Pass);
    }
    choose_first(&mut g, Seat::new(0));
    assert!(
        g.players
            .iter()
            .all(|p| p.bid.is_none() && p.raised == 0 && !p.passed)
    );
    for id in ["R700a", "R300a", "R400a", "R500a"] {
        assert!(g.scout_discard.contains(&sc(id)));
    }
    assert!(!matches!(g.players[Seat::new(0)].bid, Some(ScoutBid::Substitute)));
}

// ---------------------------------------------------------------- conformance

fn options_for(i: usize) -> Options {
    Options {
        dual_fills_both: i % 4 < 2,
        substitute_counts_200: i % 8 < 6,
        starting_lead: (i % 5 == 4).then_some(Seat::new(i % 3)),
    }
}

/// Runs `games` conformance games with 3 seats and as many with 4, on two threads.
fn conformance_both_seat_counts(games: usize, seed: u64) {
    let run = |seats: usize, seed: u64| {
        let config = Config {
            games,
            seed,
            max_steps: 20_000,
            exhaustive: true,
        };
        conformance::run::<ShrewdProducer>(&config, |_| seats, options_for).unwrap_or_else(|e| panic!("{e}"))
    };
    let (three, four) = std::thread::scope(|s| {
        let three = s.spawn(|| run(3, seed));
        let four = run(4, seed + games as u64);
        (three.join().expect("3-seat run"), four)
    });
    assert_eq!(three.by_seats[3], games);
    assert_eq!(four.by_seats[4], games);
}

#[test]
fn conformance_2000_games_3_and_4_seats_both_dual_fills_both_values() {
    conformance_both_seat_counts(1_000, 1);
}

#[test]
#[ignore = "long run: cargo test -p roadie-engine conformance_20000 -- --ignored"]
fn conformance_20000_games() {
    conformance_both_seat_counts(10_000, 1_000_000);
}
