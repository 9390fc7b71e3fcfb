//! The components of Show Business, read once from `components.json` (the copy of
//! `rules/show-business/components.json`) into typed tables.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::ids::typed_id;

/// A music style; also the colour of a player, an artist side and a concert token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessStyle)]
pub enum Style {
    /// Red.
    Rock,
    /// Yellow.
    Pop,
    /// Gray.
    Black,
    /// Blue.
    Jazz,
    /// Green.
    Club,
}

impl Style {
    /// All styles in the white die's order.
    pub const ALL: [Style; 5] = [Style::Rock, Style::Pop, Style::Black, Style::Jazz, Style::Club];

    /// The style's index on the white die.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The style at `index` on the white die.
    pub fn from_index(index: u8) -> Option<Style> {
        Self::ALL.get(index as usize).copied()
    }

    /// The colour name the components use.
    pub fn colour(self) -> &'static str {
        ["red", "yellow", "gray", "blue", "green"][self as usize]
    }

    fn from_name(name: &str) -> Style {
        Self::ALL
            .into_iter()
            .find(|s| format!("{s:?}") == name || s.colour() == name)
            .unwrap_or(Style::Rock)
    }
}

/// Lyrics of a song (blue die).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessLyrics)]
pub enum Lyrics {
    /// Politics.
    Politics,
    /// Love.
    Love,
    /// Live.
    Live,
    /// Fun.
    Fun,
    /// Poetry.
    Poetry,
}

/// Tempo of a song (yellow die).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessTempo)]
pub enum Tempo {
    /// Very slow.
    VerySlow,
    /// Slow.
    Slow,
    /// Medium.
    Medium,
    /// Fast.
    Fast,
    /// Very fast.
    VeryFast,
}

/// Volume of a song (red die).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessVolume)]
pub enum Volume {
    /// Very silent.
    VerySilent,
    /// Silent.
    Silent,
    /// Medium.
    Medium,
    /// Loud.
    Loud,
    /// Very loud.
    VeryLoud,
}

/// Lyrics in the blue die's order.
pub const LYRICS: [Lyrics; 5] = [
    Lyrics::Politics,
    Lyrics::Love,
    Lyrics::Live,
    Lyrics::Fun,
    Lyrics::Poetry,
];
/// Tempi in the yellow die's order.
pub const TEMPI: [Tempo; 5] = [
    Tempo::VerySlow,
    Tempo::Slow,
    Tempo::Medium,
    Tempo::Fast,
    Tempo::VeryFast,
];
/// Volumes in the red die's order.
pub const VOLUMES: [Volume; 5] = [
    Volume::VerySilent,
    Volume::Silent,
    Volume::Medium,
    Volume::Loud,
    Volume::VeryLoud,
];

/// One of the four trend dice, in the rulebook's order (S3: white, blue, yellow, red).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessDie)]
pub enum Die {
    /// Style; a hit scores 4.
    White,
    /// Lyrics; a hit scores 3.
    Blue,
    /// Tempo; a hit scores 2.
    Yellow,
    /// Volume; a hit scores 1.
    Red,
}

/// What the view's `dice` shows, and the catalogue's `die_faces` calls, for a die's blank face.
pub const BLANK_FACE: &str = "blank";

impl Die {
    /// The dice in roll order.
    pub const ALL: [Die; 4] = [Die::White, Die::Blue, Die::Yellow, Die::Red];

    /// The id of face `value` (0-4; the blank is [`BLANK_FACE`]) as the wire and the catalogue's
    /// `die_faces` spell it: the snake_case of the printed face ("Very fast" is `very_fast`).
    pub fn face_name(self, value: u8) -> String {
        let v = value as usize;
        let id = match self {
            Die::White => Style::from_index(value).map(serde_json::to_value),
            Die::Blue => LYRICS.get(v).map(serde_json::to_value),
            Die::Yellow => TEMPI.get(v).map(serde_json::to_value),
            Die::Red => VOLUMES.get(v).map(serde_json::to_value),
        };
        match id {
            Some(Ok(serde_json::Value::String(id))) => id,
            _ => String::new(),
        }
    }

    /// The die's trend category, as printed.
    pub fn category(self) -> &'static str {
        ["style", "lyrics", "tempo", "volume"][self as usize]
    }

    /// Chart points for a hit on this die (Charts b: 4/3/2/1).
    pub fn points(self) -> u32 {
        [4, 3, 2, 1][self as usize]
    }
}

