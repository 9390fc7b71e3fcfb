//! Setting up a game (R11, R13).

use super::actions::{MAX_TURNS_PER_SEAT, Options};
use super::components::Tokens;
use super::components::{PlayCardId, START_CASH, START_SPACE, TOKEN_SUPPLY};
use super::events::GameEvent;
use super::rules::deck_order;
use super::state::{Player, RockTheWorld, Stage};
use crate::rng::GameRng;
use crate::{BySeat, Event, Seat, SetupError, Started};

/// R11/R13: the first seat, the shuffled deck, every cutout on New York with $100,000.
pub(super) fn new_game(
    options: Options,
    seats: usize,
    seed: u64,
) -> Result<Started<RockTheWorld>, SetupError> {
    if options.max_turns_per_seat > MAX_TURNS_PER_SEAT {
        return Err(SetupError::Options(format!(
            "max_turns_per_seat is from 0 (off) to {MAX_TURNS_PER_SEAT}; it was {}",
            options.max_turns_per_seat
        )));
    }
    if options.colours.len() < seats {
        return Err(SetupError::Options(format!(
            "colours lists {} colours for {seats} seats",
            options.colours.len()
        )));
    }
    for (i, c) in options.colours.iter().enumerate() {
        if options.colours[..i].contains(c) {
            return Err(SetupError::Options(format!("colour {c:?} is listed twice")));
        }
    }
    if let Some(first) = options.first_seat
        && first.index() >= seats
    {
        return Err(SetupError::Options(format!(
            "first_seat {first} does not exist; seats are 0 to {}",
            seats - 1
        )));
    }

    let mut rng = GameRng::new(seed);
    let mut events = Vec::new();
    let first = match options.first_seat {
        Some(seat) => {
            events.push(Event::public(GameEvent::FirstSeat { seat, drawn: false }));
            seat
        }
        None => {
            let seat = Seat::new(rng.below(seats));
            let body = GameEvent::FirstSeat { seat, drawn: true };
            events.push(Event::sealed(body.clone()));
            events.push(Event::public(body));
            seat
        }
    };
    let mut deck: Vec<PlayCardId> = PlayCardId::all().collect();
    rng.shuffle(&mut deck);
    events.push(Event::sealed(GameEvent::DeckShuffled {
        order: deck_order(&deck),
    }));

    let players = BySeat::from_fn(seats, |s| Player {
        colour: options.colours[s.index()],
        space: START_SPACE,
        cash: START_CASH,
        tokens: Tokens::default(),
        out: false,
        turns: u32::from(s == first),
    });
    events.push(Event::public(GameEvent::TurnStarted { seat: first, turn: 1 }));
    let game = RockTheWorld {
        options,
        players,
        holders: [None; 16],
        supply: Tokens::each(TOKEN_SUPPLY),
        spent: Tokens::default(),
        rocker: None,
        deck,
        discard: Vec::new(),
        active: first,
        step: Stage::Roll,
        eliminated: Vec::new(),
        last_roll: None,
        bank_paid: 0,
        bank_received: 0,
        rng,
    };
    Ok((game, events))
}
