//! Song completion (G2, G3, G4) and the final score (G17).

use super::components::{ArtistId, BILL, DEBT_PENALTY, DOLLARS_PER_PT, Part, SongId};
use super::state::{ShrewdProducer, Stage};
use crate::{Outcome, ScoreLine, Seat, SeatScore};

/// The artists that complete a song, and their Pt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// Total Pt of the participating artists, each counted once.
    pub artist_pt: u32,
    /// The participating artists, in the order they are owned.
    pub artists: Vec<ArtistId>,
}

/// G4: the assignment of distinct owned cards to the song's slots with the most artist Pt, or
/// `None` when the song cannot be completed. G3: a slot needs its own card; G2: with
/// `dual_fills_both` a two-part artist may fill one slot of each of its parts, Pt counted once.
pub fn best_assignment(requires: &[Part], owned: &[ArtistId], dual_fills_both: bool) -> Option<Assignment> {
    let owned = &owned[..owned.len().min(MAX_OWNED)];
    best_pt_and_mask(requires, owned, dual_fills_both).map(|(artist_pt, mask)| Assignment {
        artist_pt,
        artists: owned
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, &a)| a)
            .collect(),
    })
}

/// The Pt of [`best_assignment`]'s artists, without listing them: what the greedy bot asks at
/// every step of the expert's playouts.
pub fn best_artist_pt(requires: &[Part], owned: &[ArtistId], dual_fills_both: bool) -> Option<u32> {
    best_pt_and_mask(requires, owned, dual_fills_both).map(|(artist_pt, _)| artist_pt)
}

/// The owned cards the search weighs, at most (one bit each in its mask).
const MAX_OWNED: usize = 32;

/// The best assignment's artist Pt and the mask of the owned cards it uses, over the first
/// [`MAX_OWNED`] of `owned`.
fn best_pt_and_mask(requires: &[Part], owned: &[ArtistId], dual_fills_both: bool) -> Option<(u32, u32)> {
    let owned = &owned[..owned.len().min(MAX_OWNED)];
    // The most Pt any owned card playing each part could bring: what the slots still open may
    // add at most, to leave out the branches that cannot beat the best found.
    let mut top = [None::<u32>; PARTS];
    for artist in owned {
        let card = artist.card();
        for &part in card.parts {
            let t = &mut top[part as usize];
            *t = Some(t.unwrap_or(0).max(u32::from(card.pt)));
        }
    }
    let mut bound = 0;
    for &part in requires {
        // A part no owned card plays: the song cannot be completed.
        bound += top[part as usize]?;
    }
    let mut search = Search {
        owned,
        dual: dual_fills_both,
        top: top.map(|t| t.unwrap_or(0)),
        used: [0; MAX_OWNED],
        best: None,
    };
    search.fill(requires, bound, 0);
    search.best
}

/// The parts there are ([`Part`]'s variants).
const PARTS: usize = Part::ALL.len();

/// A depth-first search for [`best_pt_and_mask`].
struct Search<'a> {
    owned: &'a [ArtistId],
    dual: bool,
    /// The most Pt an owned card playing each part could bring.
    top: [u32; PARTS],
    /// Per owned card, the parts it is already playing (bit per part).
    used: [u8; MAX_OWNED],
    /// The first assignment found with the most Pt: its Pt and the mask of the cards it uses.
    best: Option<(u32, u32)>,
}

impl Search<'_> {
    /// Fills `slots`, the assignment so far worth `pt`, keeping the first best in `best`.
    /// `bound` is the most the open slots could add (`top` per slot): a branch that cannot beat
    /// `best` is left, which finds the same first best as trying them all.
    fn fill(&mut self, slots: &[Part], bound: u32, pt: u32) {
        if self.best.is_some_and(|(b, _)| pt + bound <= b) {
            return;
        }
        let Some((&part, rest)) = slots.split_first() else {
            let mask = self
                .used
                .iter()
                .take(self.owned.len())
                .enumerate()
                .filter(|(_, u)| **u != 0)
                .fold(0u32, |m, (i, _)| m | (1 << i));
            self.best = Some((pt, mask));
            return;
        };
        let bit = 1u8 << (part as u8);
        let bound = bound - self.top[part as usize];
        for (i, artist) in self.owned.iter().enumerate() {
            let card = artist.card();
            if !card.parts.contains(&part) {
                continue;
            }
            let used = self.used[i];
            let free = if self.dual { used & bit == 0 } else { used == 0 };
            if !free {
                continue;
            }
            let gain = if used == 0 { u32::from(card.pt) } else { 0 };
            self.used[i] |= bit;
            self.fill(rest, bound, pt + gain);
            self.used[i] &= !bit;
        }
    }
}

/// A seat's final score, line by line (G17).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalScore {
    /// The highest-level completed song, if any.
    pub song: Option<SongId>,
    /// Its printed Song Pt.
    pub song_pt: i64,
    /// The participating artists' Pt.
    pub artist_pt: i64,
    /// Remaining Raise Money: 1 Pt per $200.
    pub money_pt: i64,
    /// -6 Pt per debt.
    pub debt_pt: i64,
    /// Tie-break: artist cards signed during the game.
    pub artists_signed: i64,
}