/// The ten characters of the influence cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessCharacter)]
pub enum Character {
    /// Swap time markers (hostile).
    AAndR,
    /// Defends against any hostile activity.
    Bodyguard,
    /// Replace concert tokens on the map.
    Dj,
    /// Draw cards; integration or disorder (hostile).
    FemmeFatale,
    /// Exchange artists (hostile).
    Groupie,
    /// A controlled scandal.
    Paparazzi,
    /// Pick up two elements anywhere on the map.
    Pilot,
    /// Move the event rondel.
    Reporter,
    /// Exchange hand cards (hostile); wins chart ties.
    Sponsor,
    /// Freezes the trend dice.
    TrendExpert,
}

/// A musical instrument on an artist card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessInstrument)]
pub enum Instrument {
    /// Microphone (mandatory).
    Mic,
    /// Guitar (mandatory; shares the guitar/piano field).
    Guitar,
    /// Piano (mandatory; shares the guitar/piano field).
    Piano,
    /// Bass (mandatory).
    Bass,
    /// Drums (mandatory).
    Drums,
    /// Saxophone (optional).
    Sax,
    /// Trumpet (optional).
    Trumpet,
    /// Violin (optional).
    Violin,
    /// Percussion (optional).
    Percussion,
    /// Turntables (optional).
    Turntables,
    /// Synthesizer (optional).
    Synth,
}

impl Instrument {
    /// The band board field of a mandatory (orange) instrument; `None` for optional ones.
    pub fn orange_field(self) -> Option<u8> {
        match self {
            Instrument::Mic => Some(0),
            Instrument::Guitar | Instrument::Piano => Some(1),
            Instrument::Bass => Some(2),
            Instrument::Drums => Some(3),
            _ => None,
        }
    }

    fn parse(name: &str) -> Instrument {
        match name {
            "mic" => Instrument::Mic,
            "guitar" => Instrument::Guitar,
            "piano" => Instrument::Piano,
            "bass" => Instrument::Bass,
            "drums" => Instrument::Drums,
            "sax" => Instrument::Sax,
            "trumpet" => Instrument::Trumpet,
            "violin" => Instrument::Violin,
            "percussion" => Instrument::Percussion,
            "turntables" => Instrument::Turntables,
            _ => Instrument::Synth,
        }
    }
}

/// Fields 0-3 need an artist for the band to be complete.
pub const MANDATORY_FIELDS: u8 = 4;

/// An influence card.
#[derive(Clone, Debug)]
pub struct InfluenceCard {
    /// `I01`..`I80`.
    pub id: String,
    /// Its character.
    pub character: Character,
    /// Its POWER, 1-4.
    pub power: u8,
    /// The trend die it turns.
    pub die: Die,
    /// The face it turns the die to.
    pub value: u8,
}

/// An artist card.
#[derive(Clone, Debug)]
pub struct ArtistCard {
    /// `AR01`..`AR50`.
    pub id: String,
    /// Name or nickname.
    pub name: String,
    /// The player colour whose board starts with it.
    pub start_board: Option<Style>,
    /// Side A: current style; side B shows the alternative.
    pub side_a: Style,
    /// Side A's alternative style, side B's current one.
    pub side_b: Style,
    /// The instruments it plays.
    pub instruments: Vec<Instrument>,
    /// INDEPENDENCE 1-5.
    pub independence: u8,
    /// Number of EXPERIENCE FIELDS (0-3), the same on both sides.
    pub experience_fields: u8,
}

impl ArtistCard {
    /// The current style with side B up or not.
    pub fn style(&self, side_b: bool) -> Style {
        if side_b { self.side_b } else { self.side_a }
    }
}

/// The colour of a concert token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessTokenColour)]
pub enum TokenColour {
    /// Red.
    Red,
    /// Yellow.
    Yellow,
    /// Gray.
    Gray,
    /// Blue.
    Blue,
    /// Green.
    Green,
    /// White: pays more, gives no experience.
    White,
    /// The multicolour "F" token: fits any experience field.
    Multicolour,
}

impl TokenColour {
    /// The style whose experience fields it fits, for coloured tokens.
    pub fn style(self) -> Option<Style> {
        match self {
            TokenColour::Red => Some(Style::Rock),
            TokenColour::Yellow => Some(Style::Pop),
            TokenColour::Gray => Some(Style::Black),
            TokenColour::Blue => Some(Style::Jazz),
            TokenColour::Green => Some(Style::Club),
            _ => None,
        }
    }

    fn parse(name: &str) -> TokenColour {
        match name {
            "red" => TokenColour::Red,
            "yellow" => TokenColour::Yellow,
            "gray" => TokenColour::Gray,
            "blue" => TokenColour::Blue,
            "green" => TokenColour::Green,
            "white" => TokenColour::White,
            _ => TokenColour::Multicolour,
        }
    }
}

