//! A seat's round: step 1 CONCERTS, the action choice of step 4 and the anytime actions (S8-S10).

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
        let pw = power(card);
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
        match character(card) {
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
                    if !self.groupie_combos(seat, target).is_empty() {
                        out.push(Action::Groupie { target });
                    }
                }
            }
            Character::Dj => {
                out.extend(
                    self.map_tokens
                        .iter()
                        .map(|&t| Action::DjRemove { token: token_id(t) }),
                );
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
        let info = &components().influence[card as usize];
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
                tell(
                    ev,
                    GameEvent::TrendExpertPlaced {
                        seat,
                        card: card_id(card),
                    },
                );
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
        for a in &self.players[seat].band {
            let id = artist_id(a.card);
            out.push(Action::Dismiss { artist: id.clone() });
            out.push(Action::Flip { artist: id.clone() });
            let mut free = occ;
            for &f in &a.fields {
                free[f as usize] = false;
            }
            for p in placements(a.card, free) {
                if p != a.fields {
                    out.push(Action::Regroup {
                        artist: id.clone(),
                        fields: p,
                    });
                }
            }
        }
    }
}
