//! The one place bots play, and the one place the rules are guarded against a panic.

use rand::SeedableRng;
use roadie_engine::{AnyGame, BotLevel, Event, Rejection, Seat};
use serde_json::value::RawValue;

use super::StoredEvent;

/// The most bot actions one write plays: far more than any of our games lasts, so a game of
/// bots alone ends within the write that starts it, yet a ruleset that never ended could not
/// hold a write forever.
pub const MAX_BOT_ACTIONS: usize = 20_000;

/// The rules panicked: a bug, never the client's doing. The game it was applied to is left as
/// the panic left it, for the caller to discard.
#[derive(Debug)]
pub struct Panicked;

/// `work` (the rules, a bot) run with a panic caught and logged: the one place Roadie catches
/// one. Whatever `work` changed is for the caller to discard.
pub fn guarded<T>(work: impl FnOnce() -> T) -> Result<T, Panicked> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(|_| Panicked)
}

/// What the rules answer to an action: its events, or why they refuse it.
pub type Applied = Result<Vec<Event<Box<RawValue>>>, Rejection>;

/// `action` applied for `seat` to `game`, with a panic in the rules caught. A rejection leaves
/// `game` unchanged (the contract checks legality before any effect).
pub fn apply_guarded(game: &mut AnyGame, seat: Seat, action: &str) -> Result<Applied, Panicked> {
    let ruleset = game.ruleset().slug;
    match guarded(|| game.apply(seat, action)) {
        Ok(applied) => Ok(applied),
        Err(Panicked) => {
            tracing::error!(
                ruleset,
                seat = seat.index(),
                "the rules panicked applying an action"
            );
            Err(Panicked)
        }
    }
}

/// Plays every seat that `bot` names a bot of while it is one to act, until a person is to act
/// or the game ends, and returns what they caused.
pub fn play_bots(game: &mut AnyGame, bot: impl Fn(Seat) -> Option<BotLevel>) -> Vec<StoredEvent> {
    let mut events = Vec::new();
    let mut rng = rand::rngs::StdRng::from_os_rng();
    for _ in 0..MAX_BOT_ACTIONS {
        if game.is_over() {
            break;
        }
        let Some((seat, level)) = game
            .to_act()
            .into_iter()
            .find_map(|seat| bot(seat).map(|level| (seat, level)))
        else {
            break;
        };
        let Some(action) = game.bot_action(seat, level, &mut rng) else {
            tracing::error!(
                ruleset = game.ruleset().slug,
                seat = seat.index(),
                "a bot to act found no legal action"
            );
            break;
        };
        match apply_guarded(game, seat, action.get()) {
            Ok(Ok(more)) => events.extend(more.into_iter().map(StoredEvent::from)),
            Ok(Err(rejection)) => {
                tracing::error!(
                    ruleset = game.ruleset().slug,
                    seat = seat.index(),
                    ?rejection,
                    "the rules refused a bot's legal action"
                );
                break;
            }
            Err(Panicked) => break,
        }
    }
    events
}
