//! INFLUENCES (step 8), the emergency draw to hand and the hand limit (RULINGS 7).

use super::*;

/// Runs this module's automatic steps; returns a decision that still waits for its seat.
pub(super) fn step(game: &mut ShowBusiness, task: Task, ev: &mut Events) -> Option<Task> {
    match task {
        Task::Influences { seat } => {
            let can_buy = (1..=4u8)
                .any(|f| game.influence_market[f as usize - 1].is_some() && game.coverable(seat, f as i64));
            if game.players[seat].hand.len() >= game.hand_limit(seat) || (!game.can_draw() && !can_buy) {
                return None;
            }
            Some(task)
        }
        Task::HandDiscard { seat } => (game.players[seat].hand.len() > game.hand_limit(seat)).then_some(task),
        Task::DrawToHand { seat } => {
            if game.solvent(seat) {
                game.draw_to_hand(seat, ev);
            }
            None
        }
        _ => None,
    }
}

/// The actions `seat` may post at this module's decision `task`.
pub(super) fn legal(game: &ShowBusiness, seat: Seat, task: &Task, out: &mut Vec<Action>) {
    let p = &game.players[seat];
    match task {
        Task::Influences { .. } => {
            if game.can_draw() {
                out.push(Action::Draw);
            }
            for f in 1..=4u8 {
                if game.influence_market[f as usize - 1].is_some() && game.coverable(seat, f as i64) {
                    out.push(Action::Buy { field: f });
                }
            }
        }
        Task::HandDiscard { .. } => out.extend(p.hand.iter().map(|&c| Action::Discard { card: c })),
        _ => {}
    }
}

/// Applies `action`, legal at this module's decision `task` (already taken off the queue).
pub(super) fn exec(game: &mut ShowBusiness, seat: Seat, task: Task, action: &Action, ev: &mut Events) {
    match (task, action) {
        (t @ Task::Influences { .. }, Action::Draw) => {
            game.queue.push_front(t);
            if !game.draw_to_hand(seat, ev) {
                let mut tasks = game.emergency_clearing();
                tasks.push(Task::DrawToHand { seat });
                tell(ev, GameEvent::EmergencyClearing);
                game.push_front_all(tasks);
            }
        }
        (t @ Task::Influences { .. }, Action::Buy { field }) => {
            game.queue.push_front(t);
            game.pay_voluntary(seat, *field as i64, Then::Buy(*field), ev);
        }
        (t @ Task::HandDiscard { .. }, Action::Discard { card }) => {
            game.queue.push_front(t);
            game.take_from_hand(seat, *card);
            game.influence_discard.push(*card);
            tell(ev, GameEvent::Discarded { seat, card: *card });
        }
        (t, _) => game.queue.push_front(t),
    }
}

pub(super) const RULES: Rules = Rules { step, legal, exec };
