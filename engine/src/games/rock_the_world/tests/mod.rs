//! Rock the World: the rulebook's cases, one test per ruling, and the conformance suite.

use super::actions::*;
use super::components::*;
use super::events::*;
use super::rules;
use super::scenario::Scenario;
use super::state::*;
use crate::conformance::{self, Config};
use crate::{Audience, Event, Game, RejectionCode, Seat, Viewer};

use CharacterId::*;

/// A card by its printed id.
fn card(id: &str) -> PlayCardId {
    PlayCardId::find(id).expect("a printed play card")
}

fn fail(c: CharacterId) -> PlayCardId {
    card(&format!("fail-{}", c.as_str()))
}

/// A new game, seat 0 first.
fn new_game(seats: usize, options: Options) -> RockTheWorld {
    let options = Options {
        first_seat: Some(Seat::new(0)),
        ..options
    };
    RockTheWorld::setup(options, seats, 7).expect("setup").0
}

/// Changes `g` through the scenario builder, which checks the position still holds together.
fn change(g: &mut RockTheWorld, step: impl FnOnce(Scenario) -> Scenario) {
    *g = step(Scenario::from_game(g.clone()))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// `seat` has rolled and its cutout stands on `space`.
fn after_roll(g: &mut RockTheWorld, seat: Seat, space: u8) {
    change(g, |s| s.rolled(seat, space));
}

/// The next die shows `value`.
fn rig_roll(g: &mut RockTheWorld, value: u8) {
    change(g, |s| s.next_roll(value));
}

/// The next card drawn is `card`.
fn rig_top_card(g: &mut RockTheWorld, card: PlayCardId) {
    change(g, |s| s.top_card(card.id()));
}

/// Sets a seat's cash, booking the difference as paid by the bank (or taken in) so that money
/// stays accounted for.
fn set_cash(g: &mut RockTheWorld, seat: Seat, cash: u64) {
    change(g, |s| s.cash(seat, cash));
}

fn give(g: &mut RockTheWorld, seat: Seat, characters: &[CharacterId]) {
    change(g, |s| s.band(seat, characters));
}

/// Puts `seat`'s cutout on `space`.
fn move_to(g: &mut RockTheWorld, seat: Seat, space: u8) {
    change(g, |s| s.space(seat, space));
}

/// `seat` attempts to Rock the World.
fn rocking(g: &mut RockTheWorld, seat: Seat) {
    change(g, |s| s.rocker(seat));
}

/// `seat` holds exactly `tokens`, taken from (or returned to) the supply.
fn hold(g: &mut RockTheWorld, seat: Seat, tokens: Tokens) {
    change(g, |s| s.tokens(seat, tokens));
}

fn play(g: &mut RockTheWorld, seat: Seat, action: Action) -> Vec<Event<GameEvent>> {
    let events = g
        .apply(seat, &action)
        .unwrap_or_else(|r| panic!("{action:?} refused: {r}"));
    g.check_invariants().expect("invariants hold");
    events
}

fn public(events: &[Event<GameEvent>]) -> Vec<GameEvent> {
    events
        .iter()
        .filter(|e| e.audience == Audience::Everyone)
        .map(|e| e.body.clone())
        .collect()
}

fn claim(take: &[CharacterId]) -> Action {
    Action::Claim { take: take.to_vec() }
}

fn refused(g: &mut RockTheWorld, seat: Seat, action: Action) -> RejectionCode {
    let before = g.clone();
    let r = g.apply(seat, &action).expect_err("refused");
    assert_eq!(*g, before, "a refusal leaves the state untouched");
    assert!(!r.reason.is_empty());
    r.code
}

/// Every variant and seat count in turn (`seats_for`); most games capped at 20 turns a seat
/// (R36) to keep the suite fast, one in twenty uncapped so that natural ends (the rocker winning,
/// the last player standing) are played as well.
fn random_options(i: usize) -> Options {
    Options {
        variant: [Variant::Tournament, Variant::Friendly, Variant::ModifiedFriendly][i % 3],
        gig_after_claim: i % 7 == 3,
        max_turns_per_seat: if i % 20 == 19 { 0 } else { 20 },
        ..Options::default()
    }
}

fn seats_for(i: usize) -> usize {
    2 + (i / 3) % 3
}

#[test]
fn conformance_random_games_every_variant_and_seat_count() {
    let config = Config {
        games: 1_000,
        seed: 1,
        max_steps: 20_000,
        exhaustive: false,
    };
    let report = conformance::run::<RockTheWorld>(&config, seats_for, random_options)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.games, 1_000);
    assert!(report.by_seats[2..].iter().all(|&n| n > 300), "{report:?}");
}

#[test]
#[ignore = "long run: cargo test -p roadie-engine rock_the_world -- --ignored"]
fn conformance_long_run_of_10000_games() {
    let config = Config {
        games: 10_000,
        seed: 1_000_001,
        max_steps: 50_000,
        exhaustive: false,
    };
    // One game in ten uncapped, one in ten at the suggested cap of 100 turns a seat, the rest at 20.
    let options = |i| Options {
        max_turns_per_seat: match i % 10 {
            0 => 0,
            5 => SUGGESTED_TEST_TURN_CAP,
            _ => 20,
        },
        ..random_options(i)
    };
    let report =
        conformance::run::<RockTheWorld>(&config, seats_for, options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.games, 10_000);
}

// ---- The rulebook's own cases ----

/// Su (seat 0, red) on Nashville, where Axel Blaze (C01, value 2) stands; Kai (seat 1, blue)
/// there too, holding Goldie Groove (C07, yellow, value 5), an extra.
fn two_character_claim() -> RockTheWorld {
    let mut g = new_game(2, Options::default());
    after_roll(&mut g, Seat::new(0), 2);
    move_to(&mut g, Seat::new(1), 2);
    give(&mut g, Seat::new(1), &[C07]);
    g
}

#[test]
fn rulebook_claiming_two_characters_with_one_roll() {
    let mut g = two_character_claim();
    let listed = g.legal_actions(Seat::new(0));
    assert!(listed.contains(&claim(&[C01])));
    assert!(listed.contains(&claim(&[C01, C07])));
    rig_roll(&mut g, 5);
    let events = play(&mut g, Seat::new(0), claim(&[C01, C07]));
    assert_eq!(g.holders[C01.index()], Some(Seat::new(0)));
    assert_eq!(g.holders[C07.index()], Some(Seat::new(0)));
    assert!(public(&events).contains(&GameEvent::CharacterWon {
        seat: Seat::new(0),
        character: C07,
        from: Some(Seat::new(1))
    }));
    assert_eq!(g.band_value(Seat::new(0)), 10 + 2 + 5);
}

#[test]
fn rulebook_claiming_one_of_two_characters() {
    let mut g = two_character_claim();
    rig_roll(&mut g, 3);
    let events = play(&mut g, Seat::new(0), claim(&[C01, C07]));
    assert_eq!(g.holders[C01.index()], Some(Seat::new(0)));
    assert_eq!(g.holders[C07.index()], Some(Seat::new(1)));
    assert!(public(&events).contains(&GameEvent::CharacterMissed {
        seat: Seat::new(0),
        character: C07
    }));
}

#[test]
fn rulebook_claiming_neither_character_ends_the_turn() {
    let mut g = two_character_claim();
    rig_roll(&mut g, 1);
    play(&mut g, Seat::new(0), claim(&[C01, C07]));
    assert_eq!(g.holders[C01.index()], None);
    assert_eq!(g.holders[C07.index()], Some(Seat::new(1)));
    assert_eq!(
        g.to_act(),
        vec![Seat::new(1)],
        "the die is passed to the player on the left"
    );
    assert_eq!(g.step, Stage::Roll);
}

