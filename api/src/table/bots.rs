//! The one place bots play, and the one place the rules are guarded against a panic.
//!
//! The heuristic levels (`random`, `greedy`) decide in microseconds: they play inside the write
//! that hands them the turn, so a game of them alone ends within the write that starts it. The
//! expert searches for tens of milliseconds or more: a game whose expert seat is to act is filed
//! as due work ([`turn_due`]), and a worker of any process plays its move apart from every
//! request, as a [`super::bot_move::BotMove`].

use rand::SeedableRng;
use roadie_engine::{AnyGame, BotLevel, Event, Rejection, Seat};
use serde_json::value::RawValue;

use super::{Log, Table};

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

/// Whether a bot of `level` plays inside the write that hands it the turn.
pub fn plays_inline(level: BotLevel) -> bool {
    !matches!(level, BotLevel::Expert)
}

/// The seat of `table` whose bot, one that does not play inline, is to act: the game is then
/// due work for the bot workers. `None` when the game is over or no such seat is to act.
/// Every write asks: a game without such a bot answers from its seat table alone.
pub fn turn_due(table: &Table) -> Option<(Seat, BotLevel)> {
    if !table.seats.has_bot(|level| !plays_inline(level)) || table.is_over() {
        return None;
    }
    table.game.to_act().into_iter().find_map(|seat| {
        table
            .seats
            .bot(seat)
            .filter(|level| !plays_inline(*level))
            .map(|level| (seat, level))
    })
}

/// Plays every seat that `bot` names an inline bot of while it is one to act, until a person or
/// a bot played apart is to act, or the game ends, and returns what they played at `at`.
pub fn play_bots(game: &mut AnyGame, bot: impl Fn(Seat) -> Option<BotLevel>, at: u64) -> Log {
    let mut log = Log::default();
    // Drawn from the OS once a bot is to act: every post comes here, most with no bot to play,
    // and a `getrandom` call each was a quarter of the service's system calls.
    let mut rng = None;
    for _ in 0..MAX_BOT_ACTIONS {
        if game.is_over() {
            break;
        }
        let Some((seat, level)) = game.to_act().into_iter().find_map(|seat| {
            bot(seat)
                .filter(|level| plays_inline(*level))
                .map(|level| (seat, level))
        }) else {
            break;
        };
        let rng = rng.get_or_insert_with(rand::rngs::StdRng::from_os_rng);
        let Some(action) = game.bot_action(seat, level, rng) else {
            tracing::error!(
                ruleset = game.ruleset().slug,
                seat = seat.index(),
                "a bot to act found no legal action"
            );
            break;
        };
        match apply_guarded(game, seat, action.get()) {
            Ok(Ok(more)) => log.play(seat, action, at, more),
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
    log
}
