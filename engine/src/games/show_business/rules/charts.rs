//! CHARTS, quarter end step 1: disclosure, scoring, the S36 tie-breaks and the points.

use super::*;
use crate::games::show_business::events::{ChartScore, TieBreak};
use crate::games::show_business::state::{ChartSong, ChartsWork, Lap};

/// Popularity for CHARTS fields I-V.
pub const FIELD_POINTS: [i64; 5] = [5, 4, 3, 2, 1];
/// Extra point on fields I-III when the style hits the white die.
pub const STYLE_BONUS: [i64; 3] = [1, 1, 1];
/// Extra points on fields I-II when all four dice are hit.
pub const ALL_DICE_BONUS: [i64; 2] = [2, 1];
/// Songs on fields 1-5 stay on the CHARTS; the rest leave the game.
pub const CHART_KEEP: usize = 5;

impl ShowBusiness {
    /// Charts a and b: disclose, score, purge identical songs and group by score.
    pub(crate) fn start_charts(&mut self, ev: &mut Events) {
        self.return_trend_expert(ev);
        let mut newly = Vec::new();
        for field in &mut self.chart {
            for s in field.iter_mut() {
                if !s.disclosed {
                    s.disclosed = true;
                    newly.push(DisclosedSong {
                        owner: s.song.owner,
                        id: s.song.id,
                        content: crate::games::show_business::view::content(&s.song),
                    });
                }
            }
        }
        if !newly.is_empty() {
            ev.push(Event::public(GameEvent::Disclosed { songs: newly }));
        }
        // The songs stay on the CHARTS, face up, until the ranking is complete.
        let songs: Vec<ChartSong> = self.chart.iter().flatten().cloned().collect();
        let mut scored: Vec<(u32, ChartSong)> =
            songs.into_iter().map(|s| (self.song_score(&s.song), s)).collect();
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        tell(
            ev,
            GameEvent::ChartScores {
                songs: scored
                    .iter()
                    .map(|(score, s)| ChartScore {
                        seat: s.song.owner,
                        song: s.song.id,
                        trend_points: self.trend_points(&s.song),
                        experience: s.song.experience,
                        score: *score,
                    })
                    .collect(),
            },
        );
        let mut groups: Vec<Vec<ChartSong>> = Vec::new();
        let mut last: Option<u32> = None;
        for (score, s) in scored {
            if last != Some(score) {
                groups.push(Vec::new());
                last = Some(score);
            }
            let group = groups.last_mut().expect("a group was just pushed");
            let same = |o: &ChartSong| {
                let (a, b) = (&o.song, &s.song);
                a.owner == b.owner
                    && a.style == b.style
                    && a.lyrics == b.lyrics
                    && a.tempo == b.tempo
                    && a.volume == b.volume
                    && a.experience == b.experience
            };
            if group.iter().any(same) {
                tell(
                    ev,
                    GameEvent::IdenticalSong {
                        seat: s.song.owner,
                        song: s.song.id,
                    },
                );
                continue;
            }
            group.push(s);
        }
        self.charts_work = Some(ChartsWork {
            groups,
            placed: Vec::new(),
            lap: None,
        });
    }

