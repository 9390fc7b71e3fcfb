//! What a game reports: every change as a typed event.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::components::{CardKind, CharacterId, PlayCardId};
use super::components::{Token, Tokens};
use crate::{Announcements, Seat};

/// What a die roll was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RockTheWorldRollPurpose)]
pub enum RollPurpose {
    /// R16: the move at the start of a turn.
    Move,
    /// R5: a claim roll.
    Claim,
}

/// How a cutout moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RockTheWorldMoveBy)]
pub enum MoveBy {
    /// The die, clockwise.
    Die,
    /// A bus token.
    Bus,
    /// A train token.
    Train,
    /// A plane token.
    Plane,
}

/// Where a spent token went (R20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RockTheWorldTokenDestination)]
pub enum TokenDestination {
    /// Phase one: out of play, into the spent pool the next rocker takes.
    SpentPool,
    /// Final phase: recyclable, straight back to the supply.
    Supply,
}

/// Who paid a gig.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "payer", content = "seat", rename_all = "snake_case")]
#[schema(as = RockTheWorldPayer)]
pub enum Payer {
    /// The bank (unlimited).
    Bank,
    /// An opponent on the space.
    Seat(Seat),
}

/// A play card as drawn: its printed id and kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = RockTheWorldPlayCard)]
pub struct PlayCard {
    /// The printed id (`super-1`, `success-07`, `fail-C13`).
    pub id: PlayCardId,
    /// What the card does.
    pub kind: CardKind,
}

/// Something dealt from an eliminated rocker (R34).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "item", content = "id", rename_all = "snake_case")]
#[schema(as = RockTheWorldDealtItem)]
pub enum DealtItem {
    /// A character.
    Character(CharacterId),
    /// A travel token.
    Token(Token),
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "reason", rename_all = "snake_case")]
#[schema(as = RockTheWorldEnd)]
pub enum End {
    /// R10/R35: the rocker claimed the sixteenth character.
    RockedTheWorld {
        /// The rocker.
        rocker: Seat,
    },
    /// R33: friendly variant, the rocker was eliminated.
    RockerEliminated {
        /// The rocker.
        rocker: Seat,
    },
    /// R32/R38: only one player remains.
    LastStanding {
        /// The remaining player.
        seat: Seat,
    },
    /// R36: the turn cap was reached.
    TurnCap {
        /// Turns each remaining seat has had.
        turns: u32,
    },
}

