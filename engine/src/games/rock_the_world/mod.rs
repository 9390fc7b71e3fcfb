//! Rock the World (2-4 players): grow a band by claiming characters, earn money playing gigs,
//! then attempt to Rock the World by claiming all 16 characters before the others bankrupt you.
//!
//! The rulebook decides where it speaks and the rulings R1-R43 (`RULES.md` in this folder)
//! everywhere else; each ruling is a named constant in [`components`] or a field of [`Options`].

pub mod actions;
pub mod components;
pub mod events;
pub mod scenario;
pub mod state;
pub mod view;

mod bot;
mod determinize;
mod invariants;
mod machine;
mod rules;
mod scoring;
mod setup;
mod texts;

#[cfg(test)]
mod tests;

pub use actions::{Action, Options, Variant};
pub use components::{Token, Tokens};
pub use events::GameEvent;
pub use state::RockTheWorld;
pub use view::View;

use rand::RngCore;

use crate::{
    Announcements, BotLevel, Event, Game, Machine, Outcome, Replay, Seat, SetupError, Started, Timeout,
    Viewer,
};

impl Game for RockTheWorld {
    const SLUG: &'static str = "rock-the-world";
    const TITLE: &'static str = "Rock the World";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=4;
    /// The rules know no clock and no pass that fits every decision: a random bot plays a
    /// seat that runs out of time, from what that seat may see.
    const ON_TIMEOUT: Timeout = Timeout::Bot {
        level: BotLevel::Random,
    };
    /// See [`bot::SEARCH_EDGE`]: one action moves the long race little against the playouts'
    /// noise.
    const SEARCH_GREEDY_EDGE: f64 = bot::SEARCH_EDGE;
    const ANNOUNCEMENTS: Announcements<'static> = events::ANNOUNCEMENTS;
    const REPLAY: Replay = view::REPLAY;
    const RULES: &'static str = include_str!("RULES.md");
    const EFFECTS: &'static [crate::texts::Effect] = texts::EFFECTS;
    const MESSAGES: &'static [(&'static str, &'static str)] = texts::MESSAGES;
    type Options = Options;
    type Action = Action;
    type Event = GameEvent;
    type View = View;

    fn new_game(options: Options, seats: usize, seed: u64) -> Result<Started<Self>, SetupError> {
        setup::new_game(options, seats, seed)
    }

    fn seat_count(&self) -> usize {
        self.seats()
    }

    fn to_act(&self) -> Vec<Seat> {
        self.seats_to_act()
    }

    fn may_act(&self, seat: Seat) -> bool {
        self.is_to_act(seat)
    }

    fn actions_for(&self, seat: Seat) -> Vec<Action> {
        self.legal(seat)
    }

    fn check_legal(&self, seat: Seat, action: &Action) -> Result<(), String> {
        self.check(seat, action)
    }

    fn apply_legal(&mut self, seat: Seat, action: &Action) -> Vec<Event<GameEvent>> {
        self.play(seat, action)
    }

    fn view(&self, viewer: Viewer) -> View {
        self.view_for(viewer)
    }

    fn phase(&self) -> &'static str {
        self.phase_name()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.scored()
    }

    fn machine() -> Machine {
        machine::machine()
    }

    fn components() -> crate::Catalogue {
        components::catalogue()
    }

    fn secrets(&self, viewer: Viewer) -> Vec<String> {
        self.hidden_from(viewer)
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }

    fn greedy_pick(view: &View, legal: &[Action], rng: &mut dyn RngCore) -> Option<usize> {
        bot::greedy(view, legal, rng)
    }

    fn greedy_pick_in(&self, seat: Seat, legal: &[Action], rng: &mut dyn RngCore) -> Option<usize> {
        bot::greedy_in(self, seat, legal, rng)
    }

    fn determinize(&self, seat: Seat, rng: &mut dyn RngCore) -> Self {
        self.determinized(seat, rng)
    }
}
