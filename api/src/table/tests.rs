//! The core's changes, applied to tables built here, at explicit times: no store, no clock, no
//! sleeping.

use roadie_engine::{AnyGame, BotLevel, Seat, Viewer};

use super::clock::{Clock, TimeControl};
use super::seats::{Occupant, SeatChange, SeatSpec, Wanted, table_of};
use super::{BotMove, Change, Code, Expire, Holder, Pass, Post, Precondition, Revision, Table};

const T0: u64 = 1_000_000;

/// A Rock the World game at two seats (Ann and an open seat), with a 1 s decision and no bank
/// when `clocked`.
fn table(specs: &[SeatSpec], clocked: bool) -> Table {
    let (game, _) = AnyGame::setup("rock-the-world", None, specs.len(), 7).expect("setup");
    let to_act = game.to_act();
    let clock = clocked.then(|| {
        let control = TimeControl {
            per_decision_secs: 1,
            bank_secs: 0,
        };
        Clock::start(control, specs.len(), &to_act, T0)
    });
    Table {
        id: "0123456789abcdef01234567".into(),
        revision: Revision::first(),
        events: 0,
        seed: 7,
        salt: "00".into(),
        clock,
        game,
        seats: table_of(specs.len(), Some(specs), false, T0).expect("seats"),
        webhook: None,
        app: None,
        options: None,
        rules_version: 1,
        forked_from: None,
        aborted: false,
        rated: None,
        notices: Vec::new(),
    }
}

fn two_players() -> Table {
    table(
        &[SeatSpec::Player("Ann".into()), SeatSpec::Player("Bo".into())],
        false,
    )
}

/// The first listed action of the seat to act.
fn first_action(table: &Table) -> (Seat, String) {
    let seat = table.game.to_act()[0];
    let listed: Vec<serde_json::Value> =
        serde_json::from_str(table.game.legal_actions(seat).get()).expect("a list");
    (seat, listed[0].to_string())
}

#[test]
fn a_post_of_a_listed_action_advances_the_table_and_numbers_its_events() {
    let table = two_players();
    let (seat, action) = first_action(&table);
    let post = Post {
        pass: &Pass::token(seat, table.seats.entry(seat).credential()),
        action: &action,
        precondition: None,
    };
    let transition = post.apply(&table, T0).expect("applied").expect("a write");
    assert_eq!(transition.next.revision.number, table.revision.number + 1);
    assert!(!transition.events.is_empty());
    assert_eq!(
        transition.next.events,
        table.events + transition.events.len() as u64
    );
    assert_eq!(transition.first_seq(), table.events + 1);
    assert_ne!(transition.next.game, table.game);
}

#[test]
fn a_post_is_refused_for_the_wrong_seat_a_stale_precondition_and_an_old_token() {
    let table = two_players();
    let (seat, action) = first_action(&table);
    let other = Seat::new(1 - seat.index());
    let refusal = |post: Post<'_>| post.apply(&table, T0).expect_err("refused").refusal.code();
    let credential = table.seats.entry(seat).credential();
    let pass = Pass::token(seat, credential);
    let post = Post {
        pass: &pass,
        action: &action,
        precondition: None,
    };
    assert_eq!(
        refusal(Post {
            pass: &Pass::token(other, table.seats.entry(other).credential()),
            ..post
        }),
        Code::NotYourTurn
    );
    let elsewhere = Precondition::Revisions(vec![table.revision.next()]);
    assert_eq!(
        refusal(Post {
            precondition: Some(&elsewhere),
            ..post
        }),
        Code::VersionMismatch
    );
    let mut old = credential;
    old.grant = old.grant.map(|grant| grant ^ 1);
    assert_eq!(
        refusal(Post {
            pass: &Pass::token(seat, old),
            ..post
        }),
        Code::TokenRevoked
    );
    assert!(!post.pinned());
}

#[test]
fn a_join_seats_a_person_in_the_first_open_seat_with_a_new_grant() {
    let table = table(&[SeatSpec::Player("Ann".into()), SeatSpec::Open], false);
    let join = SeatChange::Join {
        wanted: Wanted::FirstOpen,
        name: "Cy".into(),
        holder: Holder::default(),
    };
    let (transition, seat) = join.apply(&table, T0).expect("joined");
    assert_eq!(seat, Seat::new(1));
    let entry = transition.next.seats.entry(seat);
    assert_eq!(
        entry.occupant,
        Occupant::Player {
            name: Some("Cy".into()),
            player: None,
        }
    );
    assert_ne!(entry.grant, table.seats.entry(seat).grant);
    assert_eq!(transition.next.seats.regranted(&table.seats), Some(seat));
    assert!(!transition.next.seats.has_open_seat());
    let again = join.apply(&transition.next, T0).expect_err("no seat left");
    assert_eq!(again.code(), Code::NoOpenSeat);
}

#[test]
fn a_resignation_hands_the_seat_to_a_bot_revokes_its_tokens_and_lets_it_play() {
    let table = two_players();
    let seat = table.game.to_act()[0];
    let credential = table.seats.entry(seat).credential();
    let resign = SeatChange::Resign {
        seat,
        holder: Holder::Token(credential),
        level: BotLevel::Random,
    };
    let (transition, changed) = resign.apply(&table, T0).expect("resigned");
    assert_eq!(changed, seat);
    let next = &transition.next;
    assert_eq!(next.seats.bot(seat), Some(BotLevel::Random));
    assert_eq!(
        next.admit(Viewer::Seat(seat), &Holder::Token(credential))
            .expect_err("revoked")
            .code(),
        Code::TokenRevoked
    );
    assert!(
        !next.game.to_act().contains(&seat) || next.game.is_over(),
        "the bot played the turn it was handed"
    );
    assert!(
        transition.events.len() > 1,
        "the announcement and the bot's moves"
    );
}

