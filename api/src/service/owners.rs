//! What apps own: the limits on their creations, and the indexes of their games and of their
//! players' games, read back a page at a time (`GET /v1/games` with an app's key, `GET
//! /v1/me/games` with a player's token).
//!
//! The indexes are filed after the game is written; an entry whose game has expired is pruned
//! as a page is read, and an entry of the live index whose game is over is pruned when the app
//! nears its limit of live games, so the indexes need no write in the same step as a game's.

use sha2::{Digest, Sha256};

use crate::apps::App;
use crate::store::Indexed;
use crate::table::{Code, GameId, Refusal, Table};
use crate::wire::Status;
use crate::wire::lobby::{FinishedLinks, OpenGame, OpenGames};

use super::Games;

/// The most index entries one page reads, whatever its filters: a page may hold fewer games
/// than asked for, with a cursor to read on.
const MAX_SCANNED: usize = 200;

/// The index of every game of `app`.
fn app_index(app: &str) -> String {
    format!("app:{app}")
}

/// The index of the running games of `app` (pruned of finished ones when counted).
fn live_index(app: &str) -> String {
    format!("app:{app}:live")
}

/// The index of the games of `player` of `app`: the id is hashed, so any bytes may name one.
fn player_index(app: &str, player: &str) -> String {
    let digest = Sha256::digest(player.as_bytes());
    format!("app:{app}:player:{}", hex::encode(&digest[..16]))
}

/// Which games a page of an index shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// Every game.
    All,
    /// Games being played.
    Active,
    /// Games over.
    Finished,
    /// Games with a seat anyone may join.
    Open,
}

impl Shown {
    fn admits(self, game: &Table) -> bool {
        let over = game.is_over();
        match self {
            Shown::All => true,
            Shown::Active => !over,
            Shown::Finished => over,
            Shown::Open => !over && game.seats.has_open_seat(),
        }
    }
}

/// Where a page starts: the phase (for a player's games, the running ones before the finished
/// ones) and the last entry already shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// Finished games (a player's second phase).
    pub finished: bool,
    /// The last entry shown, if any.
    pub after: Option<Indexed>,
}

impl Cursor {
    /// The cursor as sent back: `a` or `f`, then `.<created ms>.<id>` once an entry was shown.
    pub fn encode(&self) -> String {
        let phase = if self.finished { "f" } else { "a" };
        match &self.after {
            Some(entry) => format!("{phase}.{}.{}", entry.created_ms, entry.id),
            None => phase.to_owned(),
        }
    }

    /// A cursor as a client sent it back: `400 malformed_query` for anything this server did
    /// not write.
    pub fn decode(text: &str) -> Result<Self, Refusal> {
        let bad = || Refusal::new(Code::MalformedQuery, "cursor is not one this server gave");
        let mut parts = text.splitn(3, '.');
        let finished = match parts.next() {
            Some("a") => false,
            Some("f") => true,
            _ => return Err(bad()),
        };
        let after = match (parts.next(), parts.next()) {
            (None, None) => None,
            (Some(ms), Some(id)) => {
                let created_ms = ms.parse().map_err(|_| bad())?;
                GameId::parse(id).map_err(|_| bad())?;
                Some(Indexed {
                    id: id.to_owned(),
                    created_ms,
                })
            }
            _ => return Err(bad()),
        };
        Ok(Self { finished, after })
    }
}

/// A page of an app's games, as the edge parsed the query.
#[derive(Clone, Debug)]
pub struct GamesPage {
    /// Which games.
    pub shown: Shown,
    /// Only this ruleset's.
    pub ruleset: Option<&'static str>,
    /// Only this player's.
    pub player: Option<String>,
    /// Where to start.
    pub cursor: Option<Cursor>,
    /// At most this many.
    pub limit: usize,
}

