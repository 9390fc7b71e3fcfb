//! What one viewer may see, and what must stay hidden from them.

use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use super::actions::SongContent;
use super::components::{
    ArtistId, BLANK_FACE, CardId, ChartField, CityId, Die, LYRICS, RONDEL, SongId, Style, TEMPI, TokenColour,
    TokenId, VOLUMES, components,
};
use super::events::{Hostile, Payment};
use super::state::{ShowBusiness, Song, Task};
use crate::{Replay, Seat, Viewer};

pub(crate) fn content(s: &Song) -> SongContent {
    let lyrics = LYRICS[s.lyrics as usize % 5];
    let tempo = TEMPI[s.tempo as usize % 5];
    let volume = VOLUMES[s.volume as usize % 5];
    SongContent {
        label: format!(
            "song {}: {:?} {lyrics:?} {tempo:?} {volume:?} {}",
            s.id, s.style, s.experience
        ),
        style: s.style,
        lyrics,
        tempo,
        volume,
        experience: s.experience,
    }
}

/// The standing TREND EXPERT.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShowBusinessTrendExpertView)]
pub struct TrendExpertView {
    /// The influence card's id.
    pub card: CardId,
    /// The seat that placed it.
    pub placer: Seat,
}

/// An artist on a band board.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShowBusinessArtistView)]
pub struct ArtistView {
    /// Card id.
    pub id: ArtistId,
    /// Name.
    pub name: String,
    /// Side B up.
    pub side_b: bool,
    /// CURRENT STYLE.
    pub style: Style,
    /// ALTERNATIVE STYLE.
    pub alternative: Style,
    /// Band board fields it occupies.
    pub fields: Vec<u8>,
    /// INDEPENDENCE.
    pub independence: u8,
    /// Number of EXPERIENCE FIELDS.
    pub experience_fields: u8,
    /// Concert tokens on them.
    pub tokens: Vec<TokenId>,
}

/// A song; its fields only for its owner until disclosed.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShowBusinessSongView)]
pub struct SongView {
    /// Song number.
    pub id: SongId,
    /// Owner.
    pub owner: Seat,
    /// The five fields, when the viewer may see them.
    pub content: Option<SongContent>,
}

/// A concert token on the map or a market.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShowBusinessTokenView)]
pub struct TokenView {
    /// Token id.
    pub id: TokenId,
    /// City letter.
    pub city: CityId,
    /// Colour.
    pub colour: TokenColour,
    /// FONS.
    pub value: u32,
}

/// An occupied field of the INFLUENCE MARKET.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShowBusinessMarketCard)]
pub struct MarketCard {
    /// Field 1-4.
    pub field: u8,
    /// The influence card on it.
    pub card: CardId,
}

/// An occupied field of the ARTIST MARKET.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShowBusinessMarketArtist)]
pub struct MarketArtist {
    /// Field 1-4.
    pub field: u8,
    /// The artist card on it.
    pub artist: ArtistId,
}

/// An occupied field of the CONCERT MARKET.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShowBusinessMarketToken)]
pub struct MarketToken {
    /// Field 1-5.
    pub field: u8,
    /// The concert token on it.
    pub token: TokenView,
}

/// The occupied fields of a market, in field order, each with its field number (from 1).
fn occupied<T: Copy, F>(market: &[Option<T>], item: impl Fn(u8, T) -> F) -> Vec<F> {
    (1..)
        .zip(market)
        .filter_map(|(field, x)| x.map(|x| item(field, x)))
        .collect()
}

