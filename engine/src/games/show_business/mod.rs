//! Show Business (Grzegorz Majewski, Sinonis 2010): 2-5 music managers build bands, tour,
//! record and chart songs over one year of weeks.
//!
//! The game runs as a queue of steps: each is either automatic (run at once) or a decision
//! one seat (or several, for sealed bids and the step 9 poll) must post. The front of the
//! queue is what the game waits for; RULINGS.md's "Decision points" fix the order.
//!
//! Where neither the rulebook nor RULINGS.md decides, this implementation rules:
//! - S5 at setup: when every participant of a bidding round bids 0, the first player is drawn
//!   uniformly among that round's participants (all seats in the first round).
//! - When every band is bankrupt the game ends at once and is scored.
//! - Hand cards another seat legitimately knows (bought from the market, shown to a SPONSOR,
//!   exchanged) appear in that seat's view until they leave the hand.
//! - Views show the discard piles and the used token pool as counts (with the top influence
//!   discard); pile order, the bag and other seats' hands never leave the engine.

mod actions;
mod bot;
mod components;
mod determinize;
mod events;
mod invariants;
mod machine;
mod rules;
mod scenario;
mod scoring;
mod setup;
mod state;
mod texts;
mod view;

#[cfg(test)]
mod tests;

pub use actions::{Action, ChartFields, Market, Options, PaparazziBlock, Restock, RoyaltyBasis, SongContent};
pub use components::{
    ArtistId, BLANK_FACE, CardId, Character, CityId, Die, Instrument, Lyrics, SongId, Style, Tempo,
    TokenColour, TokenId, Volume,
};
pub use events::{
    ChartScore, Ending, FinalScore, GameEvent, Hostile, Income, MarketField, MarketRow, Payment, Pile,
    PopularityCause, RondelCause, SatisfactionCause, ShownFor, TieBreak, ToMap,
};
pub use scenario::{ChartEntry, Scenario, Start};
pub use state::ShowBusiness;
pub use view::{
    ArtistView, MarketArtist, MarketCard, MarketToken, Pending, PlayerView, SongView, TiedSong, TokenView,
    View,
};

use rand::RngCore;

use crate::{
    Announcements, BotLevel, Event, Game, Machine, Outcome, Replay, Seat, SetupError, Started, Timeout,
    Viewer,
};

impl Game for ShowBusiness {
    const SLUG: &'static str = "show-business";
    const TITLE: &'static str = "Show Business";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=5;
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

    fn greedy_action(&self, seat: Seat, rng: &mut dyn RngCore) -> Option<Action> {
        bot::greedy_action(self, seat, rng)
    }

    fn determinize(&self, seat: Seat, rng: &mut dyn RngCore) -> Self {
        self.determinized(seat, rng)
    }
}
