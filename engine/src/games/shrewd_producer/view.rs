//! What one viewer sees (G15): Scout hands and face-down decks hidden, everything else public.

use serde::Serialize;
use utoipa::ToSchema;

use super::components::{ArtistId, BILL, Part, ScoutId, SongId, Suit};
use super::scoring::best_assignment;
use super::state::{ScoutBid, ShrewdProducer};
use crate::{Replay, Seat, Viewer};

/// An artist card, face up.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShrewdProducerArtistCard)]
pub struct ArtistView {
    /// Card id.
    pub id: ArtistId,
    /// Its parts (two for a multi-role artist).
    pub parts: Vec<Part>,
    /// Artist Pt.
    pub pt: u8,
}

/// A song card, face up.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShrewdProducerSongCard)]
pub struct SongView {
    /// Card id.
    pub id: SongId,
    /// Lv. 1, 2 or 3.
    pub level: u8,
    /// The song's name.
    #[schema(value_type = String)]
    pub name: &'static str,
    /// The artist parts it needs.
    pub requires: Vec<Part>,
    /// Song Pt.
    pub song_pt: u8,
}

/// A Scout Money card, face up.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShrewdProducerScoutCard)]
pub struct ScoutCardView {
    /// Card id.
    pub id: ScoutId,
    /// Red or Yellow.
    pub suit: Suit,
    /// Dollars.
    pub value: u16,
}

/// What a seat put down in this round's Scout Phase.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schema(as = ShrewdProducerScoutPlay)]
pub enum ScoutPlayView {
    /// A Scout Money card, face up.
    Card {
        /// The card.
        card: ScoutCardView,
    },
    /// $200 of Raise Money paid instead of a lead-suit card.
    Substitute,
}

/// A song a seat holds, and whether its artists complete it now.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShrewdProducerHeldSong)]
pub struct HeldSongView {
    /// The song.
    pub song: SongView,
    /// All required parts are gathered.
    pub completed: bool,
    /// With the best assignment (G4): Song Pt plus the participating artists' Pt.
    pub points: Option<u32>,
}

/// One seat, as everyone sees it.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShrewdProducerPlayer)]
pub struct PlayerView {
    /// The seat.
    pub seat: Seat,
    /// Scout Money cards in hand (their faces are hidden).
    pub scout_cards: usize,
    /// Has a draft pair to choose from.
    pub choosing: bool,
    /// Raise Money in hand, in dollars (public, G15).
    pub raise_money: u32,
    /// Debt marks (public, G15).
    pub debts: u8,
    /// This round's Scout Phase play.
    pub scout_play: Option<ScoutPlayView>,
    /// In this round's Raise Phase.
    pub raise_phase: bool,
    /// Raise Money bid this round, in dollars.
    pub raised: u32,
    /// Total bid (Scout value + raises), for a Raise-Phase participant.
    pub total_bid: Option<u32>,
    /// Has passed this round.
    pub passed: bool,
    /// Signed artists (every signing is public, G15).
    pub artists: Vec<ArtistView>,
    /// Song cards, lowest level first; the last is the current one.
    pub songs: Vec<HeldSongView>,
}

/// The viewer's own hidden cards.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShrewdProducerHand)]
pub struct HandView {
    /// Scout Money in hand.
    pub cards: Vec<ScoutCardView>,
    /// The draft pair to choose from.
    pub choosing_from: Vec<ScoutCardView>,
    /// The card passed left, until every seat has chosen.
    pub passing: Option<ScoutCardView>,
}

/// What one viewer may see of the game.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShrewdProducerView)]
pub struct View {
    /// The viewer's seat; `null` for a spectator.
    pub viewer: Option<Seat>,
    /// The phase (see the ruleset's phase machine).
    #[schema(value_type = String)]
    pub phase: &'static str,
    /// 1 to 12; 0 during the setup draft.
    pub round: u8,
    /// This round's lead.
    pub lead: Seat,
    /// The suit the lead's card set this round.
    pub lead_suit: Option<Suit>,
    /// Seats that may act now.
    pub to_act: Vec<Seat>,
    /// The viewer's own Scout Money (absent for a spectator).
    pub hand: Option<HandView>,
    /// Every seat, in seat order.
    pub players: Vec<PlayerView>,
    /// This round's two artists.
    pub artists_revealed: Vec<ArtistView>,
    /// Artist cards left face down.
    pub artist_deck: usize,
    /// Artists nobody signed (G10).
    pub artist_discard: Vec<ArtistId>,
    /// The open Lv.2 and Lv.3 song piles.
    pub open_songs: Vec<SongView>,
    /// Lv.1 songs removed face down (3 players, G13).
    pub songs_removed: usize,
    /// Scout Money left face down.
    pub scout_deck: usize,
    /// Played Scout Money (an id names its suit and value: `R500a` is Red $500).
    pub scout_discard: Vec<ScoutId>,
    /// Scout Money taken out of a 3-player game.
    pub scout_removed: Vec<ScoutId>,
    /// Raise Money in the supply (= discard pile), in dollars.
    pub supply: u32,
    /// This round's Raise-Phase order (G5).
    pub raise_order: Vec<Seat>,
    /// 1st and 2nd place once the Raise Phase has ended.
    pub places: Vec<Seat>,
    /// Signers still to pick a song, in order (G26).
    pub song_queue: Vec<Seat>,
}

