//! The position a seat cannot tell apart from this one, for the expert bot's search.
//!
//! What a seat does not see (the view's rules): other seats' hand cards it has not been shown,
//! the order of the influence pile, the artist pile and the bag, the content of other seats'
//! songs until disclosed, other seats' sealed bids and poll answers until all are in, and the
//! dice to come. The sample keeps everything else, deals the unseen influence cards (the other
//! hands' unknown cards and the pile) anew at the sizes everyone sees, shuffles the artist pile
//! and the bag, gives every hidden song a content drawn at random, takes back the sealed answers
//! (so those seats decide again) and draws the rng anew.

use std::collections::BTreeMap;

use rand::RngCore;

use super::components::{CardId, LYRICS, SongId, Style, TEMPI, VOLUMES};
use super::state::{ShowBusiness, Song, Task};
use crate::Seat;
use crate::rng::GameRng;

impl ShowBusiness {
    /// A sample for `seat`, drawn with `rng`.
    pub(super) fn determinized(&self, seat: Seat, rng: &mut dyn RngCore) -> Self {
        let mut sample = self.clone();
        let mut draw = GameRng::new(rng.next_u64());
        let known = |card: CardId| self.known.contains(&(card, seat));

        let mut unseen: Vec<CardId> = sample.influence_pile.clone();
        for (s, p) in sample.players.seats() {
            if s != seat {
                unseen.extend(p.hand.iter().copied().filter(|&c| !known(c)));
            }
        }
        unseen.sort_unstable();
        draw.shuffle(&mut unseen);
        for (s, p) in sample.players.seats_mut() {
            if s == seat {
                continue;
            }
            for card in p.hand.iter_mut().filter(|c| !known(**c)) {
                if let Some(dealt) = unseen.pop() {
                    *card = dealt;
                }
            }
        }
        sample.influence_pile = unseen;
        sample.artist_pile.sort_unstable();
        draw.shuffle(&mut sample.artist_pile);
        sample.bag.sort_unstable();
        draw.shuffle(&mut sample.bag);

        let mut contents: BTreeMap<SongId, Song> = BTreeMap::new();
        let mut hidden: Vec<SongId> = Vec::new();
        for (s, p) in self.players.seats() {
            if s != seat {
                hidden.extend(p.songs.iter().map(|song| song.id));
            }
        }
        let charted = self.chart.iter().flatten().chain(
            self.charts_work
                .iter()
                .flat_map(|w| w.groups.iter().chain(&w.placed).flatten()),
        );
        for entry in charted {
            if entry.song.owner != seat && !entry.disclosed {
                hidden.push(entry.song.id);
            }
        }
        hidden.sort_unstable();
        hidden.dedup();
        let owners: BTreeMap<SongId, Seat> = self
            .players
            .iter()
            .flat_map(|p| &p.songs)
            .chain(self.chart.iter().flatten().map(|c| &c.song))
            .chain(
                self.charts_work
                    .iter()
                    .flat_map(|w| w.groups.iter().chain(&w.placed).flatten().map(|c| &c.song)),
            )
            .map(|song| (song.id, song.owner))
            .collect();
        for id in hidden {
            let Some(&owner) = owners.get(&id) else {
                continue;
            };
            let style = Style::ALL[draw.below(Style::ALL.len())];
            contents.insert(
                id,
                Song {
                    id,
                    owner,
                    style,
                    lyrics: draw.below(LYRICS.len()) as u8,
                    tempo: draw.below(TEMPI.len()) as u8,
                    volume: draw.below(VOLUMES.len()) as u8,
                    experience: self.song_experience(owner, style),
                },
            );
        }
        let redraw = |song: &mut Song| {
            if let Some(drawn) = contents.get(&song.id) {
                *song = drawn.clone();
            }
        };
        for p in sample.players.iter_mut() {
            p.songs.iter_mut().for_each(redraw);
        }
        for entry in sample.chart.iter_mut().flatten() {
            if !entry.disclosed {
                redraw(&mut entry.song);
            }
        }
        if let Some(work) = sample.charts_work.as_mut() {
            for entry in work.groups.iter_mut().chain(work.placed.iter_mut()).flatten() {
                if !entry.disclosed {
                    redraw(&mut entry.song);
                }
            }
        }

        match sample.queue.front_mut() {
            Some(Task::Bid(bidding)) => {
                for (s, bid) in bidding.bids.seats_mut() {
                    if s != seat {
                        *bid = None;
                    }
                }
            }
            Some(Task::Poll { answers }) => {
                for (s, answer) in answers.seats_mut() {
                    if s != seat && self.solvent(s) {
                        *answer = None;
                    }
                }
            }
            _ => {}
        }
        sample.rng = GameRng::new(rng.next_u64());
        sample
    }
}
