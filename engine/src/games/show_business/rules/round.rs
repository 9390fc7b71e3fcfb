//! A seat's round (S8-S10): step 1 CONCERTS, REVIEW, the TIME LAPSES, activating a card, the
//! action choice of step 4, the anytime actions, the round's end and the next round.

use super::*;

impl ShowBusiness {
    /// Step 1 CONCERTS, after RULINGS 3.6's restock.
    pub(crate) fn start_round(&mut self, seat: Seat, ev: &mut Events) {
        self.triggered_this_round = false;
        if !self.solvent(seat) {
            self.queue.push_front(Task::RoundTail);
            return;
        }
        tell(ev, GameEvent::RoundBegins { seat });
        if self.options.restock == Restock::NextRound {
            self.players[seat].blanks = [true; 3];
        }
        for f in 0..5 {
            if self.map_tokens.len() >= MAP_TOKENS {
                break;
            }
            if let Some(t) = self.concert_market[f].take() {
                self.map_tokens.push(t);
                self.tell_to_map(t, ToMap::Concerts { field: f as u8 + 1 }, Some(seat), ev);
            }
        }
        self.refill_concert_market(ev);
        self.push_front_all(vec![
            Task::Review { seat },
            Task::TimeLapse { seat, nth: 1 },
            Task::Influences { seat },
            Task::RefillMarkets { retried: false },
            Task::EndRound { seat },
            Task::RoundTail,
        ]);
    }

    pub(crate) fn choose_action_list(&self, seat: Seat, out: &mut Vec<Action>) {
        out.push(Action::Pass);
        let Some(card) = self.active_card(seat) else {
            return;
        };
        let pw = card.power();
        if self.trend_expert.is_none() {
            out.push(Action::SetDie);
        }
        self.recruit_actions(seat, out);
        self.tournee_actions(seat, out);
        let p = &self.players[seat];
        if let Some(f) = self.first_empty_chart_field() {
            let field = self.chart_field(f);
            if pw >= field.power && self.coverable(seat, field.cost as i64) {
                for s in &p.songs {
                    out.push(Action::Promote { song: s.id });
                }
            }
        }
        let hostile_ok = !self.last_turn;
        match card.character() {
            Character::AAndR if hostile_ok => {
                out.extend(
                    self.targets(seat)
                        .into_iter()
                        .map(|target| Action::AAndR { target }),
                );
            }
            Character::Sponsor if hostile_ok => {
                out.extend(
                    self.targets(seat)
                        .into_iter()
                        .map(|target| Action::Sponsor { target }),
                );
            }
            Character::Groupie if hostile_ok => {
                for target in self.targets(seat) {
                    if self.groupie_possible(seat, target) {
                        out.push(Action::Groupie { target });
                    }
                }
            }
            Character::Dj => {
                out.extend(self.map_tokens.iter().map(|&t| Action::DjRemove { token: t }));
                out.push(Action::DjDone);
            }
            Character::FemmeFatale => out.push(Action::FemmeFatale),
            Character::Paparazzi if self.paparazzi_allowed(seat) => out.push(Action::Paparazzi),
            Character::Pilot => self.pilot_actions(seat, out),
            Character::Reporter => out.push(Action::Reporter),
            Character::TrendExpert => {
                out.push(if self.trend_expert.is_none() {
                    Action::TrendExpertPlace
                } else {
                    Action::TrendExpertRemove
                });
            }
            _ => {}
        }
    }

