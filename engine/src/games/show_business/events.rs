//! What a seat is told: every change of the position is one of these typed events, each
//! naming the seats it concerns. Card, artist and token ids are the components' ids.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::actions::{Market, SongContent};
use super::components::{ArtistId, CardId, CityId, Die, SongId, TokenId};
use crate::{Announcements, Seat};

/// An artist of a starting band.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ShowBusinessStartingArtist)]
pub struct StartingArtist {
    /// The artist card's id.
    pub artist: ArtistId,
    /// The band board fields it occupies.
    pub fields: Vec<u8>,
}

/// An occupied market field, as [`GameEvent::MarketRefilled`] tells it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ShowBusinessMarketField)]
pub struct MarketField {
    /// The field, from 1.
    pub field: u8,
    /// The id of the influence card, artist card or concert token on it.
    pub id: String,
}

/// A sealed bid, revealed and paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ShowBusinessRevealedBid)]
pub struct RevealedBid {
    /// The bidder.
    pub seat: Seat,
    /// FONS bid.
    pub amount: u32,
}

/// A seat's answer to the step 9 poll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ShowBusinessPollAnswer)]
pub struct PollAnswer {
    /// The seat.
    pub seat: Seat,
    /// Whether it gives up its bid.
    pub gives_up: bool,
}

/// A song on the CHARTS turned face up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ShowBusinessDisclosedSong)]
pub struct DisclosedSong {
    /// Its owner.
    pub owner: Seat,
    /// Its number.
    pub id: SongId,
    /// Its fields.
    pub content: SongContent,
}

/// A pile of cards or the bag of concert tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessPile)]
pub enum Pile {
    /// The influence pile.
    Influence,
    /// The artist pile.
    Artist,
    /// The bag of concert tokens.
    Bag,
}

/// A row of cards or tokens on offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessMarketRow)]
pub enum MarketRow {
    /// The INFLUENCE MARKET, fields 1-4.
    Influence,
    /// The ARTIST MARKET, fields 1-4.
    Artist,
    /// The CONCERT MARKET, fields 1-5.
    Concert,
}

impl From<Market> for MarketRow {
    fn from(m: Market) -> Self {
        match m {
            Market::Influence => MarketRow::Influence,
            Market::Artist => MarketRow::Artist,
        }
    }
}

/// What a payment to the bank is for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = ShowBusinessPayment)]
pub enum Payment {
    /// Step 2: removing a market card costs the field number.
    Review {
        /// The market.
        market: Market,
        /// Field 1-4.
        field: u8,
    },
    /// Step 5 INFLUENCES: buying a card costs the field number.
    Buy {
        /// Field 1-4.
        field: u8,
    },
    /// PROMOTION onto the CHARTS.
    Promotion {
        /// The song.
        song: SongId,
    },
    /// SALARIES: 5 per artist, 1 per concert token.
    Salaries,
    /// ROYALTIES below 0.
    Royalties,
    /// CLEARING (quarter end, emergency or the end of the game): the influence field's POWER.
    Clearing,
}

/// Where cash comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = ShowBusinessIncome)]
pub enum Income {
    /// A concert's token value.
    Concert {
        /// The token.
        token: TokenId,
    },
    /// ROYALTIES: the popularity.
    Royalties,
}

/// Why satisfaction moved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = ShowBusinessSatisfactionCause)]
pub enum SatisfactionCause {
    /// RECRUITMENT: +1 per hired artist.
    Recruitment,
    /// DISMISSAL: −1.
    Dismissal,
    /// SALARIES paid: +1.
    Salaries,
    /// FEMME FATALE's INTEGRATION.
    Integration,
    /// FEMME FATALE's DISORDER.
    Disorder {
        /// The attacker.
        attacker: Seat,
    },
    /// QUARTER END 3, SATISFACTION CHECK.
    SatisfactionCheck,
}

