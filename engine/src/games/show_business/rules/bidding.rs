//! Sealed bids at setup and in step 9 (S5-S7): who starts and the turn sequence.

use super::*;

impl ShowBusiness {
    pub(crate) fn resolve_bids(&mut self, b: Bidding, ev: &mut Events) {
        let bids: Vec<(Seat, u32)> = b.seats.iter().map(|&s| (s, b.bids[s].unwrap_or(0))).collect();
        for &(s, amount) in &bids {
            self.players[s].cash -= amount as i64;
        }
        ev.push(Event::public(GameEvent::BidsRevealed {
            bids: bids
                .iter()
                .map(|&(seat, amount)| RevealedBid { seat, amount })
                .collect(),
        }));
        let top = bids.iter().map(|b| b.1).max().unwrap_or(0);
        if top > 0 {
            let winners: Vec<Seat> = bids.iter().filter(|b| b.1 == top).map(|b| b.0).collect();
            if winners.len() == 1 {
                self.queue.push_front(Task::ChooseFirst {
                    seat: winners[0],
                    setup: b.setup,
                });
            } else {
                self.bid_rounds += 1;
                tell(
                    ev,
                    GameEvent::BidTied {
                        seats: winners.clone(),
                    },
                );
                self.queue.push_front(Task::Bid(Bidding {
                    setup: b.setup,
                    seats: winners,
                    bids: BySeat::from_fn(self.n(), |_| None),
                    round: self.bid_rounds,
                }));
            }
        } else if b.setup {
            let first = b.seats[self.rng.below(b.seats.len())];
            ev.push(Event::sealed(GameEvent::RandomFirst {
                seat: first,
                among: b.seats.clone(),
            }));
            self.set_order_from(first, ev);
            self.turn = 0;
            self.queue.push_front(Task::StartRound { seat: first });
        } else {
            tell(ev, GameEvent::SequenceKept);
        }
    }

    pub(crate) fn set_order_from(&mut self, first: Seat, ev: &mut Events) {
        let n = self.n();
        self.order = (0..n).map(|i| first.clockwise(i, n)).collect();
        tell(
            ev,
            GameEvent::Sequence {
                first,
                order: self.order.clone(),
            },
        );
    }
}

/// Runs this module's automatic steps; returns a decision that still waits for its seat.
pub(super) fn step(game: &mut ShowBusiness, task: Task, _: &mut Events) -> Option<Task> {
    match task {
        Task::Bid(_) | Task::Poll { .. } => Some(task),
        Task::SequenceBid => {
            let answers = BySeat::from_fn(game.n(), |s| if game.solvent(s) { None } else { Some(true) });
            if answers.iter().any(Option::is_none) {
                game.queue.push_front(Task::Poll { answers });
            }
            None
        }
        task @ Task::ChooseFirst { .. } => Some(task),
        _ => None,
    }
}

/// The actions `seat` may post at this module's decision `task`.
pub(super) fn legal(game: &ShowBusiness, seat: Seat, task: &Task, out: &mut Vec<Action>) {
    let p = &game.players[seat];
    match task {
        Task::Bid(_) => out.extend((0..=p.cash.max(0) as u32).map(|amount| Action::Bid { amount })),
        Task::Poll { .. } => out.extend([Action::GiveUpBid, Action::JoinBid]),
        Task::ChooseFirst { .. } => {
            out.extend(
                Seat::all(game.n())
                    .filter(|&s| game.solvent(s))
                    .map(|seat| Action::ChooseFirst { seat }),
            );
        }
        _ => {}
    }
}

/// Applies `action`, legal at this module's decision `task` (already taken off the queue).
pub(super) fn exec(game: &mut ShowBusiness, seat: Seat, task: Task, action: &Action, ev: &mut Events) {
    match (task, action) {
        (Task::Bid(mut b), Action::Bid { amount }) => {
            b.bids[seat] = Some(*amount);
            ev.push(Event::private(
                seat,
                GameEvent::BidIn {
                    seat,
                    amount: Some(*amount),
                },
            ));
            ev.push(Event::public(GameEvent::BidIn { seat, amount: None }));
            if b.seats.iter().all(|&s| b.bids[s].is_some()) {
                game.resolve_bids(b, ev);
            } else {
                game.queue.push_front(Task::Bid(b));
            }
        }
        (Task::Poll { mut answers }, a) => {
            let gives_up = matches!(a, Action::GiveUpBid);
            answers[seat] = Some(gives_up);
            // S2: the poll is sealed until every answer is in.
            ev.push(Event::private(
                seat,
                GameEvent::PollAnswered {
                    seat,
                    gives_up: Some(gives_up),
                },
            ));
            tell(ev, GameEvent::PollAnswered { seat, gives_up: None });
            if answers.iter().all(Option::is_some) {
                let revealed: Vec<PollAnswer> = Seat::all(game.n())
                    .filter(|&s| game.solvent(s))
                    .map(|seat| PollAnswer {
                        seat,
                        gives_up: answers[seat] == Some(true),
                    })
                    .collect();
                tell(ev, GameEvent::PollRevealed { answers: revealed });
                if answers.iter().all(|a| *a == Some(true)) {
                    tell(ev, GameEvent::SequenceKept);
                } else {
                    game.bid_rounds += 1;
                    let seats: Vec<Seat> = Seat::all(game.n()).filter(|&s| game.solvent(s)).collect();
                    game.queue.push_front(Task::Bid(Bidding {
                        setup: false,
                        seats,
                        bids: BySeat::from_fn(game.n(), |_| None),
                        round: game.bid_rounds,
                    }));
                }
            } else {
                game.queue.push_front(Task::Poll { answers });
            }
        }
        (Task::ChooseFirst { setup, .. }, Action::ChooseFirst { seat: first }) => {
            game.set_order_from(*first, ev);
            if setup {
                game.turn = 0;
                let s = game.active();
                game.queue.push_front(Task::StartRound { seat: s });
            }
        }
        (t, _) => game.queue.push_front(t),
    }
}

pub(super) const RULES: Rules = Rules { step, legal, exec };
