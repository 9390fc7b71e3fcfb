//! Shrewd Producer (placeholder until the rules land: a game that ends at once).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{Event, Game, Machine, Outcome, Phase, Rejection, Seat, SetupError, Viewer};

/// Placeholder state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShrewdProducer {
    seats: usize,
}

/// Placeholder options.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = ShrewdProducerOptions)]
pub struct Options {}

/// Placeholder action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schema(as = ShrewdProducerAction)]
pub enum Action {
    /// Nothing.
    Pass,
}

/// Placeholder event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = ShrewdProducerEvent)]
pub struct GameEvent {}

/// Placeholder view.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShrewdProducerView)]
pub struct View {
    seats: usize,
}

impl Game for ShrewdProducer {
    const SLUG: &'static str = "shrewd-producer";
    const TITLE: &'static str = "Shrewd Producer";
    const SEATS: std::ops::RangeInclusive<usize> = 3..=4;
    type Options = Options;
    type Action = Action;
    type Event = GameEvent;
    type View = View;

    fn setup(_: Options, seats: usize, _: u64) -> Result<crate::Started<Self>, SetupError> {
        Ok((Self { seats }, vec![]))
    }
    fn seat_count(&self) -> usize {
        self.seats
    }
    fn to_act(&self) -> Vec<Seat> {
        vec![]
    }
    fn legal_actions(&self, _: Seat) -> Vec<Action> {
        vec![]
    }
    fn apply(&mut self, _: Seat, _: &Action) -> Result<Vec<Event<GameEvent>>, Rejection> {
        Err(Rejection::game_over())
    }
    fn view(&self, _: Viewer) -> View {
        View { seats: self.seats }
    }
    fn phase(&self) -> &'static str {
        "over"
    }
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn machine() -> Machine {
        Machine {
            initial: "over",
            phases: vec![Phase {
                name: "over",
                description: "",
                actions: vec![],
                transitions: vec![],
            }],
        }
    }
    fn secrets(&self, _: Viewer) -> Vec<String> {
        vec![]
    }
    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}