    pub(crate) fn first_step(&mut self, seat: Seat, a: &Action, ev: &mut Events) {
        let Some(card) = self.active_card(seat) else {
            return;
        };
        let info = card.card();
        match a {
            Action::Pass => tell(ev, GameEvent::Passed { seat }),
            Action::SetDie => {
                self.dice[info.die as usize] = Some(info.value);
                tell(
                    ev,
                    GameEvent::DieShows {
                        die: info.die,
                        face: Some(info.die.face_name(info.value)),
                        seat: Some(seat),
                    },
                );
            }
            Action::Recruit { .. } => {
                self.queue.push_front(Task::Recruit { seat });
                self.exec(seat, a, ev);
            }
            Action::Move { .. } | Action::PickToken { .. } | Action::PickSong { .. } => {
                self.queue.push_front(Task::Tournee {
                    seat,
                    left: info.power,
                });
                self.exec(seat, a, ev);
            }
            Action::Promote { song } => {
                if let Some(f) = self.first_empty_chart_field() {
                    let cost = self.chart_field(f).cost as i64;
                    self.pay_voluntary(seat, cost, Then::Promote(*song), ev);
                }
            }
            Action::AAndR { target } => self.attack(seat, *target, card, Attack::AAndR, ev),
            Action::Sponsor { target } => {
                self.attack(seat, *target, card, Attack::Sponsor { power: info.power }, ev);
            }
            Action::Groupie { target } => {
                self.queue.push_front(Task::Groupie {
                    seat,
                    target: *target,
                    take: None,
                    give: None,
                    mine: None,
                });
            }
            Action::DjRemove { .. } | Action::DjDone => {
                self.queue.push_front(Task::DjRemove { seat });
                self.exec(seat, a, ev);
            }
            Action::FemmeFatale => {
                self.queue.push_front(Task::Draw {
                    seat,
                    left: info.power,
                    best: 0,
                    purpose: DrawPurpose::FemmeFatale,
                    retried: false,
                });
            }
            Action::Paparazzi => {
                self.players[seat].scandal = true;
                tell(
                    ev,
                    GameEvent::Scandal {
                        seats: vec![seat],
                        running: true,
                    },
                );
                self.queue.push_front(Task::Draw {
                    seat,
                    left: info.power,
                    best: 0,
                    purpose: DrawPurpose::Paparazzi,
                    retried: false,
                });
            }
            Action::Reporter => {
                self.rondel = (self.rondel + info.power) % RONDEL.len() as u8;
                tell(
                    ev,
                    GameEvent::RondelMoved {
                        field: RONDEL[self.rondel as usize].into(),
                        cause: RondelCause::Reporter {
                            seat,
                            fields: info.power,
                        },
                    },
                );
            }
            Action::TrendExpertPlace => {
                self.players[seat].influence_field.pop();
                self.trend_expert = Some((card, seat));
                tell(ev, GameEvent::TrendExpertPlaced { seat, card });
            }
            Action::TrendExpertRemove => {
                self.return_trend_expert(ev);
            }
            Action::PilotToken { .. } | Action::PilotSong { .. } => {
                self.pilot_pick(seat, vec![], a, ev);
            }
            _ => {}
        }
    }

    pub(crate) fn anytime_allowed(task: &Task) -> bool {
        matches!(
            task,
            Task::Review { .. }
                | Task::TimeLapse { .. }
                | Task::Activate { .. }
                | Task::ChooseAction { .. }
                | Task::Recruit { .. }
                | Task::Tournee { .. }
                | Task::PlaceToken { .. }
                | Task::Pilot { .. }
                | Task::Influences { .. }
                | Task::EndRound { .. }
        )
    }

    /// S8/S9: DISMISSAL, REGROUPMENT and STYLE CHANGE.
    pub(crate) fn anytime_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        let occ = self.occupied(seat);
        out.reserve(4 * self.players[seat].band.len());
        for a in &self.players[seat].band {
            let id = a.card;
            out.push(Action::Dismiss { artist: id });
            out.push(Action::Flip { artist: id });
            let mut free = occ;
            for &f in &a.fields {
                free[f as usize] = false;
            }
            for p in placements(a.card, free).iter() {
                if p != a.fields {
                    out.push(Action::Regroup {
                        artist: id,
                        fields: p.to_vec(),
                    });
                }
            }
        }
    }
}

