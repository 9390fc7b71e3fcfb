//! The position: plain data. Cards, artists, tokens and cities are typed ids of components.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::actions::{Market, Options};
use super::components::{ArtistId, CardId, CityId, SongId, Style, TokenId};
use super::events::{Hostile, Payment, ShownFor};
use crate::rng::GameRng;
use crate::{BySeat, Outcome, Seat};

/// An artist on a band board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BandArtist {
    pub(crate) card: ArtistId,
    pub(crate) side_b: bool,
    /// One field, or two for a mic + mandatory-instrument card spanning both.
    pub(crate) fields: Vec<u8>,
    /// Concert tokens on its experience fields.
    pub(crate) tokens: Vec<TokenId>,
}

/// A recorded song.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Song {
    pub(crate) id: SongId,
    pub(crate) owner: Seat,
    pub(crate) style: Style,
    pub(crate) lyrics: u8,
    pub(crate) tempo: u8,
    pub(crate) volume: u8,
    pub(crate) experience: u32,
}

/// A song on the CHARTS.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChartSong {
    pub(crate) song: Song,
    pub(crate) disclosed: bool,
}

/// One seat's pieces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub(crate) colour: Style,
    pub(crate) cash: i64,
    /// True value: above 50 it keeps counting (RULINGS 3.4).
    pub(crate) popularity: i64,
    /// Octogon set aside on the POPULARITY TRACK.
    pub(crate) scandal: bool,
    pub(crate) satisfaction: u8,
    /// TIME TRACK week; `None` once bankrupt (S34: "the time marker leaves the track").
    pub(crate) time: Option<u8>,
    pub(crate) hand: Vec<CardId>,
    /// Top of the pile last.
    pub(crate) influence_field: Vec<CardId>,
    pub(crate) band: Vec<BandArtist>,
    /// Recorded songs on the band board's song fields.
    pub(crate) songs: Vec<Song>,
    /// Blank song in studio B, M, P.
    pub(crate) blanks: [bool; 3],
    pub(crate) car: CityId,
    /// Order of bankruptcy (1 = first), if bankrupt.
    pub(crate) bankrupt: Option<u32>,
}

/// A song being recorded, field by field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartialSong {
    pub(crate) style: Option<Style>,
    pub(crate) lyrics: Option<u8>,
    pub(crate) tempo: Option<u8>,
}

/// A sealed bid in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bidding {
    pub(crate) setup: bool,
    pub(crate) seats: Vec<Seat>,
    /// Every seat's sealed bid, `None` until it is in (seats outside `seats` never bid).
    pub(crate) bids: BySeat<Option<u32>>,
    pub(crate) round: u32,
}

/// A hostile activity awaiting the target's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Attack {
    AAndR,
    Sponsor {
        power: u8,
    },
    Disorder {
        amount: u8,
    },
    Groupie {
        take: ArtistId,
        give: ArtistId,
        mine: Vec<u8>,
        theirs: Vec<u8>,
    },
}

impl Attack {
    /// The attack as events and views name it.
    pub(crate) fn announced(&self) -> Hostile {
        match self {
            Attack::AAndR => Hostile::AAndR,
            Attack::Sponsor { power } => Hostile::Sponsor { power: *power },
            Attack::Disorder { amount } => Hostile::Disorder { amount: *amount },
            Attack::Groupie {
                take,
                give,
                mine,
                theirs,
            } => Hostile::Groupie {
                take: *take,
                give: *give,
                mine: mine.clone(),
                theirs: theirs.clone(),
            },
        }
    }
}

/// Why cards are drawn and shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DrawPurpose {
    FemmeFatale,
    Paparazzi,
    PopularityCheck { double: bool },
    EndScandal,
}