/// Something that happened. Die rolls, the first-seat draw and shuffles are also reported
/// sealed, for the audit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schema(as = RockTheWorldEvent)]
pub enum GameEvent {
    /// R13: the first player.
    FirstSeat {
        /// The seat that plays first.
        seat: Seat,
        /// True when drawn at random, false when fixed by the `first_seat` option.
        drawn: bool,
    },
    /// R13/R29: the play deck was shuffled; the order (top first) is sealed until the end.
    DeckShuffled {
        /// Card ids, top first.
        order: Vec<PlayCardId>,
    },
    /// R29: a draw found the deck empty, so all 56 cards were shuffled into a new deck.
    DeckReshuffled {
        /// Cards in the new deck.
        cards: usize,
    },
    /// R14: a die roll (public at once, and sealed for the audit).
    DieRolled {
        /// Who rolled.
        seat: Seat,
        /// What for.
        purpose: RollPurpose,
        /// The die (1 to 6).
        value: u8,
    },
    /// A cutout moved.
    Moved {
        /// Whose.
        seat: Seat,
        /// From space.
        from: u8,
        /// To space.
        to: u8,
        /// By die or token.
        by: MoveBy,
    },
    /// R20: a token was spent.
    TokenSpent {
        /// Who spent it.
        seat: Seat,
        /// The type.
        token: Token,
        /// Where it went.
        to: TokenDestination,
    },
    /// R18: a token was bought from the supply.
    TokenBought {
        /// The buyer.
        seat: Seat,
        /// The type.
        token: Token,
        /// The price paid to the bank.
        price: u64,
    },
    /// R22: a player declared Rock the World, took the star chip and the spent pool.
    Declared {
        /// The rocker.
        seat: Seat,
        /// Tokens taken from the spent pool.
        took: Tokens,
    },
    /// R24/R30: a claim was made against these characters.
    ClaimMade {
        /// The claimer.
        seat: Seat,
        /// The characters named.
        take: Vec<CharacterId>,
    },
    /// A character joined a band.
    CharacterWon {
        /// The new holder.
        seat: Seat,
        /// The character.
        character: CharacterId,
        /// The seat it was taken from; `null` for the board.
        from: Option<Seat>,
    },
    /// A claim roll fell short of this character's value.
    CharacterMissed {
        /// The claimer.
        seat: Seat,
        /// The character.
        character: CharacterId,
    },
    /// R25/R43: a Lead turned over (`flipped`) or back.
    LeadTurned {
        /// Whose Lead.
        seat: Seat,
        /// True when the full-family side is now up.
        flipped: bool,
    },
    /// R26: a play card was drawn for a gig.
    CardDrawn {
        /// The performer.
        seat: Seat,
        /// The card.
        card: PlayCard,
        /// X: band value x own-colour icons x multiplier x $10,000.
        earnings: u64,
    },
    /// R26/R27: a payment for a gig.
    Paid {
        /// Who paid.
        from: Payer,
        /// The performer.
        to: Seat,
        /// What was paid.
        amount: u64,
        /// What was owed (X).
        owed: u64,
    },
    /// R28: a Fail card sent a character home.
    CharacterReturned {
        /// The former holder.
        seat: Seat,
        /// The character.
        character: CharacterId,
    },
    /// R27: the rocker could not pay in full and is eliminated.
    Eliminated {
        /// The rocker.
        seat: Seat,
        /// The performer he could not pay.
        by: Seat,
    },
    /// R32: the eliminated rocker's characters went home and his tokens to the supply.
    RockerCleared {
        /// The eliminated rocker.
        seat: Seat,
        /// Characters sent home.
        characters: Vec<CharacterId>,
        /// Tokens returned to the supply.
        tokens: Tokens,
    },
    /// R34: one item of the eliminated rocker dealt to a player.
    Dealt {
        /// The receiver.
        seat: Seat,
        /// The eliminated rocker it came from.
        from: Seat,
        /// What was dealt.
        item: DealtItem,
    },
    /// R32: phase one resumes; tokens spent from now on leave play.
    PhaseOneResumed,
    /// The active seat's turn began.
    TurnStarted {
        /// The seat.
        seat: Seat,
        /// Its turn number (1 for its first turn).
        turn: u32,
    },
    /// The game is over.
    GameOver {
        /// Why.
        end: End,
    },
}

/// Which event announces which field of the view: every change is a typed event.
pub(super) const ANNOUNCEMENTS: Announcements<'static> = Announcements {
    table: &[
        ("deck_reshuffled", &["deck_count", "discard", "last_card"]),
        ("die_rolled", &["last_roll"]),
        ("moved", &["players.space", "board"]),
        ("token_spent", &["players.tokens", "spent_pool", "supply"]),
        ("token_bought", &["players.tokens", "players.cash", "supply"]),
        (
            "declared",
            &[
                "rocker",
                "players.rocker",
                "players.tokens",
                "players.band",
                "spent_pool",
            ],
        ),
        ("character_won", &["players.band", "players.band_value", "board"]),
        ("lead_turned", &["players.lead_flipped", "players.band_value"]),
        ("card_drawn", &["deck_count", "discard", "last_card"]),
        ("paid", &["players.cash"]),
        (
            "character_returned",
            &["players.band", "players.band_value", "board"],
        ),
        (
            "eliminated",
            &[
                "players.eliminated",
                "players.space",
                "board",
                "rocker",
                "players.rocker",
                "players.band",
            ],
        ),
        (
            "rocker_cleared",
            &[
                "players.band",
                "players.band_value",
                "players.tokens",
                "players.rocker",
                "rocker",
                "board",
                "supply",
            ],
        ),
        (
            "dealt",
            &["players.band", "players.band_value", "players.tokens", "board"],
        ),
        ("phase_one_resumed", &["spent_pool"]),
        ("turn_started", &["players.turns"]),
        ("game_over", &["end"]),
    ],
    flow: &["you", "phase", "active", "step"],
    seat_keys: &["seat", "from", "to", "by"],
};
