//! A seat's post of an action, as a change.

use std::borrow::Cow;

use roadie_engine::{AnyGame, Seat};
use serde_json::value::RawValue;

use super::bots::{Panicked, apply_guarded, play_bots};
use super::refusal::{Code, Refusal};
use super::{Change, Log, Pass, Precondition, Refused, Table, Transition, clock};

/// One action posted by the seat a caller's `pass` plays.
#[derive(Clone, Copy, Debug)]
pub struct Post<'a> {
    /// The caller's pass: a seat token, or a player token of the seat's player.
    pub pass: &'a Pass,
    /// The action, as the client wrote it (valid JSON).
    pub action: &'a str,
    /// `If-Match`: apply only at these revisions.
    pub precondition: Option<&'a Precondition>,
}

impl Change for Post<'_> {
    /// The action applied at `now`, or why not: the precondition, the token, or the rules.
    ///
    /// A deadline is the rule: when a seat's deadline passed before `now`, its timeout is played
    /// first (as the sweep would), and the action is judged against the game that results, in
    /// the same write. When the rules then refuse the action, the refusal comes with that
    /// write of the timeouts alone, which is due whatever the action's fate.
    fn apply(&self, table: &Table, now: u64) -> Result<Option<Transition>, Refused> {
        if let Some(precondition) = self.precondition
            && !precondition.names(&table.revision)
        {
            return Err(Refusal::version_mismatch(table.revision).into());
        }
        let seat = table.seat_of(self.pass)?;
        if table.aborted {
            return Err(
                Refusal::new(Code::GameOver, "the game was aborted: nothing more can be posted").into(),
            );
        }
        let (base, mut log) = clock::due_at(table, now);
        let mut game = base.game.clone();
        let played = match apply_guarded(&mut game, seat, self.action) {
            Err(Panicked) => return Err(Refusal::internal().into()),
            Ok(Err(rejection)) => {
                let legal = game.legal_actions(seat);
                let refusal = Refusal::from_rejection(rejection, legal, game.to_act());
                let timeouts = match base {
                    Cow::Owned(next) => Some(Box::new(Transition::new(next, log))),
                    Cow::Borrowed(_) => None,
                };
                return Err(Refused { refusal, timeouts });
            }
            Ok(Ok(played)) => played,
        };
        let action = RawValue::from_string(self.action.to_owned()).map_err(|_| Refusal::internal())?;
        log.play(seat, action, now, played);
        Ok(Some(acted(table, &base, seat, game, log, now)))
    }

    fn pinned(&self) -> bool {
        self.precondition.is_some()
    }
}

/// The write after `seat` acted: `game` is `base` (`table` with the deadlines due by `now`
/// played) after the action, and `log` what both caused. The inline bots then play, and the
/// actor's clock stops while the clocks of the seats to act start.
pub(super) fn acted(
    table: &Table,
    base: &Table,
    seat: Seat,
    mut game: AnyGame,
    mut log: Log,
    now: u64,
) -> Transition {
    log.append(play_bots(&mut game, |seat| base.seats.bot(seat), now));
    let clock = base
        .clock
        .as_ref()
        .map(|clock| clock.after(Some(seat), &game.to_act(), now));
    let mut next = table.succeeded_by(game, log.len() as u64, clock, now);
    // The seats whose deadlines passed forfeited a rated game: `base` holds their forfeits when
    // it is not `table` itself.
    if !std::ptr::eq(table, base) {
        next.rated.clone_from(&base.rated);
    }
    Transition::new(next, log)
}