/// Why popularity moved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = ShowBusinessPopularityCause)]
pub enum PopularityCause {
    /// PAPARAZZI: the highest drawn POWER.
    Paparazzi,
    /// POPULARITY CHECK: the drawn POWER, doubled for a scandal without a chart song.
    PopularityCheck {
        /// Doubled.
        double: bool,
    },
    /// PERFORM IN ADVERTISING.
    Advertising,
    /// CHARTS: a song on fields 1-5.
    Charts {
        /// The song.
        song: SongId,
        /// Field 1-10.
        field: u8,
    },
    /// QUARTER END 2: one point per concert token on the band.
    Experience,
    /// End of game: one point per satisfaction field below 5.
    EndSatisfaction,
    /// End of game: one point per empty mandatory field.
    EndIncompleteBand,
    /// End of game: a running scandal draws a card.
    EndScandal,
}

/// Why influence cards were drawn and shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessDrawPurpose)]
pub enum ShownFor {
    /// FEMME FATALE.
    FemmeFatale,
    /// PAPARAZZI.
    Paparazzi,
    /// POPULARITY CHECK.
    PopularityCheck,
    /// A scandal at the end of the game.
    EndScandal,
}

/// How a concert token came to the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = ShowBusinessToMap)]
pub enum ToMap {
    /// Setup: five tokens from the bag.
    Setup,
    /// Step 1 CONCERTS, from the concert market field.
    Concerts {
        /// Field 1-5.
        field: u8,
    },
    /// DJ, from a concert market field.
    DjMarket {
        /// Field 1-5.
        field: u8,
    },
    /// DJ, from the bag.
    DjBag,
}

/// Why the event rondel marker moved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = ShowBusinessRondelCause)]
pub enum RondelCause {
    /// Step 8, EVENT RONDEL: one field.
    Step,
    /// REPORTER: POWER fields, no event applies (S30).
    Reporter {
        /// The seat.
        seat: Seat,
        /// Fields moved.
        fields: u8,
    },
}

/// A hostile activity, as announced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = ShowBusinessHostile)]
pub enum Hostile {
    /// A&R: swap time markers.
    AAndR,
    /// SPONSOR: see the hand and swap up to POWER cards.
    Sponsor {
        /// POWER.
        power: u8,
    },
    /// FEMME FATALE's DISORDER.
    Disorder {
        /// Satisfaction lost.
        amount: u8,
    },
    /// GROUPIE: exchange two artists.
    Groupie {
        /// Taken from the target.
        take: ArtistId,
        /// Given to the target.
        give: ArtistId,
        /// Fields of the taken artist on the attacker's board.
        mine: Vec<u8>,
        /// Fields of the given artist on the target's board.
        theirs: Vec<u8>,
    },
}

/// How a CHARTS field was decided (S36).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = ShowBusinessTieBreak)]
pub enum TieBreak {
    /// The score alone.
    Score,
    /// A SPONSOR lap's winner chose the song.
    Sponsor {
        /// The seat that chose.
        seat: Seat,
    },
    /// The best trend points; several songs share the field when still tied.
    TrendPoints,
}

/// One song's CHARTS score (charts b).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ShowBusinessChartScore)]
pub struct ChartScore {
    /// The owner.
    pub seat: Seat,
    /// The song.
    pub song: SongId,
    /// 4/3/2/1 for the dice hit.
    pub trend_points: u32,
    /// Field 5.
    pub experience: u32,
    /// The sum.
    pub score: u32,
}

/// A seat's final score line (S39): popularity + ⌊cash/10⌋.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ShowBusinessFinalScore)]
pub struct FinalScore {
    /// The seat.
    pub seat: Seat,
    /// True popularity.
    pub popularity: i64,
    /// FONS.
    pub cash: i64,
    /// Popularity + ⌊cash/10⌋.
    pub total: i64,
    /// Place; bankrupts rank last (S34).
    pub rank: usize,
}

/// Why the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ShowBusinessEnding)]
pub enum Ending {
    /// S38: the last turn is over.
    LastTurn,
    /// Every band is bankrupt.
    AllBankrupt,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schema(as = ShowBusinessEvent)]
