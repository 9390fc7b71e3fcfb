//! What a viewer sees. R14: everything is public except the order of the play deck.

use serde::Serialize;
use utoipa::ToSchema;

use super::actions::Options;
use super::components::Tokens;
use super::components::{BOARD, CardKind, CharacterId, Colour, LEADS};
use super::events::{End, PlayCard};
use super::state::{RockTheWorld, Stage};
use crate::{Replay, Seat, Viewer};

/// A character in a band.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = RockTheWorldBandMember)]
pub struct BandMember {
    /// The character.
    pub character: CharacterId,
    /// Its name.
    pub name: &'static str,
    /// Its colour.
    pub colour: Colour,
    /// Its value number.
    pub value: u8,
    /// The space it returns to.
    pub home_space: u8,
    /// Same colour as the holder's Lead: not claimable by opponents (rulebook).
    pub family: bool,
    /// Held by the rocker, star side up.
    pub star_side: bool,
}

/// One player as everyone sees them.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = RockTheWorldPlayerView)]
pub struct PlayerView {
    /// The seat.
    pub seat: Seat,
    /// The Lead Singer: its id in the catalogue's `leads` (the Lead's colour), which gives its
    /// printed name and style.
    pub lead: Colour,
    /// The Lead's colour.
    pub colour: Colour,
    /// The space of the cutout (1 to 20); `null` once R32 has removed it.
    pub space: Option<u8>,
    /// Cash in whole dollars (R37).
    pub cash: u64,
    /// Travel tokens held.
    pub tokens: Tokens,
    /// Characters held, ascending.
    pub band: Vec<BandMember>,
    /// R25: the Lead is turned over (all four family characters held).
    pub lead_flipped: bool,
    /// R25: the value of the band.
    pub band_value: u64,
    /// R8: holds the star chip.
    pub rocker: bool,
    /// R32: eliminated.
    pub eliminated: bool,
    /// Turns begun.
    pub turns: u32,
}

/// One space of the board.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = RockTheWorldSpaceView)]
pub struct SpaceView {
    /// 1 to 20.
    pub space: u8,
    /// The city's printed name, as the catalogue's `spaces` entry for `space` (the space's id)
    /// names it.
    pub city_name: &'static str,
    /// A corner city.
    pub corner: bool,
    /// Market demand icons: red, blue, yellow, green.
    pub icons: [u8; 4],
    /// The character standing here now: this city's own, while nobody holds it.
    pub character: Option<CharacterId>,
    /// R26: open for gigs.
    pub open: bool,
    /// Cutouts on this space.
    pub cutouts: Vec<Seat>,
}

/// R29: the discard pile, counted by kind (cards of one kind are alike except the Fail
/// cards, which name a character).
#[derive(Clone, Debug, Default, Serialize, ToSchema)]
#[schema(as = RockTheWorldDiscard)]
pub struct DiscardView {
    /// Super Success cards discarded.
    pub super_success: u8,
    /// Success cards discarded.
    pub success: u8,
    /// The characters named by the Fail cards discarded, in the order drawn.
    pub fail: Vec<CharacterId>,
}

/// A viewer's view of the game.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = RockTheWorldView)]
pub struct View {
    /// The viewer's seat; `null` for a spectator.
    pub you: Option<Seat>,
    /// The options the game was created with.
    pub options: Options,
    /// The phase, as the phase machine names it.
    pub phase: &'static str,
    /// The seat whose turn it is; `null` once the game is over.
    pub active: Option<Seat>,
    /// Where the turn stands.
    pub step: Stage,
    /// The last die rolled.
    pub last_roll: Option<u8>,
    /// R8: the seat attempting to Rock the World.
    pub rocker: Option<Seat>,
    /// The players, in seat order.
    pub players: Vec<PlayerView>,
    /// The 20 spaces, clockwise from New York.
    pub board: Vec<SpaceView>,
    /// Tokens for sale.
    pub supply: Tokens,
    /// R20: tokens spent in phase one, which the next rocker takes.
    pub spent_pool: Tokens,
    /// Cards left in the play deck (their order is hidden).
    pub deck_count: usize,
    /// R29: the public discard pile, by kind.
    pub discard: DiscardView,
    /// The card drawn last, on top of the discard pile.
    pub last_card: Option<PlayCard>,
    /// Why the game ended, once it has.
    pub end: Option<End>,
}

impl RockTheWorld {
    pub(super) fn view_for(&self, viewer: Viewer) -> View {
        let players = self
            .players
            .seats()
            .map(|(seat, p)| PlayerView {
                seat,
                lead: LEADS[p.colour.index()].colour,
                colour: p.colour,
                space: self.cutout_on_board(seat).then_some(p.space),
                cash: p.cash,
                tokens: p.tokens,
                band: self
                    .band(seat)
                    .map(|c| BandMember {
                        character: c,
                        name: c.card().name,
                        colour: c.card().colour,
                        value: c.card().value,
                        home_space: c.card().home_space,
                        family: !self.is_extra(seat, c),
                        star_side: self.rocker == Some(seat),
                    })
                    .collect(),
                lead_flipped: self.lead_flipped(seat),
                band_value: self.band_value(seat),
                rocker: self.rocker == Some(seat),
                eliminated: p.out,
                turns: p.turns,
            })
            .collect();
        let board = BOARD
            .iter()
            .map(|c| SpaceView {
                space: c.space,
                city_name: c.name,
                corner: c.corner,
                icons: c.icons,
                character: self.board_character(c.space),
                open: self.is_open(c.space),
                cutouts: self.cutouts_at(c.space),
            })
            .collect();
        let over = self.end().is_some();
        View {
            you: viewer.seat().filter(|s| s.index() < self.seats()),
            options: self.options.clone(),
            phase: self.phase_name(),
            active: (!over).then_some(self.active),
            step: self.step,
            last_roll: self.last_roll,
            rocker: self.rocker,
            players,
            board,
            supply: self.supply,
            spent_pool: self.spent,
            deck_count: self.deck.len(),
            discard: self.discard_view(),
            last_card: self.discard.last().map(|&c| PlayCard {
                id: c,
                kind: c.kind(),
            }),
            end: self.end(),
        }
    }

    fn discard_view(&self) -> DiscardView {
        let mut out = DiscardView::default();
        for &card in &self.discard {
            match card.kind() {
                CardKind::SuperSuccess => out.super_success += 1,
                CardKind::Success => out.success += 1,
                CardKind::Fail(c) => out.fail.push(c),
            }
        }
        out
    }
}

/// Which fields of this view a client keeps by applying the public events in order: "events
/// describe changes in the order they happened".
pub(super) const REPLAY: Replay = Replay {
    fields: &["deck_count"],
    apply: replay,
};

/// R29 as a client reads it: a reshuffle forms a deck of `cards`, and each card drawn leaves it.
fn replay(view: &mut serde_json::Value, event: &serde_json::Value) -> Result<(), String> {
    match event.get("type").and_then(serde_json::Value::as_str) {
        Some("deck_reshuffled") => {
            view["deck_count"] = event.get("cards").cloned().unwrap_or_default();
            Ok(())
        }
        Some("card_drawn") => Replay::count(view, "deck_count", -1),
        _ => Ok(()),
    }
}