#[test]
fn rulebook_family_characters_are_not_claimable_by_opponents() {
    let mut g = two_character_claim();
    give(&mut g, Seat::new(1), &[C08]); // Deep Walker, blue: Kai's family
    let claims: Vec<Action> = g
        .legal_actions(Seat::new(0))
        .into_iter()
        .filter(|a| matches!(a, Action::Claim { .. }))
        .collect();
    assert_eq!(claims, vec![claim(&[C01]), claim(&[C01, C07])]);
    assert_eq!(
        refused(&mut g, Seat::new(0), claim(&[C01, C08])),
        RejectionCode::IllegalAction
    );
}

#[test]
fn rulebook_pulling_a_fail_card_is_the_only_way_to_lose_a_family_character() {
    let mut g = new_game(2, Options::default());
    give(&mut g, Seat::new(0), &[C01, C05, C11, C13]);
    after_roll(&mut g, Seat::new(0), 1);
    assert!(g.lead_flipped(Seat::new(0)));
    rig_top_card(&mut g, fail(C05));
    let events = play(&mut g, Seat::new(0), Action::Gig);
    assert_eq!(
        g.holders[C05.index()],
        None,
        "Rex Rumble goes back to Mexico City"
    );
    assert_eq!(g.board_character(7), Some(C05));
    let events = public(&events);
    assert!(events.contains(&GameEvent::CharacterReturned {
        seat: Seat::new(0),
        character: C05
    }));
    assert!(events.contains(&GameEvent::LeadTurned {
        seat: Seat::new(0),
        flipped: false
    }));
    assert!(
        !events.iter().any(|e| matches!(e, GameEvent::Paid { .. })),
        "nobody pays on a Fail"
    );
    assert_eq!(g.players[Seat::new(0)].cash, START_CASH);
}

#[test]
fn rulebook_complete_set_turns_the_lead_over_to_30() {
    let mut g = new_game(2, Options::default());
    give(&mut g, Seat::new(0), &[C01, C05, C11]);
    assert_eq!(g.band_value(Seat::new(0)), 10 + 2 + 3 + 4);
    after_roll(&mut g, Seat::new(0), 17);
    rig_roll(&mut g, 6);
    let events = play(&mut g, Seat::new(0), claim(&[C13]));
    assert!(public(&events).contains(&GameEvent::LeadTurned {
        seat: Seat::new(0),
        flipped: true
    }));
    assert!(g.lead_flipped(Seat::new(0)));
    assert_eq!(g.band_value(Seat::new(0)), 30);
    give(&mut g, Seat::new(0), &[C02]);
    assert_eq!(g.band_value(Seat::new(0)), 30 + 5, "R25: 30 plus extras only");
}

#[test]
fn rulebook_tokyo_has_5_red_icons_for_su() {
    assert_eq!(BOARD[16].name, "Tokyo");
    assert_eq!(BOARD[16].icons, [5, 0, 0, 0]);
    // R1's example: Su with band value 13 in Tokyo on a Success = 13 x 5 x $10,000.
    let mut g = new_game(2, Options::default());
    give(&mut g, Seat::new(1), &[C13]);
    give(&mut g, Seat::new(0), &[C05]);
    after_roll(&mut g, Seat::new(0), 17);
    assert_eq!(g.band_value(Seat::new(0)), 13);
    rig_top_card(&mut g, card("success-01"));
    let events = play(&mut g, Seat::new(0), Action::Gig);
    assert!(public(&events).iter().any(|e| matches!(
        e,
        GameEvent::CardDrawn {
            seat,
            earnings: 650_000,
            ..
        } if *seat == Seat::new(0)
    )));
    assert_eq!(g.players[Seat::new(0)].cash, START_CASH + 650_000);
}

#[test]
fn rulebook_super_success_doubles_the_earnings() {
    let mut g = new_game(2, Options::default());
    give(&mut g, Seat::new(1), &[C13]);
    give(&mut g, Seat::new(0), &[C05]);
    after_roll(&mut g, Seat::new(0), 17);
    rig_top_card(&mut g, card("super-1"));
    play(&mut g, Seat::new(0), Action::Gig);
    assert_eq!(g.players[Seat::new(0)].cash, START_CASH + 1_300_000);
}

#[test]
fn rulebook_deck_has_8_super_success_32_success_and_16_fail_cards() {
    let kinds: Vec<CardKind> = PlayCardId::all().map(PlayCardId::kind).collect();
    assert_eq!(DECK_SIZE, 56);
    assert_eq!(kinds.len(), DECK_SIZE);
    assert_eq!(kinds.iter().filter(|k| **k == CardKind::SuperSuccess).count(), 8);
    assert_eq!(kinds.iter().filter(|k| **k == CardKind::Success).count(), 32);
    for c in CharacterId::ALL {
        assert_eq!(kinds.iter().filter(|k| **k == CardKind::Fail(c)).count(), 1);
    }
    let g = new_game(3, Options::default());
    assert_eq!(g.deck.len(), 56);
}

#[test]
fn rulebook_bus_train_and_plane_destinations() {
    let reach = |t, from| {
        (1..=SPACES)
            .filter(|&to| rules::reaches(t, from, to))
            .collect::<Vec<u8>>()
    };
    assert_eq!(reach(Token::Bus, 1), vec![2, 3, 19, 20]);
    assert_eq!(
        reach(Token::Bus, 5),
        vec![3, 4, 6, 7],
        "Su on 5 can bus back to 4"
    );
    assert!(reach(Token::Train, 5).contains(&2), "or train back to 2");
    assert_eq!(reach(Token::Train, 3), vec![1, 2, 4, 5, 6]);
    assert_eq!(reach(Token::Train, 1), vec![2, 3, 4, 5, 6, 16, 17, 18, 19, 20]);
    assert_eq!(reach(Token::Train, 18), vec![1, 16, 17, 19, 20]);
    assert_eq!(reach(Token::Plane, 9).len(), 19);
    assert!(!rules::reaches(Token::Plane, 9, 9) && !rules::reaches(Token::Plane, 9, 21));
}

#[test]
fn rulebook_several_tokens_in_one_turn_and_each_leaves_play() {
    let mut g = new_game(2, Options::default());
    after_roll(&mut g, Seat::new(0), 3);
    hold(
        &mut g,
        Seat::new(0),
        Tokens {
            bus: 0,
            train: 2,
            plane: 0,
        },
    );
    play(
        &mut g,
        Seat::new(0),
        Action::Use {
            token: Token::Train,
            to: 6,
        },
    );
    play(
        &mut g,
        Seat::new(0),
        Action::Use {
            token: Token::Train,
            to: 9,
        },
    );
    assert_eq!(
        g.players[Seat::new(0)].space,
        9,
        "two chained trains turn a corner"
    );
    assert_eq!(g.spent.train, 2, "R20: in phase one a used token leaves play");
    assert_eq!(g.supply.train, 6);
}

#[test]
fn rulebook_one_token_a_turn_on_a_regular_city_two_on_a_corner() {
    let mut g = new_game(2, Options::default());
    set_cash(&mut g, Seat::new(0), 1_000_000);
    after_roll(&mut g, Seat::new(0), 4);
    play(&mut g, Seat::new(0), Action::Buy { token: Token::Plane });
    assert!(
        !g.legal_actions(Seat::new(0))
            .iter()
            .any(|a| matches!(a, Action::Buy { .. }))
    );
    assert_eq!(
        refused(&mut g, Seat::new(0), Action::Buy { token: Token::Bus }),
        RejectionCode::IllegalAction
    );

    after_roll(&mut g, Seat::new(0), 6);
    play(&mut g, Seat::new(0), Action::Buy { token: Token::Plane });
    play(&mut g, Seat::new(0), Action::Buy { token: Token::Plane });
    assert!(
        !g.legal_actions(Seat::new(0))
            .iter()
            .any(|a| matches!(a, Action::Buy { .. }))
    );
    assert_eq!(g.players[Seat::new(0)].tokens.plane, 3);
    assert_eq!(g.players[Seat::new(0)].cash, 1_000_000 - 3 * TOKEN_PRICE);
    assert_eq!(g.bank_received, 3 * TOKEN_PRICE);
}