/// Runs this module's automatic steps; returns a decision that still waits for its seat.
pub(super) fn step(game: &mut ShowBusiness, task: Task, ev: &mut Events) -> Option<Task> {
    match task {
        Task::TimeLapse { seat, .. } => {
            let p = &game.players[seat];
            if p.time.is_none_or(|t| t >= LAST_WEEK) || p.hand.is_empty() {
                return None;
            }
            Some(task)
        }
        Task::StartRound { seat } => {
            game.start_round(seat, ev);
            None
        }
        Task::AfterAction { seat, nth } => {
            if nth == 1 && !game.triggered_this_round {
                game.queue.push_front(Task::TimeLapse { seat, nth: 2 });
            }
            None
        }
        Task::RoundTail => {
            let mut tasks = Vec::new();
            if game.turn + 1 == game.order.len() {
                tasks.push(Task::MarketChange);
                tasks.push(Task::RondelStep);
                if !game.last_turn {
                    tasks.push(Task::SequenceBid);
                }
            }
            if game.qe_pending {
                tasks.push(Task::QuarterEnd);
            }
            tasks.push(Task::NextRound);
            game.push_front_all(tasks);
            None
        }
        Task::NextRound => {
            if game.players.iter().all(|p| p.bankrupt.is_some()) {
                tell(
                    ev,
                    GameEvent::GameEnds {
                        ending: Ending::AllBankrupt,
                    },
                );
                // S42: "A bankrupt placer's card is discarded (S34)."
                game.return_trend_expert(ev);
                game.queue.push_front(Task::Finish);
                return None;
            }
            if game.turn + 1 >= game.order.len() {
                if game.last_turn {
                    tell(
                        ev,
                        GameEvent::GameEnds {
                            ending: Ending::LastTurn,
                        },
                    );
                    // S42: a TREND EXPERT still standing returns before the end-game payment.
                    game.return_trend_expert(ev);
                    let mut tasks = Vec::new();
                    for seat in game.in_turn_order() {
                        tasks.push(Task::Clearing { seat });
                        tasks.push(Task::EndPenalty { seat });
                    }
                    tasks.push(Task::Finish);
                    game.push_front_all(tasks);
                    return None;
                }
                game.turn = 0;
            } else {
                game.turn += 1;
            }
            let seat = game.active();
            game.queue.push_front(Task::StartRound { seat });
            None
        }
        task @ (Task::Review { .. }
        | Task::Activate { .. }
        | Task::ChooseAction { .. }
        | Task::EndRound { .. }) => Some(task),
        _ => None,
    }
}

/// The actions `seat` may post at this module's decision `task`.
pub(super) fn legal(game: &ShowBusiness, seat: Seat, task: &Task, out: &mut Vec<Action>) {
    let p = &game.players[seat];
    match task {
        Task::Review { .. } => {
            for f in 1..=4u8 {
                if game.influence_market[f as usize - 1].is_some() && game.coverable(seat, f as i64) {
                    out.push(Action::Remove {
                        market: Market::Influence,
                        field: f,
                    });
                }
            }
            for f in 1..=4u8 {
                if game.artist_market[f as usize - 1].is_some() && game.coverable(seat, f as i64) {
                    out.push(Action::Remove {
                        market: Market::Artist,
                        field: f,
                    });
                }
            }
            out.push(Action::EndReview);
        }
        Task::TimeLapse { .. } => {
            out.extend(p.hand.iter().map(|&c| Action::Play { card: c }));
            out.push(Action::GiveUp);
        }
        Task::Activate { card, .. } => {
            out.push(Action::ActivateHand);
            for f in 1..=card.power().min(4) {
                if game.influence_market[f as usize - 1].is_some() {
                    out.push(Action::TakeMarket { field: f });
                }
            }
        }
        Task::ChooseAction { .. } => game.choose_action_list(seat, out),
        Task::EndRound { .. } => out.push(Action::EndRound),
        _ => {}
    }
}

