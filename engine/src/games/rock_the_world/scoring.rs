//! The outcome and the score sheet (R33, R35, R36, R38, R40).

use super::components::{TIE_POINTS, WIN_POINTS};
use super::events::End;
use super::state::RockTheWorld;
use crate::{BySeat, Outcome, ScoreLine, Seat, SeatScore};

impl RockTheWorld {
    /// R40: standard competition rank by cash among `field` (1 + how many have more).
    fn cash_rank(&self, seat: Seat, field: &[Seat]) -> usize {
        let cash = self.players[seat].cash;
        1 + field.iter().filter(|&&s| self.players[s].cash > cash).count()
    }

    /// The final ranks, points and score lines, once the game is over.
    pub(super) fn scored(&self) -> Option<Outcome> {
        let end = self.end()?;
        let n = self.seats();
        let in_game: Vec<Seat> = self.in_game().collect();
        let mut ranks = BySeat(vec![0usize; n]);
        let mut lines: BySeat<(&'static str, i64)> = BySeat(vec![("Eliminated", 0); n]);
        // R35/R40: eliminated players rank below everyone still in; a later elimination ranks higher.
        for (i, &s) in self.eliminated.iter().rev().enumerate() {
            ranks[s] = in_game.len() + 1 + i;
        }
        match end {
            End::RockedTheWorld { rocker } => {
                let outsiders: Vec<Seat> = in_game.iter().copied().filter(|&s| s != rocker).collect();
                ranks[rocker] = 1;
                lines[rocker] = ("Rocked the world", WIN_POINTS);
                for &s in &outsiders {
                    ranks[s] = 1 + self.cash_rank(s, &outsiders);
                    lines[s] = ("Outsider", 0);
                }
            }
            End::RockerEliminated { .. } => {
                for &s in &in_game {
                    ranks[s] = 1;
                    lines[s] = ("Shared first place: the rocker was eliminated", TIE_POINTS);
                }
            }
            End::LastStanding { seat } => {
                ranks[seat] = 1;
                lines[seat] = ("Last player standing", WIN_POINTS);
            }
            End::TurnCap { .. } => {
                for &s in &in_game {
                    ranks[s] = self.cash_rank(s, &in_game);
                }
                let richest = in_game.iter().filter(|&&s| ranks[s] == 1).count();
                for &s in &in_game {
                    lines[s] = match (ranks[s], richest) {
                        (1, 1) => ("Richest at the turn cap", WIN_POINTS),
                        (1, _) => ("Shared richest at the turn cap", TIE_POINTS),
                        _ => ("Not the richest at the turn cap", 0),
                    };
                }
            }
        }
        let scores = Seat::all(n)
            .map(|seat| {
                let (label, points) = lines[seat];
                SeatScore {
                    seat,
                    total: points,
                    lines: vec![ScoreLine {
                        label: label.into(),
                        points,
                    }],
                    tiebreaks: vec![ScoreLine {
                        label: "Cash (score sheet)".into(),
                        points: i64::try_from(self.players[seat].cash).unwrap_or(i64::MAX),
                    }],
                    rank: ranks[seat],
                }
            })
            .collect();
        let winners = Seat::all(n).filter(|&s| ranks[s] == 1).collect();
        Some(Outcome { scores, winners })
    }
}
