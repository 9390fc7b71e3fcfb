//! What a seat posts, what it is told, and the game's options.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::components::{ArtistId, CardId, CityId, Lyrics, SongId, Style, Tempo, TokenId, Volume};
use crate::Seat;

/// RULINGS 3.2: whose octogon lying aside blocks PAPARAZZI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessPaparazziBlock)]
pub enum PaparazziBlock {
    /// A scandal already running (octogon aside on the POPULARITY TRACK) blocks it.
    #[default]
    Popularity,
    /// The printed text: the time marker lying aside (last in the turn) blocks it.
    Time,
}

/// RULINGS 3.4: what ROYALTIES pay above field 50.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessRoyalties)]
pub enum RoyaltyBasis {
    /// The true popularity value (51 and up).
    #[default]
    TrueValue,
    /// The printed field the octogon stands on (51 is field 1).
    PrintedField,
}

/// RULINGS 3.6: when a studio restocks a player's blank song.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessRestock)]
pub enum Restock {
    /// At the start of that player's next round.
    #[default]
    NextRound,
    /// Only at QUARTER END.
    QuarterEnd,
}

/// RULINGS "Chart fields (1–10)": which POWER and cost each CHARTS field asks of PROMOTION.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessChartFields)]
pub enum ChartFields {
    /// "POWER = min(field, 4), cost = field + 2. This matches the rulebook's field 3 = (3, 5)."
    #[default]
    Ascending,
    /// "Option: a descending variant, which is also consistent with field 3": POWER =
    /// clamp(6 − field, 1, 4) and cost = max(8 − field, 1), so fields 1-10 ask POWER
    /// 4, 4, 3, 2, 1, 1, 1, 1, 1, 1 and cost 7, 6, 5, 4, 3, 2, 1, 1, 1, 1: the top of the charts
    /// is dear and a late song is cheap.
    Descending,
}

/// Game options; the defaults are RULINGS.md's values.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
#[schema(as = ShowBusinessOptions)]
pub struct Options {
    /// RULINGS 3.2 (`paparazzi_block`): which set-aside octogon forbids PAPARAZZI.
    pub paparazzi_block: PaparazziBlock,
    /// RULINGS 3.4: ROYALTIES pay the true popularity or the printed field.
    pub royalties: RoyaltyBasis,
    /// RULINGS 3.6: studio blanks restock each round or only at quarter end.
    pub restock: Restock,
    /// RULINGS "Chart fields (1–10)": `ascending` (POWER = min(field, 4), cost = field + 2) or
    /// the `descending` variant (POWER = clamp(6 − field, 1, 4), cost = max(8 − field, 1)); both
    /// give the rulebook's field 3 = POWER 3, cost 5.
    pub chart_fields: ChartFields,
}

/// A market of cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessMarket)]
pub enum Market {
    /// The INFLUENCE MARKET.
    Influence,
    /// The ARTIST MARKET.
    Artist,
}

