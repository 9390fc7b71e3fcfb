//! What a seat hears back: every change as a typed event.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::components::{ArtistId, ScoutId, SongId};
use crate::{Announcements, Seat};

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schema(as = ShrewdProducerEvent)]
pub enum GameEvent {
    /// G16: the starting lead was drawn at random from the seed (sealed).
    LeadDrawn {
        /// The seat drawn.
        seat: Seat,
    },
    /// The starting lead.
    StartingLead {
        /// The lead seat.
        seat: Seat,
    },
    /// 3 players: Scout Money removed before the game.
    ScoutMoneyRemoved {
        /// The six cards.
        cards: Vec<ScoutId>,
    },
    /// The Scout Money draw pile was shuffled (sealed): the order, top card first.
    ScoutMoneyShuffled {
        /// The pile, top card first.
        order: Vec<ScoutId>,
    },
    /// The artist draw pile was shuffled (sealed): the order, top card first.
    ArtistsShuffled {
        /// The pile, top card first.
        order: Vec<ArtistId>,
    },
    /// The Lv.1 song cards were shuffled (sealed): the order, top card first.
    SongsShuffled {
        /// The pile, top card first.
        order: Vec<SongId>,
    },
    /// A Lv.1 song card dealt face up (G21).
    SongDealt {
        /// The seat.
        seat: Seat,
        /// The song.
        song: SongId,
    },
    /// 3 players: the leftover Lv.1 song is removed face down (G13).
    SongRemoved,
    /// Raise Money dealt.
    RaiseMoneyDealt {
        /// Dollars each seat received.
        each: u32,
        /// Dollars left in the supply (discard pile).
        supply: u32,
    },
    /// A seat drew Scout Money face down.
    ScoutDrawn {
        /// The seat.
        seat: Seat,
        /// How many cards.
        count: usize,
    },
    /// The cards a seat drew (only that seat hears it).
    ScoutCardsDrawn {
        /// The seat.
        seat: Seat,
        /// The cards.
        cards: Vec<ScoutId>,
        /// True for a draft pair to choose from, false for cards straight into the hand.
        to_choose: bool,
    },
    /// A seat made its keep-one choice.
    Kept {
        /// The seat.
        seat: Seat,
    },
    /// The card a seat kept (only that seat hears it); the other card of its pair is passed
    /// left.
    KeptCard {
        /// The seat.
        seat: Seat,
        /// Kept.
        kept: ScoutId,
    },
    /// Every seat has chosen: the passed cards go face down to the left.
    CardsPassedLeft {
        /// The seats that received a card from their right.
        seats: Vec<Seat>,
    },
    /// The card a seat received from its right (only that seat hears it).
    CardReceived {
        /// The seat.
        seat: Seat,
        /// The seat that passed it.
        from: Seat,
        /// The card.
        card: ScoutId,
    },
    /// A round starts: the lead reveals two artists.
    RoundStarted {
        /// 1 to 12.
        round: u8,
        /// The lead.
        lead: Seat,
        /// The two artists available this round.
        artists: Vec<ArtistId>,
    },
    /// A seat took a debt.
    DebtTaken {
        /// The seat.
        seat: Seat,
        /// The seat's debt marks now.
        debts: u8,
        /// Dollars left in the supply.
        supply: u32,
    },
    /// A Scout Money card played face up.
    ScoutPlayed {
        /// The seat.
        seat: Seat,
        /// The card.
        card: ScoutId,
        /// Whether the seat proceeds to the Raise Phase.
        raise_phase: bool,
    },
    /// A seat paid $200 of Raise Money instead of a lead-suit card and proceeds.
    Substituted {
        /// The seat.
        seat: Seat,
    },
    /// The Raise Phase starts with this order (G5).
    RaiseOrder {
        /// Participants, first to act first.
        order: Vec<Seat>,
    },
    /// A seat raised.
    Raised {
        /// The seat.
        seat: Seat,
        /// Dollars added.
        amount: u32,
        /// The seat's total bid now.
        total: u32,
    },
    /// A seat passed for the rest of the round.
    Passed {
        /// The seat.
        seat: Seat,
    },
    /// The Raise Phase ended: places by total bid.
    Ranked {
        /// 1st place, then 2nd place (one seat with a single participant).
        places: Vec<Seat>,
        /// Their total bids, in dollars.
        totals: Vec<u32>,
    },
    /// A seat signed an artist.
    ArtistSigned {
        /// The seat.
        seat: Seat,
        /// The artist.
        artist: ArtistId,
        /// 1 or 2.
        place: u8,
    },
    /// The artist nobody signed goes to the artist discard (G10).
    ArtistDiscarded {
        /// The artist.
        artist: ArtistId,
    },
    /// Money processing for a Raise-Phase participant.
    MoneyProcessed {
        /// The seat.
        seat: Seat,
        /// Raise-Phase dollars sent to the discard pile.
        to_supply: u32,
        /// Raise-Phase dollars returned to the hand (G9).
        returned: u32,
    },
    /// Money processing: every Scout play leaves the table, the played Scout Money (each card
    /// named when it was played) to its discard pile, and this round's bids, raises and passes
    /// are cleared.
    BidsCleared {
        /// Every seat, its bid cleared.
        seats: Vec<Seat>,
    },
    /// A seat took the next-level song.
    SongTaken {
        /// The seat.
        seat: Seat,
        /// The song.
        song: SongId,
    },
    /// A seat declined the next-level song for now.
    SongDeclined {
        /// The seat.
        seat: Seat,
    },
    /// The lead for the next round.
    NextLead {
        /// The seat.
        seat: Seat,
    },
    /// After round 6: all Scout Money is gathered for the redraft (G14, G28).
    ScoutMoneyGathered,
    /// After round 12: the game is over.
    GameOver {
        /// The winning seats.
        winners: Vec<Seat>,
    },
}