/// One seat as the viewer sees it.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShowBusinessPlayerView)]
pub struct PlayerView {
    /// Seat.
    pub seat: Seat,
    /// Band colour.
    pub colour: Style,
    /// FONS (public).
    pub cash: i64,
    /// POPULARITY TRACK (true value).
    pub popularity: i64,
    /// Octogon set aside: scandal.
    pub scandal: bool,
    /// SATISFACTION TRACK.
    pub satisfaction: u8,
    /// TIME TRACK week; `null` when the marker has left the track (S34: bankrupt).
    pub time: Option<u8>,
    /// Time marker set aside: last in the turn (never once the marker has left the track).
    pub last_in_turn: bool,
    /// Hand size.
    pub hand_count: usize,
    /// The hand (own seat), or the cards of it the viewer has seen.
    pub hand: Vec<CardId>,
    /// INFLUENCE FIELD, top last.
    pub influence_field: Vec<CardId>,
    /// The band.
    pub band: Vec<ArtistView>,
    /// Recorded songs on the band board.
    pub songs: Vec<SongView>,
    /// Studios still holding this seat's blank song.
    pub blanks: Vec<CityId>,
    /// City of the car.
    pub car: CityId,
    /// Order of bankruptcy, if bankrupt.
    pub bankrupt: Option<u32>,
}

/// What one viewer sees.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShowBusinessView)]
pub struct View {
    /// The viewer's seat, if any.
    pub me: Option<Seat>,
    /// Current phase.
    pub phase: String,
    /// Who may act.
    pub to_act: Vec<Seat>,
    /// Turn sequence, first to last.
    pub order: Vec<Seat>,
    /// Whose round runs.
    pub active: Seat,
    /// Every seat.
    pub players: Vec<PlayerView>,
    /// The occupied fields of the INFLUENCE MARKET (fields 1-4), in field order; a field not
    /// listed is empty.
    pub influence_market: Vec<MarketCard>,
    /// The occupied fields of the ARTIST MARKET (fields 1-4), in field order.
    pub artist_market: Vec<MarketArtist>,
    /// The occupied fields of the CONCERT MARKET (fields 1-5), in field order.
    pub concert_market: Vec<MarketToken>,
    /// Concert tokens in the music clubs.
    pub map_tokens: Vec<TokenView>,
    /// Cards in the influence pile.
    pub influence_pile: usize,
    /// Cards in the influence discard pile.
    pub influence_discard: usize,
    /// The top card of the influence discard pile.
    pub influence_discard_top: Option<CardId>,
    /// Cards in the artist pile.
    pub artist_pile: usize,
    /// Cards in the artist discard pile.
    pub artist_discard: usize,
    /// Tokens in the bag.
    pub bag: usize,
    /// Tokens in the used pool.
    pub used_tokens: usize,
    /// Cards drawn face up and not yet discarded.
    pub revealed: Vec<CardId>,
    /// The faces the trend dice white, blue, yellow and red show, in that order: a face's id
    /// (the catalogue's `die_faces`), or `blank` for the blank face.
    pub dice: Vec<String>,
    /// The standing TREND EXPERT and its placer.
    pub trend_expert: Option<TrendExpertView>,
    /// The event rondel field.
    pub rondel: String,
    /// CHARTS fields 1-10.
    pub chart: Vec<Vec<SongView>>,
    /// POWER needed and cost of PROMOTION onto CHARTS fields 1-10, under this game's
    /// `chart_fields` option.
    pub chart_fields: Vec<ChartField>,
    /// Quarter ends already triggered.
    pub quarter_ends: Vec<bool>,
    /// A quarter end runs after this round.
    pub quarter_end_pending: bool,
    /// The last turn has begun.
    pub last_turn: bool,
    /// The viewer's own sealed bid, while bids are collected.
    pub my_bid: Option<u32>,
    /// TOURNEE power left, during a TOURNEE.
    pub power_left: Option<u8>,
    /// What the seat to act decides on, beyond the board.
    pub pending: Option<Pending>,
}

/// A song tied on the CHART SCORING TRACK.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ShowBusinessTiedSong)]
pub struct TiedSong {
    /// The song.
    pub song: SongId,
    /// Its owner.
    pub owner: Seat,
    /// Charts b: the score.
    pub score: u32,
    /// S36: 4/3/2/1 for the dice hit, the tie-break after the SPONSOR lap.
    pub trend_points: u32,
}