impl DrawPurpose {
    pub(crate) fn shown_for(&self) -> ShownFor {
        match self {
            DrawPurpose::FemmeFatale => ShownFor::FemmeFatale,
            DrawPurpose::Paparazzi => ShownFor::Paparazzi,
            DrawPurpose::PopularityCheck { .. } => ShownFor::PopularityCheck,
            DrawPurpose::EndScandal => ShownFor::EndScandal,
        }
    }
}

/// What a payment is for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Then {
    Mandatory(Payment),
    Review(Market, u8),
    Buy(u8),
    Promote(SongId),
}

impl Then {
    pub(crate) fn payment(&self) -> Payment {
        match self {
            Then::Mandatory(p) => p.clone(),
            Then::Review(market, field) => Payment::Review {
                market: *market,
                field: *field,
            },
            Then::Buy(field) => Payment::Buy { field: *field },
            Then::Promote(song) => Payment::Promotion { song: *song },
        }
    }
}

/// One entry of the work queue: a decision a seat must make, or an automatic step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Task {
    // Decisions.
    Bid(Bidding),
    Poll {
        answers: BySeat<Option<bool>>,
    },
    ChooseFirst {
        seat: Seat,
        setup: bool,
    },
    Review {
        seat: Seat,
    },
    TimeLapse {
        seat: Seat,
        nth: u8,
    },
    Activate {
        seat: Seat,
        card: CardId,
    },
    ChooseAction {
        seat: Seat,
    },
    Recruit {
        seat: Seat,
    },
    Tournee {
        seat: Seat,
        left: u8,
    },
    PlaceToken {
        seat: Seat,
        token: TokenId,
    },
    Record {
        seat: Seat,
        song: PartialSong,
    },
    Defend {
        target: Seat,
        attacker: Seat,
        card: CardId,
        attack: Attack,
    },
    SponsorSwap {
        seat: Seat,
        target: Seat,
        left: u8,
    },
    Groupie {
        seat: Seat,
        target: Seat,
        take: Option<ArtistId>,
        give: Option<ArtistId>,
        mine: Option<Vec<u8>>,
    },
    FemmeChoice {
        seat: Seat,
        best: u8,
    },
    Pilot {
        seat: Seat,
        cities: Vec<CityId>,
        stopped: bool,
    },
    DjRemove {
        seat: Seat,
    },
    DjAdd {
        seat: Seat,
    },
    Influences {
        seat: Seat,
    },
    EndRound {
        seat: Seat,
    },
    HandDiscard {
        seat: Seat,
    },
    Advertise {
        seat: Seat,
        due: i64,
        then: Then,
    },
    Charts,
    // Automatic steps.
    StartRound {
        seat: Seat,
    },
    AfterAction {
        seat: Seat,
        nth: u8,
    },
    RefillMarkets {
        retried: bool,
    },
    RefillConcerts,
    RoundTail,
    MarketChange,
    RondelStep,
    SequenceBid,
    QuarterEnd,
    QePopularity,
    QeSatisfaction,
    Clearing {
        seat: Seat,
    },
    DiscardField {
        seat: Seat,
    },
    Pay {
        seat: Seat,
        amount: i64,
        reason: Payment,
    },
    Draw {
        seat: Seat,
        left: u8,
        best: u8,
        purpose: DrawPurpose,
        retried: bool,
    },
    DrawToHand {
        seat: Seat,
    },
    TrendChange,
    ScandalsUpright,
    Salary {
        seat: Seat,
    },
    SatisfactionUp {
        seat: Seat,
    },
    Integration {
        seat: Seat,
    },
    Royalty {
        seat: Seat,
    },
    PopCheck {
        seat: Seat,
    },
    NextRound,
    EndPenalty {
        seat: Seat,
    },
    Finish,
}

/// A group of songs tied on the CHART SCORING TRACK, being ranked (S36).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "StoredLap")]
pub struct Lap {
    /// Owners taking part, in turn order, each with the POWER of the SPONSOR cards it has
    /// discarded in this lap.
    pub(crate) sums: Vec<(Seat, u32)>,
    /// Index in `sums` of the owner whose turn it is.
    pub(crate) at: usize,
    /// The seat that won the lap and chooses the next song.
    pub(crate) chooser: Option<Seat>,
}

