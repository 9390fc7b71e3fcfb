//! TOURNEE, PILOT (S27) and DJ (S28): the car, concerts and the map.

use super::*;

impl ShowBusiness {
    pub(crate) fn tournee_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        let c = components();
        let p = &self.players[seat];
        for &n in &c.neighbours[p.car as usize] {
            out.push(Action::Move { city: city_name(n) });
        }
        if !self.band_complete(seat) {
            return;
        }
        for &t in &self.map_tokens {
            if c.tokens[t as usize].city == p.car {
                out.push(Action::PickToken { token: token_id(t) });
            }
        }
        if p.songs.len() < SONG_FIELDS {
            for (i, &s) in c.studios.iter().enumerate() {
                if s == p.car && p.blanks[i] {
                    out.push(Action::PickSong { studio: city_name(s) });
                }
            }
        }
    }

    pub(crate) fn concert(&mut self, seat: Seat, t: u8, ev: &mut Events) {
        let tok = &components().tokens[t as usize];
        self.map_tokens.retain(|&x| x != t);
        self.players[seat].cash += tok.value as i64;
        tell(
            ev,
            GameEvent::Concert {
                seat,
                token: tok.id.clone(),
                city: city_name(tok.city),
            },
        );
        tell(
            ev,
            GameEvent::Earned {
                seat,
                amount: tok.value as i64,
                reason: Income::Concert {
                    token: tok.id.clone(),
                },
            },
        );
        if tok.colour == TokenColour::White {
            self.discard_token(seat, t, ev);
        } else {
            self.queue.push_front(Task::PlaceToken { seat, token: t });
        }
    }

    pub(crate) fn pilot_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if !self.band_complete(seat) {
            return;
        }
        let c = components();
        for &t in &self.map_tokens {
            out.push(Action::PilotToken { token: token_id(t) });
        }
        let p = &self.players[seat];
        if p.songs.len() < SONG_FIELDS {
            for (i, &s) in c.studios.iter().enumerate() {
                if p.blanks[i] {
                    out.push(Action::PilotSong { studio: city_name(s) });
                }
            }
        }
    }

    pub(crate) fn pilot_pick(&mut self, seat: Seat, mut cities: Vec<u8>, a: &Action, ev: &mut Events) {
        let c = components();
        match a {
            Action::PilotToken { token } => {
                let Some(t) = find_token(token) else { return };
                cities.push(c.tokens[t as usize].city);
                self.queue.push_front(Task::Pilot {
                    seat,
                    cities,
                    stopped: false,
                });
                self.concert(seat, t, ev);
            }
            Action::PilotSong { studio } => {
                let Some(cy) = c.city(studio) else { return };
                cities.push(cy);
                self.queue.push_front(Task::Pilot {
                    seat,
                    cities,
                    stopped: false,
                });
                self.pick_song(seat, cy, ev);
            }
            _ => {}
        }
    }

    pub(crate) fn dj_step(&mut self, seat: Seat, a: &Action, ev: &mut Events) {
        match a {
            Action::DjRemove { token } => {
                if let Some(t) = find_token(token) {
                    self.map_tokens.retain(|&x| x != t);
                    self.used_tokens.push(t);
                    tell(
                        ev,
                        GameEvent::TokenOffMap {
                            seat,
                            token: token.clone(),
                        },
                    );
                }
                self.queue.push_front(Task::DjRemove { seat });
            }
            Action::DjDone => self.queue.push_front(Task::DjAdd { seat }),
            _ => self.queue.push_front(Task::DjRemove { seat }),
        }
    }
}
