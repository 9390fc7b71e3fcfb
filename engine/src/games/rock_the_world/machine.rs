//! The phase machine, as data, in the rulebook's words, and the phase a game is in.

use super::state::{RockTheWorld, Stage};
use crate::{Game, Machine, Phase, Transition};

impl RockTheWorld {
    /// The phase, one of the machine's.
    pub(super) fn phase_name(&self) -> &'static str {
        let final_phase = self.rocker.is_some();
        match self.step {
            Stage::Over { .. } => "over",
            Stage::Roll if final_phase => "final_roll",
            Stage::Roll => "phase_one_roll",
            Stage::Main { .. } if final_phase => "final_turn",
            Stage::Main { .. } => "phase_one_turn",
            Stage::AfterClaim if final_phase => "final_after_claim",
            Stage::AfterClaim => "phase_one_after_claim",
        }
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
pub(super) fn machine() -> Machine {
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
        groups: Vec::new(),
        on_timeout: <RockTheWorld as Game>::ON_TIMEOUT,
    }
}