/// The decision in progress, as every viewer may see it.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = ShowBusinessPending)]
pub enum Pending {
    /// Step 3: the first or second TIME LAPSE (step 10 allows a second one).
    TimeLapse {
        /// The seat.
        seat: Seat,
        /// 1 or 2.
        nth: u8,
    },
    /// S33: PERFORM IN ADVERTISING for a payment larger than the cash.
    Advertise {
        /// The payer.
        seat: Seat,
        /// FONS owed.
        due: i64,
        /// What for.
        reason: Payment,
    },
    /// S21: a hostile activity the target may defend against.
    Defend {
        /// The attacker.
        attacker: Seat,
        /// The target.
        target: Seat,
        /// The attacking card.
        card: CardId,
        /// What it does.
        attack: Hostile,
    },
    /// S26: FEMME FATALE chooses INTEGRATION or DISORDER with the best drawn POWER.
    FemmeFatale {
        /// The seat.
        seat: Seat,
        /// The highest POWER drawn.
        power: u8,
    },
    /// S27: PILOT's elements picked so far.
    Pilot {
        /// The seat.
        seat: Seat,
        /// Cities of the elements picked, in order.
        cities: Vec<CityId>,
        /// No further element will be picked.
        stopped: bool,
    },
    /// S25: GROUPIE's choices so far.
    Groupie {
        /// The attacker.
        seat: Seat,
        /// The target.
        target: Seat,
        /// The artist to take.
        take: Option<ArtistId>,
        /// The artist to give.
        give: Option<ArtistId>,
        /// Fields of the taken artist on the attacker's board.
        mine: Option<Vec<u8>>,
    },
    /// S36: the CHARTS ranking while ties are settled.
    Charts {
        /// Songs placed so far, field 1 first.
        placed: Vec<Vec<SongId>>,
        /// The tied songs being ranked now.
        tied: Vec<TiedSong>,
        /// SPONSOR lap: the owners in turn order.
        lap_seats: Vec<Seat>,
        /// Their running SPONSOR sums.
        lap_sums: Vec<u32>,
        /// The seat whose SPONSOR turn it is.
        lap_turn: Option<Seat>,
        /// The lap's winner, who chooses the next song.
        chooser: Option<Seat>,
    },
}

pub(crate) fn token_view(t: TokenId) -> TokenView {
    let tk = t.token();
    TokenView {
        id: t,
        city: tk.city,
        colour: tk.colour,
        value: tk.value,
    }
}

impl ShowBusiness {
    fn song_view(&self, s: &Song, viewer: Viewer, disclosed: bool) -> SongView {
        let visible = disclosed || viewer.seat() == Some(s.owner) || self.result.is_some();
        SongView {
            id: s.id,
            owner: s.owner,
            content: visible.then(|| content(s)),
        }
    }

