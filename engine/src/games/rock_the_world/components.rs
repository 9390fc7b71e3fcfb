//! The components of Rock the World as data, from `rules/rock-the-world/components.json`:
//! the board of 20 cities, the 16 characters, the four Lead Singers, the play deck, the money
//! and the travel tokens. Values marked PROPOSED in RULINGS.md are named constants here.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::ids::typed_id;

/// The four colours (styles of music). Su is red (rulebook); the others are PROPOSED.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RockTheWorldColour)]
pub enum Colour {
    /// Su, Rock.
    Red,
    /// Kai, Blues.
    Blue,
    /// Goldie, Pop.
    Yellow,
    /// Ivy, Reggae.
    Green,
}

impl Colour {
    /// R12: the default order in which seats take colours.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Yellow, Colour::Green];

    /// Position in [`Colour::ALL`], which is also the position in an [`Icons`] array.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Market demand icons of a city, indexed by [`Colour::index`].
pub type Icons = [u8; 4];

/// One space of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct City {
    /// 1 to 20, clockwise from New York.
    pub space: u8,
    /// The city's name.
    pub name: &'static str,
    /// Corner cities are open (no character) and allow two token purchases a turn.
    pub corner: bool,
    /// Market demand: icons of each colour.
    pub icons: Icons,
    /// The character whose home this is (regular cities only).
    pub character: Option<CharacterId>,
    /// The side (1 to 4) of a regular city; corners belong to two sides.
    pub side: Option<u8>,
}

/// The 20 spaces (PROPOSED board).
pub const SPACES: u8 = 20;

/// The board, clockwise from New York (space 1); `BOARD[s - 1]` is space `s`.
pub const BOARD: [City; SPACES as usize] = {
    use CharacterId::*;
    const fn city(
        space: u8,
        name: &'static str,
        icons: Icons,
        character: Option<CharacterId>,
        side: Option<u8>,
    ) -> City {
        City {
            space,
            name,
            corner: character.is_none(),
            icons,
            character,
            side,
        }
    }
    [
        city(1, "New York", [2, 2, 1, 1], None, None),
        city(2, "Nashville", [3, 0, 1, 1], Some(C01), Some(1)),
        city(3, "Memphis", [0, 5, 0, 0], Some(C02), Some(1)),
        city(4, "Chicago", [1, 1, 3, 0], Some(C03), Some(1)),
        city(5, "Toronto", [0, 1, 1, 3], Some(C04), Some(1)),
        city(6, "Los Angeles", [1, 2, 2, 1], None, None),
        city(7, "Mexico City", [3, 1, 0, 1], Some(C05), Some(2)),
        city(8, "Kingston", [1, 0, 1, 3], Some(C06), Some(2)),
        city(9, "Rio de Janeiro", [0, 0, 5, 0], Some(C07), Some(2)),
        city(10, "Buenos Aires", [0, 3, 1, 1], Some(C08), Some(2)),
        city(11, "London", [1, 1, 2, 2], None, None),
        city(12, "Dublin", [1, 3, 1, 0], Some(C09), Some(3)),
        city(13, "Paris", [1, 0, 3, 1], Some(C10), Some(3)),
        city(14, "Berlin", [3, 1, 1, 0], Some(C11), Some(3)),
        city(15, "Stockholm", [0, 0, 0, 5], Some(C12), Some(3)),
        city(16, "Sydney", [2, 1, 1, 2], None, None),
        city(17, "Tokyo", [5, 0, 0, 0], Some(C13), Some(4)),
        city(18, "Seoul", [0, 1, 3, 1], Some(C14), Some(4)),
        city(19, "Mumbai", [1, 1, 0, 3], Some(C15), Some(4)),
        city(20, "Moscow", [1, 3, 0, 1], Some(C16), Some(4)),
    ]
};

/// The city on space `space` (1 to 20).
pub fn city(space: u8) -> Option<&'static City> {
    BOARD.get(usize::from(space).checked_sub(1)?)
}

/// R21: the four train lines, each a side's four cities plus both end corners.
pub const TRAIN_LINES: [[u8; 6]; 4] = [
    [1, 2, 3, 4, 5, 6],
    [6, 7, 8, 9, 10, 11],
    [11, 12, 13, 14, 15, 16],
    [16, 17, 18, 19, 20, 1],
];