/// A concert token.
#[derive(Clone, Debug)]
pub struct ConcertToken {
    /// `T01`..`T80`.
    pub id: String,
    /// The city it is played in.
    pub city: CityId,
    /// Its colour.
    pub colour: TokenColour,
    /// FONS it pays.
    pub value: u32,
}

/// One CHARTS field: POWER needed and cost to promote a song there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[schema(as = ShowBusinessChartField)]
pub struct ChartField {
    /// POWER required.
    pub power: u8,
    /// Cost in FONS.
    pub cost: u32,
}

impl ChartField {
    /// RULINGS "Chart fields": the descending variant's field `field` (1-10), with field 3 at the
    /// rulebook's POWER 3 and cost 5.
    pub fn descending(field: u8) -> Self {
        Self {
            power: 6u8.saturating_sub(field).clamp(1, 4),
            cost: 8u32.saturating_sub(field as u32).max(1),
        }
    }
}

/// Every component table.
#[derive(Debug)]
pub struct Components {
    /// The 80 influence cards.
    pub influence: Vec<InfluenceCard>,
    /// The 50 artist cards.
    pub artists: Vec<ArtistCard>,
    /// The 80 concert tokens.
    pub tokens: Vec<ConcertToken>,
    /// City letters, A..T.
    pub cities: Vec<String>,
    /// Neighbours of each city.
    pub neighbours: Vec<Vec<CityId>>,
    /// The start club F.
    pub start: CityId,
    /// The recording studios B, M, P.
    pub studios: Vec<CityId>,
    /// CHARTS fields 1-10.
    pub chart: Vec<ChartField>,
}

#[derive(Deserialize)]
struct RawFile {
    influence_cards: Vec<RawInfluence>,
    artists: Vec<RawArtist>,
    map: RawMap,
    concert_tokens: Vec<RawToken>,
    chart_fields: Vec<RawChart>,
}

#[derive(Deserialize)]
struct RawInfluence {
    id: String,
    character: String,
    power: u8,
    trend_die: String,
    trend_value: String,
}

#[derive(Deserialize)]
struct RawSide {
    current: String,
    alternative: String,
}

#[derive(Deserialize)]
struct RawInstrument {
    instrument: String,
}

#[derive(Deserialize)]
struct RawArtist {
    id: String,
    name: String,
    start_board: Option<String>,
    #[serde(rename = "side_A")]
    side_a: RawSide,
    instruments: Vec<RawInstrument>,
    independence: u8,
    experience_fields: u8,
}

#[derive(Deserialize)]
struct RawMap {
    cities: Vec<String>,
    start_club: String,
    studios: Vec<String>,
    routes: Vec<(String, String)>,
}

#[derive(Deserialize)]
struct RawToken {
    letter: String,
    colour: String,
    value: u32,
    id: String,
}

#[derive(Deserialize)]
struct RawChart {
    power: u8,
    cost: u32,
}

fn character(name: &str) -> Character {
    CHARACTERS
        .into_iter()
        .find(|&c| character_name(c) == name)
        .unwrap_or(Character::TrendExpert)
}

fn die_value(die: Die, name: &str) -> u8 {
    (0..5u8)
        .find(|&v| die.face_name(v) == printed_to_id(name))
        .unwrap_or(0)
}

/// A printed name's id: "Very fast" is `very_fast`, "A&R" is `a_and_r`.
fn printed_to_id(printed: &str) -> String {
    printed
        .trim()
        .to_lowercase()
        .replace('&', "_and_")
        .replace(' ', "_")
}

