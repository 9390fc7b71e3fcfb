//! The phase machine: every decision phase [`ShowBusiness::phase_name`] reports, and the
//! automatic phases (no action) the game passes through between them, in the order of the
//! rulebook's round, RULINGS.md's "Decision points" and the rondel.

use super::state::{ShowBusiness, Task};
use crate::{Game, Machine, Phase, PhaseGroup, Transition};

/// S8: DISMISSAL, REGROUPMENT and STYLE CHANGE, offered beside the active player's other
/// options at every decision point of steps 2-6 of her round and at `end_round`.
const ANYTIME: [&str; 3] = ["dismiss", "regroup", "flip"];

const DISMISSED: &str = "S9/S11: a DISMISSAL leaves more cards than the hand limit";
const SHORT: &str = "S33: a payment exceeds the cash and advertising can cover it";
const ACTION_ENDS: &str = "the action is over";

fn phase(
    name: &'static str,
    description: &'static str,
    actions: &[&'static str],
    anytime: bool,
    transitions: &[(&'static str, &'static str)],
) -> Phase {
    let mut actions = actions.to_vec();
    if anytime {
        actions.extend(ANYTIME);
    }
    Phase {
        name,
        description,
        actions,
        transitions: transitions
            .iter()
            .map(|&(to, when)| Transition { to, when })
            .collect(),
    }
}

impl ShowBusiness {
    /// The decision the game waits for, by name; `over` once scored.
    pub(crate) fn phase_name(&self) -> &'static str {
        if self.result.is_some() {
            return "over";
        }
        match self.queue.front() {
            Some(Task::Bid(b)) if b.setup => "opening_bid",
            Some(Task::Bid(_)) => "sequence_bid",
            Some(Task::Poll { .. }) => "sequence_bid_poll",
            Some(Task::ChooseFirst { .. }) => "choose_first",
            Some(Task::Review { .. }) => "market_review",
            Some(Task::TimeLapse { .. }) => "time_lapse",
            Some(Task::Activate { .. }) => "activation",
            Some(Task::ChooseAction { .. }) => "action",
            Some(Task::Recruit { .. }) => "recruitment",
            Some(Task::Tournee { .. }) => "tournee",
            Some(Task::PlaceToken { .. }) => "concert_token",
            Some(Task::Record { .. }) => "recording",
            Some(Task::Defend { .. }) => "defence",
            Some(Task::SponsorSwap { .. }) => "sponsor_exchange",
            Some(Task::Groupie { .. }) => "groupie",
            Some(Task::FemmeChoice { .. }) => "femme_fatale",
            Some(Task::Pilot { .. }) => "pilot",
            Some(Task::DjRemove { .. }) => "dj_remove",
            Some(Task::DjAdd { .. }) => "dj_add",
            Some(Task::Influences { .. }) => "influences",
            Some(Task::EndRound { .. }) => "end_round",
            Some(Task::HandDiscard { .. }) => "hand_discard",
            Some(Task::Advertise { .. }) => "advertising",
            Some(Task::Charts) => "charts",
            Some(_) | None => "over",
        }
    }
}

