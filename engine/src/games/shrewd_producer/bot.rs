//! Shrewd Producer's greedy bot: bid for an artist only when it brings the seat's song closer,
//! never borrow, and keep Raise Money, which scores.
//!
//! The rules it leans on (RULEBOOK.txt, "End of Game and Scoring"): "Final Score (Pt) =
//! [Total Pt from your highest Completed Song] + [Remaining Hand Money Pt] – [Debt Pt]", with
//! "For every $200 of Raise Money, 1 Pt is added" and "Each debt checkmark is a deduction of
//! -6 Pt". So a debt ($500, 2 Pt of money) never pays for itself in money, an artist is worth
//! what it adds to the seat's best song, and a raise is worth making only while it costs less
//! (at $200 a Pt) than the Pt the artist it wins adds.

use std::cell::OnceCell;

use rand::RngCore;
use serde::Deserialize;

use super::actions::Action;
use super::components::{ArtistId, BILL, Part, ScoutId, SongId, Suit};
use super::scoring::best_artist_pt;
use super::state::ShrewdProducer;
use super::view::View;
use crate::Seat;
use crate::heuristic;

/// "For every $200 of Raise Money, 1 Pt is added."
const DOLLARS_PER_PT: f64 = 200.0;
/// What one more filled slot of the song the seat works towards is worth, in Pt: a song
/// scores nothing until every slot is filled, so a slot is worth a share of the song.
const SLOT_PT: f64 = 2.5;
/// The share of an artist's worth the bot pays at most, so that a win leaves a profit.
const MAX_PRICE_SHARE: f64 = 0.8;
/// An artist worth less than this (Pt) is not worth a high Scout card or a $200 substitute.
const WANT_PT: f64 = 3.0;

/// The seat's view, as far as the heuristic reads it.
#[derive(Debug, Deserialize)]
struct Seen {
    viewer: Option<Seat>,
    lead: Seat,
    lead_suit: Option<Suit>,
    players: Vec<Player>,
    artists_revealed: Vec<Card<ArtistId>>,
    open_songs: Vec<OpenSong>,
}

#[derive(Debug, Deserialize)]
struct Card<Id> {
    id: Id,
}

#[derive(Debug, Deserialize)]
struct OpenSong {
    id: SongId,
    level: u8,
}

#[derive(Debug, Deserialize)]
struct HeldSong {
    song: OpenSong,
}

#[derive(Debug, Deserialize)]
struct Player {
    seat: Seat,
    raise_money: u32,
    raise_phase: bool,
    raised: u32,
    total_bid: Option<u32>,
    artists: Vec<Card<ArtistId>>,
    songs: Vec<HeldSong>,
}

/// The greedy pick, as an index into `legal`.
pub(super) fn greedy(view: &View, legal: &[Action], rng: &mut dyn RngCore) -> Option<usize> {
    let seen: Seen = heuristic::read(view)?;
    pick(&seen, legal, rng)
}

/// The same pick for `seat` in `game`, read from the state: only what every seat's view shows
/// (the table, each seat's money, bids, artists and songs), as the view shows it.
pub(super) fn greedy_in(
    game: &ShrewdProducer,
    seat: Seat,
    legal: &[Action],
    rng: &mut dyn RngCore,
) -> Option<usize> {
    let song = |id: SongId| OpenSong {
        id,
        level: id.card().level,
    };
    let seen = Seen {
        viewer: Some(seat),
        lead: game.lead,
        lead_suit: game.lead_suit(),
        players: game
            .players
            .seats()
            .map(|(s, p)| Player {
                seat: s,
                raise_money: u32::from(p.bills) * BILL,
                raise_phase: p.participating,
                raised: u32::from(p.raised) * BILL,
                total_bid: p.participating.then(|| game.total_bid(s)),
                artists: p.artists.iter().map(|&id| Card { id }).collect(),
                songs: p.songs.iter().map(|&id| HeldSong { song: song(id) }).collect(),
            })
            .collect(),
        artists_revealed: game.revealed.iter().map(|&id| Card { id }).collect(),
        open_songs: game.open_songs.iter().map(|&id| song(id)).collect(),
    };
    pick(&seen, legal, rng)
}

fn pick(seen: &Seen, legal: &[Action], rng: &mut dyn RngCore) -> Option<usize> {
    let me = seen.players.get(seen.viewer?.index())?;
    let plan = Plan::new(seen, me);
    heuristic::best_by(legal, rng, |action| plan.score(action))
}

/// What the seat wants this round, worked out once from the view.
struct Plan<'a> {
    view: &'a Seen,
    me: &'a Player,
    artists: Vec<ArtistId>,
    songs: Vec<SongId>,
    /// What each revealed artist adds to the seat, in Pt, best first: worked out at the first
    /// action that asks, since the draft and the song choice never do and the expert's
    /// playouts ask the heuristic at every step.
    worth: OnceCell<Vec<(ArtistId, f64)>>,
}

