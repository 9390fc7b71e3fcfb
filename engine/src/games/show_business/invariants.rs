//! What must always hold of a position, and what each viewer must not see (the secrets).

use std::collections::BTreeSet;

use super::components::{ArtistId, CardId, TokenId, components};
use super::rules;
use super::state::{ShowBusiness, Task};
use super::view::content;
use crate::{Seat, Viewer};

impl ShowBusiness {
    /// Every component is in exactly one place, and every track within its bounds.
    pub(crate) fn invariants(&self) -> Result<(), String> {
        self.card_count()?;
        for (seat, p) in self.players.seats() {
            if p.bankrupt.is_some() != p.time.is_none() {
                return Err(format!(
                    "seat {seat}: the time marker is off the track iff bankrupt (S34)"
                ));
            }
            if p.cash < 0 {
                return Err(format!("seat {seat} has negative cash"));
            }
            if p.satisfaction > rules::MAX_SATISFACTION || p.time.is_some_and(|t| t > rules::LAST_WEEK) {
                return Err(format!("seat {seat}: a track is out of bounds"));
            }
            if p.popularity < rules::POPULARITY_FLOOR {
                return Err(format!("seat {seat}: popularity below -25"));
            }
            if p.band.len() > rules::MAX_ARTISTS || p.songs.len() > rules::SONG_FIELDS {
                return Err(format!("seat {seat}: too many artists or songs"));
            }
            let mut fields = BTreeSet::new();
            for a in &p.band {
                for &f in &a.fields {
                    if !fields.insert(f) {
                        return Err(format!("seat {seat}: field {f} holds two artists"));
                    }
                }
                if a.tokens.len() > a.card.card().experience_fields as usize {
                    return Err(format!("seat {seat}: too many tokens on an artist"));
                }
            }
        }
        if self.map_tokens.len() > 5 + 5 {
            return Err("too many tokens on the map".into());
        }
        Ok(())
    }

    pub(crate) fn card_count(&self) -> Result<(), String> {
        let c = components();
        let mut cards: Vec<CardId> = Vec::new();
        for p in self.players.iter() {
            cards.extend(&p.hand);
            cards.extend(&p.influence_field);
        }
        cards.extend(&self.influence_pile);
        cards.extend(&self.influence_discard);
        cards.extend(self.influence_market.iter().flatten());
        cards.extend(&self.revealed);
        cards.extend(self.trend_expert.map(|t| t.0));
        let set: BTreeSet<CardId> = cards.iter().copied().collect();
        if cards.len() != c.influence.len() || set.len() != cards.len() {
            return Err(format!(
                "{} influence cards in play, {} distinct",
                cards.len(),
                set.len()
            ));
        }
        let mut artists: Vec<ArtistId> = Vec::new();
        let mut tokens: Vec<TokenId> = Vec::new();
        for p in self.players.iter() {
            for a in &p.band {
                artists.push(a.card);
                tokens.extend(&a.tokens);
            }
        }
        artists.extend(&self.artist_pile);
        artists.extend(&self.artist_discard);
        artists.extend(self.artist_market.iter().flatten());
        let set: BTreeSet<ArtistId> = artists.iter().copied().collect();
        if artists.len() != c.artists.len() || set.len() != artists.len() {
            return Err(format!(
                "{} artist cards in play, {} distinct",
                artists.len(),
                set.len()
            ));
        }
        tokens.extend(&self.bag);
        tokens.extend(&self.used_tokens);
        tokens.extend(&self.map_tokens);
        tokens.extend(self.concert_market.iter().flatten());
        for t in &self.queue {
            if let Task::PlaceToken { token, .. } = t {
                tokens.push(*token);
            }
        }
        let set: BTreeSet<TokenId> = tokens.iter().copied().collect();
        if tokens.len() != c.tokens.len() || set.len() != tokens.len() {
            return Err(format!(
                "{} concert tokens in play, {} distinct",
                tokens.len(),
                set.len()
            ));
        }
        Ok(())
    }

    /// Whether `viewer` knows this hand card of `owner`: a seat told of it, or, for a
    /// spectator, a card every other seat knows (bought from the market in view of all).
    pub(crate) fn knows(&self, viewer: Viewer, owner: Seat, card: CardId) -> bool {
        match viewer.seat() {
            Some(v) => self.known.contains(&(card, v)),
            None => Seat::all(self.players.len())
                .filter(|&o| o != owner)
                .all(|o| self.known.contains(&(card, o))),
        }
    }

    /// S2: hands, undisclosed songs, piles holding cards never seen, the bag and sealed bids.
    pub(crate) fn hidden_from(&self, viewer: Viewer) -> Vec<String> {
        if self.result.is_some() {
            return vec![];
        }
        let me = viewer.seat();
        let mut out = Vec::new();
        for (seat, p) in Seat::all(self.players.len()).zip(self.players.iter()) {
            if me == Some(seat) {
                continue;
            }
            for &card in &p.hand {
                if !self.knows(viewer, seat, card) {
                    out.push(card.id().to_owned());
                }
            }
            out.extend(p.songs.iter().map(|s| content(s).label));
        }
        for field in &self.chart {
            for s in field {
                if !s.disclosed && me != Some(s.song.owner) {
                    out.push(content(&s.song).label);
                }
            }
        }
        if !self.reformed[0] {
            out.extend(self.influence_pile.iter().map(|c| c.id().to_owned()));
        }
        if !self.reformed[1] {
            out.extend(self.artist_pile.iter().map(|a| a.id().to_owned()));
        }
        if !self.reformed[2] {
            out.extend(self.bag.iter().map(|t| t.id().to_owned()));
        }
        if let Some(Task::Bid(b)) = self.queue.front() {
            for &s in &b.seats {
                if Some(s) != me
                    && let Some(amount) = b.bids[s]
                {
                    out.push(format!("bid {} of seat {s}: {amount}", b.round));
                }
            }
        }
        out
    }
}