/// The phase machine of Show Business.
pub(crate) fn machine() -> Machine {
    let interrupted: &[(&str, &str)] = &[
        ("market_review", "the MARKET REVIEW goes on"),
        ("time_lapse", "the TIME LAPSE goes on"),
        ("activation", "the activation goes on"),
        ("action", "the choice of action goes on"),
        ("recruitment", "the RECRUITMENT goes on"),
        ("tournee", "the TOURNEE goes on"),
        ("concert_token", "the token placement goes on"),
        ("pilot", "the PILOT action goes on"),
        ("influences", "the INFLUENCES step goes on"),
        ("end_round", "the end of the round goes on"),
        ("rondel", "S11: INTEGRATION CONTROL goes on with the next seat"),
    ];
    let paid: &[(&str, &str)] = &[
        ("market_review", "a MARKET REVIEW removal is paid"),
        ("after_action", "a PROMOTION is paid"),
        ("influences", "an INFLUENCES purchase is paid"),
        ("refreshment", "a purchase that filled the hand is paid"),
        ("rondel", "SALARIES or negative ROYALTIES are paid"),
        ("quarter_end", "CLEARING is paid"),
        ("emergency_clearing", "S32: the emergency CLEARING is paid"),
        ("end_scoring", "the end-game payment is paid (S39)"),
    ];
    Machine {
        initial: "opening_bid",
        phases: vec![
            phase(
                "opening_bid",
                "Setup 10 (S5): sealed, simultaneous bids of 0 up to own cash; everyone pays; tied top \
                 bids re-bid.",
                &["bid"],
                false,
                &[
                    ("choose_first", "a unique highest positive bid"),
                    (
                        "round_start",
                        "S5: every bid is 0: a uniformly random seat starts",
                    ),
                ],
            ),
            phase(
                "choose_first",
                "S7: the bid winner chooses any solvent seat to start; the turn runs in seat order \
                 from there.",
                &["choose_first"],
                false,
                &[
                    ("round_start", "the first seat's round begins"),
                    ("quarter_end", "a quarter end is pending (RULINGS 8)"),
                ],
            ),
            phase(
                "round_start",
                "Automatic: the studios restock the active seat's blank songs (RULINGS 3.6), then \
                 step 1 CONCERTS moves concert market tokens to the map until it holds 5.",
                &[],
                false,
                &[
                    ("market_review", "the active seat is solvent"),
                    (
                        "round_tail",
                        "S34: a bankrupt seat keeps her place with an empty round",
                    ),
                ],
            ),
            phase(
                "market_review",
                "Step 2 MARKET REVIEW (S12): remove market cards, paying each field's number, then \
                 end_review; the markets close up and refill.",
                &["remove", "end_review"],
                true,
                &[
                    ("refreshment", "end_review: the markets close up and refill"),
                    ("advertising", SHORT),
                    ("hand_discard", DISMISSED),
                ],
            ),
            phase(
                "time_lapse",
                "Step 3 TIME LAPSE (S13): play an influence card and move the time marker by its \
                 POWER, or give up steps 3-4.",
                &["play", "give_up"],
                true,
                &[
                    (
                        "activation",
                        "a card is played (S15 flags a quarter end field reached first)",
                    ),
                    ("influences", "give_up"),
                    ("refreshment", "give_up with the hand already at the limit"),
                    ("hand_discard", DISMISSED),
                ],
            ),
            phase(
                "activation",
                "Step 4 (S16): act with the played card, or take a market card from a field at most \
                 its POWER.",
                &["activate_hand", "take_market"],
                true,
                &[("action", "the active card is set"), ("hand_discard", DISMISSED)],
            ),
            phase(
                "action",
                "Step 4 ACTION (S17): the first concrete sub-step chooses TREND, RECRUITMENT, TOURNEE, \
                 PROMOTION or the card's CHARACTER action; or pass.",
                &[
                    "pass",
                    "set_die",
                    "recruit",
                    "move",
                    "pick_token",
                    "pick_song",
                    "promote",
                    "a_and_r",
                    "sponsor",
                    "groupie",
                    "femme_fatale",
                    "paparazzi",
                    "reporter",
                    "trend_expert_place",
                    "trend_expert_remove",
                    "pilot_token",
                    "pilot_song",
                    "dj_remove",
                    "dj_done",
                ],
                true,
                &[
                    (
                        "after_action",
                        "pass, TREND, PROMOTION, PAPARAZZI, REPORTER or TREND EXPERT is done",
                    ),
                    ("recruitment", "a first recruit"),
                    ("tournee", "a first move"),
                    (
                        "concert_token",
                        "a first concert pays and its token waits for a place",
                    ),
                    ("recording", "a first song picked up (TOURNEE or PILOT)"),
                    ("pilot", "a first PILOT pick of a white token"),
                    ("defence", "A&R or SPONSOR declares a hostile activity (S22)"),
                    ("groupie", "GROUPIE: the target is chosen"),
                    ("femme_fatale", "FEMME FATALE: the public draw is made (S26)"),
                    ("dj_remove", "DJ: a first token is removed"),
                    ("dj_add", "DJ: no token is removed"),
                    ("advertising", SHORT),
                    (
                        "emergency_clearing",
                        "S32: a PAPARAZZI or FEMME FATALE draw finds no card",
                    ),
                    ("hand_discard", DISMISSED),
                ],
            ),
            phase(
                "recruitment",
                "RECRUITMENT (S18): hire artists from market fields at most POWER, each placed at once.",
                &["recruit", "end_action"],
                true,
                &[("after_action", ACTION_ENDS), ("hand_discard", DISMISSED)],
            ),
            phase(
                "tournee",
                "TOURNEE (S19): move, pick_token and pick_song cost 1 POWER each; end_action any time.",
                &["move", "pick_token", "pick_song", "end_action"],
                true,
                &[
                    ("after_action", ACTION_ENDS),
                    ("concert_token", "a concert pays and its token waits for a place"),
                    ("recording", "a song is picked up (S20)"),
                    ("hand_discard", DISMISSED),
                ],
            ),
            phase(
                "concert_token",
                "CONCERT (S19): place the token on an artist's free experience field of its colour, \
                 or discard it.",
                &["place_token", "discard_token"],
                true,
                &[
                    ("tournee", "the TOURNEE goes on"),
                    ("pilot", "the PILOT action goes on"),
                    ("hand_discard", DISMISSED),
                ],
            ),
            phase(
                "recording",
                "RECORDING (S20): style, lyrics, tempo and volume, one decision each; field 5 is \
                 computed at the end.",
                &["record_style", "record_lyrics", "record_tempo", "record_volume"],
                false,
                &[
                    ("tournee", "the song is recorded and the TOURNEE goes on"),
                    ("pilot", "the song is recorded and the PILOT action goes on"),
                ],
            ),
            phase(
                "defence",
                "Hostile activity (S22): only the target answers, with one qualifying card or decline.",
                &["defend", "decline"],
                false,
                &[
                    ("after_action", "the attack is defended, or settled"),
                    (
                        "sponsor_exchange",
                        "an undefended SPONSOR: the attacker sees the hand (S24)",
                    ),
                ],
            ),
            phase(
                "sponsor_exchange",
                "SPONSOR (S24): the attacker exchanges up to POWER cards, one swap at a time, or stops.",
                &["swap", "stop"],
                false,
                &[("after_action", ACTION_ENDS)],
            ),
            phase(
                "groupie",
                "GROUPIE (S25): the taken card, the given card, then both placements.",
                &[
                    "groupie_take",
                    "groupie_give",
                    "groupie_place_mine",
                    "groupie_place_theirs",
                ],
                false,
                &[("defence", "the exchange is declared (S22)")],
            ),
            phase(
                "femme_fatale",
                "FEMME FATALE (S26): after the draw, INTEGRATION or DISORDER against a target.",
                &["integration", "disorder"],
                false,
                &[
                    ("after_action", "INTEGRATION"),
                    ("defence", "DISORDER declares a hostile activity"),
                ],
            ),
            phase(
                "pilot",
                "PILOT (S27): one or two picks anywhere, each placed or recorded at once, then car_to.",
                &["pilot_token", "pilot_song", "stop", "car_to"],
                true,
                &[
                    ("after_action", "car_to"),
                    ("concert_token", "a concert pays and its token waits for a place"),
                    ("recording", "a song is picked up"),
                    ("hand_discard", DISMISSED),
                ],
            ),
            phase(
                "dj_remove",
                "DJ (S28): discard map tokens, any number, then done.",
                &["dj_remove", "dj_done"],
                false,
                &[
                    ("dj_add", "done, with the map short of 5 tokens"),
                    ("after_action", "done, with 5 tokens on the map or no source left"),
                ],
            ),
            phase(
                "dj_add",
                "DJ (S28): add tokens from the concert market or the bag until the map holds 5.",
                &["dj_from_market", "dj_from_bag"],
                false,
                &[("after_action", "the map holds 5 tokens or no source is left")],
            ),
            phase(
                "after_action",
                "Automatic: the second TIME LAPSE follows unless the first triggered a quarter end \
                 (S14), the marker is on 56 or the hand is empty; otherwise step 5.",
                &[],
                false,
                &[
                    ("time_lapse", "the second card"),
                    ("influences", "step 5 INFLUENCES"),
                    ("refreshment", "the hand is already at the limit: step 6"),
                ],
            ),
            phase(
                "influences",
                "Step 5 INFLUENCES (S31): draw or buy one card at a time up to the hand limit.",
                &["draw", "buy"],
                true,
                &[
                    ("refreshment", "the hand is at the limit: step 6"),
                    ("advertising", SHORT),
                    ("emergency_clearing", "S32: a draw finds no card"),
                    ("hand_discard", DISMISSED),
                ],
            ),
            phase(
                "refreshment",
                "Automatic: the markets close up and refill (after step 2, and step 6 MARKET \
                 REFRESHMENT).",
                &[],
                false,
                &[
                    ("time_lapse", "after step 2: step 3"),
                    ("influences", "after step 2 with no time lapse left: step 5"),
                    ("end_round", "after step 6"),
                    (
                        "emergency_clearing",
                        "S32: no influence card is left to refill with",
                    ),
                ],
            ),
            phase(
                "emergency_clearing",
                "Automatic (S32): the influence pile and discards are empty, so every solvent seat runs \
                 CLEARING in turn order; the interrupted procedure continues.",
                &[],
                false,
                &[
                    ("advertising", SHORT),
                    ("refreshment", "the market refill continues"),
                    ("influences", "the draw continues"),
                    ("femme_fatale", "the FEMME FATALE draw continues"),
                    ("after_action", "the PAPARAZZI draw continues"),
                    ("rondel", "the POPULARITY CHECK continues"),
                    ("end_scoring", "the end-game scandal draw continues"),
                    (
                        "round_tail",
                        "S34: the active seat went bankrupt and her decisions are skipped",
                    ),
                ],
            ),
            phase(
                "end_round",
                "S10: end the round, the last anytime window.",
                &["end_round"],
                true,
                &[("round_tail", "end_round"), ("hand_discard", DISMISSED)],
            ),
            phase(
                "round_tail",
                "Automatic: after the last seat's round, step 7 MARKET CHANGE and step 8 EVENT RONDEL; \
                 a pending quarter end runs (RULINGS 8); then the next round.",
                &[],
                false,
                &[
                    ("rondel", "the last seat's round: steps 7 and 8"),
                    ("quarter_end", "a quarter end is pending"),
                    ("round_start", "the next seat's round"),
                    ("end_scoring", "S38: the last turn is over"),
                    ("over", "every band is bankrupt"),
                ],
            ),
            phase(
                "rondel",
                "Automatic: step 7 MARKET CHANGE, then step 8 moves the rondel marker one field and \
                 runs its event (TREND CHANGE, POPULARITY CHECK, SALARIES, INTEGRATION CONTROL, \
                 ROYALTIES) seat by seat in turn order (S35).",
                &[],
                false,
                &[
                    ("advertising", SHORT),
                    (
                        "hand_discard",
                        "S11: INTEGRATION CONTROL leaves a seat above its hand limit",
                    ),
                    ("emergency_clearing", "S32: a POPULARITY CHECK draw finds no card"),
                    ("sequence_bid_poll", "step 9 (S6), except in the last turn"),
                    ("quarter_end", "a quarter end is pending"),
                    ("round_start", "the next turn"),
                    ("end_scoring", "S38: the last turn is over"),
                    ("over", "every band is bankrupt"),
                ],
            ),
            phase(
                "sequence_bid_poll",
                "Step 9 (S6): every solvent seat gives up or joins the sequence bid.",
                &["give_up_bid", "join_bid"],
                false,
                &[
                    ("sequence_bid", "someone joins: every solvent seat bids"),
                    ("quarter_end", "everyone gives up and a quarter end is pending"),
                    ("round_start", "everyone gives up: the sequence stays"),
                ],
            ),
            phase(
                "sequence_bid",
                "Step 9 (S5): sealed bids; everyone pays; tied top bids re-bid.",
                &["bid"],
                false,
                &[
                    ("choose_first", "a unique highest positive bid"),
                    ("quarter_end", "every bid is 0 and a quarter end is pending"),
                    ("round_start", "every bid is 0: the sequence stays"),
                ],
            ),
            phase(
                "quarter_end",
                "Automatic: QUARTER END 1 CHARTS (disclose, score, purge identical songs, rank, \
                 popularity), 2 POPULARITY for experience, 3 SATISFACTION CHECK, 4 CLEARING, seat by \
                 seat in turn order.",
                &[],
                false,
                &[
                    ("charts", "songs are tied on the CHART SCORING TRACK (S36)"),
                    ("advertising", SHORT),
                    ("round_start", "the next round"),
                    ("end_scoring", "S38: the last quarter end closes the last turn"),
                    ("over", "every band is bankrupt"),
                ],
            ),
            phase(
                "charts",
                "CHARTS tie-break (S36): owners in turn order discard SPONSOR cards then done; the \
                 winner chooses the song for the next field.",
                &["sponsor_tie", "done", "choose_song"],
                false,
                &[("quarter_end", "the ranking is complete")],
            ),
            phase(
                "hand_discard",
                "S11: discard one card at a time down to max(3, artists).",
                &["discard"],
                false,
                interrupted,
            ),
            phase(
                "advertising",
                "S33: PERFORM IN ADVERTISING: n fields down for 5 FONS each, then pay.",
                &["advertise"],
                false,
                paid,
            ),
            phase(
                "end_scoring",
                "Automatic (S39): per seat in turn order, pay for the influence field, then the \
                 penalties (satisfaction, missing mandatory artists, scandal draw); score = \
                 popularity + 10% of cash.",
                &[],
                false,
                &[
                    ("advertising", SHORT),
                    ("emergency_clearing", "S32: the scandal draw finds no card"),
                    ("over", "every seat is scored"),
                ],
            ),
            phase(
                "over",
                "END OF GAME: popularity + 10% of cash; ties by popularity, then cash (S39).",
                &[],
                false,
                &[],
            ),
        ],
        groups: groups(),
        on_timeout: <ShowBusiness as Game>::ON_TIMEOUT,
    }
}

