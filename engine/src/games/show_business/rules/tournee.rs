//! TOURNEE, PILOT (S27) and DJ (S28): the car, concerts and the map.

use super::*;

impl ShowBusiness {
    pub(crate) fn tournee_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        let c = components();
        let p = &self.players[seat];
        for &n in p.car.neighbours() {
            out.push(Action::Move { city: n });
        }
        if !self.band_complete(seat) {
            return;
        }
        for &t in &self.map_tokens {
            if t.token().city == p.car {
                out.push(Action::PickToken { token: t });
            }
        }
        if p.songs.len() < SONG_FIELDS {
            for (i, &s) in c.studios.iter().enumerate() {
                if s == p.car && p.blanks[i] {
                    out.push(Action::PickSong { studio: s });
                }
            }
        }
    }

    pub(crate) fn concert(&mut self, seat: Seat, t: TokenId, ev: &mut Events) {
        let tok = t.token();
        self.map_tokens.retain(|&x| x != t);
        self.players[seat].cash += tok.value as i64;
        tell(
            ev,
            GameEvent::Concert {
                seat,
                token: t,
                city: tok.city,
            },
        );
        tell(
            ev,
            GameEvent::Earned {
                seat,
                amount: tok.value as i64,
                reason: Income::Concert { token: t },
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
            out.push(Action::PilotToken { token: t });
        }
        let p = &self.players[seat];
        if p.songs.len() < SONG_FIELDS {
            for (i, &s) in c.studios.iter().enumerate() {
                if p.blanks[i] {
                    out.push(Action::PilotSong { studio: s });
                }
            }
        }
    }

    pub(crate) fn pilot_pick(&mut self, seat: Seat, mut cities: Vec<CityId>, a: &Action, ev: &mut Events) {
        match a {
            Action::PilotToken { token } => {
                let t = *token;
                cities.push(t.token().city);
                self.queue.push_front(Task::Pilot {
                    seat,
                    cities,
                    stopped: false,
                });
                self.concert(seat, t, ev);
            }
            Action::PilotSong { studio } => {
                let cy = *studio;
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
                let t = *token;
                self.map_tokens.retain(|&x| x != t);
                self.used_tokens.push(t);
                tell(ev, GameEvent::TokenOffMap { seat, token: t });
                self.queue.push_front(Task::DjRemove { seat });
            }
            Action::DjDone => self.queue.push_front(Task::DjAdd { seat }),
            _ => self.queue.push_front(Task::DjRemove { seat }),
        }
    }
}

/// Runs this module's automatic steps; returns a decision that still waits for its seat.
pub(super) fn step(game: &mut ShowBusiness, task: Task, ev: &mut Events) -> Option<Task> {
    match task {
        Task::DjAdd { .. } => {
            let source = game.concert_market.iter().any(Option::is_some)
                || !game.bag.is_empty()
                || !game.used_tokens.is_empty();
            if game.map_tokens.len() >= MAP_TOKENS || !source {
                game.refill_concert_market(ev);
                return None;
            }
            Some(task)
        }
        task @ (Task::Tournee { .. }
        | Task::PlaceToken { .. }
        | Task::Pilot { .. }
        | Task::DjRemove { .. }) => Some(task),
        _ => None,
    }
}

