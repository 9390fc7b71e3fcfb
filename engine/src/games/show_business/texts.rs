//! The words Show Business serves to teach it: what its influence cards, characters, artists,
//! concert tokens and rondel fields do, and a sentence for each event (the template syntax is in
//! [`crate::texts`]). The rules themselves are `RULES.md`.

use crate::texts::Effect;

const INFLUENCE: &str = "An influence card: play it from your hand to move your time marker by its \
                         power, then use it (or a market card on a field up to its power) for one \
                         action; its power limits the action and is paid at the clearing \
                         (S13, S16, S17). For a TREND action it turns its die to the face it shows.";

const A_AND_R: &str = "A&R (hostile): swap your time marker with another manager's, unless they \
                       defend with an A&R of equal or higher power or a BODYGUARD (S22, S23).";
const BODYGUARD: &str = "BODYGUARD: discard it from your hand when attacked to stop any hostile \
                         activity against you (S22).";
const DJ: &str = "DJ: clear any concert tokens from the map, then refill the map to 5 from the \
                  concert market or the bag (S28).";
const FEMME_FATALE: &str = "FEMME FATALE: draw as many influence cards as its power; the highest \
                            power drawn is either added to your band's satisfaction (integration) \
                            or, as a hostile activity, taken from another band's (disorder) \
                            (S22, S26, S40).";
const GROUPIE: &str = "GROUPIE (hostile): exchange one of your artists, with its tokens, for one of \
                       another manager's; an artist on a mandatory field must be replaced by one \
                       playing the same instrument (S22, S25).";
const PAPARAZZI: &str = "PAPARAZZI: start a scandal for your band and draw as many influence cards \
                         as its power; your popularity rises by the highest power drawn.";
const PILOT: &str = "PILOT: pick up two items anywhere on the map (concert tokens, or your own \
                     blank songs in studios) and move your car to one of their cities; your band \
                     must be complete (S19, S20, S27).";
const REPORTER: &str = "REPORTER: move the event rondel marker as many fields as its power; the \
                        field it stops on has no event (S30).";
const SPONSOR: &str = "SPONSOR (hostile): see another manager's hand and swap up to its power of \
                       cards with them (S22, S24). In a chart tie, SPONSOR cards discarded decide \
                       whose song wins (S36).";
const TREND_EXPERT: &str = "TREND EXPERT: stand it between the trend dice, and nobody may turn a \
                            die by the TREND action until the next quarter end; if one already \
                            stands, send it back to its owner instead (S17, S29, S42).";

const ARTIST: &str = "An artist: fills an artist field of your band board (an orange field needs \
                      the instrument it shows), adds one satisfaction when recruited, and plays the \
                      style on its face up side. Its experience fields hold concert tokens of their \
                      colour, each worth a popularity point every quarter end; its independence is \
                      the satisfaction below which it leaves at the integration control \
                      (S18, S25, S40).";

const TOKEN: &str = "A concert token: pick it up in its city during a TOURNEE to earn its value in \
                     fons, then place it on a free experience field of its colour on one of your \
                     artists or discard it (S19).";