/// The 16 characters, by the ids of components.json.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[schema(as = RockTheWorldCharacter)]
pub enum CharacterId {
    /// Axel Blaze, red guitarist, value 2, Nashville.
    C01,
    /// Bo Slide, blue guitarist, value 5, Memphis.
    C02,
    /// Sunny Strum, yellow guitarist, value 2, Chicago.
    C03,
    /// Jade Skank, green guitarist, value 2, Toronto.
    C04,
    /// Rex Rumble, red bassist, value 3, Mexico City.
    C05,
    /// Moss Dub, green bassist, value 3, Kingston.
    C06,
    /// Goldie Groove, yellow bassist, value 5, Rio de Janeiro.
    C07,
    /// Deep Walker, blue bassist, value 2, Buenos Aires.
    C08,
    /// Indigo Brush, blue drummer, value 3, Dublin.
    C09,
    /// Amber Beat, yellow drummer, value 3, Paris.
    C10,
    /// Scarlet Snare, red drummer, value 4, Berlin.
    C11,
    /// Fern Riddim, green drummer, value 5, Stockholm.
    C12,
    /// Ruby Keys, red keyboardist, value 5, Tokyo.
    C13,
    /// Honey Keys, yellow keyboardist, value 4, Seoul.
    C14,
    /// Ivy Organ, green keyboardist, value 4, Mumbai.
    C15,
    /// Cobalt Keys, blue keyboardist, value 4, Moscow.
    C16,
}

impl CharacterId {
    /// Every character, in ascending id order.
    pub const ALL: [CharacterId; 16] = {
        use CharacterId::*;
        [
            C01, C02, C03, C04, C05, C06, C07, C08, C09, C10, C11, C12, C13, C14, C15, C16,
        ]
    };

    /// Position in [`CharacterId::ALL`] and [`CHARACTERS`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The character's card.
    pub const fn card(self) -> &'static Character {
        &CHARACTERS[self.index()]
    }

    /// The id as printed in components.json (`C01`).
    pub const fn as_str(self) -> &'static str {
        CHARACTER_IDS[self.index()]
    }
}

const CHARACTER_IDS: [&str; 16] = [
    "C01", "C02", "C03", "C04", "C05", "C06", "C07", "C08", "C09", "C10", "C11", "C12", "C13", "C14", "C15",
    "C16",
];

/// A character card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Character {
    /// Its id.
    pub id: CharacterId,
    /// Its name.
    pub name: &'static str,
    /// Its colour: the dominant colour of its home city.
    pub colour: Colour,
    /// Flavour only.
    pub role: &'static str,
    /// The value number a claim roll must meet, and what it adds to a band.
    pub value: u8,
    /// The space it starts on and returns to.
    pub home_space: u8,
}

/// The 16 characters (PROPOSED names and values), in id order.
pub const CHARACTERS: [Character; 16] = {
    use CharacterId::*;
    use Colour::*;
    const fn ch(
        id: CharacterId,
        name: &'static str,
        colour: Colour,
        role: &'static str,
        value: u8,
        home_space: u8,
    ) -> Character {
        Character {
            id,
            name,
            colour,
            role,
            value,
            home_space,
        }
    }
    [
        ch(C01, "Axel Blaze", Red, "guitarist", 2, 2),
        ch(C02, "Bo Slide", Blue, "guitarist", 5, 3),
        ch(C03, "Sunny Strum", Yellow, "guitarist", 2, 4),
        ch(C04, "Jade Skank", Green, "guitarist", 2, 5),
        ch(C05, "Rex Rumble", Red, "bassist", 3, 7),
        ch(C06, "Moss Dub", Green, "bassist", 3, 8),
        ch(C07, "Goldie Groove", Yellow, "bassist", 5, 9),
        ch(C08, "Deep Walker", Blue, "bassist", 2, 10),
        ch(C09, "Indigo Brush", Blue, "drummer", 3, 12),
        ch(C10, "Amber Beat", Yellow, "drummer", 3, 13),
        ch(C11, "Scarlet Snare", Red, "drummer", 4, 14),
        ch(C12, "Fern Riddim", Green, "drummer", 5, 15),
        ch(C13, "Ruby Keys", Red, "keyboardist", 5, 17),
        ch(C14, "Honey Keys", Yellow, "keyboardist", 4, 18),
        ch(C15, "Ivy Organ", Green, "keyboardist", 4, 19),
        ch(C16, "Cobalt Keys", Blue, "keyboardist", 4, 20),
    ]
};

/// A Lead Singer card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lead {
    /// The Lead's colour.
    pub colour: Colour,
    /// The Lead's name.
    pub name: &'static str,
    /// The style of music.
    pub style: &'static str,
}

/// The four Lead Singers, in [`Colour::ALL`] order (Su from the rulebook, the rest PROPOSED).
pub const LEADS: [Lead; 4] = [
    Lead {
        colour: Colour::Red,
        name: "Su",
        style: "Rock",
    },
    Lead {
        colour: Colour::Blue,
        name: "Kai",
        style: "Blues",
    },
    Lead {
        colour: Colour::Yellow,
        name: "Goldie",
        style: "Pop",
    },
    Lead {
        colour: Colour::Green,
        name: "Ivy",
        style: "Reggae",
    },
];