impl Games {
    /// `403 ruleset_not_allowed`, `429 rate_limited` or `429 app_limit_reached` unless `app`
    /// may create a game of `ruleset` now, by its limits.
    pub(super) async fn admit_app_creation(&self, app: &App, ruleset: &str) -> Result<(), Refusal> {
        if let Some(allowed) = &app.limits.rulesets
            && !allowed.iter().any(|slug| slug == ruleset)
        {
            return Err(Refusal::new(
                Code::RulesetNotAllowed,
                format!(
                    "the app may create games of {} only (limits.rulesets)",
                    allowed.join(", ")
                ),
            ));
        }
        if let Some(quota) = app.limits.creations {
            let refused = |wait_ms: u64| {
                Refusal::rate_limited(
                    wait_ms.div_ceil(1000),
                    format!(
                        "the app may create {} games at once and {} per second after that \
                         (limits.creation_burst, limits.creations_per_second)",
                        quota.burst, quota.per_second
                    ),
                )
            };
            let now = super::now_ms();
            let spent_until = self
                .spent_apps
                .lock()
                .ok()
                .and_then(|spent| spent.get(&app.id).copied())
                .filter(|until| *until > now);
            if let Some(until) = spent_until {
                self.metrics.rate_limited();
                return Err(refused(until - now));
            }
            let bucket = format!("app-create:{}", app.id);
            if let Some(wait) = self.counted(self.store.take_token(&bucket, quota).await)? {
                let wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX);
                if let Ok(mut spent) = self.spent_apps.lock() {
                    spent.retain(|_, until| *until > now);
                    spent.insert(app.id.clone(), now.saturating_add(wait_ms));
                }
                self.metrics.rate_limited();
                return Err(refused(wait_ms));
            }
        }
        if let Some(most) = app.limits.live_games
            && self.live_games(&app.id, most).await? >= most
        {
            return Err(Refusal::new(
                Code::AppLimitReached,
                format!("the app has {most} live games, as many as it may (limits.live_games)"),
            ));
        }
        Ok(())
    }

    /// How many games of `app` are running, counted exactly once the index holds `most` or
    /// more entries (those of games over or expired are pruned then).
    async fn live_games(&self, app: &str, most: u64) -> Result<u64, Refusal> {
        let index = live_index(app);
        let filed = self.counted(self.store.indexed_count(&index).await)?;
        if filed < most {
            return Ok(filed);
        }
        let mut live = 0;
        let mut after: Option<Indexed> = None;
        loop {
            let entries = self.counted(self.store.indexed(&index, after.as_ref(), MAX_SCANNED).await)?;
            let Some(last) = entries.last().cloned() else {
                return Ok(live);
            };
            for entry in entries {
                match self.indexed_game(&index, &entry.id).await? {
                    Some(game) if !game.is_over() => live += 1,
                    Some(_) => {
                        let _ = self.store.unindex(&index, &entry.id).await;
                    }
                    None => {}
                }
            }
            after = Some(last);
        }
    }

    /// Files a new game in its app's indexes and in those of its players. The game is written
    /// already, so a store that fails here is logged: the game is then missing from listings,
    /// never wrong in them.
    pub(super) async fn index_created(&self, game: &Table) {
        let Some(app) = &game.app else { return };
        let mut indexes = vec![app_index(app), live_index(app)];
        let mut players: Vec<&str> = game.seats.player_ids().collect();
        players.sort_unstable();
        players.dedup();
        indexes.extend(players.into_iter().map(|p| player_index(app, p)));
        self.index_player_games(game, indexes).await;
    }

    /// Files `game` in `indexes`, logging a failure.
    pub(super) async fn index_player_games(&self, game: &Table, indexes: Vec<String>) {
        let created_ms = game.seats.created.saturating_mul(1000);
        if let Err(e) = self.store.index(&indexes, &game.id, created_ms).await {
            tracing::warn!(game = %game.id, error = %e, "could not file the game in its app's indexes");
        }
    }

    /// A seat that changed hands to `player` files the game in that player's index.
    pub(super) async fn index_seated(&self, game: &Table, player: &str) {
        if let Some(app) = &game.app {
            self.index_player_games(game, vec![player_index(app, player)])
                .await;
        }
    }

    /// The game `id` of `index`, or `None` (and the entry pruned) when it is gone.
    async fn indexed_game(&self, index: &str, id: &str) -> Result<Option<std::sync::Arc<Table>>, Refusal> {
        let Ok(parsed) = GameId::parse(id) else {
            let _ = self.store.unindex(index, id).await;
            return Ok(None);
        };
        match self.read(&parsed).await {
            Ok(game) => Ok(Some(game)),
            Err(e) if e.code() == Code::GameNotFound => {
                let _ = self.store.unindex(index, id).await;
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// One page of `index`, in `phase`, from `after`: the games `keep` admits, and where the
    /// next page starts (`None` at the end of the phase).
    async fn page(
        &self,
        index: &str,
        after: Option<Indexed>,
        limit: usize,
        keep: impl Fn(&Table) -> bool,
    ) -> Result<(Vec<OpenGame>, Option<Indexed>), Refusal> {
        let entries = self.counted(self.store.indexed(index, after.as_ref(), MAX_SCANNED).await)?;
        let end = entries.len() < MAX_SCANNED;
        let mut games = Vec::new();
        let mut last = after;
        for entry in entries {
            if games.len() == limit {
                return Ok((games, last));
            }
            if let Some(game) = self.indexed_game(index, &entry.id).await?
                && keep(&game)
            {
                games.push(summary(&game));
            }
            last = Some(entry);
        }
        Ok((games, if end { None } else { last }))
    }

    /// A page of the games of `app` (`GET /v1/games` with its key).
    pub async fn app_games(&self, app: &str, page: GamesPage) -> Result<OpenGames, Refusal> {
        let index = match &page.player {
            Some(player) => player_index(app, player),
            None => app_index(app),
        };
        let after = page.cursor.and_then(|c| c.after);
        let (shown, ruleset) = (page.shown, page.ruleset);
        let (games, next) = self
            .page(&index, after, page.limit, |game| {
                game.app.as_deref() == Some(app)
                    && shown.admits(game)
                    && ruleset.is_none_or(|slug| game.game.ruleset().slug == slug)
            })
            .await?;
        Ok(OpenGames {
            games,
            next: next.map(|after| {
                Cursor {
                    finished: false,
                    after: Some(after),
                }
                .encode()
            }),
        })
    }

    /// A page of the games of `player` of `app` (`GET /v1/me/games`): the running ones first,
    /// then the finished ones, each the newest first.
    pub async fn player_games(
        &self,
        app: &str,
        player: &str,
        cursor: Option<Cursor>,
        limit: usize,
    ) -> Result<OpenGames, Refusal> {
        let index = player_index(app, player);
        let mut cursor = cursor.unwrap_or(Cursor {
            finished: false,
            after: None,
        });
        let mine = |game: &Table| game.app.as_deref() == Some(app) && !game.seats.seats_of(player).is_empty();
        let mut games = Vec::new();
        loop {
            let finished = cursor.finished;
            let (found, next) = self
                .page(&index, cursor.after.take(), limit - games.len(), |game| {
                    mine(game) && game.is_over() == finished
                })
                .await?;
            games.extend(found);
            match (next, finished) {
                (Some(after), _) => {
                    cursor.after = Some(after);
                    break;
                }
                (None, false) => cursor.finished = true,
                (None, true) => {
                    return Ok(OpenGames { games, next: None });
                }
            }
            if games.len() == limit {
                break;
            }
        }
        Ok(OpenGames {
            games,
            next: Some(cursor.encode()),
        })
    }
}

/// How a listing shows a game.
fn summary(game: &Table) -> OpenGame {
    OpenGame {
        id: game.id.clone(),
        ruleset: game.game.ruleset().slug.to_owned(),
        version: game.revision.number,
        created: game.seats.created,
        status: Some(Status::of_table(game)),
        seats: game.seats.describe(game.game.seat_count()),
        finished: game.is_over().then(|| FinishedLinks::of(&game.id)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_as_written_and_anything_else_is_refused() {
        let cursor = Cursor {
            finished: true,
            after: Some(Indexed {
                id: "0123456789abcdef01234567".into(),
                created_ms: 1_700_000_000_000,
            }),
        };
        assert_eq!(Cursor::decode(&cursor.encode()).expect("reads"), cursor);
        assert_eq!(Cursor::decode("a").expect("reads").after, None);
        for bad in [
            "",
            "x",
            "a.1",
            "a.x.0123456789abcdef01234567",
            "f.1.nothex",
            "a.1.{x}",
        ] {
            assert_eq!(Cursor::decode(bad).expect_err(bad).code(), Code::MalformedQuery);
        }
    }
}