impl<'a> Plan<'a> {
    fn new(view: &'a Seen, me: &'a Player) -> Self {
        Plan {
            view,
            me,
            artists: me.artists.iter().map(|a| a.id).collect(),
            songs: me.songs.iter().map(|s| s.song.id).collect(),
            worth: OnceCell::new(),
        }
    }

    fn worth(&self) -> &[(ArtistId, f64)] {
        self.worth.get_or_init(|| {
            let base = self.potential(&self.artists);
            let mut with = self.artists.clone();
            let mut worth: Vec<(ArtistId, f64)> = self
                .view
                .artists_revealed
                .iter()
                .map(|a| {
                    with.push(a.id);
                    let gain = self.potential(&with) - base;
                    with.pop();
                    (a.id, gain)
                })
                .collect();
            worth.sort_by(|a, b| b.1.total_cmp(&a.1));
            worth
        })
    }

    /// The Pt the seat's band stands for: its best completed song ("Only the highest-level
    /// Song card for which all required artist parts have been gathered is used for
    /// scoring") plus progress on the song it works towards.
    fn potential(&self, artists: &[ArtistId]) -> f64 {
        let Some((&current, earlier)) = self.songs.split_last() else {
            return 0.0;
        };
        let current_points = song_points(current, artists);
        let scored = current_points
            .or_else(|| earlier.iter().rev().find_map(|&s| song_points(s, artists)))
            .unwrap_or(0);
        let target = self.target(current, current_points.is_some(), artists);
        f64::from(scored) + SLOT_PT * target.map_or(0, |s| filled(s, artists)) as f64
    }

    /// The song worth working towards: the current one while it is incomplete, else the open
    /// song of the next level the artists already go furthest towards ("Lv. 1 complete → take
    /// Lv. 2; Lv. 2 complete → take Lv. 3").
    /// `current` is the seat's latest song, `complete` whether `artists` complete it.
    fn target(&self, current: SongId, complete: bool, artists: &[ArtistId]) -> Option<SongId> {
        if !complete {
            return Some(current);
        }
        let next = current.card().level + 1;
        self.view
            .open_songs
            .iter()
            .filter(|s| s.level == next)
            .max_by_key(|s| (filled(s.id, artists), s.id.card().song_pt))
            .map(|s| s.id)
    }

    fn best_worth(&self) -> f64 {
        self.worth().first().map_or(0.0, |w| w.1)
    }

    fn score(&self, action: &Action) -> f64 {
        match *action {
            // Keep the pair's higher card: a higher Scout bid acts later and counts more.
            Action::Keep { card } => f64::from(card.card().value),
            // "Each debt taken results in -6 points" for $500, which is 2.5 Pt of money.
            Action::TakeDebt => -1000.0,
            Action::Play { card } => self.play_score(card),
            Action::Substitute => {
                if self.best_worth() >= WANT_PT && self.me.raise_money >= 600 {
                    10_000.0
                } else {
                    -100.0
                }
            }
            Action::Raise { amount } => self.raise_score(amount),
            Action::Pass => 0.0,
            Action::ChooseArtist { artist } => {
                let worth = self.worth().iter().find(|w| w.0 == artist).map_or(0.0, |w| w.1);
                worth * 100.0 + f64::from(artist.card().pt)
            }
            Action::TakeSong { song } => {
                filled(song, &self.artists) as f64 * 100.0 + f64::from(song.card().song_pt)
            }
            // A completed lower song still scores if the next one is never completed: taking
            // costs nothing.
            Action::DeclineSong => -1.0,
        }
    }

    /// Scout Phase: when an artist is worth having, the highest card the seat may play ("the
    /// player who played the highest value Scout Money card will go last" in the Raise
    /// Phase, and it counts towards the total bid); otherwise the lowest, saving the high ones.
    /// Going off-suit ("Cannot participate in the Raise Phase") is the cheap way out.
    fn play_score(&self, card: ScoutId) -> f64 {
        let c = card.card();
        let value = f64::from(c.value);
        let joins = self.view.lead_suit.is_none_or(|s| s == c.suit) || self.view.lead == self.me.seat;
        if self.best_worth() >= WANT_PT && joins {
            value
        } else if joins {
            -value
        } else {
            // Off-suit: the card is spent whatever its value.
            -value - 100.0
        }
    }

    /// Raise Phase: raise by exactly what lifts the seat into the place whose artist is worth
    /// the most net of the price, when that price is below the artist's worth ("Since you can
    /// acquire an artist even in 2nd place, bidding an amount aiming for 2nd place is a valid
    /// strategy!"); pass when the seat already holds such a place or none is worth its price.
    fn raise_score(&self, amount: u32) -> f64 {
        match self.wanted_raise() {
            Some(r) if r == amount => 1.0,
            _ => -1.0,
        }
    }