/// What the components do.
pub const EFFECTS: &[Effect] = &[
    Effect {
        kind: "influence_cards",
        field: "trend_die",
        value: "white",
        text: INFLUENCE,
    },
    Effect {
        kind: "influence_cards",
        field: "trend_die",
        value: "blue",
        text: INFLUENCE,
    },
    Effect {
        kind: "influence_cards",
        field: "trend_die",
        value: "yellow",
        text: INFLUENCE,
    },
    Effect {
        kind: "influence_cards",
        field: "trend_die",
        value: "red",
        text: INFLUENCE,
    },
    Effect {
        kind: "influence_cards",
        field: "character",
        value: "a_and_r",
        text: A_AND_R,
    },
    Effect {
        kind: "influence_cards",
        field: "character",
        value: "bodyguard",
        text: BODYGUARD,
    },
    Effect {
        kind: "influence_cards",
        field: "character",
        value: "dj",
        text: DJ,
    },
    Effect {
        kind: "influence_cards",
        field: "character",
        value: "femme_fatale",
        text: FEMME_FATALE,
    },
    Effect {
        kind: "influence_cards",
        field: "character",
        value: "groupie",
        text: GROUPIE,
    },
    Effect {
        kind: "influence_cards",
        field: "character",
        value: "paparazzi",
        text: PAPARAZZI,
    },
    Effect {
        kind: "influence_cards",
        field: "character",
        value: "pilot",
        text: PILOT,
    },
    Effect {
        kind: "influence_cards",
        field: "character",
        value: "reporter",
        text: REPORTER,
    },
    Effect {
        kind: "influence_cards",
        field: "character",
        value: "sponsor",
        text: SPONSOR,
    },
    Effect {
        kind: "influence_cards",
        field: "character",
        value: "trend_expert",
        text: TREND_EXPERT,
    },
    Effect {
        kind: "characters",
        field: "id",
        value: "a_and_r",
        text: A_AND_R,
    },
    Effect {
        kind: "characters",
        field: "id",
        value: "bodyguard",
        text: BODYGUARD,
    },
    Effect {
        kind: "characters",
        field: "id",
        value: "dj",
        text: DJ,
    },
    Effect {
        kind: "characters",
        field: "id",
        value: "femme_fatale",
        text: FEMME_FATALE,
    },
    Effect {
        kind: "characters",
        field: "id",
        value: "groupie",
        text: GROUPIE,
    },
    Effect {
        kind: "characters",
        field: "id",
        value: "paparazzi",
        text: PAPARAZZI,
    },
    Effect {
        kind: "characters",
        field: "id",
        value: "pilot",
        text: PILOT,
    },
    Effect {
        kind: "characters",
        field: "id",
        value: "reporter",
        text: REPORTER,
    },
    Effect {
        kind: "characters",
        field: "id",
        value: "sponsor",
        text: SPONSOR,
    },
    Effect {
        kind: "characters",
        field: "id",
        value: "trend_expert",
        text: TREND_EXPERT,
    },
    Effect {
        kind: "artists",
        field: "experience_fields",
        value: "0",
        text: ARTIST,
    },
    Effect {
        kind: "artists",
        field: "experience_fields",
        value: "1",
        text: ARTIST,
    },
    Effect {
        kind: "artists",
        field: "experience_fields",
        value: "2",
        text: ARTIST,
    },
    Effect {
        kind: "artists",
        field: "experience_fields",
        value: "3",
        text: ARTIST,
    },
    Effect {
        kind: "concert_tokens",
        field: "colour",
        value: "red",
        text: TOKEN,
    },
    Effect {
        kind: "concert_tokens",
        field: "colour",
        value: "yellow",
        text: TOKEN,
    },
    Effect {
        kind: "concert_tokens",
        field: "colour",
        value: "gray",
        text: TOKEN,
    },
    Effect {
        kind: "concert_tokens",
        field: "colour",
        value: "blue",
        text: TOKEN,
    },
    Effect {
        kind: "concert_tokens",
        field: "colour",
        value: "green",
        text: TOKEN,
    },
    Effect {
        kind: "concert_tokens",
        field: "colour",
        value: "white",
        text: "A white concert token: pick it up in its city during a TOURNEE to earn its value in \
               fons; it fits no experience field and is discarded (S19).",
    },
    Effect {
        kind: "concert_tokens",
        field: "colour",
        value: "multicolour",
        text: "The multicolour F token: pick it up in its city during a TOURNEE to earn its value; \
               it fits an experience field of any colour and survives a style change (S9, S19).",
    },
    Effect {
        kind: "event_rondel_fields",
        field: "id",
        value: "trend_change",
        text: "TREND CHANGE: all four trend dice are rolled again, unless a TREND EXPERT stands \
               (S3, S29).",
    },
    Effect {
        kind: "event_rondel_fields",
        field: "id",
        value: "popularity_check",
        text: "POPULARITY CHECK: a band in scandal, or with no song on charts fields 1-5, draws an \
               influence card and loses its power in popularity (twice if both) (S35).",
    },
    Effect {
        kind: "event_rondel_fields",
        field: "id",
        value: "salaries",
        text: "SALARIES: each manager pays 5 fons per artist and 1 per concert token on them, then \
               gains one satisfaction (S33, S35, S40).",
    },
    Effect {
        kind: "event_rondel_fields",
        field: "id",
        value: "integration_control",
        text: "INTEGRATION CONTROL: every artist whose independence exceeds the band's satisfaction \
               leaves the band, with its tokens (S11, S35).",
    },
    Effect {
        kind: "event_rondel_fields",
        field: "id",
        value: "royalties",
        text: "ROYALTIES: each manager earns fons equal to their popularity, or pays if it is \
               negative (S33, S35).",
    },
];

