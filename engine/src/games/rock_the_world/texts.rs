//! The words Rock the World serves to teach it: what its cards, characters, Leads, spaces and
//! tokens do, and a sentence for each event (the template syntax is in [`crate::texts`]). The
//! rules themselves are `RULES.md`.

use crate::texts::Effect;

const CHARACTER: &str = "A character: land on its city and roll its value or more to claim it; \
                         held, it adds its value to your band and opens its city for gigs. One of \
                         your Lead's colour is family: no opponent can claim it, only a Fail card \
                         sends it home (R5, R24, R25, R26, R28).";

const LEAD: &str = "A Lead Singer, worth 10 to the band. With all four characters of its colour held \
                    it turns over and the band is worth 30 plus its extras; it turns back when one of \
                    them leaves (R25, R43).";

/// What the components do.
pub const EFFECTS: &[Effect] = &[
    Effect {
        kind: "cards",
        field: "multiplier",
        value: "2",
        text: "Super Success: the gig pays double: band value × your colour's icons in the city × 2 \
               × $10,000, from the bank and from each opponent on the space (R1, R6, R26).",
    },
    Effect {
        kind: "cards",
        field: "multiplier",
        value: "1",
        text: "Success: the gig pays band value × your colour's icons in the city × $10,000, from \
               the bank and from each opponent on the space (R1, R6, R26).",
    },
    Effect {
        kind: "cards",
        field: "multiplier",
        value: "0",
        text: "Fail: the gig pays nothing, and if the performer holds the character named on the \
               card it goes home to its city; losing a family character turns the Lead back \
               (R7, R28, R43).",
    },
    Effect {
        kind: "characters",
        field: "colour",
        value: "red",
        text: CHARACTER,
    },
    Effect {
        kind: "characters",
        field: "colour",
        value: "blue",
        text: CHARACTER,
    },
    Effect {
        kind: "characters",
        field: "colour",
        value: "yellow",
        text: CHARACTER,
    },
    Effect {
        kind: "characters",
        field: "colour",
        value: "green",
        text: CHARACTER,
    },
    Effect {
        kind: "leads",
        field: "colour",
        value: "red",
        text: LEAD,
    },
    Effect {
        kind: "leads",
        field: "colour",
        value: "blue",
        text: LEAD,
    },
    Effect {
        kind: "leads",
        field: "colour",
        value: "yellow",
        text: LEAD,
    },
    Effect {
        kind: "leads",
        field: "colour",
        value: "green",
        text: LEAD,
    },
    Effect {
        kind: "spaces",
        field: "corner",
        value: "true",
        text: "A corner city: always open for gigs, and two travel tokens may be bought here in a \
               turn; its icons give the market demand for each colour (R1, R18, R26).",
    },
    Effect {
        kind: "spaces",
        field: "corner",
        value: "false",
        text: "A city: while its character stands here you may roll to claim it; once the character \
               is held the city is open for gigs, paying by its icons in the performer's colour \
               (R1, R5, R26).",
    },
    Effect {
        kind: "travel_tokens",
        field: "id",
        value: "bus",
        text: "Bus ($100,000): after your roll, move 1 or 2 spaces either way (R2, R3, R20).",
    },
    Effect {
        kind: "travel_tokens",
        field: "id",
        value: "train",
        text: "Train ($100,000): after your roll, move anywhere along the side you are on, corners \
               included, without turning a corner (R2, R20, R21).",
    },
    Effect {
        kind: "travel_tokens",
        field: "id",
        value: "plane",
        text: "Plane ($100,000): after your roll, fly to any space (R2, R3, R20).",
    },
];

/// A sentence for each event type.
pub const MESSAGES: &[(&str, &str)] = &[
    ("first_seat", "{seat|seat} plays first"),
    ("deck_shuffled", "The play deck was shuffled"),
    (
        "deck_reshuffled",
        "The deck ran out: all {cards} cards were shuffled into a new one",
    ),
    ("die_rolled", "{seat|seat} rolled {value} ({purpose})"),
    ("moved", "{seat|seat} moved from {from|name} to {to|name} by {by}"),
    ("token_spent", "{seat|seat} used a {token|name}"),
    ("token_bought", "{seat|seat} bought a {token|name} for ${price}"),
    (
        "declared",
        "{seat|seat} declared as the rocker, taking {took.bus} buses, {took.train} trains and \
         {took.plane} planes from the spent pool",
    ),
    ("claim_made", "{seat|seat} rolls to claim {take|name}"),
    (
        "character_won",
        "{seat|seat} won {character|name} from {from|seat} || {seat|seat} won {character|name}",
    ),
    ("character_missed", "{seat|seat} missed {character|name}"),
    (
        "lead_turned",
        "{seat|seat}'s Lead turned (full family side up: {flipped})",
    ),
    (
        "card_drawn",
        "{seat|seat} played a gig and drew {card.id|name}, earning ${earnings}",
    ),
    (
        "paid",
        "{from.seat|seat} paid {to|seat} ${amount} of ${owed} owed || The bank paid {to|seat} \
         ${amount}",
    ),
    (
        "character_returned",
        "{character|name} left {seat|seat}'s band and went home",
    ),
    (
        "eliminated",
        "{seat|seat} could not pay {by|seat} and is eliminated",
    ),
    (
        "rocker_cleared",
        "{seat|seat}'s characters {characters|name} went home and the tokens back to the supply",
    ),
    ("dealt", "{seat|seat} was dealt {item.id|name} from {from|seat}"),
    ("phase_one_resumed", "Phase one resumes: there is no rocker"),
    ("turn_started", "{seat|seat}'s turn {turn} begins"),
    (
        "game_over",
        "The game is over: {end.rocker|seat} ({end.reason}) || The game is over: {end.seat|seat} \
         is the last one standing || The game is over: the turn cap of {end.turns} turns was \
         reached",
    ),
];