/// An id's printed form for names without one of their own: `very_fast` is "Very fast".
fn id_to_printed(id: &str) -> String {
    let text = id.replace('_', " ");
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

fn load() -> Components {
    let raw: RawFile = serde_json::from_str(include_str!("components.json"))
        .unwrap_or_else(|e| panic!("components.json is part of the crate and parses: {e}"));
    let cities = raw.map.cities.clone();
    let idx = |l: &str| CityId(cities.iter().position(|c| c == l).unwrap_or(0) as u8);
    let mut neighbours = vec![Vec::new(); cities.len()];
    for (a, b) in &raw.map.routes {
        neighbours[idx(a).0 as usize].push(idx(b));
        neighbours[idx(b).0 as usize].push(idx(a));
    }
    for n in &mut neighbours {
        n.sort_unstable();
    }
    let influence = raw
        .influence_cards
        .iter()
        .map(|c| {
            let die = match c.trend_die.as_str() {
                "white" => Die::White,
                "blue" => Die::Blue,
                "yellow" => Die::Yellow,
                _ => Die::Red,
            };
            InfluenceCard {
                id: c.id.clone(),
                character: character(&c.character),
                power: c.power,
                die,
                value: die_value(die, &c.trend_value),
            }
        })
        .collect();
    let artists = raw
        .artists
        .iter()
        .map(|a| ArtistCard {
            id: a.id.clone(),
            name: a.name.clone(),
            start_board: a.start_board.as_deref().map(Style::from_name),
            side_a: Style::from_name(&a.side_a.current),
            side_b: Style::from_name(&a.side_a.alternative),
            instruments: a
                .instruments
                .iter()
                .map(|i| Instrument::parse(&i.instrument))
                .collect(),
            independence: a.independence,
            experience_fields: a.experience_fields,
        })
        .collect();
    let tokens = raw
        .concert_tokens
        .iter()
        .map(|t| ConcertToken {
            id: t.id.clone(),
            city: idx(&t.letter),
            colour: TokenColour::parse(&t.colour),
            value: t.value,
        })
        .collect();
    Components {
        influence,
        artists,
        tokens,
        start: idx(&raw.map.start_club),
        studios: raw.map.studios.iter().map(|s| idx(s)).collect(),
        neighbours,
        cities,
        chart: raw
            .chart_fields
            .iter()
            .map(|c| ChartField {
                power: c.power,
                cost: c.cost,
            })
            .collect(),
    }
}

/// The components, parsed once.
pub static COMPONENTS: LazyLock<Components> = LazyLock::new(load);

/// The components.
pub fn components() -> &'static Components {
    &COMPONENTS
}

typed_id!(
    /// An influence card, by id (`I07`).
    CardId, components().influence, c => c.id.as_str(), "ShowBusinessCardId", "an influence card"
);
typed_id!(
    /// An artist card, by id (`AR12`).
    ArtistId, components().artists, c => c.id.as_str(), "ShowBusinessArtistId", "an artist card"
);
typed_id!(
    /// A concert token, by id (`T33`).
    TokenId, components().tokens, c => c.id.as_str(), "ShowBusinessTokenId", "a concert token"
);
typed_id!(
    /// A city of the map, by letter (`F`).
    CityId, components().cities, c => c.as_str(), "ShowBusinessCityId", "a city"
);

impl CardId {
    /// The card.
    pub fn card(self) -> &'static InfluenceCard {
        &components().influence[self.0 as usize]
    }

    /// The card's POWER.
    pub fn power(self) -> u8 {
        self.card().power
    }

    /// The card's character.
    pub fn character(self) -> Character {
        self.card().character
    }
}

impl ArtistId {
    /// The card.
    pub fn card(self) -> &'static ArtistCard {
        &components().artists[self.0 as usize]
    }
}

impl TokenId {
    /// The token.
    pub fn token(self) -> &'static ConcertToken {
        &components().tokens[self.0 as usize]
    }
}

impl CityId {
    /// The cities one route away.
    pub fn neighbours(self) -> &'static [CityId] {
        &components().neighbours[self.0 as usize]
    }

    /// The city's place among the recording studios B, M, P, if it is one.
    pub fn studio(self) -> Option<usize> {
        components().studios.iter().position(|&s| s == self)
    }
}

/// A recorded song, by number: songs are made in play, not printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
#[serde(transparent)]
#[schema(as = ShowBusinessSongId)]
pub struct SongId(pub u32);

impl std::fmt::Display for SongId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// The rondel's five fields, clockwise, by their catalogue ids (`event_rondel_fields`).
pub const RONDEL: [&str; 5] = [
    "trend_change",
    "popularity_check",
    "salaries",
    "integration_control",
    "royalties",
];

