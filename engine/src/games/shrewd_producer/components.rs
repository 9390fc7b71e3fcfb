//! The components of Shrewd Producer, copied from `components.json` as constant tables: the 24
//! artist cards, the 12 song cards (G1), the 24 Scout Money cards and the Raise Money economy.
//!
//! Cards are referred to by their index in these tables inside the engine and by their id
//! (`A07`, `L1-2`, `R500a`) on the wire.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::ids::typed_id;

/// An artist part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[schema(as = ShrewdProducerPart)]
pub enum Part {
    /// Vocal.
    Vo,
    /// Guitar.
    Gt,
    /// Bass.
    Ba,
    /// Drums.
    Dr,
    /// Keyboard.
    Ky,
}

/// A Scout Money suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[schema(as = ShrewdProducerSuit)]
pub enum Suit {
    /// Red.
    Red,
    /// Yellow.
    Yellow,
}

/// An artist card: "The number on the card indicates the artist's ability as Artist Points (Pt)."
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArtistCard {
    /// Stable id from `components.json`.
    pub id: &'static str,
    /// The parts it can play (two for a multi-role artist).
    pub parts: &'static [Part],
    /// Artist Pt.
    pub pt: u8,
}

/// A song card (G1: invented songs; the rulebook gives no contents).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SongCard {
    /// Stable id from `components.json`.
    pub id: &'static str,
    /// Lv. 1, 2 or 3.
    pub level: u8,
    /// The song's name.
    pub name: &'static str,
    /// The artist parts needed to complete it; a part may be needed twice (DERIVED 9).
    pub requires: &'static [Part],
    /// The song's own Pt when completed.
    pub song_pt: u8,
}

/// A Scout Money card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoutCard {
    /// Unique id: suit letter, value, copy letter (`R500a`).
    pub id: &'static str,
    /// Red or Yellow.
    pub suit: Suit,
    /// Dollars.
    pub value: u16,
}

const fn artist(id: &'static str, parts: &'static [Part], pt: u8) -> ArtistCard {
    ArtistCard { id, parts, pt }
}

use Part::{Ba, Dr, Gt, Ky, Vo};

/// DERIVED 1: the 24 artist cards (12 rounds x 2 reveals).
pub const ARTISTS: [ArtistCard; 24] = [
    artist("A01", &[Vo], 2),
    artist("A02", &[Vo], 4),
    artist("A03", &[Vo], 6),
    artist("A04", &[Gt], 1),
    artist("A05", &[Gt], 2),
    artist("A06", &[Gt], 4),
    artist("A07", &[Gt], 5),
    artist("A08", &[Gt], 6),
    artist("A09", &[Ba], 1),
    artist("A10", &[Ba], 2),
    artist("A11", &[Ba], 4),
    artist("A12", &[Ba], 5),
    artist("A13", &[Ba], 6),
    artist("A14", &[Dr], 2),
    artist("A15", &[Dr], 4),
    artist("A16", &[Dr], 5),
    artist("A17", &[Dr], 6),
    artist("A18", &[Ky], 2),
    artist("A19", &[Ky], 4),
    artist("A20", &[Ky], 6),
    artist("A21", &[Vo, Gt], 3),
    artist("A22", &[Vo, Ba], 3),
    artist("A23", &[Vo, Dr], 3),
    artist("A24", &[Vo, Ky], 3),
];

const fn song(
    id: &'static str,
    level: u8,
    name: &'static str,
    requires: &'static [Part],
    song_pt: u8,
) -> SongCard {
    SongCard {
        id,
        level,
        name,
        requires,
        song_pt,
    }
}

/// G1: the 12 song cards, four per level.
pub const SONGS: [SongCard; 12] = [
    song("L1-1", 1, "Garage Anthem", &[Vo, Gt, Dr], 5),
    song("L1-2", 1, "Street Ballad", &[Vo, Gt, Ba], 6),
    song("L1-3", 1, "Midnight Groove", &[Ba, Dr, Ky], 5),
    song("L1-4", 1, "Piano Story", &[Vo, Ba, Ky], 5),
    song("L2-1", 2, "Power Quartet", &[Vo, Gt, Ba, Dr], 8),
    song("L2-2", 2, "Twin Voices", &[Vo, Vo, Gt, Ba], 10),
    song("L2-3", 2, "Keys & Beats", &[Vo, Ba, Dr, Ky], 9),
    song("L2-4", 2, "Instrumental Jam", &[Gt, Ba, Dr, Ky], 9),
    song("L3-1", 3, "Stadium Anthem", &[Vo, Gt, Ba, Dr, Ky], 12),
    song("L3-2", 3, "Guitar Army", &[Vo, Gt, Gt, Ba, Dr], 14),
    song("L3-3", 3, "Harmony Hall", &[Vo, Vo, Gt, Ba, Dr], 13),
    song("L3-4", 3, "Double Kick Epic", &[Vo, Gt, Ba, Dr, Dr], 15),
];

