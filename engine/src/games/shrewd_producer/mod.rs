//! Shrewd Producer: "Trick-taking x Auction! Aim for the World's Best Rock Band!"
//!
//! 3 or 4 producers bid over 12 rounds for two artists a round: Scout Money first (follow the
//! lead suit to stay in), then Raise Money; the top two bids sign the artists. Completed songs,
//! leftover Raise Money and debts make the score. `RULEBOOK.txt` wins where it speaks;
//! the rulings G1-G28 (`RULES.md` in this folder) decide the rest, each ruling a constant in
//! [`components`] or an [`Options`] field.
//!
//! How the rules become actions (each decision RULINGS.md lists is asked, never taken for a
//! seat; what the rules make automatic happens without a post):
//!
//! - **draft**: every seat with a pair posts `keep` (simultaneous, G22); the passed card moves
//!   when all have chosen.
//! - **scout**: the seat to act posts `play` (the lead's card sets the suit, G24; a follower
//!   without the lead suit may play any card and is out) or `substitute` (G6, G7); `take_debt`
//!   may come first (G23).
//! - **raise**: the seat to act (G5 order) posts `raise` (one entry per legal amount, G8) or
//!   `pass`; `take_debt` may come first.
//! - **signing**: 1st place (or the single participant, G10) posts `choose_artist`; 2nd place
//!   receives the other artist (G25) and money processing (G9) follows at once.
//! - **songs**: a signer whose current song is complete posts `take_song` or `decline_song`
//!   (G12, G26), closest to the lead first.
//!
//! Cards travel as their ids: `A01`-`A24` (artists), `L1-1`-`L3-4` (songs), `R200a`-`Y700a`
//! (Scout Money: suit, value and a copy letter). Scout hands and the face-down piles are the
//! only hidden information (G15); every shuffle is a sealed event, top card first.

pub mod actions;
pub mod components;
pub mod events;
pub mod scenario;
pub mod scoring;
pub mod state;
pub mod view;

mod bot;
mod determinize;
mod invariants;
mod machine;
mod rules;
mod setup;
mod texts;

#[cfg(test)]
mod tests;

pub use actions::{Action, Options};
pub use events::GameEvent;
pub use state::ShrewdProducer;
pub use view::View;

use rand::RngCore;

use crate::{
    Announcements, BotLevel, Event, Game, Machine, Outcome, Replay, Seat, SetupError, Started, Timeout,
    Viewer,
};

impl Game for ShrewdProducer {
    const SLUG: &'static str = "shrewd-producer";
    const TITLE: &'static str = "Shrewd Producer";
    const SEATS: std::ops::RangeInclusive<usize> = 3..=4;
    /// The rules know no clock and no pass that fits every decision: a random bot plays a
    /// seat that runs out of time, from what that seat may see.
    const ON_TIMEOUT: Timeout = Timeout::Bot {
        level: BotLevel::Random,
    };
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