/// The parts of the year the 33 phases fall in, for the diagram.
fn groups() -> Vec<PhaseGroup> {
    let group = |name, title, phases: &[&'static str]| PhaseGroup {
        name,
        title,
        phases: phases.to_vec(),
    };
    vec![
        group(
            "part_setup",
            "Setup: who starts (S5-S7)",
            &["opening_bid", "choose_first"],
        ),
        group(
            "part_round",
            "A seat's round: steps 1-6",
            &[
                "round_start",
                "market_review",
                "time_lapse",
                "activation",
                "action",
                "after_action",
                "end_round",
                "round_tail",
            ],
        ),
        group(
            "part_actions",
            "Step 4: the actions",
            &[
                "recruitment",
                "tournee",
                "concert_token",
                "recording",
                "pilot",
                "dj_remove",
                "dj_add",
            ],
        ),
        group(
            "part_hostile",
            "Hostile activities and their defence (S8-S30)",
            &["defence", "sponsor_exchange", "groupie", "femme_fatale"],
        ),
        group(
            "part_cards",
            "Influences, markets and the hand",
            &["influences", "refreshment", "hand_discard"],
        ),
        group(
            "part_round_end",
            "After every round: steps 7-9 (rondel, sequence)",
            &["rondel", "sequence_bid_poll", "sequence_bid"],
        ),
        group(
            "part_money",
            "Quarter ends, charts and payments (S32-S36)",
            &["quarter_end", "charts", "advertising", "emergency_clearing"],
        ),
        group("part_end", "End of the game (S39)", &["end_scoring", "over"]),
    ]
}
