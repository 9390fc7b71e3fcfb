//! The trend dice, TREND EXPERT (S29) and the event rondel with its steps: trend change,
//! popularity check, salaries, integration and royalties.

use super::*;

impl ShowBusiness {
    /// S4 / TREND CHANGE: roll white, blue, yellow, red; face 6 is the blank.
    pub(crate) fn roll_dice(&mut self, ev: &mut Events) {
        for (i, die) in Die::ALL.into_iter().enumerate() {
            let face = self.rng.roll(6);
            ev.push(Event::sealed(GameEvent::Rolled { die, face }));
            self.dice[i] = if face == 6 { None } else { Some(face - 1) };
            tell(
                ev,
                GameEvent::DieShows {
                    die,
                    face: self.dice[i].map(|v| die.face_name(v)),
                    seat: None,
                },
            );
        }
    }

    /// RULINGS 3: TREND EXPERT returns to its owner's influence field; S34: a bankrupt
    /// placer's card goes to the discard pile.
    pub(crate) fn return_trend_expert(&mut self, ev: &mut Events) {
        if let Some((card, placer)) = self.trend_expert.take() {
            let discarded = !self.solvent(placer);
            if discarded {
                self.influence_discard.push(card);
            } else {
                self.players[placer].influence_field.push(card);
            }
            tell(
                ev,
                GameEvent::TrendExpertReturned {
                    seat: placer,
                    card,
                    discarded,
                },
            );
        }
    }
}

/// Runs this module's automatic steps; returns a decision that still waits for its seat.
pub(super) fn step(game: &mut ShowBusiness, task: Task, ev: &mut Events) -> Option<Task> {
    match task {
        Task::RondelStep => {
            game.rondel = (game.rondel + 1) % RONDEL.len() as u8;
            tell(
                ev,
                GameEvent::RondelMoved {
                    field: RONDEL[game.rondel as usize].into(),
                    cause: RondelCause::Step,
                },
            );
            let seats = game.in_turn_order();
            let tasks: Vec<Task> = match game.rondel {
                0 => vec![Task::TrendChange],
                1 => seats
                    .into_iter()
                    .map(|seat| Task::PopCheck { seat })
                    .chain([Task::ScandalsUpright])
                    .collect(),
                2 => seats.into_iter().map(|seat| Task::Salary { seat }).collect(),
                3 => seats.into_iter().map(|seat| Task::Integration { seat }).collect(),
                _ => seats.into_iter().map(|seat| Task::Royalty { seat }).collect(),
            };
            game.push_front_all(tasks);
            None
        }
        Task::TrendChange => {
            if let Some((_, seat)) = game.trend_expert {
                tell(ev, GameEvent::TrendChangeBlocked { seat });
            } else {
                game.roll_dice(ev);
            }
            None
        }
        Task::PopCheck { seat } => {
            if game.solvent(seat) {
                let scandal = game.players[seat].scandal;
                let charted = game.has_top5_song(seat);
                if scandal || !charted {
                    game.queue.push_front(Task::Draw {
                        seat,
                        left: 1,
                        best: 0,
                        purpose: DrawPurpose::PopularityCheck {
                            double: scandal && !charted,
                        },
                        retried: false,
                    });
                }
            }
            None
        }
        Task::ScandalsUpright => {
            let seats: Vec<Seat> = Seat::all(game.n()).filter(|&s| game.players[s].scandal).collect();
            for p in game.players.iter_mut() {
                p.scandal = false;
            }
            if !seats.is_empty() {
                tell(
                    ev,
                    GameEvent::Scandal {
                        seats,
                        running: false,
                    },
                );
            }
            None
        }
        Task::Salary { seat } => {
            if game.solvent(seat) {
                let amount = SALARY_PER_ARTIST * game.players[seat].band.len() as i64
                    + game.tokens_on_band(seat) as i64;
                game.push_front_all(vec![
                    Task::Pay {
                        seat,
                        amount,
                        reason: Payment::Salaries,
                    },
                    Task::SatisfactionUp { seat },
                ]);
            }
            None
        }
        Task::SatisfactionUp { seat } => {
            if game.solvent(seat) {
                game.raise_satisfaction(seat, 1, SatisfactionCause::Salaries, ev);
            }
            None
        }
        Task::Integration { seat } => {
            if game.solvent(seat) {
                let sat = game.players[seat].satisfaction;
                let band = std::mem::take(&mut game.players[seat].band);
                let (leave, stay): (Vec<_>, Vec<_>) =
                    band.into_iter().partition(|a| a.card.card().independence > sat);
                game.players[seat].band = stay;
                for a in leave {
                    tell(ev, GameEvent::ArtistLeft { seat, artist: a.card });
                    game.artist_discard.push(a.card);
                    game.used_tokens.extend(a.tokens);
                }
                game.queue.push_front(Task::HandDiscard { seat });
            }
            None
        }
        Task::Royalty { seat } => {
            if game.solvent(seat) {
                let pop = game.players[seat].popularity;
                if pop > 0 {
                    let pay = match game.options.royalties {
                        RoyaltyBasis::TrueValue => pop,
                        RoyaltyBasis::PrintedField => (pop - 1) % 50 + 1,
                    };
                    game.players[seat].cash += pay;
                    tell(
                        ev,
                        GameEvent::Earned {
                            seat,
                            amount: pay,
                            reason: Income::Royalties,
                        },
                    );
                } else if pop < 0 {
                    game.queue.push_front(Task::Pay {
                        seat,
                        amount: -pop,
                        reason: Payment::Royalties,
                    });
                }
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