#[test]
fn rulebook_rocker_takes_every_spent_token() {
    let mut g = new_game(3, Options::default());
    change(&mut g, |s| {
        s.spent(Tokens {
            bus: 2,
            train: 1,
            plane: 0,
        })
        .tokens(Seat::new(0), Tokens::default())
    });
    assert_eq!(
        g.supply,
        Tokens {
            bus: 6,
            train: 7,
            plane: 8,
        }
    );
    after_roll(&mut g, Seat::new(0), 9);
    let events = play(&mut g, Seat::new(0), Action::Declare);
    assert_eq!(g.rocker, Some(Seat::new(0)));
    assert_eq!(
        g.players[Seat::new(0)].tokens,
        Tokens {
            bus: 2,
            train: 1,
            plane: 0
        }
    );
    assert_eq!(g.spent, Tokens::default());
    assert!(public(&events).contains(&GameEvent::Declared {
        seat: Seat::new(0),
        took: Tokens {
            bus: 2,
            train: 1,
            plane: 0
        }
    }));
    assert_eq!(g.to_act(), vec![Seat::new(1)], "R22: declaring ends the turn");
    assert_eq!(g.phase(), "final_roll");
}

#[test]
fn rulebook_travel_tokens_are_recyclable_while_someone_rocks_the_world() {
    let mut g = new_game(2, Options::default());
    rocking(&mut g, Seat::new(1));
    after_roll(&mut g, Seat::new(0), 3);
    let tokens = Tokens {
        bus: 1,
        ..g.players[Seat::new(0)].tokens
    };
    hold(&mut g, Seat::new(0), tokens);
    let events = play(
        &mut g,
        Seat::new(0),
        Action::Use {
            token: Token::Bus,
            to: 1,
        },
    );
    assert_eq!(g.supply.bus, 8);
    assert_eq!(g.spent, Tokens::default());
    assert!(public(&events).contains(&GameEvent::TokenSpent {
        seat: Seat::new(0),
        token: Token::Bus,
        to: TokenDestination::Supply
    }));
}

#[test]
fn rulebook_rocker_earns_nothing_and_never_plays_a_gig() {
    let mut g = new_game(2, Options::default());
    rocking(&mut g, Seat::new(0));
    after_roll(&mut g, Seat::new(0), 1);
    assert!(!g.legal_actions(Seat::new(0)).contains(&Action::Gig));
    assert_eq!(
        refused(&mut g, Seat::new(0), Action::Gig),
        RejectionCode::IllegalAction
    );
    assert!(
        !g.legal_actions(Seat::new(0)).contains(&Action::Declare),
        "R22: only one rocker"
    );
}

#[test]
fn rulebook_outsiders_gig_on_the_rocker_who_must_pay() {
    let mut g = new_game(2, Options::default());
    rocking(&mut g, Seat::new(1));
    set_cash(&mut g, Seat::new(1), 500_000);
    move_to(&mut g, Seat::new(1), 1);
    after_roll(&mut g, Seat::new(0), 1);
    rig_top_card(&mut g, card("success-01"));
    play(&mut g, Seat::new(0), Action::Gig);
    assert_eq!(
        g.players[Seat::new(1)].cash,
        300_000,
        "10 x 2 red icons x $10,000"
    );
    assert_eq!(g.players[Seat::new(0)].cash, START_CASH + 400_000);
    assert_eq!(g.rocker, Some(Seat::new(1)), "paid in full: still rocking");
}

#[test]
fn rulebook_rocker_must_claim_every_extra_before_any_family_character() {
    let mut g = new_game(3, Options::default());
    rocking(&mut g, Seat::new(0));
    after_roll(&mut g, Seat::new(0), 1);
    move_to(&mut g, Seat::new(1), 1);
    give(&mut g, Seat::new(1), &[C08, C03]); // Kai: Deep Walker (family), Sunny Strum (extra)
    give(&mut g, Seat::new(2), &[C04]); // Goldie elsewhere: Jade Skank (extra)
    move_to(&mut g, Seat::new(2), 12);
    let claims = |g: &RockTheWorld| -> Vec<Action> {
        g.legal_actions(Seat::new(0))
            .into_iter()
            .filter(|a| matches!(a, Action::Claim { .. }))
            .collect()
    };
    assert_eq!(claims(&g), vec![claim(&[C03])]);
    change(&mut g, |s| s.home(&[C03]));
    assert_eq!(claims(&g), vec![], "Goldie still holds an extra elsewhere");
    assert_eq!(
        refused(&mut g, Seat::new(0), claim(&[C08])),
        RejectionCode::IllegalAction
    );
    give(&mut g, Seat::new(0), &[C04]);
    assert_eq!(claims(&g), vec![claim(&[C08])]);
    rig_roll(&mut g, 2);
    play(&mut g, Seat::new(0), claim(&[C08]));
    assert_eq!(g.holders[C08.index()], Some(Seat::new(0)));
    assert!(
        g.view(Viewer::Spectator).players[0]
            .band
            .iter()
            .all(|m| m.star_side)
    );
}

#[test]
fn rulebook_the_rocker_wins_on_the_sixteenth_character() {
    let mut g = new_game(4, Options::default());
    rocking(&mut g, Seat::new(0));
    let fifteen: Vec<CharacterId> = CharacterId::ALL[..15].to_vec();
    give(&mut g, Seat::new(0), &fifteen);
    set_cash(&mut g, Seat::new(1), 300_000);
    set_cash(&mut g, Seat::new(2), 300_000);
    set_cash(&mut g, Seat::new(3), 100_000);
    after_roll(&mut g, Seat::new(0), 20);
    rig_roll(&mut g, 4);
    let events = play(&mut g, Seat::new(0), claim(&[C16]));
    assert!(public(&events).contains(&GameEvent::GameOver {
        end: End::RockedTheWorld { rocker: Seat::new(0) }
    }));
    assert!(g.to_act().is_empty());
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.winners, vec![Seat::new(0)]);
    let ranks: Vec<usize> = outcome.scores.iter().map(|s| s.rank).collect();
    assert_eq!(
        ranks,
        vec![1, 2, 2, 4],
        "R35/R40: outsiders by cash, competition ranking"
    );
    let points: Vec<i64> = outcome.scores.iter().map(|s| s.total).collect();
    assert_eq!(points, vec![2, 0, 0, 0]);
    assert_eq!(
        outcome.scores[1].tiebreaks[0].points, 300_000,
        "the score sheet records cash"
    );
    assert_eq!(
        refused(&mut g, Seat::new(0), Action::Roll),
        RejectionCode::GameOver
    );
}

/// Seat 1 rocks the world with $50,000 on New York; seat 0 gigs there on a Success (X = $200,000).
fn rocker_cannot_pay(seats: usize, variant: Variant) -> (RockTheWorld, Vec<GameEvent>) {
    let mut g = new_game(
        seats,
        Options {
            variant,
            ..Options::default()
        },
    );
    rocking(&mut g, Seat::new(1));
    set_cash(&mut g, Seat::new(1), 50_000);
    move_to(&mut g, Seat::new(1), 1);
    give(&mut g, Seat::new(1), &[C02, C05, C09]);
    hold(
        &mut g,
        Seat::new(1),
        Tokens {
            bus: 1,
            train: 0,
            plane: 1,
        },
    );
    after_roll(&mut g, Seat::new(0), 1);
    rig_top_card(&mut g, card("success-01"));
    let events = play(&mut g, Seat::new(0), Action::Gig);
    (g, public(&events))
}