pub enum GameEvent {
    /// A pile was shuffled into this order (sealed until the end); the pile is shuffled from
    /// its cards in catalogue order.
    Shuffled {
        /// `influence` or `artist`.
        pile: String,
        /// Top first.
        order: Vec<String>,
    },
    /// A token drawn at random from the bag (sealed until the end): the bag held `of` tokens,
    /// the one at `index` was drawn and the bag's last token took its place.
    BagDraw {
        /// The token.
        token: TokenId,
        /// The position drawn, uniform below `of` (see docs/integrating.md, "Randomness").
        index: usize,
        /// How many tokens the bag held.
        of: usize,
    },
    /// A trend die was rolled (sealed until the end; the result is public in [`GameEvent::DieShows`]).
    Rolled {
        /// The die.
        die: Die,
        /// 1-6; 6 is the blank face.
        face: u8,
    },
    /// A random first player when every bid was 0 (sealed until the end): `seat` is
    /// `among[i]` for a uniform `i` below the number of seats in `among`.
    RandomFirst {
        /// The seat.
        seat: Seat,
        /// The seats it was drawn from, in the order drawn from.
        among: Vec<Seat>,
    },
    /// Setup: a seat's starting band, cash and tracks.
    StartingBand {
        /// The seat.
        seat: Seat,
        /// Artists and their band board fields.
        artists: Vec<StartingArtist>,
        /// FONS.
        cash: i64,
    },
    /// RULINGS 9 / S32: discards were formed into a new pile, or the used tokens refilled the bag.
    Reshuffled {
        /// Which pile.
        pile: Pile,
        /// Its size now.
        size: usize,
    },
    /// A seat drew an influence card into its hand (the card itself is told by [`GameEvent::CardToHand`]).
    Drew {
        /// The seat.
        seat: Seat,
    },
    /// An influence card went to a seat's hand (told to that seat).
    CardToHand {
        /// The seat.
        seat: Seat,
        /// The card.
        card: CardId,
    },
    /// A market closed up and was refilled: its occupied fields now, in field order (a field
    /// not listed is empty).
    MarketRefilled {
        /// The market.
        market: MarketRow,
        /// The occupied fields.
        fields: Vec<MarketField>,
    },
    /// A card left a market field for the discard pile.
    MarketDiscard {
        /// The seat that paid for it (step 2), or none (step 7 MARKET CHANGE).
        seat: Option<Seat>,
        /// The market.
        market: Market,
        /// Field 1-4.
        field: u8,
        /// The card.
        card: String,
    },
    /// A trend die shows a new face.
    DieShows {
        /// The die.
        die: Die,
        /// The face; `None` is the blank.
        face: Option<String>,
        /// The seat whose TREND action turned it; `None` for a roll.
        seat: Option<Seat>,
    },
    /// TREND CHANGE did not roll: a TREND EXPERT stands between the dice.
    TrendChangeBlocked {
        /// The placer.
        seat: Seat,
    },
    /// A concert token came to the map.
    TokenToMap {
        /// The token.
        token: TokenId,
        /// Its city.
        city: CityId,
        /// How.
        cause: ToMap,
        /// The seat whose round or DJ moved it, if any.
        seat: Option<Seat>,
    },
    /// DJ: a token left the map for the used pool.
    TokenOffMap {
        /// The seat.
        seat: Seat,
        /// The token.
        token: TokenId,
    },
    /// A seat paid the bank.
    Paid {
        /// The seat.
        seat: Seat,
        /// FONS.
        amount: i64,
        /// What for.
        reason: Payment,
    },
    /// A seat received FONS.
    Earned {
        /// The seat.
        seat: Seat,
        /// FONS.
        amount: i64,
        /// Where from.
        reason: Income,
    },
    /// S33: PERFORM IN ADVERTISING raised FONS for a payment.
    Advertised {
        /// The seat.
        seat: Seat,
        /// Popularity fields moved down.
        fields: u32,
        /// FONS raised.
        raised: i64,
    },
    /// Satisfaction moved (clamped to 0-5, S40).
    Satisfaction {
        /// The seat.
        seat: Seat,
        /// Before.
        from: u8,
        /// After.
        to: u8,
        /// Why.
        cause: SatisfactionCause,
    },
    /// Popularity moved.
    Popularity {
        /// The seat.
        seat: Seat,
        /// Before.
        from: i64,
        /// After.
        to: i64,
        /// Why.
        cause: PopularityCause,
    },
    /// A scandal starts (PAPARAZZI) or ends (a top-3 chart song, or after the POPULARITY CHECK).
    Scandal {
        /// The seats concerned.
        seats: Vec<Seat>,
        /// Running now.
        running: bool,
    },
    /// Influence cards drawn and shown for a character or a check.
    Shown {
        /// The seat concerned.
        seat: Seat,
        /// The card.
        card: CardId,
        /// Its POWER.
        power: u8,
        /// Why.
        purpose: ShownFor,
    },
    /// The shown cards go to the discard pile.
    ShownDiscarded {
        /// The cards.
        cards: Vec<CardId>,
    },
    /// A hand card went to the discard pile (the hand limit).
    Discarded {
        /// The seat.
        seat: Seat,
        /// The card.
        card: CardId,
    },
    /// CLEARING: the influence field goes to the discard pile.
    FieldDiscarded {
        /// The seat.
        seat: Seat,
        /// The cards.
        cards: Vec<CardId>,
    },
    /// S34: a seat is bankrupt; its hand, influence field, band and songs are discarded.
    Bankrupt {
        /// The seat.
        seat: Seat,
        /// 1 for the first bankruptcy.
        order: u32,
        /// The hand, now face up on the discard pile.
        hand: Vec<CardId>,
    },
    /// A seat's round begins (step 1).
    RoundBegins {
        /// The seat.
        seat: Seat,
    },
    /// A seat ends its round (step 6).
    RoundEnds {
        /// The seat.
        seat: Seat,
    },
    /// Step 3 TIME LAPSE: a card is played to the influence field and the time marker moves.
    TimeLapse {
        /// The seat.
        seat: Seat,
        /// The card.
        card: CardId,
        /// Week before.
        from: u8,
        /// Week after.
        to: u8,
    },
    /// Step 3: the seat gives up its time lapse.
    TimeLapseGivenUp {
        /// The seat.
        seat: Seat,
    },
    /// A seat's time marker reached a QUARTER END field first.
    QuarterEndReached {
        /// The seat.
        seat: Seat,
        /// The week.
        week: u8,
        /// It is week 56: the last turn has begun.
        last_turn: bool,
    },
    /// Step 4a: a card from the influence market becomes the active card.
    ActivatedFromMarket {
        /// The seat.
        seat: Seat,
        /// Field 1-4.
        field: u8,
        /// The card.
        card: CardId,
    },
    /// Step 4b: the seat passes its action.
    Passed {
        /// The seat.
        seat: Seat,
    },
    /// A card bought from the influence market; every seat and spectator saw it there.
    Bought {
        /// The seat.
        seat: Seat,
        /// Field 1-4.
        field: u8,
        /// The card.
        card: CardId,
    },
    /// RECRUITMENT: an artist hired from the artist market.
    Recruited {
        /// The seat.
        seat: Seat,
        /// The artist.
        artist: ArtistId,
        /// Market field 1-4.
        market_field: u8,
        /// Side B up.
        side_b: bool,
        /// Band board fields.
        fields: Vec<u8>,
    },
    /// The car moved (TOURNEE or PILOT).
    CarMoved {
        /// The seat.
        seat: Seat,
        /// The city.
        city: CityId,
    },
    /// A concert played: the token leaves the map.
    Concert {
        /// The seat.
        seat: Seat,
        /// The token.
        token: TokenId,
        /// Its city.
        city: CityId,
    },
    /// A concert token placed on an artist's experience field.
    TokenOnArtist {
        /// The seat.
        seat: Seat,
        /// The token.
        token: TokenId,
        /// The artist.
        artist: ArtistId,
    },
    /// A concert token goes to the used pool (white, or not placed).
    TokenDiscarded {
        /// The seat.
        seat: Seat,
        /// The token.
        token: TokenId,
    },
    /// RECORDING starts in a studio: the seat's blank song there is used.
    StudioUsed {
        /// The seat.
        seat: Seat,
        /// The studio's city.
        studio: CityId,
    },
    /// A song is recorded onto the band board (its fields are told only to the owner).
    SongRecorded {
        /// The owner.
        seat: Seat,
        /// The song number.
        song: SongId,
    },
    /// A recorded song's fields, told to its owner.
    Recorded {
        /// The owner.
        seat: Seat,
        /// The song number.
        song: SongId,
        /// Its fields.
        content: SongContent,
    },
    /// PROMOTION: a song goes face down onto a CHARTS field.
    Promoted {
        /// The owner.
        seat: Seat,
        /// The song.
        song: SongId,
        /// Field 1-10.
        field: u8,
    },
    /// A hostile activity is declared; the target may defend.
    Attacked {
        /// The attacker.
        attacker: Seat,
        /// The target.
        target: Seat,
        /// The card used.
        card: CardId,
        /// What it does.
        attack: Hostile,
    },
    /// The target answers an attack.
    Defence {
        /// The target.
        target: Seat,
        /// The attacker.
        attacker: Seat,
        /// The defending card, or `None` when the target does not defend.
        card: Option<CardId>,
    },
    /// A&R: the two time markers swap.
    TimeSwapped {
        /// The attacker.
        attacker: Seat,
        /// The target.
        target: Seat,
    },
    /// SPONSOR: the target's hand is shown to the attacker (the cards only to those two).
    HandShown {
        /// The attacker.
        attacker: Seat,
        /// The target.
        target: Seat,
        /// The cards, for the two seats only.
        cards: Option<Vec<CardId>>,
    },
    /// SPONSOR: one card exchanged (the cards only to the two seats).
    Swapped {
        /// The attacker.
        attacker: Seat,
        /// The target.
        target: Seat,
        /// Given by the attacker, for the two seats only.
        give: Option<CardId>,
        /// Taken from the target, for the two seats only.
        take: Option<CardId>,
    },
    /// GROUPIE: two artists change bands.
    ArtistsExchanged {
        /// The attacker.
        attacker: Seat,
        /// The target.
        target: Seat,
        /// Taken from the target.
        take: ArtistId,
        /// Given to the target.
        give: ArtistId,
    },
    /// DISMISSAL: an artist is fired; its tokens go to the used pool.
    Dismissed {
        /// The seat.
        seat: Seat,
        /// The artist.
        artist: ArtistId,
    },
    /// INTEGRATION CONTROL: an artist more independent than the satisfaction leaves.
    ArtistLeft {
        /// The seat.
        seat: Seat,
        /// The artist.
        artist: ArtistId,
    },
    /// STYLE CHANGE: an artist is turned over; its tokens but F go to the used pool.
    StyleChanged {
        /// The seat.
        seat: Seat,
        /// The artist.
        artist: ArtistId,
        /// Side B up now.
        side_b: bool,
        /// The tokens discarded.
        discarded: Vec<TokenId>,
    },
    /// REGROUPMENT: an artist moves on the band board.
    Regrouped {
        /// The seat.
        seat: Seat,
        /// The artist.
        artist: ArtistId,
        /// Its fields now.
        fields: Vec<u8>,
    },
    /// The event rondel marker moved.
    RondelMoved {
        /// The field it stands on.
        field: String,
        /// Why.
        cause: RondelCause,
    },
    /// TREND EXPERT stands between the dice.
    TrendExpertPlaced {
        /// The placer.
        seat: Seat,
        /// The card.
        card: CardId,
    },
    /// TREND EXPERT leaves the dice: to its placer's influence field, or to the discard pile
    /// when the placer is bankrupt.
    TrendExpertReturned {
        /// The placer.
        seat: Seat,
        /// The card.
        card: CardId,
        /// Discarded (bankrupt placer).
        discarded: bool,
    },
    /// A seat submitted its sealed bid (public) or, to the bidder, its amount.
    BidIn {
        /// The seat.
        seat: Seat,
        /// The amount, told only to the bidder.
        amount: Option<u32>,
    },
    /// All bids revealed and paid.
    BidsRevealed {
        /// Each bidder's bid.
        bids: Vec<RevealedBid>,
    },
    /// The top bid is tied: these seats bid again.
    BidTied {
        /// The tied seats.
        seats: Vec<Seat>,
    },
    /// A seat answered the step 9 poll (public) or, to that seat, its answer.
    PollAnswered {
        /// The seat.
        seat: Seat,
        /// Gives up, told only to the seat until every answer is in.
        gives_up: Option<bool>,
    },
    /// Every poll answer, revealed.
    PollRevealed {
        /// Each polled seat's answer.
        answers: Vec<PollAnswer>,
    },
    /// The turn sequence stays: everyone gave up, or all bids were 0.
    SequenceKept,
    /// The turn sequence, first to last.
    Sequence {
        /// The first seat.
        first: Seat,
        /// Turn order.
        order: Vec<Seat>,
    },
    /// No influence card is left to draw: CLEARING runs at once (S32).
    EmergencyClearing,
    /// QUARTER END starts.
    QuarterEnd {
        /// Seats whose studio blanks are restocked (RULINGS 3.6, option `quarter_end`).
        restocked: Vec<Seat>,
    },
    /// Songs on the CHARTS turned face up.
    Disclosed {
        /// Owner, number and fields of each.
        songs: Vec<DisclosedSong>,
    },
    /// CHARTS b: every song's score, highest first.
    ChartScores {
        /// The songs.
        songs: Vec<ChartScore>,
    },
    /// CHARTS: a song identical to another of its owner's leaves the game.
    IdenticalSong {
        /// The owner.
        seat: Seat,
        /// The song.
        song: SongId,
    },
    /// S36: a SPONSOR lap starts for tied songs of several owners.
    SponsorLap {
        /// Owners taking part, in turn order.
        seats: Vec<Seat>,
        /// The tied songs.
        songs: Vec<SongId>,
    },
    /// S36: a SPONSOR card discarded in the lap.
    SponsorCard {
        /// The seat.
        seat: Seat,
        /// The card.
        card: CardId,
        /// Its POWER.
        power: u8,
        /// The seat's sum in this lap.
        sum: u32,
    },
    /// S36: a seat is done in the lap.
    SponsorDone {
        /// The seat.
        seat: Seat,
        /// Its sum.
        sum: u32,
    },
    /// CHARTS: songs placed on a field.
    ChartPlaced {
        /// Field 1-10.
        field: u8,
        /// The songs (several when tied).
        songs: Vec<SongId>,
        /// How the field was decided.
        tie_break: TieBreak,
    },
    /// CHARTS: the ranking is complete; songs below field 5 leave the game.
    ChartsDone {
        /// Songs leaving.
        leaving: Vec<SongId>,
    },
    /// The game ends.
    GameEnds {
        /// Why.
        ending: Ending,
    },
    /// The game is over.
    GameOver {
        /// The winners.
        winners: Vec<Seat>,
        /// Every seat's final score.
        scores: Vec<FinalScore>,
    },
}