#[test]
fn a_reissue_bumps_the_generation_so_the_old_token_is_refused_and_the_new_one_admitted() {
    let table = two_players();
    let seat = Seat::new(1);
    let before = table.seats.entry(seat).credential();
    let (transition, _) = SeatChange::Reissue { seat }.apply(&table, T0).expect("reissued");
    let after = transition.next.seats.entry(seat).credential();
    assert_eq!(after.generation, before.generation + 1);
    assert!(
        transition
            .next
            .admit(Viewer::Seat(seat), &Holder::Token(after))
            .is_ok()
    );
    assert_eq!(
        transition
            .next
            .admit(Viewer::Seat(seat), &Holder::Token(before))
            .expect_err("revoked")
            .code(),
        Code::TokenRevoked
    );
    let open = table_with_open_seat();
    assert_eq!(
        SeatChange::Reissue { seat: Seat::new(1) }
            .apply(&open, T0)
            .expect_err("nobody holds it")
            .code(),
        Code::SeatNotPlayed
    );
}

fn table_with_open_seat() -> Table {
    table(&[SeatSpec::Player("Ann".into()), SeatSpec::Open], false)
}

#[test]
fn a_timeout_is_due_only_from_its_deadline_and_a_late_post_plays_it_first() {
    let table = table(
        &[SeatSpec::Player("Ann".into()), SeatSpec::Player("Bo".into())],
        true,
    );
    let deadline = table
        .clock
        .as_ref()
        .and_then(Clock::earliest)
        .expect("a deadline");
    assert_eq!(deadline, T0 + 1_000);
    assert!(Expire.apply(&table, deadline - 1).expect("no refusal").is_none());
    let expired = Expire.apply(&table, deadline).expect("no refusal").expect("due");
    let first: serde_json::Value = serde_json::from_str(expired.events[0].body.get()).expect("json");
    assert_eq!(first["type"], "clock_expired");
    assert_eq!(
        Expire
            .clock_entry(&expired.next, deadline)
            .map(|(_, earlier_only)| earlier_only),
        Some(false),
        "the sweep moves its entry on"
    );
    // A post after the deadline is judged after the timeout it missed: the seat that timed out
    // no longer acts, and the refusal carries the timeouts to write on their own.
    let (seat, action) = first_action(&table);
    let late = Post {
        pass: &Pass::token(seat, table.seats.entry(seat).credential()),
        action: &action,
        precondition: None,
    };
    match late.apply(&table, deadline + 1) {
        Err(refused) => {
            let timeouts = refused
                .timeouts
                .expect("the timeouts are due whatever the post's fate");
            assert_eq!(timeouts.next.revision.number, table.revision.number + 1);
        }
        Ok(Some(transition)) => {
            let first: serde_json::Value =
                serde_json::from_str(transition.events[0].body.get()).expect("json");
            assert_eq!(first["type"], "clock_expired", "the timeout is written first");
        }
        Ok(None) => panic!("a post always writes or is refused"),
    }
}

/// Rock the World with Ann in seat 0 and an expert in seat 1, at the first moment the expert is
/// to act (Ann playing her first listed action until then).
fn expert_to_act() -> Table {
    let mut table = table(
        &[SeatSpec::Player("Ann".into()), SeatSpec::Bot(BotLevel::Expert)],
        false,
    );
    for _ in 0..200 {
        if super::bots::turn_due(&table).is_some() {
            return table;
        }
        let (seat, action) = first_action(&table);
        let post = Post {
            pass: &Pass::token(seat, table.seats.entry(seat).credential()),
            action: &action,
            precondition: None,
        };
        table = post.apply(&table, T0).expect("applies").expect("a change").next;
    }
    panic!("the expert never came to act");
}

#[test]
fn an_expert_to_act_is_due_work_and_never_played_inside_a_write() {
    let table = expert_to_act();
    assert!(
        super::bots::turn_due(&two_players()).is_none(),
        "a game without an expert is never due"
    );
    let (seat, level) = super::bots::turn_due(&table).expect("due");
    assert_eq!((seat, level), (Seat::new(1), BotLevel::Expert));
    assert!(table.game.to_act().contains(&Seat::new(1)));
    let mut game = table.game.clone();
    assert!(
        super::bots::play_bots(&mut game, |s| table.seats.bot(s), 0).is_empty(),
        "the inline bots played the expert's turn"
    );
}

#[test]
fn a_bot_move_is_written_only_at_the_revision_it_was_chosen_at_and_only_for_the_seat_due() {
    let table = expert_to_act();
    let (seat, action) = first_action(&table);
    assert_eq!(seat, Seat::new(1));
    let action = serde_json::value::RawValue::from_string(action).expect("json");
    let stale = BotMove {
        seat,
        revision: table.revision.next(),
        action: action.clone(),
    };
    assert!(stale.apply(&table, T0).expect("no refusal").is_none());
    let wrong_seat = BotMove {
        seat: Seat::new(0),
        revision: table.revision,
        action: action.clone(),
    };
    assert!(wrong_seat.apply(&table, T0).expect("no refusal").is_none());
    let played = BotMove {
        seat,
        revision: table.revision,
        action,
    }
    .apply(&table, T0)
    .expect("applies")
    .expect("a change");
    assert_eq!(played.next.revision.number, table.revision.number + 1);
    assert!(!played.events.is_empty());
    assert_eq!(played.first_seq(), table.events + 1);
}