#[test]
fn rulebook_rocker_eliminated_when_he_cannot_pay_tournament_reverts_to_phase_one() {
    let (g, events) = rocker_cannot_pay(3, Variant::Tournament);
    assert!(events.contains(&GameEvent::Paid {
        from: Payer::Seat(Seat::new(1)),
        to: Seat::new(0),
        amount: 50_000,
        owed: 200_000
    }));
    assert!(events.contains(&GameEvent::Eliminated {
        seat: Seat::new(1),
        by: Seat::new(0)
    }));
    assert!(g.players[Seat::new(1)].out);
    assert_eq!(g.players[Seat::new(1)].cash, 0);
    assert_eq!(g.rocker, None);
    for c in [C02, C05, C09] {
        assert_eq!(g.holders[c.index()], None, "R32: characters back on the board");
    }
    assert_eq!(
        g.supply,
        Tokens::each(TOKEN_SUPPLY),
        "R32: tokens back for re-sale"
    );
    assert!(events.contains(&GameEvent::PhaseOneResumed));
    assert_eq!(g.phase(), "phase_one_roll");
    assert_eq!(
        g.to_act(),
        vec![Seat::new(2)],
        "the turn passes left from the performer, skipping the rocker"
    );
}

#[test]
fn r32_after_a_tournament_elimination_spent_tokens_leave_play_again() {
    let (mut g, _) = rocker_cannot_pay(3, Variant::Tournament);
    after_roll(&mut g, Seat::new(2), 5);
    let tokens = Tokens {
        bus: 1,
        ..g.players[Seat::new(2)].tokens
    };
    hold(&mut g, Seat::new(2), tokens);
    play(
        &mut g,
        Seat::new(2),
        Action::Use {
            token: Token::Bus,
            to: 4,
        },
    );
    assert_eq!(g.spent.bus, 1);
    assert!(
        g.legal_actions(Seat::new(2)).contains(&Action::Declare),
        "anyone remaining may declare"
    );
}

#[test]
fn r38_a_tournament_elimination_leaving_one_player_ends_the_game() {
    let (g, events) = rocker_cannot_pay(2, Variant::Tournament);
    assert!(events.contains(&GameEvent::GameOver {
        end: End::LastStanding { seat: Seat::new(0) }
    }));
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.winners, vec![Seat::new(0)]);
    assert_eq!(outcome.scores[0].total, WIN_POINTS);
    assert_eq!(outcome.scores[1].rank, 2);
}

#[test]
fn r33_friendly_elimination_ends_the_game_with_the_outsiders_tied() {
    let (g, events) = rocker_cannot_pay(3, Variant::Friendly);
    assert!(events.contains(&GameEvent::GameOver {
        end: End::RockerEliminated { rocker: Seat::new(1) }
    }));
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.winners, vec![Seat::new(0), Seat::new(2)]);
    let points: Vec<i64> = outcome.scores.iter().map(|s| s.total).collect();
    assert_eq!(points, vec![1, 0, 1]);
    assert_eq!(outcome.scores[1].rank, 3, "the rocker is last");
    assert_eq!(
        g.holders[C02.index()],
        Some(Seat::new(1)),
        "R39: the table is left as it stands"
    );
}

#[test]
fn r33_r39_a_friendly_elimination_leaves_the_rocker_his_band_star_chip_and_cutout() {
    let (g, events) = rocker_cannot_pay(3, Variant::Friendly);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GameEvent::RockerCleared { .. })),
        "R33: the game ends at once, nothing is cleared"
    );
    assert_eq!(g.rocker, Some(Seat::new(1)));
    let view = g.view(Viewer::Spectator);
    assert_eq!(
        view.rocker,
        Some(Seat::new(1)),
        "R39: the star chip stays on the table"
    );
    let rocker = &view.players[1];
    assert!(rocker.rocker && rocker.eliminated);
    let band: Vec<CharacterId> = rocker.band.iter().map(|m| m.character).collect();
    assert_eq!(band, vec![C02, C05, C09], "R39: the rocker keeps his band");
    assert!(rocker.band.iter().all(|m| m.star_side));
    assert_eq!(rocker.space, Some(1), "R39: the table is left as it stands");
    assert_eq!(
        view.board[0].cutouts,
        vec![Seat::new(0), Seat::new(1), Seat::new(2)]
    );
    assert_eq!(g.supply.total(), 22, "his tokens stay with him");
}

#[test]
fn r32_an_eliminated_rockers_cutout_leaves_the_board_in_the_view() {
    for variant in [Variant::Tournament, Variant::ModifiedFriendly] {
        let (g, _) = rocker_cannot_pay(3, variant);
        let view = g.view(Viewer::Spectator);
        assert_eq!(view.rocker, None, "{variant:?}: R32 removes the star chip");
        assert_eq!(view.players[1].space, None, "{variant:?}: R32 removes the cutout");
        assert!(view.players[1].band.is_empty());
        assert_eq!(
            view.board[0].cutouts,
            vec![Seat::new(0), Seat::new(2)],
            "{variant:?}"
        );
    }
}

/// Seat 1 (Kai, blue) rocks the world holding his whole family and cannot pay seat 0's gig.
fn flipped_rocker_cannot_pay(variant: Variant) -> (RockTheWorld, Vec<GameEvent>) {
    let mut g = new_game(
        3,
        Options {
            variant,
            ..Options::default()
        },
    );
    rocking(&mut g, Seat::new(1));
    set_cash(&mut g, Seat::new(1), 50_000);
    move_to(&mut g, Seat::new(1), 1);
    give(&mut g, Seat::new(1), &[C02, C08, C09, C16]);
    assert!(g.lead_flipped(Seat::new(1)));
    after_roll(&mut g, Seat::new(0), 1);
    rig_top_card(&mut g, card("success-01"));
    let events = play(&mut g, Seat::new(0), Action::Gig);
    (g, public(&events))
}

#[test]
fn r25_r32_the_eliminated_rockers_lead_flips_back_and_an_event_says_so() {
    for variant in [Variant::Tournament, Variant::ModifiedFriendly] {
        let (g, events) = flipped_rocker_cannot_pay(variant);
        assert!(
            !g.lead_flipped(Seat::new(1)),
            "{variant:?}: his family has left the band"
        );
        assert!(
            events.contains(&GameEvent::LeadTurned {
                seat: Seat::new(1),
                flipped: false
            }),
            "{variant:?}: R25 \"it flips back at once\" is announced"
        );
        assert!(!g.view(Viewer::Spectator).players[1].lead_flipped);
    }
}

#[test]
fn r39_a_friendly_elimination_leaves_the_rockers_lead_turned_over() {
    let (g, events) = flipped_rocker_cannot_pay(Variant::Friendly);
    assert!(g.lead_flipped(Seat::new(1)));
    assert!(!events.iter().any(|e| matches!(e, GameEvent::LeadTurned { .. })));
    assert_eq!(g.view(Viewer::Spectator).players[1].band_value, 30);
}