/// The actions `seat` may post at this module's decision `task`.
pub(super) fn legal(game: &ShowBusiness, seat: Seat, task: &Task, out: &mut Vec<Action>) {
    let p = &game.players[seat];
    match task {
        Task::Tournee { left, .. } => {
            if *left > 0 {
                game.tournee_actions(seat, out);
            }
            out.push(Action::EndAction);
        }
        Task::PlaceToken { token, .. } => {
            let colour = token.token().colour;
            for a in &p.band {
                let card = a.card.card();
                let fits = colour == TokenColour::Multicolour || colour.style() == Some(card.style(a.side_b));
                if fits && (a.tokens.len() as u8) < card.experience_fields {
                    out.push(Action::PlaceToken { artist: a.card });
                }
            }
            out.push(Action::DiscardToken);
        }
        Task::Pilot { cities, stopped, .. } => {
            if !stopped && cities.len() < 2 {
                game.pilot_actions(seat, out);
                out.push(Action::Stop);
            } else {
                for &c in cities {
                    let a = Action::CarTo { city: c };
                    if !out.contains(&a) {
                        out.push(a);
                    }
                }
            }
        }
        Task::DjRemove { .. } => {
            out.extend(game.map_tokens.iter().map(|&t| Action::DjRemove { token: t }));
            out.push(Action::DjDone);
        }
        Task::DjAdd { .. } => {
            for f in 1..=5u8 {
                if game.concert_market[f as usize - 1].is_some() {
                    out.push(Action::DjFromMarket { field: f });
                }
            }
            if !game.bag.is_empty() || !game.used_tokens.is_empty() {
                out.push(Action::DjFromBag);
            }
        }
        _ => {}
    }
}

/// Applies `action`, legal at this module's decision `task` (already taken off the queue).
pub(super) fn exec(game: &mut ShowBusiness, seat: Seat, task: Task, action: &Action, ev: &mut Events) {
    match (task, action) {
        (
            Task::Tournee { left, .. },
            a @ (Action::Move { .. } | Action::PickToken { .. } | Action::PickSong { .. }),
        ) => {
            game.queue.push_front(Task::Tournee {
                seat,
                left: left.saturating_sub(1),
            });
            match a {
                Action::Move { city } => {
                    game.players[seat].car = *city;
                    tell(ev, GameEvent::CarMoved { seat, city: *city });
                }
                Action::PickToken { token } => game.concert(seat, *token, ev),
                Action::PickSong { studio } => game.pick_song(seat, *studio, ev),
                _ => {}
            }
        }
        (Task::Tournee { .. }, Action::EndAction) => {}
        (Task::PlaceToken { token, .. }, Action::PlaceToken { artist }) => {
            if let Some(a) = game.players[seat].band.iter_mut().find(|a| a.card == *artist) {
                a.tokens.push(token);
                tell(
                    ev,
                    GameEvent::TokenOnArtist {
                        seat,
                        token,
                        artist: *artist,
                    },
                );
            }
        }
        (Task::PlaceToken { token, .. }, Action::DiscardToken) => {
            game.discard_token(seat, token, ev);
        }
        (Task::Pilot { cities, .. }, a @ (Action::PilotToken { .. } | Action::PilotSong { .. })) => {
            game.pilot_pick(seat, cities, a, ev);
        }
        (Task::Pilot { cities, .. }, Action::Stop) => {
            game.queue.push_front(Task::Pilot {
                seat,
                cities,
                stopped: true,
            });
        }
        (Task::Pilot { .. }, Action::CarTo { city }) => {
            game.players[seat].car = *city;
            tell(ev, GameEvent::CarMoved { seat, city: *city });
        }
        (Task::DjRemove { .. }, a) => game.dj_step(seat, a, ev),
        (t @ Task::DjAdd { .. }, Action::DjFromMarket { field }) => {
            game.queue.push_front(t);
            if let Some(tk) = game.concert_market[*field as usize - 1].take() {
                game.map_tokens.push(tk);
                game.tell_to_map(tk, ToMap::DjMarket { field: *field }, Some(seat), ev);
            }
        }
        (t @ Task::DjAdd { .. }, Action::DjFromBag) => {
            game.queue.push_front(t);
            if let Some(tk) = game.draw_token(ev) {
                game.map_tokens.push(tk);
                game.tell_to_map(tk, ToMap::DjBag, Some(seat), ev);
            }
        }
        (t, _) => game.queue.push_front(t),
    }
}

pub(super) const RULES: Rules = Rules { step, legal, exec };