/// A [`Lap`] as the store holds it: its `sums` as `(seat, sum)` pairs, or, as stored before,
/// the owners in `seats` beside their sums.
#[derive(Deserialize)]
struct StoredLap {
    #[serde(default)]
    seats: Option<Vec<Seat>>,
    sums: StoredSums,
    at: usize,
    chooser: Option<Seat>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StoredSums {
    Paired(Vec<(Seat, u32)>),
    Parallel(Vec<u32>),
}

impl TryFrom<StoredLap> for Lap {
    type Error = String;

    fn try_from(stored: StoredLap) -> Result<Self, String> {
        let sums = match (stored.sums, stored.seats) {
            (StoredSums::Paired(sums), _) => sums,
            (StoredSums::Parallel(sums), Some(seats)) if seats.len() == sums.len() => {
                seats.into_iter().zip(sums).collect()
            }
            _ => return Err("a lap's sums do not match its seats".into()),
        };
        Ok(Lap {
            sums,
            at: stored.at,
            chooser: stored.chooser,
        })
    }
}

/// The CHARTS ranking in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChartsWork {
    /// Score groups still to place, highest first.
    pub(crate) groups: Vec<Vec<ChartSong>>,
    /// Fields filled so far.
    pub(crate) placed: Vec<Vec<ChartSong>>,
    pub(crate) lap: Option<Lap>,
}

/// The whole position of a game of Show Business.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShowBusiness {
    pub(crate) options: Options,
    pub(crate) players: BySeat<Player>,
    pub(crate) influence_pile: Vec<CardId>,
    pub(crate) influence_discard: Vec<CardId>,
    pub(crate) influence_market: [Option<CardId>; 4],
    pub(crate) artist_pile: Vec<ArtistId>,
    pub(crate) artist_discard: Vec<ArtistId>,
    pub(crate) artist_market: [Option<ArtistId>; 4],
    pub(crate) bag: Vec<TokenId>,
    /// The influence pile, the artist pile and the bag were formed again from face-up discards
    /// (RULINGS 9 / S32): which cards they hold is known, only their order is not.
    pub(crate) reformed: [bool; 3],
    pub(crate) used_tokens: Vec<TokenId>,
    pub(crate) concert_market: [Option<TokenId>; 5],
    pub(crate) map_tokens: Vec<TokenId>,
    /// Cards drawn face up and not yet discarded.
    pub(crate) revealed: Vec<CardId>,
    /// `None` = blank face.
    pub(crate) dice: [Option<u8>; 4],
    /// The standing TREND EXPERT and who placed it.
    pub(crate) trend_expert: Option<(CardId, Seat)>,
    pub(crate) rondel: u8,
    /// CHARTS fields 1-10; a field may hold several tied songs.
    pub(crate) chart: Vec<Vec<ChartSong>>,
    pub(crate) charts_work: Option<ChartsWork>,
    /// Turn sequence, first to last.
    pub(crate) order: Vec<Seat>,
    /// Index in `order` of the seat whose round runs.
    pub(crate) turn: usize,
    pub(crate) qe_done: [bool; 4],
    pub(crate) qe_pending: bool,
    pub(crate) last_turn: bool,
    pub(crate) triggered_this_round: bool,
    pub(crate) next_song: SongId,
    pub(crate) bankruptcies: u32,
    pub(crate) bid_rounds: u32,
    /// Hand cards a given other seat has legitimately seen: `(card, viewer)`.
    pub(crate) known: Vec<(CardId, Seat)>,
    pub(crate) queue: VecDeque<Task>,
    pub(crate) result: Option<Outcome>,
    pub(crate) rng: GameRng,
}

impl ShowBusiness {
    /// Seats in this game.
    pub(crate) fn seats(&self) -> usize {
        self.players.len()
    }
}