/// Applies `action`, legal at this module's decision `task` (already taken off the queue).
pub(super) fn exec(game: &mut ShowBusiness, seat: Seat, task: Task, action: &Action, ev: &mut Events) {
    match (task, action) {
        (t @ Task::Review { .. }, Action::Remove { market, field }) => {
            game.queue.push_front(t);
            game.pay_voluntary(seat, *field as i64, Then::Review(*market, *field), ev);
        }
        (Task::Review { .. }, Action::EndReview) => {
            game.queue.push_front(Task::RefillMarkets { retried: false });
        }
        (Task::TimeLapse { nth, .. }, Action::Play { card }) => {
            let (card, Some(old)) = (*card, game.players[seat].time) else {
                return;
            };
            game.take_from_hand(seat, card);
            game.players[seat].influence_field.push(card);
            let new = (old + card.power()).min(LAST_WEEK);
            game.players[seat].time = Some(new);
            tell(
                ev,
                GameEvent::TimeLapse {
                    seat,
                    card,
                    from: old,
                    to: new,
                },
            );
            for (i, q) in QUARTER_ENDS.into_iter().enumerate() {
                if !game.qe_done[i] && old < q && new >= q {
                    game.qe_done[i] = true;
                    game.qe_pending = true;
                    if nth == 1 {
                        game.triggered_this_round = true;
                    }
                    if q == LAST_WEEK {
                        game.last_turn = true;
                    }
                    tell(
                        ev,
                        GameEvent::QuarterEndReached {
                            seat,
                            week: q,
                            last_turn: q == LAST_WEEK,
                        },
                    );
                }
            }
            game.push_front_all(vec![
                Task::Activate { seat, card },
                Task::AfterAction { seat, nth },
            ]);
        }
        (Task::TimeLapse { .. }, Action::GiveUp) => {
            tell(ev, GameEvent::TimeLapseGivenUp { seat });
        }
        (Task::Activate { .. }, Action::ActivateHand) => {
            game.queue.push_front(Task::ChooseAction { seat });
        }
        (Task::Activate { .. }, Action::TakeMarket { field }) => {
            if let Some(card) = game.influence_market[*field as usize - 1].take() {
                game.players[seat].influence_field.push(card);
                tell(
                    ev,
                    GameEvent::ActivatedFromMarket {
                        seat,
                        field: *field,
                        card,
                    },
                );
            }
            game.queue.push_front(Task::ChooseAction { seat });
        }
        (Task::ChooseAction { .. }, a) => game.first_step(seat, a, ev),
        (Task::EndRound { .. }, Action::EndRound) => {
            tell(ev, GameEvent::RoundEnds { seat });
        }
        (t, _) => game.queue.push_front(t),
    }
}

/// The anytime actions (S10): dismiss, flip or regroup an artist.
pub(super) fn anytime(game: &mut ShowBusiness, seat: Seat, action: &Action, ev: &mut Events) {
    match action {
        Action::Dismiss { artist } => {
            let card = *artist;
            let band = &mut game.players[seat].band;
            if let Some(i) = band.iter().position(|a| a.card == card) {
                let a = band.remove(i);
                game.artist_discard.push(a.card);
                game.used_tokens.extend(a.tokens);
                tell(ev, GameEvent::Dismissed { seat, artist: card });
                game.lower_satisfaction(seat, 1, SatisfactionCause::Dismissal, ev);
                game.queue.push_front(Task::HandDiscard { seat });
            }
        }
        Action::Flip { artist } => {
            let card = *artist;
            if let Some(a) = game.players[seat].band.iter_mut().find(|a| a.card == card) {
                a.side_b = !a.side_b;
                let (keep, drop): (Vec<TokenId>, Vec<TokenId>) = a
                    .tokens
                    .iter()
                    .partition(|&&t| t.token().colour == TokenColour::Multicolour);
                a.tokens = keep;
                let side_b = a.side_b;
                tell(
                    ev,
                    GameEvent::StyleChanged {
                        seat,
                        artist: card,
                        side_b,
                        discarded: drop.clone(),
                    },
                );
                game.used_tokens.extend(drop);
            }
        }
        Action::Regroup { artist, fields } => {
            let card = *artist;
            if let Some(a) = game.players[seat].band.iter_mut().find(|a| a.card == card) {
                a.fields = fields.clone();
                tell(
                    ev,
                    GameEvent::Regrouped {
                        seat,
                        artist: card,
                        fields: fields.clone(),
                    },
                );
            }
        }
        _ => {}
    }
}

pub(super) const RULES: Rules = Rules { step, legal, exec };