/// The highest song level.
pub const TOP_LEVEL: u8 = 3;

const fn scout(id: &'static str, suit: Suit, value: u16) -> ScoutCard {
    ScoutCard { id, suit, value }
}

use Suit::{Red, Yellow};

/// DERIVED 2: the 24 Scout Money cards; per suit $200x2, $300x3, $400x3, $500x2, $600, $700.
pub const SCOUT_MONEY: [ScoutCard; 24] = [
    scout("R200a", Red, 200),
    scout("R200b", Red, 200),
    scout("R300a", Red, 300),
    scout("R300b", Red, 300),
    scout("R300c", Red, 300),
    scout("R400a", Red, 400),
    scout("R400b", Red, 400),
    scout("R400c", Red, 400),
    scout("R500a", Red, 500),
    scout("R500b", Red, 500),
    scout("R600a", Red, 600),
    scout("R700a", Red, 700),
    scout("Y200a", Yellow, 200),
    scout("Y200b", Yellow, 200),
    scout("Y300a", Yellow, 300),
    scout("Y300b", Yellow, 300),
    scout("Y300c", Yellow, 300),
    scout("Y400a", Yellow, 400),
    scout("Y400b", Yellow, 400),
    scout("Y400c", Yellow, 400),
    scout("Y500a", Yellow, 500),
    scout("Y500b", Yellow, 500),
    scout("Y600a", Yellow, 600),
    scout("Y700a", Yellow, 700),
];

/// 3-player setup: "remove the following Scout Money cards": Red $200, $300, $400 and Yellow
/// $200, $300, $400, one card each (here the last copy of each).
pub const SCOUT_MONEY_REMOVED_3P: [&str; 6] = ["R200b", "R300c", "R400c", "Y200b", "Y300c", "Y400c"];

/// DERIVED 4: Raise Money is a closed economy of 40 bills.
pub const RAISE_BILLS: u8 = 40;
/// A Raise Money bill is worth $100.
pub const BILL: u32 = 100;
/// "deal 10 to each player" (4 players).
pub const DEAL_4P: u8 = 10;
/// "Deal 13 Raise Money cards ($100 each) to each player" (3 players).
pub const DEAL_3P: u8 = 13;
/// "Place the one leftover $100 card in the discard pile" (3 players).
pub const LEFTOVER_3P: u8 = 1;

typed_id!(
    /// An artist card, by id (`A07`).
    ArtistId, ARTISTS, c => c.id, "ShrewdProducerArtistId", "an artist card"
);
typed_id!(
    /// A song card, by id (`L2-1`).
    SongId, SONGS, c => c.id, "ShrewdProducerSongId", "a song card"
);
typed_id!(
    /// A Scout Money card, by id (`R500a`).
    ScoutId, SCOUT_MONEY, c => c.id, "ShrewdProducerScoutId", "a Scout Money card"
);

impl ArtistId {
    /// The card.
    pub fn card(self) -> &'static ArtistCard {
        &ARTISTS[self.0 as usize]
    }
}

impl SongId {
    /// The card.
    pub fn card(self) -> &'static SongCard {
        &SONGS[self.0 as usize]
    }
}

impl ScoutId {
    /// The card.
    pub fn card(self) -> &'static ScoutCard {
        &SCOUT_MONEY[self.0 as usize]
    }
}

// ---- The rulings RULES.md lists, as named constants ----

/// G2: the default for [`Options::dual_fills_both`](super::actions::Options::dual_fills_both).
pub const DUAL_FILLS_BOTH: bool = true;

/// The game lasts 12 rounds: "The game ends when all Artist cards have been revealed and the
/// final (12th) round is completed."
pub const ROUNDS: u8 = 12;
/// "At the end of the 6th round, redistribute Scout Money" (G14, G28).
pub const REDRAFT_AFTER_ROUND: u8 = 6;
/// "The lead player flips over the top 2 cards": artists revealed per round.
pub const ARTISTS_PER_ROUND: usize = 2;
/// The setup draft: "each player draws 2 cards" first (DERIVED 3).
pub const FIRST_DRAW: usize = 2;
/// DERIVED 3 / G22: then twice "draw 2, keep 1, pass 1 left".
pub const PASSING_STEPS: u8 = 2;