impl FinalScore {
    /// The final score.
    pub fn total(&self) -> i64 {
        self.song_pt + self.artist_pt + self.money_pt + self.debt_pt
    }
}

impl ShrewdProducer {
    /// G17: highest completed song + floor(Raise Money / 200) - 6 x debts.
    pub(crate) fn final_score(&self, seat: Seat) -> FinalScore {
        let p = &self.players[seat];
        // "Only the highest-level Song card for which all required artist parts have been
        // gathered is used for scoring."
        let completed = p.songs.iter().rev().find_map(|&song| {
            best_assignment(song.card().requires, &p.artists, self.options.dual_fills_both).map(|a| (song, a))
        });
        FinalScore {
            song: completed.as_ref().map(|(s, _)| *s),
            song_pt: completed.as_ref().map_or(0, |(s, _)| i64::from(s.card().song_pt)),
            artist_pt: completed.as_ref().map_or(0, |(_, a)| i64::from(a.artist_pt)),
            money_pt: i64::from(u32::from(p.bills) * BILL / DOLLARS_PER_PT),
            debt_pt: -DEBT_PENALTY * i64::from(p.debts),
            artists_signed: p.artists.len() as i64,
        }
    }

    /// The outcome: scores, ranks and winners. "If multiple players are tied for the highest
    /// Pt, the player among them who signed the most Artist cards during the game is the
    /// winner. If still tied, all tied players are winners!"
    /// The outcome, once the game is over.
    pub(crate) fn scored(&self) -> Option<Outcome> {
        (self.stage == Stage::Over).then(|| self.result())
    }

    pub(crate) fn result(&self) -> Outcome {
        let finals: Vec<FinalScore> = Seat::all(self.seats()).map(|s| self.final_score(s)).collect();
        let key = |f: &FinalScore| (f.total(), f.artists_signed);
        let scores: Vec<SeatScore> = Seat::all(finals.len())
            .zip(&finals)
            .map(|(seat, f)| SeatScore {
                seat,
                total: f.total(),
                lines: vec![
                    line("Completed song: Song Pt", f.song_pt),
                    line("Completed song: Artist Pt", f.artist_pt),
                    line("Remaining Raise Money", f.money_pt),
                    line("Debt", f.debt_pt),
                ],
                tiebreaks: vec![line("Artist cards signed", f.artists_signed)],
                rank: 1 + finals.iter().filter(|g| key(g) > key(f)).count(),
            })
            .collect();
        let winners = scores.iter().filter(|s| s.rank == 1).map(|s| s.seat).collect();
        Outcome { scores, winners }
    }
}

fn line(label: &str, points: i64) -> ScoreLine {
    ScoreLine {
        label: label.into(),
        points,
    }
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// G4 by trying every assignment in turn, keeping the first with the most Pt.
    fn every_assignment(requires: &[Part], owned: &[ArtistId], dual: bool) -> Option<(u32, u32)> {
        fn go(
            slots: &[Part],
            owned: &[ArtistId],
            dual: bool,
            used: &mut Vec<u8>,
            pt: u32,
            best: &mut Option<(u32, u32)>,
        ) {
            let Some((&part, rest)) = slots.split_first() else {
                if best.is_none_or(|(b, _)| pt > b) {
                    let mask = used
                        .iter()
                        .enumerate()
                        .filter(|(_, u)| **u != 0)
                        .fold(0, |m, (i, _)| m | (1 << i));
                    *best = Some((pt, mask));
                }
                return;
            };
            let bit = 1u8 << (part as u8);
            for (i, artist) in owned.iter().enumerate() {
                let card = artist.card();
                let free = if dual { used[i] & bit == 0 } else { used[i] == 0 };
                if card.parts.contains(&part) && free {
                    let gain = if used[i] == 0 { u32::from(card.pt) } else { 0 };
                    used[i] |= bit;
                    go(rest, owned, dual, used, pt + gain, best);
                    used[i] &= !bit;
                }
            }
        }
        let mut best = None;
        go(requires, owned, dual, &mut vec![0; owned.len()], 0, &mut best);
        best
    }

    #[test]
    fn the_bounded_search_finds_the_same_first_best_assignment_as_trying_every_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut all: Vec<ArtistId> = ArtistId::all().collect();
        let (mut complete, mut incomplete) = (0, 0);
        for _ in 0..300 {
            all.shuffle(&mut rng);
            let band = &all[..rng.random_range(0..=12.min(all.len()))];
            for song in SongId::all() {
                for dual in [false, true] {
                    let requires = song.card().requires;
                    let expected = every_assignment(requires, band, dual);
                    assert_eq!(
                        best_pt_and_mask(requires, band, dual),
                        expected,
                        "{song:?} with {band:?}"
                    );
                    if expected.is_some() {
                        complete += 1;
                    } else {
                        incomplete += 1;
                    }
                }
            }
        }
        assert!(
            complete > 100 && incomplete > 100,
            "{complete} complete, {incomplete} not"
        );
    }
}
