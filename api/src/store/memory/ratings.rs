//! Ratings in memory, as the Redis scripts keep them: a board per (app, ruleset).

use std::collections::HashMap;

use async_trait::async_trait;

use super::MemoryStore;
use crate::store::StoreError;
use crate::store::ratings::{
    BOARD_SCAN, Board, BoardPage, BoardRow, PlayerStanding, RECENT_GAMES, Rated, RatingWrite, Ratings,
};
use crate::table::rating::Standing;

/// One player on a board.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    name: String,
    standing: Standing,
    recent: Vec<String>,
}

/// One (app, ruleset)'s ratings.
#[derive(Debug, Default)]
pub(super) struct Sheet {
    players: HashMap<String, Entry>,
    rated: HashMap<String, String>,
}

impl Sheet {
    /// The players best first: by shown rating, then by id from the last (as a sorted set in
    /// reverse orders equal scores).
    fn order(&self) -> Vec<(&String, &Entry)> {
        let mut order: Vec<(&String, &Entry)> = self.players.iter().collect();
        order.sort_by(|a, b| (b.1.standing.skill.shown(), b.0).cmp(&(a.1.standing.skill.shown(), a.0)));
        order
    }
}

/// Every board, by (app, ruleset).
pub(super) type Sheets = HashMap<(String, String), Sheet>;

impl MemoryStore {
    fn sheets(&self) -> Result<std::sync::MutexGuard<'_, Sheets>, StoreError> {
        self.ratings
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))
    }
}

fn key(board: Board<'_>) -> (String, String) {
    (board.app.to_owned(), board.ruleset.to_owned())
}

#[async_trait]
impl Ratings for MemoryStore {
    async fn standings(&self, board: Board<'_>, players: &[&str]) -> Result<Vec<Standing>, StoreError> {
        let sheets = self.sheets()?;
        let sheet = sheets.get(&key(board));
        Ok(players
            .iter()
            .map(|player| {
                sheet
                    .and_then(|s| s.players.get(*player))
                    .map_or_else(Standing::default, |e| e.standing)
            })
            .collect())
    }

    async fn rate(
        &self,
        board: Board<'_>,
        game: &str,
        changes: &str,
        writes: &[RatingWrite],
    ) -> Result<Rated, StoreError> {
        let mut sheets = self.sheets()?;
        let sheet = sheets.entry(key(board)).or_default();
        if let Some(before) = sheet.rated.get(game) {
            return Ok(Rated::Before(before.clone()));
        }
        let moved = writes
            .iter()
            .any(|w| sheet.players.get(&w.player).map_or(0, |e| e.standing.games) != w.games_before);
        if moved {
            return Ok(Rated::Moved);
        }
        for write in writes {
            let entry = sheet
                .players
                .entry(write.player.clone())
                .or_insert_with(|| Entry {
                    name: String::new(),
                    standing: Standing::default(),
                    recent: Vec::new(),
                });
            entry.name.clone_from(&write.name);
            entry.standing = write.after;
            entry.recent.insert(0, write.recent.clone());
            entry.recent.truncate(RECENT_GAMES);
        }
        sheet.rated.insert(game.to_owned(), changes.to_owned());
        Ok(Rated::Written)
    }

    async fn leaderboard(
        &self,
        board: Board<'_>,
        offset: u64,
        limit: usize,
        min_games: u32,
    ) -> Result<BoardPage, StoreError> {
        let sheets = self.sheets()?;
        let Some(sheet) = sheets.get(&key(board)) else {
            return Ok(BoardPage::default());
        };
        let order = sheet.order();
        let mut page = BoardPage::default();
        let mut at = usize::try_from(offset).unwrap_or(usize::MAX);
        let mut looked = 0;
        while page.rows.len() < limit && looked < BOARD_SCAN && at < order.len() {
            let (player, entry) = order[at];
            at += 1;
            looked += 1;
            if entry.standing.games >= min_games {
                page.rows.push(BoardRow {
                    player: player.clone(),
                    name: entry.name.clone(),
                    standing: entry.standing,
                });
            }
        }
        page.next = (at < order.len()).then_some(at as u64);
        Ok(page)
    }

    async fn player_standing(
        &self,
        board: Board<'_>,
        player: &str,
    ) -> Result<Option<PlayerStanding>, StoreError> {
        let sheets = self.sheets()?;
        let Some(sheet) = sheets.get(&key(board)) else {
            return Ok(None);
        };
        let Some(entry) = sheet.players.get(player) else {
            return Ok(None);
        };
        let place = sheet
            .order()
            .iter()
            .position(|(id, _)| id.as_str() == player)
            .unwrap_or(0) as u64
            + 1;
        Ok(Some(PlayerStanding {
            name: entry.name.clone(),
            standing: entry.standing,
            place,
            recent: entry.recent.clone(),
        }))
    }
}