#[test]
fn r34_modified_friendly_deals_characters_then_tokens_clockwise_from_the_performer() {
    let (g, events) = rocker_cannot_pay(3, Variant::ModifiedFriendly);
    let dealt: Vec<(Seat, DealtItem)> = events
        .iter()
        .filter_map(|e| match e {
            GameEvent::Dealt { seat, item, .. } => Some((*seat, *item)),
            _ => None,
        })
        .collect();
    assert_eq!(
        dealt,
        vec![
            (Seat::new(0), DealtItem::Character(C02)),
            (Seat::new(2), DealtItem::Character(C05)),
            (Seat::new(0), DealtItem::Character(C09)),
            (Seat::new(2), DealtItem::Token(Token::Bus)),
            (Seat::new(0), DealtItem::Token(Token::Plane)),
        ]
    );
    assert_eq!(g.holders[C05.index()], Some(Seat::new(2)));
    assert_eq!(g.players[Seat::new(0)].tokens.plane, 1);
    assert_eq!(g.phase(), "phase_one_roll");
    assert_eq!(g.to_act(), vec![Seat::new(2)]);
}

// ---- One test per ruling ----

#[test]
fn r1_gig_pays_band_value_times_icons_times_10000_and_start_cash_is_100000() {
    assert_eq!(MONEY_UNIT, 10_000);
    let g = new_game(2, Options::default());
    assert!(g.players.iter().all(|p| p.cash == 100_000));
}

#[test]
fn r2_tokens_cost_100000_and_none_is_sold_out_of_stock_or_on_credit() {
    let mut g = new_game(2, Options::default());
    after_roll(&mut g, Seat::new(0), 1);
    hold(
        &mut g,
        Seat::new(1),
        Tokens {
            bus: 8,
            train: 8,
            plane: 0,
        },
    );
    let buys: Vec<Action> = g
        .legal_actions(Seat::new(0))
        .into_iter()
        .filter(|a| matches!(a, Action::Buy { .. }))
        .collect();
    assert_eq!(buys, vec![Action::Buy { token: Token::Plane }]);
    play(&mut g, Seat::new(0), Action::Buy { token: Token::Plane });
    assert_eq!(g.players[Seat::new(0)].cash, 0);
    assert_eq!(
        refused(&mut g, Seat::new(0), Action::Buy { token: Token::Plane }),
        RejectionCode::IllegalAction
    );
}

#[test]
fn r6_gig_paid_by_bank_and_every_opponent_present() {
    let mut g = new_game(4, Options::default());
    after_roll(&mut g, Seat::new(1), 1);
    move_to(&mut g, Seat::new(2), 1);
    move_to(&mut g, Seat::new(3), 1);
    move_to(&mut g, Seat::new(0), 1);
    set_cash(&mut g, Seat::new(2), 500_000);
    set_cash(&mut g, Seat::new(3), 50_000);
    set_cash(&mut g, Seat::new(0), 0);
    rig_top_card(&mut g, card("success-01"));
    // Kai (blue) on New York: 10 x 2 blue icons x $10,000 = $200,000 from each payer.
    let events = play(&mut g, Seat::new(1), Action::Gig);
    let paid: Vec<(Payer, u64)> = public(&events)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::Paid {
                from, amount, owed, ..
            } => {
                assert_eq!(owed, 200_000);
                Some((from, amount))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        paid,
        vec![
            (Payer::Bank, 200_000),
            (Payer::Seat(Seat::new(2)), 200_000),
            (Payer::Seat(Seat::new(3)), 50_000),
            (Payer::Seat(Seat::new(0)), 0),
        ],
        "R26: bank first, then clockwise from the performer"
    );
    assert_eq!(g.players[Seat::new(1)].cash, START_CASH + 450_000);
    assert!(
        !g.players[Seat::new(3)].out && !g.players[Seat::new(0)].out,
        "R27: an outsider who pays short stays in"
    );
    assert_eq!(g.to_act(), vec![Seat::new(2)]);
}

#[test]
fn r6_super_success_doubles_every_payers_share() {
    let mut g = new_game(2, Options::default());
    after_roll(&mut g, Seat::new(0), 1);
    move_to(&mut g, Seat::new(1), 1);
    set_cash(&mut g, Seat::new(1), 1_000_000);
    rig_top_card(&mut g, card("super-1"));
    play(&mut g, Seat::new(0), Action::Gig);
    assert_eq!(g.players[Seat::new(1)].cash, 600_000);
    assert_eq!(g.players[Seat::new(0)].cash, START_CASH + 800_000);
}

#[test]
fn r7_r28_a_fail_naming_a_character_not_in_the_band_has_no_effect() {
    let mut g = new_game(2, Options::default());
    give(&mut g, Seat::new(1), &[C05]);
    after_roll(&mut g, Seat::new(0), 6);
    rig_top_card(&mut g, fail(C05));
    play(&mut g, Seat::new(0), Action::Gig);
    assert_eq!(g.holders[C05.index()], Some(Seat::new(1)));
    assert_eq!(g.players[Seat::new(0)].cash, START_CASH);
}

#[test]
fn r11_r13_setup_every_cutout_on_new_york_and_a_random_first_player() {
    let (g, events) = RockTheWorld::setup(Options::default(), 4, 11).expect("setup");
    assert!(
        g.players
            .iter()
            .all(|p| p.space == 1 && p.cash == START_CASH && p.tokens.total() == 0)
    );
    assert_eq!(g.supply, Tokens::each(8));
    assert_eq!(g.holders, [None; 16]);
    assert_eq!(g.rocker, None);
    assert_eq!(g.phase(), "phase_one_roll");
    let first = g.active;
    let drawn = GameEvent::FirstSeat {
        seat: first,
        drawn: true,
    };
    assert!(events.contains(&Event::sealed(drawn.clone())));
    assert!(events.contains(&Event::public(drawn)));
    let shuffled = events.iter().find_map(|e| match &e.body {
        GameEvent::DeckShuffled { order } => Some((e.audience.clone(), order.len())),
        _ => None,
    });
    assert_eq!(shuffled, Some((Audience::Nobody, 56)));
    let firsts: std::collections::BTreeSet<Seat> = (0..40)
        .map(|seed| {
            RockTheWorld::setup(Options::default(), 4, seed)
                .expect("setup")
                .0
                .active
        })
        .collect();
    assert_eq!(firsts.len(), 4, "every seat can be drawn first");
}

#[test]
fn r12_seats_take_colours_in_order_and_unused_colours_are_extras_for_everyone() {
    let g = new_game(2, Options::default());
    assert_eq!(
        (g.players[Seat::new(0)].colour, g.players[Seat::new(1)].colour),
        (Colour::Red, Colour::Blue)
    );
    assert!(
        g.is_extra(Seat::new(0), C03) && g.is_extra(Seat::new(1), C03),
        "yellow is unused with two seats"
    );
    let options = Options {
        colours: vec![Colour::Green, Colour::Red],
        ..Options::default()
    };
    let g = new_game(2, options);
    assert_eq!(g.players[Seat::new(0)].colour, Colour::Green);
    assert_eq!(g.view(Viewer::Seat(Seat::new(0))).players[0].lead, Colour::Green);
    assert_eq!(LEADS[Colour::Green.index()].name, "Ivy");
    for (colours, seats) in [(vec![Colour::Red, Colour::Red], 2), (vec![Colour::Red], 2)] {
        let options = Options {
            colours,
            ..Options::default()
        };
        assert!(RockTheWorld::setup(options, seats, 1).is_err());
    }
    let options = Options {
        first_seat: Some(Seat::new(3)),
        ..Options::default()
    };
    assert!(RockTheWorld::setup(options, 3, 1).is_err());
    assert!(RockTheWorld::setup(Options::default(), 5, 1).is_err());
}

