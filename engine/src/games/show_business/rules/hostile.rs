//! Hostile activities and defences (S21-S26): A&R, SPONSOR, GROUPIE, DISORDER, FEMME FATALE's choice.

use std::ops::ControlFlow;

use super::*;

impl ShowBusiness {
    pub(crate) fn targets(&self, seat: Seat) -> Vec<Seat> {
        Seat::all(self.n())
            .filter(|&s| s != seat && self.solvent(s))
            .collect()
    }

    /// S25: every legal GROUPIE exchange `(take, give, mine, theirs)`.
    pub(crate) fn groupie_combos(
        &self,
        seat: Seat,
        target: Seat,
    ) -> Vec<(ArtistId, ArtistId, Vec<u8>, Vec<u8>)> {
        let mut out = Vec::new();
        let _every = self.groupie_exchanges(seat, target, |take, give, mine, theirs| {
            out.push((take, give, mine.to_vec(), theirs.to_vec()));
            ControlFlow::Continue(())
        });
        out
    }

    /// S25: whether `seat` has a legal GROUPIE exchange with `target`.
    pub(crate) fn groupie_possible(&self, seat: Seat, target: Seat) -> bool {
        self.groupie_exchanges(seat, target, |_, _, _, _| ControlFlow::Break(()))
            .is_break()
    }