/// B) "pay $200 from your Raise Money (two $100 bills) to substitute" for the lead suit.
pub const SUBSTITUTE_COST: u32 = 200;
/// The substitute in bills.
pub const SUBSTITUTE_BILLS: u8 = 2;
/// Debt: "receive $500 in Raise Money (five $100 bills) from the supply (if $500 is available
/// in the supply!)". DERIVED 4: no partial debt.
pub const DEBT_BILLS: u8 = 5;
/// "Each debt taken results in -6 points."
pub const DEBT_PENALTY: i64 = 6;
/// "only up to a maximum of 5 times per game".
pub const MAX_DEBTS: u8 = 5;
/// G8: raises are multiples of $100, minimum $100.
pub const RAISE_STEP: u32 = 100;
/// G9: a non-signer sends only $100 of its Raise-Phase money to the discard pile.
pub const NON_SIGNER_FEE_BILLS: u8 = 1;
/// G17: "For every $200 of Raise Money, 1 Pt is added."
pub const DOLLARS_PER_PT: u32 = 200;

/// G3: each slot of a song needs a distinct card (a dual card never fills two slots of the
/// same part).
pub const DISTINCT_CARD_PER_SLOT: bool = true;
/// G4: the engine scores the assignment of artists to slots with the most artist Pt.
pub const SCORE_BEST_ASSIGNMENT: bool = true;
/// G5: Raise-Phase turns go by ascending Scout value, ties to the seat closer to the lead.
pub const RAISE_ORDER_ASCENDING: bool = true;
/// G7: only a player holding no lead-suit card may go off-suit or substitute.
pub const OFF_SUIT_ONLY_WITHOUT_LEAD_SUIT: bool = true;
/// G10: a single participant chooses one artist; the other goes to the artist discard.
pub const SINGLE_PARTICIPANT_SIGNS_ONE: bool = true;
/// G11: signing is compulsory for the top two.
pub const SIGNING_IS_COMPULSORY: bool = true;
/// G12 / G26: taking the next-level song is a choice; a seat that declined is asked again the
/// next time it signs.
pub const SONG_PICK_OPTIONAL: bool = true;
/// G13: the 3-player game's leftover Lv.1 song is removed face down.
pub const LEFTOVER_SONG_REMOVED_FACE_DOWN: bool = true;
/// G18: a $200 substitute reaches the supply at once; Raise-Phase bids stay in front of the
/// bidder until money processing.
pub const SUBSTITUTE_TO_SUPPLY_AT_ONCE: bool = true;
/// G19 / G27: every participant, alone or not, takes raise/pass turns until it passes.
pub const LONE_PARTICIPANT_STILL_RAISES: bool = true;
/// G20: "the player on the left" is the next seat clockwise (seat + 1).
pub const LEFT_IS_NEXT_SEAT: bool = true;

impl Part {
    /// Every part, in the rulebook's order.
    pub const ALL: [Part; 5] = [Part::Vo, Part::Gt, Part::Ba, Part::Dr, Part::Ky];

    /// The part's printed name.
    pub fn name(self) -> &'static str {
        match self {
            Part::Vo => "Vocal",
            Part::Gt => "Guitar",
            Part::Ba => "Bass",
            Part::Dr => "Drums",
            Part::Ky => "Keyboard",
        }
    }
}

/// Every printed component, keyed by the ids the wire uses: artists, songs, Scout Money, the
/// artist parts and the Scout Money suits.
pub fn catalogue() -> crate::Catalogue {
    use serde_json::json;
    let part_names = |parts: &[Part]| parts.iter().map(|p| p.name()).collect::<Vec<_>>().join("/");
    let artists = ARTISTS
        .iter()
        .map(|a| json!({"id": a.id, "name": format!("{} {} Pt", part_names(a.parts), a.pt), "parts": a.parts, "pt": a.pt}))
        .collect();
    let songs = SONGS
        .iter()
        .map(|s| json!({"id": s.id, "name": s.name, "level": s.level, "requires": s.requires, "song_pt": s.song_pt}))
        .collect();
    let scout = SCOUT_MONEY
        .iter()
        .map(|c| json!({"id": c.id, "name": format!("{:?} ${}", c.suit, c.value), "suit": c.suit, "value": c.value}))
        .collect();
    let parts = Part::ALL
        .iter()
        .map(|p| json!({"id": p, "name": p.name()}))
        .collect();
    let suits = [Suit::Red, Suit::Yellow]
        .iter()
        .map(|s| json!({"id": s, "name": format!("{s:?}")}))
        .collect();
    [
        ("artists", artists),
        ("songs", songs),
        ("scout_money", scout),
        ("parts", parts),
        ("suits", suits),
    ]
    .into_iter()
    .map(|(kind, entries)| (kind.to_owned(), serde_json::Value::Array(entries)))
    .collect()
}