#[test]
fn r14_die_rolls_are_public_and_sealed_and_the_deck_order_is_hidden() {
    let mut g = new_game(3, Options::default());
    let events = play(&mut g, Seat::new(0), Action::Roll);
    let rolls: Vec<&Event<GameEvent>> = events
        .iter()
        .filter(|e| matches!(e.body, GameEvent::DieRolled { .. }))
        .collect();
    assert_eq!(rolls.len(), 2);
    assert_eq!(rolls[0].audience, Audience::Nobody);
    assert_eq!(rolls[1].audience, Audience::Everyone);
    assert_eq!(rolls[0].body, rolls[1].body);
    let top = g.deck.last().expect("a deck").id().to_owned();
    let secrets = g.secrets(Viewer::Seat(Seat::new(1)));
    assert!(secrets.contains(&top));
    assert_eq!(secrets.len(), 56);
    let view = serde_json::to_string(&g.view(Viewer::Seat(Seat::new(1)))).expect("view serializes");
    assert!(!view.contains(&format!("\"{top}\"")));
    assert!(!view.contains("rng"));
}

#[test]
fn r15_only_the_active_seat_acts_and_every_step_is_posted() {
    let mut g = new_game(3, Options::default());
    assert_eq!(g.to_act(), vec![Seat::new(0)]);
    assert!(g.legal_actions(Seat::new(1)).is_empty());
    assert_eq!(
        refused(&mut g, Seat::new(1), Action::Roll),
        RejectionCode::NotYourTurn
    );
    play(&mut g, Seat::new(0), Action::Roll);
    assert_eq!(
        g.legal_actions(Seat::new(0)).last(),
        Some(&Action::EndTurn),
        "a lone end_turn is still asked"
    );
}

#[test]
fn r16_a_turn_begins_with_the_roll_moving_clockwise_past_space_20() {
    let mut g = new_game(2, Options::default());
    assert_eq!(g.legal_actions(Seat::new(0)), vec![Action::Roll]);
    assert_eq!(
        refused(&mut g, Seat::new(0), Action::EndTurn),
        RejectionCode::IllegalAction
    );
    assert_eq!(
        refused(&mut g, Seat::new(0), Action::Declare),
        RejectionCode::IllegalAction
    );
    move_to(&mut g, Seat::new(0), 19);
    rig_roll(&mut g, 3);
    let events = play(&mut g, Seat::new(0), Action::Roll);
    assert_eq!(g.players[Seat::new(0)].space, 2);
    assert_eq!(
        g.players[Seat::new(0)].cash,
        START_CASH,
        "R17: passing New York pays nothing"
    );
    assert!(public(&events).contains(&GameEvent::Moved {
        seat: Seat::new(0),
        from: 19,
        to: 2,
        by: MoveBy::Die
    }));
    assert_eq!(
        refused(&mut g, Seat::new(0), Action::Roll),
        RejectionCode::IllegalAction
    );
}

#[test]
fn r19_the_first_token_used_closes_buying() {
    let mut g = new_game(2, Options::default());
    set_cash(&mut g, Seat::new(0), 1_000_000);
    after_roll(&mut g, Seat::new(0), 1);
    play(&mut g, Seat::new(0), Action::Buy { token: Token::Bus });
    play(
        &mut g,
        Seat::new(0),
        Action::Use {
            token: Token::Bus,
            to: 2,
        },
    );
    assert!(
        !g.legal_actions(Seat::new(0))
            .iter()
            .any(|a| matches!(a, Action::Buy { .. }))
    );
    assert_eq!(
        refused(&mut g, Seat::new(0), Action::Buy { token: Token::Bus }),
        RejectionCode::IllegalAction
    );
}

#[test]
fn r20_a_token_needs_a_legal_destination_and_one_in_hand() {
    let mut g = new_game(2, Options::default());
    after_roll(&mut g, Seat::new(0), 1);
    assert_eq!(
        refused(
            &mut g,
            Seat::new(0),
            Action::Use {
                token: Token::Plane,
                to: 9
            }
        ),
        RejectionCode::IllegalAction
    );
    let tokens = Tokens {
        bus: 1,
        ..g.players[Seat::new(0)].tokens
    };
    hold(&mut g, Seat::new(0), tokens);
    let uses: Vec<Action> = g
        .legal_actions(Seat::new(0))
        .into_iter()
        .filter(|a| matches!(a, Action::Use { .. }))
        .collect();
    assert_eq!(uses.len(), 4);
    assert_eq!(
        refused(
            &mut g,
            Seat::new(0),
            Action::Use {
                token: Token::Bus,
                to: 4
            }
        ),
        RejectionCode::IllegalAction
    );
}

#[test]
fn r22_a_declarer_holding_all_16_characters_wins_at_once() {
    let mut g = new_game(2, Options::default());
    give(&mut g, Seat::new(0), &CharacterId::ALL);
    after_roll(&mut g, Seat::new(0), 1);
    let events = play(&mut g, Seat::new(0), Action::Declare);
    assert!(public(&events).contains(&GameEvent::GameOver {
        end: End::RockedTheWorld { rocker: Seat::new(0) }
    }));
}

#[test]
fn r23_declining_a_claim_never_allows_a_gig() {
    let mut g = new_game(2, Options::default());
    after_roll(&mut g, Seat::new(0), 2);
    let listed = g.legal_actions(Seat::new(0));
    assert!(listed.contains(&claim(&[C01])));
    assert!(
        !listed.contains(&Action::Gig),
        "Nashville is not open while Axel Blaze stands there"
    );
    assert_eq!(
        refused(&mut g, Seat::new(0), Action::Gig),
        RejectionCode::IllegalAction
    );
    play(&mut g, Seat::new(0), Action::EndTurn);
    assert_eq!(g.to_act(), vec![Seat::new(1)]);
}

#[test]
fn r24_claims_must_include_the_board_character_in_ascending_order() {
    let mut g = two_character_claim();
    assert_eq!(
        refused(&mut g, Seat::new(0), claim(&[C07])),
        RejectionCode::IllegalAction
    );
    assert_eq!(
        refused(&mut g, Seat::new(0), claim(&[C07, C01])),
        RejectionCode::IllegalAction
    );
    assert_eq!(
        refused(&mut g, Seat::new(0), claim(&[C01, C01])),
        RejectionCode::IllegalAction
    );
    assert_eq!(
        refused(&mut g, Seat::new(0), claim(&[])),
        RejectionCode::IllegalAction
    );
    after_roll(&mut g, Seat::new(0), 1);
    assert!(
        !g.legal_actions(Seat::new(0))
            .iter()
            .any(|a| matches!(a, Action::Claim { .. })),
        "no claim on a corner"
    );
}

#[test]
fn r5_r24_one_roll_against_one_chosen_character_of_each_opponent_present() {
    let mut g = new_game(3, Options::default());
    after_roll(&mut g, Seat::new(0), 2);
    move_to(&mut g, Seat::new(1), 2);
    move_to(&mut g, Seat::new(2), 2);
    give(&mut g, Seat::new(1), &[C03, C04]); // two extras for Kai
    give(&mut g, Seat::new(2), &[C06]); // one extra for Goldie
    let claims: Vec<Action> = g
        .legal_actions(Seat::new(0))
        .into_iter()
        .filter(|a| matches!(a, Action::Claim { .. }))
        .collect();
    assert_eq!(claims.len(), 3 * 2, "(none, C03, C04) x (none, C06)");
    assert!(claims.contains(&claim(&[C01, C04, C06])));
    assert_eq!(
        refused(&mut g, Seat::new(0), claim(&[C01, C03, C04])),
        RejectionCode::IllegalAction
    );
    rig_roll(&mut g, 3);
    play(&mut g, Seat::new(0), claim(&[C01, C04, C06]));
    assert_eq!(
        [C01, C04, C06].map(|c| g.holders[c.index()]),
        [Some(Seat::new(0)), Some(Seat::new(0)), Some(Seat::new(0))]
    );
}

