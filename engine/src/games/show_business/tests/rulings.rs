//! RULINGS.md's turn-structure rulings S1-S42: each has a test named after it that builds the
//! position, plays through the contract (`apply`, `legal_actions`, `view`) and checks the
//! ruled outcome. A ruling whose test also checks a rulebook example or section lives in
//! `mod.rs`, under the ruling's name all the same.

use super::*;
use crate::Audience;

fn ids(cards: &[CardId]) -> Vec<String> {
    cards.iter().map(|c| c.id().to_owned()).collect()
}

fn token_ids(tokens: impl IntoIterator<Item = TokenId>) -> Vec<String> {
    tokens.into_iter().map(|t| t.id().to_owned()).collect()
}

fn strs(ids: &[String]) -> Vec<&str> {
    ids.iter().map(String::as_str).collect()
}

fn is_anytime(a: &Action) -> bool {
    matches!(
        a,
        Action::Dismiss { .. } | Action::Flip { .. } | Action::Regroup { .. }
    )
}

fn is_character(a: &Action) -> bool {
    matches!(
        a,
        Action::AAndR { .. }
            | Action::Sponsor { .. }
            | Action::Groupie { .. }
            | Action::FemmeFatale
            | Action::Paparazzi
            | Action::Reporter
            | Action::TrendExpertPlace
            | Action::TrendExpertRemove
            | Action::PilotToken { .. }
            | Action::PilotSong { .. }
            | Action::DjRemove { .. }
            | Action::DjDone
    )
}