/// An action a seat posts. Card, artist and token ids are the components' ids (`I07`, `AR12`,
/// `T33`); cities are letters; band board fields are 0 mic, 1 guitar/piano, 2 bass, 3 drums,
/// 4 and 5 free.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = ShowBusinessAction)]
pub enum Action {
    /// Setup 10 / step 9 (S5): a sealed bid of 0 up to own cash.
    Bid {
        /// FONS declared.
        amount: u32,
    },
    /// Step 9 (S6): give up the sequence bid.
    GiveUpBid,
    /// Step 9 (S6): take part in the sequence bid.
    JoinBid,
    /// S7: the bid winner decides who starts the turn.
    ChooseFirst {
        /// The seat that starts.
        seat: Seat,
    },
    /// Step 2 MARKET REVIEW (S12): remove the card on a field, paying the field's number.
    Remove {
        /// Which market.
        market: Market,
        /// Field 1-4.
        field: u8,
    },
    /// Step 2: end the market review.
    EndReview,
    /// Step 3 TIME LAPSE: play an influence card from hand.
    Play {
        /// The card.
        card: CardId,
    },
    /// Step 3 (S13): give up the remaining time lapses and actions.
    GiveUp,
    /// Step 4: act with the card played from hand.
    ActivateHand,
    /// Step 4 (S16): act with an influence market card from a field at most the played POWER.
    TakeMarket {
        /// Field 1-4.
        field: u8,
    },
    /// Step 4 (S17): no action.
    Pass,
    /// TREND: turn the active card's die to the card's value.
    SetDie,
    /// RECRUITMENT (S18): hire the artist on a market field at most POWER, placed at once.
    Recruit {
        /// Artist market field 1-4.
        field: u8,
        /// Side B up (side A shows the card's first style).
        side_b: bool,
        /// The band board field(s) it takes.
        fields: Vec<u8>,
    },
    /// TOURNEE (S19): drive to a neighbouring city (1 POWER).
    Move {
        /// City letter.
        city: CityId,
    },
    /// TOURNEE: play a concert (1 POWER); pays at once.
    PickToken {
        /// A token in the car's city.
        token: TokenId,
    },
    /// TOURNEE: pick up your blank song in this studio (1 POWER) and record it at once.
    PickSong {
        /// The studio's city letter.
        studio: CityId,
    },
    /// End the current action; unspent POWER is lost.
    EndAction,
    /// CONCERT: place the token on an artist's free experience field of its colour.
    PlaceToken {
        /// The artist card.
        artist: ArtistId,
    },
    /// CONCERT: discard the token to the used pool.
    DiscardToken,
    /// RECORDING field 1.
    RecordStyle {
        /// Music style.
        style: Style,
    },
    /// RECORDING field 2.
    RecordLyrics {
        /// Lyrics.
        lyrics: Lyrics,
    },
    /// RECORDING field 3.
    RecordTempo {
        /// Tempo.
        tempo: Tempo,
    },
    /// RECORDING field 4.
    RecordVolume {
        /// Volume.
        volume: Volume,
    },
    /// PROMOTION: place a recorded song on the first vacant CHARTS field.
    Promote {
        /// The song's number.
        song: SongId,
    },
    /// A&R (hostile): swap time markers with the target.
    AAndR {
        /// The target seat.
        target: Seat,
    },
    /// SPONSOR (hostile): see the target's hand and exchange up to POWER cards.
    Sponsor {
        /// The target seat.
        target: Seat,
    },
    /// SPONSOR (S24): exchange one of your cards with one of the target's.
    Swap {
        /// Your card.
        give: CardId,
        /// The target's card.
        take: CardId,
    },
    /// SPONSOR: stop exchanging.
    Stop,
    /// GROUPIE (hostile, S22/S25): choose the target.
    Groupie {
        /// The target seat.
        target: Seat,
    },
    /// GROUPIE: the target's artist you take.
    GroupieTake {
        /// The artist card.
        artist: ArtistId,
    },
    /// GROUPIE: your artist you give.
    GroupieGive {
        /// The artist card.
        artist: ArtistId,
    },
    /// GROUPIE: where the taken artist goes on your board.
    GroupiePlaceMine {
        /// Field(s).
        fields: Vec<u8>,
    },
    /// GROUPIE: where your artist goes on the target's board.
    GroupiePlaceTheirs {
        /// Field(s).
        fields: Vec<u8>,
    },
    /// FEMME FATALE (S26): draw POWER cards publicly.
    FemmeFatale,
    /// FEMME FATALE INTEGRATION: raise your satisfaction by the highest drawn POWER.
    Integration,
    /// FEMME FATALE DISORDER (hostile): lower the target's satisfaction.
    Disorder {
        /// The target seat.
        target: Seat,
    },
    /// PAPARAZZI: a controlled scandal.
    Paparazzi,
    /// REPORTER (S30): move the rondel marker POWER fields.
    Reporter,
    /// TREND EXPERT (S29): stand the active card between the trend dice.
    TrendExpertPlace,
    /// TREND EXPERT (S29): return the standing card to its placer.
    TrendExpertRemove,
    /// PILOT (S27): pick up a concert token anywhere on the map.
    PilotToken {
        /// The token.
        token: TokenId,
    },
    /// PILOT: pick up your blank song in a studio.
    PilotSong {
        /// The studio's city letter.
        studio: CityId,
    },
    /// PILOT: drive to one of the cities picked from.
    CarTo {
        /// City letter.
        city: CityId,
    },
    /// DJ (S28): discard a concert token from the map.
    DjRemove {
        /// The token.
        token: TokenId,
    },
    /// DJ: stop removing, or (S28) the first step with no removal.
    DjDone,
    /// DJ: move the token on a concert market field to the map.
    DjFromMarket {
        /// Field 1-5.
        field: u8,
    },
    /// DJ: draw a token from the bag to the map.
    DjFromBag,
    /// Hostile activity (S22): defend with a card of the same character and at least the
    /// attacking POWER, or any BODYGUARD.
    Defend {
        /// The card.
        card: CardId,
    },
    /// Hostile activity: do not defend.
    Decline,
    /// Step 5 INFLUENCES (S31): draw the top card of the pile for free.
    Draw,
    /// Step 5: buy the card on an influence market field for its field number.
    Buy {
        /// Field 1-4.
        field: u8,
    },
    /// S10: end the round (steps 7-10 follow).
    EndRound,
    /// S11: discard a card down to the hand limit.
    Discard {
        /// The card.
        card: CardId,
    },
    /// PERFORM IN ADVERTISING (S33): move the popularity octogon down this many fields for
    /// 5 FONS each, then pay.
    Advertise {
        /// Fields down.
        fields: u32,
    },
    /// CHARTS tie (S36): discard a SPONSOR card to the influence field.
    SponsorTie {
        /// The SPONSOR card.
        card: CardId,
    },
    /// CHARTS tie: done discarding SPONSOR cards.
    Done,
    /// CHARTS tie: the SPONSOR winner picks the song for the next field.
    ChooseSong {
        /// The song's number.
        song: SongId,
    },
    /// DISMISSAL (anytime, S9): fire an artist (−1 satisfaction).
    Dismiss {
        /// The artist card.
        artist: ArtistId,
    },
    /// REGROUPMENT (anytime, S9): move an artist to other field(s).
    Regroup {
        /// The artist card.
        artist: ArtistId,
        /// The new field(s).
        fields: Vec<u8>,
    },
    /// STYLE CHANGE (anytime, S9): turn an artist card over.
    Flip {
        /// The artist card.
        artist: ArtistId,
    },
}

