//! Rock the World (2-4 players): grow a band by claiming characters, earn money playing gigs,
//! then attempt to Rock the World by claiming all 16 characters before the others bankrupt you.
//!
//! RULEBOOK.txt decides where it speaks and RULINGS.md (R1-R43) everywhere else; each ruling is
//! a named constant in [`components`] or a field of [`Options`].

pub mod actions;
pub mod components;
mod rules;
mod scoring;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use actions::{Action, GameEvent, Options, Token, Tokens, Variant};
pub use state::RockTheWorld;
pub use view::View;

use crate::{Event, Game, Machine, Outcome, Phase, Seat, SetupError, Started, Transition, Viewer};

use components::card_id;

impl Game for RockTheWorld {
    const SLUG: &'static str = "rock-the-world";
    const TITLE: &'static str = "Rock the World";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=4;

    type Options = Options;
    type Action = Action;
    type Event = GameEvent;
    type View = View;

    fn new_game(options: Options, seats: usize, seed: u64) -> Result<Started<Self>, SetupError> {
        RockTheWorld::new_game(options, seats, seed)
    }

    fn seat_count(&self) -> usize {
        self.seats()
    }

    fn to_act(&self) -> Vec<Seat> {
        match self.end() {
            Some(_) => Vec::new(),
            None => vec![self.active],
        }
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
        machine()
    }

    /// R14: only the order of the play deck is hidden, from everyone, until the end.
    fn secrets(&self, _viewer: Viewer) -> Vec<String> {
        if self.end().is_some() {
            return Vec::new();
        }
        self.deck.iter().map(|&c| card_id(c)).collect()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }
}

fn phase(
    name: &'static str,
    description: &'static str,
    actions: &[&'static str],
    transitions: &[(&'static str, &'static str)],
) -> Phase {
    Phase {
        name,
        description,
        actions: actions.to_vec(),
        transitions: transitions
            .iter()
            .map(|&(to, when)| Transition { to, when })
            .collect(),
    }
}

const TURN_ENDS: &str = "claim, gig or end_turn ends the turn; the die passes left (R4, R23)";
const AFTER_CLAIM: &str = "option gig_after_claim: the claim took the board character (R24)";
const TURN_CAP: &str = "the turn cap is reached (R36)";
const REVERTS: &str = "a gig eliminates the rocker; tournament and modified friendly: play reverts to \
                       phase one (R32, R34)";
const FINAL_ENDS: &str = "the rocker claims the sixteenth character; a friendly elimination; one \
                          player left; or the turn cap (R10, R33, R36, R38)";

/// The phase machine: phase one, then the final phase once someone attempts to Rock the World.
fn machine() -> Machine {
    Machine {
        initial: "phase_one_roll",
        phases: vec![
            phase(
                "phase_one_roll",
                "Phase one. \"A player must roll to begin his turn and move his Lead Singer Cutout.\"",
                &["roll"],
                &[(
                    "phase_one_turn",
                    "the die is rolled and the cutout moved clockwise (R16)",
                )],
            ),
            phase(
                "phase_one_turn",
                "Phase one, after the roll: buy travel tokens (before using any), use them, attempt to \
                 Rock the World, claim the character where one stands, play a gig in an open city, or \
                 end the turn (R4, R18-R26).",
                &["buy", "use", "declare", "claim", "gig", "end_turn"],
                &[
                    ("phase_one_roll", TURN_ENDS),
                    (
                        "final_roll",
                        "declare: the player becomes the rocker; the turn ends (R22)",
                    ),
                    ("phase_one_after_claim", AFTER_CLAIM),
                    (
                        "over",
                        "the turn cap is reached, or a declarer holds all 16 characters (R22, R36)",
                    ),
                ],
            ),
            phase(
                "phase_one_after_claim",
                "Phase one, option gig_after_claim: the city just became open; gig or end the turn.",
                &["gig", "end_turn"],
                &[("phase_one_roll", TURN_ENDS), ("over", TURN_CAP)],
            ),
            phase(
                "final_roll",
                "The final phase: someone attempts to Rock the World. Tokens are recyclable; the rocker \
                 earns nothing. The turn begins with the roll.",
                &["roll"],
                &[(
                    "final_turn",
                    "the die is rolled and the cutout moved clockwise (R16)",
                )],
            ),
            phase(
                "final_turn",
                "The final phase, after the roll: the rocker claims on any space, extras before family \
                 characters; outsiders play as in phase one and gig on the rocker to bankrupt him \
                 (R30, R31).",
                &["buy", "use", "claim", "gig", "end_turn"],
                &[
                    ("final_roll", TURN_ENDS),
                    ("final_after_claim", AFTER_CLAIM),
                    ("phase_one_roll", REVERTS),
                    ("over", FINAL_ENDS),
                ],
            ),
            phase(
                "final_after_claim",
                "The final phase, option gig_after_claim (never for the rocker, R42): gig or end the turn.",
                &["gig", "end_turn"],
                &[
                    ("final_roll", TURN_ENDS),
                    ("phase_one_roll", REVERTS),
                    ("over", FINAL_ENDS),
                ],
            ),
            phase(
                "over",
                "\"All players should then count their money and record the count on the official score \
                 sheet.\"",
                &[],
                &[],
            ),
        ],
    }
}
