//! Sealed bids at setup and in step 9 (S5-S7): who starts and the turn sequence.

use super::*;

impl ShowBusiness {
    pub(crate) fn resolve_bids(&mut self, b: Bidding, ev: &mut Events) {
        let bids: Vec<(Seat, u32)> = b.seats.iter().map(|&s| (s, b.bids[s].unwrap_or(0))).collect();
        for &(s, amount) in &bids {
            self.players[s].cash -= amount as i64;
        }
        ev.push(Event::public(GameEvent::BidsRevealed { bids: bids.clone() }));
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
                    bids: vec![None; self.n()],
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
        self.order = (0..n).map(|i| (first + i) % n).collect();
        tell(
            ev,
            GameEvent::Sequence {
                first,
                order: self.order.clone(),
            },
        );
    }
}
