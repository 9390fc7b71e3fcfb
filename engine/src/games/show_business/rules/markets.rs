//! Piles, the bag and the markets (RULINGS 9, S32): refills, the step 7 market change and the
//! face-up draws that measure a power.

use super::*;

impl ShowBusiness {
    /// RULINGS 9 / S32: an empty influence pile is formed again from the shuffled discards.
    pub(crate) fn draw_influence(&mut self, ev: &mut Events) -> Option<CardId> {
        if self.influence_pile.is_empty() && !self.influence_discard.is_empty() {
            let mut pile = std::mem::take(&mut self.influence_discard);
            pile.sort_unstable();
            self.rng.shuffle(&mut pile);
            ev.push(Event::sealed(GameEvent::Shuffled {
                pile: "influence".into(),
                order: pile.iter().rev().map(|x| x.id().to_owned()).collect(),
            }));
            self.influence_pile = pile;
            self.reformed[0] = true;
            tell(
                ev,
                GameEvent::Reshuffled {
                    pile: Pile::Influence,
                    size: self.influence_pile.len(),
                },
            );
        }
        self.influence_pile.pop()
    }

    pub(crate) fn draw_artist(&mut self, ev: &mut Events) -> Option<ArtistId> {
        if self.artist_pile.is_empty() && !self.artist_discard.is_empty() {
            let mut pile = std::mem::take(&mut self.artist_discard);
            pile.sort_unstable();
            self.rng.shuffle(&mut pile);
            ev.push(Event::sealed(GameEvent::Shuffled {
                pile: "artist".into(),
                order: pile.iter().rev().map(|x| x.id().to_owned()).collect(),
            }));
            self.artist_pile = pile;
            self.reformed[1] = true;
            tell(
                ev,
                GameEvent::Reshuffled {
                    pile: Pile::Artist,
                    size: self.artist_pile.len(),
                },
            );
        }
        self.artist_pile.pop()
    }

    /// RULINGS 9: an empty bag is refilled from the used pool; each draw is random.
    pub(crate) fn draw_token(&mut self, ev: &mut Events) -> Option<TokenId> {
        if self.bag.is_empty() && !self.used_tokens.is_empty() {
            self.bag = std::mem::take(&mut self.used_tokens);
            self.reformed[2] = true;
            tell(
                ev,
                GameEvent::Reshuffled {
                    pile: Pile::Bag,
                    size: self.bag.len(),
                },
            );
        }
        if self.bag.is_empty() {
            return None;
        }
        let of = self.bag.len();
        let index = self.rng.below(of);
        let t = self.bag.swap_remove(index);
        ev.push(Event::sealed(GameEvent::BagDraw { token: t, index, of }));
        Some(t)
    }

    pub(crate) fn draw_to_hand(&mut self, seat: Seat, ev: &mut Events) -> bool {
        match self.draw_influence(ev) {
            Some(card) => {
                self.players[seat].hand.push(card);
                ev.push(Event::private(seat, GameEvent::CardToHand { seat, card }));
                tell(ev, GameEvent::Drew { seat });
                true
            }
            None => false,
        }
    }

    pub(crate) fn close_up<T: Copy, const N: usize>(market: &mut [Option<T>; N]) {
        let cards: Vec<T> = market.iter().flatten().copied().collect();
        *market = [None; N];
        for (i, c) in cards.into_iter().enumerate() {
            market[i] = Some(c);
        }
    }

    /// Closes up the influence market and fills it; false when the pile and discards are empty.
    /// Events tell changes in the order they happen: when the pile runs out during the refill,
    /// the market as filled from the old pile is told before the pile is formed again.
    pub(crate) fn refill_influence_market(&mut self, ev: &mut Events) -> bool {
        let mut told = self.influence_market;
        Self::close_up(&mut self.influence_market);
        let mut full = true;
        for f in 0..4 {
            if self.influence_market[f].is_none() {
                if self.influence_pile.is_empty() && !self.influence_discard.is_empty() {
                    Self::tell_market(
                        MarketRow::Influence,
                        &self.influence_market,
                        &mut told,
                        CardId::id,
                        ev,
                    );
                }
                match self.draw_influence(ev) {
                    Some(c) => self.influence_market[f] = Some(c),
                    None => {
                        full = false;
                        break;
                    }
                }
            }
        }
        Self::tell_market(
            MarketRow::Influence,
            &self.influence_market,
            &mut told,
            CardId::id,
            ev,
        );
        full
    }

    /// Closes up the artist market and fills it, told as [`Self::refill_influence_market`].
    pub(crate) fn refill_artist_market(&mut self, ev: &mut Events) {
        let mut told = self.artist_market;
        Self::close_up(&mut self.artist_market);
        for f in 0..4 {
            if self.artist_market[f].is_none() {
                if self.artist_pile.is_empty() && !self.artist_discard.is_empty() {
                    Self::tell_market(
                        MarketRow::Artist,
                        &self.artist_market,
                        &mut told,
                        ArtistId::id,
                        ev,
                    );
                }
                if let Some(a) = self.draw_artist(ev) {
                    self.artist_market[f] = Some(a);
                }
            }
        }
        Self::tell_market(
            MarketRow::Artist,
            &self.artist_market,
            &mut told,
            ArtistId::id,
            ev,
        );
    }

