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
                                    card: card_id(c),
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
                                    card: artist_id(a),
                                },
                            );
                        }
                    }
                }
            }
            Then::Buy(field) => {
                if let Some(c) = self.influence_market[field as usize - 1].take() {
                    self.players[seat].hand.push(c);
                    for v in 0..self.n() {
                        if v != seat {
                            self.known.push((c, v));
                        }
                    }
                    tell(
                        ev,
                        GameEvent::Bought {
                            seat,
                            field,
                            card: card_id(c),
                        },
                    );
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
                hand: hand.iter().map(|&c| card_id(c)).collect(),
            },
        );
        for c in hand {
            self.forget(c);
        }
    }
}