/// Which event announces which field of the view: every change is a typed event.
pub(super) const ANNOUNCEMENTS: Announcements<'static> = Announcements {
    table: &[
        ("starting_band", &["players.band", "players.cash"]),
        (
            "reshuffled",
            &[
                "influence_pile",
                "influence_discard",
                "influence_discard_top",
                "artist_pile",
                "artist_discard",
                "bag",
                "used_tokens",
            ],
        ),
        ("drew", &["players.hand_count", "influence_pile"]),
        (
            "market_refilled",
            &[
                "influence_market",
                "artist_market",
                "concert_market",
                "influence_pile",
                "artist_pile",
                "bag",
            ],
        ),
        (
            "market_discard",
            &[
                "influence_market",
                "artist_market",
                "influence_discard",
                "influence_discard_top",
                "artist_discard",
            ],
        ),
        ("die_shows", &["dice"]),
        ("token_to_map", &["map_tokens", "concert_market", "bag"]),
        ("token_off_map", &["map_tokens", "used_tokens"]),
        ("paid", &["players.cash"]),
        ("earned", &["players.cash"]),
        ("advertised", &["players.cash", "players.popularity"]),
        ("satisfaction", &["players.satisfaction"]),
        ("popularity", &["players.popularity"]),
        ("scandal", &["players.scandal"]),
        ("shown", &["revealed", "influence_pile"]),
        (
            "shown_discarded",
            &["revealed", "influence_discard", "influence_discard_top"],
        ),
        (
            "discarded",
            &["players.hand_count", "influence_discard", "influence_discard_top"],
        ),
        (
            "field_discarded",
            &[
                "players.influence_field",
                "influence_discard",
                "influence_discard_top",
            ],
        ),
        (
            "bankrupt",
            &[
                "players.cash",
                "players.time",
                "players.last_in_turn",
                "players.hand_count",
                "players.influence_field",
                "players.band",
                "players.songs",
                "players.blanks",
                "players.bankrupt",
                "influence_discard",
                "influence_discard_top",
                "artist_discard",
                "used_tokens",
            ],
        ),
        ("round_begins", &["players.blanks"]),
        (
            "time_lapse",
            &["players.time", "players.hand_count", "players.influence_field"],
        ),
        (
            "quarter_end_reached",
            &["quarter_ends", "quarter_end_pending", "last_turn"],
        ),
        (
            "activated_from_market",
            &["influence_market", "players.influence_field"],
        ),
        ("bought", &["influence_market", "players.hand_count"]),
        ("recruited", &["artist_market", "players.band"]),
        ("car_moved", &["players.car"]),
        ("concert", &["map_tokens"]),
        ("token_on_artist", &["players.band"]),
        ("token_discarded", &["used_tokens"]),
        ("studio_used", &["players.blanks"]),
        ("song_recorded", &["players.songs"]),
        ("promoted", &["players.songs", "chart"]),
        ("defence", &["players.hand_count", "players.influence_field"]),
        ("time_swapped", &["players.time"]),
        ("artists_exchanged", &["players.band"]),
        ("dismissed", &["players.band", "artist_discard", "used_tokens"]),
        ("artist_left", &["players.band", "artist_discard", "used_tokens"]),
        ("style_changed", &["players.band", "used_tokens"]),
        ("regrouped", &["players.band"]),
        ("rondel_moved", &["rondel"]),
        (
            "trend_expert_placed",
            &["trend_expert", "players.influence_field"],
        ),
        (
            "trend_expert_returned",
            &[
                "trend_expert",
                "players.influence_field",
                "influence_discard",
                "influence_discard_top",
            ],
        ),
        ("bids_revealed", &["players.cash"]),
        ("sequence", &["order", "players.last_in_turn"]),
        ("quarter_end", &["quarter_end_pending", "players.blanks"]),
        ("disclosed", &["chart"]),
        ("chart_scores", &["chart"]),
        ("chart_placed", &["chart"]),
        ("sponsor_card", &["players.hand_count", "players.influence_field"]),
        ("charts_done", &["chart"]),
        ("game_over", &["players.songs", "chart"]),
    ],
    flow: &[
        "me",
        "phase",
        "to_act",
        "active",
        "my_bid",
        "power_left",
        "pending",
    ],
    seat_keys: &[
        "seat",
        "seats",
        "restocked",
        "attacker",
        "target",
        "first",
        "order",
        "bids",
        "winners",
    ],
};