    fn wanted_raise(&self) -> Option<u32> {
        let n = self.view.players.len().max(1);
        let distance = |s: Seat| (s.index() + n - self.view.lead.index() % n) % n;
        let mine = self.me.total_bid?;
        let me = self.me.seat;
        let mut rivals: Vec<(u32, usize)> = self
            .view
            .players
            .iter()
            .filter(|p| p.raise_phase && p.seat != me)
            .map(|p| (p.total_bid.unwrap_or(0), distance(p.seat)))
            .collect();
        rivals.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        // The raise (in whole $100) that puts the seat above `rival`.
        let above = |rival: (u32, usize)| -> u32 {
            let needed = if distance(me) < rival.1 {
                rival.0
            } else {
                rival.0 + 100
            };
            needed.saturating_sub(mine).div_ceil(100) * 100
        };
        let first = self.worth().first().map_or(0.0, |w| w.1);
        let second = self.worth().get(1).map_or(0.0, |w| w.1);
        let mut options = Vec::new();
        if let Some(&top) = rivals.first() {
            options.push((above(top), first));
        }
        match rivals.get(1) {
            Some(&third) => options.push((above(third), second)),
            None => options.push((0, second)),
        }
        let spent = f64::from(self.me.raised);
        let (raise, net) = options
            .into_iter()
            .map(|(r, worth)| (r, worth * DOLLARS_PER_PT * MAX_PRICE_SHARE - spent - f64::from(r)))
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        (raise > 0 && net > 0.0).then_some(raise)
    }
}

/// G4: Song Pt plus the participating artists' Pt, when `artists` complete `song`.
fn song_points(song: SongId, artists: &[ArtistId]) -> Option<u32> {
    let card = song.card();
    best_artist_pt(card.requires, artists, true).map(|pt| pt + u32::from(card.song_pt))
}

/// How many of `song`'s slots `artists` fill, each artist in one slot per part it plays (G2).
fn filled(song: SongId, artists: &[ArtistId]) -> usize {
    // Each artist's parts still free, a bit per part, on the stack for the bands a game
    // reaches.
    let mut stack = [(0usize, 0u8); 32];
    let mut heap = Vec::new();
    let free: &mut [(usize, u8)] = if artists.len() <= stack.len() {
        &mut stack[..artists.len()]
    } else {
        heap.resize(artists.len(), (0, 0));
        &mut heap
    };
    for (slot, artist) in free.iter_mut().zip(artists) {
        let parts = artist.card().parts;
        *slot = (parts.len(), parts.iter().fold(0u8, |m, &p| m | part_bit(p)));
    }
    // Single-part artists first, so that a multi-role one stays free for a rarer slot.
    free.sort_by_key(|&(parts, _)| parts);
    song.card()
        .requires
        .iter()
        .filter(|&&part| {
            let bit = part_bit(part);
            free.iter_mut()
                .find(|(_, mask)| mask & bit != 0)
                .map(|(_, mask)| *mask &= !bit)
                .is_some()
        })
        .count()
}

fn part_bit(part: Part) -> u8 {
    1 << (part as u8)
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::games::shrewd_producer::scoring::best_assignment;

    /// The slots filled as first written: each artist's parts as a list, single-part artists
    /// first, each slot taking the first artist still free for its part.
    fn filled_by_lists(song: SongId, artists: &[ArtistId]) -> usize {
        let mut free: Vec<Vec<Part>> = artists.iter().map(|a| a.card().parts.to_vec()).collect();
        free.sort_by_key(Vec::len);
        song.card()
            .requires
            .iter()
            .filter(|part| {
                free.iter_mut()
                    .find(|parts| parts.contains(part))
                    .map(|parts| parts.retain(|p| p != *part))
                    .is_some()
            })
            .count()
    }

    #[test]
    fn slots_and_points_agree_with_the_listed_forms_for_random_bands() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut all: Vec<ArtistId> = ArtistId::all().collect();
        let mut checked = 0;
        for _ in 0..2000 {
            all.shuffle(&mut rng);
            let band = &all[..rng.random_range(0..=all.len())];
            for song in SongId::all() {
                assert_eq!(
                    filled(song, band),
                    filled_by_lists(song, band),
                    "{song:?} with {band:?}"
                );
                for dual in [false, true] {
                    let requires = song.card().requires;
                    assert_eq!(
                        best_artist_pt(requires, band, dual),
                        best_assignment(requires, band, dual).map(|a| a.artist_pt),
                        "{song:?} with {band:?}"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 0);
    }
}