/// Rulebook: "Each player begins the game with one Lead Singer Card, which has a value of 10."
pub const LEAD_VALUE: u64 = 10;
/// Rulebook: with all four family characters the Lead turns over and "the band's value now
/// increases to 30" (R25: the flipped Lead replaces the Lead and its family).
pub const FLIPPED_LEAD_VALUE: u64 = 30;
/// Rulebook: all four characters of the Lead's colour complete the set.
pub const FAMILY_SIZE: usize = 4;

/// Rulebook: 8 Super Success cards.
pub const SUPER_SUCCESS_CARDS: usize = 8;
/// Rulebook: 32 Success cards.
pub const SUCCESS_CARDS: usize = 32;
/// Rulebook: 16 Fail cards, one naming each character (DERIVED).
pub const FAIL_CARDS: usize = 16;
/// Rulebook: "The deck contains 56 cards".
pub const DECK_SIZE: usize = SUPER_SUCCESS_CARDS + SUCCESS_CARDS + FAIL_CARDS;
/// Rulebook: Super Success doubles the earnings.
pub const SUPER_SUCCESS_MULTIPLIER: u64 = 2;
/// Rulebook: Success gives regular earnings.
pub const SUCCESS_MULTIPLIER: u64 = 1;

/// R1: dollars per band value point per icon.
pub const MONEY_UNIT: u64 = 10_000;
/// R1: starting cash.
pub const START_CASH: u64 = 100_000;
/// R2 (DERIVED from "two tokens for $200,000"): the price of one travel token of any type.
pub const TOKEN_PRICE: u64 = 100_000;
/// R2: at most one token bought per turn on a regular city.
pub const BUY_LIMIT_REGULAR: u8 = 1;
/// R2: at most two tokens bought per turn on a corner city.
pub const BUY_LIMIT_CORNER: u8 = 2;
/// R2: 8 buses, 8 trains and 8 planes in the supply.
pub const TOKEN_SUPPLY: u8 = 8;
/// R3: the die is a d6.
pub const DIE_SIDES: u8 = 6;
/// R11: every cutout starts on New York.
pub const START_SPACE: u8 = 1;
/// R20: a bus goes 1 or 2 spaces either way.
pub const BUS_REACH: u8 = 2;
/// R35, R36, R38: points for a sole winner.
pub const WIN_POINTS: i64 = 2;
/// R33, R36: points for a shared first place.
pub const TIE_POINTS: i64 = 1;
/// R36: the turn cap suggested for random-play tests.
pub const SUGGESTED_TEST_TURN_CAP: u32 = 100;

/// A play card's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", content = "names", rename_all = "snake_case")]
#[schema(as = RockTheWorldCardKind)]
pub enum CardKind {
    /// Double earnings.
    SuperSuccess,
    /// Regular earnings.
    Success,
    /// No earnings; the named character returns to the board if it is in the performer's band.
    Fail(CharacterId),
}

impl CardKind {
    /// The earnings multiplier.
    pub const fn multiplier(self) -> u64 {
        match self {
            CardKind::SuperSuccess => SUPER_SUCCESS_MULTIPLIER,
            CardKind::Success => SUCCESS_MULTIPLIER,
            CardKind::Fail(_) => 0,
        }
    }
}

/// A play card of the deck as printed: its id and what it does.
#[derive(Clone, Debug)]
pub struct PlayCardSpec {
    /// The printed id: `super-1`, `success-07`, `fail-C13`.
    pub id: String,
    /// What the card does.
    pub kind: CardKind,
}

/// The 56 play cards: Super Success first, then Success, then the Fail cards in character order.
pub static PLAY_CARDS: LazyLock<Vec<PlayCardSpec>> = LazyLock::new(|| {
    let supers = (1..=SUPER_SUCCESS_CARDS).map(|n| PlayCardSpec {
        id: format!("super-{n}"),
        kind: CardKind::SuperSuccess,
    });
    let successes = (1..=SUCCESS_CARDS).map(|n| PlayCardSpec {
        id: format!("success-{n:02}"),
        kind: CardKind::Success,
    });
    let fails = CharacterId::ALL.into_iter().map(|c| PlayCardSpec {
        id: format!("fail-{}", c.as_str()),
        kind: CardKind::Fail(c),
    });
    supers.chain(successes).chain(fails).collect()
});

