//! The end of the game: the final penalties and the score.

use super::*;

/// Runs this module's automatic steps; returns a decision that still waits for its seat.
pub(super) fn step(game: &mut ShowBusiness, task: Task, ev: &mut Events) -> Option<Task> {
    match task {
        Task::EndPenalty { seat } => {
            if game.solvent(seat) {
                let sat = game.players[seat].satisfaction;
                game.lose_popularity(
                    seat,
                    (MAX_SATISFACTION - sat) as i64,
                    PopularityCause::EndSatisfaction,
                    ev,
                );
                let missing = game.occupied(seat)[..MANDATORY_FIELDS as usize]
                    .iter()
                    .filter(|&&x| !x)
                    .count();
                game.lose_popularity(seat, missing as i64, PopularityCause::EndIncompleteBand, ev);
                if game.players[seat].scandal {
                    game.queue.push_front(Task::Draw {
                        seat,
                        left: 1,
                        best: 0,
                        purpose: DrawPurpose::EndScandal,
                        retried: false,
                    });
                }
            }
            None
        }
        Task::Finish => {
            let outcome = game.compute_outcome();
            let scores = outcome
                .scores
                .iter()
                .map(|s| FinalScore {
                    seat: s.seat,
                    popularity: game.players[s.seat].popularity,
                    cash: game.players[s.seat].cash,
                    total: s.total,
                    rank: s.rank,
                })
                .collect();
            ev.push(Event::public(GameEvent::GameOver {
                winners: outcome.winners.clone(),
                scores,
            }));
            game.result = Some(outcome);
            game.queue.clear();
            None
        }
        _ => None,
    }
}

pub(super) const RULES: Rules = Rules {
    step,
    legal: no_actions,
    exec: keep_task,
};
