//! QUARTER END (the start of CHARTS, steps 2-4, CLEARING) and the emergency CLEARING (S32).

use super::*;

impl ShowBusiness {
    /// QUARTER END 3: one point per artist playing another style than the seat's highest
    /// ranked song on fields 1-5, or one per artist without such a song. S41: of several own
    /// songs sharing that best field, the one that costs the least counts.
    pub(crate) fn satisfaction_loss(&self, seat: Seat) -> usize {
        let band = &self.players[seat].band;
        let off_style = |style: Style| {
            band.iter()
                .filter(|a| a.card.card().style(a.side_b) != style)
                .count()
        };
        self.chart
            .iter()
            .take(5)
            .find(|field| field.iter().any(|s| s.song.owner == seat))
            .and_then(|field| {
                field
                    .iter()
                    .filter(|s| s.song.owner == seat)
                    .map(|s| off_style(s.song.style))
                    .min()
            })
            .unwrap_or(band.len())
    }

    pub(crate) fn has_top5_song(&self, seat: Seat) -> bool {
        self.chart
            .iter()
            .take(5)
            .flatten()
            .any(|s| s.song.owner == seat && s.disclosed)
    }

    pub(crate) fn emergency_clearing(&self) -> Vec<Task> {
        self.solvent_in_order()
            .into_iter()
            .map(|seat| Task::Clearing { seat })
            .collect()
    }

    pub(crate) fn any_influence_field(&self) -> bool {
        self.players
            .iter()
            .any(|p| p.bankrupt.is_none() && !p.influence_field.is_empty())
    }

    pub(crate) fn can_draw(&self) -> bool {
        !self.influence_pile.is_empty() || !self.influence_discard.is_empty() || self.any_influence_field()
    }
}

/// Runs this module's automatic steps; returns a decision that still waits for its seat.
pub(super) fn step(game: &mut ShowBusiness, task: Task, ev: &mut Events) -> Option<Task> {
    match task {
        Task::Clearing { seat } => {
            if game.solvent(seat) {
                let sum: i64 = game.players[seat]
                    .influence_field
                    .iter()
                    .map(|&c| c.power() as i64)
                    .sum();
                game.push_front_all(vec![
                    Task::Pay {
                        seat,
                        amount: sum,
                        reason: Payment::Clearing,
                    },
                    Task::DiscardField { seat },
                ]);
            }
            None
        }
        Task::DiscardField { seat } => {
            let field = std::mem::take(&mut game.players[seat].influence_field);
            if !field.is_empty() {
                tell(
                    ev,
                    GameEvent::FieldDiscarded {
                        seat,
                        cards: field.clone(),
                    },
                );
            }
            game.influence_discard.extend(field);
            None
        }
        Task::QuarterEnd => {
            game.qe_pending = false;
            let mut restocked = Vec::new();
            if game.options.restock == Restock::QuarterEnd {
                for (seat, p) in game.players.seats_mut() {
                    if p.bankrupt.is_none() {
                        p.blanks = [true; 3];
                        restocked.push(seat);
                    }
                }
            }
            tell(ev, GameEvent::QuarterEnd { restocked });
            game.start_charts(ev);
            let mut tasks = vec![Task::Charts, Task::QePopularity, Task::QeSatisfaction];
            tasks.extend(
                game.in_turn_order()
                    .into_iter()
                    .map(|seat| Task::Clearing { seat }),
            );
            game.push_front_all(tasks);
            None
        }
        Task::QePopularity => {
            for seat in game.in_turn_order() {
                let t = game.tokens_on_band(seat) as i64;
                if game.solvent(seat) && t > 0 {
                    game.gain_popularity(seat, t, PopularityCause::Experience, ev);
                }
            }
            None
        }
        Task::QeSatisfaction => {
            for seat in game.in_turn_order() {
                if !game.solvent(seat) {
                    continue;
                }
                let loss = game.satisfaction_loss(seat);
                game.lower_satisfaction(seat, loss as u8, SatisfactionCause::SatisfactionCheck, ev);
            }
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