    /// Places songs until a seat must decide; false once the ranking is complete.
    pub(crate) fn charts_progress(&mut self, ev: &mut Events) -> bool {
        loop {
            let order = self.order.clone();
            let solvent = BySeat::from_fn(self.n(), |s| self.players[s].bankrupt.is_none());
            let Some(work) = self.charts_work.as_mut() else {
                return false;
            };
            if let Some(lap) = &mut work.lap {
                if lap.chooser.is_some() || lap.at < lap.sums.len() {
                    return true;
                }
                let top = lap.sums.iter().map(|&(_, sum)| sum).max().unwrap_or(0);
                let winners: Vec<Seat> = lap.sums.iter().filter(|e| e.1 == top).map(|e| e.0).collect();
                if top > 0 && winners.len() == 1 {
                    lap.chooser = Some(winners[0]);
                    return true;
                }
                work.lap = None;
                self.trend_resolve(ev);
                continue;
            }
            let Some(group) = work.groups.first_mut() else {
                self.finish_charts(ev);
                return false;
            };
            match group.len() {
                0 => {
                    work.groups.remove(0);
                }
                1 => {
                    let s = group.remove(0);
                    let song = s.song.id;
                    work.placed.push(vec![s]);
                    tell(
                        ev,
                        GameEvent::ChartPlaced {
                            field: work.placed.len() as u8,
                            songs: vec![song],
                            tie_break: TieBreak::Score,
                        },
                    );
                }
                _ => {
                    let mut owners: Vec<Seat> = group.iter().map(|s| s.song.owner).collect();
                    owners.sort_unstable();
                    owners.dedup();
                    let seats: Vec<Seat> = order
                        .iter()
                        .copied()
                        .filter(|&s| owners.contains(&s) && solvent[s])
                        .collect();
                    if owners.len() >= 2 && !seats.is_empty() {
                        tell(
                            ev,
                            GameEvent::SponsorLap {
                                seats: seats.clone(),
                                songs: group.iter().map(|s| s.song.id).collect(),
                            },
                        );
                        work.lap = Some(Lap {
                            sums: seats.iter().map(|&s| (s, 0)).collect(),
                            at: 0,
                            chooser: None,
                        });
                        return true;
                    }
                    self.trend_resolve(ev);
                }
            }
        }
    }

    /// S36: the best trend points place next; several best share the field.
    pub(crate) fn trend_resolve(&mut self, ev: &mut Events) {
        let points: Vec<u32> = match self.charts_work.as_ref().and_then(|w| w.groups.first()) {
            Some(g) => g.iter().map(|s| self.trend_points(&s.song)).collect(),
            None => return,
        };
        let Some(work) = self.charts_work.as_mut() else {
            return;
        };
        let Some(group) = work.groups.first_mut() else {
            return;
        };
        let best = points.iter().copied().max().unwrap_or(0);
        let mut winners = Vec::new();
        let mut rest = Vec::new();
        for (s, p) in std::mem::take(group).into_iter().zip(points) {
            if p == best { winners.push(s) } else { rest.push(s) }
        }
        *group = rest;
        let songs = winners.iter().map(|s| s.song.id).collect();
        work.placed.push(winners);
        tell(
            ev,
            GameEvent::ChartPlaced {
                field: work.placed.len() as u8,
                songs,
                tie_break: TieBreak::TrendPoints,
            },
        );
    }

    pub(crate) fn charts_decider(&self) -> Option<Seat> {
        let lap = self.charts_work.as_ref()?.lap.as_ref()?;
        lap.chooser.or_else(|| lap.sums.get(lap.at).map(|e| e.0))
    }