#[test]
fn r24_option_gig_after_claim_offers_a_gig_once_the_board_character_is_taken() {
    let options = Options {
        gig_after_claim: true,
        ..Options::default()
    };
    let mut g = new_game(2, options);
    after_roll(&mut g, Seat::new(0), 2);
    rig_roll(&mut g, 6);
    play(&mut g, Seat::new(0), claim(&[C01]));
    assert_eq!(g.phase(), "phase_one_after_claim");
    assert_eq!(g.legal_actions(Seat::new(0)), vec![Action::Gig, Action::EndTurn]);
    rig_top_card(&mut g, card("success-01"));
    play(&mut g, Seat::new(0), Action::Gig);
    assert_eq!(g.players[Seat::new(0)].cash, START_CASH + 12 * 3 * MONEY_UNIT);
    assert_eq!(g.to_act(), vec![Seat::new(1)]);
}

#[test]
fn r42_gig_after_claim_never_applies_to_the_rocker() {
    let options = Options {
        gig_after_claim: true,
        ..Options::default()
    };
    let mut g = new_game(2, options);
    rocking(&mut g, Seat::new(0));
    after_roll(&mut g, Seat::new(0), 2);
    rig_roll(&mut g, 6);
    play(&mut g, Seat::new(0), claim(&[C01]));
    assert_eq!(g.to_act(), vec![Seat::new(1)]);
    assert_eq!(g.step, Stage::Roll);
}

#[test]
fn r27_a_zero_debt_never_eliminates_the_rocker() {
    let mut g = new_game(2, Options::default());
    rocking(&mut g, Seat::new(1));
    set_cash(&mut g, Seat::new(1), 0);
    give(&mut g, Seat::new(1), &[C02]);
    move_to(&mut g, Seat::new(1), 3);
    after_roll(&mut g, Seat::new(0), 3); // Memphis: no red icons, open since Bo Slide is held
    rig_top_card(&mut g, card("super-1"));
    play(&mut g, Seat::new(0), Action::Gig);
    assert_eq!(g.rocker, Some(Seat::new(1)));
    assert!(!g.players[Seat::new(1)].out);
}

#[test]
fn r29_an_empty_deck_is_reshuffled_as_a_sealed_event() {
    let mut g = new_game(2, Options::default());
    change(&mut g, Scenario::deck_spent);
    after_roll(&mut g, Seat::new(0), 1);
    let events = play(&mut g, Seat::new(0), Action::Gig);
    let shuffled = events
        .iter()
        .find(|e| matches!(e.body, GameEvent::DeckShuffled { .. }));
    assert_eq!(shuffled.map(|e| e.audience.clone()), Some(Audience::Nobody));
    assert!(public(&events).contains(&GameEvent::DeckReshuffled { cards: 56 }));
    assert_eq!((g.deck.len(), g.discard.len()), (55, 1));
}

#[test]
fn r30_the_rocker_claims_on_any_space_from_each_outsider_present() {
    let mut g = new_game(3, Options::default());
    rocking(&mut g, Seat::new(0));
    after_roll(&mut g, Seat::new(0), 11);
    move_to(&mut g, Seat::new(1), 11);
    move_to(&mut g, Seat::new(2), 11);
    give(&mut g, Seat::new(1), &[C03]);
    give(&mut g, Seat::new(2), &[C02]);
    let claims: Vec<Action> = g
        .legal_actions(Seat::new(0))
        .into_iter()
        .filter(|a| matches!(a, Action::Claim { .. }))
        .collect();
    assert_eq!(claims, vec![claim(&[C02]), claim(&[C02, C03]), claim(&[C03])]);
}

#[test]
fn r31_outsiders_cannot_claim_the_rockers_characters_or_declare() {
    let mut g = new_game(2, Options::default());
    rocking(&mut g, Seat::new(1));
    move_to(&mut g, Seat::new(1), 2);
    give(&mut g, Seat::new(1), &[C03]);
    after_roll(&mut g, Seat::new(0), 2);
    let listed = g.legal_actions(Seat::new(0));
    assert!(listed.contains(&claim(&[C01])));
    assert!(!listed.contains(&claim(&[C01, C03])));
    assert!(!listed.contains(&Action::Declare));
}

#[test]
fn r36_the_turn_cap_ends_the_game_and_the_richest_wins() {
    let options = Options {
        max_turns_per_seat: 1,
        ..Options::default()
    };
    let mut g = new_game(2, options.clone());
    play(&mut g, Seat::new(0), Action::Roll);
    play(&mut g, Seat::new(0), Action::EndTurn);
    set_cash(&mut g, Seat::new(1), 200_000);
    play(&mut g, Seat::new(1), Action::Roll);
    let events = play(&mut g, Seat::new(1), Action::EndTurn);
    assert!(public(&events).contains(&GameEvent::GameOver {
        end: End::TurnCap { turns: 1 }
    }));
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.winners, vec![Seat::new(1)]);
    assert_eq!(
        (outcome.scores[1].total, outcome.scores[0].total),
        (WIN_POINTS, 0)
    );

    let mut g = new_game(2, options);
    for seat in [0, 1] {
        play(&mut g, Seat::new(seat), Action::Roll);
        play(&mut g, Seat::new(seat), Action::EndTurn);
    }
    let outcome = g.outcome().expect("over");
    assert_eq!(
        outcome.winners,
        vec![Seat::new(0), Seat::new(1)],
        "tied richest share first place"
    );
    assert!(outcome.scores.iter().all(|s| s.total == TIE_POINTS));
}

#[test]
fn r36_the_turn_cap_is_off_by_default() {
    assert_eq!(Options::default().max_turns_per_seat, 0);
    assert_eq!(Options::default().variant, Variant::Tournament);
    assert!(!Options::default().gig_after_claim);
    let json = serde_json::json!({"variant": "modified_friendly", "max_turns_per_seat": 100});
    let options: Options = serde_json::from_value(json).expect("options parse");
    assert_eq!(options.variant, Variant::ModifiedFriendly);
    assert!(serde_json::from_value::<Options>(serde_json::json!({"turn_cap": 3})).is_err());
}

#[test]
fn r36_a_turn_cap_above_the_maximum_is_refused_at_setup() {
    let capped = |max_turns_per_seat| Options {
        max_turns_per_seat,
        ..Options::default()
    };
    assert!(RockTheWorld::setup(capped(MAX_TURNS_PER_SEAT), 2, 7).is_ok());
    let Err(refused) = RockTheWorld::setup(capped(MAX_TURNS_PER_SEAT + 1), 2, 7) else {
        panic!("a cap above the maximum is accepted");
    };
    assert!(
        matches!(&refused, crate::SetupError::Options(reason) if reason.contains("max_turns_per_seat is from 0 (off) to 1000")),
        "{refused:?}"
    );
    assert!(RockTheWorld::setup(capped(u32::MAX), 2, 7).is_err());
}

// ---- The board (properties RULINGS.md asks to test) ----

#[test]
fn board_regular_cities_have_5_icons_in_unique_combinations_and_20_per_colour() {
    let regular: Vec<&City> = BOARD.iter().filter(|c| !c.corner).collect();
    assert_eq!(regular.len(), 16);
    assert!(regular.iter().all(|c| c.icons.iter().sum::<u8>() == 5));
    let mut combos: Vec<Icons> = regular.iter().map(|c| c.icons).collect();
    combos.sort_unstable();
    combos.dedup();
    assert_eq!(combos.len(), 16);
    for colour in Colour::ALL {
        let total: u8 = regular.iter().map(|c| c.icons[colour.index()]).sum();
        assert_eq!(total, 20);
        let corners: u8 = BOARD
            .iter()
            .filter(|c| c.corner)
            .map(|c| c.icons[colour.index()])
            .sum();
        assert_eq!(corners, 6);
    }
    assert!(
        BOARD
            .iter()
            .filter(|c| c.corner)
            .all(|c| c.icons.iter().sum::<u8>() == 6)
    );
    assert_eq!(
        BOARD
            .iter()
            .filter(|c| c.corner)
            .map(|c| c.space)
            .collect::<Vec<_>>(),
        vec![1, 6, 11, 16]
    );
}