    /// Closes up the concert market and fills it from the bag, told as
    /// [`Self::refill_influence_market`]: the tokens drawn before the used pool refills the bag
    /// are told before the refill.
    pub(crate) fn refill_concert_market(&mut self, ev: &mut Events) {
        let mut told = self.concert_market;
        Self::close_up(&mut self.concert_market);
        for f in 0..5 {
            if self.concert_market[f].is_none() {
                if self.bag.is_empty() && !self.used_tokens.is_empty() {
                    Self::tell_market(
                        MarketRow::Concert,
                        &self.concert_market,
                        &mut told,
                        TokenId::id,
                        ev,
                    );
                }
                if let Some(t) = self.draw_token(ev) {
                    self.concert_market[f] = Some(t);
                }
            }
        }
        Self::tell_market(
            MarketRow::Concert,
            &self.concert_market,
            &mut told,
            TokenId::id,
            ev,
        );
    }

    /// Tells a market's fields when they differ from the fields last `told`.
    fn tell_market<T: Copy + PartialEq, const N: usize>(
        row: MarketRow,
        market: &[Option<T>; N],
        told: &mut [Option<T>; N],
        id: fn(T) -> &'static str,
        ev: &mut Events,
    ) {
        if told != market {
            *told = *market;
            tell(
                ev,
                GameEvent::MarketRefilled {
                    market: row,
                    fields: Self::market_fields(market, id),
                },
            );
        }
    }

    pub(crate) fn market_fields<T: Copy, const N: usize>(
        market: &[Option<T>; N],
        id: fn(T) -> &'static str,
    ) -> Vec<MarketField> {
        (1..)
            .zip(market)
            .filter_map(|(field, x)| {
                x.map(|x| MarketField {
                    field,
                    id: id(x).to_owned(),
                })
            })
            .collect()
    }

    pub(crate) fn tell_to_map(&self, t: TokenId, cause: ToMap, seat: Option<Seat>, ev: &mut Events) {
        tell(
            ev,
            GameEvent::TokenToMap {
                token: t,
                city: t.token().city,
                cause,
                seat,
            },
        );
    }

    pub(crate) fn discard_token(&mut self, seat: Seat, t: TokenId, ev: &mut Events) {
        self.used_tokens.push(t);
        tell(ev, GameEvent::TokenDiscarded { seat, token: t });
    }
}

/// Runs this module's automatic steps; returns a decision that still waits for its seat.
pub(super) fn step(game: &mut ShowBusiness, task: Task, ev: &mut Events) -> Option<Task> {
    match task {
        Task::RefillMarkets { retried } => {
            if !game.refill_influence_market(ev) && !retried && game.any_influence_field() {
                let mut tasks = game.emergency_clearing();
                tasks.push(Task::RefillMarkets { retried: true });
                tell(ev, GameEvent::EmergencyClearing);
                game.push_front_all(tasks);
                return None;
            }
            game.refill_artist_market(ev);
            None
        }
        Task::RefillConcerts => {
            game.refill_concert_market(ev);
            None
        }
        Task::MarketChange => {
            // Step 7: field 1 of each market is discarded, the rest move down.
            if let Some(c) = game.influence_market[0].take() {
                game.influence_discard.push(c);
                tell(
                    ev,
                    GameEvent::MarketDiscard {
                        seat: None,
                        market: Market::Influence,
                        field: 1,
                        card: c.id().to_owned(),
                    },
                );
            }
            if let Some(a) = game.artist_market[0].take() {
                game.artist_discard.push(a);
                tell(
                    ev,
                    GameEvent::MarketDiscard {
                        seat: None,
                        market: Market::Artist,
                        field: 1,
                        card: a.id().to_owned(),
                    },
                );
            }
            game.queue.push_front(Task::RefillMarkets { retried: false });
            None
        }
        Task::Draw {
            seat,
            mut left,
            mut best,
            purpose,
            retried,
        } => {
            while left > 0 {
                match game.draw_influence(ev) {
                    Some(c) => {
                        game.revealed.push(c);
                        best = best.max(c.power());
                        left -= 1;
                        tell(
                            ev,
                            GameEvent::Shown {
                                seat,
                                card: c,
                                power: c.power(),
                                purpose: purpose.shown_for(),
                            },
                        );
                    }
                    None if !retried && game.any_influence_field() => {
                        let mut tasks = game.emergency_clearing();
                        tasks.push(Task::Draw {
                            seat,
                            left,
                            best,
                            purpose,
                            retried: true,
                        });
                        game.push_front_all(tasks);
                        return None;
                    }
                    None => left = 0,
                }
            }
            let shown = std::mem::take(&mut game.revealed);
            if !shown.is_empty() {
                tell(ev, GameEvent::ShownDiscarded { cards: shown.clone() });
            }
            game.influence_discard.extend(shown);
            if !game.solvent(seat) {
                return None;
            }
            match purpose {
                DrawPurpose::FemmeFatale => game.queue.push_front(Task::FemmeChoice { seat, best }),
                DrawPurpose::Paparazzi => {
                    game.gain_popularity(seat, best as i64, PopularityCause::Paparazzi, ev);
                }
                DrawPurpose::PopularityCheck { double } => {
                    let by = best as i64 * if double { 2 } else { 1 };
                    game.lose_popularity(seat, by, PopularityCause::PopularityCheck { double }, ev);
                }
                DrawPurpose::EndScandal => {
                    game.lose_popularity(seat, best as i64, PopularityCause::EndScandal, ev);
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