    /// S25: each legal GROUPIE exchange `(take, give, mine, theirs)` in turn, until `each`
    /// breaks.
    fn groupie_exchanges(
        &self,
        seat: Seat,
        target: Seat,
        mut each: impl FnMut(ArtistId, ArtistId, &[u8], &[u8]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let my_occ = self.occupied(seat);
        let their_occ = self.occupied(target);
        for ta in &self.players[target].band {
            // The mandatory fields the taken artist covers, a bit each.
            let t_orange = ta
                .fields
                .iter()
                .filter(|&&f| f < MANDATORY_FIELDS)
                .fold(0u8, |m, &f| m | 1 << f);
            for ga in &self.players[seat].band {
                if t_orange != 0 && !ga.fields.iter().any(|&f| f < 8 && t_orange & 1 << f != 0) {
                    continue;
                }
                let mut mine_free = my_occ;
                for &f in &ga.fields {
                    mine_free[f as usize] = false;
                }
                let mut theirs_free = their_occ;
                for &f in &ta.fields {
                    theirs_free[f as usize] = false;
                }
                let theirs_opts = placements(ga.card, theirs_free);
                for mine in placements(ta.card, mine_free).iter() {
                    for theirs in theirs_opts.iter() {
                        each(ta.card, ga.card, mine, theirs)?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    pub(crate) fn paparazzi_allowed(&self, seat: Seat) -> bool {
        match self.options.paparazzi_block {
            PaparazziBlock::Popularity => !self.players[seat].scandal,
            PaparazziBlock::Time => self.order.last() != Some(&seat),
        }
    }

    /// A hostile activity is declared; the target answers it (S21).
    pub(crate) fn attack(
        &mut self,
        attacker: Seat,
        target: Seat,
        card: CardId,
        attack: Attack,
        ev: &mut Events,
    ) {
        let hostile = attack.announced();
        tell(
            ev,
            GameEvent::Attacked {
                attacker,
                target,
                card,
                attack: hostile,
            },
        );
        self.queue.push_front(Task::Defend {
            target,
            attacker,
            card,
            attack,
        });
    }

    pub(crate) fn resolve_attack(&mut self, attacker: Seat, target: Seat, attack: Attack, ev: &mut Events) {
        match attack {
            Attack::AAndR => {
                let (a, t) = (self.players[attacker].time, self.players[target].time);
                self.players[attacker].time = t;
                self.players[target].time = a;
                tell(ev, GameEvent::TimeSwapped { attacker, target });
            }
            Attack::Sponsor { power } => {
                let hand = self.players[target].hand.clone();
                ev.push(Event {
                    audience: crate::Audience::Seats(vec![attacker.min(target), attacker.max(target)]),
                    body: GameEvent::HandShown {
                        attacker,
                        target,
                        cards: Some(hand.clone()),
                    },
                });
                tell(
                    ev,
                    GameEvent::HandShown {
                        attacker,
                        target,
                        cards: None,
                    },
                );
                for c in hand {
                    self.known.push((c, attacker));
                }
                self.queue.push_front(Task::SponsorSwap {
                    seat: attacker,
                    target,
                    left: power,
                });
            }
            Attack::Disorder { amount } => {
                self.lower_satisfaction(target, amount, SatisfactionCause::Disorder { attacker }, ev);
            }
            Attack::Groupie {
                take,
                give,
                mine,
                theirs,
            } => {
                let tb = &mut self.players[target].band;
                let Some(ti) = tb.iter().position(|a| a.card == take) else {
                    return;
                };
                let mut taken = tb.remove(ti);
                let ab = &mut self.players[attacker].band;
                let Some(gi) = ab.iter().position(|a| a.card == give) else {
                    self.players[target].band.push(taken);
                    return;
                };
                let mut given = ab.remove(gi);
                taken.fields = mine;
                given.fields = theirs;
                self.players[attacker].band.push(taken);
                self.players[target].band.push(given);
                tell(
                    ev,
                    GameEvent::ArtistsExchanged {
                        attacker,
                        target,
                        take,
                        give,
                    },
                );
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
    let p = &game.players[seat];
    match task {
        Task::Defend { card, .. } => {
            let attacking = card.card();
            for &c in &p.hand {
                let def = c.card();
                if def.character == Character::Bodyguard
                    || (def.character == attacking.character && def.power >= attacking.power)
                {
                    out.push(Action::Defend { card: c });
                }
            }
            out.push(Action::Decline);
        }
        Task::SponsorSwap { target, .. } => {
            for &g in &p.hand {
                for &t in &game.players[*target].hand {
                    out.push(Action::Swap { give: g, take: t });
                }
            }
            out.push(Action::Stop);
        }
        Task::Groupie {
            target,
            take,
            give,
            mine,
            ..
        } => {
            let combos = game.groupie_combos(seat, *target);
            let mut push = |a: Action| {
                if !out.contains(&a) {
                    out.push(a);
                }
            };
            for (t, g, m, th) in combos {
                match (take, give, mine) {
                    (None, _, _) => push(Action::GroupieTake { artist: t }),
                    (Some(tk), None, _) if *tk == t => push(Action::GroupieGive { artist: g }),
                    (Some(tk), Some(gv), None) if *tk == t && *gv == g => {
                        push(Action::GroupiePlaceMine { fields: m })
                    }
                    (Some(tk), Some(gv), Some(mn)) if *tk == t && *gv == g && *mn == m => {
                        push(Action::GroupiePlaceTheirs { fields: th })
                    }
                    _ => {}
                }
            }
        }
        Task::FemmeChoice { .. } => {
            out.push(Action::Integration);
            if !game.last_turn {
                out.extend(
                    game.targets(seat)
                        .into_iter()
                        .map(|target| Action::Disorder { target }),
                );
            }
        }
        _ => {}
    }
}

/// Applies `action`, legal at this module's decision `task` (already taken off the queue).
pub(super) fn exec(game: &mut ShowBusiness, seat: Seat, task: Task, action: &Action, ev: &mut Events) {
    match (task, action) {
        (Task::Defend { target, attacker, .. }, Action::Defend { card }) => {
            game.take_from_hand(target, *card);
            game.players[target].influence_field.push(*card);
            tell(
                ev,
                GameEvent::Defence {
                    target,
                    attacker,
                    card: Some(*card),
                },
            );
        }
        (
            Task::Defend {
                target,
                attacker,
                attack,
                ..
            },
            Action::Decline,
        ) => {
            tell(
                ev,
                GameEvent::Defence {
                    target,
                    attacker,
                    card: None,
                },
            );
            game.resolve_attack(attacker, target, attack, ev);
        }
        (Task::SponsorSwap { target, left, .. }, Action::Swap { give, take }) => {
            let (g, t) = (*give, *take);
            game.take_from_hand(seat, g);
            game.take_from_hand(target, t);
            game.players[target].hand.push(g);
            game.players[seat].hand.push(t);
            game.known.push((g, seat));
            game.known.push((t, target));
            ev.push(Event {
                audience: crate::Audience::Seats(vec![seat.min(target), seat.max(target)]),
                body: GameEvent::Swapped {
                    attacker: seat,
                    target,
                    give: Some(g),
                    take: Some(t),
                },
            });
            tell(
                ev,
                GameEvent::Swapped {
                    attacker: seat,
                    target,
                    give: None,
                    take: None,
                },
            );
            if left > 1 {
                game.queue.push_front(Task::SponsorSwap {
                    seat,
                    target,
                    left: left - 1,
                });
            }
        }
        (Task::SponsorSwap { .. }, Action::Stop) => {}
        (
            Task::Groupie {
                target,
                take,
                give,
                mine,
                ..
            },
            a,
        ) => match a {
            Action::GroupieTake { artist } => {
                game.queue.push_front(Task::Groupie {
                    seat,
                    target,
                    take: Some(*artist),
                    give,
                    mine,
                });
            }
            Action::GroupieGive { artist } => {
                game.queue.push_front(Task::Groupie {
                    seat,
                    target,
                    take,
                    give: Some(*artist),
                    mine,
                });
            }
            Action::GroupiePlaceMine { fields } => {
                game.queue.push_front(Task::Groupie {
                    seat,
                    target,
                    take,
                    give,
                    mine: Some(fields.clone()),
                });
            }
            Action::GroupiePlaceTheirs { fields } => {
                let (Some(take), Some(give), Some(mine)) = (take, give, mine) else {
                    return;
                };
                let Some(card) = game.active_card(seat) else {
                    return;
                };
                game.attack(
                    seat,
                    target,
                    card,
                    Attack::Groupie {
                        take,
                        give,
                        mine,
                        theirs: fields.clone(),
                    },
                    ev,
                );
            }
            _ => {}
        },
        (Task::FemmeChoice { best, .. }, Action::Integration) => {
            game.raise_satisfaction(seat, best, SatisfactionCause::Integration, ev);
        }
        (Task::FemmeChoice { best, .. }, Action::Disorder { target }) => {
            let Some(card) = game.active_card(seat) else {
                return;
            };
            game.attack(seat, *target, card, Attack::Disorder { amount: best }, ev);
        }
        (t, _) => game.queue.push_front(t),
    }
}

pub(super) const RULES: Rules = Rules { step, legal, exec };