#[test]
fn board_each_character_guards_a_city_of_its_colour_with_values_2_to_5() {
    for (i, ch) in CHARACTERS.iter().enumerate() {
        assert_eq!(ch.id.index(), i);
        let home = city(ch.home_space).expect("home exists");
        assert_eq!(home.character, Some(ch.id));
        let dominant = home.icons.iter().copied().max().unwrap_or(0);
        assert_eq!(home.icons[ch.colour.index()], dominant);
        if ch.value == 5 {
            assert_eq!(dominant, 5, "the 5 guards the pure city");
        }
    }
    for colour in Colour::ALL {
        let mut values: Vec<u8> = CHARACTERS
            .iter()
            .filter(|c| c.colour == colour)
            .map(|c| c.value)
            .collect();
        values.sort_unstable();
        assert_eq!(values, vec![2, 3, 4, 5]);
        for side in 1..=4 {
            let dominated = BOARD
                .iter()
                .filter(|c| c.side == Some(side))
                .filter(|c| c.character.is_some_and(|ch| ch.card().colour == colour))
                .count();
            assert_eq!(dominated, 1, "each side holds one city of each colour");
        }
    }
    assert_eq!(LEADS[0].name, "Su");
    assert_eq!(LEADS[0].colour, Colour::Red);
}

#[test]
fn machine_lists_every_action_of_every_phase() {
    let machine = RockTheWorld::machine();
    assert_eq!(machine.initial, "phase_one_roll");
    for name in [
        "phase_one_roll",
        "phase_one_turn",
        "phase_one_after_claim",
        "final_roll",
        "final_turn",
        "final_after_claim",
        "over",
    ] {
        assert!(machine.phase(name).is_some(), "{name}");
    }
    for phase in &machine.phases {
        for t in &phase.transitions {
            assert!(machine.phase(t.to).is_some(), "{} -> {}", phase.name, t.to);
        }
    }
    let turn = machine.phase("phase_one_turn").expect("phase");
    assert!(turn.actions.contains(&"declare"));
    assert!(
        !machine
            .phase("final_turn")
            .expect("phase")
            .actions
            .contains(&"declare")
    );
}

#[test]
fn registry_knows_rock_the_world() {
    let ruleset = crate::Ruleset::find("rock-the-world").expect("registered");
    assert_eq!(ruleset.seats, 2..=4);
    let (game, _) = crate::AnyGame::setup("rock-the-world", None, 3, 5).expect("setup");
    assert_eq!(game.phase(), "phase_one_roll");
    let schemas = (ruleset.schemas)();
    assert_eq!(schemas.action, "RockTheWorldAction");
    for (name, _) in &schemas.all {
        // `Seat` is shared by every game.
        assert!(
            name.starts_with("RockTheWorld") || name == "Seat",
            "schema {name} is not prefixed with the game"
        );
    }
    let options = serde_json::json!({"variant": "friendly", "colours": ["red"]});
    assert!(crate::AnyGame::setup("rock-the-world", Some(&options), 2, 5).is_err());
}

#[test]
fn r25_the_lead_flips_back_when_the_rocker_takes_a_family_character() {
    let mut g = new_game(2, Options::default());
    rocking(&mut g, Seat::new(0));
    give(&mut g, Seat::new(1), &[C02, C08, C09, C16]); // Kai's whole blue family
    move_to(&mut g, Seat::new(1), 1);
    after_roll(&mut g, Seat::new(0), 1);
    assert!(g.lead_flipped(Seat::new(1)));
    assert_eq!(g.band_value(Seat::new(1)), 30);
    rig_roll(&mut g, 6);
    let events = play(&mut g, Seat::new(0), claim(&[C16]));
    assert!(public(&events).contains(&GameEvent::LeadTurned {
        seat: Seat::new(1),
        flipped: false
    }));
    assert_eq!(g.band_value(Seat::new(1)), 10 + 5 + 2 + 3);
}

#[test]
fn r35_eliminated_players_rank_below_everyone_a_later_elimination_higher() {
    let mut g = new_game(4, Options::default());
    // Seat 1 is eliminated first, then seat 2.
    change(&mut g, |s| s.eliminated(Seat::new(1)).eliminated(Seat::new(2)));
    rocking(&mut g, Seat::new(0));
    give(&mut g, Seat::new(0), &CharacterId::ALL[1..]);
    after_roll(&mut g, Seat::new(0), 2);
    rig_roll(&mut g, 6);
    play(&mut g, Seat::new(0), claim(&[C01]));
    let outcome = g.outcome().expect("over");
    let ranks: Vec<usize> = outcome.scores.iter().map(|s| s.rank).collect();
    assert_eq!(ranks, vec![1, 4, 3, 2]);
}

#[test]
fn a_game_stored_with_play_cards_as_numbers_still_loads() {
    let mut g = new_game(3, Options::default());
    after_roll(&mut g, Seat::new(0), 1);
    play(&mut g, Seat::new(0), Action::Gig);
    let mut old = serde_json::to_value(&g).expect("encodes");
    for pile in ["deck", "discard"] {
        for card in old[pile].as_array_mut().expect("a pile") {
            let id = card.as_str().expect("a printed id");
            *card = serde_json::json!(PlayCardId::find(id).expect("a play card").0);
        }
    }
    assert!(old["discard"][0].is_u64(), "{}", old["discard"]);
    let bytes = rmp_serde::to_vec_named(&old).expect("encodes");
    let loaded: RockTheWorld = rmp_serde::from_slice(&bytes).expect("an old game still loads");
    assert_eq!(loaded, g);
    assert!(
        serde_json::from_value::<RockTheWorld>(old).is_err(),
        "JSON takes printed ids only"
    );
}

/// "To accomplish this goal players must land their Lead Singer Cutout to the same city as the
/// rocker and play a gig": an outsider who has landed on the rocker's corner plays the gig, and
/// the expert, whose playouts tell one gig against a rich rocker only a few hundredths better
/// than ending the turn, keeps the heuristic's gig on every search instead of following the
/// playouts' noise ([`super::bot::SEARCH_EDGE`]).
#[test]
fn the_expert_outsider_plays_the_gig_on_the_rockers_space() {
    let mut g = new_game(3, Options::default());
    give(&mut g, Seat::new(1), &[C01, C02, C03, C04, C05, C06, C07, C08]);
    set_cash(&mut g, Seat::new(1), 6_000_000);
    set_cash(&mut g, Seat::new(0), 50_000);
    set_cash(&mut g, Seat::new(2), 150_000);
    move_to(&mut g, Seat::new(1), 1);
    rocking(&mut g, Seat::new(1));
    after_roll(&mut g, Seat::new(0), 1);
    let legal = g.legal_actions(Seat::new(0));
    assert_eq!(legal, vec![Action::Gig, Action::EndTurn]);
    for seed in 0..6 {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        let pick = crate::search::expert(&g, Seat::new(0), &legal, crate::Budget::iterations(200), &mut rng);
        assert_eq!(
            pick.map(|i| &legal[i]),
            Some(&Action::Gig),
            "search seeded {seed}"
        );
    }
}