/// A sentence for each event type.
pub const MESSAGES: &[(&str, &str)] = &[
    ("shuffled", "The {pile} pile was shuffled"),
    (
        "reshuffled",
        "The {pile} pile was reshuffled from its discards ({size} items)",
    ),
    ("bag_draw", "{token|name} was drawn from the bag"),
    (
        "starting_band",
        "{seat|seat} starts with {cash} fons and a band of three",
    ),
    ("token_to_map", "{token|name} was placed in city {city|name}"),
    ("market_refilled", "The {market} market was refilled"),
    ("rolled", "The {die|name} trend die rolled face {face}"),
    (
        "die_shows",
        "The {die|name} trend die shows {face|name} || The {die|name} trend die shows its blank face",
    ),
    (
        "bid_in",
        "{seat|seat} bid {amount} fons || {seat|seat} placed a sealed bid",
    ),
    ("bids_revealed", "The sealed bids were revealed"),
    ("bid_tied", "{seats|seat} tied and bid again"),
    (
        "random_first",
        "{seat|seat} was drawn at random among {among|seat}",
    ),
    (
        "sequence",
        "The turn order is {order|seat}, starting with {first|seat}",
    ),
    ("sequence_kept", "The turn order stays as it was"),
    (
        "poll_answered",
        "{seat|seat} answered whether to bid for the turn order",
    ),
    (
        "poll_revealed",
        "The answers to the sequence bid poll were revealed",
    ),
    ("round_begins", "{seat|seat}'s round begins"),
    ("round_ends", "{seat|seat}'s round ends"),
    (
        "market_discard",
        "{card|name} was discarded from field {field} of the {market} market",
    ),
    (
        "time_lapse",
        "{seat|seat} played {card|name} and moved from week {from} to week {to}",
    ),
    ("time_lapse_given_up", "{seat|seat} gave up the time lapse"),
    (
        "quarter_end_reached",
        "{seat|seat} reached week {week}: a quarter end follows",
    ),
    (
        "activated_from_market",
        "{seat|seat} activated {card|name} from influence market field {field}",
    ),
    ("passed", "{seat|seat} passed"),
    (
        "recruited",
        "{seat|seat} recruited {artist|name} from artist market field {market_field}",
    ),
    ("car_moved", "{seat|seat}'s car moved to city {city|name}"),
    (
        "concert",
        "{seat|seat} played a concert in city {city|name} ({token|name})",
    ),
    ("earned", "{seat|seat} earned {amount} fons ({reason.kind})"),
    ("paid", "{seat|seat} paid {amount} fons ({reason.kind})"),
    (
        "token_on_artist",
        "{seat|seat} placed {token|name} on {artist|name}",
    ),
    ("token_discarded", "{seat|seat} discarded {token|name}"),
    ("token_off_map", "{token|name} was taken off the map"),
    (
        "studio_used",
        "{seat|seat} recorded in the studio of city {studio|name}",
    ),
    (
        "recorded",
        "{seat|seat} recorded song {song}: {content.style|name}, {content.lyrics|name}, \
         {content.tempo|name}, {content.volume|name}, experience {content.experience}",
    ),
    ("song_recorded", "{seat|seat} recorded song {song}"),
    (
        "promoted",
        "{seat|seat} promoted song {song} to {field|name} of the charts",
    ),
    (
        "trend_change_blocked",
        "A standing TREND EXPERT stops the trend change",
    ),
    (
        "trend_expert_placed",
        "{seat|seat} stood {card|name} between the trend dice",
    ),
    ("trend_expert_returned", "{card|name} went back to {seat|seat}"),
    ("rondel_moved", "The event rondel moved to {field|name}"),
    (
        "attacked",
        "{attacker|seat} attacks {target|seat} with {card|name} ({attack.kind})",
    ),
    (
        "defence",
        "{target|seat} defended against {attacker|seat} with {card|name} || {target|seat} did not \
         defend against {attacker|seat}",
    ),
    (
        "time_swapped",
        "{attacker|seat} and {target|seat} swapped time markers",
    ),
    ("hand_shown", "{target|seat} showed their hand to {attacker|seat}"),
    (
        "swapped",
        "{attacker|seat} gave {give|name} to {target|seat} for {take|name} || {attacker|seat} \
         swapped a card with {target|seat}",
    ),
    (
        "artists_exchanged",
        "{attacker|seat} exchanged {give|name} for {target|seat}'s {take|name}",
    ),
    ("shown", "{card|name} (power {power}) was drawn for {purpose}"),
    ("shown_discarded", "The cards drawn were discarded"),
    (
        "satisfaction",
        "{seat|seat}'s satisfaction went from {from} to {to} ({cause.kind})",
    ),
    (
        "popularity",
        "{seat|seat}'s popularity went from {from} to {to} ({cause.kind})",
    ),
    ("scandal", "Scandal for {seats|seat}"),
    ("dismissed", "{seat|seat} dismissed {artist|name}"),
    ("artist_left", "{artist|name} left {seat|seat}'s band"),
    ("regrouped", "{seat|seat} moved {artist|name} to fields {fields}"),
    (
        "style_changed",
        "{seat|seat} turned {artist|name} to its other style",
    ),
    ("drew", "{seat|seat} drew an influence card"),
    (
        "bought",
        "{seat|seat} bought {card|name} from influence market field {field}",
    ),
    ("card_to_hand", "{card|name} went to {seat|seat}'s hand"),
    ("discarded", "{seat|seat} discarded {card|name}"),
    (
        "field_discarded",
        "{seat|seat} cleared the influence field: {cards|name}",
    ),
    (
        "emergency_clearing",
        "The influence pile is empty: an emergency clearing follows",
    ),
    (
        "advertised",
        "{seat|seat} performed in advertising for {fields} fields and raised {raised} fons",
    ),
    ("bankrupt", "{seat|seat} is bankrupt"),
    ("quarter_end", "A quarter end begins"),
    ("disclosed", "The songs on the charts were turned face up"),
    ("chart_scores", "The songs on the charts were scored"),
    (
        "identical_song",
        "{seat|seat}'s song {song} was identical to another and is removed",
    ),
    (
        "sponsor_lap",
        "Songs {songs} tie: {seats|seat} may discard SPONSOR cards",
    ),
    (
        "sponsor_card",
        "{seat|seat} discarded {card|name} for the tie (sum {sum})",
    ),
    ("sponsor_done", "{seat|seat} is done with {sum}"),
    ("chart_placed", "Songs {songs} took {field|name} of the charts"),
    ("charts_done", "The charts ranking is done"),
    ("game_ends", "The game ends ({ending})"),
    ("game_over", "The game is over: {winners|seat} won"),
];