/// Every printed component, keyed by the ids the wire uses: influence cards, artists, concert
/// tokens, the map's cities, chart fields, and the characters, styles, dice, die faces (each
/// die's blank face, `blank`, among them), instruments and token colours that views, actions and
/// events name.
pub fn catalogue() -> crate::Catalogue {
    use serde_json::{Value, json};
    fn id<T: Serialize>(value: T) -> String {
        match serde_json::to_value(value) {
            Ok(Value::String(id)) => id,
            _ => String::new(),
        }
    }
    fn named<T: Serialize + Copy>(values: &[T]) -> Vec<Value> {
        values
            .iter()
            .map(|&v| json!({"id": v, "name": id_to_printed(&id(v))}))
            .collect()
    }
    let c = components();
    let influence = c
        .influence
        .iter()
        .map(|i| {
            json!({"id": i.id, "name": character_name(i.character), "character": i.character,
                "power": i.power, "trend_die": i.die, "trend_face": i.die.face_name(i.value)})
        })
        .collect();
    let artists = c
        .artists
        .iter()
        .map(|a| {
            json!({"id": a.id, "name": a.name, "start_board": a.start_board,
                "side_a": {"current": a.side_a, "alternative": a.side_b},
                "side_b": {"current": a.side_b, "alternative": a.side_a},
                "instruments": a.instruments, "independence": a.independence,
                "experience_fields": a.experience_fields})
        })
        .collect();
    let tokens = c
        .tokens
        .iter()
        .map(|t| {
            json!({"id": t.id, "name": format!("{} {}", id_to_printed(&id(t.colour)), t.value),
                "city": t.city, "colour": t.colour, "value": t.value})
        })
        .collect();
    let cities = c
        .cities
        .iter()
        .enumerate()
        .map(|(i, letter)| {
            let city = CityId(i as u8);
            json!({"id": letter, "name": letter, "start_club": city == c.start,
                "studio": city.studio().is_some(), "neighbours": city.neighbours()})
        })
        .collect();
    let chart = c
        .chart
        .iter()
        .zip(1..)
        .map(|(f, field): (&ChartField, u8)| {
            json!({"id": field, "name": format!("Field {field}"), "power": f.power, "cost": f.cost})
        })
        .collect();
    let characters = CHARACTERS
        .iter()
        .map(|&ch| json!({"id": ch, "name": character_name(ch)}))
        .collect();
    let styles = Style::ALL
        .iter()
        .map(|&s| json!({"id": s, "name": id_to_printed(&id(s)), "colour": s.colour()}))
        .collect();
    let dice = Die::ALL
        .iter()
        .map(|&d| json!({"id": d, "name": id_to_printed(&id(d)), "category": d.category()}))
        .collect();
    let faces = Die::ALL
        .iter()
        .flat_map(|&d| {
            (0..5u8)
                .map(move |v| {
                    let face = d.face_name(v);
                    json!({"id": face, "name": id_to_printed(&face), "die": d, "face": v + 1})
                })
                .chain([json!({"id": BLANK_FACE, "name": "Blank", "die": d, "face": 6})])
        })
        .collect();
    let rondel = RONDEL
        .iter()
        .map(|&field| json!({"id": field, "name": field.replace('_', " ").to_uppercase()}))
        .collect();
    [
        ("influence_cards", influence),
        ("artists", artists),
        ("concert_tokens", tokens),
        ("cities", cities),
        ("chart_fields", chart),
        ("characters", characters),
        ("styles", styles),
        ("dice", dice),
        ("die_faces", faces),
        ("event_rondel_fields", rondel),
        ("instruments", named(&INSTRUMENTS)),
        ("token_colours", named(&TOKEN_COLOURS)),
    ]
    .into_iter()
    .map(|(kind, entries)| (kind.to_owned(), Value::Array(entries)))
    .collect()
}

const CHARACTERS: [Character; 10] = [
    Character::AAndR,
    Character::Bodyguard,
    Character::Dj,
    Character::FemmeFatale,
    Character::Groupie,
    Character::Paparazzi,
    Character::Pilot,
    Character::Reporter,
    Character::Sponsor,
    Character::TrendExpert,
];

const INSTRUMENTS: [Instrument; 11] = [
    Instrument::Mic,
    Instrument::Guitar,
    Instrument::Piano,
    Instrument::Bass,
    Instrument::Drums,
    Instrument::Sax,
    Instrument::Trumpet,
    Instrument::Violin,
    Instrument::Percussion,
    Instrument::Turntables,
    Instrument::Synth,
];

const TOKEN_COLOURS: [TokenColour; 7] = [
    TokenColour::Red,
    TokenColour::Yellow,
    TokenColour::Gray,
    TokenColour::Blue,
    TokenColour::Green,
    TokenColour::White,
    TokenColour::Multicolour,
];

/// A character's name as the influence cards print it.
fn character_name(character: Character) -> &'static str {
    match character {
        Character::AAndR => "A&R",
        Character::Bodyguard => "BODYGUARD",
        Character::Dj => "DJ",
        Character::FemmeFatale => "FEMME FATALE",
        Character::Groupie => "GROUPIE",
        Character::Paparazzi => "PAPARAZZI",
        Character::Pilot => "PILOT",
        Character::Reporter => "REPORTER",
        Character::Sponsor => "SPONSOR",
        Character::TrendExpert => "TREND EXPERT",
    }
}
