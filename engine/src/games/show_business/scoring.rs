//! The chart score of a song and the final score.

use super::components::Die;
use super::state::{ShowBusiness, Song};
use crate::{Outcome, ScoreLine, Seat, SeatScore};

impl ShowBusiness {
    /// The outcome, once the game is over.
    pub(crate) fn scored(&self) -> Option<Outcome> {
        self.result.clone()
    }

    /// Which dice a song hits (S37: a blank die counts as a hit).
    pub(crate) fn hits(&self, s: &Song) -> [bool; 4] {
        let fields = [s.style.index(), s.lyrics, s.tempo, s.volume];
        let mut out = [false; 4];
        for i in 0..4 {
            out[i] = self.dice[i].is_none_or(|v| v == fields[i]);
        }
        out
    }

    /// Charts b: 4/3/2/1 for the dice hit.
    pub(crate) fn trend_points(&self, s: &Song) -> u32 {
        self.hits(s)
            .iter()
            .zip(Die::ALL)
            .filter(|(h, _)| **h)
            .map(|(_, d)| d.points())
            .sum()
    }

    /// Charts b: trend points plus the fifth field.
    pub(crate) fn song_score(&self, s: &Song) -> u32 {
        self.trend_points(s) + s.experience
    }

    /// End of game: popularity + 10% of cash; ties by popularity, then cash; bankrupts last.
    pub(crate) fn compute_outcome(&self) -> Outcome {
        let key = |s: Seat| {
            let p = &self.players[s];
            let solvent = p.bankrupt.is_none();
            (
                solvent,
                p.bankrupt.unwrap_or(0),
                p.popularity + p.cash / 10,
                p.popularity,
                p.cash,
            )
        };
        let mut scores = Vec::new();
        for (seat, p) in self.players.seats() {
            let ks = key(seat);
            let rank = 1 + Seat::all(self.players.len()).filter(|&o| key(o) > ks).count();
            let mut tiebreaks = vec![
                ScoreLine {
                    label: "Popularity".into(),
                    points: p.popularity,
                },
                ScoreLine {
                    label: "Cash".into(),
                    points: p.cash,
                },
            ];
            if let Some(b) = p.bankrupt {
                tiebreaks.insert(
                    0,
                    ScoreLine {
                        label: "Bankrupt (order)".into(),
                        points: b as i64,
                    },
                );
            }
            scores.push(SeatScore {
                seat,
                total: p.popularity + p.cash / 10,
                lines: vec![
                    ScoreLine {
                        label: "Popularity track".into(),
                        points: p.popularity,
                    },
                    ScoreLine {
                        label: "10% of cash".into(),
                        points: p.cash / 10,
                    },
                ],
                tiebreaks,
                rank,
            });
        }
        let winners = scores.iter().filter(|s| s.rank == 1).map(|s| s.seat).collect();
        Outcome { scores, winners }
    }
}