    /// What `viewer` sees.
    pub(crate) fn view_for(&self, viewer: Viewer) -> View {
        let c = components();
        let me = viewer.seat();
        let players = self
            .players
            .seats()
            .map(|(seat, p)| {
                let hand = p
                    .hand
                    .iter()
                    .filter(|&&card| me == Some(seat) || me.is_some_and(|v| self.known.contains(&(card, v))))
                    .copied()
                    .collect();
                PlayerView {
                    seat,
                    colour: p.colour,
                    cash: p.cash,
                    popularity: p.popularity,
                    scandal: p.scandal,
                    satisfaction: p.satisfaction,
                    time: p.time,
                    last_in_turn: self.order.last() == Some(&seat) && p.time.is_some(),
                    hand_count: p.hand.len(),
                    hand,
                    influence_field: p.influence_field.clone(),
                    band: p
                        .band
                        .iter()
                        .map(|a| {
                            let card = a.card.card();
                            ArtistView {
                                id: a.card,
                                name: card.name.clone(),
                                side_b: a.side_b,
                                style: card.style(a.side_b),
                                alternative: card.style(!a.side_b),
                                fields: a.fields.clone(),
                                independence: card.independence,
                                experience_fields: card.experience_fields,
                                tokens: a.tokens.clone(),
                            }
                        })
                        .collect(),
                    songs: p.songs.iter().map(|s| self.song_view(s, viewer, false)).collect(),
                    blanks: c
                        .studios
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| p.blanks[*i])
                        .map(|(_, &s)| s)
                        .collect(),
                    car: p.car,
                    bankrupt: p.bankrupt,
                }
            })
            .collect();
        let my_bid = match (self.queue.front(), me) {
            (Some(Task::Bid(b)), Some(s)) => b.bids.get(s).copied().flatten(),
            _ => None,
        };
        let power_left = match self.queue.front() {
            Some(Task::Tournee { left, .. }) => Some(*left),
            _ => None,
        };
        View {
            me,
            phase: self.phase_name().to_owned(),
            to_act: self.seats_to_act(),
            order: self.order.clone(),
            active: self.active(),
            players,
            influence_market: occupied(&self.influence_market, |field, card| MarketCard { field, card }),
            artist_market: occupied(&self.artist_market, |field, artist| MarketArtist {
                field,
                artist,
            }),
            concert_market: occupied(&self.concert_market, |field, t| MarketToken {
                field,
                token: token_view(t),
            }),
            map_tokens: self.map_tokens.iter().map(|&t| token_view(t)).collect(),
            influence_pile: self.influence_pile.len(),
            influence_discard: self.influence_discard.len(),
            influence_discard_top: self.influence_discard.last().copied(),
            artist_pile: self.artist_pile.len(),
            artist_discard: self.artist_discard.len(),
            bag: self.bag.len(),
            used_tokens: self.used_tokens.len(),
            revealed: self.revealed.clone(),
            dice: Die::ALL
                .iter()
                .enumerate()
                .map(|(i, d)| self.dice[i].map_or_else(|| BLANK_FACE.to_owned(), |v| d.face_name(v)))
                .collect(),
            trend_expert: self
                .trend_expert
                .map(|(card, placer)| TrendExpertView { card, placer }),
            rondel: RONDEL[self.rondel as usize].into(),
            chart: self
                .chart
                .iter()
                .map(|f| {
                    f.iter()
                        .map(|s| self.song_view(&s.song, viewer, s.disclosed))
                        .collect()
                })
                .collect(),
            chart_fields: (0..self.chart.len()).map(|f| self.chart_field(f)).collect(),
            quarter_ends: self.qe_done.to_vec(),
            quarter_end_pending: self.qe_pending,
            last_turn: self.last_turn,
            my_bid,
            power_left,
            pending: self.pending(),
        }
    }

    fn pending(&self) -> Option<Pending> {
        Some(match self.queue.front()? {
            Task::TimeLapse { seat, nth } => Pending::TimeLapse {
                seat: *seat,
                nth: *nth,
            },
            Task::Advertise { seat, due, then } => Pending::Advertise {
                seat: *seat,
                due: *due,
                reason: then.payment(),
            },
            Task::Defend {
                target,
                attacker,
                card,
                attack,
            } => Pending::Defend {
                attacker: *attacker,
                target: *target,
                card: *card,
                attack: attack.announced(),
            },
            Task::FemmeChoice { seat, best } => Pending::FemmeFatale {
                seat: *seat,
                power: *best,
            },
            Task::Pilot {
                seat,
                cities,
                stopped,
            } => Pending::Pilot {
                seat: *seat,
                cities: cities.clone(),
                stopped: *stopped,
            },
            Task::Groupie {
                seat,
                target,
                take,
                give,
                mine,
            } => Pending::Groupie {
                seat: *seat,
                target: *target,
                take: *take,
                give: *give,
                mine: mine.clone(),
            },
            Task::Charts => {
                let work = self.charts_work.as_ref()?;
                let lap = work.lap.as_ref();
                Pending::Charts {
                    placed: work
                        .placed
                        .iter()
                        .map(|f| f.iter().map(|s| s.song.id).collect())
                        .collect(),
                    tied: work
                        .groups
                        .first()
                        .into_iter()
                        .flatten()
                        .map(|s| TiedSong {
                            song: s.song.id,
                            owner: s.song.owner,
                            score: self.song_score(&s.song),
                            trend_points: self.trend_points(&s.song),
                        })
                        .collect(),
                    lap_seats: lap
                        .map(|l| l.sums.iter().map(|e| e.0).collect())
                        .unwrap_or_default(),
                    lap_sums: lap
                        .map(|l| l.sums.iter().map(|e| e.1).collect())
                        .unwrap_or_default(),
                    lap_turn: lap.and_then(|l| {
                        if l.chooser.is_some() {
                            None
                        } else {
                            l.sums.get(l.at).map(|e| e.0)
                        }
                    }),
                    chooser: lap.and_then(|l| l.chooser),
                }
            }
            _ => return None,
        })
    }
}

