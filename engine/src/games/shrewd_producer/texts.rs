//! The words Shrewd Producer serves to teach it: what its cards do, and a sentence for each
//! event (the template syntax is in [`crate::texts`]). The rules themselves are `RULES.md`.

use crate::texts::Effect;

const DUAL: &str = "A two-role artist: it may fill a slot of either part, and with the option \
                    `dual_fills_both` one slot of each of its parts in the same song, its points \
                    counted once (G2, G3).";

/// What the cards do.
pub const EFFECTS: &[Effect] = &[
    Effect {
        kind: "songs",
        field: "level",
        value: "1",
        text: "A level 1 song: complete it with signed artists filling its three parts to score its \
               song points plus theirs; each producer starts with one (G1, G4, G21). Once it is \
               complete you may take a level 2 song (G12).",
    },
    Effect {
        kind: "songs",
        field: "level",
        value: "2",
        text: "A level 2 song: needs four parts; a signer whose current song is complete may take it \
               from the open pile instead of keeping the old one (G1, G12, G26).",
    },
    Effect {
        kind: "songs",
        field: "level",
        value: "3",
        text: "A level 3 song: needs five parts and scores the most; taken like a level 2 song once \
               the current one is complete (G1, G12, G26).",
    },
    Effect {
        kind: "artists",
        field: "id",
        value: "A21",
        text: DUAL,
    },
    Effect {
        kind: "artists",
        field: "id",
        value: "A22",
        text: DUAL,
    },
    Effect {
        kind: "artists",
        field: "id",
        value: "A23",
        text: DUAL,
    },
    Effect {
        kind: "artists",
        field: "id",
        value: "A24",
        text: DUAL,
    },
    Effect {
        kind: "scout_money",
        field: "suit",
        value: "Red",
        text: "Scout Money: the lead's card sets the suit; follow it to stay in the round, or play \
               off-suit (and drop out) only without it (G7, G24). Its value orders the raise phase \
               (G5).",
    },
    Effect {
        kind: "scout_money",
        field: "suit",
        value: "Yellow",
        text: "Scout Money: the lead's card sets the suit; follow it to stay in the round, or play \
               off-suit (and drop out) only without it (G7, G24). Its value orders the raise phase \
               (G5).",
    },
];

/// A sentence for each event type.
pub const MESSAGES: &[(&str, &str)] = &[
    ("lead_drawn", "{seat|seat} was drawn as the first lead"),
    ("starting_lead", "{seat|seat} leads first"),
    (
        "scout_money_removed",
        "With three players, Scout Money {cards|name} leaves the game",
    ),
    ("scout_money_shuffled", "The Scout Money pile was shuffled"),
    ("artists_shuffled", "The artist pile was shuffled"),
    ("songs_shuffled", "The level 1 songs were shuffled"),
    ("song_dealt", "{seat|seat} was dealt the song {song|name}"),
    (
        "song_removed",
        "With three players, the leftover level 1 song is removed face down",
    ),
    (
        "raise_money_dealt",
        "Everyone received ${each} of Raise Money; ${supply} stays in the supply",
    ),
    ("scout_drawn", "{seat|seat} drew {count} Scout Money cards"),
    ("scout_cards_drawn", "{seat|seat} drew {cards|name}"),
    ("kept", "{seat|seat} kept a card"),
    ("kept_card", "{seat|seat} kept {kept|name}"),
    ("cards_passed_left", "The other cards were passed left"),
    (
        "card_received",
        "{seat|seat} received {card|name} from {from|seat}",
    ),
    (
        "scout_money_gathered",
        "All Scout Money was gathered to be drafted again",
    ),
    (
        "round_started",
        "Round {round}: {lead|seat} leads and reveals {artists|name}",
    ),
    ("debt_taken", "{seat|seat} took a debt (now {debts})"),
    ("scout_played", "{seat|seat} played {card|name}"),
    (
        "substituted",
        "{seat|seat} paid $200 of Raise Money instead of following suit",
    ),
    ("raise_order", "The raise phase runs in the order {order|seat}"),
    ("raised", "{seat|seat} raised ${amount} (total ${total})"),
    ("passed", "{seat|seat} passed"),
    ("ranked", "Bids placed {places|seat} with {totals} dollars"),
    (
        "artist_signed",
        "{seat|seat} signed {artist|name} in place {place}",
    ),
    ("artist_discarded", "Nobody signed {artist|name}; it is discarded"),
    (
        "money_processed",
        "{seat|seat} sent ${to_supply} to the supply and got ${returned} back",
    ),
    ("bids_cleared", "The round's bids were cleared"),
    ("song_taken", "{seat|seat} took the song {song|name}"),
    ("song_declined", "{seat|seat} declined the next song for now"),
    ("next_lead", "{seat|seat} is the next lead"),
    ("game_over", "The game is over: {winners|seat} won"),
];
