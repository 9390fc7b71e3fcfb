//! RECRUITMENT (S18).

use super::*;

impl ShowBusiness {
    pub(crate) fn recruit_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.players[seat].band.len() >= MAX_ARTISTS {
            return;
        }
        let pw = self.active_power(seat);
        let occ = self.occupied(seat);
        for f in 1..=pw.min(4) {
            if let Some(a) = self.artist_market[f as usize - 1] {
                for p in placements(a, occ).iter() {
                    for side_b in [false, true] {
                        out.push(Action::Recruit {
                            field: f,
                            side_b,
                            fields: p.to_vec(),
                        });
                    }
                }
            }
        }
    }
}

/// This module's tasks are decisions: each waits for its seat.
pub(super) fn step(_: &mut ShowBusiness, task: Task, _: &mut Events) -> Option<Task> {
    Some(task)
}

/// The actions `seat` may post at this module's decision `task`.
pub(super) fn legal(game: &ShowBusiness, seat: Seat, task: &Task, out: &mut Vec<Action>) {
    if let Task::Recruit { .. } = task {
        game.recruit_actions(seat, out);
        out.push(Action::EndAction);
    }
}

/// Applies `action`, legal at this module's decision `task` (already taken off the queue).
pub(super) fn exec(game: &mut ShowBusiness, seat: Seat, task: Task, action: &Action, ev: &mut Events) {
    match (task, action) {
        (
            t @ Task::Recruit { .. },
            Action::Recruit {
                field,
                side_b,
                fields,
            },
        ) => {
            game.queue.push_front(t);
            if let Some(a) = game.artist_market[*field as usize - 1].take() {
                game.players[seat].band.push(BandArtist {
                    card: a,
                    side_b: *side_b,
                    fields: fields.clone(),
                    tokens: vec![],
                });
                tell(
                    ev,
                    GameEvent::Recruited {
                        seat,
                        artist: a,
                        market_field: *field,
                        side_b: *side_b,
                        fields: fields.clone(),
                    },
                );
                game.raise_satisfaction(seat, 1, SatisfactionCause::Recruitment, ev);
            }
        }
        (Task::Recruit { .. }, Action::EndAction) => {}
        (t, _) => game.queue.push_front(t),
    }
}

pub(super) const RULES: Rules = Rules { step, legal, exec };