/// Which fields of this view a client keeps by applying the public events in order: "events
/// describe changes in the order they happened".
pub(super) const REPLAY: Replay = Replay {
    fields: &[
        "influence_pile",
        "artist_pile",
        "bag",
        "influence_market",
        "artist_market",
        "concert_market",
    ],
    apply: replay,
};

/// The piles, the bag and the markets as a client reads them (RULINGS 9, S32): a reshuffle forms
/// a pile or refills the bag with `size`; each card drawn to a hand or shown leaves the influence
/// pile; a refilled market drew from its pile (or the bag) as many cards as it gained; a card
/// bought, activated, recruited or discarded from a market, and a token taken from the concert
/// market, leaves its field; a token from the bag leaves the bag. A market is the list of its
/// occupied fields, each with its `field` number.
fn replay(view: &mut serde_json::Value, event: &serde_json::Value) -> Result<(), String> {
    use serde_json::Value;
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let number = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64);
    let clear = |view: &mut Value, market: &str, field: Option<u64>| -> Result<(), String> {
        let occupied = view
            .get_mut(market)
            .and_then(Value::as_array_mut)
            .ok_or_else(|| format!("no {market}"))?;
        let at = occupied
            .iter()
            .position(|o| field.is_some() && o.get("field").and_then(Value::as_u64) == field)
            .ok_or_else(|| format!("{market} field {field:?} is empty"))?;
        occupied.remove(at);
        Ok(())
    };
    match event.get("type").and_then(Value::as_str).unwrap_or("") {
        "reshuffled" => {
            let pile = match text(event, "pile").as_deref() {
                Some("influence") => "influence_pile",
                Some("artist") => "artist_pile",
                Some("bag") => "bag",
                other => return Err(format!("no pile {other:?}")),
            };
            view[pile] = number(event, "size").unwrap_or(0).into();
            Ok(())
        }
        "drew" | "shown" => Replay::count(view, "influence_pile", -1),
        "market_refilled" => {
            let (market, pile) = match text(event, "market").as_deref() {
                Some("influence") => ("influence_market", "influence_pile"),
                Some("artist") => ("artist_market", "artist_pile"),
                Some("concert") => ("concert_market", "bag"),
                other => return Err(format!("no market {other:?}")),
            };
            let count = |v: Option<&Value>| v.and_then(Value::as_array).map_or(0, |l| l.len() as i64);
            let fields = event
                .get("fields")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let drawn = fields.len() as i64 - count(view.get(market));
            let occupied: Result<Vec<Value>, String> = fields
                .iter()
                .map(|f| {
                    let field = number(f, "field").ok_or_else(|| format!("{f} has no field"))?;
                    let id = text(f, "id").ok_or_else(|| format!("{f} has no id"))?;
                    Ok(match market {
                        "concert_market" => {
                            let token = TokenId::find(&id)
                                .and_then(|t| serde_json::to_value(token_view(t)).ok())
                                .ok_or_else(|| format!("no token {id:?}"))?;
                            json!({"field": field, "token": token})
                        }
                        "artist_market" => json!({"field": field, "artist": id}),
                        _ => json!({"field": field, "card": id}),
                    })
                })
                .collect();
            view[market] = Value::Array(occupied?);
            Replay::count(view, pile, -drawn)
        }
        "market_discard" => {
            let market = match text(event, "market").as_deref() {
                Some("influence") => "influence_market",
                _ => "artist_market",
            };
            clear(view, market, number(event, "field"))
        }
        "bought" | "activated_from_market" => clear(view, "influence_market", number(event, "field")),
        "recruited" => clear(view, "artist_market", number(event, "market_field")),
        "token_to_map" => {
            let cause = event.get("cause").cloned().unwrap_or_default();
            match text(&cause, "kind").as_deref() {
                Some("concerts" | "dj_market") => clear(view, "concert_market", number(&cause, "field")),
                _ => Replay::count(view, "bag", -1),
            }
        }
        _ => Ok(()),
    }
}
