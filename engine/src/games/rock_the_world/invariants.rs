//! What must always hold, and what a viewer must never see.

use super::components::Token;
use super::components::{BOARD, CharacterId, DECK_SIZE, SPACES, START_CASH, TOKEN_SUPPLY};
use super::events::End;
use super::state::RockTheWorld;
use crate::Viewer;

impl RockTheWorld {
    /// R14: only the order of the play deck is hidden, from everyone, until the end.
    pub(super) fn hidden_from(&self, _viewer: Viewer) -> Vec<String> {
        if self.end().is_some() {
            return Vec::new();
        }
        self.deck.iter().map(|c| c.id().to_owned()).collect()
    }

    /// Cards, tokens, characters and money all accounted for.
    pub(super) fn invariants(&self) -> Result<(), String> {
        let mut seen = [false; DECK_SIZE];
        for &card in self.deck.iter().chain(&self.discard) {
            let slot = seen
                .get_mut(usize::from(card.0))
                .ok_or_else(|| format!("card number {} does not exist", card.0))?;
            if *slot {
                return Err(format!("card {} is in play twice", card.id()));
            }
            *slot = true;
        }
        if seen.iter().any(|s| !s) {
            return Err("a play card is missing".into());
        }
        for token in Token::ALL {
            let held: u32 = self.players.iter().map(|p| u32::from(p.tokens.get(token))).sum();
            let total = held + u32::from(self.supply.get(token)) + u32::from(self.spent.get(token));
            if total != u32::from(TOKEN_SUPPLY) {
                return Err(format!("{total} {token:?} tokens in play, not {TOKEN_SUPPLY}"));
            }
        }
        let over = self.end().is_some();
        for (i, holder) in self.holders.iter().enumerate() {
            if let Some(h) = *holder {
                let p = self
                    .players
                    .get(h)
                    .ok_or(format!("character {i} held by no seat"))?;
                if p.out && !over {
                    return Err(format!("character {i} held by eliminated seat {h}"));
                }
            }
        }
        let cash: u64 = self.players.iter().map(|p| p.cash).sum();
        let expected = (START_CASH * self.seats() as u64 + self.bank_paid).checked_sub(self.bank_received);
        if expected != Some(cash) {
            return Err(format!("cash {cash} is not start + bank paid - bank received"));
        }
        for (s, p) in self.players.seats() {
            if !(1..=SPACES).contains(&p.space) {
                return Err(format!("seat {s} is on space {}", p.space));
            }
            if p.out && !over && (p.cash != 0 || p.tokens.total() != 0) {
                return Err(format!("eliminated seat {s} still holds cash or tokens"));
            }
        }
        if let Some(r) = self.rocker {
            let kept = self.end() == Some(End::RockerEliminated { rocker: r });
            if self.players.get(r).is_none_or(|p| p.out && !kept) {
                return Err("the rocker is not in the game".into());
            }
            if self.spent.total() != 0 {
                return Err("tokens in the spent pool during the final phase".into());
            }
        }
        if !over && self.players[self.active].out {
            return Err("the active seat is eliminated".into());
        }
        if BOARD.iter().filter(|c| c.character.is_some()).count() != CharacterId::ALL.len() {
            return Err("board and characters disagree".into());
        }
        Ok(())
    }
}