    pub(crate) fn charts_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        let Some(work) = &self.charts_work else { return };
        let Some(lap) = &work.lap else { return };
        if lap.chooser == Some(seat) {
            if let Some(g) = work.groups.first() {
                out.extend(g.iter().map(|s| Action::ChooseSong { song: s.song.id }));
            }
        } else if lap.sums.get(lap.at).map(|e| e.0) == Some(seat) {
            for &c in &self.players[seat].hand {
                if c.character() == Character::Sponsor {
                    out.push(Action::SponsorTie { card: c });
                }
            }
            out.push(Action::Done);
        }
    }

    pub(crate) fn charts_exec(&mut self, seat: Seat, a: &Action, ev: &mut Events) {
        match a {
            Action::SponsorTie { card } => {
                let c = *card;
                let hand = &mut self.players[seat].hand;
                if let Some(i) = hand.iter().position(|&x| x == c) {
                    hand.remove(i);
                    self.known.retain(|&(k, _)| k != c);
                    self.players[seat].influence_field.push(c);
                }
                let power = c.power();
                if let Some(lap) = self.charts_work.as_mut().and_then(|w| w.lap.as_mut()) {
                    lap.sums[lap.at].1 += power as u32;
                    let sum = lap.sums[lap.at].1;
                    tell(
                        ev,
                        GameEvent::SponsorCard {
                            seat,
                            card: c,
                            power,
                            sum,
                        },
                    );
                }
            }
            Action::Done => {
                if let Some(lap) = self.charts_work.as_mut().and_then(|w| w.lap.as_mut()) {
                    let sum = lap.sums[lap.at].1;
                    lap.at += 1;
                    tell(ev, GameEvent::SponsorDone { seat, sum });
                }
            }
            Action::ChooseSong { song } => {
                let Some(work) = self.charts_work.as_mut() else {
                    return;
                };
                if let Some(g) = work.groups.first_mut()
                    && let Some(i) = g.iter().position(|s| s.song.id == *song)
                {
                    let s = g.remove(i);
                    work.placed.push(vec![s]);
                    tell(
                        ev,
                        GameEvent::ChartPlaced {
                            field: work.placed.len() as u8,
                            songs: vec![*song],
                            tie_break: TieBreak::Sponsor { seat },
                        },
                    );
                }
                work.lap = None;
            }
            _ => {}
        }
    }

    /// Charts: popularity for fields 1-5, scandals overshadowed, songs below 5 leave.
    pub(crate) fn finish_charts(&mut self, ev: &mut Events) {
        let Some(work) = self.charts_work.take() else {
            return;
        };
        let mut chart = work.placed;
        chart.resize(components().chart.len(), Vec::new());
        for (i, field) in chart.iter().enumerate().take(CHART_KEEP) {
            if field.is_empty() {
                continue;
            }
            let base = FIELD_POINTS[i];
            for s in field {
                let owner = s.song.owner;
                if self.players[owner].bankrupt.is_some() {
                    continue;
                }
                let points = if field.len() == 1 {
                    let hits = self.hits(&s.song);
                    let mut p = base;
                    if hits[0] {
                        p += STYLE_BONUS.get(i).copied().unwrap_or(0);
                    }
                    if hits.iter().all(|&h| h) {
                        p += ALL_DICE_BONUS.get(i).copied().unwrap_or(0);
                    }
                    p
                } else {
                    base / field.len() as i64
                };
                self.gain_popularity(
                    owner,
                    points,
                    PopularityCause::Charts {
                        song: s.song.id,
                        field: i as u8 + 1,
                    },
                    ev,
                );
                if i < 3 && self.players[owner].scandal {
                    self.players[owner].scandal = false;
                    tell(
                        ev,
                        GameEvent::Scandal {
                            seats: vec![owner],
                            running: false,
                        },
                    );
                }
            }
        }
        let mut leaving = Vec::new();
        for field in chart.iter_mut().skip(CHART_KEEP) {
            leaving.extend(field.drain(..).map(|s| s.song.id));
        }
        tell(ev, GameEvent::ChartsDone { leaving });
        self.chart = chart;
    }
}

/// Runs this module's automatic steps; returns a decision that still waits for its seat.
pub(super) fn step(game: &mut ShowBusiness, task: Task, ev: &mut Events) -> Option<Task> {
    match task {
        Task::Charts => game.charts_progress(ev).then_some(Task::Charts),
        _ => None,
    }
}

/// The actions `seat` may post at this module's decision `task`.
pub(super) fn legal(game: &ShowBusiness, seat: Seat, task: &Task, out: &mut Vec<Action>) {
    if let Task::Charts = task {
        game.charts_actions(seat, out);
    }
}

/// Applies `action`, legal at this module's decision `task` (already taken off the queue).
pub(super) fn exec(game: &mut ShowBusiness, seat: Seat, task: Task, action: &Action, ev: &mut Events) {
    match (task, action) {
        (Task::Charts, a) => {
            game.queue.push_front(Task::Charts);
            game.charts_exec(seat, a, ev);
        }
        (t, _) => game.queue.push_front(t),
    }
}

pub(super) const RULES: Rules = Rules { step, legal, exec };