/// Which event announces which field of the view: every change is a typed event.
pub(super) const ANNOUNCEMENTS: Announcements<'static> = Announcements {
    table: &[
        ("starting_lead", &["lead"]),
        ("scout_money_removed", &["scout_removed", "scout_deck"]),
        ("song_dealt", &["players.songs"]),
        ("song_removed", &["songs_removed"]),
        ("raise_money_dealt", &["players.raise_money", "supply"]),
        (
            "scout_drawn",
            &["players.scout_cards", "players.choosing", "scout_deck"],
        ),
        ("kept", &["players.choosing", "players.scout_cards"]),
        ("cards_passed_left", &["players.scout_cards"]),
        (
            "bids_cleared",
            &[
                "players.scout_play",
                "players.raise_phase",
                "players.raised",
                "players.total_bid",
                "players.passed",
                "lead_suit",
                "scout_discard",
            ],
        ),
        (
            "round_started",
            &["round", "lead", "lead_suit", "artists_revealed", "artist_deck"],
        ),
        ("debt_taken", &["players.debts", "players.raise_money", "supply"]),
        (
            "scout_played",
            &[
                "players.scout_play",
                "players.scout_cards",
                "players.raise_phase",
                "players.total_bid",
                "lead_suit",
            ],
        ),
        (
            "substituted",
            &[
                "players.scout_play",
                "players.raise_money",
                "players.raise_phase",
                "players.total_bid",
                "supply",
            ],
        ),
        ("raise_order", &["raise_order", "players.total_bid"]),
        (
            "raised",
            &["players.raised", "players.raise_money", "players.total_bid"],
        ),
        ("passed", &["players.passed"]),
        ("ranked", &["places"]),
        (
            "artist_signed",
            &[
                "players.artists",
                "players.songs",
                "artists_revealed",
                "song_queue",
            ],
        ),
        ("artist_discarded", &["artist_discard", "artists_revealed"]),
        ("money_processed", &["players.raise_money", "supply"]),
        ("song_taken", &["players.songs", "open_songs", "song_queue"]),
        ("song_declined", &["song_queue"]),
        ("next_lead", &["lead", "places", "raise_order", "song_queue"]),
        (
            "scout_money_gathered",
            &["players.scout_cards", "scout_deck", "scout_discard"],
        ),
    ],
    flow: &["viewer", "phase", "to_act", "hand"],
    seat_keys: &["seat", "seats", "lead", "order", "places"],
};