pub(crate) fn artist(a: ArtistId) -> ArtistView {
    let c = a.card();
    ArtistView {
        id: a,
        parts: c.parts.to_vec(),
        pt: c.pt,
    }
}

pub(crate) fn song(s: SongId) -> SongView {
    let c = s.card();
    SongView {
        id: s,
        level: c.level,
        name: c.name,
        requires: c.requires.to_vec(),
        song_pt: c.song_pt,
    }
}

pub(crate) fn scout(s: ScoutId) -> ScoutCardView {
    let c = s.card();
    ScoutCardView {
        id: s,
        suit: c.suit,
        value: c.value,
    }
}

fn dollars(bills: u8) -> u32 {
    u32::from(bills) * BILL
}

impl ShrewdProducer {
    pub(crate) fn view_for(&self, viewer: Viewer) -> View {
        let hand = viewer.seat().and_then(|s| self.players.get(s)).map(|p| HandView {
            cards: p.hand.iter().map(|&c| scout(c)).collect(),
            choosing_from: p.pair.iter().flatten().map(|&c| scout(c)).collect(),
            passing: p.passing.map(scout),
        });
        let players = self
            .players
            .seats()
            .map(|(seat, p)| PlayerView {
                seat,
                scout_cards: p.hand.len(),
                choosing: p.pair.is_some(),
                raise_money: dollars(p.bills),
                debts: p.debts,
                scout_play: p.bid.map(|b| match b {
                    ScoutBid::Card(c) => ScoutPlayView::Card { card: scout(c) },
                    ScoutBid::Substitute => ScoutPlayView::Substitute,
                }),
                raise_phase: p.participating,
                raised: dollars(p.raised),
                total_bid: p.participating.then(|| self.total_bid(seat)),
                passed: p.passed,
                artists: p.artists.iter().map(|&a| artist(a)).collect(),
                songs: p
                    .songs
                    .iter()
                    .map(|&s| {
                        let best =
                            best_assignment(s.card().requires, &p.artists, self.options.dual_fills_both);
                        HeldSongView {
                            song: song(s),
                            completed: best.is_some(),
                            points: best.map(|a| a.artist_pt + u32::from(s.card().song_pt)),
                        }
                    })
                    .collect(),
            })
            .collect();
        View {
            viewer: viewer.seat(),
            phase: self.phase_name(),
            round: self.round,
            lead: self.lead,
            lead_suit: self.lead_suit(),
            to_act: self.seats_to_act(),
            hand,
            players,
            artists_revealed: self.revealed.iter().map(|&a| artist(a)).collect(),
            artist_deck: self.artist_deck.len(),
            artist_discard: self.artist_discard.clone(),
            open_songs: self.open_songs.iter().map(|&s| song(s)).collect(),
            songs_removed: self.removed_songs.len(),
            scout_deck: self.scout_deck.len(),
            scout_discard: self.scout_discard.clone(),
            scout_removed: self.scout_removed.clone(),
            supply: dollars(self.supply),
            raise_order: self.raise_order.clone(),
            places: self.ranking.clone(),
            song_queue: self.song_queue.clone(),
        }
    }
}

/// Which fields of this view a client keeps by applying the public events in order: "events
/// describe changes in the order they happened".
pub(super) const REPLAY: Replay = Replay {
    fields: &["scout_deck", "artist_deck"],
    apply: replay,
};

/// The draw piles as a client reads them: each draw and each round's two artists leave them, and
/// the redraft (G14) gathers every Scout Money card of the game into the Scout Money pile.
fn replay(view: &mut serde_json::Value, event: &serde_json::Value) -> Result<(), String> {
    let len = |key: &str| {
        event
            .get(key)
            .and_then(serde_json::Value::as_array)
            .map_or(0, Vec::len)
    };
    match event.get("type").and_then(serde_json::Value::as_str) {
        Some("scout_drawn") => {
            let count = event
                .get("count")
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(0);
            Replay::count(view, "scout_deck", -(count as i64))
        }
        Some("round_started") => Replay::count(view, "artist_deck", -(len("artists") as i64)),
        Some("scout_money_gathered") => {
            let removed = view
                .get("scout_removed")
                .and_then(serde_json::Value::as_array)
                .map_or(0, Vec::len);
            view["scout_deck"] = (ScoutId::all().count() - removed).into();
            Ok(())
        }
        _ => Ok(()),
    }
}