#[test]
fn s01_a_target_without_a_defence_card_is_still_asked() {
    let mut g = built(
        scenario(2)
            .field(Seat::new(0), &["I01"])
            .only_hand(Seat::new(1), &["I17", "I25", "I33"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    play(&mut g, Seat::new(0), Action::AAndR { target: Seat::new(1) });
    assert_eq!(g.phase(), "defence");
    assert_eq!(g.to_act(), vec![Seat::new(1)]);
    assert_eq!(g.legal_actions(Seat::new(1)), vec![Action::Decline]);
    assert!(g.legal_actions(Seat::new(0)).is_empty());
}

#[test]
fn s02_hands_board_songs_and_sealed_bids_are_hidden_from_other_seats() {
    let (s, _) = scenario(3).song(entry(Seat::new(0), Style::Rock, 1, 2, 3, 0));
    let mut g = s.build_here().expect("a valid position");
    let hand = ids(&g.players[Seat::new(0)].hand);
    let own = g.view(Viewer::Seat(Seat::new(0)));
    assert_eq!(ids(&own.players[0].hand), hand);
    assert!(own.players[0].songs[0].content.is_some());
    for viewer in [Viewer::Seat(Seat::new(1)), Viewer::Spectator] {
        let view = g.view(viewer);
        assert!(view.players[0].hand.is_empty());
        assert_eq!(view.players[0].hand_count, 3);
        assert!(view.players[0].songs[0].content.is_none());
        let text = serde_json::to_string(&view).expect("view");
        assert!(hand.iter().all(|id| !text.contains(&format!("\"{id}\""))));
    }
    let events = g.apply(Seat::new(0), &Action::Bid { amount: 4 }).expect("a bid");
    for e in events
        .iter()
        .filter(|e| e.audience.admits(Viewer::Seat(Seat::new(1)), false))
    {
        assert!(!matches!(e.body, GameEvent::BidIn { amount: Some(_), .. }));
    }
    assert_eq!(g.view(Viewer::Seat(Seat::new(1))).my_bid, None);
}

#[test]
fn s03_random_draws_come_one_at_a_time_in_rule_order() {
    let (g, events) = ShowBusiness::setup(Options::default(), 3, 11).expect("setup");
    let order = events
        .iter()
        .find_map(|e| match &e.body {
            GameEvent::Shuffled { pile, order } if pile == "influence" => Some(order.clone()),
            _ => None,
        })
        .expect("the influence pile is shuffled");
    assert_eq!(ids(&g.players[Seat::new(0)].hand), order[0..3].to_vec());
    assert_eq!(ids(&g.players[Seat::new(1)].hand), order[3..6].to_vec());
    assert_eq!(ids(&g.players[Seat::new(2)].hand), order[6..9].to_vec());
    let market: Vec<CardId> = g.influence_market.iter().flatten().copied().collect();
    assert_eq!(ids(&market), order[9..13].to_vec());
    let dice: Vec<Die> = events
        .iter()
        .filter_map(|e| match e.body {
            GameEvent::Rolled { die, .. } => Some(die),
            _ => None,
        })
        .collect();
    assert_eq!(dice, Die::ALL.to_vec());
    assert!(
        events
            .iter()
            .filter(|e| matches!(e.body, GameEvent::Shuffled { .. } | GameEvent::Rolled { .. }))
            .all(|e| e.audience == Audience::Nobody)
    );
}

#[test]
fn s04_setup_deals_three_cards_fills_the_markets_rolls_the_dice_and_starts_the_rondel_on_trend_change() {
    let mut g = fresh(4);
    assert!(g.players.iter().all(|p| p.hand.len() == 3 && p.cash == 20));
    assert!(g.influence_market.iter().all(Option::is_some) && g.artist_market.iter().all(Option::is_some));
    assert!(g.concert_market.iter().all(Option::is_some));
    assert_eq!(g.map_tokens.len(), 5);
    assert_eq!(g.view(Viewer::Spectator).rondel, "trend_change");
    at(&mut g, Start::RondelStep);
    assert_eq!(g.view(Viewer::Spectator).rondel, "popularity_check");
}

#[test]
fn s05_all_zero_opening_bids_draw_a_random_first_player_and_bids_stop_at_the_cash() {
    let mut g = scenario(2)
        .cash(Seat::new(1), 7)
        .build_here()
        .expect("a valid position");
    assert_eq!(
        g.legal_actions(Seat::new(1)).last(),
        Some(&Action::Bid { amount: 7 })
    );
    assert!(
        g.clone()
            .apply(Seat::new(1), &Action::Bid { amount: 8 })
            .is_err_and(|r| r.code == crate::RejectionCode::IllegalAction)
    );
    play(&mut g, Seat::new(0), Action::Bid { amount: 0 });
    let events = g.apply(Seat::new(1), &Action::Bid { amount: 0 }).expect("a bid");
    let first = events
        .iter()
        .find_map(|e| match e.body {
            GameEvent::RandomFirst { seat, .. } => Some((seat, e.audience.clone())),
            _ => None,
        })
        .expect("a random first player");
    assert_eq!(first.1, Audience::Nobody);
    assert_eq!(g.order[0], first.0);
    assert_eq!(g.phase(), "market_review");
    assert_eq!(g.to_act(), vec![first.0]);
}

#[test]
fn s06_one_joiner_makes_every_solvent_seat_bid_and_the_last_turn_skips_step_9() {
    let mut g = built(scenario(3), Start::SequenceBid);
    play(&mut g, Seat::new(0), Action::JoinBid);
    play(&mut g, Seat::new(1), Action::GiveUpBid);
    play(&mut g, Seat::new(2), Action::GiveUpBid);
    assert_eq!(g.phase(), "sequence_bid");
    assert_eq!(g.to_act(), vec![Seat::new(0), Seat::new(1), Seat::new(2)]);

    let g = built(
        scenario(3).quarter_ends([true; 4], true).turn(2),
        Start::RoundTail,
    );
    assert!(g.is_over(), "stopped in {}", g.phase());
}

#[test]
fn s07_the_bid_winner_chooses_any_solvent_seat_and_the_new_last_is_set_aside() {
    let mut g = built(
        scenario(3)
            .bankrupt(Seat::new(2))
            .then(Start::EndRound { seat: Seat::new(1) }),
        Start::ChooseFirst { seat: Seat::new(1) },
    );
    assert_eq!(
        g.legal_actions(Seat::new(1)),
        vec![
            Action::ChooseFirst { seat: Seat::new(0) },
            Action::ChooseFirst { seat: Seat::new(1) }
        ]
    );
    assert_eq!(g.to_act(), vec![Seat::new(1)]);
    play(&mut g, Seat::new(1), Action::ChooseFirst { seat: Seat::new(1) });
    assert_eq!(g.order, vec![Seat::new(1), Seat::new(2), Seat::new(0)]);
    let view = g.view(Viewer::Spectator);
    assert!(view.players[0].last_in_turn);
    assert!(!view.players[2].last_in_turn);
}

#[test]
fn s08_anytime_actions_only_at_the_active_seats_steps_2_to_6() {
    let anytime = |g: &ShowBusiness, seat| g.legal_actions(seat).iter().any(is_anytime);
    for start in [
        Start::Review { seat: Seat::new(0) },
        Start::TimeLapse {
            seat: Seat::new(0),
            nth: 1,
        },
        Start::Influences { seat: Seat::new(0) },
        Start::EndRound { seat: Seat::new(0) },
    ] {
        // One card in hand, so that step 5 has a card to draw and waits.
        let g = built(scenario(2).only_hand(Seat::new(0), &["I01"]), start.clone());
        assert_eq!(g.to_act(), vec![Seat::new(0)], "{start:?}");
        assert!(anytime(&g, Seat::new(0)), "{start:?}");
    }
    // Four cards in hand, over the limit of 3, so that a hand discard waits.
    let s = scenario(2).hand(Seat::new(0), &["I01"]);
    for start in [
        Start::Record { seat: Seat::new(0) },
        Start::HandDiscard { seat: Seat::new(0) },
        Start::Advertise {
            seat: Seat::new(0),
            due: 25,
            reason: Payment::Salaries,
        },
        Start::Review { seat: Seat::new(1) },
    ] {
        let g = built(s.clone(), start.clone());
        assert!(
            !g.to_act().is_empty(),
            "{start:?} waits for nobody in {}",
            g.phase()
        );
        assert!(
            !anytime(&g, Seat::new(0)) && !anytime(&g, Seat::new(1)),
            "{start:?}"
        );
    }
}

#[test]
fn s09_regroupment_moves_a_two_field_card_into_one_field() {
    let mut g = built(scenario(2), Start::EndRound { seat: Seat::new(0) });
    let regroup = Action::Regroup {
        artist: artist("AR01"),
        fields: vec![0],
    };
    assert!(g.legal_actions(Seat::new(0)).contains(&regroup));
    play(&mut g, Seat::new(0), regroup);
    let singer = g.players[Seat::new(0)]
        .band
        .iter()
        .find(|a| a.card == artist("AR01"))
        .expect("AR01");
    assert_eq!(singer.fields, vec![0]);
    assert!(g.legal_actions(Seat::new(0)).contains(&Action::Regroup {
        artist: artist("AR01"),
        fields: vec![0, 1],
    }));
    assert_eq!(g.phase(), "end_round");
}

#[test]
fn s10_the_round_ends_with_end_round_and_the_next_seat_plays() {
    let mut g = built(
        scenario(2)
            .then(Start::RefillMarkets)
            .then(Start::EndRound { seat: Seat::new(0) })
            .then(Start::RoundTail),
        Start::Influences { seat: Seat::new(0) },
    );
    assert_eq!(g.phase(), "end_round");
    assert_eq!(decisions(&g, Seat::new(0)), vec![Action::EndRound]);
    play(&mut g, Seat::new(0), Action::EndRound);
    assert_eq!(g.phase(), "market_review");
    assert_eq!(g.to_act(), vec![Seat::new(1)]);
}

#[test]
fn s11_integration_control_discards_come_seat_by_seat_to_the_discard_pile() {
    let mut g = built(
        scenario(2)
            .hand(Seat::new(0), &["I01"])
            .hand(Seat::new(1), &["I02"])
            .satisfaction(Seat::new(0), 1)
            .satisfaction(Seat::new(1), 1)
            .then(Start::Integration { seat: Seat::new(1) }),
        Start::Integration { seat: Seat::new(0) },
    );
    assert_eq!((g.phase(), g.to_act()), ("hand_discard", vec![Seat::new(0)]));
    assert_eq!(
        g.players[Seat::new(1)].band.len(),
        3,
        "seat 1 is not controlled yet"
    );
    play(&mut g, Seat::new(0), Action::Discard { card: card("I01") });
    assert!(g.influence_discard.contains(&card("I01")));
    assert!(g.players[Seat::new(0)].influence_field.is_empty());
    assert_eq!(g.to_act(), vec![Seat::new(1)]);
    assert_eq!(g.players[Seat::new(1)].band.len(), 1);
    assert_eq!(g.legal_actions(Seat::new(1)).len(), 4);
    play(&mut g, Seat::new(1), Action::Discard { card: card("I02") });
    assert_eq!(g.players[Seat::new(1)].hand.len(), 3);
}

#[test]
fn s13_step_3_time_lapse_stops_at_56_and_a_marker_there_skips_steps_3_and_4() {
    let mut g = built(
        scenario(2)
            .quarter_ends([true; 4], false)
            .week(Seat::new(0), 54)
            .hand(Seat::new(0), &["I11"])
            .then(Start::Influences { seat: Seat::new(0) })
            .then(Start::EndRound { seat: Seat::new(0) }),
        Start::TimeLapse {
            seat: Seat::new(0),
            nth: 1,
        },
    );
    play(&mut g, Seat::new(0), Action::Play { card: card("I11") });
    assert_eq!(g.players[Seat::new(0)].time, Some(56));
    play(&mut g, Seat::new(0), Action::ActivateHand);
    play(&mut g, Seat::new(0), Action::Pass);
    assert_eq!(g.phase(), "end_round", "no second card from field 56");

    let spare = ids(&fresh(2).players[Seat::new(0)].hand).pop().expect("a card");
    let mut g = built(
        scenario(2)
            .discard(&[&spare])
            .then(Start::Influences { seat: Seat::new(0) })
            .then(Start::EndRound { seat: Seat::new(0) }),
        Start::TimeLapse {
            seat: Seat::new(0),
            nth: 1,
        },
    );
    play(&mut g, Seat::new(0), Action::GiveUp);
    assert_eq!(g.phase(), "influences");
    assert_eq!(g.players[Seat::new(0)].time, Some(0));
}

#[test]
fn s14_a_quarter_end_reached_by_the_second_card_still_lets_it_act() {
    let mut g = built(
        scenario(2)
            .week(Seat::new(0), 10)
            .hand(Seat::new(0), &["I12", "I11"])
            .then(Start::Influences { seat: Seat::new(0) })
            .then(Start::EndRound { seat: Seat::new(0) })
            .then(Start::RoundTail),
        Start::TimeLapse {
            seat: Seat::new(0),
            nth: 1,
        },
    );
    play(&mut g, Seat::new(0), Action::Play { card: card("I12") });
    assert!(!g.qe_pending);
    play(&mut g, Seat::new(0), Action::ActivateHand);
    play(&mut g, Seat::new(0), Action::Pass);
    assert_eq!(g.phase(), "time_lapse");
    play(&mut g, Seat::new(0), Action::Play { card: card("I11") });
    assert_eq!(g.players[Seat::new(0)].time, Some(15));
    assert!(g.qe_done[0] && g.qe_pending && !g.triggered_this_round);
    assert_eq!(g.phase(), "activation");
}

#[test]
fn s15_an_a_and_r_swap_never_triggers_a_quarter_end_and_set_aside_stays() {
    let mut g = built(
        scenario(2)
            .order(&[Seat::new(0), Seat::new(1)])
            .week(Seat::new(0), 10)
            .week(Seat::new(1), 30)
            .field(Seat::new(0), &["I01"])
            .only_hand(Seat::new(1), &["I17", "I25", "I33"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    play(&mut g, Seat::new(0), Action::AAndR { target: Seat::new(1) });
    play(&mut g, Seat::new(1), Action::Decline);
    assert_eq!(g.players[Seat::new(0)].time, Some(30));
    assert!(!g.qe_pending && !g.qe_done[1]);
    assert!(g.view(Viewer::Spectator).players[1].last_in_turn);
}

#[test]
fn s16_a_market_card_taken_for_the_action_is_free_stays_on_the_field_and_is_paid_at_clearing() {
    let mut g = built(
        scenario(2)
            .hand(Seat::new(0), &["I10"])
            .then(Start::Influences { seat: Seat::new(0) }),
        Start::TimeLapse {
            seat: Seat::new(0),
            nth: 1,
        },
    );
    play(&mut g, Seat::new(0), Action::Play { card: card("I10") });
    let taken = g.influence_market[1].expect("field 2");
    let third = g.influence_market[2];
    let cash = g.players[Seat::new(0)].cash;
    play(&mut g, Seat::new(0), Action::TakeMarket { field: 2 });
    assert_eq!(g.players[Seat::new(0)].cash, cash);
    assert_eq!(g.influence_market[1], None);
    assert_eq!(g.influence_market[2], third, "no close-up before step 6");
    assert_eq!(g.players[Seat::new(0)].influence_field, vec![card("I10"), taken]);
    at(&mut g, Start::Clearing { seat: Seat::new(0) });
    let powers = 3 + taken.power() as i64;
    assert_eq!(g.players[Seat::new(0)].cash, cash - powers);
}

#[test]
fn s17_the_first_sub_step_fixes_the_action_trend_needs_no_change_and_bodyguard_has_none() {
    let info = card("I09").card();
    let mut dice = fresh(2).dice;
    dice[info.die as usize] = Some(info.value);
    let mut g = built(
        scenario(2).field(Seat::new(0), &["I09"]).dice(dice),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    let d = decisions(&g, Seat::new(0));
    assert!(d.contains(&Action::Pass) && d.contains(&Action::SetDie));
    assert!(!d.iter().any(is_character));
    play(&mut g, Seat::new(0), Action::Move { city: city("E") });
    assert!(decisions(&g, Seat::new(0)).iter().all(|a| matches!(
        a,
        Action::Move { .. } | Action::PickToken { .. } | Action::PickSong { .. } | Action::EndAction
    )));
}

#[test]
fn s19_each_tournee_step_costs_one_power_and_end_action_may_come_any_time() {
    let mut g = tournee_at_l("I12");
    play(&mut g, Seat::new(1), Action::Move { city: city("G") });
    assert_eq!(decisions(&g, Seat::new(1)), vec![Action::EndAction]);
    let mut g = tournee_at_l("I11");
    play(&mut g, Seat::new(1), Action::Move { city: city("G") });
    assert!(decisions(&g, Seat::new(1)).contains(&Action::EndAction));
    play(&mut g, Seat::new(1), Action::EndAction);
    assert_ne!(g.phase(), "tournee");
}

#[test]
fn s20_no_pick_up_while_three_songs_lie_on_the_band_board() {
    let g = built(
        scenario(2).car(Seat::new(0), "B").field(Seat::new(0), &["I12"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    assert!(decisions(&g, Seat::new(0)).contains(&Action::PickSong { studio: city("B") }));
    let mut s = Scenario::from_game(g);
    for _ in 0..3 {
        s = s.song(entry(Seat::new(0), Style::Rock, 0, 0, 0, 0)).0;
    }
    let g = built(s, Start::ChooseAction { seat: Seat::new(0) });
    assert!(!decisions(&g, Seat::new(0)).contains(&Action::PickSong { studio: city("B") }));
}

#[test]
fn s21_promotion_takes_the_lowest_empty_chart_field_and_board_songs_score_nothing() {
    let (s, rock) = scenario(2).song(entry(Seat::new(0), Style::Rock, 0, 0, 0, 0));
    let (s, jazz) = s.song(entry(Seat::new(0), Style::Jazz, 2, 2, 2, 0));
    let mut g = built(
        s.field(Seat::new(0), &["I12"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    let d = decisions(&g, Seat::new(0));
    assert!(d.contains(&Action::Promote { song: rock }) && d.contains(&Action::Promote { song: jazz }));
    play(&mut g, Seat::new(0), Action::Promote { song: jazz });
    assert_eq!(g.players[Seat::new(0)].cash, 20 - 3);
    assert_eq!(g.chart[0][0].song.id, jazz);
    let g = built(Scenario::from_game(g).dice([None; 4]), Start::QuarterEnd);
    // Field I alone with every die hit: 5 + 1 + 2; the board song does not chart.
    assert_eq!(g.players[Seat::new(0)].popularity, 8);
    assert_eq!(g.chart.iter().map(Vec::len).sum::<usize>(), 1);
    assert_eq!(g.players[Seat::new(0)].songs[0].id, rock);
}

#[test]
fn s22_only_the_same_character_with_at_least_the_power_or_a_bodyguard_defends() {
    let mut g = built(
        scenario(2)
            .week(Seat::new(0), 3)
            .week(Seat::new(1), 9)
            .field(Seat::new(0), &["I03"])
            .only_hand(Seat::new(1), &["I02", "I04", "I14", "I17"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    play(&mut g, Seat::new(0), Action::AAndR { target: Seat::new(1) });
    assert_eq!(
        g.legal_actions(Seat::new(1)),
        vec![
            Action::Defend { card: card("I04") },
            Action::Defend { card: card("I14") },
            Action::Decline
        ]
    );
    play(&mut g, Seat::new(1), Action::Defend { card: card("I04") });
    assert_eq!(
        (g.players[Seat::new(0)].time, g.players[Seat::new(1)].time),
        (Some(3), Some(9))
    );
    assert_eq!(g.players[Seat::new(0)].influence_field, vec![card("I03")]);
    assert!(g.to_act().is_empty(), "no chained defence");
}

#[test]
fn s29_a_trend_expert_removes_the_standing_one_to_its_placer() {
    let mut g = built(
        scenario(2)
            .trend_expert("I73", Seat::new(0))
            .field(Seat::new(1), &["I74"]),
        Start::ChooseAction { seat: Seat::new(1) },
    );
    let d = decisions(&g, Seat::new(1));
    assert!(d.contains(&Action::TrendExpertRemove) && !d.contains(&Action::TrendExpertPlace));
    assert!(!d.contains(&Action::SetDie));
    play(&mut g, Seat::new(1), Action::TrendExpertRemove);
    assert_eq!(g.trend_expert, None);
    assert_eq!(g.players[Seat::new(0)].influence_field.last(), Some(&card("I73")));
    assert_eq!(g.players[Seat::new(1)].influence_field, vec![card("I74")]);
}

#[test]
fn s32_an_empty_pile_reshuffles_the_discards_else_clearing_runs_at_once() {
    let s = scenario(2);
    let pile = ids(&s.position().influence_pile);
    let spare = ids(&s.position().players[Seat::new(0)].hand)
        .pop()
        .expect("a card");
    let mut g = built(
        s.discard(&strs(&pile))
            .discard(&[&spare])
            .then(Start::EndRound { seat: Seat::new(0) }),
        Start::Influences { seat: Seat::new(0) },
    );
    let discards = g.influence_discard.len();
    play(&mut g, Seat::new(0), Action::Draw);
    assert_eq!(g.players[Seat::new(0)].hand.len(), 3);
    assert_eq!(g.influence_pile.len(), discards - 1);
    assert!(g.influence_discard.is_empty());

    let s = scenario(2);
    let mut rest = ids(&s.position().influence_pile);
    rest.extend(ids(&s.position().influence_discard));
    let field = rest.split_off(rest.len() - 2);
    let spare = ids(&s.position().players[Seat::new(0)].hand)
        .pop()
        .expect("a card");
    let s = s
        .field(Seat::new(1), &strs(&field))
        .hand(Seat::new(1), &strs(&rest))
        .field(Seat::new(0), &[&spare])
        .then(Start::EndRound { seat: Seat::new(0) });
    let owed = |g: &ShowBusiness, s: Seat| -> i64 {
        g.players[s]
            .influence_field
            .iter()
            .map(|&c| c.power() as i64)
            .sum()
    };
    let (owed0, owed1) = (owed(s.position(), Seat::new(0)), owed(s.position(), Seat::new(1)));
    let mut g = built(s, Start::Influences { seat: Seat::new(0) });
    play(&mut g, Seat::new(0), Action::Draw);
    assert_eq!(g.players[Seat::new(0)].cash, 20 - owed0);
    assert_eq!(g.players[Seat::new(1)].cash, 20 - owed1);
    assert!(g.players.iter().all(|p| p.influence_field.is_empty()));
    assert_eq!(g.players[Seat::new(0)].hand.len(), 3);
    assert_eq!(g.phase(), "end_round");
}

#[test]
fn s32_an_empty_bag_is_refilled_from_the_used_pool() {
    let s = scenario(2);
    let mut gone = token_ids(s.position().bag.clone());
    gone.extend(token_ids(s.position().concert_market[0]));
    let g = built(s.used(&strs(&gone)), Start::RefillConcerts);
    assert!(g.concert_market.iter().all(Option::is_some));
    assert!(g.used_tokens.is_empty());
    g.check_invariants().expect("tokens conserved");
}

#[test]
fn s34_a_bankrupt_band_leaves_the_time_track_keeps_its_place_and_ranks_last() {
    let (s, charted) = scenario(3).chart_song(1, entry(Seat::new(1), Style::Pop, 0, 0, 0, 0));
    let (s, _) = s.song(entry(Seat::new(1), Style::Pop, 1, 1, 1, 0));
    let g = built(
        s.cash(Seat::new(1), 0)
            .popularity(Seat::new(1), -25)
            .week(Seat::new(1), 9),
        Start::Pay {
            seat: Seat::new(1),
            amount: 5,
            reason: Payment::Salaries,
        },
    );
    let p = &g.players[Seat::new(1)];
    assert_eq!(p.bankrupt, Some(1));
    assert_eq!(p.time, None);
    assert!(p.hand.is_empty() && p.influence_field.is_empty() && p.band.is_empty() && p.songs.is_empty());
    assert_eq!(p.blanks, [false; 3]);
    assert_eq!(g.chart[0][0].song.id, charted, "chart songs stay");
    let view = serde_json::to_value(g.view(Viewer::Spectator)).expect("view");
    assert_eq!(view["players"][1]["time"], serde_json::Value::Null);
    assert_eq!(view["players"][0]["time"], 0);
    let g = Scenario::from_game(g)
        .order(&[Seat::new(0), Seat::new(2), Seat::new(1)])
        .build_here()
        .expect("a valid position");
    assert!(!g.view(Viewer::Spectator).players[1].last_in_turn);

    let g = built(
        Scenario::from_game(g).field(Seat::new(0), &["I01"]),
        Start::ChooseAction { seat: Seat::new(0) },
    );
    assert!(decisions(&g, Seat::new(0)).contains(&Action::AAndR { target: Seat::new(2) }));
    assert!(!decisions(&g, Seat::new(0)).contains(&Action::AAndR { target: Seat::new(1) }));

    let g = built(
        Scenario::from_game(g)
            .order(&[Seat::new(0), Seat::new(1), Seat::new(2)])
            .turn(0),
        Start::NextRound,
    );
    assert_eq!((g.phase(), g.to_act()), ("market_review", vec![Seat::new(2)]));

    let g = Scenario::from_game(g)
        .popularity(Seat::new(1), 40)
        .bankrupt(Seat::new(2))
        .popularity(Seat::new(0), -20)
        .build_here()
        .expect("a valid position");
    let o = g.compute_outcome();
    let ranks: Vec<usize> = o.scores.iter().map(|s| s.rank).collect();
    assert_eq!(ranks, vec![1, 3, 2]);
}

#[test]
fn s35_table_wide_payments_run_seat_by_seat_in_turn_order() {
    let mut g = built(
        scenario(2)
            .order(&[Seat::new(1), Seat::new(0)])
            .cash(Seat::new(1), 10)
            .rondel(1),
        Start::RondelStep,
    );
    assert_eq!((g.phase(), g.to_act()), ("advertising", vec![Seat::new(1)]));
    assert_eq!(g.players[Seat::new(0)].cash, 20, "seat 0 pays after seat 1");
    play(&mut g, Seat::new(1), Action::Advertise { fields: 1 });
    assert_eq!(
        (g.players[Seat::new(1)].cash, g.players[Seat::new(1)].popularity),
        (0, -1)
    );
    assert_eq!(g.players[Seat::new(0)].cash, 5);
}

#[test]
fn s36_a_tie_between_songs_of_one_owner_skips_the_sponsor_lap() {
    // Both score 4: style alone (4), or lyrics (3) plus 1 experience; trend points decide.
    let (s, pop) = scenario(2)
        .dice([Some(0), Some(0), Some(0), Some(0)])
        .chart_song(1, entry(Seat::new(0), Style::Pop, 0, 1, 1, 1));
    let (s, rock) = s.chart_song(2, entry(Seat::new(0), Style::Rock, 1, 1, 1, 0));
    let g = built(s.hand(Seat::new(0), &["I65"]), Start::QuarterEnd);
    assert!(g.to_act().is_empty(), "no lap for one owner: {}", g.phase());
    assert_eq!(g.chart[0][0].song.id, rock);
    assert_eq!(g.chart[1][0].song.id, pop);
}

#[test]
fn s37_a_blank_trend_die_counts_as_a_hit_for_the_bonuses() {
    let (s, _) = scenario(2)
        .dice([None, Some(0), None, None])
        .chart_song(1, entry(Seat::new(0), Style::Jazz, 0, 2, 2, 0));
    let g = built(s, Start::QuarterEnd);
    // Field I: 5, +1 for the style (blank white die), +2 for all four dice.
    assert_eq!(g.players[Seat::new(0)].popularity, 8);
}

#[test]
fn s39_a_full_tie_shares_first_place_after_the_end_game_payment() {
    let g = built(
        scenario(2)
            .order(&[Seat::new(0), Seat::new(1)])
            .turn(1)
            .quarter_ends([true; 4], true)
            .popularity(Seat::new(0), 10)
            .popularity(Seat::new(1), 10)
            .field(Seat::new(0), &["I12"])
            .cash(Seat::new(1), 19),
        Start::NextRound,
    );
    let o = g.outcome().expect("scored");
    assert_eq!(
        (g.players[Seat::new(0)].cash, g.players[Seat::new(1)].cash),
        (19, 19)
    );
    assert_eq!(o.winners, vec![Seat::new(0), Seat::new(1)]);
    assert!(o.scores.iter().all(|s| s.total == 11 && s.rank == 1));
}

#[test]
fn s40_satisfaction_stays_within_0_and_5() {
    let mut g = built(
        scenario(2)
            .field(Seat::new(0), &["I31"])
            .satisfaction(Seat::new(1), 1)
            .only_hand(Seat::new(1), &["I17", "I25", "I33"]),
        Start::FemmeChoice {
            seat: Seat::new(0),
            best: 3,
        },
    );
    play(&mut g, Seat::new(0), Action::Disorder { target: Seat::new(1) });
    play(&mut g, Seat::new(1), Action::Decline);
    assert_eq!(g.players[Seat::new(1)].satisfaction, 0);
    at(
        &mut g,
        Start::FemmeChoice {
            seat: Seat::new(0),
            best: 4,
        },
    );
    play(&mut g, Seat::new(0), Action::Integration);
    assert_eq!(g.players[Seat::new(0)].satisfaction, 5);
}

#[test]
fn s02_s06_the_step_9_poll_is_sealed_until_every_answer_is_in() {
    let mut g = built(scenario(3), Start::SequenceBid);
    let seen_by_others = |events: &[crate::Event<GameEvent>], seat: Seat| -> String {
        events
            .iter()
            .filter(|e| Seat::all(3).any(|v| v != seat && e.audience.admits(Viewer::Seat(v), false)))
            .map(|e| serde_json::to_string(&e.body).expect("event"))
            .collect()
    };
    let events = g.apply(Seat::new(0), &Action::JoinBid).expect("an answer");
    let text = seen_by_others(&events, Seat::new(0));
    assert!(
        !text.contains("gives_up\":false") && !text.contains("gives_up\":true"),
        "{text}"
    );
    assert!(text.contains("poll_answered"), "{text}");
    let events = g.apply(Seat::new(1), &Action::GiveUpBid).expect("an answer");
    assert!(!seen_by_others(&events, Seat::new(1)).contains("gives_up\":true"));
    let events = g.apply(Seat::new(2), &Action::GiveUpBid).expect("an answer");
    let revealed: Vec<Vec<(Seat, bool)>> = events
        .iter()
        .filter(|e| e.audience == Audience::Everyone)
        .filter_map(|e| match &e.body {
            GameEvent::PollRevealed { answers } => {
                Some(answers.iter().map(|a| (a.seat, a.gives_up)).collect())
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        revealed,
        vec![vec![
            (Seat::new(0), false),
            (Seat::new(1), true),
            (Seat::new(2), true)
        ]]
    );
}

// ----- The numbered readings of "Rulebook inconsistencies" (RULINGS 3.x) -----

fn with_options(options: Options, seats: usize) -> Scenario {
    Scenario::new(options, seats, 7).expect("setup")
}

#[test]
fn r3_2_paparazzi_block_option_time_forbids_the_last_seat_instead_of_a_running_scandal() {
    let choose = Start::ChooseAction { seat: Seat::new(0) };
    let g = built(
        with_options(
            Options {
                paparazzi_block: PaparazziBlock::Time,
                ..Options::default()
            },
            2,
        )
        .order(&[Seat::new(1), Seat::new(0)])
        .field(Seat::new(0), &["I41"])
        .scandal(Seat::new(0))
        .field(Seat::new(1), &["I42"]),
        choose.clone(),
    );
    assert!(
        !decisions(&g, Seat::new(0)).contains(&Action::Paparazzi),
        "seat 0 is last"
    );
    let g = built(
        Scenario::from_game(g).order(&[Seat::new(0), Seat::new(1)]),
        choose,
    );
    assert!(
        decisions(&g, Seat::new(0)).contains(&Action::Paparazzi),
        "a scandal no longer blocks"
    );
}

#[test]
fn r3_3_a_penalty_never_raises_popularity_and_stops_at_0() {
    let g = built(
        scenario(2)
            .popularity(Seat::new(0), -3)
            .popularity(Seat::new(1), 2)
            .satisfaction(Seat::new(0), 0)
            .satisfaction(Seat::new(1), 0)
            .then(Start::EndPenalty { seat: Seat::new(1) }),
        Start::EndPenalty { seat: Seat::new(0) },
    );
    assert_eq!(
        (
            g.players[Seat::new(0)].popularity,
            g.players[Seat::new(1)].popularity
        ),
        (-3, 0)
    );
}

#[test]
fn r3_4_royalties_pay_the_true_value_above_50_or_the_printed_field_by_option() {
    for (basis, paid) in [(RoyaltyBasis::TrueValue, 53), (RoyaltyBasis::PrintedField, 3)] {
        let g = built(
            with_options(
                Options {
                    royalties: basis,
                    ..Options::default()
                },
                2,
            )
            .popularity(Seat::new(0), 53)
            .popularity(Seat::new(1), 50)
            .rondel(3),
            Start::RondelStep,
        );
        assert_eq!(g.players[Seat::new(0)].cash, 20 + paid, "{basis:?}");
        assert_eq!(g.players[Seat::new(1)].cash, 70, "{basis:?}: field 50 pays 50");
        assert_eq!(g.view(Viewer::Spectator).players[0].popularity, 53);
    }
}

#[test]
fn r3_6_studio_blanks_restock_each_round_or_only_at_quarter_end_by_option() {
    let g = built(
        scenario(2).blanks(Seat::new(0), [false, true, false]),
        Start::Round { seat: Seat::new(0) },
    );
    assert_eq!(g.players[Seat::new(0)].blanks, [true; 3]);

    let mut g = built(
        with_options(
            Options {
                restock: Restock::QuarterEnd,
                ..Options::default()
            },
            2,
        )
        .blanks(Seat::new(0), [false, true, false]),
        Start::Round { seat: Seat::new(0) },
    );
    assert_eq!(g.players[Seat::new(0)].blanks, [false, true, false]);
    at(&mut g, Start::QuarterEnd);
    assert_eq!(g.players[Seat::new(0)].blanks, [true; 3]);
}

#[test]
fn s41_satisfaction_check_counts_the_cheapest_of_several_own_songs_sharing_the_best_field() {
    // Two songs of the red band share CHARTS field 1 (an unresolved S36 tie): Pop first,
    // Rock second. The red band plays Rock on all three artists.
    let mut s = scenario(2).satisfaction(Seat::new(0), 4);
    for style in [Style::Pop, Style::Rock] {
        let entry = ChartEntry {
            owner: Seat::new(0),
            style,
            lyrics: 0,
            tempo: 0,
            volume: 0,
            experience: 0,
            disclosed: true,
        };
        s = s.chart_song(1, entry).0;
    }
    let g = s.build(Start::SatisfactionCheck).expect("a valid position");
    assert_eq!(g.players[Seat::new(0)].band.len(), 3);
    assert_eq!(
        g.players[Seat::new(0)].satisfaction,
        4,
        "the Rock song costs nothing"
    );
}

#[test]
fn s42_a_trend_expert_standing_at_the_end_returns_and_is_paid_before_the_final_score() {
    let expert = card("I73");
    let g = scenario(2)
        .trend_expert("I73", Seat::new(0))
        .quarter_ends([true; 4], true)
        .turn(1)
        .build(Start::NextRound)
        .expect("a valid position");
    assert!(g.is_over());
    g.check_invariants().expect("every card is accounted for");
    assert_eq!(g.trend_expert, None);
    assert!(g.influence_discard.contains(&expert));
    // The influence field was empty: the final CLEARING charges only the expert's POWER 2.
    assert_eq!(g.players[Seat::new(0)].cash, 20 - 2);
}

/// S42 when every band goes bankrupt: "A bankrupt placer's card is discarded (S34)." The last
/// solvent seat cannot pay its SALARIES; the game ends with every band bankrupt, and the TREND
/// EXPERT of the seat that went bankrupt first leaves the dice for the discard pile, as the final
/// view and the log show.
#[test]
fn s42_a_bankrupt_placers_trend_expert_is_discarded_when_every_band_is_bankrupt() {
    let expert = card("I73");
    let (g, events) = scenario(3)
        .trend_expert("I73", Seat::new(0))
        .bankrupt(Seat::new(0))
        .bankrupt(Seat::new(1))
        .cash(Seat::new(2), 0)
        .then(Start::NextRound)
        .build_events(Start::Pay {
            seat: Seat::new(2),
            amount: 1000,
            reason: Payment::Salaries,
        })
        .expect("a valid position");
    assert!(g.is_over(), "every band is bankrupt: the game is over");
    assert!(g.players.iter().all(|p| p.bankrupt.is_some()));
    g.check_invariants().expect("every card is accounted for");
    assert_eq!(g.trend_expert, None);
    assert!(g.view(Viewer::Spectator).trend_expert.is_none());
    assert_eq!(g.influence_discard.last(), Some(&expert));
    let bodies: Vec<&GameEvent> = events.iter().map(|e| &e.body).collect();
    let returned = bodies.iter().position(|b| {
        **b == GameEvent::TrendExpertReturned {
            seat: Seat::new(0),
            card: expert,
            discarded: true,
        }
    });
    let ends = bodies.iter().position(|b| {
        **b == GameEvent::GameEnds {
            ending: Ending::AllBankrupt,
        }
    });
    let over = bodies
        .iter()
        .position(|b| matches!(b, GameEvent::GameOver { .. }));
    assert!(
        ends < returned && returned < over && ends.is_some(),
        "the card is discarded at the end, before the score: {bodies:#?}"
    );
}

/// Seat 0 of three, whose TREND EXPERT I73 stands, goes bankrupt on a SALARIES payment it cannot
/// make: the position and the events of that payment.
fn bankrupt_placer() -> (ShowBusiness, Vec<Event<GameEvent>>) {
    scenario(3)
        .trend_expert("I73", Seat::new(0))
        .cash(Seat::new(0), 0)
        .build_events(Start::Pay {
            seat: Seat::new(0),
            amount: 1000,
            reason: Payment::Salaries,
        })
        .expect("a valid position")
}

/// S34 with the rulebook's TREND EXPERT: "nobody can turn any of the TREND DICE in the action
/// TREND, until the nearest QUARTER END", and a bankrupt's "TREND EXPERT goes to the discard
/// pile at QE". A placer who goes bankrupt mid-quarter leaves the card standing: it still stops
/// the TREND CHANGE and every other seat's TREND until the QUARTER END, and there it is
/// discarded, not returned.
#[test]
fn s34_a_bankrupt_placers_trend_expert_stands_until_the_quarter_end_and_is_then_discarded() {
    let expert = card("I73");
    let (g, events) = bankrupt_placer();
    assert!(g.players[Seat::new(0)].bankrupt.is_some());
    assert_eq!(g.trend_expert, Some((expert, Seat::new(0))), "it still stands");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e.body, GameEvent::TrendExpertReturned { .. })),
        "bankruptcy alone does not move it: {events:#?}"
    );
    // The TREND CHANGE of the next round is stopped.
    let s = Scenario::from_game(g.clone());
    let dice = s.position().dice;
    let changed = built(s, Start::TrendChange);
    assert_eq!(changed.dice, dice);
    assert_eq!(changed.trend_expert, Some((expert, Seat::new(0))));
    // Another seat may not turn a die.
    let other = built(
        Scenario::from_game(g.clone()).field(Seat::new(1), &["I02"]),
        Start::ChooseAction { seat: Seat::new(1) },
    );
    assert!(!other.legal_actions(Seat::new(1)).contains(&Action::SetDie));
    // At the QUARTER END the card goes to the discard pile, the placer being bankrupt.
    let (ended, events) = Scenario::from_game(g)
        .build_events(Start::QuarterEnd)
        .expect("a valid position");
    ended.check_invariants().expect("every card is accounted for");
    assert_eq!(ended.trend_expert, None);
    assert!(ended.influence_discard.contains(&expert));
    assert!(ended.players[Seat::new(0)].influence_field.is_empty());
    assert!(events.iter().any(|e| e.body
        == GameEvent::TrendExpertReturned {
            seat: Seat::new(0),
            card: expert,
            discarded: true,
        }));
}

/// S29 beside S34: another seat's TREND EXPERT may remove a standing card "and return it to the
/// player who placed it", but a bankrupt placer has no INFLUENCE FIELD to return it to, so the
/// card goes to the discard pile, as at the QUARTER END.
#[test]
fn s34_removing_a_bankrupt_placers_trend_expert_discards_it() {
    let expert = card("I73");
    let (g, _) = bankrupt_placer();
    let mut g = built(
        Scenario::from_game(g).field(Seat::new(1), &["I74"]),
        Start::ChooseAction { seat: Seat::new(1) },
    );
    assert!(g.legal_actions(Seat::new(1)).contains(&Action::TrendExpertRemove));
    play(&mut g, Seat::new(1), Action::TrendExpertRemove);
    assert_eq!(g.trend_expert, None);
    assert!(g.influence_discard.contains(&expert));
    assert!(g.players[Seat::new(0)].influence_field.is_empty());
}
