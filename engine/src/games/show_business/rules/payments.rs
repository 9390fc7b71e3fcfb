//! Payments, PERFORM IN ADVERTISING (S33) and bankruptcy (S34).

use super::*;

impl ShowBusiness {
    /// S33: a payment is coverable if advertising down to −25 raises enough.
    pub(crate) fn coverable(&self, seat: Seat, amount: i64) -> bool {
        let p = &self.players[seat];
        p.cash + FONS_PER_FIELD * (p.popularity - POPULARITY_FLOOR).max(0) >= amount
    }

    pub(crate) fn pay_voluntary(&mut self, seat: Seat, cost: i64, then: Then, ev: &mut Events) {
        if self.players[seat].cash >= cost {
            self.players[seat].cash -= cost;
            tell(
                ev,
                GameEvent::Paid {
                    seat,
                    amount: cost,
                    reason: then.payment(),
                },
            );
            self.do_then(seat, then, ev);
        } else {
            self.queue.push_front(Task::Advertise {
                seat,
                due: cost,
                then,
            });
        }
    }

    pub(crate) fn do_then(&mut self, seat: Seat, then: Then, ev: &mut Events) {
        match then {
            Then::Mandatory(_) => {}
            Then::Review(market, field) => {
                let f = field as usize - 1;
                match market {
                    Market::Influence => {
                        if let Some(c) = self.influence_market[f].take() {
                            self.influence_discard.push(c);
                            tell(
                                ev,
                                GameEvent::MarketDiscard {
                                    seat: Some(seat),
                                    market,
                                    field,
                                    card: c.id().to_owned(),
                                },
                            );
                        }
                    }
                    Market::Artist => {
                        if let Some(a) = self.artist_market[f].take() {
                            self.artist_discard.push(a);
                            tell(
                                ev,
                                GameEvent::MarketDiscard {
                                    seat: Some(seat),
                                    market,
                                    field,
                                    card: a.id().to_owned(),
                                },
                            );
                        }
                    }
                }
            }
            Then::Buy(field) => {
                if let Some(c) = self.influence_market[field as usize - 1].take() {
                    self.players[seat].hand.push(c);
                    for v in Seat::all(self.n()) {
                        if v != seat {
                            self.known.push((c, v));
                        }
                    }
                    tell(ev, GameEvent::Bought { seat, field, card: c });
                }
            }
            Then::Promote(song) => {
                let Some(f) = self.first_empty_chart_field() else {
                    return;
                };
                let songs = &mut self.players[seat].songs;
                if let Some(i) = songs.iter().position(|s| s.id == song) {
                    let s = songs.remove(i);
                    self.chart[f].push(crate::games::show_business::state::ChartSong {
                        song: s,
                        disclosed: false,
                    });
                    tell(
                        ev,
                        GameEvent::Promoted {
                            seat,
                            song,
                            field: f as u8 + 1,
                        },
                    );
                }
            }
        }
    }

    /// S34: bankruptcy.
    pub(crate) fn go_bankrupt(&mut self, seat: Seat, ev: &mut Events) {
        self.bankruptcies += 1;
        let order = self.bankruptcies;
        let p = &mut self.players[seat];
        p.bankrupt = Some(order);
        p.cash = 0;
        p.time = None;
        let hand = std::mem::take(&mut p.hand);
        let field = std::mem::take(&mut p.influence_field);
        let band = std::mem::take(&mut p.band);
        p.songs.clear();
        p.blanks = [false; 3];
        for c in hand.iter().chain(field.iter()) {
            self.influence_discard.push(*c);
        }
        for a in band {
            self.artist_discard.push(a.card);
            self.used_tokens.extend(a.tokens);
        }
        tell(
            ev,
            GameEvent::Bankrupt {
                seat,
                order,
                hand: hand.clone(),
            },
        );
        for c in hand {
            self.forget(c);
        }
    }
}

/// Runs this module's automatic steps; returns a decision that still waits for its seat.
pub(super) fn step(game: &mut ShowBusiness, task: Task, ev: &mut Events) -> Option<Task> {
    match task {
        Task::Pay { seat, amount, reason } => {
            if !game.solvent(seat) || amount <= 0 {
                return None;
            }
            if game.players[seat].cash >= amount {
                game.players[seat].cash -= amount;
                tell(ev, GameEvent::Paid { seat, amount, reason });
                None
            } else if game.coverable(seat, amount) {
                Some(Task::Advertise {
                    seat,
                    due: amount,
                    then: Then::Mandatory(reason),
                })
            } else {
                game.go_bankrupt(seat, ev);
                None
            }
        }
        task @ Task::Advertise { .. } => Some(task),
        _ => None,
    }
}

/// The actions `seat` may post at this module's decision `task`.
pub(super) fn legal(game: &ShowBusiness, seat: Seat, task: &Task, out: &mut Vec<Action>) {
    let p = &game.players[seat];
    if let Task::Advertise { due, .. } = task {
        let short = (due - p.cash).max(0);
        let min = (short + FONS_PER_FIELD - 1) / FONS_PER_FIELD;
        let max = (p.popularity - POPULARITY_FLOOR).max(0);
        out.extend((min..=max).map(|f| Action::Advertise { fields: f as u32 }));
    }
}

/// Applies `action`, legal at this module's decision `task` (already taken off the queue).
pub(super) fn exec(game: &mut ShowBusiness, seat: Seat, task: Task, action: &Action, ev: &mut Events) {
    match (task, action) {
        (Task::Advertise { due, then, .. }, Action::Advertise { fields }) => {
            let p = &mut game.players[seat];
            let from = p.popularity;
            p.popularity -= *fields as i64;
            let raised = FONS_PER_FIELD * *fields as i64;
            p.cash += raised - due;
            let to = p.popularity;
            tell(
                ev,
                GameEvent::Advertised {
                    seat,
                    fields: *fields,
                    raised,
                },
            );
            tell(
                ev,
                GameEvent::Popularity {
                    seat,
                    from,
                    to,
                    cause: PopularityCause::Advertising,
                },
            );
            tell(
                ev,
                GameEvent::Paid {
                    seat,
                    amount: due,
                    reason: then.payment(),
                },
            );
            game.do_then(seat, then, ev);
        }
        (t, _) => game.queue.push_front(t),
    }
}

pub(super) const RULES: Rules = Rules { step, legal, exec };