typed_id!(
    /// A play card, by its printed id (`success-07`).
    PlayCardId, PLAY_CARDS, c => c.id.as_str(), "RockTheWorldPlayCardId", "a play card"
);

impl PlayCardId {
    /// What the card does.
    pub fn kind(self) -> CardKind {
        PLAY_CARDS[usize::from(self.0)].kind
    }
}

/// A travel token type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RockTheWorldToken)]
pub enum Token {
    /// "Buses: Allow a player to move one or two spaces in either direction."
    Bus,
    /// "Trains: Allow a player to move any number of spaces in a straight line in either
    /// direction" (R21: along one side's line, corners included).
    Train,
    /// "Planes: Allow a player to move anywhere on the board."
    Plane,
}

impl Token {
    /// Every type, in the order R34 deals them.
    pub const ALL: [Token; 3] = [Token::Bus, Token::Train, Token::Plane];
}

/// A count of travel tokens per type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = RockTheWorldTokens)]
pub struct Tokens {
    /// Buses.
    pub bus: u8,
    /// Trains.
    pub train: u8,
    /// Planes.
    pub plane: u8,
}

impl Tokens {
    /// `n` of each type.
    pub const fn each(n: u8) -> Self {
        Self {
            bus: n,
            train: n,
            plane: n,
        }
    }

    /// How many of `token`.
    pub const fn get(&self, token: Token) -> u8 {
        match token {
            Token::Bus => self.bus,
            Token::Train => self.train,
            Token::Plane => self.plane,
        }
    }

    /// The count of `token`, mutably.
    pub fn get_mut(&mut self, token: Token) -> &mut u8 {
        match token {
            Token::Bus => &mut self.bus,
            Token::Train => &mut self.train,
            Token::Plane => &mut self.plane,
        }
    }

    /// All tokens.
    pub const fn total(&self) -> u32 {
        self.bus as u32 + self.train as u32 + self.plane as u32
    }

    /// Adds `other` to these.
    pub fn add(&mut self, other: Tokens) {
        self.bus += other.bus;
        self.train += other.train;
        self.plane += other.plane;
    }
}

/// Every printed component, keyed by the ids the wire uses: the board's spaces (by number), the
/// characters, the play deck, the Lead Singers, the colours and the travel tokens.
pub fn catalogue() -> crate::Catalogue {
    use serde_json::json;
    let icons = |i: &Icons| {
        let mut map = serde_json::Map::new();
        for colour in Colour::ALL {
            map.insert(colour_id(colour).to_owned(), json!(i[colour.index()]));
        }
        map
    };
    let spaces = BOARD
        .iter()
        .map(|c| {
            json!({"id": c.space, "name": c.name, "corner": c.corner, "icons": icons(&c.icons),
                "character": c.character, "side": c.side})
        })
        .collect();
    let characters = CHARACTERS
        .iter()
        .map(|c| {
            json!({"id": c.id, "name": c.name, "colour": c.colour, "role": c.role, "value": c.value,
                "home_space": c.home_space})
        })
        .collect();
    let cards = PlayCardId::all()
        .map(|card| {
            let kind = card.kind();
            let (name, character) = match kind {
                CardKind::SuperSuccess => ("Super Success".to_owned(), None),
                CardKind::Success => ("Success".to_owned(), None),
                CardKind::Fail(c) => (format!("Fail: {}", c.card().name), Some(c)),
            };
            json!({"id": card, "name": name, "multiplier": kind.multiplier(), "character": character})
        })
        .collect();
    let leads = LEADS
        .iter()
        .map(|l| json!({"id": l.colour, "name": l.name, "colour": l.colour, "style": l.style}))
        .collect();
    let colours = Colour::ALL
        .iter()
        .map(|&c| json!({"id": c, "name": colour_name(c)}))
        .collect();
    let tokens = Token::ALL
        .iter()
        .map(|t| {
            let name = match t {
                Token::Bus => "Bus",
                Token::Train => "Train",
                Token::Plane => "Plane",
            };
            json!({"id": t, "name": name, "price": TOKEN_PRICE, "supply": TOKEN_SUPPLY})
        })
        .collect();
    [
        ("spaces", spaces),
        ("characters", characters),
        ("cards", cards),
        ("leads", leads),
        ("colours", colours),
        ("travel_tokens", tokens),
    ]
    .into_iter()
    .map(|(kind, entries)| (kind.to_owned(), serde_json::Value::Array(entries)))
    .collect()
}

fn colour_id(colour: Colour) -> &'static str {
    ["red", "blue", "yellow", "green"][colour.index()]
}

fn colour_name(colour: Colour) -> &'static str {
    ["Red", "Blue", "Yellow", "Green"][colour.index()]
}
