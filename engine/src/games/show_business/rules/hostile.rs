//! Hostile activities and defences (S21-S26): A&R, SPONSOR, GROUPIE, DISORDER.

use super::*;

impl ShowBusiness {
    pub(crate) fn targets(&self, seat: Seat) -> Vec<Seat> {
        (0..self.n()).filter(|&s| s != seat && self.solvent(s)).collect()
    }

    /// S25: every legal GROUPIE exchange `(take, give, mine, theirs)`.
    pub(crate) fn groupie_combos(&self, seat: Seat, target: Seat) -> Vec<(u8, u8, Vec<u8>, Vec<u8>)> {
        let mut out = Vec::new();
        let my_occ = self.occupied(seat);
        let their_occ = self.occupied(target);
        for ta in &self.players[target].band {
            let t_orange: Vec<u8> = ta
                .fields
                .iter()
                .copied()
                .filter(|&f| f < MANDATORY_FIELDS)
                .collect();
            for ga in &self.players[seat].band {
                if !t_orange.is_empty() && !ga.fields.iter().any(|f| t_orange.contains(f)) {
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
                for mine in placements(ta.card, mine_free) {
                    for theirs in &theirs_opts {
                        out.push((ta.card, ga.card, mine.clone(), theirs.clone()));
                    }
                }
            }
        }
        out
    }

    pub(crate) fn paparazzi_allowed(&self, seat: Seat) -> bool {
        match self.options.paparazzi_block {
            PaparazziBlock::Popularity => !self.players[seat].scandal,
            PaparazziBlock::Time => self.order.last() != Some(&seat),
        }
    }

    /// A hostile activity is declared; the target answers it (S21).
    pub(crate) fn attack(&mut self, attacker: Seat, target: Seat, card: u8, attack: Attack, ev: &mut Events) {
        let hostile = attack.announced();
        tell(
            ev,
            GameEvent::Attacked {
                attacker,
                target,
                card: card_id(card),
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
                        cards: Some(hand.iter().map(|&c| card_id(c)).collect()),
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
                        take: artist_id(take),
                        give: artist_id(give),
                    },
                );
            }
        }
    }
}
