//! The phase machine, as data, in the rulebook's words, and the phase a game is in.

use super::state::{ShrewdProducer, Stage};
use crate::{Game, Machine, Phase, Transition};

impl ShrewdProducer {
    /// The phase name the machine uses.
    pub(crate) fn phase_name(&self) -> &'static str {
        match self.stage {
            Stage::Draft => "draft",
            Stage::Scout => "scout",
            Stage::Raise => "raise",
            Stage::Signing => "signing",
            Stage::Songs => "songs",
            Stage::Over => "over",
        }
    }
}

const fn to(to: &'static str, when: &'static str) -> Transition {
    Transition { to, when }
}

/// Draft, then 12 rounds of scout, raise, signing and song picks; a redraft after round 6.
pub(crate) fn machine() -> Machine {
    Machine {
        initial: "draft",
        phases: vec![
            Phase {
                name: "draft",
                description: "Scout Money setup: each player draws 2 cards; then twice, each draws 2, \
                    chooses 1 to add to their hand and passes the other face down to the player on \
                    their left (G22: the choices are simultaneous). Each player ends with 6 cards.",
                actions: vec!["keep"],
                transitions: vec![
                    to(
                        "draft",
                        "a seat has kept a card and other seats are still choosing, or the first passing step is done",
                    ),
                    to(
                        "scout",
                        "the second passing step is done: the lead reveals two artists",
                    ),
                ],
            },
            Phase {
                name: "scout",
                description: "The lead plays a Scout Money card; its suit is the lead suit. Clockwise, \
                    each other player plays a card of the lead suit if they have one; otherwise plays \
                    another card (out of the Raise Phase) or pays $200 of Raise Money to substitute \
                    (in). Debt may be taken on one's own turn (G23).",
                actions: vec!["play", "substitute", "take_debt"],
                transitions: vec![
                    to("scout", "a seat played or substituted and others have yet to"),
                    to("raise", "every seat has played or substituted"),
                ],
            },
            Phase {
                name: "raise",
                description: "Participants act from the lowest Scout value to the highest (G5; ties \
                    to the player closer to the lead): raise (add Raise Money, multiples of $100) or \
                    pass (final for the round). Debt may be taken on one's own turn.",
                actions: vec!["raise", "pass", "take_debt"],
                transitions: vec![
                    to("raise", "a participant raised, or passed while others have not"),
                    to(
                        "signing",
                        "all participants have passed: 1st and 2nd place by total bid",
                    ),
                ],
            },
            Phase {
                name: "signing",
                description: "1st place chooses one of the two revealed artists; 2nd place signs the \
                    other (G25). A single participant signs one and the other is discarded (G10). \
                    Then money processing: signers pay their whole bid; others lose their Scout play \
                    and $100 of their Raise-Phase money (G9).",
                actions: vec!["choose_artist"],
                transitions: vec![
                    to("songs", "a signer has completed its current song below Lv.3"),
                    to(
                        "scout",
                        "no song to pick and rounds remain: the next lead reveals two artists",
                    ),
                    to(
                        "draft",
                        "no song to pick after round 6: Scout Money is redistributed (G28)",
                    ),
                    to("over", "no song to pick after round 12"),
                ],
            },
            Phase {
                name: "songs",
                description: "Signers who completed their current song, closest to the lead first, \
                    take an open song card of the next level or decline (G12, G26); a new song that \
                    is complete at once lets them pick again.",
                actions: vec!["take_song", "decline_song"],
                transitions: vec![
                    to("songs", "a signer may still pick"),
                    to("scout", "all picks are done and rounds remain"),
                    to("draft", "all picks are done after round 6 (G28)"),
                    to("over", "all picks are done after round 12"),
                ],
            },
            Phase {
                name: "over",
                description: "Final score: highest completed song (Song Pt + participating artists' \
                    Pt) + 1 Pt per $200 of Raise Money - 6 Pt per debt. Ties: most artists signed, \
                    then a shared win.",
                actions: vec![],
                transitions: vec![],
            },
        ],
        groups: Vec::new(),
        on_timeout: <ShrewdProducer as Game>::ON_TIMEOUT,
    }
}
