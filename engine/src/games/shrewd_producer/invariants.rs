//! Conservation checks and the hidden-information list.

use super::components::{
    ARTISTS, ARTISTS_PER_ROUND, MAX_DEBTS, RAISE_BILLS, SCOUT_MONEY, SCOUT_MONEY_REMOVED_3P, SONGS,
};
use super::state::{ScoutBid, ShrewdProducer, Stage};
use crate::Viewer;

/// Counts each index of a table once; `Err` on a card seen twice.
struct Tally {
    seen: u32,
    what: &'static str,
}

impl Tally {
    fn new(what: &'static str) -> Self {
        Self { seen: 0, what }
    }

    fn add(&mut self, index: u8, id: &str) -> Result<(), String> {
        let bit = 1u32 << index;
        if self.seen & bit != 0 {
            return Err(format!("{} {id} is in two places", self.what));
        }
        self.seen |= bit;
        Ok(())
    }

    fn count(&self) -> usize {
        self.seen.count_ones() as usize
    }
}

impl ShrewdProducer {
    pub(crate) fn invariants(&self) -> Result<(), String> {
        // DERIVED 4: 40 Raise Money bills, in hands, in front of bidders or in the supply.
        let bills: u32 = u32::from(self.supply)
            + self
                .players
                .iter()
                .map(|p| u32::from(p.bills) + u32::from(p.raised))
                .sum::<u32>();
        if bills != u32::from(RAISE_BILLS) {
            return Err(format!("{bills} Raise Money bills instead of {RAISE_BILLS}"));
        }

        // DERIVED 2: 24 Scout Money cards (18 in play with 3 players, 6 removed).
        let mut scout = Tally::new("Scout Money card");
        for &c in self.scout_deck.iter().chain(&self.scout_discard) {
            scout.add(c.0, c.id())?;
        }
        for p in self.players.iter() {
            for &c in p
                .hand
                .iter()
                .chain(p.pair.iter().flatten())
                .chain(p.passing.iter())
            {
                scout.add(c.0, c.id())?;
            }
            if let Some(ScoutBid::Card(c)) = p.bid {
                scout.add(c.0, c.id())?;
            }
        }
        let in_play = scout.count();
        for &c in &self.scout_removed {
            scout.add(c.0, c.id())?;
        }
        let removed = if self.seats() == 3 {
            SCOUT_MONEY_REMOVED_3P.len()
        } else {
            0
        };
        if scout.count() != SCOUT_MONEY.len() || in_play != SCOUT_MONEY.len() - removed {
            return Err(format!(
                "{in_play} Scout Money cards in play and {} removed",
                scout.count() - in_play
            ));
        }

        // DERIVED 1: 24 artists, two revealed a round.
        let mut artists = Tally::new("artist");
        for &a in self
            .artist_deck
            .iter()
            .chain(&self.revealed)
            .chain(&self.artist_discard)
        {
            artists.add(a.0, a.id())?;
        }
        for p in self.players.iter() {
            for &a in &p.artists {
                artists.add(a.0, a.id())?;
            }
        }
        if artists.count() != ARTISTS.len() {
            return Err(format!(
                "{} artists instead of {}",
                artists.count(),
                ARTISTS.len()
            ));
        }
        if self.artist_deck.len() + ARTISTS_PER_ROUND * usize::from(self.round) != ARTISTS.len() {
            return Err(format!(
                "{} artists face down in round {}",
                self.artist_deck.len(),
                self.round
            ));
        }

        // G1: 12 songs.
        let mut songs = Tally::new("song");
        for &s in self.open_songs.iter().chain(&self.removed_songs) {
            songs.add(s.0, s.id())?;
        }
        for p in self.players.iter() {
            for &s in &p.songs {
                songs.add(s.0, s.id())?;
            }
        }
        if songs.count() != SONGS.len() {
            return Err(format!("{} songs instead of {}", songs.count(), SONGS.len()));
        }

        if let Some((seat, p)) = self.players.seats().find(|(_, p)| p.debts > MAX_DEBTS) {
            return Err(format!("seat {seat} has {} debts", p.debts));
        }
        if self.stage == Stage::Over && !self.seats_to_act().is_empty() {
            return Err("seats to act after the end".into());
        }
        Ok(())
    }

    /// G15: what `viewer` may not see: other seats' Scout Money, the face-down Scout Money and
    /// artist piles, and a Lv.1 song removed face down. Everything is public once the game ends.
    pub(crate) fn hidden_from(&self, viewer: Viewer) -> Vec<String> {
        if self.stage == Stage::Over {
            return Vec::new();
        }
        let mut out: Vec<String> = Vec::with_capacity(48);
        out.extend(self.scout_deck.iter().map(|c| c.id().to_owned()));
        for (seat, p) in self.players.seats() {
            if viewer.seat() == Some(seat) {
                continue;
            }
            out.extend(
                p.hand
                    .iter()
                    .chain(p.pair.iter().flatten())
                    .chain(p.passing.iter())
                    .map(|c| c.id().to_owned()),
            );
        }
        out.extend(self.artist_deck.iter().map(|a| a.id().to_owned()));
        out.extend(self.removed_songs.iter().map(|s| s.id().to_owned()));
        out
    }
}
