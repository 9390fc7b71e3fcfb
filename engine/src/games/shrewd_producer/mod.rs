//! Shrewd Producer: "Trick-taking x Auction! Aim for the World's Best Rock Band!"
//!
//! 3 or 4 producers bid over 12 rounds for two artists a round: Scout Money first (follow the
//! lead suit to stay in), then Raise Money; the top two bids sign the artists. Completed songs,
//! leftover Raise Money and debts make the score. `RULEBOOK.txt` wins where it speaks;
//! `RULINGS.md` (G1-G28) decides the rest, each ruling a constant in [`rulings`] or an
//! [`Options`] field.

pub mod actions;
pub mod components;
pub mod rulings;
pub mod scoring;
pub mod state;
pub mod view;

mod invariants;
mod machine;
mod rules;

#[cfg(test)]
mod tests;

pub use actions::{Action, GameEvent};
pub use rulings::Options;
pub use state::ShrewdProducer;
pub use view::View;

use crate::{Event, Game, Machine, Outcome, Rejection, Seat, SetupError, Started, Viewer};

impl Game for ShrewdProducer {
    const SLUG: &'static str = "shrewd-producer";
    const TITLE: &'static str = "Shrewd Producer";
    const SEATS: std::ops::RangeInclusive<usize> = 3..=4;
    type Options = Options;
    type Action = Action;
    type Event = GameEvent;
    type View = View;

    fn setup(options: Options, seats: usize, seed: u64) -> Result<Started<Self>, SetupError> {
        Self::new(options, seats, seed)
    }

    fn seat_count(&self) -> usize {
        self.seats()
    }

    fn to_act(&self) -> Vec<Seat> {
        self.seats_to_act()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.legal(seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event<GameEvent>>, Rejection> {
        self.play(seat, action)
    }

    fn view(&self, viewer: Viewer) -> View {
        self.view_for(viewer)
    }

    fn phase(&self) -> &'static str {
        self.stage_name()
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.stage == state::Stage::Over).then(|| self.result())
    }

    fn machine() -> Machine {
        machine::machine()
    }

    fn secrets(&self, viewer: Viewer) -> Vec<String> {
        self.hidden_from(viewer)
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }
}