impl Action {
    /// The action's `type` as posted.
    pub fn kind(&self) -> &'static str {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(str::to_owned))
            .and_then(|t| ACTION_TYPES.iter().find(|k| **k == t).copied())
            .unwrap_or("unknown")
    }
}

/// Every action type.
pub const ACTION_TYPES: &[&str] = &[
    "bid",
    "give_up_bid",
    "join_bid",
    "choose_first",
    "remove",
    "end_review",
    "play",
    "give_up",
    "activate_hand",
    "take_market",
    "pass",
    "set_die",
    "recruit",
    "move",
    "pick_token",
    "pick_song",
    "end_action",
    "place_token",
    "discard_token",
    "record_style",
    "record_lyrics",
    "record_tempo",
    "record_volume",
    "promote",
    "a_and_r",
    "sponsor",
    "swap",
    "stop",
    "groupie",
    "groupie_take",
    "groupie_give",
    "groupie_place_mine",
    "groupie_place_theirs",
    "femme_fatale",
    "integration",
    "disorder",
    "paparazzi",
    "reporter",
    "trend_expert_place",
    "trend_expert_remove",
    "pilot_token",
    "pilot_song",
    "car_to",
    "dj_remove",
    "dj_done",
    "dj_from_market",
    "dj_from_bag",
    "defend",
    "decline",
    "draw",
    "buy",
    "end_round",
    "discard",
    "advertise",
    "sponsor_tie",
    "done",
    "choose_song",
    "dismiss",
    "regroup",
    "flip",
];

/// A song's five fields, as its owner sees it (and everyone once disclosed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ShowBusinessSongContent)]
pub struct SongContent {
    /// The song, its fields in words: also what stays hidden from others until disclosure.
    pub label: String,
    /// Field 1.
    pub style: Style,
    /// Field 2.
    pub lyrics: Lyrics,
    /// Field 3.
    pub tempo: Tempo,
    /// Field 4.
    pub volume: Volume,
    /// Field 5: experience.
    pub experience: u32,
}
